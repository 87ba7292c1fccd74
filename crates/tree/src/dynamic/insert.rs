//! Insertion of a leaf: the sibling that adds the least surface area to the tree, then a new
//! parent for the two and the rebalancing walk to the root.

use std::cmp::Reverse;
use super::{DynamicTree, Node, NULL};
use obbtree_bv::{Aabb, BoundingVolume};

impl<T> DynamicTree<T> {
    /// Links the detached leaf `leaf` into the tree.
    pub(super) fn insert_leaf(&mut self, leaf: u32) {
        if self.root == NULL {
            self.root = leaf;
            self.nodes[leaf].parent = NULL;
            return;
        }
        let leaf_box = self.nodes[leaf].aabb;
        let sibling = self.best_sibling(&leaf_box);
        let grandparent = self.nodes[sibling].parent;
        let parent = self.nodes.alloc(Node::internal(
            self.nodes[sibling].aabb.merge(&leaf_box),
            [sibling, leaf],
            self.nodes[sibling].height + 1,
            grandparent,
        ));
        self.nodes[sibling].parent = parent;
        self.nodes[leaf].parent = parent;
        if grandparent == NULL {
            self.root = parent;
        } else {
            self.nodes[grandparent].replace_child(sibling, parent);
        }
        self.rebalance_upwards(parent);
    }

    /// The node of height at most 1 beside which a leaf with box `aabb` adds the least surface
    /// area: the new parent's area plus the growth of every ancestor's. Branch and bound of
    /// Bittner, Hapala & Havran (2013): nodes are expanded in order of the growth their
    /// ancestors already incur, and a subtree is skipped once that growth plus the leaf's own
    /// area (the least any new parent can cost) reaches the best cost found. Siblings of height
    /// 0 or 1 keep the new parent AVL-balanced. Among equal costs, lower nodes are expanded
    /// first, so identical or zero-area boxes descend one path instead of the whole tree.
    fn best_sibling(&mut self, aabb: &Aabb) -> u32 {
        let leaf_area = aabb.surface_area();
        let (mut best_cost, mut best) = (f64::INFINITY, NULL);
        self.search.clear();
        self.search.push(search_entry(0.0, self.nodes[self.root].height, self.root));
        while let Some(Reverse((growth_bits, entry))) = self.search.pop() {
            let (growth, index) = (f64::from_bits(growth_bits), entry as u32);
            if growth + leaf_area >= best_cost {
                break;
            }
            let node = &self.nodes[index];
            let merged_area = node.aabb.merge(aabb).surface_area();
            if node.height <= 1 && growth + merged_area < best_cost {
                best_cost = growth + merged_area;
                best = index;
            }
            if node.is_leaf() {
                continue;
            }
            let below = growth + merged_area - node.aabb.surface_area();
            if below + leaf_area < best_cost {
                for child in node.children() {
                    let height = self.nodes[child].height;
                    self.search.push(search_entry(below, height, child));
                }
            }
        }
        debug_assert_ne!(best, NULL);
        best
    }
}

/// An entry of the insertion search's min-heap: the growth's bits (growth is never negative,
/// and the bits of non-negative floats order as their values), then the height and the node,
/// so that among equal costs lower nodes come first. Integer keys compare in one instruction
/// where `f64::total_cmp` and a tie-break take several.
pub(super) type SearchEntry = Reverse<(u64, u64)>;

fn search_entry(growth: f64, height: u32, node: u32) -> SearchEntry {
    debug_assert!(growth >= 0.0, "negative growth {growth}");
    Reverse((growth.to_bits(), (u64::from(height) << 32) | u64::from(node)))
}
