//! Each triangle of a model prepared for the exact tests and boxed, in the tree's leaf order,
//! and the box around each node's triangles: the model's side of every leaf test, and the
//! boxes the single-tree searches bound with.

use obbtree_bv::intersect::tri_tri_exact::Prepared;
use obbtree_bv::{Aabb, BoundingVolume, TriMesh, Triangle};
use obbtree_tree::{Bvh, NodeKind};

/// A triangle (in A's frame) with its plane, prepared for the exact test, and its bounding box.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Boxed {
    pub(crate) tri: Prepared,
    pub(crate) bounds: Aabb,
}

impl Boxed {
    #[inline]
    pub(crate) fn new(tri: Triangle) -> Self {
        let bounds = Aabb::from_points(&[tri.a, tri.b, tri.c]);
        Self {
            tri: Prepared::new(&tri),
            bounds,
        }
    }
}

/// The triangles of `mesh` with their boxes, in the order of `tree` (each leaf's triangles
/// contiguous): A's side of the leaf test, computed once per [`Model`](crate::Model).
pub(crate) fn boxed_in_tree_order<V>(mesh: &TriMesh, tree: &Bvh<V>) -> Vec<Boxed> {
    let order = tree.triangle_order();
    order
        .iter()
        .map(|&t| Boxed::new(mesh.triangle(t as usize)))
        .collect()
}

/// The box around each node's triangles (in the mesh's frame), by node index: a leaf's box is
/// what the leaf test compares the other leaf's triangles with. Computed once per
/// [`Model`](crate::Model), children before parents (they come after them in the array).
pub(crate) fn node_bounds<V>(boxed: &[Boxed], tree: &Bvh<V>) -> Vec<Aabb> {
    let nodes = tree.nodes();
    let mut bounds = vec![boxed[0].bounds; nodes.len()];
    for i in (0..nodes.len()).rev() {
        bounds[i] = match nodes[i].kind() {
            NodeKind::Internal { left, right } => bounds[left].merge(&bounds[right]),
            NodeKind::Leaf(range) => boxed[range.clone()]
                .iter()
                .skip(1)
                .fold(boxed[range.start].bounds, |u, p| u.merge(&p.bounds)),
        };
    }
    bounds
}
