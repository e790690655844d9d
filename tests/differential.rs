//! Differential testing: seeded random games, compared move by move with `shakmaty`, an
//! independent implementation of the rules.
//!
//! After every move the two must agree on the FEN (en-passant square only when a legal
//! capture exists, X-FEN castling), the legal moves as UCI text, the checkers, check,
//! checkmate, stalemate, insufficient material per side, the Polyglot key, the squares
//! each side attacks, and the SAN of every legal move. Our own parsers must also read our
//! SAN and UCI back to the same move, and our FEN back to the same position.
//!
//! Move choice is biased towards castling, en passant, promotions (mostly
//! under-promotions), checks, captures and pawn moves, so that the rare rules are played
//! thousands of times. Moves are chosen from the list sorted by UCI text, so a game
//! depends only on the seed and the rules, not on the generator's move order.
//!
//! `shakmaty`'s `has_insufficient_material(color)` follows the same definition as ours
//! (a lone knight is insufficient only against king and queens; bishops only when all
//! bishops stand on one colour and there are no pawns or knights), so the two are
//! compared per side. Its Zobrist64 keys are the Polyglot keys; the Polyglot en-passant
//! rule (the file counts when a pawn of the side to move stands beside the pawn that just
//! advanced two squares, legal or not) is its `EnPassantMode::PseudoLegal`.

use std::fmt::Write as _;

use arbiter::attacks;
use arbiter::bitboard::Bitboard;
use arbiter::color::Color;
use arbiter::fen::{FenError, PositionError, Setup};
use arbiter::illegal::IllegalMove;
use arbiter::moves::CastlingMode;
use arbiter::moves::{Move, MoveKind};
use arbiter::position::Position;
use arbiter::role::{Piece, Role};
use arbiter::square::Square;
use arbiter::uci::UciMove;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::zobrist::{Zobrist64, ZobristHash};
use shakmaty::{Chess, EnPassantMode, Position as _, PositionErrorKinds};

/// The seed of every game below; change it to explore, keep it to reproduce.
const SEED: u64 = 0x00C0_FFEE_2026_0001;
/// Random games from the standard starting position.
const STANDARD_GAMES: u64 = 900;
/// Random games from random Chess960 starting positions.
const CHESS960_GAMES: u64 = 600;
/// Random games from each position of the perft suite.
const GAMES_PER_SUITE_POSITION: u64 = 5;
/// A game stops here if nothing ended it before.
const MAX_PLIES: usize = 250;
/// Our parsers read back the text of every legal move on every this many plies (and the
/// move played on every ply).
const READ_BACK_EVERY: usize = 8;

/// SplitMix64: tiny, fast and good enough to pick moves.
pub(super) struct Rng(u64);

