//! A chess position: placement, side to move, castling rights, en passant, clocks and the
//! Polyglot key, updated move by move.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::moves::Move;
use crate::polyglot::RANDOM;
use crate::role::{Piece, Role};
use crate::square::{File, Rank, Square};

/// A position. It is small and `Copy`: playing a move on a copy is how callers keep the
/// previous position (copy-make), and the copy is the exact undo.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) by_role: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) turn: Color,
    /// The squares of the rooks that may still castle (with their king), both colours.
    pub(crate) castling: Bitboard,
    /// The square a pawn of the side to move could capture en passant onto. Set only when
    /// such a pawn stands beside the pawn that just advanced two squares, as in the
    /// Polyglot key; whether the capture is legal is the move generator's business.
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) key: u64,
}

const CASTLING_KEY_BASE: usize = 768;
const EP_KEY_BASE: usize = 772;
const TURN_KEY: u64 = RANDOM[780];
/// The Polyglot key of the standard starting position, as the Polyglot book format
/// documents it.
const STARTPOS_KEY: u64 = 0x463b_9618_1691_fc9c;

/// The Polyglot keys of the pieces, by colour, role and square: Polyglot numbers the
/// kinds black pawn, white pawn, black knight, ..., and indexing by the types themselves
/// needs no bounds check.
static PIECE_KEYS: [[[u64; 64]; 6]; 2] = {
    let mut keys = [[[0; 64]; 6]; 2];
    let mut color = 0;
    while color < 2 {
        let mut role = 0;
        while role < 6 {
            let kind = 2 * role + (1 - color);
            let mut sq = 0;
            while sq < 64 {
                keys[color][role][sq] = RANDOM[64 * kind + sq];
                sq += 1;
            }
            role += 1;
        }
        color += 1;
    }
    keys
};

fn piece_key(color: Color, role: Role, sq: Square) -> u64 {
    PIECE_KEYS[color.index()][role.index()][sq.index()]
}

/// The Polyglot key part of an en-passant square (its file).
pub(crate) fn ep_key(sq: Square) -> u64 {
    RANDOM[EP_KEY_BASE + sq.file().index()]
}

/// The Polyglot key part of an en-passant file (0 for a, ..., 7 for h).
pub(crate) fn ep_key_of_file(file: usize) -> u64 {
    RANDOM[EP_KEY_BASE + (file & 7)]
}

/// The first rank of a side.
pub(crate) fn back_rank(color: Color) -> Rank {
    color.fold(Rank::FIRST, Rank::EIGHTH)
}

/// `captured_role` from the bits of the knights, bishops, rooks and queens on the
/// square (a pawn, or nothing, has none).
const CAPTURED: [Role; 16] = {
    let mut table = [Role::Pawn; 16];
    table[1] = Role::Knight;
    table[2] = Role::Bishop;
    table[4] = Role::Rook;
    table[8] = Role::Queen;
    table
};

