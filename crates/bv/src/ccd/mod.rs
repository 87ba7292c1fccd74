//! Exact continuous collision of the two primitive pairs of triangle meshes, vertex–face and
//! edge–edge, each point moving linearly from its position at `t = 0` to its position at
//! `t = 1`, `t ∈ [0, 1]`: [`vertex_face`] and [`edge_edge`], one pair per file.
//!
//! # What is guaranteed
//!
//! * **The yes/no is exact** for the `f64` inputs, with closed sets (touching counts): a
//!   vertex–face pair is in contact at `t` when the moving point lies in the closed moving
//!   triangle, an edge–edge pair when the two closed moving segments share a point. Degenerate
//!   inputs are decided as the sets they are: a zero-area triangle is its segment or point, a
//!   zero-length edge its point; coplanar motion, parallel edges, a static query and contact
//!   at `t = 0` or exactly at `t = 1` need no special handling by the caller. No tolerance is
//!   involved anywhere. Non-finite coordinates report no contact.
//! * **The time of impact** `t*`, the earliest contact time, is returned as a
//!   [`TimeOfImpact`] `[lo, hi]` with `lo ≤ t* ≤ hi`, `hi − lo ≤ 10⁻¹²`; there is no contact on
//!   `[0, lo)`; `[0, 0]` when the pair is in contact at `t = 0`.
//! * **A minimum separation** `d > 0` ([`vertex_face_within`], [`edge_edge_within`]) makes
//!   contact mean a Euclidean distance of at most `d` between the closed primitives, `d` being
//!   the `f64` given ([`Separation`]). The yes/no is exact in the same sense, and the time of
//!   impact has the same guarantee, for the earliest time at which the distance is at most
//!   `d` (see `within.rs` for the method).
//!
//! # How (the exact path)
//!
//! The `f64` coordinates are dyadic rationals: scaled by one power of two they are integers,
//! and every position is a polynomial of degree 1 in `t` with integer coefficients. A contact
//! needs the four points coplanar, i.e. a root of the coplanarity cubic
//! `f(t) = (x₁ − x₀)·((x₂ − x₀) × (x₃ − x₀))`, formed exactly (as in Brochu, Edwards &
//! Bridson, "Efficient geometrically exact continuous collision detection", SIGGRAPH 2012,
//! who decide the same closed sets by root parity; here the roots are isolated instead).
//! When `f` is not identically zero the candidate times are its roots in `[0, 1]`, isolated
//! exactly (see `roots.rs`); at each, in increasing order, the inside test is decided exactly
//! as signs of polynomials at the root. When `f ≡ 0` the motion is coplanar and the earliest
//! contact is at `t = 0` or a time at which a vertex reaches an edge (a first contact of two
//! coplanar closed sets starts on a boundary): the candidate times are then the roots of the
//! collinearity polynomials of the point–segment sub-problems (or, where those vanish
//! identically, of the point–point coincidences). The first candidate at which the pair is in
//! contact is `t*`.
//!
//! # The float filter
//!
//! In front of the exact path, a floating-point filter (`filter.rs`) settles most queries with
//! certified bounds: the swept bounding boxes (each coordinate's range over `[0, 1]` is that of
//! its two end values, since motion is linear), compared exactly; the sign of the coplanarity
//! cubic on `[0, 1]` from its Bernstein coefficients with a rigorous bound on their rounding
//! errors; the signs over `[0, 1]` of the inside test's polynomials (a vertex always beyond an
//! edge's side, a crossing point always beyond an edge's end); and, when the cubic provably
//! has a single simple root, a float bracket of it proven by the cubic's certified signs at its
//! ends, with the inside test's polynomials certainly positive (a hit with that bracket as the
//! time of impact) or one certainly negative (a miss) over it. The filter answers only what
//! it proves and hands everything else to the exact path, so it never changes an answer.
//! Wang, Ferguson, Schneider, Jiang, Attene & Panozzo ("A Large Scale Benchmark and an
//! Inclusion-Based Algorithm for Continuous Collision Detection", ACM TOG 40(5), 2021) give the
//! benchmark the tests check against.

mod edge_edge;
mod filter;
mod roots;
mod vertex_face;
mod within;
mod within_filter;

pub use edge_edge::{edge_edge, edge_edge_within};
pub use vertex_face::{vertex_face, vertex_face_within};
pub use within::Separation;

use crate::predicates::exact;
use crate::Point;
use roots::{Poly, Time};

/// An interval `[lo, hi]` of `[0, 1]` that contains the earliest contact time `t*`:
/// `lo ≤ t* ≤ hi`, `hi − lo ≤ 10⁻¹²`, and no contact on `[0, lo)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeOfImpact {
    /// At most `t*`: the pair is not in contact before it.
    pub lo: f64,
    /// At least `t*`, at most `lo + 10⁻¹²`.
    pub hi: f64,
}

/// `hi − lo ≤ 2⁻⁴⁰ < 10⁻¹²` (the enclosure's dyadic ends are `f64`s, so rounding adds nothing).
const TOI_PRECISION: u32 = 40;

impl TimeOfImpact {
    fn of(t: &Time) -> Self {
        let [lo, hi] = t.enclosure(TOI_PRECISION);
        Self {
            lo: lo.round_down(),
            hi: hi.round_up(),
        }
    }
}

