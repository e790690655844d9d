//! The line protocol: golden transcripts and the examples of docs/protocol.md through the
//! real binary, and focused tests of what transcripts cannot show (atomic failures,
//! exact undo, long games, raw bytes, modes and exit statuses).

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use arbiter::game::Game;
use arbiter::moves::CastlingMode;
use arbiter::moves::Move;
use arbiter::protocol::{Reply, Session, MAX_LINE};
use arbiter::role::Role;

const BIN: &str = env!("CARGO_BIN_EXE_arbiter");

/// What one run of the binary gave.
pub(crate) struct Run {
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    pub(crate) code: Option<i32>,
}

/// Starts the binary with `args`, its stdin, stdout and stderr piped.
pub(crate) fn spawn_arbiter(args: &[&str]) -> Child {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn arbiter")
}

/// Runs the binary with `args`, stdin fed from a thread so that large inputs cannot
/// deadlock against large outputs; the run, and whether all of `input` was written
/// (the binary may quit before reading everything).
pub(crate) fn run_arbiter(args: &[&str], input: impl Into<Vec<u8>>) -> (Run, io::Result<()>) {
    let input = input.into();
    let mut child = spawn_arbiter(args);
    let mut stdin = child.stdin.take().expect("stdin");
    let feeder = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().expect("wait for arbiter");
    let written = feeder.join().expect("feeder thread");
    let run = Run {
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        code: output.status.code(),
    };
    (run, written)
}

/// Runs the binary with `args` on `input`, whether or not it reads all of it.
fn arbiter(args: &[&str], input: impl Into<Vec<u8>>) -> Run {
    run_arbiter(args, input).0
}

/// The commands of a transcript: its `> ` lines.
fn transcript_input(transcript: &str) -> String {
    transcript
        .lines()
        .filter_map(|line| line.strip_prefix("> "))
        .map(|command| format!("{command}\n"))
        .collect()
}

/// Runs a transcript with `--echo` and returns a description of the first difference.
fn check_transcript(name: &str, transcript: &str) -> Option<String> {
    let run = arbiter(&["--echo"], transcript_input(transcript));
    if run.stdout == transcript {
        return None;
    }
    let expected: Vec<&str> = transcript.lines().collect();
    let actual: Vec<&str> = run.stdout.lines().collect();
    let at = expected
        .iter()
        .zip(&actual)
        .position(|(e, a)| e != a)
        .unwrap_or(expected.len().min(actual.len()));
    Some(format!(
        "{name}, line {}:\n  expected: {:?}\n  actual:   {:?}",
        at + 1,
        expected.get(at),
        actual.get(at)
    ))
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn golden_transcripts() {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("tests/golden"))
        .expect("tests/golden")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 40, "only {} transcripts", paths.len());
    let failures: Vec<String> = paths
        .iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(path).expect("read transcript");
            check_transcript(&path.display().to_string(), &text)
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} transcripts differ (scripts/golden shows the diffs, scripts/golden --bless \
         accepts them):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every fenced block of docs/protocol.md that starts with a `> ` line is a transcript.
fn doc_examples() -> Vec<String> {
    let doc = std::fs::read_to_string(root().join("docs/protocol.md")).expect("docs/protocol.md");
    let mut examples = Vec::new();
    let mut current: Option<String> = None;
    for line in doc.lines() {
        match (&mut current, line.starts_with("```")) {
            (None, true) => current = Some(String::new()),
            (Some(block), true) => {
                if block.starts_with("> ") {
                    examples.push(std::mem::take(block));
                }
                current = None;
            }
            (Some(block), false) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, false) => {}
        }
    }
    examples
}

