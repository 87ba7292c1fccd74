//! Where a batch runs: on rayon's pool when it has several threads, on the calling thread when
//! it has one. The calling thread is not one of the pool's, so a parallel loop on a one-thread
//! pool hands its work to that thread and waits: two thread switches a call, for no
//! parallelism (`docs/performance.md`).

use rayon::prelude::*;

/// Whether rayon's pool (the one the caller runs in, or the global one) has several threads.
pub(crate) fn pool_is_parallel() -> bool {
    rayon::current_num_threads() > 1
}

/// `f` of each item, in order: on rayon's pool when [`pool_is_parallel`], else in a loop on
/// the calling thread.
pub(crate) fn map_each<P: Sync, T: Send>(items: &[P], f: impl Fn(&P) -> T + Sync) -> Vec<T> {
    if pool_is_parallel() {
        items.par_iter().map(&f).collect()
    } else {
        items.iter().map(f).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pool of one thread is not parallel and one of two is; on either the answers are each
    /// item's, in order.
    #[test]
    fn each_item_answered_in_order_on_either_pool() {
        let items: Vec<u64> = (0..10_000).collect();
        let squares: Vec<u64> = items.iter().map(|i| i * i).collect();
        for (threads, parallel) in [(1, false), (2, true)] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                assert_eq!(pool_is_parallel(), parallel);
                assert_eq!(map_each(&items, |i| i * i), squares);
            });
        }
    }
}
