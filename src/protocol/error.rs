//! Protocol errors: one variant per stable error code.

use std::fmt;

use crate::color::Color;
use crate::excerpt::{Excerpt, PathExcerpt};
use crate::fen::{FenError, PositionError};
use crate::game::{MoveError, Status};
use crate::illegal::IllegalMove;
use crate::moves::CastlingMode;
use crate::pgn::{GameError, ResultError, SyntaxError};
use crate::san::SanError;

use super::name::{GameName, NameError, Version};

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
    /// Move text that is neither UCI nor SAN.
    BadMove(MoveRef),
    /// Move text that would be SAN with an upper-case piece letter (`nf3`).
    LowerCasePiece(MoveRef),
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
    /// An error about one game of a PGN file (counted from 1).
    InGame(usize, Box<ProtocolError>),
    /// The file's text is not PGN.
    PgnSyntax(SyntaxError),
    /// A variation before any move it could replace, at this ply.
    VariationFirst(usize),
    /// A game longer than the reader holds (the limit in bytes).
    GameTooLong(usize),
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
    /// A `Variant` tag naming neither standard chess nor Chess960.
    BadVariant(String),
    /// A result the final position contradicts (or the tag and token disagree).
    BadResult(ResultError),
    /// The `FEN` tag of a game is no legal position for its variant.
    BadFenTag(FenError),
    /// `SetUp "1"` without a `FEN` tag.
    MissingFen,
    /// `--` or `Z0` where a move must be.
    NullMove(MoveRef),
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
    /// Accepting or declining when the other side has offered no draw (the side that
    /// would have offered it).
    NoOffer(Color),
    /// An offer while one is pending (the side that made it).
    OfferPending(Color),
    /// `close` without `game <name>`: the default game cannot be closed.
    CloseDefault,
}

impl ProtocolError {
    /// The stable code.
    pub const fn code(&self) -> &'static str {
        match self {
            ProtocolError::UnknownCommand(_) | ProtocolError::NoCommand => "unknown-command",
            ProtocolError::BadArgument(_) | ProtocolError::Name(_) => "bad-argument",
            ProtocolError::BadFen(_) => "bad-fen",
            ProtocolError::BadMove(_) | ProtocolError::LowerCasePiece(_) => "bad-move",
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
            ProtocolError::InGame(_, inner) => inner.code(),
            ProtocolError::PgnSyntax(SyntaxError::TooLong(_)) | ProtocolError::GameTooLong(_) => {
                "game-too-long"
            }
            ProtocolError::PgnSyntax(_) | ProtocolError::VariationFirst(_) => "pgn-syntax",
            ProtocolError::NoSuchGame { .. } => "no-such-game",
            ProtocolError::UnreadableFile { .. } => "unreadable-file",
            ProtocolError::UnwritableFile { .. } => "unwritable-file",
            ProtocolError::BadVariant(_) => "bad-variant",
            ProtocolError::BadResult(_) => "bad-result",
            ProtocolError::BadFenTag(_) | ProtocolError::MissingFen => "bad-fen",
            ProtocolError::NullMove(_) => "bad-move",
            ProtocolError::UnknownGame(_) => "unknown-game",
            ProtocolError::StaleVersion { .. } => "stale-version",
            ProtocolError::TooManyGames(_) => "too-many-games",
            ProtocolError::NotYourSeat(..) => "not-your-turn",
            ProtocolError::NoOffer(_) => "no-offer",
            ProtocolError::OfferPending(_) => "offer-pending",
            ProtocolError::CloseDefault => "bad-argument",
        }
    }

    /// The move the error is about, when it names one.
    pub fn move_ref(&self) -> Option<&MoveRef> {
        match self {
            ProtocolError::BadMove(at)
            | ProtocolError::LowerCasePiece(at)
            | ProtocolError::GameOver(Some(at), _)
            | ProtocolError::NoPiece(at, _)
            | ProtocolError::NotYourTurn(at, _)
            | ProtocolError::NotYourSeat(at, _)
            | ProtocolError::PromotionRequired(at)
            | ProtocolError::IllegalMove(at, _)
            | ProtocolError::AmbiguousMove(at, _)
            | ProtocolError::NullMove(at) => Some(at),
            _ => None,
        }
    }

    /// The ply an error of a PGN game is about, when it names one.
    pub fn ply(&self) -> Option<usize> {
        match self {
            ProtocolError::VariationFirst(ply) => Some(*ply),
            other => other.move_ref().and_then(|at| at.ply),
        }
    }

    /// The message without the move or ply it names: what follows `ply 5 (Ke3): `.
    pub fn reason(&self) -> Reason<'_> {
        Reason(self)
    }

    /// Whether the message starts with a ply reference (`ply 5 (Ke3): ...`).
    fn names_a_move(&self) -> bool {
        self.ply().is_some()
    }

    /// The protocol error for a game of a PGN file that cannot be loaded.
    pub fn from_game(game: usize, error: GameError, mode: CastlingMode) -> ProtocolError {
        let at = |ply, text, variation| MoveRef {
            text,
            ply: Some(ply),
            variation,
        };
        let inner = match error {
            GameError::Syntax(why) => ProtocolError::PgnSyntax(why),
            GameError::Fen(why) => ProtocolError::BadFenTag(why),
            GameError::MissingFen => ProtocolError::MissingFen,
            GameError::Variant(v) => ProtocolError::BadVariant(v),
            GameError::Move {
                ply,
                text,
                error,
                variation,
            } => ProtocolError::from_move(error, at(ply, text, variation), mode),
            GameError::NullMove {
                ply,
                text,
                variation: false,
            } => ProtocolError::NullMove(at(ply, text, false)),
            GameError::NullMove {
                ply,
                text,
                variation: true,
            } => ProtocolError::IllegalMove(
                at(ply, text, true),
                "a null move while in check".to_string(),
            ),
            GameError::VariationFirst { ply } => ProtocolError::VariationFirst(ply),
            GameError::Result(why) => ProtocolError::BadResult(why),
        };
        ProtocolError::InGame(game, Box::new(inner))
    }

    /// The protocol error for a move that cannot be played.
    pub fn from_move(error: MoveError, at: MoveRef, mode: CastlingMode) -> ProtocolError {
        match error {
            MoveError::Syntax if crate::san::is_lower_case_piece(&at.text) => {
                ProtocolError::LowerCasePiece(at)
            }
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
                "{why}; for a Chess960 position send setoption name UCI_Chess960 value true (or start with --chess960)"
            ),
            ProtocolError::BadFen(why) => write!(f, "{why}"),
            ProtocolError::BadMove(at)
            | ProtocolError::LowerCasePiece(at)
            | ProtocolError::GameOver(Some(at), _)
            | ProtocolError::NoPiece(at, _)
            | ProtocolError::NotYourTurn(at, _)
            | ProtocolError::NotYourSeat(at, _)
            | ProtocolError::PromotionRequired(at)
            | ProtocolError::IllegalMove(at, _)
            | ProtocolError::AmbiguousMove(at, _)
            | ProtocolError::NullMove(at) => write!(f, "{at}: {}", self.reason()),
            ProtocolError::GameOver(None, status) => write!(f, "the game is over ({status})"),
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
            // A move error names its ply: `game 2 ply 5 (Ke3): ...`.
            ProtocolError::InGame(game, inner) if inner.names_a_move() => {
                write!(f, "game {game} {inner}")
            }
            ProtocolError::InGame(game, inner) => write!(f, "game {game}: {inner}"),
            ProtocolError::PgnSyntax(why) => write!(f, "{why}"),
            ProtocolError::VariationFirst(ply) => write!(f, "ply {ply}: {}", self.reason()),
            ProtocolError::GameTooLong(limit) => write!(f, "the game is longer than {limit} bytes"),
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
            ProtocolError::BadVariant(variant) => write!(
                f,
                "variant '{}' is not played here (only standard chess and Chess960)",
                Excerpt(variant)
            ),
            ProtocolError::BadResult(why) => write!(f, "{why}"),
            ProtocolError::BadFenTag(
                why @ FenError::Position(PositionError::Chess960Castling { .. }),
            ) => write!(
                f,
                "the FEN tag: {why}; a Chess960 game needs the tag [Variant \"Chess960\"]"
            ),
            ProtocolError::BadFenTag(why) => write!(f, "the FEN tag: {why}"),
            ProtocolError::MissingFen => f.write_str("the SetUp tag is 1 but there is no FEN tag"),
            ProtocolError::UnknownGame(name) => write!(
                f,
                "no game named {name} is open (position or ucinewgame creates it)"
            ),
            ProtocolError::StaleVersion { expected, current } => write!(
                f,
                "the game is at version {current}, not {expected}: nothing was done"
            ),
            ProtocolError::TooManyGames(limit) => write!(
                f,
                "the open named games reach MaxGames ({limit}): close one first"
            ),
            ProtocolError::NoOffer(from) => write!(f, "{from} has offered no draw"),
            ProtocolError::OfferPending(by) => write!(
                f,
                "{by}'s draw offer is pending: it is accepted or declined first"
            ),
            ProtocolError::CloseDefault => {
                f.write_str("close takes a game: game <name> close (the default game stays open)")
            }
        }
    }
}