#[test]
fn protocol_doc_examples_are_what_the_binary_answers() {
    let examples = doc_examples();
    assert!(examples.len() >= 10, "only {} examples", examples.len());
    let failures: Vec<String> = examples
        .iter()
        .enumerate()
        .filter_map(|(i, text)| check_transcript(&format!("docs example {}", i + 1), text))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---- The session, in-process ----

fn answer(session: &mut Session, line: &str) -> String {
    let mut out = Vec::new();
    session
        .execute(line)
        .write_to(&mut out)
        .expect("write to a Vec");
    String::from_utf8(out).expect("UTF-8 answer")
}

/// Everything a client can observe of a session.
fn observe(session: &mut Session) -> String {
    ["d", "history", "status", "moves", "check"]
        .iter()
        .map(|query| answer(session, query))
        .collect::<String>()
        + &format!("chess960 {}", session.is_chess960())
}

fn session_after(commands: &[&str]) -> Session {
    let mut session = Session::new();
    for command in commands {
        let reply = session.execute(command);
        assert!(
            !matches!(reply, Reply::Error(_)),
            "setup command {command:?} failed: {reply:?}"
        );
    }
    session
}

fn assert_refused_without_change(setup: &[&str], command: &str, code: &str) {
    let mut session = session_after(setup);
    let before = observe(&mut session);
    let reply = answer(&mut session, command);
    assert!(
        reply.starts_with(&format!("error {code} ")) && reply.ends_with('\n'),
        "{command:?} after {setup:?} answered {reply:?}, not error {code}"
    );
    assert_eq!(reply.lines().count(), 1, "one error line for {command:?}");
    assert_eq!(
        observe(&mut session),
        before,
        "{command:?} changed the game after {setup:?}"
    );
}

#[test]
fn every_failing_command_changes_nothing() {
    let mid = &[
        "position startpos moves e4 e5 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8",
        "move Nc3",
    ];
    let cases: &[(&str, &str)] = &[
        ("frobnicate", "unknown-command"),
        ("moves z9", "bad-argument"),
        ("perft 99", "bad-argument"),
        ("position fen 8/8/8/8/8/8/8/8 w - - 0 1", "bad-fen"),
        ("position startpos moves e4 e5 Ke3", "illegal-move"),
        ("position startpos moves e4 e5 junk", "bad-move"),
        ("position startpos moves f3 e5 g4 Qh4 a3", "game-over"),
        ("move hello", "bad-move"),
        ("move e3e4", "no-piece"),
        ("move e2e4", "no-piece"),
        ("move c3e4", "not-your-turn"),
        ("move e5e4", "illegal-move"),
        ("move Ke2", "illegal-move"),
        ("move d8h4q", "illegal-move"),
        ("claim", "no-claim"),
        ("setoption name Hash value 4", "bad-option"),
        ("setoption name Threads value 300", "bad-option"),
        ("setoption name UCI_Chess960 value yes", "bad-option"),
        ("resign purple", "bad-argument"),
    ];
    for (command, code) in cases {
        assert_refused_without_change(mid, command, code);
    }
    assert_refused_without_change(&[], "undo", "nothing-to-undo");
    let promotion = &["position fen 7k/P7/8/8/8/8/8/K7 w - - 0 1"];
    assert_refused_without_change(promotion, "move a7a8", "promotion-required");
    assert_refused_without_change(promotion, "move a8", "promotion-required");
    let knights = &["position fen 4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"];
    assert_refused_without_change(knights, "move Nd2", "ambiguous-move");
    let mate = &["position startpos moves f3 e5 g4 Qh4"];
    for command in ["move a3", "resign", "draw", "claim"] {
        assert_refused_without_change(mate, command, "game-over");
    }
    let resigned = &["move e4", "resign"];
    assert_refused_without_change(resigned, "undo", "result-final");
    assert_refused_without_change(resigned, "move e5", "game-over");
    assert_refused_without_change(&["draw"], "undo", "result-final");
}

/// Plays a game through castling, en passant, captures and promotions, then undoes it
/// move by move, checking that each undo restores what the client saw before the move.
#[test]
fn undo_restores_everything() {
    let mut session =
        session_after(&["position fen r3k2r/1P4pp/8/3pP3/8/8/6PP/R3K2R w KQkq d6 0 20"]);
    let moves = [
        "exd6", "O-O", "d7", "Rf7", "d8=N", "h6", "bxa8=Q", "Kh7", "O-O-O", "Kh8", "Kb1", "Kh7",
        "Kc1", "Kh8", "Kb1", "Kh7", "Kc1",
    ];
    let mut seen = vec![observe(&mut session)];
    for m in moves {
        let reply = answer(&mut session, &format!("move {m}"));
        assert!(reply.starts_with("played "), "{m}: {reply}");
        seen.push(observe(&mut session));
    }
    assert!(answer(&mut session, "status").contains("claimable threefold"));
    seen.pop();
    while let Some(expected) = seen.pop() {
        assert!(answer(&mut session, "undo").starts_with("undone "));
        assert_eq!(observe(&mut session), expected);
    }
    assert!(answer(&mut session, "undo").starts_with("error nothing-to-undo"));
}

fn status_of(commands: &[&str]) -> String {
    let mut session = session_after(commands);
    answer(&mut session, "status")
}

#[test]
fn automatic_results_and_their_precedence() {
    // Checkmate on the very move that makes the clock reach 150 is checkmate.
    assert_eq!(
        status_of(&["position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 100 moves Ra8#"]),
        "status checkmate winner white\n"
    );
    // Stalemate with a lone bishop: the dead position comes first.
    assert_eq!(
        status_of(&["position fen k7/8/1K6/4B3/8/8/8/8 b - - 0 1"]),
        "status draw reason insufficient-material\n"
    );
    // Stalemate when the clock also reached 150.
    assert_eq!(
        status_of(&["position fen k7/8/1Q6/8/8/8/8/6K1 w - - 149 100 moves Qc7"]),
        "status stalemate\n"
    );
    // The seventy-five-move rule before a fivefold repetition at the same moment.
    let cycle = "Nc3 Nc6 Nb1 Nb8 ".repeat(4);
    assert_eq!(
        status_of(&[&format!(
            "position fen rn2k3/8/8/8/8/8/8/RN2K3 w - - 134 1 moves {cycle}"
        )]),
        "status draw reason seventy-five-move\n"
    );
    let cycle = "Nf3 Nf6 Ng1 Ng8 ".repeat(4);
    assert_eq!(
        status_of(&[&format!("position startpos moves {cycle}")]),
        "status draw reason fivefold\n"
    );
    assert_eq!(
        status_of(&["position startpos moves f3 e5 g4 Qh4"]),
        "status checkmate winner black\n"
    );
}

#[test]
fn repetitions_count_from_the_base_position_and_need_a_legal_en_passant() {
    // From a base position with the same placement, the first occurrence is the base.
    assert_eq!(
        status_of(&["position startpos moves Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"]),
        "status active claimable threefold\n"
    );
    assert_eq!(
        status_of(&["position fen rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1 moves Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"]),
        "status active\n"
    );
    // After 1. e4 the black pawns cannot take en passant: the position after the
    // knights return counts as the same one (python-chess's e3 changes nothing).
    assert_eq!(
        status_of(&["position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 moves Nf6 Nf3 Ng8 Ng1 Nf6 Nf3 Ng8 Ng1"]),
        "status active claimable threefold\n"
    );
    // A legal en-passant capture makes the first occurrence a different position.
    assert_eq!(
        status_of(&["position fen 4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1 moves e4 Kd7 Ke2 Ke8 Ke1 Kd7 Ke2 Ke8 Ke1"]),
        "status active\n"
    );
    assert_eq!(
        status_of(&["position fen 4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1 moves e4 Kd7 Ke2 Ke8 Ke1 Kd7 Ke2 Ke8 Ke1 Kd7 Ke2 Ke8 Ke1"]),
        "status active claimable threefold\n"
    );
}

#[test]
fn claims_resignation_and_agreement() {
    let mut session = session_after(&["position fen 4k3/8/8/8/8/8/8/R3K3 w - - 100 60"]);
    assert_eq!(
        answer(&mut session, "status"),
        "status active claimable fifty-move\n"
    );
    assert_eq!(
        answer(&mut session, "claim"),
        "status draw reason fifty-move\n"
    );
    assert!(answer(&mut session, "claim").starts_with("error game-over "));
    assert!(answer(&mut session, "undo").starts_with("error result-final "));

    let mut session = session_after(&["move e4"]);
    assert_eq!(
        answer(&mut session, "resign"),
        "status resigned winner white\n"
    );
    assert_eq!(answer(&mut session, "moves e7"), "moves e7e5 e7e6\n");
    assert!(answer(&mut session, "draw").starts_with("error game-over "));

    let mut session = session_after(&["move e4"]);
    assert_eq!(
        answer(&mut session, "resign white"),
        "status resigned winner black\n"
    );
    let mut session = session_after(&[]);
    assert_eq!(
        answer(&mut session, "draw"),
        "status draw reason agreement\n"
    );
    assert!(answer(&mut session, "undo").starts_with("error result-final "));
    assert_eq!(answer(&mut session, "ucinewgame"), "");
    assert_eq!(answer(&mut session, "status"), "status active\n");
}

// ---- Long games ----

/// A reproducible game of `plies` random legal moves that never ends by itself: moves
/// that would end it or repeat a position a third time are avoided, and a pawn move
/// or capture is preferred once the clock nears the seventy-five-move rule.
fn long_game(plies: usize, mut seed: u64) -> Vec<String> {
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut game = Game::default();
    let mut out = Vec::with_capacity(plies);
    while out.len() < plies {
        let pos = *game.position();
        let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        for i in (1..moves.len()).rev() {
            moves.swap(i, (next() % (i as u64 + 1)) as usize);
        }
        let progress = |m: &Move| pos.role_at(m.from()) == Some(Role::Pawn);
        let want_progress = pos.halfmoves() >= 120;
        let keeps_going = |m: Move, game: &mut Game| {
            game.play(m);
            let fine = !game.status().is_over() && game.repetitions() <= 2;
            game.undo();
            fine
        };
        let pick = moves
            .iter()
            .copied()
            .filter(|m| progress(m) == want_progress && pos.piece_at(m.to()).is_none())
            .find(|&m| keeps_going(m, &mut game))
            .or_else(|| moves.iter().copied().find(|&m| keeps_going(m, &mut game)));
        let m = pick.expect("the random walk found a move that keeps the game going");
        out.push(m.to_uci(CastlingMode::Standard).to_string());
        game.play(m);
    }
    out
}

#[test]
fn a_five_thousand_ply_game_replays_quickly() {
    let moves = long_game(5000, 0x9E37_79B9_7F4A_7C15);
    let line = format!("position startpos moves {}", moves.join(" "));
    let mut session = Session::new();
    let started = Instant::now();
    assert_eq!(answer(&mut session, &line), "");
    let replay = started.elapsed();
    assert_eq!(session.game().moves().len(), 5000);
    assert!(answer(&mut session, "status").starts_with("status active"));
    // Linear work is a few milliseconds; a quadratic repetition scan would be far more.
    assert!(replay < Duration::from_secs(1), "replay took {replay:?}");

    let run = arbiter(&[], format!("{line}\nhistory\n"));
    assert_eq!(run.stdout, format!("history {}\n", moves.join(" ")));
}

#[test]
fn a_hundred_thousand_knight_moves_stop_at_the_fivefold_repetition() {
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<&str> = (0..100_000).map(|i| cycle[i % 4]).collect();
    let line = format!("position startpos moves {}\n", moves.join(" "));
    assert!(line.len() < MAX_LINE);
    let started = Instant::now();
    let run = arbiter(&[], line + "fen\n");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(
        run.stdout,
        "error game-over ply 17 (g1f3): the game is over (draw by fivefold)\n\
         fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
    );
    assert_eq!(run.code, Some(1));
}

// ---- Raw input ----

#[test]
fn an_overlong_line_is_skipped_and_the_next_one_answered() {
    let mut input = vec![b'x'; 2 * MAX_LINE];
    input.extend_from_slice(b"\nisready\n");
    input.extend(std::iter::repeat_n(b' ', MAX_LINE + 1));
    input.extend_from_slice(b"\r\nturn\n");
    let run = arbiter(&[], input);
    assert_eq!(
        run.stdout,
        format!(
            "error line-too-long the line is longer than {MAX_LINE} bytes and was skipped\n\
             readyok\n\
             error line-too-long the line is longer than {MAX_LINE} bytes and was skipped\n\
             turn white\n"
        )
    );
    assert_eq!(run.code, Some(1));
}

#[test]
fn a_line_of_exactly_the_limit_is_read() {
    let mut input = b"isready".to_vec();
    input.resize(MAX_LINE, b' ');
    input.extend_from_slice(b"\r\n");
    let run = arbiter(&[], input);
    assert_eq!(run.stdout, "readyok\n");
    assert_eq!(run.code, Some(0));
}

#[test]
fn invalid_utf8_and_nul_bytes_are_bad_input() {
    let run = arbiter(&[], &b"isready\n\xff\xfe\nmove e\x004\nturn\n"[..]);
    assert_eq!(
        run.stdout,
        "readyok\n\
         error bad-input the line is not valid UTF-8 and was skipped\n\
         error bad-input the line holds a control character and was skipped\n\
         turn white\n"
    );
    assert_eq!(run.code, Some(1));
}

#[test]
fn control_characters_inside_a_line_are_bad_input_and_not_echoed() {
    let bad = "error bad-input the line holds a control character and was skipped\n";
    for line in [
        "turn\rfen",
        "turn\x0b",
        "\x0cturn",
        "turn\u{85}",
        "move\u{9f}e4",
    ] {
        let run = arbiter(&["--echo"], format!("{line}\nturn\n"));
        assert_eq!(run.stdout, format!("{bad}> turn\nturn white\n"), "{line:?}");
    }
}

/// Before a request id too: a form feed or vertical tab there is no blank, though
/// Unicode counts it as one. The id is readable, so the refusal carries it.
#[test]
fn a_control_character_before_a_request_id_is_bad_input_answered_with_the_id() {
    let bad = "error bad-input the line holds a control character and was skipped\n";
    for line in ["\x0c@7 isready", "\x0b @7 isready", "\x0c@7"] {
        let run = arbiter(&[], format!("{line}\n@8 isready\n"));
        assert_eq!(run.stdout, format!("@7 {bad}@8 readyok\n"), "{line:?}");
    }
}

/// An error is one line even when the text it quotes came from a JSON string holding
/// a line feed or another control character: they are shown escaped.
#[test]
fn an_error_quoting_decoded_text_stays_one_line() {
    let run = arbiter(&[], "game g restore {\"srovi\\n\":\"x\"}\nisready\n");
    assert_eq!(
        run.stdout,
        "game g error bad-state 'srovi\\n' is not a field of a game's state\nreadyok\n"
    );
}

#[test]
fn a_byte_order_mark_starts_stdin_or_a_command_file() {
    let run = arbiter(&[], &b"\xef\xbb\xbfturn\n\xef\xbb\xbfturn\n"[..]);
    // Only at the start: in the middle of the input it is text, and no command.
    assert!(
        run.stdout.starts_with("turn white\nerror unknown-command "),
        "{}",
        run.stdout
    );
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("arbiter-bom.txt");
    std::fs::write(&path, b"\xef\xbb\xbfmove e4\nturn\n").expect("write");
    let run = arbiter(&[path.to_str().expect("path")], "");
    assert!(run.stdout.ends_with("turn black\n"), "{}", run.stdout);
    assert_eq!(run.code, Some(0));
}

#[test]
fn an_unreadable_line_that_starts_with_an_id_answers_with_it() {
    let mut input = b"@n2 move \xff\xfe\n@n3 ".to_vec();
    input.extend(std::iter::repeat_n(b'x', MAX_LINE));
    input.extend_from_slice(b"\n@n4 turn\x00\n@\xff turn\n");
    let run = arbiter(&[], input.clone());
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{}", run.stdout);
    assert!(lines[0].starts_with("@n2 error bad-input "), "{}", lines[0]);
    assert!(
        lines[1].starts_with("@n3 error line-too-long "),
        "{}",
        lines[1]
    );
    assert!(lines[2].starts_with("@n4 error bad-input "), "{}", lines[2]);
    // An id that is not readable text is no id.
    assert!(lines[3].starts_with("error bad-input "), "{}", lines[3]);
    let run = arbiter(&["--json"], input);
    let ids: Vec<Option<String>> = run
        .stdout
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).expect("JSON");
            value["id"].as_str().map(str::to_string)
        })
        .collect();
    assert_eq!(
        ids,
        [
            Some("n2".into()),
            Some("n3".into()),
            Some("n4".into()),
            None
        ]
    );
}

