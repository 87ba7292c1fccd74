//! The simultaneous descent of two hierarchies (the bounding-volume test tree).

use super::leaf::{Leaf, LeafTest};
use super::PosedOverlap;
use obbtree_tree::{Bvh, MAX_DEPTH};
use smallvec::SmallVec;
use std::any::Any;
use std::cell::RefCell;
use std::ops::ControlFlow;

/// Pending node pairs: each step pops one pair and pushes at most two, and one index of the
/// pushed pairs goes one level deeper, so the stack never holds more than
/// `2 · (MAX_DEPTH + 1)` pairs and never leaves the call stack (self-collision pushes three
/// pairs at a node paired with itself and may exceed that; the vector then spills to the heap).
pub(crate) type Stack = SmallVec<[(u32, u32); 2 * (MAX_DEPTH + 1)]>;

/// B's volumes placed in A's frame ([`PosedOverlap::place`]), each computed on first use in a
/// query: a node of B meets many nodes of A. An entry is valid when its stamp equals the
/// query's generation, so starting a query costs nothing, and the memory (one placed volume
/// and a stamp per node of the largest tree seen, e.g. 136 bytes per node for OBBs) is kept
/// for the next query until [`release`] frees it.
pub(crate) struct PlacedNodes<P> {
    generation: u32,
    entries: Vec<(u32, P)>,
}

impl<P> Default for PlacedNodes<P> {
    fn default() -> Self {
        Self {
            generation: 0,
            entries: Vec::new(),
        }
    }
}

impl<P: Copy> PlacedNodes<P> {
    /// Invalidates every entry and makes room for `n` nodes (`filler` fills new room).
    pub(crate) fn begin(&mut self, n: usize, filler: P) {
        if self.entries.len() < n {
            self.entries.resize(n, (0, filler));
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.entries.iter_mut().for_each(|e| e.0 = 0);
            self.generation = 1;
        }
    }

    /// Node `j`'s placed volume, computed by `place` on first use in this query.
    #[inline]
    pub(crate) fn get(&mut self, j: u32, place: impl FnOnce() -> P) -> &P {
        let entry = &mut self.entries[j as usize];
        if entry.0 != self.generation {
            *entry = (self.generation, place());
        }
        &entry.1
    }

    /// Node `j`'s entry, if computed in this query.
    #[inline]
    pub(crate) fn known(&self, j: u32) -> Option<P> {
        let entry = &self.entries[j as usize];
        (entry.0 == self.generation).then_some(entry.1)
    }

    /// Sets node `j`'s entry for this query.
    #[inline]
    pub(crate) fn insert(&mut self, j: u32, value: P) {
        self.entries[j as usize] = (self.generation, value);
    }
}

thread_local! {
    /// This thread's [`PlacedNodes`], one per volume type used (type-erased).
    static PLACED: RefCell<Vec<Box<dyn Any>>> = RefCell::default();
}

/// Runs `f` on this thread's placed-volume cache for `P`, begun for `n` nodes.
pub(crate) fn with_placed<P: Copy + 'static, R>(
    n: usize,
    filler: P,
    f: impl FnOnce(&mut PlacedNodes<P>) -> R,
) -> R {
    PLACED.with(|all| {
        let mut all = all.borrow_mut();
        let k = match all.iter().position(|c| c.is::<PlacedNodes<P>>()) {
            Some(k) => k,
            None => {
                all.push(Box::new(PlacedNodes::<P>::default()));
                all.len() - 1
            }
        };
        let cache = all[k]
            .downcast_mut::<PlacedNodes<P>>()
            .expect("found by type");
        cache.begin(n, filler);
        f(cache)
    })
}

/// Frees this thread's placed-volume caches.
pub(crate) fn release() {
    PLACED.with(|all| all.borrow_mut().clear());
}

/// Calls `visit(leaves, leaf of a, leaf of b)` for every pair of leaves whose ancestors
/// overlap (under `rel`) and that `meets_leaf` accepts, until `visit` breaks. Returns whether
/// it broke.
///
/// With `itself` (`a` and `b` the same tree, for self-collision), each unordered pair of nodes is
/// visited once: a node paired with itself is not tested but expands to its children paired with
/// themselves and with each other, and a leaf paired with itself is visited (`i == j`).
///
/// A pair whose node of B is internal is tested by [`PosedOverlap::overlaps`]; a pair with a
/// leaf of B by `meets_leaf(leaves, node of a, leaf of b)`, for collision the boxes around the
/// triangles ([`LeafTest::meets_leaf`]): exact, much cheaper
/// than a box–box test, and about as selective at that size (with 7-triangle leaves on
/// dragon_res3 it passes 53% of the leaf pairs the 15-axis OBB test passes 49% of), and B's
/// leaf triangles are placed in A's frame for the leaf test anyway.
///
/// At each overlapping pair of internal nodes the larger volume ([`PosedOverlap::size`]) is
/// split, which keeps the two volumes of a pair of similar size (Gottschalk, Lin & Manocha 1996,
/// §5: "descend the larger box").
pub(crate) fn leaf_pairs<V: PosedOverlap>(
    a: &Bvh<V>,
    b: &Bvh<V>,
    rel: &V::Relative,
    itself: bool,
    leaves: &mut LeafTest,
    meets_leaf: impl Fn(&mut LeafTest, usize, &Leaf) -> bool,
    mut visit: impl FnMut(&mut LeafTest, usize, usize) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let (na, nb) = (a.nodes(), b.nodes());
    let place = |j: u32| V::place(nb[j as usize].bv(), rel);
    with_placed(nb.len(), place(0), |placed| {
        let mut stack = Stack::new();
        // The pair in hand: a split pushes one child pair and goes on with the other at once.
        let mut next = Some((0, 0));
        while let Some((i, j)) = next.take().or_else(|| stack.pop()) {
            let (x, y) = (&na[i as usize], &nb[j as usize]);
            if itself && i == j {
                match x.children() {
                    Some([l, r]) => {
                        let (l, r) = (l as u32, r as u32);
                        stack.extend([(l, r), (r, r)]);
                        next = Some((l, l));
                    }
                    None => visit(leaves, i as usize, j as usize)?,
                }
                continue;
            }
            let overlap = if y.is_leaf() {
                meets_leaf(leaves, i as usize, &Leaf::of(b, j as usize))
            } else {
                V::overlaps(x.bv(), placed.get(j, || place(j)), rel)
            };
            if !overlap {
                continue;
            }
            // Split A when B is a leaf or A's volume is the larger; otherwise split B. The two
            // children are asked for at once: the pushed one is tested later, out of the cache.
            let split_a = y.is_leaf() || x.bv().size() >= y.bv().size();
            if let Some([l, r]) = x.children().filter(|_| split_a) {
                crate::prefetch::lines(&na[l..=r]);
                stack.push((r as u32, j));
                next = Some((l as u32, j));
            } else if let Some([l, r]) = y.children() {
                crate::prefetch::lines(&nb[l..=r]);
                // A leaf child's triangles are placed on its first test: ask for them now.
                for k in [l, r] {
                    if nb[k].is_leaf() {
                        leaves.prefetch_leaf(&Leaf::of(b, k));
                    }
                }
                stack.push((i, r as u32));
                next = Some((i, l as u32));
            } else {
                visit(leaves, i as usize, j as usize)?;
            }
        }
        ControlFlow::Continue(())
    })
}
