//! The conditions on a position inside `reach(...)` and `final(...)`.

use super::lex::Op;
use crate::color::Color;
use crate::position::Position;
use crate::role::Role;
use crate::square::Square;

/// One condition on a position (and the ply it stands after).
#[derive(Clone, Debug)]
pub enum Cond {
    /// The Polyglot key.
    Key(u64),
    /// The position as EPD: placement, side, castling, en passant (when a capture
    /// there is legal); the move counters are not compared.
    Fen(Box<Position>),
    Board(Box<Board>),
    /// Exactly these pieces.
    Material(Material),
    /// At least these pieces.
    MaterialAtLeast(Material),
    Side(Color),
    Ply(Op, f64),
    Check,
    Not(Box<Cond>),
}

impl Cond {
    /// Whether the position after `ply` plies satisfies the condition.
    pub fn holds(&self, pos: &Position, ply: usize) -> bool {
        match self {
            Cond::Key(key) => pos.key() == *key,
            Cond::Fen(target) => same_epd(pos, target),
            Cond::Board(board) => board.matches(pos),
            Cond::Material(m) => Material::of(pos) == *m,
            Cond::MaterialAtLeast(m) => Material::of(pos).covers(m),
            Cond::Side(color) => pos.turn() == *color,
            Cond::Ply(op, n) => (ply as f64)
                .partial_cmp(n)
                .is_some_and(|order| op.holds(order)),
            Cond::Check => pos.is_check(),
            Cond::Not(c) => !c.holds(pos, ply),
        }
    }

    /// Whether no position after `ply` can satisfy the condition once one at `ply`
    /// does not: with `ply <= k` (or `<`, `=`) passed, the walk along the game may stop.
    pub fn over_after(&self, ply: usize) -> bool {
        match self {
            Cond::Ply(Op::Le, n) => ply as f64 >= *n,
            Cond::Ply(Op::Lt, n) | Cond::Ply(Op::Eq, n) => ply as f64 + 1.0 >= *n,
            _ => false,
        }
    }
}

/// Placement, side, castling and the en-passant square of a legal capture equal.
fn same_epd(a: &Position, b: &Position) -> bool {
    a.by_color == b.by_color
        && a.by_role == b.by_role
        && a.turn == b.turn
        && a.castling == b.castling
        && (a.ep_square == b.ep_square || a.legal_ep_square() == b.legal_ep_square())
}

/// A Polyglot key: 16 hexadecimal digits or fewer, `0x` optional.
pub(crate) fn parse_key(text: &str) -> Option<u64> {
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    if digits.is_empty() || digits.len() > 16 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u64::from_str_radix(digits, 16).ok()
}

/// A FEN or an EPD (its first four fields); the move counters, when given, are read
/// and ignored.
pub(crate) fn parse_fen(text: &str) -> Result<Position, String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let full = match fields.len() {
        4 => format!("{} 0 1", fields.join(" ")),
        6 => fields.join(" "),
        n => return Err(format!("{n} fields, where a FEN has 6 (or an EPD 4)")),
    };
    Position::from_fen(&full).map_err(|e| e.to_string())
}

/// What one square of a board pattern asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    Any,
    Empty,
    Piece(Color, Role),
    /// `*`: any run of squares of the rank, none included.
    Run,
}

/// A FEN placement where `?` is any square and `*` any run of squares within a rank.
#[derive(Clone, Debug)]
pub struct Board {
    /// Rank 8 first, as FEN writes them.
    ranks: Vec<Vec<Want>>,
}

fn piece_of(c: char) -> Option<(Color, Role)> {
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    let role = match c.to_ascii_lowercase() {
        'p' => Role::Pawn,
        'n' => Role::Knight,
        'b' => Role::Bishop,
        'r' => Role::Rook,
        'q' => Role::Queen,
        'k' => Role::King,
        _ => return None,
    };
    Some((color, role))
}

impl Board {
    pub fn parse(text: &str) -> Result<Board, String> {
        let ranks: Vec<&str> = text.trim().split('/').collect();
        if ranks.len() != 8 {
            return Err(format!("{} ranks, where a board has 8", ranks.len()));
        }
        let mut out = Vec::new();
        for (i, rank) in ranks.iter().enumerate() {
            let mut wants = Vec::new();
            let mut fixed = 0;
            for c in rank.chars() {
                match c {
                    '1'..='8' => {
                        let n = c as usize - '0' as usize;
                        wants.extend(std::iter::repeat_n(Want::Empty, n));
                        fixed += n;
                    }
                    '?' => {
                        wants.push(Want::Any);
                        fixed += 1;
                    }
                    '*' => wants.push(Want::Run),
                    c => {
                        let (color, role) = piece_of(c)
                            .ok_or_else(|| format!("'{c}' in rank {} is no piece", 8 - i))?;
                        wants.push(Want::Piece(color, role));
                        fixed += 1;
                    }
                }
            }
            let runs = wants.contains(&Want::Run);
            if fixed > 8 || (!runs && fixed != 8) {
                return Err(format!("rank {} has {fixed} squares, not 8", 8 - i));
            }
            out.push(wants);
        }
        Ok(Board { ranks: out })
    }

    pub fn matches(&self, pos: &Position) -> bool {
        self.ranks.iter().enumerate().all(|(i, wants)| {
            let rank = 7 - i;
            let squares: [Option<(Color, Role)>; 8] = std::array::from_fn(|file| {
                let sq = Square::new((rank * 8 + file) as u32)?;
                let piece = pos.piece_at(sq)?;
                Some((piece.color, piece.role))
            });
            glob(wants, &squares)
        })
    }
}

/// Whether a rank's squares match a pattern with `*` runs.
fn glob(wants: &[Want], squares: &[Option<(Color, Role)>]) -> bool {
    match wants.first() {
        None => squares.is_empty(),
        Some(Want::Run) => (0..=squares.len()).any(|skip| glob(&wants[1..], &squares[skip..])),
        Some(want) => match squares.first() {
            None => false,
            Some(square) => {
                let fits = match (want, square) {
                    (Want::Any, _) => true,
                    (Want::Empty, None) => true,
                    (Want::Piece(c, r), Some((pc, pr))) => c == pc && r == pr,
                    _ => false,
                };
                fits && glob(&wants[1..], &squares[1..])
            }
        },
    }
}

/// How many pieces of each colour and role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Material([[u8; 6]; 2]);

impl Material {
    /// Letters `KQRBNP` (white) and `kqrbnp` (black), in any order.
    pub fn parse(text: &str) -> Option<Material> {
        let mut counts = [[0u8; 6]; 2];
        for c in text.chars() {
            let (color, role) = piece_of(c)?;
            let n = &mut counts[color.index()][role.index()];
            *n = n.checked_add(1)?;
        }
        Some(Material(counts))
    }

    pub fn of(pos: &Position) -> Material {
        let mut counts = [[0u8; 6]; 2];
        for color in Color::ALL {
            for role in Role::ALL {
                counts[color.index()][role.index()] = pos.pieces(color, role).count() as u8;
            }
        }
        Material(counts)
    }

    /// Whether these pieces include at least those of `other`.
    pub fn covers(&self, other: &Material) -> bool {
        (0..2).all(|c| (0..6).all(|r| self.0[c][r] >= other.0[c][r]))
    }
}
