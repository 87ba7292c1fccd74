//! Frustum–AABB classification.

use super::{containment::RegionRelation, frustum::Frustum, plane_aabb};
use crate::Aabb;

/// The two-vertex (n/p-vertex) test against each plane (*Real-Time Rendering*, 3rd ed. (2008),
/// §16.14; Assarsson & Möller 2000): the vertex nearest the inside outside a plane → outside;
/// every farthest vertex inside → inside; otherwise intersecting. Conservative near frustum
/// edges, as the book notes.
pub fn classify(frustum: &Frustum, aabb: &Aabb) -> RegionRelation {
    RegionRelation::from_plane_ranges(frustum.planes().iter().map(|plane| {
        let (v_min, v_max) = plane_aabb::diagonal(plane, aabb);
        (plane.eval(&v_min), plane.eval(&v_max))
    }))
}
