//! Deterministic generator of a lichess-shaped or tournament-shaped PGN corpus,
//! used by `scripts/gen-pgn-corpus` (and through it by `scripts/bench-pgn`).
//!
//! Usage: `gen-pgn-corpus [--shape lichess|otb] [--games N] [--seed S]
//!         [--broken-every K | --no-broken] [--threads T] [--out FILE] [--manifest FILE]`
//! (defaults: 200000 games, seed 8, K = games/40 within 10..=5000, threads:
//! the available cores; PGN on stdout unless `--out`)
//!
//! Every game is drawn from its own random stream, seeded by the corpus seed
//! and the game's number, so the output is the same byte for byte whatever
//! the thread count. The games are random but legal (shakmaty checks every
//! move), opened from a small book of named openings (so `ECO`/`Opening`
//! tell the truth), then played by a weighted random mover that prefers
//! captures, checks and mates, so games end the ways real ones do:
//! checkmate (the mating side wins), stalemate or an automatic draw
//! (`1/2-1/2`), a claimed repetition or fifty-move draw, resignation of the
//! side behind in material, a draw by agreement, or a flag fall.
//!
//! Shapes, in the way lichess exports its database: the lichess tag section
//! (Event, Site, Date, Round, White, Black, Result, UTCDate, UTCTime,
//! WhiteElo, BlackElo, rating diffs, ECO, Opening, TimeControl, Termination),
//! the whole movetext on one line, `{ [%clk 0:03:00] }` after every move in
//! most games, `[%eval ...]` too in some; a share of annotated games (wrapped
//! at 79 columns, NAGs, move suffixes, long comments, variations of legal
//! moves, some nested); a share of games from a `FEN` start.
//!
//! `--shape otb` is shaped like over-the-board event bulletins instead: the
//! tag section Event, Site, Date, Round, White, Black, Result, WhiteElo,
//! BlackElo, ECO, EventDate (players as `Surname, I.`); no clock comments;
//! longer games (median around 80 plies, a tail past 150), every game wrapped
//! at 79 columns; a tenth annotated (nested variations, NAGs, long comments);
//! about one in a hundred from a FEN; and a few games whose players went on
//! for a move or a few after an automatic draw (insufficient material, the
//! seventy-five-move rule, fivefold repetition), as real collections hold
//! them: correct records, scored `1/2-1/2`.
//!
//! Broken games: game numbers `K/2 + j*K` (j = 0, 1, ...) are broken on
//! purpose, cycling through the kinds below, and, when any game is broken,
//! the last game of the corpus ends inside an unterminated comment. Each
//! broken game is listed in the manifest, one per line:
//! `<game>\t<kind>\t<ply>\t<move>\t<what>` where `ply` and `move` name the
//! first bad move (`-` when the fault is not a move). Kinds:
//!   illegal-move       a king move of three squares or more in the main line
//!   missing-fen        a game from a FEN start without its FEN/SetUp tags
//!                      (checked: some move is then illegal from the start)
//!   result-mismatch    the Result tag and the movetext's result disagree
//!   result-contradicts a checkmate scored for the mated side
//!   truncated-comment  the corpus ends inside a `{` comment (last game)

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position, Role, Square};

/// SplitMix64: small, fast, and good enough for test data.
struct Rng(u64);

