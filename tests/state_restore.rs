//! `state` and `restore`: the state of a game, restored in a fresh process, gives back
//! the same state byte for byte, over random games of every kind (offers pending,
//! claimed draws, resignations, flag falls, aborts, Chess960, games loaded from
//! commented PGN); and an object bad in any of many ways changes nothing.
//!
//! The games' moves are chosen by shakmaty from the position arbiter shows, so that
//! the games are legal by an independent judge; the commands around them (offers,
//! takebacks, undo, results) are random, refused or not.

use std::io::Write;
use std::process::{Command, Stdio};

use arbiter::protocol::Session;
use serde_json::Value;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position as _};

use crate::differential::Rng;

const BIN: &str = env!("CARGO_BIN_EXE_arbiter");

/// How many random games the round trip covers.
const GAMES: u64 = 240;

/// Chess960 starts (the first is the standard one).
const CHESS960: &[&str] = &[
    "nrbqkbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBRN w KQkq - 0 1",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
    "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1",
];

/// One line's text answer (without a game prefix, which `execute` does not write).
fn text(session: &mut Session, line: &str) -> String {
    let mut out = Vec::new();
    session
        .execute(line)
        .write_to(&mut out)
        .expect("write to a Vec");
    String::from_utf8(out).expect("answers are UTF-8")
}

/// The object of a `state` answer.
fn state_object(session: &mut Session, game: &str) -> String {
    let answer = text(session, &format!("game {game} state"));
    answer
        .strip_prefix("state ")
        .and_then(|rest| rest.strip_suffix('\n'))
        .unwrap_or_else(|| panic!("not a state answer: {answer}"))
        .to_string()
}

fn colour(rng: &mut Rng) -> &'static str {
    if rng.chance(50) {
        "white"
    } else {
        "black"
    }
}

/// The legal moves of the game's position by shakmaty, in UCI as arbiter's game writes
/// them.
fn legal_moves(session: &mut Session, game: &str, chess960: bool) -> Vec<String> {
    let answer = text(session, &format!("game {game} fen"));
    let fen = answer.trim_end().strip_prefix("fen ").expect("a FEN");
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let pos: Chess = fen
        .parse::<Fen>()
        .expect("arbiter's FEN parses")
        .into_position(mode)
        .expect("arbiter's position is legal");
    pos.legal_moves()
        .iter()
        .map(|m| UciMove::from_move(m, mode).to_string())
        .collect()
}

fn is_over(session: &mut Session, game: &str) -> bool {
    let status = text(session, &format!("game {game} status"));
    let state = status.split_whitespace().nth(1);
    !matches!(state, Some("active" | "check"))
}

/// Plays up to `plies` random moves, with random offers, answers, takebacks, undos and
/// tags between them.
fn play(session: &mut Session, game: &str, plies: usize, chess960: bool, rng: &mut Rng) {
    for _ in 0..plies {
        if is_over(session, game) {
            return;
        }
        let line = match rng.below(20) {
            0 => format!("draw offer {}", colour(rng)),
            1 => format!("draw decline {}", colour(rng)),
            2 => format!("takeback offer {}", colour(rng)),
            3 => format!("takeback accept {}", colour(rng)),
            4 => "undo".to_string(),
            5 => format!("tag White player{}", rng.below(100)),
            _ => {
                let moves = legal_moves(session, game, chess960);
                assert!(
                    !moves.is_empty(),
                    "{game}: {}",
                    text(session, &format!("game {game} d"))
                );
                format!("move {}", moves[rng.below(moves.len())])
            }
        };
        session.execute(&format!("game {game} {line}"));
    }
}

