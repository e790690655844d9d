//! Standard Algebraic Notation: writing it exactly as the PGN standard does, and reading
//! what people type.

use std::fmt;

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind, MoveList, ShortList};
use crate::position::{back_rank, Position};
use crate::role::Role;
use crate::square::{File, Rank, Square};

/// Why SAN text names no single legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// The text is not SAN at all.
    Syntax,
    /// It is SAN, but no legal move matches.
    NoSuchMove,
    /// More than one legal move matches; the candidates, in UCI order of generation.
    Ambiguous(Vec<Move>),
    /// A pawn reaching the last rank without saying what it becomes.
    PromotionRequired,
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Syntax => f.write_str("not a move in SAN (like Nf3, exd5, O-O or e8=Q)"),
            SanError::NoSuchMove => f.write_str("no legal move matches"),
            SanError::Ambiguous(_) => f.write_str("more than one legal move matches"),
            SanError::PromotionRequired => {
                f.write_str("a pawn reaching the last rank must promote: add =Q, =R, =B or =N")
            }
        }
    }
}

impl std::error::Error for SanError {}

/// SAN text broken into its parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SanText {
    Castle {
        king_side: bool,
    },
    Normal {
        role: Role,
        file: Option<File>,
        rank: Option<Rank>,
        to: Square,
        promotion: Option<Role>,
    },
}

/// Strips what people append to a move: check and mate marks, annotation glyphs and an
/// en-passant note.
fn strip_suffixes(mut text: &[u8]) -> &[u8] {
    if !matches!(text.last(), Some(b'+' | b'#' | b'!' | b'?' | b'.' | b'p')) {
        return text;
    }
    loop {
        let mut trimmed = text;
        while let [rest @ .., b'+' | b'#' | b'!' | b'?'] = trimmed {
            trimmed = rest;
        }
        let trimmed = trimmed.strip_suffix(b" e.p.").unwrap_or(trimmed);
        let trimmed = trimmed.strip_suffix(b"e.p.").unwrap_or(trimmed);
        let trimmed = trimmed.strip_suffix(b"ep").unwrap_or(trimmed);
        if trimmed.len() == text.len() {
            return text;
        }
        text = trimmed;
    }
}

fn trim_ascii(text: &[u8]) -> &[u8] {
    text.trim_ascii()
}

fn file_of(b: u8) -> Option<File> {
    b.is_ascii_lowercase()
        .then(|| File::from_char(char::from(b)))
        .flatten()
}

fn rank_of(b: u8) -> Option<Rank> {
    Rank::from_char(char::from(b))
}

/// The piece an upper-case SAN letter names (not the pawn's `P`, which moves seldom
/// carry).
// Forced: --pgn 1% more instructions without the small SAN and token readers' forced inlines.
#[inline(always)]
fn piece_letter(c: u8) -> Option<Role> {
    PIECE_LETTERS[usize::from(c)]
}

/// `piece_letter` for every byte: a load, where a `match` is a jump through a table
/// that the mix of pieces in a file's moves keeps mispredicting.
static PIECE_LETTERS: [Option<Role>; 256] = {
    let mut table = [None; 256];
    table[b'N' as usize] = Some(Role::Knight);
    table[b'B' as usize] = Some(Role::Bishop);
    table[b'R' as usize] = Some(Role::Rook);
    table[b'Q' as usize] = Some(Role::Queen);
    table[b'K' as usize] = Some(Role::King);
    table
};

// Forced: --pgn 1% more instructions without the small SAN and token readers' forced inlines.
#[inline(always)]
fn square_of(file: u8, rank: u8) -> Option<Square> {
    let f = file.wrapping_sub(b'a');
    let r = rank.wrapping_sub(b'1');
    (f < 8 && r < 8).then(|| Square::from_index_wrapping(u32::from(r) * 8 + u32::from(f)))
}

/// The origins a SAN hint of one byte allows: a file or a rank.
// Forced: --pgn 1% more instructions without the small SAN and token readers' forced inlines.
#[inline(always)]
fn hint_origins(c: u8) -> Option<Bitboard> {
    let f = c.wrapping_sub(b'a');
    let r = c.wrapping_sub(b'1');
    if f < 8 {
        File::new(u32::from(f)).map(Bitboard::file)
    } else if r < 8 {
        Rank::new(u32::from(r)).map(Bitboard::rank)
    } else {
        None
    }
}

