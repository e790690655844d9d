//! Questions over game databases: the expression language of `arbiter --pgn --where`.
//!
//! An expression is parsed once (`Query::new`) into a tree of `and`, `or` and `not`
//! over atoms, each atom one comparison or one position predicate. Atoms are told
//! apart by what they need: the tags alone (decided before a game's moves are
//! replayed, so that a game whose tags already fail is never replayed), the game's
//! number in the run (known only where the games are written in order), or the moves.
//!
//! ```
//! use arbiter::query::Query;
//!
//! let query = Query::new(&["minelo >= 2400 and white ~ \"carlsen\""]).expect("good");
//! assert!(query.needs_tags());
//! let error = Query::new(&["whiteelo >> 3"]).unwrap_err();
//! assert!(error.to_string().contains("^"));
//! ```

pub mod columns;
pub mod cond;
pub mod eval;
mod lex;
pub mod openings;
mod parse;

use std::fmt;

pub use cond::{Board, Cond, Material};
pub use eval::{GameView, Selector};
pub use lex::Op;

/// Every field a comparison may name, as the error for an unknown one lists them.
pub const FIELDS: &str = "white, black, player, event, site, date, year, round, result, \
whiteelo, blackelo, minelo, maxelo, timecontrol, tag.<Name>, n, plies, end, eco, opening, \
reach(...), final(...)";

/// The columns of `--to tsv --fields`.
pub const COLUMNS: &str = "white, black, event, site, date, year, round, result, whiteelo, \
blackelo, minelo, maxelo, timecontrol, tag.<Name>, n, plies, end, eco, opening, fen, moves, san";

/// The conditions inside `reach(...)` and `final(...)`.
pub const CONDITIONS: &str = "key, fen, board, material, side, ply, check";

/// The values of `end`.
pub const ENDS: [&str; 6] = [
    "checkmate",
    "stalemate",
    "insufficient-material",
    "seventy-five-move",
    "fivefold",
    "none",
];

/// Why an expression cannot be used, one variant per reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    UnexpectedChar(char),
    UnterminatedString,
    /// A backslash followed by anything but `"` or `\`.
    BadEscape,
    /// Something else stands where the grammar wants `expected`.
    Expected {
        expected: &'static str,
        found: String,
    },
    UnknownField(String),
    UnknownCondition(String),
    /// An empty or badly formed tag name after `tag.`.
    BadTagName(String),
    /// The operator does not apply to the field (`end < checkmate`, `n ~ "3"`).
    OperatorNotFor {
        op: &'static str,
        field: String,
    },
    BadRegex(String),
    BadEnd(String),
    BadKey(String),
    BadFen(String),
    BadBoard(String),
    BadMaterial(String),
    BadSide(String),
    BadDate(String),
    /// A `--fields` name that is no column.
    UnknownColumn(String),
    /// More atoms than a game's facts hold.
    TooManyConditions(usize),
}

/// An error in an expression, with the byte offset it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryError {
    pub why: Why,
    pub at: usize,
}

impl QueryError {
    pub(crate) fn new(why: Why, at: usize) -> QueryError {
        QueryError { why, at }
    }
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Why::UnexpectedChar(c) => write!(f, "unexpected character {c:?}"),
            Why::UnterminatedString => f.write_str("a string that is never closed (\")"),
            Why::BadEscape => f.write_str("a backslash in a string escapes only \" and \\"),
            Why::Expected { expected, found } => write!(f, "expected {expected}, found {found}"),
            Why::UnknownField(name) => {
                write!(f, "unknown field '{name}'; the fields are {FIELDS}")
            }
            Why::UnknownCondition(name) => write!(
                f,
                "unknown condition '{name}'; the conditions are {CONDITIONS}"
            ),
            Why::BadTagName(name) => write!(
                f,
                "'{name}' is not a tag name (letters, digits and underscores, starting with a letter)"
            ),
            Why::OperatorNotFor { op, field } => {
                write!(f, "the operator {op} does not apply to {field}")
            }
            Why::BadRegex(why) => write!(f, "not a regular expression: {why}"),
            Why::BadEnd(value) => write!(
                f,
                "'{value}' is no end; the ends are {}",
                ENDS.join(", ")
            ),
            Why::BadKey(value) => write!(
                f,
                "'{value}' is not a Polyglot key (16 hexadecimal digits, 0x optional)"
            ),
            Why::BadFen(why) => write!(f, "not a position: {why}"),
            Why::BadBoard(why) => write!(f, "not a board pattern: {why}"),
            Why::BadMaterial(value) => write!(
                f,
                "'{value}' is not material (letters KQRBNP for white, kqrbnp for black)"
            ),
            Why::BadSide(value) => write!(f, "'{value}' is no side (white or black)"),
            Why::BadDate(value) => write!(
                f,
                "'{value}' is not a date (YYYY, YYYY.MM or YYYY.MM.DD)"
            ),
            Why::UnknownColumn(name) => write!(
                f,
                "unknown field '{name}'; the fields are {COLUMNS}"
            ),
            Why::TooManyConditions(max) => {
                write!(f, "too many comparisons: at most {max} in all")
            }
        }
    }
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.why.fmt(f)
    }
}

