//! Reading PGN: the bytes of a game in, a stream of events to a `Visitor` out.
//!
//! The reader knows the syntax only: tag pairs, move numbers, moves, NAGs, comments,
//! variations and the result token. Whether a move is legal is the visitor's business.
//! It works on a byte slice holding at least one whole game and says how many bytes the
//! game took, so a caller can stream a file of any size through a fixed buffer; it never
//! allocates and runs in time linear in its input.
//!
//! What it takes beyond the letter of the standard: a UTF-8 byte-order mark, CRLF line
//! endings, `%` escape lines, `;` comments, move numbers with any count of dots (or none,
//! or glued to the move: `12.e4`), suffix annotations (`!`, `?!`, ...) read as NAGs, a
//! stray `e.p.` token, and games without tags. A game ends at its result token, or where
//! the next game's tags begin.

use std::fmt;

use memchr::{memchr, memchr2, memmem};

use crate::scan;

use super::tags::describe_char;

/// The result token that ends a game's movetext.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    WhiteWins,
    BlackWins,
    Draw,
    /// `*`: unknown, unfinished or abandoned.
    Unknown,
}

impl Outcome {
    /// The token as PGN writes it.
    pub const fn token(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unknown => "*",
        }
    }

    /// The outcome a result token or `Result` tag value names.
    pub fn from_token(text: &[u8]) -> Option<Outcome> {
        match text {
            b"1-0" => Some(Outcome::WhiteWins),
            b"0-1" => Some(Outcome::BlackWins),
            b"1/2-1/2" => Some(Outcome::Draw),
            b"*" => Some(Outcome::Unknown),
            _ => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// Why the bytes of a game are not PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyntaxError {
    /// A `{` comment with no `}` before the end of the input or the next game's tags.
    UnterminatedComment,
    /// A `(` with no `)` before the result token, the input's end or the next game.
    UnterminatedVariation,
    /// A `)` with no variation open.
    UnmatchedParen,
    /// A tag pair that is not `[Name "value"]` on one line.
    BadTag,
    /// A character that PGN movetext does not use.
    UnexpectedChar(char),
    /// A `$` NAG whose number is not 0 to 255 (or is missing): its text.
    NagOutOfRange(String),
    /// A control character (other than a tab) in a tag value: the tag's name and it.
    ControlInTag(String, char),
    /// A control character (other than a tab or a line break) in a comment.
    ControlInComment(char),
    /// A tag pair whose name an earlier pair of the game has already given: its name.
    DuplicateTag(String),
    /// The movetext ends without `1-0`, `0-1`, `1/2-1/2` or `*`.
    MissingResult,
    /// The game is longer than the reader holds at once.
    TooLong(usize),
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxError::UnterminatedComment => f.write_str("a { comment is not closed"),
            SyntaxError::UnterminatedVariation => f.write_str("a ( variation is not closed"),
            SyntaxError::UnmatchedParen => f.write_str("a ) closes no variation"),
            SyntaxError::BadTag => f.write_str("a tag pair is not [Name \"value\"] on one line"),
            SyntaxError::UnexpectedChar(c) => {
                write!(f, "'{}' has no place in movetext", c.escape_default())
            }
            SyntaxError::NagOutOfRange(text) => {
                write!(f, "the NAG '{text}' is out of the range $0-$255")
            }
            SyntaxError::ControlInTag(name, c) => write!(
                f,
                "the {name} tag holds the control character {}, which PGN does not allow",
                describe_char(*c)
            ),
            SyntaxError::ControlInComment(c) => write!(
                f,
                "a comment holds the control character {}, which PGN does not allow",
                describe_char(*c)
            ),
            SyntaxError::DuplicateTag(name) => {
                write!(
                    f,
                    "the {name} tag is given twice (a tag pair may appear once)"
                )
            }
            SyntaxError::MissingResult => {
                f.write_str("the movetext ends without a result token (1-0, 0-1, 1/2-1/2 or *)")
            }
            SyntaxError::TooLong(limit) => write!(f, "the game is longer than {limit} bytes"),
        }
    }
}

impl std::error::Error for SyntaxError {}

/// What a caller hears while a game is read. Byte slices borrow the input; tag values
/// come with their escapes still in (see `unescape`).
pub trait Visitor {
    /// A new game starts (also when a game is read again after more input arrived).
    fn begin_game(&mut self) {}
    fn tag(&mut self, _name: &[u8], _value: &[u8]) {}
    /// A tag pair whose raw value the reader has already seen to be printable ASCII
    /// (nearly every one, told while looking for its closing quote).
    fn plain_tag(&mut self, name: &[u8], value: &[u8]) {
        self.tag(name, value);
    }
    /// The tags are over; the movetext begins.
    fn begin_movetext(&mut self) {}
    /// Whether the movetext just begun is only to be read past (its game is not
    /// wanted): the reader then skims it, telling the visitor nothing but how it ends,
    /// for as long as it is plain (moves, move numbers, one-line comments).
    fn skims(&self) -> bool {
        false
    }
    /// A move token, without move number and without `!`/`?` suffixes.
    fn san(&mut self, _san: &[u8]) {}
    /// `--` or `Z0`.
    fn null_move(&mut self, _text: &[u8]) {}
    /// A numeric annotation glyph, `$14` or a suffix such as `!?` (5).
    fn nag(&mut self, _nag: u8) {}
    /// A `{}` comment's text, without its delimiters.
    fn comment(&mut self, _text: &[u8]) {}
    /// A `{}` comment whose text the reader has already seen to be printable ASCII
    /// only (nearly every one, told while looking for its end).
    fn plain_comment(&mut self, text: &[u8]) {
        self.comment(text);
    }
    /// A `;` comment's text, without the `;` and the line break that ends it.
    fn line_comment(&mut self, text: &[u8]) {
        self.comment(text);
    }
    fn begin_variation(&mut self) {}
    fn end_variation(&mut self) {}
    /// The result token.
    fn outcome(&mut self, _outcome: Outcome) {}
    /// The game is over: `None` when its syntax was right.
    fn end_game(&mut self, _error: Option<&SyntaxError>) {}
}

/// A visitor that keeps nothing: for skipping games.
pub struct Skip;

impl Visitor for Skip {}

/// How far one `read_game` call got: a game read whole or up to its syntax error, or
/// why none was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameRead {
    /// A game was read (the visitor has had `end_game`); it took this many bytes.
    Game(usize),
    /// A game was read up to a syntax error (the visitor has had `end_game` with it);
    /// its rest is not known: skip to the next game with `resync`.
    Broken(usize),
    /// The input ends inside a game; call again with more (only when not at the end).
    NeedMore,
    /// Nothing but blanks and comments is left (only at the end of the input).
    End,
}

/// The byte-order mark some editors put before UTF-8 text.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// How far past a line that starts `[Event ` inside a `{` comment the reader looks for
/// the comment's `}`.
pub const LOOKAHEAD: usize = 64 * 1024;

