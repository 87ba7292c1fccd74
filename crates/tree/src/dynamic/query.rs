//! Box queries: the proxies whose fat box overlaps a given box, by depth-first descent.

use super::{DynamicTree, ProxyId, NULL};
use obbtree_bv::intersect::aabb_aabb;
use obbtree_bv::Aabb;
use smallvec::SmallVec;

/// Iterator over the proxies whose fat box overlaps a box (touching counts), depth first; made
/// by [`DynamicTree::overlapping`]. Stop early by dropping it (`find`, `any`, `break`).
pub struct Overlapping<'a, T> {
    tree: &'a DynamicTree<T>,
    aabb: Aabb,
    /// Nodes still to test; a depth-first stack never holds more than the height plus one
    /// (at most 45 for 2^32 proxies), so it stays inline.
    stack: SmallVec<[u32; 48]>,
}

impl<T> DynamicTree<T> {
    /// The proxies whose fat box overlaps `aabb` (closed boxes: touching counts). Filter with
    /// [`tight_aabb`](Self::tight_aabb) for the tight boxes.
    pub fn overlapping(&self, aabb: &Aabb) -> Overlapping<'_, T> {
        let mut stack = SmallVec::new();
        if self.root != NULL {
            stack.push(self.root);
        }
        Overlapping {
            tree: self,
            aabb: *aabb,
            stack,
        }
    }
}

impl<T> Iterator for Overlapping<'_, T> {
    type Item = ProxyId;

    fn next(&mut self) -> Option<ProxyId> {
        while let Some(index) = self.stack.pop() {
            let node = &self.tree.nodes[index];
            if !aabb_aabb::overlaps(&node.aabb, &self.aabb) {
                continue;
            }
            if node.is_leaf() {
                return Some(node.proxy());
            }
            let [left, right] = node.children();
            self.stack.extend([right, left]);
        }
        None
    }
}
