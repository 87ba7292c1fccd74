//! Every hit along a ray.

use super::shape::shape_hits;
use super::traverse::Visitor;
use super::{prepare, walk, RayHit, RayVolume};
use crate::model::Form;
use crate::Model;
use crate::QueryError;
use obbtree_bv::intersect::ray_triangle::TriangleHit;
use obbtree_bv::{Pose, Ray, Triangle};
use std::ops::ControlFlow;

/// Every triangle of `model`'s mesh (placed at `pose`) that `ray` hits with `0 <= t <= max_t`, sorted
/// by `t`, ties by triangle index. A ray through a shared edge or vertex reports each triangle
/// whose own test accepts it (one or more). A shape gives its entry and exit (see
/// [the module docs](super)). Watertight, and the same errors, as [`cast_ray`](super::cast_ray).
pub fn cast_ray_all<V: RayVolume>(
    model: &Model<V>,
    pose: &Pose,
    ray: &Ray,
    max_t: f64,
) -> Result<Vec<RayHit>, QueryError> {
    let model = match model.form() {
        Form::Mesh(m) => m,
        Form::Shape(s) => return shape_hits(s, pose, ray, max_t),
    };
    let local = prepare(pose, ray, max_t)?;
    let mut all = All {
        max_t,
        hits: Vec::new(),
    };
    walk(model, &local, &mut all);
    all.hits
        .sort_unstable_by(|(ta, _, a), (tb, _, b)| a.t.total_cmp(&b.t).then(ta.cmp(tb)));
    Ok(all
        .hits
        .iter()
        .map(|(triangle, tri, hit)| RayHit::new(tri, pose, *triangle, hit, &ray.origin, &ray.dir))
        .collect())
}

struct All {
    max_t: f64,
    hits: Vec<(u32, Triangle, TriangleHit)>,
}

impl Visitor for All {
    fn bound(&self) -> f64 {
        self.max_t
    }

    fn hit(&mut self, triangle: u32, tri: &Triangle, hit: TriangleHit) -> ControlFlow<()> {
        self.hits.push((triangle, *tri, hit));
        ControlFlow::Continue(())
    }
}
