//! A command's optional prefixes after the request id: `game <name>`, the game it is
//! for, and `if <version>`, the version it was decided on. `game` and `if` are reserved
//! words at the start of a command, in that order.

use std::fmt;
use std::hash::{Hash, Hasher};

use super::error::ProtocolError;

/// The longest game name, in bytes.
pub const MAX_NAME: usize = 64;

/// A game's name, kept: 1 to 64 letters, digits, `_`, `-`, `.` and `:`. Inline, at the
/// head of its game's record, so that a lookup compares it in the cache line it reads
/// anyway; a line's name is a `NameRef` into the line.
#[derive(Clone, Copy, Eq)]
pub struct GameName {
    len: u8,
    bytes: [u8; MAX_NAME],
}

impl GameName {
    pub fn parse(text: &str) -> Result<GameName, ProtocolError> {
        NameRef::parse(text).map(NameRef::to_name)
    }

    /// The name those bytes spell, if they are one.
    pub fn from_bytes(text: &[u8]) -> Option<GameName> {
        let text = std::str::from_utf8(text).ok()?;
        NameRef::of_text(text).map(NameRef::to_name)
    }

    pub fn as_str(&self) -> &str {
        // Only ASCII is ever stored.
        std::str::from_utf8(self.as_bytes()).unwrap_or("")
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// The name's bytes followed by zeros to the longest name's length.
    pub fn padded(&self) -> &[u8; MAX_NAME] {
        &self.bytes
    }
}

/// A game's name as a line spells it, borrowed from the line: 1 to 64 name bytes. A
/// line's name goes through its lookup and into its answer without being copied into
/// a `GameName` (a 65-byte value, moved a few times a line): only a name that is kept
/// (a game created, a long job's answer) or reported (`unknown-game`) is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameRef<'a>(&'a str);

impl<'a> NameRef<'a> {
    pub fn parse(text: &'a str) -> Result<NameRef<'a>, ProtocolError> {
        NameRef::of_text(text).ok_or_else(|| {
            ProtocolError::BadArgument(format!(
                "'{text}' is not a game name (1 to {MAX_NAME} letters, digits, _, -, . and :)"
            ))
        })
    }

    /// The name the text spells, if it is one.
    fn of_text(text: &'a str) -> Option<NameRef<'a>> {
        Some(text)
            .filter(|text| text.bytes().all(is_name_byte))
            .and_then(NameRef::of_name_bytes)
    }

    /// The name those name bytes spell, if there are 1 to 64 of them.
    fn of_name_bytes(text: &'a str) -> Option<NameRef<'a>> {
        (1..=MAX_NAME)
            .contains(&text.len())
            .then_some(NameRef(text))
    }

    pub fn as_str(self) -> &'a str {
        self.0
    }

    pub fn as_bytes(self) -> &'a [u8] {
        self.0.as_bytes()
    }

    /// The name, kept.
    pub fn to_name(self) -> GameName {
        let text = self.as_bytes();
        let len = text.len().min(MAX_NAME);
        // Zeros after the name: equality, hashing and writing read whole words.
        let mut bytes = [0; MAX_NAME];
        bytes[..len].copy_from_slice(&text[..len]);
        GameName {
            len: len as u8,
            bytes,
        }
    }
}

impl GameName {
    /// Whether `text` spells this name: compared inline rather than through a call to
    /// the C library's memcmp (every line for a named game compares its name once),
    /// whole words at a time, the last one ending where the name ends and overlapping
    /// the one before; a name under 8 bytes as two overlapping halves of 4 or 2. Kept
    /// out of line: inlined, it made the default game's lines dearer around it.
    #[inline(never)]
    pub fn is(&self, text: &[u8]) -> bool {
        let name = self.as_bytes();
        let len = text.len();
        if name.len() != len {
            return false;
        }
        match len {
            8.. => {
                let mut at = 0;
                let mut equal = true;
                while at + 8 < len {
                    equal &= same::<8>(name, text, at);
                    at += 8;
                }
                equal && same::<8>(name, text, len - 8)
            }
            4..=7 => same::<4>(name, text, 0) && same::<4>(name, text, len - 4),
            2..=3 => same::<2>(name, text, 0) && same::<2>(name, text, len - 2),
            // One byte, or none.
            _ => name.first() == text.first(),
        }
    }

    /// The name, as a line spells it.
    pub fn name_ref(&self) -> NameRef<'_> {
        NameRef(self.as_str())
    }
}

impl fmt::Display for NameRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// Equal as texts. Every byte after the name is zero, so that the first word compares
/// as one number, and names of up to 8 bytes (most) need nothing more.
impl PartialEq for GameName {
    fn eq(&self, other: &GameName) -> bool {
        self.len == other.len
            && self.bytes[..8] == other.bytes[..8]
            && (self.len <= 8 || self.as_bytes()[8..] == other.as_bytes()[8..])
    }
}

/// Whether a byte may be part of a game name.
/// Whether the `N` bytes at `at` are the same in both (both hold them): one compare
/// of a whole word.
fn same<const N: usize>(a: &[u8], b: &[u8], at: usize) -> bool {
    let part = |bytes: &[u8]| {
        bytes
            .get(at..at + N)
            .and_then(|part| <[u8; N]>::try_from(part).ok())
    };
    part(a) == part(b)
}

pub fn is_name_byte(b: u8) -> bool {
    NAME_BYTES[usize::from(b)]
}

/// The bytes of names, by value: every line for a named game is scanned through it.
static NAME_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'-' | b'.' | b':');
        b += 1;
    }
    table
};

