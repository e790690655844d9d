//! Slices of the PGN scripts in the default run, through the binary cargo built:
//! `scripts/differential-pgn` against python-chess, `scripts/pgn-parallel-check` through
//! GNU parallel, `scripts/spark-check` through PySpark. Without the tool a test skips as
//! `reference::skip` says (a failure in CI); PySpark, too heavy for every run, is
//! optional (`reference::skip_optional`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use arbiter::game::Game;
use arbiter::moves::CastlingMode;
use arbiter::pgn::writer::write_game;
use arbiter::pgn::Tags;
use arbiter::position::Position;

use crate::differential::Rng;
use crate::reference::{find_tool, python_with, search_path, skip, skip_optional};

const BIN: &str = env!("CARGO_BIN_EXE_arbiter");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The script's output as one text for an assertion message.
fn shown(output: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}--- stderr\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[test]
fn differential_pgn_slice_agrees_with_python_chess() {
    let Some(python) = python_with("chess, chess.pgn") else {
        skip(
            "differential-pgn",
            "python-chess is not importable",
            "pip install chess",
        );
        return;
    };
    let output = Command::new(python)
        .arg(root().join("scripts/differential-pgn"))
        .args(["--games", "150", "--seed", "11", "--bin", BIN])
        .current_dir(root())
        .output()
        .expect("run scripts/differential-pgn");
    assert!(output.status.success(), "{}", shown(&output));
    // The exit status alone would pass a run that compared nothing: count the games.
    let stdout = String::from_utf8_lossy(&output.stdout);
    let compared = stdout
        .lines()
        .find_map(|line| line.strip_prefix("differential-pgn: "))
        .and_then(|rest| rest.split_once(" games in "))
        .and_then(|(n, _)| n.parse::<u32>().ok());
    assert!(
        compared.is_some_and(|n| n >= 150) && stdout.contains("; 0 disagreements"),
        "fewer games compared than generated:\n{}",
        shown(&output)
    );
}

/// A PGN file of `games` random games (from the standard start and two FEN starts, some
/// resigned, some ending in checkmate or a draw), with the lenient, refused, Chess960
/// Latin-1 and tag-order games of tests/data/pgn mixed in every 100 games: about 700 KB, so a
/// 64 KiB block makes a dozen shards.
fn corpus(games: usize) -> String {
    let data = root().join("tests/data/pgn");
    let mut odd = String::new();
    for name in [
        "lenient.pgn",
        "refused.pgn",
        "chess960.pgn",
        "latin1.pgn",
        "tag-order.pgn",
    ] {
        let bytes = std::fs::read(data.join(name)).expect("test PGN");
        odd.push_str(&String::from_utf8_lossy(&bytes));
        odd.push_str("\n\n");
    }
    let starts = [
        Position::startpos(),
        Position::from_fen("r3k2r/pppq1ppp/2np1n2/4p3/2B1P3/2NP1N2/PPP2PPP/R2QK2R b KQkq - 3 8")
            .expect("a legal FEN"),
        Position::from_fen("8/5k2/8/3P4/8/8/6K1/8 w - - 0 50").expect("a legal FEN"),
    ];
    let mut rng = Rng::new(0x5eed_0f9a_11e1);
    let mut text = String::new();
    for n in 0..games {
        if n % 100 == 50 {
            text.push_str(&odd);
        }
        let base = starts[n % starts.len()];
        let mut game = Game::new(base, CastlingMode::Standard);
        let length = 10 + rng.below(90);
        for _ in 0..length {
            let moves = game.legal_moves();
            if game.status().is_over() || moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[rng.below(moves.len())];
            game.play(m);
        }
        if !game.status().is_over() && rng.below(4) == 0 {
            game.resign(game.position().turn());
        }
        let mut tags = Tags::default();
        tags.insert("Event", &format!("Generated game {n}"));
        tags.insert("White", "Random, A.");
        tags.insert("Black", "Random, B.");
        write_game(&mut text, &tags, &game);
        text.push_str("\n\n");
    }
    text
}

#[test]
fn gnu_parallel_shards_answer_as_one_arbiter() {
    let Some(parallel) = find_tool("parallel") else {
        skip(
            "pgn-parallel-check",
            "GNU parallel is not installed",
            "apt-get install parallel",
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("arbiter-pgn-parallel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let file = dir.join("corpus.pgn");
    std::fs::write(&file, corpus(1500)).expect("write the corpus");
    let tools = parallel.parent().map(Path::to_path_buf).unwrap_or_default();
    let output = Command::new("bash")
        .arg(root().join("scripts/pgn-parallel-check"))
        .args(["--jobs", "2", "--block", "64k", "--bin", BIN])
        .arg(&file)
        .env("PATH", format!("{}:{}", tools.display(), search_path()))
        .current_dir(root())
        .output()
        .expect("run scripts/pgn-parallel-check");
    // A failure keeps the corpus for a look at the games that differ.
    assert!(
        output.status.success(),
        "{} (corpus kept: {})",
        shown(&output),
        file.display()
    );
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let shards = stdout
        .split_once(" in ")
        .and_then(|(_, rest)| rest.split_once(" shards"))
        .and_then(|(n, _)| n.parse::<u32>().ok());
    assert!(
        stdout.starts_with("pgn-parallel-check: ok:") && shards.is_some_and(|n| n >= 4),
        "the file was not split into several shards:\n{}",
        shown(&output)
    );
    eprint!("{stdout}");
}

/// `scripts/spark-check`, when PySpark and Java are already present: it installs
/// nothing here (`--no-install`).
#[test]
fn spark_partitions_answer_as_one_arbiter() {
    let java = find_tool("java");
    let spark = find_tool("spark-submit");
    if java.is_none() || spark.is_none() || python_with("pyspark").is_none() {
        skip_optional(
            "spark-check",
            "PySpark or a Java runtime is missing",
            "pip install pyspark; apt-get install -y openjdk-17-jre-headless",
        );
        return;
    }
    let output = Command::new("bash")
        .arg(root().join("scripts/spark-check"))
        .args([
            "--no-install",
            "--games",
            "600",
            "--shards",
            "4",
            "--bin",
            BIN,
        ])
        .env("PATH", search_path())
        .current_dir(root())
        .output()
        .expect("run scripts/spark-check");
    assert!(output.status.success(), "{}", shown(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.starts_with("spark-check: all ok, 4 shards, "),
        "spark-check compared nothing:\n{}",
        shown(&output)
    );
    eprint!("{stdout}");
}
