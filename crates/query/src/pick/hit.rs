//! What a pick returns.

use obbtree_bv::intersect::ray_triangle::TriangleHit;
use obbtree_bv::{Point, Pose, Triangle, Vector};
use serde::{Deserialize, Serialize};

/// A ray's hit on a mesh triangle or on a shape's surface, in the world frame of the query (the
/// model placed at the query's pose).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RayHit {
    /// Index of the triangle in the mesh (the input file's order); 0 for a shape.
    pub triangle: u32,
    /// Ray parameter of the hit, in units of the ray's direction.
    pub t: f64,
    /// The hit point, `origin + t·dir`.
    pub point: Point,
    /// Barycentric weights `[w_a, w_b, w_c]` of the triangle's vertices (in the mesh's vertex
    /// order); they sum to 1 and are all non-negative up to rounding. `[1, 0, 0]` for a shape.
    pub barycentric: [f64; 3],
    /// Unit geometric normal `(b - a) × (c - a) / |…|` in the world frame. For a zero-area
    /// triangle (which a ray can only hit through a neighbour's test, never its own) it is zero.
    pub normal: Vector,
    /// Whether the ray meets the triangle's front side (`dir · normal < 0`, i.e. the vertices
    /// appear counter-clockwise from the ray's origin). Triangles are two-sided either way.
    /// For a shape (whose `normal` is the outward unit normal of its surface at the hit):
    /// whether the ray enters the solid here (a tangent ray's entry included).
    pub front_face: bool,
}

impl RayHit {
    /// The full hit of world ray `(origin, dir)` on triangle number `triangle`, `tri` in the
    /// mesh frame, the mesh placed at `pose`, from the triangle test's `t` and barycentrics.
    pub(crate) fn new(
        tri: &Triangle,
        pose: &Pose,
        triangle: u32,
        hit: &TriangleHit,
        origin: &Point,
        dir: &Vector,
    ) -> Self {
        let normal = pose.rotation() * tri.scaled_normal().try_normalize(0.0).unwrap_or_default();
        Self {
            triangle,
            t: hit.t,
            point: origin + dir * hit.t,
            barycentric: [1.0 - hit.u - hit.v, hit.u, hit.v],
            normal,
            front_face: dir.dot(&normal) < 0.0,
        }
    }
}
