//! `state` and `restore`: one game whole as one JSON object, and a game made again from
//! such an object.
//!
//! The object's fields, in the order `state` writes them: `version`, `start`, `chess960`,
//! `moves`, `san`, `fen`, `turn`, `status`, `dests`, `tags`, `offers`, `result`,
//! `decision`, `termination`, `comments`. `san`, `fen`, `turn`, `status`, `dests`,
//! `result` and `termination` are derived from the others and `restore` does not read
//! them (but for `result`, which names the winner of a resignation or a loss on time).
//! `restore` of what `state` wrote makes a game whose `state` is the same, byte for byte.

use std::fmt;

use serde_json::{Map, Value};

use crate::color::Color;
use crate::excerpt::Excerpt;
use crate::game::{Decision, DrawReason, Game, State, Status};
use crate::pgn::writer::Comment;
use crate::pgn::TagError;
use crate::square::Square;

use super::clock::MAX_VERSION;
use super::name::Version;
use super::offers::{Offer, OfferKind};

/// `state`: everything a board and a server need of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub version: Version,
    /// The FEN of the start position.
    pub start: String,
    pub chess960: bool,
    /// The moves played, in UCI.
    pub moves: Vec<String>,
    pub san: Vec<String>,
    /// The FEN of the current position.
    pub fen: String,
    pub turn: Color,
    pub status: Status,
    /// As `dests` answers them.
    pub dests: Vec<(Square, Vec<Square>)>,
    /// The tags other than the derived ones: the roster's that differ from their
    /// unknown value, in roster order, then the others in ASCII order of their names.
    pub tags: Vec<(String, String)>,
    /// The pending draw offer and the pending takeback offer.
    pub offers: [Option<Offer>; 2],
    /// The result token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'static str,
    /// How the result came (`decision_name`), `None` while the game goes on.
    pub decision: Option<&'static str>,
    /// The `Termination` tag `pgn` writes, `None` while the game goes on.
    pub termination: Option<String>,
    pub comments: Vec<Comment>,
}

/// How a game's result came, by name: the board's (`checkmate`, `stalemate`,
/// `insufficient-material`, `seventy-five-move`, `fivefold`) or the players' and the
/// clock's (`resignation`, `agreement`, `threefold` and `fifty-move` when claimed,
/// `timeout`, `timeout-vs-insufficient-material`, `abort`); `None` while it goes on.
pub fn decision_name(game: &Game) -> Option<&'static str> {
    match game.decision() {
        Some(Decision::Resigned { .. }) => Some("resignation"),
        Some(Decision::Drawn(reason)) => Some(reason.name()),
        Some(Decision::Timeout { .. }) => Some("timeout"),
        Some(Decision::Aborted) => Some("abort"),
        None => {
            let status = game.status();
            match status.state {
                State::Checkmate => Some("checkmate"),
                State::Stalemate => Some("stalemate"),
                State::Draw => status.reason.map(DrawReason::name),
                _ => None,
            }
        }
    }
}

/// The decisions the players or the clock make, by the name `decision_name` gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decided {
    Resignation,
    Timeout,
    /// Agreed, claimed, or a flag fall against a side the other cannot mate.
    Drawn(DrawReason),
    Abort,
}

impl Decided {
    /// The decision a name stands for; `None` for the board's own endings (and for any
    /// other text).
    pub fn from_name(name: &str) -> Option<Decided> {
        Some(match name {
            "resignation" => Decided::Resignation,
            "timeout" => Decided::Timeout,
            "abort" => Decided::Abort,
            "agreement" => Decided::Drawn(DrawReason::Agreement),
            "threefold" => Decided::Drawn(DrawReason::Threefold),
            "fifty-move" => Decided::Drawn(DrawReason::FiftyMove),
            "timeout-vs-insufficient-material" => {
                Decided::Drawn(DrawReason::TimeoutVsInsufficientMaterial)
            }
            _ => return None,
        })
    }
}

/// The names of the endings the board makes by itself.
const BOARD_ENDINGS: [&str; 5] = [
    "checkmate",
    "stalemate",
    "insufficient-material",
    "seventy-five-move",
    "fivefold",
];

