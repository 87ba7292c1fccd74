//! Each triangle of a model prepared for the exact tests and boxed, in the tree's leaf order,
//! and the box around each node's triangles: the model's side of every leaf test, and the
//! boxes the single-tree searches bound with.

use obbtree_bv::intersect::tri_tri_exact::Prepared;
use obbtree_bv::{Aabb, BoundingVolume, Point, TriMesh, Triangle};
use obbtree_tree::{Bvh, NodeKind};
use rayon::prelude::*;
use std::ops::Range;

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
/// contiguous): A's side of the leaf test, computed once per [`Model`](crate::Model), on
/// rayon's pool in runs of [`BOXED_RUN`] triangles. The array is allocated on the calling
/// thread, whose allocator may hand back memory an earlier build freed there (the pool's
/// threads allocate from arenas of their own).
pub(crate) fn boxed_in_tree_order<V>(mesh: &TriMesh, tree: &Bvh<V>) -> Vec<Boxed> {
    let order = tree.triangle_order();
    let mut boxed = Vec::with_capacity(order.len());
    order
        .par_iter()
        .with_min_len(BOXED_RUN)
        .map(|&t| Boxed::new(mesh.triangle(t as usize)))
        .collect_into_vec(&mut boxed);
    boxed
}

/// The fewest triangles a thread prepares at a time: small meshes (robot links) stay on one.
const BOXED_RUN: usize = 4096;

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

/// The distinct vertices of each leaf's triangles, leaf after leaf: what the leaf's box in
/// another frame is taken around. A closed mesh's triangles share each vertex about six ways,
/// so a leaf has about half as many distinct vertices as triangles plus its border, where its
/// triangles name three each: placing these instead of the triangles' corners gives the same
/// box (the same coordinates, placed the same way) for a third of the work or less.
#[derive(Clone, Debug, Default)]
pub(crate) struct LeafVertices {
    points: Vec<Point>,
    /// Per node: the range of its points (empty for internal nodes).
    ranges: Vec<[u32; 2]>,
}

impl LeafVertices {
    /// The distinct vertices of the leaves of `tree` over `mesh`, each leaf's in the order
    /// its triangles first name them. One pass: each vertex is stamped with the last leaf that
    /// took it.
    pub(crate) fn new<V>(mesh: &TriMesh, tree: &Bvh<V>) -> Self {
        let order = tree.triangle_order();
        let (triangles, vertices) = (mesh.triangles(), mesh.vertices());
        let mut points = Vec::with_capacity(order.len());
        let mut taken_by = vec![u32::MAX; vertices.len()];
        let ranges = (0u32..)
            .zip(tree.nodes())
            .map(|(node, n)| {
                let start = points.len() as u32;
                if let NodeKind::Leaf(range) = n.kind() {
                    for &t in &order[range] {
                        for v in triangles[t as usize] {
                            if std::mem::replace(&mut taken_by[v as usize], node) != node {
                                points.push(vertices[v as usize]);
                            }
                        }
                    }
                }
                [start, points.len() as u32]
            })
            .collect();
        Self { points, ranges }
    }

    /// The distinct vertices of the triangles of leaf `node` (none for an internal node).
    #[inline]
    pub(crate) fn of(&self, node: usize) -> &[Point] {
        let [start, end] = self.ranges[node];
        &self.points[start as usize..end as usize]
    }

    /// Per node, by node index, the run of points (see [`Self::run`]) holding the distinct
    /// vertices of every leaf below it: a vertex shared by two of those leaves appears once
    /// for each. A node's descendants are one stretch of the node array (its two children,
    /// then their descendants, [`Bvh`]'s layout), and the leaves' vertices were stored in
    /// node order, so a subtree's are contiguous.
    pub(crate) fn runs_below<V>(&self, tree: &Bvh<V>) -> Vec<Range<usize>> {
        let nodes = tree.nodes();
        let mut runs = vec![0..0; nodes.len()];
        for i in (0..nodes.len()).rev() {
            runs[i] = match nodes[i].kind() {
                NodeKind::Internal { left, right } => {
                    let (l, r) = (&runs[left], &runs[right]);
                    l.start.min(r.start)..l.end.max(r.end)
                }
                NodeKind::Leaf(_) => {
                    let [start, end] = self.ranges[i];
                    start as usize..end as usize
                }
            };
        }
        runs
    }

    /// The points of a run of [`Self::runs_below`].
    #[inline]
    pub(crate) fn run(&self, run: Range<usize>) -> &[Point] {
        &self.points[run]
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        std::mem::size_of_val(&self.points[..]) + std::mem::size_of_val(&self.ranges[..])
    }
}
