//! Offending text as an error message quotes it: a bad token of a megabyte must not
//! make a megabyte-long error line, and text decoded from JSON or read from a file
//! must not break the one line an error is.

use std::fmt::{self, Write};

/// The most characters of offending text (a token, a move, a FEN field, a name) that an
/// error message quotes; a longer text is cut there and marked `...`. Every real token
/// of the protocol and of PGN (a FEN's placement field at 71 characters is the longest)
/// fits whole.
pub const EXCERPT_CHARS: usize = 80;

/// The most characters of a file path that an error message quotes: more than any
/// system takes (Linux refuses paths of 4096 bytes), so only a path that could name no
/// file is cut.
pub const PATH_CHARS: usize = 4096;

/// Text shown whole when it is at most `EXCERPT_CHARS` characters, else its first
/// `EXCERPT_CHARS` characters followed by `...`; a control character is shown as its
/// Rust escape (`\n`, `\u{1d}`).
#[derive(Clone, Copy, Debug)]
pub struct Excerpt<'a>(pub &'a str);

/// A file path as an error quotes it: cut, the same way, at `PATH_CHARS`.
#[derive(Clone, Copy, Debug)]
pub struct PathExcerpt<'a>(pub &'a str);

fn cut(f: &mut fmt::Formatter<'_>, text: &str, limit: usize) -> fmt::Result {
    let (shown, cut) = match text.char_indices().nth(limit) {
        None => (text, false),
        Some((end, _)) => (text.get(..end).unwrap_or_default(), true),
    };
    for c in shown.chars() {
        if c.is_control() {
            write!(f, "{}", c.escape_default())?;
        } else {
            f.write_char(c)?;
        }
    }
    if cut {
        f.write_str("...")?;
    }
    Ok(())
}

impl fmt::Display for Excerpt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        cut(f, self.0, EXCERPT_CHARS)
    }
}

impl fmt::Display for PathExcerpt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        cut(f, self.0, PATH_CHARS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error is one line: a line feed or any other control character in quoted
    /// text (a JSON string's `\n`, a file's bytes) is shown escaped.
    #[test]
    fn control_characters_are_shown_escaped() {
        assert_eq!(Excerpt("a\nb").to_string(), "a\\nb");
        assert_eq!(Excerpt("\u{1d}x\t").to_string(), "\\u{1d}x\\t");
        assert_eq!(Excerpt("\u{85}").to_string(), "\\u{85}");
        assert_eq!(Excerpt("é a").to_string(), "é a");
        let long = "\n".repeat(EXCERPT_CHARS + 1);
        assert_eq!(
            Excerpt(&long).to_string(),
            format!("{}...", "\\n".repeat(EXCERPT_CHARS))
        );
    }

    #[test]
    fn short_text_is_quoted_whole_and_long_text_is_cut_at_a_character() {
        let placement = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        assert_eq!(Excerpt(placement).to_string(), placement);
        let exact = "é".repeat(EXCERPT_CHARS);
        assert_eq!(Excerpt(&exact).to_string(), exact);
        let long = "é".repeat(1 << 20);
        assert_eq!(
            Excerpt(&long).to_string(),
            format!("{}...", "é".repeat(EXCERPT_CHARS))
        );
        let path = "d/".repeat(PATH_CHARS);
        assert_eq!(PathExcerpt(&path).to_string().len(), PATH_CHARS + 3);
    }
}
