//! Best-first search: nodes visited in increasing order of a lower bound on what their subtree
//! holds (a ray's entry parameter, a distance), with a limit the caller may lower as it goes —
//! the priority-queue traversal of Hjaltason & Samet, "Distance browsing in spatial databases"
//! (1999), on a bounding-volume tree.

use super::node::NodePool;
use super::pairs::descend_first;
use super::{DynamicTree, ProxyId, NULL};
use obbtree_bv::Aabb;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A queued item (a node, a node pair, ...) with its key; the heap pops the smallest key first,
/// ties broken by the smaller item, so every traversal is deterministic.
#[derive(Clone, Copy, Debug)]
pub(super) struct Queued<I> {
    pub key: f64,
    pub item: I,
}

impl<I: Ord> Ord for Queued<I> {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed: `BinaryHeap` is a max-heap.
        other
            .key
            .total_cmp(&self.key)
            .then_with(|| other.item.cmp(&self.item))
    }
}

impl<I: Ord> PartialOrd for Queued<I> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<I: Ord> PartialEq for Queued<I> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<I: Ord> Eq for Queued<I> {}

impl<T> DynamicTree<T> {
    /// Visits proxies in increasing order of `lower_bound` of their fat boxes, skipping every
    /// subtree whose box has no bound (`None`) or a bound above the limit, which starts at
    /// `limit`. `visit(proxy, bound)` returns the new limit: `limit` to go on, a smaller value
    /// to visit only proxies at most that far, a negative value (or NaN) to stop.
    ///
    /// `lower_bound` must not decrease from a box to any box inside it (a box's bound is a
    /// lower bound for everything in it), as distances and ray entry parameters do; then
    /// proxies come in order and none within the limit is missed.
    pub fn nearest_by(
        &self,
        mut lower_bound: impl FnMut(&Aabb) -> Option<f64>,
        mut limit: f64,
        mut visit: impl FnMut(ProxyId, f64) -> f64,
    ) {
        let mut queue = BinaryHeap::new();
        let mut enqueue = |queue: &mut BinaryHeap<Queued<u32>>, node: u32, limit: f64| {
            if let Some(key) = lower_bound(&self.nodes[node].aabb).filter(|&k| k <= limit) {
                queue.push(Queued { key, item: node });
            }
        };
        if self.root != NULL {
            enqueue(&mut queue, self.root, limit);
        }
        while let Some(Queued { key, item: node }) = queue.pop() {
            if key > limit {
                break;
            }
            let node = &self.nodes[node];
            if node.is_leaf() {
                limit = visit(node.proxy(), key);
                if limit.is_nan() {
                    break;
                }
            } else {
                for child in node.children() {
                    enqueue(&mut queue, child, limit);
                }
            }
        }
    }
}

/// Visits the leaf pairs of the subtrees `a` (in `first`) and `b` (in `second`) in increasing
/// order of `lower_bound` of their boxes, as [`DynamicTree::nearest_by`] visits leaves; with
/// `same_tree`, `first` and `second` are one tree, a node paired with itself stands for the
/// pairs within it (each once, none of a leaf with itself), and its key is taken as 0.
pub(super) fn best_first_pairs(
    first: &NodePool,
    second: &NodePool,
    (a, b): (u32, u32),
    same_tree: bool,
    mut lower_bound: impl FnMut(&Aabb, &Aabb) -> f64,
    mut limit: f64,
    mut visit: impl FnMut(ProxyId, ProxyId, f64) -> f64,
) {
    if a == NULL || b == NULL {
        return;
    }
    let mut queue = BinaryHeap::new();
    let mut enqueue = |queue: &mut BinaryHeap<Queued<(u32, u32)>>, a: u32, b: u32, limit: f64| {
        let key = if same_tree && a == b {
            0.0
        } else {
            lower_bound(&first[a].aabb, &second[b].aabb)
        };
        if key <= limit {
            queue.push(Queued { key, item: (a, b) });
        }
    };
    enqueue(&mut queue, a, b, limit);
    while let Some(Queued { key, item: (a, b) }) = queue.pop() {
        if key > limit {
            break;
        }
        let (node_a, node_b) = (&first[a], &second[b]);
        if same_tree && a == b {
            if !node_a.is_leaf() {
                let [l, r] = node_a.children();
                for (x, y) in [(l, l), (r, r), (l, r)] {
                    enqueue(&mut queue, x, y, limit);
                }
            }
        } else if node_a.is_leaf() && node_b.is_leaf() {
            limit = visit(node_a.proxy(), node_b.proxy(), key);
            if limit.is_nan() {
                break;
            }
        } else if descend_first(node_a, node_b) {
            for child in node_a.children() {
                enqueue(&mut queue, child, b, limit);
            }
        } else {
            for child in node_b.children() {
                enqueue(&mut queue, a, child, limit);
            }
        }
    }
}
