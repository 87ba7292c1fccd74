//! The first hit along a ray.

use super::shape::shape_hits;
use super::traverse::Visitor;
use super::{prepare, walk, MeshRay, RayHit, RayVolume};
use crate::model::Form;
use crate::Model;
use crate::{MeshModel, QueryError};
use obbtree_bv::intersect::ray_triangle::TriangleHit;
use obbtree_bv::{Pose, Ray, Triangle};
use std::ops::ControlFlow;

/// The first triangle of `model`'s mesh (placed at `pose`) that `ray` (world frame) hits with
/// `0 <= t <= max_t`. Ties in `t` go to the lowest triangle index, whatever the tree.
/// A shape is hit on its surface (see [the module docs](super)): the entry, or the exit for a
/// ray starting inside.
///
/// Triangles are closed and two-sided, and the test is watertight: the exact signs of the edge
/// functions (Ericson, *Real-Time Collision Detection* (2005) §5.3.4) decide each hit, so a ray
/// through a shared edge or vertex of a closed mesh hits at least one of the triangles around
/// it, never none. A ray in a triangle's plane does not hit it. An
/// error ([`QueryError`]) for an origin or a pose translation beyond ±1e100 or not finite, a
/// zero or non-finite direction, or a negative or NaN `max_t`.
pub fn cast_ray<V: RayVolume>(
    model: &Model<V>,
    pose: &Pose,
    ray: &Ray,
    max_t: f64,
) -> Result<Option<RayHit>, QueryError> {
    let model = match model.form() {
        Form::Mesh(m) => m,
        Form::Shape(s) => return Ok(shape_hits(s, pose, ray, max_t)?.first().copied()),
    };
    let local = prepare(pose, ray, max_t)?;
    Ok(cast_prepared(model, pose, ray, &local, max_t))
}

/// [`cast_ray`] on checked input: `local` is `ray` moved into the mesh frame.
#[inline]
pub(crate) fn cast_prepared<V: RayVolume>(
    model: &MeshModel<V>,
    pose: &Pose,
    ray: &Ray,
    local: &MeshRay,
    max_t: f64,
) -> Option<RayHit> {
    let mut closest = Closest {
        bound: max_t,
        best: None,
    };
    walk(model, local, &mut closest);
    closest
        .best
        .map(|(triangle, tri, hit)| RayHit::new(&tri, pose, triangle, &hit, &ray.origin, &ray.dir))
}

/// Keeps the hit with the smallest `(t, triangle)`.
struct Closest {
    /// `max_t`, then the best hit's `t` (read at every node: kept apart from `best`).
    bound: f64,
    best: Option<(u32, Triangle, TriangleHit)>,
}

impl Visitor for Closest {
    #[inline]
    fn bound(&self) -> f64 {
        self.bound
    }

    #[inline]
    fn hit(&mut self, triangle: u32, tri: &Triangle, hit: TriangleHit) -> ControlFlow<()> {
        let better = match self.best {
            None => true,
            Some((best, _, b)) => hit.t < b.t || (hit.t == b.t && triangle < best),
        };
        if better {
            self.best = Some((triangle, *tri, hit));
            self.bound = hit.t;
        }
        ControlFlow::Continue(())
    }
}
