//! Capsule against cylinder.

use super::capsule_capsule::capsule_capsule;
use super::cylinder_triangle::cylinder_triangle;
use super::sphere_cylinder::sphere_cylinder;
use crate::{Point, Triangle};

/// Whether the capsule of radius `s` about `[c, d]` meets the solid cylinder of radius `r`
/// about `[a, b]`: conservative (see below).
pub fn capsule_cylinder([c, d]: [&Point; 2], s: f64, [a, b]: [&Point; 2], r: f64) -> bool {
    if !capsule_capsule([a, b], r, [c, d], s) {
        return false;
    }
    if sphere_cylinder(c, s, [a, b], r)
        || sphere_cylinder(d, s, [a, b], r)
        || cylinder_triangle([a, b], r, &Triangle::new(*c, *d, *d))
    {
        return true;
    }
    true
}
