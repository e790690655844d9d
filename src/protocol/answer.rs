//! Every answer the protocol prints, and the one place that formats them.

use std::io::{self, Write};

use crate::color::Color;
use crate::describe::{CastleSide, MoveFacts};
use crate::fen::FenText;
use crate::game::Status;
use crate::position::Position;
use crate::square::Square;
use crate::uci::UciMove;

use super::error::ProtocolError;
use super::help::Topic;
use super::name::{GameName, NameRef, Version};

/// The author line of `uci`.
pub const AUTHOR: &str = "the chess-arbiter authors";

/// The most threads `setoption name Threads` accepts.
pub const MAX_THREADS: u32 = 256;

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
    Played(Box<MoveDetail>, Standing),
    Undone(String),
    History(Vec<String>),
    San(String),
    /// `pgn`: the game in export format, ending with its newline.
    Pgn(String),
    Version(Version),
    /// `games`: the open named games, sorted.
    Games(Vec<GameName>),
    Help,
    /// `help <command>`.
    HelpOn(&'static Topic),
}

/// Where a game stands, with the draw offer pending in it, if any (by the side that
/// made it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    pub status: Status,
    pub offer: Option<Color>,
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

/// An option that `uci` lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UciOption {
    pub name: &'static str,
    pub kind: OptionKind,
}

/// A UCI option's type, with its default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Check { default: bool },
    Spin { default: u32, min: u32, max: u32 },
}

/// The options, as `uci` lists them. Threads 0 means one per available core, which
/// keeps the listing the same on every machine.
pub const OPTIONS: &[UciOption] = &[
    UciOption {
        name: "UCI_Chess960",
        kind: OptionKind::Check { default: false },
    },
    UciOption {
        name: "Threads",
        kind: OptionKind::Spin {
            default: 0,
            min: 0,
            max: MAX_THREADS,
        },
    },
    UciOption {
        name: "JSON",
        kind: OptionKind::Check { default: false },
    },
    UciOption {
        name: "MaxGames",
        kind: OptionKind::Spin {
            default: DEFAULT_MAX_GAMES,
            min: 0,
            max: MAX_MAX_GAMES,
        },
    },
];

/// How many named games may be open at once unless `MaxGames` says otherwise: a few
/// hundred MiB of games of a few hundred plies.
pub const DEFAULT_MAX_GAMES: u32 = 10_000;

/// The highest `MaxGames`.
pub const MAX_MAX_GAMES: u32 = 10_000_000;

/// The lines of `help`, before the closing `end`.
pub const HELP: &[&str] = &[
    "uci: identify, list options, uciok",
    "isready: readyok, at once even while a perft runs",
    "ucinewgame: new game from the standard start position",
    "setoption name UCI_Chess960 value true|false: Chess960 castling from the next game",
    "setoption name Threads value <n>: threads for perft (0: one per core)",
    "setoption name JSON value true|false: answers as JSON Lines",
    "setoption name MaxGames value <n>: the most named games open at once",
    "position startpos|fen <FEN> [moves <move>...]|pgn <file> [<n>]: replace the game",
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
    "move <move>: play a move (UCI or SAN)",
    "move <move> as white|black: play a move if that side is to move",
    "undo: take back the last move",
    "history: the moves played",
    "resign [white|black]: resign, the side to move by default",
    "draw: draw by agreement",
    "draw offer|accept|decline white|black: a draw offer, and the other side's answer",
    "claim: claim a threefold or fifty-move draw",
    "san <move>: a move in SAN",
    "tag <name> [<value>]: set a PGN tag, or remove it without a value",
    "pgn: the game in PGN export format, then end",
    "pgn save <path>: write the game in PGN export format to a file",
    "version: the game's version, one more for every change",
    "games: the open named games",
    "close: close the game named by game <name> close",
    "help [<command>]: this list, or one command with an example",
    "stop: end a running perft and drop those queued behind it",
    "quit: no more commands: answer those before it, then exit",
];

