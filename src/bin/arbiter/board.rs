//! The board of `d` for a person at a terminal: Unicode pieces on coloured squares, the
//! last move and a checked king highlighted, coordinates, and the same `Fen:`, `Key:`
//! and `Checkers:` lines as the text board. Only the REPL asks for it; every other run
//! prints the protocol's text board, byte for byte.
//!
//! Colours are 256-colour ANSI codes (written with `anstyle`, clap's own styling
//! types): every terminal of the last decades has them, unlike 24-bit colour. The
//! squares are mid tones so that white and black pieces both stand out on them.

use std::ffi::OsStr;
use std::fmt::Write as _;

use anstyle::{Ansi256Color, Color as Paint, Style};

use arbiter::protocol::Answer;
use arbiter::{Color, Move, Position, Role, Square};

/// Whether colour may be used, given `--no-color`, the `NO_COLOR` variable (any
/// non-empty value turns colour off, as no-color.org asks) and `TERM` (`dumb` has no
/// colour).
pub fn colour_allowed(no_color_flag: bool, no_color: Option<&OsStr>, term: Option<&OsStr>) -> bool {
    !no_color_flag && no_color.is_none_or(OsStr::is_empty) && term.is_none_or(|t| t != "dumb")
}

const LIGHT: u8 = 137; // #af875f
const DARK: u8 = 94; // #875f00
const LAST_LIGHT: u8 = 143; // #afaf5f
const LAST_DARK: u8 = 100; // #878700
const CHECK: u8 = 160; // #d70000
const WHITE_PIECE: u8 = 231; // #ffffff
const BLACK_PIECE: u8 = 16; // #000000

fn paint(index: u8) -> Option<Paint> {
    Some(Paint::Ansi256(Ansi256Color(index)))
}

/// The solid symbol of each piece, in both colours: the outline symbols of the white
/// pieces are too thin to read at terminal size; the colour of the glyph tells the side.
fn symbol(role: Role) -> char {
    match role {
        Role::King => '♚',
        Role::Queen => '♛',
        Role::Rook => '♜',
        Role::Bishop => '♝',
        Role::Knight => '♞',
        Role::Pawn => '♟',
    }
}

/// The square's background: a checked king first, then the last move's squares.
fn background(sq: Square, pos: &Position, last: Option<Move>) -> u8 {
    let checked_king = pos.is_check() && pos.king(pos.turn()) == sq;
    let moved = last.is_some_and(|m| m.from() == sq || m.to() == sq);
    match (checked_king, moved, sq.is_light()) {
        (true, _, _) => CHECK,
        (false, true, true) => LAST_LIGHT,
        (false, true, false) => LAST_DARK,
        (false, false, true) => LIGHT,
        (false, false, false) => DARK,
    }
}

/// The whole answer of `d` for a terminal: white at the bottom, ranks on the left,
/// files below, each square three cells wide, then the lines of the text board.
/// `last` is the move that led to `pos` (it is highlighted), if any.
pub fn render(pos: &Position, last: Option<Move>) -> String {
    let mut out = String::with_capacity(2048);
    for rank in (0..8u32).rev() {
        let _ = write!(out, " {} ", rank + 1);
        for file in 0..8 {
            let sq = Square::from_index_wrapping(rank * 8 + file);
            let mut style = Style::new().bg_color(paint(background(sq, pos, last)));
            let glyph = match pos.piece_at(sq) {
                Some(piece) => {
                    let ink = match piece.color {
                        Color::White => WHITE_PIECE,
                        Color::Black => BLACK_PIECE,
                    };
                    style = style.fg_color(paint(ink)).bold();
                    symbol(piece.role)
                }
                None => ' ',
            };
            let _ = write!(out, "{style} {glyph} {style:#}");
        }
        out.push('\n');
    }
    out.push_str("    a  b  c  d  e  f  g  h\n\n");
    out.push_str(&facts(pos));
    out
}

