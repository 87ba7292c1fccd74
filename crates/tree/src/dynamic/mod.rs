//! A dynamic bounding-volume tree over objects: the broad phase of scenes.
//!
//! [`DynamicTree<T>`] keeps one leaf per object (a *proxy*, named by a [`ProxyId`] and carrying
//! a payload `T`, e.g. an object index) with two boxes: the *tight* box the user gives and the
//! *fat* box the tree stores, the tight box grown by a margin ([`DynamicOptions`]) and
//! optionally stretched along a predicted displacement. An [`update`](DynamicTree::update) whose
//! new tight box still fits in the fat box leaves the tree alone; every query reports fat-box
//! hits, and [`tight_aabb`](DynamicTree::tight_aabb) lets callers filter them.
//!
//! ```
//! use obbtree_bv::{Aabb, Point};
//! use obbtree_tree::DynamicTree;
//!
//! let cube = |x: f64| Aabb::new(Point::new(x, 0.0, 0.0), Point::new(x + 1.0, 1.0, 1.0));
//! let mut tree = DynamicTree::new();
//! let a = tree.insert(cube(0.0), "a").unwrap();
//! let b = tree.insert(cube(1.0), "b").unwrap(); // touches a: closed boxes overlap
//! let c = tree.insert(cube(5.0), "c").unwrap();
//! assert_eq!(tree.moved_pairs(), [(a, b)]); // new proxies count as moved
//! tree.clear_moved();
//! assert!(!tree.update(c, cube(5.01)).unwrap()); // within the margin: tree untouched
//! assert!(tree.update(c, cube(0.5)).unwrap());
//! assert_eq!(tree.moved_pairs().len(), 2); // (c, a) and (c, b)
//! assert!(tree.insert(Aabb::new(Point::origin(), Point::new(f64::NAN, 0.0, 0.0)), "d").is_err());
//! ```
//!
//! # Structure
//!
//! Nodes live in a `Vec` with a free list and link by `u32` indices (`node.rs`); proxies live in
//! a generational slot map, so a [`ProxyId`] stays valid across updates, rotations and
//! rebuilds and a removed proxy's id never names a later one. Each leaf holds one proxy.
//!
//! * **Insertion** (`insert.rs`) puts the new leaf beside the sibling that minimises the total
//!   surface area of the tree, found by the branch-and-bound search of Bittner, Hapala & Havran,
//!   "Fast insertion-based optimization of bounding volume hierarchies" (2013), among
//!   siblings of height at most 1 (what keeps the tree AVL-balanced, below).
//! * **Removal** (`remove.rs`) replaces the leaf's parent by its sibling (Box2D's
//!   `b2DynamicTree::RemoveLeaf`).
//! * **Rebalancing** (`rebalance.rs`): after either, the nodes on the path to the root are
//!   refitted and may be rotated (up to where nothing changes any more): of Kensler's six rotations ("Tree rotations for improving
//!   bounding volume hierarchies", 2008), the one that lowers the surface area most is applied,
//!   among those that keep the node and its children AVL-balanced (children's heights differ by
//!   at most 1; Adelson-Velsky & Landis 1962) and do not make it taller. When the insertion or
//!   removal has unbalanced the node, the best balancing rotation is applied whether or not it
//!   lowers the area; one always exists (the rotation of Box2D 2.x's `b2DynamicTree::Balance`:
//!   the shorter child swapped with the taller grandchild), because in a bounding-volume tree,
//!   unlike a search tree, any two subtrees may swap. So every node stays AVL-balanced, and a
//!   tree of `n` leaves has height `h` with `F(h + 2) <= n` (`F` the Fibonacci numbers), i.e.
//!   `h < 1.4405 log2(n + 2)`: at most 18 for 10,000 objects, 45 for 2^32.
//! * **Rebuild** (`rebuild.rs`): [`rebuild`](DynamicTree::rebuild) and
//!   [`from_boxes`](DynamicTree::from_boxes) build top down by binned SAH across the
//!   centroids' longest axis (Wald, "On fast construction of SAH-based bounding volume
//!   hierarchies", 2007), choosing among the splits that an AVL-balanced tree of the target
//!   height admits, so the result satisfies the same invariants and the incremental operations
//!   may follow it.
//! * **Queries**: boxes (`query.rs`, an iterator), all pairs within a tree and between two trees
//!   (`pairs.rs`, simultaneous descent), the pairs of moved proxies (`moved.rs`), rays nearest
//!   first, proxies by increasing distance from a point or box, and proxy pairs by increasing
//!   distance within a tree or between two (`best_first.rs`, `ray.rs`, `nearest.rs`: best-first
//!   search on a lower bound, with a limit the callback may lower). Touching boxes overlap
//!   (closed sets).
//! * **Inspection** (`inspect.rs`): read-only access to the nodes and the free list, height and
//!   surface-area cost, for tests and tuning.
//!
//! # Frames
//!
//! [`insert`](DynamicTree::insert) and an [`update`](DynamicTree::update) that touches the tree
//! mark the proxy *moved*. [`moved_pairs`](DynamicTree::moved_pairs) gives every pair of
//! overlapping fat boxes with at least one moved proxy (each pair once), by querying the tree
//! with each moved proxy's fat box; [`clear_moved`](DynamicTree::clear_moved) starts the next
//! frame. A pair of proxies neither of which moved keeps its fat boxes, so a scene that keeps
//! the set of overlapping pairs only has to add the moved pairs and drop pairs of moved proxies
//! whose fat boxes no longer meet (Box2D's `b2BroadPhase::UpdatePairs` scheme).
//!
//! One tree can hold static and moving proxies alike, and `obbtree_scene::Scene` keeps all its
//! objects, fixtures included, in one tree: a proxy that does not move costs no update, and
//! [`moved_pairs`](DynamicTree::moved_pairs) finds its pairs from the moved proxies' side.
//! Large static objects (floors, fixtures) still enlarge every box above them; a caller that
//! wants them out of the way can keep them in a second tree and pair the two with
//! [`for_each_pair_with`](DynamicTree::for_each_pair_with) or per-proxy queries, as Box2D
//! keeps one tree per body type.

