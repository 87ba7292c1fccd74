//! Sphere against solid convex polytope.

use super::Polytope;
use crate::distance::tri_tri::within;
use crate::{Point, Triangle};

/// Whether the ball of radius `r` about `c` meets the solid polytope `p`, exactly: `c` in `p`
/// ([`Polytope::contains`]), or else (`c` outside, so its distance to the solid is its
/// distance to the boundary) `c` within `r` of a boundary triangle ([`within`], exact).
/// Ericson (2005) §5.2.8 (sphere against polygon, by closest points).
pub fn sphere_polytope(c: &Point, r: f64, p: &Polytope) -> bool {
    if p.contains(c) {
        return true;
    }
    let point = Triangle::new(*c, *c, *c);
    p.boundary().any(|face| within(&point, &face, r))
}
