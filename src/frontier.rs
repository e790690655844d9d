//! Perft's last ply counted from the ply above. The knights, bishops, rooks and queens
//! of the side to move after a move are those of the side that did not move: their
//! attacks were the same one ply up unless the move opened or closed one of their lines,
//! so the ply above looks them up once for all its moves, and each move asks again only
//! for those whose attacks it touches.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::movegen::{Counter, Danger, Officers, Watch};
use crate::position::Position;
use crate::role::Role;
use crate::square::Square;

/// What the ply above knows of the side not to move: its knights' and sliders' attacks
/// and the moves they make, as they stand before any move of the side to move.
pub(crate) struct Frontier {
    /// The squares each slider attacks, in the order of their squares (a side has 15
    /// sliders at most: 16 pieces, its king among them).
    attacks: [Bitboard; 16],
    /// Their squares, in the same order.
    squares: [Square; 16],
    /// By square, the sliders (bit `i` for `attacks[i]`) that attack it: a move changes
    /// the attacks of those on its two squares only.
    watchers: [u16; 64],
    /// All the pieces of the side not to move.
    pieces: Bitboard,
    /// Its knights.
    knights: Bitboard,
    /// Its bishops, rooks and queens.
    sliders: Bitboard,
    /// The moves of its knights and sliders, pins aside.
    moves: u64,
    /// What the side to move attacks around the enemy king.
    watch: Watch,
    /// The side to move.
    mover: Color,
    /// Whether a slider of the side to move stands on a line through the enemy king:
    /// if none does, a move of a pawn, knight or king leaves the enemy nothing pinned.
    pinners: bool,
}

impl Frontier {
    /// Whether the frontier of `pos` is worth working out: with a single knight or
    /// slider to reply (an endgame), looking it up costs less than the bookkeeping.
    pub(crate) fn pays(pos: &Position) -> bool {
        let officers = pos.by_role(Role::Knight) | pos.bishops_queens() | pos.rooks_queens();
        (officers & pos.by_color(pos.turn().other())).has_more_than_one()
    }

    /// The frontier of `pos`, whose side to move is about to play.
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    pub(crate) fn new(pos: &Position) -> Frontier {
        let them = pos.turn().other();
        let pieces = pos.by_color(them);
        let occupied = pos.occupied();
        let mut frontier = Frontier {
            attacks: [Bitboard::EMPTY; 16],
            squares: [Square::A1; 16],
            watchers: [0; 64],
            pieces,
            knights: pos.by_role(Role::Knight) & pieces,
            sliders: (pos.bishops_queens() | pos.rooks_queens()) & pieces,
            moves: 0,
            watch: pos.watch(),
            mover: pos.turn(),
            pinners: (pos.slider_rays_through(pos.king(them)) & pos.by_color(pos.turn()))
                .is_nonempty(),
        };
        for knight in frontier.knights {
            frontier.moves += u64::from((attacks::knight_attacks(knight) & !pieces).count());
        }
        for (i, slider) in frontier.sliders.enumerate() {
            let targets = pos.slider_targets(slider, occupied);
            frontier.attacks[i & 15] = targets;
            frontier.squares[i & 15] = slider;
            for sq in targets {
                frontier.watchers[sq.index()] |= 1 << (i & 15);
            }
            frontier.moves += u64::from((targets & !pieces).count());
        }
        frontier
    }

    /// The legal moves in `child`, the position after an ordinary move (not castling,
    /// en passant or a promotion) from `from` to `to` in the frontier's position, whose
    /// side to move `checkers` check.
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    pub(crate) fn count(
        &self,
        child: &Position,
        checkers: Bitboard,
        role: Role,
        from: Square,
        to: Square,
    ) -> u64 {
        let mut counter = Counter(0);
        let officers = After {
            frontier: self,
            checked: checkers.is_nonempty(),
            role,
            from,
            to,
        };
        child.generate_given_with(&mut counter, checkers, officers);
        counter.0
    }

    /// The place of the slider on `sq` in `attacks`.
    fn slider_index(&self, sq: Square) -> usize {
        let below = Bitboard((1 << sq.index()) - 1);
        (self.sliders & below).count() as usize & 15
    }

    /// The moves of the knights and sliders of `child`'s side to move, out of check.
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn officer_moves(
        &self,
        child: &Position,
        king: Square,
        pinned: Bitboard,
        from: Square,
        to: Square,
    ) -> u64 {
        let pieces = child.by_color(child.turn());
        let mut moves = self.moves;
        // The sliders whose attacks the move opened or closed.
        let mut touched = u32::from(self.watchers[from.index()] | self.watchers[to.index()]);
        if self.pieces.contains(to) {
            // A capture: the piece taken makes no more moves, and every knight of ours
            // that guarded its square may now take there. (A slider that did sees the
            // square in its attacks and is counted again below.)
            let taken = if self.sliders.contains(to) {
                let i = self.slider_index(to);
                touched &= !(1 << i);
                self.attacks[i]
            } else if self.knights.contains(to) {
                attacks::knight_attacks(to)
            } else {
                Bitboard::EMPTY
            };
            moves -= u64::from((taken & !self.pieces).count());
            moves += u64::from((attacks::knight_attacks(to) & self.knights & pieces).count());
        }
        let occupied = child.occupied();
        while touched != 0 {
            let i = touched.trailing_zeros() as usize & 15;
            touched &= touched - 1;
            let before = self.attacks[i];
            let after = child.slider_targets(self.squares[i], occupied);
            moves += u64::from((after & !pieces).count());
            moves -= u64::from((before & !self.pieces).count());
        }
        // A pinned piece keeps the moves along its pin only.
        for piece in pinned & !child.by_role(Role::Pawn) {
            let targets = if child.by_role(Role::Knight).contains(piece) {
                attacks::knight_attacks(piece)
            } else {
                child.slider_targets(piece, occupied)
            };
            moves -= u64::from((targets & !pieces & !attacks::line(king, piece)).count());
        }
        moves
    }
}