impl Reply {
    /// Writes the reply's lines as text, if any.
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        match self {
            Reply::Silent | Reply::Quit => Ok(()),
            Reply::Answer(answer) => answer.write_to(out),
            Reply::Error(error) => writeln!(out, "error {} {error}", error.code()),
        }
    }

    /// Writes the reply in a format, for the request the header names. In text, an id
    /// and then the game's name start every line of the answer
    /// (`@7 game g1 readyok`); in JSON they are fields.
    pub fn write(&self, out: &mut impl Write, header: &Header, format: Format) -> io::Result<()> {
        match (format, header.id, header.game) {
            (Format::Json, ..) => super::json::write_reply(out, header, self),
            (Format::Text, None, None) => self.write_to(out),
            (Format::Text, ..) if matches!(self, Reply::Silent | Reply::Quit) => Ok(()),
            (Format::Text, None, Some(game)) if !self.is_multi_line() => {
                write_game_prefix(out, game)?;
                self.write_to(out)
            }
            (Format::Text, id, game) if !self.is_multi_line() => {
                write_prefix(out, id, game)?;
                out.write_all(b" ")?;
                self.write_to(out)
            }
            (Format::Text, id, game) => {
                // Written whole, then cut into lines: an answer is many small writes,
                // and a line is one copy.
                let mut text = Vec::with_capacity(256);
                self.write_to(&mut text)?;
                for line in text.split_inclusive(|&b| b == b'\n') {
                    write_prefix(out, id, game)?;
                    if line != b"\n" {
                        out.write_all(b" ")?;
                    }
                    out.write_all(line)?;
                }
                Ok(())
            }
        }
    }
}

impl Reply {
    /// Whether the text answer may have more than one line.
    fn is_multi_line(&self) -> bool {
        matches!(
            self,
            Reply::Answer(
                Answer::Uci
                    | Answer::Board(_)
                    | Answer::Divide { .. }
                    | Answer::VerboseMoves(_)
                    | Answer::Pgn(_)
                    | Answer::Help
                    | Answer::HelpOn(_)
            )
        )
    }
}

/// `@<id>` and `game <name>`, as a text answer's lines start, without the blank after.
fn write_prefix(out: &mut impl Write, id: Option<&str>, game: Option<NameRef>) -> io::Result<()> {
    if let Some(id) = id {
        out.write_all(b"@")?;
        out.write_all(id.as_bytes())?;
    }
    if let Some(game) = game {
        if id.is_some() {
            out.write_all(b" ")?;
        }
        out.write_all(b"game ")?;
        out.write_all(game.as_bytes())?;
    }
    Ok(())
}

/// `game <name> ` in one write: the start of every answer to a server of many games.
fn write_game_prefix(out: &mut impl Write, game: NameRef) -> io::Result<()> {
    const GAME: &[u8] = b"game ";
    let name = game.as_bytes();
    let mut bytes = [b' '; GAME.len() + super::name::MAX_NAME + 1];
    let end = GAME.len() + name.len();
    bytes[..GAME.len()].copy_from_slice(GAME);
    match bytes.get_mut(GAME.len()..end) {
        Some(room) => room.copy_from_slice(name),
        None => return write_prefix(out, None, Some(game)).and_then(|()| out.write_all(b" ")),
    }
    out.write_all(&bytes[..=end])
}

/// Writes a keyword followed by its items, with no trailing blank when there are none.
fn write_list<T: std::fmt::Display>(
    out: &mut impl Write,
    keyword: &str,
    items: impl IntoIterator<Item = T>,
) -> io::Result<()> {
    out.write_all(keyword.as_bytes())?;
    for item in items {
        write!(out, " {item}")?;
    }
    out.write_all(b"\n")
}

/// The state fields `status` and `played` print: `checkmate winner white`,
/// `draw reason fivefold`, `active claimable threefold fifty-move`. Written piece by
/// piece, without formatting machinery: these are the answers a client asks for after
/// every move.
pub fn write_status(out: &mut impl Write, standing: &Standing) -> io::Result<()> {
    let status = &standing.status;
    out.write_all(status.state.name().as_bytes())?;
    if let Some(winner) = status.winner {
        out.write_all(b" winner ")?;
        out.write_all(winner.name().as_bytes())?;
    }
    if let Some(reason) = status.reason {
        out.write_all(b" reason ")?;
        out.write_all(reason.name().as_bytes())?;
    }
    if let Some(by) = standing.offer {
        out.write_all(b" offer ")?;
        out.write_all(by.name().as_bytes())?;
    }
    if !status.claims.is_empty() {
        out.write_all(b" claimable")?;
        for reason in status.claims.reasons() {
            out.write_all(b" ")?;
            out.write_all(reason.name().as_bytes())?;
        }
    }
    Ok(())
}

