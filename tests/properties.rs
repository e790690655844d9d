//! Property tests (proptest): random legal games, shrunk to a minimal failing game when
//! a property breaks.
//!
//! A game is a start position and a list of choices; each choice picks a legal move by
//! index, and a third of them take back our own previous move when they can (the piece
//! returns), so repetitions, threefold claims and fivefold draws come up often. Start
//! positions include Chess960 starts and clocks close to the fifty- and
//! seventy-five-move rules.
//!
//! For every position reached: FEN print/parse round-trips; the incrementally updated
//! Polyglot key equals the key of the position parsed from a FEN carrying the Polyglot
//! en-passant square; the SAN and the UCI text (both castling modes, where the notation is
//! unambiguous) of every legal move parse back to it; undo (the game's and the protocol's)
//! restores FEN, key, status, claimable draws and repetition counts; and a failing
//! protocol command changes nothing.
//!
//! `PROPTEST_CASES=N` runs N games per property instead of the default.

use arbiter::game::{Game, Status};
use arbiter::moves::CastlingMode;
use arbiter::moves::Move;
use arbiter::position::Position;
use arbiter::protocol::{Reply, Session};
use arbiter::uci::UciMove;
use proptest::prelude::*;

/// Start positions: (FEN, Chess960).
pub(super) const STARTS: &[(&str, bool)] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        false,
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        false,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        false,
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        false,
    ),
    (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        false,
    ),
    ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false),
    ("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", false),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 90 50", false),
    ("4k3/8/8/8/8/8/8/R3K3 w Q - 140 100", false),
    (
        "bqnb1rkr/pppppppp/8/8/8/8/PPPPPPPP/BQNB1RKR w HFhf - 0 1",
        true,
    ),
    (
        "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1",
        true,
    ),
    ("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1", true),
    ("1r2k2r/8/8/8/8/8/8/R3K1R1 w GAkb - 0 1", true),
];

/// How many games each property plays: `PROPTEST_CASES`, or a quick default.
pub(super) fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: cases(),
        ..ProptestConfig::default()
    }
}

fn mode(chess960: bool) -> CastlingMode {
    if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

/// Picks a legal move: by index, or (for a third of the choices) the move taking back
/// our previous one when it is legal.
pub(super) fn choose(pos: &Position, ours_before: Option<Move>, choice: u16) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    if choice.is_multiple_of(3) {
        if let Some(prev) = ours_before {
            let back = moves
                .iter()
                .copied()
                .find(|m| m.from() == prev.to() && m.to() == prev.from() && !m.is_castle());
            if back.is_some() {
                return back;
            }
        }
    }
    moves
        .as_slice()
        .get(usize::from(choice / 4) % moves.len())
        .copied()
}

/// A game: the start and the moves, stopping early when the game is over.
fn play_out(start: usize, choices: &[u16]) -> (Game, Vec<Move>) {
    let (fen, chess960) = STARTS[start % STARTS.len()];
    let base = Position::from_fen(fen).unwrap();
    let mut game = Game::new(base, mode(chess960));
    let mut played: Vec<Move> = Vec::new();
    for &choice in choices {
        if game.status().is_over() {
            break;
        }
        let ours_before = played.len().checked_sub(2).map(|i| played[i]);
        let Some(m) = choose(game.position(), ours_before, choice) else {
            break;
        };
        game.play(m);
        played.push(m);
    }
    (game, played)
}

/// The positions of a game, base first.
fn positions(game: &Game, moves: &[Move]) -> Vec<Position> {
    let mut pos = *game.base();
    let mut all = vec![pos];
    for &m in moves {
        pos = pos.after(m);
        all.push(pos);
    }
    all
}

/// What the game says about where it stands.
#[derive(Debug, PartialEq)]
struct Observed {
    fen: String,
    position: Position,
    key: u64,
    status: Status,
    repetitions: u32,
    history: usize,
}

fn observe(game: &Game) -> Observed {
    Observed {
        fen: game.position().fen(),
        position: *game.position(),
        key: game.position().key(),
        status: game.status(),
        repetitions: game.repetitions(),
        history: game.moves().len(),
    }
}

