//! Giving the memory of closed games back to the operating system.
//!
//! glibc keeps freed memory for reuse and returns only the free top of its heap. After
//! thousands of games close, a few small chunks that it caches per size (its tcache)
//! still stand high in the heap, and every page below them stays with the process:
//! 200 MiB after closing 100,000 games. `malloc_trim` hands back every whole free page
//! wherever it lies.

/// Returns the allocator's free pages to the system. Called when closing games has
/// shrunk the table of names, that is after half of them went: each call walks the
/// allocator's free lists, a few milliseconds for hundreds of MiB.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn give_back() {
    extern "C" {
        /// glibc's `int malloc_trim(size_t pad)`.
        fn malloc_trim(pad: usize) -> std::ffi::c_int;
    }
    // SAFETY: the declaration matches glibc's prototype; malloc_trim reads and writes
    // only the allocator's own free memory, under the allocator's lock, so it may run
    // at any moment from any thread. Rust's global allocator here is glibc's malloc.
    unsafe {
        malloc_trim(0);
    }
}

/// Other allocators are left to return memory their own way.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn give_back() {}

/// The size of a huge page on the processors this is built for.
const HUGE_PAGE: usize = 2 << 20;

/// Asks the system to back the whole huge pages (2 MiB) inside a large buffer with
/// huge pages, from the next fault on. A process serving many games reads a few places
/// of its table of names and records on every line, far apart: with pages of 4 KiB, each
/// is a miss of the address translation cache (a walk of the page tables, and in a
/// virtual machine a walk of two), which the records' 2 MiB pages avoid. A hint: when
/// the system refuses it, or has no huge pages, nothing changes.
#[cfg(target_os = "linux")]
pub fn prefer_huge_pages(buffer: *const u8, len: usize) {
    extern "C" {
        /// The C library's `int madvise(void *addr, size_t length, int advice)`.
        fn madvise(
            addr: *mut std::ffi::c_void,
            length: usize,
            advice: std::ffi::c_int,
        ) -> std::ffi::c_int;
    }
    /// `MADV_HUGEPAGE` of Linux.
    const MADV_HUGEPAGE: std::ffi::c_int = 14;
    let start = (buffer as usize).next_multiple_of(HUGE_PAGE);
    let end = (buffer as usize).saturating_add(len) / HUGE_PAGE * HUGE_PAGE;
    if end > start {
        // SAFETY: the declaration matches the C library's prototype. The range lies
        // inside a buffer that the caller owns, and MADV_HUGEPAGE changes how its
        // pages are backed, never what they hold: no memory is read or written.
        unsafe {
            madvise(start as *mut std::ffi::c_void, end - start, MADV_HUGEPAGE);
        }
    }
}

/// Other systems place pages their own way.
#[cfg(not(target_os = "linux"))]
pub fn prefer_huge_pages(_buffer: *const u8, _len: usize) {}

/// How far the allocator's heap grows at a time once games are being created: far
/// enough that most of each step's 2 MiB blocks are untouched when `follow_heap` marks
/// them, so that they fault in as huge pages. Only touched pages count as memory used.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const HEAP_STEP: usize = 64 << 20;

/// Backs the allocator's heap, from here on, with huge pages where it can: the histories
/// of many games lie there, and every move reads the ends of one, far from the last
/// move's (see `prefer_huge_pages`). Called as each game is created: the first call has
/// the heap grow by `HEAP_STEP` at a time; each later call marks what the heap has grown
/// by since the call before, most of it not yet touched.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn follow_heap() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    extern "C" {
        /// glibc's `void *sbrk(intptr_t increment)`; with 0, the heap's current end.
        fn sbrk(increment: isize) -> *mut std::ffi::c_void;
        /// glibc's `int mallopt(int param, int value)`.
        fn mallopt(param: std::ffi::c_int, value: std::ffi::c_int) -> std::ffi::c_int;
    }
    /// glibc's `M_TOP_PAD`: how much more than asked the heap grows by.
    const M_TOP_PAD: std::ffi::c_int = -2;
    /// The heap's end at the last call; 0 before the first.
    static SEEN: AtomicUsize = AtomicUsize::new(0);
    // SAFETY: the declaration matches glibc's prototype; with an increment of 0, sbrk
    // changes nothing and returns the end of the heap.
    let end = unsafe { sbrk(0) } as usize;
    let seen = SEEN.swap(end, Ordering::Relaxed);
    if seen == 0 {
        // SAFETY: the declaration matches glibc's prototype; M_TOP_PAD only sets how
        // much the allocator asks the system for, under its own lock.
        unsafe {
            mallopt(M_TOP_PAD, HEAP_STEP as std::ffi::c_int);
        }
    } else if end > seen {
        prefer_huge_pages(seen as *const u8, end - seen);
    }
}

/// Other allocators keep their own heaps.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn follow_heap() {}