/// The lines under the text board, after its blank line: taken from the protocol's
/// own answer, so that both boards say the same.
fn facts(pos: &Position) -> String {
    let mut text = Vec::new();
    // Writing into a Vec cannot fail, and the answer is ASCII.
    let _ = Answer::Board(Box::new(*pos)).write_to(&mut text);
    let text = String::from_utf8_lossy(&text);
    text.split_once("\n\n")
        .map_or_else(String::new, |(_, facts)| facts.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter::protocol::{Reply, Session};

    fn text_board(session: &mut Session) -> String {
        let mut out = Vec::new();
        session.execute("d").write_to(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn game(commands: &str) -> (Position, Option<Move>, String) {
        let mut session = Session::new();
        assert!(!matches!(session.execute(commands), Reply::Error(_)));
        let text = text_board(&mut session);
        let game = session.game();
        (*game.position(), game.moves().last(), text)
    }

    /// The background code of each square, in order a8..h8, a7..h1.
    fn backgrounds(board: &str) -> Vec<u8> {
        board
            .split("\x1b[48;5;")
            .skip(1)
            .map(|rest| rest[..rest.find('m').unwrap()].parse().unwrap())
            .collect()
    }

    #[test]
    fn the_start_position_is_eight_ranks_of_alternating_squares_with_coordinates() {
        let (pos, last, _) = game("position startpos");
        let board = render(&pos, last);
        let lines: Vec<&str> = board.lines().collect();
        assert!(lines[0].starts_with(" 8 "));
        assert!(lines[7].starts_with(" 1 "));
        assert_eq!(lines[8], "    a  b  c  d  e  f  g  h");
        let squares = backgrounds(&board);
        assert_eq!(squares.len(), 64);
        // a8 is a light square; a1 a dark one.
        assert_eq!(&squares[..3], [LIGHT, DARK, LIGHT]);
        assert_eq!(squares[56], DARK);
        assert!(!squares.contains(&LAST_LIGHT) && !squares.contains(&LAST_DARK));
    }

    #[test]
    fn pieces_are_unicode_symbols_inked_by_side() {
        let (pos, last, _) = game("position startpos");
        let board = render(&pos, last);
        let lines: Vec<&str> = board.lines().collect();
        let black_rank: String = lines[0].chars().filter(|c| !c.is_ascii()).collect();
        assert_eq!(black_rank, "♜♞♝♛♚♝♞♜");
        assert!(lines[0].contains("\x1b[38;5;16m"));
        assert!(!lines[0].contains("\x1b[38;5;231m"));
        assert!(lines[7].contains("\x1b[38;5;231m"));
        assert!(lines[6].contains('♟') && lines[4].is_ascii());
    }

    #[test]
    fn the_last_move_s_squares_are_highlighted() {
        let (pos, last, _) = game("position startpos moves e4");
        let squares = backgrounds(&render(&pos, last));
        let e2 = 6 * 8 + 4;
        let e4 = 4 * 8 + 4;
        assert_eq!(squares[e2], LAST_LIGHT);
        assert_eq!(squares[e4], LAST_LIGHT);
        let highlighted = squares
            .iter()
            .filter(|&&c| c == LAST_LIGHT || c == LAST_DARK);
        assert_eq!(highlighted.count(), 2);
    }

    #[test]
    fn a_king_in_check_stands_on_red() {
        let (pos, last, _) = game("position startpos moves e4 f5 Qh5");
        let squares = backgrounds(&render(&pos, last));
        let e8 = 4;
        assert_eq!(squares[e8], CHECK);
        assert_eq!(squares.iter().filter(|&&c| c == CHECK).count(), 1);
        let (pos, last, _) = game("position startpos moves e4");
        assert!(!backgrounds(&render(&pos, last)).contains(&CHECK));
    }

    #[test]
    fn the_lines_under_the_board_are_the_text_board_s() {
        let (pos, last, text) = game("position startpos moves e4 f5 Qh5");
        let board = render(&pos, last);
        let tail = |s: &str| {
            s.lines()
                .rev()
                .take(4)
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(tail(&board), tail(&text));
        assert!(board.ends_with("Checkers: h5\n"));
        // And the text board itself is the protocol's answer, untouched.
        assert_eq!(text, {
            let mut out = Vec::new();
            Answer::Board(Box::new(pos)).write_to(&mut out).unwrap();
            String::from_utf8(out).unwrap()
        });
    }

    #[test]
    fn every_colour_is_reset_on_its_own_square() {
        let (pos, last, _) = game("position startpos");
        let board = render(&pos, last);
        for line in board.lines().take(8) {
            assert!(line.ends_with("\x1b[0m"), "{line:?}");
            assert_eq!(line.matches("\x1b[0m").count(), 8);
        }
    }

    #[test]
    fn colour_is_off_for_the_flag_no_color_and_a_dumb_terminal() {
        let os = |s: &'static str| Some(OsStr::new(s));
        assert!(colour_allowed(false, None, os("xterm-256color")));
        assert!(colour_allowed(false, None, None));
        assert!(colour_allowed(false, os(""), os("xterm")));
        assert!(!colour_allowed(true, None, os("xterm")));
        assert!(!colour_allowed(false, os("1"), os("xterm")));
        assert!(!colour_allowed(false, None, os("dumb")));
    }
}