/// Whether a `{` comment that has come to a line starting `[Event ` (the start of
/// `after`) goes on past it: a comment ends at its first `}`, so it does when a `}`
/// comes before any `{` within `LOOKAHEAD` bytes. When it does not, the comment was
/// never closed, and the next game starts at that line rather than be swallowed.
/// `None`: the input ends too soon to tell (and is not at its end).
pub fn comment_goes_on(after: &[u8], at_end: bool) -> Option<bool> {
    let span = &after[..after.len().min(LOOKAHEAD)];
    match memchr2(b'{', b'}', span) {
        Some(i) => Some(span[i] == b'}'),
        None if at_end || after.len() >= LOOKAHEAD => Some(false),
        None => None,
    }
}

/// The start of the last line of `text` that begins `[Event ` where a game begins
/// whatever came before: right after a result token (`ends_in_result`), outside a
/// comment, or inside one that `comment_goes_on` says does not go on past it (which
/// must be able to tell without more input). An `[Event ` line after other tags is no
/// such line: it belongs to the tag section those tags began. Linear in the length of
/// `text`.
pub fn last_game_start(text: &[u8]) -> Option<usize> {
    let mut end = text.len();
    // The first brace at or after the line looked at last.
    let mut brace = None;
    while let Some(nl) = memmem::rfind(&text[..end], b"\n[Event ") {
        let line = nl + 1;
        if let Some(i) = memchr2(b'{', b'}', &text[line..end]) {
            brace = Some(line + i);
        }
        let starts = match brace {
            Some(at) if at - line < LOOKAHEAD => text[at] == b'{',
            _ => text.len() - line >= LOOKAHEAD,
        };
        if starts && ends_in_result(&text[..nl]) {
            return Some(line);
        }
        end = nl;
    }
    None
}

/// Whether the last line of `text` that is not blank ends in a result token, a word
/// of its own: a game's movetext ends there, so whatever follows begins the next
/// game. A line that opens a tag, an escape (`%`) or a `;` comment, which the reader
/// may take otherwise, never does.
fn ends_in_result(text: &[u8]) -> bool {
    let text = text.trim_ascii_end();
    let line = &text[text
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |nl| nl + 1)..];
    if line.starts_with(b"[") || line.starts_with(b"%") || memchr(b';', line).is_some() {
        return false;
    }
    line.rsplit(u8::is_ascii_whitespace)
        .next()
        .is_some_and(|token| Outcome::from_token(token).is_some())
}

/// Where the next game seems to start after a syntax error: a `[` at the start of a
/// line that follows a blank line or opens an `Event` tag. `None` when there is none.
pub fn resync(input: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = memchr(b'\n', &input[from..]) {
        let nl = from + i;
        if input.get(nl + 1) == Some(&b'[') {
            let before = &input[..nl];
            let before = before.strip_suffix(b"\r").unwrap_or(before);
            if input[nl + 1..].starts_with(b"[Event ") || before.ends_with(b"\n") {
                return Some(nl + 1);
            }
        }
        from = nl + 1;
    }
    None
}

/// Reads the next game of `input` (which must start where the previous game ended).
/// `at_end` says that no more input will follow.
///
/// Inlined, down to the loop over moves: a caller that loops over games and owns the
/// visitor (the database's `work`) then reaches the visitor's position at fixed places
/// in its frame, not through a pointer that it keeps spilling (docs/performance.md).
// Forced: --pgn 13% more instructions without its path's forced inlines.
#[inline(always)]
pub fn read_game<V: Visitor>(input: &[u8], at_end: bool, visitor: &mut V) -> GameRead {
    Reader {
        input,
        at: 0,
        at_end,
    }
    .game(visitor)
}

/// Bytes that may form a symbol token: move, move number, result.
const fn symbol_table() -> [bool; 256] {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric()
            || matches!(
                c,
                b'_' | b'+' | b'#' | b'=' | b':' | b'-' | b'/' | b'!' | b'?' | b'.'
            )
            || c >= 0x80;
        b += 1;
    }
    table
}

static SYMBOL: [bool; 256] = symbol_table();

/// The bytes of a tag's name: letters, digits and `_`. A table, one load a byte.
static NAME: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'_';
        b += 1;
    }
    table
};

/// The blanks between tokens. A table rather than a `match`, which the compiler would
/// fold with the token dispatch into one jump table taken at every byte.
static BLANK: [bool; 256] = {
    let mut table = [false; 256];
    table[b' ' as usize] = true;
    table[b'\n' as usize] = true;
    table[b'\r' as usize] = true;
    table[b'\t' as usize] = true;
    table
};

/// What `quick_symbol` read.
enum Quick {
    /// A move or a move number, and the single space between it and the next token.
    Joined,
    /// A move or a move number.
    Read,
    /// Nothing: the token is left to `symbol_token`.
    Slow,
}

/// The bytes that may begin a move without a suffix (`a`-`h` and the piece and
/// castling letters), with `MOVE_FIRST`; a move number (`1`-`9`), with `NUMBER_FIRST`;
/// and those that end a suffix (`!`, `?`) or a move number (`.`), with `SUFFIX`. One
/// load a test, where a `match` on the byte would compile to range tests and a jump
/// table.
const MOVE_FIRST: u8 = 1;
const NUMBER_FIRST: u8 = 2;
const SUFFIX: u8 = 4;
static TOKEN_CLASS: [u8; 256] = {
    let mut table = [0; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = match c {
            b'a'..=b'h' | b'B' | b'K' | b'N' | b'O' | b'Q' | b'R' => MOVE_FIRST,
            b'1'..=b'9' => NUMBER_FIRST,
            b'!' | b'?' | b'.' => SUFFIX,
            _ => 0,
        };
        b += 1;
    }
    table
};

/// What the reader is inside.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    /// Nothing yet but blanks and comments.
    Start,
    Tags,
    Movetext,
}

/// How reading one token went.
enum TokenRead {
    Go,
    /// The game ended; its length.
    Done(usize),
    Need,
    Fail(SyntaxError),
}

struct Reader<'a> {
    input: &'a [u8],
    at: usize,
    at_end: bool,
}

