//! Arbitrary bytes as a PGN file, through the streaming reader and the replayer that
//! `position pgn` uses. Invariants (see `checks::pgn`): no panic, no hang, the reader
//! always makes progress and ends at the file's end, every game is answered, the games
//! do not depend on how the file is split into reads, and every loaded game written in
//! export format reads back the same.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::pgn(data));
