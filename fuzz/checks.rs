//! The invariants of the fuzz targets, one function per target, shared with the test
//! suite (`tests/fuzz_regressions.rs` replays the seeds and every crash found through
//! them). Each panics when an invariant breaks.

#![allow(dead_code)] // each fuzz target uses one of these

use arbiter::color::Color;
use arbiter::game::Status;
use arbiter::moves::CastlingMode;
use arbiter::moves::Move;
use arbiter::pgn::database::{self, Config, Select, Source, Summary, Target};
use arbiter::pgn::edit::{Add, Strip};
use arbiter::pgn::reader::{read_game, GameRead};
use arbiter::pgn::{writer, GameReader, Loaded, Next, Options, Replayer};
use arbiter::position::Position;
use arbiter::protocol::name::NameRef;
use arbiter::protocol::prefix::Prefixed;
use arbiter::protocol::request::Request;
use arbiter::protocol::{GameName, Reply, Runner, Session, Version};
use arbiter::query::Query;
use arbiter::san::SanError;
use arbiter::uci::UciMove;

/// Arbitrary bytes as a FEN. Invariants: no panic; an accepted FEN prints a FEN that
/// parses back to the same position (exactly, when the en-passant square it keeps is the
/// one the FEN prints), printing is idempotent, and move generation, SAN and the other
/// queries run on it.
pub fn fen(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = Position::from_fen(text) else {
        return;
    };
    let fen = pos.fen();
    let again = match Position::from_fen(&fen) {
        Ok(again) => again,
        Err(e) => panic!("{text:?} printed as {fen:?}, which does not parse: {e}"),
    };
    assert_eq!(again.fen(), fen, "printing is not idempotent for {text:?}");
    assert_eq!(again.repetition_key(), pos.repetition_key());
    if pos.ep_square() == pos.legal_ep_square() {
        assert_eq!(again, pos, "{text:?} does not round-trip through {fen:?}");
    }
    let moves = pos.legal_moves();
    assert_eq!(moves.len() as u64, pos.count_legal_moves());
    assert_eq!(moves.is_empty(), !pos.has_legal_moves());
    for &m in &moves {
        let san = pos.san(m);
        assert_eq!(
            pos.parse_san(&san),
            Ok(m),
            "{fen}: {san} does not parse back"
        );
        let next = pos.after(m);
        // The mover's king is never left attacked.
        assert!(!next.is_attacked(next.king(pos.turn()), next.turn()));
    }
    let _ = pos.is_checkmate();
    let _ = pos.is_stalemate();
    let _ = pos.is_insufficient_material();
    let _ = arbiter::perft::perft(&pos, 2);
}

/// Positions rich in what SAN has to say: castling both ways (standard and Chess960),
/// en passant, promotions with and without capture, ambiguous pieces, checks and mates.
pub const SAN_FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
    "1r2k2r/8/8/8/8/8/8/R3K1R1 w GAkb - 0 1",
    "rk5r/8/8/8/8/8/8/RK5R b HAha - 0 1",
    "4k3/1P6/8/3pP3/8/8/6p1/4K2R w K d6 0 1",
    "4k3/1P6/8/8/3Pp3/8/6p1/R3K3 b Q d3 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "N3k3/8/8/8/8/8/8/N3K2N w - - 0 1",
    "7k/8/8/8/8/8/8/1Q1Q2QK w - - 0 1",
    "3k4/8/8/q2pP2K/8/8/8/8 w - d6 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
];

