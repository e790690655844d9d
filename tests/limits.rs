//! Hard inputs through the `arbiter` binary, beyond the protocol suite: millions of
//! commands through one process with flat memory, the position with the most legal moves
//! known, a real `| head -1` pipeline, and bad bytes or EOF in the last, unterminated line.
//!
//! The ten-million-command run is `#[ignore]`d (about 25 s); the default run streams
//! one million.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::Command;
use std::sync::mpsc;

use arbiter::position::Position;

use crate::protocol::{run_arbiter, spawn_arbiter};

const BIN: &str = env!("CARGO_BIN_EXE_arbiter");

/// The position with 218 legal moves, the most known to be possible.
const MAX_MOVES_FEN: &str = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1";

/// Runs `arbiter` on `input`, which it must read to the end; (stdout, stderr, exit code).
fn run(input: &[u8]) -> (String, String, Option<i32>) {
    let (run, written) = run_arbiter(&[], input);
    written.expect("write stdin");
    (run.stdout, run.stderr, run.code)
}

/// A field of /proc/<pid>/status, in KiB.
pub(crate) fn proc_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    status
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/{pid}/status"))
}

/// One cycle of commands, each answering exactly one line except the silent `position`;
/// it plays, takes back, replaces the game and fails, so every kind of state change
/// happens millions of times.
const CYCLE: &[&str] = &[
    "isready",
    "fen",
    "moves",
    "position startpos moves e2e4 e7e5",
    "move g1f3",
    "status",
    "undo",
    "legal e1e8",
    "move e9e9",
    "history",
];
const ANSWERS_PER_CYCLE: u64 = 9;

/// Streams `commands` commands through one process and checks that its resident memory
/// at the end (peak included) stays within a small bound of what it was early on.
fn stream_commands(commands: u64) {
    let mut child = spawn_arbiter(&[]);
    let pid = child.id();
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let cycles = commands / CYCLE.len() as u64;
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let writer = std::thread::spawn(move || {
        let mut block = String::new();
        for _ in 0..1000 {
            for command in CYCLE {
                block.push_str(command);
                block.push('\n');
            }
        }
        let mut written = 0;
        while written < cycles {
            let n = (cycles - written).min(1000);
            let bytes = if n == 1000 {
                block.as_bytes()
            } else {
                let per_cycle = block.len() / 1000;
                &block.as_bytes()[..per_cycle * n as usize]
            };
            stdin.write_all(bytes).expect("write commands");
            written += n;
        }
        stdin.flush().expect("flush");
        // Keep stdin open until the reader has measured the memory at the end.
        let _ = done_rx.recv();
        drop(stdin);
    });

    let expected = cycles * ANSWERS_PER_CYCLE;
    let mut reader = BufReader::with_capacity(1 << 20, stdout);
    let mut line = String::new();
    let mut answers = 0u64;
    let mut errors = 0u64;
    let mut early_rss = 0;
    while answers < expected {
        line.clear();
        let n = reader.read_line(&mut line).expect("read answer");
        assert!(
            n > 0,
            "arbiter stopped after {answers} of {expected} answers"
        );
        answers += 1;
        if line.starts_with("error ") {
            errors += 1;
        }
        if answers == expected / 20 {
            early_rss = proc_kib(pid, "VmRSS:");
        }
    }
    let late_rss = proc_kib(pid, "VmRSS:");
    let peak = proc_kib(pid, "VmHWM:");
    done_tx.send(()).expect("signal the writer");
    writer.join().expect("writer");
    let mut rest = String::new();
    reader.read_to_string(&mut rest).expect("read the rest");
    let status = child.wait().expect("wait");
    assert_eq!(rest, "", "answers beyond the expected ones");
    assert_eq!(errors, cycles, "one error (move e9e9) per cycle");
    assert_eq!(
        status.code(),
        Some(1),
        "an error was answered, so the exit status is 1"
    );
    eprintln!(
        "{commands} commands, {answers} answers: VmRSS {early_rss} KiB early, \
         {late_rss} KiB at the end, peak {peak} KiB"
    );
    assert!(
        late_rss <= early_rss + 4096 && peak <= early_rss + 8192,
        "memory grew: {early_rss} KiB early, {late_rss} KiB at the end, peak {peak} KiB"
    );
}

