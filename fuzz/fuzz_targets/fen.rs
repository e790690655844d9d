//! Arbitrary bytes as a FEN. Invariants: no panic; an accepted FEN prints a FEN that
//! parses back to the same position (exactly, when the en-passant square it keeps is the
//! one the FEN prints), printing is idempotent, and move generation, SAN and the other
//! queries run on it.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::fen(data));