/// A fixed set of positions (chosen by the first byte) and arbitrary text as SAN.
/// Invariants: no panic; an accepted move is legal, and its own SAN parses back to it.
/// Errors are checked too: an ambiguity names at least two legal candidates.
pub fn san(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let fen = SAN_FENS[usize::from(which) % SAN_FENS.len()];
    let Ok(pos) = Position::from_fen(fen) else {
        panic!("seed position {fen} does not parse");
    };
    let full = pos.parse_san(text);
    // The shortcuts a file's moves take name what the full reading names, or nothing.
    if let Some((m, _)) = pos.find_plain_san(rest) {
        assert_eq!(full, Ok(m), "{fen}: {text:?}: the quick reading gave {m:?}");
    }
    if let Ok(m) = pos.parse_san_bytes(rest) {
        assert_eq!(full, Ok(m), "{fen}: {text:?}: the lean reading gave {m:?}");
    }
    match full {
        Ok(m) => {
            assert!(pos.is_legal(m), "{fen}: {text:?} gave the illegal {m:?}");
            let san = pos.san(m);
            assert_eq!(pos.parse_san(&san), Ok(m), "{fen}: {text:?} -> {san}");
        }
        Err(SanError::Ambiguous(candidates)) => {
            assert!(candidates.len() >= 2, "{fen}: {text:?}: {candidates:?}");
        }
        Err(_) => {}
    }
}

/// Positions for UCI text: castling in both notations (standard, Chess960, X-FEN and
/// Shredder-FEN rights), en passant (one of them pinned), promotions.
pub const UCI_FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "1r2k2r/8/8/8/8/8/8/R3K1R1 w GAkb - 0 1",
    "rk5r/8/8/8/8/8/8/RK5R b HAha - 0 1",
    "4k3/1P6/8/3pP3/8/8/6p1/4K2R w K d6 0 1",
    "3k4/8/8/q2pP2K/8/8/8/8 w - d6 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
];

/// Arbitrary text as a UCI move, matched in a fixed set of positions (chosen by the first
/// byte) in both castling modes. Invariants: no panic; parsed text prints back to an
/// equal `UciMove`; an accepted move is legal, and its own UCI text (in that mode) names
/// it again; a refusal comes with a diagnosis that displays.
pub fn uci_move(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(uci) = text.parse::<UciMove>() else {
        return;
    };
    assert_eq!(uci.to_string().parse::<UciMove>(), Ok(uci), "{text:?}");
    let fen = UCI_FENS[usize::from(which) % UCI_FENS.len()];
    let Ok(pos) = Position::from_fen(fen) else {
        panic!("seed position {fen} does not parse");
    };
    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        match pos.uci_to_move(uci, mode) {
            Ok(m) => {
                assert!(pos.is_legal(m), "{fen}: {text:?} gave the illegal {m:?}");
                let back = m.to_uci(mode);
                assert_eq!(
                    pos.uci_to_move(back, mode),
                    Ok(m),
                    "{fen}: {text:?} {mode:?}"
                );
            }
            Err(why) => {
                assert!(!why.to_string().is_empty());
            }
        }
    }
}

/// Whether a line asks for a perft deeper than the harness allows.
fn too_deep(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    text.contains("perft")
        && text
            .split_whitespace()
            .any(|t| t.parse::<u32>().is_ok_and(|d| d > 2))
}

fn render(reply: &Reply) -> String {
    let mut out = Vec::new();
    if let Err(e) = reply.write_to(&mut out) {
        panic!("writing to a Vec failed: {e}");
    }
    match String::from_utf8(out) {
        Ok(text) => text,
        Err(e) => panic!("an answer is not UTF-8: {e}"),
    }
}

/// Everything a client can observe of the session's state (what `fen`, `d`, `history`
/// and `status` print is made of these), compared as values: fast enough to take before
/// and after every line.
#[derive(Debug, PartialEq)]
struct State {
    default: GameState,
    /// The open named games, by name.
    named: Vec<(GameName, GameState)>,
    chess960: bool,
}

/// What a client can observe of one game.
#[derive(Debug, PartialEq)]
struct GameState {
    position: Position,
    base: Position,
    moves: Vec<Move>,
    status: Status,
    repetitions: u32,
    mode: CastlingMode,
    version: Option<Version>,
    offer: Option<Color>,
    takeback: Option<Color>,
}

