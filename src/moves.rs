//! Moves and fixed-capacity move lists.

use std::fmt;

use crate::role::Role;
use crate::square::Square;

/// How castling is written in UCI.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CastlingMode {
    /// King to its destination (`e1g1`); king-takes-rook (`e1h1`) is accepted too.
    #[default]
    Standard,
    /// King takes its own rook (`e1h1`), the only unambiguous form in Chess960.
    Chess960,
}

impl CastlingMode {
    /// The mode a Chess960 flag (an option, a command-line switch, a tag) asks for.
    pub const fn from_chess960(chess960: bool) -> CastlingMode {
        if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    /// Whether this is Chess960 castling, the flag `from_chess960` reads back.
    pub const fn is_chess960(self) -> bool {
        matches!(self, CastlingMode::Chess960)
    }
}

/// What is special about a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any move or capture that is none of the below.
    Normal,
    /// A pawn's two-square advance.
    DoublePush,
    /// A pawn capturing en passant; the target is the empty square behind the captured pawn.
    EnPassant,
    /// Castling; the target is the castling rook's square (king takes own rook), so the
    /// same encoding serves standard chess and Chess960.
    Castle,
    /// A pawn reaching the last rank, becoming this piece.
    Promotion(Role),
}

/// A move, packed in 16 bits: origin (6), target (6), kind (4).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

const KIND_NORMAL: u16 = 0;
const KIND_DOUBLE_PUSH: u16 = 1;
const KIND_EN_PASSANT: u16 = 2;
const KIND_CASTLE: u16 = 3;
const KIND_PROMOTION: u16 = 4; // + role index - 1: knight 4, bishop 5, rook 6, queen 7

/// The kind code of a promotion to each role, as `Move::new` packs it (a pawn or king
/// as a queen). `Move::new` keeps its own `match`, which perft's move generator runs
/// in fewer instructions than a read of this table (docs/performance.md).
const PROMOTION_CODES: [u16; 6] = [
    KIND_PROMOTION + 3,
    KIND_PROMOTION,
    KIND_PROMOTION + 1,
    KIND_PROMOTION + 2,
    KIND_PROMOTION + 3,
    KIND_PROMOTION + 3,
];

/// The promoted piece of each kind code (none for the codes below the promotions).
const PROMOTED: [Option<Role>; 16] = {
    let mut table = [None; 16];
    table[KIND_PROMOTION as usize] = Some(Role::Knight);
    table[KIND_PROMOTION as usize + 1] = Some(Role::Bishop);
    table[KIND_PROMOTION as usize + 2] = Some(Role::Rook);
    let mut code = KIND_PROMOTION as usize + 3;
    while code < 16 {
        table[code] = Some(Role::Queen);
        code += 1;
    }
    table
};

impl Move {
    /// Packs a move. A promotion to a pawn or king is stored as a queen promotion; the
    /// move generator never asks for one.
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        let code = match kind {
            MoveKind::Normal => KIND_NORMAL,
            MoveKind::DoublePush => KIND_DOUBLE_PUSH,
            MoveKind::EnPassant => KIND_EN_PASSANT,
            MoveKind::Castle => KIND_CASTLE,
            MoveKind::Promotion(Role::Knight) => KIND_PROMOTION,
            MoveKind::Promotion(Role::Bishop) => KIND_PROMOTION + 1,
            MoveKind::Promotion(Role::Rook) => KIND_PROMOTION + 2,
            MoveKind::Promotion(_) => KIND_PROMOTION + 3,
        };
        Move(from as u16 | (to as u16) << 6 | code << 12)
    }

    /// A move that is neither castling nor en passant: a promotion when `promotion`
    /// names a piece, else a double push when `double`, else a normal move. Packed
    /// without a branch on `double`.
    pub fn plain(from: Square, to: Square, double: bool, promotion: Option<Role>) -> Move {
        let code = match promotion {
            Some(role) => PROMOTION_CODES[role.index()],
            None => u16::from(double) * KIND_DOUBLE_PUSH,
        };
        Move(from as u16 | (to as u16) << 6 | code << 12)
    }

    pub const fn from(self) -> Square {
        Square::from_index_wrapping(self.0 as u32 & 63)
    }

    pub const fn to(self) -> Square {
        Square::from_index_wrapping((self.0 as u32 >> 6) & 63)
    }

    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            KIND_NORMAL => MoveKind::Normal,
            KIND_DOUBLE_PUSH => MoveKind::DoublePush,
            KIND_EN_PASSANT => MoveKind::EnPassant,
            KIND_CASTLE => MoveKind::Castle,
            KIND_PROMOTION => MoveKind::Promotion(Role::Knight),
            5 => MoveKind::Promotion(Role::Bishop),
            6 => MoveKind::Promotion(Role::Rook),
            _ => MoveKind::Promotion(Role::Queen),
        }
    }

    /// The piece a pawn becomes, for promotions.
    pub const fn promotion(self) -> Option<Role> {
        PROMOTED[(self.0 >> 12) as usize]
    }

    /// The piece that stands on the target after the move of a `role` piece: the
    /// promoted piece, or the one that moved. Without a branch on whether it promotes.
    pub fn promotion_or(self, role: Role) -> Role {
        self.promotion().unwrap_or(role)
    }

    pub const fn is_double_push(self) -> bool {
        self.0 >> 12 == KIND_DOUBLE_PUSH
    }

    pub const fn is_castle(self) -> bool {
        self.0 >> 12 == KIND_CASTLE
    }

    pub const fn is_en_passant(self) -> bool {
        self.0 >> 12 == KIND_EN_PASSANT
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        match self.kind() {
            MoveKind::Normal => Ok(()),
            MoveKind::DoublePush => f.write_str("(double)"),
            MoveKind::EnPassant => f.write_str("(ep)"),
            MoveKind::Castle => f.write_str("(castle)"),
            MoveKind::Promotion(role) => write!(f, "{}", role.lower_char()),
        }
    }
}

