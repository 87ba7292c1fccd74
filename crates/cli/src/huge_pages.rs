//! The program's allocator: glibc's, with every whole 2 MiB page inside a large block offered
//! to the kernel's transparent huge pages.
//!
//! A model's build writes arrays of several to tens of megabytes into fresh memory. With 4 KiB
//! pages the kernel maps and zeroes each page on its first touch, one fault per page, and those
//! faults were about a quarter of a program's build (`docs/performance.md`).
//! `madvise(MADV_HUGEPAGE)` on such a block lets one fault map 2 MiB instead (Linux,
//! `Documentation/admin-guide/mm/transhuge.rst`: in the "madvise" mode, the default of most
//! distributions, only ranges so advised get huge pages). The advice reads, writes, moves and
//! frees nothing, and the kernel may decline it and keep 4 KiB pages (where free memory is
//! fragmented it may first compact it, as its `defrag` setting says). A block's unaligned ends
//! are left alone, so no memory outside a block is advised.

use std::alloc::{GlobalAlloc, Layout, System};

/// The huge page of x86-64, and of aarch64 with 4 KiB base pages.
const HUGE_PAGE: usize = 2 << 20;

/// [`System`], whose blocks are advised to be backed by huge pages wherever a whole aligned
/// 2 MiB page lies inside them.
pub struct HugePageSystem;

// SAFETY: every block comes from `System` with the caller's layout and goes back to it
// unchanged; the advice neither reads nor writes memory.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for HugePageSystem {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc`, passed on.
        let block = unsafe { System.alloc(layout) };
        advise_huge_pages(block, layout.size());
        block
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc_zeroed`, passed on.
        let block = unsafe { System.alloc_zeroed(layout) };
        advise_huge_pages(block, layout.size());
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract for `dealloc`; `block` came from `System`.
        unsafe { System.dealloc(block, layout) }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract for `realloc`, passed on.
        let resized = unsafe { System.realloc(block, layout, new_size) };
        if new_size > layout.size() {
            advise_huge_pages(resized, new_size);
        }
        resized
    }
}

/// The whole huge pages inside `size` bytes from `block`, as a start and an end address
/// (`None` when there is none).
fn whole_huge_pages(block: usize, size: usize) -> Option<(usize, usize)> {
    let start = block.checked_next_multiple_of(HUGE_PAGE)?;
    let end = block.checked_add(size)? / HUGE_PAGE * HUGE_PAGE;
    (end > start).then_some((start, end))
}

/// Advises the whole huge pages inside a block (nothing for a null or small one).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn advise_huge_pages(block: *mut u8, size: usize) {
    if block.is_null() || size < HUGE_PAGE {
        return;
    }
    if let Some((start, end)) = whole_huge_pages(block as usize, size) {
        // SAFETY: the range lies inside a live block of this process, and `MADV_HUGEPAGE` only
        // marks its mappings. Its error (a kernel without huge pages) is ignored: the advice
        // is optional.
        #[allow(unsafe_code)]
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

/// Other systems keep their own page sizes.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn advise_huge_pages(_block: *mut u8, _size: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_huge_pages_lie_inside_the_block() {
        assert_eq!(whole_huge_pages(0, HUGE_PAGE), Some((0, HUGE_PAGE)));
        assert_eq!(whole_huge_pages(1, HUGE_PAGE), None);
        assert_eq!(
            whole_huge_pages(1, 2 * HUGE_PAGE),
            Some((HUGE_PAGE, 2 * HUGE_PAGE))
        );
        assert_eq!(
            whole_huge_pages(HUGE_PAGE - 16, 3 * HUGE_PAGE + 32),
            Some((HUGE_PAGE, 4 * HUGE_PAGE))
        );
        assert_eq!(whole_huge_pages(usize::MAX - 8, HUGE_PAGE), None);
    }

    /// A large block keeps what is written into it, and on Linux its interior's mapping is
    /// marked for huge pages (`hg` in `/proc/self/smaps`) wherever the kernel has them.
    #[test]
    #[allow(unsafe_code)]
    fn a_large_block_is_advised_and_keeps_its_bytes() {
        let layout = Layout::from_size_align(5 * HUGE_PAGE + 123, 8).unwrap();
        // SAFETY: a non-zero layout; the block is written only within it and freed once.
        unsafe {
            let block = HugePageSystem.alloc(layout);
            assert!(!block.is_null());
            for i in (0..layout.size()).step_by(4096) {
                *block.add(i) = (i / 4096) as u8;
            }
            let grown = HugePageSystem.realloc(block, layout, layout.size() * 2);
            assert!(!grown.is_null());
            for i in (0..layout.size()).step_by(4096) {
                assert_eq!(*grown.add(i), (i / 4096) as u8);
            }
            #[cfg(all(target_os = "linux", target_env = "gnu"))]
            if std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists() {
                let (start, _) = whole_huge_pages(grown as usize, layout.size() * 2).unwrap();
                assert!(marked_for_huge_pages(start), "no hg flag at {start:#x}");
            }
            HugePageSystem.dealloc(
                grown,
                Layout::from_size_align(layout.size() * 2, 8).unwrap(),
            );
        }
    }

    /// Whether the mapping holding `address` carries the `hg` (MADV_HUGEPAGE) flag.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    fn marked_for_huge_pages(address: usize) -> bool {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut holds = false;
        for line in smaps.lines() {
            if let Some((range, _)) = line.split_once(' ') {
                if let Some((lo, hi)) = range.split_once('-') {
                    if let (Ok(lo), Ok(hi)) =
                        (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
                    {
                        holds = (lo..hi).contains(&address);
                        continue;
                    }
                }
            }
            if holds && line.starts_with("VmFlags:") {
                return line.split_whitespace().any(|flag| flag == "hg");
            }
        }
        false
    }
}
