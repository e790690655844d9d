//! Every answer the protocol prints, as values: `text` writes them as the text
//! protocol, `json` as JSON Lines, and `print` picks the one asked for.

use crate::color::Color;
use crate::describe::{CastleSide, MoveFacts};
use crate::fen::FenText;
use crate::game::Status;
use crate::position::Position;
use crate::query::openings::Opening;
use crate::square::Square;
use crate::uci::UciMove;

use super::error::ProtocolError;
use super::help::Topic;
use super::name::{GameName, NameRef, Version};
use super::snapshot::Snapshot;

/// The author line of `uci`.
pub const AUTHOR: &str = "the chess-arbiter authors";

/// How answers are written: the text protocol, or one JSON object per line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    #[default]
    Text,
    Json,
}

/// What an answer says about the request it answers: the client's id, and the command's
/// first word (which JSON answers name).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Header<'a> {
    pub id: Option<&'a str>,
    pub command: Option<&'a str>,
    /// The named game the line was for: text answers start every line with it.
    pub game: Option<NameRef<'a>>,
    /// The game's version after the command, for a line that named a game or carried
    /// `if`: JSON answers give it.
    pub version: Option<Version>,
}

/// What one command line produces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A blank line, a comment, or a command that is silent on success.
    Silent,
    Answer(Answer),
    Error(ProtocolError),
    /// `quit`: nothing more is read.
    Quit,
}

/// A successful answer, with what it prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Uci,
    ReadyOk,
    Board(Box<Position>),
    /// `go perft`: each root move's count, ascending by move, and the total; when
    /// stopped, only the root moves counted to the end.
    Divide {
        lines: Vec<(String, u64)>,
        total: u64,
        stopped: bool,
    },
    Perft {
        depth: u32,
        nodes: u64,
        stopped: bool,
    },
    Moves(Vec<String>),
    /// `moves verbose`: every legal move with its facts, ascending by UCI.
    VerboseMoves(Vec<MoveDetail>),
    /// `dests`: each origin square with the targets `move` accepts from it, ascending.
    Dests(Vec<(Square, Vec<Square>)>),
    /// `legal`: the move as typed, and the error code `move` would give, if any.
    Legal(String, Option<&'static str>),
    /// `check`: the checkers (at most two), ascending as text; squares, not strings,
    /// since clients ask after every move.
    Check(Vec<Square>),
    Turn(Color),
    Fen(String),
    Status(Standing),
    /// `opening`: the game's opening, `None` when the table names no position of it.
    Opening(Option<&'static Opening>),
    Played(Box<MoveDetail>, Standing),
    Undone(String),
    /// An accepted takeback: the moves taken back, the last played first.
    TakenBack(Vec<String>),
    History(Vec<String>),
    San(String),
    /// `pgn`: the game in export format, ending with its newline.
    Pgn(String),
    Version(Version),
    /// `state`: the game whole.
    State(Box<Snapshot>),
    /// `games`: the open named games, sorted.
    Games(Vec<GameName>),
    Help,
    /// `help <command>`.
    HelpOn(&'static Topic),
    /// A command that is silent on success, done for a request with an id: every
    /// request is answered.
    Ok,
}

/// Where a game stands, with the offers pending in it, if any (by the side that made
/// each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    pub status: Status,
    /// The pending draw offer.
    pub offer: Option<Color>,
    /// The pending takeback offer.
    pub takeback: Option<Color>,
}

/// A move as `move` and `moves verbose` describe it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveDetail {
    /// The move as UCI writes it: its target is the rook's square for Chess960
    /// castling.
    pub uci: UciMove,
    pub san: String,
    pub facts: MoveFacts,
    /// The FEN of the position after the move, when asked for.
    pub fen: Option<FenText>,
}

impl MoveDetail {
    /// The order of the UCI texts: squares by file, then rank, and a promotion after
    /// the plain move (`e7e8` < `e7e8b` < `e7e8n`).
    pub fn uci_order(&self) -> impl Ord {
        let u = &self.uci;
        let square = |sq: Square| (sq.file().index(), sq.rank().index());
        (
            square(u.from),
            square(u.to),
            u.promotion.map(|role| role.lower_char()),
        )
    }

    /// The flags that hold, by name, in a fixed order.
    pub fn flags(&self) -> impl Iterator<Item = &'static str> {
        let f = &self.facts;
        [
            (f.captured.is_some(), "capture"),
            (f.en_passant, "en-passant"),
            (f.castle == Some(CastleSide::King), "castle-king-side"),
            (f.castle == Some(CastleSide::Queen), "castle-queen-side"),
            (f.check, "check"),
            (f.checkmate, "checkmate"),
        ]
        .into_iter()
        .filter_map(|(holds, name)| holds.then_some(name))
    }
}

/// The lines of `help`, before the closing `end`.
pub const HELP: &[&str] = &[
    "uci: identify, list options, uciok",
    "isready: readyok, at once even while a perft runs",
    "ucinewgame: new game from the standard start position",
    "setoption name UCI_Chess960 value true|false: Chess960 castling from the next game",
    "setoption name Threads value <n>: threads for perft (0: one per core)",
    "setoption name JSON value true|false: answers as JSON Lines",
    "setoption name MaxGames value <n>: the most named games open at once",
    "setoption name Safe value true: safe mode, no files and no perft (it stays on)",
    "position startpos|fen <FEN> [chess960] [moves <move>...]|pgn <file> [<n>]: replace the game",
    "d: board, FEN, Polyglot key, checkers",
    "go perft <depth>: nodes per legal move, then the total",
    "perft <depth>: the total nodes",
    "moves [<square>] [verbose [fen]]: legal moves, or those from a square; verbose: with their facts",
    "dests: the legal targets of each origin square",
    "legal <move>: whether a move is legal, and the error code if not",
    "check: whether the side to move is in check, and the squares of the checking pieces",
    "turn: the side to move",
    "fen: the position as FEN",
    "status: state, winner, draw reason, claimable draws",
    "opening: the game's ECO code and opening name, or none",
    "move <move>: play a move (UCI or SAN)",
    "move <move> as white|black: play a move if that side is to move",
    "undo: take back the last move",
    "history: the moves played",
    "resign [white|black]: resign, the side to move by default",
    "draw: draw by agreement",
    "draw offer|accept|decline white|black: a draw offer, and the other side's answer",
    "takeback offer|accept|decline white|black: a takeback of the proposer's last move, and the other side's answer",
    "timeout white|black: that side's flag fell: a loss, or a draw if the other side cannot mate",
    "abort: end the game without a result",
    "claim: claim a threefold or fifty-move draw",
    "san <move>: a move in SAN",
    "tag <name> [<value>]: set a PGN tag, or remove it without a value",
    "pgn: the game in PGN export format, then end",
    "pgn save <path>: write the game in PGN export format to a file",
    "version: the game's version, a value never given out before at every change",
    "state: the game whole as one JSON object: moves, position, status, offers, result, tags, comments",
    "restore <JSON object>: replace the game with one that state described",
    "games: the open named games",
    "close: close the game named by game <name> close",
    "help [<command>]: this list, or one command with an example",
    "stop: end a running perft and drop those queued behind it",
    "quit: no more commands: answer those before it, then exit",
];
