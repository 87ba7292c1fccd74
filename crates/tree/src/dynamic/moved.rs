//! Moved proxies and their pairs: what a frame in which few objects move has to look at
//! (Box2D's move buffer, `b2BroadPhase::UpdatePairs`).

use super::{DynamicTree, ProxyId};
use std::ops::ControlFlow;

impl<T> DynamicTree<T> {
    /// Marks the proxy moved (once per frame).
    pub(super) fn mark_moved(&mut self, id: ProxyId) {
        let proxy = &mut self.proxies[id];
        if !proxy.moved {
            proxy.moved = true;
            self.moved.push(id);
        }
    }

    /// Whether the proxy was inserted, or reinserted by an update, since the last
    /// [`clear_moved`](Self::clear_moved).
    pub fn is_moved(&self, id: ProxyId) -> bool {
        self.proxies.get(id).is_some_and(|p| p.moved)
    }

    /// The moved proxies still in the tree, in the order they were first marked.
    pub fn moved(&self) -> impl Iterator<Item = ProxyId> + '_ {
        self.moved.iter().copied().filter(|&id| self.is_moved(id))
    }

    /// Unmarks every moved proxy: the next frame starts.
    pub fn clear_moved(&mut self) {
        for id in self.moved.drain(..) {
            if let Some(proxy) = self.proxies.get_mut(id) {
                proxy.moved = false;
            }
        }
    }

    /// Calls `report(moved, other)` once for every unordered pair of distinct proxies whose fat
    /// boxes overlap and at least one of which is moved, until it breaks: each moved proxy's fat
    /// box is a query, and a pair of two moved proxies is reported from the smaller id's
    /// query. O(m log n + pairs) for `m` moved proxies.
    pub fn for_each_moved_pair(
        &self,
        mut report: impl FnMut(ProxyId, ProxyId) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for id in self.moved() {
            let fat = self.nodes[self.proxies[id].leaf].aabb;
            for other in self.overlapping(&fat) {
                let reported_by_other = self.proxies[other].moved && other < id;
                if other != id && !reported_by_other {
                    report(id, other)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Every pair of [`for_each_moved_pair`](Self::for_each_moved_pair) as `(smaller id, larger
    /// id)`, sorted.
    pub fn moved_pairs(&self) -> Vec<(ProxyId, ProxyId)> {
        let mut pairs = Vec::new();
        let _ = self.for_each_moved_pair(|a, b| {
            pairs.push((a.min(b), a.max(b)));
            ControlFlow::Continue(())
        });
        pairs.sort_unstable();
        pairs
    }
}
