//! Ray–k-DOP by slabs.

use super::{hit::RayHit, slab};
use crate::{Kdop, Ray};

/// The parameter interval (clamped to `t >= 0`) of the ray inside the closed k-DOP: one slab
/// `min_i <= n_i · p <= max_i` per axis (the slab method of Kay & Kajiya 1986, made for such
/// slab-bounded volumes; *Real-Time Rendering*, 3rd ed. (2008), §16.7). Axes need not be unit
/// length.
pub fn interval<const A: usize>(ray: &Ray, kdop: &Kdop<A>) -> Option<(f64, f64)> {
    let axes = Kdop::<A>::axes();
    (0..A).try_fold((0.0, f64::INFINITY), |iv, i| {
        let n = &axes[i];
        slab::clip(
            iv,
            n.dot(&ray.origin.coords),
            n.dot(&ray.dir),
            kdop.min[i],
            kdop.max[i],
        )
    })
}

/// First point of the ray in the closed k-DOP (`t = 0` if the origin is inside).
pub fn cast<const A: usize>(ray: &Ray, kdop: &Kdop<A>) -> Option<RayHit> {
    interval(ray, kdop).map(|(t, _)| RayHit::at(ray, t))
}
