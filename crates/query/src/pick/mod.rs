//! Ray picking through a bounding-volume hierarchy (Akenine-Möller, Haines & Hoffman, *Real-Time
//! Rendering*, 3rd ed. 2008, §16.1).
//!
//! * [`cast_ray`]: the first hit (triangle, `t`, point, barycentrics, normal, front/back face).
//! * [`cast_ray_all`]: every hit, sorted by `t` (then by triangle index).
//! * [`any_hit`]: whether anything is hit (occlusion and shadow rays), stopping at the first.
//! * [`Camera`]: the ray through a pixel from view and projection matrices, and [`pick_pixel`].
//! * [`cast_rays`]: many rays in parallel on rayon's pool.
//!
//! Every query takes a [`Model`](crate::Model). A mesh's queries walk its ray index ([`RayIndex`]): the compact
//! [`WideTree`](obbtree_tree::WideTree) (the fastest, built on the first ray query), or the model's own tree of any
//! volume type ([`RayVolume`]: AABB, OBB, k-DOP, sphere). The mesh is placed in the world by
//! a rigid `pose`, and the ray (given in the world) is moved into the mesh frame once per
//! query: the mesh is never transformed. Hits are reported in the world frame; since the pose is rigid,
//! `t` is the same parameter in both frames.
//!
//! A **shape** (sphere, capsule, cylinder, box, convex hull, halfspace) is placed in the world by
//! its pose and hit on its surface, as a closed mesh is: the ray's entry (front face) and exit
//! (back face) with `0 <= t <= max_t`, only the exit when the ray starts inside the solid, an
//! entry at `t = 0` when it starts on the surface. Whether each crossing exists is decided
//! exactly (touching counts); `t` and the normal are floats with the accuracy stated in
//! [`obbtree_bv::shape::ray`]. The hit's `triangle` is the shape's one feature, 0. One
//! dispatch (`pick/shape.rs`) serves [`cast_ray`], [`cast_ray_all`], [`any_hit`] and
//! [`cast_rays`].
//!
//! # Policy (meshes)
//!
//! * **Closed, two-sided triangles**; hits with `0 <= t <= max_t` count (`max_t` may be
//!   `f64::INFINITY`).
//! * **Watertight**: triangles are tested with
//!   [`cast_watertight`](obbtree_bv::intersect::ray_triangle::cast_watertight) (exact edge
//!   signs), and the volume tests only ever err towards accepting a node, so a ray through a
//!   shared edge or vertex of a closed mesh hits at least one of the triangles around it, never
//!   none. A ray in the plane of a triangle, or a zero-area triangle, is not hit by that
//!   triangle's own test.
//! * **Ties**: when several triangles are hit at the same `t` (a shared edge or vertex, or
//!   overlapping triangles), [`cast_ray`] returns the one with the lowest triangle index: the
//!   answer is deterministic and does not depend on the tree's shape or the volume type.
//!   [`cast_ray_all`] reports each of them.
//! * **Bad input** ([`QueryError`]): an origin beyond ±1e100 (the meshes' coordinate range,
//!   within which the exact predicates cannot overflow) or not finite, a non-finite or zero
//!   direction, a pose that translates beyond ±1e100, or a negative or NaN `max_t`; the same
//!   for a shape, and [`QueryError::ShapePlacement`] when the shape cannot be placed exactly at
//!   the pose.

mod all_hits;
mod any_hit;
mod batch;
mod camera;
mod closest;
mod hit;
mod ray;
mod shape;
mod traverse;
mod volume;
mod wide_walk;

pub(crate) use traverse::{Pending, Stack};

pub use all_hits::cast_ray_all;
pub use any_hit::any_hit;
pub use batch::{cast_rays, cast_rays_into};
pub use camera::{pick_pixel, Camera, CameraError};
pub use closest::cast_ray;
pub use hit::RayHit;
pub use ray::MeshRay;
pub use volume::RayVolume;

use crate::error::{check_direction_range, check_max_t, check_ray, check_translation, QueryError};
use crate::model::{MeshModel, RayIndex};
use obbtree_bv::{Pose, Ray};
use traverse::{RayTree, Visitor};

/// Checks a query's inputs and moves the ray into the mesh frame.
pub(crate) fn prepare(pose: &Pose, ray: &Ray, max_t: f64) -> Result<MeshRay, QueryError> {
    check_ray(ray)?;
    check_max_t(max_t)?;
    check_translation(pose)?;
    let local = MeshRay::new(pose, ray);
    check_direction_range(&local.ray.dir)?;
    Ok(local)
}

/// Walks `model`'s ray index along `ray` (mesh frame), reporting to `visitor`.
#[inline]
pub(crate) fn walk<V: RayVolume>(model: &MeshModel<V>, ray: &MeshRay, visitor: &mut impl Visitor) {
    match model.ray_index() {
        RayIndex::Compact => model.pick_tree().walk(model.mesh(), ray, visitor),
        RayIndex::ModelTree => model.tree().walk(model.mesh(), ray, visitor),
    }
}
