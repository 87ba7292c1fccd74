//! A batch answered in consecutive steps whose length follows the measured pace.
//!
//! Each step is one parallel call on rayon's pool and one move of a progress bar. A call has
//! fixed costs that do not shrink with its length: the pool's idle threads are woken, and at
//! its end one thread waits while the other finishes the last task. Steps of a fixed short
//! length pay them many times over a fast batch (a ray takes well under a microsecond); steps
//! of a fixed long length leave the bar still on a slow one (a pose of two large meshes takes
//! milliseconds). So the first step has a stated least length, and each next step doubles
//! while the last one took less than [`STEP_TIME`]: a batch of `n` items takes at most about
//! `log2(n / least)` steps more than one per [`STEP_TIME`].
//!
//! The steps only group the items. Every caller's answers are each item's own, so the result
//! does not depend on where the steps fall, which varies with the machine's speed.

use std::ops::Range;
use std::time::{Duration, Instant};

/// How long a step should last once the pace is known: long beside a parallel call's fixed
/// costs (tens of microseconds), short enough that a progress bar moves several times a second.
pub(crate) const STEP_TIME: Duration = Duration::from_millis(50);

/// Calls `step` on consecutive ranges that cover `0..len` in order, the first `least` long (at
/// least 1), each next one twice the last while the last took less than `step_time`; stops at
/// the first error and returns it.
pub(crate) fn in_steps<E>(
    len: usize,
    least: usize,
    step_time: Duration,
    mut step: impl FnMut(Range<usize>) -> Result<(), E>,
) -> Result<(), E> {
    let mut length = least.max(1);
    let mut start = 0;
    while start < len {
        let end = len.min(start.saturating_add(length));
        let began = Instant::now();
        step(start..end)?;
        if began.elapsed() < step_time {
            length = length.saturating_mul(2);
        }
        start = end;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ranges `in_steps` calls for `len` items.
    fn ranges(len: usize, least: usize, step_time: Duration) -> Vec<Range<usize>> {
        let mut seen = Vec::new();
        in_steps::<()>(len, least, step_time, |r| {
            seen.push(r);
            Ok(())
        })
        .unwrap();
        seen
    }

    /// The lengths of those ranges.
    fn lengths(len: usize, least: usize, step_time: Duration) -> Vec<usize> {
        ranges(len, least, step_time)
            .iter()
            .map(|r| r.len())
            .collect()
    }

    #[test]
    fn steps_double_while_each_is_quicker_than_the_step_time() {
        assert_eq!(lengths(100, 4, Duration::MAX), [4, 8, 16, 32, 40]);
    }

    #[test]
    fn steps_keep_their_length_once_one_lasts_the_step_time() {
        // Every step takes at least zero time, so none grows.
        assert_eq!(lengths(10, 3, Duration::ZERO), [3, 3, 3, 1]);
    }

    #[test]
    fn the_steps_cover_every_item_once_in_order() {
        for (len, least) in [(0, 4), (1, 4), (7, 1), (1000, 64), (5, 0), (3, usize::MAX)] {
            for step_time in [Duration::ZERO, Duration::MAX] {
                let seen = ranges(len, least, step_time);
                let items: Vec<usize> = seen.iter().flat_map(Clone::clone).collect();
                assert_eq!(items, (0..len).collect::<Vec<_>>(), "{len} {least}");
                assert!(seen.iter().all(|r| !r.is_empty()));
            }
        }
    }

    #[test]
    fn the_first_error_ends_the_steps() {
        let mut calls = 0;
        let result = in_steps(100, 10, Duration::ZERO, |r| {
            calls += 1;
            if r.contains(&25) {
                Err(r.start)
            } else {
                Ok(())
            }
        });
        assert_eq!((result, calls), (Err(20), 3));
    }
}
