//! Why a move is not legal, in a player's words: the first reason, found on the board.

use crate::illegal::IllegalMove;

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::moves::{CastlingMode, Move};
use crate::position::{back_rank, Position};
use crate::role::Role;
use crate::square::{File, Rank, Square};
use crate::uci::UciMove;

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
