//! Sets of squares as 64-bit masks.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::square::{File, Rank, Square};

/// A set of squares; bit `i` is square index `i` (`a1` = 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(!0);
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55aa_55aa_55aa_55aa);
    pub const DARK_SQUARES: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);

    /// The set holding one square.
    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq as u32)
    }

    /// All squares of a file.
    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn file(file: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file.index())
    }

    /// All squares of a rank.
    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(0xff << (8 * rank.index()))
    }

    /// Every square when `all` holds, none otherwise: a set chosen without a branch.
    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn mask_if(all: bool) -> Bitboard {
        Bitboard((all as u64).wrapping_neg())
    }

    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq as u32) != 0
    }

    /// The number of squares in the set.
    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has two or more squares.
    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_wrapping(self.0.trailing_zeros()))
        }
    }

    /// The set of the lowest square alone (empty for an empty set).
    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn lowest(self) -> Bitboard {
        Bitboard(self.0 & self.0.wrapping_neg())
    }

    /// The only square of a set known to hold exactly one; any square otherwise.
    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn single_square(self) -> Square {
        Square::from_index_wrapping(self.0.trailing_zeros())
    }

    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq as u32)
    }

    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq as u32))
    }

    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn toggled(self, sq: Square) -> Bitboard {
        Bitboard(self.0 ^ 1 << sq as u32)
    }

    /// Shifts every square one rank towards rank 8 (`north`) or rank 1.
    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn shift_up(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn shift_down(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::from_index_wrapping(self.0.trailing_zeros());
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl From<Square> for Bitboard {
    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
            #[inline(always)]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
            #[inline(always)]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, |bb, sq| bb.with(sq))
    }
}
