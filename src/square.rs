//! Squares, files and ranks.

use std::fmt;

/// A file, `a` (0) to `h` (7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

impl File {
    pub const A: File = File(0);
    pub const B: File = File(1);
    pub const C: File = File(2);
    pub const D: File = File(3);
    pub const E: File = File(4);
    pub const F: File = File(5);
    pub const G: File = File(6);
    pub const H: File = File(7);

    /// All files, `a` first.
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file with this index, if it is in `0..8`.
    pub const fn new(index: u32) -> Option<File> {
        if index < 8 {
            Some(File(index as u8))
        } else {
            None
        }
    }

    /// The index, `0..8`.
    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The letter, `a` to `h`.
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }

    /// Parses a file letter (lower or upper case).
    pub const fn from_char(c: char) -> Option<File> {
        match c.to_ascii_lowercase() {
            'a'..='h' => Some(File(c.to_ascii_lowercase() as u8 - b'a')),
            _ => None,
        }
    }
}

/// A rank, `1` (0) to `8` (7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    pub const FIRST: Rank = Rank(0);
    pub const SECOND: Rank = Rank(1);
    pub const THIRD: Rank = Rank(2);
    pub const FOURTH: Rank = Rank(3);
    pub const FIFTH: Rank = Rank(4);
    pub const SIXTH: Rank = Rank(5);
    pub const SEVENTH: Rank = Rank(6);
    pub const EIGHTH: Rank = Rank(7);

    /// The rank with this index, if it is in `0..8`.
    pub const fn new(index: u32) -> Option<Rank> {
        if index < 8 {
            Some(Rank(index as u8))
        } else {
            None
        }
    }

    /// The index, `0..8`.
    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The digit, `1` to `8`.
    pub const fn char(self) -> char {
        (b'1' + self.0) as char
    }

    /// Parses a rank digit.
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank(c as u8 - b'1')),
            _ => None,
        }
    }
}

/// A square, `a1` (0) to `h8` (63), rank by rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[rustfmt::skip]
pub enum Square {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl Square {
    /// All squares, `a1`, `b1`, ... `h8`.
    #[rustfmt::skip]
    pub const ALL: [Square; 64] = [
        Square::A1, Square::B1, Square::C1, Square::D1, Square::E1, Square::F1, Square::G1, Square::H1,
        Square::A2, Square::B2, Square::C2, Square::D2, Square::E2, Square::F2, Square::G2, Square::H2,
        Square::A3, Square::B3, Square::C3, Square::D3, Square::E3, Square::F3, Square::G3, Square::H3,
        Square::A4, Square::B4, Square::C4, Square::D4, Square::E4, Square::F4, Square::G4, Square::H4,
        Square::A5, Square::B5, Square::C5, Square::D5, Square::E5, Square::F5, Square::G5, Square::H5,
        Square::A6, Square::B6, Square::C6, Square::D6, Square::E6, Square::F6, Square::G6, Square::H6,
        Square::A7, Square::B7, Square::C7, Square::D7, Square::E7, Square::F7, Square::G7, Square::H7,
        Square::A8, Square::B8, Square::C8, Square::D8, Square::E8, Square::F8, Square::G8, Square::H8,
    ];

    /// The square with this index, if it is in `0..64`.
    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square::ALL[index as usize])
        } else {
            None
        }
    }

    /// The square with this index modulo 64; for indices known to be in range.
    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn from_index_wrapping(index: u32) -> Square {
        use Square::*;
        // A match, not an index into `ALL`: the compiler sees that it maps each number to
        // itself and emits no table load, where every bit scan of the generator needs one.
        #[rustfmt::skip]
        let sq = match index & 63 {
            0 => A1, 1 => B1, 2 => C1, 3 => D1, 4 => E1, 5 => F1, 6 => G1, 7 => H1,
            8 => A2, 9 => B2, 10 => C2, 11 => D2, 12 => E2, 13 => F2, 14 => G2, 15 => H2,
            16 => A3, 17 => B3, 18 => C3, 19 => D3, 20 => E3, 21 => F3, 22 => G3, 23 => H3,
            24 => A4, 25 => B4, 26 => C4, 27 => D4, 28 => E4, 29 => F4, 30 => G4, 31 => H4,
            32 => A5, 33 => B5, 34 => C5, 35 => D5, 36 => E5, 37 => F5, 38 => G5, 39 => H5,
            40 => A6, 41 => B6, 42 => C6, 43 => D6, 44 => E6, 45 => F6, 46 => G6, 47 => H6,
            48 => A7, 49 => B7, 50 => C7, 51 => D7, 52 => E7, 53 => F7, 54 => G7, 55 => H7,
            56 => A8, 57 => B8, 58 => C8, 59 => D8, 60 => E8, 61 => F8, 62 => G8, _ => H8,
        };
        sq
    }

    /// The square on this file and rank.
    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square::from_index_wrapping((rank.0 * 8 + file.0) as u32)
    }

    /// The index, `0..64`.
    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn file(self) -> File {
        File(self as u8 & 7)
    }

    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank(self as u8 >> 3)
    }

    /// The square mirrored top to bottom (`a1` becomes `a8`).
    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn flip_vertical(self) -> Square {
        Square::ALL[self as usize ^ 56]
    }

    /// The square moved by a signed index offset, if it stays on the board
    /// (no wrap-around check across files: callers use offsets along ranks or files).
    // Forced: --pgn 1.2% more instructions without bitboard.rs's and square.rs's forced inlines.
    #[inline(always)]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let index = self as i32 + delta;
        if index >= 0 && index < 64 {
            Some(Square::ALL[index as usize])
        } else {
            None
        }
    }

    /// Whether the square is a light square (`h1` is light).
    pub const fn is_light(self) -> bool {
        (self.file().0 + self.rank().0) % 2 == 1
    }

    /// Parses a square name such as `e4`.
    pub fn parse(text: &str) -> Option<Square> {
        match *text.as_bytes() {
            [file, rank] => Square::from_name_bytes(file, rank),
            _ => None,
        }
    }

    /// The square a file letter (either case) and a rank digit name, read as bytes:
    /// every UCI move a client sends is two of them.
    #[inline]
    pub const fn from_name_bytes(file: u8, rank: u8) -> Option<Square> {
        let file = file.to_ascii_lowercase();
        if matches!(file, b'a'..=b'h') && matches!(rank, b'1'..=b'8') {
            Some(Square::ALL[(rank - b'1') as usize * 8 + (file - b'a') as usize])
        } else {
            None
        }
    }

    /// The square's name, `e4`, as bytes: what `from_name_bytes` reads.
    pub const fn name(self) -> [u8; 2] {
        [self.file().char() as u8, self.rank().char() as u8]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}
