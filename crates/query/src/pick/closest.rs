//! The first hit along a ray.

use super::traverse::{walk, Visitor};
use super::{prepare, PickError, RayHit, RayVolume};
use obbtree_bv::intersect::ray_triangle::TriangleHit;
use obbtree_bv::{Isometry, Ray, TriMesh};
use obbtree_tree::Bvh;
use std::ops::ControlFlow;

/// The first triangle of `mesh` (placed at `pose`) that `ray` hits with `0 <= t <= max_t`,
/// through `tree` (built over `mesh` in its own frame). Ties in `t` go to the lowest triangle
/// index. See the [module policy](super).
pub fn cast_ray<V: RayVolume>(
    mesh: &TriMesh,
    tree: &Bvh<V>,
    pose: &Isometry,
    ray: &Ray,
    max_t: f64,
) -> Result<Option<RayHit>, PickError> {
    let local = prepare(mesh, tree, pose, ray, max_t)?;
    let mut closest = Closest { max_t, best: None };
    walk(mesh, tree, &local, &mut closest);
    Ok(closest
        .best
        .map(|(triangle, hit)| RayHit::new(mesh, pose, triangle, &hit, &ray.origin, &ray.dir)))
}

/// Keeps the hit with the smallest `(t, triangle)`.
pub(crate) struct Closest {
    pub max_t: f64,
    pub best: Option<(u32, TriangleHit)>,
}

impl Visitor for Closest {
    #[inline]
    fn bound(&self) -> f64 {
        self.best.map_or(self.max_t, |(_, hit)| hit.t)
    }

    #[inline]
    fn hit(&mut self, triangle: u32, hit: TriangleHit) -> ControlFlow<()> {
        let better = match self.best {
            None => true,
            Some((best, b)) => hit.t < b.t || (hit.t == b.t && triangle < best),
        };
        if better {
            self.best = Some((triangle, hit));
        }
        ControlFlow::Continue(())
    }
}
