//! Sphere–sphere: a lower bound on the distance between two balls, the second placed by a
//! relative pose: the distance between the centres less both radii (exact up to rounding).

use super::{PARALLEL_EPS, SLACK};
use crate::{Sphere, Vector};
use nalgebra::Matrix3;

/// B's ball `b` (in B's frame) placed by the pose of B's frame in A's frame: rotation
/// `rotation` (orthonormal to about `1e-10`) and translation `translation`. The radius grows by
/// a bound on the rounding of the centre's placement and of B's vertices' placement `R·p + t`
/// (which is what the leaf tests see), and by [`PARALLEL_EPS`] for the rotation's departure
/// from orthonormality.
#[inline]
pub fn place(b: &Sphere, rotation: &Matrix3<f64>, translation: &Vector) -> Sphere {
    let rotated = rotation * b.center.coords;
    let center = rotated + translation;
    let magnitude = rotated.abs().sum() + translation.abs().sum() + center.abs().sum() + b.radius;
    Sphere::new(
        center.into(),
        b.radius * (1.0 + PARALLEL_EPS) + SLACK * magnitude,
    )
}

/// A lower bound on the distance between the ball `a` and the placed ball `b`: never above the
/// distance between any of their points (or B's vertices as placed in floating point), whatever
/// the rounding. Negative: they may meet.
#[inline]
pub fn lower_bound(a: &Sphere, b: &Sphere) -> f64 {
    let d = b.center - a.center;
    let pad = SLACK * (a.center.coords.abs().sum() + b.center.coords.abs().sum() + d.abs().sum());
    d.norm() - a.radius - b.radius - pad
}