impl Rng {
    fn new(seed: u64, stream: u64) -> Rng {
        let mut rng = Rng(seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        rng.next();
        rng
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        ((self.next() >> 32) * n) >> 32
    }

    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `per_mille / 1000`.
    fn chance(&mut self, per_mille: u64) -> bool {
        self.below(1000) < per_mille
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// Named openings, as lichess names them, with their moves in SAN.
const BOOK: &[(&str, &str, &str)] = &[
    ("C46", "Three Knights Opening", "e4 e5 Nf3 Nc6 Nc3"),
    ("C42", "Petrov's Defense", "e4 e5 Nf3 Nf6"),
    ("C50", "Italian Game", "e4 e5 Nf3 Nc6 Bc4"),
    ("C60", "Ruy Lopez", "e4 e5 Nf3 Nc6 Bb5"),
    ("C65", "Ruy Lopez: Berlin Defense", "e4 e5 Nf3 Nc6 Bb5 Nf6"),
    ("C44", "Scotch Game", "e4 e5 Nf3 Nc6 d4"),
    ("C20", "King's Pawn Game", "e4 e5"),
    ("C00", "French Defense", "e4 e6"),
    ("C02", "French Defense: Advance Variation", "e4 e6 d4 d5 e5"),
    ("B01", "Scandinavian Defense", "e4 d5"),
    (
        "B01",
        "Scandinavian Defense: Mieses-Kotroc Variation",
        "e4 d5 exd5 Qxd5",
    ),
    ("B10", "Caro-Kann Defense", "e4 c6"),
    ("B20", "Sicilian Defense", "e4 c5"),
    ("B22", "Sicilian Defense: Alapin Variation", "e4 c5 c3"),
    (
        "B90",
        "Sicilian Defense: Najdorf Variation",
        "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6",
    ),
    ("B07", "Pirc Defense", "e4 d6 d4 Nf6 Nc3 g6"),
    ("B00", "Owen Defense", "e4 b6"),
    ("C40", "Elephant Gambit", "e4 e5 Nf3 d5"),
    ("D00", "Queen's Pawn Game", "d4 d5"),
    (
        "D02",
        "Queen's Pawn Game: London System",
        "d4 d5 Nf3 Nf6 Bf4",
    ),
    ("D06", "Queen's Gambit", "d4 d5 c4"),
    ("D30", "Queen's Gambit Declined", "d4 d5 c4 e6"),
    ("D10", "Slav Defense", "d4 d5 c4 c6"),
    ("E60", "King's Indian Defense", "d4 Nf6 c4 g6"),
    ("A45", "Indian Defense", "d4 Nf6"),
    ("A80", "Dutch Defense", "d4 f5"),
    ("A04", "Zukertort Opening", "Nf3"),
    ("A10", "English Opening", "c4"),
    ("A00", "Van't Kruijs Opening", "e3"),
    ("A00", "Hungarian Opening", "g3"),
    ("A40", "Horwitz Defense", "d4 e6"),
    ("B06", "Modern Defense", "e4 g6"),
];

/// Time controls with the lichess speed they belong to.
const CONTROLS: &[(u32, u32, &str)] = &[
    (60, 0, "Bullet"),
    (120, 1, "Bullet"),
    (180, 0, "Blitz"),
    (180, 2, "Blitz"),
    (300, 0, "Blitz"),
    (300, 3, "Blitz"),
    (600, 0, "Rapid"),
    (600, 5, "Rapid"),
    (900, 10, "Rapid"),
    (1800, 0, "Classical"),
];

const SYLLABLES: &[&str] = &[
    "al", "be", "chess", "dra", "el", "fi", "go", "ha", "ix", "jo", "ka", "lu", "mo", "ni", "or",
    "pa", "qu", "ri", "sa", "to", "ul", "vi", "wo", "xa", "yu", "zo", "king", "rook", "pawn",
    "knight", "_", "master", "kid", "pro",
];

const WORDS: &[&str] = &[
    "White",
    "Black",
    "keeps",
    "the",
    "initiative",
    "after",
    "this",
    "natural",
    "move",
    "but",
    "a",
    "sharper",
    "try",
    "was",
    "to",
    "open",
    "centre",
    "with",
    "pawn",
    "break",
    "on",
    "queenside",
    "king",
    "is",
    "safe",
    "enough",
    "for",
    "now",
    "bishop",
    "pair",
    "gives",
    "long-term",
    "edge",
    "weak",
    "squares",
    "around",
    "knight",
    "outpost",
    "d5",
    "e4",
    "f7",
    "rook",
    "file",
    "endgame",
    "should",
    "be",
    "drawn",
    "with",
    "accurate",
    "play",
    "missed",
    "tactic",
    "here",
    "better",
    "was",
    "exchange",
    "sacrifice",
    "that",
    "wins",
    "material",
    "by",
    "force",
    "in",
    "all",
    "lines",
    "an",
    "important",
    "moment",
    "of",
    "game",
    "(see",
    "the",
    "note)",
    "ideas:",
    "plan",
    "and",
    "counterplay",
    "quiet",
    "prophylactic",
    "strong",
    "dubious",
    "only",
];

/// `[%clk h:mm:ss]` of a clock in whole seconds.
fn push_clock(out: &mut String, seconds: u32) {
    let _ = write!(
        out,
        "[%clk {}:{:02}:{:02}]",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    );
}

fn piece_value(role: Role) -> u32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

fn material(pos: &Chess, color: Color) -> u32 {
    let m = pos.board().material_side(color);
    u32::from(m.pawn)
        + 3 * u32::from(m.knight)
        + 3 * u32::from(m.bishop)
        + 5 * u32::from(m.rook)
        + 9 * u32::from(m.queen)
}

/// One move of a line, with what is written after it.
struct Ply {
    san: String,
    /// Text of the comment after the move, without braces.
    comment: Option<String>,
    /// `$n` NAGs.
    nags: Vec<u8>,
    /// Variations replacing this move (each starts at this move's position).
    variations: Vec<Vec<Ply>>,
}

impl Ply {
    fn new(san: String) -> Ply {
        Ply {
            san,
            comment: None,
            nags: Vec::new(),
            variations: Vec::new(),
        }
    }
}

/// How a generated game ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ending {
    Checkmate,
    /// Stalemate, insufficient material, fivefold, 75 moves.
    AutomaticDraw,
    ClaimedDraw,
    Agreement,
    Resignation,
    TimeForfeit,
}

/// What the corpus looks like: a lichess database export or a tournament bulletin.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Lichess,
    Otb,
}

struct Game {
    tags: Vec<(&'static str, String)>,
    start: Chess,
    plies: Vec<Ply>,
    result: &'static str,
    ending: Ending,
    /// Annotated games are wrapped at 79 columns; lichess games are one line.
    wrapped: bool,
}

/// The SAN of a move, with `+`/`#`, played on `pos`.
fn play_san(pos: &mut Chess, m: Move) -> String {
    SanPlus::from_move_and_play_unchecked(pos, m).to_string()
}

/// Weighted random choice of a move; `Some(mate)` first when the player
/// looks ahead and sees one.
fn choose_move(rng: &mut Rng, pos: &Chess, ply: usize, look_ahead: bool) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let mut weights: Vec<u32> = Vec::with_capacity(moves.len());
    for &m in moves.iter() {
        let mut w = 4u32;
        if let Some(victim) = m.capture() {
            w += 6 * piece_value(victim);
        }
        match m.promotion() {
            Some(Role::Queen) => w += 60,
            Some(_) => w += 1,
            None => {}
        }
        if m.is_castle() {
            w += 30;
        }
        if m.role() == Role::King && ply < 50 {
            w = 1;
        }
        if look_ahead {
            let mut after = pos.clone();
            after.play_unchecked(m);
            if after.is_check() {
                if after.legal_moves().is_empty() {
                    return Some(m);
                }
                w += 8;
            }
        }
        weights.push(w);
    }
    let total: u32 = weights.iter().sum();
    let mut x = rng.below(u64::from(total)) as u32;
    for (i, &w) in weights.iter().enumerate() {
        if x < w {
            return Some(moves[i]);
        }
        x -= w;
    }
    moves.last().copied()
}

/// A random side line of legal moves from `pos`, avoiding `main` as first move;
/// sometimes with a nested line of its own.
fn variation(rng: &mut Rng, pos: &Chess, avoid: Move, depth: u32) -> Vec<Ply> {
    let mut line = Vec::new();
    let mut cur = pos.clone();
    let len = rng.range(1, 7) as usize;
    for i in 0..len {
        let moves = cur.legal_moves();
        let candidates: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| i > 0 || m != avoid)
            .collect();
        if candidates.is_empty() {
            break;
        }
        let m = *rng.pick(&candidates);
        let before = cur.clone();
        let mut ply = Ply::new(play_san(&mut cur, m));
        if rng.chance(200) {
            ply.nags
                .push(*rng.pick(&[1u8, 2, 3, 4, 5, 6, 14, 15, 16, 17, 18, 19]));
        }
        if depth < 2 && i > 0 && rng.chance(250) {
            ply.variations.push(variation(rng, &before, m, depth + 1));
        }
        if rng.chance(150) {
            ply.comment = Some(sentence(rng, 3, 12));
        }
        line.push(ply);
        if cur.is_game_over() {
            break;
        }
    }
    line
}

