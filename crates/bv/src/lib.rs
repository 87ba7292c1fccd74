//! Bounding volumes and primitive geometric tests for `obbtree`.
//!
//! Every public geometric type uses nalgebra with `f64`.
//!
//! * [`volume`]: the [`BoundingVolume`] trait the hierarchies are generic over.
//! * [`aabb`], [`obb`], [`sphere`], [`kdop`], [`rss`]: the volumes.
//! * [`fit`]: the fitting methods (covariance, convex hull, Eberly, Ritter, Welzl, ...).
//! * [`intersect`]: the primitive tests, one pair per file (`obb_obb.rs`, `ray_triangle.rs`, ...).
//! * [`distance`]: closest points and distances, and lower bounds between posed volumes, one
//!   pair per file (`tri_tri.rs`, `rss_rss.rs`, ...).
//! * [`trimesh`]: the validated triangle mesh everything is built over.
//!
//! Closed-set policy: every volume and primitive is a closed set, so touching counts as
//! intersecting.
#![doc = ""]
#![doc = include_str!("../tightness.md")]
#![forbid(unsafe_code)]

pub mod aabb;
pub mod distance;
pub mod fit;
pub mod intersect;
pub mod kdop;
pub mod obb;
pub mod predicates;
pub mod ray;
pub mod rss;
pub mod sphere;
pub mod triangle;
pub mod trimesh;
pub mod volume;

pub use aabb::Aabb;
pub use fit::{ObbFit, SphereFit};
pub use kdop::{Kdop, Kdop14, Kdop18, Kdop26, Kdop6};
pub use obb::Obb;
pub use ray::Ray;
pub use rss::Rss;
pub use sphere::Sphere;
pub use triangle::Triangle;
pub use trimesh::{MeshError, TriMesh, MAX_COORDINATE, MIN_NONZERO_COORDINATE};
pub use volume::BoundingVolume;

/// Re-exported so that users need not depend on nalgebra directly.
pub use nalgebra;
/// 3D point with `f64` coordinates.
pub type Point = nalgebra::Point3<f64>;
/// 3D vector with `f64` coordinates.
pub type Vector = nalgebra::Vector3<f64>;
/// Rigid motion (rotation + translation) with `f64` coordinates.
pub type Isometry = nalgebra::Isometry3<f64>;
