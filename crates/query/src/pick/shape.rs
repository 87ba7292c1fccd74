//! Rays against shapes: the one dispatch from a placed shape to its ray test in
//! [`obbtree_bv::shape`], shared by [`cast_ray`](super::cast_ray),
//! [`cast_ray_all`](super::cast_ray_all), [`any_hit`](super::any_hit) and
//! [`cast_rays`](super::cast_rays).
//!
//! The shape is placed in the world by its pose ([`Shape::place`](obbtree_bv::shape::Shape::place),
//! as collision places it) and the world ray is tested against the placed shape's exact data.
//! A shape is picked by its surface, like a closed mesh (see [`obbtree_bv::shape::ray`]): the
//! ray's entry (front face) and exit (back face) with `0 <= t <= max_t`; from inside the
//! solid, only the exit.

use super::RayHit;
use crate::error::{check_direction_range, check_max_t, check_ray, check_translation};
use crate::error::{Operand, QueryError};
use crate::model::ShapeModel;
use obbtree_bv::shape::{
    ray_capsule, ray_cylinder, ray_halfspace, ray_polytope, ray_sphere, PlacedShape, ShapeCrossing,
    ShapeCrossings,
};
use obbtree_bv::{Pose, Ray};

/// Checks a ray query's inputs and places the shape (the errors of the mesh queries, and
/// [`QueryError::ShapePlacement`] when the shape cannot be placed at `pose`).
pub(crate) fn place_for_ray<V>(
    shape: &ShapeModel<V>,
    pose: &Pose,
    ray: &Ray,
    max_t: f64,
) -> Result<PlacedShape, QueryError> {
    check_ray(ray)?;
    check_max_t(max_t)?;
    check_translation(pose)?;
    check_direction_range(&ray.dir)?;
    shape
        .shape()
        .place(pose)
        .map_err(|source| QueryError::ShapePlacement {
            which: Operand::Model,
            source,
        })
}

/// The crossings of `ray` (world frame, checked) with the surface of `placed`, for
/// `0 <= t <= max_t`: the one dispatch over the pair files.
pub(crate) fn crossings(placed: &PlacedShape, ray: &Ray, max_t: f64) -> ShapeCrossings {
    match placed {
        PlacedShape::Sphere { center, radius } => ray_sphere(center, *radius, ray, max_t),
        PlacedShape::Capsule { a, b, radius } => ray_capsule(a, b, *radius, ray, max_t),
        PlacedShape::Cylinder { a, b, radius } => ray_cylinder(a, b, *radius, ray, max_t),
        PlacedShape::Polytope(p) => ray_polytope(p, ray, max_t),
        PlacedShape::Halfspace { normal, offset } => ray_halfspace(normal, *offset, ray, max_t),
    }
}

/// The hits of `ray` on `shape` placed at `pose`, entry before exit: what the three single-ray
/// queries report for a shape.
pub(crate) fn shape_hits<V>(
    shape: &ShapeModel<V>,
    pose: &Pose,
    ray: &Ray,
    max_t: f64,
) -> Result<Vec<RayHit>, QueryError> {
    let placed = place_for_ray(shape, pose, ray, max_t)?;
    Ok(crossings(&placed, ray, max_t)
        .iter()
        .map(|c| hit(c, ray))
        .collect())
}

/// A crossing as a [`RayHit`]: feature 0, the point `origin + t·dir`, barycentric `[1, 0, 0]`,
/// the outward normal, front face when the ray enters.
pub(crate) fn hit(c: &ShapeCrossing, ray: &Ray) -> RayHit {
    RayHit {
        triangle: 0,
        t: c.t,
        point: ray.point_at(c.t),
        barycentric: [1.0, 0.0, 0.0],
        normal: c.normal,
        front_face: c.entering,
    }
}
