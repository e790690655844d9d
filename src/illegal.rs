//! The reasons a move is not legal, in a player's words: the answer `diagnose` gives,
//! named by the layers above it without the search that finds it.

use std::fmt;

use crate::color::Color;
use crate::role::Role;
use crate::square::Square;

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
