//! obbtree: exact answers about triangle meshes — do two meshes touch, and where; which
//! triangle does a ray hit first — over bounding-volume hierarchies (OBB, AABB, k-DOP, sphere).
//!
//! Everything a query needs is at the crate root: a [`TriMesh`] (your vertices and triangles,
//! validated), a [`Model`] (the mesh with its hierarchy, built once, cheap to share; or a
//! primitive solid, a [`Shape`]: sphere, capsule, box, convex hull, halfspace), a [`Pose`]
//! (a rigid motion), and the queries ([`collide`], [`cast_ray`], [`cull()`], …), each returning a
//! [`QueryError`] rather than an answer it cannot vouch for. Touching counts as intersecting.
//! Many posed meshes at once (broad phase, filters, temporal coherence) are a [`Scene`]
//! ([`scene`]). The volumes and primitive tests are in [`bv`], the hierarchies in [`tree`]; mesh
//! files are read by [`load`] (default feature `load`) and robots by `urdf` (feature `urdf`),
//! which also makes a robot's links scene objects.
//!
//! ```
//! use obbtree::{collide, CollisionRequest, Model, Point, Pose, TriMesh};
//!
//! // Your own arrays: a unit square in the plane z = 0, as two triangles.
//! let square = TriMesh::new(
//!     vec![
//!         Point::new(0.0, 0.0, 0.0),
//!         Point::new(1.0, 0.0, 0.0),
//!         Point::new(1.0, 1.0, 0.0),
//!         Point::new(0.0, 1.0, 0.0),
//!     ],
//!     vec![[0, 1, 2], [0, 2, 3]],
//! )?;
//! let a: Model = Model::new(square.clone())?;
//! let b: Model = Model::new(square)?;
//! // B turned a quarter about x and moved to x = 0.5: it stands upright across A.
//! let pose_b = Pose::new([0.5, 0.0, 0.0], [std::f64::consts::FRAC_PI_2, 0.0, 0.0])?;
//! let result = collide(&a, &Pose::identity(), &b, &pose_b, &CollisionRequest::default())?;
//! assert!(result.intersects);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

pub use obbtree_bv as bv;
pub use obbtree_scene as scene;
pub use obbtree_tree as tree;

pub use obbtree_bv::shape::{Shape, ShapeError};
pub use obbtree_bv::{MeshError, Motion, Point, Pose, PoseError, Ray, TriMesh, Vector};
pub use obbtree_query::{
    any_hit, cast_ray, cast_ray_all, cast_rays, cast_rays_into, closest_points, collide,
    collide_into, collide_many, collide_motion, contains_point, contains_points, distance,
    distance_many, pick_pixel, proximity_pairs, sdf_grid, sdf_grid_into, self_collide,
    spatial_order, winding_numbers, within_margin, BatchError, Camera, CameraError, ClosestPoint,
    CollisionRequest, CollisionResult, Containment, Culled, DistanceRequest, DistanceResult,
    DistanceTracker, FrustumVolume, Grid, MeshModel, Mode, Model, ModelOptions, MotionRequest,
    MotionResult, PointRequest, PosedOverlap, QueryError, RayHit, RayIndex, RayVolume, Side,
    Volume, Winding, WindingRequest,
};
// The query modules beside the queries at the root: `cull` names both the function and its
// module (reference brute force, caches, error details, ray internals, separating planes,
// volume traits).
pub use obbtree_query::{brute, caches, cull, pick, separation, volume};
pub use obbtree_scene::{
    Candidate, CollisionFilter, ExternalContact, Object, ObjectContact, ObjectDistance, ObjectId,
    PairFilter, QueryStats, Scene, SceneError, SceneHit, SweepHit,
};
pub use obbtree_tree::{volume_kinds, with_volume, BuildError, BuildOptions, VolumeKind};

pub mod error;
pub use error::Error;

#[cfg(feature = "load")]
pub mod load;
#[cfg(feature = "urdf")]
pub mod urdf;
