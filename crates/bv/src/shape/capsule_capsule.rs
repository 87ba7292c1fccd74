//! Capsule against capsule.

use crate::distance::tri_tri::within_sum;
use crate::{Point, Triangle};

/// Whether the capsules of radii `r` about `[a, b]` and `s` about `[c, d]` meet: the distance
/// between the segments at most `r + s` (Ericson (2005) §4.5.1), decided exactly by
/// [`within_sum`] on `(a, b, b)` and `(c, d, d)`.
pub fn capsule_capsule([a, b]: [&Point; 2], r: f64, [c, d]: [&Point; 2], s: f64) -> bool {
    within_sum(&Triangle::new(*a, *b, *b), &Triangle::new(*c, *d, *d), r, s)
}
