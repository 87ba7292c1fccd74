//! The leaf test: exact triangle–triangle predicate behind an exact bounding-box filter.

use super::{place, Pose};
use obbtree_bv::intersect::tri_tri_exact;
use obbtree_bv::{Aabb, Point, TriMesh, Triangle};
use smallvec::SmallVec;
use std::ops::ControlFlow;

/// Tests the triangles of a leaf of A against those of a leaf of B (placed in A's frame).
pub(crate) struct LeafTest<'a> {
    a: &'a TriMesh,
    b: &'a TriMesh,
    b_in_a: &'a Pose,
}

/// A triangle with its bounding box.
struct Boxed {
    index: u32,
    tri: Triangle,
    bounds: Aabb,
}

impl Boxed {
    fn new(index: u32, tri: Triangle) -> Self {
        let bounds = Aabb::from_points(&[tri.a, tri.b, tri.c]);
        Self { index, tri, bounds }
    }
}

/// Whether two boxes share a point. Comparisons of exact coordinates are exact, so disjoint
/// boxes prove the triangles inside them disjoint and the filter never changes an answer.
#[inline]
fn boxes_meet(p: &Aabb, q: &Aabb) -> bool {
    (0..3).all(|k| p.mins[k] <= q.maxs[k] && q.mins[k] <= p.maxs[k])
}

impl<'a> LeafTest<'a> {
    pub fn new(a: &'a TriMesh, b: &'a TriMesh, b_in_a: &'a Pose) -> Self {
        Self { a, b, b_in_a }
    }

    /// Appends the intersecting pairs among `a_tris × b_tris` that `keep` accepts to `out`, each
    /// as `order(a, b)`; breaks once `out` holds `limit` pairs.
    pub fn test(
        &self,
        a_tris: &[u32],
        b_tris: &[u32],
        keep: impl Fn(u32, u32) -> bool,
        order: impl Fn(u32, u32) -> [u32; 2],
        out: &mut Vec<[u32; 2]>,
        limit: usize,
    ) -> ControlFlow<()> {
        let placed: SmallVec<[Boxed; 8]> = b_tris
            .iter()
            .map(|&t| Boxed::new(t, placed_triangle(self.b, t as usize, self.b_in_a)))
            .collect();
        for &ta in a_tris {
            let pa = Boxed::new(ta, self.a.triangle(ta as usize));
            for pb in &placed {
                if keep(pa.index, pb.index)
                    && boxes_meet(&pa.bounds, &pb.bounds)
                    && tri_tri_exact::intersects(&pa.tri, &pb.tri)
                {
                    out.push(order(pa.index, pb.index));
                    if out.len() >= limit {
                        return ControlFlow::Break(());
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// The triangle `t` of `mesh` with its vertices placed by `pose`.
pub(crate) fn placed_triangle(mesh: &TriMesh, t: usize, pose: &Pose) -> Triangle {
    let [i, j, k] = mesh.triangles()[t];
    let v = mesh.vertices();
    let p = |x: u32| -> Point { place(pose, &v[x as usize]) };
    Triangle::new(p(i), p(j), p(k))
}
