//! Rays against placed shapes: the policy every `ray_*` pair file follows, and the exact
//! decisions behind it.
//!
//! A shape is picked by its **surface**, as a closed mesh is: a ray reports where it crosses
//! the boundary of the solid with `0 <= t <= max_t`, at most twice (the solids are convex):
//!
//! * from an origin **outside**, an *entry* (front face) when the ray meets the closed solid
//!   within `[0, max_t]` (touching counts, also at `t = max_t`), and an *exit* (back face)
//!   when the ray's last point in the solid is at `t <= max_t` (for `max_t = ∞`: always for a
//!   bounded solid; for a halfspace, when the ray points out of its plane). A ray running
//!   along the surface (a face, a cylinder's side) exits where it leaves it;
//! * from an origin **on the surface**, an entry at `t = 0` exactly, and the exit as above (a
//!   ray leaving the surface outwards reports both at `t ≈ 0`);
//! * from an origin **inside** (the interior), no entry, and the exit as above: a ray that
//!   starts inside a solid hits its surface from within, as it would the triangles of a closed
//!   mesh. `t = 0` is never reported for a ray starting strictly inside.
//!
//! A tangent ray (touching the surface without entering the interior) counts: it reports an
//! entry and an exit at the same, or nearly the same, `t`. So a crossing whose exact parameter
//! is `t` is reported by every query with `max_t >= t`, and by none with `max_t < t` (the
//! reported, rounded `t` is clamped to `max_t`).
//!
//! # Exactness
//!
//! Which crossings exist is decided **exactly** on the `f64` data of the ray, `max_t` and the
//! placed shape: the side of the origin (interior, surface, exterior), whether the segment
//! `origin + t·dir`, `t ∈ [0, max_t]` (a ray for `max_t = ∞`) meets the closed solid, the
//! side of its far end and, for a far end on the surface, whether the ray runs on inside
//! (first- and second-order signs along `dir`) are polynomial signs in those numbers,
//! evaluated on rigorous intervals (the float filter of `shape/field.rs`) and, when an
//! interval cannot settle a sign, in exact rationals. Each pair file states its polynomials.
//!
//! The parameter `t` and the normal are then computed in floating point from the same data
//! (the stable quadratic formula, slab and face-plane ratios; Ericson, *Real-Time Collision
//! Detection* (2005) §5.3), clamped to `[0, max_t]` and ordered (entry before exit). Their
//! accuracy: the hit point lies within about `2⁻⁴⁰·L` of the surface, `L` the size of the
//! query (the origin's distance from the shape plus the shape's size and `t·|dir|`); where the
//! ray crosses the surface at an angle, `t·|dir|` is within `2⁻⁴⁰·L / cos θ` of the true
//! crossing (`θ` the angle between the ray and the normal). Near tangency the crossing
//! itself is ill-conditioned (a double root) and only the first bound holds. These bounds
//! leave a margin of about `2¹²` over the rounding of the formulas; they are checked against
//! exact oracles in the query crate's tests (`tests/shape_rays.rs`), not proven.

use super::field::{point3, Field, Interval, V3};
use crate::range::{binary_exponent, power_of_two_factors};
use crate::{Ray, Vector};
use arrayvec::ArrayVec;
use num_rational::BigRational;
use std::cmp::Ordering;

/// Where a ray crosses a placed shape's surface.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeCrossing {
    /// The ray parameter (in units of the ray's direction), in `[0, max_t]`.
    pub t: f64,
    /// The outward unit normal of the surface at the crossing (in the world frame of the
    /// placed shape).
    pub normal: Vector,
    /// Whether the ray enters the solid here (front face) rather than leaves it (back face).
    pub entering: bool,
}

/// A ray's crossings of a convex shape's surface, entry before exit (at most two).
pub type ShapeCrossings = ArrayVec<ShapeCrossing, 2>;

/// A float estimate of where the ray's *line* is in the solid: from `enter` to `exit` (either
/// may be infinite), with the outward normals there. Not clipped to `[0, max_t]`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Span {
    pub enter: f64,
    pub enter_normal: Vector,
    pub exit: f64,
    pub exit_normal: Vector,
}

