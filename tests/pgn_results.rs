//! Every result token against every kind of end a game's moves can reach (mate by each
//! side, stalemate, each automatic draw, each automatic draw that the moves went on past,
//! a live position), read both ways: `arbiter --pgn` and the protocol's `position pgn`.

use crate::protocol::run_arbiter;

/// How a game's moves end.
struct Ending {
    name: &'static str,
    fen: Option<&'static str>,
    movetext: &'static str,
    /// The result the board gives (`None`: a live position, any result stands).
    result: Option<&'static str>,
    /// `status` once the game is loaded with that result or `*`.
    status: &'static str,
    /// `drawn-at <ply> <rule>` when the moves go on past an automatic draw.
    drawn_at: Option<&'static str>,
}

const KNIGHT_ENDING: &str = "4k3/8/8/8/8/8/8/2R1K1n1 b - - 0 1";
const CLOCK_AT_148: &str = "4k3/8/8/8/8/8/r7/R3K3 w - - 148 100";
const SHUFFLES: &str = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 \
                        7. Nf3 Nf6 8. Ng1 Ng8";

const ENDINGS: &[Ending] = &[
    Ending {
        name: "white mates",
        fen: None,
        movetext: "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#",
        result: Some("1-0"),
        status: "status checkmate winner white",
        drawn_at: None,
    },
    Ending {
        name: "black mates",
        fen: None,
        movetext: "1. f3 e5 2. g4 Qh4#",
        result: Some("0-1"),
        status: "status checkmate winner black",
        drawn_at: None,
    },
    Ending {
        name: "stalemate",
        fen: Some("k7/3Q4/1K6/8/8/8/8/8 w - - 0 1"),
        movetext: "1. Qc7",
        result: Some("1/2-1/2"),
        status: "status stalemate",
        drawn_at: None,
    },
    Ending {
        name: "insufficient material",
        fen: Some(KNIGHT_ENDING),
        movetext: "1... Nf3+ 2. Ke2 Kd7 3. Rc7+ Kxc7",
        result: Some("1/2-1/2"),
        status: "status draw reason insufficient-material",
        drawn_at: None,
    },
    Ending {
        name: "seventy-five moves",
        fen: Some(CLOCK_AT_148),
        movetext: "100. Kf1 Kd8",
        result: Some("1/2-1/2"),
        status: "status draw reason seventy-five-move",
        drawn_at: None,
    },
    Ending {
        name: "fivefold repetition",
        fen: None,
        movetext: SHUFFLES,
        result: Some("1/2-1/2"),
        status: "status draw reason fivefold",
        drawn_at: None,
    },
    Ending {
        name: "insufficient material, then more moves",
        fen: Some(KNIGHT_ENDING),
        movetext: "1... Nf3+ 2. Ke2 Kd7 3. Rc7+ Kxc7 4. Kxf3 Kd6",
        result: Some("1/2-1/2"),
        status: "status draw reason insufficient-material",
        drawn_at: Some("drawn-at 5 insufficient-material"),
    },
    Ending {
        name: "seventy-five moves, then a capture",
        fen: Some(CLOCK_AT_148),
        movetext: "100. Kf1 Kd8 101. Rxa2 Ke7",
        result: Some("1/2-1/2"),
        status: "status draw reason seventy-five-move",
        drawn_at: Some("drawn-at 2 seventy-five-move"),
    },
    Ending {
        name: "seventy-five moves, then mate",
        fen: Some("k7/8/1K6/8/8/8/8/7R w - - 148 100"),
        movetext: "100. Rh2 Kb8 101. Rh8#",
        result: Some("1/2-1/2"),
        status: "status draw reason seventy-five-move",
        drawn_at: Some("drawn-at 2 seventy-five-move"),
    },
    Ending {
        name: "fivefold repetition, then more moves",
        fen: None,
        movetext: "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 \
                   7. Nf3 Nf6 8. Ng1 Ng8 9. e4 e5",
        result: Some("1/2-1/2"),
        status: "status draw reason fivefold",
        drawn_at: Some("drawn-at 16 fivefold"),
    },
    Ending {
        name: "live",
        fen: None,
        movetext: "1. e4 e5",
        result: None,
        status: "status active",
        drawn_at: None,
    },
];

