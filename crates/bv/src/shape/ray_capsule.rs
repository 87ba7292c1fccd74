//! Ray against capsule.

use super::field::{cross3, dot3, point3, sub3, Field, V3};
use super::ray::{
    any_of, at, crossings, float_roots, nonpositive, quadratic_min, side_of, RaySolid,
    ShapeCrossings, Span,
};
use crate::{Point, Ray, Vector};
use arrayvec::ArrayVec;
use std::cmp::Ordering;

/// A part's float span: `(discriminant, enter, exit, enter normal, exit normal)`.
type Part = (f64, f64, f64, Vector, Vector);

/// The crossings of `ray` with the surface of the capsule of radius `r` about the segment
/// `[a, b]`, for `0 <= t <= max_t` (policy and accuracy of `t`: [`ray`](super::ray)). The
/// float span is the union of the spans of the two end balls (Ericson (2005) §5.3.2) and of
/// the cylinder between them (§5.3.7), which together make the capsule.
///
/// Exact decisions: the origin's side is the sign of the squared distance from the origin to
/// `[a, b]` minus `r²`; the segment `o + t·d`, `t ∈ [0, max_t]` meets the capsule when the
/// least squared distance between it and `[a, b]`, a convex quadratic over the parameter
/// rectangle, is at most `r²`: the least value lies on one of the rectangle's four sides
/// (point against segment, clamped exactly) or, when the lines are not parallel, at the
/// lines' closest pair, whose squared distance is `(m·(d×w))² / |d×w|²` (`m = o − a`,
/// `w = b − a`). All signs are exact.
pub fn ray_capsule(a: &Point, b: &Point, r: f64, ray: &Ray, max_t: f64) -> ShapeCrossings {
    crossings(&Swept { a, b, r }, ray, max_t)
}

struct Swept<'a> {
    a: &'a Point,
    b: &'a Point,
    r: f64,
}

impl Swept<'_> {
    /// The squared distance from `p` to `[a, b]` minus `r²`, `None` when unknown.
    fn excess<T: Field>(&self, p: &V3<T>) -> Option<T> {
        let (a, b) = (point3::<T>(self.a), point3::<T>(self.b));
        let (m, w, m1) = (sub3(p, &a), sub3(&b, &a), sub3(p, &b));
        let zero = T::zero();
        let least = T::quadratic_min(
            &dot3(&m, &m),
            &zero.sub(&dot3(&m, &w)),
            &dot3(&w, &w),
            &dot3(&m1, &m1),
        )?;
        Some(least.sub(&T::from_f64(self.r).square()))
    }
}

impl RaySolid for Swept<'_> {
    fn side<T: Field>(&self, p: &V3<T>) -> Option<Ordering> {
        side_of(&self.excess(p)?)
    }

    fn meets<T: Field>(&self, o: &V3<T>, d: &V3<T>, end: Option<&T>) -> Option<bool> {
        let (a, b) = (point3::<T>(self.a), point3::<T>(self.b));
        let r2 = T::from_f64(self.r).square();
        let dd = dot3(d, d);
        // The sides s = 0 and s = 1: each end against the segment of the ray.
        let end_side = |p: &V3<T>| {
            let m = sub3(o, p);
            let c = dot3(&m, &m).sub(&r2);
            quadratic_min(&c, &dot3(&m, d), &dd, end).and_then(|v| nonpositive(&v))
        };
        // The sides t = 0 and t = max_t: the segment's ends against [a, b].
        let start = self.excess(o).and_then(|v| nonpositive(&v));
        let far = end.map(|e| self.excess(&at(o, d, e)).and_then(|v| nonpositive(&v)));
        any_of([
            end_side(&a),
            end_side(&b),
            start,
            far.unwrap_or(Some(false)),
            self.inner(o, d, end),
        ])
    }

    /// With `c` the point of `[a, b]` nearest `p`: `(p − c)·d < 0`; when that is zero, only a
    /// ray along the axis (`d×w = 0`) from a point whose nearest is inside the segment, or at
    /// an end it moves away from, runs on along the side.
    fn stays<T: Field>(&self, p: &V3<T>, d: &V3<T>) -> Option<bool> {
        let (a, b) = (point3::<T>(self.a), point3::<T>(self.b));
        let (m, w) = (sub3(p, &a), sub3(&b, &a));
        let (ww, mw, dw, md) = (dot3(&w, &w), dot3(&m, &w), dot3(d, &w), dot3(&m, d));
        // The sign of (p − c)·d, times w·w > 0 in the middle case.
        let (first, at) = if ww.sign()? == Ordering::Equal || mw.sign()? != Ordering::Greater {
            (md.sign()?, Ordering::Less)
        } else if mw.sub(&ww).sign()? != Ordering::Less {
            (dot3(&sub3(p, &b), d).sign()?, Ordering::Greater)
        } else {
            (ww.mul(&md).sub(&mw.mul(&dw)).sign()?, Ordering::Equal)
        };
        if first != Ordering::Equal {
            return Some(first == Ordering::Less);
        }
        let e = cross3(d, &w);
        if ww.sign()? == Ordering::Equal || dot3(&e, &e).sign()? != Ordering::Equal {
            return Some(false);
        }
        // Along the axis: on inside the segment's span, or from an end back over it. At an
        // end, (p − c)·d = 0 with d along w means p lies on the end's equator.
        let moves = dw.sign()?;
        Some(match at {
            Ordering::Equal => true,
            Ordering::Less => moves == Ordering::Greater && mw.sign()? == Ordering::Equal,
            Ordering::Greater => moves == Ordering::Less && mw.sub(&ww).sign()? == Ordering::Equal,
        })
    }

    fn span(&self, ray: &Ray) -> Span {
        let ball = |c: &Point| {
            let m = ray.origin - c;
            let d = ray.dir;
            let (t0, t1, disc) = float_roots(d.dot(&d), m.dot(&d), m.dot(&m) - self.r * self.r);
            let normal = |t: f64| ray.point_at(t) - c;
            (disc, t0, t1, normal(t0), normal(t1))
        };
        let mut parts: ArrayVec<Part, 3> = ArrayVec::from_iter([ball(self.a), ball(self.b)]);
        parts.extend(self.side_span(ray));
        let entered = parts.iter().any(|p| p.0 >= 0.0);
        // When no part is entered (only touching), the part the line comes closest to entering.
        let closest = parts
            .iter()
            .copied()
            .fold(parts[0], |x, y| if y.0 > x.0 { y } else { x });
        let chosen = parts.iter().copied().filter(|p| {
            if entered {
                p.0 >= 0.0
            } else {
                p.0 == closest.0
            }
        });
        let first = chosen
            .clone()
            .reduce(|x, y| if y.1 < x.1 { y } else { x })
            .unwrap_or(closest);
        let last = chosen
            .reduce(|x, y| if y.2 > x.2 { y } else { x })
            .unwrap_or(closest);
        Span {
            enter: first.1,
            enter_normal: first.3,
            exit: last.2,
            exit_normal: last.4,
        }
    }
}

