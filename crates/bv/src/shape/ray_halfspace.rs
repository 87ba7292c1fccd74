//! Ray against halfspace.

use super::field::{dot3, Field, V3};
use super::ray::{at, crossings, nonpositive, side_of, RaySolid, ShapeCrossings, Span};
use crate::{Ray, Vector};
use num_rational::BigRational;
use num_traits::ToPrimitive;
use std::cmp::Ordering;

/// The crossings of `ray` with the plane bounding the halfspace `n·x <= d`, for
/// `0 <= t <= max_t` (policy and accuracy of `t`: [`ray`](super::ray)); Ericson (2005) §5.3.1
/// (intersecting segment against plane).
///
/// Exact decisions: a point's side is the sign of `n·p − d`; the segment `o + t·d`,
/// `t ∈ [0, max_t]` meets the halfspace when `n·o <= d`, or `n·(o + max_t·dir) <= d` (for
/// `max_t = ∞`: `n·dir < 0`); a ray in the closed halfspace leaves it when `n·dir > 0`. So a
/// ray parallel to the plane hits only when its origin is in the plane (entry at `t = 0`) and
/// never reaches it from above or below.
pub fn ray_halfspace(n: &Vector, d: f64, ray: &Ray, max_t: f64) -> ShapeCrossings {
    crossings(&Half { n, d }, ray, max_t)
}

struct Half<'a> {
    n: &'a Vector,
    d: f64,
}

impl Half<'_> {
    fn value<T: Field>(&self, p: &V3<T>) -> T {
        let n = [
            T::from_f64(self.n.x),
            T::from_f64(self.n.y),
            T::from_f64(self.n.z),
        ];
        dot3(&n, p).sub(&T::from_f64(self.d))
    }

    fn slope<T: Field>(&self, dir: &V3<T>) -> T {
        let n = [
            T::from_f64(self.n.x),
            T::from_f64(self.n.y),
            T::from_f64(self.n.z),
        ];
        dot3(&n, dir)
    }
}

impl RaySolid for Half<'_> {
    fn side<T: Field>(&self, p: &V3<T>) -> Option<Ordering> {
        side_of(&self.value(p))
    }

    fn meets<T: Field>(&self, o: &V3<T>, d: &V3<T>, end: Option<&T>) -> Option<bool> {
        if nonpositive(&self.value(o))? {
            return Some(true);
        }
        match end {
            Some(e) => nonpositive(&self.value(&at(o, d, e))),
            None => self.slope(d).sign().map(|s| s == Ordering::Less),
        }
    }

    /// `n·d <= 0`: into the halfspace or along its plane.
    fn stays<T: Field>(&self, _p: &V3<T>, d: &V3<T>) -> Option<bool> {
        nonpositive(&self.slope(d))
    }

    fn leaves<T: Field>(&self, _o: &V3<T>, d: &V3<T>) -> Option<bool> {
        self.slope(d).sign().map(|s| s == Ordering::Greater)
    }

    fn span(&self, ray: &Ray) -> Span {
        let n = *self.n;
        let slope = n.dot(&ray.dir);
        let crossing = if slope == 0.0 {
            exact_crossing(&n, self.d, ray)
        } else {
            (self.d - n.dot(&ray.origin.coords)) / slope
        };
        let (enter, exit) = if crossing.is_nan() {
            (f64::NEG_INFINITY, f64::INFINITY)
        } else if slope < 0.0 || (slope == 0.0 && self.slope_sign(ray) == Ordering::Less) {
            (crossing, f64::INFINITY)
        } else {
            (f64::NEG_INFINITY, crossing)
        };
        Span {
            enter,
            enter_normal: n,
            exit,
            exit_normal: n,
        }
    }
}

impl Half<'_> {
    fn slope_sign(&self, ray: &Ray) -> Ordering {
        let d = [ray.dir.x, ray.dir.y, ray.dir.z].map(<BigRational as Field>::from_f64);
        self.slope(&d).sign().expect("exact")
    }
}

/// `(d − n·o) / (n·dir)` in rationals, rounded, when the float `n·dir` came out 0; NaN when the
/// exact one is 0 too (parallel).
#[cold]
fn exact_crossing(n: &Vector, d: f64, ray: &Ray) -> f64 {
    let q = |x: f64| <BigRational as Field>::from_f64(x);
    let dot = |v: &Vector| (0..3).fold(q(0.0), |acc, i| acc + q(n[i]) * q(v[i]));
    let slope = dot(&ray.dir);
    if slope == q(0.0) {
        return f64::NAN;
    }
    ((q(d) - dot(&ray.origin.coords)) / slope)
        .to_f64()
        .unwrap_or(f64::NAN)
}