/// The officers' moves after a move from the frontier's position, counted from it.
struct After<'a> {
    frontier: &'a Frontier,
    /// Whether the side to move is in check: its pieces then answer it, which the
    /// frontier knows nothing of, and are looked up.
    checked: bool,
    /// The piece that moved.
    role: Role,
    from: Square,
    to: Square,
}

impl Officers<Counter> for After<'_> {
    fn count_pawn_steps(
        &self,
        counter: &mut Counter,
        checkers: Bitboard,
        pinned: Bitboard,
    ) -> bool {
        let watch = &self.frontier.watch;
        let moved = Bitboard::from_square(self.from).with(self.to);
        let known = (checkers | pinned | (moved & watch.pawn_view)).is_empty();
        if known {
            counter.0 += watch.pawn_steps;
        }
        known
    }

    fn may_pin(&self) -> bool {
        self.frontier.pinners || matches!(self.role, Role::Bishop | Role::Rook | Role::Queen)
    }

    fn danger(&self) -> Danger {
        let watch = &self.frontier.watch;
        let moved = Bitboard::from_square(self.from).with(self.to);
        // The enemy's pawns, knights and king stay where they were when a slider moved.
        let slider = matches!(self.role, Role::Bishop | Role::Rook | Role::Queen);
        Danger {
            sliders: (moved & watch.view).is_empty().then_some(watch.sliders),
            leapers: slider.then_some(watch.leapers),
            castles: (slider && (moved & watch.castles_view).is_empty()).then_some(watch.castles),
            clear_castles: (moved & watch.clear_view)
                .is_empty()
                .then_some(watch.clear_castles),
        }
    }

    fn leapers(&self) -> Option<Bitboard> {
        let watch = &self.frontier.watch;
        let mover = self.frontier.mover;
        // A pawn, knight or king that attacked nothing around the enemy king adds its new
        // attacks; what it attacked before matters to no square the generator asks about.
        let before = attacks::leaps(mover, self.role, self.from);
        (before & watch.leapers_view)
            .is_empty()
            .then(|| watch.leapers | attacks::leaps(mover, self.role, self.to))
    }

    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn generate(
        self,
        pos: &Position,
        counter: &mut Counter,
        king: Square,
        pinned: Bitboard,
        target: Bitboard,
    ) {
        if self.checked {
            pos.generate_officers(counter, king, pinned, target);
        } else {
            counter.0 += self
                .frontier
                .officer_moves(pos, king, pinned, self.from, self.to);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The moves of `pos` that the frontier counts after (not castling, en passant or a
    /// promotion), each checked against the generator; how many were.
    fn compare_after_each_move(pos: &Position) -> usize {
        let frontier = Frontier::new(pos);
        let mut compared = 0;
        for &m in pos.legal_moves().as_slice() {
            if m.is_castle() || m.is_en_passant() || m.promotion().is_some() {
                continue;
            }
            let child = pos.after(m);
            let role = pos.role_at(m.from()).unwrap_or(Role::Pawn);
            let got = frontier.count(&child, child.checkers(), role, m.from(), m.to());
            assert_eq!(got, child.count_legal_moves(), "{} {m:?}", pos.fen());
            compared += 1;
        }
        compared
    }

    /// After every ordinary move of positions where checks, pins, captures of every
    /// kind of piece and promoted pieces come up, the frontier's count is the count of
    /// the generator.
    #[test]
    fn counts_after_ordinary_moves_are_the_generators() {
        let compared: usize = crate::playouts::playouts(10, 60, 0x2545_f491_4f6c_dd1d)
            .iter()
            .map(compare_after_each_move)
            .sum();
        assert!(compared > 100_000, "only {compared} moves compared");
    }

    /// Castling after a move of the other side, which the ply above works out once: a
    /// slider that opens or closes a line onto a walk, a capture of a castling rook, a
    /// piece stepping into a path or out of it, a knight's or pawn's new cover, and
    /// Chess960 rooks beside and away from the corners.
    #[test]
    fn castling_after_a_move_is_the_generators() {
        for fen in [
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            "r3k2r/pppq1ppp/2n2n2/1B1pp1B1/1b1PP1b1/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
            "rn2k1nr/8/8/3B4/8/8/8/R3K2R w KQkq - 0 1",
            "r3k2r/8/8/8/2N5/8/8/R3K2R w KQkq - 0 1",
            "r3k2r/2P5/8/8/8/8/8/R3K2R w kq - 0 1",
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
            "rk5r/8/8/8/8/8/8/RK5R b HAha - 0 1",
            "1rk1r3/8/8/8/8/8/4Q3/1RK1R3 w EBeb - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert!(compare_after_each_move(&pos) > 5, "{fen}");
        }
    }
}
