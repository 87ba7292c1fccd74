//! Single-tree depth-first traversal with an explicit stack.

use crate::{Bvh, MAX_DEPTH};

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