#[test]
fn an_error_quotes_a_short_prefix_of_a_huge_token() {
    // Half the line limit: the line is read, and the token is a megabyte-class one.
    let token = "x".repeat(MAX_LINE / 2);
    for line in [
        token.clone(),
        format!("move {token}"),
        format!("moves {token}"),
        format!("perft {token}"),
        format!("turn {token}"),
        format!("position fen 8/8/8/8/8/8/8/K6k {token} - - 0 1"),
        format!("position startpos moves {token}"),
        format!("setoption name {token} value 1"),
        format!("tag _{token} x"),
        format!("help {token}"),
    ] {
        let run = arbiter(&[], format!("{line}\n"));
        let start = run.stdout.get(..300).unwrap_or(&run.stdout);
        assert!(run.stdout.starts_with("error "), "{start}");
        assert!(
            run.stdout.len() < 300,
            "{} bytes: {start}",
            run.stdout.len()
        );
        assert!(run.stdout.contains("xxx..."), "{}", run.stdout);
    }
}

#[test]
fn crlf_tabs_and_a_missing_final_newline() {
    let run = arbiter(&[], "position\tstartpos  moves e2e4\r\n\r\n  fen\r\nturn");
    assert_eq!(
        run.stdout,
        "fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\nturn black\n"
    );
    assert_eq!(run.code, Some(0));
}

