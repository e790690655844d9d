//! Games' names and versions, as a line's prefixes give them (`game <name>`,
//! `if <version>`): what makes a name, and why a prefix's text is none.

use std::fmt;
use std::hash::{Hash, Hasher};

/// The longest game name, in bytes.
pub const MAX_NAME: usize = 64;

/// A game's name, kept: 1 to 64 letters, digits, `_`, `-`, `.` and `:`, inline (a
/// `Copy` value); a line's name is a `NameRef` into the line. The bytes after the name
/// are zero.
#[derive(Clone, Copy, Eq)]
pub struct GameName {
    len: u8,
    bytes: [u8; MAX_NAME],
}

impl GameName {
    pub fn parse(text: &str) -> Result<GameName, NameError> {
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
}

/// A game's name as a line spells it, borrowed from the line: 1 to 64 name bytes. A
/// line's name goes through its lookup and into its answer without being copied into
/// a `GameName` (a 65-byte value, moved a few times a line): only a name that is kept
/// (a game created, a long job's answer) or reported (`unknown-game`) is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameRef<'a>(&'a str);

impl<'a> NameRef<'a> {
    pub fn parse(text: &'a str) -> Result<NameRef<'a>, NameError> {
        NameRef::of_text(text).ok_or_else(|| NameError::BadName(text.to_string()))
    }

    /// The name the text spells, if it is one.
    fn of_text(text: &'a str) -> Option<NameRef<'a>> {
        Some(text)
            .filter(|text| text.bytes().all(is_name_byte))
            .and_then(NameRef::of_name_bytes)
    }

    /// The name those name bytes spell, if there are 1 to 64 of them.
    pub(super) fn of_name_bytes(text: &'a str) -> Option<NameRef<'a>> {
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

/// Whether a byte may be part of a game name.
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

/// Equal as texts: the padding is not compared.
impl PartialEq for GameName {
    fn eq(&self, other: &GameName) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

/// Hashed as the name's bytes, as they are compared.
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

/// A game's version: the value the process's version clock gave its last change
/// (`clock`); 0 for the default game before its first change.
pub type Version = u64;

/// Why a line's `game <name>` or `if <version>` prefix cannot be read: the answer is
/// `bad-argument`, in these words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    /// `game` with nothing after it.
    NoName,
    /// The text after `game` is no name.
    BadName(String),
    /// `if` with nothing after it.
    NoVersion,
    /// The text after `if` is no whole number.
    BadVersion(String),
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameError::NoName => {
                f.write_str("game takes a name, then a command: game <name> <command>")
            }
            NameError::BadName(text) => write!(
                f,
                "'{text}' is not a game name (1 to {MAX_NAME} letters, digits, _, -, . and :)"
            ),
            NameError::NoVersion => {
                f.write_str("if takes a version, then a command: if <version> <command>")
            }
            NameError::BadVersion(number) => write!(
                f,
                "if takes a version, a whole number, then a command, not '{number}'"
            ),
        }
    }
}

impl std::error::Error for NameError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length, a difference at every place.
    #[test]
    fn a_name_is_its_own_text_and_no_other() {
        for len in 1..=MAX_NAME {
            let text: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            let name = GameName::from_bytes(&text).unwrap();
            assert_eq!(name.as_bytes(), &text[..], "{len}");
            for place in 0..len {
                let mut other = text.clone();
                other[place] = b'0';
                assert_ne!(name, GameName::from_bytes(&other).unwrap(), "{len} {place}");
            }
            if len > 1 {
                assert_ne!(name, GameName::from_bytes(&text[..len - 1]).unwrap());
            }
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

    #[test]
    fn names_are_equal_as_texts() {
        let name = |text: &str| GameName::parse(text).unwrap();
        assert_eq!(name("g1"), name("g1"));
        assert_ne!(name("g1"), name("g10"));
        assert_ne!(name("g1"), name("G1"));
        assert_eq!(name(&"n".repeat(MAX_NAME)), name(&"n".repeat(MAX_NAME)));
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
}
