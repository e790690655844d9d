//! Writing PGN in the standard's export format: tags in roster order, then movetext in
//! lines of at most 79 characters.

use crate::color::Color;
use crate::game::{DrawReason, Game, State, Status};
use crate::position::Position;

use super::reader::Outcome;
use super::tags::{write_quoted, Tags};
use crate::fen::push_number;

/// The longest movetext line, in characters.
pub const LINE_WIDTH: usize = 79;

/// The result a game's status stands for.
pub fn outcome_of(status: &Status) -> Outcome {
    match (status.state, status.winner) {
        (State::Checkmate | State::Resigned | State::Timeout, Some(Color::White)) => {
            Outcome::WhiteWins
        }
        (State::Checkmate | State::Resigned | State::Timeout, Some(Color::Black)) => {
            Outcome::BlackWins
        }
        (State::Stalemate | State::Draw, _) => Outcome::Draw,
        _ => Outcome::Unknown,
    }
}

/// The `Termination` tag's value for a game with a result, as the PGN standard
/// names them: `time forfeit` for a flag fall (lost, or drawn against a side that
/// cannot mate), `abandoned` for an abort, `threefold repetition` and `fifty-move rule`
/// for a claimed draw (the standard's list is open; these name the rule, so that a
/// claim reads back as the claim, not as an agreement), `normal` for every other
/// ending. `None` while the game goes on.
pub fn termination_of(status: &Status) -> Option<&'static str> {
    match (status.state, status.reason) {
        (State::Active | State::Check, _) => None,
        (State::Timeout, _) | (_, Some(DrawReason::TimeoutVsInsufficientMaterial)) => {
            Some("time forfeit")
        }
        (State::Aborted, _) => Some("abandoned"),
        (_, Some(DrawReason::Threefold)) => Some(CLAIMED_THREEFOLD),
        (_, Some(DrawReason::FiftyMove)) => Some(CLAIMED_FIFTY_MOVE),
        _ => Some("normal"),
    }
}

/// The `Termination` of a claimed threefold repetition.
pub const CLAIMED_THREEFOLD: &str = "threefold repetition";
/// The `Termination` of a claimed draw by the fifty-move rule.
pub const CLAIMED_FIFTY_MOVE: &str = "fifty-move rule";

/// Writes one `[Name "value"]` line.
pub fn write_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push(' ');
    write_quoted(out, value);
    out.push_str("]\n");
}

/// The tag section: the roster with `result`, then the other tags and the derived
/// `SetUp`, `FEN`, `Variant` and `termination` (unless the tags hold a `Termination`
/// of their own) in ASCII order of their names, then a blank line.
pub fn write_tags(
    out: &mut String,
    tags: &Tags,
    result: Outcome,
    base: &Position,
    chess960: bool,
    termination: Option<&str>,
) {
    for (name, value) in tags.roster() {
        write_tag(out, name, value);
    }
    write_tag(out, "Result", result.token());
    let fen = base.fen();
    let mut derived: Vec<(&str, &str)> = Vec::new();
    if fen != Position::startpos().fen() {
        derived.push(("FEN", &fen));
        derived.push(("SetUp", "1"));
    }
    if chess960 {
        derived.push(("Variant", "Chess960"));
    }
    if let Some(termination) = termination.filter(|_| tags.get(TERMINATION).is_none()) {
        derived.push((TERMINATION, termination));
    }
    let mut others: Vec<(&str, &str)> = tags.others().chain(derived).collect();
    others.sort_by(|a, b| a.0.cmp(b.0));
    for (name, value) in others {
        write_tag(out, name, value);
    }
    out.push('\n');
}

/// The tag that says how a game ended.
pub const TERMINATION: &str = "Termination";

/// A comment of a game's main line, and the ply it follows: 0 before the first move,
/// `n` after the `n`th.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Comment {
    pub ply: usize,
    pub text: String,
}

/// A game in export format: tags (with `Termination` once the game has a result),
/// movetext, result.
pub fn write_game(out: &mut String, tags: &Tags, game: &Game) {
    write_commented_game(out, tags, game, &[]);
}

/// `write_game` with the comments of the main line, each after the ply it follows (in
/// the order given among those of one ply): `{ }`, or a `;` comment for one holding a
/// `}`. Comments past the last ply are not written.
pub fn write_commented_game(out: &mut String, tags: &Tags, game: &Game, comments: &[Comment]) {
    let status = game.status();
    let result = outcome_of(&status);
    let chess960 = game.mode().is_chess960();
    write_tags(
        out,
        tags,
        result,
        game.base(),
        chess960,
        termination_of(&status),
    );
    let mut text = Movetext::new();
    let mut pos = *game.base();
    let mut comments = comments.iter().peekable();
    let mut write_comments = |text: &mut Movetext, out: &mut String, ply: usize| {
        while let Some(comment) = comments.next_if(|c| c.ply <= ply) {
            if comment.ply < ply {
                continue; // out of order: the caller keeps them sorted
            }
            if comment.text.contains('}') {
                text.line_comment(out, &comment.text);
            } else {
                text.comment(out, &comment.text);
            }
        }
    };
    write_comments(&mut text, out, 0);
    for (index, m) in game.moves().enumerate() {
        text.play(out, &pos, &pos.san(m));
        pos.play_unchecked(m);
        write_comments(&mut text, out, index + 1);
    }
    text.result(out, result);
}