/// How the game is left: going on (perhaps with offers pending) or ended some way.
fn finish(session: &mut Session, game: &str, rng: &mut Rng) {
    let line = match rng.below(12) {
        0 => format!("resign {}", colour(rng)),
        1 => format!("timeout {}", colour(rng)),
        2 => "abort".to_string(),
        3 => "draw".to_string(),
        4 => "claim".to_string(),
        5 => format!("draw offer {}", colour(rng)),
        6 => format!("takeback offer {}", colour(rng)),
        _ => return,
    };
    session.execute(&format!("game {game} {line}"));
}

/// A PGN file of a random game with a comment (a clock among them) after some moves.
fn commented_pgn(rng: &mut Rng, path: &std::path::Path) {
    let mut pos = Chess::default();
    let mut movetext = String::from("{ before the first move } ");
    for ply in 0..rng.below(30) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())].clone();
        let san = shakmaty::san::San::from_move(&pos, &m);
        if ply % 2 == 0 {
            movetext.push_str(&format!("{}. ", ply / 2 + 1));
        }
        movetext.push_str(&format!("{san} "));
        if rng.chance(40) {
            movetext.push_str(&format!("{{ [%clk 0:0{}:{:02}] }} ", rng.below(10), ply));
        }
        if rng.chance(10) {
            movetext.push_str("; a line comment with a } in it\n");
        }
        pos = pos.play(&m).expect("legal");
    }
    let text = format!(
        "[Event \"Commented {}\"]\n[White \"A\"]\n\n{movetext}*\n",
        rng.below(1000)
    );
    std::fs::write(path, text).expect("write the PGN file");
}

/// Game `index`: set up, played and finished as its seed says.
fn make_game(session: &mut Session, index: u64, dir: &std::path::Path) -> String {
    let game = format!("g{index}");
    let mut rng = Rng::new(0x57a7_e000 + index);
    let kind = index % 6;
    let chess960 = kind == 3;
    match kind {
        3 => {
            let fen = CHESS960[rng.below(CHESS960.len())];
            session.execute(&format!("game {game} position fen {fen} chess960"));
        }
        4 => {
            let path = dir.join(format!("{game}.pgn"));
            commented_pgn(&mut rng, &path);
            let line = format!("game {game} position pgn {}", path.display());
            let answer = text(session, &line);
            assert!(answer.is_empty(), "{line}: {answer}");
        }
        5 => {
            // A repetition to claim, after a random opening.
            session.execute(&format!("game {game} position startpos"));
            play(session, &game, rng.below(6), false, &mut rng);
            for m in ["Nc3", "Nc6", "Nb1", "Nb8", "Nc3", "Nc6", "Nb1", "Nb8"] {
                session.execute(&format!("game {game} move {m}"));
            }
        }
        _ => {
            session.execute(&format!("game {game} position startpos"));
        }
    }
    let plies = match kind {
        4 | 5 => rng.below(4),
        _ => rng.below(80),
    };
    play(session, &game, plies, chess960, &mut rng);
    finish(session, &game, &mut rng);
    game
}

/// The states of all the random games, made in one session.
fn random_states() -> Vec<(String, String)> {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "arbiter-state-restore-{}-{run}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let mut session = Session::new();
    let states = (0..GAMES)
        .map(|index| {
            let game = make_game(&mut session, index, &dir);
            let object = state_object(&mut session, &game);
            (game, object)
        })
        .collect();
    std::fs::remove_dir_all(&dir).ok();
    states
}

#[test]
fn the_random_games_reach_every_kind_of_state() {
    let states = random_states();
    let has = |needle: &str| states.iter().any(|(_, s)| s.contains(needle));
    for needle in [
        "\"decision\":\"resignation\"",
        "\"decision\":\"timeout\"",
        "\"decision\":\"abort\"",
        "\"decision\":\"agreement\"",
        "\"decision\":\"threefold\"",
        "\"decision\":null",
        "\"draw\":{\"by\"",
        "\"takeback\":{\"by\"",
        "\"chess960\":true",
        "[%clk",
        "\"tags\":[[",
    ] {
        assert!(has(needle), "no random game's state holds {needle}");
    }
}