impl Reader<'_> {
    // This, `token` and `moves` inline: see `read_game`.
    // Forced: --pgn 13% more instructions without its path's forced inlines.
    #[inline(always)]
    fn game<V: Visitor>(&mut self, v: &mut V) -> GameRead {
        if self.input.starts_with(BOM) {
            self.at = BOM.len();
        }
        v.begin_game();
        let mut section = Section::Start;
        let mut depth = 0u32;
        loop {
            self.at = past_blanks(self.input, self.at);
            let flow = self.token(v, &mut section, &mut depth);
            match flow {
                TokenRead::Go => {}
                TokenRead::Done(len) => return GameRead::Game(len),
                TokenRead::Need => return GameRead::NeedMore,
                TokenRead::Fail(error) => {
                    v.end_game(Some(&error));
                    return GameRead::Broken(self.at);
                }
            }
            if self.at >= self.input.len() {
                if !self.at_end {
                    return GameRead::NeedMore;
                }
                if section == Section::Start {
                    return GameRead::End;
                }
                let error = if depth > 0 {
                    SyntaxError::UnterminatedVariation
                } else {
                    SyntaxError::MissingResult
                };
                v.end_game(Some(&error));
                return GameRead::Game(self.at);
            }
        }
    }

    /// Ends the game where the next one's tags begin, at `self.at`.
    fn end_before_next<V: Visitor>(&self, v: &mut V, depth: u32) -> TokenRead {
        let error = if depth > 0 {
            SyntaxError::UnterminatedVariation
        } else {
            SyntaxError::MissingResult
        };
        v.end_game(Some(&error));
        TokenRead::Done(self.at)
    }

    fn at_line_start(&self) -> bool {
        self.at == 0 || self.input[self.at - 1] == b'\n' || self.input[..self.at] == *BOM
    }

    /// The offset of the next `\n` from `from`, or the input's end.
    fn line_end(&self, from: usize) -> Option<usize> {
        scan::find1(b'\n', &self.input[from..]).map(|i| from + i)
    }

    // Forced: --pgn 13% more instructions without its path's forced inlines.
    #[inline(always)]
    fn token<V: Visitor>(
        &mut self,
        v: &mut V,
        section: &mut Section,
        depth: &mut u32,
    ) -> TokenRead {
        let input = self.input;
        let Some(&byte) = input.get(self.at) else {
            return TokenRead::Go;
        };
        // Moves, move numbers and comments are nearly every token: they are tested for
        // first, with branches that the token before predicts well.
        if SYMBOL[usize::from(byte)] && *section == Section::Movetext {
            return self.moves(v, *depth);
        }
        if byte == b'{' {
            return self.brace_comment(v);
        }
        match byte {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => {
                self.at += 1;
                TokenRead::Go
            }
            b'%' if self.at_line_start() => match self.line_end(self.at) {
                Some(end) => {
                    self.at = end + 1;
                    TokenRead::Go
                }
                None if self.at_end => {
                    self.at = input.len();
                    TokenRead::Go
                }
                None => TokenRead::Need,
            },
            b';' => match self.line_end(self.at) {
                Some(end) => {
                    let text = &input[self.at + 1..end];
                    v.line_comment(text.strip_suffix(b"\r").unwrap_or(text));
                    self.at = end + 1;
                    TokenRead::Go
                }
                None if self.at_end => {
                    v.line_comment(&input[self.at + 1..]);
                    self.at = input.len();
                    TokenRead::Go
                }
                None => TokenRead::Need,
            },
            b'{' => self.brace_comment(v),
            // A byte-order mark before a game, not only at the input's start: files
            // saved with one and joined by `cat` carry one before each of their games.
            0xef if *section == Section::Start && BOM.starts_with(rest_prefix(input, self.at)) => {
                if input.len() - self.at < BOM.len() {
                    if !self.at_end {
                        return TokenRead::Need;
                    }
                } else {
                    self.at += BOM.len();
                    return TokenRead::Go;
                }
                *section = Section::Movetext;
                v.begin_movetext();
                self.movetext(v, byte, depth)
            }
            b'[' => {
                // The next game's tags come only after movetext: a tag section holds
                // its tags in any order, an Event tag anywhere among them.
                if *section == Section::Movetext {
                    return self.end_before_next(v, *depth);
                }
                *section = Section::Tags;
                self.tag(v)
            }
            _ => {
                if *section != Section::Movetext {
                    *section = Section::Movetext;
                    v.begin_movetext();
                    if v.skims() {
                        if let Some(flow) = self.skim(v) {
                            return flow;
                        }
                        return TokenRead::Go;
                    }
                }
                self.movetext(v, byte, depth)
            }
        }
    }

    /// Reads past a movetext nobody replays, from its first token: moves and move
    /// numbers are checked as `symbol` checks them but not told, one-line comments are
    /// jumped over, and the game ends at its result token as it would when read. At
    /// anything else (a variation, a NAG, a comment over several lines, a bad token,
    /// the end of the input so far) it stops before it, `None`, and the token loop
    /// reads on from there: the game ends where a full reading ends it.
    #[inline(never)]
    fn skim<V: Visitor>(&mut self, v: &mut V) -> Option<TokenRead> {
        if let Some(end) = jump(&self.input[self.at..]) {
            let (token, len) = end;
            self.at += len;
            v.outcome(token);
            v.end_game(None);
            return Some(TokenRead::Done(self.at));
        }
        let input = self.input;
        loop {
            let at = past_blanks(input, self.at);
            self.at = at;
            let &byte = input.get(at)?;
            if byte == b'{' {
                let body = at + 1;
                match memchr2(b'}', b'\n', &input[body..]) {
                    Some(i) if input[body + i] == b'}' => {
                        self.at = body + i + 1;
                        continue;
                    }
                    _ => return None,
                }
            }
            if !SYMBOL[usize::from(byte)] {
                return None;
            }
            let len = input[at..]
                .iter()
                .take_while(|&&b| SYMBOL[usize::from(b)])
                .count();
            if at + len == input.len() {
                return None;
            }
            let symbol = &input[at..at + len];
            if let Some(outcome) = Outcome::from_token(symbol) {
                self.at = at + len;
                v.outcome(outcome);
                v.end_game(None);
                return Some(TokenRead::Done(self.at));
            }
            // Checked as a full reading checks it, and told to nobody.
            let mut skip = Skip;
            match self.symbol(&mut skip, symbol, 0) {
                TokenRead::Go => self.at = at + len,
                _ => {
                    self.at = at;
                    return None;
                }
            }
        }
    }

    fn brace_comment<V: Visitor>(&mut self, v: &mut V) -> TokenRead {
        let input = self.input;
        let body = self.at + 1;
        // Most comments close on their line; only one that goes on past a line break
        // is searched for a line starting with an Event tag, which ends a comment
        // never closed (see `comment_goes_on`) rather than let it swallow every game
        // after it.
        let (first, plain) = scan::find2_plain(b'}', b'\n', &input[body..]);
        if let (Some(i), true) = (first, plain) {
            if input[body + i] == b'}' {
                v.plain_comment(&input[body..body + i]);
                self.at = body + i + 1;
                return TokenRead::Go;
            }
        }
        let mut from = body;
        let close = loop {
            match scan::find2(b'}', b'\n', &input[from..]) {
                Some(i) if input[from + i] == b'}' => break Some(from + i),
                Some(i) => {
                    let nl = from + i;
                    if input[nl + 1..].starts_with(b"[Event ") {
                        match comment_goes_on(&input[nl + 1..], self.at_end) {
                            Some(true) => {}
                            Some(false) => {
                                self.at = nl + 1;
                                v.end_game(Some(&SyntaxError::UnterminatedComment));
                                return TokenRead::Done(self.at);
                            }
                            None => return TokenRead::Need,
                        }
                    }
                    if nl + 1 + 7 > input.len() && !self.at_end {
                        return TokenRead::Need;
                    }
                    from = nl + 1;
                }
                None => break None,
            }
        };
        match close {
            Some(close) => {
                v.comment(&input[body..close]);
                self.at = close + 1;
                TokenRead::Go
            }
            None if self.at_end => {
                self.at = input.len();
                v.end_game(Some(&SyntaxError::UnterminatedComment));
                TokenRead::Done(self.at)
            }
            None => TokenRead::Need,
        }
    }

    fn tag<V: Visitor>(&mut self, v: &mut V) -> TokenRead {
        let input = self.input;
        // Nearly every tag pair is a plain value on one line: read at once, without
        // looking for the line's end first. A value seen to be printable ASCII holds no
        // line break, so the pair is the one the line-by-line reading below would find.
        // The line must end, as below: a pair cut off at the input's end is refused.
        // The pairs of a tag section follow one another a line each: the next one is
        // read here at once, where the token loop would find it after its blanks.
        let mut read = false;
        while let Some((name, value, after)) = plain_tag(&input[self.at + 1..])
            .filter(|(_, _, after)| after.first() == Some(&b'\n') || memchr(b'\n', after).is_some())
        {
            v.plain_tag(name, value);
            self.at = input.len() - after.len();
            read = true;
            match after {
                [b'\n', b'[', ..] => self.at += 1,
                _ => return TokenRead::Go,
            }
        }
        if read {
            return TokenRead::Go;
        }
        let Some(end) = self.line_end(self.at) else {
            return if self.at_end {
                self.at = input.len();
                TokenRead::Fail(SyntaxError::BadTag)
            } else {
                TokenRead::Need
            };
        };
        let line = &input[self.at + 1..end];
        let Some((name, value, rest)) = split_tag(line) else {
            self.at = end;
            return TokenRead::Fail(SyntaxError::BadTag);
        };
        v.tag(name, value);
        // Several tag pairs may share a line.
        self.at = end - rest.len();
        TokenRead::Go
    }

    fn movetext<V: Visitor>(&mut self, v: &mut V, byte: u8, depth: &mut u32) -> TokenRead {
        let input = self.input;
        match byte {
            b'(' => {
                *depth += 1;
                self.at += 1;
                v.begin_variation();
                TokenRead::Go
            }
            b')' => {
                self.at += 1;
                if *depth == 0 {
                    return TokenRead::Fail(SyntaxError::UnmatchedParen);
                }
                *depth -= 1;
                v.end_variation();
                TokenRead::Go
            }
            b'$' => {
                let digits = input[self.at + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                let end = self.at + 1 + digits;
                if end == input.len() && !self.at_end {
                    return TokenRead::Need;
                }
                self.at = end;
                match parse_nag(&input[end - digits..end]) {
                    Some(nag) => {
                        v.nag(nag);
                        TokenRead::Go
                    }
                    None => TokenRead::Fail(SyntaxError::NagOutOfRange(
                        String::from_utf8_lossy(&input[end - digits - 1..end]).into_owned(),
                    )),
                }
            }
            b'*' => {
                self.at += 1;
                self.finish(v, Outcome::Unknown, *depth)
            }
            _ if SYMBOL[usize::from(byte)] => self.symbol_token(v, *depth),
            _ => {
                let c = std::str::from_utf8(&input[self.at..])
                    .ok()
                    .and_then(|s| s.chars().next())
                    .unwrap_or(char::from(byte));
                self.at += 1;
                TokenRead::Fail(SyntaxError::UnexpectedChar(c))
            }
        }
    }

    /// The symbol tokens from `self.at` on, with the blanks and `{}` comments between
    /// them, in one loop: nearly all of a movetext is moves, move numbers and (in
    /// online games) a clock comment after each move. Anything else (and any token
    /// that is not a plain move or move number) is left to `token` and `symbol_token`.
    // Forced: --pgn 13% more instructions without its path's forced inlines.
    #[inline(always)]
    fn moves<V: Visitor>(&mut self, v: &mut V, depth: u32) -> TokenRead {
        let input = self.input;
        loop {
            match self.quick_symbol(v) {
                Quick::Joined => continue,
                Quick::Read => {}
                Quick::Slow => {
                    let flow = self.symbol_token(v, depth);
                    if !matches!(flow, TokenRead::Go) {
                        return flow;
                    }
                }
            }
            let at = past_blanks(input, self.at);
            self.at = at;
            if input.get(at) == Some(&b'{') {
                if let Some(len) = clock_comment(&input[at..]) {
                    v.plain_comment(&input[at + 1..at + len - 1]);
                    self.at = at + len;
                } else {
                    let flow = self.brace_comment(v);
                    if !matches!(flow, TokenRead::Go) {
                        return flow;
                    }
                }
                self.at = past_blanks(input, self.at);
            }
            match input.get(self.at) {
                Some(&b) if SYMBOL[usize::from(b)] => {}
                _ => return TokenRead::Go,
            }
        }
    }

    /// Reads the symbol token at `self.at` when it is a move without suffixes or a
    /// move number (`12.`, `12...`) that the input holds whole, and the one space
    /// after it when another symbol token follows that at once (`12. e4 e5`): the
    /// common case, which then skips the general search for blanks and comments.
    /// `Quick::Slow` leaves any other token to `symbol_token`, and `self.at` where it
    /// was.
    // Forced: --pgn 13% more instructions without its path's forced inlines.
    #[inline(always)]
    fn quick_symbol<V: Visitor>(&mut self, v: &mut V) -> Quick {
        let input = self.input;
        let start = self.at;
        let Some(bytes) = input.get(start..) else {
            return Quick::Slow;
        };
        let first = TOKEN_CLASS[usize::from(bytes[0])];
        let len = if first & NUMBER_FIRST != 0 {
            // Its digits and dots, and a byte after them that ends the token: read
            // as they go, not by a search for the token's end first.
            let mut len = 1;
            while bytes.get(len).is_some_and(u8::is_ascii_digit) {
                len += 1;
            }
            let digits = len;
            while bytes.get(len) == Some(&b'.') {
                len += 1;
            }
            match bytes.get(len) {
                Some(&b) if len > digits && !SYMBOL[usize::from(b)] => len,
                _ => return Quick::Slow,
            }
        } else {
            // One counter, tested against the slice's length: the busiest loop of the
            // reader.
            let mut len = 1;
            while len < bytes.len() && SYMBOL[usize::from(bytes[len])] {
                len += 1;
            }
            let symbol = &bytes[..len];
            let san = first & MOVE_FIRST != 0
                && len >= 2
                && len < bytes.len()
                && TOKEN_CLASS[usize::from(bytes[len - 1])] & SUFFIX == 0
                && symbol != b"ep";
            if !san {
                return Quick::Slow;
            }
            v.san(symbol);
            len
        };
        let end = start + len;
        // `bytes[len]` ends the token: a space, with a symbol byte after it, joins the
        // next token to this one.
        if bytes[len] == b' ' && bytes.get(len + 1).is_some_and(|&b| SYMBOL[usize::from(b)]) {
            self.at = end + 1;
            Quick::Joined
        } else {
            self.at = end;
            Quick::Read
        }
    }

    /// The symbol token at `self.at`: a move, a move number or a result.
    fn symbol_token<V: Visitor>(&mut self, v: &mut V, depth: u32) -> TokenRead {
        let input = self.input;
        let len = input[self.at..]
            .iter()
            .take_while(|&&b| SYMBOL[usize::from(b)])
            .count();
        if self.at + len == input.len() && !self.at_end {
            return TokenRead::Need;
        }
        let symbol = &input[self.at..self.at + len];
        self.at += len;
        self.symbol(v, symbol, depth)
    }

    fn finish<V: Visitor>(&mut self, v: &mut V, outcome: Outcome, depth: u32) -> TokenRead {
        if depth > 0 {
            return TokenRead::Fail(SyntaxError::UnterminatedVariation);
        }
        v.outcome(outcome);
        v.end_game(None);
        TokenRead::Done(self.at)
    }

    fn symbol<V: Visitor>(&mut self, v: &mut V, symbol: &[u8], depth: u32) -> TokenRead {
        // Most symbols are moves: a letter first, no suffix.
        if let [b'a'..=b'h' | b'B' | b'K' | b'N' | b'O' | b'Q' | b'R', .., last] = *symbol {
            if last != b'!' && last != b'?' && last != b'.' && symbol != b"ep" {
                v.san(symbol);
                return TokenRead::Go;
            }
        }
        // The rest are mostly move numbers, `12.` or `12...`, with nothing after them.
        if let [b'1'..=b'9', .., b'.'] = *symbol {
            let digits = symbol.iter().take_while(|b| b.is_ascii_digit()).count();
            if symbol[digits..].iter().all(|&b| b == b'.') {
                return TokenRead::Go;
            }
        }
        if let Some(outcome) = Outcome::from_token(symbol) {
            return self.finish(v, outcome, depth);
        }
        let mut rest = symbol;
        // A move number: digits, then dots or nothing; the move may follow at once.
        // Castling written with zeros is a move, not a number.
        if rest.first().is_some_and(u8::is_ascii_digit) && !is_zero_castle(rest) {
            let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
            rest = &rest[digits..];
            if rest.first().is_some_and(|&b| b != b'.') {
                return TokenRead::Fail(SyntaxError::UnexpectedChar(char::from(rest[0])));
            }
        }
        let rest = trim_dots(rest);
        if rest.is_empty() || rest == b"e.p." || rest == b"ep" {
            return TokenRead::Go;
        }
        let (san, suffix) = split_suffix(rest);
        if !suffix.is_empty() {
            if !san.is_empty() {
                self.emit_move(v, san);
            }
            return match suffix_nag(suffix) {
                Some(nag) => {
                    v.nag(nag);
                    TokenRead::Go
                }
                None => TokenRead::Fail(SyntaxError::UnexpectedChar(char::from(suffix[0]))),
            };
        }
        self.emit_move(v, san);
        TokenRead::Go
    }

    fn emit_move<V: Visitor>(&self, v: &mut V, san: &[u8]) {
        if san == b"--" || san == b"Z0" {
            v.null_move(san);
        } else {
            v.san(san);
        }
    }
}

