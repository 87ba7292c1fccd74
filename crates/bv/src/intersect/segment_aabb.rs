//! Segment–AABB overlap by separating axes.

use crate::{Aabb, Point, Vector};

/// Whether the closed segment `p0 p1` meets the closed box: the separating-axis test of
/// Gregory, Lin, Gottschalk & Taylor, "H-COLLIDE", IEEE Virtual Reality 1999 (Ericson,
/// *Real-Time Collision Detection* (2005), §5.3.3; *Real-Time Rendering*, 3rd ed. (2008),
/// §16.7).
pub fn overlaps(p0: &Point, p1: &Point, aabb: &Aabb) -> bool {
    let center = nalgebra::center(&aabb.mins, &aabb.maxs);
    let half_extents = (aabb.maxs - aabb.mins) * 0.5;
    overlaps_centered(
        &(nalgebra::center(p0, p1) - center),
        &((p1 - p0) * 0.5),
        &half_extents,
    )
}

/// The test in the box's frame: segment midpoint `m`, half-vector `w`, box half-extents `l`.
/// Axes: the three box axes (`|m_i| > |w_i| + l_i`), then `w × e_i`
/// (e.g. `|m_y w_z - m_z w_y| > l_y |w_z| + l_z |w_y|`). Any exact or rounded axis is a valid
/// separating direction here (no identity is assumed), so near-parallel segments are safe.
pub fn overlaps_centered(m: &Vector, w: &Vector, l: &Vector) -> bool {
    let aw = w.abs();
    if (0..3).any(|i| m[i].abs() > aw[i] + l[i]) {
        return false;
    }
    let separates = |s: f64, r: f64| s.abs() > r;
    !(separates(m.y * w.z - m.z * w.y, l.y * aw.z + l.z * aw.y)
        || separates(m.z * w.x - m.x * w.z, l.x * aw.z + l.z * aw.x)
        || separates(m.x * w.y - m.y * w.x, l.x * aw.y + l.y * aw.x))
}
