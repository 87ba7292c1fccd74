//! Helpers shared by the integration tests of `obbtree-bv`.

/// Property-test case count: `OBBTREE_PROPTEST_CASES` if set (e.g. 100000 locally), else a
/// default that keeps this crate's suite to well under a minute.
pub fn cases() -> u32 {
    std::env::var("OBBTREE_PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(256)
}
