//! Forsyth-Edwards Notation: text to a validated position and back.
//!
//! Parsing is two steps that never mix: the text becomes a `Setup` (syntax errors are
//! `ParseFenError`), then the setup becomes a `Position` (errors of meaning are
//! `PositionError`).

use std::fmt;

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::excerpt::Excerpt;
use crate::position::{back_rank, Position};
use crate::role::{Piece, Role};
use crate::square::{File, Rank, Square};

/// One castling right as written: `K`/`Q` (the outermost rook on that side, X-FEN) or a
/// rook's file letter (Shredder-FEN, or X-FEN for an inner rook).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlingToken {
    KingSide(Color),
    QueenSide(Color),
    RookFile(Color, File),
}

/// A FEN's fields, parsed but not yet checked for meaning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub board: [Option<Piece>; 64],
    pub turn: Color,
    pub castling: Vec<CastlingToken>,
    pub ep_square: Option<Square>,
    pub halfmoves: u32,
    pub fullmoves: u32,
}

/// Why a FEN's text is malformed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseFenError {
    /// Not 4 to 6 space-separated fields.
    FieldCount(usize),
    /// The placement does not have 8 ranks.
    RankCount(usize),
    /// A rank of the placement does not cover 8 squares.
    RankLength(Rank),
    /// A character in the placement that is neither a piece letter nor a digit 1-8.
    PieceChar(char),
    Turn(String),
    Castling(String),
    EnPassant(String),
    Halfmoves(String),
    Fullmoves(String),
    /// A clock above `MAX_CLOCK`.
    ClockTooLarge(String),
}

/// The largest half-move clock or move number a FEN may give: `i32::MAX`, as 32-bit
/// engines store them, and far enough below `u32::MAX` that no game or perft can carry a
/// clock past the end of its type.
pub const MAX_CLOCK: u32 = i32::MAX as u32;

impl fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseFenError::FieldCount(n) => {
                write!(f, "expected 4 to 6 fields (placement, side, castling, en passant, clocks), found {n}")
            }
            ParseFenError::RankCount(n) => write!(f, "the placement has {n} ranks, not 8"),
            ParseFenError::RankLength(rank) => {
                write!(f, "rank {rank} of the placement does not cover 8 squares")
            }
            ParseFenError::PieceChar(c) => {
                write!(f, "'{c}' in the placement is not a piece or a count")
            }
            ParseFenError::Turn(s) => write!(f, "side to move '{}' is not 'w' or 'b'", Excerpt(s)),
            ParseFenError::Castling(s) => {
                write!(
                    f,
                    "castling field '{}' is not '-', KQkq or rook files",
                    Excerpt(s)
                )
            }
            ParseFenError::EnPassant(s) => {
                write!(
                    f,
                    "en-passant field '{}' is not '-' or a square",
                    Excerpt(s)
                )
            }
            ParseFenError::Halfmoves(s) => {
                write!(f, "half-move clock '{}' is not a number", Excerpt(s))
            }
            ParseFenError::Fullmoves(s) => {
                write!(f, "move number '{}' is not a number", Excerpt(s))
            }
            ParseFenError::ClockTooLarge(s) => {
                write!(
                    f,
                    "clock '{}' is above the maximum of {MAX_CLOCK}",
                    Excerpt(s)
                )
            }
        }
    }
}

impl std::error::Error for ParseFenError {}

