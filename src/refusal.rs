//! Why a move's text cannot be played, as answers say it: the move it is (`MoveRef`),
//! a stable code and a reason in a player's words (`Refusal`). The protocol answers
//! these for its commands and the PGN replay for a game's moves, in the same words.

use std::fmt;

use crate::excerpt::Excerpt;
use crate::game::{MoveError, Status};
use crate::illegal::IllegalMove;
use crate::moves::CastlingMode;
use crate::san::SanError;

/// Which move an error is about: a `move` argument, or one ply of a `position` list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRef {
    pub text: String,
    /// The 1-based index in a `position ... moves` list, or the ply of a PGN game.
    pub ply: Option<usize>,
    /// Whether the move stands in a variation of a PGN game.
    pub variation: bool,
}

impl fmt::Display for MoveRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.ply, self.variation) {
            (Some(ply), false) => write!(f, "ply {ply} ({})", Excerpt(&self.text)),
            (Some(ply), true) => write!(f, "ply {ply} ({}, in a variation)", Excerpt(&self.text)),
            (None, _) => write!(f, "{}", Excerpt(&self.text)),
        }
    }
}

/// Why a move's text cannot be played: one variant per answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Text that is neither UCI nor SAN.
    NotAMove,
    /// Text that would be SAN with an upper-case piece letter (`nf3`).
    LowerCasePiece,
    /// The game already has a result.
    GameOver(Status),
    /// UCI text whose origin holds no piece.
    NoPiece(IllegalMove),
    /// UCI text whose origin holds a piece of the side not to move.
    NotYourTurn(IllegalMove),
    /// A pawn move to the last rank that does not say what the pawn becomes.
    PromotionRequired,
    /// The reason, in a player's words.
    Illegal(String),
    /// The legal moves SAN could mean, in UCI, sorted.
    Ambiguous(Vec<String>),
    /// `--` or `Z0` where a move must be.
    NullMove,
}

impl Refusal {
    /// The refusal of `text`, which `error` refuses; candidate moves are written in
    /// `mode`.
    pub fn of(error: MoveError, text: &str, mode: CastlingMode) -> Refusal {
        match error {
            MoveError::Syntax if crate::san::is_lower_case_piece(text) => Refusal::LowerCasePiece,
            MoveError::Syntax => Refusal::NotAMove,
            MoveError::GameOver(status) => Refusal::GameOver(status),
            MoveError::Uci(why @ IllegalMove::NoPiece(_)) => Refusal::NoPiece(why),
            MoveError::Uci(why @ IllegalMove::NotYourTurn(..)) => Refusal::NotYourTurn(why),
            MoveError::Uci(IllegalMove::PromotionRequired)
            | MoveError::San(SanError::PromotionRequired) => Refusal::PromotionRequired,
            MoveError::Uci(why) => Refusal::Illegal(why.to_string()),
            MoveError::San(SanError::Ambiguous(candidates)) => {
                let mut candidates: Vec<String> = candidates
                    .iter()
                    .map(|m| m.to_uci(mode).to_string())
                    .collect();
                candidates.sort();
                Refusal::Ambiguous(candidates)
            }
            MoveError::SanIllegal(why) => Refusal::Illegal(why.to_string()),
            MoveError::San(why) => Refusal::Illegal(why.to_string()),
        }
    }

    /// The stable code.
    pub const fn code(&self) -> &'static str {
        match self {
            Refusal::NotAMove | Refusal::LowerCasePiece | Refusal::NullMove => "bad-move",
            Refusal::GameOver(_) => "game-over",
            Refusal::NoPiece(_) => "no-piece",
            Refusal::NotYourTurn(_) => "not-your-turn",
            Refusal::PromotionRequired => "promotion-required",
            Refusal::Illegal(_) => "illegal-move",
            Refusal::Ambiguous(_) => "ambiguous-move",
        }
    }
}

/// The reason, without the move it is about.
impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotAMove => {
                f.write_str("not a move in UCI (e2e4, e7e8q) or SAN (Nf3, O-O, e8=Q)")
            }
            Refusal::LowerCasePiece => {
                f.write_str("in SAN the piece letter is upper-case (Nf3, Qxd8; b is a pawn's file)")
            }
            Refusal::GameOver(status) => write!(f, "the game is over ({status})"),
            Refusal::NoPiece(why) | Refusal::NotYourTurn(why) => write!(f, "{why}"),
            Refusal::PromotionRequired => f.write_str(
                "a pawn reaching the last rank must say what it becomes (e7e8q or e8=Q)",
            ),
            Refusal::Illegal(why) => f.write_str(why),
            Refusal::Ambiguous(candidates) => match candidates.split_last() {
                Some((last, [])) => write!(f, "could be {last} or another move"),
                Some((last, rest)) => write!(f, "could be {} or {last}", rest.join(", ")),
                None => f.write_str("matches more than one legal move"),
            },
            Refusal::NullMove => f.write_str("a null move (-- or Z0) is no move of chess"),
        }
    }
}

impl std::error::Error for Refusal {}