impl std::error::Error for QueryError {}

/// An error in one of the `--where` expressions, shown with the expression and a caret
/// under the place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WhereError {
    /// The expression, as given.
    pub expr: String,
    pub error: QueryError,
}

impl fmt::Display for WhereError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.error.at.min(self.expr.len());
        // The caret stands under the character, counted in characters, with the
        // expression's line breaks and tabs shown as spaces so that columns agree.
        let shown: String = self
            .expr
            .chars()
            .map(|c| if c.is_whitespace() { ' ' } else { c })
            .collect();
        let column = self
            .expr
            .get(..at)
            .map_or(at, |before| before.chars().count());
        write!(
            f,
            "--where, column {}: {}\n  {shown}\n  {}^",
            column + 1,
            self.error,
            " ".repeat(column)
        )
    }
}

impl std::error::Error for WhereError {}

/// A comparison value as written.
#[derive(Clone, Debug)]
pub(crate) enum Lit {
    Str(String),
    /// An unquoted number, with its text.
    Num(f64, String),
    /// An unquoted word that is not a number.
    Word(String),
}

impl Lit {
    pub(crate) fn text(&self) -> &str {
        match self {
            Lit::Str(s) | Lit::Num(_, s) | Lit::Word(s) => s,
        }
    }
}

/// How a value is compared.
#[derive(Clone, Debug)]
pub enum Matcher {
    /// As text: exact, ordered by bytes, contained (ASCII case ignored), prefix.
    Text(Op, String),
    /// By a regular expression.
    Regex(regex::Regex),
    /// As a number: the value must read as one.
    Number(Op, f64),
    /// As a PGN date: the literal's parts (year, month, day), each of the value's
    /// parts compared must be known.
    Date(Op, Vec<u32>),
}

/// What an atom looks at.
#[derive(Clone, Debug)]
pub enum Subject {
    /// A tag's value, by its index among `Query::tags`.
    Tag(usize),
    /// Either of two tags (`player`: White, Black).
    Either(usize, usize),
    /// The smaller or larger of two ratings: both must read as numbers.
    MinOf(usize, usize),
    MaxOf(usize, usize),
    /// A tag read as a PGN date.
    Date(usize),
    /// The year of a tag read as a PGN date.
    Year(usize),
    /// The game's number in the run.
    Number,
    Plies,
    End,
    Eco,
    Opening,
    Reach(Vec<Cond>),
    Final(Vec<Cond>),
}

/// What an atom needs to be decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Tags,
    Number,
    Moves,
}

impl Subject {
    pub fn phase(&self) -> Phase {
        match self {
            Subject::Tag(_)
            | Subject::Either(..)
            | Subject::MinOf(..)
            | Subject::MaxOf(..)
            | Subject::Date(_)
            | Subject::Year(_) => Phase::Tags,
            Subject::Number => Phase::Number,
            _ => Phase::Moves,
        }
    }
}

/// One comparison or position predicate.
#[derive(Clone, Debug)]
pub struct Atom {
    pub subject: Subject,
    /// `None` for the position predicates, which are true or false by themselves.
    pub matcher: Option<Matcher>,
}

/// The boolean structure over atoms.
#[derive(Clone, Debug)]
pub enum Expr {
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    Atom(usize),
    /// No expression at all: every game.
    True,
}

/// The most atoms a query holds: a game's facts are one bit each.
pub const MAX_ATOMS: usize = 64;

/// A parsed question: every `--where` at once.
#[derive(Clone, Debug)]
pub struct Query {
    pub expr: Expr,
    pub atoms: Vec<Atom>,
    /// The names of the tags the atoms read, each once.
    pub tags: Vec<String>,
}

impl Query {
    /// Parses the expressions, all of which have to hold.
    pub fn new(exprs: &[&str]) -> Result<Query, WhereError> {
        let mut query = Query {
            expr: Expr::True,
            atoms: Vec::new(),
            tags: Vec::new(),
        };
        for text in exprs {
            let expr = parse::parse(text, &mut query).map_err(|error| WhereError {
                expr: (*text).to_string(),
                error,
            })?;
            query.expr = match std::mem::replace(&mut query.expr, Expr::True) {
                Expr::True => expr,
                before => Expr::And(Box::new(before), Box::new(expr)),
            };
        }
        Ok(query)
    }

