//! The queries users call, all on a [`Model`] (a mesh with its hierarchy) placed by a
//! [`Pose`](obbtree_bv::Pose): dual-tree mesh–mesh collision with exact triangle tests
//! ([`collide`]), distances, closest points and exact margins ([`distance`],
//! [`within_margin`]), ray picking ([`cast_ray`]) and frustum culling ([`cull()`]). Every query checks
//! its input and returns a [`QueryError`] rather than an answer it cannot vouch for.
//!
//! ```
//! use obbtree_bv::{Point, Pose, Ray, TriMesh, Vector};
//! use obbtree_query::{cast_ray, Model};
//!
//! let mesh = TriMesh::new(
//!     vec![Point::new(0.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0), Point::new(0.0, 1.0, 0.0)],
//!     vec![[0, 1, 2]],
//! )?;
//! let model: Model = Model::new(mesh)?;
//! let down = Ray::new(Point::new(0.25, 0.25, 1.0), Vector::new(0.0, 0.0, -1.0));
//! let hit = cast_ray(&model, &Pose::identity(), &down, f64::INFINITY)?.expect("a hit");
//! assert_eq!((hit.triangle, hit.t), (0, 1.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// Two `unsafe` blocks: the software prefetch (`prefetch.rs`), a hint that cannot fault, and the
// call of the picking walk compiled for AVX2 after the CPU was found to have it
// (`pick/wide_walk.rs`); everything else is safe code.
#![deny(unsafe_code)]

mod collide;
pub mod cull;
mod distance;
pub mod error;
mod kernel;
mod model;
mod motion;
mod parallel;
pub mod pick;
mod points;
mod prefetch;
mod ranked;
pub mod separation;
#[cfg(test)]
mod test_meshes;
pub mod volume;
mod wide_order;

pub use collide::{
    collide, collide_into, collide_many, contains_point, self_collide, CollisionRequest,
    CollisionResult, Containment, Mode,
};
pub use cull::{cull, Culled};
pub use distance::{
    distance, distance_many, proximity_pairs, within_margin, DistanceRequest, DistanceResult,
    DistanceTracker,
};
pub use error::{BatchError, QueryError};
pub use model::{MeshModel, Model, ModelOptions, RayIndex};
pub use motion::{collide_motion, MotionRequest, MotionResult, DEFAULT_TIME_TOLERANCE};
pub use pick::{
    any_hit, cast_ray, cast_ray_all, cast_rays, cast_rays_into, pick_pixel, Camera, CameraError,
    RayHit,
};
pub use points::{
    closest_points, contains_points, sdf_grid, sdf_grid_into, spatial_order, winding_numbers,
    ClosestPoint, Grid, PointRequest, Side, Winding, WindingRequest,
};
pub use volume::{FrustumVolume, PosedOverlap, RayVolume, Volume};

/// Every triangle pair by the exact predicate, with no hierarchy: reference answers for tests
/// and for meshes of a few triangles.
pub mod brute {
    pub use crate::collide::{brute_force, brute_force_self};
}

/// The per-thread caches queries keep between calls.
pub mod caches {
    pub use crate::collide::release_caches;
}
