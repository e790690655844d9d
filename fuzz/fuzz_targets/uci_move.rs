//! Arbitrary text as a UCI move, matched in a fixed set of positions (chosen by the first
//! byte) in both castling modes. Invariants: no panic; parsed text prints back to an
//! equal `UciMove`; an accepted move is legal, and its own UCI text (in that mode) names
//! it again; a refusal comes with a diagnosis that displays.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::uci_move(data));
