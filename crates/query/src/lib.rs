//! The queries users call: dual-tree mesh–mesh collision with exact triangle tests, ray picking
//! and frustum culling.

pub mod collide;

pub use collide::{
    collide, collide_many, self_collide, CollisionRequest, CollisionResult, Containment, Mode,
    Model, Pose, PosedOverlap,
};
