//! Continuous edge–edge collision: the earliest time at which two moving closed segments share
//! a point (module docs of [`ccd`](super) for the guarantee and the method).

use super::roots::{Poly, Time};
use super::within::{self, line_gap, near_segment, plane_gap, point_gap, Separation};
use super::{
    coplanarity, cross, dot, first_contact, point_on_segment, point_segment_events, product, sub,
    vanishes, TimeOfImpact, Trajectory,
};
use super::{filter, within_filter};
use crate::Point;

/// The earliest time `t ∈ [0, 1]` at which the closed segments `a0 a1` and `b0 b1` share a
/// point, all four ends moving linearly: `start = [a0, a1, b0, b1]` at `t = 0`, `end` the same
/// points at `t = 1`. `None` when they never meet (exactly; see [`ccd`](super)).
///
/// ```
/// use obbtree_bv::ccd::edge_edge;
/// use obbtree_bv::Point;
///
/// let p = |x, y, z| Point::new(x, y, z);
/// // Edge a along x at z = 1 moving down to z = -1 across the static edge b along y.
/// let (a0, a1) = (|z| p(-1.0, 0.0, z), |z| p(1.0, 0.0, z));
/// let (b0, b1) = (p(0.0, -1.0, 0.0), p(0.0, 1.0, 0.0));
/// let toi = edge_edge([a0(1.0), a1(1.0), b0, b1], [a0(-1.0), a1(-1.0), b0, b1]).unwrap();
/// assert!(toi.lo <= 0.5 && 0.5 <= toi.hi);
/// ```
pub fn edge_edge(start: [Point; 4], end: [Point; 4]) -> Option<TimeOfImpact> {
    super::decide(filter::edge_edge(&start, &end), || exact(&start, &end))
}

/// The earliest time `t ∈ [0, 1]` at which the closed segments `a0 a1` and `b0 b1` are within
/// the distance `d` of each other, all four ends moving linearly as in [`edge_edge`] (which
/// this is when `d = 0`). `None` when the distance stays above `d` (exactly; see
/// [`ccd`](super)).
///
/// ```
/// use obbtree_bv::ccd::{edge_edge_within, Separation};
/// use obbtree_bv::Point;
///
/// let p = |x, y, z| Point::new(x, y, z);
/// // Edge a along x passes over the static edge b along y, at least 1/2 above it (at t = 1/2).
/// let (a0, a1) = (|x| p(x - 1.0, 0.0, 0.5), |x| p(x + 1.0, 0.0, 0.5));
/// let (b0, b1) = (p(0.0, -1.0, 0.0), p(0.0, 1.0, 0.0));
/// let (start, end) = ([a0(-2.0), a1(-2.0), b0, b1], [a0(2.0), a1(2.0), b0, b1]);
/// let half = Separation::new(0.5).unwrap();
/// let toi = edge_edge_within(start, end, half).unwrap(); // touching counts
/// assert!(toi.lo <= 0.25 && 0.25 <= toi.hi);
/// let less = Separation::new(0.4999).unwrap();
/// assert!(edge_edge_within(start, end, less).is_none());
/// ```
pub fn edge_edge_within(start: [Point; 4], end: [Point; 4], d: Separation) -> Option<TimeOfImpact> {
    let apart = within_filter::edge_edge_apart;
    within::decide(start, end, d, (edge_edge, apart, exact_within))
}

/// The exact path of a separation `d > 0` (`within.rs`): the candidate times are the roots of
/// the distance-`d` polynomials of the end pairs, of each end to the other edge's line and of
/// the two lines.
pub(super) fn exact_within(
    start: &[Point; 4],
    end: &[Point; 4],
    d: Separation,
) -> Option<TimeOfImpact> {
    let (x, d2) = within::scaled(start, end, d)?;
    let [a0, a1, b0, b1] = &x;
    let mut events: Vec<Poly> = [(a0, b0), (a0, b1), (a1, b0), (a1, b1)]
        .map(|(p, q)| point_gap(p, q, &d2))
        .into();
    events.extend(ends_on_edges(&x).map(|(p, s)| line_gap(p, s, &d2)));
    let m = cross(&sub(a1, a0), &sub(b1, b0));
    events.push(plane_gap(&m, &sub(b0, a0), &d2));
    within::earliest(&events, |t| {
        let ends = ends_on_edges(&x);
        ends.iter().any(|&(p, s)| near_segment(p, s, &d2, t)) || near_crossing(&x, &d2, t)
    })
}

/// Whether the lines of the two edges, not parallel at `t`, come within `d` of each other at
/// points inside both segments: the parameters of [`segments_meet`] (which are those of the
/// lines' closest points) in `[0, 1]` and the line distance `|m·D| / |m|` at most `d`.
fn near_crossing(x: &[Trajectory; 4], d2: &Poly, t: &Time) -> bool {
    let [a0, a1, b0, b1] = x;
    let (a, b, d) = (sub(a1, a0), sub(b1, b0), sub(b0, a0));
    let m = cross(&a, &b);
    let scale = dot(&m, &m);
    let in_unit = |x: &Poly| t.sign_of(x) >= 0 && t.sign_of(&(&scale - x)) >= 0;
    t.sign_of(&scale) > 0
        && in_unit(&dot(&cross(&d, &b), &m))
        && in_unit(&dot(&cross(&d, &a), &m))
        && t.sign_of(&plane_gap(&m, &d, d2)) >= 0
}

/// The exact path: no filter.
pub(super) fn exact(start: &[Point; 4], end: &[Point; 4]) -> Option<TimeOfImpact> {
    let x = super::trajectories(start, end)?;
    let f = coplanarity(&x);
    let events = || product(ends_on_edges(&x).map(|(p, s)| point_segment_events(p, s)));
    first_contact(&f, events, |t| segments_meet(&x, t))
}

/// Each end of one edge with the other edge: the four point–segment sub-problems.
fn ends_on_edges([a0, a1, b0, b1]: &[Trajectory; 4]) -> [(&Trajectory, [&Trajectory; 2]); 4] {
    [
        (a0, [b0, b1]),
        (a1, [b0, b1]),
        (b0, [a0, a1]),
        (b1, [a0, a1]),
    ]
}

/// Whether the closed segments meet at `t`, the four ends being coplanar then. With
/// `m = A × B ≠ 0` (`A = a1 − a0`, `B = b1 − b0`, `D = b0 − a0`) the lines cross at
/// `a0 + s A = b0 + u B` with `s = (D × B)·m / |m|²`, `u = (D × A)·m / |m|²`, both in `[0, 1]`
/// exactly when the segments meet; with `m = 0` (parallel, or a zero-length edge) they meet
/// exactly when an end of one lies on the other.
fn segments_meet(x: &[Trajectory; 4], t: &Time) -> bool {
    let [a0, a1, b0, b1] = x;
    let (a, b, d) = (sub(a1, a0), sub(b1, b0), sub(b0, a0));
    let m = cross(&a, &b);
    if vanishes(&m, t) {
        let ends = ends_on_edges(x);
        return ends.iter().any(|&(p, s)| point_on_segment(p, s, t));
    }
    let scale = dot(&m, &m);
    let in_unit = |x: &Poly| t.sign_of(x) >= 0 && t.sign_of(&(&scale - x)) >= 0;
    in_unit(&dot(&cross(&d, &b), &m)) && in_unit(&dot(&cross(&d, &a), &m))
}