/// Why a setup is not a legal chess position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A side does not have exactly one king.
    KingCount(Color, u32),
    TooManyPieces(Color),
    TooManyPawns(Color),
    /// A pawn on the first or last rank.
    PawnOnBackRank(Square),
    /// The side that just moved is in check.
    OppositeCheck,
    /// The side to move is attacked by more than two pieces.
    TooManyCheckers,
    /// A check no legal last move could have given.
    ImpossibleCheck,
    /// A castling right with no king and rook in place for it.
    Castling(CastlingToken),
    /// An en-passant square no pawn could just have skipped.
    EnPassant(Square),
    /// A castling right that only Chess960 has: the king off its e-file square or the
    /// rook out of its corner, in a game of standard chess.
    Chess960Castling {
        right: char,
        king: Square,
        rook: Square,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::KingCount(color, n) => {
                write!(f, "{color} has {n} kings, not exactly one")
            }
            PositionError::TooManyPieces(color) => write!(f, "{color} has more than 16 pieces"),
            PositionError::TooManyPawns(color) => write!(f, "{color} has more than 8 pawns"),
            PositionError::PawnOnBackRank(sq) => {
                write!(f, "pawn on {sq}, on the first or last rank")
            }
            PositionError::OppositeCheck => f.write_str("the side not to move is in check"),
            PositionError::TooManyCheckers => {
                f.write_str("the king is attacked by more than two pieces")
            }
            PositionError::ImpossibleCheck => {
                f.write_str("no legal move could have given this check")
            }
            PositionError::Castling(token) => {
                let (color, what) = match token {
                    CastlingToken::KingSide(c) => (c, "king-side".to_string()),
                    CastlingToken::QueenSide(c) => (c, "queen-side".to_string()),
                    CastlingToken::RookFile(c, file) => (c, format!("{file}-file")),
                };
                write!(
                    f,
                    "{color} has {what} castling rights without its king and rook in place"
                )
            }
            PositionError::EnPassant(sq) => {
                write!(
                    f,
                    "en-passant square {sq} is not behind a pawn that just advanced two squares"
                )
            }
            PositionError::Chess960Castling { right, king, rook } => write!(
                f,
                "castling right '{right}' (king on {king}, rook on {rook}) exists only in Chess960: \
                 standard chess castles with the king on its e-file square and a rook in its corner"
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// Any reason a FEN is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    Parse(ParseFenError),
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Parse(e) => e.fmt(f),
            FenError::Position(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FenError {}

impl From<ParseFenError> for FenError {
    fn from(e: ParseFenError) -> FenError {
        FenError::Parse(e)
    }
}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Position(e)
    }
}

fn parse_placement(text: &str) -> Result<[Option<Piece>; 64], ParseFenError> {
    let mut board = [None; 64];
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(ParseFenError::RankCount(ranks.len()));
    }
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank_index = 7 - row as u32;
        let rank = Rank::new(rank_index).unwrap_or(Rank::FIRST);
        let mut file = 0u32;
        for c in rank_text.chars() {
            if let Some(skip) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += skip;
            } else if let Some(piece) = Piece::from_char(c) {
                if file >= 8 {
                    return Err(ParseFenError::RankLength(rank));
                }
                board[(rank_index * 8 + file) as usize] = Some(piece);
                file += 1;
            } else {
                return Err(ParseFenError::PieceChar(c));
            }
            if file > 8 {
                return Err(ParseFenError::RankLength(rank));
            }
        }
        if file != 8 {
            return Err(ParseFenError::RankLength(rank));
        }
    }
    Ok(board)
}

fn parse_castling(text: &str) -> Result<Vec<CastlingToken>, ParseFenError> {
    if text == "-" {
        return Ok(Vec::new());
    }
    let mut tokens = Vec::new();
    for c in text.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let token = match c.to_ascii_lowercase() {
            'k' => CastlingToken::KingSide(color),
            'q' => CastlingToken::QueenSide(color),
            _ => match File::from_char(c) {
                Some(file) => CastlingToken::RookFile(color, file),
                None => return Err(ParseFenError::Castling(text.to_string())),
            },
        };
        if tokens.contains(&token) {
            return Err(ParseFenError::Castling(text.to_string()));
        }
        tokens.push(token);
    }
    Ok(tokens)
}

impl Setup {
    /// Parses the six (or four or five: the clocks default to `0 1`) fields of a FEN.
    pub fn parse(text: &str) -> Result<Setup, ParseFenError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(ParseFenError::FieldCount(fields.len()));
        }
        let board = parse_placement(fields[0])?;
        let turn = match fields[1] {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            other => return Err(ParseFenError::Turn(other.to_string())),
        };
        let castling = parse_castling(fields[2])?;
        let ep_square = match fields[3] {
            "-" => None,
            s => Some(Square::parse(s).ok_or_else(|| ParseFenError::EnPassant(s.to_string()))?),
        };
        let halfmoves = match fields.get(4) {
            Some(s) => s
                .parse()
                .map_err(|_| ParseFenError::Halfmoves(s.to_string()))?,
            None => 0,
        };
        let fullmoves = match fields.get(5) {
            // A move number of 0 is a common slip for 1; take it as 1.
            Some(s) => s
                .parse::<u32>()
                .map_err(|_| ParseFenError::Fullmoves(s.to_string()))?
                .max(1),
            None => 1,
        };
        if let Some(s) = [(halfmoves, 4), (fullmoves, 5)]
            .into_iter()
            .find_map(|(clock, field)| fields.get(field).filter(|_| clock > MAX_CLOCK))
        {
            return Err(ParseFenError::ClockTooLarge(s.to_string()));
        }
        Ok(Setup {
            board,
            turn,
            castling,
            ep_square,
            halfmoves,
            fullmoves,
        })
    }
}

