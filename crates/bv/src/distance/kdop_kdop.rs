//! k-DOP–k-DOP: a lower bound on the distance between two k-DOPs, the second placed by a
//! relative pose. A turned k-DOP is no k-DOP (its slab directions are fixed), so, as the posed
//! overlap test does, each side is measured against the other's box: B's k-DOP is bounded by
//! its AABB (its first three slabs), that box turned into A's frame and its interval along each
//! of A's slab directions compared with A's slab (Ericson, *Real-Time Collision Detection*
//! (2005) §4.6.2, projecting a box on an axis); then the same with the roles swapped. The
//! largest gap over both sets of slabs, each divided by its direction's length, is the bound:
//! the box is larger than the k-DOP it replaces, so it is at most the distance.

use super::{PARALLEL_EPS, SLACK};
use crate::{BoundingVolume, Kdop, Vector};
use nalgebra::Matrix3;

/// The relative pose prepared for k-DOP bounds, once per query: the slab directions, their
/// lengths, and the turned boxes' projected radii per unit half-extent.
#[derive(Clone, Debug)]
pub struct KdopPose<const A: usize> {
    rotation: Matrix3<f64>,
    translation: Vector,
    axes: [Vector; A],
    lengths: [f64; A],
    /// `|Rᵀ n_i| + ε` for the slab directions `n_i`: a box of B's radius along A's slab `i`.
    a_axes_in_b: [Vector; A],
    /// `|R n_j| + ε`: a box of A's radius along B's slab `j`.
    b_axes_in_a: [Vector; A],
}

impl<const A: usize> KdopPose<A> {
    /// The pose of B's frame in A's frame: rotation `rotation` (orthonormal to about `1e-10`)
    /// and translation `translation`.
    pub fn new(rotation: &Matrix3<f64>, translation: &Vector) -> Self {
        let axes = Kdop::<A>::axes();
        Self {
            rotation: *rotation,
            translation: *translation,
            axes,
            lengths: axes.map(|n| n.norm()),
            a_axes_in_b: axes.map(|n| rotation.tr_mul(&n).abs().add_scalar(PARALLEL_EPS)),
            b_axes_in_a: axes.map(|n| (rotation * n).abs().add_scalar(PARALLEL_EPS)),
        }
    }
}

/// A lower bound on the distance between the k-DOP `a` (in A's frame) and the k-DOP `b` (in
/// B's frame, placed by `pose`): never above the distance between any of their points (or of
/// B's vertices as placed in floating point, `R·p + t`), whatever the rounding. Negative: they
/// may meet.
pub fn lower_bound<const A: usize>(a: &Kdop<A>, b: &Kdop<A>, pose: &KdopPose<A>) -> f64 {
    let (box_a, box_b) = (a.aabb(), b.aabb());
    let (ca, cb) = (box_a.center().coords, box_b.center().coords);
    let (ha, hb) = (
        (box_a.maxs - box_a.mins) * 0.5,
        (box_b.maxs - box_b.mins) * 0.5,
    );
    let rotated = pose.rotation * cb;
    let b_in_a = rotated + pose.translation;
    let a_in_b = pose.rotation.tr_mul(&(ca - pose.translation));
    let gap_a = slabs_gap(a, &b_in_a, &hb, &pose.a_axes_in_b, pose);
    let gap_b = slabs_gap(b, &a_in_b, &ha, &pose.b_axes_in_a, pose);
    // Rounding of the boxes' placement both ways and of B's vertices' placement (magnitudes
    // at most `|c| + Σh` and `|t|`), of the k-DOPs' own slab values (a few ulps of them), and
    // the rotation's departure from orthonormality over the offsets and sizes.
    let extent = a
        .min
        .iter()
        .chain(&a.max)
        .chain(&b.min)
        .chain(&b.max)
        .fold(0.0f64, |m, v| m.max(v.abs()));
    let magnitude = rotated.abs().sum()
        + pose.translation.abs().sum()
        + b_in_a.abs().sum()
        + ca.abs().sum()
        + a_in_b.abs().sum()
        + ha.sum()
        + hb.sum();
    let pad = SLACK * (2.0 * magnitude + extent) + PARALLEL_EPS * magnitude;
    gap_a.max(gap_b) - pad
}

/// The largest gap between the slabs of `kdop` and a box with centre `center` (in the k-DOP's
/// frame) and half-extents `half`, whose radius along slab `i` is `radii[i]·half`.
#[inline]
fn slabs_gap<const A: usize>(
    kdop: &Kdop<A>,
    center: &Vector,
    half: &Vector,
    radii: &[Vector; A],
    pose: &KdopPose<A>,
) -> f64 {
    (0..A)
        .map(|i| {
            let (c, r) = (pose.axes[i].dot(center), radii[i].dot(half));
            (c - r - kdop.max[i]).max(kdop.min[i] - c - r) / pose.lengths[i]
        })
        .fold(f64::NEG_INFINITY, f64::max)
}
