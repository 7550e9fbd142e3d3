//! glibc allocator tuning that `nvpass-cli` applies before anything else.
//! The scaling harness (`benches/src/bin/scale.rs`) includes this file
//! with `#[path]`, so that the stages it times allocate as they do in the
//! driver.

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

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    use super::*;

    extern "C" {
        fn malloc_usable_size(p: *mut u8) -> usize;
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
}
