//! Perft: counting the leaf nodes of the legal move tree, the standard test of a move
//! generator.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::bitboard::Bitboard;
use crate::frontier::Frontier;
use crate::movegen::{shift, CheckInfo, Sink};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::role::Role;
use crate::square::Square;

/// Subtrees this shallow are walked without looking at the stop flag: perft 3 is at most
/// a few hundred thousand nodes (well under a millisecond), so a stop is seen quickly,
/// while the flag is read at a tiny fraction of the nodes.
const UNCHECKED_DEPTH: u32 = 3;

/// Plays each move as the generator finds it and adds up the counts below: no move list,
/// and the generator says which piece moves, which the position would otherwise look up.
struct Expand<'a, F> {
    pos: &'a Position,
    nodes: u64,
    below: F,
}

impl<F: FnMut(&Position) -> u64> Sink for Expand<'_, F> {
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard) {
        for to in targets {
            let child = self
                .pos
                .after_unkeyed_by(role, Move::new(from, to, MoveKind::Normal));
            self.nodes += (self.below)(&child);
        }
    }

    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i32, kind: MoveKind) {
        for to in targets {
            let from = Square::from_index_wrapping((to as i32 - delta) as u32);
            let child = self
                .pos
                .after_unkeyed_by(Role::Pawn, Move::new(from, to, kind));
            self.nodes += (self.below)(&child);
        }
    }

    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, delta: i32) {
        for to in targets {
            let from = Square::from_index_wrapping((to as i32 - delta) as u32);
            for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                let m = Move::new(from, to, MoveKind::Promotion(role));
                let child = self.pos.after_unkeyed_by(Role::Pawn, m);
                self.nodes += (self.below)(&child);
            }
        }
    }

    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn single(&mut self, m: Move) {
        let child = self.pos.after_unkeyed(m);
        self.nodes += (self.below)(&child);
    }
}

/// The ply above the last: plays each move as the generator finds it and counts the
/// replies, telling the counter which pieces check, worked out from the move itself, and
/// for an ordinary move what this ply knows of the pieces that reply (`after`).
struct Leaves<'a, F, G> {
    pos: &'a Position,
    /// `pos` with the turn passed: quiet moves are played on it and taken back, which
    /// writes the two sets they change where a copy of the position writes them all.
    board: Position,
    /// The pieces of the side not to move: the targets a move captures on.
    theirs: Bitboard,
    check: CheckInfo,
    nodes: u64,
    leaf: F,
    after: G,
}

impl<F, G> Leaves<'_, F, G>
where
    F: FnMut(&Position, Bitboard) -> u64,
    G: FnMut(&Position, Bitboard, Role, Square, Square) -> u64,
{
    /// The leaves below `pos`, counted by `leaf` after special moves and by `after`
    /// after ordinary ones.
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn count(pos: &Position, leaf: F, after: G) -> u64 {
        let mut leaves = Leaves {
            pos,
            board: pos.passed_unkeyed(),
            theirs: pos.by_color(pos.turn().other()),
            check: pos.check_info(),
            nodes: 0,
            leaf,
            after,
        };
        pos.generate(&mut leaves);
        leaves.nodes
    }

    /// A quiet move (no capture) between the two squares of `moved`, played in place on
    /// `board`.
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn quiet(&mut self, role: Role, from: Square, to: Square, double_push: bool, moved: Bitboard) {
        self.board
            .play_quiet_in_place(self.pos, role, (from, to), double_push, moved);
        let checkers = self
            .pos
            .checkers_after(&self.check, &self.board, role, from, to);
        self.nodes += (self.after)(&self.board, checkers, role, from, to);
        self.board.unplay_quiet_in_place(self.pos, role);
    }

    /// A capture: the piece taken is not known, and the position is copied.
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn capture(&mut self, role: Role, m: Move) {
        let child = self.pos.after_unkeyed_by(role, m);
        let checkers = self
            .pos
            .checkers_after(&self.check, &child, role, m.from(), m.to());
        self.nodes += (self.after)(&child, checkers, role, m.from(), m.to());
    }

    /// A move that moves a second piece, removes one elsewhere or changes a piece's
    /// kind: its child looks for its checkers itself.
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn special(&mut self, role: Role, m: Move) {
        let child = self.pos.after_unkeyed_by(role, m);
        self.nodes += (self.leaf)(&child, child.checkers_seen_first());
    }
}

