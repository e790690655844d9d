//! A command's optional prefixes after the request id: `game <name>`, the game it is
//! for, and `if <version>`, the version it was decided on. `game` and `if` are reserved
//! words at the start of a command, in that order.

use super::name::{is_name_byte, NameError, NameRef, Version};

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
    pub fn split(line: &'a str) -> Result<Prefixed<'a>, NameError> {
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
                return Err(NameError::NoName);
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
                return Err(NameError::NoVersion);
            }
            let version = number
                .parse::<Version>()
                .map_err(|_| NameError::BadVersion(number.to_string()))?;
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
    use crate::protocol::name::MAX_NAME;

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
    fn words_end_at_unicode_blanks_too() {
        assert_eq!(next_word("  game g1 move"), ("game", " g1 move"));
        assert_eq!(next_word("\tif\u{2003}3"), ("if", "\u{2003}3"));
        assert_eq!(next_word("é\u{2003}x"), ("é", "\u{2003}x"));
        assert_eq!(next_word("ab\u{a0}c d"), ("ab", "\u{a0}c d"));
        assert_eq!(next_word("   "), ("", ""));
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
            let err = super::super::ProtocolError::from(Prefixed::split(line).unwrap_err());
            assert_eq!(err.code(), "bad-argument", "{line}");
        }
        let long = "n".repeat(MAX_NAME + 1);
        assert!(Prefixed::split(&format!("game {long} status")).is_err());
        let longest = "n".repeat(MAX_NAME);
        assert!(Prefixed::split(&format!("game {longest} status")).is_ok());
    }
}
