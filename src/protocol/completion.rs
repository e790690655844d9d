//! Tab completion for the interactive mode: command keywords first, then the legal
//! moves of the position (UCI and SAN), squares and the fixed argument words.

use crate::position::Position;
use crate::square::Square;
use crate::uci::CastlingMode;

use super::command::KEYWORDS;

/// Words that follow some keyword.
const ARGUMENT_WORDS: [&str; 11] = [
    "startpos",
    "fen",
    "moves",
    "perft",
    "name",
    "value",
    "UCI_Chess960",
    "true",
    "false",
    "white",
    "black",
];

/// Where the word under the cursor starts in `before` (the line up to the cursor), and
/// the words it may complete to, sorted.
pub fn complete(before: &str, pos: &Position, mode: CastlingMode) -> (usize, Vec<String>) {
    let start = before.rfind(char::is_whitespace).map_or(0, |i| {
        i + before[i..].chars().next().map_or(1, char::len_utf8)
    });
    let word = &before[start..];
    let first = before[..start].trim().is_empty();
    let mut candidates: Vec<String> = if first {
        KEYWORDS.iter().map(|k| k.to_string()).collect()
    } else {
        let mut words: Vec<String> = ARGUMENT_WORDS.iter().map(|w| w.to_string()).collect();
        for &m in &pos.legal_moves() {
            words.push(m.to_uci(mode).to_string());
            words.push(pos.san(m));
        }
        words.extend(Square::ALL.iter().map(|s| s.to_string()));
        words
    };
    candidates.retain(|c| c.starts_with(word));
    candidates.sort_unstable();
    candidates.dedup();
    (start, candidates)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completes_keywords_then_moves_and_squares() {
        let pos = Position::startpos();
        let (start, words) = complete("un", &pos, CastlingMode::Standard);
        assert_eq!((start, words), (0, vec!["undo".to_string()]));
        let (start, words) = complete("move Nf", &pos, CastlingMode::Standard);
        assert_eq!(start, 5);
        assert_eq!(words, vec!["Nf3".to_string()]);
        let (_, words) = complete("moves e2", &pos, CastlingMode::Standard);
        assert_eq!(words, vec!["e2", "e2e3", "e2e4"]);
    }
}