fn sentence(rng: &mut Rng, min: u64, max: u64) -> String {
    let n = rng.range(min, max);
    let mut s = String::new();
    for i in 0..n {
        if i > 0 {
            s.push(' ');
        }
        let word: &str = rng.pick::<&str>(WORDS);
        s.push_str(word);
    }
    s.push('.');
    s
}

fn username(rng: &mut Rng) -> String {
    let mut s = String::new();
    for _ in 0..rng.range(2, 3) {
        let syllable: &str = rng.pick::<&str>(SYLLABLES);
        s.push_str(syllable);
    }
    if rng.chance(500) {
        let _ = write!(s, "{}", rng.below(2000));
    }
    if rng.chance(300) {
        if let Some(first) = s.get(0..1) {
            let upper = first.to_ascii_uppercase();
            s.replace_range(0..1, &upper);
        }
    }
    s
}

fn site(rng: &mut Rng) -> String {
    const ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut s = String::from("https://lichess.org/");
    for _ in 0..8 {
        s.push(char::from(*rng.pick(ALNUM)));
    }
    s
}

/// Draws the outcome of a game that reached its planned length.
fn planned_ending(rng: &mut Rng, pos: &Chess) -> (Ending, &'static str) {
    let white = material(pos, Color::White);
    let black = material(pos, Color::Black);
    let x = rng.below(100);
    if x < 12 {
        return (Ending::Agreement, "1/2-1/2");
    }
    if x < 30 {
        // The side to move lets its flag fall; lichess scores it a draw when
        // the opponent cannot mate.
        let winner = !pos.turn();
        if pos.has_insufficient_material(winner) {
            return (Ending::TimeForfeit, "1/2-1/2");
        }
        return (
            Ending::TimeForfeit,
            if winner == Color::White { "1-0" } else { "0-1" },
        );
    }
    let loser = if white == black || rng.chance(150) {
        if rng.chance(500) {
            Color::White
        } else {
            Color::Black
        }
    } else if white < black {
        Color::White
    } else {
        Color::Black
    };
    (
        Ending::Resignation,
        if loser == Color::White { "0-1" } else { "1-0" },
    )
}