/// The shapes nearly every SAN move in a file has (`e4`, `Nf3`, `Nxf3`, `exd5`,
/// `Nbd7`, `R1xe2`, `e8=Q`, `dxe8=Q`, each perhaps with `+` or `#`), read straight into
/// the piece, the squares it may come from, the target and the promotion. `None` for
/// any other text, which `parse_text` reads.
// Forced: --pgn 13% more instructions without its path's forced inlines.
#[inline(always)]
fn quick_shape(text: &[u8]) -> Option<(Role, Bitboard, Square, Option<Role>)> {
    let text = match text {
        [rest @ .., b'+' | b'#'] => rest,
        _ => text,
    };
    let pawn_file = |sq: Square| Bitboard::file(sq.file());
    match *text {
        [f, r] => {
            let to = square_of(f, r)?;
            Some((Role::Pawn, pawn_file(to), to, None))
        }
        [p, f, r] | [p, b'x', f, r] if p.is_ascii_uppercase() => {
            Some((piece_letter(p)?, Bitboard::FULL, square_of(f, r)?, None))
        }
        [c, b'x', f, r] => {
            let from = hint_origins(c).filter(|_| c.is_ascii_lowercase())?;
            Some((Role::Pawn, from, square_of(f, r)?, None))
        }
        [f, r, b'=', q] => {
            let to = square_of(f, r)?;
            Some((Role::Pawn, pawn_file(to), to, Some(promotion_letter(q)?)))
        }
        [p, hint, f, r] | [p, hint, b'x', f, r] => Some((
            piece_letter(p)?,
            hint_origins(hint)?,
            square_of(f, r)?,
            None,
        )),
        [c, b'x', f, r, b'=', q] => {
            let from = hint_origins(c).filter(|_| c.is_ascii_lowercase())?;
            Some((
                Role::Pawn,
                from,
                square_of(f, r)?,
                Some(promotion_letter(q)?),
            ))
        }
        _ => None,
    }
}

/// The piece a promotion's upper-case letter names.
// Forced: --pgn 1% more instructions without the small SAN and token readers' forced inlines.
#[inline(always)]
fn promotion_letter(c: u8) -> Option<Role> {
    piece_letter(c).filter(|&role| role != Role::King)
}

/// Whether text that is no SAN would be SAN with its first letter upper-case (`nf3`,
/// `qxd8`): a lower-case piece letter, a slip worth naming in the error.
pub fn is_lower_case_piece(text: &str) -> bool {
    match text.as_bytes() {
        [first @ (b'n' | b'b' | b'r' | b'q' | b'k'), rest @ ..] => {
            let mut upper = Vec::with_capacity(text.len());
            upper.push(first.to_ascii_uppercase());
            upper.extend_from_slice(rest);
            parse_text(&upper).is_ok()
        }
        _ => false,
    }
}

