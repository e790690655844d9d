//! The JSON Lines form of every answer: one object per answer, on one line.
//!
//! Each object starts with `"answer"` (the command's first word) and `"id"` (when the
//! request had one), then the answer's facts in a fixed order, or `"error"`. Squares,
//! moves and names are strings, counts numbers, flags booleans; a fact that does not
//! apply is an absent key, and a list is always present, possibly empty. A new answer
//! gets its JSON form as one more arm of `answer_fields`.

use std::fmt::Display;
use std::io::{self, Write};

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use crate::describe::CastleSide;
use crate::game::Status;
use crate::pgn::writer::Comment;
use crate::position::Position;
use crate::square::Square;

use super::answer::{Answer, Header, MoveDetail, Reply, Standing, AUTHOR, HELP};
use super::error::ProtocolError;
use super::offers::{Offer, OfferKind};
use super::options::{OptionKind, UciOption, OPTIONS};
use super::snapshot::Snapshot;

/// Writes a reply as one JSON line; nothing for a silent reply.
pub fn write_reply(out: &mut impl Write, header: &Header, reply: &Reply) -> io::Result<()> {
    if matches!(reply, Reply::Silent | Reply::Quit) {
        return Ok(());
    }
    let mut serializer = serde_json::Serializer::new(&mut *out);
    let mut map = serializer.serialize_map(None)?;
    if let Some(command) = header.command {
        map.serialize_entry("answer", command)?;
    }
    if let Some(id) = header.id {
        map.serialize_entry("id", id)?;
    }
    if let Some(game) = header.game {
        map.serialize_entry("game", game.as_str())?;
    }
    // `uci` has its own version, the program's; `state` its own first among its
    // fields, where the header's would stand.
    let own_version = matches!(reply, Reply::Answer(Answer::Uci | Answer::State(_)));
    if let (Some(version), false) = (header.version, own_version) {
        map.serialize_entry("version", &version)?;
    }
    match reply {
        // The version the header gives is the one `version` answers.
        Reply::Answer(Answer::Version(_)) if header.version.is_some() => {}
        Reply::Answer(answer) => answer_fields(&mut map, answer)?,
        Reply::Error(error) => map.serialize_entry("error", &ErrorObject(error))?,
        Reply::Silent | Reply::Quit => {}
    }
    map.end()?;
    out.write_all(b"\n")
}

/// A value written through its `Display` text, without building a `String`.
struct Text<T>(T);

impl<T: Display> Serialize for Text<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

/// A list of displayable items as an array of strings.
struct TextList<'a, T>(&'a [T]);

impl<T: Display> Serialize for TextList<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(Text))
    }
}

struct ErrorObject<'a>(&'a ProtocolError);

impl Serialize for ErrorObject<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("code", self.0.code())?;
        map.serialize_entry("message", &Text(self.0))?;
        map.end()
    }
}

/// A move of `moves verbose`, as an object.
struct MoveObject<'a>(&'a MoveDetail);

impl Serialize for MoveObject<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        move_fields(&mut map, self.0)?;
        map.end()
    }
}

/// An option of `uci`.
struct OptionObject(&'static UciOption);

impl Serialize for OptionObject {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("name", self.0.name)?;
        match self.0.kind {
            OptionKind::Check { default } => {
                map.serialize_entry("type", "check")?;
                map.serialize_entry("default", &default)?;
            }
            OptionKind::Spin { default, min, max } => {
                map.serialize_entry("type", "spin")?;
                map.serialize_entry("default", &default)?;
                map.serialize_entry("min", &min)?;
                map.serialize_entry("max", &max)?;
            }
        }
        map.end()
    }
}

/// `go perft`'s counts as an object from move to nodes, in the answer's order.
struct DivideObject<'a>(&'a [(String, u64)]);

impl Serialize for DivideObject<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(m, nodes)| (m, nodes)))
    }
}

/// `dests` as an object from origin to targets.
struct DestsObject<'a>(&'a [(Square, Vec<Square>)]);

impl Serialize for DestsObject<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(
            self.0
                .iter()
                .map(|(from, targets)| (Text(from), TextList(targets))),
        )
    }
}

