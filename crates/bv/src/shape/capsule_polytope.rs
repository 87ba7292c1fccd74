//! Capsule against solid convex polytope.

use super::Polytope;
use crate::distance::tri_tri::within;
use crate::{Point, Triangle};

/// Whether the capsule of radius `r` about `[a, b]` meets the solid polytope `p`, exactly: an
/// end in `p` ([`Polytope::contains`]), or else the segment within `r` of a boundary
/// triangle ([`within`], exact; distance 0 covers a segment crossing the boundary). With
/// both ends outside, a segment that meets the solid crosses its boundary, and its distance
/// to the solid is its distance to the boundary. Ericson (2005) §5.5.7 (swept sphere).
pub fn capsule_polytope([a, b]: [&Point; 2], r: f64, p: &Polytope) -> bool {
    if p.contains(a) || p.contains(b) {
        return true;
    }
    let segment = Triangle::new(*a, *b, *b);
    p.boundary().any(|face| within(&segment, &face, r))
}
