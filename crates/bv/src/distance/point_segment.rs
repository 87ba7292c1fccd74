//! Point–segment: the closest point of a closed segment (Ericson, *Real-Time Collision
//! Detection* (2005) §5.1.2), in floating point and exactly.
//!
//! The float projection is stable: the computed parameter errs by a few ulps, which moves the
//! closest point along the segment, perpendicular to the distance vector, so the distance errs
//! by a few ulps of the point's offset from the segment's start.

use super::clamped;
use super::exact::Fraction;
use crate::predicates::exact::{dot, sub, Z3};
use crate::{Point, Vector};
use num_bigint::Sign;

/// The parameter `t ∈ [0, 1]` of the point `a + t·d` of the segment closest to `a + w` (the
/// point given by its offset `w` from `a`; `dd = |d|²`): the projection onto the line, clamped
/// (Ericson §5.1.2). A zero-length segment gives 0.
#[inline]
pub(crate) fn parameter(w: &Vector, d: &Vector, dd: f64) -> f64 {
    if dd > 0.0 {
        clamped(w.dot(d) / dd, 0.0, 1.0)
    } else {
        0.0
    }
}

/// The point of the closed segment `ab` closest to `p` (`a` when `a = b`).
pub fn closest_point(p: &Point, a: &Point, b: &Point) -> Point {
    let d = b - a;
    a + d * parameter(&(p - a), &d, d.norm_squared())
}

/// The exact squared distance from `p` to the closed segment `ab` (integer coordinates):
/// `|p - a|²` or `|p - b|²` when the projection falls outside, else
/// `(|w|²|d|² - (w·d)²) / |d|²` with `w = p - a`, `d = b - a`.
pub(crate) fn distance_squared_exact(p: &Z3, a: &Z3, b: &Z3) -> Fraction {
    let (w, d) = (sub(p, a), sub(b, a));
    let (wd, dd) = (dot(&w, &d), dot(&d, &d));
    if wd.sign() != Sign::Plus {
        return Fraction::integer(dot(&w, &w));
    }
    if wd >= dd {
        let v = sub(p, b);
        return Fraction::integer(dot(&v, &v));
    }
    Fraction::new(dot(&w, &w) * &dd - &wd * &wd, dd)
}