#[test]
fn nothing_is_printed_at_start_up_or_for_an_empty_input() {
    let run = arbiter(&[], "");
    assert_eq!((run.stdout.as_str(), run.code), ("", Some(0)));
    assert_eq!(run.stderr, "");
}

// ---- Modes and exit statuses ----

#[test]
fn one_shot_commands() {
    let run = arbiter(&["-c", "move e4", "--command", "fen"], "isready\n");
    assert_eq!(
        run.stdout,
        "played e2e4 e4 active from e2 to e4 piece pawn fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\nfen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
    );
    assert_eq!(run.code, Some(0));
    let run = arbiter(&["-c", "move e7e5", "-c", "turn"], "");
    assert_eq!(
        run.stdout,
        "error not-your-turn e7e5: the piece on e7 is black's and it is white's turn\nturn white\n"
    );
    assert_eq!(run.code, Some(1));
    let run = arbiter(&["-c", "quit", "-c", "isready"], "");
    assert_eq!((run.stdout.as_str(), run.code), ("", Some(0)));
}

#[test]
fn echo_prints_each_command_before_its_answer() {
    let run = arbiter(&["--echo", "-c", "isready", "-c", "", "-c", "# note"], "");
    assert_eq!(run.stdout, "> isready\nreadyok\n> # note\n");
    let run = arbiter(&["--echo"], &b"turn\nmove\x00e4\n\xff\nturn\n"[..]);
    assert_eq!(
        run.stdout,
        "> turn\nturn white\n\
         error bad-input the line holds a control character and was skipped\n\
         error bad-input the line is not valid UTF-8 and was skipped\n\
         > turn\nturn white\n"
    );
}