/// A `restore` object as read: the fields that make the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    pub version: Version,
    pub start: String,
    pub chess960: bool,
    pub moves: Vec<String>,
    pub tags: Vec<(String, String)>,
    /// The pending draw offer and the pending takeback offer.
    pub offers: [Option<Offer>; 2],
    pub decision: Option<String>,
    /// Read only for the winner of a resignation or a loss on time.
    pub result: Option<String>,
    pub comments: Vec<Comment>,
}

/// Why an object cannot be restored, beyond a bad FEN or move (which answer as
/// `position` does): one variant per reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateError {
    /// Valid JSON, but not an object.
    NotAnObject,
    /// A field that is needed and absent.
    Missing(&'static str),
    /// A field of the wrong JSON type (or a number out of range), and what it must be.
    WrongType {
        field: &'static str,
        expected: &'static str,
    },
    /// A field `state` never writes.
    UnknownField(String),
    /// A version above the highest a JSON client reads exactly.
    VersionTooHigh(Version),
    /// A colour other than `white` or `black`.
    BadColour(String),
    /// A decision no game has.
    UnknownDecision(String),
    /// A decision (or none) that the game's moves and result do not allow, and why.
    Decision(String),
    /// An offer made at a ply the game has not reached.
    OfferPly {
        kind: OfferKind,
        ply: usize,
        plies: usize,
    },
    /// An offer that a move since has withdrawn (the side to whom it was made moved).
    OfferWithdrawn(OfferKind),
    /// An offer pending in a game that has a result.
    OfferAfterEnd(OfferKind),
    /// A tag `tag` would refuse.
    Tag(TagError),
    /// A tag given twice.
    DuplicateTag(String),
    /// A comment after a ply the game has not reached.
    CommentPly { ply: usize, plies: usize },
    /// A control character PGN does not allow in a comment (tab, line feed and
    /// carriage return are allowed).
    CommentControl(char),
    /// A comment holding both a `}` and a line break, which no PGN comment can hold.
    CommentUnwritable,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::NotAnObject => {
                f.write_str("restore takes a JSON object, as state writes it")
            }
            StateError::Missing(field) => write!(f, "the object has no {field}"),
            StateError::WrongType { field, expected } => write!(f, "{field} must be {expected}"),
            StateError::UnknownField(field) => {
                write!(f, "'{}' is not a field of a game's state", Excerpt(field))
            }
            StateError::VersionTooHigh(version) => write!(
                f,
                "version {version} is above the highest version, {MAX_VERSION}"
            ),
            StateError::BadColour(text) => {
                write!(f, "'{}' is not a side: white or black", Excerpt(text))
            }
            StateError::UnknownDecision(text) => {
                write!(f, "'{}' is no way a game ends", Excerpt(text))
            }
            StateError::Decision(why) => f.write_str(why),
            StateError::OfferPly { kind, ply, plies } => write!(
                f,
                "the {} offer was made at ply {ply}, but the game has {plies}",
                kind.name()
            ),
            StateError::OfferWithdrawn(kind) => write!(
                f,
                "the {} offer was withdrawn by the move of the side it was made to",
                kind.name()
            ),
            StateError::OfferAfterEnd(kind) => write!(
                f,
                "a {} offer cannot be pending once the game has a result",
                kind.name()
            ),
            StateError::Tag(why) => write!(f, "{why}"),
            StateError::DuplicateTag(name) => {
                write!(f, "the tag {} is given twice", Excerpt(name))
            }
            StateError::CommentPly { ply, plies } => {
                write!(f, "a comment follows ply {ply}, but the game has {plies}")
            }
            StateError::CommentControl(c) => write!(
                f,
                "a comment cannot hold the control character {}",
                crate::pgn::tags::describe_char(*c)
            ),
            StateError::CommentUnwritable => f.write_str(
                "a comment cannot hold both a } and a line break (PGN has no comment for it)",
            ),
        }
    }
}

impl std::error::Error for StateError {}

/// The fields `restore` reads, and the derived ones it passes over; the request's own
/// (`answer`, `id`, `game` of a JSON answer) are passed over too.
const READ: [&str; 8] = [
    "version", "start", "chess960", "moves", "tags", "offers", "decision", "comments",
];
const PASSED_OVER: [&str; 10] = [
    "san",
    "fen",
    "turn",
    "status",
    "dests",
    "result",
    "termination",
    "answer",
    "id",
    "game",
];

