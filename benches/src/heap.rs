//! A counting global allocator for the heap numbers of the `scale` binary
//! and the `sizes` example: install it with
//! `#[global_allocator] static A: CountingAlloc = CountingAlloc;`, then read
//! [`in_use`] and the peak since [`reset_peak`].

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

static CUR: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, counting the bytes in use and their peak.
pub struct CountingAlloc;

fn grow(by: usize) {
    let c = CUR.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(c, Relaxed);
}

// SAFETY: every call forwards to `System` with the caller's arguments; the
// counters are plain atomics and never affect the memory handed out.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = System.alloc(l);
        if !p.is_null() {
            grow(l.size());
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l);
        CUR.fetch_sub(l.size(), Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = System.realloc(p, l, new);
        if !q.is_null() {
            if new >= l.size() {
                grow(new - l.size());
            } else {
                CUR.fetch_sub(l.size() - new, Relaxed);
            }
        }
        q
    }
}

/// Bytes in use now.
pub fn in_use() -> usize {
    CUR.load(Relaxed)
}

/// Starts a new peak at the bytes in use now, and returns them.
pub fn reset_peak() -> usize {
    let now = in_use();
    PEAK.store(now, Relaxed);
    now
}

/// The most bytes in use since the last [`reset_peak`].
pub fn peak() -> usize {
    PEAK.load(Relaxed)
}