/// Where a movetext nobody replays ends, found without reading its tokens: `text`
/// from the movetext's first token up to the next line that starts with `[` must end
/// in a result token (after a blank), hold no other result token, `*` or result-like
/// text anywhere before it (not even in a comment), and no `{` left open. Then a full
/// reading ends the game at that result too, or fails on the way (a bad move token,
/// an unmatched parenthesis), and a failed game is read past to that same next line
/// (`resync`): either way the next game begins at that line. The outcome and the
/// length up to the end of the result token; `None` when any condition fails (the
/// caller reads on token by token).
fn jump(text: &[u8]) -> Option<(Outcome, usize)> {
    let segment_end = memmem::find(text, b"\n[")?;
    // The next game's line as `resync` finds it: after a blank line or an Event tag.
    let lines = &text[..segment_end];
    let lines = lines.strip_suffix(b"\r").unwrap_or(lines);
    if !lines.ends_with(b"\n") && !text[segment_end + 1..].starts_with(b"[Event ") {
        return None;
    }
    let segment = lines.trim_ascii_end();
    let token_start = segment
        .iter()
        .rposition(|&b| BLANK[usize::from(b)])
        .map(|i| i + 1)?;
    let outcome = Outcome::from_token(&segment[token_start..])?;
    let before = &segment[..token_start];
    if memchr(b'*', before).is_some()
        || memmem::find(before, b"1-0").is_some()
        || memmem::find(before, b"0-1").is_some()
        || memmem::find(before, b"1/2").is_some()
    {
        return None;
    }
    if let Some(open) = memchr::memrchr(b'{', before) {
        memchr(b'}', &before[open..])?;
    }
    Some((outcome, segment.len()))
}

