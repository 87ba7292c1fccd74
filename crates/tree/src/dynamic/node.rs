//! Node layout: one 64-byte record per node in a `Vec`, linked by `u32` indices. Freed records
//! are chained into a free list through their parent field and reused before the vector grows
//! (the node pool of Catto's `b2DynamicTree`, Box2D 2.x).

use super::ProxyId;
use obbtree_bv::Aabb;
use slotmap::{Key, KeyData};
use std::ops::{Index, IndexMut};

/// The absent index: no parent, no node, end of the free list.
pub(super) const NULL: u32 = u32::MAX;

/// Height stored in a record that is on the free list.
const FREE: u32 = u32::MAX;

/// A node record: its box, its parent, its height (0 for a leaf) and either its two children
/// or, for a leaf, its proxy's handle (as the handle's two 32-bit halves).
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    /// Leaf: the proxy's fat box. Internal: the union of the children's boxes.
    pub aabb: Aabb,
    /// Parent index, [`NULL`] at the root; next free record while on the free list.
    pub parent: u32,
    /// Longest path down to a leaf: 0 for a leaf.
    pub height: u32,
    link: [u32; 2],
}

impl Node {
    /// A leaf holding `proxy`.
    pub fn leaf(aabb: Aabb, proxy: ProxyId, parent: u32) -> Self {
        let handle = proxy.data().as_ffi();
        Self {
            aabb,
            parent,
            height: 0,
            link: [(handle >> 32) as u32, handle as u32],
        }
    }

    /// An internal node over `children`.
    pub fn internal(aabb: Aabb, children: [u32; 2], height: u32, parent: u32) -> Self {
        debug_assert!(height > 0 && height != FREE);
        Self {
            aabb,
            parent,
            height,
            link: children,
        }
    }

    pub fn is_leaf(&self) -> bool {
        self.height == 0
    }

    /// The proxy of a leaf.
    pub fn proxy(&self) -> ProxyId {
        debug_assert!(self.is_leaf());
        KeyData::from_ffi((u64::from(self.link[0]) << 32) | u64::from(self.link[1])).into()
    }

    /// The children of an internal node.
    pub fn children(&self) -> [u32; 2] {
        debug_assert!(!self.is_leaf() && self.height != FREE);
        self.link
    }

    /// Puts `new` in the child slot that holds `old`.
    pub fn replace_child(&mut self, old: u32, new: u32) {
        let slot = usize::from(self.link[1] == old);
        debug_assert_eq!(self.link[slot], old);
        self.link[slot] = new;
    }
}

/// The node records and the head of their free list.
#[derive(Clone, Debug)]
pub(super) struct NodePool {
    nodes: Vec<Node>,
    free_head: u32,
}

impl Default for NodePool {
    fn default() -> Self {
        Self {
            nodes: Vec::new(),
            free_head: NULL,
        }
    }
}

impl NodePool {
    /// Stores `node` in a free record, or a new one, and returns its index.
    pub fn alloc(&mut self, node: Node) -> u32 {
        if self.free_head == NULL {
            let index = u32::try_from(self.nodes.len())
                .ok()
                .filter(|&i| i != NULL)
                .expect("dynamic tree: more than 2^32 - 1 nodes");
            self.nodes.push(node);
            return index;
        }
        let index = self.free_head;
        self.free_head = self.nodes[index as usize].parent;
        self.nodes[index as usize] = node;
        index
    }

    /// Puts the record `index` on the free list.
    pub fn release(&mut self, index: u32) {
        let node = &mut self.nodes[index as usize];
        node.height = FREE;
        node.parent = self.free_head;
        self.free_head = index;
    }

    /// Forgets every record.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.free_head = NULL;
    }

    /// Number of records, live or free.
    pub fn capacity(&self) -> usize {
        self.nodes.len()
    }

    /// The record `index` if it is live.
    pub fn get(&self, index: usize) -> Option<&Node> {
        self.nodes.get(index).filter(|n| n.height != FREE)
    }

    /// The free list from its head; stops after `capacity` steps even if the list were cyclic.
    pub fn free_list(&self) -> impl Iterator<Item = usize> + '_ {
        let mut next = self.free_head;
        std::iter::from_fn(move || {
            (next != NULL).then(|| {
                let index = next;
                next = self.nodes[index as usize].parent;
                index as usize
            })
        })
        .take(self.nodes.len())
    }
}

impl Index<u32> for NodePool {
    type Output = Node;

    #[inline]
    fn index(&self, index: u32) -> &Node {
        &self.nodes[index as usize]
    }
}

impl IndexMut<u32> for NodePool {
    #[inline]
    fn index_mut(&mut self, index: u32) -> &mut Node {
        &mut self.nodes[index as usize]
    }
}
