//! The queries users call: dual-tree mesh–mesh collision with exact triangle tests, ray picking
//! and frustum culling.

// Two `unsafe` blocks: the software prefetch (`prefetch.rs`), a hint that cannot fault, and the
// call of the picking walk compiled for AVX2 after the CPU was found to have it
// (`pick/compact.rs`); everything else is safe code.
#![deny(unsafe_code)]

pub mod collide;
pub mod cull;
pub mod pick;
mod prefetch;

pub use collide::{
    collide, collide_many, self_collide, CollisionRequest, CollisionResult, Containment, Mode,
    Model, Pose, PosedOverlap,
};
pub use cull::{cull, Culled};
pub use pick::{any_hit, cast_ray, cast_ray_all, RayHit};
