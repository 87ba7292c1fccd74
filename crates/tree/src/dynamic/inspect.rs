//! Read-only access to the nodes, for tests, debugging and tuning: the records, the free list,
//! the height and the surface-area cost.

use super::{DynamicTree, ProxyId, NULL};
use obbtree_bv::{Aabb, BoundingVolume};

/// What a node of a [`DynamicTree`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DynamicNodeKind {
    /// Two children (node indices).
    Internal([usize; 2]),
    /// One proxy.
    Leaf(ProxyId),
}

/// A copy of a live node of a [`DynamicTree`] ([`DynamicTree::node`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DynamicNode {
    /// Leaf: the proxy's fat box. Internal: the union of the children's boxes.
    pub aabb: Aabb,
    /// The parent's index; `None` at the root and at a detached leaf.
    pub parent: Option<usize>,
    /// Longest path down to a leaf (0 for a leaf).
    pub height: usize,
    /// Children or proxy.
    pub kind: DynamicNodeKind,
}

impl<T> DynamicTree<T> {
    /// Index of the root node, `None` when the tree is empty.
    pub fn root(&self) -> Option<usize> {
        (self.root != NULL).then_some(self.root as usize)
    }

    /// The live node at `index`, `None` for a free record or an index past the records.
    pub fn node(&self, index: usize) -> Option<DynamicNode> {
        let node = self.nodes.get(index)?;
        let kind = if node.is_leaf() {
            DynamicNodeKind::Leaf(node.proxy())
        } else {
            DynamicNodeKind::Internal(node.children().map(|c| c as usize))
        };
        Some(DynamicNode {
            aabb: node.aabb,
            parent: (node.parent != NULL).then_some(node.parent as usize),
            height: node.height as usize,
            kind,
        })
    }

    /// Number of node records, live or free (node indices are below it).
    pub fn node_capacity(&self) -> usize {
        self.nodes.capacity()
    }

    /// The free records, in the order they will be reused.
    pub fn free_nodes(&self) -> impl Iterator<Item = usize> + '_ {
        self.nodes.free_list()
    }

    /// The index of the proxy's leaf node.
    pub fn leaf_of(&self, id: ProxyId) -> Option<usize> {
        self.proxies.get(id).map(|p| p.leaf as usize)
    }

    /// Height of the tree: 0 for one proxy (and for none). At most `1.4405 log2(n + 2)` for `n`
    /// proxies (every node is AVL-balanced; see the [module documentation](super)).
    pub fn height(&self) -> usize {
        self.root()
            .map_or(0, |r| self.nodes[r as u32].height as usize)
    }

    /// The surface-area cost of the tree's shape: the summed surface areas of the internal
    /// nodes over the root's (the expected number of internal nodes a random ray meeting the
    /// root visits; Goldsmith & Salmon 1987, MacDonald & Booth 1990). Lower is better; 0 for
    /// fewer than two proxies or a root of zero area.
    pub fn sah_cost(&self) -> f64 {
        let Some(root) = self.root() else {
            return 0.0;
        };
        let root_area = self.nodes[root as u32].aabb.surface_area();
        if root_area == 0.0 {
            return 0.0;
        }
        let internal_area: f64 = (0..self.node_capacity())
            .filter_map(|i| self.nodes.get(i))
            .filter(|n| !n.is_leaf())
            .map(|n| n.aabb.surface_area())
            .sum();
        internal_area / root_area
    }
}
