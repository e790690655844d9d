//! Perft: counting the leaf nodes of the legal move tree, the standard test of a move
//! generator.

use crate::moves::{Move, MoveList};
use crate::position::Position;

/// One perft walker. The last ply is counted without being played (bulk counting), and
/// inner nodes skip the key update that perft never reads.
macro_rules! walker {
    ($(#[$attr:meta])* $name:ident) => {
        $(#[$attr])*
        fn $name(pos: &Position, depth: u32) -> u64 {
            if depth <= 1 {
                return if depth == 1 { pos.count_legal_moves() } else { 1 };
            }
            let mut moves = MoveList::new();
            pos.generate(&mut moves);
            let mut nodes = 0;
            for &m in &moves {
                nodes += $name(&pos.after_unkeyed(m), depth - 1);
            }
            nodes
        }
    };
}

walker!(perft_portable);

// The generator's inner loops are popcounts and bit scans; the baseline x86-64 target
// has no instructions for them, so a copy of the walker is compiled for CPUs that do and
// chosen at run time (see `scripts/bench-perft` for what it gains).
walker!(
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    perft_bit_ops
);

/// The number of move sequences of length `depth` from `pos`.
///
/// ```
/// use arbiter::{perft::perft, position::Position};
///
/// assert_eq!(perft(&Position::startpos(), 4), 197_281);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if has_bit_ops() {
        // SAFETY: `perft_bit_ops` only needs the CPU features that `has_bit_ops` has just
        // confirmed this processor has.
        return unsafe { perft_bit_ops(pos, depth) };
    }
    perft_portable(pos, depth)
}

#[cfg(target_arch = "x86_64")]
fn has_bit_ops() -> bool {
    std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
}

/// Perft per root move: each legal move with the count below it, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .iter()
        .map(|&m| (m, perft(&pos.after(m), depth.saturating_sub(1))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The portable walker is what non-x86 targets and older CPUs run; the tests
    /// otherwise only reach the dispatched one.
    #[test]
    fn portable_walker_agrees_with_published_counts() {
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        assert_eq!(perft_portable(&Position::startpos(), 4), 197_281);
        assert_eq!(
            Position::from_fen(kiwipete).map(|p| perft_portable(&p, 3)),
            Ok(97_862)
        );
    }
}
