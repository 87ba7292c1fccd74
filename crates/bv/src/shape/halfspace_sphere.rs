//! Halfspace against sphere.

use super::plane::ball_meets;
use crate::{Point, Vector};

/// Whether the closed halfspace `n·p <= d` meets the ball of radius `r` about `c`:
/// `n·c − d <= r·|n|`, decided exactly for any nonzero `n` (not necessarily of unit length) by
/// comparing squares with their signs (Ericson (2005) §5.2.2; see `plane::ball_meets` for the
/// filter's error bound).
pub fn halfspace_sphere(n: &Vector, d: f64, c: &Point, r: f64) -> bool {
    ball_meets(n, d, c, r)
}
