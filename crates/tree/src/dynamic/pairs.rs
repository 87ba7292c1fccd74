//! Overlapping pairs within one tree and between two trees, by simultaneous descent of two
//! subtrees (the tree–tree traversal of Ericson, *Real-Time Collision Detection* (2005) §6.3.2,
//! "descend the larger volume"; within one tree, a node is paired with itself by pairing each
//! child with itself and the two children with each other, as Bullet's
//! `btDbvt::collideTT(root, root)` does).

use super::node::{Node, NodePool};
use super::{DynamicTree, ProxyId, NULL};
use obbtree_bv::intersect::aabb_aabb;
use obbtree_bv::BoundingVolume;
use std::ops::ControlFlow;

impl<T> DynamicTree<T> {
    /// Calls `report(a, b)` once for every unordered pair of distinct proxies whose fat boxes
    /// overlap (touching counts), in an order fixed by the tree's shape, until it breaks.
    pub fn for_each_pair(
        &self,
        mut report: impl FnMut(ProxyId, ProxyId) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        descend_pairs(
            &self.nodes,
            &self.nodes,
            self.root,
            self.root,
            true,
            &mut report,
        )
    }

    /// Every pair of [`for_each_pair`](Self::for_each_pair) as `(smaller id, larger id)`,
    /// sorted: the same list for the same proxies and boxes whatever the tree's shape.
    pub fn pairs(&self) -> Vec<(ProxyId, ProxyId)> {
        let mut pairs = Vec::new();
        let _ = self.for_each_pair(|a, b| {
            pairs.push((a.min(b), a.max(b)));
            ControlFlow::Continue(())
        });
        pairs.sort_unstable();
        pairs
    }

    /// Calls `report(a, b)` for every proxy `a` of this tree and `b` of `other` whose fat boxes
    /// overlap (touching counts), until it breaks.
    pub fn for_each_pair_with<U>(
        &self,
        other: &DynamicTree<U>,
        mut report: impl FnMut(ProxyId, ProxyId) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        descend_pairs(
            &self.nodes,
            &other.nodes,
            self.root,
            other.root,
            false,
            &mut report,
        )
    }

    /// Every pair of [`for_each_pair_with`](Self::for_each_pair_with) as (id in this tree, id
    /// in `other`), sorted.
    pub fn pairs_with<U>(&self, other: &DynamicTree<U>) -> Vec<(ProxyId, ProxyId)> {
        let mut pairs = Vec::new();
        let _ = self.for_each_pair_with(other, |a, b| {
            pairs.push((a, b));
            ControlFlow::Continue(())
        });
        pairs.sort_unstable();
        pairs
    }
}

/// Reports the overlapping leaf pairs of the subtrees `a` (in `first`) and `b` (in `second`);
/// with `same_tree`, `first` and `second` are one tree and a node paired with itself yields the
/// pairs within it, each once.
fn descend_pairs(
    first: &NodePool,
    second: &NodePool,
    a: u32,
    b: u32,
    same_tree: bool,
    report: &mut impl FnMut(ProxyId, ProxyId) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if a == NULL || b == NULL {
        return ControlFlow::Continue(());
    }
    let mut stack = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        let (node_a, node_b) = (&first[a], &second[b]);
        if same_tree && a == b {
            if !node_a.is_leaf() {
                let [l, r] = node_a.children();
                stack.extend([(r, r), (l, r), (l, l)]);
            }
            continue;
        }
        if !aabb_aabb::overlaps(&node_a.aabb, &node_b.aabb) {
            continue;
        }
        if node_a.is_leaf() && node_b.is_leaf() {
            report(node_a.proxy(), node_b.proxy())?;
        } else if descend_first(node_a, node_b) {
            let [l, r] = node_a.children();
            stack.extend([(r, b), (l, b)]);
        } else {
            let [l, r] = node_b.children();
            stack.extend([(a, r), (a, l)]);
        }
    }
    ControlFlow::Continue(())
}

/// Whether a descent of the node pair (`a`, `b`), not both leaves, splits `a`: the internal
/// one, or the larger by surface area.
pub(super) fn descend_first(a: &Node, b: &Node) -> bool {
    !a.is_leaf() && (b.is_leaf() || a.aabb.surface_area() >= b.aabb.surface_area())
}