impl<F, G> Sink for Leaves<'_, F, G>
where
    F: FnMut(&Position, Bitboard) -> u64,
    G: FnMut(&Position, Bitboard, Role, Square, Square) -> u64,
{
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard) {
        // Quiet moves and captures in loops of their own: no branch per move on which.
        // The squares a quiet move changes are taken from the sets, not worked out again
        // from its squares (which can make the compiler build a jump per square).
        let origin = Bitboard::from_square(from);
        let mut quiet = targets & !self.theirs;
        while let Some(to) = quiet.first() {
            let target = quiet.lowest();
            quiet ^= target;
            self.quiet(role, from, to, false, origin | target);
        }
        for to in targets & self.theirs {
            self.capture(role, Move::new(from, to, MoveKind::Normal));
        }
    }

    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i32, kind: MoveKind) {
        let mut quiet = targets & !self.theirs;
        while let Some(to) = quiet.first() {
            let target = quiet.lowest();
            quiet ^= target;
            let from = Square::from_index_wrapping((to as i32 - delta) as u32);
            let moved = target | shift(target, -delta);
            let double_push = matches!(kind, MoveKind::DoublePush);
            self.quiet(Role::Pawn, from, to, double_push, moved);
        }
        for to in targets & self.theirs {
            let from = Square::from_index_wrapping((to as i32 - delta) as u32);
            self.capture(Role::Pawn, Move::new(from, to, kind));
        }
    }

    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, delta: i32) {
        for to in targets {
            let from = Square::from_index_wrapping((to as i32 - delta) as u32);
            for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                self.special(Role::Pawn, Move::new(from, to, MoveKind::Promotion(role)));
            }
        }
    }

    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn single(&mut self, m: Move) {
        let role = if m.is_en_passant() {
            Role::Pawn
        } else {
            Role::King
        };
        self.special(role, m);
    }
}