/// The length of the clock comment an online game gives after each move,
/// `{ [%clk 0:15:10] }`, when `text` starts with one: told from two words, where the
/// search for its end would look at every byte.
// Forced: --pgn 1% more instructions without the small SAN and token readers' forced inlines.
#[inline(always)]
fn clock_comment(text: &[u8]) -> Option<usize> {
    const LEN: usize = 18;
    let word = |at: usize| -> Option<u64> {
        Some(u64::from_le_bytes(text.get(at..at + 8)?.try_into().ok()?))
    };
    let head = u64::from_le_bytes(*b"{ [%clk ");
    // `h:mm:ss]`: the colons and the bracket exactly, a digit's high half 3 elsewhere;
    // a digit plus 6 is still below 0x40 (no byte carries into the next).
    let mask = u64::from_le_bytes([0xf0, 0xff, 0xf0, 0xf0, 0xff, 0xf0, 0xf0, 0xff]);
    let fixed = u64::from_le_bytes(*b"0:00:00]");
    let six = u64::from_le_bytes([6, 0, 6, 6, 0, 6, 6, 0]);
    let digit_highs = u64::from_le_bytes([0xf0, 0, 0xf0, 0xf0, 0, 0xf0, 0xf0, 0]);
    let time = word(8)?;
    let clock = word(0)? == head
        && time & mask == fixed
        && time.wrapping_add(six) & digit_highs == fixed & digit_highs
        && text.get(16..LEN)? == b" }";
    clock.then_some(LEN)
}

/// Where the blanks of `input` from `at` end: blanks are most of what lies between
/// tokens, and are skipped in one go before the token dispatch.
// Forced: --pgn 1% more instructions without the small SAN and token readers' forced inlines.
#[inline(always)]
fn past_blanks(input: &[u8], mut at: usize) -> usize {
    while input.get(at).is_some_and(|&b| BLANK[usize::from(b)]) {
        at += 1;
    }
    at
}

/// Up to three bytes of `input` from `at`: enough to compare with the byte-order mark.
fn rest_prefix(input: &[u8], at: usize) -> &[u8] {
    &input[at..input.len().min(at + BOM.len())]
}

