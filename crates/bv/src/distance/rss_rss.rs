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
//! gap is the distance up to rounding; when they meet, every gap is at most 0. About 250
//! flops.

use super::{PARALLEL_EPS, SLACK};
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
    rectangles_gap(&a.lengths, &local) - a.radius - b.radius - pad
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

/// The largest gap over the candidate directions of the module docs (exact up to rounding for
/// disjoint rectangles; at most 0 for meeting ones).
#[inline]
fn rectangles_gap(a: &[f64; 2], b: &Rectangle) -> f64 {
    let (u, v) = (&b.u, &b.v);
    let gap = |n: &Vector| slab_gap(n, a, b);
    let faces = gap(&Vector::z()).max(gap(&b.w));
    let edges = gap(&Vector::new(0.0, -u.z, u.y))
        .max(gap(&Vector::new(0.0, -v.z, v.y)))
        .max(gap(&Vector::new(u.z, 0.0, -u.x)))
        .max(gap(&Vector::new(v.z, 0.0, -v.x)));
    faces.max(edges).max(gap(&nearest_corner_direction(a, b)))
}

/// The gap between the rectangles' projections onto `n`, divided by `|n|` (`-∞` for `n = 0`).
#[inline]
fn slab_gap(n: &Vector, a: &[f64; 2], b: &Rectangle) -> f64 {
    let (ax, ay) = (a[0] * n.x, a[1] * n.y);
    let (a_lo, a_hi) = (ax.min(0.0) + ay.min(0.0), ax.max(0.0) + ay.max(0.0));
    let (bu, bv) = (b.lengths[0] * n.dot(&b.u), b.lengths[1] * n.dot(&b.v));
    let base = n.dot(&b.corner);
    let (b_lo, b_hi) = (
        base + bu.min(0.0) + bv.min(0.0),
        base + bu.max(0.0) + bv.max(0.0),
    );
    let norm = n.norm();
    if norm > 0.0 {
        (b_lo - a_hi).max(a_lo - b_hi) / norm
    } else {
        f64::NEG_INFINITY
    }
}

/// The direction from the nearest point of one rectangle to whichever of the other's corners is
/// nearest to it, over all eight corners (A's corners measured in B's frame).
#[inline]
fn nearest_corner_direction(a: &[f64; 2], b: &Rectangle) -> Vector {
    let (u, v, w) = (&b.u, &b.v, &b.w);
    // B's corners against A's rectangle.
    let (bu, bv) = (u * b.lengths[0], v * b.lengths[1]);
    let b_corners = [b.corner, b.corner + bu, b.corner + bv, b.corner + bu + bv];
    let off_a =
        |p: &Vector| Vector::new(p.x - p.x.clamp(0.0, a[0]), p.y - p.y.clamp(0.0, a[1]), p.z);
    // A's corners in B's frame (coordinates along u, v, w from B's corner) against B's.
    let start = -Vector::new(u.dot(&b.corner), v.dot(&b.corner), w.dot(&b.corner));
    let (ax, ay) = (
        Vector::new(u.x, v.x, w.x) * a[0],
        Vector::new(u.y, v.y, w.y) * a[1],
    );
    let a_corners = [start, start + ax, start + ay, start + ax + ay];
    let off_b = |p: &Vector| {
        let (x, y) = (
            p.x - p.x.clamp(0.0, b.lengths[0]),
            p.y - p.y.clamp(0.0, b.lengths[1]),
        );
        u * x + v * y + w * p.z
    };
    b_corners
        .iter()
        .map(off_a)
        .chain(a_corners.iter().map(off_b))
        .min_by(|x, y| x.norm_squared().total_cmp(&y.norm_squared()))
        .expect("eight corners")
}
