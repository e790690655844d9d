//! One integration-test binary, so the suites link once.

mod differential;
mod perft;
mod protocol;
mod rules;
