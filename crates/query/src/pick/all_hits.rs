//! Every hit along a ray.

use super::traverse::{walk, Visitor};
use super::{prepare, PickError, RayHit, RayVolume};
use obbtree_bv::intersect::ray_triangle::TriangleHit;
use obbtree_bv::{Isometry, Ray, TriMesh};
use obbtree_tree::Bvh;
use std::ops::ControlFlow;

/// Every triangle of `mesh` (placed at `pose`) that `ray` hits with `0 <= t <= max_t`, sorted
/// by `t`, ties by triangle index. A ray through a shared edge or vertex reports each triangle
/// whose own test accepts it (one or more). See the [module policy](super).
pub fn cast_ray_all<V: RayVolume>(
    mesh: &TriMesh,
    tree: &Bvh<V>,
    pose: &Isometry,
    ray: &Ray,
    max_t: f64,
) -> Result<Vec<RayHit>, PickError> {
    let local = prepare(mesh, tree, pose, ray, max_t)?;
    let mut all = All {
        max_t,
        hits: Vec::new(),
    };
    walk(mesh, tree, &local, &mut all);
    all.hits
        .sort_unstable_by(|(ta, a), (tb, b)| a.t.total_cmp(&b.t).then(ta.cmp(tb)));
    Ok(all
        .hits
        .iter()
        .map(|(triangle, hit)| RayHit::new(mesh, pose, *triangle, hit, &ray.origin, &ray.dir))
        .collect())
}

struct All {
    max_t: f64,
    hits: Vec<(u32, TriangleHit)>,
}

impl Visitor for All {
    fn bound(&self) -> f64 {
        self.max_t
    }

    fn hit(&mut self, triangle: u32, hit: TriangleHit) -> ControlFlow<()> {
        self.hits.push((triangle, hit));
        ControlFlow::Continue(())
    }
}
