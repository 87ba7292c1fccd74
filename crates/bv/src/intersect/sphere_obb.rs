//! Sphere–OBB overlap.

use super::sphere_aabb;
use crate::{Obb, Sphere};

/// Whether a closed ball and a closed OBB overlap: the centre is expressed in the box frame and
/// the sphere–AABB closest-point test is applied there (Ericson, *Real-Time Collision
/// Detection* (2005), §5.2.6; *Real-Time Rendering*, 3rd ed. (2008), §16.13).
///
/// Conservative: the box is inflated by a bound on the rounding of the frame change
/// (`4ε·(|c_s - c_b|₁ + max h)`), so overlapping volumes are never reported apart.
#[inline]
pub fn overlaps(s: &Sphere, b: &Obb) -> bool {
    let d = s.center - b.center;
    let local = b.axes.tr_mul(&d);
    let slack = 4.0 * f64::EPSILON * (d.abs().sum() + b.half_extents.max());
    let h = b.half_extents.add_scalar(slack);
    sphere_aabb::distance_squared(&local, &-h, &h)
        <= s.radius * s.radius * (1.0 + 8.0 * f64::EPSILON)
}
