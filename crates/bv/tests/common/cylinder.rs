//! The distance from a point to a solid cylinder in plain floats: the excess beyond the radius
//! and the excess beyond the caps, combined by Pythagoras. An oracle for the certified cylinder
//! distances that shares no code with them (no support mappings, no search).

use obbtree_bv::Point;

/// The distance from `p` to the solid cylinder of axis `a`–`b` (distinct) and radius `radius`.
pub fn point_solid_cylinder(a: &Point, b: &Point, radius: f64, p: &Point) -> f64 {
    let w = b - a;
    let length = w.norm();
    let axis = w / length;
    let h = (p - a).dot(&axis);
    let radial = ((p - a) - axis * h).norm();
    let beyond_side = (radial - radius).max(0.0);
    let beyond_caps = (-h).max(h - length).max(0.0);
    beyond_side.hypot(beyond_caps)
}