impl Saved {
    /// Reads an object. `version`, `start` and `moves` are needed; the others default
    /// to a standard game without tags, offers, decision or comments.
    pub fn from_value(value: Value) -> Result<Saved, StateError> {
        let Value::Object(object) = value else {
            return Err(StateError::NotAnObject);
        };
        if let Some(key) = object
            .keys()
            .find(|k| !READ.contains(&k.as_str()) && !PASSED_OVER.contains(&k.as_str()))
        {
            return Err(StateError::UnknownField(key.clone()));
        }
        let version = match object.get("version") {
            None => return Err(StateError::Missing("version")),
            Some(v) => v.as_u64().ok_or(StateError::WrongType {
                field: "version",
                expected: "a whole number from 0",
            })?,
        };
        if version > MAX_VERSION {
            return Err(StateError::VersionTooHigh(version));
        }
        let start = match object.get("start") {
            None => return Err(StateError::Missing("start")),
            Some(v) => string(v, "start")?.to_string(),
        };
        let chess960 = match object.get("chess960") {
            None => false,
            Some(v) => v.as_bool().ok_or(StateError::WrongType {
                field: "chess960",
                expected: "true or false",
            })?,
        };
        let moves = match object.get("moves") {
            None => return Err(StateError::Missing("moves")),
            Some(v) => strings(v, "moves", "a list of moves (strings)")?,
        };
        let tags = read_tags(&object)?;
        let offers = [
            read_offer(&object, OfferKind::Draw)?,
            read_offer(&object, OfferKind::Takeback)?,
        ];
        let decision = match object.get("decision") {
            None | Some(Value::Null) => None,
            Some(v) => Some(string(v, "decision")?.to_string()),
        };
        // Read only when a decision needs it: otherwise derived, whatever it holds.
        let result = object
            .get("result")
            .and_then(Value::as_str)
            .map(str::to_string);
        let comments = read_comments(&object)?;
        Ok(Saved {
            version,
            start,
            chess960,
            moves,
            tags,
            offers,
            decision,
            result,
            comments,
        })
    }

    /// Checks the decision's name: `Ok(None)` for none or one the board makes (which
    /// the game must then show by itself), the decision to apply for the others.
    pub fn decided(&self) -> Result<Option<Decided>, StateError> {
        match self.decision.as_deref() {
            None => Ok(None),
            Some(name) if BOARD_ENDINGS.contains(&name) => Ok(None),
            Some(name) => Decided::from_name(name)
                .map(Some)
                .ok_or_else(|| StateError::UnknownDecision(name.to_string())),
        }
    }

    /// The winner a resignation or a loss on time names in `result`.
    pub fn winner(&self) -> Result<Color, StateError> {
        match self.result.as_deref() {
            Some("1-0") => Ok(Color::White),
            Some("0-1") => Ok(Color::Black),
            _ => Err(StateError::Decision(
                "a resignation or a loss on time needs the result 1-0 or 0-1".to_string(),
            )),
        }
    }
}

fn string<'a>(value: &'a Value, field: &'static str) -> Result<&'a str, StateError> {
    value.as_str().ok_or(StateError::WrongType {
        field,
        expected: "a string",
    })
}

fn strings(
    value: &Value,
    field: &'static str,
    expected: &'static str,
) -> Result<Vec<String>, StateError> {
    let wrong = StateError::WrongType { field, expected };
    let Value::Array(items) = value else {
        return Err(wrong);
    };
    items
        .iter()
        .map(|item| item.as_str().map(str::to_string).ok_or(wrong.clone()))
        .collect()
}

fn colour(value: &Value, field: &'static str) -> Result<Color, StateError> {
    match string(value, field)? {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        other => Err(StateError::BadColour(other.to_string())),
    }
}

fn ply(value: Option<&Value>, field: &'static str) -> Result<usize, StateError> {
    value
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or(StateError::WrongType {
            field,
            expected: "a whole number from 0",
        })
}