/// Hashed as its bytes, without the check `as_str` makes: every line that names a game
/// hashes its name.
impl Hash for GameName {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write(self.as_bytes());
    }
}

/// Names sort as text (`g10` before `g2`).
impl Ord for GameName {
    fn cmp(&self, other: &GameName) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for GameName {
    fn partial_cmp(&self, other: &GameName) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for GameName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for GameName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GameName({:?})", self.as_str())
    }
}

/// A game's version: 0 when it is created or replaced, one more for every change.
pub type Version = u64;

/// A command line (after its id) split into its prefixes and the command text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prefixed<'a> {
    /// `None`: the default game.
    pub game: Option<NameRef<'a>>,
    pub expected: Option<Version>,
    /// The command, from its first word: what `Command::parse` reads.
    pub text: &'a str,
}

impl<'a> Prefixed<'a> {
    pub fn split(line: &'a str) -> Result<Prefixed<'a>, ProtocolError> {
        let mut prefixed = Prefixed {
            game: None,
            expected: None,
            text: line,
        };
        // The usual line starts with its command: no prefix to look for.
        if !matches!(line.as_bytes().first(), Some(b'g' | b'i' | b' ' | b'\t')) {
            return Ok(prefixed);
        }
        // The usual line for a named game, `game <name> <command>` with one blank after
        // `game` and the name, read at once; anything else (`if` after the name, other
        // blanks, a bad name) goes the general way below.
        if let Some(rest) = line.strip_prefix("game ") {
            let bytes = rest.as_bytes();
            let end = bytes.iter().position(|&b| !is_name_byte(b));
            if let Some(end) = end.filter(|&end| bytes[end] == b' ') {
                // One blank, then a command's word: anything else (more blanks, Unicode
                // ones) goes the general way.
                let text = rest.get(end + 1..).unwrap_or("");
                let word = text.as_bytes().first().is_some_and(u8::is_ascii_alphabetic);
                if let (Some(name), true, false) = (
                    rest.get(..end).and_then(NameRef::of_name_bytes),
                    word,
                    text.starts_with("if"),
                ) {
                    prefixed.game = Some(name);
                    prefixed.text = text;
                    return Ok(prefixed);
                }
            }
        }
        let (word, rest) = next_word(line);
        let (word, rest) = if word == "game" {
            let (name, after) = next_word(rest);
            if name.is_empty() {
                return Err(ProtocolError::BadArgument(
                    "game takes a name, then a command: game <name> <command>".to_string(),
                ));
            }
            prefixed.game = Some(NameRef::parse(name)?);
            // The command from its first word, as a line without prefixes: the short
            // ways of `Command::parse` take it.
            prefixed.text = after.trim_start();
            next_word(after)
        } else {
            (word, rest)
        };
        if word == "if" {
            let (number, after) = next_word(rest);
            if number.is_empty() {
                return Err(ProtocolError::BadArgument(
                    "if takes a version, then a command: if <version> <command>".to_string(),
                ));
            }
            let version = number.parse::<Version>().map_err(|_| {
                ProtocolError::BadArgument(format!(
                    "if takes a version, a whole number, then a command, not '{number}'"
                ))
            })?;
            prefixed.expected = Some(version);
            prefixed.text = after.trim_start();
        }
        Ok(prefixed)
    }

    /// Whether the line has a prefix, so that its answers name the game or its version.
    pub fn is_addressed(&self) -> bool {
        self.game.is_some() || self.expected.is_some()
    }
}

/// The first word of a text and what follows it, blanks before it skipped.
fn next_word(text: &str) -> (&str, &str) {
    // Command lines are ASCII: their blanks are found a byte at a time, looking no
    // further than the word. A byte of a wider character (any above 0x7f) sends the
    // text to the reading by characters, whose blanks include Unicode's.
    let blank = |b: u8| b == b' ' || (b'\t'..=b'\r').contains(&b);
    let bytes = text.as_bytes();
    let mut start = 0;
    while start < bytes.len() && blank(bytes[start]) {
        start += 1;
    }
    let mut end = start;
    while end < bytes.len() && !blank(bytes[end]) {
        if !bytes[end].is_ascii() {
            return next_word_unicode(text);
        }
        end += 1;
    }
    // Before a non-ASCII byte, every offset is a character boundary.
    match (text.get(start..end), text.get(end..)) {
        (Some(word), Some(rest)) => (word, rest),
        _ => next_word_unicode(text),
    }
}

fn next_word_unicode(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    let end = text.find(char::is_whitespace).unwrap_or(text.len());
    text.split_at(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(line: &str) -> Prefixed<'_> {
        Prefixed::split(line).unwrap()
    }

    #[test]
    fn a_line_without_prefixes_is_its_command() {
        let p = split("move e4");
        assert_eq!((p.game, p.expected, p.text), (None, None, "move e4"));
        assert_eq!(split("  isready").text, "  isready");
        assert_eq!(split("go perft 1").text, "go perft 1");
        assert_eq!(split("ifx").text, "ifx");
    }

    #[test]
    fn game_then_if_then_the_command() {
        let p = split("game g:1.a_b-c if 7 move e4 as white");
        assert_eq!(p.game.map(|g| g.to_string()), Some("g:1.a_b-c".to_string()));
        assert_eq!(p.expected, Some(7));
        assert_eq!(p.text, "move e4 as white");
        let p = split("if 0 status");
        assert_eq!((p.game, p.expected), (None, Some(0)));
    }

    /// Names are compared in overlapping parts: every length, a difference at every
    /// place.
    #[test]
    fn a_name_is_its_own_text_and_no_other() {
        for len in 1..=MAX_NAME {
            let text: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            let name = GameName::from_bytes(&text).unwrap();
            assert!(name.is(&text), "{len}");
            for place in 0..len {
                let mut other = text.clone();
                other[place] = b'0';
                assert!(!name.is(&other), "{len} {place}");
            }
            assert!(!name.is(&text[..len - 1]), "{len}");
            assert!(!name.is(&[&text[..], b"a"].concat()), "{len}");
        }
    }

    #[test]
    fn a_map_of_names_finds_a_name_parsed_again() {
        let mut map = std::collections::HashMap::new();
        map.insert(GameName::parse("g1").unwrap(), 1);
        let name = |text: &[u8]| GameName::from_bytes(text).unwrap();
        assert_eq!(map.get(&name(b"g1")), Some(&1));
        assert_eq!(map.get(&name(b"g2")), None);
        assert_eq!(map.get(&name(b"g10")), None);
    }

    /// The quick reading of `game <name> <command>` agrees with the general one.
    #[test]
    fn game_prefixes_read_the_same_either_way() {
        for line in [
            "game g1 move e4",
            "game g1  move e4",
            "game g1 \tmove",
            "game g1 if 3 move e4",
            "game g1 ifx",
            "game g1 if",
            "game g1 ",
            "game g1",
            "game g1\tmove e4",
            "game g1\u{2003}move",
            "game g/1 move",
            "game  g1 move",
            "game g1 \u{2003}move",
            "game g1 éx",
            "game g1 1",
            "game g1 _x",
            "game g1 Move e4",
        ] {
            let quick = Prefixed::split(line);
            // Past the quick path: a leading blank sends the line the general way.
            let general = format!(" {line}");
            let general = Prefixed::split(&general).map(|p| (p.game, p.expected, p.text));
            assert_eq!(
                quick.map(|p| (p.game, p.expected, p.text)),
                general,
                "{line:?}"
            );
        }
    }

    #[test]
    fn names_are_equal_as_texts() {
        let name = |text: &str| GameName::parse(text).unwrap();
        assert_eq!(name("g1"), name("g1"));
        assert_ne!(name("g1"), name("g10"));
        assert_ne!(name("g1"), name("G1"));
        assert_eq!(name(&"n".repeat(MAX_NAME)), name(&"n".repeat(MAX_NAME)));
    }

    #[test]
    fn words_end_at_unicode_blanks_too() {
        assert_eq!(next_word("  game g1 move"), ("game", " g1 move"));
        assert_eq!(next_word("\tif\u{2003}3"), ("if", "\u{2003}3"));
        assert_eq!(next_word("é\u{2003}x"), ("é", "\u{2003}x"));
        assert_eq!(next_word("ab\u{a0}c d"), ("ab", "\u{a0}c d"));
        assert_eq!(next_word("   "), ("", ""));
    }

    #[test]
    fn names_sort_as_text() {
        let mut names: Vec<GameName> = ["g2", "g10", "a", "g1"]
            .iter()
            .map(|n| GameName::parse(n).unwrap())
            .collect();
        names.sort();
        let texts: Vec<&str> = names.iter().map(GameName::as_str).collect();
        assert_eq!(texts, ["a", "g1", "g10", "g2"]);
    }

    #[test]
    fn bad_names_and_versions_are_bad_arguments() {
        for line in [
            "game",
            "game g/1 status",
            "game é status",
            "if",
            "if x status",
            "if -1 status",
            "game g if 1.5 status",
        ] {
            let err = Prefixed::split(line).unwrap_err();
            assert_eq!(err.code(), "bad-argument", "{line}");
        }
        let long = "n".repeat(MAX_NAME + 1);
        assert!(Prefixed::split(&format!("game {long} status")).is_err());
        let longest = "n".repeat(MAX_NAME);
        assert!(Prefixed::split(&format!("game {longest} status")).is_ok());
    }
}
