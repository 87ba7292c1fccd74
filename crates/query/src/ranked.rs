//! A queue that hands out its entries roughly largest rank first: entries are kept in buckets
//! by the binary exponent of their rank (a bucket queue, Dial, "Shortest-path forest with
//! topological ordering", CACM 1969, keyed on `⌊log₂ rank⌋`), so a push and a pop take constant
//! time, and between `2⁻⁶¹` and 2 the entry popped is within a factor of two of the largest.
//! The winding number's refinement keeps its open nodes in one, the largest error bound
//! first; any order gives the same guarantee, the rough one only a little more work than the
//! exact one.

/// Buckets: ranks in `[2⁻⁶¹, 2)` get one per binary exponent; smaller ones share the lowest,
/// finite ones from 2 up the next to highest (a winding share's bound that large is refined
/// before any side can be decided, so their order does not matter), infinite ones and NaN
/// the highest.
const BUCKETS: usize = 64;

/// Entries with a non-negative `f64` rank, popped roughly largest first.
pub(crate) struct RankedQueue<T> {
    buckets: [Vec<T>; BUCKETS],
    /// Bit `k` set when bucket `k` holds an entry.
    filled: u64,
}

impl<T> Default for RankedQueue<T> {
    fn default() -> Self {
        Self {
            buckets: std::array::from_fn(|_| Vec::new()),
            filled: 0,
        }
    }
}

impl<T> RankedQueue<T> {
    /// Adds `item` with `rank` (at least 0).
    pub fn push(&mut self, rank: f64, item: T) {
        let k = bucket(rank);
        self.buckets[k].push(item);
        self.filled |= 1 << k;
    }

    /// Removes every entry, keeping the buckets' memory.
    pub fn clear(&mut self) {
        while let Some(k) = self.filled.checked_ilog2() {
            self.buckets[k as usize].clear();
            self.filled &= !(1 << k);
        }
    }

    /// Removes an entry of the highest non-empty bucket: within `[2⁻⁶¹, 2)`, its rank is more
    /// than half of every other entry's. `None` when empty.
    pub fn pop(&mut self) -> Option<T> {
        let k = self.filled.checked_ilog2()? as usize;
        let item = self.buckets[k].pop();
        if self.buckets[k].is_empty() {
            self.filled &= !(1 << k);
        }
        item
    }
}

/// The bucket of `rank`: its binary exponent offset so that `[1, 2)` falls in bucket
/// `BUCKETS − 3`, clamped to the buckets of finite ranks.
fn bucket(rank: f64) -> usize {
    if rank.is_nan() || rank == f64::INFINITY {
        return BUCKETS - 1;
    }
    let exponent = (rank.to_bits() >> 52) as i64 - 1023;
    (exponent + BUCKETS as i64 - 3).clamp(0, BUCKETS as i64 - 2) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn pops_every_entry_within_half_of_the_largest_left(
            ranks in prop::collection::vec(
                prop_oneof![0.0..4.0, 1e-30..1e-10, 1e3..1e300, Just(0.0), Just(f64::INFINITY)],
                0..200,
            ),
        ) {
            let mut queue = RankedQueue::default();
            for (i, &rank) in ranks.iter().enumerate() {
                queue.push(rank, i);
            }
            let mut left: Vec<bool> = vec![true; ranks.len()];
            while let Some(i) = queue.pop() {
                prop_assert!(left[i], "entry {} popped twice", i);
                left[i] = false;
                let largest = ranks
                    .iter()
                    .zip(&left)
                    .filter(|(_, l)| **l)
                    .map(|(r, _)| *r)
                    .fold(0.0, f64::max);
                let tiny = ranks[i] < 2f64.powi(-(BUCKETS as i32 - 2)) && largest < 2f64.powi(-(BUCKETS as i32 - 2));
                let huge = ranks[i] >= 2.0 && ranks[i] <= largest && largest.is_finite();
                prop_assert!(
                    ranks[i] == f64::INFINITY || ranks[i] > largest / 2.0 || tiny || huge,
                    "popped {} with {} left", ranks[i], largest
                );
            }
            prop_assert!(left.iter().all(|l| !l), "an entry was never popped");
        }
    }

    #[test]
    fn a_cleared_queue_is_empty_and_takes_new_entries() {
        let mut queue = RankedQueue::default();
        for (i, rank) in [0.5, 8.0, f64::INFINITY, 1e-100].into_iter().enumerate() {
            queue.push(rank, i);
        }
        queue.clear();
        assert_eq!(queue.pop(), None);
        queue.push(0.25, 7);
        queue.push(1.0, 9);
        assert_eq!(
            (queue.pop(), queue.pop(), queue.pop()),
            (Some(9), Some(7), None)
        );
    }
}
