//! A game's tag pairs: the Seven Tag Roster in its order, then any other tag.

use std::collections::BTreeMap;
use std::fmt;

use crate::excerpt::Excerpt;

/// The Seven Tag Roster, in the order the export format writes it, with the value each
/// takes when it is unknown.
pub const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// The tags that are worked out from the game itself and never set by hand.
pub const DERIVED: [&str; 4] = ["Result", "SetUp", "FEN", "Variant"];

/// Why a tag cannot be set as asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TagError {
    /// Not a PGN tag name: letters, digits and underscores, starting with a letter.
    BadName(String),
    /// A tag derived from the game (`Result`, `SetUp`, `FEN`, `Variant`).
    Derived(String),
    /// A name that differs from a derived tag's only in case (`result`), which readers
    /// would take for that tag.
    LikeDerived(String, &'static str),
    /// A value holding a control character (tab included), which PGN export format
    /// does not allow in a tag value.
    ControlChar(char),
}

impl fmt::Display for TagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TagError::BadName(name) => write!(
                f,
                "'{}' is not a tag name (letters, digits and underscores, starting with a letter)",
                Excerpt(name)
            ),
            TagError::Derived(name) => {
                write!(f, "the {name} tag is derived from the game and cannot be set")
            }
            TagError::LikeDerived(name, derived) => write!(
                f,
                "'{name}' differs from the {derived} tag only in case; the {derived} tag is derived from the game and cannot be set"
            ),
            TagError::ControlChar(c) => write!(
                f,
                "a tag value cannot hold the control character {} (PGN export format allows none, not even a tab)",
                describe_char(*c)
            ),
        }
    }
}

impl std::error::Error for TagError {}

/// Whether text is a tag name the PGN standard allows.
pub fn is_valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The tag pairs of a game, without the derived ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tags {
    /// The roster's first six values (Result is derived), in roster order.
    roster: [String; 6],
    /// Every other tag, in ASCII order of its name.
    others: BTreeMap<String, String>,
}

impl Default for Tags {
    fn default() -> Tags {
        Tags {
            roster: std::array::from_fn(|i| ROSTER[i].1.to_string()),
            others: BTreeMap::new(),
        }
    }
}

fn roster_index(name: &str) -> Option<usize> {
    ROSTER[..6].iter().position(|(n, _)| *n == name)
}

impl Tags {
    /// Sets a tag, refusing bad names and derived tags.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), TagError> {
        check_settable(name)?;
        if let Some(c) = value.chars().find(|c| c.is_control()) {
            return Err(TagError::ControlChar(c));
        }
        self.insert(name, value);
        Ok(())
    }

    /// Removes a tag: a roster tag goes back to its unknown value.
    pub fn remove(&mut self, name: &str) -> Result<(), TagError> {
        check_settable(name)?;
        match roster_index(name) {
            Some(i) => self.roster[i] = ROSTER[i].1.to_string(),
            None => {
                self.others.remove(name);
            }
        }
        Ok(())
    }

    /// Removes a tag other than the roster's, settable or not.
    pub fn drop_other(&mut self, name: &str) {
        self.others.remove(name);
    }

    /// Sets a tag read from a file; derived tags are the caller's business and are
    /// ignored here.
    pub fn insert(&mut self, name: &str, value: &str) {
        if DERIVED.contains(&name) {
            return;
        }
        match roster_index(name) {
            Some(i) => self.roster[i] = value.to_string(),
            None => {
                self.others.insert(name.to_string(), value.to_string());
            }
        }
    }

    /// A tag's value, roster or not (derived tags are not held here).
    pub fn get(&self, name: &str) -> Option<&str> {
        match roster_index(name) {
            Some(i) => Some(&self.roster[i]),
            None => self.others.get(name).map(String::as_str),
        }
    }

    /// The six roster tags other than Result, in roster order.
    pub fn roster(&self) -> impl Iterator<Item = (&str, &str)> {
        ROSTER[..6]
            .iter()
            .zip(&self.roster)
            .map(|((name, _), value)| (*name, value.as_str()))
    }

    /// The tags outside the roster, in ASCII order of their names.
    pub fn others(&self) -> impl Iterator<Item = (&str, &str)> {
        self.others.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }
}

