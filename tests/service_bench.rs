//! `scripts/bench-service --quick` through the binary cargo built: the benchmark of
//! arbiter as a game server's rules service (1, 16 and 256 requests in flight over one
//! pipe, `if <version> move ... as <colour>` then `state`, every answer checked by the
//! script) runs end to end, so that it cannot rot between the runs that take figures.
//! It needs python3 alone (the standard library); without it the test skips as
//! `reference::skip` says.

use std::path::PathBuf;
use std::process::Command;

use crate::reference::{python_with, skip};

const BIN: &str = env!("CARGO_BIN_EXE_arbiter");

#[test]
fn bench_service_quick_plays_every_move_and_checks_every_answer() {
    let Some(python) = python_with("json, resource, select") else {
        skip(
            "bench-service",
            "python3 is not on the path",
            "install Python 3",
        );
        return;
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new(python)
        .arg(root.join("scripts/bench-service"))
        .args(["--quick", "--bin", BIN])
        .current_dir(&root)
        .output()
        .expect("run scripts/bench-service");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let shown = format!(
        "exit {:?}\n--- stdout\n{stdout}--- stderr\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{shown}");
    // The summary: measurements, moves and requests. An exit status alone would pass a
    // run that measured nothing. Every measurement plays 64 games of 8 plies unless the
    // board ends one first, and each move is followed by its state: two requests a move.
    let counts: Vec<u64> = stdout
        .lines()
        .find_map(|line| {
            line.strip_prefix("bench-service: ")
                .filter(|rest| rest.ends_with("every answer checked, 0 errors"))
        })
        .map(|rest| {
            rest.split(|c: char| !c.is_ascii_digit())
                .filter_map(|n| n.parse().ok())
                .collect()
        })
        .unwrap_or_default();
    let [measurements, moves, requests, 0] = counts[..] else {
        panic!("no summary line:\n{shown}");
    };
    assert!(
        measurements >= 3,
        "fewer measurements than in-flight counts:\n{shown}"
    );
    assert!(
        moves > measurements * 64 * 6 && moves <= measurements * 64 * 8,
        "moves outside what 64 games of 8 plies play:\n{shown}"
    );
    assert_eq!(requests, 2 * moves, "a state after every move:\n{shown}");
}