/// SAN bytes broken into their parts, without allocating: moves in PGN files are read
/// by the million.
fn parse_text(text: &[u8]) -> Result<SanText, SanError> {
    let text = strip_suffixes(trim_ascii(text));
    match text {
        b"O-O" | b"0-0" | b"o-o" => return Ok(SanText::Castle { king_side: true }),
        b"O-O-O" | b"0-0-0" | b"o-o-o" => return Ok(SanText::Castle { king_side: false }),
        _ => {}
    }
    // The shapes most moves have, read at once: e4, Nf3, Nxf3, exd5.
    let piece = |c: u8| Role::from_char(char::from(c)).unwrap_or(Role::Pawn);
    let square = |f: u8, r: u8| match (file_of(f), rank_of(r)) {
        (Some(f), Some(r)) => Some(Square::from_coords(f, r)),
        _ => None,
    };
    let quick = match *text {
        [f, r] => square(f, r).map(|to| (Role::Pawn, None, to)),
        [p @ (b'N' | b'B' | b'R' | b'Q' | b'K'), f, r]
        | [p @ (b'N' | b'B' | b'R' | b'Q' | b'K'), b'x', f, r] => {
            square(f, r).map(|to| (piece(p), None, to))
        }
        [from @ b'a'..=b'h', b'x', f, r] => square(f, r).map(|to| (Role::Pawn, file_of(from), to)),
        _ => None,
    };
    if let Some((role, file, to)) = quick {
        return Ok(SanText::Normal {
            role,
            file,
            rank: None,
            to,
            promotion: None,
        });
    }
    let (role, rest) = match text.split_first() {
        Some((&c @ (b'N' | b'B' | b'R' | b'Q' | b'K'), rest)) => {
            (Role::from_char(char::from(c)).unwrap_or(Role::Pawn), rest)
        }
        Some((b'P', rest)) => (Role::Pawn, rest),
        _ => (Role::Pawn, text),
    };

    // The rest is [file][rank][x|:|-]file rank[[=|/|(]piece[)]]. The target square is
    // the last file-letter + rank-digit pair.
    let j = (0..rest.len().saturating_sub(1))
        .rev()
        .find(|&j| file_of(rest[j]).is_some() && rank_of(rest[j + 1]).is_some())
        .ok_or(SanError::Syntax)?;
    let to = Square::from_coords(
        file_of(rest[j]).ok_or(SanError::Syntax)?,
        rank_of(rest[j + 1]).ok_or(SanError::Syntax)?,
    );

    let mut hint = &rest[..j];
    if let [init @ .., b'x' | b':' | b'-'] = hint {
        hint = init;
    }
    let (file, rank) = match *hint {
        [] => (None, None),
        [c] => match (file_of(c), rank_of(c)) {
            (Some(f), _) => (Some(f), None),
            (None, Some(r)) => (None, Some(r)),
            _ => return Err(SanError::Syntax),
        },
        [f, r] if f.is_ascii_lowercase() => (
            Some(file_of(f).ok_or(SanError::Syntax)?),
            Some(rank_of(r).ok_or(SanError::Syntax)?),
        ),
        _ => return Err(SanError::Syntax),
    };

    let mut letters = rest[j + 2..]
        .iter()
        .filter(|c| !matches!(c, b'=' | b'/' | b'(' | b')'));
    let promotion = match (letters.next(), letters.next()) {
        (None, _) => None,
        (Some(&c), None) => match Role::from_char(char::from(c)) {
            Some(r @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight)) if c.is_ascii() => {
                Some(r)
            }
            _ => return Err(SanError::Syntax),
        },
        _ => return Err(SanError::Syntax),
    };
    if promotion.is_some() && role != Role::Pawn {
        return Err(SanError::Syntax);
    }
    Ok(SanText::Normal {
        role,
        file,
        rank,
        to,
        promotion,
    })
}

impl Position {
    /// The SAN of a legal move, with `+` or `#`.
    pub fn san(&self, m: Move) -> String {
        let mut san = self.san_without_suffix(m);
        let after = self.after(m);
        if after.is_check() {
            san.push(if after.has_legal_moves() { '+' } else { '#' });
        }
        san
    }

    /// The SAN of a legal move without its `+` or `#`, for callers that already know
    /// whether the move checks or mates.
    pub fn san_without_suffix(&self, m: Move) -> String {
        let from = m.from();
        let to = m.to();
        if m.kind() == MoveKind::Castle {
            return if to.file() > from.file() {
                "O-O"
            } else {
                "O-O-O"
            }
            .to_string();
        }
        let role = self.role_at(from).unwrap_or(Role::Pawn);
        let capture = self.by_color(self.turn.other()).contains(to) || m.is_en_passant();
        let mut san = String::with_capacity(8);
        if role == Role::Pawn {
            if capture {
                san.push(from.file().char());
            }
        } else {
            san.push(role.upper_char());
            // Only another piece of the same kind that reaches the target can be a
            // rival; most moves have none, and then the legal moves are not needed.
            let reaching = crate::attacks::attacks(self.turn, role, to, self.occupied())
                & self.pieces(self.turn, role);
            let rivals: Vec<Square> = if reaching.without(from).is_empty() {
                Vec::new()
            } else {
                self.legal_moves()
                    .iter()
                    .filter(|o| o.to() == to && o.from() != from && !o.is_castle())
                    .filter(|o| self.role_at(o.from()) == Some(role))
                    .map(|o| o.from())
                    .collect()
            };
            if !rivals.is_empty() {
                if rivals.iter().all(|r| r.file() != from.file()) {
                    san.push(from.file().char());
                } else if rivals.iter().all(|r| r.rank() != from.rank()) {
                    san.push(from.rank().char());
                } else {
                    san.push(from.file().char());
                    san.push(from.rank().char());
                }
            }
        }
        if capture {
            san.push('x');
        }
        san.push(to.file().char());
        san.push(to.rank().char());
        if let Some(role) = m.promotion() {
            san.push('=');
            san.push(role.upper_char());
        }
        san
    }