mod best_first;
mod fatten;
mod insert;
mod inspect;
mod moved;
mod nearest;
mod node;
mod pairs;
mod query;
mod ray;
mod rebalance;
mod rebuild;
mod remove;

pub use fatten::{DynamicOptions, ProxyError};
pub use inspect::{DynamicNode, DynamicNodeKind};
pub use query::Overlapping;

use fatten::{check_bounds, check_displacement};
use node::{Node, NodePool, NULL};
use obbtree_bv::{Aabb, Vector};
use slotmap::SlotMap;

slotmap::new_key_type! {
    /// Handle of a proxy in a [`DynamicTree`]: stable while the proxy lives, never reused for
    /// another proxy. Ordered (by slot, then generation), so pair lists can be sorted.
    pub struct ProxyId;
}

/// One object in the tree: the box the user gave, its leaf, whether it moved this frame, and
/// the user's payload.
#[derive(Clone, Debug)]
struct Proxy<T> {
    tight: Aabb,
    leaf: u32,
    moved: bool,
    payload: T,
}

/// A dynamic AABB tree over objects with payloads `T`: O(log n) insertion, removal and update,
/// fat boxes, incremental AVL-bounded rebalancing, and box, pair, ray and nearest queries. See
/// the [module documentation](self).
#[derive(Clone, Debug)]
pub struct DynamicTree<T> {
    nodes: NodePool,
    root: u32,
    proxies: SlotMap<ProxyId, Proxy<T>>,
    /// Proxies marked moved since the last [`clear_moved`](Self::clear_moved), each once;
    /// may also hold removed ones (skipped).
    moved: Vec<ProxyId>,
    options: DynamicOptions,
    /// The insertion search's stack, kept to avoid an allocation per insertion.
    search_stack: Vec<(f64, u32)>,
}

