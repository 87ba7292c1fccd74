//! Halfspace against capsule.

use super::plane::ball_meets;
use crate::{Point, Vector};

/// Whether the closed halfspace `n·p <= d` meets the capsule of radius `r` about `[a, b]`:
/// `n·x − d` is linear along the segment, so its least value is at an end, and the capsule
/// meets the halfspace iff the ball about that end does (Ericson (2005) §5.2.2). Decided
/// exactly on both ends.
pub fn halfspace_capsule(n: &Vector, d: f64, [a, b]: [&Point; 2], r: f64) -> bool {
    ball_meets(n, d, a, r) || ball_meets(n, d, b, r)
}
