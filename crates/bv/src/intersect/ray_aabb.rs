//! Ray–AABB: the slab method and Woo's method.

use super::{hit::RayHit, slab};
use crate::{Aabb, Ray};

/// The parameter interval `[t_enter, t_exit]` (clamped to `t >= 0`) of the ray inside the
/// closed box, by the slab method (Kay & Kajiya, "Ray tracing complex scenes", SIGGRAPH 1986;
/// Ericson, *Real-Time Collision Detection* (2005), §5.3.3; *Real-Time Rendering*, 3rd ed.
/// (2008), §16.7). Handles the parallel case `d_i = 0` by the origin's slab test.
pub fn interval(ray: &Ray, aabb: &Aabb) -> Option<(f64, f64)> {
    (0..3).try_fold((0.0, f64::INFINITY), |iv, i| {
        slab::clip(iv, ray.origin[i], ray.dir[i], aabb.mins[i], aabb.maxs[i])
    })
}

/// First point of the ray in the closed box (`t = 0` if the origin is inside), by slabs.
pub fn cast(ray: &Ray, aabb: &Aabb) -> Option<RayHit> {
    interval(ray, aabb).map(|(t, _)| RayHit::at(ray, t))
}

/// Same result as [`cast`] by Woo's method (A. Woo, "Fast ray-box intersection", Graphics
/// Gems, 1990): pick the front-facing plane of each slab, take the largest of the (at most
/// three) plane hits, and accept it if the point lies on that face.
pub fn cast_woo(ray: &Ray, aabb: &Aabb) -> Option<RayHit> {
    let (o, d) = (&ray.origin, &ray.dir);
    let mut plane = [f64::NAN; 3];
    let mut t_plane = [f64::NEG_INFINITY; 3];
    for i in 0..3 {
        if o[i] < aabb.mins[i] {
            plane[i] = aabb.mins[i];
        } else if o[i] > aabb.maxs[i] {
            plane[i] = aabb.maxs[i];
        } else {
            continue;
        }
        // Outside this slab and not moving towards it (or parallel): never enters.
        if (plane[i] - o[i]) * d[i] <= 0.0 {
            return None;
        }
        t_plane[i] = (plane[i] - o[i]) / d[i];
    }
    let k = (0..3).fold(0, |k, i| if t_plane[i] > t_plane[k] { i } else { k });
    if t_plane[k] == f64::NEG_INFINITY {
        return Some(RayHit::at(ray, 0.0)); // origin inside
    }
    let t = t_plane[k];
    let mut point = ray.point_at(t);
    for j in (0..3).filter(|&j| j != k) {
        if point[j] < aabb.mins[j] || point[j] > aabb.maxs[j] {
            return None;
        }
    }
    point[k] = plane[k];
    Some(RayHit { t, point })
}
