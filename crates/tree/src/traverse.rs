//! The single-tree descents of a [`Bvh`], both depth first with an explicit stack: a filter
//! ([`Bvh::descend`], every node whose ancestors and itself pass a test: containment's
//! segments) and a branch and bound ([`Bvh::branch_and_bound`], the nearer child first, leaves
//! that can no longer improve left out: the extreme vertex and the nearest triangle). The
//! two-tree descents are the query crate's kernel.

use crate::{Bvh, NodeKind, MAX_DEPTH};
use smallvec::SmallVec;
use std::ops::Range;

/// Iterator over the nodes of a [`Bvh`] in depth-first pre-order (left child first), skipping
/// the subtrees of nodes whose volume fails the test; yields the index of every node that passes.
/// Made by [`Bvh::descend`]. The stack never holds more than `MAX_DEPTH + 1` nodes.
pub struct Descend<'a, V, F> {
    bvh: &'a Bvh<V>,
    stack: Vec<u32>,
    test: F,
}

impl<V> Bvh<V> {
    /// Visits the nodes whose volume passes `test` and whose ancestors all pass it, e.g. the
    /// nodes whose volume overlaps a query region; leaves among them give candidate triangles
    /// through [`Bvh::leaf_triangles`].
    pub fn descend<F: FnMut(&V) -> bool>(&self, test: F) -> Descend<'_, V, F> {
        let mut stack = Vec::with_capacity(MAX_DEPTH + 1);
        stack.push(0);
        Descend {
            bvh: self,
            stack,
            test,
        }
    }
}

impl<V> Bvh<V> {
    /// Branch and bound over the tree, depth first (Ericson, *Real-Time Collision Detection*
    /// (2005) §6.6, descent rules; the child with the lesser key first): `key(node)` bounds from
    /// below what a node's subtree can give, `visit(range)` sees a leaf's triangles (positions
    /// in [`Bvh::triangle_order`]) and returns the least key that can still improve on what it
    /// found. A node whose key is at or above that is left out, so a leaf is visited only if its
    /// key and every ancestor's were below the bound when it was reached.
    pub fn branch_and_bound(
        &self,
        mut key: impl FnMut(usize) -> f64,
        mut visit: impl FnMut(Range<usize>) -> f64,
    ) {
        let mut enough = f64::INFINITY;
        let mut pending: SmallVec<[(f64, usize); 64]> = SmallVec::new();
        pending.push((f64::NEG_INFINITY, 0));
        while let Some((k, i)) = pending.pop() {
            if k >= enough {
                continue;
            }
            match self.nodes[i].kind() {
                NodeKind::Internal { left, right } => {
                    let (l, r) = (key(left), key(right));
                    let [first, second] = if l <= r {
                        [(l, left), (r, right)]
                    } else {
                        [(r, right), (l, left)]
                    };
                    pending.push(second);
                    pending.push(first);
                }
                NodeKind::Leaf(range) => enough = visit(range),
            }
        }
    }
}

impl<V, F: FnMut(&V) -> bool> Iterator for Descend<'_, V, F> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while let Some(index) = self.stack.pop() {
            let node = &self.bvh.nodes[index as usize];
            if !(self.test)(node.bv()) {
                continue;
            }
            if let Some([left, right]) = node.children() {
                self.stack.push(right as u32);
                self.stack.push(left as u32);
            }
            return Some(index as usize);
        }
        None
    }
}
