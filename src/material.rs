//! Insufficient material: positions where no sequence of legal moves can mate.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::position::Position;
use crate::role::Role;

impl Position {
    /// Whether `color` lacks the material to ever mate, whatever the opponent does.
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let ours = self.by_color(color);
        let theirs = self.by_color(color.other());
        let heavy = self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        if (ours & heavy).is_nonempty() {
            return false;
        }
        let knights = self.by_role(Role::Knight);
        let bishops = self.by_role(Role::Bishop);
        if (ours & knights).is_nonempty() {
            // A lone knight mates only with help: an enemy piece blocking its own king.
            // Queens cannot be such a blocker in any mate a knight gives.
            let opponent_blockers = theirs & !self.by_role(Role::King) & !self.by_role(Role::Queen);
            return ours.count() <= 2 && opponent_blockers.is_empty();
        }
        if (ours & bishops).is_nonempty() {
            // Bishops all on one colour can never attack a king from the other colour's
            // squares, and with no pawns or knights nothing can block a flight square.
            let one_colour = (bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops & Bitboard::LIGHT_SQUARES).is_empty();
            return one_colour && self.by_role(Role::Pawn).is_empty() && knights.is_empty();
        }
        true
    }

    /// Whether neither side can mate: the game is dead.
    #[inline]
    pub fn is_insufficient_material(&self) -> bool {
        // Asked after every move of a file, and nearly always a pawn, rook or queen
        // is still on the board.
        let heavy = self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        heavy.is_empty()
            && self.has_insufficient_material(Color::White)
            && self.has_insufficient_material(Color::Black)
    }
}
