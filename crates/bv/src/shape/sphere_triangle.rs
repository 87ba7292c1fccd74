//! Sphere against triangle.

use crate::distance::tri_tri::within;
use crate::{Point, Triangle};

/// Whether the ball of radius `r` about `c` meets the closed triangle `t`: whether the exact
/// distance from `c` to `t` is at most `r` (Ericson (2005) §5.2.7, sphere against triangle by
/// the closest point). Decided exactly by [`within`] with `c` as the zero-area triangle
/// `(c, c, c)`; a triangle wholly inside the ball is at distance at most `r` and touches.
pub fn sphere_triangle(c: &Point, r: f64, t: &Triangle) -> bool {
    within(&Triangle::new(*c, *c, *c), t, r)
}
