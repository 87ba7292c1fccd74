//! Ray–OBB by slabs.

use super::{hit::RayHit, slab};
use crate::{Obb, Ray};

/// The parameter interval (clamped to `t >= 0`) of the ray inside the closed box: the slab
/// method along the box axes (seed 000 §9.2.2 "射线与有向包围盒", eq. 9.10–9.11 and steps 1–28,
/// with the README erratum: `t0' = (s - l_k) / r`, `t1' = (s + l_k) / r`).
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
