//! RSS–RSS: a lower bound on the distance between two rectangle swept spheres, the second
//! placed by a relative pose: the distance between their rectangles minus both radii (Larsen,
//! Gottschalk, Lin & Manocha 1999, PQP's `RectDist`).
//!
//! # The rectangle distance, as a largest slab gap
//!
//! Rather than PQP's case analysis (whose float decisions can return an edge pair's distance
//! where the closest pair lies elsewhere), the rectangle distance is computed as the largest gap
//! between the rectangles' projections onto a few directions, each gap a lower bound on the
//! distance whatever the direction, evaluated with a bound on its rounding. The directions are
//! chosen so that one of them is the closest points' direction in exact arithmetic:
//! * the two normals (closest points on a face of either rectangle: vertex–face, edge–face,
//!   face–face);
//! * the four products of an edge direction of each (crossing edges);
//! * from whichever of the eight corners is nearest to the other rectangle, to its nearest
//!   point there (a corner among the closest points, which covers parallel edges: parallel
//!   segments have a closest pair at an end point).
//!
//! When the rectangles do not meet, the closest pair is of one of these kinds, so the largest
//! gap is the distance up to rounding; when they meet, every gap is at most 0 and the bound
//! takes 0. It costs more per pair than the OBB bound of [`super::obb_obb`] and the posed OBB
//! overlap test (instruction counts in `docs/performance.md`).

use super::{clamped, larger, smaller, PARALLEL_EPS, SLACK};
use crate::{Rss, Vector};
use nalgebra::Matrix3;

/// An RSS of B placed in A's frame (once per node of B), with a bound on the rounding of the
/// placement and of the placement of B's vertices `R·p + t` (which is what the leaf tests see).
#[derive(Clone, Copy, Debug)]
pub struct PlacedRss {
    /// The rectangle's corner in A's frame.
    corner: Vector,
    /// The axes in A's frame.
    axes: Matrix3<f64>,
    lengths: [f64; 2],
    /// The radius, grown by the slack of the placement.
    radius: f64,
}

impl PlacedRss {
    /// B's RSS `b` (in B's frame) placed by the pose of B's frame in A's frame: rotation
    /// `rotation` (orthonormal to about `1e-10`) and translation `translation`.
    #[inline]
    pub fn new(b: &Rss, rotation: &Matrix3<f64>, translation: &Vector) -> Self {
        let rotated = rotation * b.corner.coords;
        let corner = rotated + translation;
        // A point of B has magnitude at most `|c| + l₀ + l₁ + r`; its placement, and the
        // corner's and axes' here, round by a few ulps of that and of `|t|`. A rotation
        // orthonormal to `ε` maps the ball to one at most `(1 + ε) r` wide.
        let magnitude = rotated.abs().sum()
            + translation.abs().sum()
            + corner.abs().sum()
            + b.lengths[0]
            + b.lengths[1]
            + b.radius;
        Self {
            corner,
            axes: rotation * b.axes,
            lengths: b.lengths,
            radius: b.radius * (1.0 + PARALLEL_EPS) + SLACK * magnitude,
        }
    }

    /// `b` as it is: the identity pose.
    pub fn unmoved(b: &Rss) -> Self {
        Self::new(b, &Matrix3::identity(), &Vector::zeros())
    }
}

/// A lower bound on the distance between `a` and the placed `b`: never above the distance
/// between any point of `a` and any point of `b` (or of B's vertices as placed in floating
/// point), whatever the rounding; the distance between the volumes less a few ulps of their
/// coordinates and `1e-9` of their sizes and offset otherwise. Negative: they may meet.
#[inline]
pub fn lower_bound(a: &Rss, b: &PlacedRss) -> f64 {
    lower_bound_or_above(a, b, f64::INFINITY)
}

/// [`lower_bound`], or a looser lower bound where the caller only asks whether the pair is
/// farther than `enough`: it stops at the first direction that proves the pair beyond
/// `enough` (most pairs a query prunes are settled by the first direction or two). Never above
/// [`lower_bound`]; equal to it for an infinite `enough`.
#[inline]
pub fn lower_bound_or_above(a: &Rss, b: &PlacedRss, enough: f64) -> f64 {
    let d = b.corner - a.corner.coords;
    let local = Rectangle {
        corner: a.axes.tr_mul(&d),
        u: a.axes.tr_mul(&b.axes.column(0)),
        v: a.axes.tr_mul(&b.axes.column(1)),
        w: a.axes.tr_mul(&b.axes.column(2)),
        lengths: b.lengths,
    };
    let sizes = a.lengths[0] + a.lengths[1] + b.lengths[0] + b.lengths[1];
    let pad = SLACK * (a.corner.coords.abs().sum() + d.abs().sum() + sizes)
        + PARALLEL_EPS * (local.corner.abs().sum() + sizes);
    let less = a.radius + b.radius + pad;
    rectangles_gap(&a.lengths, &local, enough + less) - less
}

