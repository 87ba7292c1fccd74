//! Ray–OBB by slabs.

use super::{hit::RayHit, slab};
use crate::{Obb, Ray};

/// The parameter interval (clamped to `t >= 0`) of the ray inside the closed box: the slab
/// method along the box axes (Ericson, *Real-Time Collision Detection* (2005), §5.3.3;
/// *Real-Time Rendering*, 3rd ed. (2008), §16.7): with `r = u_k·d` and `s = u_k·(C - o)`, the
/// slab of axis `k` is crossed at `t = (s - l_k) / r` and `(s + l_k) / r`.
pub fn interval(ray: &Ray, obb: &Obb) -> Option<(f64, f64)> {
    let to_center = obb.center - ray.origin;
    (0..3).try_fold((0.0, f64::INFINITY), |iv, k| {
        let u = obb.axes.column(k);
        let (r, s, l) = (u.dot(&ray.dir), u.dot(&to_center), obb.half_extents[k]);
        // Slab `-l <= u·(P + t d - C) <= l`, i.e. origin projection `-s`.
        slab::clip(iv, -s, r, -l, l)
    })
}

/// First point of the ray in the closed box (`t = 0` if the origin is inside).
pub fn cast(ray: &Ray, obb: &Obb) -> Option<RayHit> {
    interval(ray, obb).map(|(t, _)| RayHit::at(ray, t))
}
