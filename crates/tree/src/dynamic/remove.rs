//! Removal of a leaf: its sibling takes its parent's place (Box2D's
//! `b2DynamicTree::RemoveLeaf`), then the rebalancing walk to the root.

use super::{DynamicTree, NULL};

impl<T> DynamicTree<T> {
    /// Unlinks `leaf` from the tree; the leaf record itself stays allocated (detached).
    pub(super) fn remove_leaf(&mut self, leaf: u32) {
        let parent = self.nodes[leaf].parent;
        self.nodes[leaf].parent = NULL;
        if parent == NULL {
            self.root = NULL;
            return;
        }
        let [first, second] = self.nodes[parent].children();
        let sibling = if first == leaf { second } else { first };
        let grandparent = self.nodes[parent].parent;
        self.nodes[sibling].parent = grandparent;
        if grandparent == NULL {
            self.root = sibling;
        } else {
            self.nodes[grandparent].replace_child(parent, sibling);
        }
        self.nodes.release(parent);
        self.rebalance_upwards(grandparent);
    }
}
