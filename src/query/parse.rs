//! The grammar of a question:
//!
//! ```text
//! expr    := and ("or" and)*
//! and     := unary ("and" unary)*
//! unary   := "not" unary | "(" expr ")" | ("reach" | "final") "(" conds ")"
//!          | field op value
//! conds   := cond ("and" cond)*
//! cond    := "not" cond | "key" hex | "fen" string | "board" string
//!          | "material" ["~"] string | "side" ("white" | "black") | "ply" op number
//!          | "check"
//! ```

use super::cond::{parse_fen, parse_key, Board, Cond, Material};
use super::lex::{tokens, Op, Token};
use super::{Atom, Expr, Lit, Matcher, Query, QueryError, Subject, Why, ENDS, MAX_ATOMS};
use crate::color::Color;

pub(super) fn parse(text: &str, query: &mut Query) -> Result<Expr, QueryError> {
    let tokens = tokens(text)?;
    let mut parser = Parser {
        tokens,
        at: 0,
        query,
    };
    let expr = parser.or()?;
    parser.expect_end()?;
    Ok(expr)
}

struct Parser<'q> {
    tokens: Vec<(Token, usize)>,
    at: usize,
    query: &'q mut Query,
}

fn expected(expected: &'static str, found: &Token, at: usize) -> QueryError {
    QueryError::new(
        Why::Expected {
            expected,
            found: found.describe(),
        },
        at,
    )
}

