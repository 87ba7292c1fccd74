//! One node of the flat node array.

use serde::{Deserialize, Serialize};
use std::ops::Range;

/// A node of a [`Bvh`](crate::Bvh): a bounding volume and either two children or a run of
/// triangles.
///
/// Layout (8 bytes beside the volume): an internal node stores the index of its left child, and
/// the right child is the next node, so siblings are adjacent in memory; a leaf stores a range of
/// positions in [`Bvh::triangle_order`](crate::Bvh::triangle_order). Children always come after
/// their parent in the array, so a reverse sweep visits children before parents.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Node<V> {
    pub(crate) bv: V,
    /// Internal: index of the left child. Leaf: first position in the triangle order.
    pub(crate) start: u32,
    /// Internal: 0. Leaf: number of triangles (at least 1).
    pub(crate) count: u32,
}

/// What a node holds below its volume: see [`Node::kind`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// Two children, by node index.
    Internal {
        /// Index of the left child.
        left: usize,
        /// Index of the right child (`left + 1`).
        right: usize,
    },
    /// A run of triangles: positions in [`Bvh::triangle_order`](crate::Bvh::triangle_order).
    Leaf(Range<usize>),
}

impl<V> Node<V> {
    pub(crate) fn leaf(bv: V, start: u32, count: u32) -> Self {
        debug_assert!(count > 0);
        Self { bv, start, count }
    }

    pub(crate) fn internal(bv: V, left: u32) -> Self {
        Self {
            bv,
            start: left,
            count: 0,
        }
    }

    /// The volume containing every vertex of every triangle below this node.
    pub fn bv(&self) -> &V {
        &self.bv
    }

    /// Whether the node is a leaf.
    pub fn is_leaf(&self) -> bool {
        self.count > 0
    }

    /// The `[left, right]` child indices of an internal node; `None` for a leaf.
    pub fn children(&self) -> Option<[usize; 2]> {
        (!self.is_leaf()).then(|| [self.start as usize, self.start as usize + 1])
    }

    /// The positions in [`Bvh::triangle_order`](crate::Bvh::triangle_order) of a leaf's
    /// triangles; `None` for an internal node.
    pub fn triangle_range(&self) -> Option<Range<usize>> {
        self.is_leaf()
            .then(|| self.start as usize..self.start as usize + self.count as usize)
    }

    /// Children or triangle range, for `match`.
    pub fn kind(&self) -> NodeKind {
        match self.children() {
            Some([left, right]) => NodeKind::Internal { left, right },
            None => NodeKind::Leaf(self.start as usize..self.start as usize + self.count as usize),
        }
    }
}