/// The rook a castling token names, if the king stands on its back rank and the rook is
/// there on the right side of it.
fn castling_rook(pos: &Position, token: CastlingToken) -> Option<Square> {
    let color = match token {
        CastlingToken::KingSide(c)
        | CastlingToken::QueenSide(c)
        | CastlingToken::RookFile(c, _) => c,
    };
    let rank = back_rank(color);
    let king = pos.pieces(color, Role::King).first()?;
    if king.rank() != rank {
        return None;
    }
    let rooks = pos.pieces(color, Role::Rook) & Bitboard::rank(rank);
    match token {
        CastlingToken::KingSide(_) => rooks.filter(|r| r.file() > king.file()).last(),
        CastlingToken::QueenSide(_) => rooks.into_iter().find(|r| r.file() < king.file()),
        CastlingToken::RookFile(_, file) => {
            let rook = Square::from_coords(file, rank);
            (rooks.contains(rook) && file != king.file()).then_some(rook)
        }
    }
}

impl Position {
    /// Parses and validates a FEN.
    ///
    /// ```
    /// use arbiter::fen::{FenError, PositionError};
    /// use arbiter::position::Position;
    ///
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").expect("legal");
    /// assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    /// assert_eq!(
    ///     Position::from_fen("4k3/8/8/8/8/8/8/4K2R w Q - 0 1"),
    ///     Err(FenError::Position(PositionError::Castling(
    ///         arbiter::fen::CastlingToken::QueenSide(arbiter::color::Color::White)
    ///     )))
    /// );
    /// ```
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        let setup = Setup::parse(text)?;
        Ok(Position::from_setup(&setup)?)
    }

    /// Validates a setup as a legal position.
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        let mut pos = Position::empty();
        for (sq, piece) in Square::ALL.into_iter().zip(setup.board) {
            if let Some(piece) = piece {
                pos.put(piece, sq);
            }
        }
        pos.turn = setup.turn;
        // `Setup::parse` refuses larger clocks; a setup built by hand is held to the same
        // bound, so that playing moves can never overflow them.
        pos.halfmoves = setup.halfmoves.min(MAX_CLOCK);
        pos.fullmoves = setup.fullmoves.clamp(1, MAX_CLOCK);

        for color in Color::ALL {
            let kings = pos.pieces(color, Role::King).count();
            if kings != 1 {
                return Err(PositionError::KingCount(color, kings));
            }
            if pos.by_color(color).count() > 16 {
                return Err(PositionError::TooManyPieces(color));
            }
            if pos.pieces(color, Role::Pawn).count() > 8 {
                return Err(PositionError::TooManyPawns(color));
            }
        }
        let back_ranks = Bitboard::rank(Rank::FIRST) | Bitboard::rank(Rank::EIGHTH);
        if let Some(sq) = (pos.by_role(Role::Pawn) & back_ranks).first() {
            return Err(PositionError::PawnOnBackRank(sq));
        }

        for &token in &setup.castling {
            let rook = castling_rook(&pos, token).ok_or(PositionError::Castling(token))?;
            pos.castling = pos.castling.with(rook);
        }
        // At most one castling rook on each side of each king.
        for color in Color::ALL {
            let king = pos.king(color);
            let rooks = pos.castling & Bitboard::rank(back_rank(color));
            let king_side = rooks.filter(|r| r.file() > king.file()).count();
            let queen_side = rooks.filter(|r| r.file() < king.file()).count();
            if king_side > 1 || queen_side > 1 {
                if let Some(&token) = setup.castling.last() {
                    return Err(PositionError::Castling(token));
                }
            }
        }

        if let Some(ep) = setup.ep_square {
            pos.ep_square = validate_ep(&pos, ep)?;
        }

        let them = pos.turn.other();
        if pos
            .attackers_to(pos.king(them), pos.turn, pos.occupied())
            .is_nonempty()
        {
            return Err(PositionError::OppositeCheck);
        }
        validate_checkers(&pos, setup.ep_square)?;

        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// Refuses a castling right that standard chess cannot have: its king must stand on
    /// e1 or e8 and its rook in a corner of the same rank. Chess960 positions pass only
    /// in a Chess960 game.
    ///
    /// ```
    /// use arbiter::position::Position;
    ///
    /// let standard = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").expect("legal");
    /// assert!(standard.check_standard_castling().is_ok());
    /// let chess960 = Position::from_fen("1r2k3/8/8/8/8/8/8/4K3 b q - 0 1").expect("legal");
    /// assert!(chess960.check_standard_castling().is_err());
    /// ```
    pub fn check_standard_castling(&self) -> Result<(), PositionError> {
        for rook in self.castling {
            let color = if rook.rank() == Rank::FIRST {
                Color::White
            } else {
                Color::Black
            };
            let king = self.king(color);
            let corner = rook.file() == File::A || rook.file() == File::H;
            if king.file() != File::E || !corner {
                return Err(PositionError::Chess960Castling {
                    right: self.castling_char(color, rook),
                    king,
                    rook,
                });
            }
        }
        Ok(())
    }

    /// The FEN of this position: X-FEN castling, and the en-passant square only when a
    /// legal en-passant capture exists, so equal positions print equal FENs.
    pub fn fen(&self) -> String {
        self.fen_text().as_str().to_string()
    }

    /// The FEN, written into a buffer of its own without allocating: answers carry the
    /// FEN after every move a client plays.
    pub fn fen_text(&self) -> FenText {
        let mut fen = FenText::new();
        self.write_fen(&mut fen);
        fen
    }

    /// Writes the FEN into `fen`, in place.
    pub fn write_fen(&self, fen: &mut FenText) {
        // The board's letters by square first, a rank at a time from each role's pattern
        // of squares on it: loops of fixed length, without a branch per piece, so that
        // nothing is mispredicted when one answer's position is unrelated to the
        // previous one's, as when clients of many games take turns (docs/performance.md).
        let mut board = [0u8; 64];
        let black = self.by_color(Color::Black).0;
        for (rank, row) in board.chunks_exact_mut(8).enumerate() {
            let files = |squares: u64| FILE_BYTES[(squares >> (8 * rank)) as usize & 0xff];
            let mut letters = files(black) & LOWER_CASE;
            for role in Role::ALL {
                let letter = u64::from(role.upper_char() as u8) * EVERY_BYTE;
                letters |= files(self.by_role(role).0) & letter;
            }
            row.copy_from_slice(&letters.to_le_bytes());
        }
        // The length stays in a register, not in `fen`, until the end.
        let mut out = FenCursor {
            bytes: &mut fen.bytes,
            len: 0,
        };
        // A rank at a time from its pattern of occupied squares: eight independent
        // byte choices instead of a branch (or a chain of lengths) per square.
        let occupied = self.occupied().0;
        for (rank, row) in board.chunks_exact(8).enumerate().rev() {
            let (template, used) = RANK_TEMPLATES[(occupied >> (8 * rank)) as usize & 0xff];
            if let Some(slots) = out.bytes.get_mut(out.len..out.len + 8) {
                for (slot, t) in slots.iter_mut().zip(template) {
                    // A mask rather than an `if`, which compiles to a branch that the
                    // processor mispredicts square after square.
                    let file = 0u8.wrapping_sub(u8::from(t < 8));
                    *slot = (row[usize::from(t & 7)] & file) | (t & !file);
                }
            }
            out.len += usize::from(used);
            if rank > 0 {
                out.push(b'/');
            }
        }
        out.push(b' ');
        out.push(self.turn.char() as u8);
        out.push(b' ');
        if self.castling.is_empty() {
            out.push(b'-');
        }
        for color in Color::ALL {
            let mut rights = self.castling & Bitboard::rank(back_rank(color));
            // King side first: the highest square first.
            while rights.is_nonempty() {
                let rook = Square::from_index_wrapping(63 - rights.0.leading_zeros());
                out.push(self.castling_char(color, rook) as u8);
                rights = rights.without(rook);
            }
        }
        out.push(b' ');
        match self.legal_ep_square() {
            Some(sq) => {
                let [file, rank] = sq.name();
                out.push(file);
                out.push(rank);
            }
            None => out.push(b'-'),
        }
        out.push(b' ');
        out.push_number(self.halfmoves);
        out.push(b' ');
        out.push_number(self.fullmoves);
        fen.len = out.len;
    }

    /// The X-FEN letter of one castling right: `K`/`Q` for the outermost rook on its
    /// side of the king, else the rook's file; lower-case for black.
    fn castling_char(&self, color: Color, rook: Square) -> char {
        let king = self.king(color);
        let rooks = self.pieces(color, Role::Rook) & Bitboard::rank(back_rank(color));
        let outer_king_side = rooks.filter(|r| r.file() > king.file()).last();
        let outer_queen_side = rooks.into_iter().find(|r| r.file() < king.file());
        let c = if Some(rook) == outer_king_side {
            'K'
        } else if Some(rook) == outer_queen_side {
            'Q'
        } else {
            rook.file().char().to_ascii_uppercase()
        };
        if color.is_white() {
            c
        } else {
            c.to_ascii_lowercase()
        }
    }

    /// The castling field in X-FEN: `K`/`Q` for the outermost rook on a side, the rook's
    /// file letter for an inner one; white first, king side first.
    pub fn castling_field(&self) -> String {
        let mut field = String::new();
        for color in Color::ALL {
            let rights = self.castling & Bitboard::rank(back_rank(color));
            let mut ordered: Vec<Square> = rights.collect();
            ordered.reverse();
            for rook in ordered {
                field.push(self.castling_char(color, rook));
            }
        }
        if field.is_empty() {
            field.push('-');
        }
        field
    }
}

