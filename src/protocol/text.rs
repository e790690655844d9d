//! The text protocol's printer: every answer and error as the lines a client reads.

use std::io::{self, Write};

use crate::position::Position;
use crate::square::Square;
use crate::uci::UciMove;

use super::answer::{Answer, Header, MoveDetail, Reply, Standing, AUTHOR, HELP};
use super::help::Topic;
use super::name::NameRef;
use super::options::{OptionKind, OPTIONS};

impl Reply {
    /// Writes the reply's lines as text, if any.
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        match self {
            Reply::Silent | Reply::Quit => Ok(()),
            Reply::Answer(answer) => answer.write_to(out),
            Reply::Error(error) => writeln!(out, "error {} {error}", error.code()),
        }
    }
}

/// Writes a reply as text, for the request the header names: an id and then the game's
/// name start every line of the answer (`@7 game g1 readyok`).
pub fn write_reply(out: &mut impl Write, header: &Header, reply: &Reply) -> io::Result<()> {
    match (header.id, header.game) {
        (None, None) => reply.write_to(out),
        _ if matches!(reply, Reply::Silent | Reply::Quit) => Ok(()),
        (id, game) if !reply.is_multi_line() => {
            write_prefix(out, id, game, b" ")?;
            reply.write_to(out)
        }
        (id, game) => {
            // Written whole, then cut into lines: an answer is many small writes, and a
            // line is one copy.
            let mut text = Vec::with_capacity(256);
            reply.write_to(&mut text)?;
            for line in text.split_inclusive(|&b| b == b'\n') {
                let blank: &[u8] = if line == b"\n" { b"" } else { b" " };
                write_prefix(out, id, game, blank)?;
                out.write_all(line)?;
            }
            Ok(())
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

/// `@<id> game <name>` (either part may be absent) and then `end`, as a text answer's
/// lines start: `end` is the blank before the line's text, empty before an empty line.
/// Written part by part: the writer is buffered, and every answer to a server of many
/// games starts so.
fn write_prefix(
    out: &mut impl Write,
    id: Option<&str>,
    game: Option<NameRef>,
    end: &[u8],
) -> io::Result<()> {
    if let Some(id) = id {
        out.write_all(b"@")?;
        out.write_all(id.as_bytes())?;
        if game.is_some() {
            out.write_all(b" ")?;
        }
    }
    if let Some(game) = game {
        out.write_all(b"game ")?;
        out.write_all(game.as_bytes())?;
    }
    out.write_all(end)
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
    if let Some(by) = standing.takeback {
        out.write_all(b" takeback ")?;
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

/// A blank, a field's name, a blank and a square.
fn write_square_field(out: &mut impl Write, name: &[u8], sq: Square) -> io::Result<()> {
    out.write_all(name)?;
    out.write_all(&sq.name())
}

/// A move's UCI text, `e7e8q`.
fn write_uci(out: &mut impl Write, uci: &UciMove) -> io::Result<()> {
    let [a, b] = uci.from.name();
    let [c, d] = uci.to.name();
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
pub(crate) fn write_board_facts(out: &mut impl Write, pos: &Position) -> io::Result<()> {
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
            Answer::Opening(Some(opening)) => {
                writeln!(out, "opening {} {}", opening.eco, opening.name)
            }
            Answer::Opening(None) => writeln!(out, "opening none"),
            Answer::Played(detail, status) => {
                out.write_all(b"played ")?;
                write_uci_san(out, detail)?;
                write_status(out, status)?;
                out.write_all(b" ")?;
                write_move_fields(out, detail)?;
                out.write_all(b"\n")
            }
            Answer::Undone(uci) => writeln!(out, "undone {uci}"),
            Answer::TakenBack(moves) => write_list(out, "undone", moves),
            Answer::History(moves) => write_list(out, "history", moves),
            Answer::San(san) => writeln!(out, "san {san}"),
            Answer::Pgn(text) => {
                out.write_all(text.as_bytes())?;
                writeln!(out, "end")
            }
            Answer::Version(version) => writeln!(out, "version {version}"),
            Answer::State(snapshot) => {
                out.write_all(b"state ")?;
                super::json::write_snapshot(out, snapshot)?;
                out.write_all(b"\n")
            }
            Answer::Games(names) => write_list(out, "games", names),
            Answer::Ok => out.write_all(b"ok\n"),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn text(id: Option<&str>, game: Option<&str>, reply: &Reply) -> String {
        let header = Header {
            id,
            game: game.map(|name| NameRef::parse(name).unwrap()),
            ..Header::default()
        };
        let mut out = Vec::new();
        write_reply(&mut out, &header, reply).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_line_starts_with_the_id_and_the_game() {
        let ready = Reply::Answer(Answer::ReadyOk);
        assert_eq!(text(None, Some("g1"), &ready), "game g1 readyok\n");
        assert_eq!(text(Some("7"), None, &ready), "@7 readyok\n");
        assert_eq!(text(Some("7"), Some("g1"), &ready), "@7 game g1 readyok\n");
        let name = "n".repeat(super::super::name::MAX_NAME);
        let id = "i".repeat(200);
        assert_eq!(
            text(Some(&id), Some(&name), &ready),
            format!("@{id} game {name} readyok\n")
        );
        let pgn = Reply::Answer(Answer::Pgn("[Event \"?\"]\n\n*\n".to_string()));
        assert_eq!(
            text(Some(&id), Some("g1"), &pgn),
            format!(
                "@{id} game g1 [Event \"?\"]\n@{id} game g1\n@{id} game g1 *\n@{id} game g1 end\n"
            )
        );
    }
}
