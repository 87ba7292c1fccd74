//! The rectangle swept sphere around each node's triangles (Larsen, Gottschalk, Lin & Manocha
//! 1999: the volume PQP measures distances with), whatever the model's own volume type, and
//! each node's height.

use super::boxes::{Boxed, LeafVertices};
use obbtree_bv::fit::covariance::TriangleMoments;
use obbtree_bv::{BoundingVolume, Point, Rss};
use obbtree_tree::{Bvh, NodeKind};
use rayon::prelude::*;
use std::ops::Range;

/// How many levels lie below each node, by node index (children come after their parent).
pub(crate) fn heights<V>(tree: &Bvh<V>) -> Vec<u8> {
    let nodes = tree.nodes();
    let mut heights = vec![0u8; nodes.len()];
    for i in (0..nodes.len()).rev() {
        if let NodeKind::Internal { left, right } = nodes[i].kind() {
            heights[i] = 1 + heights[left].max(heights[right]);
        }
    }
    heights
}

/// The RSS around each node's triangles, by node index, each fitted along its triangles'
/// area-weighted covariance frame ([`Rss::fit_triangles`], PQP's fit); `boxed` holds the
/// triangles in the tree's order, `vertices` the leaves' distinct vertices. Nodes are fitted
/// in parallel, from the triangles' moments (computed once) and the distinct vertices of the
/// leaves below (about a third of the triangles' corners on a closed mesh), the same frame
/// around the same points as [`Rss::fit_triangles`]; triangles without area are fitted as
/// triangles.
pub(crate) fn rss_per_node<V>(boxed: &[Boxed], vertices: &LeafVertices, tree: &Bvh<V>) -> Vec<Rss> {
    let moments: Vec<TriangleMoments> = boxed
        .par_iter()
        .map(|t| TriangleMoments::of(t.tri.vertices()))
        .collect();
    let runs = vertices.runs_below(tree);
    node_ranges(tree)
        .into_par_iter()
        .zip(runs)
        .map(|(triangles, run)| {
            Rss::fit_moments_around(&moments[triangles.clone()], vertices.run(run))
                .unwrap_or_else(|| Rss::fit_triangles(&corners(&boxed[triangles]), ()))
        })
        .collect()
}

/// The vertices of `boxed`'s triangles.
fn corners(boxed: &[Boxed]) -> Vec<[Point; 3]> {
    boxed.iter().map(|t| *t.tri.vertices()).collect()
}

/// `fit` of each node's triangles, by node index; `boxed` holds the triangles in the tree's
/// order. Nodes are fitted in parallel, each from its own triangles.
pub(crate) fn per_node<V, T: Send>(
    boxed: &[Boxed],
    tree: &Bvh<V>,
    fit: impl Fn(&[[Point; 3]]) -> T + Sync,
) -> Vec<T> {
    node_ranges(tree)
        .par_iter()
        .map(|range| fit(&corners(&boxed[range.clone()])))
        .collect()
}

/// The positions in the tree's triangle order of each node's triangles (a subtree's triangles
/// are contiguous), children before parents (they come after them in the array).
pub(super) fn node_ranges<V>(tree: &Bvh<V>) -> Vec<Range<usize>> {
    let nodes = tree.nodes();
    let mut ranges = vec![0..0; nodes.len()];
    for i in (0..nodes.len()).rev() {
        ranges[i] = match nodes[i].kind() {
            NodeKind::Internal { left, right } => ranges[left].start..ranges[right].end,
            NodeKind::Leaf(range) => range,
        };
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::MeshModel;
    use crate::test_meshes::grid;
    use obbtree_bv::TriMesh;
    use std::collections::BTreeSet;

    /// The bits of a point, to compare point sets exactly.
    fn key(p: &Point) -> [u64; 3] {
        [p.x, p.y, p.z].map(f64::to_bits)
    }

    /// Checks every node of `mesh`'s tree: its run of leaf vertices holds exactly the distinct
    /// corners of its triangles (read from the mesh's indices), and its RSS has the frame of the
    /// fit from the triangles, about its radius, and contains every corner.
    fn check_every_node(mesh: TriMesh) {
        let model: MeshModel = MeshModel::new(mesh).unwrap();
        let (tree, vertices) = (model.tree(), model.leaf_vertices());
        let runs = vertices.runs_below(tree);
        let rss = rss_per_node(model.boxed(), vertices, tree);
        for (node, range) in node_ranges(tree).into_iter().enumerate() {
            let corners: Vec<[Point; 3]> = tree.triangle_order()[range]
                .iter()
                .map(|&t| model.mesh().triangle(t as usize).vertices())
                .collect();
            let expected: BTreeSet<_> = corners.iter().flatten().map(key).collect();
            let run: BTreeSet<_> = vertices.run(runs[node].clone()).iter().map(key).collect();
            assert_eq!(run, expected, "node {node}");
            let fitted = Rss::fit_triangles(&corners, ());
            assert_eq!(rss[node].axes, fitted.axes, "node {node}");
            assert!((rss[node].radius - fitted.radius).abs() <= 1e-9 * (1.0 + fitted.radius));
            assert!(corners
                .iter()
                .flatten()
                .all(|p| rss[node].contains_point(p, 0.0)));
        }
    }

    #[test]
    fn each_nodes_rss_is_fitted_around_exactly_its_triangles_corners() {
        check_every_node(grid(24, |i, j| {
            let bump = f64::from((i * 7 + j * 3) % 5) * 0.1;
            Point::new(f64::from(i) * 0.25, f64::from(j) * 0.5, bump)
        }));
    }

    /// Triangles without area have no covariance frame: they are fitted as triangles.
    #[test]
    fn triangles_without_area_are_fitted_as_triangles() {
        check_every_node(grid(8, |i, j| Point::new(f64::from(i + 2 * j), 0.0, 0.0)));
    }
}