#[test]
fn fen_and_chess960_flags_set_the_starting_game() {
    let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    let run = arbiter(&["--fen", fen, "-c", "fen", "-c", "moves e1"], "");
    assert_eq!(
        run.stdout,
        format!("fen {fen}\nmoves e1d1 e1d2 e1e2 e1f1 e1f2 e1g1\n")
    );
    let run = arbiter(&["--chess960", "--fen", fen, "-c", "moves e1"], "");
    assert_eq!(run.stdout, "moves e1d1 e1d2 e1e2 e1f1 e1f2 e1h1\n");
    // The option stays for later games; ucinewgame is always the standard start.
    let run = arbiter(
        &[
            "--chess960",
            "-c",
            "ucinewgame",
            "-c",
            "position fen 4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
            "-c",
            "moves e1",
        ],
        "",
    );
    assert_eq!(run.stdout, "moves e1a1 e1d1 e1d2 e1e2 e1f1 e1f2\n");
    let run = arbiter(&["--fen", "not a fen"], "");
    assert_eq!(run.code, Some(2));
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("--fen"), "{}", run.stderr);
}

#[test]
fn command_files_run_in_order_with_dash_for_stdin() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let first = dir.join("arbiter-first.txt");
    let second = dir.join("arbiter-second.txt");
    std::fs::write(&first, "move e4\n").expect("write");
    std::fs::write(&second, "history\nquit\nturn\n").expect("write");
    let paths = [
        first.to_str().expect("path"),
        second.to_str().expect("path"),
    ];
    let run = arbiter(&[paths[0], "-", paths[1]], "move e5\n");
    assert_eq!(
        run.stdout,
        "played e2e4 e4 active from e2 to e4 piece pawn fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\nplayed e7e5 e5 active from e7 to e5 piece pawn fen rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\nhistory e2e4 e7e5\n"
    );
    assert_eq!(run.code, Some(0));
    let run = arbiter(&[paths[0], "/no/such/file"], "");
    assert_eq!(run.stdout, "played e2e4 e4 active from e2 to e4 piece pawn fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n");
    assert_eq!(run.code, Some(2), "a command file that cannot be opened");
    assert!(
        run.stderr.contains("cannot read /no/such/file"),
        "{}",
        run.stderr
    );
    let run = arbiter(&[paths[0], "/tmp"], "");
    assert_eq!(run.code, Some(2), "a directory as a command file");
    assert!(run.stderr.contains("cannot read /tmp: "), "{}", run.stderr);
}

