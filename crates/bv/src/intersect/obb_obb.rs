//! OBB–OBB overlap by the separating-axis theorem, in the frame of the first box.
//!
//! The fifteen candidate axes are A's three axes, B's three axes and the nine products
//! `a_i × b_j` (Gottschalk, Lin & Manocha, "OBBTree", SIGGRAPH 1996; Ericson, *Real-Time
//! Collision Detection* (2005), §4.4.1). Everything is evaluated in A's frame, where B has
//! centre `t` and axes the columns of `R = Aᵀ B`, so each test costs a handful of
//! multiply-adds (Ericson §4.4.1). The axes are tried in the usual order, cheapest first
//! (Ericson §4.4.1; *Real-Time Rendering*, 3rd ed. (2008), §16.13): A's axes, then B's axes,
//! then the products.
//!
//! # Robustness and the conservative policy
//!
//! * Parallel edges make `a_i × b_j` (nearly) zero, so both sides of its test are rounding noise.
//!   As in Ericson §4.4.2 ("Making the separating-axis test robust"), the projected radii use
//!   `|R| + ε` ([`PARALLEL_EPS`]) instead of `|R|`, which keeps such an axis from ever
//!   separating boxes that overlap.
//! * The rounding of the relative translation is covered by growing A's half-extents by
//!   [`RelativePose::slack`], a bound on that error.
//!
//! Together these make the test *conservative*: it never reports overlapping (or touching)
//! boxes as separated; it may report overlap for boxes apart by about `ε` times their size.

use crate::{Obb, Vector};
use nalgebra::Matrix3;

/// The `ε` of `|R| + ε` (Ericson §4.4.2). It dominates the rounding of `R` (a few ulps) and
/// tolerates box axes that are orthonormal only to about `1e-10`.
pub const PARALLEL_EPS: f64 = 1e-9;

/// Pose of box B's frame in box A's frame, with what the 15-axis test needs precomputed.
///
/// A hierarchy traversal that tests many box pairs under the same relative motion computes
/// this once per pair of frames ([`RelativePose::new`]) and, per pair of boxes,
/// [`RelativePose::boxes`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RelativePose {
    /// `R`: B's axes expressed in A's frame (columns).
    pub rotation: Matrix3<f64>,
    /// `t`: B's origin expressed in A's frame.
    pub translation: Vector,
    /// `|R| + ε` entry-wise (Ericson's `AbsR`, §4.4.2).
    pub abs_rotation: Matrix3<f64>,
    /// Bound on the rounding error in `translation` (absolute, per component); A is grown by it.
    pub slack: f64,
}

impl RelativePose {
    /// Pose with rotation `rotation` (orthonormal) and translation `translation`, both taken as
    /// computed from exact data: `slack` covers only a few ulps of `|t|`.
    pub fn new(rotation: Matrix3<f64>, translation: Vector) -> Self {
        Self::with_slack(rotation, translation, 0.0)
    }

    /// Like [`RelativePose::new`], adding `extra_slack` to the translation error bound.
    fn with_slack(rotation: Matrix3<f64>, translation: Vector, extra_slack: f64) -> Self {
        Self {
            rotation,
            translation,
            abs_rotation: rotation.abs().add_scalar(PARALLEL_EPS),
            slack: 4.0 * f64::EPSILON * translation.abs().sum() + extra_slack,
        }
    }

    /// Pose of box `b` relative to box `a`, where both are given in one frame.
    pub fn between(a: &Obb, b: &Obb) -> Self {
        let d = b.center - a.center;
        Self::with_slack(
            a.axes.tr_mul(&b.axes),
            a.axes.tr_mul(&d),
            4.0 * f64::EPSILON * d.abs().sum(),
        )
    }

    /// Pose of box `b` (given in frame F_B) relative to box `a` (given in frame F_A), where
    /// `self` is the pose of F_B in F_A (e.g. the relative motion of two meshes).
    pub fn boxes(&self, a: &Obb, b: &Obb) -> Self {
        let rb = self.rotation * b.center.coords;
        let d = rb + self.translation - a.center.coords;
        let magnitude = rb.abs().sum() + self.translation.abs().sum() + a.center.coords.abs().sum();
        let slack = self.slack + 8.0 * f64::EPSILON * magnitude;
        Self::with_slack(
            a.axes.tr_mul(&(self.rotation * b.axes)),
            a.axes.tr_mul(&d),
            slack,
        )
    }
}

/// Whether two closed OBBs overlap (both given in the same frame).
#[inline]
pub fn overlaps(a: &Obb, b: &Obb) -> bool {
    overlaps_posed(
        &a.half_extents,
        &b.half_extents,
        &RelativePose::between(a, b),
    )
}

/// The bounding-sphere early-out advised before a costly test (*Real-Time Rendering*, 3rd ed.
/// (2008), §16.5 and §16.13): `true` when the spheres around the two boxes (centred at the box
/// centres, radius the half-diagonal) are disjoint, which proves the boxes disjoint. Cheaper
/// than [`overlaps_posed`] only when most pairs are far apart.
#[inline]
pub fn spheres_disjoint(half_a: &Vector, half_b: &Vector, pose: &RelativePose) -> bool {
    let r = half_a.norm() + half_b.norm() + pose.slack * 2.0;
    pose.translation.norm_squared() > r * r * (1.0 + 8.0 * f64::EPSILON)
}

