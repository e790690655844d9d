//! Opening names and ECO codes: lichess.org's CC0 data set (`data/openings/`, see its
//! README), embedded in the binary (split and ordered by build.rs) and replayed into a
//! table at first use, in about a millisecond.
//!
//! A position is named by its identity as EPD (placement, side to move, castling, the
//! en-passant square only when a capture there is legal): the repetition key, which a
//! replayed game already holds for every position, so classifying a game replays
//! nothing.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::game::Game;
use crate::position::Position;

/// A named opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    pub eco: &'static str,
    pub name: &'static str,
}

// `LINES` and `REPLAY`, made by build.rs from data/openings/*.tsv.
include!(concat!(env!("OUT_DIR"), "/openings.rs"));

/// The named positions, and the most plies any named line has.
pub struct Table {
    named: HashMap<u64, Opening>,
    pub max_ply: usize,
}

/// The table, built once. A line whose moves do not replay is left out (none does in
/// the data set; a test checks that).
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// The lines of the data set: ECO, name, and the moves as SAN tokens.
pub fn lines() -> impl Iterator<Item = (&'static str, &'static str, Vec<&'static str>)> {
    LINES
        .iter()
        .map(|&(eco, name, pgn)| (eco, name, sans(pgn).collect()))
}

/// The SAN tokens of a line's moves: its words but the move numbers.
fn sans(pgn: &'static str) -> impl Iterator<Item = &'static str> {
    pgn.split_ascii_whitespace().filter(|t| !t.ends_with('.'))
}

/// The position a line of moves from the standard start reaches, `None` when one does
/// not replay.
pub fn replay(moves: &[&str]) -> Option<Position> {
    let mut pos = Position::startpos();
    for san in moves {
        let m = pos.parse_san(san).ok()?;
        pos.play_unchecked(m);
    }
    Some(pos)
}

fn build() -> Table {
    // The lines in the order of their moves (build.rs sorts them): each shares its
    // first `common` moves with the line replayed before it, whose positions stay on the
    // stack, so a position is replayed once however many lines pass through it (8,649
    // positions for 36,895 moves in the data set).
    let mut keys: Vec<Option<(u64, usize)>> = vec![None; LINES.len()];
    // `stack[i]` is the position after the first `i` moves of the line replayed last,
    // as far as they replayed.
    let mut stack = vec![Position::startpos()];
    for &(index, common) in &REPLAY {
        let index = usize::from(index);
        let Some(&(_, _, pgn)) = LINES.get(index) else {
            continue;
        };
        let kept = usize::from(common).min(stack.len().saturating_sub(1));
        stack.truncate(kept + 1);
        let mut replayed = true;
        for san in sans(pgn).skip(kept) {
            let next = stack
                .last()
                .and_then(|pos| Some(pos.after(pos.parse_san_bytes(san.as_bytes()).ok()?)));
            let Some(after) = next else {
                replayed = false;
                break;
            };
            stack.push(after);
        }
        if replayed {
            keys[index] = stack
                .last()
                .map(|pos| (pos.repetition_key(), stack.len().saturating_sub(1)));
        }
    }
    let mut named = HashMap::with_capacity(LINES.len());
    let mut max_ply = 0;
    for (&(eco, name, _), key) in LINES.iter().zip(keys) {
        let Some((key, plies)) = key else {
            continue;
        };
        max_ply = max_ply.max(plies);
        // The first line in file order that names a position names it.
        named.entry(key).or_insert(Opening { eco, name });
    }
    Table { named, max_ply }
}

impl Table {
    /// The opening of a position, if it is named.
    pub fn get(&'static self, pos: &Position) -> Option<&'static Opening> {
        self.get_key(pos.repetition_key())
    }

    fn get_key(&'static self, key: u64) -> Option<&'static Opening> {
        self.named.get(&key)
    }
}

/// The opening of a game: that of the last position of its main line, walking back
/// from its end, that the table names (the start included).
pub fn classify(game: &Game) -> Option<&'static Opening> {
    let table = table();
    // No named line is longer than `max_ply`: from the standard start, positions past
    // it are never named.
    let plies = if *game.base() == Position::startpos() {
        table.max_ply
    } else {
        usize::MAX
    };
    let keys = game.keys().take(plies);
    let mut found = None;
    for key in keys.rev() {
        if let Some(opening) = table.get_key(key) {
            found = Some(opening);
            break;
        }
    }
    found.or_else(|| table.get(game.base()))
}
