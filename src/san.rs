//! Standard Algebraic Notation: writing it exactly as the PGN standard does, and reading
//! what people type.

use std::fmt;

use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::role::Role;
use crate::square::{File, Rank, Square};

/// Why SAN text names no single legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// The text is not SAN at all.
    Syntax,
    /// It is SAN, but no legal move matches.
    NoSuchMove,
    /// More than one legal move matches; the candidates, in UCI order of generation.
    Ambiguous(Vec<Move>),
    /// A pawn reaching the last rank without saying what it becomes.
    PromotionRequired,
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Syntax => f.write_str("not a move in SAN (like Nf3, exd5, O-O or e8=Q)"),
            SanError::NoSuchMove => f.write_str("no legal move matches"),
            SanError::Ambiguous(_) => f.write_str("more than one legal move matches"),
            SanError::PromotionRequired => {
                f.write_str("a pawn reaching the last rank must promote: add =Q, =R, =B or =N")
            }
        }
    }
}

impl std::error::Error for SanError {}

/// SAN text broken into its parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SanText {
    Castle {
        king_side: bool,
    },
    Normal {
        role: Role,
        file: Option<File>,
        rank: Option<Rank>,
        to: Square,
        promotion: Option<Role>,
    },
}

/// Strips what people append to a move: check and mate marks, annotation glyphs and an
/// en-passant note.
fn strip_suffixes(mut text: &str) -> &str {
    loop {
        let trimmed = text
            .trim_end_matches(['+', '#', '!', '?'])
            .trim_end_matches(" e.p.")
            .trim_end_matches("e.p.")
            .trim_end_matches("ep");
        if trimmed.len() == text.len() {
            return text;
        }
        text = trimmed;
    }
}

fn parse_text(text: &str) -> Result<SanText, SanError> {
    let text = strip_suffixes(text.trim());
    match text {
        "O-O" | "0-0" | "o-o" => return Ok(SanText::Castle { king_side: true }),
        "O-O-O" | "0-0-0" | "o-o-o" => return Ok(SanText::Castle { king_side: false }),
        _ => {}
    }
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let role = match chars.first() {
        Some(&c @ ('N' | 'B' | 'R' | 'Q' | 'K')) => {
            i = 1;
            Role::from_char(c).unwrap_or(Role::Pawn)
        }
        Some('P') => {
            i = 1;
            Role::Pawn
        }
        _ => Role::Pawn,
    };

    // The rest is [file][rank][x|:|-]file rank[[=|/|(]piece[)]].
    let rest = &chars[i..];
    // Find the target square: the last file-letter + rank-digit pair before any promotion.
    let mut target_at = None;
    for j in (0..rest.len().saturating_sub(1)).rev() {
        if File::from_char(rest[j]).is_some()
            && rest[j].is_ascii_lowercase()
            && Rank::from_char(rest[j + 1]).is_some()
        {
            target_at = Some(j);
            break;
        }
    }
    let j = target_at.ok_or(SanError::Syntax)?;
    let to = Square::from_coords(
        File::from_char(rest[j]).ok_or(SanError::Syntax)?,
        Rank::from_char(rest[j + 1]).ok_or(SanError::Syntax)?,
    );

    let mut hint: &[char] = &rest[..j];
    if let Some((&last, init)) = hint.split_last() {
        if matches!(last, 'x' | ':' | '-') {
            hint = init;
        }
    }
    let (file, rank) = match hint {
        [] => (None, None),
        [c] => match (
            File::from_char(*c).filter(|_| c.is_ascii_lowercase()),
            Rank::from_char(*c),
        ) {
            (Some(f), _) => (Some(f), None),
            (None, Some(r)) => (None, Some(r)),
            _ => return Err(SanError::Syntax),
        },
        [f, r] if f.is_ascii_lowercase() => (
            Some(File::from_char(*f).ok_or(SanError::Syntax)?),
            Some(Rank::from_char(*r).ok_or(SanError::Syntax)?),
        ),
        _ => return Err(SanError::Syntax),
    };

    let promotion_text: String = rest[j + 2..]
        .iter()
        .filter(|c| !matches!(c, '=' | '/' | '(' | ')'))
        .collect();
    let promotion = match promotion_text.as_str() {
        "" => None,
        p if p.chars().count() == 1 => match p.chars().next().and_then(Role::from_char) {
            Some(r @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight)) => Some(r),
            _ => return Err(SanError::Syntax),
        },
        _ => return Err(SanError::Syntax),
    };
    if promotion.is_some() && role != Role::Pawn {
        return Err(SanError::Syntax);
    }
    Ok(SanText::Normal {
        role,
        file,
        rank,
        to,
        promotion,
    })
}

impl Position {
    /// The SAN of a legal move, with `+` or `#`.
    pub fn san(&self, m: Move) -> String {
        let mut san = self.san_without_suffix(m);
        let after = self.after(m);
        if after.is_check() {
            san.push(if after.has_legal_moves() { '+' } else { '#' });
        }
        san
    }