/// Checks an en-passant square: on the sixth (or third) rank, empty, with the square the
/// pawn came from empty and the pawn in front. Returns the square to keep: `None` when no
/// pawn of the side to move stands beside the advanced pawn (so it could never matter).
fn validate_ep(pos: &Position, ep: Square) -> Result<Option<Square>, PositionError> {
    let us = pos.turn;
    let them = us.other();
    let (ep_rank, up): (Rank, i32) = match us {
        Color::White => (Rank::SIXTH, 8),
        Color::Black => (Rank::THIRD, -8),
    };
    let error = PositionError::EnPassant(ep);
    if ep.rank() != ep_rank {
        return Err(error);
    }
    let pawn = ep.offset(-up).ok_or(error.clone())?;
    let origin = ep.offset(up).ok_or(error.clone())?;
    let occupied = pos.occupied();
    if occupied.contains(ep)
        || occupied.contains(origin)
        || !pos.pieces(them, Role::Pawn).contains(pawn)
    {
        return Err(error);
    }
    let capturers = attacks::pawn_attacks(them, ep) & pos.pieces(us, Role::Pawn);
    Ok(capturers.is_nonempty().then_some(ep))
}

/// Refuses checks that no legal last move could have given.
fn validate_checkers(pos: &Position, ep: Option<Square>) -> Result<(), PositionError> {
    let king = pos.king(pos.turn);
    let checkers = pos.checkers();
    if checkers.count() > 2 {
        return Err(PositionError::TooManyCheckers);
    }
    let sliders = pos.rooks_queens() | pos.bishops_queens();
    if checkers.count() == 2 {
        let (a, b) = (
            checkers.single_square(),
            checkers.into_iter().last().unwrap_or(king),
        );
        // A double check needs a discovered check, always from a slider, and two checks
        // along one line would have had to pass through each other.
        if (checkers & sliders).is_empty() || attacks::aligned(a, b, king) {
            return Err(PositionError::ImpossibleCheck);
        }
    }
    if let Some(ep) = ep {
        // The last move was the double push: every checker is that pawn or a slider
        // uncovered by the pawn leaving its square.
        let up = if pos.turn.is_white() { 8 } else { -8 };
        if let (Some(pawn), Some(origin)) = (ep.offset(-up), ep.offset(up)) {
            for checker in checkers {
                let discovered =
                    sliders.contains(checker) && attacks::between(king, checker).contains(origin);
                if checker != pawn && !discovered {
                    return Err(PositionError::ImpossibleCheck);
                }
            }
        }
    }
    Ok(())
}