/// An error's message without the move or ply it names (`ProtocolError::reason`); for
/// an error that names none, the whole message.
pub struct Reason<'a>(&'a ProtocolError);

impl fmt::Display for Reason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            ProtocolError::BadMove(_) => {
                f.write_str("not a move in UCI (e2e4, e7e8q) or SAN (Nf3, O-O, e8=Q)")
            }
            ProtocolError::LowerCasePiece(_) => {
                f.write_str("in SAN the piece letter is upper-case (Nf3, Qxd8; b is a pawn's file)")
            }
            ProtocolError::GameOver(Some(_), status) => {
                write!(f, "the game is over ({status})")
            }
            ProtocolError::NoPiece(_, why) | ProtocolError::NotYourTurn(_, why) => {
                write!(f, "{why}")
            }
            ProtocolError::NotYourSeat(_, seat) => {
                write!(f, "it is {}'s turn, not {seat}'s", seat.other())
            }
            ProtocolError::PromotionRequired(_) => f.write_str(
                "a pawn reaching the last rank must say what it becomes (e7e8q or e8=Q)",
            ),
            ProtocolError::IllegalMove(_, why) => f.write_str(why),
            ProtocolError::AmbiguousMove(_, candidates) => match candidates.split_last() {
                Some((last, [])) => write!(f, "could be {last} or another move"),
                Some((last, rest)) => write!(f, "could be {} or {last}", rest.join(", ")),
                None => f.write_str("matches more than one legal move"),
            },
            ProtocolError::NullMove(_) => f.write_str("a null move (-- or Z0) is no move of chess"),
            ProtocolError::VariationFirst(_) => {
                f.write_str("a variation stands before any move it could replace")
            }
            other => write!(f, "{other}"),
        }
    }
}

impl std::error::Error for ProtocolError {}

impl From<NameError> for ProtocolError {
    fn from(error: NameError) -> ProtocolError {
        ProtocolError::Name(error)
    }
}