fn game_state(session: &Session, name: Option<GameName>, game: &arbiter::game::Game) -> GameState {
    GameState {
        position: *game.position(),
        base: *game.base(),
        moves: game.moves().collect(),
        status: game.status(),
        repetitions: game.repetitions(),
        mode: game.mode(),
        version: session.version(name),
        offer: session.offer(name),
        takeback: session.takeback(name),
    }
}

fn snapshot(session: &Session) -> State {
    State {
        default: game_state(session, None, session.game()),
        named: session
            .named_games()
            .into_iter()
            .map(|(name, game)| (name, game_state(session, Some(name), game)))
            .collect(),
        chess960: session.is_chess960(),
    }
}

/// Arbitrary bytes as a stream of protocol lines, fed to a `Session`.
///
/// Invariants: no panic and no hang (lines asking for perft deeper than 2 are dropped
/// first: they are slow by design, not hangs); the whole stream runs through `Runner`
/// (line splitting, UTF-8 and length checks); and line by line, as the contract says:
/// - a blank line or `#` comment answers nothing; `position`, `ucinewgame`,
///   `setoption`, `tag` and `stop` answer nothing or one error; every other command
///   answers or errs (an `@<id>` prefix changes none of this);
/// - an error is exactly one line `error <code> <message>`, and the state after it
///   (position, base position, moves played, status, repetition count, Chess960
///   option) equals the state before it;
/// - queries change nothing; `legal <text>` never answers an error;
/// - no answer line ends in a blank;
/// - through a `Runner`, line by line: a line with a readable `@<id>` is answered
///   exactly once with its id (`ok` for a command silent on success), and one without
///   answers nothing exactly when the command is silent;
/// - with the prefixes `game <name>` and `if <version>` (which change none of the
///   above): a command on a named game that is not open, other than `position` and
///   `ucinewgame`, answers `unknown-game`; `if` with another version than the game's
///   answers `stale-version`; a command that changes a game (creating or replacing
///   it included) moves its version above every version any game has had so far (one
///   counter for the process: a version never comes back), and one that fails or only
///   reads leaves it (and every other game) as it was; `restore` gives the game the
///   version its object carries, and creates a game as `position` does;
/// - `restore` of what `state` answered, in a fresh session, answers the same `state`.
pub fn session(data: &[u8]) {
    let lines: Vec<&[u8]> = data
        .split(|&b| b == b'\n')
        .filter(|line| !too_deep(line))
        .collect();
    let input = lines.join(&b'\n');

    let mut runner = Runner::new(Session::new(), Vec::new(), false);
    if let Err(e) = runner.run_stream(input.as_slice()) {
        panic!("run_stream into a Vec failed: {e}");
    }

    let mut session = Session::new();
    // The same lines one by one through a runner, whose answers carry the ids.
    let answers = Answers::default();
    let mut by_line = Runner::new(Session::new(), answers.clone(), false);
    // The highest version any game has had so far.
    let mut highest = 0;
    for raw in lines {
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let Ok(line) = std::str::from_utf8(raw) else {
            continue;
        };
        // As the protocol defines it: every control character but tab (form feed and
        // vertical tab included, which Rust counts as whitespace).
        let control = line.chars().any(|c| c.is_control() && c != '\t');
        // An `@<id>` prefix is the client's; the command is what follows it and the
        // game prefixes.
        let request = Request::split(line).text;
        let prefixed = Prefixed::split(request).ok();
        let command = prefixed.map_or(request, |p| p.text);
        let tokens: Vec<&str> = command.split_whitespace().collect();
        let keyword = tokens.first().copied();
        let target = prefixed.and_then(|p| p.game).map(NameRef::to_name);
        let version_before = session.version(target);
        let before = snapshot(&session);
        let reply = session.execute(line);
        let text = render(&reply);
        check_request_answered(&mut by_line, &answers, line, &reply);
        let highest_before = highest;
        let after = snapshot(&session);
        for version in std::iter::once(&after.default)
            .chain(after.named.iter().map(|(_, game)| game))
            .filter_map(|game| game.version)
        {
            highest = highest.max(version);
        }
        // A change of the line's game: a version above every one seen before.
        let changed = |session: &Session| {
            assert!(
                session.version(target).is_some_and(|v| v > highest_before),
                "{line:?}: version {:?}, not above {highest_before}",
                session.version(target)
            );
        };

        let creates = matches!(keyword, Some("position" | "ucinewgame" | "restore"));
        if let (Some(p), false, Some(_)) = (prefixed, control, keyword) {
            if version_before.is_none() && !creates && !keyword.is_some_and(|k| k.starts_with('#'))
            {
                // A command that is wrong whatever the game (one of the process, or
                // refused in safe mode) is refused before the game is looked up.
                assert!(
                    matches!(&reply, Reply::Error(e) if matches!(e.code(), "unknown-game" | "bad-argument" | "unknown-command" | "process-wide" | "not-allowed")),
                    "{line:?} on a game that is not open: {text:?}"
                );
            }
            if let (Some(expected), Some(current)) = (p.expected, version_before) {
                if expected != current {
                    assert!(
                        matches!(&reply, Reply::Error(e) if matches!(e.code(), "stale-version" | "bad-argument" | "unknown-command" | "process-wide" | "not-allowed")),
                        "{line:?} at version {current}: {text:?}"
                    );
                }
            }
        }
        match &reply {
            Reply::Error(error) => {
                assert_eq!(text.matches('\n').count(), 1, "{line:?}: {text:?}");
                assert!(text.starts_with(&format!("error {} ", error.code())));
                let after = snapshot(&session);
                assert_eq!(
                    before, after,
                    "{line:?} failed ({text:?}) but changed the state"
                );
                // `legal <text>` answers whatever the text; only its prefixes can be
                // refused (a game not open, another version).
                assert!(
                    control
                        || keyword != Some("legal")
                        || tokens.len() != 2
                        || matches!(error.code(), "unknown-game" | "stale-version"),
                    "{line:?}: {text:?}"
                );
            }
            Reply::Silent => {
                assert!(!control, "{line:?} holds a control character yet passed");
                assert!(
                    matches!(
                        keyword,
                        None | Some(
                            "position"
                                | "ucinewgame"
                                | "setoption"
                                | "tag"
                                | "stop"
                                | "close"
                                | "restore"
                        )
                    ) || keyword.is_some_and(|k| k.starts_with('#')),
                    "{line:?} answered nothing"
                );
                assert!(text.is_empty());
                if matches!(keyword, Some("tag" | "position" | "ucinewgame")) {
                    changed(&session);
                }
                // A restored game keeps the version it was saved at: the counter moves
                // above it instead.
                if keyword == Some("restore") {
                    highest = highest.max(session.version(target).unwrap_or(0));
                }
            }
            Reply::Quit => {
                assert_eq!(keyword, Some("quit"));
                break;
            }
            Reply::Answer(_) => {
                assert!(!control, "{line:?} holds a control character yet passed");
                assert!(
                    !matches!(
                        keyword,
                        None | Some(
                            "position" | "ucinewgame" | "setoption" | "tag" | "stop" | "restore"
                        )
                    ),
                    "{line:?} answered {text:?}"
                );
                assert!(text.ends_with('\n'), "{line:?}: {text:?}");
                for answer_line in text.lines() {
                    assert_eq!(answer_line.trim_end(), answer_line, "{line:?}: {text:?}");
                }
                if matches!(
                    keyword,
                    Some(
                        "move"
                            | "undo"
                            | "resign"
                            | "draw"
                            | "claim"
                            | "takeback"
                            | "timeout"
                            | "abort"
                    )
                ) {
                    changed(&session);
                } else {
                    let after = snapshot(&session);
                    assert_eq!(before, after, "the query {line:?} changed the state");
                }
                if keyword == Some("state") {
                    state_restores_byte_for_byte(&text);
                }
            }
        }
    }
}

