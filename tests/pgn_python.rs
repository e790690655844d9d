//! The python-chess cross-check of `pgn` (`scripts/pgn-python-check`): a quick slice of
//! it in the default run, through the real binary. Without python-chess it skips as
//! `reference::skip` says (a failure in CI).

use std::path::Path;
use std::process::Command;

use crate::reference::{python_with, skip};

const BIN: &str = env!("CARGO_BIN_EXE_arbiter");

/// Games in the slice: about a second and a half on an idle core.
const GAMES: &str = "30";

#[test]
fn python_chess_reads_every_pgn_answer_alike() {
    let Some(python) = python_with("chess.pgn") else {
        skip(
            "pgn-python-check",
            "python-chess is not importable",
            "pip install chess",
        );
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/pgn-python-check");
    let out = Command::new(python)
        .arg(script)
        .args(["--games", GAMES, "--bin", BIN])
        .output()
        .expect("run scripts/pgn-python-check");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains(&format!("games {GAMES} ")) && stdout.contains(" disagreements 0 "),
        "{stdout}"
    );
}
