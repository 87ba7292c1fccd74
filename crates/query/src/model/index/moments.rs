//! The moments of each node's triangles ([`Moments`]: centre, radius, area, area-weighted
//! normal and first moment), from which the winding-number walk sums far subtrees.

use super::boxes::Boxed;
use super::rss::node_ranges;
use obbtree_bv::winding::Moments;
use obbtree_bv::Point;
use obbtree_tree::Bvh;
use rayon::prelude::*;

/// The moments of each node's triangles, by node index; `boxed` holds the triangles in the
/// tree's order. Nodes are summed in parallel, each from its own triangles (so each sum's
/// rounding is bounded by its own count).
pub(crate) fn moments_per_node<V>(boxed: &[Boxed], tree: &Bvh<V>) -> Vec<Moments> {
    node_ranges(tree)
        .par_iter()
        .map(|range| {
            let triangles: Vec<[Point; 3]> = boxed[range.clone()]
                .iter()
                .map(|t| *t.tri.vertices())
                .collect();
            Moments::of(&triangles)
        })
        .collect()
}
