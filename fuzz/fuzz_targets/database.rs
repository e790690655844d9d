//! Arbitrary bytes as a game database through `arbiter --pgn`'s runs: checked, written
//! as PGN with and without every edit, as tsv, JSON, UCI and EPD, each read as a file
//! by two workers and as a stream. Invariants: see `checks::database`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::database(data));
