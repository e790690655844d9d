//! Command lines parsed into typed commands, before anything is executed.

use crate::color::Color;
use crate::excerpt::Excerpt;
use crate::role::Role;
use crate::square::Square;
use crate::uci::{ParseUciError, UciMove};

use super::error::ProtocolError;
use super::help::{self, Topic};

/// The deepest perft the protocol runs. Perft 10 from the start position is about
/// 7 * 10^13 nodes, days of work at a few hundred million nodes a second; a deeper
/// request could never answer (it could only be stopped).
pub const MAX_PERFT_DEPTH: u32 = 10;

/// Where `position` starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    StartPos,
    /// The FEN's fields, joined by single spaces.
    Fen(String),
    /// Game `game` (counted from 1) of a PGN file.
    Pgn {
        path: String,
        game: usize,
    },
}

pub use super::offers::OfferStep;

/// One protocol command with its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command<'a> {
    Uci,
    IsReady,
    UciNewGame,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Position {
        start: Start,
        /// `chess960` after the start: this game is Chess960 whatever the option says.
        chess960: bool,
        /// The moves' texts, separated by blanks as the line has them: read one by
        /// one as they are played, never gathered (a server sends the whole game with
        /// every request).
        moves: &'a str,
    },
    Display,
    GoPerft(u32),
    Perft(u32),
    /// `moves [<square>] [verbose [fen]]`.
    Moves {
        from: Option<Square>,
        verbose: bool,
        fen: bool,
    },
    Dests,
    Legal(&'a str),
    Check,
    Turn,
    Fen,
    Status,
    /// The game's opening, as the opening table names it.
    Opening,
    Move(&'a str),
    /// `move <move> as white|black`: a move that only the seat named may make.
    MoveAs(&'a str, Color),
    Undo,
    History,
    Resign(Option<Color>),
    Draw,
    /// `draw offer|accept|decline <colour>`: one step of a draw both sides agree to.
    Offer(OfferStep, Color),
    /// `takeback offer|accept|decline <colour>`: one step of a takeback of the
    /// proposer's last move, which both sides agree to.
    Takeback(OfferStep, Color),
    /// `timeout <colour>`: that side's flag fell.
    Timeout(Color),
    /// `abort`: the game ends without a result.
    Abort,
    Claim,
    San(&'a str),
    /// Sets a tag to the rest of the line, or with no value removes it.
    Tag {
        name: &'a str,
        value: Option<&'a str>,
    },
    Pgn,
    /// `pgn save <path>`: the path is the rest of the line, blanks kept.
    PgnSave(&'a str),
    /// The game whole, as one JSON object.
    State,
    /// `restore <JSON object>`: the game made again from what `state` wrote (the rest
    /// of the line, read when executed).
    Restore(&'a str),
    /// The game's version.
    Version,
    /// The open named games.
    Games,
    /// Closes the named game the line is for.
    Close,
    Help,
    HelpOn(&'static Topic),
    /// Ends a running perft; nothing otherwise.
    Stop,
    Quit,
}

/// The command keywords, for help and completion: those of the help topics, in the
/// order of the `help` list, so a command has help exactly when it completes.
pub const KEYWORDS: [&str; help::TOPICS.len()] = {
    let mut keywords = [""; help::TOPICS.len()];
    let mut i = 0;
    while i < keywords.len() {
        keywords[i] = help::TOPICS[i].keyword;
        i += 1;
    }
    keywords
};

impl<'a> Command<'a> {
    /// The keyword of a command that acts on the process rather than on a game: the
    /// protocol's handshake, the options, the list of games, help, and the ends of work
    /// and of input. A line naming a game, or carrying `if`, cannot hold one.
    pub fn process_wide(&self) -> Option<&'static str> {
        match self {
            Command::Uci => Some("uci"),
            Command::IsReady => Some("isready"),
            Command::SetOption { .. } => Some("setoption"),
            Command::Games => Some("games"),
            Command::Help | Command::HelpOn(_) => Some("help"),
            Command::Stop => Some("stop"),
            Command::Quit => Some("quit"),
            _ => None,
        }
    }

    /// The command's name, when safe mode refuses it: it touches files or runs work
    /// without a bound.
    pub fn unsafe_keyword(&self) -> Option<&'static str> {
        match self {
            Command::Position {
                start: Start::Pgn { .. },
                ..
            } => Some("position pgn"),
            Command::PgnSave(_) => Some("pgn save"),
            Command::GoPerft(_) => Some("go perft"),
            Command::Perft(_) => Some("perft"),
            _ => None,
        }
    }

    /// Parses a line; `None` for a blank line or a `#` comment.
    pub fn parse(line: &'a str) -> Result<Option<Command<'a>>, ProtocolError> {
        // The two lines a client sends after every move, as clients write them, skip
        // the splitting into words; anything else, spaced otherwise, goes the long way
        // to the same command.
        if line == "status" {
            return Ok(Some(Command::Status));
        }
        if let Some(text) = line.strip_prefix("move ") {
            if !text.is_empty() && text.bytes().all(|b| b.is_ascii_graphic()) {
                return Ok(Some(Command::Move(text)));
            }
        }
        // A game sent whole with a request: its moves are not split into words here.
        if let Some(moves) = line.strip_prefix("position startpos moves ") {
            return Ok(Some(Command::Position {
                start: Start::StartPos,
                chess960: false,
                moves,
            }));
        }
        let mut tokens = words(line);
        let Some(keyword) = tokens.next() else {
            return Ok(None);
        };
        if keyword.starts_with('#') {
            return Ok(None);
        }
        // Most commands have a word or two: those stay off the heap (clients send a
        // command per move); a `position ... moves` line goes to a `Vec`.
        let mut few = [""; 4];
        let mut count = 0;
        let mut many: Vec<&'a str> = Vec::new();
        for token in tokens {
            if count < few.len() {
                few[count] = token;
            } else {
                if many.is_empty() {
                    many.extend_from_slice(&few);
                }
                many.push(token);
            }
            count += 1;
        }
        let args: &[&'a str] = if many.is_empty() {
            &few[..count]
        } else {
            &many
        };
        let command =
            match keyword {
                "uci" => no_args(keyword, args, Command::Uci)?,
                "isready" => no_args(keyword, args, Command::IsReady)?,
                "ucinewgame" => no_args(keyword, args, Command::UciNewGame)?,
                "setoption" => parse_setoption(args)?,
                "position" => parse_position(line, args)?,
                "d" => no_args(keyword, args, Command::Display)?,
                "go" => match args {
                    ["perft", depth] => Command::GoPerft(parse_depth(depth)?),
                    ["perft"] | ["perft", ..] => {
                        return Err(ProtocolError::BadArgument(
                            "go perft takes one depth".to_string(),
                        ))
                    }
                    _ => {
                        return Err(ProtocolError::BadArgument(
                            "only go perft <depth> is supported".to_string(),
                        ))
                    }
                },
                "perft" => match args {
                    [depth] => Command::Perft(parse_depth(depth)?),
                    _ => {
                        return Err(ProtocolError::BadArgument(
                            "perft takes one depth".to_string(),
                        ))
                    }
                },
                "moves" => parse_moves(args)?,
                "dests" => no_args(keyword, args, Command::Dests)?,
                "legal" => Command::Legal(one_move(keyword, args)?),
                "check" => no_args(keyword, args, Command::Check)?,
                "turn" => no_args(keyword, args, Command::Turn)?,
                "fen" => no_args(keyword, args, Command::Fen)?,
                "status" => no_args(keyword, args, Command::Status)?,
                "opening" => no_args(keyword, args, Command::Opening)?,
                "move" => match args {
                    [text, "as", seat] => Command::MoveAs(text, parse_color("move ... as", seat)?),
                    _ => Command::Move(one_move(keyword, args)?),
                },
                "undo" => no_args(keyword, args, Command::Undo)?,
                "history" => no_args(keyword, args, Command::History)?,
                "resign" => match args {
                    [] => Command::Resign(None),
                    ["white"] => Command::Resign(Some(Color::White)),
                    ["black"] => Command::Resign(Some(Color::Black)),
                    _ => {
                        return Err(ProtocolError::BadArgument(
                            "resign takes white, black or nothing (the side to move)".to_string(),
                        ))
                    }
                },
                "draw" => match offer_step(args) {
                    Some(step) => Command::Offer(step, offer_side(keyword, step, args)?),
                    None => no_args(keyword, args, Command::Draw)?,
                },
                "takeback" => match offer_step(args) {
                    Some(step) => Command::Takeback(step, offer_side(keyword, step, args)?),
                    None => return Err(ProtocolError::BadArgument(
                        "takeback takes offer, accept or decline, then the side: white or black"
                            .to_string(),
                    )),
                },
                "timeout" => match args {
                    [color] => Command::Timeout(parse_color(keyword, color)?),
                    _ => {
                        return Err(ProtocolError::BadArgument(
                            "timeout takes the side whose flag fell: white or black".to_string(),
                        ))
                    }
                },
                "abort" => no_args(keyword, args, Command::Abort)?,
                "claim" => no_args(keyword, args, Command::Claim)?,
                "san" => Command::San(one_move(keyword, args)?),
                "tag" => parse_tag(line)?,
                "pgn" => match args {
                    ["save", first, ..] => Command::PgnSave(tail_from(line, first)),
                    ["save"] => {
                        return Err(ProtocolError::BadArgument(
                            "pgn save takes the path of the file to write".to_string(),
                        ))
                    }
                    _ => no_args(keyword, args, Command::Pgn)?,
                },
                "version" => no_args(keyword, args, Command::Version)?,
                "state" => no_args(keyword, args, Command::State)?,
                "restore" => match args.first() {
                    Some(first) => Command::Restore(tail_from(line, first)),
                    None => {
                        return Err(ProtocolError::BadArgument(
                            "restore takes a JSON object, as state writes it".to_string(),
                        ))
                    }
                },
                "games" => no_args(keyword, args, Command::Games)?,
                "close" => no_args(keyword, args, Command::Close)?,
                "help" => match args {
                    [name] => match help::topic(name) {
                        Some(topic) => Command::HelpOn(topic),
                        None => return Err(ProtocolError::BadArgument(unknown_topic(name))),
                    },
                    [_, _, ..] => {
                        return Err(ProtocolError::BadArgument(
                            "help takes at most one command name".to_string(),
                        ))
                    }
                    [] => Command::Help,
                },
                "stop" => no_args(keyword, args, Command::Stop)?,
                "quit" => no_args(keyword, args, Command::Quit)?,
                _ => return Err(ProtocolError::UnknownCommand(keyword.to_string())),
            };
        Ok(Some(command))
    }
}

/// The words of a line, as `str::split_whitespace` splits them, without decoding
/// characters when the line is ASCII (as command lines are): clients send a command
/// per move.
pub(crate) fn words(line: &str) -> Words<'_> {
    if line.is_ascii() {
        Words::Ascii(line)
    } else {
        Words::Other(line.split_whitespace())
    }
}

pub(crate) enum Words<'a> {
    /// What is left of an ASCII line.
    Ascii(&'a str),
    Other(std::str::SplitWhitespace<'a>),
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        match self {
            Words::Other(words) => words.next(),
            Words::Ascii(rest) => {
                // In ASCII, the Unicode blanks are space and tab to carriage return.
                let blank = |b: &u8| *b == b' ' || (b'\t'..=b'\r').contains(b);
                let bytes = rest.as_bytes();
                let start = bytes.iter().position(|b| !blank(b))?;
                let len = bytes[start..]
                    .iter()
                    .position(blank)
                    .unwrap_or(bytes.len() - start);
                // Byte offsets of an ASCII line are character boundaries.
                let word = rest.get(start..start + len)?;
                *rest = rest.get(start + len..).unwrap_or("");
                Some(word)
            }
        }
    }
}

/// The words of a list of moves, each with what it reads as a UCI move, exactly as
/// `words` and `UciMove::from_str` would give them. `position ... moves` sends about
/// eighty words a line, nearly all lower-case `e2e4` after one space: those are read in
/// one step from their bytes, the rest word by word.
pub(crate) fn move_words(line: &str) -> MoveWords<'_> {
    MoveWords { words: words(line) }
}

pub(crate) struct MoveWords<'a> {
    words: Words<'a>,
}

impl<'a> Iterator for MoveWords<'a> {
    type Item = (&'a str, Result<UciMove, ParseUciError>);

    fn next(&mut self) -> Option<Self::Item> {
        if let Words::Ascii(rest) = &mut self.words {
            if let Some((start, len, uci)) = plain_uci(rest.as_bytes()) {
                // Byte offsets of an ASCII line are character boundaries.
                if let Some(word) = rest.get(start..start + len) {
                    *rest = rest.get(start + len..).unwrap_or("");
                    return Some((word, Ok(uci)));
                }
            }
        }
        let word = self.words.next()?;
        Some((word, word.parse()))
    }
}

/// A lower-case UCI move at the head of `bytes`, after one space at most, and ending
/// at a blank or at the end: its offset, its length and the move. Upper case, a
/// promotion to a king or a pawn, and anything else are left to the word-by-word
/// reading, which gives the same answer for these too.
// Forced: part of the play path (see the note on `Game`).
#[inline(always)]
fn plain_uci(bytes: &[u8]) -> Option<(usize, usize, UciMove)> {
    let start = usize::from(bytes.first() == Some(&b' '));
    let word = bytes.get(start..)?;
    let [from_file @ b'a'..=b'h', from_rank @ b'1'..=b'8', to_file @ b'a'..=b'h', to_rank @ b'1'..=b'8', after @ ..] =
        word
    else {
        return None;
    };
    // Both squares are known good: each is worked out, not checked again.
    let square = |file: u8, rank: u8| {
        Square::from_index_wrapping(u32::from(rank - b'1') * 8 + u32::from(file - b'a'))
    };
    let blank = |b: Option<&u8>| b.is_none_or(|b| *b == b' ' || (b'\t'..=b'\r').contains(b));
    let (len, promotion) = match after.first() {
        Some(p @ (b'q' | b'r' | b'b' | b'n')) if blank(after.get(1)) => {
            (5, Role::from_char(char::from(*p)))
        }
        next if blank(next) => (4, None),
        _ => return None,
    };
    Some((
        start,
        len,
        UciMove {
            from: square(*from_file, *from_rank),
            to: square(*to_file, *to_rank),
            promotion,
        },
    ))
}

/// Why `help <name>` has no help to give: a keyword in the wrong case, or no command.
fn unknown_topic(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    match help::topic(&lower) {
        Some(topic) => format!(
            "'{}' is not a command: commands are lower-case (help {})",
            Excerpt(name),
            topic.keyword
        ),
        None => format!("'{}' is not a command (help lists them)", Excerpt(name)),
    }
}

fn no_args<'a>(
    keyword: &str,
    args: &[&str],
    command: Command<'a>,
) -> Result<Command<'a>, ProtocolError> {
    match args.first() {
        None => Ok(command),
        Some(extra) => Err(ProtocolError::BadArgument(format!(
            "{keyword} takes no arguments, found '{}'",
            Excerpt(extra)
        ))),
    }
}

fn one_move<'a>(keyword: &str, args: &[&'a str]) -> Result<&'a str, ProtocolError> {
    match args {
        [text] => Ok(text),
        [] => Err(ProtocolError::BadArgument(format!(
            "{keyword} takes a move, like e2e4 or Nf3"
        ))),
        _ => Err(ProtocolError::BadArgument(format!(
            "{keyword} takes one move, found {}",
            args.len()
        ))),
    }
}