impl Rng {
    pub(super) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub(super) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`, `n > 0`.
    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `percent` / 100.
    pub(super) fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        (!items.is_empty()).then(|| items[self.below(items.len())])
    }
}

/// How often each kind of interesting move was played, to prove the games reach them.
#[derive(Default, Debug, Clone, Copy)]
struct Tally {
    games: u64,
    plies: u64,
    castles: u64,
    en_passants: u64,
    promotions: u64,
    under_promotion_captures: u64,
    checks: u64,
    checkmates: u64,
    stalemates: u64,
    insufficient: u64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.games += other.games;
        self.plies += other.plies;
        self.castles += other.castles;
        self.en_passants += other.en_passants;
        self.promotions += other.promotions;
        self.under_promotion_captures += other.under_promotion_captures;
        self.checks += other.checks;
        self.checkmates += other.checkmates;
        self.stalemates += other.stalemates;
        self.insufficient += other.insufficient;
    }
}

/// The Chess960 back rank with Scharnagl number `n` (0..960; 518 is the standard one).
fn chess960_back_rank(mut n: usize) -> [char; 8] {
    let mut rank = [' '; 8];
    rank[2 * (n % 4) + 1] = 'b';
    n /= 4;
    rank[2 * (n % 4)] = 'b';
    n /= 4;
    let place = |rank: &mut [char; 8], nth: usize, piece: char| {
        let file = (0..8).filter(|&f| rank[f] == ' ').nth(nth).unwrap();
        rank[file] = piece;
    };
    place(&mut rank, n % 6, 'q');
    n /= 6;
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = KNIGHTS[n];
    // Place the second knight first so the first one's index is not shifted.
    place(&mut rank, b, 'n');
    place(&mut rank, a, 'n');
    place(&mut rank, 0, 'r');
    place(&mut rank, 0, 'k');
    place(&mut rank, 0, 'r');
    rank
}

/// The FEN of Chess960 start `n`, with the castling field in X-FEN or Shredder-FEN.
pub(super) fn chess960_fen(n: usize, shredder: bool) -> String {
    let black: String = chess960_back_rank(n).iter().collect();
    let white = black.to_ascii_uppercase();
    let castling = if shredder {
        let files: Vec<char> = black
            .char_indices()
            .filter(|&(_, c)| c == 'r')
            .map(|(i, _)| (b'a' + i as u8) as char)
            .rev()
            .collect();
        let upper: String = files.iter().map(|c| c.to_ascii_uppercase()).collect();
        let lower: String = files.iter().collect();
        format!("{upper}{lower}")
    } else {
        "KQkq".to_string()
    };
    format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castling} - 0 1")
}

pub(super) fn shakmaty_mode(mode: CastlingMode) -> shakmaty::CastlingMode {
    match mode {
        CastlingMode::Standard => shakmaty::CastlingMode::Standard,
        CastlingMode::Chess960 => shakmaty::CastlingMode::Chess960,
    }
}

fn their_fen(theirs: &Chess) -> String {
    Fen::from_position(theirs.clone(), EnPassantMode::Legal).to_string()
}

/// Everything the two implementations must agree on in one position; the first
/// disagreement, in words.
///
/// With `read_back`, our SAN and UCI parsers must also read every legal move's text back
/// to the move (a self-check, not a comparison, so it runs on every few plies only).
pub(super) fn compare(
    ours: &Position,
    theirs: &Chess,
    mode: CastlingMode,
    read_back: bool,
) -> Result<(), String> {
    let fen = ours.fen();
    let expected_fen = their_fen(theirs);
    if fen != expected_fen {
        return Err(format!("FEN: ours {fen}, shakmaty {expected_fen}"));
    }

    let our_moves = ours.legal_moves();
    let mut our_uci: Vec<(String, Move)> = our_moves
        .iter()
        .map(|&m| (m.to_uci(mode).to_string(), m))
        .collect();
    our_uci.sort_by(|a, b| a.0.cmp(&b.0));
    let their_moves = theirs.legal_moves();
    let mut their_uci: Vec<(String, shakmaty::Move)> = their_moves
        .iter()
        .map(|m| (m.to_uci(shakmaty_mode(mode)).to_string(), m.clone()))
        .collect();
    their_uci.sort_by(|a, b| a.0.cmp(&b.0));
    let ours_text: Vec<&str> = our_uci.iter().map(|(s, _)| s.as_str()).collect();
    let theirs_text: Vec<&str> = their_uci.iter().map(|(s, _)| s.as_str()).collect();
    if ours_text != theirs_text {
        let missing: Vec<_> = theirs_text
            .iter()
            .filter(|s| !ours_text.contains(s))
            .collect();
        let extra: Vec<_> = ours_text
            .iter()
            .filter(|s| !theirs_text.contains(s))
            .collect();
        return Err(format!("legal moves: missing {missing:?}, extra {extra:?}"));
    }
    if ours.count_legal_moves() != our_moves.len() as u64 {
        return Err(format!(
            "count_legal_moves {} but legal_moves has {}",
            ours.count_legal_moves(),
            our_moves.len()
        ));
    }

    if ours.checkers().0 != theirs.checkers().0 {
        return Err(format!(
            "checkers: ours {:#x}, shakmaty {:#x}",
            ours.checkers().0,
            theirs.checkers().0
        ));
    }
    let flags = (ours.is_check(), ours.is_checkmate(), ours.is_stalemate());
    let expected_flags = (
        theirs.is_check(),
        theirs.is_checkmate(),
        theirs.is_stalemate(),
    );
    if flags != expected_flags {
        return Err(format!(
            "(check, checkmate, stalemate): ours {flags:?}, shakmaty {expected_flags:?}"
        ));
    }
    for (color, their_color) in [
        (Color::White, shakmaty::Color::White),
        (Color::Black, shakmaty::Color::Black),
    ] {
        let (a, b) = (
            ours.has_insufficient_material(color),
            theirs.has_insufficient_material(their_color),
        );
        if a != b {
            return Err(format!(
                "insufficient material for {color}: ours {a}, shakmaty {b}"
            ));
        }
    }
    if ours.is_insufficient_material() != theirs.is_insufficient_material() {
        return Err("is_insufficient_material".to_string());
    }

    let key = ours.key();
    let expected_key = theirs
        .zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal)
        .0;
    if key != expected_key {
        return Err(format!(
            "Polyglot key: ours {key:016X}, shakmaty {expected_key:016X}"
        ));
    }
    let their_ep = theirs.legal_ep_square().map(|sq| sq as usize);
    if ours.legal_ep_square().map(|sq| sq.index()) != their_ep {
        return Err(format!("legal ep square: shakmaty {their_ep:?}"));
    }

    let board = theirs.board();
    for sq in Square::ALL {
        let their_sq = shakmaty::Square::new(sq.index() as u32);
        for (color, their_color) in [
            (Color::White, shakmaty::Color::White),
            (Color::Black, shakmaty::Color::Black),
        ] {
            let expected = board
                .attacks_to(their_sq, their_color, board.occupied())
                .any();
            if ours.is_attacked(sq, color) != expected {
                return Err(format!("is_attacked({sq}, {color}): shakmaty {expected}"));
            }
        }
    }

    for ((uci, m), (_, their_m)) in our_uci.iter().zip(&their_uci) {
        let san = ours.san(*m);
        let expected_san = SanPlus::from_move(theirs.clone(), their_m).to_string();
        if san != expected_san {
            return Err(format!("SAN of {uci}: ours {san}, shakmaty {expected_san}"));
        }
        if !read_back {
            continue;
        }
        for text in san_variants(ours, *m, &san) {
            match ours.parse_san(&text) {
                Ok(parsed) if parsed == *m => {}
                other => return Err(format!("parse_san({text}) gave {other:?}, not {m:?}")),
            }
        }
        let parsed_uci: UciMove = uci
            .parse()
            .map_err(|e| format!("UciMove::from_str({uci}): {e}"))?;
        match ours.uci_to_move(parsed_uci, mode) {
            Ok(parsed) if parsed == *m => {}
            other => return Err(format!("uci_to_move({uci}) gave {other:?}, not {m:?}")),
        }
    }

    let reparsed = Position::from_fen(&fen).map_err(|e| format!("our FEN refused: {e}"))?;
    if reparsed.fen() != fen {
        return Err(format!("FEN round trip: {}", reparsed.fen()));
    }
    // The FEN drops an en-passant square with no legal capture; otherwise the parsed
    // position must be the same in every field, key included.
    if ours.legal_ep_square() == ours.ep_square() && reparsed != *ours {
        return Err(format!(
            "FEN round trip changed the position: key {:016X}, castling {:?}",
            reparsed.key(),
            reparsed.castling_rooks()
        ));
    }
    Ok(())
}

/// The SAN of a move and what people type for it: without or with a wrong check mark,
/// `0-0`, `e8Q`, `exd6e.p.`, and the long form `Ng1-f3` / `Nf3xe5`.
fn san_variants(pos: &Position, m: Move, san: &str) -> Vec<String> {
    let bare = san.trim_end_matches(['+', '#']);
    let mut variants = vec![
        san.to_string(),
        bare.to_string(),
        format!("{bare}+"),
        format!("{bare}#"),
    ];
    if m.is_castle() {
        variants.push(bare.replace('O', "0"));
        return variants;
    }
    if m.promotion().is_some() {
        variants.push(bare.replace('=', ""));
    }
    if m.is_en_passant() {
        variants.push(format!("{bare}e.p."));
    }
    let role = pos.role_at(m.from()).expect("a piece moves");
    let capture = pos.by_color(pos.turn().other()).contains(m.to()) || m.is_en_passant();
    let mut long = String::new();
    if role != Role::Pawn {
        long.push(role.upper_char());
    }
    long.push_str(&format!(
        "{}{}{}",
        m.from(),
        if capture { 'x' } else { '-' },
        m.to()
    ));
    if let Some(promotion) = m.promotion() {
        long.push_str(&format!("={}", promotion.upper_char()));
    }
    variants.push(long);
    variants
}

/// Picks a move from the sorted list, preferring the rare kinds.
fn choose(ours: &Position, moves: &[(String, Move)], rng: &mut Rng) -> Move {
    let kinds = |keep: &dyn Fn(&Move) -> bool| -> Vec<Move> {
        moves.iter().map(|(_, m)| *m).filter(|m| keep(m)).collect()
    };
    let theirs = ours.by_color(ours.turn().other());
    let is_capture = |m: &Move| theirs.contains(m.to()) || m.is_en_passant();
    let castles = kinds(&|m| m.is_castle());
    let en_passants = kinds(&|m| m.is_en_passant());
    let promotions = kinds(&|m| m.promotion().is_some());
    let promotion_captures = kinds(&|m| m.promotion().is_some() && is_capture(m));
    if rng.chance(70) {
        if let Some(m) = rng.pick(&castles) {
            return m;
        }
    }
    if rng.chance(85) {
        if let Some(m) = rng.pick(&en_passants) {
            return m;
        }
    }
    if rng.chance(85) {
        let pool = if rng.chance(50) && !promotion_captures.is_empty() {
            &promotion_captures
        } else {
            &promotions
        };
        if let Some(m) = rng.pick(pool) {
            return m;
        }
    }
    if rng.chance(20) {
        let checks = kinds(&|m| ours.after(*m).is_check());
        if let Some(m) = rng.pick(&checks) {
            return m;
        }
    }
    if rng.chance(30) {
        if let Some(m) = rng.pick(&kinds(&|m| is_capture(m))) {
            return m;
        }
    }
    if rng.chance(35) {
        if let Some(m) = rng.pick(&kinds(&|m| ours.role_at(m.from()) == Some(Role::Pawn))) {
            return m;
        }
    }
    moves[rng.below(moves.len())].1
}

/// Plays one random game from `fen` in both implementations, comparing after every
/// move. On a disagreement, the report names the position and the moves that led there.
fn play_game(
    fen: &str,
    mode: CastlingMode,
    seed: u64,
    max_plies: usize,
    tally: &mut Tally,
) -> Result<(), String> {
    let mut rng = Rng::new(seed);
    let mut ours = Position::from_fen(fen).map_err(|e| format!("{fen}: ours refused: {e}"))?;
    let mut theirs: Chess = fen
        .parse::<Fen>()
        .map_err(|e| format!("{fen}: shakmaty refused: {e}"))?
        .into_position(shakmaty_mode(mode))
        .map_err(|e| format!("{fen}: shakmaty refused: {e}"))?;
    let mut history = String::new();
    let report = |history: &str, ours: &Position, why: String| {
        format!(
            "seed {seed:#x}, from `{fen}` moves [{history}]\n  at `{}`: {why}",
            ours.fen()
        )
    };
    tally.games += 1;
    for ply in 0..max_plies {
        compare(&ours, &theirs, mode, ply % READ_BACK_EVERY == 0)
            .map_err(|why| report(&history, &ours, why))?;
        if ours.is_checkmate() {
            tally.checkmates += 1;
            return Ok(());
        }
        if ours.is_stalemate() {
            tally.stalemates += 1;
            return Ok(());
        }
        if ours.is_insufficient_material() {
            tally.insufficient += 1;
            return Ok(());
        }
        if ours.halfmoves() >= 100 {
            return Ok(());
        }
        let mut moves: Vec<(String, Move)> = ours
            .legal_moves()
            .iter()
            .map(|&m| (m.to_uci(mode).to_string(), m))
            .collect();
        moves.sort_by(|a, b| a.0.cmp(&b.0));
        let m = choose(&ours, &moves, &mut rng);
        let uci = m.to_uci(mode).to_string();
        let san = ours.san(m);
        let read = (
            ours.parse_san(&san),
            uci.parse().map(|u| ours.uci_to_move(u, mode)),
        );
        if read != (Ok(m), Ok(Ok(m))) {
            let why = format!("{uci} ({san}) read back as {read:?}");
            return Err(report(&history, &ours, why));
        }
        let their_m = uci
            .parse::<shakmaty::uci::UciMove>()
            .ok()
            .and_then(|u| u.to_move(&theirs).ok())
            .ok_or_else(|| report(&history, &ours, format!("shakmaty refuses {uci}")))?;

        let capture = ours.by_color(ours.turn().other()).contains(m.to());
        match m.kind() {
            MoveKind::Castle => tally.castles += 1,
            MoveKind::EnPassant => tally.en_passants += 1,
            MoveKind::Promotion(role) => {
                tally.promotions += 1;
                if role != Role::Queen && capture {
                    tally.under_promotion_captures += 1;
                }
            }
            _ => {}
        }
        let _ = write!(
            history,
            "{}{uci}",
            if history.is_empty() { "" } else { " " }
        );
        ours.play_unchecked(m);
        theirs.play_unchecked(&their_m);
        tally.plies += 1;
        if ours.is_check() {
            tally.checks += 1;
        }
    }
    compare(&ours, &theirs, mode, true).map_err(|why| report(&history, &ours, why))
}

/// The games of this test: (start FEN, castling mode, seed).
fn games() -> Vec<(String, CastlingMode, u64)> {
    let mut rng = Rng::new(SEED);
    let mut games = Vec::new();
    let start = Position::startpos().fen();
    for _ in 0..STANDARD_GAMES {
        games.push((start.clone(), CastlingMode::Standard, rng.next()));
    }
    for i in 0..CHESS960_GAMES {
        let n = rng.below(960);
        games.push((
            chess960_fen(n, i % 2 == 1),
            CastlingMode::Chess960,
            rng.next(),
        ));
    }
    for (fen, mode) in suite_starts() {
        for _ in 0..GAMES_PER_SUITE_POSITION {
            games.push((fen.clone(), mode, rng.next()));
        }
    }
    games
}

/// The positions of the perft suite, each with its castling mode, in file order.
pub(super) fn suite_starts() -> Vec<(String, CastlingMode)> {
    let mut starts = Vec::new();
    for line in include_str!("data/perft-suite.epd").lines() {
        let Some(fen) = line
            .split(';')
            .next()
            .map(str::trim)
            .filter(|f| !f.is_empty())
        else {
            continue;
        };
        let mode = if line.contains(";960") {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        starts.push((fen.to_string(), mode));
    }
    starts
}

fn run(games: &[(String, CastlingMode, u64)]) -> (Tally, Vec<String>) {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    let chunk = games.len().div_ceil(workers);
    std::thread::scope(|scope| {
        let handles: Vec<_> = games
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut tally = Tally::default();
                    let mut failures = Vec::new();
                    for (fen, mode, seed) in part {
                        if let Err(e) = play_game(fen, *mode, *seed, MAX_PLIES, &mut tally) {
                            failures.push(e);
                        }
                    }
                    (tally, failures)
                })
            })
            .collect();
        let mut total = Tally::default();
        let mut failures = Vec::new();
        for handle in handles {
            let (tally, part) = handle.join().expect("a game panicked");
            total.add(&tally);
            failures.extend(part);
        }
        (total, failures)
    })
}

#[test]
fn random_games_agree_with_shakmaty() {
    let games = games();
    let (tally, failures) = run(&games);
    assert!(
        failures.is_empty(),
        "{} of {} games disagree:\n{}",
        failures.len(),
        games.len(),
        failures.join("\n")
    );
    eprintln!("differential: {tally:?}");
    // The games must reach the rare rules often, or the comparison proves little.
    assert_eq!(tally.games, games.len() as u64);
    assert!(tally.plies > 100_000, "{tally:?}");
    assert!(tally.castles > 800, "{tally:?}");
    assert!(tally.en_passants > 400, "{tally:?}");
    assert!(tally.promotions > 1_000, "{tally:?}");
    assert!(tally.under_promotion_captures > 200, "{tally:?}");
    assert!(tally.checks > 5_000, "{tally:?}");
    assert!(tally.checkmates > 100, "{tally:?}");
    assert!(tally.stalemates > 10, "{tally:?}");
    assert!(tally.insufficient > 100, "{tally:?}");
}

#[test]
fn chess960_start_518_is_the_standard_start() {
    assert_eq!(
        chess960_fen(518, false),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(
        chess960_fen(518, true),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    );
    // Scharnagl's numbering: 0 is BBQNNRKR.
    assert_eq!(
        chess960_fen(0, false),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    );
}

#[test]
fn the_random_number_generator_is_reproducible() {
    // SplitMix64's published first output for seed 0.
    assert_eq!(Rng::new(0).next(), 0xE220_A839_7B1D_CDAF);
}

/// A random, usually unreachable position: kings, a few pieces, perhaps a pawn that just
/// advanced two squares beside an enemy pawn, and random castling rights (rook files).
fn random_fen(rng: &mut Rng) -> String {
    let mut board: [Option<char>; 64] = [None; 64];
    let free = |board: &[Option<char>; 64], rng: &mut Rng, pawn: bool| loop {
        let sq = rng.below(64);
        if board[sq].is_none() && (!pawn || (8..56).contains(&sq)) {
            return sq;
        }
    };
    let white_to_move = rng.chance(50);
    // A double push to capture en passant, half the time.
    let mut ep = None;
    if rng.chance(50) {
        let file = rng.below(8);
        let (pawn_rank, ep_rank, us) = if white_to_move {
            (4, 5, 'P')
        } else {
            (3, 2, 'p')
        };
        let them = if white_to_move { 'p' } else { 'P' };
        board[pawn_rank * 8 + file] = Some(them);
        let side = if file == 0 || (file < 7 && rng.chance(50)) {
            file + 1
        } else {
            file - 1
        };
        board[pawn_rank * 8 + side] = Some(us);
        ep = Some(ep_rank * 8 + file);
    }
    // Kings near the back ranks half the time, so castling rights are common.
    for king in ['K', 'k'] {
        let sq = if rng.chance(50) {
            let rank = if king == 'K' { 0 } else { 7 };
            rank * 8 + 1 + rng.below(6)
        } else {
            free(&board, rng, false)
        };
        if board[sq].is_some() {
            return random_fen(rng);
        }
        board[sq] = Some(king);
    }
    for rook in ['R', 'r'] {
        for _ in 0..rng.below(3) {
            let rank = if rook == 'R' { 0 } else { 7 };
            let sq = rank * 8 + rng.below(8);
            if board[sq].is_none() {
                board[sq] = Some(rook);
            }
        }
    }
    let pieces = ['P', 'N', 'B', 'R', 'Q', 'p', 'n', 'b', 'r', 'q'];
    for _ in 0..rng.below(14) {
        let piece = pieces[rng.below(pieces.len())];
        let sq = free(&board, rng, piece.eq_ignore_ascii_case(&'p'));
        board[sq] = Some(piece);
    }
    if let Some(ep) = ep {
        // The squares the pawn crossed must be empty.
        let origin = if white_to_move { ep + 8 } else { ep - 8 };
        board[ep] = None;
        board[origin] = None;
    }

    let mut placement = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        placement.push_str(&empty.to_string());
                        empty = 0;
                    }
                    placement.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            placement.push_str(&empty.to_string());
        }
        if rank > 0 {
            placement.push('/');
        }
    }
    let mut castling = String::new();
    for (rook, rank) in [('R', 0), ('r', 7)] {
        for file in 0..8 {
            if board[rank * 8 + file] == Some(rook) && rng.chance(60) {
                let letter = (b'a' + file as u8) as char;
                castling.push(if rook == 'R' {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                });
            }
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    let ep = ep.map_or("-".to_string(), |sq| {
        format!("{}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1)
    });
    let turn = if white_to_move { 'w' } else { 'b' };
    format!("{placement} {turn} {castling} {ep} 0 1")
}

/// Random positions both implementations accept, each followed by a short game.
const RANDOM_POSITIONS: usize = 1500;
/// The length of the game from each random position.
const RANDOM_POSITION_PLIES: usize = 30;

/// Shakmaty's verdict on a FEN: the position, or why not (`None` for a syntax error).
type TheirVerdict = Result<Chess, Option<PositionErrorKinds>>;

/// Whether a refusal is one of the known, documented differences of definition:
/// we refuse two checkers of which neither is a slider (no last move gives that), which
/// shakmaty lets through; shakmaty refuses more material than promotions can give
/// (`TOO_MUCH_MATERIAL`), where we refuse only more than 16 pieces or 8 pawns.
fn is_known_difference(ours: &Result<Position, FenError>, theirs: &TheirVerdict) -> bool {
    match (ours, theirs) {
        (Err(FenError::Position(PositionError::ImpossibleCheck)), Ok(theirs)) => {
            let checkers = theirs.checkers();
            let board = theirs.board();
            let sliders = board.rooks() | board.bishops() | board.queens();
            checkers.count() == 2 && (checkers & sliders).is_empty()
        }
        (Ok(_), Err(Some(kinds))) => *kinds == PositionErrorKinds::TOO_MUCH_MATERIAL,
        _ => false,
    }
}

#[test]
fn random_positions_agree_with_shakmaty() {
    let mut rng = Rng::new(SEED ^ 0x0051_7E55);
    let mut accepted = 0;
    let mut known_differences = 0;
    let mut failures = Vec::new();
    let mut tally = Tally::default();
    while accepted < RANDOM_POSITIONS {
        let fen = random_fen(&mut rng);
        let ours = Position::from_fen(&fen);
        let theirs: TheirVerdict = fen.parse::<Fen>().map_err(|_| None).and_then(|f| {
            f.into_position(shakmaty::CastlingMode::Chess960)
                .map_err(|e| Some(e.kinds()))
        });
        match (&ours, &theirs) {
            (Ok(_), Ok(_)) => {
                accepted += 1;
                let seed = rng.next();
                if let Err(e) = play_game(
                    &fen,
                    CastlingMode::Chess960,
                    seed,
                    RANDOM_POSITION_PLIES,
                    &mut tally,
                ) {
                    failures.push(e);
                }
            }
            (Err(_), Err(_)) => {}
            _ if is_known_difference(&ours, &theirs) => known_differences += 1,
            _ => failures.push(format!(
                "`{fen}`: ours {:?}, shakmaty {:?}",
                ours.map(|p| p.fen()),
                theirs.map(|_| ()).map_err(|kinds| format!("{kinds:?}"))
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("random positions: {accepted} accepted by both, {known_differences} known differences, {tally:?}");
    assert!(tally.en_passants > 50, "{tally:?}");
    assert!(tally.castles > 200, "{tally:?}");
    assert!(tally.promotions > 200, "{tally:?}");
}

/// Positions on which every from-to text (with and without promotion letters) is
/// diagnosed; each position's own pieces give 64 targets each.
const DIAGNOSED_POSITIONS: usize = 400;

/// The move as the pieces would make it ignoring the king's safety: whether the mover's
/// king is then attacked. (Built as a setup with the turn passed: our FEN validation then
/// refuses it as `OppositeCheck` exactly when the mover's king is attacked.)
fn naive_move_exposes_king(p: &Position, from: Square, to: Square) -> bool {
    let mut setup = Setup::parse(&p.fen()).expect("our FEN parses");
    let Some(piece) = setup.board[from.index()].take() else {
        return false;
    };
    if piece.role == Role::Pawn && p.ep_square() == Some(to) {
        setup.board[Square::from_coords(to.file(), from.rank()).index()] = None;
    }
    let last_rank = matches!(to.rank().index(), 0 | 7);
    setup.board[to.index()] = Some(if piece.role == Role::Pawn && last_rank {
        Piece {
            color: piece.color,
            role: Role::Queen,
        }
    } else {
        piece
    });
    setup.turn = setup.turn.other();
    setup.castling.clear();
    setup.ep_square = None;
    Position::from_setup(&setup) == Err(PositionError::OppositeCheck)
}

/// Every diagnosis must be `Ok` exactly for the legal moves the text names, and each
/// refusal must be true of the board: the square named, the piece named, the rule.
fn check_diagnoses(p: &Position, mode: CastlingMode) -> Result<(), String> {
    let legal = p.legal_moves();
    let us = p.turn();
    let names = |m: &Move, to: Square| {
        m.to_uci(mode).to.eq(&to)
            || (mode == CastlingMode::Standard && m.is_castle() && m.to() == to)
    };
    for from in Square::ALL {
        let piece = p.piece_at(from);
        let promotions: &[Option<Role>] = match piece {
            Some(pc) if pc.color == us && pc.role == Role::Pawn => &[
                None,
                Some(Role::Queen),
                Some(Role::Knight),
                Some(Role::King),
            ],
            Some(pc) if pc.color == us => &[None, Some(Role::Queen)],
            _ => &[None],
        };
        for to in Square::ALL {
            for &promotion in promotions {
                let text = UciMove {
                    from,
                    to,
                    promotion,
                };
                let got = p.diagnose(text, mode);
                let from_here = |m: &&Move| m.from() == from && names(m, to);
                let named: Vec<Move> = legal
                    .iter()
                    .filter(from_here)
                    .filter(|m| m.promotion() == promotion)
                    .copied()
                    .collect();
                let why = match &got {
                    Ok(m) if named.contains(m) => continue,
                    Ok(_) => "a move the text does not name",
                    Err(_) if !named.is_empty() => "a refusal of a legal move",
                    Err(e) => {
                        let true_of_the_board = match *e {
                            IllegalMove::NoPiece(sq) => sq == from && piece.is_none(),
                            IllegalMove::NotYourTurn(sq, color) => {
                                sq == from && color == us && piece.is_some_and(|pc| pc.color != us)
                            }
                            IllegalMove::PromotionRequired => {
                                promotion.is_none()
                                    && legal
                                        .iter()
                                        .filter(from_here)
                                        .any(|m| m.promotion().is_some())
                            }
                            IllegalMove::NotAPromotion => {
                                promotion.is_some()
                                    && legal
                                        .iter()
                                        .filter(from_here)
                                        .any(|m| m.promotion().is_none())
                            }
                            IllegalMove::BadPromotionPiece(role) => {
                                promotion == Some(role)
                                    && legal
                                        .iter()
                                        .filter(from_here)
                                        .any(|m| m.promotion().is_some())
                            }
                            IllegalMove::OwnPiece(sq) => sq == to && p.by_color(us).contains(to),
                            IllegalMove::CannotMoveThatWay(role) => {
                                piece.is_some_and(|pc| pc.role == role)
                                    && (matches!(role, Role::Pawn | Role::King)
                                        || !attacks::attacks(us, role, from, Bitboard::EMPTY)
                                            .contains(to))
                            }
                            IllegalMove::PathBlocked(sq) => {
                                p.occupied().contains(sq)
                                    && (sq == to || attacks::between(from, to).contains(sq))
                                    && (attacks::between(from, sq) & p.occupied()).is_empty()
                            }
                            IllegalMove::LeavesKingInCheck => naive_move_exposes_king(p, from, to),
                            IllegalMove::CastlingWithoutRight
                            | IllegalMove::CastlingOutOfCheck
                            | IllegalMove::CastlingBlocked => {
                                piece.is_some_and(|pc| pc.role == Role::King)
                            }
                            IllegalMove::CastlingThroughCheck(sq) => {
                                // Attacked now, or the destination once the king and
                                // its rooks have left the back rank.
                                let vacated = p.occupied()
                                    & !p.pieces(us, Role::King)
                                    & !p.pieces(us, Role::Rook);
                                let destination = matches!(sq.file().char(), 'c' | 'g');
                                piece.is_some_and(|pc| pc.role == Role::King)
                                    && (p.is_attacked(sq, us.other())
                                        || destination
                                            && p.attackers_to(sq, us.other(), vacated)
                                                .is_nonempty())
                            }
                        };
                        if true_of_the_board {
                            continue;
                        }
                        "a refusal that is not true of the board"
                    }
                };
                return Err(format!("`{}` {text} ({mode:?}): {got:?} is {why}", p.fen()));
            }
        }
    }
    Ok(())
}

#[test]
fn diagnoses_agree_with_the_legal_moves() {
    let mut rng = Rng::new(SEED ^ 0xD1A6);
    let mut checked = 0;
    let mut failures = Vec::new();
    while checked < DIAGNOSED_POSITIONS {
        let Ok(p) = Position::from_fen(&random_fen(&mut rng)) else {
            continue;
        };
        checked += 1;
        for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
            if let Err(e) = check_diagnoses(&p, mode) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
