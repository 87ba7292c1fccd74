//! The one knob that sizes every property test of every crate, `OBBTREE_PROPTEST_CASES`, and the
//! proptest configuration that saves failing cases. Each crate's `tests/common` includes this
//! file (through `#[path]`), so that every test reads the knob the same way.
//!
//! **Sizing.** Each property test names its CI case count: what it runs with the knob unset. The
//! knob is the case count of a test whose CI count is proptest's default, [`CI_BASE`] `= 256`, and
//! every test scales by the same factor: with `OBBTREE_PROPTEST_CASES=N` a test of CI count `c`
//! runs `⌈c · N / 256⌉` cases (at least 1). So `256` is the CI run, `2560` runs every property
//! test ten times as long (the documented long run) and `26` a tenth. Tests that loop over cases
//! by hand (poses, frusta, rays from a seeded generator) take their count from [`cases`] too, and
//! scale their "enough cases of each kind" thresholds with it. A value that is not a positive
//! integer is an error, not a silent default.
//!
//! **Replay.** [`config`] and [`runner`] save a failing case's seed next to the test's source,
//! in `<test file>.proptest-regressions`, and every later run replays the saved seeds before
//! drawing new ones (commit the file to keep the case; on CI, where the file is lost, proptest
//! prints the `cc …` line to add, with the shrunk input). `PROPTEST_RNG_SEED=<u64>` fixes the seed
//! of a whole run. Loops over a seeded generator replay by themselves: the same seed gives the
//! same cases, and a larger count only extends the sequence.
#![allow(dead_code)] // each test binary uses a part

use proptest::test_runner::{Config as ProptestConfig, FileFailurePersistence, TestRunner};

/// The knob's value for the CI run (proptest's default case count).
pub const CI_BASE: u32 = 256;

/// The knob's name.
pub const KNOB: &str = "OBBTREE_PROPTEST_CASES";

/// `OBBTREE_PROPTEST_CASES`, or [`CI_BASE`] when unset; panics on a value that is not a positive
/// integer (a typo must not quietly run the CI count).
pub fn knob() -> u32 {
    match std::env::var(KNOB) {
        Err(_) => CI_BASE,
        Ok(v) => match v.trim().parse::<u32>() {
            Ok(n) if n > 0 => n,
            _ => panic!("{KNOB}={v:?}: expected a positive integer (CI: {CI_BASE})"),
        },
    }
}

/// The case count of a property test whose CI count is `ci`: `⌈ci · knob / 256⌉`, at least 1.
pub fn cases(ci: u32) -> u32 {
    let scaled = (u64::from(ci) * u64::from(knob())).div_ceil(u64::from(CI_BASE));
    scaled.clamp(1, u64::from(u32::MAX)) as u32
}

/// The proptest configuration of a property test whose CI count is `ci`: [`cases`]`(ci)` cases,
/// a reject budget that scales with them, and failing seeds saved beside the test's source.
pub fn config(ci: u32) -> ProptestConfig {
    let cases = cases(ci);
    ProptestConfig {
        cases,
        max_global_rejects: cases.saturating_mul(4).max(1024),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..ProptestConfig::default()
    }
}

/// A runner with [`config`]`(ci)` for properties run by hand (`runner.run(...)`):
/// `source_file` (pass `file!()`) says where to save failing seeds, which the `proptest!` macro
/// does by itself.
pub fn runner(ci: u32, source_file: &'static str) -> TestRunner {
    TestRunner::new(ProptestConfig {
        source_file: Some(source_file),
        ..config(ci)
    })
}
