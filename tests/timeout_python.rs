//! `timeout <colour>` against python-chess's `has_insufficient_material` over 4,000
//! random positions (`scripts/timeout-python-check`), through the real binary. Without
//! python-chess it skips as `reference::skip` says (a failure in CI).

use std::path::Path;
use std::process::Command;

use crate::reference::{python_with, skip};

const BIN: &str = env!("CARGO_BIN_EXE_arbiter");

const POSITIONS: &str = "4000";

#[test]
fn a_flag_fall_is_a_loss_or_a_draw_as_python_chess_counts_material() {
    let Some(python) = python_with("chess") else {
        skip(
            "timeout-python-check",
            "python-chess is not importable",
            "pip install chess",
        );
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/timeout-python-check");
    let out = Command::new(python)
        .arg(script)
        .args(["--positions", POSITIONS, "--bin", BIN])
        .output()
        .expect("run scripts/timeout-python-check");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains(&format!("positions {POSITIONS} ")) && stdout.contains(" disagreements 0 "),
        "{stdout}"
    );
    // Each verdict comes up often enough to prove something.
    for kind in ["draw=", "loss=", "game-over="] {
        let count: usize = stdout
            .split_whitespace()
            .find_map(|word| word.strip_prefix(kind))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        assert!(count >= 200, "{kind} only {count}: {stdout}");
    }
}
