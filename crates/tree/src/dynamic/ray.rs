//! Ray queries, nearest box first: for "the first object a ray hits".

use super::{DynamicTree, ProxyId};
use obbtree_bv::intersect::ray_aabb;
use obbtree_bv::Ray;

impl<T> DynamicTree<T> {
    /// Visits the proxies whose fat box meets the segment `ray.origin + t·ray.dir`,
    /// `0 <= t <= max_t` (closed boxes; `t = 0` from inside a box), in increasing order of the
    /// parameter at which the segment enters the box. `visit(proxy, t_enter)` returns the new
    /// `max_t`: `max_t` to go on, the parameter of an exact hit found in the object to see
    /// only proxies that could be hit nearer, a negative value to stop.
    ///
    /// Boxes are clipped by the slab method ([`ray_aabb::interval`]); its rounded entry
    /// parameter never decreases from a box to a box inside it, so proxies come in order and
    /// none is skipped that the slab test of its own box would accept.
    pub fn cast_ray(&self, ray: &Ray, max_t: f64, visit: impl FnMut(ProxyId, f64) -> f64) {
        self.nearest_by(
            |aabb| ray_aabb::interval(ray, aabb).map(|(t_enter, _)| t_enter),
            max_t,
            visit,
        );
    }
}
