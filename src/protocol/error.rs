//! Protocol errors: one variant per stable error code.

use std::fmt;

use crate::color::Color;
use crate::excerpt::{Excerpt, PathExcerpt};
use crate::fen::{FenError, PositionError};
use crate::game::{MoveError, Status};
use crate::moves::CastlingMode;
use crate::pgn::GameError;
use crate::refusal::{MoveRef, Refusal};

use super::name::{GameName, NameError, Version};
use super::offers::OfferKind;
use super::snapshot::StateError;

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
    /// A request id with no command after it.
    NoCommand,
    /// The command's arguments are missing, extra or malformed; the text says which.
    BadArgument(String),
    /// A `game <name>` or `if <version>` prefix that cannot be read.
    Name(NameError),
    BadFen(FenError),
    /// A move that cannot be played, and why.
    Move(MoveRef, Refusal),
    /// A resignation, draw or claim when the game already has a result.
    GameOver(Status),
    NothingToUndo,
    /// Undo after a resignation, agreement or claim.
    ResultFinal(Status),
    NoClaim,
    BadOption(String),
    /// The length limit in bytes.
    LineTooLong(usize),
    /// Bytes that are no command text: invalid UTF-8 or control characters.
    BadInput(BadInput),
    /// A game of a PGN file (counted from 1) that cannot be loaded.
    InGame(usize, GameError),
    /// Fewer games in the file than the number asked for.
    NoSuchGame {
        path: String,
        wanted: usize,
        found: usize,
    },
    UnreadableFile {
        path: String,
        reason: String,
    },
    /// `pgn save` could not write its file.
    UnwritableFile {
        path: String,
        reason: String,
    },
    /// A command for a named game that is not open.
    UnknownGame(GameName),
    /// `if <expected>` on a game at another version.
    StaleVersion {
        expected: Version,
        current: Version,
    },
    /// Creating a game past `MaxGames`, the limit.
    TooManyGames(u32),
    /// `move ... as <seat>` when the other side is to move.
    NotYourSeat(MoveRef, Color),
    /// Accepting or declining when the other side has made no offer of that kind (the
    /// side that would have made it).
    NoOffer(OfferKind, Color),
    /// An offer while one of its kind is pending (the side that made it).
    OfferPending(OfferKind, Color),
    /// A takeback offered or accepted when the proposer has no move of its own to
    /// take back (the proposer).
    NoMoveToTakeBack(Color),
    /// `close` without `game <name>`: the default game cannot be closed.
    CloseDefault,
    /// `restore` of text that is not JSON (the parser's message).
    BadJson(String),
    /// `restore` of a JSON value that is no game's state, and why.
    BadState(StateError),
    /// A process-wide command (its keyword) on a line that names a game or carries
    /// `if <version>`.
    ProcessWide(&'static str),
    /// A command safe mode refuses (its name), or the attempt to leave safe mode.
    NotAllowed(&'static str),
    /// `position pgn` or `pgn save` on a path that is no regular file (what it is).
    NotRegularFile {
        path: String,
        kind: &'static str,
    },
    /// `position pgn` or `pgn save` on the process's own stdin, stdout or command file.
    OwnInput(String),
}

impl ProtocolError {
    /// The stable code.
    pub const fn code(&self) -> &'static str {
        match self {
            ProtocolError::UnknownCommand(_) | ProtocolError::NoCommand => "unknown-command",
            ProtocolError::BadArgument(_) | ProtocolError::Name(_) => "bad-argument",
            ProtocolError::BadFen(_) => "bad-fen",
            ProtocolError::Move(_, why) => why.code(),
            ProtocolError::GameOver(_) => "game-over",
            ProtocolError::NothingToUndo => "nothing-to-undo",
            ProtocolError::ResultFinal(_) => "result-final",
            ProtocolError::NoClaim => "no-claim",
            ProtocolError::BadOption(_) => "bad-option",
            ProtocolError::LineTooLong(_) => "line-too-long",
            ProtocolError::BadInput(_) => "bad-input",
            ProtocolError::InGame(_, why) => why.code(),
            ProtocolError::NoSuchGame { .. } => "no-such-game",
            ProtocolError::UnreadableFile { .. } => "unreadable-file",
            ProtocolError::UnwritableFile { .. } => "unwritable-file",
            ProtocolError::UnknownGame(_) => "unknown-game",
            ProtocolError::StaleVersion { .. } => "stale-version",
            ProtocolError::TooManyGames(_) => "too-many-games",
            ProtocolError::NotYourSeat(..) => "not-your-turn",
            ProtocolError::NoOffer(..) => "no-offer",
            ProtocolError::OfferPending(..) => "offer-pending",
            ProtocolError::NoMoveToTakeBack(_) => "nothing-to-undo",
            ProtocolError::CloseDefault => "bad-argument",
            ProtocolError::BadJson(_) => "bad-json",
            ProtocolError::BadState(_) => "bad-state",
            ProtocolError::ProcessWide(_) => "process-wide",
            ProtocolError::NotAllowed(_) => "not-allowed",
            ProtocolError::NotRegularFile { .. } => "not-a-regular-file",
            ProtocolError::OwnInput(_) => "own-input",
        }
    }

    /// The move the error is about, when it names one.
    pub fn move_ref(&self) -> Option<&MoveRef> {
        match self {
            ProtocolError::Move(at, _) | ProtocolError::NotYourSeat(at, _) => Some(at),
            _ => None,
        }
    }

    /// The protocol error for a move that cannot be played.
    pub fn from_move(error: MoveError, at: MoveRef, mode: CastlingMode) -> ProtocolError {
        let why = Refusal::of(error, &at.text, mode);
        ProtocolError::Move(at, why)
    }
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::UnknownCommand(word) => {
                write!(f, "'{}' is not a command (help lists them)", Excerpt(word))
            }
            ProtocolError::NoCommand => {
                f.write_str("a request id needs a command after it (help lists them)")
            }
            ProtocolError::BadArgument(why) => f.write_str(why),
            ProtocolError::Name(why) => write!(f, "{why}"),
            ProtocolError::BadFen(
                why @ FenError::Position(PositionError::Chess960Castling { .. }),
            ) => write!(
                f,
                "{why}; for a Chess960 position write chess960 after the FEN, or send setoption name UCI_Chess960 value true (or start with --chess960)"
            ),
            ProtocolError::BadFen(why) => write!(f, "{why}"),
            ProtocolError::Move(at, why) => write!(f, "{at}: {why}"),
            ProtocolError::NotYourSeat(at, seat) => {
                write!(f, "{at}: it is {}'s turn, not {seat}'s", seat.other())
            }
            ProtocolError::GameOver(status) => write!(f, "the game is over ({status})"),
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
            // An error at a ply names it: `game 2 ply 5 (Ke3): ...`.
            ProtocolError::InGame(game, why) if why.ply().is_some() => {
                write!(f, "game {game} {why}")
            }
            ProtocolError::InGame(game, why) => write!(f, "game {game}: {why}"),
            ProtocolError::NoSuchGame {
                path,
                wanted,
                found,
            } => {
                let games = if *found == 1 { "game" } else { "games" };
                let path = PathExcerpt(path);
                write!(f, "{path} holds {found} {games}, so there is no game {wanted}")
            }
            ProtocolError::UnreadableFile { path, reason } => {
                write!(f, "cannot read {}: {reason}", PathExcerpt(path))
            }
            ProtocolError::UnwritableFile { path, reason } => {
                write!(f, "cannot write {}: {reason}", PathExcerpt(path))
            }
            ProtocolError::UnknownGame(name) => write!(
                f,
                "no game named {name} is open (position, ucinewgame or restore creates it)"
            ),
            ProtocolError::StaleVersion { expected, current } => write!(
                f,
                "the game is at version {current}, not {expected}: nothing was done"
            ),
            ProtocolError::TooManyGames(limit) => write!(
                f,
                "the open named games reach MaxGames ({limit}): close one first"
            ),
            ProtocolError::NoOffer(kind, from) => {
                write!(f, "{from} has offered no {}", kind.name())
            }
            ProtocolError::OfferPending(kind, by) => write!(
                f,
                "{by}'s {} offer is pending: it is accepted or declined first",
                kind.name()
            ),
            ProtocolError::NoMoveToTakeBack(by) => {
                write!(f, "{by} has no move to take back")
            }
            ProtocolError::CloseDefault => {
                f.write_str("close takes a game: game <name> close (the default game stays open)")
            }
            ProtocolError::BadJson(why) => write!(f, "restore takes a JSON object: {why}"),
            ProtocolError::BadState(why) => write!(f, "{why}"),
            ProtocolError::NotRegularFile { path, kind } => write!(
                f,
                "{} is {kind}, not a regular file: nothing was read or written",
                PathExcerpt(path)
            ),
            ProtocolError::OwnInput(path) => write!(
                f,
                "{} is the protocol's own input or output (stdin, stdout or a command file): it is never read or written as PGN",
                PathExcerpt(path)
            ),
            ProtocolError::NotAllowed(what) => write!(
                f,
                "{what} is not allowed in safe mode (files and unbounded work are refused; safe mode stays on)"
            ),
            ProtocolError::ProcessWide(keyword) => write!(
                f,
                "{keyword} acts on the whole process: it takes no game <name> or if <version>; nothing was done"
            ),
        }
    }
}

impl std::error::Error for ProtocolError {}

impl From<NameError> for ProtocolError {
    fn from(error: NameError) -> ProtocolError {
        ProtocolError::Name(error)
    }
}