#[test]
fn a_million_commands_run_in_flat_memory() {
    stream_commands(1_000_000);
}

#[test]
#[ignore = "ten million commands take about 25 s; run with --ignored"]
fn ten_million_commands_run_in_flat_memory() {
    stream_commands(10_000_000);
}

#[test]
fn go_perft_on_the_position_with_218_moves() {
    let pos = Position::from_fen(MAX_MOVES_FEN).expect("valid FEN");
    let input = format!("position fen {MAX_MOVES_FEN}\ngo perft 1\nperft 2\nmoves\n");
    let (out, err, code) = run(input.as_bytes());
    assert_eq!((err.as_str(), code), ("", Some(0)));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 218 + 2 + 2, "{out}");
    let divide = &lines[..218];
    assert!(divide.iter().all(|l| l.ends_with(": 1")), "{out}");
    let mut sorted = divide.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted, divide, "root moves ascending and distinct");
    assert_eq!(&lines[218..220], ["", "Nodes searched: 218"]);
    // The count at depth 2 from shakmaty, an independent implementation.
    let theirs: shakmaty::Chess = MAX_MOVES_FEN
        .parse::<shakmaty::fen::Fen>()
        .expect("shakmaty FEN")
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("shakmaty position");
    let depth2 = shakmaty::perft(&theirs, 2);
    assert_eq!(lines[220], format!("perft 2 {depth2}"));
    assert_eq!(arbiter::perft::perft(&pos, 2), depth2);
    let moves: Vec<&str> = lines[221].split(' ').collect();
    assert_eq!(moves[0], "moves");
    assert_eq!(moves.len(), 219);
}

/// Through a real shell pipeline: the reader (`head -1`) leaves after one line while
/// arbiter has a million more answers to write.
#[test]
fn a_pipeline_into_head_ends_quietly() {
    let script = format!(
        "yes moves | head -n 1000000 | {BIN} 2>\"$ERR\" | head -1; \
         echo \"status ${{PIPESTATUS[2]}}\""
    );
    let err = std::env::temp_dir().join(format!("arbiter-head-{}.err", std::process::id()));
    let output = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .env("ERR", &err)
        .output()
        .expect("bash");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = std::fs::read_to_string(&err).unwrap_or_default();
    let _ = std::fs::remove_file(&err);
    let mut lines = stdout.lines();
    assert!(
        lines.next().is_some_and(|l| l.starts_with("moves a2a3 ")),
        "{stdout}"
    );
    assert_eq!(stderr, "", "arbiter wrote to stderr");
    // 0: it saw EPIPE and exited; 141 (SIGPIPE) would also be a quiet end, but not a
    // panic (101) or an error exit.
    let status = lines.next().unwrap_or_default();
    assert!(
        status == "status 0" || status == "status 141",
        "{status}: {stdout}"
    );
}

#[test]
fn the_unterminated_last_line_is_answered_whatever_it_holds() {
    // A plain command, invalid UTF-8, a NUL byte and an over-long line, each as the last
    // line of the input without its newline.
    let long = format!("isready\n{}", "x".repeat((1 << 20) + 1));
    let cases: [(&[u8], &str); 5] = [
        (b"isready\nturn", "readyok\nturn white\n"),
        (b"isready\r\nturn\r", "readyok\nturn white\n"),
        (
            b"isready\n\xc3",
            "readyok\nerror bad-input the line is not valid UTF-8 and was skipped\n",
        ),
        (
            b"isready\nfen\x00",
            "readyok\nerror bad-input the line holds a control character and was skipped\n",
        ),
        (
            long.as_bytes(),
            "readyok\nerror line-too-long the line is longer than 1048576 bytes and was skipped\n",
        ),
    ];
    for (input, expected) in cases {
        let (out, err, _) = run(input);
        assert_eq!(
            out,
            expected,
            "input {:?}",
            String::from_utf8_lossy(&input[..input.len().min(40)])
        );
        assert_eq!(err, "");
    }
}

