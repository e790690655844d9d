//! Arbitrary bytes as a stream of protocol lines, fed to a `Session`.
//!
//! Invariants: no panic and no hang (lines asking for perft deeper than 2 are dropped
//! first: they are slow by design, not hangs); the whole stream runs through `Runner`
//! (line splitting, UTF-8 and length checks); and line by line, as the contract says:
//! - a blank line or `#` comment answers nothing; `position`, `ucinewgame` and
//!   `setoption` answer nothing or one error; every other command answers or errs;
//! - an error is exactly one line `error <code> <message>`, and the state after it
//!   (`fen`, `d`, `history`, `status`, the base position, the Chess960 option and the
//!   repetition count) equals the state before it;
//! - queries change nothing; `legal <text>` never answers an error;
//! - no answer line ends in a blank;
//! - a line with a request id is answered exactly once (`ok` for a silent command);
//! - versions never come back (see `checks::session` for the whole list).
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::session(data));