fn check_settable(name: &str) -> Result<(), TagError> {
    if !is_valid_name(name) {
        return Err(TagError::BadName(name.to_string()));
    }
    if DERIVED.contains(&name) {
        return Err(TagError::Derived(name.to_string()));
    }
    if let Some(derived) = DERIVED
        .iter()
        .copied()
        .find(|d| d.eq_ignore_ascii_case(name))
    {
        return Err(TagError::LikeDerived(name.to_string(), derived));
    }
    Ok(())
}

/// The characters Windows-1252 gives the bytes 0x80 to 0x9F, where Latin-1 has C1
/// controls; the five bytes it leaves undefined stay the C1 controls of their code.
const CP1252_HIGH: [char; 32] = [
    '\u{20ac}', '\u{81}', '\u{201a}', '\u{192}', '\u{201e}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{2c6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8d}', '\u{17d}', '\u{8f}',
    '\u{90}', '\u{2018}', '\u{2019}', '\u{201c}', '\u{201d}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{2dc}', '\u{2122}', '\u{161}', '\u{203a}', '\u{153}', '\u{9d}', '\u{17e}', '\u{178}',
];

/// A byte that is not part of valid UTF-8, as the single-byte encodings of older PGN
/// files read it: Windows-1252 for 0x80-0x9F (what Windows tools write), else Latin-1.
fn single_byte_char(b: u8) -> char {
    match b {
        0x80..=0x9f => CP1252_HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

/// The characters of PGN text bytes: its valid UTF-8 sequences as UTF-8, every other
/// byte as Windows-1252 (Latin-1 beyond 0x9F), so that a value mixing both loses
/// neither.
fn decoded_chars(bytes: &[u8]) -> impl Iterator<Item = char> + '_ {
    bytes.utf8_chunks().flat_map(|chunk| {
        chunk
            .valid()
            .chars()
            .chain(chunk.invalid().iter().map(|&b| single_byte_char(b)))
    })
}

/// PGN text bytes (a tag value, a comment) as text: see `decoded_chars`.
pub fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => decoded_chars(bytes).collect(),
    }
}

/// The first control character of PGN text bytes other than those `allowed`, as
/// `decode` reads them. Plain ASCII, nearly every value and comment, is told at once.
pub fn first_control(bytes: &[u8], allowed: &[char]) -> Option<char> {
    if crate::scan::all_printable(bytes) {
        return None;
    }
    first_control_in_any(bytes, allowed)
}

#[cold]
fn first_control_in_any(bytes: &[u8], allowed: &[char]) -> Option<char> {
    let control = |c: &char| c.is_control() && !allowed.contains(c);
    // A comment that spans lines has a line break or two in a long printable text:
    // the bytes are looked at a word at a time up to each one.
    let mut at = 0;
    while let Some(i) = crate::scan::first_odd(&bytes[at..]) {
        let b = bytes[at + i];
        if b >= 0x80 {
            return decoded_chars(&bytes[at + i..]).find(control);
        }
        if control(&char::from(b)) {
            return Some(char::from(b));
        }
        at += i + 1;
    }
    None
}

/// A character as an error names it: its code point, and itself when it is visible.
pub fn describe_char(c: char) -> String {
    if c.is_control() {
        format!("U+{:04X}", u32::from(c))
    } else {
        format!("'{c}' (U+{:04X})", u32::from(c))
    }
}