#[test]
fn a_pgn_file_that_is_a_directory_is_named() {
    let good = root().join("tests/data/pgn/en-passant.pgn");
    let good = good.to_str().expect("path");
    let run = arbiter(&["--pgn", good, "/tmp", good], "");
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("arbiter: cannot read /tmp: "),
        "{}",
        run.stderr
    );
    // The other files are still read.
    assert!(run.stdout.contains("games 6 "), "{}", run.stdout);
}

#[test]
fn protocol_flags_with_pgn_are_usage_errors() {
    for flags in [
        &["--pgn", "-c", "games.pgn"][..],
        &["--pgn", "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1"],
        &["--pgn", "--echo"],
        &["--pgn", "--chess960"],
    ] {
        let run = arbiter(flags, "");
        assert_eq!(run.code, Some(2), "{flags:?}: {}", run.stdout);
        assert_eq!(run.stdout, "", "{flags:?}");
    }
}

#[test]
fn pgn_save_writes_a_file_that_the_database_mode_reads_as_correct() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("arbiter pgn save");
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("morphy game.pgn");
    let _ = std::fs::remove_file(&path);
    let save = format!("pgn save {}", path.display());
    let run = arbiter(
        &[
            "-c",
            "position startpos moves e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7",
            "-c",
            "tag White Paul Morphy",
            "-c",
            &save,
        ],
        "",
    );
    assert_eq!((run.stdout.as_str(), run.code), ("", Some(0)));
    let text = std::fs::read_to_string(&path).expect("the saved file");
    assert!(text.ends_with("4. Qxf7# 1-0\n"), "{text}");
    let check = arbiter(&["--pgn", path.to_str().expect("path")], "");
    assert_eq!(
        (check.stdout.as_str(), check.code),
        ("game 1 ok 7 1-0\ngames 1 ok 1 errors 0 plies 7\n", Some(0))
    );
    let run = arbiter(&["-c", "pgn save /no/such/dir/game.pgn"], "");
    assert!(
        run.stdout
            .starts_with("error unwritable-file cannot write /no/such/dir/game.pgn: "),
        "{}",
        run.stdout
    );
}

/// Runs the binary with `args` and its stdout's reader gone at once, as in
/// `arbiter ... | true`; whether it exited within `PATIENCE` (it is killed if not).
fn exits_when_nobody_reads(args: &[&str]) -> bool {
    const PATIENCE: Duration = Duration::from_secs(20);
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn arbiter");
    drop(child.stdout.take());
    let deadline = Instant::now() + PATIENCE;
    while Instant::now() < deadline {
        if child.try_wait().expect("wait").is_some() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
    false
}

#[test]
fn a_perft_run_from_the_command_line_stops_when_nobody_reads() {
    // Perft 9 counts for hours.
    assert!(exits_when_nobody_reads(&["-c", "perft 9"]));
    assert!(exits_when_nobody_reads(&[
        "-c",
        "go perft 9",
        "-c",
        "perft 9"
    ]));
}

#[test]
fn a_perft_in_a_command_file_stops_when_nobody_reads() {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("arbiter-deep-perft.txt");
    std::fs::write(&path, "perft 9\nperft 9\n").expect("write");
    assert!(exits_when_nobody_reads(&[path.to_str().expect("path")]));
}

#[test]
fn usage_errors_exit_with_two() {
    let run = arbiter(&["--no-such-flag"], "");
    assert_eq!(run.code, Some(2));
    let run = arbiter(&["--version"], "");
    assert_eq!(run.code, Some(0));
    assert!(run.stdout.starts_with("arbiter "));
    let run = arbiter(&["--help"], "");
    assert_eq!(run.code, Some(0));
    assert!(run.stdout.contains("--echo"));
    assert!(run.stdout.contains("Exit status: 0 when"), "{}", run.stdout);
}

#[test]
fn an_answer_reaches_a_waiting_client_at_once() {
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = child.stdout.take().expect("stdout");
    // Like a GUI: write one command, block until its answer arrives, then the next.
    for (command, expected) in [("isready\n", "readyok\n"), ("turn\n", "turn white\n")] {
        stdin.write_all(command.as_bytes()).expect("write");
        stdin.flush().expect("flush");
        let mut got = vec![0; expected.len()];
        stdout.read_exact(&mut got).expect("answer");
        assert_eq!(String::from_utf8_lossy(&got), expected);
    }
    drop(stdin);
    assert!(child.wait().expect("wait").success());
}

#[test]
fn a_reader_that_goes_away_ends_the_process_quietly() {
    let mut child = spawn_arbiter(&[]);
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 5];
    stdin.write_all(b"moves\n").expect("write");
    stdout.read_exact(&mut first).expect("first answer");
    drop(stdout);
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all("moves\n".repeat(200_000).as_bytes());
    });
    let output = child.wait_with_output().expect("wait");
    feeder.join().expect("feeder");
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    assert!(output.status.code().is_some(), "killed by a signal");
}

