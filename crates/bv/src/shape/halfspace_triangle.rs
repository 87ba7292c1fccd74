//! Halfspace against triangle.

use super::plane::side;
use crate::{Triangle, Vector};

/// Whether the closed halfspace `n·p <= d` meets the closed triangle `t`: a vertex on its
/// closed side (a linear function's least value on a triangle is at a vertex; Ericson (2005)
/// §5.2.3). Each sign is exact (see `plane::side`).
pub fn halfspace_triangle(n: &Vector, d: f64, t: &Triangle) -> bool {
    t.vertices().iter().any(|v| side(n, d, v) <= 0)
}
