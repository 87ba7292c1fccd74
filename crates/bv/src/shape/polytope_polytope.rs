//! Solid convex polytope against solid convex polytope.

use super::polytope_triangle::boxes_meet;
use super::separating_axes::{polytope_polytope_axes, some_axis_separates};
use super::Polytope;
use crate::intersect::tri_tri_exact::{self, Prepared};

/// Whether the solid polytopes `p` and `q` share a point, exactly. If they do and neither holds
/// a vertex of the other, their boundaries meet (a common point reached from one's interior
/// crosses the other's boundary, and a polytope whose vertices all lie outside a convex solid
/// it meets has a boundary triangle meeting that solid's boundary). So: a vertex of one in the
/// other ([`Polytope::contains`]), or a pair of boundary triangles that intersect
/// ([`tri_tri_exact`]); Ericson (2005) §5.5 (polyhedron–polyhedron by features). Disjoint
/// bounding boxes, then a float separating-axis filter over the boxes' edge directions
/// (over the candidate axes of the separating-axis theorem), settle most pairs first.
pub fn polytope_polytope(p: &Polytope, q: &Polytope) -> bool {
    if !boxes_meet(p.bounds(), q.bounds()) {
        return false;
    }
    let axes = polytope_polytope_axes(p.edge_directions(), q.edge_directions());
    if some_axis_separates(axes, p.vertices(), q.vertices()) {
        return false;
    }
    if p.vertices().iter().any(|v| q.contains(v)) || q.vertices().iter().any(|v| p.contains(v)) {
        return true;
    }
    let faces_q: Vec<Prepared> = q.boundary().map(|f| Prepared::new(&f)).collect();
    p.boundary().any(|f| {
        let f = Prepared::new(&f);
        faces_q
            .iter()
            .any(|g| tri_tri_exact::intersects_prepared(&f, g))
    })
}
