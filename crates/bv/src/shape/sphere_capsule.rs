//! Sphere against capsule.

use crate::distance::tri_tri::within_sum;
use crate::{Point, Triangle};

/// Whether the ball of radius `r` about `c` meets the capsule of radius `s` about `[a, b]`:
/// the distance from `c` to the segment at most `r + s` (Ericson (2005) §4.5.1), decided
/// exactly by [`within_sum`] on `(c, c, c)` and `(a, b, b)`.
pub fn sphere_capsule(c: &Point, r: f64, [a, b]: [&Point; 2], s: f64) -> bool {
    within_sum(&Triangle::new(*c, *c, *c), &Triangle::new(*a, *b, *b), r, s)
}
