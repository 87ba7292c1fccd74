//! Ray against sphere.

use super::field::{dot3, point3, sub3, Field, V3};
use super::ray::{
    crossings, float_roots, nonpositive, quadratic_min, side_of, RaySolid, ShapeCrossings, Span,
};
use crate::{Point, Ray};
use std::cmp::Ordering;

/// The crossings of `ray` with the surface of the ball of radius `r` about `c`, for
/// `0 <= t <= max_t` (the policy and the accuracy of `t` are those of
/// [`ray`](super::ray)). Ericson (2005) §5.3.2 (intersecting ray or segment against sphere).
///
/// Exact decisions: with `m = o − c`, the origin's side is the sign of `m·m − r²`, and the
/// segment meets the ball when the least value of `|m + t·d|² − r²` over `t ∈ [0, max_t]`
/// (at `t = 0`, `t = max_t`, or `t = −(m·d)/(d·d)`) is `<= 0`: squared distances compared
/// exactly, so a tangent ray hits.
pub fn ray_sphere(c: &Point, r: f64, ray: &Ray, max_t: f64) -> ShapeCrossings {
    crossings(&Ball { c, r }, ray, max_t)
}

struct Ball<'a> {
    c: &'a Point,
    r: f64,
}

impl Ball<'_> {
    fn center<T: Field>(&self) -> V3<T> {
        point3(self.c)
    }
}

impl RaySolid for Ball<'_> {
    fn side<T: Field>(&self, p: &V3<T>) -> Option<Ordering> {
        let m = sub3(p, &self.center());
        side_of(&dot3(&m, &m).sub(&T::from_f64(self.r).square()))
    }

    fn meets<T: Field>(&self, o: &V3<T>, d: &V3<T>, end: Option<&T>) -> Option<bool> {
        let m = sub3(o, &self.center());
        let c = dot3(&m, &m).sub(&T::from_f64(self.r).square());
        nonpositive(&quadratic_min(&c, &dot3(&m, d), &dot3(d, d), end)?)
    }

    /// `(p − c)·d < 0`: a sphere is strictly convex, so a tangent ray leaves at once.
    fn stays<T: Field>(&self, p: &V3<T>, d: &V3<T>) -> Option<bool> {
        Some(dot3(&sub3(p, &self.center()), d).sign()? == Ordering::Less)
    }

    fn span(&self, ray: &Ray) -> Span {
        let m = ray.origin - self.c;
        let d = ray.dir;
        let (enter, exit, _) = float_roots(d.dot(&d), m.dot(&d), m.dot(&m) - self.r * self.r);
        let normal = |t: f64| (ray.point_at(t) - self.c) / self.r;
        Span {
            enter,
            enter_normal: normal(enter),
            exit,
            exit_normal: normal(exit),
        }
    }
}
