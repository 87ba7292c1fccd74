//! The float filter in front of the exact path: proofs of "no contact" that cost a few dozen
//! floating-point operations. It never answers "contact", so it cannot change an answer.
//!
//! 1. **Swept boxes.** Motion is linear, so over `[0, 1]` each coordinate of a point stays
//!    between its two end values, and a triangle or segment stays inside the box of its
//!    vertices' end values. Disjoint boxes on one axis prove no contact; the comparisons are of
//!    the inputs themselves, hence exact.
//! 2. **The coplanarity cubic's sign.** `f(t) = u(t)·(v(t) × w(t))` with `u, v, w` the moving
//!    differences (each linear in `t`) is a cubic whose Bernstein coefficients on `[0, 1]` are
//!    the values of its blossom, averages of the eight triple products `u_i·(v_j × w_k)` of the
//!    end differences (`i, j, k ∈ {0, 1}`; Farin, "Curves and Surfaces for CAGD", ch. 3 on
//!    blossoms). If all four have one strict sign, so has `f` on `[0, 1]` (the Bernstein basis
//!    is a nonnegative partition of unity): the points are never coplanar. Each triple product
//!    is computed as Shewchuk's orient3d determinant of rounded differences, so its error is
//!    at most `(7 + 56ε)ε` times its permanent (Shewchuk, "Adaptive precision floating-point
//!    arithmetic and fast robust geometric predicates", 1997); see [`triple`] for the margin
//!    taken here, and for underflow.

use crate::predicates::UNDERFLOW_ERROR;
use crate::{Point, Vector};

/// Whether the filter proves that the point `start[0]` never meets the triangle of the other
/// three (see the module docs).
#[inline]
pub(super) fn rules_out_vertex_face(start: &[Point; 4], end: &[Point; 4]) -> bool {
    swept_boxes_apart(start, end, 1) || never_coplanar(start, end)
}

/// Whether the filter proves that the segment of `start[0..2]` never meets that of `start[2..4]`.
#[inline]
pub(super) fn rules_out_edge_edge(start: &[Point; 4], end: &[Point; 4]) -> bool {
    swept_boxes_apart(start, end, 2) || never_coplanar(start, end)
}

/// Whether, on some axis, the swept range of points `..split` and that of points `split..` are
/// disjoint.
#[inline]
fn swept_boxes_apart(start: &[Point; 4], end: &[Point; 4], split: usize) -> bool {
    (0..3).any(|axis| {
        let range = |points: std::ops::Range<usize>| {
            let values = points.flat_map(|i| [start[i][axis], end[i][axis]]);
            values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                (lo.min(x), hi.max(x))
            })
        };
        let ((lo_a, hi_a), (lo_b, hi_b)) = (range(0..split), range(split..4));
        hi_a < lo_b || hi_b < lo_a
    })
}

/// Whether the four points are certainly never coplanar on `[0, 1]`: the Bernstein
/// coefficients of `f(t) = (x₁ − x₀)·((x₂ − x₀) × (x₃ − x₀))` all exceed their error bounds
/// with one sign.
#[inline]
fn never_coplanar(start: &[Point; 4], end: &[Point; 4]) -> bool {
    let differences = |x: &[Point; 4]| [x[1] - x[0], x[2] - x[0], x[3] - x[0]];
    let ([u0, v0, w0], [u1, v1, w1]) = (differences(start), differences(end));
    let t = |u: &Vector, v: &Vector, w: &Vector| triple(u, v, w);
    let sum = |terms: [(f64, f64); 3]| {
        let value = terms[0].0 + terms[1].0 + terms[2].0;
        let bound = terms[0].1 + terms[1].1 + terms[2].1;
        (value, bound * SUM_MARGIN)
    };
    let bernstein = [
        t(&u0, &v0, &w0),
        sum([t(&u1, &v0, &w0), t(&u0, &v1, &w0), t(&u0, &v0, &w1)]),
        sum([t(&u0, &v1, &w1), t(&u1, &v0, &w1), t(&u1, &v1, &w0)]),
        t(&u1, &v1, &w1),
    ];
    bernstein.iter().all(|&(b, e)| b > e) || bernstein.iter().all(|&(b, e)| b < -e)
}

/// `u·(v × w)` in floating point and a bound on its error against the exact triple product of
/// the exact differences the rounded `u, v, w` stand for: [`TRIPLE_MARGIN`] times the permanent
/// `Σ |uᵢ| (|vⱼ wₖ| + |vₖ wⱼ|)`, plus [`UNDERFLOW_ERROR`]` · (|u|₁ + 1)` for products that
/// land among the subnormals (as in [`orient3d`](crate::predicates::orient3d)). A NaN or an
/// infinite value makes every comparison with the bound fail: undecided.
#[inline(always)]
fn triple(u: &Vector, v: &Vector, w: &Vector) -> (f64, f64) {
    let (a, b, c) = (v.y * w.z, v.z * w.y, v.z * w.x);
    let (d, e, f) = (v.x * w.z, v.x * w.y, v.y * w.x);
    let value = u.x * (a - b) + u.y * (c - d) + u.z * (e - f);
    let permanent = u.x.abs() * (a.abs() + b.abs())
        + u.y.abs() * (c.abs() + d.abs())
        + u.z.abs() * (e.abs() + f.abs());
    let l1 = u.x.abs() + u.y.abs() + u.z.abs();
    (
        value,
        TRIPLE_MARGIN * permanent + UNDERFLOW_ERROR * (l1 + 1.0),
    )
}

/// `8ε` (`ε = 2⁻⁵³`, the unit roundoff): Shewchuk's `o3derrboundA = (7 + 56ε)ε` with room
/// for the permanent's own rounding.
const TRIPLE_MARGIN: f64 = 4.0 * f64::EPSILON;

/// The factor on the summed bounds of three triple products: their two additions err by at most
/// `2ε` of the sum of the magnitudes, which are at most the permanents (up to `8ε`), i.e. by at
/// most a quarter of the summed `8ε · permanent` bounds; `1.5` leaves room for the rounding of
/// the bounds themselves.
const SUM_MARGIN: f64 = 1.5;
