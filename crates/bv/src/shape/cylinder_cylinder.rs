//! Cylinder against cylinder.

use super::capsule_cylinder::capsule_cylinder;
use crate::Point;

/// Whether the solid cylinders of radius `r` about `[a, b]` and `s` about `[c, d]` meet:
/// conservative (see below).
pub fn cylinder_cylinder([a, b]: [&Point; 2], r: f64, [c, d]: [&Point; 2], s: f64) -> bool {
    capsule_cylinder([a, b], r, [c, d], s) && capsule_cylinder([c, d], s, [a, b], r)
}
