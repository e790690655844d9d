//! Opening names and ECO codes: lichess.org's CC0 data set (`data/openings/`, see its
//! README), embedded in the binary and read into a table at first use.
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

const DATA: [&str; 5] = [
    include_str!("../../data/openings/a.tsv"),
    include_str!("../../data/openings/b.tsv"),
    include_str!("../../data/openings/c.tsv"),
    include_str!("../../data/openings/d.tsv"),
    include_str!("../../data/openings/e.tsv"),
];

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
    entries().map(|(eco, name, pgn)| (eco, name, sans(pgn).collect()))
}

/// The lines of the data set: ECO, name, and the moves as the data set writes them.
fn entries() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    DATA.iter().flat_map(|text| {
        text.lines().skip(1).filter_map(|line| {
            let mut fields = line.split('\t');
            Some((fields.next()?, fields.next()?, fields.next()?))
        })
    })
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
    let entries: Vec<_> = entries().collect();
    // The lines in the order of their texts, which is a depth-first order of their
    // moves (the lines that start with the same moves are next to each other): each
    // line shares its longest common prefix with the one replayed before it, whose
    // positions stay on the stack, so a position is replayed once however many lines
    // pass through it (8,649 positions for 36,895 moves in the data set).
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_unstable_by_key(|&i| entries[i].2);
    let mut keys: Vec<Option<(u64, usize)>> = vec![None; entries.len()];
    // `stack[i]` is the position after the first `i` moves of `path`.
    let mut path: Vec<&str> = Vec::new();
    let mut stack = vec![Position::startpos()];
    for i in order {
        let mut moves = sans(entries[i].2).peekable();
        let mut common = 0;
        while common < path.len() && moves.next_if_eq(&path[common]).is_some() {
            common += 1;
        }
        path.truncate(common);
        stack.truncate(common + 1);
        let mut replayed = true;
        for san in moves {
            let next = stack
                .last()
                .and_then(|pos| Some(pos.after(pos.parse_san_bytes(san.as_bytes()).ok()?)));
            let Some(after) = next else {
                replayed = false;
                break;
            };
            stack.push(after);
            path.push(san);
        }
        if replayed {
            keys[i] = stack.last().map(|pos| (pos.repetition_key(), path.len()));
        }
    }
    let mut named = HashMap::with_capacity(entries.len());
    let mut max_ply = 0;
    for (&(eco, name, _), key) in entries.iter().zip(keys) {
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
