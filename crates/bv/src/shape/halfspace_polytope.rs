//! Halfspace against solid convex polytope.

use super::plane::side;
use super::Polytope;
use crate::Vector;

/// Whether the closed halfspace `n·p <= d` meets the solid polytope `p`: a vertex on its
/// closed side (a linear function's least value on a polytope is at a vertex; Ericson (2005)
/// §5.2.3). Each sign is exact.
pub fn halfspace_polytope(n: &Vector, d: f64, p: &Polytope) -> bool {
    p.vertices().iter().any(|v| side(n, d, v) <= 0)
}