#[test]
fn a_pipe_sees_no_banner_and_the_text_board_whatever_the_colour_settings() {
    let text = arbiter(&[], "d\n").stdout;
    assert!(text.starts_with(" +---+---+"), "{text}");
    let mut child = Command::new(BIN)
        .args(["--echo"])
        .env("TERM", "xterm-256color")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"d\n")
        .expect("write");
    let output = child.wait_with_output().expect("wait");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        format!("> d\n{text}")
    );
    assert_eq!(arbiter(&["--no-color"], "d\n").stdout, text);
}

#[test]
fn completions_prints_a_script_for_each_shell() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef arbiter"),
        ("fish", "complete -c arbiter"),
    ] {
        let run = arbiter(&["--completions", shell], "");
        assert_eq!(run.code, Some(0), "{shell}: {}", run.stderr);
        assert!(run.stdout.contains(marker), "{shell}:\n{}", run.stdout);
        assert!(run.stdout.contains("no-color"), "{shell} lacks the flags");
    }
    assert_eq!(arbiter(&["--completions", "tcsh"], "").code, Some(2));
}

// ---- position pgn over generated files ----

/// A generated PGN file under the temporary directory, removed when dropped.
pub(crate) struct TempPgn(PathBuf);

impl TempPgn {
    pub(crate) fn new(name: &str, bytes: &[u8]) -> TempPgn {
        let path = std::env::temp_dir().join(format!(
            "arbiter-protocol-{}-{name}.pgn",
            std::process::id()
        ));
        std::fs::write(&path, bytes).expect("write the PGN file");
        TempPgn(path)
    }

    pub(crate) fn path(&self) -> String {
        self.0.display().to_string()
    }
}

