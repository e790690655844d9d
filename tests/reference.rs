//! The reference tools that cross-checks run against (python-chess, GNU parallel, …).
//! They are test references, not requirements of the build, so a machine without one
//! skips the check; but a skip must never pass unseen. In CI (`CI=true`) a missing tool
//! fails the test, and elsewhere the skip is written straight to the terminal, past the
//! test harness's output capture, which would otherwise hide it in a passing run.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The directories a test tool may live in besides the inherited PATH (Debian puts
/// parallel in /usr/bin, stockfish and pgn-extract in /usr/games).
pub fn search_path() -> String {
    let inherited = std::env::var("PATH").unwrap_or_default();
    format!("{inherited}:/usr/local/bin:/usr/bin:/bin:/usr/games")
}

pub fn find_tool(name: &str) -> Option<PathBuf> {
    search_path()
        .split(':')
        .filter(|dir| !dir.is_empty())
        .map(|dir| Path::new(dir).join(name))
        .find(|path| path.is_file())
}

/// python3, when it can import every module named.
pub fn python_with(modules: &str) -> Option<PathBuf> {
    let python = find_tool("python3")?;
    let probe = Command::new(&python)
        .args(["-c", &format!("import {modules}")])
        .output()
        .ok()?;
    probe.status.success().then_some(python)
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// Says that `check` cannot run because `missing` (installed by `install`): a failure
/// in CI, a visible note elsewhere. The caller returns after it.
pub fn skip(check: &str, missing: &str, install: &str) {
    let note = format!("SKIPPED cross-check {check}: {missing} ({install})");
    assert!(!in_ci(), "{note}: CI must have every reference tool");
    // Straight to the process's stderr: `eprintln!` is captured and shown only on failure.
    let _ = writeln!(std::io::stderr(), "\n{note}");
}

/// Says that the optional `check` cannot run because `missing` (installed by
/// `install`): a visible note, in CI too. For cross-checks whose tools are too heavy to
/// install for every run (PySpark and a Java runtime), which the default run makes only
/// where they are already present.
pub fn skip_optional(check: &str, missing: &str, install: &str) {
    let note = format!(
        "SKIPPED optional cross-check {check}: {missing} ({install}; not installed for every run)"
    );
    let _ = writeln!(std::io::stderr(), "\n{note}");
}