/// The step an offer command's first word names, if it names one.
fn offer_step(args: &[&str]) -> Option<OfferStep> {
    match args.first() {
        Some(&"offer") => Some(OfferStep::Offer),
        Some(&"accept") => Some(OfferStep::Accept),
        Some(&"decline") => Some(OfferStep::Decline),
        _ => None,
    }
}

/// The side of `<keyword> <step> <side>`.
fn offer_side(keyword: &str, step: OfferStep, args: &[&str]) -> Result<Color, ProtocolError> {
    let what = format!("{keyword} {}", step.name());
    match args {
        [_, color] => parse_color(&what, color),
        _ => Err(ProtocolError::BadArgument(format!(
            "{what} takes the side: white or black"
        ))),
    }
}

fn parse_color(what: &str, text: &str) -> Result<Color, ProtocolError> {
    match text {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        _ => Err(ProtocolError::BadArgument(format!(
            "{what} takes white or black, not '{text}'"
        ))),
    }
}

fn parse_moves(args: &[&str]) -> Result<Command<'static>, ProtocolError> {
    let (from, rest) = match args.split_first() {
        Some((first, rest)) if *first != "verbose" => (Some(parse_square(first)?), rest),
        _ => (None, args),
    };
    let (verbose, fen) = match rest {
        [] => (false, false),
        ["verbose"] => (true, false),
        ["verbose", "fen"] => (true, true),
        _ => {
            return Err(ProtocolError::BadArgument(
                "moves takes [<square>] [verbose [fen]]".to_string(),
            ))
        }
    };
    Ok(Command::Moves { from, verbose, fen })
}

