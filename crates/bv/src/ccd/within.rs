//! Continuous collision with a minimum separation `d > 0`: the earliest time at which the
//! distance between the two moving closed primitives is at most `d`, exactly.
//!
//! # Why the candidate times are roots of a few polynomials
//!
//! The distance of a point `p` to a closed convex set is `d` at a point `c` of the set; if `c`
//! lies in the relative interior of a feature `F` (a vertex, an edge, a face, or the interior
//! of a segment against another), `p − c` is orthogonal to `F`'s affine hull, so the distance
//! to that hull is `d` too. Scaled to integers, "the distance from `p` to the hull of `F` is
//! `d`" is a polynomial in `t`:
//!
//! * to a point `q`: `d² − |p − q|²`;
//! * to the line of an edge `ab`: `d²|b − a|² − |(b − a) × (p − a)|²`;
//! * to the plane of a face with normal `n`: `d²|n|² − (n·(p − a))²`;
//! * between the lines of two edges with `m = A × B`: `d²|m|² − (m·(b₀ − a₀))²`.
//!
//! When a contact starts at `t₀ > 0` (distance `d` at `t₀`, more just before), the polynomial
//! of the closest feature pair vanishes at `t₀`, and is not identically zero: if it were, the
//! distance to that hull would stay `d`, and the foot of the perpendicular, continuous and
//! inside the feature at `t₀`, would stay inside it just before `t₀`, so the distance would be
//! `d` before `t₀` as well. The earliest contact time is therefore `t = 0` or a root of one of
//! the nonzero polynomials; each is isolated exactly (`roots.rs`) and the inside test is
//! decided there exactly. The distance is at most `d` exactly when one of the closed regions
//! holds: near a point (a ball), near an edge's interior (the perpendicular foot within the
//! segment, the line distance at most `d`), near a face (the foot inside the triangle, the
//! plane distance at most `d`) or near a crossing of two edges' lines (both line parameters
//! within the segments, the line distance at most `d`). This extends the root-finding of
//! Brochu, Edwards & Bridson (SIGGRAPH 2012) from coplanarity to the distance `d`; Wang et
//! al. (ACM TOG 2021) define the same query ("minimum separation") and answer it
//! conservatively.
//!
//! # The float filter
//!
//! A float separating direction proves misses, the usual answer (`within_filter.rs`).

use super::roots::{self, Poly, Time};
use super::{dot, sub, TimeOfImpact, Trajectory};
use crate::predicates::exact;
use crate::Point;

/// A minimum separation `d`: a finite `f64` at least 0. Contact means a distance of at most
/// `d`, the `f64` value itself (no rounding is involved).
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Separation(f64);

impl Separation {
    /// No separation: contact means touching.
    pub const ZERO: Self = Self(0.0);

    /// `d`, if it is finite and at least 0 (`-0.0` is 0); `None` otherwise.
    pub fn new(d: f64) -> Option<Self> {
        (d.is_finite() && d >= 0.0).then_some(Self(d.abs()))
    }

    /// The distance.
    pub fn get(self) -> f64 {
        self.0
    }
}

/// A pair's three ways of answering: the touching query, the float filter's proof that the
/// primitives stay more than `d` apart, and the exact path of a separation `d > 0`.
pub(super) type Paths = (
    fn([Point; 4], [Point; 4]) -> Option<TimeOfImpact>,
    fn(&[Point; 4], &[Point; 4], f64) -> bool,
    fn(&[Point; 4], &[Point; 4], Separation) -> Option<TimeOfImpact>,
);

/// The answer within `d`: the touching query's when `d = 0`, a miss when the float filter
/// proves one, else the exact path's.
pub(super) fn decide(
    start: [Point; 4],
    end: [Point; 4],
    d: Separation,
    (touching, apart, exact): Paths,
) -> Option<TimeOfImpact> {
    if d == Separation::ZERO {
        touching(start, end)
    } else if apart(&start, &end, d.get()) {
        None
    } else {
        exact(&start, &end, d)
    }
}