impl Drop for TempPgn {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Runs a transcript (its `> ` lines through `--echo`) and asserts it is what it says.
fn assert_transcript(name: &str, transcript: &str) {
    if let Some(difference) = check_transcript(name, transcript) {
        panic!("{difference}");
    }
}

/// One game of `len` bytes exactly, from its first byte to the end of its result token:
/// 1. e4 e5 with a comment that pads it, won by white (a resignation).
pub(crate) fn padded_game(event: &str, len: usize) -> Vec<u8> {
    let head = format!("[Event \"{event}\"]\n\n1. e4 {{");
    let tail = "} e5 1-0";
    let pad = len - head.len() - tail.len();
    let mut game = head.into_bytes();
    game.extend(std::iter::repeat_n(b'x', pad));
    game.extend_from_slice(tail.as_bytes());
    assert_eq!(game.len(), len);
    game
}

#[test]
fn position_pgn_refuses_a_game_past_the_limit_wherever_it_is_read_from() {
    use arbiter::pgn::stream::MAX_GAME;
    let mut bytes = padded_game("At the limit", MAX_GAME);
    bytes.extend_from_slice(b"\n\n");
    // Longer than the limit, but short enough that one read of a file holds it whole.
    bytes.extend(padded_game("Past the limit", MAX_GAME + MAX_GAME / 10));
    bytes.extend_from_slice(b"\n\n[Event \"After\"]\n\n1. d4 d5 *\n");
    let file = TempPgn::new("too-long", &bytes);
    let path = file.path();
    assert_transcript(
        "game-too-long",
        &format!(
            "> position startpos moves e4\n\
             > position pgn {path} 2\n\
             error game-too-long game 2: the game is longer than 1048576 bytes\n\
             > history\n\
             history e2e4\n\
             > position pgn {path} 1\n\
             > status\n\
             status resigned winner white\n\
             > position pgn {path} 3\n\
             > history\n\
             history d2d4 d7d5\n\
             > position pgn {path} 4\n\
             error no-such-game {path} holds 3 games, so there is no game 4\n"
        ),
    );
    // A pipe is refused before it is read (tests/own_files.rs): only regular files hold PGN.
}

/// Game `n` of the many-games file: its own tags and a short random legal game.
fn numbered_game(n: usize) -> (String, Vec<String>) {
    let mut seed = 0x2545_F491_4F6C_DD1D_u64 ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut game = Game::default();
    let mut text = format!("[Event \"Game {n}\"]\n[Round \"{n}\"]\n[Result \"*\"]\n\n");
    let mut history = Vec::new();
    for ply in 0..24 {
        let moves = game.legal_moves().clone();
        if moves.is_empty() || game.status().is_over() {
            break;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let m = moves.as_slice()[(seed % moves.len() as u64) as usize];
        if ply % 2 == 0 {
            text.push_str(&format!("{}. ", ply / 2 + 1));
        }
        text.push_str(&game.position().san(m));
        text.push(' ');
        history.push(m.to_uci(CastlingMode::Standard).to_string());
        game.play(m);
    }
    text.push_str("*\n\n");
    (text, history)
}

#[test]
fn position_pgn_finds_the_last_of_five_thousand_games() {
    let mut bytes = String::new();
    let mut histories = Vec::new();
    for n in 1..=5000 {
        let (text, history) = numbered_game(n);
        bytes.push_str(&text);
        histories.push(history.join(" "));
    }
    let file = TempPgn::new("many", bytes.as_bytes());
    let path = file.path();
    let started = Instant::now();
    let run = arbiter(
        &[],
        format!(
            "position pgn {path} 5000\nhistory\npgn\nposition pgn {path} 2500\nhistory\n\
             position pgn {path} 5001\n"
        ),
    );
    let took = started.elapsed();
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines[0],
        format!("history {}", histories[4999]),
        "{}",
        run.stdout
    );
    assert!(lines.contains(&"[Event \"Game 5000\"]"), "{}", run.stdout);
    assert!(lines.contains(&"[Round \"5000\"]"), "{}", run.stdout);
    assert!(
        lines.contains(&format!("history {}", histories[2499]).as_str()),
        "{}",
        run.stdout
    );
    assert_eq!(
        lines.last().copied(),
        Some(
            format!("error no-such-game {path} holds 5000 games, so there is no game 5001")
                .as_str()
        )
    );
    // The games before the one asked for are only scanned: well under a second each
    // time on a file of this size (the bound is loose for a loaded machine).
    assert!(took < Duration::from_secs(10), "took {took:?}");
}

#[test]
fn position_pgn_reads_a_file_whose_last_game_is_cut() {
    let whole = "[Event \"One\"]\n\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n\n\
                 [Event \"Two\"]\n\n1. d4 d5 *\n\n";
    for (name, last, error) in [
        (
            "after-a-move",
            "[Event \"Three\"]\n\n1. c4 e5 2. Nc3",
            "pgn-syntax game 3: the movetext ends without a result token (1-0, 0-1, 1/2-1/2 or *)",
        ),
        (
            "in-a-comment",
            "[Event \"Three\"]\n\n1. c4 { the file ends he",
            "pgn-syntax game 3: a { comment is not closed",
        ),
        (
            "in-a-variation",
            "[Event \"Three\"]\n\n1. c4 (1. b3 e5",
            "pgn-syntax game 3: a ( variation is not closed",
        ),
        (
            "in-the-tags",
            "[Event \"Three\"]\n[Site \"cut",
            "pgn-syntax game 3: a tag pair is not [Name \"value\"] on one line",
        ),
    ] {
        let file = TempPgn::new(&format!("cut-{name}"), format!("{whole}{last}").as_bytes());
        let path = file.path();
        assert_transcript(
            name,
            &format!(
                "> position pgn {path} 2\n\
                 > position pgn {path} 3\n\
                 error {error}\n\
                 > history\n\
                 history d2d4 d7d5\n\
                 > position pgn {path} 1\n\
                 > status\n\
                 status draw reason agreement\n\
                 > position pgn {path} 4\n\
                 error no-such-game {path} holds 3 games, so there is no game 4\n"
            ),
        );
    }
}

/// `--safe` refuses each command that touches a file or runs a perft, and the file a
/// refused `pgn save` names is not created; everything else still works.
#[test]
fn safe_flag_refuses_files_and_perft() {
    let saved = std::env::temp_dir().join(format!("arbiter-safe-{}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&saved);
    let run = arbiter(
        &["--safe"],
        format!(
            "position pgn Cargo.toml\n\
             pgn save {}\n\
             go perft 1\n\
             perft 1\n\
             setoption name Safe value false\n\
             position startpos moves e4\n\
             fen\n",
            saved.display()
        ),
    );
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 6, "{}", run.stdout);
    for line in &lines[..5] {
        assert!(line.starts_with("error not-allowed "), "{line}");
    }
    assert_eq!(
        lines[5],
        "fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert!(!saved.exists());
}