/// The fields of `state`, in their order (see `snapshot`).
fn snapshot_fields<M: SerializeMap>(map: &mut M, s: &Snapshot) -> Result<(), M::Error> {
    map.serialize_entry("version", &s.version)?;
    map.serialize_entry("start", &s.start)?;
    map.serialize_entry("chess960", &s.chess960)?;
    map.serialize_entry("moves", &s.moves)?;
    map.serialize_entry("san", &s.san)?;
    map.serialize_entry("fen", &s.fen)?;
    map.serialize_entry("turn", &Text(s.turn))?;
    map.serialize_entry("status", &StatusObject(&s.status))?;
    map.serialize_entry("dests", &DestsObject(&s.dests))?;
    map.serialize_entry("tags", &s.tags)?;
    map.serialize_entry("offers", &OffersObject(&s.offers))?;
    map.serialize_entry("result", s.result)?;
    map.serialize_entry("decision", &s.decision)?;
    map.serialize_entry("termination", &s.termination)?;
    let comments: Vec<CommentObject> = s.comments.iter().map(CommentObject).collect();
    map.serialize_entry("comments", &comments)
}

/// The JSON object of `state`, alone: what the text answer writes after `state `.
pub fn write_snapshot(out: &mut impl Write, snapshot: &Snapshot) -> io::Result<()> {
    let mut serializer = serde_json::Serializer::new(&mut *out);
    let mut map = serializer.serialize_map(None)?;
    snapshot_fields(&mut map, snapshot)?;
    map.end()?;
    Ok(())
}

/// A status as an object: `state`, then `winner` and `reason` when they apply, then
/// `claimable`, as `status` answers them.
struct StatusObject<'a>(&'a Status);

impl Serialize for StatusObject<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        let standing = Standing {
            status: *self.0,
            offer: None,
            takeback: None,
        };
        status_fields(&mut map, &standing)?;
        map.end()
    }
}

/// The pending offers: `draw` and `takeback`, each null or `{"by": side, "ply": n}`.
struct OffersObject<'a>(&'a [Option<Offer>; 2]);

impl Serialize for OffersObject<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        for (kind, offer) in [OfferKind::Draw, OfferKind::Takeback].iter().zip(self.0) {
            map.serialize_entry(kind.name(), &offer.map(OfferObject))?;
        }
        map.end()
    }
}

struct OfferObject(Offer);

impl Serialize for OfferObject {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("by", self.0.by.name())?;
        map.serialize_entry("ply", &self.0.ply)?;
        map.end()
    }
}

/// A comment of the main line: `{"ply": n, "text": ...}`.
struct CommentObject<'a>(&'a Comment);

impl Serialize for CommentObject<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("ply", &self.0.ply)?;
        map.serialize_entry("text", &self.0.text)?;
        map.end()
    }
}

/// The facts of a move: the same fields, in the same order, as the text answer.
fn move_fields<M: SerializeMap>(map: &mut M, detail: &MoveDetail) -> Result<(), M::Error> {
    let f = &detail.facts;
    map.serialize_entry("move", &Text(detail.uci))?;
    map.serialize_entry("san", &detail.san)?;
    map.serialize_entry("from", &Text(f.from))?;
    map.serialize_entry("to", &Text(detail.uci.to))?;
    map.serialize_entry("piece", f.piece.name())?;
    if let Some((role, square)) = f.captured {
        map.serialize_entry("captured", role.name())?;
        map.serialize_entry("captured_on", &Text(square))?;
    }
    if let Some(role) = f.promotion {
        map.serialize_entry("promotion", role.name())?;
    }
    if let Some(square) = f.king_to {
        map.serialize_entry("king_to", &Text(square))?;
    }
    map.serialize_entry("capture", &f.captured.is_some())?;
    map.serialize_entry("en_passant", &f.en_passant)?;
    map.serialize_entry("castle_king_side", &(f.castle == Some(CastleSide::King)))?;
    map.serialize_entry("castle_queen_side", &(f.castle == Some(CastleSide::Queen)))?;
    map.serialize_entry("check", &f.check)?;
    map.serialize_entry("checkmate", &f.checkmate)?;
    if let Some(fen) = &detail.fen {
        map.serialize_entry("fen", fen.as_str())?;
    }
    Ok(())
}

/// The state fields of `status`, `move`, `resign`, `draw` and `claim`.
fn status_fields<M: SerializeMap>(map: &mut M, standing: &Standing) -> Result<(), M::Error> {
    let status = &standing.status;
    map.serialize_entry("state", status.state.name())?;
    if let Some(winner) = status.winner {
        map.serialize_entry("winner", &Text(winner))?;
    }
    if let Some(reason) = status.reason {
        map.serialize_entry("reason", reason.name())?;
    }
    if let Some(by) = standing.offer {
        map.serialize_entry("offer", by.name())?;
    }
    if let Some(by) = standing.takeback {
        map.serialize_entry("takeback", by.name())?;
    }
    let claims: Vec<&str> = status.claims.reasons().map(|r| r.name()).collect();
    map.serialize_entry("claimable", &claims)
}

