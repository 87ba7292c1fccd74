//! Ray against convex polytope (a placed box or convex hull).

use super::field::{cross3, dot3, point3, sub3, Field, V3};
use super::ray::{crossings, max, RaySolid, ShapeCrossings, Span};
use super::Polytope;
use crate::{Ray, Vector};
use std::cmp::Ordering;

/// The crossings of `ray` with the surface of the polytope `p`, for `0 <= t <= max_t`
/// (policy and accuracy of `t`: [`ray`](super::ray)). Haines, "Fast ray–convex polyhedron
/// intersection", *Graphics Gems II* (1991): the line is clipped by the halfspace of each
/// boundary triangle's plane; the slab test of a box (Ericson (2005) §5.3.3) is the case of
/// its six faces.
///
/// Exact decisions: each plane is `n·(x − v₀) <= 0` with `n = (v₁ − v₀)×(v₂ − v₀)` over an
/// outward boundary triangle, computed exactly from the placed vertices (no normalisation).
/// A point's side is the largest sign over the planes; the segment `o + t·d`,
/// `t ∈ [0, max_t]` keeps `t·(n·d) <= n·(v₀ − o)` for every plane, and meets the solid when
/// the largest lower bound on `t` (and 0) is at most the smallest upper bound (and `max_t`),
/// rational ratios compared exactly. So a ray through an edge or a corner, or along a face,
/// hits.
pub fn ray_polytope(p: &Polytope, ray: &Ray, max_t: f64) -> ShapeCrossings {
    crossings(&Hull(p), ray, max_t)
}

struct Hull<'a>(&'a Polytope);

impl Hull<'_> {
    /// Each boundary triangle's plane as `(n, v₀)`, exact in `T`.
    fn planes<T: Field>(&self) -> impl Iterator<Item = (V3<T>, V3<T>)> + '_ {
        let vertices = self.0.vertices();
        self.0.triangles().iter().map(move |t| {
            let [a, b, c] = t.map(|i| point3::<T>(&vertices[i as usize]));
            (cross3(&sub3(&b, &a), &sub3(&c, &a)), a)
        })
    }
}

impl RaySolid for Hull<'_> {
    fn side<T: Field>(&self, p: &V3<T>) -> Option<Ordering> {
        let mut side = Ordering::Less;
        for (n, v) in self.planes::<T>() {
            side = side.max(dot3(&n, &sub3(p, &v)).sign()?);
        }
        Some(side)
    }

    fn meets<T: Field>(&self, o: &V3<T>, d: &V3<T>, end: Option<&T>) -> Option<bool> {
        let (mut lo, mut hi) = (T::zero(), end.cloned());
        for (n, v) in self.planes::<T>() {
            let (num, den) = (dot3(&n, &sub3(&v, o)), dot3(&n, d));
            match den.sign()? {
                Ordering::Equal => {
                    if num.sign()? == Ordering::Less {
                        return Some(false);
                    }
                }
                Ordering::Less => lo = max(&lo, &num.div(&den)),
                Ordering::Greater => {
                    let bound = num.div(&den);
                    hi = Some(match hi {
                        Some(h) => h.min(&bound),
                        None => bound,
                    });
                }
            }
        }
        match hi {
            None => Some(true),
            Some(hi) => hi.sub(&lo).sign().map(|s| s != Ordering::Less),
        }
    }

    /// `n·d <= 0` for every plane through `p` (the others hold strictly near `p`).
    fn stays<T: Field>(&self, p: &V3<T>, d: &V3<T>) -> Option<bool> {
        for (n, v) in self.planes::<T>() {
            if dot3(&n, &sub3(p, &v)).sign()? == Ordering::Equal
                && dot3(&n, d).sign()? == Ordering::Greater
            {
                return Some(false);
            }
        }
        Some(true)
    }

    fn span(&self, ray: &Ray) -> Span {
        let vertices = self.0.vertices();
        let mut span = Span {
            enter: f64::NEG_INFINITY,
            enter_normal: Vector::zeros(),
            exit: f64::INFINITY,
            exit_normal: Vector::zeros(),
        };
        for t in self.0.triangles() {
            let [a, b, c] = t.map(|i| vertices[i as usize]);
            let Some(n) = (b - a).cross(&(c - a)).try_normalize(0.0) else {
                continue;
            };
            let (num, den) = (n.dot(&(a - ray.origin)), n.dot(&ray.dir));
            if den < 0.0 && num / den > span.enter {
                (span.enter, span.enter_normal) = (num / den, n);
            } else if den > 0.0 && num / den < span.exit {
                (span.exit, span.exit_normal) = (num / den, n);
            }
        }
        span
    }
}