fn trim_dots(mut text: &[u8]) -> &[u8] {
    while let [b'.', rest @ ..] = text {
        text = rest;
    }
    text
}

fn is_zero_castle(text: &[u8]) -> bool {
    text.starts_with(b"0-0")
}

/// Splits `Nf3!?` into `Nf3` and `!?`.
fn split_suffix(text: &[u8]) -> (&[u8], &[u8]) {
    let keep = text.len()
        - text
            .iter()
            .rev()
            .take_while(|&&b| b == b'!' || b == b'?')
            .count();
    text.split_at(keep)
}

/// The NAG of a move suffix, as the PGN standard numbers them.
fn suffix_nag(suffix: &[u8]) -> Option<u8> {
    match suffix {
        b"!" => Some(1),
        b"?" => Some(2),
        b"!!" => Some(3),
        b"??" => Some(4),
        b"!?" => Some(5),
        b"?!" => Some(6),
        _ => None,
    }
}

fn parse_nag(digits: &[u8]) -> Option<u8> {
    if digits.is_empty() || digits.len() > 3 {
        return None;
    }
    let n = digits
        .iter()
        .fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'));
    u8::try_from(n).ok()
}

/// Splits the line after a `[` into the tag's name, its raw value and what follows the
/// `]`; `None` when it is not a tag pair.
fn split_tag(line: &[u8]) -> Option<(&[u8], &[u8], &[u8])> {
    let line = trim_start(line);
    let name_len = line
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let (name, rest) = line.split_at(name_len);
    if name.is_empty() {
        return None;
    }
    let rest = trim_start(rest).strip_prefix(b"\"")?;
    let mut i = 0;
    let close = loop {
        match scan::find2(b'"', b'\\', &rest[i..]) {
            Some(j) if rest[i + j] == b'\\' => i += j + 2,
            Some(j) => break i + j,
            None => return None,
        }
        if i > rest.len() {
            return None;
        }
    };
    let value = &rest[..close];
    let after = trim_start(&rest[close + 1..]).strip_prefix(b"]")?;
    Some((name, value, after))
}

/// The tag pair at the start of `text` (just past its `[`) when its value is printable
/// ASCII without an escape: its name, its value and the text after its `]`. `None`
/// for any other, left to `split_tag`.
fn plain_tag(text: &[u8]) -> Option<(&[u8], &[u8], &[u8])> {
    let mut name_len = 0;
    while text.get(name_len).is_some_and(|&b| NAME[usize::from(b)]) {
        name_len += 1;
    }
    let (name, rest) = text.split_at(name_len);
    let rest = rest.strip_prefix(b" \"")?;
    if name.is_empty() {
        return None;
    }
    let (Some(close), true) = scan::find2_plain(b'"', b'\\', rest) else {
        return None;
    };
    if rest[close] != b'"' {
        return None;
    }
    let after = rest[close + 1..].strip_prefix(b"]")?;
    Some((name, &rest[..close], after))
}

fn trim_start(mut text: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = text {
        text = rest;
    }
    text
}

