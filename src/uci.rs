//! UCI move text (`e2e4`, `e7e8q`): parsing, printing and matching against the position.

use std::fmt;
use std::str::FromStr;

use crate::illegal::IllegalMove;
use crate::moves::{CastlingMode, Move};
use crate::position::Position;
use crate::role::Role;
use crate::square::{File, Square};

/// A move as UCI text says it: squares and a promotion letter, not yet checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UciMove {
    pub from: Square,
    pub to: Square,
    pub promotion: Option<Role>,
}

/// Why text is not UCI move syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseUciError;

impl fmt::Display for ParseUciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a move in UCI notation (like e2e4 or e7e8q)")
    }
}

impl std::error::Error for ParseUciError {}

impl FromStr for UciMove {
    type Err = ParseUciError;

    /// Parses `e2e4` or `e7e8q` (the promotion letter in either case).
    fn from_str(text: &str) -> Result<UciMove, ParseUciError> {
        // Squares are read in either case, but an upper-case B first is SAN's bishop
        // (`B6d7` is the bishop of the sixth rank to d7, never b6d7) unless the target
        // is upper-case too, which SAN never writes: `B1C3` is b1c3.
        let sans_bishop = |t: &str| {
            t.starts_with('B') && !t.as_bytes().get(2).is_some_and(u8::is_ascii_uppercase)
        };
        // Read as bytes: a byte past ASCII is no file, rank or piece letter.
        let (squares, promotion) = match *text.as_bytes() {
            [a, b, c, d] => ([a, b, c, d], None),
            [a, b, c, d, p] if p.is_ascii() => {
                let role = Role::from_char(char::from(p)).ok_or(ParseUciError)?;
                ([a, b, c, d], Some(role))
            }
            _ => return Err(ParseUciError),
        };
        if sans_bishop(text) {
            return Err(ParseUciError);
        }
        let [a, b, c, d] = squares;
        Ok(UciMove {
            from: Square::from_name_bytes(a, b).ok_or(ParseUciError)?,
            to: Square::from_name_bytes(c, d).ok_or(ParseUciError)?,
            promotion,
        })
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(role) = self.promotion {
            write!(f, "{}", role.lower_char())?;
        }
        Ok(())
    }
}

impl Move {
    /// Whether this is castling written as a two-square king step in standard notation:
    /// king on the e-file, rook in the corner. Any other castling (a Chess960 setup played
    /// without the Chess960 option) stays king-takes-rook, the only unambiguous form.
    fn is_castle_written_as_king_step(self, mode: CastlingMode) -> bool {
        mode == CastlingMode::Standard
            && self.is_castle()
            && self.from().file() == File::E
            && matches!(self.to().file(), File::A | File::H)
    }

    /// The UCI text of this move.
    pub fn to_uci(self, mode: CastlingMode) -> UciMove {
        let to = if self.is_castle_written_as_king_step(mode) {
            Position::castling_targets(self.from(), self.to()).0
        } else {
            self.to()
        };
        UciMove {
            from: self.from(),
            to,
            promotion: self.promotion(),
        }
    }
}

impl Position {
    /// The legal move that UCI text names, or why there is none.
    pub fn uci_to_move(&self, uci: UciMove, mode: CastlingMode) -> Result<Move, IllegalMove> {
        self.diagnose(uci, mode)
    }

    /// The legal move UCI text names when it is a plain move of the piece on its
    /// origin, with that piece's role, checked without generating any other move.
    /// `None` leaves castling, en passant and every refusal to the full lookup.
    #[inline]
    pub(crate) fn find_plain_uci(&self, uci: UciMove) -> Option<(Move, Role)> {
        if matches!(uci.promotion, Some(Role::Pawn | Role::King)) {
            return None;
        }
        self.plain_move_from(uci.from, uci.to, uci.promotion)
    }

    /// Whether a legal move is written with `to` as its target square in this mode.
    pub(crate) fn uci_target_matches(m: Move, to: Square, mode: CastlingMode) -> bool {
        if m.to() == to {
            return true;
        }
        m.is_castle_written_as_king_step(mode)
            && Position::castling_targets(m.from(), m.to()).0 == to
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quick lookup finds only legal moves, the very ones the full lookup finds,
    /// for every pair of squares and every promotion letter, whatever the notation.
    #[test]
    fn the_quick_lookup_agrees_with_the_full_one() {
        let mut found = 0;
        for pos in crate::playouts::playouts(4, 60, 0x2545_f491_4f6c_dd1d) {
            for from in Square::ALL {
                for to in Square::ALL {
                    for promotion in [
                        None,
                        Some(Role::Queen),
                        Some(Role::Knight),
                        Some(Role::King),
                    ] {
                        let uci = UciMove {
                            from,
                            to,
                            promotion,
                        };
                        let Some((m, _)) = pos.find_plain_uci(uci) else {
                            continue;
                        };
                        for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
                            assert_eq!(pos.uci_to_move(uci, mode), Ok(m), "{uci} in {}", pos.fen());
                        }
                        found += 1;
                    }
                }
            }
        }
        assert!(found > 10_000, "only {found} moves found");
    }

    /// The quick lookup leaves to the full one only castling and en passant: every
    /// other legal move, whichever piece makes it and whether or not the king is in
    /// check, is found by it.
    #[test]
    fn the_quick_lookup_finds_every_plain_legal_move() {
        let mut found = 0;
        for pos in crate::playouts::playouts(4, 60, 0x2545_f491_4f6c_dd1d) {
            for &m in pos.legal_moves().iter() {
                if m.is_castle() || m.is_en_passant() {
                    continue;
                }
                let uci = m.to_uci(CastlingMode::Standard);
                assert_eq!(
                    pos.find_plain_uci(uci),
                    pos.role_at(m.from()).map(|role| (m, role)),
                    "{uci} in {}",
                    pos.fen()
                );
                found += 1;
            }
        }
        assert!(found > 5_000, "only {found} moves checked");
    }
}