impl Parser<'_> {
    fn peek(&self) -> (&Token, usize) {
        let (token, at) = &self.tokens[self.at.min(self.tokens.len() - 1)];
        (token, *at)
    }

    fn next(&mut self) -> (Token, usize) {
        let (token, at) = self.peek();
        let token = token.clone();
        if self.at < self.tokens.len() - 1 {
            self.at += 1;
        }
        (token, at)
    }

    fn is_keyword(&self, word: &str) -> bool {
        matches!(self.peek().0, Token::Word(w) if w.eq_ignore_ascii_case(word))
    }

    fn expect_end(&mut self) -> Result<(), QueryError> {
        match self.peek() {
            (Token::End, _) => Ok(()),
            (token, at) => Err(expected("'and', 'or' or the end", token, at)),
        }
    }

    fn or(&mut self) -> Result<Expr, QueryError> {
        let mut left = self.and()?;
        while self.is_keyword("or") {
            self.next();
            let right = self.and()?;
            left = Expr::Or(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Expr, QueryError> {
        let mut left = self.unary()?;
        while self.is_keyword("and") {
            self.next();
            let right = self.unary()?;
            left = Expr::And(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Expr, QueryError> {
        if self.is_keyword("not") {
            self.next();
            return Ok(Expr::Not(Box::new(self.unary()?)));
        }
        let (token, at) = self.next();
        match token {
            Token::Open => {
                let expr = self.or()?;
                match self.next() {
                    (Token::Close, _) => Ok(expr),
                    (token, at) => Err(expected("')', 'and' or 'or'", &token, at)),
                }
            }
            Token::Word(word) => self.comparison(&word, at),
            token => Err(expected("a field, 'not' or '('", &token, at)),
        }
    }

    fn atom(&mut self, atom: Atom, at: usize) -> Result<Expr, QueryError> {
        if self.query.atoms.len() >= MAX_ATOMS {
            return Err(QueryError::new(Why::TooManyConditions(MAX_ATOMS), at));
        }
        self.query.atoms.push(atom);
        Ok(Expr::Atom(self.query.atoms.len() - 1))
    }

    fn comparison(&mut self, word: &str, at: usize) -> Result<Expr, QueryError> {
        let lower = word.to_ascii_lowercase();
        let tag = |q: &mut Query, name: &str| q.tag_index(name);
        let subject = match lower.as_str() {
            "reach" | "final" => {
                let conds = self.conditions()?;
                let subject = if lower == "reach" {
                    Subject::Reach(conds)
                } else {
                    Subject::Final(conds)
                };
                return self.atom(
                    Atom {
                        subject,
                        matcher: None,
                    },
                    at,
                );
            }
            "white" => Subject::Tag(tag(self.query, "White")),
            "black" => Subject::Tag(tag(self.query, "Black")),
            "player" => Subject::Either(tag(self.query, "White"), tag(self.query, "Black")),
            "event" => Subject::Tag(tag(self.query, "Event")),
            "site" => Subject::Tag(tag(self.query, "Site")),
            "date" => Subject::Date(tag(self.query, "Date")),
            "year" => Subject::Year(tag(self.query, "Date")),
            "round" => Subject::Tag(tag(self.query, "Round")),
            "result" => Subject::Tag(tag(self.query, "Result")),
            "whiteelo" => Subject::Tag(tag(self.query, "WhiteElo")),
            "blackelo" => Subject::Tag(tag(self.query, "BlackElo")),
            "minelo" => Subject::MinOf(tag(self.query, "WhiteElo"), tag(self.query, "BlackElo")),
            "maxelo" => Subject::MaxOf(tag(self.query, "WhiteElo"), tag(self.query, "BlackElo")),
            "timecontrol" => Subject::Tag(tag(self.query, "TimeControl")),
            "n" => Subject::Number,
            "plies" => Subject::Plies,
            "end" => Subject::End,
            "eco" => Subject::Eco,
            "opening" => Subject::Opening,
            _ => match word.split_once('.') {
                Some((prefix, name)) if prefix.eq_ignore_ascii_case("tag") => {
                    if !crate::pgn::tags::is_valid_name(name) {
                        return Err(QueryError::new(Why::BadTagName(name.to_string()), at + 4));
                    }
                    Subject::Tag(tag(self.query, name))
                }
                _ => return Err(QueryError::new(Why::UnknownField(word.to_string()), at)),
            },
        };
        let (op, op_at) = match self.next() {
            (Token::Op(op), op_at) => (op, op_at),
            (token, at) => {
                return Err(expected("an operator (= != < <= > >= ~ ^= =~)", &token, at))
            }
        };
        let (lit, lit_at) = self.value()?;
        let matcher = matcher_for(&subject, &lower, op, op_at, lit, lit_at)?;
        self.atom(
            Atom {
                subject,
                matcher: Some(matcher),
            },
            at,
        )
    }

    fn value(&mut self) -> Result<(Lit, usize), QueryError> {
        match self.next() {
            (Token::Str(s), at) => Ok((Lit::Str(s), at)),
            (Token::Word(w), at) => Ok((
                match w.parse::<f64>() {
                    Ok(n) if n.is_finite() => Lit::Num(n, w),
                    _ => Lit::Word(w),
                },
                at,
            )),
            (token, at) => Err(expected(
                "a value (a \"string\", a number or a word)",
                &token,
                at,
            )),
        }
    }

    fn conditions(&mut self) -> Result<Vec<Cond>, QueryError> {
        match self.next() {
            (Token::Open, _) => {}
            (token, at) => return Err(expected("'('", &token, at)),
        }
        let mut conds = vec![self.condition()?];
        loop {
            match self.next() {
                (Token::Close, _) => return Ok(conds),
                (Token::Word(w), _) if w.eq_ignore_ascii_case("and") => {
                    conds.push(self.condition()?)
                }
                (token, at) => return Err(expected("'and' or ')'", &token, at)),
            }
        }
    }

    fn string(&mut self, what: &'static str) -> Result<(String, usize), QueryError> {
        match self.next() {
            (Token::Str(s), at) => Ok((s, at)),
            (token, at) => Err(expected(what, &token, at)),
        }
    }

    fn condition(&mut self) -> Result<Cond, QueryError> {
        let (token, at) = self.next();
        let Token::Word(word) = token else {
            return Err(expected(
                "a condition (key, fen, board, material, side, ply, check)",
                &token,
                at,
            ));
        };
        Ok(match word.to_ascii_lowercase().as_str() {
            "not" => Cond::Not(Box::new(self.condition()?)),
            "key" => {
                let (token, at) = self.next();
                let text = match token {
                    Token::Word(w) | Token::Str(w) => w,
                    token => return Err(expected("a Polyglot key", &token, at)),
                };
                Cond::Key(parse_key(&text).ok_or(QueryError::new(Why::BadKey(text), at))?)
            }
            "fen" => {
                let (text, at) = self.string("a FEN in double quotes")?;
                Cond::Fen(Box::new(
                    parse_fen(&text).map_err(|why| QueryError::new(Why::BadFen(why), at))?,
                ))
            }
            "board" => {
                let (text, at) = self.string("a board pattern in double quotes")?;
                Cond::Board(Box::new(
                    Board::parse(&text).map_err(|why| QueryError::new(Why::BadBoard(why), at))?,
                ))
            }
            "material" => {
                let at_least = matches!(self.peek().0, Token::Op(Op::Contains));
                if at_least {
                    self.next();
                }
                let (text, at) = self.string("material in double quotes, such as \"KRPkr\"")?;
                let material =
                    Material::parse(&text).ok_or(QueryError::new(Why::BadMaterial(text), at))?;
                if at_least {
                    Cond::MaterialAtLeast(material)
                } else {
                    Cond::Material(material)
                }
            }
            "side" => {
                let (token, at) = self.next();
                let text = match token {
                    Token::Word(w) | Token::Str(w) => w,
                    token => return Err(expected("white or black", &token, at)),
                };
                Cond::Side(match text.to_ascii_lowercase().as_str() {
                    "white" | "w" => Color::White,
                    "black" | "b" => Color::Black,
                    _ => return Err(QueryError::new(Why::BadSide(text), at)),
                })
            }
            "ply" => {
                let (op, op_at) = match self.next() {
                    (Token::Op(op), op_at) => (op, op_at),
                    (token, at) => {
                        return Err(expected("a comparison (= != < <= > >=)", &token, at))
                    }
                };
                if !op.is_ordering() {
                    return Err(QueryError::new(
                        Why::OperatorNotFor {
                            op: op.text(),
                            field: "ply".to_string(),
                        },
                        op_at,
                    ));
                }
                match self.value()? {
                    (Lit::Num(n, _), _) => Cond::Ply(op, n),
                    (lit, at) => {
                        return Err(expected(
                            "a number",
                            &Token::Word(lit.text().to_string()),
                            at,
                        ))
                    }
                }
            }
            "check" => Cond::Check,
            _ => return Err(QueryError::new(Why::UnknownCondition(word), at)),
        })
    }
}

/// Whether a subject's values are numbers (ratings, counts), compared as numbers even
/// when the literal is quoted.
fn numeric(subject: &Subject, field: &str) -> bool {
    matches!(
        subject,
        Subject::Number
            | Subject::Plies
            | Subject::MinOf(..)
            | Subject::MaxOf(..)
            | Subject::Year(_)
    ) || field == "whiteelo"
        || field == "blackelo"
}

fn matcher_for(
    subject: &Subject,
    field: &str,
    op: Op,
    op_at: usize,
    lit: Lit,
    lit_at: usize,
) -> Result<Matcher, QueryError> {
    let not_for = || {
        QueryError::new(
            Why::OperatorNotFor {
                op: op.text(),
                field: field.to_string(),
            },
            op_at,
        )
    };
    let only_numbers = matches!(
        subject,
        Subject::Number
            | Subject::Plies
            | Subject::MinOf(..)
            | Subject::MaxOf(..)
            | Subject::Year(_)
    );
    if matches!(subject, Subject::End) {
        if !matches!(op, Op::Eq | Op::Ne) {
            return Err(not_for());
        }
        let text = lit.text().to_ascii_lowercase();
        if !ENDS.contains(&text.as_str()) {
            return Err(QueryError::new(Why::BadEnd(lit.text().to_string()), lit_at));
        }
        return Ok(Matcher::Text(op, text));
    }
    if !op.is_ordering() {
        if only_numbers {
            return Err(not_for());
        }
        return Ok(match op {
            Op::Matches => {
                Matcher::Regex(regex::Regex::new(lit.text()).map_err(|e| {
                    QueryError::new(Why::BadRegex(first_line(&e.to_string())), lit_at)
                })?)
            }
            _ => Matcher::Text(op, lit.text().to_string()),
        });
    }
    if matches!(subject, Subject::Date(_)) {
        return parse_date_literal(lit.text())
            .map(|parts| Matcher::Date(op, parts))
            .ok_or(QueryError::new(
                Why::BadDate(lit.text().to_string()),
                lit_at,
            ));
    }
    let number = match &lit {
        Lit::Num(n, _) => Some(*n),
        Lit::Str(s) if numeric(subject, field) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    match number {
        Some(n) => Ok(Matcher::Number(op, n)),
        None if numeric(subject, field) => Err(expected(
            "a number",
            &match lit {
                Lit::Str(s) => Token::Str(s),
                other => Token::Word(other.text().to_string()),
            },
            lit_at,
        )),
        None => Ok(Matcher::Text(op, lit.text().to_string())),
    }
}

/// The last line of the regex crate's message, which says what is wrong (its first
/// lines draw the pattern again).
fn first_line(message: &str) -> String {
    message
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or(message)
        .trim()
        .to_string()
}

/// A date literal: `YYYY`, `YYYY.MM` or `YYYY.MM.DD`, every part a number.
pub(crate) fn parse_date_literal(text: &str) -> Option<Vec<u32>> {
    let parts: Vec<u32> = text
        .trim()
        .split('.')
        .map(|p| {
            if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
                None
            } else {
                p.parse().ok()
            }
        })
        .collect::<Option<_>>()?;
    (1..=3).contains(&parts.len()).then_some(parts)
}
