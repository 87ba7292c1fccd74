//! The queries users call: dual-tree mesh–mesh collision with exact triangle tests, ray picking
//! and frustum culling.

pub mod cull;
pub mod pick;

pub use cull::{cull, Culled};
pub use pick::{any_hit, cast_ray, cast_ray_all, RayHit};
