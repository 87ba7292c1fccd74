//! The moments of each node's triangles ([`Moments`]: centre, radius, area, area-weighted
//! normal and first moment), from which the winding-number walk sums far subtrees.

use super::boxes::Boxed;
use super::rss::per_node;
use obbtree_bv::winding::Moments;
use obbtree_tree::Bvh;

/// The moments of each node's triangles, by node index; `boxed` holds the triangles in the
/// tree's order. Nodes are summed in parallel, each from its own triangles (so each sum's
/// rounding is bounded by its own count).
pub(crate) fn moments_per_node<V>(boxed: &[Boxed], tree: &Bvh<V>) -> Vec<Moments> {
    per_node(boxed, tree, Moments::of)
}
