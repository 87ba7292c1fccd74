//! Cylinder against solid convex polytope.

use super::cylinder_triangle::cylinder_triangle;
use super::Polytope;
use crate::Point;

/// Whether the solid cylinder of radius `r` about `[a, b]` meets the solid polytope `p`,
/// exactly. Both are connected closed solids: if they share a point, either the cylinder
/// meets `p`'s boundary, which is the union of its boundary triangles ([`cylinder_triangle`],
/// exact; this covers `p` wholly inside the cylinder), or the cylinder lies wholly inside `p`,
/// and then so does the axis end `a` ([`Polytope::contains`], exact; point in polyhedron,
/// Ericson (2005) §5.4.3). The same argument as `capsule_polytope`'s.
pub fn cylinder_polytope([a, b]: [&Point; 2], r: f64, p: &Polytope) -> bool {
    p.contains(a) || p.boundary().any(|face| cylinder_triangle([a, b], r, &face))
}