/// A list of moves on the stack, of at most `N`.
#[derive(Clone)]
pub struct Moves<const N: usize> {
    moves: [Move; N],
    len: usize,
}

/// The legal moves of a position. The most any chess position has is 218; this leaves
/// room.
pub type MoveList = Moves<MAX_MOVES>;
pub const MAX_MOVES: usize = 256;

/// The legal moves to one square (the candidates of a SAN move): few enough for a short
/// list that costs little to set up.
pub type ShortList = Moves<SHORT_MOVES>;

/// More moves than can reach one square in any position (16 pieces, a pawn's four
/// promotions counted four times).
const SHORT_MOVES: usize = 64;

impl<const N: usize> Moves<N> {
    pub const fn new() -> Moves<N> {
        Moves {
            moves: [Move(0); N],
            len: 0,
        }
    }

    /// Appends a move. A list holds every move it is made for, so this only drops a
    /// move if a caller pushes more than `N`.
    pub fn push(&mut self, m: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = m;
            self.len += 1;
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len.min(N)]
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Keeps the moves for which `keep` holds.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len.min(N) {
            let m = self.moves[i];
            if keep(m) {
                self.moves[kept] = m;
                kept += 1;
            }
        }
        self.len = kept;
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl<const N: usize> Default for Moves<N> {
    fn default() -> Self {
        Moves::new()
    }
}

impl<const N: usize> fmt::Debug for Moves<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a, const N: usize> IntoIterator for &'a Moves<N> {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips_every_kind() {
        for kind in [
            MoveKind::Normal,
            MoveKind::DoublePush,
            MoveKind::EnPassant,
            MoveKind::Castle,
            MoveKind::Promotion(Role::Knight),
            MoveKind::Promotion(Role::Bishop),
            MoveKind::Promotion(Role::Rook),
            MoveKind::Promotion(Role::Queen),
        ] {
            let m = Move::new(Square::H7, Square::G8, kind);
            assert_eq!((m.from(), m.to(), m.kind()), (Square::H7, Square::G8, kind));
        }
    }

    #[test]
    fn a_plain_move_packs_as_its_kind_does() {
        for double in [false, true] {
            let kind = if double {
                MoveKind::DoublePush
            } else {
                MoveKind::Normal
            };
            let plain = Move::plain(Square::E2, Square::E4, double, None);
            assert_eq!(plain, Move::new(Square::E2, Square::E4, kind));
            for role in Role::ALL {
                // A promotion wins over the double-push flag, and a pawn or king is
                // packed as a queen, as `new` does.
                let plain = Move::plain(Square::B7, Square::B8, double, Some(role));
                let kind = MoveKind::Promotion(role);
                assert_eq!(plain, Move::new(Square::B7, Square::B8, kind));
            }
        }
    }
}