fn parse_square(text: &str) -> Result<Square, ProtocolError> {
    Square::parse(text).ok_or_else(|| {
        ProtocolError::BadArgument(format!("'{}' is not a square like e2", Excerpt(text)))
    })
}

fn parse_depth(text: &str) -> Result<u32, ProtocolError> {
    let depth: u32 = text.parse().map_err(|_| {
        ProtocolError::BadArgument(format!("depth '{}' is not a whole number", Excerpt(text)))
    })?;
    if depth > MAX_PERFT_DEPTH {
        return Err(ProtocolError::BadArgument(format!(
            "depth {depth} is beyond the maximum of {MAX_PERFT_DEPTH}"
        )));
    }
    Ok(depth)
}

/// The text of a line from one of its words (a subslice of it) to the line's end,
/// blanks inside kept, trailing blanks dropped.
fn tail_from<'a>(line: &'a str, word: &'a str) -> &'a str {
    let start = offset(line, word);
    line.get(start..).unwrap_or(word).trim_end()
}

/// The text of a line from its first word `words` holds to the end of the last, blanks
/// between them kept as typed.
fn words_span<'a>(line: &'a str, words: &[&'a str]) -> &'a str {
    match words {
        [first, .., last] => {
            let end = offset(line, last) + last.len();
            line.get(offset(line, first)..end).unwrap_or(first)
        }
        [only] => only,
        [] => "",
    }
}

/// Where a word of a line starts in it: words are subslices of the line.
fn offset(line: &str, word: &str) -> usize {
    (word.as_ptr() as usize).saturating_sub(line.as_ptr() as usize)
}

fn parse_position<'a>(line: &'a str, args: &[&'a str]) -> Result<Command<'a>, ProtocolError> {
    let (start, rest) = match args.split_first() {
        Some((&"startpos", rest)) => (Start::StartPos, rest),
        Some((&"pgn", rest)) => {
            // The last word is the game number when it is a number; the path, blanks
            // and all, is the rest.
            let (path, game) = match rest {
                [] => {
                    return Err(ProtocolError::BadArgument(
                        "position pgn takes a file and optionally a game number".to_string(),
                    ))
                }
                [path] => (*path, 1),
                [path @ .., n] if n.bytes().all(|b| b.is_ascii_digit()) => {
                    match n.parse::<usize>() {
                        Ok(n) if n >= 1 => (words_span(line, path), n),
                        _ => {
                            return Err(ProtocolError::BadArgument(format!(
                                "game number '{}' is not a whole number from 1",
                                Excerpt(n)
                            )))
                        }
                    }
                }
                [first, ..] => (tail_from(line, first), 1),
            };
            return Ok(Command::Position {
                start: Start::Pgn {
                    path: path.to_string(),
                    game,
                },
                chess960: false,
                moves: "",
            });
        }
        Some((&"fen", words)) => {
            // The FEN's fields run to `moves`, or to `chess960` (no field is either).
            let fen_len = words
                .iter()
                .position(|&t| t == "moves" || t == CHESS960)
                .unwrap_or(words.len());
            let (fen, rest) = words.split_at(fen_len);
            (Start::Fen(fen.join(" ")), rest)
        }
        _ => {
            return Err(ProtocolError::BadArgument(
                "position takes startpos or fen <FEN>, then optionally moves <move>..., or pgn <file> [<n>]".to_string(),
            ))
        }
    };
    let (chess960, rest) = match rest.split_first() {
        Some((&CHESS960, rest)) => (true, rest),
        _ => (false, rest),
    };
    let moves = match rest.split_first() {
        None => "",
        Some((&"moves", moves)) => words_span(line, moves),
        Some((extra, _)) => {
            return Err(ProtocolError::BadArgument(format!(
                "expected moves after the position, found '{}'",
                Excerpt(extra)
            )))
        }
    };
    Ok(Command::Position {
        start,
        chess960,
        moves,
    })
}

/// The word after a `position` start that makes the game Chess960.
const CHESS960: &str = "chess960";

fn parse_setoption(args: &[&str]) -> Result<Command<'static>, ProtocolError> {
    let Some((&"name", rest)) = args.split_first() else {
        return Err(ProtocolError::BadArgument(
            "setoption takes name <name> [value <value>]".to_string(),
        ));
    };
    let name_len = rest
        .iter()
        .position(|&t| t == "value")
        .unwrap_or(rest.len());
    let (name, value) = rest.split_at(name_len);
    if name.is_empty() {
        return Err(ProtocolError::BadArgument(
            "setoption takes name <name> [value <value>]".to_string(),
        ));
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value: value.split_first().map(|(_, v)| v.join(" ")),
    })
}