/// A square's name, `e4`, as bytes.
fn square_name(sq: Square) -> [u8; 2] {
    [sq.file().char() as u8, sq.rank().char() as u8]
}

/// A blank, a field's name, a blank and a square.
fn write_square_field(out: &mut impl Write, name: &[u8], sq: Square) -> io::Result<()> {
    out.write_all(name)?;
    out.write_all(&square_name(sq))
}

/// A move's UCI text, `e7e8q`.
fn write_uci(out: &mut impl Write, uci: &UciMove) -> io::Result<()> {
    let [a, b] = square_name(uci.from);
    let [c, d] = square_name(uci.to);
    match uci.promotion {
        None => out.write_all(&[a, b, c, d]),
        Some(role) => out.write_all(&[a, b, c, d, role.lower_char() as u8]),
    }
}

/// A move's UCI and SAN, with a blank after each.
fn write_uci_san(out: &mut impl Write, detail: &MoveDetail) -> io::Result<()> {
    write_uci(out, &detail.uci)?;
    out.write_all(b" ")?;
    out.write_all(detail.san.as_bytes())?;
    out.write_all(b" ")
}

/// The fields of a move after its UCI and SAN, as `move` and `moves verbose` print them:
/// `from e2 to e4 piece pawn`, then those that apply, in this order: `captured <piece>
/// captured-on <square>`, `promotion <piece>`, `king-to <square>`, `flags <flag>...`,
/// and `fen <FEN>` last.
fn write_move_fields(out: &mut impl Write, detail: &MoveDetail) -> io::Result<()> {
    let f = &detail.facts;
    write_square_field(out, b"from ", f.from)?;
    write_square_field(out, b" to ", detail.uci.to)?;
    out.write_all(b" piece ")?;
    out.write_all(f.piece.name().as_bytes())?;
    if let Some((role, square)) = f.captured {
        out.write_all(b" captured ")?;
        out.write_all(role.name().as_bytes())?;
        write_square_field(out, b" captured-on ", square)?;
    }
    if let Some(role) = f.promotion {
        out.write_all(b" promotion ")?;
        out.write_all(role.name().as_bytes())?;
    }
    if let Some(square) = f.king_to {
        write_square_field(out, b" king-to ", square)?;
    }
    let mut flags = detail.flags().peekable();
    if flags.peek().is_some() {
        out.write_all(b" flags")?;
        for flag in flags {
            out.write_all(b" ")?;
            out.write_all(flag.as_bytes())?;
        }
    }
    if let Some(fen) = &detail.fen {
        out.write_all(b" fen ")?;
        out.write_all(fen.as_bytes())?;
    }
    Ok(())
}

/// Stockfish's board diagram, then the FEN, the key and the checkers.
fn write_board(out: &mut impl Write, pos: &Position) -> io::Result<()> {
    const RULE: &str = " +---+---+---+---+---+---+---+---+\n";
    out.write_all(RULE.as_bytes())?;
    for rank in (0..8u32).rev() {
        let mut row = String::with_capacity(40);
        for file in 0..8 {
            let sq = Square::from_index_wrapping(rank * 8 + file);
            row.push_str(" | ");
            row.push(pos.piece_at(sq).map_or(' ', |p| p.char()));
        }
        writeln!(out, "{row} | {}", rank + 1)?;
        out.write_all(RULE.as_bytes())?;
    }
    out.write_all(b"   a   b   c   d   e   f   g   h\n\n")?;
    write_board_facts(out, pos)
}

/// The lines under any drawing of the board: the FEN, the key and the checkers.
pub(super) fn write_board_facts(out: &mut impl Write, pos: &Position) -> io::Result<()> {
    writeln!(out, "Fen: {}", pos.fen_text())?;
    writeln!(out, "Key: {:016X}", pos.key())?;
    let mut checkers: Vec<String> = pos.checkers().into_iter().map(|s| s.to_string()).collect();
    checkers.sort();
    write_list(out, "Checkers:", checkers)
}

