//! A fixed set of positions (chosen by the first byte) and arbitrary text as SAN.
//! Invariants: no panic; an accepted move is legal, and its own SAN parses back to it;
//! the quick and lean readings of database replay find that move or none.
//! Errors are checked too: an ambiguity names at least two legal candidates.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::san(data));
