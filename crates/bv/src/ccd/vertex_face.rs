//! Continuous vertex–face collision: the earliest time at which a moving point lies in a moving
//! closed triangle (module docs of [`ccd`](super) for the guarantee and the method).

use super::filter;
use super::roots::Time;
use super::{
    coplanarity, cross, dot, first_contact, point_on_segment, point_segment_events, product, sub,
    vanishes, TimeOfImpact, Trajectory,
};
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