/// The rows of the board, rank 8 first, `.` for an empty square.
fn board_rows(pos: &Position) -> Vec<String> {
    (0..8u32)
        .rev()
        .map(|rank| {
            (0..8)
                .map(|file| {
                    let sq = Square::from_index_wrapping(rank * 8 + file);
                    pos.piece_at(sq).map_or('.', |p| p.char())
                })
                .collect()
        })
        .collect()
}

fn sorted_checkers(pos: &Position) -> Vec<String> {
    let mut checkers: Vec<String> = pos.checkers().into_iter().map(|s| s.to_string()).collect();
    checkers.sort_unstable();
    checkers
}

fn answer_fields<M: SerializeMap>(map: &mut M, answer: &Answer) -> Result<(), M::Error> {
    match answer {
        Answer::Uci => {
            map.serialize_entry("name", "arbiter")?;
            map.serialize_entry("version", env!("CARGO_PKG_VERSION"))?;
            map.serialize_entry("author", AUTHOR)?;
            let options: Vec<OptionObject> = OPTIONS.iter().map(OptionObject).collect();
            map.serialize_entry("options", &options)
        }
        Answer::ReadyOk => Ok(()),
        Answer::Board(pos) => {
            map.serialize_entry("board", &board_rows(pos))?;
            map.serialize_entry("fen", pos.fen_text().as_str())?;
            map.serialize_entry("key", &format!("{:016X}", pos.key()))?;
            map.serialize_entry("checkers", &sorted_checkers(pos))
        }
        Answer::Divide {
            lines,
            total,
            stopped,
        } => {
            map.serialize_entry("divide", &DivideObject(lines))?;
            map.serialize_entry("nodes", total)?;
            map.serialize_entry("stopped", stopped)
        }
        Answer::Perft {
            depth,
            nodes,
            stopped,
        } => {
            map.serialize_entry("depth", depth)?;
            map.serialize_entry("nodes", nodes)?;
            map.serialize_entry("stopped", stopped)
        }
        Answer::Moves(moves) | Answer::History(moves) => map.serialize_entry("moves", moves),
        Answer::VerboseMoves(details) => {
            let moves: Vec<MoveObject> = details.iter().map(MoveObject).collect();
            map.serialize_entry("moves", &moves)
        }
        Answer::Dests(dests) => map.serialize_entry("dests", &DestsObject(dests)),
        Answer::Legal(text, code) => {
            map.serialize_entry("move", text)?;
            map.serialize_entry("legal", &code.is_none())?;
            match code {
                Some(code) => map.serialize_entry("code", code),
                None => Ok(()),
            }
        }
        Answer::Check(checkers) => {
            map.serialize_entry("check", &!checkers.is_empty())?;
            map.serialize_entry("checkers", &TextList(checkers))
        }
        Answer::Turn(color) => map.serialize_entry("turn", &Text(color)),
        Answer::Fen(fen) => map.serialize_entry("fen", fen),
        Answer::Status(status) => status_fields(map, status),
        Answer::Opening(Some(opening)) => {
            map.serialize_entry("eco", opening.eco)?;
            map.serialize_entry("name", opening.name)
        }
        // No opening: no `eco`, no `name`, as for every fact that does not apply.
        Answer::Opening(None) => Ok(()),
        Answer::Played(detail, status) => {
            move_fields(map, detail)?;
            status_fields(map, status)
        }
        Answer::Undone(uci) => map.serialize_entry("move", uci),
        Answer::TakenBack(moves) => map.serialize_entry("moves", moves),
        Answer::San(san) => map.serialize_entry("san", san),
        Answer::Pgn(text) => map.serialize_entry("pgn", text),
        Answer::Version(version) => map.serialize_entry("version", version),
        Answer::State(snapshot) => snapshot_fields(map, snapshot),
        Answer::Games(names) => map.serialize_entry("games", &TextList(names)),
        // The header says it all: `"answer":"ok"`, the id, the game and its version.
        Answer::Ok => Ok(()),
        Answer::Help => map.serialize_entry("commands", HELP),
        Answer::HelpOn(topic) => {
            map.serialize_entry("command", topic.keyword)?;
            let forms: Vec<&str> = topic.syntax.lines().collect();
            map.serialize_entry("syntax", &forms)?;
            map.serialize_entry("summary", topic.summary)?;
            map.serialize_entry("example", topic.example)
        }
    }
}
