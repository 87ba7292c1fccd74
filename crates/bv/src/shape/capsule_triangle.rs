//! Capsule against triangle.

use crate::distance::tri_tri::within;
use crate::{Point, Triangle};

/// Whether the capsule of radius `r` about the segment `[a, b]` meets the closed triangle `t`:
/// whether the exact distance between the segment and `t` is at most `r` (Ericson (2005)
/// §5.5.7, the capsule as a swept sphere; the segment–triangle distance). Decided exactly by
/// [`within`] with the segment as the zero-area triangle `(a, b, b)`.
pub fn capsule_triangle([a, b]: [&Point; 2], r: f64, t: &Triangle) -> bool {
    within(&Triangle::new(*a, *b, *b), t, r)
}
