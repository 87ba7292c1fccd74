//! Bounding volumes and primitive geometric tests for `obbtree`.
//!
//! Every public geometric type uses nalgebra with `f64`.
//!
//! * [`volume`]: the [`BoundingVolume`] trait the hierarchies are generic over.
//! * [`aabb`], [`obb`], [`sphere`], [`kdop`], [`rss`]: the volumes; [`prism`], the prism around
//!   one triangle that bounds its distance to a point.
//! * [`fit`]: the fitting methods (covariance, convex hull, Eberly, Ritter, Welzl, ...).
//! * [`intersect`]: the primitive tests, one pair per file (`obb_obb.rs`, `ray_triangle.rs`, ...).
//! * [`ccd`]: exact continuous collision of the moving primitive pairs, vertex–face and
//!   edge–edge (linear motion over `t ∈ [0, 1]`), with the time of impact, one pair per file.
//! * [`distance`]: closest points and distances, and lower bounds between posed volumes, one
//!   pair per file (`tri_tri.rs`, `rss_rss.rs`, ...).
//! * [`shape`]: primitive shapes (sphere, capsule, cylinder, box, convex hull, halfspace)
//!   placed by a pose, and touch tests of each against a triangle and against each other, one
//!   pair per file: exact, except capsule–cylinder and cylinder–cylinder (conservative).
//! * [`winding`]: winding numbers of triangles and of far clusters of them, with rigorous
//!   error bounds.
//! * [`trimesh`]: the validated triangle mesh everything is built over.
//! * [`range`]: the coordinates on which the exact predicates are exact, and the check that a
//!   pose keeps a mesh's placed coordinates among them.
//!
//! Closed-set policy: every volume and primitive is a closed set, so touching counts as
//! intersecting.
//!
//! ```
//! use obbtree_bv::intersect::obb_obb;
//! use obbtree_bv::{BoundingVolume, Obb, ObbFit, Point, Pose, TriMesh};
//!
//! // Two triangles forming the unit square in the plane z = 0.
//! let vertices = vec![
//!     Point::new(0.0, 0.0, 0.0),
//!     Point::new(1.0, 0.0, 0.0),
//!     Point::new(1.0, 1.0, 0.0),
//!     Point::new(0.0, 1.0, 0.0),
//! ];
//! let mesh = TriMesh::new(vertices, vec![[0, 1, 2], [0, 2, 3]]).unwrap();
//! let triangles: Vec<[Point; 3]> =
//!     (0..mesh.triangles().len()).map(|i| mesh.triangle(i).vertices()).collect();
//! let square = Obb::fit_triangles(&triangles, ObbFit::default());
//! assert!(mesh.vertices().iter().all(|p| square.contains_point(p, 0.0)));
//!
//! // The same box moved by less than its width still overlaps; moved by more, it does not.
//! let near = square.transformed(&Pose::from_translation([0.5, 0.5, 0.0]).unwrap());
//! let far = square.transformed(&Pose::from_translation([3.0, 0.0, 0.0]).unwrap());
//! assert!(obb_obb::overlaps(&square, &near));
//! assert!(!obb_obb::overlaps(&square, &far));
//! ```
//!
//! Measured tightness of the fits on the bundled meshes is in `docs/performance.md`; the
//! published sources cited in the docs are listed in `docs/references.md`.
// Unsafe code only to call the AVX2 builds of the box fit's loops, where the CPU has AVX2.
#![deny(unsafe_code)]

pub mod aabb;
pub mod ccd;
pub mod distance;
pub mod fit;
pub mod intersect;
pub mod kdop;
mod lanes;
pub mod motion;
pub mod obb;
pub mod pose;
pub mod predicates;
pub mod prism;
pub mod range;
pub mod ray;
pub mod rss;
pub mod shape;
pub mod sphere;
pub mod triangle;
pub mod trimesh;
pub mod volume;
pub mod winding;

#[cfg(test)]
mod test_support;

pub use aabb::Aabb;
pub use fit::{ObbFit, SphereFit};
pub use kdop::{Kdop, Kdop14, Kdop18, Kdop26, Kdop6};
pub use motion::Motion;
pub use obb::Obb;
pub use pose::{Pose, PoseError};
pub use prism::Prism;
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
