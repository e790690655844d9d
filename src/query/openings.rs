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
    DATA.iter().flat_map(|text| {
        text.lines().skip(1).filter_map(|line| {
            let mut fields = line.split('\t');
            let eco = fields.next()?;
            let name = fields.next()?;
            let pgn = fields.next()?;
            let moves = pgn
                .split_whitespace()
                .filter(|t| !t.ends_with('.'))
                .collect();
            Some((eco, name, moves))
        })
    })
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
    let mut named = HashMap::new();
    let mut max_ply = 0;
    for (eco, name, moves) in lines() {
        let Some(pos) = replay(&moves) else {
            continue;
        };
        max_ply = max_ply.max(moves.len());
        // The first line that names a position names it.
        named
            .entry(pos.repetition_key())
            .or_insert(Opening { eco, name });
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
