//! `position pgn` and `pgn save` open regular files only, never blocking on a FIFO or
//! a device, and never the protocol's own input.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_arbiter");

/// A fresh directory of this test's own.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-own-files-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the lines through the binary; the process must end within five seconds.
fn run(lines: &str) -> String {
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(lines.as_bytes())
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("arbiter blocked on {lines:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let output = child.wait_with_output().unwrap();
    String::from_utf8(output.stdout).unwrap()
}

fn fifo(dir: &std::path::Path) -> String {
    let path = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&path).status().unwrap();
    assert!(made.success());
    path.display().to_string()
}

#[test]
fn a_fifo_is_not_read_and_nothing_blocks() {
    let dir = scratch("read-fifo");
    let fifo = fifo(&dir);
    let out = run(&format!("position pgn {fifo}\nturn\n"));
    assert_eq!(
        out,
        format!("error not-a-regular-file {fifo} is a FIFO, not a regular file: nothing was read or written\nturn white\n")
    );
}

#[test]
fn pgn_save_onto_a_fifo_is_refused_without_blocking() {
    let dir = scratch("save-fifo");
    let fifo = fifo(&dir);
    let out = run(&format!("pgn save {fifo}\nturn\n"));
    assert!(out.starts_with("error not-a-regular-file "), "{out}");
    assert!(out.ends_with("turn white\n"), "{out}");
}

#[test]
fn dev_stdin_is_refused_and_the_next_lines_stay_commands() {
    let out = run("position pgn /dev/stdin\nmove e4\n");
    let first = out.lines().next().unwrap();
    // A pipe is no regular file; either way nothing of the input is read as PGN.
    assert!(
        first.starts_with("error not-a-regular-file /dev/stdin")
            || first.starts_with("error own-input /dev/stdin"),
        "{out}"
    );
    assert!(
        out.lines().nth(1).unwrap().starts_with("played e2e4"),
        "{out}"
    );
}

#[test]
fn the_protocol_input_as_a_regular_file_is_refused() {
    let dir = scratch("own-input");
    let path = dir.join("commands.txt");
    std::fs::write(&path, format!("position pgn {}\nturn\n", path.display())).unwrap();
    let output = Command::new(BIN)
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    let out = String::from_utf8(output.stdout).unwrap();
    assert!(out.starts_with("error own-input "), "{out}");
    assert!(out.ends_with("turn white\n"), "{out}");
}

#[test]
fn a_device_is_refused() {
    let out = run("position pgn /dev/null\npgn save /dev/null\n");
    let codes: Vec<&str> = out.lines().map(|l| l.split(' ').nth(1).unwrap()).collect();
    assert_eq!(codes, ["not-a-regular-file", "not-a-regular-file"], "{out}");
}

#[test]
fn a_directory_is_refused() {
    let dir = scratch("dir");
    let out = run(&format!("position pgn {0}\npgn save {0}\n", dir.display()));
    assert_eq!(
        out.matches("is a directory, not a regular file").count(),
        2,
        "{out}"
    );
}

#[test]
fn a_regular_file_is_written_and_read_back() {
    let dir = scratch("regular");
    let path = dir.join("game.pgn");
    std::fs::write(
        &path,
        "an older, longer text that the save replaces whole\n".repeat(50),
    )
    .unwrap();
    let path = path.display();
    let out = run(&format!(
        "position startpos moves e4 e5\npgn save {path}\nposition pgn {path}\nhistory\n"
    ));
    assert_eq!(out, "history e2e4 e7e5\n");
}
