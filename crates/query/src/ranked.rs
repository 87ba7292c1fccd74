//! An entry of a binary heap ranked by an `f64` in IEEE total order: the winding number's
//! refinement keeps its open nodes in `BinaryHeap<Ranked<_>>`, the largest error bound first
//! (the point walks go depth first and keep a plain stack).

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
