//! The web board of examples/web in real browsers: runs tests/web/test_board.py (Python,
//! Selenium, headless Chromium) against the binary cargo built. Where those tools cannot
//! be found the script exits 77 and this test skips with a note, except in CI (`CI=true`),
//! where `.ci/run` installs them and a skip would hide that the browser tests never ran.

use std::path::PathBuf;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_arbiter");
/// The script's "skipped" status (the automake convention).
const SKIPPED: i32 = 77;

#[test]
fn web_board_plays_in_a_real_browser() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let in_ci = std::env::var("CI").is_ok_and(|value| value == "true");
    let run = Command::new("python3")
        .arg(root.join("tests/web/test_board.py"))
        .env("ARBITER_BIN", BIN)
        .current_dir(&root)
        .output();
    let output = match run {
        Ok(output) => output,
        Err(error) if !in_ci => {
            eprintln!("skipped: the browser tests need python3 ({error})");
            return;
        }
        Err(error) => panic!("CI must run the browser tests, but python3 did not start: {error}"),
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    if output.status.code() == Some(SKIPPED) {
        assert!(!in_ci, "CI must run the browser tests, but {stderr}");
        eprint!("{stderr}");
        return;
    }
    assert!(
        output.status.success(),
        "the browser tests failed (exit {:?}):\n{}{stderr}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout)
    );
}