/// The trajectories of a query, as in [`super::trajectories`], and `d²` on the same integer
/// scale; `None` if a coordinate is not finite.
pub(super) fn scaled(
    start: &[Point; 4],
    end: &[Point; 4],
    d: Separation,
) -> Option<([Trajectory; 4], Poly)> {
    let separation = crate::Vector::new(d.get(), 0.0, 0.0);
    let all: [crate::Vector; 9] = std::array::from_fn(|i| match i {
        8 => separation,
        _ => [start, end][i / 4][i % 4].coords,
    });
    let (ints, _) = exact::integers(all)?;
    let x = std::array::from_fn(|i| {
        std::array::from_fn(|k| Poly::linear(&ints[i][k], &ints[i + 4][k]))
    });
    let d = Poly::constant(ints[8][0].clone());
    Some((x, &d * &d))
}

/// `d² − |p − q|²`: at least 0 exactly when `p` is within `d` of `q`.
pub(super) fn point_gap(p: &Trajectory, q: &Trajectory, d2: &Poly) -> Poly {
    let pq = sub(p, q);
    d2 - &dot(&pq, &pq)
}

/// `d²|b − a|² − |(b − a) × (p − a)|²`: at least 0 exactly when `p` is within `d` of the
/// line `ab` (when `a ≠ b`).
pub(super) fn line_gap(p: &Trajectory, [a, b]: [&Trajectory; 2], d2: &Poly) -> Poly {
    let (ab, ap) = (sub(b, a), sub(p, a));
    let c = super::cross(&ab, &ap);
    &(d2 * &dot(&ab, &ab)) - &dot(&c, &c)
}

/// `d²|n|² − (n·w)²`: at least 0 exactly when `w` is within `d` of the plane through the
/// origin with normal `n ≠ 0`.
pub(super) fn plane_gap(n: &Trajectory, w: &Trajectory, d2: &Poly) -> Poly {
    let along = dot(n, w);
    &(d2 * &dot(n, n)) - &(&along * &along)
}

/// Whether `p` is within `d` of the closed segment `[a, b]` at `t`, through its interior:
/// `a ≠ b`, the foot of the perpendicular within the segment and the line within `d`.
pub(super) fn near_segment_interior(
    p: &Trajectory,
    [a, b]: [&Trajectory; 2],
    d2: &Poly,
    t: &Time,
) -> bool {
    let (ab, ap) = (sub(b, a), sub(p, a));
    let (along, length) = (dot(&ap, &ab), dot(&ab, &ab));
    t.sign_of(&length) > 0
        && t.sign_of(&along) >= 0
        && t.sign_of(&(&length - &along)) >= 0
        && t.sign_of(&line_gap(p, [a, b], d2)) >= 0
}

/// Whether `p` is within `d` of the closed segment `[a, b]` at `t` (a point when `a = b`).
pub(super) fn near_segment(p: &Trajectory, [a, b]: [&Trajectory; 2], d2: &Poly, t: &Time) -> bool {
    [a, b].iter().any(|q| t.sign_of(&point_gap(p, q, d2)) >= 0)
        || near_segment_interior(p, [a, b], d2, t)
}

/// The earliest time in `[0, 1]` at which `contact` holds, given nonzero-or-zero polynomials
/// whose nonzero members' roots include every time in `(0, 1]` at which contact starts (module
/// docs): `[0, 0]` if in contact at `t = 0`, else the least enclosure over the polynomials of
/// their first root in contact. Each enclosure is at most `2⁻⁴⁰` wide, so the least lower and
/// the least upper ends enclose the earliest of those roots within `2⁻⁴⁰` as well.
pub(super) fn earliest(events: &[Poly], contact: impl Fn(&Time) -> bool) -> Option<TimeOfImpact> {
    if contact(&Time::zero()) {
        return Some(TimeOfImpact { lo: 0.0, hi: 0.0 });
    }
    let mut best: Option<TimeOfImpact> = None;
    for events in events.iter().filter(|p| !p.is_zero()) {
        for root in roots::roots_in_unit_interval(events) {
            let toi = TimeOfImpact::of(&root);
            if best.is_some_and(|b| toi.lo > b.hi) {
                break;
            }
            if contact(&root) {
                best = Some(best.map_or(toi, |b| TimeOfImpact {
                    lo: b.lo.min(toi.lo),
                    hi: b.hi.min(toi.hi),
                }));
                break;
            }
        }
    }
    best
}