/// What a pair file provides: the exact signs (generic over the filter's intervals and exact
/// rationals) and the float span.
pub(super) trait RaySolid {
    /// The side of `p`: `Less` in the interior, `Equal` on the surface, `Greater` outside;
    /// `None` when the interval cannot tell.
    fn side<T: Field>(&self, p: &V3<T>) -> Option<Ordering>;
    /// Whether the segment `o + t·d`, `t ∈ [0, end]` (`end = None`: the ray `t >= 0`) meets
    /// the closed solid; `None` when the interval cannot tell. Asked only for `o` outside.
    fn meets<T: Field>(&self, o: &V3<T>, d: &V3<T>, end: Option<&T>) -> Option<bool>;
    /// Whether the ray from `p`, a point of the surface, runs on in the closed solid: `p + ε·d`
    /// in it for every small enough `ε > 0` (its exit is beyond `p`). The first-order sign
    /// decides, and the second order where the first is zero.
    fn stays<T: Field>(&self, p: &V3<T>, d: &V3<T>) -> Option<bool>;
    /// Whether the ray from `o` (in the closed solid) along `d` ends up outside it: always for
    /// a bounded solid.
    fn leaves<T: Field>(&self, _o: &V3<T>, _d: &V3<T>) -> Option<bool> {
        Some(true)
    }
    /// The float span of `ray`'s line in the solid; `dir` of `ray` has its largest component
    /// in `[1, 2)` (see [`crossings`]).
    fn span(&self, ray: &Ray) -> Span;
}

/// The exact answers behind a cast.
struct Decision {
    origin: Ordering,
    enter: bool,
    exit: bool,
}

fn vector3<T: Field>(v: &Vector) -> V3<T> {
    [T::from_f64(v.x), T::from_f64(v.y), T::from_f64(v.z)]
}

/// The decision in the number type `T` (`None`: an interval could not settle a sign).
fn decide_in<T: Field, S: RaySolid>(solid: &S, ray: &Ray, max_t: f64) -> Option<Decision> {
    let (o, d) = (point3::<T>(&ray.origin), vector3::<T>(&ray.dir));
    let end = max_t.is_finite().then(|| T::from_f64(max_t));
    let origin = solid.side(&o)?;
    let enter = match origin {
        Ordering::Less => false,
        Ordering::Equal => true,
        Ordering::Greater => solid.meets(&o, &d, end.as_ref())?,
    };
    let exit = if origin == Ordering::Greater && !enter {
        false
    } else {
        solid.leaves(&o, &d)?
            && match &end {
                None => true,
                Some(e) => {
                    let far = std::array::from_fn(|i| o[i].add(&e.mul(&d[i])));
                    match solid.side(&far)? {
                        Ordering::Greater => true,
                        Ordering::Less => false,
                        // On the surface: the exit is here unless the ray runs on inside.
                        Ordering::Equal => !solid.stays(&far, &d)?,
                    }
                }
            }
    };
    Some(Decision {
        origin,
        enter,
        exit,
    })
}

/// The exact decision: intervals first, rationals when they cannot settle it.
fn decide<S: RaySolid>(solid: &S, ray: &Ray, max_t: f64) -> Decision {
    decide_in::<Interval, S>(solid, ray, max_t)
        .or_else(|| decide_in::<BigRational, S>(solid, ray, max_t))
        .expect("rationals settle every sign")
}

/// The ray with its direction scaled by `2⁻ᵉ` (exact) so that its largest component lies in
/// `[1, 2)`, and the factor `2⁻ᵉ` that turns its parameters back into the ray's.
fn unit_ray(ray: &Ray) -> (Ray, [f64; 2]) {
    let factors = power_of_two_factors(-binary_exponent(ray.dir.amax()));
    let [f0, f1] = factors;
    (Ray::new(ray.origin, ray.dir.map(|x| x * f0 * f1)), factors)
}