/// Whether box A (half-extents `half_a`, centred at the origin of its own frame) and box B
/// (half-extents `half_b`, placed by `pose` in A's frame) overlap: the 15-axis separating-axis
/// test of Gottschalk, Lin & Manocha 1996 (Ericson §4.4.1), conservative as described in the
/// module docs.
pub fn overlaps_posed(half_a: &Vector, half_b: &Vector, pose: &RelativePose) -> bool {
    let a = half_a.add_scalar(pose.slack);
    (0..3).all(|i| !a_axis_separates(i, &a, half_b, &pose.abs_rotation, &pose.translation))
        && b_and_edge_axes_overlap(&a, half_b, pose)
}

/// The six face axes of [`overlaps_posed`] (A's and B's, not the nine edge products) for box A
/// (`a`, grown by `slack`) and box B (centre `b_center`, axes `b_axes`, half-extents `half_b`)
/// given in one frame, computing `R = Aᵀ B` and `t = Aᵀ (c_B - c_A)` one row at a time: row `i`
/// is all that A's axis `i` needs, and most box pairs of a traversal that are separated at all
/// are separated by one of A's axes (hence the usual order, A's axes first), so a rejection
/// usually costs one or two rows instead of the whole product. `slack` bounds the rounding of
/// `b_center - a.center` and of `b_center` itself (see [`RelativePose::slack`]).
///
/// A's axes are tried last to first: the covariance fit orders them by decreasing spread, and
/// the thinnest axis separates most often, so this order rejects sooner than first to last
/// (see `docs/performance.md`).
///
/// A coarser but still conservative test than the 15-axis one (fewer candidate separating axes
/// can only report overlap more often), about half its cost when the boxes overlap: a traversal
/// uses it between internal nodes, where a false overlap costs only a few more box tests.
#[inline]
pub fn overlaps_lazy(
    a: &Obb,
    b_center: &Vector,
    b_axes: &Matrix3<f64>,
    half_b: &Vector,
    slack: f64,
) -> bool {
    let d = b_center - a.center.coords;
    let half_a = a.half_extents.add_scalar(slack);
    let (b0, b1, b2) = (b_axes.column(0), b_axes.column(1), b_axes.column(2));
    // Row `i` of `R` and of `|R| + ε`, `t[i]`, and whether A's axis `i` leaves the boxes
    // overlapping.
    let row = |i: usize| {
        let axis = a.axes.column(i);
        let r = [axis.dot(&b0), axis.dot(&b1), axis.dot(&b2)];
        let fr = r.map(|x| x.abs() + PARALLEL_EPS);
        let t = axis.dot(&d);
        let radius = half_a[i] + half_b.x * fr[0] + half_b.y * fr[1] + half_b.z * fr[2];
        (r, fr, t, t.abs() <= radius)
    };
    let (r2, f2, t2, ok) = row(2);
    if !ok {
        return false;
    }
    let (r1, f1, t1, ok) = row(1);
    if !ok {
        return false;
    }
    let (r0, f0, t0, ok) = row(0);
    if !ok {
        return false;
    }
    // B's axes (type ii) on the rows at hand, the three outcomes combined without a branch.
    (0..3).fold(true, |overlap, j| {
        let s = t0 * r0[j] + t1 * r1[j] + t2 * r2[j];
        let radius = half_a[0] * f0[j] + half_a[1] * f1[j] + half_a[2] * f2[j] + half_b[j];
        overlap & (s.abs() <= radius)
    })
}

/// Type i: whether A's axis `i` separates A (half-extents `a`, already grown by the slack) from
/// B, given row `i` of `|R| + ε` (`fr`) and the translation `t`.
#[inline]
fn a_axis_separates(i: usize, a: &Vector, b: &Vector, fr: &Matrix3<f64>, t: &Vector) -> bool {
    t[i].abs() > a[i] + b[0] * fr[(i, 0)] + b[1] * fr[(i, 1)] + b[2] * fr[(i, 2)]
}

/// Types ii and iii: whether no axis of B and no product `a_i × b_j` separates the boxes (A's
/// half-extents `a` already grown by the slack).
#[inline]
fn b_and_edge_axes_overlap(a: &Vector, b: &Vector, pose: &RelativePose) -> bool {
    b_axes_overlap(a, b, pose) && edge_axes_overlap(a, b, pose)
}

/// Type ii: whether no axis of B separates the boxes.
#[inline]
fn b_axes_overlap(a: &Vector, b: &Vector, pose: &RelativePose) -> bool {
    let (r, fr, t) = (&pose.rotation, &pose.abs_rotation, &pose.translation);
    (0..3).all(|j| {
        let s = t[0] * r[(0, j)] + t[1] * r[(1, j)] + t[2] * r[(2, j)];
        s.abs() <= a[0] * fr[(0, j)] + a[1] * fr[(1, j)] + a[2] * fr[(2, j)] + b[j]
    })
}

/// Type iii: whether no product `a_i × b_j` separates the boxes. With (i, i1, i2) and (j, j1,
/// j2) cyclic, in A's frame the axis is e_i × R_j, so `t·L = t[i2] R[i1][j] - t[i1] R[i2][j]`
/// and the radii pair the complementary axes (Ericson §4.4.1, the axes `L = A_i × B_j`).
#[inline]
fn edge_axes_overlap(a: &Vector, b: &Vector, pose: &RelativePose) -> bool {
    let (r, fr, t) = (&pose.rotation, &pose.abs_rotation, &pose.translation);
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let s = t[i2] * r[(i1, j)] - t[i1] * r[(i2, j)];
            let ra = a[i1] * fr[(i2, j)] + a[i2] * fr[(i1, j)];
            let rb = b[j1] * fr[(i, j2)] + b[j2] * fr[(i, j1)];
            if s.abs() > ra + rb {
                return false;
            }
        }
    }
    true
}
