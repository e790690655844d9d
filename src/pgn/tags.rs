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

/// Tag value bytes as text: UTF-8 when they are, else Latin-1 (each byte one character),
/// the encoding older PGN files use.
pub fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
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
    fn quotes_and_backslashes_are_escaped() {
        let mut out = String::new();
        write_quoted(&mut out, r#"a "b" \c"#);
        assert_eq!(out, r#""a \"b\" \\c""#);
    }
}