/// One in every byte of a word.
const EVERY_BYTE: u64 = 0x0101_0101_0101_0101;

/// The bit that makes an ASCII letter lower case, in every byte.
const LOWER_CASE: u64 = 0x20 * EVERY_BYTE;

/// For each pattern of squares on a rank (bit `i` for file `i`), a word whose byte `i`
/// is all ones on those files, zero elsewhere.
static FILE_BYTES: [u64; 256] = {
    let mut table = [0; 256];
    let mut pattern = 0;
    while pattern < 256 {
        let mut file = 0;
        while file < 8 {
            if pattern & (1 << file) != 0 {
                table[pattern] |= 0xff << (8 * file);
            }
            file += 1;
        }
        pattern += 1;
    }
    table
};

/// For each pattern of occupied squares on a rank (bit `i` for file `i`), the rank's
/// placement text as a template, and its length: a digit for a run of empty squares, or
/// the file (0 to 7, below any digit) of the piece whose letter goes there.
const RANK_TEMPLATES: [([u8; 8], u8); 256] = rank_templates();

const fn rank_templates() -> [([u8; 8], u8); 256] {
    let mut table = [([0u8; 8], 0u8); 256];
    let mut occupied = 0;
    while occupied < 256 {
        let mut template = [0u8; 8];
        let mut len = 0;
        let mut empty = 0;
        let mut file = 0;
        while file < 8 {
            if occupied & (1 << file) != 0 {
                if empty > 0 {
                    template[len] = b'0' + empty;
                    len += 1;
                    empty = 0;
                }
                template[len] = file;
                len += 1;
            } else {
                empty += 1;
            }
            file += 1;
        }
        if empty > 0 {
            template[len] = b'0' + empty;
            len += 1;
        }
        table[occupied] = (template, len as u8);
        occupied += 1;
    }
    table
}

