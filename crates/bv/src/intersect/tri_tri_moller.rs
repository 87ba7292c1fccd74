//! Triangle–triangle intersection by Möller's interval-overlap method (floating point).
//!
//! T. Möller, "A fast triangle-triangle intersection test", JGT 2(2), 1997 (*Real-Time
//! Rendering*, 3rd ed. (2008), §16.11): reject when one triangle lies strictly on one side of
//! the other's plane; otherwise both meet the line `L` common to the two planes in an interval,
//! and they intersect iff the intervals overlap. Coplanar triangles are tested in 2D (edge–edge
//! and vertex-in-triangle); a triangle within [`COPLANAR_TOL`] (relative) of the other's plane
//! counts as coplanar.
//!
//! Signed distances within [`PLANE_TOL`] (relative) of zero are snapped to the plane, as in the
//! paper. Configurations within rounding distance of touching may be misclassified; use
//! [`super::tri_tri_exact`] when that matters. A zero-area triangle has no plane, and a sliver
//! (normal zero up to rounding: `|e₁ × e₂| <= PLANE_TOL·|e₁|·|e₂|`) has a plane made of rounding
//! noise: such pairs are answered by [`super::tri_tri_exact::intersects`].

use super::tri_tri_exact;
use crate::{Point, Triangle, Vector};
use nalgebra::Point2;

/// Relative tolerance under which a vertex counts as lying on the other triangle's plane
/// (Möller's `EPSILON`, scaled by `|n|·|p - v0|₁`).
pub const PLANE_TOL: f64 = 64.0 * f64::EPSILON;

/// Whether the closed triangles `p` and `q` intersect, by Möller's interval overlap.
pub fn intersects(p: &Triangle, q: &Triangle) -> bool {
    let (pv, qv) = (p.vertices(), q.vertices());
    let (np, nq) = (p.scaled_normal(), q.scaled_normal());
    if is_sliver(p, &np) || is_sliver(q, &nq) {
        return tri_tri_exact::intersects(p, q);
    }
    let (dp, p_on_q) = plane_distances(&qv[0], &nq, &pv);
    if one_side(&dp) {
        return false;
    }
    let (dq, q_on_p) = plane_distances(&pv[0], &np, &qv);
    if one_side(&dq) {
        return false;
    }
    if p_on_q || q_on_p {
        return coplanar(&pv, &qv, if p_on_q { &nq } else { &np });
    }
    let dir = np.cross(&nq);
    // Project onto L along its largest coordinate (Möller's simplification of `D·v`).
    let k = dir.abs().imax();
    let (a, b) = (
        interval(&pv.map(|v| v[k]), &dp),
        interval(&qv.map(|v| v[k]), &dq),
    );
    a.0.max(b.0) <= a.1.min(b.1)
}

/// Relative distance under which a whole triangle counts as lying in the other's plane, so that
/// the pair goes to the 2D test: beyond rounding, it keeps nearly coplanar triangles (whose
/// common line is ill-conditioned) out of the interval test. Misclassification is then bounded
/// by the out-of-plane distance, at most `COPLANAR_TOL` times the triangles' size.
pub const COPLANAR_TOL: f64 = 1e-10;

/// Whether the triangle's normal `n` is zero up to rounding, relative to its edges.
pub(crate) fn is_sliver(t: &Triangle, n: &Vector) -> bool {
    n.norm_squared() <= (PLANE_TOL * (t.b - t.a).norm() * (t.c - t.a).norm()).powi(2)
}

/// Signed distances (scaled by `|n|`) of `v` from the plane through `o` with normal `n`, with
/// values within [`PLANE_TOL`] of zero snapped to zero; and whether all three are within
/// [`COPLANAR_TOL`], i.e. the triangle lies in the plane for practical purposes.
///
/// Both tolerances are relative to `|n|₁·|w|₁` (`w` the vertex relative to `o`), not to
/// `|n|·|w|` taken per component: a component of a computed normal can be pure rounding noise
/// (a normal along `(1, 0, -1)` computed with a `y` of `1e-20`), and an offset `w` along that
/// component alone would then measure its own noise as a full-size distance.
pub(crate) fn plane_distances(o: &Point, n: &Vector, v: &[Point; 3]) -> ([f64; 3], bool) {
    let mut near = true;
    let d = v.map(|x| {
        let w = x - o;
        let (d, scale) = (n.dot(&w), n.abs().sum() * w.abs().sum());
        near &= d.abs() <= COPLANAR_TOL * scale;
        if d.abs() <= PLANE_TOL * scale {
            0.0
        } else {
            d
        }
    });
    (d, near)
}