/// Movetext laid out greedily in lines of at most `LINE_WIDTH` characters, single
/// spaces between tokens, move numbers where the export format wants them.
#[derive(Clone, Debug)]
pub struct Movetext {
    /// Characters on the current line.
    column: usize,
    /// Whether a black move needs its `N...` number: at the start, and after a
    /// comment or a variation.
    number_black: bool,
}

impl Default for Movetext {
    fn default() -> Movetext {
        Movetext::new()
    }
}

impl Movetext {
    pub fn new() -> Movetext {
        Movetext {
            column: 0,
            number_black: true,
        }
    }

    fn word(&mut self, out: &mut String, word: &str) {
        let width = if word.is_ascii() {
            word.len()
        } else {
            word.chars().count()
        };
        self.place(out, width);
        out.push_str(word);
    }

    /// Starts a token of `width` characters: on this line after a blank, or on the next.
    fn place(&mut self, out: &mut String, width: usize) {
        if self.column > 0 {
            if self.column + 1 + width > LINE_WIDTH {
                out.push('\n');
                self.column = 0;
            } else {
                out.push(' ');
                self.column += 1;
            }
        }
        self.column += width;
    }

    /// A move, played from `before`, with its number when it needs one.
    pub fn play(&mut self, out: &mut String, before: &Position, san: &str) {
        let number = before.fullmoves();
        if before.turn() == Color::White {
            self.number(out, number, ".");
        } else if self.number_black {
            self.number(out, number, "...");
        }
        self.word(out, san);
        self.number_black = false;
    }

    fn number(&mut self, out: &mut String, number: u32, dots: &str) {
        self.place(out, decimal_width(number) + dots.len());
        push_number(out, number);
        out.push_str(dots);
    }

    pub fn nag(&mut self, out: &mut String, nag: u8) {
        self.place(out, 1 + decimal_width(u32::from(nag)));
        out.push('$');
        push_number(out, u32::from(nag));
    }

    /// A comment as `{ words }`; its own blanks and line breaks are not kept, since
    /// lines are laid out anew. Its text holds no `}` (the reader ends a `{` comment at
    /// its first one; a `;` comment that holds one goes to `line_comment`).
    ///
    /// Wrapping never starts a line with a comment word that begins with `[` or `%`: a
    /// reader takes a line starting `[Event ` for the next game and drops a `%` line.
    /// Such a word stays on the line of the word before it (`{` at least), and an
    /// embedded command (`[%clk 0:01:00]`, `[%eval 0.3]`) on one line, since clock
    /// parsers read them line by line; a line grows past `LINE_WIDTH` rather than break
    /// one of these rules.
    pub fn comment(&mut self, out: &mut String, text: &str) {
        let mut words = text.split_whitespace().peekable();
        if words.peek().is_none() {
            self.word(out, "{}");
        } else {
            // The words that must share a line, joined by single spaces.
            let mut unit = String::from("{");
            let mut in_command = false;
            for word in words {
                if in_command || word.starts_with(['[', '%']) {
                    unit.push(' ');
                } else {
                    self.word(out, &unit);
                    unit.clear();
                }
                unit.push_str(word);
                let opens = in_command || word.starts_with("[%");
                in_command = opens && !word.contains(']');
            }
            self.word(out, &unit);
            self.word(out, "}");
        }
        self.number_black = true;
    }

    /// A `;` comment, its text as it was (tabs aside, which export format writes as
    /// spaces): it runs to the end of its line, and the next token starts a new one.
    /// Only a comment that a `{ }` could not hold (it holds a `}`) is written so.
    pub fn line_comment(&mut self, out: &mut String, text: &str) {
        self.place(out, 1 + text.chars().count());
        out.push(';');
        out.extend(text.chars().map(|c| if c == '\t' { ' ' } else { c }));
        out.push('\n');
        self.column = 0;
        self.number_black = true;
    }

    pub fn begin_variation(&mut self, out: &mut String) {
        self.word(out, "(");
        self.number_black = true;
    }

    pub fn end_variation(&mut self, out: &mut String) {
        self.word(out, ")");
        self.number_black = true;
    }

    /// The result token, ending the movetext and its last line.
    pub fn result(mut self, out: &mut String, outcome: Outcome) {
        self.word(out, outcome.token());
        out.push('\n');
    }
}

