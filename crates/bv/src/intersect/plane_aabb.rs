//! Plane–AABB classification (three methods that agree).
//!
//! All three compute the range `[lo, hi]` of `n · x + d` over the box and hand it to
//! [`PlaneSide::from_range`] with the same tangent band, so they differ only by rounding,
//! which the band absorbs (see the module policy in [`crate::intersect`]).

use super::plane::{Plane, PlaneSide};
use crate::{Aabb, Point};

/// Classification by the projected radius `r = Σ h_k |n_k|` around the centre (the fastest;
/// Ericson, *Real-Time Collision Detection* (2005), §5.2.3).
pub fn classify(plane: &Plane, aabb: &Aabb) -> PlaneSide {
    let (lo, hi) = interval(plane, aabb);
    PlaneSide::from_range(lo, hi, band(plane, aabb))
}

/// Classification by the two ends of the box diagonal best aligned with `n` (*Real-Time
/// Rendering*, 3rd ed. (2008), §16.10).
pub fn classify_diagonal(plane: &Plane, aabb: &Aabb) -> PlaneSide {
    let (v_min, v_max) = diagonal(plane, aabb);
    PlaneSide::from_range(plane.eval(&v_min), plane.eval(&v_max), band(plane, aabb))
}

/// Classification by substituting all eight vertices (the first, slowest method of
/// *Real-Time Rendering*, 3rd ed. (2008), §16.10).
pub fn classify_vertices(plane: &Plane, aabb: &Aabb) -> PlaneSide {
    let values = corners(aabb).map(|v| plane.eval(&v));
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    PlaneSide::from_range(lo, hi, band(plane, aabb))
}

/// Range `[lo, hi]` of `n · x + d` over the box: centre value ∓ projected radius.
pub fn interval(plane: &Plane, aabb: &Aabb) -> (f64, f64) {
    let center = nalgebra::center(&aabb.mins, &aabb.maxs);
    let r = ((aabb.maxs - aabb.mins) * 0.5).dot(&plane.normal.abs());
    let s = plane.eval(&center);
    (s - r, s + r)
}

/// The vertices `V_min`, `V_max` minimising and maximising `n · x` (the n- and p-vertices):
/// `V_min` takes the box's minimum coordinate where `n_k >= 0` and its maximum where
/// `n_k < 0`, `V_max` the opposite.
pub fn diagonal(plane: &Plane, aabb: &Aabb) -> (Point, Point) {
    let (mut v_min, mut v_max) = (aabb.mins, aabb.maxs);
    for k in 0..3 {
        if plane.normal[k] < 0.0 {
            std::mem::swap(&mut v_min[k], &mut v_max[k]);
        }
    }
    (v_min, v_max)
}

/// The eight vertices of the box ([`Aabb::corners`]).
pub fn corners(aabb: &Aabb) -> [Point; 8] {
    aabb.corners()
}

/// The tangent band of the box: [`Plane::tangent_band`] around its centre.
fn band(plane: &Plane, aabb: &Aabb) -> f64 {
    let center = nalgebra::center(&aabb.mins, &aabb.maxs);
    plane.tangent_band(&center, ((aabb.maxs - aabb.mins) * 0.5).norm())
}
