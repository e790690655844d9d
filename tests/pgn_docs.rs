//! The examples of docs/pgn.md are real runs: every fenced block whose first line starts
//! with `$ ` is run by bash, its commands in order in one shell, from the repository's
//! root with the binary cargo built first on the PATH, and must print the block's other
//! lines.

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_arbiter");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One example: its commands (the `$ ` lines, as a script) and the output they give.
struct Example {
    script: String,
    expected: String,
}

fn examples(doc: &str) -> Vec<Example> {
    let mut examples = Vec::new();
    let mut block: Option<Vec<&str>> = None;
    for line in doc.lines() {
        let fence = line.trim_start().starts_with("```");
        match (&mut block, fence) {
            (None, true) => block = Some(Vec::new()),
            (Some(lines), true) => {
                // Indented blocks (inside a list) keep their indentation off.
                let lines: Vec<&str> = lines.iter().map(|l| l.trim_start()).collect();
                if lines.first().is_some_and(|l| l.starts_with("$ ")) {
                    let mut script = String::new();
                    let mut expected = String::new();
                    for l in lines {
                        match l.strip_prefix("$ ") {
                            Some(command) => script.push_str(&format!("{command}\n")),
                            None => expected.push_str(&format!("{l}\n")),
                        }
                    }
                    examples.push(Example { script, expected });
                }
                block = None;
            }
            (Some(lines), false) => lines.push(line),
            (None, false) => {}
        }
    }
    examples
}

#[test]
fn the_examples_of_docs_pgn_md_are_what_arbiter_prints() {
    let doc = std::fs::read_to_string(root().join("docs/pgn.md")).expect("docs/pgn.md");
    let examples = examples(&doc);
    assert!(
        examples.len() >= 7,
        "only {} examples found",
        examples.len()
    );
    let bin_dir = Path::new(BIN).parent().expect("the binary's directory");
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut failures = Vec::new();
    for example in &examples {
        let output = Command::new("bash")
            .args(["-c", &example.script])
            .env("PATH", &path)
            .current_dir(root())
            .output()
            .expect("run bash");
        let actual = String::from_utf8_lossy(&output.stdout);
        if actual != example.expected {
            failures.push(format!(
                "{}--- docs/pgn.md says\n{}--- it prints\n{actual}",
                example.script, example.expected
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