impl<T> Default for DynamicTree<T> {
    fn default() -> Self {
        Self::with_options(DynamicOptions::default())
    }
}

impl<T> DynamicTree<T> {
    /// An empty tree with the default [`DynamicOptions`].
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty tree. Panics if an option is negative or not finite.
    pub fn with_options(options: DynamicOptions) -> Self {
        options.validate();
        Self {
            nodes: NodePool::default(),
            root: NULL,
            proxies: SlotMap::with_key(),
            moved: Vec::new(),
            options,
            search_stack: Vec::new(),
        }
    }

    /// A tree over `items` (tight box, payload) built by [`rebuild`](Self::rebuild), and the
    /// ids of the items in their order. Every proxy starts moved. Fails on the first box that
    /// [`insert`](Self::insert) would refuse.
    pub fn from_boxes(
        items: impl IntoIterator<Item = (Aabb, T)>,
        options: DynamicOptions,
    ) -> Result<(Self, Vec<ProxyId>), ProxyError> {
        let mut tree = Self::with_options(options);
        let ids = items
            .into_iter()
            .map(|(aabb, payload)| tree.add_detached(aabb, payload))
            .collect::<Result<Vec<_>, _>>()?;
        tree.rebuild();
        Ok((tree, ids))
    }

    /// The options the tree fattens boxes with.
    pub fn options(&self) -> &DynamicOptions {
        &self.options
    }

    /// Adds a proxy for the tight box `aabb` and returns its id; the proxy is marked moved.
    /// Refuses boxes with a NaN or infinite coordinate, inverted boxes and coordinates beyond
    /// [`MAX_COORDINATE`](obbtree_bv::MAX_COORDINATE). O(log n) expected.
    pub fn insert(&mut self, aabb: Aabb, payload: T) -> Result<ProxyId, ProxyError> {
        let id = self.add_detached(aabb, payload)?;
        self.insert_leaf(self.proxies[id].leaf);
        Ok(id)
    }

    /// Stores a proxy and its leaf without linking the leaf into the tree.
    fn add_detached(&mut self, aabb: Aabb, payload: T) -> Result<ProxyId, ProxyError> {
        check_bounds(&aabb)?;
        let fat = self.options.fatten(&aabb, None);
        let id = self.proxies.insert(Proxy {
            tight: aabb,
            leaf: NULL,
            moved: true,
            payload,
        });
        self.proxies[id].leaf = self.nodes.alloc(Node::leaf(fat, id, NULL));
        self.moved.push(id);
        Ok(id)
    }

    /// Removes the proxy and returns its payload, or `None` if `id` names no live proxy.
    /// O(log n).
    pub fn remove(&mut self, id: ProxyId) -> Option<T> {
        let proxy = self.proxies.remove(id)?;
        self.remove_leaf(proxy.leaf);
        self.nodes.release(proxy.leaf);
        Some(proxy.payload)
    }

    /// Gives the proxy a new tight box. Returns whether the tree changed: `false` when the box
    /// still fits in the proxy's fat box (and that box is not much larger than needed), `true`
    /// when the proxy was reinserted with a fresh fat box and marked moved. O(log n) when it
    /// moves, O(1) otherwise.
    pub fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<bool, ProxyError> {
        self.relocate(id, aabb, None)
    }

    /// [`update`](Self::update) for an object that moved by `displacement` since the last
    /// frame: a fresh fat box also reaches
    /// [`displacement_scale`](DynamicOptions::displacement_scale) times `displacement` ahead, so
    /// the next frames' boxes are likely to fit. A displacement longer than the box's largest
    /// side counts as a jump, not a motion to extrapolate, and stretches nothing.
    pub fn update_with_displacement(
        &mut self,
        id: ProxyId,
        aabb: Aabb,
        displacement: &Vector,
    ) -> Result<bool, ProxyError> {
        check_displacement(displacement)?;
        self.relocate(id, aabb, Some(displacement))
    }

