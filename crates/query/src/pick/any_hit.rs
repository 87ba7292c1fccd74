//! Occlusion: is anything hit?

use super::shape::shape_hits;
use super::traverse::Visitor;
use super::{prepare, walk, RayVolume};
use crate::model::Form;
use crate::Model;
use crate::QueryError;
use obbtree_bv::intersect::ray_triangle::TriangleHit;
use obbtree_bv::{Pose, Ray, Triangle};
use std::ops::ControlFlow;

/// Whether `ray` hits any triangle of `model`'s mesh (placed at `pose`) with `0 <= t <= max_t`; the
/// walk stops at the first triangle hit found (shadow and occlusion rays). Same hits as
/// [`cast_ray`](super::cast_ray): `any_hit` is true exactly when `cast_ray` returns a hit.
pub fn any_hit<V: RayVolume>(
    model: &Model<V>,
    pose: &Pose,
    ray: &Ray,
    max_t: f64,
) -> Result<bool, QueryError> {
    let model = match model.form() {
        Form::Mesh(m) => m,
        Form::Shape(s) => return Ok(!shape_hits(s, pose, ray, max_t)?.is_empty()),
    };
    let local = prepare(pose, ray, max_t)?;
    let mut any = Any {
        max_t,
        found: false,
    };
    walk(model, &local, &mut any);
    Ok(any.found)
}

struct Any {
    max_t: f64,
    found: bool,
}

impl Visitor for Any {
    fn bound(&self) -> f64 {
        self.max_t
    }

    fn hit(&mut self, _: u32, _: &Triangle, _: TriangleHit) -> ControlFlow<()> {
        self.found = true;
        ControlFlow::Break(())
    }
}