/// `role_of_piece_on` from the bits of the knights, bishops, rooks, queens and kings
/// on the square.
const PIECE_ROLE: [Role; 32] = {
    let mut table = [Role::Pawn; 32];
    let mut i = 0;
    while i < 16 {
        table[i] = CAPTURED[i];
        i += 1;
    }
    table[16] = Role::King;
    table
};

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        const WHITE: u64 = 0xffff;
        const BLACK: u64 = 0xffff << 48;
        let pos = Position {
            by_role: [
                Bitboard(0x00ff_0000_0000_ff00),
                Bitboard(0x4200_0000_0000_0042),
                Bitboard(0x2400_0000_0000_0024),
                Bitboard(0x8100_0000_0000_0081),
                Bitboard(0x0800_0000_0000_0008),
                Bitboard(0x1000_0000_0000_0010),
            ],
            by_color: [Bitboard(WHITE), Bitboard(BLACK)],
            turn: Color::White,
            castling: Bitboard(0x8100_0000_0000_0081),
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            key: STARTPOS_KEY,
        };
        // Every game of a database starts here: its key is known, not worked out again.
        debug_assert_eq!(pos.key, pos.compute_key());
        pos
    }

    /// An empty board with white to move and no rights; the building block for setups.
    pub(crate) fn empty() -> Position {
        Position {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            turn: Color::White,
            castling: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            key: 0,
        }
    }

    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The squares of the rooks that may still castle.
    pub fn castling_rooks(&self) -> Bitboard {
        self.castling
    }

    /// The en-passant target square, when a pawn of the side to move stands ready to
    /// capture there (the capture may still be illegal; see `legal_ep_square`).
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Half-moves since the last capture or pawn move.
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number, starting at 1 and incremented after black moves.
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The Polyglot key of this position.
    pub fn key(&self) -> u64 {
        self.key
    }

    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    /// The king of a side. Every position this crate builds has exactly one per side.
    pub fn king(&self, color: Color) -> Square {
        self.pieces(color, Role::King).single_square()
    }

    pub(crate) fn rooks_queens(&self) -> Bitboard {
        self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()]
    }

    pub(crate) fn bishops_queens(&self) -> Bitboard {
        self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()]
    }

    /// The role of the piece on a square, if any.
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        Role::ALL
            .into_iter()
            .find(|role| self.by_role[role.index()].contains(sq))
    }

    /// The role of the piece (not a king) known to stand on `sq`, found without a branch
    /// per role: which piece a move captures is different at nearly every move, and the
    /// branches of `role_at` would be mispredicted.
    fn captured_role(&self, sq: Square) -> Role {
        let on = |role: Role| (self.by_role[role.index()].0 >> sq.index()) & 1;
        let index =
            on(Role::Knight) | on(Role::Bishop) << 1 | on(Role::Rook) << 2 | on(Role::Queen) << 3;
        // A load, not a jump: captures take pieces in no order a predictor follows.
        CAPTURED[index as usize & 15]
    }

    /// The role of the piece known to stand on `sq` (pawn when none does), found
    /// without a branch per role, as `captured_role` is: which piece a replayed move
    /// moves is different at nearly every ply.
    pub(crate) fn role_of_piece_on(&self, sq: Square) -> Role {
        let on = |role: Role| (self.by_role[role.index()].0 >> sq.index()) & 1;
        let index = on(Role::Knight)
            | on(Role::Bishop) << 1
            | on(Role::Rook) << 2
            | on(Role::Queen) << 3
            | on(Role::King) << 4;
        PIECE_ROLE[index as usize & 31]
    }

    /// The piece on a square, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let role = self.role_at(sq)?;
        let color = if self.by_color[0].contains(sq) {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }

    /// The pieces of `attacker` that attack `sq`, given the occupied squares.
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        let theirs = self.by_color[attacker.index()];
        ((attacks::rook_attacks(sq, occupied) & self.rooks_queens())
            | (attacks::bishop_attacks(sq, occupied) & self.bishops_queens())
            | (attacks::knight_attacks(sq) & self.by_role(Role::Knight))
            | (attacks::king_attacks(sq) & self.by_role(Role::King))
            | (attacks::pawn_attacks(attacker.other(), sq) & self.by_role(Role::Pawn)))
            & theirs
    }

    /// Whether `attacker` attacks `sq` in this position.
    pub fn is_attacked(&self, sq: Square, attacker: Color) -> bool {
        self.attackers_to(sq, attacker, self.occupied())
            .is_nonempty()
    }

    /// The pieces giving check to the side to move. Found by their lines and the small
    /// `between` table: a game's status asks once, when the large slider tables are
    /// no longer in the cache.
    pub fn checkers(&self) -> Bitboard {
        let theirs = self.by_color(self.turn.other());
        self.attackers_by_paths(self.king(self.turn), theirs, self.occupied())
    }

    pub fn is_check(&self) -> bool {
        self.checkers().is_nonempty()
    }

    fn toggle<const HASH: bool>(&mut self, color: Color, role: Role, sq: Square) {
        let bit = Bitboard::from_square(sq);
        self.by_color[color.index()] ^= bit;
        self.by_role[role.index()] ^= bit;
        if HASH {
            self.key ^= piece_key(color, role, sq);
        }
    }

    /// Puts a piece on an empty square (for building positions).
    pub(crate) fn put(&mut self, piece: Piece, sq: Square) {
        self.toggle::<true>(piece.color, piece.role, sq);
    }

    /// The Polyglot castling contribution of a set of rights: each rook counts as
    /// king-side when it stands on the h-file side of its king.
    pub(crate) fn castling_key(&self, rights: Bitboard) -> u64 {
        let mut key = 0;
        for rook in rights {
            let color = if rook.rank() == Rank::FIRST {
                Color::White
            } else {
                Color::Black
            };
            let king_side = rook.file() > self.king(color).file();
            key ^= RANDOM[CASTLING_KEY_BASE + 2 * color.index() + usize::from(!king_side)];
        }
        key
    }

    /// The Polyglot key from scratch.
    pub(crate) fn compute_key(&self) -> u64 {
        let mut key = 0;
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in self.pieces(color, role) {
                    key ^= piece_key(color, role, sq);
                }
            }
        }
        key ^= self.castling_key(self.castling);
        if let Some(sq) = self.ep_square {
            key ^= ep_key(sq);
        }
        if self.turn == Color::White {
            key ^= TURN_KEY;
        }
        key
    }

    /// Plays a move that must be legal in this position (from the move generator or a
    /// parser that checked it). An illegal move leaves an unspecified but memory-safe
    /// position.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        self.play::<true>(m);
    }

    /// `play_unchecked` of a move whose piece the caller already knows (`role` stands on
    /// its origin): a record's move is found from its piece, which need not be looked
    /// for again.
    #[inline]
    pub(crate) fn play_unchecked_by(&mut self, role: Role, m: Move) {
        self.play_by::<true>(role, m);
    }

    /// The position after a legal move.
    #[inline]
    pub fn after(&self, m: Move) -> Position {
        let mut next = *self;
        next.play::<true>(m);
        next
    }

    /// The position after the side to move passes (a PGN null move, which annotators use
    /// in variations to show a threat); `None` in check, where passing would leave the
    /// king attacked.
    pub fn after_null(&self) -> Option<Position> {
        if self.is_check() {
            return None;
        }
        let mut next = *self;
        if let Some(ep) = next.ep_square.take() {
            next.key ^= ep_key(ep);
        }
        next.key ^= TURN_KEY;
        next.turn = self.turn.other();
        next.halfmoves = self.halfmoves.saturating_add(1);
        if self.turn == Color::Black {
            next.fullmoves = self.fullmoves.saturating_add(1);
        }
        Some(next)
    }

    /// The position after a legal move, without its key and with the clocks left as they
    /// were: perft's inner loop, which reads neither, skips that work.
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    pub(crate) fn after_unkeyed(&self, m: Move) -> Position {
        let mut next = *self;
        next.play::<false>(m);
        next
    }

    /// The position after a legal move of a `role` piece, without its key or clocks:
    /// perft's generator knows which piece moves, and spares the search for it.
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    pub(crate) fn after_unkeyed_by(&self, role: Role, m: Move) -> Position {
        let mut next = *self;
        next.play_by::<false>(role, m);
        next
    }

    /// This position with the turn passed and no en-passant square, key and clocks left
    /// as they were: the board on which perft's ply above the last plays its quiet moves
    /// in place (see `play_quiet_in_place`).
    pub(crate) fn passed_unkeyed(&self) -> Position {
        let mut next = *self;
        next.ep_square = None;
        next.turn = self.turn.other();
        next
    }

    /// Plays on `self`, which must be `parent.passed_unkeyed()`, a legal quiet move of
    /// `parent` (no capture, castling, en passant or promotion) of its `role` piece:
    /// `self` becomes `parent.after_unkeyed_by(role, m)` but for the key and clocks,
    /// with a few writes where a copy makes all of them. `unplay_quiet_in_place` takes
    /// the move back.
    /// The move comes as its squares, `from` and `to` (`moved` holds both: the caller
    /// has them as sets already) and whether it is a double push, not as a `Move`:
    /// perft's ply above has them apart, and packing them into a move to unpack them
    /// again cost instructions at every move.
    pub(crate) fn play_quiet_in_place(
        &mut self,
        parent: &Position,
        role: Role,
        (from, to): (Square, Square),
        double_push: bool,
        moved: Bitboard,
    ) {
        let us = parent.turn;
        self.by_role[role.index()] ^= moved;
        self.by_color[us.index()] ^= moved;
        // Nothing stands on the target: only the moving king or rook loses rights.
        let mut rights = parent.castling & !moved;
        if role == Role::King {
            rights &= !Bitboard::rank(back_rank(us));
        }
        self.castling = rights;
        if double_push {
            self.ep_square = self.ep_after_double_push(us, from, to);
        }
    }

    /// Takes back `play_quiet_in_place(parent, role, ..)`: `self` is
    /// `parent.passed_unkeyed()` again. The sets are read back from `parent`, so that
    /// nothing of the move needs keeping across the count in between.
    pub(crate) fn unplay_quiet_in_place(&mut self, parent: &Position, role: Role) {
        self.by_role[role.index()] = parent.by_role[role.index()];
        self.by_color[parent.turn.index()] = parent.by_color[parent.turn.index()];
        self.castling = parent.castling;
        self.ep_square = None;
    }

    /// The en-passant square after `us` pushed a pawn two squares from `from` to `to`:
    /// the square skipped, when an enemy pawn stands ready to take there.
    fn ep_after_double_push(&self, us: Color, from: Square, to: Square) -> Option<Square> {
        let skipped = Square::from_index_wrapping((from as u32 + to as u32) / 2);
        (attacks::pawn_attacks(us, skipped) & self.pieces(us.other(), Role::Pawn))
            .is_nonempty()
            .then_some(skipped)
    }

    // Forced: perft 57%, --pgn 13% more instructions without their paths' forced inlines.
    #[inline(always)]
    fn play<const HASH: bool>(&mut self, m: Move) {
        let role = self.role_at(m.from()).unwrap_or(Role::Pawn);
        self.play_by::<HASH>(role, m);
    }

    /// Plays `m`, a move of the `role` piece on its origin.
    // Forced: perft 57%, --pgn 13% more instructions without their paths' forced inlines.
    #[inline(always)]
    fn play_by<const HASH: bool>(&mut self, role: Role, m: Move) {
        let us = self.turn;
        let them = us.other();
        let from = m.from();
        let to = m.to();

        if self.castling.is_nonempty() {
            let mut rights =
                self.castling & !(Bitboard::from_square(from) | Bitboard::from_square(to));
            if role == Role::King {
                rights &= !Bitboard::rank(back_rank(us));
            }
            if HASH && rights != self.castling {
                // Each right adds its own number to the key: only those lost change it.
                self.key ^= self.castling_key(self.castling ^ rights);
            }
            self.castling = rights;
        }
        if let Some(ep) = self.ep_square.take() {
            if HASH {
                self.key ^= ep_key(ep);
            }
        }
        // The clocks go with the key: perft, which plays without it, reads neither.
        if HASH {
            self.halfmoves = self.halfmoves.saturating_add(1);
        }

        // Castling and en passant are rare: two tests that predict well, where a jump
        // on the kind through its table (promotions included) mispredicts.
        if m.is_castle() {
            let rank = back_rank(us);
            let (king_file, rook_file) = if to.file() > from.file() {
                (File::G, File::F)
            } else {
                (File::C, File::D)
            };
            self.toggle::<HASH>(us, Role::King, from);
            self.toggle::<HASH>(us, Role::Rook, to);
            self.toggle::<HASH>(us, Role::King, Square::from_coords(king_file, rank));
            self.toggle::<HASH>(us, Role::Rook, Square::from_coords(rook_file, rank));
        } else if m.is_en_passant() {
            let victim = Square::from_coords(to.file(), from.rank());
            self.toggle::<HASH>(them, Role::Pawn, victim);
            self.toggle::<HASH>(us, Role::Pawn, from);
            self.toggle::<HASH>(us, Role::Pawn, to);
            if HASH {
                self.halfmoves = 0;
            }
        } else {
            if !HASH {
                // Without a key to update, the target square is cleared in every set,
                // captured piece or not: no branch on whether, or what, the move takes.
                let keep = !Bitboard::from_square(to);
                for set in &mut self.by_role {
                    *set &= keep;
                }
                self.by_color[them.index()] &= keep;
            } else {
                if self.by_color[them.index()].contains(to) {
                    let captured = self.captured_role(to);
                    self.toggle::<HASH>(them, captured, to);
                    self.halfmoves = 0;
                }
                if role == Role::Pawn {
                    self.halfmoves = 0;
                }
            }
            self.toggle::<HASH>(us, role, from);
            self.toggle::<HASH>(us, m.promotion_or(role), to);
            if m.is_double_push() {
                self.ep_square = self.ep_after_double_push(us, from, to);
                if let (true, Some(skipped)) = (HASH, self.ep_square) {
                    self.key ^= ep_key(skipped);
                }
            }
        }

        if HASH {
            // After black's move: no branch on whose move it was.
            self.fullmoves = self.fullmoves.saturating_add(us.index() as u32);
        }
        self.turn = them;
        if HASH {
            self.key ^= TURN_KEY;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// After every quiet move (no capture, castling, en passant or promotion) of
    /// positions where rights are lost, double pushes allow en passant or not and kings
    /// move, the board played in place is the copy played, key and clocks aside; and
    /// taking the move back gives the board it started from.
    #[test]
    fn quiet_moves_played_in_place_are_copies_played_and_taken_back() {
        let mut compared = 0;
        for pos in crate::playouts::playouts(10, 60, 0x9e37_79b9_7f4a_7c15) {
            let passed = pos.passed_unkeyed();
            let theirs = pos.by_color(pos.turn().other());
            for &m in pos.legal_moves().as_slice() {
                if m.is_castle() || m.is_en_passant() || m.promotion().is_some() {
                    continue;
                }
                if theirs.contains(m.to()) {
                    continue;
                }
                let role = pos.role_of_piece_on(m.from());
                let moved = Bitboard::from_square(m.from()).with(m.to());
                let mut board = passed;
                board.play_quiet_in_place(
                    &pos,
                    role,
                    (m.from(), m.to()),
                    m.is_double_push(),
                    moved,
                );
                let copy = pos.after_unkeyed_by(role, m);
                let board_fields = (board.by_role, board.by_color, board.turn, board.castling);
                let copy_fields = (copy.by_role, copy.by_color, copy.turn, copy.castling);
                assert_eq!(board_fields, copy_fields, "{} {m:?}", pos.fen());
                assert_eq!(board.ep_square, copy.ep_square, "{} {m:?}", pos.fen());
                board.unplay_quiet_in_place(&pos, role);
                assert_eq!(board, passed, "{} {m:?}", pos.fen());
                compared += 1;
            }
        }
        assert!(compared > 100_000, "only {compared} moves compared");
    }

    #[test]
    fn the_starting_position_has_its_documented_polyglot_key() {
        let pos = Position::startpos();
        assert_eq!(pos.key(), STARTPOS_KEY);
        assert_eq!(pos.compute_key(), STARTPOS_KEY);
    }
}