    /// [`update`](Self::update) without reinsertion: when the box leaves the fat box, the leaf
    /// gets a fresh fat box where it is and every node above it is refitted to its children,
    /// with no search and no rotation (the tree keeps its shape and its AVL balance; O(height)).
    /// For small trees whose proxies all jump every frame (a robot's links between random
    /// configurations), where reinsertion costs more than a better-shaped tree saves; the
    /// queries stay correct whatever the shape. [`rebuild`](Self::rebuild) restores a good one.
    pub fn update_in_place(&mut self, id: ProxyId, aabb: Aabb) -> Result<bool, ProxyError> {
        let Some((leaf, fresh)) = self.outgrown(id, aabb, None)? else {
            return Ok(false);
        };
        self.nodes[leaf].aabb = fresh;
        let mut index = self.nodes[leaf].parent;
        while index != NULL {
            self.refit(index);
            index = self.nodes[index].parent;
        }
        self.mark_moved(id);
        Ok(true)
    }

    fn relocate(
        &mut self,
        id: ProxyId,
        aabb: Aabb,
        displacement: Option<&Vector>,
    ) -> Result<bool, ProxyError> {
        let Some((leaf, fresh)) = self.outgrown(id, aabb, displacement)? else {
            return Ok(false);
        };
        self.remove_leaf(leaf);
        self.nodes[leaf].aabb = fresh;
        self.insert_leaf(leaf);
        self.mark_moved(id);
        Ok(true)
    }

    /// Records the proxy's new tight box; when it no longer fits the fat box (or that box is
    /// much larger than needed), the leaf and the fresh fat box it needs, else `None`.
    fn outgrown(
        &mut self,
        id: ProxyId,
        aabb: Aabb,
        displacement: Option<&Vector>,
    ) -> Result<Option<(u32, Aabb)>, ProxyError> {
        check_bounds(&aabb)?;
        let proxy = self
            .proxies
            .get_mut(id)
            .ok_or(ProxyError::UnknownProxy(id))?;
        proxy.tight = aabb;
        let leaf = proxy.leaf;
        let fresh = self.options.fatten(&aabb, displacement);
        let fits = self
            .options
            .still_fits(&self.nodes[leaf].aabb, &aabb, &fresh);
        Ok((!fits).then_some((leaf, fresh)))
    }

    /// Number of proxies.
    pub fn len(&self) -> usize {
        self.proxies.len()
    }

    /// Whether the tree holds no proxy.
    pub fn is_empty(&self) -> bool {
        self.proxies.is_empty()
    }

    /// Whether `id` names a live proxy of this tree.
    pub fn contains(&self, id: ProxyId) -> bool {
        self.proxies.contains_key(id)
    }

    /// The proxy's payload.
    pub fn payload(&self, id: ProxyId) -> Option<&T> {
        self.proxies.get(id).map(|p| &p.payload)
    }

    /// The proxy's payload, mutably.
    pub fn payload_mut(&mut self, id: ProxyId) -> Option<&mut T> {
        self.proxies.get_mut(id).map(|p| &mut p.payload)
    }

    /// The tight box last given for the proxy (to filter fat-box hits).
    pub fn tight_aabb(&self, id: ProxyId) -> Option<&Aabb> {
        self.proxies.get(id).map(|p| &p.tight)
    }

    /// The fat box the tree stores for the proxy (contains the tight box).
    pub fn fat_aabb(&self, id: ProxyId) -> Option<&Aabb> {
        self.proxies.get(id).map(|p| &self.nodes[p.leaf].aabb)
    }

    /// Every proxy with its payload, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (ProxyId, &T)> + '_ {
        self.proxies.iter().map(|(id, p)| (id, &p.payload))
    }

    /// Removes every proxy.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.root = NULL;
        self.proxies.clear();
        self.moved.clear();
    }
}
