//! The axis-aligned box around a placed shape: what a mesh's tree and a scene's broad phase
//! compare it with.

use super::PlacedShape;
use crate::{Aabb, Point, Vector};

impl PlacedShape {
    /// A closed axis-aligned box that contains the placed solid, or `None` for a halfspace
    /// (unbounded). A polytope's box is exact (its vertices' extremes). A sphere's, capsule's
    /// or cylinder's box (a cylinder lies in the capsule of its axis and radius) widens the exact extremes of its centre or segment by the radius, each sum rounded
    /// outward (one step of [`f64::next_up`] / [`f64::next_down`] past the rounded sum, which
    /// is within half a step of the exact one), so the box never cuts into the solid.
    pub fn aabb(&self) -> Option<Aabb> {
        match self {
            PlacedShape::Sphere { center, radius } => Some(widened(&[*center], *radius)),
            PlacedShape::Capsule { a, b, radius } => Some(widened(&[*a, *b], *radius)),
            // The capsule of the same axis and radius holds the cylinder.
            PlacedShape::Cylinder { a, b, radius } => Some(widened(&[*a, *b], *radius)),
            PlacedShape::Polytope(p) => Some(*p.bounds()),
            PlacedShape::Halfspace { .. } => None,
        }
    }
}

/// The box of `points` widened by `radius` on every side, rounded outward.
fn widened(points: &[Point], radius: f64) -> Aabb {
    let exact = Aabb::from_points(points);
    let r = Vector::repeat(radius);
    let mins = (exact.mins - r).map(f64::next_down);
    let maxs = (exact.maxs + r).map(f64::next_up);
    Aabb::new(mins, maxs)
}