fn read_tags(object: &Map<String, Value>) -> Result<Vec<(String, String)>, StateError> {
    let wrong = StateError::WrongType {
        field: "tags",
        expected: "a list of [name, value] pairs of strings",
    };
    let items = match object.get("tags") {
        None => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(_) => return Err(wrong),
    };
    let mut tags: Vec<(String, String)> = Vec::with_capacity(items.len());
    for item in items {
        let pair = match item.as_array().map(Vec::as_slice) {
            Some([Value::String(name), Value::String(value)]) => (name.clone(), value.clone()),
            _ => return Err(wrong),
        };
        if tags.iter().any(|(name, _)| *name == pair.0) {
            return Err(StateError::DuplicateTag(pair.0));
        }
        tags.push(pair);
    }
    Ok(tags)
}

fn read_offer(object: &Map<String, Value>, kind: OfferKind) -> Result<Option<Offer>, StateError> {
    let wrong = StateError::WrongType {
        field: "offers",
        expected:
            "an object {\"draw\": null or {\"by\": side, \"ply\": n}, \"takeback\": the same}",
    };
    let offers = match object.get("offers") {
        None => return Ok(None),
        Some(Value::Object(offers)) => offers,
        Some(_) => return Err(wrong),
    };
    if offers.keys().any(|k| k != "draw" && k != "takeback") {
        return Err(wrong);
    }
    match offers.get(kind.name()) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(offer)) => {
            if offer.keys().any(|k| k != "by" && k != "ply") {
                return Err(wrong);
            }
            let by = colour(offer.get("by").ok_or(wrong.clone())?, "offers")?;
            let ply = ply(offer.get("ply"), "an offer's ply")?;
            Ok(Some(Offer { by, ply }))
        }
        Some(_) => Err(wrong),
    }
}

fn read_comments(object: &Map<String, Value>) -> Result<Vec<Comment>, StateError> {
    let wrong = StateError::WrongType {
        field: "comments",
        expected: "a list of {\"ply\": n, \"text\": string}",
    };
    let items = match object.get("comments") {
        None => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(_) => return Err(wrong),
    };
    let mut comments = Vec::with_capacity(items.len());
    for item in items {
        let Value::Object(comment) = item else {
            return Err(wrong);
        };
        if comment.len() != 2 {
            return Err(wrong);
        }
        let ply = ply(comment.get("ply"), "a comment's ply")?;
        let text = match comment.get("text") {
            Some(Value::String(text)) => text.clone(),
            _ => return Err(wrong),
        };
        if let Some(c) = text
            .chars()
            .find(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
        {
            return Err(StateError::CommentControl(c));
        }
        if text.contains('}') && text.contains(['\n', '\r']) {
            return Err(StateError::CommentUnwritable);
        }
        comments.push(Comment { ply, text });
    }
    // In the order of their plies, as `state` lists them; those of one ply as given.
    comments.sort_by_key(|c| c.ply);
    Ok(comments)
}

/// Checks what a game made from the moves allows: the offers pending, and the
/// comments' plies.
pub fn check_against(saved: &Saved, game: &Game) -> Result<(), StateError> {
    let plies = game.moves().len();
    let over = game.status().is_over();
    for (kind, offer) in [OfferKind::Draw, OfferKind::Takeback]
        .into_iter()
        .zip(saved.offers)
    {
        let Some(offer) = offer else { continue };
        if offer.ply > plies {
            return Err(StateError::OfferPly {
                kind,
                ply: offer.ply,
                plies,
            });
        }
        if over {
            return Err(StateError::OfferAfterEnd(kind));
        }
        // Since the offer, only a move of the side that made it may have been played:
        // a move of the other side withdraws it.
        let turn = game.position().turn();
        let stands = match plies - offer.ply {
            0 => true,
            1 => turn != offer.by,
            _ => false,
        };
        if !stands {
            return Err(StateError::OfferWithdrawn(kind));
        }
    }
    if let Some(comment) = saved.comments.iter().find(|c| c.ply > plies) {
        return Err(StateError::CommentPly {
            ply: comment.ply,
            plies,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_decision_name_but_the_boards_reads_back() {
        for name in [
            "resignation",
            "timeout",
            "abort",
            "agreement",
            "threefold",
            "fifty-move",
            "timeout-vs-insufficient-material",
        ] {
            assert!(Decided::from_name(name).is_some(), "{name}");
        }
        for name in BOARD_ENDINGS {
            assert_eq!(Decided::from_name(name), None, "{name}");
        }
    }
}
