//! The volumes of B's nodes placed in A's frame, each computed on first use in a query and kept
//! per thread between queries: what both descents bound node pairs with.

use std::any::Any;
use std::cell::RefCell;

/// B's volumes placed in A's frame ([`PosedOverlap::place`](super::posed::PosedOverlap::place)), each computed on first use in a
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
