//! The moves of a game and the repetition key of the position after each: the last
//! plies inline, the older ones in vectors.
//!
//! A process serving many games finds each move's game cold in memory. With every ply
//! in vectors of their own, a move wrote to two places far from its game's record, and
//! the processor waited there on every line however early the read-ahead asked for
//! them (sampled profiles of 100,000 games put the largest stall on those prefetches:
//! a page far away must first be looked up in the page tables, which in a virtual
//! machine are two deep). Kept inline, the last plies lie beside the position, in lines
//! the read-ahead brings with the record; the older half moves out to the vectors 16
//! plies at a time, so that one move in 16 writes there (`prefetch_ahead` asks for
//! those lines the line before).

use std::iter::Chain;
use std::slice;

use crate::moves::{Move, MoveKind};
use crate::square::Square;

/// What fills the inline moves not yet played: never read.
const UNPLAYED: Move = Move::new(Square::A1, Square::A1, MoveKind::Normal);

/// How many of the last plies are kept inline.
const RECENT: usize = 32;

/// How many plies move out to the vectors when the inline room is full: half, so that
/// an undo followed by a move does not move plies out and back.
const SPILL: usize = RECENT / 2;

/// The plies of a game, in order: those in `older_*`, then the first `recent` of the
/// inline arrays. Laid out keys first: a move reads the key it compares and writes its
/// own, and the moves' line follows.
#[derive(Clone, Debug)]
#[repr(C)]
pub struct History {
    recent_keys: [u64; RECENT],
    recent_moves: [Move; RECENT],
    recent: usize,
    older_moves: Vec<Move>,
    older_keys: Vec<u64>,
}

impl Default for History {
    fn default() -> History {
        History {
            recent_keys: [0; RECENT],
            recent_moves: [UNPLAYED; RECENT],
            recent: 0,
            older_moves: Vec::new(),
            older_keys: Vec::new(),
        }
    }
}

impl History {
    /// How many plies were played.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.older_moves.len() + self.recent
    }

    /// Adds a ply: its move and the key of the position it leads to.
    #[inline(always)]
    pub fn push(&mut self, m: Move, key: u64) {
        if self.recent == RECENT {
            self.spill();
        }
        if let (Some(slot_key), Some(slot_move)) = (
            self.recent_keys.get_mut(self.recent),
            self.recent_moves.get_mut(self.recent),
        ) {
            *slot_key = key;
            *slot_move = m;
            self.recent += 1;
        }
    }

    /// Moves the oldest inline plies out to the vectors.
    #[inline(never)]
    fn spill(&mut self) {
        self.older_moves
            .extend_from_slice(&self.recent_moves[..SPILL]);
        self.older_keys
            .extend_from_slice(&self.recent_keys[..SPILL]);
        self.recent_moves.copy_within(SPILL.., 0);
        self.recent_keys.copy_within(SPILL.., 0);
        self.recent -= SPILL;
    }

    /// Takes back the last ply; returns its move.
    pub fn pop(&mut self) -> Option<Move> {
        match self.recent.checked_sub(1) {
            Some(last) => {
                self.recent = last;
                self.recent_moves.get(last).copied()
            }
            None => {
                self.older_keys.pop();
                self.older_moves.pop()
            }
        }
    }

    /// Forgets every ply, keeping the vectors' room.
    pub fn clear(&mut self) {
        self.recent = 0;
        self.older_moves.clear();
        self.older_keys.clear();
    }

    /// Makes room for `plies` more plies at once.
    pub fn reserve(&mut self, plies: usize) {
        self.older_moves.reserve(plies);
        self.older_keys.reserve(plies);
    }

    /// The key of the position after the ply of index `ply` (0 for the first move).
    #[inline(always)]
    pub fn key(&self, ply: usize) -> Option<u64> {
        match ply.checked_sub(self.older_keys.len()) {
            Some(inline) => self.recent_keys[..self.recent].get(inline).copied(),
            None => self.older_keys.get(ply).copied(),
        }
    }

    /// The key of the position after the last ply.
    #[inline(always)]
    pub fn last_key(&self) -> Option<u64> {
        self.len().checked_sub(1).and_then(|ply| self.key(ply))
    }

    /// The moves, in order.
    pub fn moves(&self) -> Moves<'_> {
        Moves(
            self.older_moves
                .iter()
                .chain(self.recent_moves[..self.recent].iter()),
        )
    }

    /// Starts loading into the cache what the next ply reads or writes in the vectors:
    /// their ends when it moves plies out to them (see the module's comment), and the
    /// keys among the last `window` plies that lie there (the repetition count reads
    /// back that far). Most plies touch neither.
    pub fn prefetch_ahead(&self, window: usize) {
        if self.recent == RECENT {
            let moves = self
                .older_moves
                .as_ptr()
                .wrapping_add(self.older_moves.len());
            crate::prefetch::prefetch_bytes(moves.cast(), SPILL * std::mem::size_of::<Move>());
            let keys = self.older_keys.as_ptr().wrapping_add(self.older_keys.len());
            crate::prefetch::prefetch_bytes(keys.cast(), SPILL * std::mem::size_of::<u64>());
        }
        if let Some(outside) = window.checked_sub(self.recent).filter(|&n| n > 0) {
            let older = self.older_keys.len();
            let from = older.saturating_sub(outside);
            let keys = self.older_keys.as_ptr().wrapping_add(from);
            crate::prefetch::prefetch_bytes(
                keys.cast(),
                (older - from) * std::mem::size_of::<u64>(),
            );
        }
    }
}