/// B's rectangle in A's rectangle frame (where A's is `[0, a₀] × [0, a₁] × {0}`): corner, edge
/// directions `u`, `v`, normal `w`, side lengths.
struct Rectangle {
    corner: Vector,
    u: Vector,
    v: Vector,
    w: Vector,
    lengths: [f64; 2],
}

/// The largest gap over the candidate directions of the module docs, or 0 if none is positive
/// (the rectangles' distance is never negative): exact up to rounding for disjoint rectangles.
/// The normals are unit vectors to rounding (the pose's and the axes' departures from
/// orthonormality are paid for by the caller's `1e-9` of the offset and sizes), so their gaps
/// are not divided by their lengths.
/// Returns early, with the gap found so far, once that gap exceeds `enough`.
#[inline]
fn rectangles_gap(a: &[f64; 2], b: &Rectangle, enough: f64) -> f64 {
    let (t, u, v, w) = (&b.corner, &b.u, &b.v, &b.w);
    let (lu, lv) = (u * b.lengths[0], v * b.lengths[1]);
    let along = |n: &Vector| spans_gap(a[0] * n.x, a[1] * n.y, n.dot(t), n.dot(&lu), n.dot(&lv));
    let mut best = larger(0.0, spans_gap(0.0, 0.0, t.z, lu.z, lv.z));
    best = larger(best, along(w));
    if best > enough {
        return best;
    }
    for e in [u, v] {
        // `e_x × e = (0, -e_z, e_y)` and `e_y × e = (e_z, 0, -e_x)`, their zero terms left out
        // (the same values: a product by 0 adds ±0).
        let x_cross = |p: &Vector| e.y * p.z - e.z * p.y;
        let y_cross = |p: &Vector| e.z * p.x - e.x * p.z;
        let gaps = [
            (
                spans_gap(0.0, -a[1] * e.z, x_cross(t), x_cross(&lu), x_cross(&lv)),
                (e.y * e.y + e.z * e.z).sqrt(),
            ),
            (
                spans_gap(a[0] * e.z, 0.0, y_cross(t), y_cross(&lu), y_cross(&lv)),
                (e.z * e.z + e.x * e.x).sqrt(),
            ),
        ];
        for (gap, length) in gaps {
            if gap > 0.0 {
                best = larger(best, gap / length);
            }
        }
        if best > enough {
            return best;
        }
    }
    let n = nearest_corner_direction(a, b, &lu, &lv);
    let gap = along(&n);
    if gap > 0.0 {
        best = larger(best, gap / n.norm());
    }
    best
}

/// The gap between the projections `{s·a₀ + t·a₁}` of A's rectangle and `{base + s·b₀ + t·b₁}`
/// of B's (`s, t ∈ [0, 1]`) onto a direction, given the projections of their edge vectors
/// and B's corner: positive when they are apart.
#[inline(always)]
fn spans_gap(a0: f64, a1: f64, base: f64, b0: f64, b1: f64) -> f64 {
    let (a_low, a_high) = (
        smaller(a0, 0.0) + smaller(a1, 0.0),
        larger(a0, 0.0) + larger(a1, 0.0),
    );
    let b_low = base + smaller(b0, 0.0) + smaller(b1, 0.0);
    let b_high = base + larger(b0, 0.0) + larger(b1, 0.0);
    larger(b_low - a_high, a_low - b_high)
}

/// The direction from the nearest point of one rectangle to whichever of the other's corners is
/// nearest to it, over all eight corners (A's corners measured in B's frame); `lu`, `lv` are
/// B's edge vectors.
#[inline]
fn nearest_corner_direction(a: &[f64; 2], b: &Rectangle, lu: &Vector, lv: &Vector) -> Vector {
    let (t, u, v, w) = (&b.corner, &b.u, &b.v, &b.w);
    // B's corners against A's rectangle `[0, a₀] × [0, a₁] × {0}`.
    let mut best = Vector::repeat(f64::INFINITY);
    let mut best_squared = f64::INFINITY;
    for c in [*t, t + lu, t + lv, t + lu + lv] {
        let off = Vector::new(
            c.x - clamped(c.x, 0.0, a[0]),
            c.y - clamped(c.y, 0.0, a[1]),
            c.z,
        );
        let squared = off.norm_squared();
        if squared < best_squared {
            (best, best_squared) = (off, squared);
        }
    }
    // A's corners in B's frame (along u, v, w from B's corner) against B's rectangle.
    let start = -Vector::new(u.dot(t), v.dot(t), w.dot(t));
    let (ax, ay) = (
        Vector::new(u.x, v.x, w.x) * a[0],
        Vector::new(u.y, v.y, w.y) * a[1],
    );
    let mut from_a = None;
    for c in [start, start + ax, start + ay, start + ax + ay] {
        let x = c.x - clamped(c.x, 0.0, b.lengths[0]);
        let y = c.y - clamped(c.y, 0.0, b.lengths[1]);
        let squared = x * x + y * y + c.z * c.z;
        if squared < best_squared {
            (from_a, best_squared) = (Some((x, y, c.z)), squared);
        }
    }
    match from_a {
        Some((x, y, z)) => u * x + v * y + w * z,
        None => best,
    }
}