const TOKENS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// One case: an ending with a token, and what both readings must answer.
struct Case {
    pgn: String,
    plies: usize,
    /// The verdict's result, or `None` for `bad-result`.
    verdict: Option<String>,
    status: String,
    label: String,
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for ending in ENDINGS {
        let plies = ending
            .movetext
            .split_whitespace()
            .filter(|word| !word.ends_with('.'))
            .count();
        for token in TOKENS {
            let mut pgn = format!("[Event \"{} {token}\"]\n", ending.name);
            if let Some(fen) = ending.fen {
                pgn.push_str(&format!("[FEN \"{fen}\"]\n"));
            }
            pgn.push_str(&format!("\n{} {token}\n\n", ending.movetext));
            let (verdict, status) = match (ending.result, token) {
                (Some(result), "*") => (Some(result.to_string()), ending.status.to_string()),
                (Some(result), token) if token == result => {
                    (Some(result.to_string()), ending.status.to_string())
                }
                (Some(_), _) => (None, String::new()),
                (None, "1-0") => (
                    Some(token.to_string()),
                    "status resigned winner white".into(),
                ),
                (None, "0-1") => (
                    Some(token.to_string()),
                    "status resigned winner black".into(),
                ),
                (None, "1/2-1/2") => (
                    Some(token.to_string()),
                    "status draw reason agreement".into(),
                ),
                (None, _) => (Some(token.to_string()), ending.status.to_string()),
            };
            let verdict = verdict.map(|result| match ending.drawn_at {
                Some(drawn) => format!("ok {plies} {result} {drawn}"),
                None => format!("ok {plies} {result}"),
            });
            cases.push(Case {
                pgn,
                plies,
                verdict,
                status,
                label: format!("{} with {token}", ending.name),
            });
        }
    }
    cases
}

#[test]
fn every_result_token_meets_every_ending_in_pgn_mode() {
    let cases = cases();
    let input: String = cases.iter().map(|case| case.pgn.as_str()).collect();
    let run = run_arbiter(&["--pgn"], input).0;
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), cases.len() + 1, "{}", run.stdout);
    for (n, (case, line)) in cases.iter().zip(&lines).enumerate() {
        let prefix = format!("game {} ", n + 1);
        let verdict = line.strip_prefix(&prefix).unwrap_or(line);
        match &case.verdict {
            Some(expected) => assert_eq!(verdict, expected, "{}", case.label),
            None => assert!(
                verdict.starts_with("error bad-result: the result "),
                "{}: {verdict}",
                case.label
            ),
        }
    }
    let ok = cases.iter().filter(|case| case.verdict.is_some()).count();
    let plies: usize = cases
        .iter()
        .filter(|case| case.verdict.is_some())
        .map(|case| case.plies)
        .sum();
    assert_eq!(
        lines[cases.len()],
        format!(
            "games {} ok {ok} errors {} plies {plies}",
            cases.len(),
            cases.len() - ok
        )
    );
}

#[test]
fn every_result_token_meets_every_ending_in_position_pgn() {
    let cases = cases();
    let path = std::env::temp_dir().join(format!("arbiter-results-{}.pgn", std::process::id()));
    let text: String = cases.iter().map(|case| case.pgn.as_str()).collect();
    std::fs::write(&path, text).expect("write the test file");
    let file = path.to_string_lossy().to_string();
    let mut script = String::new();
    for n in 1..=cases.len() {
        script.push_str(&format!(
            "position startpos\nposition pgn {file} {n}\nstatus\n"
        ));
    }
    let run = run_arbiter(&[], script).0;
    let _ = std::fs::remove_file(&path);
    let mut lines = run.stdout.lines();
    for (n, case) in cases.iter().enumerate() {
        let first = lines.next().unwrap_or_default();
        match &case.verdict {
            Some(_) => assert_eq!(first, case.status, "{}", case.label),
            None => {
                let refused = format!("error bad-result game {}: the result ", n + 1);
                assert!(first.starts_with(&refused), "{}: {first}", case.label);
                // The refused game leaves the start position in place.
                assert_eq!(lines.next(), Some("status active"), "{}", case.label);
            }
        }
    }
    assert_eq!(lines.next(), None);
}
