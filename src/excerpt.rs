//! Offending text as an error message quotes it: a bad token of a megabyte must not
//! make a megabyte-long error line.

use std::fmt;

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
/// `EXCERPT_CHARS` characters followed by `...`.
#[derive(Clone, Copy, Debug)]
pub struct Excerpt<'a>(pub &'a str);

/// A file path as an error quotes it: cut, the same way, at `PATH_CHARS`.
#[derive(Clone, Copy, Debug)]
pub struct PathExcerpt<'a>(pub &'a str);

fn cut(f: &mut fmt::Formatter<'_>, text: &str, limit: usize) -> fmt::Result {
    match text.char_indices().nth(limit) {
        None => f.write_str(text),
        Some((end, _)) => write!(f, "{}...", text.get(..end).unwrap_or_default()),
    }
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