fn render(reply: &Reply) -> String {
    let mut out = Vec::new();
    reply.write_to(&mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// Everything a protocol client can see of the state.
fn snapshot(session: &mut Session) -> String {
    ["fen", "d", "history", "status", "check", "turn"]
        .iter()
        .map(|query| render(&session.execute(query)))
        .collect()
}

fn game_strategy() -> impl Strategy<Value = (usize, Vec<u16>)> {
    (0..STARTS.len(), prop::collection::vec(any::<u16>(), 0..160))
}

proptest! {
    #![proptest_config(config())]

    /// Undo by copy is exact, and the game's undo restores position, key, status,
    /// claimable draws and repetition counts at every ply.
    #[test]
    fn undo_restores_everything((start, choices) in game_strategy()) {
        let (mut game, moves) = play_out(start, &choices);
        let all = positions(&game, &moves);
        // Replay from the base, remembering what each ply looked like.
        let mut replay = Game::new(*game.base(), game.mode());
        let mut seen = vec![observe(&replay)];
        for (i, &m) in moves.iter().enumerate() {
            let before = all[i];
            let mut copy = before;
            copy.play_unchecked(m);
            prop_assert_eq!(copy, all[i + 1]);
            prop_assert_eq!(before.fen(), all[i].fen());
            replay.play(m);
            seen.push(observe(&replay));
        }
        prop_assert_eq!(observe(&replay), observe(&game));
        while let Some(m) = game.undo() {
            let now = observe(&game);
            prop_assert_eq!(&now, &seen[now.history], "after undoing {:?}", m);
            prop_assert_eq!(now.position, all[now.history]);
        }
        prop_assert_eq!(observe(&game), observe(&Game::new(*game.base(), game.mode())));
    }

    /// FEN round-trips for every position reached, and the incremental key equals the
    /// key of the position built from scratch from a FEN with the Polyglot en-passant
    /// square.
    #[test]
    fn fen_round_trips_and_keys_match((start, choices) in game_strategy()) {
        let (game, moves) = play_out(start, &choices);
        for pos in positions(&game, &moves) {
            let fen = pos.fen();
            let again = Position::from_fen(&fen).unwrap();
            prop_assert_eq!(again.fen(), fen.clone());
            prop_assert_eq!(again.repetition_key(), pos.repetition_key());
            if pos.ep_square() == pos.legal_ep_square() {
                prop_assert_eq!(again, pos, "{}", fen);
            }
            // The same FEN with the en-passant square the key is built from.
            let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
            fields[3] = pos.ep_square().map_or("-".to_string(), |sq| sq.to_string());
            let polyglot_fen = fields.join(" ");
            let scratch = Position::from_fen(&polyglot_fen).unwrap();
            prop_assert_eq!(scratch.key(), pos.key(), "{}", polyglot_fen);
            prop_assert_eq!(scratch, pos, "{}", polyglot_fen);
        }
    }

    /// The SAN and UCI of every legal move of every position reached parse back to it.
    #[test]
    fn move_text_round_trips((start, choices) in game_strategy()) {
        let (game, moves) = play_out(start, &choices);
        let chess960 = game.mode() == CastlingMode::Chess960;
        // In a Chess960 position, standard UCI castling (king to its destination) can
        // name an ordinary king move too, so only the Chess960 form is unambiguous.
        let modes: &[CastlingMode] = if chess960 {
            &[CastlingMode::Chess960]
        } else {
            &[CastlingMode::Standard, CastlingMode::Chess960]
        };
        for pos in positions(&game, &moves) {
            for &m in &pos.legal_moves() {
                let san = pos.san(m);
                prop_assert_eq!(pos.parse_san(&san), Ok(m), "{} {}", pos.fen(), san);
                for &mode in modes {
                    let uci = m.to_uci(mode);
                    let text = uci.to_string();
                    prop_assert_eq!(text.parse::<UciMove>(), Ok(uci));
                    prop_assert_eq!(
                        pos.uci_to_move(uci, mode),
                        Ok(m),
                        "{} {} {:?}",
                        pos.fen(),
                        text,
                        mode
                    );
                }
            }
        }
    }

    /// Through the protocol: `move` then `undo` restores what every query shows, and a
    /// failing command (an illegal move, a bad position, a bad option) changes nothing.
    #[test]
    fn protocol_undo_and_failures_change_nothing(
        (start, choices) in game_strategy(),
        junk in prop::collection::vec(any::<u8>(), 1..8),
    ) {
        let (game, moves) = play_out(start, &choices);
        let mode = game.mode();
        let mut session =
            Session::from_position(*game.base(), mode == CastlingMode::Chess960);
        let failing = [
            "move e1e1".to_string(),
            // The `z` keeps random bytes from ever spelling a legal move.
            format!("move z{}", String::from_utf8_lossy(&junk)),
            "position fen 8/8/8/8/8/8/8/8 w - - 0 1".to_string(),
            "position startpos moves e2e4 e2e4".to_string(),
            "setoption name UCI_Chess960 value maybe".to_string(),
            "perft 99".to_string(),
            "frobnicate".to_string(),
        ];
        for &m in &moves {
            let before = snapshot(&mut session);
            for line in &failing {
                let reply = session.execute(line);
                prop_assert!(matches!(reply, Reply::Error(_)), "{} did not fail: {:?}", line, reply);
                prop_assert_eq!(&snapshot(&mut session), &before, "{}", line);
            }
            let uci = m.to_uci(mode).to_string();
            let played = session.execute(&format!("move {uci}"));
            prop_assert!(matches!(played, Reply::Answer(_)), "{:?}", played);
            let after = snapshot(&mut session);
            let undone = session.execute("undo");
            prop_assert_eq!(render(&undone), format!("undone {uci}\n"));
            prop_assert_eq!(&snapshot(&mut session), &before);
            session.execute(&format!("move {uci}"));
            prop_assert_eq!(snapshot(&mut session), after);
        }
        prop_assert_eq!(session.game().position(), game.position());
        prop_assert_eq!(session.game().status(), game.status());
        prop_assert_eq!(session.game().repetitions(), game.repetitions());
    }
}

/// The move chooser does reach the draw rules, or the properties above prove little.
#[test]
fn the_games_reach_repetitions_and_draws() {
    let mut threefold = 0;
    let mut over = 0;
    let mut rng = 0x1234_5678_9abc_def0_u64;
    for game_index in 0..200 {
        let choices: Vec<u16> = (0..160)
            .map(|_| {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                (rng >> 48) as u16
            })
            .collect();
        let (mut game, _) = play_out(game_index, &choices);
        over += u32::from(game.status().is_over());
        let mut repeated = false;
        loop {
            repeated |= game.repetitions() >= 3;
            if game.undo().is_none() {
                break;
            }
        }
        threefold += u32::from(repeated);
    }
    eprintln!("of 200 games: {threefold} with a threefold repetition, {over} over");
    assert!(
        threefold >= 50,
        "{threefold} games with a threefold repetition"
    );
    assert!(over >= 20, "{over} games over");
}