/// The answer: the filter's when it has one, else the exact path's.
#[inline]
fn decide(
    verdict: filter::Verdict,
    exact: impl FnOnce() -> Option<TimeOfImpact>,
) -> Option<TimeOfImpact> {
    match verdict {
        filter::Verdict::Miss => None,
        filter::Verdict::Hit(toi) => Some(toi),
        filter::Verdict::Undecided => exact(),
    }
}

/// A point's coordinates as exact polynomials in `t`.
type Trajectory = [Poly; 3];

/// The four trajectories of a query, `start[i]` at `t = 0` to `end[i]` at `t = 1`, all scaled
/// by one power of two to integers (which changes no contact); `None` if a coordinate is not
/// finite.
fn trajectories(start: &[Point; 4], end: &[Point; 4]) -> Option<[Trajectory; 4]> {
    let all: [crate::Vector; 8] = std::array::from_fn(|i| [start, end][i / 4][i % 4].coords);
    let (ints, _) = exact::integers(all)?;
    let (starts, ends) = ints.split_at(4);
    Some(std::array::from_fn(|i| {
        std::array::from_fn(|k| Poly::linear(&starts[i][k], &ends[i][k]))
    }))
}

fn sub(a: &Trajectory, b: &Trajectory) -> Trajectory {
    std::array::from_fn(|i| &a[i] - &b[i])
}

fn dot(a: &Trajectory, b: &Trajectory) -> Poly {
    let terms = (0..3).map(|i| &a[i] * &b[i]);
    terms.fold(Poly::constant(0.into()), |acc, x| &acc + &x)
}

fn cross(a: &Trajectory, b: &Trajectory) -> Trajectory {
    std::array::from_fn(|i| {
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        &(&a[j] * &b[k]) - &(&a[k] * &b[j])
    })
}

/// `(x₁ − x₀)·((x₂ − x₀) × (x₃ − x₀))`: zero exactly when the four points are coplanar.
fn coplanarity([x0, x1, x2, x3]: &[Trajectory; 4]) -> Poly {
    dot(&sub(x1, x0), &cross(&sub(x2, x0), &sub(x3, x0)))
}

/// Whether the vector vanishes at `t`.
fn vanishes(v: &Trajectory, t: &Time) -> bool {
    v.iter().all(|c| t.sign_of(c) == 0)
}

/// Whether `p` lies on the closed segment `[a, b]` at `t` (a point when `a = b`): `p − a`
/// parallel to `b − a` and `0 ≤ (p − a)·(b − a) ≤ |b − a|²`, and `p = a` if `a = b`.
fn point_on_segment(p: &Trajectory, [a, b]: [&Trajectory; 2], t: &Time) -> bool {
    let (ab, ap) = (sub(b, a), sub(p, a));
    if !vanishes(&cross(&ab, &ap), t) {
        return false;
    }
    let (along, length) = (dot(&ap, &ab), dot(&ab, &ab));
    let within = t.sign_of(&along) >= 0 && t.sign_of(&(&length - &along)) >= 0;
    within && (t.sign_of(&length) != 0 || vanishes(&ap, t))
}

/// A nonzero polynomial whose roots include every time in `(0, 1]` at which `p` starts to lie
/// on the segment `[a, b]` (not on it just before): a nonvanishing component of
/// `(b − a) × (p − a)`, or, when the three are always collinear, the product of a nonvanishing
/// component of `p − a` and of `p − b` (on a common line, `p` enters the segment through an
/// end). The constant 1 when `p` is on the segment at all times or at none after 0.
fn point_segment_events(p: &Trajectory, [a, b]: [&Trajectory; 2]) -> Poly {
    let nonzero = |v: Trajectory| v.into_iter().find(|c| !c.is_zero());
    if let Some(c) = nonzero(cross(&sub(b, a), &sub(p, a))) {
        return c;
    }
    let ends = [a, b].map(|e| nonzero(sub(p, e)).unwrap_or_else(Poly::one));
    &ends[0] * &ends[1]
}

/// The product of the nonzero polynomials `events`.
fn product(events: impl IntoIterator<Item = Poly>) -> Poly {
    events.into_iter().fold(Poly::one(), |acc, e| &acc * &e)
}

/// The earliest time in `[0, 1]` at which `contact` holds, given a nonzero polynomial whose
/// roots include every time in `(0, 1]` at which contact starts: `t = 0`, else the first root
/// in contact.
fn earliest(events: &Poly, contact: impl Fn(&Time) -> bool) -> Option<Time> {
    let zero = Time::zero();
    if contact(&zero) {
        return Some(zero);
    }
    roots::roots_in_unit_interval(events)
        .into_iter()
        .find(|t| contact(t))
}

/// The exact answer for the trajectories of a query whose coplanarity polynomial is `f`:
/// when `f ≢ 0` the candidates are its roots, else those of the coplanar sub-problems
/// `coplanar_events` (module docs); `contact` is the inside test for coplanar points.
fn first_contact(
    f: &Poly,
    coplanar_events: impl FnOnce() -> Poly,
    contact: impl Fn(&Time) -> bool,
) -> Option<TimeOfImpact> {
    let events = if f.is_zero() {
        coplanar_events()
    } else {
        f.clone()
    };
    let t = earliest(&events, |t| t.sign_of(f) == 0 && contact(t))?;
    Some(TimeOfImpact::of(&t))
}
