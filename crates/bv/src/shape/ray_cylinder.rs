//! Ray against cylinder.

use super::field::{cross3, dot3, point3, sub3, Field, V3};
use super::ray::{crossings, float_roots, max, nonpositive, RaySolid, ShapeCrossings, Span};
use crate::{Point, Ray, Vector};
use std::cmp::Ordering;

/// The crossings of `ray` with the surface of the solid cylinder of radius `r` about the axis
/// `[a, b]` (flat caps), for `0 <= t <= max_t` (policy and accuracy of `t`:
/// [`ray`](super::ray)). Ericson (2005) §5.3.7 (intersecting ray or segment against
/// cylinder): the line is clipped to the slab between the cap planes, then to the infinite
/// cylinder.
///
/// Exact decisions, with `w = b − a`: a point `p` is in the closed cylinder when
/// `0 <= (p − a)·w <= w·w` and `|(p − a)×w|² <= r²·(w·w)`. The segment `o + t·d`,
/// `t ∈ [0, max_t]` is first clipped exactly to the slab (`(o − a)·w + t·(d·w)` between `0`
/// and `w·w`: rational bounds on `t`), then the least value of the quadratic
/// `|(o − a + t·d)×w|² − r²·(w·w)` over the clipped range is compared with zero. A ray
/// parallel to the axis at exactly the radius, or tangent to the side, hits.
pub fn ray_cylinder(a: &Point, b: &Point, r: f64, ray: &Ray, max_t: f64) -> ShapeCrossings {
    crossings(&Can { a, b, r }, ray, max_t)
}

struct Can<'a> {
    a: &'a Point,
    b: &'a Point,
    r: f64,
}

impl Can<'_> {
    fn axis<T: Field>(&self) -> (V3<T>, V3<T>) {
        let a = point3::<T>(self.a);
        let w = sub3(&point3::<T>(self.b), &a);
        (a, w)
    }
}

impl RaySolid for Can<'_> {
    fn side<T: Field>(&self, p: &V3<T>) -> Option<Ordering> {
        let (a, w) = self.axis::<T>();
        let m = sub3(p, &a);
        let ww = dot3(&w, &w);
        let g = dot3(&m, &w);
        let c = cross3(&m, &w);
        let h = dot3(&c, &c).sub(&T::from_f64(self.r).square().mul(&ww));
        let (below, above, radial) = (T::zero().sub(&g).sign()?, g.sub(&ww).sign()?, h.sign()?);
        Some(below.max(above).max(radial))
    }

    fn meets<T: Field>(&self, o: &V3<T>, d: &V3<T>, end: Option<&T>) -> Option<bool> {
        let (a, w) = self.axis::<T>();
        let m = sub3(o, &a);
        let (ww, g0, dw) = (dot3(&w, &w), dot3(&m, &w), dot3(d, &w));
        // The parameters where the line crosses the two cap planes.
        let (t0, t1) = match dw.sign()? {
            Ordering::Equal => {
                let inside =
                    g0.sign()? != Ordering::Less && g0.sub(&ww).sign()? != Ordering::Greater;
                if !inside {
                    return Some(false);
                }
                (T::zero(), end.cloned())
            }
            s => {
                let (x, y) = (T::zero().sub(&g0).div(&dw), ww.sub(&g0).div(&dw));
                let (lo, hi) = if s == Ordering::Greater {
                    (x, y)
                } else {
                    (y, x)
                };
                let hi = match end {
                    Some(e) => hi.min(e),
                    None => hi,
                };
                (max(&T::zero(), &lo), Some(hi))
            }
        };
        if let Some(t1) = &t1 {
            if t1.sub(&t0).sign()? == Ordering::Less {
                return Some(false);
            }
        }
        // The radial excess along the clipped range, as a quadratic in u = t − t0 >= 0.
        let (mc, e) = (cross3(&m, &w), cross3(d, &w));
        let (me, ee) = (dot3(&mc, &e), dot3(&e, &e));
        let r2w = T::from_f64(self.r).square().mul(&ww);
        let h0 = dot3(&mc, &mc)
            .add(&me.add(&me).mul(&t0))
            .add(&ee.mul(&t0.square()))
            .sub(&r2w);
        let slope = me.add(&ee.mul(&t0));
        let span = t1.map(|t1| t1.sub(&t0));
        nonpositive(&super::ray::quadratic_min(&h0, &slope, &ee, span.as_ref())?)
    }

    /// Each constraint active at `p` must hold along `d`: a cap plane through `p` needs `d` not
    /// pointing out of it; the side (`|(p − a)×w|² = r²·(w·w)`) needs
    /// `((p − a)×w)·(d×w) < 0`, or `d×w = 0` (running along the side).
    fn stays<T: Field>(&self, p: &V3<T>, d: &V3<T>) -> Option<bool> {
        let (a, w) = self.axis::<T>();
        let m = sub3(p, &a);
        let (ww, g, dw) = (dot3(&w, &w), dot3(&m, &w), dot3(d, &w));
        if g.sign()? == Ordering::Equal && dw.sign()? == Ordering::Less {
            return Some(false);
        }
        if g.sub(&ww).sign()? == Ordering::Equal && dw.sign()? == Ordering::Greater {
            return Some(false);
        }
        let (mc, e) = (cross3(&m, &w), cross3(d, &w));
        let h = dot3(&mc, &mc).sub(&T::from_f64(self.r).square().mul(&ww));
        if h.sign()? == Ordering::Equal {
            let first = dot3(&mc, &e).sign()?;
            let along = dot3(&e, &e).sign()? == Ordering::Equal;
            return Some(first == Ordering::Less || (first == Ordering::Equal && along));
        }
        Some(true)
    }

    fn span(&self, ray: &Ray) -> Span {
        let w = self.b - self.a;
        let length = w.norm();
        let axis = w / length;
        let m = ray.origin - self.a;
        let perp = |v: Vector| v - axis * v.dot(&axis);
        let (mp, dp) = (perp(m), perp(ray.dir));
        let aa = dp.dot(&dp);
        // The infinite cylinder; a line parallel to the axis is in it all along (the exact
        // test has decided that it meets the solid).
        let (l0, l1) = if aa == 0.0 {
            (f64::NEG_INFINITY, f64::INFINITY)
        } else {
            let (l0, l1, _) = float_roots(aa, mp.dot(&dp), mp.dot(&mp) - self.r * self.r);
            (l0, l1)
        };
        // The slab between the caps, entered through the cap facing the ray.
        let (ma, da) = (m.dot(&axis), ray.dir.dot(&axis));
        let (s0, n0, s1, n1) = if da == 0.0 {
            (f64::NEG_INFINITY, -axis, f64::INFINITY, axis)
        } else if da > 0.0 {
            (-ma / da, -axis, (length - ma) / da, axis)
        } else {
            ((length - ma) / da, axis, -ma / da, -axis)
        };
        let side = |t: f64| perp(ray.point_at(t) - self.a);
        let (enter, enter_normal) = if s0 >= l0 { (s0, n0) } else { (l0, side(l0)) };
        let (exit, exit_normal) = if s1 <= l1 { (s1, n1) } else { (l1, side(l1)) };
        Span {
            enter,
            enter_normal,
            exit,
            exit_normal,
        }
    }
}
