//! Software prefetch: asking for memory a few steps before a walk reads it.
//!
//! A picking walk is a chain of dependent reads (a node, then the child the slab test picks,
//! then its triangles), each a likely cache miss on a large mesh with incoherent rays. Asking
//! for all of a node's children while its slab test runs overlaps the miss on the child that
//! is picked with that test. The collision descent asks for both children of the node it
//! splits (the pushed one is read later) and, when a child of B is a leaf not yet placed, for
//! its triangles' vertices (see `LeafTest::prefetch_leaf`). What each saves is measured in
//! `docs/performance.md`.

/// Asks for the cache line holding `p` to be brought into the cache (all levels). A hint with
/// no effect on what the program computes; a no-op on targets other than x86-64.
#[inline(always)]
pub(crate) fn line<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    // SAFETY: `prefetcht0` is a hint: it never faults and has no architectural effect, whatever
    // the address (Intel SDM vol. 2B, "PREFETCHh"; AMD APM vol. 3, "PREFETCHlevel"); it only
    // needs SSE, part of every x86-64 CPU.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// [`line`] for every cache line of `items`.
#[inline(always)]
pub(crate) fn lines<T>(items: &[T]) {
    let start = items.as_ptr().cast::<u8>();
    // From the line holding the first byte to the one holding the last: the items need not
    // start on a line.
    let skew = start as usize % 64;
    let first = start.wrapping_sub(skew);
    for offset in (0..skew + std::mem::size_of_val(items)).step_by(64) {
        line(first.wrapping_add(offset));
    }
}