/// Plays the main line of a game. Returns the plies, the result and how it ended.
fn play_game(
    rng: &mut Rng,
    start: &Chess,
    book: &[&str],
    annotated: bool,
    force_mate: bool,
    shape: Shape,
) -> (Vec<Ply>, &'static str, Ending) {
    let mut pos = start.clone();
    let mut plies = Vec::new();
    // Planned length, in plies: most games 30 to 130, a few very short or long; over
    // the board, longer, with a tail of long endgames.
    let planned = if rng.chance(30) {
        rng.range(6, 30)
    } else if force_mate {
        400
    } else if shape == Shape::Otb {
        let a = rng.range(15, 55);
        let b = rng.range(15, 55);
        let tail = if rng.chance(120) {
            rng.range(40, 140)
        } else {
            0
        };
        a + b + rng.range(0, 20) + tail
    } else {
        let a = rng.range(10, 70);
        let b = rng.range(10, 70);
        a + b + rng.range(0, 20)
    } as usize;
    // Some players go on after an automatic draw that nobody noticed.
    let play_on = shape == Shape::Otb && rng.chance(100);
    let skill = rng.range(300, 900);
    let mut hashes: Vec<u64> = vec![pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0];
    for ply in 0..planned.max(1) {
        let before = pos.clone();
        let book_move = book
            .get(ply)
            .and_then(|s| s.parse::<San>().ok())
            .and_then(|s| s.to_move(&pos).ok());
        let look_ahead = force_mate || rng.chance(skill);
        let m = match book_move.or_else(|| choose_move(rng, &pos, ply, look_ahead)) {
            Some(m) => m,
            None => break,
        };
        let mut p = Ply::new(play_san(&mut pos, m));
        if annotated {
            if rng.chance(60) {
                p.nags
                    .push(*rng.pick(&[1u8, 2, 3, 4, 5, 6, 10, 13, 14, 15, 16, 17, 18, 19, 36]));
            }
            if ply > 2 && rng.chance(40) {
                p.variations.push(variation(rng, &before, m, 0));
                if rng.chance(200) {
                    p.variations.push(variation(rng, &before, m, 1));
                }
            }
            if rng.chance(50) {
                p.comment = Some(sentence(rng, 8, 60));
            }
        }
        plies.push(p);
        if pos.is_checkmate() {
            let result = if pos.turn() == Color::White {
                "0-1"
            } else {
                "1-0"
            };
            return (plies, result, Ending::Checkmate);
        }
        if m.is_zeroing() {
            hashes.clear();
        }
        let hash = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
        hashes.push(hash);
        let repeats = hashes.iter().filter(|&&h| h == hash).count();
        if pos.is_stalemate()
            || pos.is_insufficient_material()
            || repeats >= 5
            || pos.halfmoves() >= 150
        {
            if play_on && !pos.is_stalemate() {
                play_past_draw(rng, &mut pos, &mut plies);
            }
            return (plies, "1/2-1/2", Ending::AutomaticDraw);
        }
        if (repeats >= 3 || pos.halfmoves() >= 100) && rng.chance(400) {
            return (plies, "1/2-1/2", Ending::ClaimedDraw);
        }
    }
    let (ending, result) = planned_ending(rng, &pos);
    (plies, result, ending)
}

/// One to four more moves after an automatic draw, none of them mating or stalemating
/// (a record never goes on past those, and the draw came first anyway).
fn play_past_draw(rng: &mut Rng, pos: &mut Chess, plies: &mut Vec<Ply>) {
    for _ in 0..rng.range(1, 4) {
        let Some(m) = choose_move(rng, pos, plies.len(), false) else {
            return;
        };
        let mut after = pos.clone();
        after.play_unchecked(m);
        if after.is_checkmate() || after.is_stalemate() {
            return;
        }
        plies.push(Ply::new(play_san(pos, m)));
    }
}

fn start_position(rng: &mut Rng) -> Chess {
    let mut pos = Chess::default();
    for ply in 0..rng.range(8, 30) as usize {
        match choose_move(rng, &pos, ply, false) {
            Some(m) => {
                let mut next = pos.clone();
                next.play_unchecked(m);
                if next.is_game_over() {
                    break;
                }
                pos = next;
            }
            None => break,
        }
    }
    pos
}

/// How a game begins: annotated or not, from the standard start (with a book opening)
/// or from a FEN (no book).
struct Opening {
    annotated: bool,
    fen_start: bool,
    start: Chess,
    eco: &'static str,
    name: &'static str,
    book: Vec<&'static str>,
}

/// Draws a game's beginning; `annotated` is a chance per mille.
fn opening(rng: &mut Rng, annotated: u64, want_fen: bool) -> Opening {
    let annotated = rng.chance(annotated);
    let fen_start = want_fen || rng.chance(10);
    let start = if fen_start {
        start_position(rng)
    } else {
        Chess::default()
    };
    let (eco, name, book) = *rng.pick(BOOK);
    Opening {
        annotated,
        fen_start,
        start,
        eco,
        name,
        book: if fen_start {
            Vec::new()
        } else {
            book.split(' ').collect()
        },
    }
}

