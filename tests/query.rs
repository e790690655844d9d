//! `arbiter --pgn --where` and the other questions: golden runs of every field,
//! operator, condition, edit and output (tests/golden-query, whose command lines are
//! quoted as a shell quotes them), and the same bytes whatever `--jobs` is.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::protocol::TempPgn;

const BIN: &str = env!("CARGO_BIN_EXE_arbiter");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The words of a command line quoted as a POSIX shell quotes them: `'...'` keeps
/// everything, `"..."` all but `\"` and `\\`.
pub fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' if matches!(chars.peek(), Some('"') | Some('\\')) => {
                            word.extend(chars.next());
                        }
                        c => word.push(c),
                    }
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

fn run(args: &[String]) -> std::process::Output {
    Command::new(BIN)
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .expect("run arbiter")
}

/// One run as a golden file writes it: the command line, stdout, stderr, exit status.
fn render(line: &str) -> String {
    let output = run(&shell_words(line));
    format!(
        "$ arbiter {line}\n{}--- stderr\n{}--- exit {}\n",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
        output
            .status
            .code()
            .map_or("signal".to_string(), |c| c.to_string())
    )
}

#[test]
fn golden_runs_of_every_question() {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("tests/golden-query"))
        .expect("tests/golden-query")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 20, "only {} golden runs", paths.len());
    let mut failures = Vec::new();
    for path in &paths {
        let expected = std::fs::read_to_string(path).expect("read golden run");
        let line = expected
            .lines()
            .next()
            .and_then(|line| line.strip_prefix("$ arbiter "))
            .expect("first line: $ arbiter <args>");
        let actual = render(line);
        if actual != expected {
            failures.push(format!(
                "{} differs (scripts/golden --bless rewrites it):\n--- expected\n{expected}--- actual\n{actual}",
                path.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn words_split_as_a_shell_splits_them() {
    assert_eq!(
        shell_words(r#"--pgn --where 'a = "b c"' "x \" y" z"#),
        vec!["--pgn", "--where", "a = \"b c\"", "x \" y", "z"]
    );
}

/// The games of tests/data/pgn, many times over: enough for several batches.
fn many_games() -> TempPgn {
    let data = root().join("tests/data/pgn");
    let mut text = String::new();
    for name in ["query.pgn", "lenient.pgn", "refused.pgn", "chess960.pgn"] {
        let bytes = std::fs::read(data.join(name)).expect("test PGN");
        text.push_str(&String::from_utf8_lossy(&bytes));
        text.push_str("\n\n");
    }
    TempPgn::new("query-many", text.repeat(400).as_bytes())
}

#[test]
fn every_job_count_answers_a_question_byte_for_byte_the_same() {
    let corpus = many_games();
    let file = corpus.path();
    let questions = [
        "player ~ \"carlsen\" or n < 40",
        "end = checkmate and plies < 30",
        "reach(material ~ \"KQkq\" and ply <= 6) and not eco = \"\"",
    ];
    for question in questions {
        for to in ["check", "pgn", "uci", "epd", "tsv", "json"] {
            let args = |jobs: &str| -> Vec<String> {
                [
                    "--pgn", "--where", question, "--to", to, "--jobs", jobs, &file,
                ]
                .map(String::from)
                .to_vec()
            };
            let one = run(&args("1"));
            let two = run(&args("2"));
            assert_eq!(one.stdout, two.stdout, "{question} --to {to}: stdout");
            assert_eq!(one.stderr, two.stderr, "{question} --to {to}: stderr");
        }
    }
}

#[test]
fn every_line_of_the_opening_data_replays() {
    let lines = arbiter::query::openings::lines().count();
    assert_eq!(lines, 3807);
    for (eco, name, moves) in arbiter::query::openings::lines() {
        assert!(
            arbiter::query::openings::replay(&moves).is_some(),
            "{eco} {name}: {moves:?}"
        );
    }
}

/// A quick slice of a python-chess cross-check script (`scripts/<script>`) over `games`
/// games: it must pass with no disagreement. Without python-chess it skips as
/// `reference::skip` says (a failure in CI).
fn python_check(script: &str, games: usize) {
    let Some(python) = crate::reference::python_with("chess.pgn") else {
        crate::reference::skip(
            script,
            "python-chess is not importable",
            "pip install chess",
        );
        return;
    };
    let out = Command::new(python)
        .arg(root().join("scripts").join(script))
        .args(["--games", &games.to_string(), "--bin", BIN])
        .output()
        .unwrap_or_else(|e| panic!("run scripts/{script}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains(&format!("games {games} disagreements 0 ")),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The python-chess cross-check of the questions (`scripts/query-python-check`).
#[test]
fn python_chess_answers_the_questions_alike() {
    python_check("query-python-check", 120);
}

/// The games of the edits' test files, many times over: annotated games, results to
/// repair, broken games and duplicates, in several batches.
fn games_to_edit(test: &str) -> TempPgn {
    let data = root().join("tests/data/pgn");
    let mut text = String::new();
    for name in [
        "edits.pgn",
        "dups.pgn",
        "query.pgn",
        "refused.pgn",
        "after-draw.pgn",
    ] {
        let bytes = std::fs::read(data.join(name)).expect("test PGN");
        text.push_str(&String::from_utf8_lossy(&bytes));
        text.push_str("\n\n");
    }
    // One file per test: tests run side by side, and a file goes when its test ends.
    TempPgn::new(&format!("query-edits-{test}"), text.repeat(300).as_bytes())
}

/// One run with stdin from `input` (a file's bytes) or null.
fn run_fed(args: &[String], input: Option<&[u8]>) -> std::process::Output {
    use std::io::Write;
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(root())
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arbiter");
    if let Some(input) = input {
        let mut stdin = child.stdin.take().expect("stdin");
        let input = input.to_vec();
        std::thread::spawn(move || stdin.write_all(&input));
    }
    child.wait_with_output().expect("wait for arbiter")
}

#[test]
fn every_job_count_makes_the_same_edits_byte_for_byte() {
    let corpus = games_to_edit("edits");
    let file = corpus.path();
    let bytes = std::fs::read(&file).expect("read corpus");
    let edits: [&[&str]; 9] = [
        &["--to", "pgn", "--strip", "comments"],
        &["--to", "pgn", "--strip", "nags"],
        &["--to", "pgn", "--strip", "variations"],
        &["--to", "pgn", "--strip", "clocks"],
        &["--to", "pgn", "--add", "eco,opening,plycount"],
        &["--to", "pgn", "--fix-results"],
        &["--fix-results"],
        &["--to", "tsv", "--fix-results", "--fields", "n,result,eco"],
        &[
            "--to",
            "pgn",
            "--fix-results",
            "--strip",
            "comments,nags,variations,clocks",
            "--add",
            "plycount",
            "--keep-broken",
        ],
    ];
    for edit in edits {
        for stdin in [false, true] {
            let args = |jobs: &str| -> Vec<String> {
                let mut args: Vec<String> = ["--pgn", "--jobs", jobs].map(String::from).to_vec();
                args.extend(edit.iter().map(|s| s.to_string()));
                if !stdin {
                    args.push(file.clone());
                }
                args
            };
            let input = stdin.then_some(&bytes[..]);
            let one = run_fed(&args("1"), input);
            let two = run_fed(&args("2"), input);
            assert!(!one.stdout.is_empty(), "{edit:?}");
            assert_eq!(one.stdout, two.stdout, "{edit:?} stdin {stdin}: stdout");
            assert_eq!(one.stderr, two.stderr, "{edit:?} stdin {stdin}: stderr");
            assert_eq!(one.status.code(), two.status.code(), "{edit:?}");
        }
    }
}

#[test]
fn every_job_count_writes_the_same_duplicates() {
    let corpus = games_to_edit("duplicates");
    let file = corpus.path();
    let bytes = std::fs::read(&file).expect("read corpus");
    let dir = std::env::temp_dir();
    for stdin in [false, true] {
        let mut written = Vec::new();
        for jobs in ["1", "2"] {
            let dups = dir.join(format!("arbiter-dups-{}-{jobs}.pgn", std::process::id()));
            let mut args: Vec<String> = ["--pgn", "--to", "uci", "--jobs", jobs, "--dups"]
                .map(String::from)
                .to_vec();
            args.push(dups.display().to_string());
            if !stdin {
                args.push(file.clone());
            }
            let out = run_fed(&args, stdin.then_some(&bytes[..]));
            let text = std::fs::read(&dups).expect("the duplicates' file");
            let _ = std::fs::remove_file(&dups);
            written.push((out.stdout, out.stderr, text));
        }
        assert!(!written[0].2.is_empty());
        assert_eq!(written[0], written[1], "stdin {stdin}");
    }
}

/// `--dups` implies `--dedup`, and its file holds each dropped game as it was read, in
/// input order, read back by arbiter as those games.
#[test]
fn the_duplicates_file_holds_the_dropped_games_as_read() {
    let dups = std::env::temp_dir().join(format!("arbiter-dups-{}.pgn", std::process::id()));
    let mut args: Vec<String> = ["--pgn", "--dups"].map(String::from).to_vec();
    args.push(dups.display().to_string());
    args.push("tests/data/pgn/dups.pgn".to_string());
    let out = run(&args);
    let text = std::fs::read_to_string(&dups).expect("the duplicates' file");
    let _ = std::fs::remove_file(&dups);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("duplicates 2"),
        "{out:?}"
    );
    let games: Vec<&str> = text.split("\n\n[").collect();
    assert_eq!(games.len(), 2, "{text}");
    assert!(text.starts_with("[Event \"Same moves, other tags and comments\"]\n"));
    assert!(text.contains("1. e4 { best } e5 2. Qh5 Nc6 (2... g6) 3. Bc4 Nf6 4. Qxf7# 1-0\n"));
    assert!(text.contains("[Event \"Other moves again\"]"));
    assert!(text.ends_with("*\n\n"));
}

#[test]
fn the_duplicates_file_is_never_an_input() {
    let out = run(&[
        "--pgn",
        "--dups",
        "tests/data/pgn/dups.pgn",
        "tests/data/pgn/dups.pgn",
    ]
    .map(String::from));
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let input = std::fs::read_to_string(root().join("tests/data/pgn/dups.pgn")).expect("read");
    assert!(input.contains("Other moves again"), "the input is intact");
}

/// The python-chess cross-check of the edits (`scripts/edits-python-check`).
#[test]
fn python_chess_reads_the_edited_games_alike() {
    python_check("edits-python-check", 100);
}