/// One perft walker, and its stoppable twin. The last ply is counted without being
/// played (bulk counting), and inner nodes skip the key update that perft never reads.
/// The stoppable walker answers `None` when the flag was raised before it finished.
macro_rules! walker {
    ($(#[$attr:meta])* $name:ident, $leaf:ident, $after:ident, $stoppable:ident) => {
        /// The last ply, counted: a function of its own, called straight from the plies
        /// above without the walker's depth tests.
        $(#[$attr])*
        // Forced: perft 57% more instructions without the perft path's forced inlines.
        #[inline(never)]
        fn $leaf(pos: &Position, checkers: Bitboard) -> u64 {
            pos.count_legal_moves_given(checkers)
        }

        /// The last ply after an ordinary move, counted with what the ply above knows.
        $(#[$attr])*
        // Forced: perft 57% more instructions without the perft path's forced inlines.
        #[inline(never)]
        fn $after(
            frontier: &Frontier,
            pos: &Position,
            checkers: Bitboard,
            role: Role,
            from: Square,
            to: Square,
        ) -> u64 {
            frontier.count(pos, checkers, role, from, to)
        }

        $(#[$attr])*
        fn $name(pos: &Position, depth: u32) -> u64 {
            if depth <= 2 {
                return match depth {
                    0 => 1,
                    1 => $leaf(pos, pos.checkers_seen_first()),
                    _ if Frontier::pays(pos) => {
                        let frontier = Frontier::new(pos);
                        Leaves::count(
                            pos,
                            |child: &Position, checkers| $leaf(child, checkers),
                            |child: &Position, checkers, role, from, to| {
                                $after(&frontier, child, checkers, role, from, to)
                            },
                        )
                    }
                    _ => Leaves::count(
                        pos,
                        |child: &Position, checkers| $leaf(child, checkers),
                        |child: &Position, checkers, _, _, _| $leaf(child, checkers),
                    ),
                };
            }
            let mut expand = Expand {
                pos,
                nodes: 0,
                below: |child: &Position| $name(child, depth - 1),
            };
            pos.generate(&mut expand);
            expand.nodes
        }

        $(#[$attr])*
        fn $stoppable(pos: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
            if depth <= UNCHECKED_DEPTH {
                return Some($name(pos, depth));
            }
            let mut moves = MoveList::new();
            pos.generate(&mut moves);
            let mut nodes = 0;
            for &m in &moves {
                // Before each subtree, so that a stop waits for one perft 3 at most.
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                nodes += $stoppable(&pos.after_unkeyed(m), depth - 1, stop)?;
            }
            Some(nodes)
        }
    };
}

walker!(
    perft_portable,
    count_portable,
    count_after_portable,
    perft_portable_stoppable
);

// The generator's inner loops are popcounts and bit scans; the baseline x86-64 target
// has no instructions for them, so a copy of the walker is compiled for CPUs that do and
// chosen at run time (see `scripts/bench-perft` for what it gains).
walker!(
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    perft_bit_ops,
    count_bit_ops,
    count_after_bit_ops,
    perft_bit_ops_stoppable
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

/// Perft that gives up when `stop` is raised: `None` if it was raised before the count
/// was complete.
fn perft_stoppable(pos: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    if has_bit_ops() {
        // SAFETY: as in `perft`, the features were just confirmed.
        return unsafe { perft_bit_ops_stoppable(pos, depth, stop) };
    }
    perft_portable_stoppable(pos, depth, stop)
}

/// Perft per root move: each legal move with the count below it, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .iter()
        .map(|&m| (m, perft(&pos.after(m), depth.saturating_sub(1))))
        .collect()
}

/// What `divide_parallel` counted: every root move whose subtree was counted completely,
/// in generation order, and whether the walk was stopped before the end (then some root
/// moves are missing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divide {
    pub moves: Vec<(Move, u64)>,
    pub stopped: bool,
}

impl Divide {
    /// The nodes below the root moves listed.
    pub fn nodes(&self) -> u64 {
        self.moves.iter().map(|&(_, nodes)| nodes).sum()
    }
}

/// One unit of work: the subtree below a root move and one reply.
struct Task {
    root: usize,
    pos: Position,
    /// Its perft 2, a guess at its size (0 when not guessed).
    size: u64,
}

/// Perft per root move on `threads` threads (at least one), giving up as soon as `stop`
/// is raised. The counts equal `divide`'s whatever the number of threads.
///
/// The work is shared as (root move, reply) pairs taken from a common counter: a few
/// hundred tasks, so every thread stays busy to the end, where sharing only the
/// twenty-odd root moves would leave one thread alone with the largest. The largest
/// tasks (by their perft 2) are taken first, so that those left at the end are small and
/// the threads finish together.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use arbiter::{perft::divide_parallel, position::Position};
///
/// let split = divide_parallel(&Position::startpos(), 4, 2, &AtomicBool::new(false));
/// assert_eq!((split.moves.len(), split.nodes(), split.stopped), (20, 197_281, false));
/// ```
pub fn divide_parallel(pos: &Position, depth: u32, threads: usize, stop: &AtomicBool) -> Divide {
    let roots = pos.legal_moves();
    if depth <= 2 {
        // Nothing worth a thread: at most one generation per root move.
        return Divide {
            moves: divide(pos, depth),
            stopped: false,
        };
    }
    let mut tasks = Vec::new();
    let mut expected = vec![0usize; roots.len()];
    for (root, &m) in roots.iter().enumerate() {
        let child = pos.after(m);
        for &reply in &child.legal_moves() {
            tasks.push(Task {
                root,
                pos: child.after_unkeyed(reply),
                size: 0,
            });
            expected[root] += 1;
        }
    }
    // Worth it when there are threads to balance and the guess is a small part of the
    // work (a task below depth 4 or more, a perft 2 above it).
    if threads > 1 && depth >= 6 {
        for task in &mut tasks {
            task.size = perft(&task.pos, 2);
        }
        tasks.sort_by_key(|task| std::cmp::Reverse(task.size));
    }
    let next = AtomicUsize::new(0);
    let worker = || {
        let mut done: Vec<(usize, u64)> = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(task) = tasks.get(i) else {
                break;
            };
            match perft_stoppable(&task.pos, depth - 2, stop) {
                Some(nodes) => done.push((task.root, nodes)),
                None => break,
            }
        }
        done
    };
    let threads = threads.clamp(1, tasks.len().max(1));
    let results: Vec<Vec<(usize, u64)>> = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(worker)).collect();
        let mut results = vec![worker()];
        // A helper cannot panic short of a bug in the walker; its tasks then count as
        // not done, which reports the walk as stopped rather than wrong.
        results.extend(helpers.into_iter().filter_map(|h| h.join().ok()));
        results
    });
    let mut nodes = vec![0u64; roots.len()];
    let mut finished = vec![0usize; roots.len()];
    for (root, count) in results.into_iter().flatten() {
        nodes[root] += count;
        finished[root] += 1;
    }
    let moves: Vec<(Move, u64)> = roots
        .iter()
        .enumerate()
        .filter(|&(root, _)| finished[root] == expected[root])
        .map(|(root, &m)| (m, nodes[root]))
        .collect();
    Divide {
        stopped: moves.len() < roots.len(),
        moves,
    }
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

    #[test]
    fn parallel_divide_equals_divide_for_any_thread_count() {
        let kiwipete = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        let stop = AtomicBool::new(false);
        for depth in 0..=4 {
            let single = divide(&kiwipete, depth);
            for threads in [1, 2, 3, 8] {
                let split = divide_parallel(&kiwipete, depth, threads, &stop);
                assert_eq!((&split.moves, split.stopped), (&single, false));
            }
        }
    }

    /// From depth 6 the tasks are taken largest first: the counts per root move are
    /// still `divide`'s, in generation order.
    #[test]
    fn tasks_taken_largest_first_still_count_each_root_move() {
        let pos = Position::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1").unwrap();
        let split = divide_parallel(&pos, 6, 2, &AtomicBool::new(false));
        assert_eq!((&split.moves, split.stopped), (&divide(&pos, 6), false));
        assert_eq!(split.nodes(), 11_030_083);
    }

    #[test]
    fn a_raised_flag_stops_the_walk_and_keeps_only_whole_root_moves() {
        let stop = AtomicBool::new(true);
        let split = divide_parallel(&Position::startpos(), 6, 2, &stop);
        assert!(split.stopped);
        assert!(split.moves.is_empty(), "{:?}", split.moves);
    }

    #[test]
    fn a_mated_root_move_counts_zero_and_is_complete() {
        // After 1. f3 e5 2. g4, Qh4 mates: below it there is nothing at any depth.
        let pos =
            Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2")
                .unwrap();
        let stop = AtomicBool::new(false);
        let split = divide_parallel(&pos, 3, 2, &stop);
        assert_eq!(split.moves, divide(&pos, 3));
        assert!(split.moves.iter().any(|&(_, n)| n == 0));
    }
}