    /// The index of a tag among those read, added when new.
    pub(crate) fn tag_index(&mut self, name: &str) -> usize {
        match self.tags.iter().position(|t| t == name) {
            Some(i) => i,
            None => {
                self.tags.push(name.to_string());
                self.tags.len() - 1
            }
        }
    }

    /// Whether any atom reads the tags.
    pub fn needs_tags(&self) -> bool {
        self.atoms.iter().any(|a| a.subject.phase() == Phase::Tags)
    }

    /// Whether any atom needs the game's number.
    pub fn needs_number(&self) -> bool {
        self.atoms
            .iter()
            .any(|a| a.subject.phase() == Phase::Number)
    }

    /// Whether any atom needs the moves.
    pub fn needs_moves(&self) -> bool {
        self.atoms.iter().any(|a| a.subject.phase() == Phase::Moves)
    }

    /// Whether any atom names the opening.
    pub fn needs_opening(&self) -> bool {
        self.atoms
            .iter()
            .any(|a| matches!(a.subject, Subject::Eco | Subject::Opening))
    }

    /// The expression's value with the atoms' values as `atom` gives them, `None` for
    /// one not known: Kleene's three-valued logic, so that `Some` is the value
    /// whatever the unknown atoms turn out to be.
    pub fn eval(&self, atom: &mut impl FnMut(usize) -> Option<bool>) -> Option<bool> {
        eval_tri(&self.expr, atom)
    }

    /// Whether the game is selected, from its facts (one bit per atom, `n` atoms aside)
    /// and its number.
    pub fn select(&self, facts: u64, number: u64) -> bool {
        self.eval(&mut |i| {
            Some(match &self.atoms[i] {
                Atom {
                    subject: Subject::Number,
                    matcher: Some(m),
                } => eval::match_number(m, number as f64),
                _ => facts >> i & 1 == 1,
            })
        })
        .unwrap_or(false)
    }
}

fn eval_tri(expr: &Expr, atom: &mut impl FnMut(usize) -> Option<bool>) -> Option<bool> {
    match expr {
        Expr::True => Some(true),
        Expr::Atom(i) => atom(*i),
        Expr::Not(e) => eval_tri(e, atom).map(|v| !v),
        Expr::And(a, b) => match eval_tri(a, atom) {
            Some(false) => Some(false),
            left => match (left, eval_tri(b, atom)) {
                (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            },
        },
        Expr::Or(a, b) => match eval_tri(a, atom) {
            Some(true) => Some(true),
            left => match (left, eval_tri(b, atom)) {
                (_, Some(true)) => Some(true),
                (Some(false), Some(false)) => Some(false),
                _ => None,
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expressions made of the language's own pieces in random orders parse or fail
    /// with an error inside the text, never panic.
    #[test]
    fn random_token_soup_never_panics() {
        let pieces = [
            "white",
            "=",
            "\"x\"",
            "and",
            "or",
            "not",
            "(",
            ")",
            "reach",
            "final",
            "key",
            "0x463B96181691FC9C",
            "fen",
            "board",
            "\"*/*/*/*/*/*/*/*\"",
            "material",
            "~",
            "\"KRk\"",
            "side",
            "white",
            "ply",
            "<=",
            "3",
            "check",
            "n",
            "=~",
            "\"a(\"",
            "date",
            "\"2024.??\"",
            "^=",
            "tag.X",
            "end",
            "checkmate",
            "\\",
            "\"",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            let mut text = String::new();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            for i in 0..(seed % 9) {
                let piece = pieces[((seed >> (i * 5)) % pieces.len() as u64) as usize];
                text.push_str(piece);
                text.push(' ');
            }
            match Query::new(&[&text]) {
                Ok(q) => {
                    let _ = q.select(seed, seed % 100);
                }
                Err(e) => assert!(e.error.at <= text.len(), "{text}: {e:?}"),
            }
        }
    }

    #[test]
    fn unknown_parts_of_a_date_never_match() {
        let q = Query::new(&["date >= \"2024.01\""]).expect("good");
        assert!(matches!(q.atoms[0].matcher, Some(Matcher::Date(..))));
        let m = q.atoms[0].matcher.as_ref().expect("matcher");
        assert!(eval::match_text(m, "2024.03.??"));
        assert!(!eval::match_text(m, "2024.??.??"));
        assert!(!eval::match_text(m, "????.??.??"));
        assert!(!eval::match_text(m, "2023.12.31"));
    }
}