/// `restore` of what `state` answered (in text), in a fresh session, gives back the
/// same `state`, byte for byte.
fn state_restores_byte_for_byte(answer: &str) {
    let Some(object) = answer.strip_prefix("state ") else {
        return; // a JSON answer: the text form is checked
    };
    let mut fresh = Session::new();
    let restored = render(&fresh.execute(&format!("restore {}", object.trim_end())));
    assert_eq!(restored, "", "restore of {object:?}");
    assert_eq!(render(&fresh.execute("state")), answer);
}

/// The answers of a runner, read between its lines.
#[derive(Clone, Default)]
struct Answers(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl Answers {
    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

impl std::io::Write for Answers {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs a line through the runner and checks its answer against the session's reply to
/// it: a line with a readable id gets exactly one answer carrying the id (`ok` for a
/// command silent on success); a line without one answers nothing exactly when the
/// command is silent.
fn check_request_answered(
    runner: &mut Runner<Answers>,
    answers: &Answers,
    line: &str,
    reply: &Reply,
) {
    if let Err(e) = runner.run_line(line) {
        panic!("run_line into a Vec failed: {e}");
    }
    let out = answers.take();
    let Ok(out) = String::from_utf8(out) else {
        panic!("{line:?}: an answer is not UTF-8");
    };
    let id = Request::split(line)
        .id
        .filter(|id| !id.chars().any(char::is_control));
    match id {
        Some(_) if out.starts_with('{') => {
            assert_eq!(out.matches('\n').count(), 1, "{line:?}: {out:?}");
            assert!(out.contains("\"id\":"), "{line:?}: {out:?}");
        }
        Some(id) => {
            assert!(!out.is_empty(), "{line:?} with an id answered nothing");
            for answer in out.lines() {
                assert!(
                    answer == format!("@{id}") || answer.starts_with(&format!("@{id} ")),
                    "{line:?}: {out:?}"
                );
            }
        }
        // A control character in the id: the line is refused, named by no id.
        None if line.chars().any(|c| c.is_control() && c != '\t') => {}
        None => assert_eq!(
            out.is_empty(),
            matches!(reply, Reply::Silent | Reply::Quit),
            "{line:?}: {out:?}"
        ),
    }
}

/// A game's verdict as text, to compare two reads of one file.
fn verdict(result: &Result<Loaded, arbiter::pgn::GameError>) -> String {
    match result {
        Ok(loaded) => {
            let moves: Vec<Move> = loaded.game.moves().collect();
            format!("ok {moves:?} {:?} {:?}", loaded.game.status(), loaded.tags)
        }
        Err(e) => {
            let text = e.to_string();
            assert!(!text.is_empty(), "{e:?} displays as nothing");
            format!("error {e:?}")
        }
    }
}

/// Every game of a file, as `position pgn` reads it (`GameReader` + `Replayer`).
fn read_all(data: &[u8]) -> Vec<String> {
    let len = data.len();
    let mut reader = GameReader::new(data);
    let mut replayer = Replayer::new(Options::default());
    let mut verdicts = Vec::new();
    loop {
        let before = reader.offset();
        let next = match reader.next_game(&mut replayer) {
            Ok(next) => next,
            Err(e) => panic!("reading from memory failed: {e}"),
        };
        if next == Next::End {
            assert_eq!(reader.offset(), len as u64, "the reader ended early");
            return verdicts;
        }
        // Every game takes at least one byte, so the reader ends.
        assert!(
            reader.offset() > before,
            "game {} took no bytes",
            verdicts.len() + 1
        );
        assert!(reader.offset() <= len as u64);
        let result = replayer.load();
        if let Ok(loaded) = &result {
            written_game_reads_back(loaded);
        }
        verdicts.push(verdict(&result));
    }
}

/// A loaded game, written in export format, reads back as the same game (with its
/// `Termination` tag read into its result, as `position pgn` reads it).
fn written_game_reads_back(loaded: &Loaded) {
    let mut loaded = loaded.clone();
    loaded.read_termination();
    let loaded = &loaded;
    let mut text = String::new();
    writer::write_game(&mut text, &loaded.tags, &loaded.game);
    let mut again = Replayer::new(Options::default());
    let step = read_game(text.as_bytes(), true, &mut again);
    assert!(
        matches!(step, GameRead::Game(n) if n <= text.len()),
        "{step:?} for\n{text}"
    );
    let mut back = match again.load() {
        Ok(back) => back,
        Err(e) => panic!("the written game does not load ({e}):\n{text}"),
    };
    back.read_termination();
    let moves: Vec<Move> = loaded.game.moves().collect();
    assert_eq!(back.game.moves().collect::<Vec<_>>(), moves, "{text}");
    assert_eq!(back.game.status(), loaded.game.status(), "{text}");
    assert_eq!(back.game.mode(), loaded.game.mode(), "{text}");
    assert_eq!(back.game.base().fen(), loaded.game.base().fen(), "{text}");
    assert_eq!(back.tags, loaded.tags, "{text}");
    let mut twice = String::new();
    writer::write_game(&mut twice, &back.tags, &back.game);
    assert_eq!(twice, text, "writing is not stable");
}

/// The first game read from a part of the file that is not its end: the reader must
/// ask for more, or give what it gives on the whole file (a stream hands it the file
/// in pieces, and a game must not depend on where a piece ends).
fn prefixes_agree(data: &[u8]) {
    let mut whole = Replayer::new(Options::default());
    let step = read_game(data, true, &mut whole);
    let expected = (step, verdict(&whole.load()));
    for eighth in 1..8 {
        let cut = data.len() * eighth / 8;
        let mut part = Replayer::new(Options::default());
        match read_game(&data[..cut], false, &mut part) {
            GameRead::NeedMore => {}
            step => assert_eq!(
                (step, verdict(&part.load())),
                expected,
                "the first game differs when the input is cut at byte {cut}"
            ),
        }
    }
}

/// Arbitrary bytes as a PGN file, read as `position pgn` reads one.
///
/// Invariants: no panic and no hang; every game takes at least one byte and the reader
/// ends exactly at the end of the file; every game is answered (loaded, or refused with
/// an error that displays); the first game read from a prefix of the file is either
/// incomplete or the same as from the whole file; and every game that loads, written
/// in export format, reads back as the same moves, status, castling mode, base position
/// and tags, and is written again byte for byte.
pub fn pgn(data: &[u8]) {
    read_all(data);
    prefixes_agree(data);
}

/// Arbitrary bytes as a `--where` expression. Invariants: no panic; an error points
/// inside the expression (at its end at most) and renders with a caret line; a good
/// expression evaluates on any facts and number without panicking.
pub fn query(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match arbiter::query::Query::new(&[text]) {
        Ok(query) => {
            for facts in [0, u64::MAX, 0x5555_5555_5555_5555] {
                let _ = query.select(facts, 1);
                let _ = query.select(facts, u64::MAX);
            }
        }
        Err(e) => {
            assert!(e.error.at <= text.len(), "{e:?}");
            assert!(e.to_string().contains('^'), "{e}");
        }
    }
}

/// One `--pgn` run over `data`: its output, verdicts and summary. `ready` reads it as a
/// regular file is read (cut into runs for `jobs` workers), otherwise as a stream.
fn database_run(
    data: &[u8],
    target: Target,
    select: Option<&Select>,
    jobs: usize,
    ready: bool,
) -> (Vec<u8>, Vec<u8>, Summary) {
    let sources = vec![Source {
        name: "fuzz.pgn".to_string(),
        reader: data,
        ready,
    }];
    let config = Config {
        target,
        jobs,
        select,
        ..Config::default()
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let summary = match database::run(sources, config, &mut out, &mut err) {
        Ok(summary) => summary,
        Err(e) => panic!("a run over memory failed: {e}"),
    };
    (out, err, summary)
}

/// `database_run` three ways: a file read by two workers, a stream read by one and by
/// two. Every way gives the same bytes and counts.
fn database_runs(data: &[u8], target: Target, select: Option<&Select>) -> (Vec<u8>, Summary) {
    let file = database_run(data, target, select, 2, true);
    for (jobs, ready) in [(1, false), (2, false)] {
        let other = database_run(data, target, select, jobs, ready);
        assert!(
            other == file,
            "{target:?} with {jobs} job(s) on a stream differs from the file's run"
        );
    }
    (file.0, file.2)
}

/// Every question and edit at once: all games, `--strip` everything, `--add`
/// everything, `--fix-results`, `--dedup`, and the tsv columns given.
fn every_edit(fields: &str) -> Select {
    let query = match Query::new(&[]) {
        Ok(query) => query,
        Err(e) => panic!("no question is a good question: {e}"),
    };
    let mut select = match Select::with_fields(query, fields) {
        Ok(select) => select,
        Err(e) => panic!("the fields {fields} are good: {e:?}"),
    };
    select.strip = Strip {
        comments: true,
        nags: true,
        variations: true,
        clocks: true,
    };
    select.add = Add {
        eco: true,
        opening: true,
        plycount: true,
    };
    select.fix_results = true;
    select.dedup = true;
    select
}

/// Arbitrary bytes as a game database, through `arbiter --pgn`'s runs.
///
/// Invariants: no panic and no hang; each run gives the same bytes read as a file by
/// two workers or as a stream by one or two; the counts add up (every game is correct
/// or broken); `--to pgn` writes the correct games, which a second check finds all
/// correct, as many as the first found; with every edit, the games written are the
/// selected ones, all correct, and the edits made again change nothing; every tsv line
/// has the header's columns and every JSON line is one object.
pub fn database(data: &[u8]) {
    let (_, checked) = database_runs(data, Target::Check, None);
    assert_eq!(checked.ok + checked.errors, checked.games, "{checked:?}");

    let (written, _) = database_runs(data, Target::Pgn, None);
    let (_, again) = database_runs(&written, Target::Check, None);
    assert_eq!((again.games, again.errors), (checked.ok, 0), "{again:?}");

    let edits = every_edit("n,white,black,result,plies,eco,opening");
    let (edited, summary) = database_runs(data, Target::Pgn, Some(&edits));
    assert!(
        summary.selected + summary.duplicates <= summary.ok,
        "{summary:?}"
    );
    let (_, again) = database_runs(&edited, Target::Check, None);
    assert_eq!(
        (again.games, again.errors),
        (summary.selected, 0),
        "{again:?}"
    );
    let (twice, _) = database_runs(&edited, Target::Pgn, Some(&edits));
    assert!(
        twice == edited,
        "the edits made again changed the games:\n{}\n---\n{}",
        String::from_utf8_lossy(&edited),
        String::from_utf8_lossy(&twice)
    );

    let (tsv, _) = database_runs(data, Target::Tsv, Some(&edits));
    let text = String::from_utf8_lossy(&tsv);
    let mut lines = text.lines();
    let tabs = lines
        .next()
        .map_or(0, |header| header.matches('\t').count());
    for line in lines {
        assert_eq!(line.matches('\t').count(), tabs, "tsv line {line:?}");
    }
    let (json, _) = database_runs(data, Target::Json, Some(&edits));
    for line in String::from_utf8_lossy(&json).lines() {
        assert!(line.starts_with('{') && line.ends_with('}'), "{line:?}");
    }
    for target in [Target::Uci, Target::Epd] {
        database_runs(data, target, Some(&edits));
    }
}
