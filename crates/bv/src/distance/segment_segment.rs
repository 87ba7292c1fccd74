//! Segment–segment: the closest points of two closed segments, in floating point (Ericson,
//! *Real-Time Collision Detection* (2005) §5.1.9, with the line–line step reformulated for
//! stability) and exactly.
//!
//! # The float method
//!
//! Ericson's `ClosestPtSegmentSegment` solves the 2×2 normal equations of the two lines, clamps
//! one parameter to `[0, 1]`, computes the other from it and, if that one leaves `[0, 1]`,
//! clamps it and recomputes the first. Parallel and zero-length segments take the projection
//! branches. Correct in exact arithmetic; in floating point its determinant `|d₁|²|d₂|² −
//! (d₁·d₂)²` cancels for nearly parallel segments (angle `φ`), so the line parameter errs by
//! `~ε/φ²`, which for segments crossing at a tiny distance moves the reported points apart by
//! `~ε/φ` of their length: up to `√ε` relative at `φ ≈ √ε`.
//!
//! Here the first parameter `t` (on the second segment) is instead found as the closest point
//! to the origin of the second segment *seen along the first line*: both are projected onto the
//! plane perpendicular to `d₁`, where the second segment becomes `g₀ + t·d₂⊥` and the line
//! distance is `min_t |g₀ + t·d₂⊥|` (a point–line projection, stable). Its error moves the point
//! along `d₂⊥`, which changes the lateral offset by a few ulps of `|g₀|` however small `φ` is.
//! The rest is Ericson's clamping sequence with the roles of the segments swapped; every
//! reported point is an actual point of its segment (parameters in `[0, 1]`), so the reported
//! distance never falls below the true one by more than rounding.

use super::clamped;
use super::exact::{in_unit_interval, Fraction};
use super::point_segment;
use crate::predicates::exact::{cross, dot, sub, Z3};
use crate::{Point, Vector};
use num_traits::Zero;

/// The parameters `(s, t) ∈ [0, 1]²` of the closest points `a + s·d1` and `c + t·d2` of the
/// segments (any vectors in one frame; `dd1 = |d1|²`, `dd2 = |d2|²`). See the module docs.
#[inline]
pub(crate) fn parameters(
    a: &Vector,
    d1: &Vector,
    dd1: f64,
    c: &Vector,
    d2: &Vector,
    dd2: f64,
) -> (f64, f64) {
    let r = c - a;
    if dd1 == 0.0 {
        return (0.0, point_segment::parameter(&(-r), d2, dd2));
    }
    if dd2 == 0.0 {
        return (point_segment::parameter(&r, d1, dd1), 0.0);
    }
    let t = lateral_parameter(&r, d1, dd1, d2);
    let s = (r + d2 * t).dot(d1) / dd1;
    if (0.0..=1.0).contains(&s) {
        return (s, t);
    }
    let s = clamped(s, 0.0, 1.0);
    (s, point_segment::parameter(&(d1 * s - r), d2, dd2))
}

/// The parameter in `[0, 1]` of the point of the segment `r + t·d2` nearest to the line through
/// the origin along `d1` (`dd1 = |d1|² > 0`), found in the plane perpendicular to `d1`; 0 when
/// the segment is parallel to the line (in floating point).
#[inline]
fn lateral_parameter(r: &Vector, d1: &Vector, dd1: f64, d2: &Vector) -> f64 {
    let d2_across = d2 - d1 * (d2.dot(d1) / dd1);
    let r_across = r - d1 * (r.dot(d1) / dd1);
    let ee = d2_across.norm_squared();
    if ee > 0.0 {
        clamped(-r_across.dot(&d2_across) / ee, 0.0, 1.0)
    } else {
        0.0
    }
}

/// The closest points of the closed segments `p0 p1` and `q0 q1` (on the first, on the second).
/// Zero-length segments are points; for parallel segments one of the closest pairs is returned.
pub fn closest_points(p0: &Point, p1: &Point, q0: &Point, q1: &Point) -> (Point, Point) {
    let (d1, d2, c) = (p1 - p0, q1 - q0, q0 - p0);
    let (s, t) = parameters(
        &Vector::zeros(),
        &d1,
        d1.norm_squared(),
        &c,
        &d2,
        d2.norm_squared(),
    );
    (p0 + d1 * s, q0 + d2 * t)
}

/// The exact squared distance between the closed segments `ab` and `cd` (integer
/// coordinates). A convex quadratic over the parameter square is least either at the lines'
/// closest points, if both parameters lie in `[0, 1]` (non-parallel lines: `s = ((c−a)×d₂)·n /
/// |n|²`, `t = ((c−a)×d₁)·n / |n|²`, distance `|(c−a)·n| / |n|` with `n = d₁×d₂`), or on an
/// edge of the square, i.e. at the distance from an end point to the other segment.
pub(crate) fn distance_squared_exact(a: &Z3, b: &Z3, c: &Z3, d: &Z3) -> Fraction {
    let (d1, d2, w) = (sub(b, a), sub(d, c), sub(c, a));
    let n = cross(&d1, &d2);
    let nn = dot(&n, &n);
    if !nn.is_zero()
        && in_unit_interval(&dot(&cross(&w, &d2), &n), &nn)
        && in_unit_interval(&dot(&cross(&w, &d1), &n), &nn)
    {
        let h = dot(&n, &w);
        return Fraction::new(&h * &h, nn);
    }
    Fraction::least([
        point_segment::distance_squared_exact(a, c, d),
        point_segment::distance_squared_exact(b, c, d),
        point_segment::distance_squared_exact(c, a, b),
        point_segment::distance_squared_exact(d, a, b),
    ])
}