pub(crate) fn one_side(d: &[f64; 3]) -> bool {
    (d[0] > 0.0 && d[1] > 0.0 && d[2] > 0.0) || (d[0] < 0.0 && d[1] < 0.0 && d[2] < 0.0)
}

/// The vertex alone on its side of the plane (`d` not all zero, not all one strict sign), as in
/// Möller's paper: every other vertex is on the opposite side or on the plane.
pub(crate) fn lone_vertex(d: &[f64; 3]) -> usize {
    if d[0] * d[1] > 0.0 {
        2
    } else if d[0] * d[2] > 0.0 {
        1
    } else if d[1] * d[2] > 0.0 || d[0] != 0.0 {
        0
    } else if d[1] != 0.0 {
        1
    } else {
        2
    }
}

/// The parameter where the edge from the lone vertex `i` to `j` meets the plane: `x` are the
/// vertices' coordinates along `L`, `d` their plane distances.
pub(crate) fn edge_crossing<T>(x: &[T; 3], d: &[f64; 3], i: usize, j: usize) -> T
where
    T: Copy
        + std::ops::Add<Output = T>
        + std::ops::Sub<Output = T>
        + std::ops::Mul<f64, Output = T>,
{
    x[i] + (x[j] - x[i]) * (d[i] / (d[i] - d[j]))
}

/// The sorted interval a triangle covers on `L`.
fn interval(x: &[f64; 3], d: &[f64; 3]) -> (f64, f64) {
    let i = lone_vertex(d);
    let (a, b) = (
        edge_crossing(x, d, i, (i + 1) % 3),
        edge_crossing(x, d, i, (i + 2) % 3),
    );
    (a.min(b), a.max(b))
}

/// Coplanar triangles with common normal `n` (Möller 1997, §"coplanar triangles"): projected
/// onto the coordinate plane where `n` is largest, they intersect iff some edges intersect or
/// one triangle holds a vertex of the other.
pub fn coplanar(p: &[Point; 3], q: &[Point; 3], n: &Vector) -> bool {
    let k = n.abs().imax();
    let (p, q) = (p.map(|v| drop_axis(&v, k)), q.map(|v| drop_axis(&v, k)));
    (0..3).any(|i| (0..3).any(|j| segments_meet_2d(&p[i], &p[(i + 1) % 3], &q[j], &q[(j + 1) % 3])))
        || triangle_holds_2d(&p, &q[0])
        || triangle_holds_2d(&q, &p[0])
}

/// The point with coordinate `k` removed.
pub(crate) fn drop_axis(v: &Point, k: usize) -> Point2<f64> {
    Point2::new(v[(k + 1) % 3], v[(k + 2) % 3])
}

fn cross_2d(a: &Point2<f64>, b: &Point2<f64>, c: &Point2<f64>) -> f64 {
    (b - a).perp(&(c - a))
}

/// Closed 2D segments `ab` and `cd` (floating point).
pub(crate) fn segments_meet_2d(
    a: &Point2<f64>,
    b: &Point2<f64>,
    c: &Point2<f64>,
    d: &Point2<f64>,
) -> bool {
    let (o1, o2, o3, o4) = (
        cross_2d(a, b, c),
        cross_2d(a, b, d),
        cross_2d(c, d, a),
        cross_2d(c, d, b),
    );
    if o1 * o2 < 0.0 && o3 * o4 < 0.0 {
        return true;
    }
    let within = |p: &Point2<f64>, s: &Point2<f64>, t: &Point2<f64>| {
        p.x >= s.x.min(t.x) && p.x <= s.x.max(t.x) && p.y >= s.y.min(t.y) && p.y <= s.y.max(t.y)
    };
    (o1 == 0.0 && within(c, a, b))
        || (o2 == 0.0 && within(d, a, b))
        || (o3 == 0.0 && within(a, c, d))
        || (o4 == 0.0 && within(b, c, d))
}

/// Whether the closed 2D triangle `t` holds `p` (edge functions not of mixed signs).
pub(crate) fn triangle_holds_2d(t: &[Point2<f64>; 3], p: &Point2<f64>) -> bool {
    let o = [0, 1, 2].map(|i| cross_2d(&t[i], &t[(i + 1) % 3], p));
    !(o.iter().any(|&x| x > 0.0) && o.iter().any(|&x| x < 0.0))
}
