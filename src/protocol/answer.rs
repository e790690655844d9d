//! Every answer the protocol prints, and the one place that formats them.

use std::io::{self, Write};

use crate::color::Color;
use crate::game::Status;
use crate::position::Position;
use crate::square::Square;

use super::error::ProtocolError;
use super::help::Topic;

/// The author line of `uci`.
pub const AUTHOR: &str = "the chess-arbiter authors";

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
    /// `go perft`: each root move's count, ascending by move, and the total.
    Divide(Vec<(String, u64)>, u64),
    Perft {
        depth: u32,
        nodes: u64,
    },
    Moves(Vec<String>),
    /// `legal`: the move as typed, and the error code `move` would give, if any.
    Legal(String, Option<&'static str>),
    /// `check`: the checkers, ascending.
    Check(Vec<String>),
    Turn(Color),
    Fen(String),
    Status(Status),
    Played {
        uci: String,
        san: String,
        status: Status,
    },
    Undone(String),
    History(Vec<String>),
    San(String),
    /// `pgn`: the game in export format, ending with its newline.
    Pgn(String),
    Help,
    /// `help <command>`.
    HelpOn(&'static Topic),
}

/// The lines of `help`, before the closing `end`.
const HELP: &[&str] = &[
    "uci: identify, list options, uciok",
    "isready: readyok",
    "ucinewgame: new game from the standard start position",
    "setoption name UCI_Chess960 value true|false: Chess960 castling from the next game",
    "position startpos|fen <FEN> [moves <move>...]|pgn <file> [<n>]: replace the game",
    "d: board, FEN, Polyglot key, checkers",
    "go perft <depth>: nodes per legal move, then the total",
    "perft <depth>: the total nodes",
    "moves [<square>]: legal moves, or those from a square",
    "legal <move>: whether a move is legal, and the error code if not",
    "check: whether the side to move is in check, and by which pieces",
    "turn: the side to move",
    "fen: the position as FEN",
    "status: state, winner, draw reason, claimable draws",
    "move <move>: play a move (UCI or SAN)",
    "undo: take back the last move",
    "history: the moves played",
    "resign [white|black]: resign, the side to move by default",
    "draw: draw by agreement",
    "claim: claim a threefold or fifty-move draw",
    "san <move>: a move in SAN",
    "tag <name> [<value>]: set a PGN tag, or remove it without a value",
    "pgn: the game in PGN export format, then end",
    "help: this list",
    "quit: exit",
];

impl Reply {
    /// Writes the reply's lines, if any.
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        match self {
            Reply::Silent | Reply::Quit => Ok(()),
            Reply::Answer(answer) => answer.write_to(out),
            Reply::Error(error) => writeln!(out, "error {} {error}", error.code()),
        }
    }
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
/// `draw reason fivefold`, `active claimable threefold fifty-move`.
pub fn write_status(out: &mut impl Write, status: &Status) -> io::Result<()> {
    out.write_all(status.state.name().as_bytes())?;
    if let Some(winner) = status.winner {
        write!(out, " winner {winner}")?;
    }
    if let Some(reason) = status.reason {
        write!(out, " reason {}", reason.name())?;
    }
    if !status.claims.is_empty() {
        out.write_all(b" claimable")?;
        for reason in status.claims.reasons() {
            write!(out, " {}", reason.name())?;
        }
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
    writeln!(out, "Fen: {}", pos.fen())?;
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
                writeln!(out, "option name UCI_Chess960 type check default false")?;
                writeln!(out, "uciok")
            }
            Answer::ReadyOk => writeln!(out, "readyok"),
            Answer::Board(pos) => write_board(out, pos),
            Answer::Divide(lines, total) => {
                for (m, nodes) in lines {
                    writeln!(out, "{m}: {nodes}")?;
                }
                writeln!(out, "\nNodes searched: {total}")
            }
            Answer::Perft { depth, nodes } => writeln!(out, "perft {depth} {nodes}"),
            Answer::Moves(moves) => write_list(out, "moves", moves),
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
            Answer::Played { uci, san, status } => {
                write!(out, "played {uci} {san} ")?;
                write_status(out, status)?;
                out.write_all(b"\n")
            }
            Answer::Undone(uci) => writeln!(out, "undone {uci}"),
            Answer::History(moves) => write_list(out, "history", moves),
            Answer::San(san) => writeln!(out, "san {san}"),
            Answer::Pgn(text) => {
                out.write_all(text.as_bytes())?;
                writeln!(out, "end")
            }
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