/// The moves of a `History`, in order.
#[derive(Clone, Debug)]
pub struct Moves<'a>(Chain<slice::Iter<'a, Move>, slice::Iter<'a, Move>>);

impl Iterator for Moves<'_> {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        self.0.next().copied()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }

    fn nth(&mut self, n: usize) -> Option<Move> {
        self.0.nth(n).copied()
    }

    fn last(mut self) -> Option<Move> {
        self.next_back()
    }
}

impl DoubleEndedIterator for Moves<'_> {
    fn next_back(&mut self) -> Option<Move> {
        self.0.next_back().copied()
    }
}

// Both halves are slices: the length is exact.
impl ExactSizeIterator for Moves<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distinct moves and keys for ply `i`.
    fn ply(i: usize) -> (Move, u64) {
        let from = Square::from_index_wrapping(i as u32);
        let to = Square::from_index_wrapping(i as u32 + 1);
        (Move::new(from, to, MoveKind::Normal), 1000 + i as u64)
    }

    fn filled(plies: usize) -> History {
        let mut history = History::default();
        for i in 0..plies {
            let (m, key) = ply(i);
            history.push(m, key);
        }
        history
    }

    #[test]
    fn every_ply_is_kept_in_order_across_the_inline_room() {
        for plies in [0, 1, RECENT - 1, RECENT, RECENT + 1, 3 * RECENT + 5] {
            let history = filled(plies);
            assert_eq!(history.len(), plies);
            let moves: Vec<Move> = history.moves().collect();
            let expected: Vec<Move> = (0..plies).map(|i| ply(i).0).collect();
            assert_eq!(moves, expected, "{plies} plies");
            assert_eq!(history.moves().len(), plies);
            for i in 0..plies {
                assert_eq!(history.key(i), Some(ply(i).1), "key {i} of {plies}");
            }
            assert_eq!(history.key(plies), None);
            assert_eq!(history.last_key(), plies.checked_sub(1).map(|i| ply(i).1));
            assert_eq!(
                history.moves().last(),
                plies.checked_sub(1).map(|i| ply(i).0)
            );
        }
    }

    #[test]
    fn popping_returns_the_plies_newest_first_past_the_inline_ones() {
        let plies = 2 * RECENT + 3;
        let mut history = filled(plies);
        for i in (0..plies).rev() {
            assert_eq!(history.last_key(), Some(ply(i).1));
            assert_eq!(history.pop(), Some(ply(i).0));
            assert_eq!(history.len(), i);
        }
        assert_eq!(history.pop(), None);
        assert_eq!(history.len(), 0);
    }

    #[test]
    fn plies_pushed_after_popping_into_the_vectors_follow_the_older_ones() {
        let mut history = filled(RECENT + 4);
        for _ in 0..8 {
            history.pop();
        }
        for i in RECENT - 4..RECENT + 20 {
            let (m, key) = ply(i);
            history.push(m, key);
        }
        assert_eq!(history.len(), RECENT + 20);
        let expected: Vec<Move> = (0..RECENT + 20).map(|i| ply(i).0).collect();
        assert_eq!(history.moves().collect::<Vec<_>>(), expected);
        for i in 0..RECENT + 20 {
            assert_eq!(history.key(i), Some(ply(i).1));
        }
    }

    #[test]
    fn moves_skip_and_run_backwards_over_both_halves() {
        let history = filled(RECENT + SPILL + 3);
        let tail: Vec<Move> = history.moves().skip(SPILL - 2).take(5).collect();
        let expected: Vec<Move> = (SPILL - 2..SPILL + 3).map(|i| ply(i).0).collect();
        assert_eq!(tail, expected);
        let backwards: Vec<Move> = history.moves().rev().collect();
        let expected: Vec<Move> = (0..history.len()).rev().map(|i| ply(i).0).collect();
        assert_eq!(backwards, expected);
    }

    #[test]
    fn clear_forgets_everything() {
        let mut history = filled(RECENT + 3);
        history.clear();
        assert_eq!(history.len(), 0);
        assert_eq!(history.moves().count(), 0);
        assert_eq!(history.last_key(), None);
    }
}
