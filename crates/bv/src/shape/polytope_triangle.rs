//! Solid convex polytope against triangle.

use super::separating_axes::{polytope_triangle_axes, some_axis_separates};
use super::Polytope;
use crate::intersect::tri_tri_exact;
use crate::{Aabb, Triangle};

/// Whether the solid polytope `p` meets the closed triangle `t`, exactly. The triangle is
/// connected, so it meets the solid iff it meets the boundary or lies wholly inside; in the
/// second case its vertices are inside. So: a vertex of `t` in `p` ([`Polytope::contains`],
/// exact `orient3d` signs), or `t` meeting a boundary triangle
/// ([`tri_tri_exact::intersects`], exact; Guigue & Devillers 2003). Disjoint bounding boxes
/// (exact comparisons of the coordinates), then a float separating-axis filter
/// (the triangle's normal, a box's edges and their cross products),
/// settle most pairs first.
pub fn polytope_triangle(p: &Polytope, t: &Triangle) -> bool {
    if !boxes_meet(p.bounds(), &Aabb::from_points(&t.vertices())) {
        return false;
    }
    let axes = polytope_triangle_axes(p.edge_directions(), t.vertices());
    if some_axis_separates(axes, p.vertices(), &t.vertices()) {
        return false;
    }
    t.vertices().iter().any(|v| p.contains(v))
        || p.boundary().any(|face| tri_tri_exact::intersects(&face, t))
}

/// Whether two closed boxes of exact coordinates share a point.
pub(super) fn boxes_meet(a: &Aabb, b: &Aabb) -> bool {
    (0..3).all(|i| a.mins[i] <= b.maxs[i] && b.mins[i] <= a.maxs[i])
}
