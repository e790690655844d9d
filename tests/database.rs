//! `arbiter --pgn`: golden runs of every `--to` mode over the PGN files of
//! tests/data/pgn, the same answers whatever `--jobs` is, exit statuses, a reader that
//! goes away, and memory that stays flat however long the input.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;

use crate::limits::proc_kib;
use crate::protocol::run_arbiter;

const BIN: &str = env!("CARGO_BIN_EXE_arbiter");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One run as a golden file writes it: the command line, stdout, stderr, exit status.
fn render(args: &str) -> String {
    let output = Command::new(BIN)
        .args(args.split_whitespace())
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .expect("run arbiter");
    format!(
        "$ arbiter {args}\n{}--- stderr\n{}--- exit {}\n",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
        output
            .status
            .code()
            .map_or("signal".to_string(), |c| c.to_string())
    )
}

#[test]
fn golden_runs_of_every_mode() {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("tests/golden-pgn"))
        .expect("tests/golden-pgn")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 8, "only {} golden runs", paths.len());
    let mut failures = Vec::new();
    for path in &paths {
        let expected = std::fs::read_to_string(path).expect("read golden run");
        let args = expected
            .lines()
            .next()
            .and_then(|line| line.strip_prefix("$ arbiter "))
            .expect("first line: $ arbiter <args>");
        let actual = render(args);
        if actual != expected {
            failures.push(format!(
                "{} differs (scripts/golden --bless rewrites it):\n--- expected\n{expected}--- actual\n{actual}",
                path.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Games of every kind, some broken, for runs that must agree.
fn mixed_games(copies: usize) -> String {
    let data = root().join("tests/data/pgn");
    let mut one = String::new();
    for name in ["lenient.pgn", "refused.pgn", "chess960.pgn"] {
        let text = std::fs::read(data.join(name)).expect("test PGN");
        one.push_str(&String::from_utf8_lossy(&text));
        one.push_str("\n\n");
    }
    // The unterminated comment of refused.pgn's last game ends at the next Event tag.
    one.repeat(copies)
}

#[test]
fn every_job_count_answers_byte_for_byte_the_same() {
    let input = mixed_games(200);
    for to in ["check", "pgn", "uci", "epd"] {
        let one = run_arbiter(&["--pgn", "--to", to, "--jobs", "1"], input.clone()).0;
        assert_eq!(one.code, Some(1), "broken games make the exit status 1");
        assert!(!one.stdout.is_empty());
        for jobs in ["2", "3", "8"] {
            let many = run_arbiter(&["--pgn", "--to", to, "--jobs", jobs], input.clone()).0;
            assert!(
                one.stdout == many.stdout,
                "--to {to} --jobs {jobs}: stdout differs"
            );
            assert_eq!(one.stderr, many.stderr, "--to {to} --jobs {jobs}: stderr");
            assert_eq!(one.code, many.code);
        }
    }
}

/// A regular file is cut into runs as it is read (no reading thread): several runs'
/// worth of games give the answers of one job, as stdin does.
#[test]
fn a_file_cut_as_it_is_read_answers_as_one_job_does() {
    let input = mixed_games(1000);
    assert!(input.len() > 3 * 512 * 1024, "only {} bytes", input.len());
    let path = std::env::temp_dir().join(format!("arbiter-runs-{}.pgn", std::process::id()));
    std::fs::write(&path, &input).expect("write the test file");
    let file = path.to_string_lossy().to_string();
    for to in ["check", "uci"] {
        let piped = run_arbiter(&["--pgn", "--to", to, "--jobs", "1"], input.clone()).0;
        for jobs in ["1", "2", "3"] {
            let run = run_arbiter(&["--pgn", "--to", to, "--jobs", jobs, &file], String::new()).0;
            assert!(
                piped.stdout == run.stdout,
                "--to {to} --jobs {jobs}: stdout differs"
            );
            assert_eq!(piped.stderr, run.stderr, "--to {to} --jobs {jobs}: stderr");
            assert_eq!(piped.code, run.code);
        }
    }
    let _ = std::fs::remove_file(&path);
}

/// With one job, a broken game's report reaches stderr as soon as the game is read,
/// while the input is still open, as it does with more jobs.
/// Writes `text` to a file of the temporary directory named for `what` and this process.
fn temp_pgn(what: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("arbiter-{what}-{}.pgn", std::process::id()));
    std::fs::write(&path, text).expect("write the test file");
    path
}

/// Several files on several jobs: the workers go from one file to the next, and each
/// verdict names its file as with one job.
#[test]
fn several_files_on_several_jobs_answer_as_one_job_does() {
    let first = temp_pgn("first", &mixed_games(400));
    let second = temp_pgn("second", &mixed_games(7));
    let files = [&first, &second, &first].map(|p| p.to_string_lossy().to_string());
    for to in ["check", "pgn"] {
        let mut args = vec!["--pgn", "--to", to, "--jobs", "1"];
        args.extend(files.iter().map(String::as_str));
        let one = run_arbiter(&args, String::new()).0;
        assert!(one.stdout.contains("arbiter-second-") || to != "check");
        for jobs in ["2", "3"] {
            args[4] = jobs;
            let many = run_arbiter(&args, String::new()).0;
            assert!(
                one.stdout == many.stdout,
                "--to {to} --jobs {jobs}: stdout differs"
            );
            assert_eq!(one.stderr, many.stderr, "--to {to} --jobs {jobs}: stderr");
            assert_eq!(one.code, many.code);
        }
    }
    let _ = std::fs::remove_file(&first);
    let _ = std::fs::remove_file(&second);
}

/// Games over the 1 MiB limit in a file, where it is cut into runs whatever the jobs:
/// refused and, with `--keep-broken`, written whole, as one job reading stdin game by
/// game does.
#[test]
fn a_file_with_games_over_the_limit_answers_as_stdin_does() {
    let game = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n";
    let long = format!(
        "[Event \"long\"]\n\n1. e4 {{{}}} e5 *\n\n",
        "x\n".repeat(600_000)
    );
    let text = [game.repeat(3000), long.clone(), game.repeat(10), long].concat();
    let path = temp_pgn("over-limit", &text);
    let file = path.to_string_lossy().to_string();
    let piped = run_arbiter(&["--pgn", "--to", "uci", "--keep-broken"], text.clone()).0;
    assert_eq!(piped.stderr.matches("game-too-long").count(), 2);
    for jobs in ["1", "2"] {
        let args = [
            "--pgn",
            "--to",
            "uci",
            "--keep-broken",
            "--jobs",
            jobs,
            &file,
        ];
        let run = run_arbiter(&args, String::new()).0;
        assert!(piped.stdout == run.stdout, "--jobs {jobs}: stdout differs");
        assert_eq!(piped.stderr, run.stderr, "--jobs {jobs}: stderr");
    }
    let _ = std::fs::remove_file(&path);
}

/// Games whose tag sections start with Site, Date, FEN or White, their Event tag
/// after those, over several runs' worth of text: a file and stdin, cut into runs
/// however many jobs read them, give the answers of one job (a cut before such an
/// Event tag would leave the tags before it to the run before).
#[test]
fn games_whose_tags_start_with_any_tag_answer_as_one_job_does() {
    let one_copy = std::fs::read_to_string(root().join("tests/data/pgn/tag-order.pgn"))
        .expect("tests/data/pgn/tag-order.pgn");
    let text = format!("{one_copy}\n").repeat(2000);
    assert!(text.len() > 3 * 512 * 1024, "only {} bytes", text.len());
    let path = temp_pgn("tag-order", &text);
    let file = path.to_string_lossy().to_string();
    for to in ["check", "pgn"] {
        let one = run_arbiter(&["--pgn", "--to", to, "--jobs", "1", &file], String::new()).0;
        if to == "check" {
            assert!(
                one.stdout
                    .ends_with("games 20000 ok 18000 errors 2000 plies 46000\n"),
                "{}",
                &one.stdout[one.stdout.len().saturating_sub(200)..]
            );
        }
        for jobs in ["2", "3"] {
            let many = run_arbiter(&["--pgn", "--to", to, "--jobs", jobs, &file], String::new()).0;
            assert!(
                one.stdout == many.stdout,
                "--to {to} --jobs {jobs}: stdout differs"
            );
            assert_eq!(one.stderr, many.stderr, "--to {to} --jobs {jobs}: stderr");
        }
        for jobs in ["1", "2", "3"] {
            let piped = run_arbiter(&["--pgn", "--to", to, "--jobs", jobs], text.clone()).0;
            assert!(
                one.stdout == piped.stdout,
                "stdin, --to {to} --jobs {jobs}: stdout differs"
            );
        }
    }
    let _ = std::fs::remove_file(&path);
}

/// A file or stdin with no line starting `[Event ` for megabytes cannot be cut into
/// runs: its games are read one by one, with the same answers.
#[test]
fn a_file_without_event_tags_answers_as_one_job_does() {
    let text = "[White \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[White \"b\"]\n\n1. e4 Ke7 2. Ke3 *\n\n"
        .repeat(60_000);
    assert!(text.len() > 3 * 1024 * 1024, "only {} bytes", text.len());
    let path = temp_pgn("no-event", &text);
    let file = path.to_string_lossy().to_string();
    let one = run_arbiter(&["--pgn", "--jobs", "1", &file], String::new()).0;
    assert!(one
        .stdout
        .ends_with("games 120000 ok 60000 errors 60000 plies 240000\n"));
    for jobs in ["2", "3"] {
        let many = run_arbiter(&["--pgn", "--jobs", jobs, &file], String::new()).0;
        assert!(one.stdout == many.stdout, "--jobs {jobs}: stdout differs");
        assert_eq!(one.code, many.code);
    }
    // On stdin one job reads game by game in one pass.
    for jobs in ["1", "2", "3"] {
        let piped = run_arbiter(&["--pgn", "--jobs", jobs], text.clone()).0;
        assert!(
            one.stdout == piped.stdout,
            "stdin, --jobs {jobs}: stdout differs"
        );
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn one_job_reports_a_broken_game_as_it_is_reached() {
    let mut child = Command::new(BIN)
        .args(["--pgn", "--to", "uci", "--jobs", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stderr).read_line(&mut line);
        let _ = tx.send(line);
    });
    stdin
        .write_all(b"[Event \"a\"]\n\n1. e4 e5 2. Ke3 *\n\n[Event \"b\"]\n\n1. d4 *\n\n")
        .expect("write");
    stdin.flush().expect("flush");
    let line = rx.recv_timeout(std::time::Duration::from_secs(30));
    drop(stdin);
    let _ = child.wait();
    assert_eq!(
        line.as_deref(),
        Ok("game 1 error illegal-move ply 3 Ke3: a king does not move that way\n")
    );
}

#[test]
fn correct_games_exit_zero() {
    let run = run_arbiter(
        &["--pgn"],
        "[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. d4 *\n",
    )
    .0;
    assert_eq!(
        run.stdout,
        "game 1 ok 2 1-0\ngame 2 ok 1 *\ngames 2 ok 2 errors 0 plies 3\n"
    );
    assert_eq!(run.code, Some(0));
}

#[test]
fn an_unreadable_file_exits_two_and_the_others_are_read() {
    let run = run_arbiter(&["--pgn", "tests/data/pgn/missing.pgn", "-"], "1. e4 *\n").0;
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("cannot read tests/data/pgn/missing.pgn"),
        "{}",
        run.stderr
    );
    assert_eq!(
        run.stdout,
        "game 1 - ok 1 *\ngames 1 ok 1 errors 0 plies 1\n"
    );
}

#[test]
fn pgn_options_without_pgn_are_a_usage_error() {
    let run = run_arbiter(&["--to", "uci"], "").0;
    assert_eq!(run.code, Some(2));
    let run = run_arbiter(&["--pgn", "--jobs", "0"], "").0;
    assert_eq!(run.code, Some(2));
}

#[test]
fn binary_input_is_answered_without_a_crash_or_a_hang() {
    let bytes: Vec<u8> = (0..300_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let run = run_arbiter(&["--pgn"], bytes).0;
    assert_eq!(run.code, Some(1));
    let summary = run.stdout.lines().last().unwrap_or("");
    assert!(summary.starts_with("games "), "{summary}");
    assert!(
        run.stdout.lines().count() < 1000,
        "one error per game found, not per byte"
    );
}

/// Reads the first line of an `--pgn --to epd` run on `child`, checks it is the start
/// position, closes the output and waits: what the run said on stderr, and how it ended.
fn leave_after_the_first_line(
    child: &mut std::process::Child,
) -> (String, std::process::ExitStatus) {
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    stdout.read_line(&mut first).expect("first line");
    assert_eq!(
        first,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n"
    );
    drop(stdout);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("stderr");
    let status = child.wait().expect("wait");
    (stderr, status)
}

#[test]
fn a_reader_that_goes_away_ends_the_run_quietly() {
    let mut child = Command::new(BIN)
        .args(["--pgn", "--to", "epd"])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let feeder = std::thread::spawn(move || {
        let block = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n".repeat(1000);
        for _ in 0..200 {
            if stdin.write_all(block.as_bytes()).is_err() {
                return;
            }
        }
    });
    let (stderr, status) = leave_after_the_first_line(&mut child);
    let _ = feeder.join();
    assert_eq!(stderr, "", "no complaint when the reader leaves");
    assert!(status.code().is_some(), "ended by itself, not by a signal");
}

/// Two jobs on a file whose reader of the output goes away: the workers stop, and the
/// run ends without a complaint.
#[test]
fn a_file_whose_reader_goes_away_ends_the_run_quietly() {
    let path = temp_pgn(
        "gone",
        &"[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n".repeat(200_000),
    );
    let mut child = Command::new(BIN)
        .args(["--pgn", "--to", "epd", "--jobs", "2"])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let (stderr, status) = leave_after_the_first_line(&mut child);
    let _ = std::fs::remove_file(&path);
    assert_eq!(stderr, "", "no complaint when the reader leaves");
    assert_eq!(status.code(), Some(0), "ended by itself, not by a signal");
}

/// Streams `games` games through `--pgn --jobs <jobs>` and returns VmRSS early (half way
/// through), VmRSS late and the peak, in KiB, measured while the process still runs.
/// Early is half way, not sooner: with two jobs the workers' buffers keep growing to
/// their working size over the first many thousand games (at a twentieth RSS read
/// 6-9 MiB, at a quarter 7.5-10 MiB, and it settles near 10.5 MiB), so an earlier
/// reading failed about one run in seven without any leak.
fn memory_while_streaming(games: usize, jobs: &str) -> (u64, u64, u64) {
    let mut child = Command::new(BIN)
        .args(["--pgn", "--jobs", jobs])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let pid = child.id();
    let mut stdin = child.stdin.take().expect("stdin");
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let block_games = 100;
    let writer = std::thread::spawn(move || {
        let game = "[Event \"Rated game\"]\n[Site \"https://example.org/x\"]\n[White \"a\"]\n\
                    [Black \"b\"]\n[Result \"1/2-1/2\"]\n\n1. e4 { [%clk 0:03:00] } 1... e5 \
                    { [%clk 0:03:00] } 2. Nf3 { [%clk 0:02:59] } 2... Nc6 3. Bb5 a6 4. Ba4 \
                    Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 \
                    1/2-1/2\n\n";
        let block = game.repeat(block_games);
        for _ in 0..games / block_games {
            stdin.write_all(block.as_bytes()).expect("write games");
        }
        stdin.flush().expect("flush");
        let _ = done_rx.recv();
        drop(stdin);
    });
    let mut reader = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    let mut early = 0;
    for n in 1..=games {
        line.clear();
        assert!(
            reader.read_line(&mut line).expect("verdict") > 0,
            "stopped at game {n}"
        );
        assert!(line.contains(" ok 20 1/2-1/2"), "{line}");
        if n == games / 2 {
            early = proc_kib(pid, "VmRSS:");
        }
    }
    let late = proc_kib(pid, "VmRSS:");
    let peak = proc_kib(pid, "VmHWM:");
    done_tx.send(()).expect("signal the writer");
    writer.join().expect("writer");
    let mut rest = String::new();
    reader.read_to_string(&mut rest).expect("summary");
    assert_eq!(
        rest,
        format!("games {games} ok {games} errors 0 plies {}\n", games * 20)
    );
    assert_eq!(child.wait().expect("wait").code(), Some(0));
    (early, late, peak)
}

#[test]
fn memory_stays_flat_however_many_games_stream_through() {
    for jobs in ["1", "2"] {
        let (early, late, peak) = memory_while_streaming(60_000, jobs);
        eprintln!("--jobs {jobs}: VmRSS {early} KiB early, {late} KiB late, peak {peak} KiB");
        assert!(
            late <= early + 4096 && peak <= early + 8192 && peak < 32 * 1024,
            "--jobs {jobs}: memory grew: {early} KiB early, {late} KiB late, peak {peak} KiB"
        );
    }
}