#[test]
fn control_and_non_utf8_bytes_never_stop_the_answers() {
    // Every control byte but the newline, and every byte that cannot start a UTF-8
    // character on its own, alone on a line between two commands.
    let bytes: Vec<u8> = (0..=255u8)
        .filter(|&b| b != b'\n' && !(0x20..0x7f).contains(&b))
        .collect();
    let mut input = Vec::new();
    for &byte in &bytes {
        input.extend_from_slice(b"isready\n");
        input.push(byte);
        input.extend_from_slice(b"\nturn\n");
    }
    let (out, err, code) = run(&input);
    assert_eq!(err, "");
    assert_eq!(code, Some(1));
    let lines: Vec<&str> = out.lines().collect();
    let mut i = 0;
    for &byte in &bytes {
        assert_eq!(lines[i], "readyok", "before byte {byte:#04x}");
        i += 1;
        // A tab answers nothing, like an empty line, and so does a carriage return
        // (it ends the line, as in CRLF); any other byte is bad input, a vertical tab
        // and a form feed included.
        if byte != b'\t' && byte != b'\r' {
            assert!(
                lines[i].starts_with("error bad-input "),
                "byte {byte:#04x}: {}",
                lines[i]
            );
            i += 1;
        }
        assert_eq!(lines[i], "turn white", "after byte {byte:#04x}");
        i += 1;
    }
    assert_eq!(i, lines.len());
}

/// A legal game of 10,000 plies that no rule ends (`scripts/gen-long-game --seed 1`).
const LONG_GAME: &str = include_str!("data/long-game-10000.uci");

/// Its final position, as python-chess plays the moves.
const LONG_GAME_FEN: &str = "8/7P/8/3p2K1/p2P4/P7/7B/2k5 w - - 23 5001";

fn long_game_line(name: &str) -> String {
    format!("game {name} position startpos moves {}\n", LONG_GAME.trim())
}

/// The longest game a server is documented to hold: replayed, still active, and its
/// `state` (about 128 KiB on one line) restored byte for byte in a fresh process.
#[test]
fn a_ten_thousand_ply_game_is_served_and_restored() {
    let input = format!(
        "{}game long fen\ngame long status\ngame long state\n",
        long_game_line("long")
    );
    let (out, err, code) = run(input.as_bytes());
    assert_eq!((err.as_str(), code), ("", Some(0)));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], format!("game long fen {LONG_GAME_FEN}"));
    assert_eq!(lines[1], "game long status active");
    let state = lines[2]
        .strip_prefix("game long state ")
        .expect("a state answer");
    assert!(state.len() < 192 << 10, "state of {} bytes", state.len());
    let again = format!("game long restore {state}\ngame long state\n");
    let (out, err, code) = run(again.as_bytes());
    assert_eq!((err.as_str(), code), ("", Some(0)));
    assert_eq!(out, format!("{}\n", lines[2]));
}

/// Memory per game grows with its length by about sixteen bytes a ply: fifty games of
/// 10,000 plies stay under 256 KiB each.
#[test]
fn a_ten_thousand_ply_game_takes_under_256_kib() {
    const GAMES: u64 = 50;
    let mut child = spawn_arbiter(&[]);
    let pid = child.id();
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut sync = |stdin: &mut std::process::ChildStdin| {
        stdin.write_all(b"isready\n").expect("write");
        stdin.flush().expect("flush");
        let mut line = String::new();
        stdout.read_line(&mut line).expect("read");
        assert_eq!(line, "readyok\n");
    };
    sync(&mut stdin);
    let before = proc_kib(pid, "VmRSS:");
    for game in 0..GAMES {
        stdin
            .write_all(long_game_line(&format!("g{game}")).as_bytes())
            .expect("write a game");
    }
    sync(&mut stdin);
    let after = proc_kib(pid, "VmRSS:");
    drop(stdin);
    child.wait().expect("wait");
    let per_game = (after - before) / GAMES;
    eprintln!("{GAMES} games of 10,000 plies: {per_game} KiB each");
    assert!(per_game < 256, "{per_game} KiB per game");
}
