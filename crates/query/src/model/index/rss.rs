//! The rectangle swept sphere around each node's triangles (Larsen, Gottschalk, Lin & Manocha
//! 1999: the volume PQP measures distances with), whatever the model's own volume type, and
//! each node's height.

use super::boxes::Boxed;
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
/// triangles in the tree's order. Nodes are fitted in parallel.
pub(crate) fn rss_per_node<V>(boxed: &[Boxed], tree: &Bvh<V>) -> Vec<Rss> {
    per_node(boxed, tree, |triangles| Rss::fit_triangles(triangles, ()))
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
        .map(|range| {
            let triangles: Vec<[Point; 3]> = boxed[range.clone()]
                .iter()
                .map(|t| *t.tri.vertices())
                .collect();
            fit(&triangles)
        })
        .collect()
}

/// The positions in the tree's triangle order of each node's triangles (a subtree's triangles
/// are contiguous), children before parents (they come after them in the array).
fn node_ranges<V>(tree: &Bvh<V>) -> Vec<Range<usize>> {
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
