//! Triangle–AABB overlap: the 13-axis separating-axis test.

use crate::{Aabb, Triangle, Vector};

/// Whether a closed triangle and a closed AABB overlap.
///
/// Akenine-Möller's 13-axis test (T. Akenine-Möller, "Fast 3D triangle-box overlap testing",
/// JGT 6(1), 2001; Ericson, *Real-Time Collision Detection* (2005), §5.2.9; *Real-Time
/// Rendering*, 3rd ed. (2008), §16.12): the three box axes, the triangle normal (the plane–box
/// test) and the nine products of a box axis with a triangle edge, the latter three at a time
/// per edge (`test_axis_edge`). The cheap box axes go first.
///
/// Conservative: the box is grown by a bound on the rounding of the projections
/// (`8ε·(max |v - c|₁ + max h)`), so an overlapping or touching pair is never reported apart.
/// Zero-area triangles (segments, points) are handled: their degenerate axes never separate.
pub fn overlaps(tri: &Triangle, aabb: &Aabb) -> bool {
    let center = nalgebra::center(&aabb.mins, &aabb.maxs);
    // Centre and half-extents are rounded: grow by a bound so the box still covers [mins, maxs].
    let half =
        ((aabb.maxs - aabb.mins) * 0.5).add_scalar(2.0 * f64::EPSILON * center.coords.abs().max());
    overlaps_local(tri.vertices().map(|p| p - center), &half)
}

/// The test with the box centred at the origin with half-extents `half`, and the triangle's
/// vertices `v` in the box frame. Grows the box by the rounding bound described on
/// [`overlaps`] (computed from `v`, so it also covers a frame change of comparable error).
pub fn overlaps_local(v: [Vector; 3], half: &Vector) -> bool {
    let reach = v.iter().map(|p| p.abs().sum()).fold(half.max(), f64::max);
    separating_axes_absent(&v, &half.add_scalar(8.0 * f64::EPSILON * reach))
}

/// The 13 axis tests, exactly as stated (no slack).
fn separating_axes_absent(v: &[Vector; 3], h: &Vector) -> bool {
    // The three box axes.
    for k in 0..3 {
        let (lo, hi) = (
            v[0][k].min(v[1][k]).min(v[2][k]),
            v[0][k].max(v[1][k]).max(v[2][k]),
        );
        if lo > h[k] || hi < -h[k] {
            return false;
        }
    }
    // The triangle normal, i.e. the plane–box test. The cross product cancels
    // (it is all rounding noise for a zero-area triangle), so a separation is only accepted
    // beyond a bound on its absolute error.
    let (e, f) = (v[1] - v[0], v[2] - v[0]);
    let n = e.cross(&f);
    let (d, r) = (n.dot(&v[0]).abs(), h.dot(&n.abs()));
    if d > r {
        let n_err = Vector::new(
            (e.y * f.z).abs() + (e.z * f.y).abs(),
            (e.z * f.x).abs() + (e.x * f.z).abs(),
            (e.x * f.y).abs() + (e.y * f.x).abs(),
        );
        if d - r > 8.0 * f64::EPSILON * n_err.dot(&(v[0].abs() + h)) {
            return false;
        }
    }
    // The nine edge products, three per edge.
    [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
        .iter()
        .all(|&(i, j, k)| !test_axis_edge(&(v[j] - v[i]), &v[i], &v[k], h))
}

/// The three edge axes of one triangle edge (the `AXISTEST_*` macros of Akenine-Möller's
/// code): whether one of `e_x × f`, `e_y × f`, `e_z × f` separates, for the triangle edge `f`
/// from `v0` (the edge's other end projects like `v0`; `v2` is the third vertex).
fn test_axis_edge(f: &Vector, v0: &Vector, v2: &Vector, h: &Vector) -> bool {
    let fa = f.abs();
    let apart = |s0: f64, s2: f64, r: f64| s0.min(s2) > r || s0.max(s2) < -r;
    // e_x × f = (0, -f_z, f_y)
    apart(f.y * v0.z - f.z * v0.y, f.y * v2.z - f.z * v2.y, fa.z * h.y + fa.y * h.z)
        // e_y × f = (f_z, 0, -f_x)
        || apart(f.z * v0.x - f.x * v0.z, f.z * v2.x - f.x * v2.z, fa.z * h.x + fa.x * h.z)
        // e_z × f = (-f_y, f_x, 0)
        || apart(f.x * v0.y - f.y * v0.x, f.x * v2.y - f.y * v2.x, fa.y * h.x + fa.x * h.y)
}
