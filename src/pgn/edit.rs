//! The edits `arbiter --pgn` makes to the games it writes: what `--strip` leaves out of
//! the movetext, which tags `--add` computes, and the result repairs of
//! `--fix-results`.

use std::fmt;

use super::reader::Outcome;

/// What `--strip` leaves out of the movetext written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Strip {
    /// Every comment, `{ }` and `;`.
    pub comments: bool,
    /// Every NAG (`$1`, and `!`, `?`... which the reader reads as NAGs).
    pub nags: bool,
    /// Every variation, with the comments and NAGs inside it (its moves are still
    /// checked).
    pub variations: bool,
    /// The `[%clk ...]`, `[%emt ...]` and `[%eval ...]` commands inside comments; a
    /// comment that held one and is left blank goes.
    pub clocks: bool,
}

/// The words of `--strip`, in the order the usage error lists them.
pub const STRIP_WORDS: [&str; 4] = ["comments", "nags", "variations", "clocks"];

/// The words of `--add`.
pub const ADD_WORDS: [&str; 3] = ["eco", "opening", "plycount"];

/// Why a list of `--strip` or `--add` words cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditError {
    /// A word that is none of the flag's words (an empty one among them).
    UnknownWord {
        flag: &'static str,
        word: String,
        words: &'static [&'static str],
    },
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::UnknownWord { flag, word, words } => write!(
                f,
                "{flag}: unknown word '{word}'; the words are {} (comma-separated)",
                words.join(", ")
            ),
        }
    }
}

impl std::error::Error for EditError {}

/// Which of `words` a comma-separated list names, in their order.
fn parse_words<const N: usize>(
    flag: &'static str,
    list: &str,
    words: &'static [&'static str; N],
) -> Result<[bool; N], EditError> {
    let mut named = [false; N];
    for word in list.split(',') {
        let word = word.trim();
        match words.iter().position(|w| *w == word) {
            Some(i) => named[i] = true,
            None => {
                return Err(EditError::UnknownWord {
                    flag,
                    word: word.to_string(),
                    words,
                })
            }
        }
    }
    Ok(named)
}

impl Strip {
    /// The list of `--strip`: any of `comments`, `nags`, `variations`, `clocks`,
    /// comma-separated.
    pub fn parse(list: &str) -> Result<Strip, EditError> {
        let [comments, nags, variations, clocks] = parse_words("--strip", list, &STRIP_WORDS)?;
        Ok(Strip {
            comments,
            nags,
            variations,
            clocks,
        })
    }

    /// Whether anything is left out.
    pub fn any(&self) -> bool {
        self.comments || self.nags || self.variations || self.clocks
    }
}

/// The tags `--add` computes from the moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Add {
    pub eco: bool,
    pub opening: bool,
    pub plycount: bool,
}

impl Add {
    /// The list of `--add`: any of `eco`, `opening`, `plycount`, comma-separated.
    pub fn parse(list: &str) -> Result<Add, EditError> {
        let [eco, opening, plycount] = parse_words("--add", list, &ADD_WORDS)?;
        Ok(Add {
            eco,
            opening,
            plycount,
        })
    }

    pub fn any(&self) -> bool {
        self.eco || self.opening || self.plycount
    }
}

/// The commands `Strip::clocks` removes, each as `[%` and its name.
const CLOCK_COMMANDS: [&str; 3] = ["clk", "emt", "eval"];

/// A comment's text without its `[%clk ...]`, `[%emt ...]` and `[%eval ...]` commands
/// (a command is its name after `[%`, then a blank or the `]`, up to the first `]`; one
/// never closed stays), and whether any was there.
pub fn strip_clocks(text: &str) -> (String, bool) {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut removed = false;
    while let Some(at) = rest.find("[%") {
        let after = &rest[at + 2..];
        let name_len = after
            .find(|c: char| c.is_whitespace() || c == ']')
            .unwrap_or(after.len());
        let close = after.find(']');
        match close {
            Some(close) if CLOCK_COMMANDS.contains(&&after[..name_len]) => {
                out.push_str(&rest[..at]);
                // The blank the command leaves is kept as one, so that the words on
                // either side stay apart.
                out.push(' ');
                rest = &after[close + 1..];
                removed = true;
            }
            _ => {
                out.push_str(&rest[..at + 2]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    (out, removed)
}

/// A result `--fix-results` rewrote: what the game said, and what its final position
/// makes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repair {
    /// The result token when it was wrong, else the `Result` tag's value.
    pub from: String,
    pub to: Outcome,
}

/// `result <from> -> <to>`: what follows `game <n> [<file>]` on the line that reports a
/// repair on stderr.
impl fmt::Display for Repair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "result {} -> {}", self.from, self.to.token())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_takes_any_subset_of_its_words() {
        assert_eq!(
            Strip::parse("clocks,nags").unwrap(),
            Strip {
                nags: true,
                clocks: true,
                ..Strip::default()
            }
        );
        let all = Strip::parse("comments,nags,variations,clocks").unwrap();
        assert!(all.comments && all.nags && all.variations && all.clocks);
    }

    #[test]
    fn an_unknown_word_names_the_words() {
        let error = Strip::parse("comments,clock").unwrap_err();
        assert_eq!(
            error.to_string(),
            "--strip: unknown word 'clock'; the words are comments, nags, variations, clocks (comma-separated)"
        );
        assert!(Add::parse("").is_err());
        assert!(Add::parse("eco,,plycount").is_err());
        assert_eq!(
            Add::parse("plycount").unwrap(),
            Add {
                plycount: true,
                ..Add::default()
            }
        );
    }

    #[test]
    fn clock_commands_go_and_the_rest_stays() {
        assert_eq!(
            strip_clocks("[%clk 0:03:00] [%eval 0.17]"),
            ("   ".to_string(), true)
        );
        let (text, removed) = strip_clocks("good [%clk 1:00:00]move [%csl Gd4] [%emt 0:00:02]");
        assert!(removed);
        assert_eq!(
            text.split_whitespace().collect::<Vec<_>>(),
            ["good", "move", "[%csl", "Gd4]"]
        );
    }

    #[test]
    fn only_whole_commands_of_those_names_go() {
        for kept in [
            "[%clock 0:01]",
            "[%evaluation 3]",
            "[%clk 0:01:00 never closed",
            "a [% clk 1] b",
            "[%CLK 0:01:00]",
        ] {
            assert_eq!(strip_clocks(kept), (kept.to_string(), false), "{kept}");
        }
        assert_eq!(strip_clocks("[%eval]x"), (" x".to_string(), true));
        assert_eq!(strip_clocks("[%eval #-3,20]"), (" ".to_string(), true));
    }
}
