//! Frustum–triangle classification.

use obbtree_bv::intersect::containment::RegionRelation;
use obbtree_bv::intersect::frustum::Frustum;
use obbtree_bv::Triangle;

/// Where a triangle lies relative to the closed frustum, from the range of each plane's
/// function over its three vertices (a triangle is the convex hull of its vertices, so the
/// range over the vertices is the range over the triangle): outside one plane → `Outside`;
/// inside all → `Inside`; otherwise `Intersecting` (the plane-by-plane test of *Real-Time Rendering*
/// §16.14, as for the volumes; conservative near frustum edges).
pub fn classify_triangle(frustum: &Frustum, triangle: &Triangle) -> RegionRelation {
    RegionRelation::from_plane_ranges(frustum.planes().iter().map(|plane| {
        let [a, b, c] = triangle.vertices().map(|v| plane.eval(&v));
        (a.min(b).min(c), a.max(b).max(c))
    }))
}