/// `tag <Name> [<value...>]`: the value is the rest of the line as typed, blanks
/// between its words kept.
fn parse_tag(line: &str) -> Result<Command<'_>, ProtocolError> {
    let rest = line.trim_start();
    let rest = rest.strip_prefix("tag").unwrap_or(rest).trim_start();
    let name_len = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let (name, value) = rest.split_at(name_len);
    if name.is_empty() {
        return Err(ProtocolError::BadArgument(
            "tag takes a name and a value, or a name alone to remove it".to_string(),
        ));
    }
    let value = value.trim();
    Ok(Command::Tag {
        name,
        value: (!value.is_empty()).then_some(value),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-step reading of plain UCI words splits and reads every list of moves as
    /// `words` and `UciMove::from_str` do, whatever its blanks, case and suffixes.
    #[test]
    fn move_words_read_as_words_and_from_str_do() {
        let pieces: Vec<&str> = concat!(
            "e2e4|a7a8q|h2h1n|e7e8b|e7e8r|e7e8k|e7e8p|e7e8Q|E2E4|B1C3|b1c3|Bb5|e2e4+|",
            "e2e4q+|i2i4|e9e4|e2e|O-O|Nf3|exd5|\u{e9}2e4|| |  |\t|\r\n|\u{a0}|e2e4\u{3000}",
        )
        .split('|')
        .collect();
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut step = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            state
        };
        let mut compared = 0;
        for _ in 0..20_000 {
            let mut line = String::new();
            for _ in 0..step() % 7 {
                let state = step();
                line.push_str(pieces[(state >> 33) as usize % pieces.len()]);
                if state & (1 << 20) != 0 {
                    line.push(' ');
                }
            }
            let expected: Vec<_> = words(&line).map(|w| (w, w.parse::<UciMove>())).collect();
            let found: Vec<_> = move_words(&line).collect();
            assert_eq!(found, expected, "{line:?}");
            compared += found.len();
        }
        assert!(compared > 20_000, "only {compared} words compared");
    }

    #[test]
    fn the_short_ways_give_what_the_long_way_gives() {
        for line in [
            "status",
            "move e2e4",
            "move Nf3+",
            "move O-O-O",
            "move e8=Q#",
        ] {
            let words: Vec<&str> = line.split_whitespace().collect();
            let long = match words.as_slice() {
                ["status"] => Command::Status,
                ["move", text] => Command::Move(text),
                _ => unreachable!(),
            };
            assert_eq!(Command::parse(line), Ok(Some(long)), "{line}");
        }
        // Spaced otherwise, or with more words: the long way, and its errors.
        assert_eq!(Command::parse(" status "), Ok(Some(Command::Status)));
        assert_eq!(Command::parse("move  e4"), Ok(Some(Command::Move("e4"))));
        assert!(Command::parse("move e4 e5").is_err());
        assert!(Command::parse("move ").is_err());
        assert!(Command::parse("status now").is_err());
    }

    #[test]
    fn words_split_as_split_whitespace_does() {
        // Every ASCII byte between two words, and lines beyond ASCII.
        let mut lines: Vec<String> = (0u8..128)
            .map(|b| format!(" move{}e4 {}x", char::from(b), char::from(b)))
            .collect();
        lines.push("move\u{a0}e4\u{2003} é\u{85}x".to_string());
        lines.push("\u{3000}".to_string());
        for line in &lines {
            let expected: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(words(line).collect::<Vec<_>>(), expected, "{line:?}");
        }
    }
}
