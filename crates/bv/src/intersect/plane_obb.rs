//! Plane–OBB classification (three methods that agree).
//!
//! As for [`super::plane_aabb`], each method computes the range of `n · x + d` over the box
//! and classifies it with the same tangent band.

use super::plane::{Plane, PlaneSide};
use crate::{Obb, Point, Vector};

/// Classification by the projected radius `r = Σ l_k |n · u_k|` (Ericson, *Real-Time
/// Collision Detection* (2005), §5.2.3; *Real-Time Rendering*, 3rd ed. (2008), §16.10): with
/// `s = n · C + d`, positive when `s > r`, negative when `s < -r` (a branch some textbook
/// pseudo-code misprints as positive), tangent when `|s| = r`, all to within the tangent band.
pub fn classify(plane: &Plane, obb: &Obb) -> PlaneSide {
    let (lo, hi) = interval(plane, obb);
    PlaneSide::from_range(lo, hi, band(plane, obb))
}

/// Classification by the transformed normal `n' = (n·u0, n·u1, n·u2)` and the box-frame
/// vertices `V_min`, `V_max`: the normal taken into the box frame reduces the OBB to the AABB
/// case of [`super::plane_aabb::classify_diagonal`] (*Real-Time Rendering*, 3rd ed. (2008),
/// §16.10).
pub fn classify_transformed_normal(plane: &Plane, obb: &Obb) -> PlaneSide {
    let n_local = obb.axes.tr_mul(&plane.normal);
    let v_max = obb
        .half_extents
        .zip_map(&n_local, |l, n| if n > 0.0 { l } else { -l });
    let offset = plane.eval(&obb.center);
    let (lo, hi) = (offset - v_max.dot(&n_local), offset + v_max.dot(&n_local));
    PlaneSide::from_range(lo, hi, band(plane, obb))
}

/// Classification by substituting all eight vertices (the first, slowest method of
/// *Real-Time Rendering*, 3rd ed. (2008), §16.10).
pub fn classify_vertices(plane: &Plane, obb: &Obb) -> PlaneSide {
    let values = corners(obb).map(|v| plane.eval(&v));
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    PlaneSide::from_range(lo, hi, band(plane, obb))
}

/// Range `[lo, hi]` of `n · x + d` over the box: centre value ∓ projected radius.
pub fn interval(plane: &Plane, obb: &Obb) -> (f64, f64) {
    let r = obb.half_extents.dot(&obb.axes.tr_mul(&plane.normal).abs());
    let s = plane.eval(&obb.center);
    (s - r, s + r)
}

/// The eight vertices `C + Σ ±l_k u_k` of the box.
pub fn corners(obb: &Obb) -> [Point; 8] {
    std::array::from_fn(|i| {
        let sign = Vector::from_fn(|k, _| if i >> k & 1 == 0 { -1.0 } else { 1.0 });
        obb.center + obb.axes * obb.half_extents.component_mul(&sign)
    })
}

/// The tangent band of the box: [`Plane::tangent_band`] around its centre.
fn band(plane: &Plane, obb: &Obb) -> f64 {
    plane.tangent_band(&obb.center, obb.half_extents.norm())
}
