//! Best-first search: nodes visited in increasing order of a lower bound on what their subtree
//! holds (a ray's entry parameter, a distance), with a limit the caller may lower as it goes —
//! the priority-queue traversal of Hjaltason & Samet, "Distance browsing in spatial databases"
//! (1999), on a bounding-volume tree.

use super::{DynamicTree, ProxyId, NULL};
use obbtree_bv::Aabb;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A queued node with its key; the heap pops the smallest key first, ties broken by the
/// smaller `tiebreak` (then the node index), so every traversal is deterministic.
#[derive(Clone, Copy, Debug)]
pub(super) struct Candidate {
    pub key: f64,
    pub tiebreak: u32,
    pub node: u32,
}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed: `BinaryHeap` is a max-heap.
        other
            .key
            .total_cmp(&self.key)
            .then(other.tiebreak.cmp(&self.tiebreak))
            .then(other.node.cmp(&self.node))
    }
}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Candidate {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Candidate {}

impl<T> DynamicTree<T> {
    /// Visits proxies in increasing order of `lower_bound` of their fat boxes, skipping every
    /// subtree whose box has no bound (`None`) or a bound above the current limit (first
    /// `limit`). `visit(proxy, bound)` returns the new limit: `limit` to go on, a smaller value
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
        let mut enqueue = |queue: &mut BinaryHeap<Candidate>, node: u32, limit: f64| {
            if let Some(key) = lower_bound(&self.nodes[node].aabb).filter(|&k| k <= limit) {
                queue.push(Candidate {
                    key,
                    tiebreak: 0,
                    node,
                });
            }
        };
        if self.root != NULL {
            enqueue(&mut queue, self.root, limit);
        }
        while let Some(Candidate { key, node, .. }) = queue.pop() {
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
