//! `arbiter --pgn --where` and the other questions: golden runs of every field,
//! operator, condition, edit and output (tests/golden-query, whose command lines are
//! quoted as a shell quotes them), and the same bytes whatever `--jobs` is.

use std::path::PathBuf;
use std::process::{Command, Stdio};

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
fn many_games() -> PathBuf {
    let data = root().join("tests/data/pgn");
    let mut text = String::new();
    for name in ["query.pgn", "lenient.pgn", "refused.pgn", "chess960.pgn"] {
        let bytes = std::fs::read(data.join(name)).expect("test PGN");
        text.push_str(&String::from_utf8_lossy(&bytes));
        text.push_str("\n\n");
    }
    let path = std::env::temp_dir().join(format!("arbiter-query-{}.pgn", std::process::id()));
    std::fs::write(&path, text.repeat(400)).expect("write corpus");
    path
}

#[test]
fn every_job_count_answers_a_question_byte_for_byte_the_same() {
    let path = many_games();
    let file = path.display().to_string();
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
    let _ = std::fs::remove_file(&path);
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

/// The python-chess cross-check of the questions (`scripts/query-python-check`): a quick
/// slice of it. Without python-chess it skips as `reference::skip` says (a failure in CI).
#[test]
fn python_chess_answers_the_questions_alike() {
    let Some(python) = crate::reference::python_with("chess.pgn") else {
        crate::reference::skip(
            "query-python-check",
            "python-chess is not importable",
            "pip install chess",
        );
        return;
    };
    let out = Command::new(python)
        .arg(root().join("scripts/query-python-check"))
        .args(["--games", "120", "--bin", BIN])
        .output()
        .expect("run scripts/query-python-check");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("games 120 disagreements 0 "),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
