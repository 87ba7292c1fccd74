//! An entry of a binary heap ranked by an `f64` in IEEE total order: the best-first walks keep
//! their pending nodes in `BinaryHeap<Ranked<_>>` (greatest rank first) or, nearest first,
//! `BinaryHeap<Reverse<Ranked<_>>>`.

use std::cmp::Ordering;

/// `item` with its rank.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ranked<T> {
    /// What orders the entries.
    pub rank: f64,
    /// What the entry carries.
    pub item: T,
}

impl<T> PartialEq for Ranked<T> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<T> Eq for Ranked<T> {}

impl<T> PartialOrd for Ranked<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T> Ord for Ranked<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank.total_cmp(&other.rank)
    }
}
