//! Arbitrary bytes as a `--where` expression (see `checks::query`).
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::query(data));