/// A raw tag value with its escapes (`\"`, `\\`) resolved. The standard defines no
/// other: a backslash before any other character (`C:\path`) is kept as it stands.
pub fn unescape(raw: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if memchr(b'\\', raw).is_none() {
        return std::borrow::Cow::Borrowed(raw);
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut bytes = raw.iter().peekable();
    while let Some(&b) = bytes.next() {
        if b == b'\\' {
            if let Some(&&next @ (b'"' | b'\\')) = bytes.peek() {
                out.push(next);
                bytes.next();
                continue;
            }
        }
        out.push(b);
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_comment_is_told_from_its_words() {
        assert_eq!(clock_comment(b"{ [%clk 0:15:10] } 2. Nf3"), Some(18));
        assert_eq!(clock_comment(b"{ [%clk 9:59:59] }"), Some(18));
        for other in [
            &b"{ [%clk 0:15:10] }"[..17],
            b"{ [%clk 0:15:1:] }",
            b"{ [%clk 0:1?:10] }",
            b"{ [%clk 0:15:10]  }",
            b"{ [%clk 10:15:10] }",
            b"{ [%eval 0.17] [%clk 0:15:10] }",
            b"{ [%clk 0:15:10] ] }",
        ] {
            assert_eq!(
                clock_comment(other),
                None,
                "{}",
                String::from_utf8_lossy(other)
            );
        }
    }

    /// Every event as text, to compare with what a game should give.
    #[derive(Default)]
    struct Events(Vec<String>);

    impl Visitor for Events {
        fn begin_game(&mut self) {
            self.0.clear();
        }
        fn tag(&mut self, name: &[u8], value: &[u8]) {
            let value = unescape(value);
            self.0.push(format!(
                "tag {} {}",
                String::from_utf8_lossy(name),
                String::from_utf8_lossy(&value)
            ));
        }
        fn san(&mut self, san: &[u8]) {
            self.0.push(String::from_utf8_lossy(san).into_owned());
        }
        fn null_move(&mut self, text: &[u8]) {
            self.0
                .push(format!("null {}", String::from_utf8_lossy(text)));
        }
        fn nag(&mut self, nag: u8) {
            self.0.push(format!("${nag}"));
        }
        fn comment(&mut self, text: &[u8]) {
            self.0
                .push(format!("{{{}}}", String::from_utf8_lossy(text)));
        }
        fn begin_variation(&mut self) {
            self.0.push("(".to_string());
        }
        fn end_variation(&mut self) {
            self.0.push(")".to_string());
        }
        fn outcome(&mut self, outcome: Outcome) {
            self.0.push(outcome.to_string());
        }
        fn end_game(&mut self, error: Option<&SyntaxError>) {
            if let Some(error) = error {
                self.0.push(format!("error {error}"));
            }
        }
    }

    fn events(input: &str) -> (Vec<String>, GameRead) {
        let mut v = Events::default();
        let step = read_game(input.as_bytes(), true, &mut v);
        (v.0, step)
    }

    fn moves(input: &str) -> String {
        events(input).0.join(" ")
    }

    /// The one-line reading of a plain tag pair gives what the line's reading gives,
    /// and leaves every other pair to it.
    #[test]
    fn plain_tags_read_as_their_lines_do() {
        let pairs: [&[u8]; 8] = [
            b"Event \"x\"] [Site \"y\"]\n",
            b"Event \"\"]\n",
            b"Event \"a \\\"b\"]\n",
            b"Event  \"x\"]\n",
            b"Event \"x\"  ]\n",
            b"Event \"x\ny\"]\n",
            b"Event \"caf\xc3\xa9\"]\n",
            b"Event \"x\t\"]\n",
        ];
        for pair in pairs {
            let line = &pair[..pair.iter().position(|&b| b == b'\n').unwrap()];
            if let Some((name, value, after)) = plain_tag(pair) {
                let (n, v, rest) = split_tag(line).unwrap();
                assert_eq!((name, value), (n, v), "{pair:?}");
                assert_eq!(
                    pair.len() - after.len(),
                    line.len() - rest.len(),
                    "{pair:?}"
                );
            }
        }
        // Cut off without its line break, a pair is refused either way.
        let (events, _) = events("[Event \"x\"]");
        assert_eq!(
            events.last().unwrap(),
            "error a tag pair is not [Name \"value\"] on one line"
        );
        assert!(plain_tag(pairs[0]).is_some());
        assert!(plain_tag(pairs[2]).is_none());
        assert!(plain_tag(pairs[5]).is_none());
        assert!(plain_tag(pairs[7]).is_none());
    }

    #[test]
    fn tags_then_moves_then_result() {
        let input = "[Event \"x\"]\n[White \"a \\\"b\\\"\"]\n\n1. e4 e5 1-0\n";
        let (events, step) = events(input);
        assert_eq!(events.join("|"), "tag Event x|tag White a \"b\"|e4|e5|1-0");
        assert_eq!(step, GameRead::Game(input.len() - 1));
    }

    #[test]
    fn a_lone_backslash_is_kept() {
        assert_eq!(&*unescape(br"C:\path\x"), br"C:\path\x");
        assert_eq!(&*unescape(br#"a \"b\" \\c\"#), br#"a "b" \c\"#);
    }

    #[test]
    fn move_numbers_take_any_count_of_dots() {
        assert_eq!(
            moves("12. e4 12... e5 13.... Nf3 14 Nc6 15.Bb5 15...a6 *"),
            "e4 e5 Nf3 Nc6 Bb5 a6 *"
        );
    }

    /// A token and the one space after it are read in one step when a symbol follows
    /// (`quick_symbol`): reading the same text with every space between tokens
    /// doubled, which goes the general way, gives the same events.
    #[test]
    fn single_spaces_read_as_wider_blanks_do() {
        let inputs = [
            "1. e4 e5 2. Nf3 12... Nc6 3.Bb5 a6 1-0",
            "1. e4 (1. d4 d5) 1... e5 2. Nf3 $1 Nc6 { [%clk 0:15:10] } 3. Bb5 *",
            "1. e4! e5 2. 0-0 ep 3. e8=Q+ 1/2-1/2",
            "1. e4 e5 2 Nf3 2.. Nc6 1-0 2. d4 *",
            "1. e4 e",
        ];
        for input in inputs {
            let mut in_comment = false;
            let wide: String = input
                .chars()
                .flat_map(|c| {
                    in_comment = (in_comment || c == '{') && c != '}';
                    let twice = c == ' ' && !in_comment;
                    std::iter::repeat_n(c, if twice { 2 } else { 1 })
                })
                .collect();
            assert_eq!(events(input).0, events(&wide).0, "{input}");
        }
    }

    /// The pairs of a tag section that follow one another a line each are read in one
    /// go (`tag`): with a blank line between them, read the general way, they give
    /// the same events.
    #[test]
    fn tag_lines_in_a_row_read_as_spaced_ones_do() {
        let input = "[Event \"a\"]\n[Site \"b \\\"c\\\"\"]\n[Date \"?\"]\n[Round \"1\"]\n\n1. e4 *";
        let spaced = input.replace("]\n[", "]\n\n[");
        assert_eq!(events(input).0, events(&spaced).0);
        assert_eq!(
            events(input).0[..4].join("|"),
            "tag Event a|tag Site b \"c\"|tag Date ?|tag Round 1"
        );
    }

    #[test]
    fn castling_with_zeros_is_a_move() {
        assert_eq!(moves("1. 0-0 0-0-0 0-1"), "0-0 0-0-0 0-1");
    }

    #[test]
    fn suffixes_are_nags() {
        assert_eq!(
            moves("1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Ba4 $14 *"),
            "e4 $1 e5 $2 Nf3 $3 Nc6 $4 Bb5 $5 a6 $6 Ba4 $14 *"
        );
    }

    #[test]
    fn comments_of_both_kinds() {
        assert_eq!(
            moves("1. e4 {best by test\n[sic] across lines} e5 ; to the end\r\n2. Nf3 *"),
            "e4 {best by test\n[sic] across lines} e5 { to the end} Nf3 *"
        );
    }

    #[test]
    fn escape_lines_are_skipped() {
        assert_eq!(moves("% a note\n1. e4 *"), "e4 *");
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        assert_eq!(moves("\u{feff}[Event \"x\"]\n1. e4 *"), "tag Event x e4 *");
    }

    #[test]
    fn a_byte_order_mark_before_a_later_game_is_skipped() {
        let input = "1. e4 *\n\u{feff}[Event \"b\"]\n1. d4 *\n";
        let mut v = Events::default();
        let GameRead::Game(len) = read_game(input.as_bytes(), true, &mut v) else {
            panic!("first game");
        };
        assert_eq!(
            read_game(&input.as_bytes()[len..], true, &mut v),
            GameRead::Game(input.len() - len - 1)
        );
        assert_eq!(v.0.join(" "), "tag Event b d4 *");
        // Cut inside the mark, the reader waits for the rest.
        assert_eq!(read_game(b"\n\xef\xbb", false, &mut v), GameRead::NeedMore);
    }

    #[test]
    fn variations_nest() {
        assert_eq!(
            moves("1. e4 (1. d4 d5 (1... Nf6)) 1... e5 *"),
            "e4 ( d4 d5 ( Nf6 ) ) e5 *"
        );
    }

    #[test]
    fn null_moves_are_their_own_event() {
        assert_eq!(moves("1. e4 -- 2. Z0 *"), "e4 null -- null Z0 *");
    }

    #[test]
    fn en_passant_notes_are_dropped() {
        assert_eq!(moves("1. exd6 e.p. *"), "exd6 *");
    }

    #[test]
    fn a_game_ends_where_the_next_tags_begin() {
        let input = "1. e4 e5\n\n[Event \"next\"]\n1. d4 *";
        let (events, step) = events(input);
        assert_eq!(
            events.join(" "),
            "e4 e5 error the movetext ends without a result token (1-0, 0-1, 1/2-1/2 or *)"
        );
        assert_eq!(step, GameRead::Game(10));
    }

    #[test]
    fn unterminated_comment_at_the_end() {
        let (events, _) = events("1. e4 { never closed *");
        assert_eq!(events.last().unwrap(), "error a { comment is not closed");
    }

    #[test]
    fn unterminated_comment_ends_at_the_next_event_tag() {
        let input = "1. e4 { cut\n[Event \"next\"]\n1. d4 *";
        let (events, step) = events(input);
        assert_eq!(events.last().unwrap(), "error a { comment is not closed");
        assert_eq!(step, GameRead::Game(12));
    }

    #[test]
    fn a_closed_comment_may_hold_event_lines() {
        let input = "[Event \"E1\"]\n[Result \"*\"]\n\n1. e4 { a comment\n[Event \"x\"]\n[Event \"y\"]\n still } e5 *\n";
        let (got, step) = events(input);
        assert_eq!(
            got.join("|"),
            "tag Event E1|tag Result *|e4|{ a comment\n[Event \"x\"]\n[Event \"y\"]\n still }|e5|*"
        );
        assert_eq!(step, GameRead::Game(input.len() - 1));
        // Not yet known: more input is needed.
        let mut v = Events::default();
        assert_eq!(
            read_game(b"1. e4 { a\n[Event \"x\"]\n no brace yet", false, &mut v),
            GameRead::NeedMore
        );
    }

    #[test]
    fn an_unclosed_comment_ends_where_a_brace_opens_first() {
        let input = "1. e4 { cut\n[Event \"next\"]\n1. d4 {fine} *";
        let (events, step) = events(input);
        assert_eq!(events.last().unwrap(), "error a { comment is not closed");
        assert_eq!(step, GameRead::Game(12));
    }

    #[test]
    fn the_last_game_start_skips_event_lines_inside_comments() {
        let text =
            b"1. e4 *\n[Event \"a\"]\n1. e4 { x\n[Event \"in\"]\n} *\n[Event \"b\"]\n1. d4 {y} *";
        let b = text.len() - b"[Event \"b\"]\n1. d4 {y} *".len();
        assert_eq!(last_game_start(text), Some(b));
        // Without the last game, the line inside the comment is passed over.
        assert_eq!(last_game_start(&text[..b]), Some(8));
        // No brace after the line: it needs `LOOKAHEAD` bytes after it to tell.
        let mut short = b"*\n[Event \"a\"]\n1. e4 *\n".to_vec();
        assert_eq!(last_game_start(&short), None);
        short.extend(std::iter::repeat_n(b' ', LOOKAHEAD));
        assert_eq!(last_game_start(&short), Some(2));
    }

    /// Only a line after a result token is a game's first line for sure: an Event tag
    /// after other tags is in their section, and one after movetext without a result
    /// may be where the reader, skipping a broken game, does not start.
    #[test]
    fn the_last_game_start_follows_a_result_token() {
        let after = |before: &str| {
            let text = format!("{before}[Event \"b\"]\n1. d4 {{y}} *");
            last_game_start(text.as_bytes()).map(|at| text[..at].to_string())
        };
        for cut in [
            "1. e4 *\n",
            "1. e4 1-0\n\n",
            "1-0\r\n\r\n",
            "e4 1/2-1/2 \n",
            "0-1\n",
        ] {
            assert_eq!(after(cut).as_deref(), Some(cut));
        }
        for before in [
            "1. e4 *\n[Site \"x\"]\n",
            "1. e4 e5\n",
            "1. e4 e5*\n",
            "[Result \"*\"] *\n",
            "1. e4 ; ends 1-0\n",
            "% 1-0\n",
        ] {
            assert_eq!(after(before), None, "{before:?}");
        }
    }

    #[test]
    fn unterminated_variation() {
        let (events, _) = events("1. e4 (1. d4 d5");
        assert_eq!(events.last().unwrap(), "error a ( variation is not closed");
    }

    #[test]
    fn unmatched_paren_breaks_the_game() {
        let mut v = Events::default();
        let step = read_game(b"1. e4 ) e5 *", true, &mut v);
        assert_eq!(step, GameRead::Broken(7));
        assert_eq!(v.0.last().unwrap(), "error a ) closes no variation");
    }

    #[test]
    fn incomplete_input_asks_for_more() {
        let mut v = Events::default();
        assert_eq!(
            read_game(b"1. e4 e5 2. N", false, &mut v),
            GameRead::NeedMore
        );
        assert_eq!(read_game(b"1. e4 {open", false, &mut v), GameRead::NeedMore);
        assert_eq!(read_game(b"\n \n", true, &mut v), GameRead::End);
    }

    #[test]
    fn two_tagless_games_in_a_row() {
        let input = b"1. e4 1-0 1. d4 0-1";
        let mut v = Events::default();
        let GameRead::Game(len) = read_game(input, true, &mut v) else {
            panic!("first game");
        };
        assert_eq!(v.0.join(" "), "e4 1-0");
        read_game(&input[len..], true, &mut v);
        assert_eq!(v.0.join(" "), "d4 0-1");
    }

    /// A new game begins at a tag only after movetext: whatever tag a section starts
    /// with, an Event tag later in it is one of its tags.
    #[test]
    fn a_tag_section_holds_its_tags_in_any_order() {
        for input in [
            "[Site \"x\"]\n[Event \"a\"]\n[White \"w\"]\n\n1. e4 e5 1-0",
            "[Site \"x\"]\n\n[Event \"a\"]\n\n[White \"w\"]\n1. e4 e5 1-0",
            "[Site \"x\"] [Event \"a\"] [White \"w\"]\n1. e4 e5 1-0",
        ] {
            let (got, step) = events(input);
            assert_eq!(
                got.join("|"),
                "tag Site x|tag Event a|tag White w|e4|e5|1-0"
            );
            assert_eq!(step, GameRead::Game(input.len()), "{input:?}");
        }
        let (got, _) = events("[Event \"a\"]\n[Event \"b\"]\n1. e4 *");
        assert_eq!(got.join("|"), "tag Event a|tag Event b|e4|*");
    }

    #[test]
    fn the_next_game_starts_at_a_tag_after_movetext() {
        let input = "[Event \"a\"]\n1. e4 *\n[Site \"x\"]\n[Event \"b\"]\n1. d4 *";
        let (first, step) = events(input);
        assert_eq!(first.join("|"), "tag Event a|e4|*");
        let GameRead::Game(len) = step else {
            panic!("{step:?}");
        };
        let (second, _) = events(&input[len..]);
        assert_eq!(second.join("|"), "tag Site x|tag Event b|d4|*");
    }

    #[test]
    fn resync_finds_the_next_tag_section() {
        assert_eq!(resync(b"x ) y\n\n[Site \"a\"]"), Some(7));
        assert_eq!(resync(b"x\n[Event \"a\"]"), Some(2));
        assert_eq!(resync(b"x\n[Site \"a\"]"), None);
    }

    #[test]
    fn bad_tags_are_syntax_errors() {
        let (events, _) = events("[Event \"x]\n1. e4 *");
        assert_eq!(
            events.last().unwrap(),
            "error a tag pair is not [Name \"value\"] on one line"
        );
    }

    #[test]
    fn a_nag_past_255_is_out_of_range() {
        let (big, _) = events("1. e4 $256 *");
        assert_eq!(
            big.last().unwrap(),
            "error the NAG '$256' is out of the range $0-$255"
        );
        let (empty, _) = events("1. e4 $ *");
        assert_eq!(
            empty.last().unwrap(),
            "error the NAG '$' is out of the range $0-$255"
        );
    }

    #[test]
    fn strange_characters_are_refused() {
        let (events, _) = events("1. e4 <e5> *");
        assert_eq!(events.last().unwrap(), "error '<' has no place in movetext");
    }
}
