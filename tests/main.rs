//! One integration-test binary, so the suites link once.

mod database;
mod differential;
mod differential_scale;
mod fuzz_regressions;
mod limits;
mod perft;
mod pgn_docs;
mod pgn_python;
mod pgn_roundtrip;
mod pgn_scripts;
mod properties;
mod protocol;
mod repl;
mod rules;
