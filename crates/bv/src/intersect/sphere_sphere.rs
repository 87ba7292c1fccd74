//! Sphere–sphere overlap.

use crate::Sphere;

/// Relative slack that absorbs the rounding of `|c_b - c_a|²` (at most 6 ulps) and of
/// `(r_a + r_b)²` (3 ulps), so that the test is conservative.
const SLACK: f64 = 1.0 + 8.0 * f64::EPSILON;

/// Whether two closed balls overlap: the distance between the centres is at most the sum of the
/// radii, compared squared (Ericson, *Real-Time Collision Detection* (2005), §4.3.1; *Real-Time
/// Rendering*, 3rd ed. (2008), §16.13).
///
/// Conservative: never `false` for overlapping or touching balls; may be `true` for balls apart
/// by a few ulps of the centre distance.
#[inline]
pub fn overlaps(a: &Sphere, b: &Sphere) -> bool {
    let r = a.radius + b.radius;
    (b.center - a.center).norm_squared() <= r * r * SLACK
}