impl Swept<'_> {
    /// Whether the closest pair of the two lines lies inside the parameter rectangle and is
    /// within `r`: `Some(false)` when the lines are parallel or the pair lies outside.
    fn inner<T: Field>(&self, o: &V3<T>, d: &V3<T>, end: Option<&T>) -> Option<bool> {
        let (a, b) = (point3::<T>(self.a), point3::<T>(self.b));
        let (m, w) = (sub3(o, &a), sub3(&b, &a));
        let n = cross3(d, &w);
        let det = dot3(&n, &n);
        if det.sign()? != Ordering::Greater {
            return Some(false);
        }
        let (dd, dw, ww, md, mw) = (
            dot3(d, d),
            dot3(d, &w),
            dot3(&w, &w),
            dot3(&m, d),
            dot3(&m, &w),
        );
        // t = tn / det, s = sn / det at the lines' closest pair.
        let tn = dw.mul(&mw).sub(&md.mul(&ww));
        let sn = dd.mul(&mw).sub(&dw.mul(&md));
        let inside = tn.sign()? != Ordering::Less
            && sn.sign()? != Ordering::Less
            && sn.sub(&det).sign()? != Ordering::Greater
            && match end {
                None => true,
                Some(e) => tn.sub(&e.mul(&det)).sign()? != Ordering::Greater,
            };
        if !inside {
            return Some(false);
        }
        let triple = dot3(&m, &n);
        nonpositive(&triple.square().sub(&T::from_f64(self.r).square().mul(&det)))
    }

    /// The span of the line in the cylinder between the end balls (none when the segment is a
    /// point or the line misses it), as `(discriminant, enter, exit, normals)`.
    fn side_span(&self, ray: &Ray) -> Option<Part> {
        let w = self.b - self.a;
        let axis = w.try_normalize(0.0)?;
        let length = w.norm();
        let m = ray.origin - self.a;
        let perp = |v: Vector| v - axis * v.dot(&axis);
        let (mp, dp) = (perp(m), perp(ray.dir));
        let aa = dp.dot(&dp);
        if aa == 0.0 {
            return None;
        }
        let (l0, l1, disc) = float_roots(aa, mp.dot(&dp), mp.dot(&mp) - self.r * self.r);
        let (ma, da) = (m.dot(&axis), ray.dir.dot(&axis));
        let (s0, s1) = if da == 0.0 {
            if ma < 0.0 || ma > length {
                return None;
            }
            (f64::NEG_INFINITY, f64::INFINITY)
        } else {
            let (x, y) = (-ma / da, (length - ma) / da);
            (x.min(y), x.max(y))
        };
        let (t0, t1) = (l0.max(s0), l1.min(s1));
        if t0 > t1 {
            return None;
        }
        let normal = |t: f64| perp(ray.point_at(t) - self.a);
        Some((disc, t0, t1, normal(t0), normal(t1)))
    }
}
