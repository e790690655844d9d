//! One integration-test binary, so the suites link once.

mod database;
mod differential;
mod differential_scale;
mod ending_model;
mod fuzz_regressions;
mod json_mode;
mod layers;
mod limits;
mod long_work;
mod many_games;
mod own_files;
mod perft;
mod pgn_docs;
mod pgn_python;
mod pgn_results;
mod pgn_roundtrip;
mod pgn_scripts;
mod properties;
mod protocol;
mod query;
mod reference;
mod repl;
mod rules;
mod state_restore;
mod timeout_python;
mod web;
