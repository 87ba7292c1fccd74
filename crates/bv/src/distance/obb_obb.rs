//! OBB–OBB: a lower bound on the distance between two oriented boxes, the second placed by a
//! relative pose: the largest gap between their projections over the fifteen separating axes
//! of the overlap test (Gottschalk, Lin & Manocha 1996; [`crate::intersect::obb_obb`]) and the
//! line through the centres.
//!
//! Each axis's gap, divided by the axis's length, is at most the distance, so their largest is
//! a lower bound; it is the distance when the closest points lie on a face of either box or on
//! two crossing edges, and lower otherwise (a corner against a corner or an edge: for two
//! aligned cubes corner to corner, `1/√3` of it), which the centre line makes up for boxes far
//! apart compared with their size. The radii use `|R| + ε` as the overlap test does
//! ([`PARALLEL_EPS`]), which also keeps the nearly zero products of nearly parallel edges from
//! producing a gap.

use super::{larger, PARALLEL_EPS, SLACK};
use crate::{Obb, Vector};
use nalgebra::Matrix3;

/// A box of B placed in A's frame (once per node of B), with a bound on the rounding of the
/// placement and of the placement of B's vertices `R·p + t` (which is what the leaf tests
/// see).
#[derive(Clone, Copy, Debug)]
pub struct PlacedObb {
    pub(crate) center: Vector,
    pub(crate) axes: Matrix3<f64>,
    pub(crate) half_extents: Vector,
    /// Bound on the error of `center`, per component.
    pub(crate) slack: f64,
}

impl PlacedObb {
    /// B's box `b` (in B's frame) placed by the pose of B's frame in A's frame: rotation
    /// `rotation` (orthonormal to about `1e-10`) and translation `translation`.
    #[inline]
    pub fn new(b: &Obb, rotation: &Matrix3<f64>, translation: &Vector) -> Self {
        Self::box_with(
            &b.center.coords,
            &b.axes,
            &b.half_extents,
            rotation,
            translation,
        )
    }

    /// The box with centre `center`, axes `axes` and half-extents `half` placed by `rotation`
    /// and `translation`.
    #[inline]
    pub(crate) fn box_with(
        center: &Vector,
        axes: &Matrix3<f64>,
        half: &Vector,
        rotation: &Matrix3<f64>,
        translation: &Vector,
    ) -> Self {
        let rotated = rotation * center;
        let placed = rotated + translation;
        // B's points have magnitude at most `|c| + Σh`: their placement, and the centre's
        // here, round by a few ulps of that and of `|t|`.
        let magnitude =
            rotated.abs().sum() + translation.abs().sum() + placed.abs().sum() + half.sum();
        Self {
            center: placed,
            axes: rotation * axes,
            half_extents: *half,
            slack: SLACK * magnitude,
        }
    }
}

/// A lower bound on the distance between the box `a` and the placed box `b` (see the module
/// docs): never above the distance between any point of `a` and any point of `b` (or of B's
/// vertices as placed in floating point), whatever the rounding. Negative: they may meet.
#[inline]
pub fn lower_bound(a: &Obb, b: &PlacedObb) -> f64 {
    let d = b.center - a.center.coords;
    let offset_error = b.slack + SLACK * (a.center.coords.abs().sum() + d.abs().sum());
    boxes_gap(
        &a.half_extents,
        &b.half_extents,
        &a.axes.tr_mul(&d),
        &a.axes.tr_mul(&b.axes),
        offset_error,
    )
}

/// The lower bound for box A (half-extents `ha`, centred at the origin of its own frame) and
/// box B (half-extents `hb`, centre `t` and axes the columns of `r` in A's frame, `t` known to
/// `offset_error` per component).
#[inline]
pub(crate) fn boxes_gap(
    ha: &Vector,
    hb: &Vector,
    t: &Vector,
    r: &Matrix3<f64>,
    offset_error: f64,
) -> f64 {
    let fr = r.abs().add_scalar(PARALLEL_EPS);
    // The distance is never negative: start from 0.
    let mut best = 0.0;
    for i in 0..3 {
        let rb = hb.x * fr[(i, 0)] + hb.y * fr[(i, 1)] + hb.z * fr[(i, 2)];
        best = larger(best, t[i].abs() - ha[i] - rb);
    }
    // B's axes are unit vectors to rounding (their departure is paid for below, with `1e-9`
    // of the offset and sizes): no division by their lengths.
    let hb_sum = hb.sum();
    for j in 0..3 {
        let ra = ha.x * fr[(0, j)] + ha.y * fr[(1, j)] + ha.z * fr[(2, j)];
        let gap = t.dot(&r.column(j)).abs() - ra - hb[j] - PARALLEL_EPS * hb_sum;
        best = larger(best, gap);
    }
    best = larger(best, edge_axes_gap(ha, hb, t, r, &fr));
    best = larger(best, centre_line_gap(ha, hb, t, r));
    best - 3f64.sqrt() * offset_error - PARALLEL_EPS * (t.abs().sum() + ha.sum() + hb_sum)
}

/// The largest gap (or 0) over the nine axes `a_i × b_j` (in A's frame `e_i × R_j`, of length
/// `√(R[i1][j]² + R[i2][j]²)`), with the overlap test's projections (Gottschalk et al. 1996).
#[inline]
fn edge_axes_gap(ha: &Vector, hb: &Vector, t: &Vector, r: &Matrix3<f64>, fr: &Matrix3<f64>) -> f64 {
    let mut best = 0.0;
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let s = t[i2] * r[(i1, j)] - t[i1] * r[(i2, j)];
            let ra = ha[i1] * fr[(i2, j)] + ha[i2] * fr[(i1, j)];
            let rb = hb[j1] * fr[(i, j2)] + hb[j2] * fr[(i, j1)];
            let gap = s.abs() - ra - rb;
            if gap > 0.0 {
                // Positive only if the axis is not zero.
                let length = (r[(i1, j)] * r[(i1, j)] + r[(i2, j)] * r[(i2, j)]).sqrt();
                best = larger(best, gap / length);
            }
        }
    }
    best
}

/// The gap along the line through the centres, `t`: `|t|` less both boxes' radii along it.
#[inline]
fn centre_line_gap(ha: &Vector, hb: &Vector, t: &Vector, r: &Matrix3<f64>) -> f64 {
    let length = t.norm();
    if length == 0.0 {
        return f64::NEG_INFINITY;
    }
    let slack = PARALLEL_EPS * t.abs().sum();
    let ra = t.abs().dot(ha);
    let rb: f64 = (0..3)
        .map(|j| (t.dot(&r.column(j)).abs() + slack) * hb[j])
        .sum();
    length - (ra + rb) / length
}
