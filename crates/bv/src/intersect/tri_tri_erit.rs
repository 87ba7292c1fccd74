//! Triangle–triangle intersection by Held's ERIT method (floating point).
//!
//! M. Held, "ERIT – a collection of efficient and reliable intersection tests", JGT 2(4), 1997:
//! reject when P lies strictly on one side of Q's plane; coplanar triangles go to the
//! interval-overlap method's 2D test (Möller 1997; a triangle within
//! [`super::tri_tri_moller::COPLANAR_TOL`] of the plane counts as coplanar); otherwise compute
//! the segment `P ∩ plane(Q)` and test it against Q inside Q's plane: it meets Q iff an end
//! lies in Q or it crosses an edge of Q. Only Q's plane is ever computed.
//!
//! Same tolerance policy as [`super::tri_tri_moller`] ([`super::tri_tri_moller::PLANE_TOL`]);
//! zero-area triangles and slivers are answered by [`super::tri_tri_exact::intersects`].

use super::tri_tri_exact;
use super::tri_tri_moller::{
    coplanar, drop_axis, edge_crossing, is_sliver, lone_vertex, one_side, plane_distances,
    segments_meet_2d, triangle_holds_2d,
};
use crate::Triangle;

/// Whether the closed triangles `p` and `q` intersect, by ERIT.
pub fn intersects(p: &Triangle, q: &Triangle) -> bool {
    let (pv, qv) = (p.vertices(), q.vertices());
    let nq = q.scaled_normal();
    if is_sliver(q, &nq) || is_sliver(p, &p.scaled_normal()) {
        return tri_tri_exact::intersects(p, q);
    }
    let (d, coplanar_pq) = plane_distances(&qv[0], &nq, &pv);
    if one_side(&d) {
        return false;
    }
    if coplanar_pq {
        return coplanar(&pv, &qv, &nq);
    }
    let i = lone_vertex(&d);
    let pc = pv.map(|v| v.coords);
    let (a, b) = (
        edge_crossing(&pc, &d, i, (i + 1) % 3),
        edge_crossing(&pc, &d, i, (i + 2) % 3),
    );
    let k = nq.abs().imax();
    let (a, b) = (drop_axis(&a.into(), k), drop_axis(&b.into(), k));
    let q2 = qv.map(|v| drop_axis(&v, k));
    triangle_holds_2d(&q2, &a) || (0..3).any(|j| segments_meet_2d(&a, &b, &q2[j], &q2[(j + 1) % 3]))
}
