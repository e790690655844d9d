//! Perft: counting the leaf nodes of the legal move tree, the standard test of a move
//! generator.

use crate::moves::Move;
use crate::position::Position;

/// The number of move sequences of length `depth` from `pos`. The last ply is counted
/// without being played.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut nodes = 0;
            for &m in &pos.legal_moves() {
                nodes += perft(&pos.after(m), depth - 1);
            }
            nodes
        }
    }
}

/// Perft per root move: each legal move with the count below it, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .iter()
        .map(|&m| (m, perft(&pos.after(m), depth.saturating_sub(1))))
        .collect()
}
