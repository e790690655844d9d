//! The web board of examples/web in real browsers: runs tests/web/test_board.py (Python,
//! Selenium, headless Chromium) against the binary cargo built. Where those tools cannot
//! be found the script exits 77 and this test skips as `reference::skip` says: a failure
//! in CI (`CI=true`), where `.ci/run` installs them, and a visible note elsewhere.

use std::path::PathBuf;
use std::process::Command;

use crate::reference::skip;

const BIN: &str = env!("CARGO_BIN_EXE_arbiter");
/// The script's "skipped" status (the automake convention).
const SKIPPED: i32 = 77;

#[test]
fn web_board_plays_in_a_real_browser() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let run = Command::new("python3")
        .arg(root.join("tests/web/test_board.py"))
        .env("ARBITER_BIN", BIN)
        .current_dir(&root)
        .output();
    let output = match run {
        Ok(output) => output,
        Err(error) => {
            skip(
                "web board",
                &format!("python3 did not start ({error})"),
                "apt-get install python3",
            );
            return;
        }
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    if output.status.code() == Some(SKIPPED) {
        skip(
            "web board",
            stderr.trim(),
            "apt-get install chromium chromium-driver; pip install selenium",
        );
        return;
    }
    assert!(
        output.status.success(),
        "the browser tests failed (exit {:?}):\n{}{stderr}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout)
    );
}
