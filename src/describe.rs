//! What a board front-end shows of a move, worked out once: the moving piece, what it
//! captures and where (the two squares differ for en passant), the promotion, castling
//! and the king's destination, and whether it checks or mates.

use crate::moves::Move;
use crate::position::Position;
use crate::role::Role;
use crate::square::Square;

/// The side a castling move goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastleSide {
    King,
    Queen,
}

/// The facts of one legal move in its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveFacts {
    pub from: Square,
    pub piece: Role,
    /// The captured piece and the square it stood on.
    pub captured: Option<(Role, Square)>,
    pub promotion: Option<Role>,
    pub en_passant: bool,
    pub castle: Option<CastleSide>,
    /// Where the king lands, for castling: what a board draws as the move.
    pub king_to: Option<Square>,
    pub check: bool,
    pub checkmate: bool,
}

impl Position {
    /// The facts of a legal move, and the position after it.
    pub fn describe(&self, m: Move) -> (MoveFacts, Position) {
        let after = self.after(m);
        (self.facts_of(m, &after), after)
    }

    /// The facts of a legal move whose resulting position the caller has already (a
    /// game that has just played it).
    pub fn facts_of(&self, m: Move, after: &Position) -> MoveFacts {
        let from = m.from();
        let castle = m.is_castle().then(|| {
            if m.to().file() > from.file() {
                CastleSide::King
            } else {
                CastleSide::Queen
            }
        });
        let captured = if m.is_en_passant() {
            let square = Square::from_coords(m.to().file(), from.rank());
            Some((Role::Pawn, square))
        } else if castle.is_some() {
            None
        } else {
            self.role_at(m.to()).map(|role| (role, m.to()))
        };
        let check = after.is_check();
        MoveFacts {
            from,
            piece: self.role_at(from).unwrap_or(Role::Pawn),
            captured,
            promotion: m.promotion(),
            en_passant: m.is_en_passant(),
            castle,
            king_to: castle.map(|_| Position::castling_targets(from, m.to()).0),
            check,
            checkmate: check && !after.has_legal_moves(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::CastlingMode;

    fn facts(fen: &str, uci: &str) -> MoveFacts {
        let pos = Position::from_fen(fen).unwrap();
        let m = pos
            .uci_to_move(uci.parse().unwrap(), CastlingMode::Standard)
            .unwrap();
        pos.describe(m).0
    }

    #[test]
    fn en_passant_captures_beside_the_target() {
        let f = facts("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6");
        assert_eq!(f.captured, Some((Role::Pawn, Square::parse("d5").unwrap())));
        assert!(f.en_passant);
    }

    #[test]
    fn castling_names_the_side_and_the_king_square_and_captures_nothing() {
        let f = facts("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1");
        assert_eq!(f.castle, Some(CastleSide::Queen));
        assert_eq!(f.king_to, Square::parse("c1"));
        assert_eq!((f.piece, f.captured), (Role::King, None));
    }

    #[test]
    fn a_promotion_that_captures_and_mates() {
        let f = facts("1r4k1/P4ppp/8/8/8/8/8/4K3 w - - 0 1", "a7b8q");
        assert_eq!(f.captured, Some((Role::Rook, Square::parse("b8").unwrap())));
        assert_eq!(f.promotion, Some(Role::Queen));
        assert!(f.check && f.checkmate);
    }
}