/// How many decimal digits a number has.
fn decimal_width(mut n: u32) -> usize {
    let mut width = 1;
    while n >= 10 {
        n /= 10;
        width += 1;
    }
    width
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::CastlingMode;

    fn game_of(fen: Option<&str>, moves: &str, mode: CastlingMode) -> Game {
        let base = fen.map_or(Position::startpos(), |f| Position::from_fen(f).unwrap());
        let mut game = Game::new(base, mode);
        for text in moves.split_whitespace() {
            let m = game.parse_move(text).unwrap();
            game.play(m);
        }
        game
    }

    fn export(game: &Game) -> String {
        let mut out = String::new();
        write_game(&mut out, &Tags::default(), game);
        out
    }

    #[test]
    fn the_roster_comes_first_with_unknown_values() {
        let game = game_of(None, "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7", CastlingMode::Standard);
        assert_eq!(
            export(&game),
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [White \"?\"]\n[Black \"?\"]\n[Result \"1-0\"]\n[Termination \"normal\"]\n\n\
             1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"
        );
    }

    #[test]
    fn a_game_with_a_result_says_how_it_ended() {
        let mut game = game_of(None, "e4 e5", CastlingMode::Standard);
        assert!(!export(&game).contains("Termination"));
        game.flag_fell(Color::White);
        assert!(export(&game).contains("[Result \"0-1\"]\n[Termination \"time forfeit\"]\n"));
        let mut game = game_of(None, "e4", CastlingMode::Standard);
        game.abort();
        let text = export(&game);
        assert!(
            text.contains("[Result \"*\"]\n[Termination \"abandoned\"]\n"),
            "{text}"
        );
        assert!(text.ends_with("1. e4 *\n"), "{text}");
        let mut tags = Tags::default();
        tags.set("Termination", "adjudication").unwrap();
        let mut out = String::new();
        write_game(&mut out, &tags, &game);
        assert!(out.contains("[Termination \"adjudication\"]\n\n"), "{out}");
    }

    #[test]
    fn black_to_move_first_numbers_with_dots() {
        let game = game_of(
            Some("4k3/8/8/8/8/8/4P3/4K3 b - - 0 7"),
            "Kd7 e4",
            CastlingMode::Standard,
        );
        let text = export(&game);
        assert!(text.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 7\"]\n[SetUp \"1\"]\n"));
        assert!(text.ends_with("\n7... Kd7 8. e4 *\n"));
    }

    #[test]
    fn chess960_adds_the_variant() {
        let game = game_of(None, "", CastlingMode::Chess960);
        assert!(export(&game).contains("[Variant \"Chess960\"]\n\n*\n"));
    }

    #[test]
    fn lines_wrap_before_79_characters() {
        let mut game = Game::default();
        for ply in 0..60 {
            let legal = game.legal_moves();
            if game.status().is_over() {
                break;
            }
            let m = legal.as_slice()[ply * 7 % legal.len()];
            game.play(m);
        }
        let text = export(&game);
        let movetext: Vec<&str> = text.split("\n\n").nth(1).unwrap().lines().collect();
        assert!(movetext.len() > 1);
        for line in &movetext {
            assert!(line.len() <= LINE_WIDTH, "{line}");
            assert!(!line.ends_with(' '));
        }
        // Greedy: the next token would not have fitted.
        let first_next = movetext[1].split(' ').next().unwrap();
        assert!(movetext[0].len() + 1 + first_next.len() > LINE_WIDTH);
    }

    /// Lays out a comment after a move that fills the line up to `column` characters.
    fn wrapped(column: usize, comment: &str) -> String {
        let mut out = String::new();
        let mut text = Movetext::new();
        text.word(&mut out, &"x".repeat(column));
        text.comment(&mut out, comment);
        out
    }

    #[test]
    fn no_comment_word_starting_with_a_bracket_or_percent_starts_a_line() {
        for column in 60..79 {
            let out = wrapped(
                column,
                "see [Event \"x\"] and %escape then [%clk 0:01:02] [%eval -0.35] end",
            );
            for line in out.lines() {
                assert!(!line.starts_with(['[', '%']), "column {column}: {out}");
                for (at, _) in line.match_indices("[%") {
                    assert!(line[at..].contains(']'), "a command split: {out}");
                }
            }
        }
        assert_eq!(
            wrapped(74, "[%clk 0:01:02]"),
            format!("{}\n{{ [%clk 0:01:02] }}", "x".repeat(74))
        );
    }

    #[test]
    fn a_line_comment_ends_its_line() {
        let mut out = String::new();
        let start = Position::startpos();
        let mut text = Movetext::new();
        text.play(&mut out, &start, "e4");
        text.line_comment(&mut out, " x } y\tz");
        text.result(&mut out, Outcome::Unknown);
        assert_eq!(out, "1. e4 ; x } y z\n*\n");
    }

    #[test]
    fn comments_and_variations_renumber_black() {
        let mut out = String::new();
        let start = Position::startpos();
        let after_e4 = start.after(start.parse_san("e4").unwrap());
        let mut text = Movetext::new();
        text.play(&mut out, &start, "e4");
        text.comment(&mut out, "main\n line");
        text.play(&mut out, &after_e4, "e5");
        text.begin_variation(&mut out);
        text.play(&mut out, &after_e4, "c5");
        text.end_variation(&mut out);
        text.nag(&mut out, 1);
        text.result(&mut out, Outcome::Unknown);
        assert_eq!(out, "1. e4 { main line } 1... e5 ( 1... c5 ) $1 *\n");
    }
}
