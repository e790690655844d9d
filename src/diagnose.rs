//! Why a move is not legal, in a player's words.

use std::fmt;

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::moves::Move;
use crate::position::{back_rank, Position};
use crate::role::Role;
use crate::square::{File, Rank, Square};
use crate::uci::{CastlingMode, UciMove};

/// The reason a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// There is no piece on the origin square.
    NoPiece(Square),
    /// The piece on the origin square belongs to the side not to move.
    NotYourTurn(Square, Color),
    /// A pawn reaching the last rank must say what it becomes.
    PromotionRequired,
    /// The move names a promotion piece but the pawn does not reach the last rank, or the
    /// piece moving is not a pawn.
    NotAPromotion,
    /// A pawn cannot become a king or a pawn.
    BadPromotionPiece(Role),
    /// The target square holds one of the mover's own pieces.
    OwnPiece(Square),
    /// The piece does not move that way.
    CannotMoveThatWay(Role),
    /// Another piece stands in the way.
    PathBlocked(Square),
    /// The move would leave the mover's own king attacked.
    LeavesKingInCheck,
    /// The side has lost the right to castle on that side.
    CastlingWithoutRight,
    /// The king is in check and may not castle out of it.
    CastlingOutOfCheck,
    /// A square the king would cross or land on is attacked.
    CastlingThroughCheck(Square),
    /// Pieces stand between king and rook or on their destinations.
    CastlingBlocked,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::NoPiece(sq) => write!(f, "there is no piece on {sq}"),
            IllegalMove::NotYourTurn(sq, color) => {
                write!(
                    f,
                    "the piece on {sq} is {}'s and it is {color}'s turn",
                    color.other()
                )
            }
            IllegalMove::PromotionRequired => {
                f.write_str("a pawn reaching the last rank must promote: add q, r, b or n")
            }
            IllegalMove::NotAPromotion => {
                f.write_str("only a pawn reaching the last rank promotes")
            }
            IllegalMove::BadPromotionPiece(role) => {
                write!(f, "a pawn cannot promote to a {}", role.name())
            }
            IllegalMove::OwnPiece(sq) => write!(f, "{sq} is occupied by your own piece"),
            IllegalMove::CannotMoveThatWay(role) => {
                write!(f, "a {} does not move that way", role.name())
            }
            IllegalMove::PathBlocked(sq) => write!(f, "the way is blocked on {sq}"),
            IllegalMove::LeavesKingInCheck => f.write_str("it would leave the king in check"),
            IllegalMove::CastlingWithoutRight => {
                f.write_str("castling on that side is no longer allowed")
            }
            IllegalMove::CastlingOutOfCheck => f.write_str("the king cannot castle out of check"),
            IllegalMove::CastlingThroughCheck(sq) => {
                write!(
                    f,
                    "the king cannot castle through or into check ({sq} is attacked)"
                )
            }
            IllegalMove::CastlingBlocked => f.write_str("castling is blocked by pieces in between"),
        }
    }
}

impl std::error::Error for IllegalMove {}

impl Position {
    /// The legal move that the squares and promotion letter name, or the first reason
    /// (in the order of `IllegalMove`'s variants, roughly) that there is none.
    pub fn diagnose(&self, uci: UciMove, mode: CastlingMode) -> Result<Move, IllegalMove> {
        let UciMove {
            from,
            to,
            promotion,
        } = uci;
        let us = self.turn;
        let piece = self.piece_at(from).ok_or(IllegalMove::NoPiece(from))?;
        if piece.color != us {
            return Err(IllegalMove::NotYourTurn(from, us));
        }

        let mut matching: Vec<Move> = self
            .legal_moves_from(from)
            .iter()
            .copied()
            .filter(|&m| Position::uci_target_matches(m, to, mode))
            .collect();
        // With the king beside its destination (a Chess960 setup in standard notation),
        // `f1g1` can be a plain king step and castling at once: the plain step wins, and
        // king-takes-rook still names the castling.
        if matching.len() > 1 && matching.iter().any(|m| m.to() == to && !m.is_castle()) {
            matching.retain(|m| !m.is_castle());
        }
        let promotes = matching.iter().any(|m| m.promotion().is_some());
        match promotion {
            None if promotes => return Err(IllegalMove::PromotionRequired),
            None => {
                if let Some(&m) = matching.first() {
                    return Ok(m);
                }
            }
            Some(role) if promotes => {
                return matching
                    .iter()
                    .copied()
                    .find(|m| m.promotion() == Some(role))
                    .ok_or(IllegalMove::BadPromotionPiece(role));
            }
            Some(_) if !matching.is_empty() => return Err(IllegalMove::NotAPromotion),
            Some(_) => {}
        }

        if piece.role == Role::King {
            if let Some(rook) = self.castling_rook_for(from, to, mode) {
                return Err(self.castling_refusal(from, rook));
            }
        }
        if self.by_color(us).contains(to) {
            return Err(IllegalMove::OwnPiece(to));
        }
        self.geometry_refusal(piece.role, from, to)?;
        Err(IllegalMove::LeavesKingInCheck)
    }