/// `help <command>`: the syntax, the summary, the example indented (its `> ` lines
/// would otherwise read as commands in a transcript), then `end`.
fn write_topic(out: &mut impl Write, topic: &Topic) -> io::Result<()> {
    writeln!(out, "{}\n{}\nexample:", topic.syntax, topic.summary)?;
    for line in topic.example.lines() {
        if line.is_empty() {
            out.write_all(b"\n")?;
        } else {
            writeln!(out, "  {line}")?;
        }
    }
    writeln!(out, "end")
}

impl Answer {
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        match self {
            Answer::Uci => {
                writeln!(out, "id name arbiter {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(out, "id author {AUTHOR}")?;
                for option in OPTIONS {
                    write!(out, "option name {} type ", option.name)?;
                    match option.kind {
                        OptionKind::Check { default } => writeln!(out, "check default {default}")?,
                        OptionKind::Spin { default, min, max } => {
                            writeln!(out, "spin default {default} min {min} max {max}")?
                        }
                    }
                }
                writeln!(out, "uciok")
            }
            Answer::ReadyOk => writeln!(out, "readyok"),
            Answer::Board(pos) => write_board(out, pos),
            Answer::Divide {
                lines,
                total,
                stopped,
            } => {
                for (m, nodes) in lines {
                    writeln!(out, "{m}: {nodes}")?;
                }
                let marker = if *stopped { " stopped" } else { "" };
                writeln!(out, "\nNodes searched: {total}{marker}")
            }
            Answer::Perft {
                depth,
                nodes,
                stopped,
            } => {
                let marker = if *stopped { " stopped" } else { "" };
                writeln!(out, "perft {depth} {nodes}{marker}")
            }
            Answer::Moves(moves) => write_list(out, "moves", moves),
            Answer::VerboseMoves(details) => {
                for detail in details {
                    write_uci_san(out, detail)?;
                    write_move_fields(out, detail)?;
                    out.write_all(b"\n")?;
                }
                writeln!(out, "end")
            }
            Answer::Dests(dests) => {
                out.write_all(b"dests")?;
                for (from, targets) in dests {
                    write!(out, " {from}:")?;
                    for (i, to) in targets.iter().enumerate() {
                        let comma = if i == 0 { "" } else { "," };
                        write!(out, "{comma}{to}")?;
                    }
                }
                out.write_all(b"\n")
            }
            Answer::Legal(text, None) => writeln!(out, "legal {text} yes"),
            Answer::Legal(text, Some(code)) => writeln!(out, "legal {text} no {code}"),
            Answer::Check(checkers) if checkers.is_empty() => writeln!(out, "check no"),
            Answer::Check(checkers) => write_list(out, "check yes", checkers),
            Answer::Turn(color) => writeln!(out, "turn {color}"),
            Answer::Fen(fen) => writeln!(out, "fen {fen}"),
            Answer::Status(status) => {
                out.write_all(b"status ")?;
                write_status(out, status)?;
                out.write_all(b"\n")
            }
            Answer::Played(detail, status) => {
                out.write_all(b"played ")?;
                write_uci_san(out, detail)?;
                write_status(out, status)?;
                out.write_all(b" ")?;
                write_move_fields(out, detail)?;
                out.write_all(b"\n")
            }
            Answer::Undone(uci) => writeln!(out, "undone {uci}"),
            Answer::History(moves) => write_list(out, "history", moves),
            Answer::San(san) => writeln!(out, "san {san}"),
            Answer::Pgn(text) => {
                out.write_all(text.as_bytes())?;
                writeln!(out, "end")
            }
            Answer::Version(version) => writeln!(out, "version {version}"),
            Answer::Games(names) => write_list(out, "games", names),
            Answer::Help => {
                for line in HELP {
                    writeln!(out, "{line}")?;
                }
                writeln!(out, "end")
            }
            Answer::HelpOn(topic) => write_topic(out, topic),
        }
    }
}