    /// The legal move SAN text names. Tolerant of `0-0`, missing or wrong `+`/`#`,
    /// `e8Q`, `exd6e.p.` and long forms like `Ng1f3`.
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        self.find_san(&self.legal_moves(), text.as_bytes())
    }

    /// The move of `legal` (this position's legal moves) that SAN bytes name. Finding
    /// the one match allocates nothing; only the errors do.
    pub fn find_san(&self, legal: &MoveList, text: &[u8]) -> Result<Move, SanError> {
        self.match_san(legal.as_slice(), parse_text(text)?, false)
    }

    /// The legal move SAN bytes of the plain shapes name (a piece or pawn to a square,
    /// `e4`, `Nbxd7`, `e8=Q`, with or without `+`/`#`), when it is the one such move,
    /// with the role of the piece that moves: the cheapest way from a file's move to a
    /// move. `None` leaves the text to `parse_san_bytes`, which reads every shape and
    /// says why a move is refused.
    // Forced: --pgn 13% more instructions without its path's forced inlines.
    #[inline(always)]
    pub fn find_plain_san(&self, text: &[u8]) -> Option<(Move, Role)> {
        let (role, origins, to, promotion) = quick_shape(text)?;
        let m = self.unique_move_to(role, to, origins, promotion)?;
        Some((m, role))
    }

    /// The legal move SAN bytes name, or why there is none, as `parse_san` reads the
    /// text: found by generating only the moves to its target square (or the castling
    /// moves), cheaper than the whole list when the list is not needed for anything else.
    pub fn parse_san_bytes(&self, text: &[u8]) -> Result<Move, SanError> {
        let parsed = parse_text(text)?;
        if let SanText::Normal {
            role,
            file,
            rank,
            to,
            promotion,
        } = parsed
        {
            // A pawn move without a file is a push.
            let file = file.or((role == Role::Pawn).then_some(to.file()));
            let origins = file.map_or(Bitboard::FULL, Bitboard::file)
                & rank.map_or(Bitboard::FULL, Bitboard::rank);
            if let Some(m) = self.unique_move_to(role, to, origins, promotion) {
                return Ok(m);
            }
        }
        if let SanText::Castle { king_side } = parsed {
            if let Some(m) = self.castle_quick(king_side) {
                return Ok(m);
            }
        }
        // What the shortcuts leave: en passant, and every refusal's reason.
        let mut candidates = ShortList::new();
        match parsed {
            // Castling moves come with the king's moves to a1, which cannot match.
            SanText::Castle { .. } => {
                self.legal_moves_of_to(Some(Role::King), Square::A1, true, &mut candidates)
            }
            SanText::Normal { role, to, .. } => {
                self.legal_moves_of_to(Some(role), to, false, &mut candidates)
            }
        }
        // The candidates are all of the piece the text names.
        self.match_san(candidates.as_slice(), parsed, true)
    }

    /// The castling move to one side, when it is legal and the only one there (the
    /// side has one rook with the right): a castling of a file costs a few lookups
    /// instead of the whole generator's run, which the refusals still take.
    fn castle_quick(&self, king_side: bool) -> Option<Move> {
        let us = self.turn;
        let king = self.king(us);
        let rooks = self.castling & Bitboard::rank(back_rank(us));
        let mut side = rooks
            .into_iter()
            .filter(|rook| (rook.file() > king.file()) == king_side);
        let (Some(rook), None) = (side.next(), side.next()) else {
            return None;
        };
        let legal = !self.is_check()
            && !self.is_castling_blocked(king, rook)
            && self.castling_attacked_square(king, rook).is_none();
        legal.then(|| Move::new(king, rook, MoveKind::Castle))
    }

    /// The one move of `legal` that parsed SAN names; `roles_known` when every move
    /// of `legal` is already of the piece it names.
    fn match_san(
        &self,
        legal: &[Move],
        parsed: SanText,
        roles_known: bool,
    ) -> Result<Move, SanError> {
        let matches = |m: &Move| match parsed {
            SanText::Castle { king_side } => {
                m.is_castle() && (m.to().file() > m.from().file()) == king_side
            }
            SanText::Normal {
                role,
                file,
                rank,
                to,
                ..
            } => {
                // A pawn move without a file is a push: `e4` never means `dxe4`.
                let file = file.or((role == Role::Pawn).then_some(to.file()));
                !m.is_castle()
                    && m.to() == to
                    && (roles_known || self.role_at(m.from()) == Some(role))
                    && file.is_none_or(|f| m.from().file() == f)
                    && rank.is_none_or(|r| m.from().rank() == r)
            }
        };
        let promotion = match parsed {
            SanText::Normal { promotion, .. } => promotion,
            SanText::Castle { .. } => None,
        };
        let mut found = None;
        let mut count = 0;
        let mut promotes = false;
        for m in legal.iter().filter(|m| matches(m)) {
            promotes |= m.promotion().is_some();
            if m.promotion() == promotion {
                count += 1;
                found = Some(*m);
            }
        }
        if promotion.is_none() && promotes {
            return Err(SanError::PromotionRequired);
        }
        match (count, found) {
            (1, Some(m)) => Ok(m),
            (0, _) | (_, None) => Err(SanError::NoSuchMove),
            _ => Err(SanError::Ambiguous(
                legal
                    .iter()
                    .copied()
                    .filter(|m| matches(m) && m.promotion() == promotion)
                    .collect(),
            )),
        }
    }
}