    /// If a king move from `from` to `to` reads as castling, the rook it castles with
    /// (or would, had it the right): the own rook it lands on, or in standard notation a
    /// two-file step along the back rank.
    fn castling_rook_for(&self, from: Square, to: Square, mode: CastlingMode) -> Option<Square> {
        let us = self.turn;
        let rank = back_rank(us);
        if from.rank() != rank || to.rank() != rank {
            return None;
        }
        if self.pieces(us, Role::Rook).contains(to) {
            return Some(to);
        }
        if mode == CastlingMode::Chess960 || from.file() != File::E {
            return None;
        }
        // The two-square king step names castling with the corner rook only, as
        // `Move::to_uci` writes it; an inner castling rook is named king-takes-rook.
        let corner = match to.file() {
            File::G => File::H,
            File::C => File::A,
            _ => return None,
        };
        Some(Square::from_coords(corner, rank))
    }

    fn castling_refusal(&self, king: Square, rook: Square) -> IllegalMove {
        if !self.castling.contains(rook) {
            IllegalMove::CastlingWithoutRight
        } else if self.is_check() {
            IllegalMove::CastlingOutOfCheck
        } else if self.is_castling_blocked(king, rook) {
            IllegalMove::CastlingBlocked
        } else if let Some(sq) = self.castling_check_square(king, rook) {
            IllegalMove::CastlingThroughCheck(sq)
        } else {
            IllegalMove::LeavesKingInCheck
        }
    }

    /// The square that forbids castling, as a player sees it: the first square the king
    /// crosses that is attacked now, else its destination if attacked once king and rook
    /// have left (a Chess960 rook can shield the path until it moves).
    fn castling_check_square(&self, king: Square, rook: Square) -> Option<Square> {
        let (king_to, _) = Position::castling_targets(king, rook);
        let them = self.turn.other();
        let mut crossed: Vec<Square> = attacks::between(king, king_to).collect();
        if king_to < king {
            crossed.reverse();
        }
        let vacated = self.occupied().without(king).without(rook);
        crossed
            .into_iter()
            .find(|&sq| self.is_attacked(sq, them))
            .or_else(|| {
                let attacked = self.attackers_to(king_to, them, vacated).is_nonempty();
                attacked.then_some(king_to)
            })
            .or_else(|| self.castling_attacked_square(king, rook))
    }

    /// Refuses moves the piece cannot make on this board whatever the kings: wrong
    /// pattern or blocked path.
    fn geometry_refusal(&self, role: Role, from: Square, to: Square) -> Result<(), IllegalMove> {
        let occupied = self.occupied();
        let wrong_way = IllegalMove::CannotMoveThatWay(role);
        if role == Role::Pawn {
            let us = self.turn;
            let up: i32 = if us.is_white() { 8 } else { -8 };
            let start = us.fold(Rank::SECOND, Rank::SEVENTH);
            if attacks::pawn_attacks(us, from).contains(to) {
                let capturable =
                    self.by_color(us.other()).contains(to) || self.ep_square == Some(to);
                return if capturable { Ok(()) } else { Err(wrong_way) };
            }
            let one = from.offset(up);
            let two = from.offset(2 * up);
            if Some(to) == one {
                return if occupied.contains(to) {
                    Err(IllegalMove::PathBlocked(to))
                } else {
                    Ok(())
                };
            }
            if Some(to) == two && from.rank() == start {
                if let Some(step) = one.filter(|&s| occupied.contains(s)) {
                    return Err(IllegalMove::PathBlocked(step));
                }
                return if occupied.contains(to) {
                    Err(IllegalMove::PathBlocked(to))
                } else {
                    Ok(())
                };
            }
            return Err(wrong_way);
        }
        if !attacks::attacks(self.turn, role, from, Bitboard::EMPTY).contains(to) {
            return Err(wrong_way);
        }
        // Name the first piece in the way, seen from the moving piece.
        let blockers = attacks::between(from, to) & occupied;
        let nearest = if to > from {
            blockers.first()
        } else {
            blockers.last()
        };
        match nearest {
            Some(blocker) if matches!(role, Role::Bishop | Role::Rook | Role::Queen) => {
                Err(IllegalMove::PathBlocked(blocker))
            }
            _ => Ok(()),
        }
    }
}
