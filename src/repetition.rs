//! The identity of a position for the repetition rules.

use crate::position::{ep_key, Position};

impl Position {
    /// A key equal for two positions exactly when the repetition rules (FIDE 9.2.3) call
    /// them the same: placement, side to move, castling rights, and the en-passant square
    /// only when a legal en-passant capture exists.
    ///
    /// The Polyglot key already holds the first three, but it also holds the en-passant
    /// file whenever a pawn merely stands ready to capture, legal or not; that file is
    /// taken out again when no capture is legal.
    ///
    /// Inlined: a record's replay asks for it after every move, and most positions have
    /// no en-passant square to look at.
    // Forced: --pgn 13% more instructions without its path's forced inlines.
    #[inline(always)]
    pub fn repetition_key(&self) -> u64 {
        match self.ep_square() {
            Some(ep) => self.repetition_key_with_ep(ep),
            None => self.key(),
        }
    }

    /// `repetition_key` of a position with an en-passant square.
    // Forced: --pgn 13% more instructions without its path's forced inlines.
    #[inline(never)]
    fn repetition_key_with_ep(&self, ep: crate::square::Square) -> u64 {
        if self.legal_ep_square().is_none() {
            self.key() ^ ep_key(ep)
        } else {
            self.key()
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::position::Position;

    #[test]
    fn an_illegal_en_passant_capture_does_not_change_the_identity() {
        // The d-pawn could capture on e3 only by exposing its king on the rank.
        let pinned = Position::from_fen("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1").unwrap();
        let plain = Position::from_fen("8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1").unwrap();
        assert_ne!(pinned.key(), plain.key());
        assert_eq!(pinned.repetition_key(), plain.repetition_key());
    }

    #[test]
    fn a_legal_en_passant_capture_does() {
        let ep = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").unwrap();
        let plain = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1").unwrap();
        assert_ne!(ep.repetition_key(), plain.repetition_key());
    }
}
