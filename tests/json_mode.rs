//! JSON Lines mode through the real binary: every answer one JSON object on one line,
//! what transcripts cannot show (lines refused before they are commands, ids on answers
//! that arrive out of order), and the README's Python client.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::protocol::{padded_game, run_arbiter, TempPgn};
use crate::reference::{find_tool, skip};

fn objects(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is JSON"))
        .collect()
}

#[test]
fn the_json_flag_starts_in_json_mode_and_the_option_leaves_it() {
    let (run, _) = run_arbiter(
        &["--json"],
        "isready\nsetoption name JSON value false\nisready\n",
    );
    assert_eq!(run.stdout, "{\"answer\":\"isready\"}\nreadyok\n");
}

#[test]
fn every_json_answer_in_the_goldens_is_one_object_naming_its_command() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).expect("tests/golden") {
        let text = std::fs::read_to_string(entry.expect("entry").path()).expect("read");
        for line in text.lines().filter(|l| l.starts_with('{')) {
            let value: Value = serde_json::from_str(line).expect("a JSON line");
            let object = value.as_object().expect("an object");
            // On the raw line: a parsed object's keys come back sorted, not as written.
            assert!(line.starts_with("{\"answer\":"), "{line}");
            if let Some(error) = object.get("error") {
                assert!(error["code"].is_string() && error["message"].is_string());
            }
            seen += 1;
        }
    }
    assert!(seen >= 50, "only {seen} JSON answers in the goldens");
}

#[test]
fn a_line_holding_only_an_id_answers_an_error_carrying_it() {
    let (run, _) = run_arbiter(&["--json"], "@6 # a note\n@7\n@8 isready\n");
    let answers = objects(&run.stdout);
    let found: Vec<(Option<&str>, Option<&str>)> = answers
        .iter()
        .map(|a| (a["id"].as_str(), a["error"]["code"].as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (Some("6"), Some("unknown-command")),
            (Some("7"), Some("unknown-command")),
            (Some("8"), None)
        ]
    );
    // No command, so no "answer" key: as for lines refused before parsing.
    assert!(answers[..2].iter().all(|a| a.get("answer").is_none()));
}

#[test]
fn lines_refused_before_parsing_answer_an_error_without_a_command() {
    let mut input = b"isready\n\xff\nmove e\x004\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', arbiter::protocol::MAX_LINE + 1));
    input.push(b'\n');
    let (run, _) = run_arbiter(&["--json"], input);
    let answers = objects(&run.stdout);
    let codes: Vec<&str> = answers
        .iter()
        .map(|a| a["error"]["code"].as_str().unwrap_or("none"))
        .collect();
    assert_eq!(codes, ["none", "bad-input", "bad-input", "line-too-long"]);
    assert!(answers[1..].iter().all(|a| a.get("answer").is_none()));
    assert_eq!(run.code, Some(1));
}

#[test]
fn the_json_pgn_string_is_the_text_answer_without_its_end_line() {
    let commands = "position startpos moves d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7\n\
                    tag White  A. Player\ntag Opening Queen's Gambit Declined\nresign\npgn\n";
    let (text, _) = run_arbiter(&[], commands);
    let (json, _) = run_arbiter(&["--json"], commands);
    let answers = objects(&json.stdout);
    let pgn = answers.last().expect("the pgn answer");
    assert_eq!(pgn["answer"], "pgn");
    let exported = pgn["pgn"].as_str().expect("a string");
    let text_pgn = text
        .stdout
        .split_once("[Event")
        .map(|(_, rest)| format!("[Event{rest}"))
        .expect("the text pgn answer");
    assert_eq!(format!("{exported}end\n"), text_pgn);
    assert!(exported.contains("[White \"A. Player\"]\n"), "{exported}");
    assert!(exported.ends_with(" 0-1\n"), "{exported}");
}

#[test]
fn a_game_past_the_pgn_limit_is_an_error_object() {
    use arbiter::pgn::stream::MAX_GAME;
    let file = TempPgn::new("json-too-long", &padded_game("Too long", MAX_GAME + 1));
    let (run, _) = run_arbiter(
        &["--json"],
        format!("@big position pgn {}\nhistory\n", file.path()),
    );
    let answers = objects(&run.stdout);
    assert_eq!(answers.len(), 2, "{}", run.stdout);
    assert_eq!(answers[0]["answer"], "position");
    assert_eq!(answers[0]["id"], "big");
    assert_eq!(answers[0]["error"]["code"], "game-too-long");
    assert!(answers[0]["error"]["message"].is_string());
    // Refused, so the game is untouched.
    assert_eq!(answers[1]["moves"], serde_json::json!([]));
}

#[test]
fn json_and_the_pgn_database_mode_are_a_usage_error_together() {
    let (run, _) = run_arbiter(&["--json", "--pgn"], "");
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stdout.is_empty());
    assert!(run.stderr.contains("--json"), "{}", run.stderr);
}

#[test]
fn ids_match_answers_that_arrive_out_of_order() {
    let (run, _) = run_arbiter(&["--json"], "@p go perft 8\n@q turn\n@r isready\n@s stop\n");
    let answers = objects(&run.stdout);
    let ids: Vec<&str> = answers
        .iter()
        .map(|a| a["id"].as_str().unwrap_or(""))
        .collect();
    // `isready` and `stop` (answered `ok`, for its id) come ahead of the perft.
    assert_eq!(ids, ["r", "s", "p", "q"], "{}", run.stdout);
    assert_eq!(answers[1]["answer"], "ok");
    assert_eq!(answers[2]["answer"], "go");
    assert_eq!(answers[2]["stopped"], true);
    assert_eq!(answers[3]["turn"], "white");
}

/// The README's Python example, run as it stands with `arbiter` on the PATH; each
/// `print` line's comment is what it must print.
#[test]
fn the_readme_python_client_runs_against_the_binary() {
    if find_tool("python3").is_none() {
        skip(
            "README python client",
            "python3 is not installed",
            "apt-get install python3",
        );
        return;
    }
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let code: String = readme
        .split("```python\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .expect("a python block in README.md")
        .to_string();
    let expected: Vec<&str> = code
        .lines()
        .filter(|l| l.starts_with("print("))
        .map(|l| l.split_once("# ").map_or("", |(_, comment)| comment))
        .collect();
    assert!(expected.len() >= 3, "{code}");
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_arbiter"))
        .parent()
        .expect("binary directory");
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .expect("PATH");
    let output = Command::new("python3")
        .args(["-c", &code])
        .env("PATH", path)
        .output()
        .expect("run python3");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let printed = String::from_utf8(output.stdout).expect("UTF-8");
    assert_eq!(printed.lines().collect::<Vec<_>>(), expected);
}