#[test]
fn a_state_restored_in_a_fresh_session_is_the_same_byte_for_byte() {
    for (game, object) in random_states() {
        let mut fresh = Session::new();
        let answer = text(&mut fresh, &format!("game {game} restore {object}"));
        assert_eq!(answer, "", "{game}: restore {object}");
        assert_eq!(state_object(&mut fresh, &game), object, "{game}");
        // And into the default game.
        let answer = text(&mut fresh, &format!("restore {object}"));
        assert_eq!(answer, "", "restore {object}");
        let again = text(&mut fresh, "state");
        assert_eq!(again, format!("state {object}\n"));
    }
}

#[test]
fn every_state_restored_in_a_fresh_process_is_the_same_byte_for_byte() {
    let states = random_states();
    let mut input = String::new();
    let mut expected = String::new();
    for (game, object) in &states {
        input.push_str(&format!(
            "game {game} restore {object}\ngame {game} state\n"
        ));
        expected.push_str(&format!("game {game} state {object}\n"));
    }
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run arbiter");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("arbiter's output");
    writer.join().expect("writer").expect("write the lines");
    assert_eq!(String::from_utf8_lossy(&output.stdout), expected);
}

#[test]
fn a_json_state_answer_restores_to_the_same_json_answer() {
    for (game, object) in random_states().into_iter().step_by(5) {
        let mut session = Session::new();
        session.execute("setoption name JSON value true");
        session.execute(&format!("game {game} restore {object}"));
        // The JSON answer, as a client reads it, fed back whole.
        let answer = json_state(&mut session, &game);
        let mut fresh = Session::new();
        fresh.execute("setoption name JSON value true");
        fresh.execute(&format!("game {game} restore {answer}"));
        assert_eq!(json_state(&mut fresh, &game), answer);
    }
}

/// The JSON answer to `game <game> state`, as arbiter writes it.
fn json_state(session: &mut Session, game: &str) -> String {
    let line = format!("game {game} state");
    let (step, address) = session.step_addressed(&line);
    let arbiter::protocol::Step::Reply(reply) = step else {
        panic!("state is no long work");
    };
    let header = arbiter::protocol::Header {
        id: None,
        command: Some("state"),
        game: address.game,
        version: address.version,
    };
    let mut out = Vec::new();
    reply
        .write(&mut out, &header, arbiter::protocol::Format::Json)
        .expect("write to a Vec");
    String::from_utf8(out)
        .expect("UTF-8")
        .trim_end()
        .to_string()
}

/// The ways an object can be bad, each applied to a good one.
fn spoil(kind: usize, object: &mut Value) -> Option<String> {
    let o = object.as_object_mut()?;
    let plies = o["moves"].as_array()?.len();
    match kind {
        0 => drop(o.remove("version")),
        1 => drop(o.remove("start")),
        2 => drop(o.remove("moves")),
        3 => drop(o.insert("version".into(), "7".into())),
        4 => drop(o.insert("version".into(), Value::from(1u64 << 53))),
        5 => drop(o.insert("version".into(), Value::from(-1))),
        6 => drop(o.insert("start".into(), "8/8/8 w - - 0 1".into())),
        7 => o["moves"].as_array_mut()?.push("a1a1".into()),
        8 => o["moves"].as_array_mut()?.push("Zz9".into()),
        9 => drop(o.insert("moves".into(), "e2e4".into())),
        10 => drop(o.insert("chess960".into(), "no".into())),
        11 => drop(o.insert("decision".into(), "victory".into())),
        12 => {
            let board = if o["decision"] == "checkmate" {
                "stalemate"
            } else {
                "checkmate"
            };
            drop(o.insert("decision".into(), board.into()))
        }
        13 => o["offers"]["draw"] = serde_json::json!({"by": "purple", "ply": 0}),
        14 => o["offers"]["takeback"] = serde_json::json!({"by": "white", "ply": plies + 5}),
        15 => o["tags"]
            .as_array_mut()?
            .push(serde_json::json!(["FEN", "x"])),
        16 => {
            let tags = o["tags"].as_array_mut()?;
            tags.push(serde_json::json!(["Round", "1"]));
            tags.push(serde_json::json!(["Round", "2"]));
        }
        17 => o["comments"]
            .as_array_mut()?
            .push(serde_json::json!({"ply": plies + 1, "text": "late"})),
        18 => o["comments"]
            .as_array_mut()?
            .push(serde_json::json!({"ply": 0, "text": "bell\u{7}"})),
        19 => drop(o.insert("extra".into(), Value::Null)),
        20 => return Some("[1,2,3]".to_string()),
        21 => {
            let text = object.to_string();
            return Some(text[..text.len() / 2].to_string());
        }
        22 => drop(o.insert("tags".into(), serde_json::json!({"White": "x"}))),
        23 => drop(o.insert("comments".into(), serde_json::json!([1]))),
        24 => drop(o.insert("offers".into(), serde_json::json!([]))),
        25 => {
            drop(o.insert("decision".into(), "resignation".into()));
            drop(o.insert("result".into(), "*".into()))
        }
        26 => drop(o.insert("start".into(), Value::Null)),
        _ => return None,
    }
    Some(object.to_string())
}