fn make_game(seed: u64, n: u64, force_mate: bool, want_fen: bool, shape: Shape) -> Game {
    if shape == Shape::Otb {
        return make_otb_game(seed, n, force_mate, want_fen);
    }
    let mut rng = Rng::new(seed, n);
    let Opening {
        annotated,
        fen_start,
        start,
        eco,
        name: opening,
        book,
    } = opening(&mut rng, 40, want_fen);
    let (plies, result, ending) = play_game(
        &mut rng,
        &start,
        &book,
        annotated,
        force_mate,
        Shape::Lichess,
    );

    let (base, inc, speed) = *rng.pick(CONTROLS);
    let month = rng.range(1, 12);
    let day = rng.range(1, 28);
    let date = format!("2024.{month:02}.{day:02}");
    let white_elo = rng.range(600, 2900);
    let black_elo = (white_elo as i64 + rng.range(0, 400) as i64 - 200).max(400);
    let mut tags: Vec<(&'static str, String)> = Vec::new();
    let event = if annotated {
        "Annotated game".to_string()
    } else if rng.chance(150) {
        format!("Casual {speed} game")
    } else {
        format!("Rated {speed} game")
    };
    tags.push(("Event", event));
    tags.push(("Site", site(&mut rng)));
    tags.push(("Date", date.clone()));
    tags.push(("Round", "-".to_string()));
    tags.push(("White", username(&mut rng)));
    tags.push(("Black", username(&mut rng)));
    tags.push(("Result", result.to_string()));
    tags.push(("UTCDate", date));
    tags.push((
        "UTCTime",
        format!(
            "{:02}:{:02}:{:02}",
            rng.below(24),
            rng.below(60),
            rng.below(60)
        ),
    ));
    tags.push(("WhiteElo", white_elo.to_string()));
    tags.push(("BlackElo", black_elo.to_string()));
    let diff = rng.range(2, 12) as i64;
    let (wd, bd) = match result {
        "1-0" => (diff, -diff),
        "0-1" => (-diff, diff),
        _ => (0, 0),
    };
    tags.push(("WhiteRatingDiff", format!("{wd:+}")));
    tags.push(("BlackRatingDiff", format!("{bd:+}")));
    if fen_start {
        tags.push(("ECO", "?".to_string()));
        tags.push(("Opening", "?".to_string()));
    } else {
        tags.push(("ECO", eco.to_string()));
        tags.push(("Opening", opening.to_string()));
    }
    tags.push(("TimeControl", format!("{base}+{inc}")));
    let termination = if ending == Ending::TimeForfeit {
        "Time forfeit"
    } else {
        "Normal"
    };
    tags.push(("Termination", termination.to_string()));
    if annotated {
        tags.push(("Annotator", username(&mut rng)));
    }
    if fen_start {
        tags.push(("SetUp", "1".to_string()));
        tags.push((
            "FEN",
            Fen::from_position(&start, EnPassantMode::Legal).to_string(),
        ));
    }

    let mut game = Game {
        tags,
        start,
        plies,
        result,
        ending,
        wrapped: annotated,
    };
    if !annotated {
        add_clocks(&mut rng, &mut game, base, inc);
    }
    game
}

const EVENTS: &[&str] = &[
    "Open",
    "Championship",
    "Memorial",
    "Masters",
    "Cup",
    "Festival",
    "Team Championship",
    "Invitational",
];

const CITIES: &[(&str, &str)] = &[
    ("Wijk aan Zee", "NED"),
    ("Hastings", "ENG"),
    ("Reykjavik", "ISL"),
    ("Biel", "SUI"),
    ("Dortmund", "GER"),
    ("Linares", "ESP"),
    ("Gibraltar", "GIB"),
    ("Sitges", "ESP"),
    ("Prague", "CZE"),
    ("Riga", "LAT"),
    ("Porto", "POR"),
    ("Krakow", "POL"),
];

const SURNAMES: &[&str] = &[
    "Andersen",
    "Bakker",
    "Carlsen",
    "Dvorak",
    "Eriksson",
    "Fischer",
    "Garcia",
    "Horvath",
    "Ivanov",
    "Jansen",
    "Kowalski",
    "Larsen",
    "Moreau",
    "Novak",
    "Olsen",
    "Petrov",
    "Quinn",
    "Rossi",
    "Schmidt",
    "Tanaka",
    "Urban",
    "Varga",
    "Weber",
    "Xu",
    "Young",
    "Zielinski",
    "van der Berg",
    "O'Brien",
    "De la Cruz",
    "Mueller-Lang",
];

/// `Surname, I.`, as bulletins write a player.
fn player(rng: &mut Rng) -> String {
    let initial = char::from(b'A' + rng.below(26) as u8);
    format!("{}, {initial}.", rng.pick::<&str>(SURNAMES))
}

/// A game as an event bulletin prints it: the tournament tag section, no clocks,
/// longer games, a tenth annotated, all wrapped at 79 columns.
fn make_otb_game(seed: u64, n: u64, force_mate: bool, want_fen: bool) -> Game {
    // A stream of its own, so the lichess shape's games stay as they were.
    let mut rng = Rng::new(seed ^ 0x07B0_07B0, n);
    let Opening {
        annotated,
        fen_start,
        start,
        eco,
        book,
        ..
    } = opening(&mut rng, 100, want_fen);
    let (plies, result, ending) =
        play_game(&mut rng, &start, &book, annotated, force_mate, Shape::Otb);
    // Consecutive games mostly share an event, as in a bulletin.
    let event_no = n / 200;
    let mut event_rng = Rng::new(seed ^ 0xE0E0, event_no);
    let (city, country) = *event_rng.pick(CITIES);
    let year = 1990 + event_rng.below(35);
    let event = format!("{city} {} {year}", event_rng.pick::<&str>(EVENTS));
    let month = event_rng.range(1, 12);
    let first_day = event_rng.range(1, 18);
    let round = rng.range(1, 11);
    let board = rng.range(1, 40);
    let white_elo = rng.range(1800, 2780);
    let black_elo = (white_elo as i64 + rng.range(0, 300) as i64 - 150).clamp(1700, 2850);
    let mut tags: Vec<(&'static str, String)> = vec![
        ("Event", event),
        ("Site", format!("{city} {country}")),
        (
            "Date",
            format!("{year}.{month:02}.{:02}", first_day + round - 1),
        ),
        ("Round", format!("{round}.{board}")),
        ("White", player(&mut rng)),
        ("Black", player(&mut rng)),
        ("Result", result.to_string()),
        ("WhiteElo", white_elo.to_string()),
        ("BlackElo", black_elo.to_string()),
        ("ECO", if fen_start { "?" } else { eco }.to_string()),
        ("EventDate", format!("{year}.{month:02}.{first_day:02}")),
    ];
    if annotated {
        tags.push(("Annotator", player(&mut rng)));
    }
    if fen_start {
        tags.push(("SetUp", "1".to_string()));
        tags.push((
            "FEN",
            Fen::from_position(&start, EnPassantMode::Legal).to_string(),
        ));
    }
    Game {
        tags,
        start,
        plies,
        result,
        ending,
        wrapped: true,
    }
}

/// `[%clk]` comments (and, in some games, `[%eval]`) after every move.
fn add_clocks(rng: &mut Rng, game: &mut Game, base: u32, inc: u32) {
    if rng.chance(100) {
        return;
    }
    let evals = rng.chance(120);
    let mut clocks = [base, base];
    let mut eval: i64 = rng.range(0, 40) as i64 - 10;
    let total = game.plies.len();
    for (i, ply) in game.plies.iter_mut().enumerate() {
        let side = i % 2;
        let moves_left = ((total - i) / 2 + 8) as u32;
        let budget = clocks[side] / moves_left;
        let spent = if i < 2 {
            0
        } else {
            budget * rng.range(2, 18) as u32 / 10
        };
        clocks[side] = clocks[side].saturating_sub(spent) + inc;
        let mut text = String::new();
        if evals {
            eval += rng.range(0, 80) as i64 - 40;
            let _ = write!(text, "[%eval {:.2}] ", eval as f64 / 100.0);
        }
        push_clock(&mut text, clocks[side]);
        ply.comment = Some(text);
    }
}

/// Writes a line of moves (main line or variation) starting at `pos`.
fn write_line(out: &mut Vec<String>, pos: &Chess, plies: &[Ply]) {
    let mut fullmove = pos.fullmoves().get();
    let mut turn = pos.turn();
    let mut need_number = true;
    for ply in plies {
        if turn == Color::White {
            out.push(format!("{fullmove}."));
        } else if need_number {
            out.push(format!("{fullmove}..."));
        }
        out.push(ply.san.clone());
        for nag in &ply.nags {
            out.push(format!("${nag}"));
        }
        need_number = false;
        if let Some(comment) = &ply.comment {
            out.push(format!("{{ {comment} }}"));
            need_number = true;
        }
        for var in &ply.variations {
            out.push("(".to_string());
            let before = position_of(pos, plies, ply);
            write_line(out, &before, var);
            out.push(")".to_string());
            need_number = true;
        }
        if turn == Color::Black {
            fullmove += 1;
        }
        turn = !turn;
    }
}

/// The position before `target` in `plies` (which start at `pos`).
fn position_of(pos: &Chess, plies: &[Ply], target: &Ply) -> Chess {
    let mut cur = pos.clone();
    for ply in plies {
        if std::ptr::eq(ply, target) {
            break;
        }
        if let Some(m) = ply
            .san
            .parse::<SanPlus>()
            .ok()
            .and_then(|s| s.san.to_move(&cur).ok())
        {
            cur.play_unchecked(m);
        }
    }
    cur
}

/// PGN text of a game; `token` is the movetext's closing result.
fn render(game: &Game, token: &str, truncate: bool) -> String {
    let mut s = String::with_capacity(4096);
    for (name, value) in &game.tags {
        let _ = writeln!(s, "[{name} \"{value}\"]");
    }
    s.push('\n');
    let mut tokens = Vec::new();
    write_line(&mut tokens, &game.start, &game.plies);
    if truncate {
        tokens.push("{ [%clk 0:0".to_string());
        s.push_str(&tokens.join(" "));
        s.push('\n');
        return s;
    }
    tokens.push(token.to_string());
    if game.wrapped {
        let mut line_len = 0;
        for t in &tokens {
            // Comment tokens hold blanks: wrap them word by word.
            for word in t.split(' ') {
                if line_len > 0 && line_len + 1 + word.len() > 79 {
                    s.push('\n');
                    line_len = 0;
                } else if line_len > 0 {
                    s.push(' ');
                    line_len += 1;
                }
                s.push_str(word);
                line_len += word.len();
            }
        }
    } else {
        s.push_str(&tokens.join(" "));
    }
    s.push_str("\n\n");
    s
}

/// Replays the main line from the standard start: the ply and SAN of the
/// first illegal move, if any.
fn first_illegal_from_start(game: &Game) -> Option<(usize, String)> {
    let mut pos = Chess::default();
    for (i, ply) in game.plies.iter().enumerate() {
        match ply
            .san
            .parse::<SanPlus>()
            .ok()
            .and_then(|s| s.san.to_move(&pos).ok())
        {
            Some(m) => pos.play_unchecked(m),
            None => return Some((i + 1, ply.san.clone())),
        }
    }
    None
}

#[derive(Clone, Copy)]
enum Fault {
    IllegalMove,
    MissingFen,
    ResultMismatch,
    ResultContradicts,
}

const FAULTS: [Fault; 4] = [
    Fault::IllegalMove,
    Fault::MissingFen,
    Fault::ResultMismatch,
    Fault::ResultContradicts,
];

/// Text of broken game `n` and its manifest line.
fn broken_game(seed: u64, n: u64, fault: Fault, shape: Shape) -> (String, String) {
    let mut attempt = 0u64;
    loop {
        // Attempts use their own streams so a retry does not repeat a game.
        let stream = n ^ (attempt << 40);
        attempt += 1;
        match fault {
            Fault::IllegalMove => {
                let mut game = make_game(seed, stream, false, false, shape);
                if game.plies.len() < 4 {
                    continue;
                }
                let mut rng = Rng::new(seed ^ 0xBAD, stream);
                let at = rng.range(1, game.plies.len() as u64 - 1) as usize;
                let mut pos = game.start.clone();
                for ply in &game.plies[..at] {
                    if let Some(m) = ply
                        .san
                        .parse::<SanPlus>()
                        .ok()
                        .and_then(|s| s.san.to_move(&pos).ok())
                    {
                        pos.play_unchecked(m);
                    }
                }
                let Some(king) = pos.board().king_of(pos.turn()) else {
                    continue;
                };
                let far: Vec<Square> = Square::ALL
                    .iter()
                    .copied()
                    .filter(|&sq| sq.distance(king) >= 3)
                    .collect();
                let to = *rng.pick(&far);
                let san = format!("K{to}");
                game.plies[at].san = san.clone();
                game.plies.truncate(at + 1 + rng.below(6) as usize);
                let text = render(&game, game.result, false);
                return (
                    text,
                    format!(
                        "{n}\tillegal-move\t{}\t{san}\tking move of three squares or more",
                        at + 1
                    ),
                );
            }
            Fault::MissingFen => {
                let mut game = make_game(seed, stream, false, true, shape);
                let Some((ply, san)) = first_illegal_from_start(&game) else {
                    continue;
                };
                game.tags
                    .retain(|(name, _)| *name != "FEN" && *name != "SetUp");
                let text = render(&game, game.result, false);
                return (
                    text,
                    format!("{n}\tmissing-fen\t{ply}\t{san}\tFEN start without FEN tag"),
                );
            }
            Fault::ResultMismatch => {
                let game = make_game(seed, stream, false, false, shape);
                let token = match game.result {
                    "1-0" => "0-1",
                    "0-1" => "1/2-1/2",
                    _ => "1-0",
                };
                let text = render(&game, token, false);
                return (
                    text,
                    format!(
                        "{n}\tresult-mismatch\t-\t-\tResult tag {} but movetext {token}",
                        game.result
                    ),
                );
            }
            Fault::ResultContradicts => {
                let mut game = make_game(seed, stream, true, false, shape);
                if game.ending != Ending::Checkmate {
                    continue;
                }
                let wrong = if game.result == "1-0" { "0-1" } else { "1-0" };
                game.result = wrong;
                for (name, value) in &mut game.tags {
                    if *name == "Result" {
                        *value = wrong.to_string();
                    }
                }
                let text = render(&game, wrong, false);
                return (
                    text,
                    format!("{n}\tresult-contradicts\t-\t-\t{wrong} but the side that scores it is mated"),
                );
            }
        }
    }
}

struct Options {
    shape: Shape,
    games: u64,
    seed: u64,
    broken_every: u64,
    threads: usize,
    out: Option<String>,
    manifest: Option<String>,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        shape: Shape::Lichess,
        games: 200_000,
        seed: 8,
        broken_every: 0,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        out: None,
        manifest: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--shape" => {
                o.shape = match value()?.as_str() {
                    "lichess" => Shape::Lichess,
                    "otb" => Shape::Otb,
                    other => return Err(format!("--shape: lichess or otb, not {other}")),
                }
            }
            "--games" => o.games = value()?.parse().map_err(|e| format!("--games: {e}"))?,
            "--seed" => o.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--broken-every" => {
                o.broken_every = value()?
                    .parse()
                    .map_err(|e| format!("--broken-every: {e}"))?
            }
            "--no-broken" => o.broken_every = u64::MAX,
            "--threads" => o.threads = value()?.parse().map_err(|e| format!("--threads: {e}"))?,
            "--out" => o.out = Some(value()?),
            "--manifest" => o.manifest = Some(value()?),
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    if o.broken_every == 0 {
        // About forty broken games in any corpus, one per 5000 in a big one.
        o.broken_every = (o.games / 40).clamp(10, 5000);
    }
    if o.games == 0 || o.threads == 0 {
        return Err("--games and --threads must be positive".to_string());
    }
    Ok(o)
}

