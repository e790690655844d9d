//! Pending offers between the players, draws and takebacks alike: who made one and at
//! which ply, and when it lapses. An offer is keyed by the number of moves played when
//! it was made, so that an undo to that ply keeps it and one below it takes it back.

use crate::color::Color;

/// A pending offer, draw or takeback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offer {
    pub by: Color,
    /// The moves played when it was made: an undo below it takes it back.
    pub ply: usize,
}

/// What a side does with an offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferStep {
    Offer,
    Accept,
    Decline,
}

impl OfferStep {
    pub const fn name(self) -> &'static str {
        match self {
            OfferStep::Offer => "offer",
            OfferStep::Accept => "accept",
            OfferStep::Decline => "decline",
        }
    }
}

/// What an offer is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferKind {
    Draw,
    Takeback,
}

impl OfferKind {
    /// The command word, and the word `status` writes before the side that offered.
    pub const fn name(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
            OfferKind::Takeback => "takeback",
        }
    }
}

impl Offer {
    /// Whether the offer still stands after a move by `mover` that left the game
    /// `over` or not: a move of the side it was made to withdraws it, and so does the
    /// end of the game, whoever's move ended it.
    pub fn survives_move(self, mover: Color, over: bool) -> bool {
        self.by == mover && !over
    }

    /// Whether the offer still stands once the game is back at `plies` moves.
    pub fn survives_undo(self, plies: usize) -> bool {
        self.ply <= plies
    }
}

/// How many plies a takeback proposed by `by` takes back when `turn` is to move and
/// `plies` moves have been played: the proposer's last move, and the other side's
/// reply to it if there is one. `None` when the proposer has no move to take back.
pub fn takeback_plies(by: Color, turn: Color, plies: usize) -> Option<usize> {
    let count = if turn == by { 2 } else { 1 };
    (plies >= count).then_some(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_takeback_goes_back_to_the_proposer_to_move() {
        // Black to move: white's last move is the last ply.
        assert_eq!(takeback_plies(Color::White, Color::Black, 1), Some(1));
        // White to move: black's reply goes too.
        assert_eq!(takeback_plies(Color::White, Color::White, 2), Some(2));
        // From a position with black to move, white's first turn has nothing behind it.
        assert_eq!(takeback_plies(Color::White, Color::White, 1), None);
        assert_eq!(takeback_plies(Color::Black, Color::White, 0), None);
    }

    #[test]
    fn an_offer_lapses_by_the_other_sides_move_or_the_end() {
        let offer = Offer {
            by: Color::White,
            ply: 3,
        };
        assert!(offer.survives_move(Color::White, false));
        assert!(!offer.survives_move(Color::White, true));
        assert!(!offer.survives_move(Color::Black, false));
        assert!(offer.survives_undo(3));
        assert!(!offer.survives_undo(2));
    }
}
