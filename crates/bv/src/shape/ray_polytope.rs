//! Ray against convex polytope (a placed box or convex hull).

use super::field::{cross3, dot3, point3, sub3, Field, V3};
use super::ray::{crossings, max, RaySolid, ShapeCrossings, Span};
use super::Polytope;
use crate::{Point, Ray, Vector};
use num_rational::BigRational;
use num_traits::ToPrimitive;
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
            let Some(n) = face_normal(&a, &b, &c) else {
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

/// The outward unit normal of the hull triangle `abc`: the float cross product when its length
/// is above 10⁻⁶ of `|b − a|·|c − a|` (each length padded by about 5 ulps of the largest
/// coordinate for the differences' own rounding), so its direction is within about 10⁻⁹;
/// otherwise the exact cross product of the exact differences, rounded (a few ulps). A
/// sliver (a corner within rounding of the opposite edge's line, which the exact hull keeps as
/// a face) has a float normal of no accuracy, and a plane along it would cut the span short.
/// `None` for a triangle of exactly no area.
fn face_normal(a: &Point, b: &Point, c: &Point) -> Option<Vector> {
    let n = (b - a).cross(&(c - a));
    let reach = a.coords.amax().max(b.coords.amax()).max(c.coords.amax());
    let rounding = ((b - a).norm() + reach * 1e-15) * ((c - a).norm() + reach * 1e-15);
    if n.norm() > 1e-6 * rounding {
        return n.try_normalize(0.0);
    }
    exact_cross(a, b, c).try_normalize(0.0)
}

/// `(b − a) × (c − a)` in rationals, each component rounded to the nearest `f64`.
#[cold]
fn exact_cross(a: &Point, b: &Point, c: &Point) -> Vector {
    let [a, b, c] = [a, b, c].map(point3::<BigRational>);
    let n = cross3(&sub3(&b, &a), &sub3(&c, &a));
    Vector::from_fn(|i, _| n[i].to_f64().unwrap_or(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sliver_face_of_the_hull_does_not_cut_the_entry_short() {
        // Vertex 4 lies within rounding of the line through vertices 0 and 2, so the exact
        // hull keeps a sliver triangle along that edge; its float normal pointed nowhere near
        // its exact one and put the entry 0.05 deep inside the solid.
        let vertices = [
            [1.3099454248273767, 0.3152602864042177, 2.3294667668988787],
            [1.091150396154615, 0.8505835173859756, 1.179767774205862],
            [
                -0.10307896497772129,
                -0.16973271782222943,
                0.08934537294110112,
            ],
            [1.6190652826261354, 0.2644958808030389, 1.8664679670749111],
            [
                0.2501771324735532,
                -0.048484466765617684,
                0.6493757214305454,
            ],
            [1.7558641899771066, 0.5221354223953445, 1.3895948963782245],
        ]
        .map(|[x, y, z]| Point::new(x, y, z));
        let polytope = Polytope::hull(vertices.to_vec()).expect("a solid hull");
        let ray = Ray::new(
            Point::new(-1.25, -1.625, 1.875),
            Vector::new(2.0, 1.875, -1.0),
        );
        let hits = ray_polytope(&polytope, &ray, f64::INFINITY);
        // The entry and exit by the planes of the hull's large faces (computed apart).
        let (enter, exit) = (0.8825521060759465, 1.0495456195005168);
        assert_eq!(hits.len(), 2, "{hits:?}");
        assert!((hits[0].t - enter).abs() < 1e-12, "{hits:?}");
        assert!((hits[1].t - exit).abs() < 1e-12, "{hits:?}");
        let face = Vector::new(0.0809, -0.9835, 0.1619);
        assert!((hits[0].normal - face).norm() < 1e-3, "{hits:?}");
    }
}
