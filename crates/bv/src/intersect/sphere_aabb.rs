//! Sphere–AABB overlap.

use crate::{Aabb, Sphere};

/// Relative slack on the squared radius that absorbs the rounding of the squared distance
/// (at most 5 ulps) and of `r²` (1 ulp): the test is conservative.
const SLACK: f64 = 1.0 + 8.0 * f64::EPSILON;

/// Whether a closed ball and a closed AABB overlap: the squared distance from the centre to its
/// closest point in the box, summed axis by axis, is at most `r²` (Arvo, "A simple method for
/// box-sphere intersection testing", Graphics Gems, 1990; Ericson, *Real-Time Collision
/// Detection* (2005), §5.2.5; *Real-Time Rendering*, 3rd ed. (2008), §16.13).
///
/// Conservative: never `false` for overlapping or touching volumes.
#[inline]
pub fn overlaps(s: &Sphere, b: &Aabb) -> bool {
    distance_squared(&s.center.coords, &b.mins.coords, &b.maxs.coords)
        <= s.radius * s.radius * SLACK
}

/// Squared distance from `p` to the box `[lo, hi]` (0 inside): the per-axis excess beyond the
/// slab, squared and summed.
#[inline]
pub(crate) fn distance_squared(p: &crate::Vector, lo: &crate::Vector, hi: &crate::Vector) -> f64 {
    (0..3)
        .map(|i| {
            let e = (lo[i] - p[i]).max(p[i] - hi[i]).max(0.0);
            e * e
        })
        .sum()
}