/// A tag value between quotes, its quotes and backslashes escaped.
pub fn write_quoted(out: &mut String, value: &str) {
    out.push('"');
    for c in value.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_tags_hold_the_roster_unknowns() {
        let tags = Tags::default();
        let roster: Vec<(&str, &str)> = tags.roster().collect();
        assert_eq!(
            roster,
            [
                ("Event", "?"),
                ("Site", "?"),
                ("Date", "????.??.??"),
                ("Round", "?"),
                ("White", "?"),
                ("Black", "?")
            ]
        );
    }

    #[test]
    fn names_must_start_with_a_letter() {
        assert!(is_valid_name("WhiteElo"));
        assert!(is_valid_name("My_Tag2"));
        assert!(!is_valid_name("2Tag"));
        assert!(!is_valid_name("_Tag"));
        assert!(!is_valid_name("Tag-X"));
        assert!(!is_valid_name(""));
    }

    #[test]
    fn derived_tags_cannot_be_set_or_removed() {
        let mut tags = Tags::default();
        for name in DERIVED {
            assert_eq!(
                tags.set(name, "x"),
                Err(TagError::Derived(name.to_string()))
            );
            assert_eq!(tags.remove(name), Err(TagError::Derived(name.to_string())));
        }
    }

    #[test]
    fn names_differing_from_a_derived_tag_only_in_case_are_refused() {
        let mut tags = Tags::default();
        for (name, derived) in [
            ("result", "Result"),
            ("fen", "FEN"),
            ("SETUP", "SetUp"),
            ("variant", "Variant"),
        ] {
            assert_eq!(
                tags.set(name, "x"),
                Err(TagError::LikeDerived(name.to_string(), derived))
            );
        }
        assert_eq!(tags.set("Results", "x"), Ok(()));
    }

    #[test]
    fn removing_a_roster_tag_restores_its_unknown_value() {
        let mut tags = Tags::default();
        tags.set("Date", "2026.12.01").unwrap();
        tags.remove("Date").unwrap();
        assert_eq!(tags.get("Date"), Some("????.??.??"));
    }

    #[test]
    fn other_tags_come_in_ascii_order() {
        let mut tags = Tags::default();
        tags.set("WhiteElo", "2000").unwrap();
        tags.set("Annotator", "me").unwrap();
        tags.set("ECO", "C20").unwrap();
        let names: Vec<&str> = tags.others().map(|(n, _)| n).collect();
        assert_eq!(names, ["Annotator", "ECO", "WhiteElo"]);
        tags.remove("ECO").unwrap();
        assert_eq!(tags.get("ECO"), None);
    }

    #[test]
    fn latin1_bytes_decode_when_not_utf8() {
        assert_eq!(decode(b"Caf\xe9"), "Café");
        assert_eq!(decode("Café".as_bytes()), "Café");
    }

    #[test]
    fn bytes_0x80_to_0x9f_are_windows_1252() {
        assert_eq!(
            decode(b"\x93Smart\x94 \x80"),
            "\u{201c}Smart\u{201d} \u{20ac}"
        );
        // Undefined in Windows-1252: the C1 control, which is then refused.
        assert_eq!(first_control(b"a\x81b", &[]), Some('\u{81}'));
    }

    #[test]
    fn utf8_next_to_single_bytes_stays_utf8() {
        let mut mixed = "Café ".as_bytes().to_vec();
        mixed.extend_from_slice(b"Mot\xf6rhead");
        assert_eq!(decode(&mixed), "Café Motörhead");
    }

    #[test]
    fn control_characters_are_found() {
        assert_eq!(first_control(b"plain [%clk 0:01:00]", &[]), None);
        assert_eq!(first_control(b"a\tb", &['\t']), None);
        assert_eq!(first_control(b"a\tb", &[]), Some('\t'));
        assert_eq!(first_control(b"a\x07b", &['\t']), Some('\u{7}'));
        assert_eq!(first_control("a\u{85}".as_bytes(), &[]), Some('\u{85}'));
        assert_eq!(first_control(b"a\x7f", &[]), Some('\u{7f}'));
        assert_eq!(first_control(b"a\r\n", &['\r', '\n']), None);
    }

    #[test]
    fn set_refuses_control_characters() {
        let mut tags = Tags::default();
        assert_eq!(tags.set("White", "a\tb"), Err(TagError::ControlChar('\t')));
        assert_eq!(
            tags.set("White", "a\u{1}"),
            Err(TagError::ControlChar('\u{1}'))
        );
        assert!(tags.set("White", "a b").is_ok());
    }

    #[test]
    fn quotes_and_backslashes_are_escaped() {
        let mut out = String::new();
        write_quoted(&mut out, r#"a "b" \c"#);
        assert_eq!(out, r#""a \"b\" \\c""#);
    }
}