const SPOILS: usize = 27;

#[test]
fn a_bad_object_of_every_kind_changes_nothing() {
    let states = random_states();
    let mut refused = vec![0; SPOILS];
    for (index, (game, object)) in states.iter().enumerate() {
        let mut session = Session::new();
        session.execute(&format!("game {game} restore {object}"));
        let before = state_object(&mut session, game);
        for (kind, count) in refused.iter_mut().enumerate() {
            let mut value: Value = serde_json::from_str(object).expect("state is JSON");
            let Some(bad) = spoil(kind, &mut value) else {
                continue;
            };
            let answer = text(&mut session, &format!("game {game} restore {bad}"));
            assert!(
                answer.starts_with("error "),
                "game {index} kind {kind}: {bad}: {answer}"
            );
            *count += 1;
            assert_eq!(
                state_object(&mut session, game),
                before,
                "kind {kind}: {bad}"
            );
        }
        // Nor does a bad object open a game that is not open.
        let answer = text(&mut session, "game closed restore {\"version\":1}");
        assert!(answer.starts_with("error bad-state"), "{answer}");
        assert!(text(&mut session, "games")
            .trim_end()
            .ends_with(game.as_str()));
    }
    assert!(refused.iter().all(|&n| n > 0), "{refused:?}");
}

#[test]
fn a_version_seen_before_a_restore_of_another_game_is_stale() {
    let mut session = Session::new();
    session.execute("game t position startpos moves e4");
    let seen = text(&mut session, "game t version");
    let seen: u64 = seen
        .trim_end()
        .strip_prefix("version ")
        .unwrap()
        .parse()
        .unwrap();
    let other = format!(
        "{{\"version\":{},\"start\":\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\",\"moves\":[\"d2d4\"]}}",
        seen + 100
    );
    assert_eq!(text(&mut session, &format!("game t restore {other}")), "");
    let answer = text(&mut session, &format!("game t if {seen} move d5 as black"));
    assert!(answer.starts_with("error stale-version"), "{answer}");
    // The version the restored object carries is the game's.
    let answer = text(
        &mut session,
        &format!("game t if {} move d5 as black", seen + 100),
    );
    assert!(answer.starts_with("played d7d5"), "{answer}");
    // And the next change of any game takes a version above it.
    session.execute("game u position startpos");
    let answer = text(&mut session, "game u version");
    let version: u64 = answer
        .trim_end()
        .strip_prefix("version ")
        .unwrap()
        .parse()
        .unwrap();
    assert!(version > seen + 101, "{version}");
}