    /// The SAN of a legal move without its `+` or `#`, for callers that already know
    /// whether the move checks or mates.
    pub fn san_without_suffix(&self, m: Move) -> String {
        let from = m.from();
        let to = m.to();
        if m.kind() == MoveKind::Castle {
            return if to.file() > from.file() {
                "O-O"
            } else {
                "O-O-O"
            }
            .to_string();
        }
        let role = self.role_at(from).unwrap_or(Role::Pawn);
        let capture = self.by_color(self.turn.other()).contains(to) || m.is_en_passant();
        let mut san = String::with_capacity(8);
        if role == Role::Pawn {
            if capture {
                san.push(from.file().char());
            }
        } else {
            san.push(role.upper_char());
            // Only another piece of the same kind that reaches the target can be a
            // rival; most moves have none, and then the legal moves are not needed.
            let reaching = crate::attacks::attacks(self.turn, role, to, self.occupied())
                & self.pieces(self.turn, role);
            let rivals: Vec<Square> = if reaching.without(from).is_empty() {
                Vec::new()
            } else {
                self.legal_moves()
                    .iter()
                    .filter(|o| o.to() == to && o.from() != from && !o.is_castle())
                    .filter(|o| self.role_at(o.from()) == Some(role))
                    .map(|o| o.from())
                    .collect()
            };
            if !rivals.is_empty() {
                if rivals.iter().all(|r| r.file() != from.file()) {
                    san.push(from.file().char());
                } else if rivals.iter().all(|r| r.rank() != from.rank()) {
                    san.push(from.rank().char());
                } else {
                    san.push(from.file().char());
                    san.push(from.rank().char());
                }
            }
        }
        if capture {
            san.push('x');
        }
        san.push_str(&to.to_string());
        if let Some(role) = m.promotion() {
            san.push('=');
            san.push(role.upper_char());
        }
        san
    }

    /// The legal move SAN text names. Tolerant of `0-0`, missing or wrong `+`/`#`,
    /// `e8Q`, `exd6e.p.` and long forms like `Ng1f3`.
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let parsed = parse_text(text)?;
        let legal = self.legal_moves();
        let candidates: Vec<Move> = match parsed {
            SanText::Castle { king_side } => legal
                .iter()
                .copied()
                .filter(|m| m.is_castle() && (m.to().file() > m.from().file()) == king_side)
                .collect(),
            SanText::Normal {
                role,
                file,
                rank,
                to,
                promotion,
            } => {
                // A pawn move without a file is a push: `e4` never means `dxe4`.
                let file = file.or((role == Role::Pawn).then_some(to.file()));
                let matches = |m: &Move| {
                    !m.is_castle()
                        && m.to() == to
                        && self.role_at(m.from()) == Some(role)
                        && file.is_none_or(|f| m.from().file() == f)
                        && rank.is_none_or(|r| m.from().rank() == r)
                };
                let shaped: Vec<Move> = legal.iter().copied().filter(matches).collect();
                if promotion.is_none() && shaped.iter().any(|m| m.promotion().is_some()) {
                    return Err(SanError::PromotionRequired);
                }
                shaped
                    .into_iter()
                    .filter(|m| m.promotion() == promotion)
                    .collect()
            }
        };
        match candidates.as_slice() {
            [] => Err(SanError::NoSuchMove),
            [m] => Ok(*m),
            _ => Err(SanError::Ambiguous(candidates)),
        }
    }
}

impl Position {
    /// Why SAN text that names no legal move cannot be played, in a player's words: the
    /// diagnosis of the one move the text would name if legality were ignored. `None`
    /// when the text is not SAN, when it names a legal move, or when it could mean no
    /// piece's move or several.
    pub fn explain_san(&self, text: &str) -> Option<crate::diagnose::IllegalMove> {
        use crate::uci::{CastlingMode, UciMove};
        let us = self.turn;
        let origins: Vec<(Square, Square)> = match parse_text(text).ok()? {
            SanText::Castle { king_side } => {
                let king = self.king(us);
                let rank = crate::position::back_rank(us);
                let rooks = self.pieces(us, Role::Rook);
                let rights = self.castling_rooks();
                let on_side =
                    |sq: &Square| sq.rank() == rank && (sq.file() > king.file()) == king_side;
                // The rook with the right on that side, else the outermost rook there.
                let rook = rights.into_iter().find(on_side).or_else(|| {
                    let mut side: Vec<Square> = rooks.into_iter().filter(on_side).collect();
                    if king_side {
                        side.reverse();
                    }
                    side.first().copied()
                });
                match rook {
                    Some(rook) => vec![(king, rook)],
                    None => return Some(crate::diagnose::IllegalMove::CastlingWithoutRight),
                }
            }
            SanText::Normal {
                role,
                file,
                rank,
                to,
                ..
            } => {
                // A pawn that does not capture stays on its file.
                let file = file.or((role == Role::Pawn).then_some(to.file()));
                self.pieces(us, role)
                    .into_iter()
                    .filter(|sq| file.is_none_or(|f| sq.file() == f))
                    .filter(|sq| rank.is_none_or(|r| sq.rank() == r))
                    .map(|from| (from, to))
                    .collect()
            }
        };
        let reasons: Vec<crate::diagnose::IllegalMove> = origins
            .iter()
            .filter_map(|&(from, to)| {
                let uci = UciMove {
                    from,
                    to,
                    promotion: None,
                };
                self.diagnose(uci, CastlingMode::Chess960).err()
            })
            .collect();
        // A piece that cannot reach the square at all is no candidate when another can.
        let reachable: Vec<&crate::diagnose::IllegalMove> = reasons
            .iter()
            .filter(|r| !matches!(r, crate::diagnose::IllegalMove::CannotMoveThatWay(_)))
            .collect();
        match (reachable.as_slice(), reasons.as_slice()) {
            ([only], _) => Some((*only).clone()),
            ([], [only]) => Some(only.clone()),
            _ => None,
        }
    }
}