impl Position {
    /// Why SAN text that names no legal move cannot be played, in a player's words: the
    /// diagnosis of the one move the text would name if legality were ignored. `None`
    /// when the text is not SAN, when it names a legal move, or when it could mean no
    /// piece's move or several.
    pub fn explain_san(&self, text: &str) -> Option<crate::illegal::IllegalMove> {
        use crate::moves::CastlingMode;
        use crate::uci::UciMove;
        let us = self.turn;
        let origins: Vec<(Square, Square)> = match parse_text(text.as_bytes()).ok()? {
            SanText::Castle { king_side } => {
                let king = self.king(us);
                let rank = crate::position::back_rank(us);
                let rooks = self.pieces(us, Role::Rook);
                let rights = self.castling_rooks();
                let on_side =
                    |sq: &Square| sq.rank() == rank && (sq.file() > king.file()) == king_side;
                // The rook with the right on that side, else the outermost rook there.
                let rook = rights.into_iter().find(on_side).or_else(|| {
                    let mut side: Vec<Square> = rooks.into_iter().filter(on_side).collect();
                    if king_side {
                        side.reverse();
                    }
                    side.first().copied()
                });
                match rook {
                    Some(rook) => vec![(king, rook)],
                    None => return Some(crate::illegal::IllegalMove::CastlingWithoutRight),
                }
            }
            SanText::Normal {
                role,
                file,
                rank,
                to,
                ..
            } => {
                // A pawn that does not capture stays on its file.
                let file = file.or((role == Role::Pawn).then_some(to.file()));
                self.pieces(us, role)
                    .into_iter()
                    .filter(|sq| file.is_none_or(|f| sq.file() == f))
                    .filter(|sq| rank.is_none_or(|r| sq.rank() == r))
                    .map(|from| (from, to))
                    .collect()
            }
        };
        let reasons: Vec<crate::illegal::IllegalMove> = origins
            .iter()
            .filter_map(|&(from, to)| {
                let uci = UciMove {
                    from,
                    to,
                    promotion: None,
                };
                self.diagnose(uci, CastlingMode::Chess960).err()
            })
            .collect();
        // A piece that cannot reach the square at all is no candidate when another can.
        let reachable: Vec<&crate::illegal::IllegalMove> = reasons
            .iter()
            .filter(|r| !matches!(r, crate::illegal::IllegalMove::CannotMoveThatWay(_)))
            .collect();
        match (reachable.as_slice(), reasons.as_slice()) {
            ([only], _) => Some((*only).clone()),
            ([], [only]) => Some(only.clone()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn positions() -> Vec<Position> {
        crate::playouts::playouts(6, 50, 0x2545_f491_4f6c_dd1d)
    }

    /// Where a pawn may capture en passant, the lean reading of a piece's move to that
    /// square is not the capture: `Nd3` is not `exd3`.
    #[test]
    fn a_piece_move_to_the_en_passant_square_is_not_the_capture() {
        let pos = Position::from_fen("4k3/1P6/8/8/3Pp3/8/6p1/R3K3 b Q d3 0 1").unwrap();
        assert_eq!(pos.parse_san_bytes(b"Nd3"), Err(SanError::NoSuchMove));
        assert_eq!(pos.find_plain_san(b"Nd3"), None);
        let capture = pos.parse_san_bytes(b"exd3").unwrap();
        assert!(capture.is_en_passant());
    }

    /// The castling shortcut finds the move the full list holds, in standard chess and
    /// Chess960 alike, and leaves nothing it could find to the full reading.
    #[test]
    fn the_quick_castling_is_the_listed_one() {
        let mut found = 0;
        for pos in positions() {
            let legal = pos.legal_moves();
            for (king_side, text) in [(true, "O-O"), (false, "O-O-O")] {
                let listed = pos.find_san(&legal, text.as_bytes());
                match pos.castle_quick(king_side) {
                    Some(m) => {
                        found += 1;
                        assert_eq!(listed, Ok(m), "{text} in {}", pos.fen());
                    }
                    None => {
                        let king = pos.king(pos.turn);
                        let rooks = pos.castling & Bitboard::rank(back_rank(pos.turn));
                        let side = rooks
                            .into_iter()
                            .filter(|r| (r.file() > king.file()) == king_side)
                            .count();
                        assert!(side != 1 || listed.is_err(), "{text} in {}", pos.fen());
                    }
                }
                assert_eq!(pos.parse_san_bytes(text.as_bytes()), listed);
            }
        }
        assert!(found > 100, "only {found} castlings found");
    }

    /// Every text of up to six bytes from an alphabet of SAN's letters that the quick
    /// reading takes is read the same by the full one, as `parse_san_bytes` turns its
    /// parts into origins (a pawn without a file comes from the target's file).
    #[test]
    fn the_quick_shape_is_the_full_parse() {
        const ALPHABET: &[u8] = b"ab18NBx=Q+#P";
        let mut shaped = 0;
        let mut text = Vec::new();
        for len in 1..=6u32 {
            for mut code in 0..ALPHABET.len().pow(len) {
                text.clear();
                for _ in 0..len {
                    text.push(ALPHABET[code % ALPHABET.len()]);
                    code /= ALPHABET.len();
                }
                let Some((role, origins, to, promotion)) = quick_shape(&text) else {
                    continue;
                };
                shaped += 1;
                let shown = String::from_utf8_lossy(&text);
                let Ok(SanText::Normal {
                    role: full_role,
                    file,
                    rank,
                    to: full_to,
                    promotion: full_promotion,
                }) = parse_text(&text)
                else {
                    panic!("{shown} is quick but not SAN");
                };
                let file = file.or((full_role == Role::Pawn).then_some(full_to.file()));
                let full_origins = file.map_or(Bitboard::FULL, Bitboard::file)
                    & rank.map_or(Bitboard::FULL, Bitboard::rank);
                assert_eq!(
                    (role, origins, to, promotion),
                    (full_role, full_origins, full_to, full_promotion),
                    "{shown}"
                );
            }
        }
        // e4, Nf3, Nxf3, exd5, Nbd7, Nbxd7, R1e2, e8=Q, axb8=Q, with + or #.
        assert!(shaped > 300, "only {shaped} quick shapes");
    }

    /// Whatever the quick reading finds, the full reading finds too; and it finds every
    /// move written the way SAN writes it (castling and en passant aside, which it leaves
    /// to the full reading).
    #[test]
    fn the_quick_reading_agrees_with_the_full_one() {
        let mut quick = 0;
        for pos in positions() {
            let legal = pos.legal_moves();
            for &m in legal.as_slice() {
                let san = pos.san(m);
                let bare = pos.san_without_suffix(m);
                let long = format!("{}{}", m.from(), &bare[bare.len().saturating_sub(2)..]);
                for text in [san.as_str(), bare.as_str(), long.as_str()] {
                    if let Some((found, _)) = pos.find_plain_san(text.as_bytes()) {
                        quick += 1;
                        assert_eq!(Ok(found), pos.find_san(&legal, text.as_bytes()), "{text}");
                    }
                }
                if !m.is_castle() && !m.is_en_passant() {
                    assert_eq!(
                        pos.find_plain_san(san.as_bytes()).map(|(m, _)| m),
                        Some(m),
                        "{san} in {}",
                        pos.fen()
                    );
                }
            }
            // Texts that name no move, or several, or other pieces' moves.
            for text in [
                "e5", "Nd2", "Kd2", "Bb5", "axb3", "e8=Q", "Rd1", "Qh5+", "O-O", "P", "e9",
            ] {
                if let Some((found, _)) = pos.find_plain_san(text.as_bytes()) {
                    assert_eq!(Ok(found), pos.find_san(&legal, text.as_bytes()), "{text}");
                }
            }
        }
        assert!(quick > 10_000, "only {quick} quick readings");
    }
}
