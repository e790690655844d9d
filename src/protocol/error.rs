//! Protocol errors: one variant per stable error code.

use std::fmt;

use crate::diagnose::IllegalMove;
use crate::fen::FenError;
use crate::game::{MoveError, Status};
use crate::san::SanError;
use crate::uci::CastlingMode;

/// Which move an error is about: a `move` argument, or one ply of a `position` list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRef {
    pub text: String,
    /// The 1-based index in a `position ... moves` list.
    pub ply: Option<usize>,
}

impl fmt::Display for MoveRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ply {
            Some(ply) => write!(f, "ply {ply} ({})", self.text),
            None => f.write_str(&self.text),
        }
    }
}

/// What is wrong with the bytes of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadInput {
    Utf8,
    /// A control character other than blanks, such as NUL.
    Control,
}

/// Every failure the protocol answers, as `error <code> <message>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProtocolError {
    /// The first word is no command.
    UnknownCommand(String),
    /// The command's arguments are missing, extra or malformed; the text says which.
    BadArgument(String),
    BadFen(FenError),
    /// Move text that is neither UCI nor SAN.
    BadMove(MoveRef),
    /// A move, resignation, draw or claim when the game already has a result.
    GameOver(Option<MoveRef>, Status),
    NoPiece(MoveRef, IllegalMove),
    NotYourTurn(MoveRef, IllegalMove),
    /// A pawn move to the last rank that does not say what the pawn becomes.
    PromotionRequired(MoveRef),
    /// The reason, in a player's words.
    IllegalMove(MoveRef, String),
    /// The legal moves the SAN could mean, in UCI.
    AmbiguousMove(MoveRef, Vec<String>),
    NothingToUndo,
    /// Undo after a resignation, agreement or claim.
    ResultFinal(Status),
    NoClaim,
    BadOption(String),
    /// The length limit in bytes.
    LineTooLong(usize),
    /// Bytes that are no command text: invalid UTF-8 or control characters.
    BadInput(BadInput),
}

impl ProtocolError {
    /// The stable code.
    pub const fn code(&self) -> &'static str {
        match self {
            ProtocolError::UnknownCommand(_) => "unknown-command",
            ProtocolError::BadArgument(_) => "bad-argument",
            ProtocolError::BadFen(_) => "bad-fen",
            ProtocolError::BadMove(_) => "bad-move",
            ProtocolError::GameOver(..) => "game-over",
            ProtocolError::NoPiece(..) => "no-piece",
            ProtocolError::NotYourTurn(..) => "not-your-turn",
            ProtocolError::PromotionRequired(_) => "promotion-required",
            ProtocolError::IllegalMove(..) => "illegal-move",
            ProtocolError::AmbiguousMove(..) => "ambiguous-move",
            ProtocolError::NothingToUndo => "nothing-to-undo",
            ProtocolError::ResultFinal(_) => "result-final",
            ProtocolError::NoClaim => "no-claim",
            ProtocolError::BadOption(_) => "bad-option",
            ProtocolError::LineTooLong(_) => "line-too-long",
            ProtocolError::BadInput(_) => "bad-input",
        }
    }

    /// The protocol error for a move that cannot be played.
    pub fn from_move(error: MoveError, at: MoveRef, mode: CastlingMode) -> ProtocolError {
        match error {
            MoveError::Syntax => ProtocolError::BadMove(at),
            MoveError::GameOver(status) => ProtocolError::GameOver(Some(at), status),
            MoveError::Uci(why @ IllegalMove::NoPiece(_)) => ProtocolError::NoPiece(at, why),
            MoveError::Uci(why @ IllegalMove::NotYourTurn(..)) => {
                ProtocolError::NotYourTurn(at, why)
            }
            MoveError::Uci(IllegalMove::PromotionRequired)
            | MoveError::San(SanError::PromotionRequired) => ProtocolError::PromotionRequired(at),
            MoveError::Uci(why) => ProtocolError::IllegalMove(at, why.to_string()),
            MoveError::San(SanError::Ambiguous(candidates)) => {
                let mut candidates: Vec<String> = candidates
                    .iter()
                    .map(|m| m.to_uci(mode).to_string())
                    .collect();
                candidates.sort();
                ProtocolError::AmbiguousMove(at, candidates)
            }
            MoveError::SanIllegal(why) => ProtocolError::IllegalMove(at, why.to_string()),
            MoveError::San(why) => ProtocolError::IllegalMove(at, why.to_string()),
        }
    }
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::UnknownCommand(word) => {
                write!(f, "'{word}' is not a command (help lists them)")
            }
            ProtocolError::BadArgument(why) => f.write_str(why),
            ProtocolError::BadFen(why) => write!(f, "{why}"),
            ProtocolError::BadMove(at) => {
                write!(f, "{at}: not a move in UCI (e2e4, e7e8q) or SAN (Nf3, O-O, e8=Q)")
            }
            ProtocolError::GameOver(Some(at), status) => {
                write!(f, "{at}: the game is over ({status})")
            }
            ProtocolError::GameOver(None, status) => write!(f, "the game is over ({status})"),
            ProtocolError::NoPiece(at, why) | ProtocolError::NotYourTurn(at, why) => {
                write!(f, "{at}: {why}")
            }
            ProtocolError::PromotionRequired(at) => write!(
                f,
                "{at}: a pawn reaching the last rank must say what it becomes (e7e8q or e8=Q)"
            ),
            ProtocolError::IllegalMove(at, why) => write!(f, "{at}: {why}"),
            ProtocolError::AmbiguousMove(at, candidates) => match candidates.split_last() {
                Some((last, [])) => write!(f, "{at}: could be {last} or another move"),
                Some((last, rest)) => write!(f, "{at}: could be {} or {last}", rest.join(", ")),
                None => write!(f, "{at}: matches more than one legal move"),
            },
            ProtocolError::NothingToUndo => f.write_str("no move has been played"),
            ProtocolError::ResultFinal(status) => {
                write!(f, "the result is final ({status}) and cannot be undone")
            }
            ProtocolError::NoClaim => f.write_str(
                "no draw can be claimed: the position has not occurred three times and the half-move clock is below 100",
            ),
            ProtocolError::BadOption(why) => f.write_str(why),
            ProtocolError::LineTooLong(limit) => {
                write!(f, "the line is longer than {limit} bytes and was skipped")
            }
            ProtocolError::BadInput(BadInput::Utf8) => {
                f.write_str("the line is not valid UTF-8 and was skipped")
            }
            ProtocolError::BadInput(BadInput::Control) => {
                f.write_str("the line holds a control character and was skipped")
            }
        }
    }
}

impl std::error::Error for ProtocolError {}
