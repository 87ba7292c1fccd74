//! Sphere against sphere.

use crate::distance::tri_tri::within_sum;
use crate::{Point, Triangle};

/// Whether the balls of radii `r` about `c` and `s` about `d` meet: `|c − d| <= r + s` for the
/// real sum `r + s` (Ericson (2005) §4.3.1), decided exactly by [`within_sum`] on the centres
/// as zero-area triangles.
pub fn sphere_sphere(c: &Point, r: f64, d: &Point, s: f64) -> bool {
    within_sum(&Triangle::new(*c, *c, *c), &Triangle::new(*d, *d, *d), r, s)
}
