//! AABB–AABB: a lower bound on the distance between two axis-aligned boxes, the second placed
//! by a relative pose. B's box turned by the rotation is no longer axis-aligned in A's frame;
//! rather than re-bounding it (which can make it up to `√3` times larger), it is kept as the oriented
//! box it is and measured by the OBB bound ([`super::obb_obb`]) with A's axes the identity.

use super::obb_obb::{boxes_gap, PlacedObb};
use super::SLACK;
use crate::{Aabb, BoundingVolume, Vector};
use nalgebra::Matrix3;

/// B's box `b` (in B's frame) placed by the pose of B's frame in A's frame: rotation `rotation`
/// (orthonormal to about `1e-10`) and translation `translation`, as an oriented box.
#[inline]
pub fn place(b: &Aabb, rotation: &Matrix3<f64>, translation: &Vector) -> PlacedObb {
    let half = (b.maxs - b.mins) * 0.5;
    PlacedObb::box_with(
        &b.center().coords,
        &Matrix3::identity(),
        &half,
        rotation,
        translation,
    )
}

/// A lower bound on the distance between the box `a` and the placed box `b`: never above the
/// distance between any of their points (or B's vertices as placed in floating point), whatever
/// the rounding. Negative: they may meet.
#[inline]
pub fn lower_bound(a: &Aabb, b: &PlacedObb) -> f64 {
    let center = a.center().coords;
    let t = b.center - center;
    let offset_error = b.slack + SLACK * (center.abs().sum() + t.abs().sum());
    boxes_gap(
        &((a.maxs - a.mins) * 0.5),
        &b.half_extents,
        &t,
        &b.axes,
        offset_error,
    )
}
