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

/// The box around each node's triangles (in the mesh's frame) and the distinct vertices of
/// each leaf's triangles, from the triangles prepared in tree order (`boxed`): one pass over
/// the leaves in node order, each leaf's records read once for both, then each internal
/// node's box from its children's, children before parents (they come after them in the
/// array). A leaf's box is what the leaf test compares the other leaf's triangles with.
pub(crate) fn node_bounds_and_leaf_vertices<V>(
    mesh: &TriMesh,
    boxed: &[Boxed],
    tree: &Bvh<V>,
) -> (Vec<Aabb>, LeafVertices) {
    let nodes = tree.nodes();
    let mut bounds = vec![boxed[0].bounds; nodes.len()];
    // Room for the most a leaf's triangles can name, three vertices each, so the array never
    // moves while it fills: only the pages written are mapped, and the rest is handed back
    // below.
    let mut vertices = LeafVertices {
        points: Vec::with_capacity(3 * boxed.len()),
        ranges: vec![[0, 0]; nodes.len()],
    };
    let mut taken_by = vec![u32::MAX; mesh.vertices().len()];
    for (node, n) in (0u32..).zip(nodes) {
        if let NodeKind::Leaf(range) = n.kind() {
            let corners = range
                .clone()
                .map(|k| mesh.triangles()[tree.triangle_order()[k] as usize]);
            let leaf = &boxed[range];
            vertices.add_leaf(node, leaf, corners, &mut taken_by);
            bounds[node as usize] = leaf[1..]
                .iter()
                .fold(leaf[0].bounds, |u, b| u.merge(&b.bounds));
        }
    }
    vertices.points.shrink_to_fit();
    for i in (0..nodes.len()).rev() {
        if let NodeKind::Internal { left, right } = nodes[i].kind() {
            bounds[i] = bounds[left].merge(&bounds[right]);
        }
    }
    (bounds, vertices)
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
    /// Appends the distinct vertices of leaf `node`, whose triangles are `boxed` with the
    /// vertex indices `corners`, each vertex stamped in `taken_by` with the last leaf that took
    /// it, in the order its triangles first name them.
    fn add_leaf(
        &mut self,
        node: u32,
        boxed: &[Boxed],
        corners: impl Iterator<Item = [u32; 3]>,
        taken_by: &mut [u32],
    ) {
        let start = self.points.len() as u32;
        for (b, indices) in boxed.iter().zip(corners) {
            for (v, p) in indices.into_iter().zip(b.tri.vertices()) {
                if std::mem::replace(&mut taken_by[v as usize], node) != node {
                    self.points.push(*p);
                }
            }
        }
        self.ranges[node as usize] = [start, self.points.len() as u32];
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_meshes::{grid, wavy_field};
    use crate::MeshModel;
    use obbtree_tree::{BuildOptions, SplitRule};

    /// Each node's box is the box of its triangles' corners read from the mesh, each leaf's
    /// points are its triangles' vertex indices, first naming first, each once, and the
    /// points' array holds no room beyond them.
    fn check(mesh: TriMesh, leaf_size: usize) {
        let options = BuildOptions {
            leaf_size,
            split: SplitRule::Median,
            ..Default::default()
        };
        let tree = Bvh::<obbtree_bv::Obb>::build(&mesh, &options).unwrap();
        let model = MeshModel::from_tree(mesh, tree).unwrap();
        let (mesh, tree) = (model.mesh(), model.tree());
        let ranges = super::super::rss::node_ranges(tree);
        let mut leaves = 0;
        for (node, n) in tree.nodes().iter().enumerate() {
            let range = ranges[node].clone();
            let triangles: Vec<[u32; 3]> = tree.triangle_order()[range]
                .iter()
                .map(|&t| mesh.triangles()[t as usize])
                .collect();
            let corners: Vec<Point> = triangles
                .iter()
                .flatten()
                .map(|&v| mesh.vertices()[v as usize])
                .collect();
            assert_eq!(
                model.node_bounds()[node],
                Aabb::from_points(&corners),
                "node {node}"
            );
            let mut distinct: Vec<u32> = Vec::new();
            for &v in triangles.iter().flatten() {
                if !distinct.contains(&v) {
                    distinct.push(v);
                }
            }
            let expected: Vec<Point> = distinct
                .iter()
                .map(|&v| mesh.vertices()[v as usize])
                .collect();
            let points = model.leaf_vertices().of(node);
            if n.is_leaf() {
                leaves += 1;
                assert_eq!(points, &expected[..], "leaf {node}");
            } else {
                assert!(points.is_empty(), "internal node {node}");
            }
        }
        assert!(leaves > 1);
        let points = &model.leaf_vertices().points;
        assert_eq!(
            points.capacity(),
            points.len(),
            "the room left was handed back"
        );
    }

    #[test]
    fn node_boxes_and_leaf_vertices_match_the_mesh() {
        check(wavy_field(12), 1);
        check(wavy_field(12), 9);
        check(
            grid(9, |i, j| {
                Point::new(f64::from(i), f64::from(j * j), f64::from(i * j))
            }),
            4,
        );
    }
}
