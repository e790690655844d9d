//! Attack sets of every piece, and the geometry between squares, from tables built at
//! compile time.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::magic;
use crate::role::Role;
use crate::square::Square;

const fn step_table(steps: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < steps.len() {
            let file = (sq % 8) as i32 + steps[i].0;
            let rank = (sq / 8) as i32 + steps[i].1;
            if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
                table[sq] |= 1 << (rank * 8 + file);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = step_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = step_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[u64; 64]; 2] = [
    step_table(&[(-1, 1), (1, 1)]),
    step_table(&[(-1, -1), (1, -1)]),
];

/// The squares a pawn of each colour pushes to from a square when nothing stands in
/// its way: one step, and two from its starting rank.
static PAWN_PUSHES: [[u64; 64]; 2] = {
    let mut table = [[0; 64]; 2];
    let mut sq = 8;
    while sq < 56 {
        table[0][sq] = 1 << (sq + 8);
        table[1][sq] = 1 << (sq - 8);
        if sq < 16 {
            table[0][sq] |= 1 << (sq + 16);
        }
        if sq >= 48 {
            table[1][sq] |= 1 << (sq - 16);
        }
        sq += 1;
    }
    table
};

const ALL_DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// For every pair of squares on a common line: the squares strictly between them
/// (`between`) and the whole line through both (`line`); empty otherwise.
const fn geometry(whole_line: bool) -> [[u64; 64]; 64] {
    let mut table = [[0; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = ALL_DIRECTIONS[d];
            // Walk both ways from `a` to list the line through it in this direction.
            let mut line = 1u64 << a;
            let mut sign = -1;
            while sign <= 1 {
                let mut file = (a % 8) as i32 + sign * df;
                let mut rank = (a / 8) as i32 + sign * dr;
                while file >= 0 && file < 8 && rank >= 0 && rank < 8 {
                    line |= 1 << (rank * 8 + file);
                    file += sign * df;
                    rank += sign * dr;
                }
                sign += 2;
            }
            // Now each square on the line gets its entries.
            let mut sign = -1;
            while sign <= 1 {
                let mut between = 0u64;
                let mut file = (a % 8) as i32 + sign * df;
                let mut rank = (a / 8) as i32 + sign * dr;
                while file >= 0 && file < 8 && rank >= 0 && rank < 8 {
                    let b = (rank * 8 + file) as usize;
                    table[a][b] = if whole_line { line } else { between };
                    between |= 1 << b;
                    file += sign * df;
                    rank += sign * dr;
                }
                sign += 2;
            }
            d += 1;
        }
        a += 1;
    }
    table
}

/// Where a piece of each kind but the pawn (whose row is empty) reaches from a square
/// on an empty board: a move found from its target looks its piece's squares up in one
/// table, with no branch on the kind, which a file's moves make unpredictable.
static REACH: [[u64; 64]; 6] = {
    let bishop = magic::empty_board(&magic::BISHOP_DIRECTIONS);
    let rook = magic::empty_board(&magic::ROOK_DIRECTIONS);
    let mut queen = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        queen[sq] = bishop[sq] | rook[sq];
        sq += 1;
    }
    [[0; 64], KNIGHT, bishop, rook, queen, KING]
};

/// What a pawn of each colour, a knight or a king attacks from a square, and nothing for
/// a slider: perft's last ply reads the attacks of the piece that moved with no branch on
/// its kind.
static LEAPS: [[[u64; 64]; 6]; 2] = [
    [PAWN[0], KNIGHT, [0; 64], [0; 64], [0; 64], KING],
    [PAWN[1], KNIGHT, [0; 64], [0; 64], [0; 64], KING],
];

static BETWEEN: [[u64; 64]; 64] = geometry(false);
static LINE: [[u64; 64]; 64] = geometry(true);

pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// The squares a pawn of `color` on `sq` attacks.
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// The squares a pawn of `color` on `sq` pushes to on an empty board (see
/// `PAWN_PUSHES`); a double push needs its skipped square empty too.
pub fn pawn_pushes(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_PUSHES[color.index()][sq.index()])
}

pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(magic::rook_attacks(sq.index(), occupied.0))
}

pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(magic::bishop_attacks(sq.index(), occupied.0))
}

/// Where a rook on `sq` would attack on an empty board.
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(magic::rook_rays(sq.index()))
}

/// Where a bishop on `sq` would attack on an empty board.
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(magic::bishop_rays(sq.index()))
}

/// Where a queen on `sq` would attack on an empty board.
pub fn queen_rays(sq: Square) -> Bitboard {
    rook_rays(sq) | bishop_rays(sq)
}

pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// The squares a piece of this kind attacks from `sq`.
#[inline]
pub fn attacks(color: Color, role: Role, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// The squares from which a `role` piece (not a pawn) reaches `sq` on an empty board;
/// empty for the pawn.
pub fn reach(role: Role, sq: Square) -> Bitboard {
    Bitboard(REACH[role.index()][sq.index()])
}

/// The squares a `role` piece of `color` attacks from `sq` if it is a pawn, a knight or a
/// king; empty for a slider.
pub fn leaps(color: Color, role: Role, sq: Square) -> Bitboard {
    Bitboard(LEAPS[color.index()][role.index()][sq.index()])
}

/// The squares strictly between two squares on a common rank, file or diagonal.
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index()][b.index()])
}

/// The whole rank, file or diagonal through two squares (empty if they share none).
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a.index()][b.index()])
}

/// Whether three squares lie on one rank, file or diagonal.
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knight_in_corner_has_two_targets() {
        assert_eq!(
            knight_attacks(Square::A1),
            Bitboard::from_iter([Square::B3, Square::C2])
        );
    }

    #[test]
    fn pawns_attack_forward_diagonals() {
        assert_eq!(
            pawn_attacks(Color::White, Square::A2),
            Bitboard::from_square(Square::B3)
        );
        assert_eq!(
            pawn_attacks(Color::Black, Square::E5),
            Bitboard::from_iter([Square::D4, Square::F4])
        );
    }

    #[test]
    fn reach_is_each_piece_on_an_empty_board() {
        for sq in Square::ALL {
            assert_eq!(reach(Role::Pawn, sq), Bitboard::EMPTY);
            for role in [
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
                Role::King,
            ] {
                let empty = attacks(Color::White, role, sq, Bitboard::EMPTY);
                assert_eq!(reach(role, sq), empty, "{role:?} on {sq}");
            }
        }
    }

    #[test]
    fn leaps_are_the_leapers_attacks_and_nothing_for_sliders() {
        for color in [Color::White, Color::Black] {
            for sq in Square::ALL {
                for role in [Role::Pawn, Role::Knight, Role::King] {
                    let attacked = attacks(color, role, sq, Bitboard::EMPTY);
                    assert_eq!(leaps(color, role, sq), attacked, "{role:?} on {sq}");
                }
                for role in [Role::Bishop, Role::Rook, Role::Queen] {
                    assert_eq!(leaps(color, role, sq), Bitboard::EMPTY);
                }
            }
        }
    }

    #[test]
    fn between_is_exclusive_and_empty_off_line() {
        assert_eq!(
            between(Square::A1, Square::D4),
            Bitboard::from_iter([Square::B2, Square::C3])
        );
        assert_eq!(between(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(between(Square::E1, Square::E2), Bitboard::EMPTY);
    }

    #[test]
    fn line_spans_the_board() {
        assert_eq!(
            line(Square::C1, Square::C5),
            Bitboard::file(crate::square::File::C)
        );
        assert!(aligned(Square::A1, Square::H8, Square::D4));
        assert!(!aligned(Square::A1, Square::H8, Square::D5));
        assert_eq!(line(Square::A1, Square::B3), Bitboard::EMPTY);
    }
}
