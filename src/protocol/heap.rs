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