/// Text and manifest lines of games `lo..hi` (numbered from 1).
fn chunk(o: &Options, lo: u64, hi: u64) -> (String, Vec<String>) {
    let mut text = String::new();
    let mut manifest = Vec::new();
    for n in lo..hi {
        let k = if o.broken_every == u64::MAX {
            0
        } else {
            o.broken_every
        };
        let last = n == o.games;
        if k > 0 && last {
            let game = make_game(o.seed, n, false, false, o.shape);
            text.push_str(&render(&game, game.result, true));
            manifest.push(format!(
                "{n}\ttruncated-comment\t-\t-\tfile ends inside a comment"
            ));
        } else if k > 0 && n % k == k / 2 {
            let fault = FAULTS[((n / k) % FAULTS.len() as u64) as usize];
            let (t, line) = broken_game(o.seed, n, fault, o.shape);
            text.push_str(&t);
            manifest.push(line);
        } else {
            let game = make_game(o.seed, n, false, false, o.shape);
            text.push_str(&render(&game, game.result, false));
        }
    }
    (text, manifest)
}

fn run(o: &Options) -> io::Result<(u64, usize)> {
    let mut out: Box<dyn Write> = match &o.out {
        Some(path) => Box::new(BufWriter::with_capacity(1 << 20, File::create(path)?)),
        None => Box::new(BufWriter::with_capacity(1 << 20, io::stdout().lock())),
    };
    let mut manifest: Box<dyn Write> = match &o.manifest {
        Some(path) => Box::new(BufWriter::new(File::create(path)?)),
        None => Box::new(io::sink()),
    };
    const CHUNK: u64 = 500;
    let chunks = o.games.div_ceil(CHUNK) as usize;
    let next = AtomicUsize::new(0);
    let mut bytes = 0u64;
    let mut broken = 0usize;
    std::thread::scope(|scope| -> io::Result<()> {
        let (tx, rx) = mpsc::sync_channel::<(usize, String, Vec<String>)>(o.threads * 4);
        for _ in 0..o.threads {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= chunks {
                    break;
                }
                let lo = 1 + i as u64 * CHUNK;
                let hi = (lo + CHUNK).min(o.games + 1);
                let (text, lines) = chunk(o, lo, hi);
                if tx.send((i, text, lines)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        let mut want = 0usize;
        for (i, text, lines) in rx {
            pending.insert(i, (text, lines));
            while let Some((text, lines)) = pending.remove(&want) {
                out.write_all(text.as_bytes())?;
                bytes += text.len() as u64;
                for line in &lines {
                    writeln!(manifest, "{line}")?;
                }
                broken += lines.len();
                want += 1;
            }
        }
        Ok(())
    })?;
    out.flush()?;
    manifest.flush()?;
    Ok((bytes, broken))
}

fn main() -> ExitCode {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("gen-pgn-corpus: {e}");
            return ExitCode::from(2);
        }
    };
    match run(&o) {
        Ok((bytes, broken)) => {
            eprintln!(
                "gen-pgn-corpus: {} games, {bytes} bytes, {broken} broken",
                o.games
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("gen-pgn-corpus: {e}");
            ExitCode::FAILURE
        }
    }
}
