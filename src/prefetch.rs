//! Asking the processor to bring memory into its cache ahead of use: a process serving
//! many games finds each line's game cold, and the lines waiting in the input buffer say
//! which games come next (see `protocol::ahead`).

/// Starts loading the cache lines of `len` bytes from `ptr`, without waiting for them.
/// Any address may be given: a prefetch never faults and changes no memory.
#[inline]
pub fn prefetch_bytes(ptr: *const u8, len: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let mut offset = 0;
        while offset < len {
            // SAFETY: PREFETCHT0 is a hint in SSE, which every x86_64 processor has; it
            // reads and writes no memory and never faults, whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(ptr.wrapping_add(offset).cast()) };
            offset += 64;
        }
        // The last line, when the span straddles one more than len / 64 lines.
        if len > 0 {
            // SAFETY: as above.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(ptr.wrapping_add(len - 1).cast()) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (ptr, len);
    }
}