/// The longest FEN written: 71 bytes of placement, a castling field of at most four
/// letters, two clocks of at most ten digits, the rest and the spaces.
const MAX_FEN: usize = 104;

/// A FEN as `Position::fen_text` writes it: ASCII in a fixed buffer.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct FenText {
    bytes: [u8; MAX_FEN],
    len: usize,
}

impl FenText {
    /// An empty text, to write a FEN into.
    pub const fn new() -> FenText {
        FenText {
            bytes: [0; MAX_FEN],
            len: 0,
        }
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len.min(MAX_FEN)]
    }

    pub fn as_str(&self) -> &str {
        // Only ASCII is ever written, so this never fails.
        std::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }
}

impl Default for FenText {
    fn default() -> FenText {
        FenText::new()
    }
}

/// Where the next byte of a FEN goes.
struct FenCursor<'a> {
    bytes: &'a mut [u8; MAX_FEN],
    len: usize,
}

impl FenCursor<'_> {
    fn push(&mut self, byte: u8) {
        if let Some(slot) = self.bytes.get_mut(self.len) {
            *slot = byte;
            self.len += 1;
        }
    }

    fn push_number(&mut self, n: u32) {
        let (digits, len) = decimal(u64::from(n));
        for &d in &digits[digits.len() - len..] {
            self.push(d);
        }
    }
}

impl fmt::Debug for FenText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for FenText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The decimal digits of `n`, right-aligned in twenty bytes, and how many there are:
/// cheaper than formatting machinery where numbers are written by the million (FEN
/// clocks, PGN move numbers, the verdict lines of a database check).
pub(crate) fn decimal(mut n: u64) -> ([u8; 20], usize) {
    let mut digits = [0u8; 20];
    let mut len = 0;
    while len < digits.len() {
        digits[digits.len() - 1 - len] = b'0' + (n % 10) as u8;
        len += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    (digits, len)
}

/// Appends a number's decimal digits: a FEN is written after every move a client plays,
/// and PGN move numbers by the million, and this is cheaper than formatting machinery.
pub(crate) fn push_number(out: &mut String, n: u32) {
    let (digits, len) = decimal(u64::from(n));
    for &d in &digits[digits.len() - len..] {
        out.push(char::from(d));
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.fen_text().as_str())
    }
}