/// The crossings of `ray` (non-zero finite direction, finite origin) with the surface of
/// `solid` for `0 <= t <= max_t` (see the module docs).
pub(super) fn crossings<S: RaySolid>(solid: &S, ray: &Ray, max_t: f64) -> ShapeCrossings {
    let decision = decide(solid, ray, max_t);
    let mut out = ShapeCrossings::new();
    if !decision.enter && !decision.exit {
        return out;
    }
    let (unit, [f0, f1]) = unit_ray(ray);
    let span = solid.span(&unit);
    // Back to the ray's parameter (exact unless it leaves the normal range).
    let back = |s: f64| s * f0 * f1;
    let (mut enter, mut exit) = (back(span.enter), back(span.exit));
    let mut enter_normal = span.enter_normal;
    if decision.origin == Ordering::Equal {
        // The crossing is the origin: its normal is the nearer end's of the float span (a ray
        // leaving the surface has its float entry behind it, at the far side).
        if exit.abs() < enter.abs() {
            enter_normal = span.exit_normal;
        }
        enter = 0.0;
    }
    let reversed = enter > exit || enter.is_nan() || exit.is_nan();
    if decision.enter && decision.exit && reversed {
        // The float span missed or reversed a touching crossing that the exact test found.
        let middle = if enter.is_nan() || exit.is_nan() {
            enter.min(exit)
        } else {
            enter / 2.0 + exit / 2.0
        };
        (enter, exit) = (middle, middle);
    }
    // (`+ 0.0` turns a clamped `-0.0` into `0.0`.)
    let clamp = |t: f64| {
        if t.is_nan() {
            0.0
        } else {
            t.clamp(0.0, max_t) + 0.0
        }
    };
    let enter = clamp(enter);
    let exit = clamp(exit).max(if decision.enter { enter } else { 0.0 });
    let forward = unit.dir.normalize();
    let unit_or = |n: Vector, fallback: Vector| n.try_normalize(0.0).unwrap_or(fallback);
    if decision.enter {
        out.push(ShapeCrossing {
            t: enter,
            normal: unit_or(enter_normal, -forward),
            entering: true,
        });
    }
    if decision.exit {
        out.push(ShapeCrossing {
            t: exit,
            normal: unit_or(span.exit_normal, forward),
            entering: false,
        });
    }
    out
}

// ---- Helpers for the pair files ----

/// `o + t·d`.
pub(super) fn at<T: Field>(o: &V3<T>, d: &V3<T>, t: &T) -> V3<T> {
    std::array::from_fn(|i| o[i].add(&t.mul(&d[i])))
}

/// The least value of `c + 2·b·t + a·t²` (`a >= 0`) over `t ∈ [0, end]` (`end = None`:
/// `t >= 0`), or an enclosure of it for intervals; `None` when an interval cannot tell where
/// it lies.
pub(super) fn quadratic_min<T: Field>(c: &T, b: &T, a: &T, end: Option<&T>) -> Option<T> {
    match end {
        Some(e) => {
            let q = c.add(&b.add(b).mul(e)).add(&a.mul(&e.square()));
            T::quadratic_min(c, &b.mul(e), &a.mul(&e.square()), &q)
        }
        None => match b.sign()? {
            Ordering::Greater | Ordering::Equal => Some(c.clone()),
            Ordering::Less => match a.sign()? {
                Ordering::Greater => Some(c.sub(&b.square().div(a))),
                // a = 0 and b < 0: unbounded below; any negative value says so.
                _ => Some(T::from_f64(-1.0)),
            },
        },
    }
}

/// Whether `x <= 0`, when known.
pub(super) fn nonpositive<T: Field>(x: &T) -> Option<bool> {
    x.sign().map(|s| s != Ordering::Greater)
}

/// `true` if any is `Some(true)`, `false` if all are `Some(false)`, else unknown.
pub(super) fn any_of(values: impl IntoIterator<Item = Option<bool>>) -> Option<bool> {
    let mut known = Some(false);
    for v in values {
        match v {
            Some(true) => return Some(true),
            Some(false) => {}
            None => known = None,
        }
    }
    known
}

/// `max(x, y)` (an enclosure for intervals).
pub(super) fn max<T: Field>(x: &T, y: &T) -> T {
    let neg = |v: &T| T::zero().sub(v);
    neg(&neg(x).min(&neg(y)))
}

/// The side from the sign of an "inside function" that is negative in the interior.
pub(super) fn side_of<T: Field>(value: &T) -> Option<Ordering> {
    value.sign()
}

/// The roots of `c + 2·b·s + a·s² = 0` (`a > 0`) by the stable formula (Ericson (2005)
/// §5.3.2; Press et al., *Numerical Recipes* §5.6), ordered, with the discriminant `b² − a·c`
/// (when it is negative the roots returned are the double root at its clamp to zero, the
/// line's closest approach).
pub(super) fn float_roots(a: f64, b: f64, c: f64) -> (f64, f64, f64) {
    let disc = b * b - a * c;
    let s = disc.max(0.0).sqrt();
    let q = if b > 0.0 { -(b + s) } else { -b + s };
    if q == 0.0 {
        return (0.0, 0.0, disc);
    }
    let (r0, r1) = (q / a, c / q);
    (r0.min(r1), r0.max(r1), disc)
}
