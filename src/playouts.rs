//! Positions for unit tests: random playouts from every position of the perft suite,
//! where checks, pins, en passant, promotions and castling all come up.

use crate::position::Position;

/// The positions of `games` random games of at most `plies` plies from each suite
/// position, the same for the same `seed`.
pub(crate) fn playouts(games: usize, plies: usize, mut seed: u64) -> Vec<Position> {
    let suite = include_str!("../tests/data/perft-suite.epd");
    let mut out = Vec::new();
    for line in suite.lines() {
        let fen = line.split(';').next().unwrap_or("").trim();
        let Ok(start) = Position::from_fen(fen) else {
            continue;
        };
        for _ in 0..games {
            let mut pos = start;
            for _ in 0..plies {
                out.push(pos);
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.play_unchecked(legal.as_slice()[(seed % legal.len() as u64) as usize]);
            }
        }
    }
    out
}
