//! glibc allocator tuning that `nvpass-cli` applies before anything else,
//! and the release of freed memory it asks for before printing.
//! The scaling harness (`benches/src/bin/scale.rs`) includes this file
//! with `#[path]`, so that the stages it times allocate as they do in the
//! driver; it also releases freed memory before each cold run.

/// The size from which glibc serves an allocation with its own mapping.
const MMAP_THRESHOLD: i32 = 128 << 10;

/// Fixes glibc's mmap threshold at [`MMAP_THRESHOLD`] (its initial value).
/// By default glibc raises the threshold to the size of each large block
/// freed, up to 32 MiB; after the reader frees its tables, later tables of
/// a few MiB then come from the heap, where a thread's `calloc` clears
/// (and so touches) every page and freed pages linger. With the threshold
/// fixed they are mapped fresh and returned on free: 3 MiB less peak
/// memory for the card pipeline on a 50 MB module, for no measurable time.
/// Call it first in `main`, before any other thread exists.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn fix_mmap_threshold() {
    extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    /// glibc's `M_MMAP_THRESHOLD`.
    const M_MMAP_THRESHOLD: i32 = -3;
    // SAFETY: mallopt only changes allocator tuning; it runs first in
    // `main`, before any other thread exists.
    unsafe {
        mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD);
    }
}

/// Nothing to tune outside glibc.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn fix_mmap_threshold() {}

/// Gives the pages of freed memory back to the system (`malloc_trim(0)`),
/// in every thread's arena; true when any were. Freed blocks otherwise
/// stay in memory until the thread whose arena holds them allocates
/// again: after the passes of the card pipeline on a 50 MB module, 1.3 to
/// 1.5 MiB of them, held in the arenas of threads that take no part in
/// printing, and printing's own memory came on top of them (peak memory
/// 113.5 against 112.0 MB). It takes about 0.6 ms there.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn release_free_memory() -> bool {
    extern "C" {
        fn malloc_trim(pad: usize) -> i32;
    }
    // SAFETY: malloc_trim only returns free memory to the system; it is
    // safe to call from any thread at any time.
    unsafe { malloc_trim(0) != 0 }
}

/// Nothing to give back outside glibc.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn release_free_memory() -> bool {
    false
}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    use super::*;

    extern "C" {
        fn malloc_usable_size(p: *mut u8) -> usize;
        fn mincore(addr: *mut u8, len: usize, vec: *mut u8) -> i32;
    }

    /// After a large block is freed, a block above the fixed threshold
    /// still gets a mapping of its own: its chunk (usable size plus glibc's
    /// 16-byte header) is a whole number of pages. With glibc's dynamic
    /// threshold, freeing the 8 MiB block raises the threshold past 1 MB
    /// and the second block comes from the heap.
    #[test]
    fn large_blocks_stay_mapped_after_a_larger_one_is_freed() {
        fix_mmap_threshold();
        drop(std::hint::black_box(vec![1u8; 8 << 20]));
        let block = std::hint::black_box(vec![1u8; 1_000_000]);
        // SAFETY: the pointer is a live allocation of the global (system)
        // allocator.
        let usable = unsafe { malloc_usable_size(block.as_ptr().cast_mut()) };
        assert!(usable >= 1_000_000);
        assert_eq!((usable + 16) % 4096, 0, "usable size {usable}");
        const { assert!(MMAP_THRESHOLD < 1_000_000) };
    }

    /// The pages of a freed block in the middle of the heap (which the
    /// allocator keeps, as nothing lies free above it) are given back: none
    /// of them is resident afterwards, while all were before.
    #[test]
    fn freed_pages_are_given_back() {
        const BLOCK: usize = 96 << 10;
        const PAGE: usize = 4096;
        fix_mmap_threshold();
        let below = std::hint::black_box(vec![1u8; BLOCK]);
        let middle = std::hint::black_box(vec![1u8; BLOCK]);
        let above = std::hint::black_box(vec![1u8; BLOCK]);
        // The whole pages inside the middle block, away from the
        // allocator's headers at its ends.
        let from = (middle.as_ptr() as usize + 2 * PAGE) & !(PAGE - 1);
        let pages = BLOCK / PAGE - 4;
        // Made before the block is freed, so that nothing is allocated
        // between the free and the checks.
        let mut flags = vec![0u8; pages];
        let mut resident = || -> usize {
            // SAFETY: the range lies inside a heap block of this thread's
            // arena, mapped before and after it is freed; `flags` holds a
            // byte per page.
            let r = unsafe { mincore(from as *mut u8, pages * PAGE, flags.as_mut_ptr()) };
            assert_eq!(r, 0, "mincore: {}", std::io::Error::last_os_error());
            flags.iter().filter(|&&b| b & 1 == 1).count()
        };
        assert_eq!(resident(), pages);
        drop(middle);
        assert_eq!(resident(), pages, "freed pages stay until given back");
        assert!(release_free_memory());
        assert_eq!(resident(), 0);
        drop((below, above));
    }
}
