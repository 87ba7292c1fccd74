//! Continuous vertex–face collision: the earliest time at which a moving point lies in a moving
//! closed triangle (module docs of [`ccd`](super) for the guarantee and the method).

use super::roots::{Poly, Time};
use super::within::{self, line_gap, near_segment, plane_gap, point_gap, Separation};
use super::{
    coplanarity, cross, dot, first_contact, point_on_segment, point_segment_events, product, sub,
    vanishes, TimeOfImpact, Trajectory,
};
use super::{filter, within_filter};
use crate::Point;

/// The earliest time `t ∈ [0, 1]` at which the point `v` lies in the closed triangle
/// `f0 f1 f2`, all four moving linearly: `start = [v, f0, f1, f2]` at `t = 0`, `end` the same
/// points at `t = 1`. `None` when they never meet (exactly; see [`ccd`](super)).
///
/// ```
/// use obbtree_bv::ccd::vertex_face;
/// use obbtree_bv::Point;
///
/// let p = |x, y, z| Point::new(x, y, z);
/// let face = [p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0)];
/// // A vertex falling from z = 1 to z = -1 through the face: contact at t = 1/2.
/// let start = [p(0.25, 0.25, 1.0), face[0], face[1], face[2]];
/// let end = [p(0.25, 0.25, -1.0), face[0], face[1], face[2]];
/// let toi = vertex_face(start, end).unwrap();
/// assert!(toi.lo <= 0.5 && 0.5 <= toi.hi);
/// // Falling beside the face: no contact.
/// let beside = |z| p(2.0, 2.0, z);
/// assert!(vertex_face([beside(1.0), face[0], face[1], face[2]],
///                     [beside(-1.0), face[0], face[1], face[2]]).is_none());
/// ```
pub fn vertex_face(start: [Point; 4], end: [Point; 4]) -> Option<TimeOfImpact> {
    super::decide(filter::vertex_face(&start, &end), || exact(&start, &end))
}

/// The earliest time `t ∈ [0, 1]` at which the point `v` is within the distance `d` of the
/// closed triangle `f0 f1 f2`, all four moving linearly as in [`vertex_face`] (which this is
/// when `d = 0`). `None` when the distance stays above `d` (exactly; see [`ccd`](super)).
///
/// ```
/// use obbtree_bv::ccd::{vertex_face_within, Separation};
/// use obbtree_bv::Point;
///
/// let p = |x, y, z| Point::new(x, y, z);
/// let face = [p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0)];
/// // Falling from z = 1 to z = -1: within 1/4 of the face from t = 3/8.
/// let start = [p(0.25, 0.25, 1.0), face[0], face[1], face[2]];
/// let end = [p(0.25, 0.25, -1.0), face[0], face[1], face[2]];
/// let quarter = Separation::new(0.25).unwrap();
/// let toi = vertex_face_within(start, end, quarter).unwrap();
/// assert!(toi.lo <= 0.375 && 0.375 <= toi.hi);
/// ```
pub fn vertex_face_within(
    start: [Point; 4],
    end: [Point; 4],
    d: Separation,
) -> Option<TimeOfImpact> {
    let apart = within_filter::vertex_face_apart;
    within::decide(start, end, d, (vertex_face, apart, exact_within))
}

/// The exact path of a separation `d > 0` (`within.rs`): the candidate times are the roots of
/// the distance-`d` polynomials to the corners, the edges' lines and the face's plane.
pub(super) fn exact_within(
    start: &[Point; 4],
    end: &[Point; 4],
    d: Separation,
) -> Option<TimeOfImpact> {
    let ([v, f0, f1, f2], d2) = within::scaled(start, end, d)?;
    let edges = [[&f0, &f1], [&f1, &f2], [&f2, &f0]];
    let n = cross(&sub(&f1, &f0), &sub(&f2, &f0));
    let w = sub(&v, &f0);
    let mut events: Vec<Poly> = [&f0, &f1, &f2].map(|c| point_gap(&v, c, &d2)).into();
    events.extend(edges.map(|e| line_gap(&v, e, &d2)));
    events.push(plane_gap(&n, &w, &d2));
    within::earliest(&events, |t| {
        edges.iter().any(|&e| near_segment(&v, e, &d2, t)) || near_face(&v, edges, &d2, t)
    })
}

/// Whether `v` is within `d` of the triangle's plane at `t` with its foot inside the triangle,
/// which is proper (`n ≠ 0`): the barycentric numerators of [`in_triangle`] all `≥ 0`.
fn near_face(v: &Trajectory, edges: [[&Trajectory; 2]; 3], d2: &Poly, t: &Time) -> bool {
    let [[f0, f1], [_, f2], _] = edges;
    let n = cross(&sub(f1, f0), &sub(f2, f0));
    t.sign_of(&dot(&n, &n)) > 0
        && edges.iter().all(|[a, b]| {
            let side = dot(&n, &cross(&sub(b, a), &sub(v, a)));
            t.sign_of(&side) >= 0
        })
        && t.sign_of(&plane_gap(&n, &sub(v, f0), d2)) >= 0
}

/// The exact path: no filter.
pub(super) fn exact(start: &[Point; 4], end: &[Point; 4]) -> Option<TimeOfImpact> {
    let [v, f0, f1, f2] = super::trajectories(start, end)?;
    let f = coplanarity(&[v.clone(), f0.clone(), f1.clone(), f2.clone()]);
    let edges = [[&f0, &f1], [&f1, &f2], [&f2, &f0]];
    let events = || product(edges.map(|e| point_segment_events(&v, e)));
    first_contact(&f, events, |t| in_triangle(&v, edges, t))
}

/// Whether `v` lies in the closed triangle at `t`, the four points being coplanar then. With
/// `n = (f1 − f0) × (f2 − f0) ≠ 0`, `n·((b − a) × (v − a))` over the edges `ab` are `|n|²`
/// times `v`'s barycentric coordinates, all `≥ 0` exactly inside; with `n = 0` the triangle is
/// a segment or a point, the union of its edges.
fn in_triangle(v: &Trajectory, edges: [[&Trajectory; 2]; 3], t: &Time) -> bool {
    let [[f0, f1], [_, f2], _] = edges;
    let n = cross(&sub(f1, f0), &sub(f2, f0));
    if vanishes(&n, t) {
        return edges.iter().any(|&e| point_on_segment(v, e, t));
    }
    edges.iter().all(|[a, b]| {
        let side = dot(&n, &cross(&sub(b, a), &sub(v, a)));
        t.sign_of(&side) >= 0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64, z: f64) -> Point {
        Point::new(x, y, z)
    }

    #[test]
    fn exact_path_agrees_with_the_filter_on_a_crossing() {
        let face = [p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0)];
        let start = [p(0.25, 0.25, 1.0), face[0], face[1], face[2]];
        let end = [p(0.25, 0.25, -3.0), face[0], face[1], face[2]];
        let toi = exact(&start, &end).unwrap();
        assert!(toi.lo <= 0.25 && 0.25 <= toi.hi && toi.hi - toi.lo <= 1e-12);
    }
}
