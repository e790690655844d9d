//! The tokens of a question: words, quoted strings, operators and parentheses, each
//! with the byte offset it starts at.

use super::{QueryError, Why};

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// `~`: contains, ignoring ASCII case.
    Contains,
    /// `^=`: starts with.
    StartsWith,
    /// `=~`: matches a regular expression.
    Matches,
}

impl Op {
    pub const fn text(self) -> &'static str {
        match self {
            Op::Eq => "=",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Contains => "~",
            Op::StartsWith => "^=",
            Op::Matches => "=~",
        }
    }

    /// Whether the operator orders (or equates) values rather than matching text.
    pub const fn is_ordering(self) -> bool {
        matches!(self, Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge)
    }

    /// The comparison's answer for how the left side stands against the right.
    pub fn holds(self, order: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::{Equal, Greater, Less};
        match self {
            Op::Eq => order == Equal,
            Op::Ne => order != Equal,
            Op::Lt => order == Less,
            Op::Le => order != Greater,
            Op::Gt => order == Greater,
            Op::Ge => order != Less,
            Op::Contains | Op::StartsWith | Op::Matches => false,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Token {
    /// A run of letters, digits, `_`, `.`, `-`: a field, a keyword, a number, a key.
    Word(String),
    /// A double-quoted string, its escapes resolved.
    Str(String),
    Op(Op),
    Open,
    Close,
    End,
}

impl Token {
    /// How an error message names what was found.
    pub fn describe(&self) -> String {
        match self {
            Token::Word(w) => format!("'{w}'"),
            Token::Str(s) => format!("the string \"{s}\""),
            Token::Op(op) => format!("'{}'", op.text()),
            Token::Open => "'('".to_string(),
            Token::Close => "')'".to_string(),
            Token::End => "the end of the expression".to_string(),
        }
    }
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'+')
}

/// The tokens of `text`, each with its byte offset, ending with `End`.
pub fn tokens(text: &str) -> Result<Vec<(Token, usize)>, QueryError> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let b = bytes[at];
        let start = at;
        let token = match b {
            b' ' | b'\t' | b'\n' | b'\r' => {
                at += 1;
                continue;
            }
            b'(' => {
                at += 1;
                Token::Open
            }
            b')' => {
                at += 1;
                Token::Close
            }
            b'"' => {
                let mut value = String::new();
                at += 1;
                loop {
                    let Some(c) = text[at..].chars().next() else {
                        return Err(QueryError::new(Why::UnterminatedString, start));
                    };
                    match c {
                        '"' => {
                            at += 1;
                            break;
                        }
                        '\\' => match bytes.get(at + 1) {
                            Some(b'"') => {
                                value.push('"');
                                at += 2;
                            }
                            Some(b'\\') => {
                                value.push('\\');
                                at += 2;
                            }
                            _ => return Err(QueryError::new(Why::BadEscape, at)),
                        },
                        c => {
                            value.push(c);
                            at += c.len_utf8();
                        }
                    }
                }
                Token::Str(value)
            }
            b'=' if bytes.get(at + 1) == Some(&b'~') => {
                at += 2;
                Token::Op(Op::Matches)
            }
            b'=' => {
                at += 1;
                Token::Op(Op::Eq)
            }
            b'!' if bytes.get(at + 1) == Some(&b'=') => {
                at += 2;
                Token::Op(Op::Ne)
            }
            b'<' | b'>' => {
                let eq = bytes.get(at + 1) == Some(&b'=');
                at += 1 + usize::from(eq);
                Token::Op(match (b, eq) {
                    (b'<', false) => Op::Lt,
                    (b'<', true) => Op::Le,
                    (_, false) => Op::Gt,
                    (_, true) => Op::Ge,
                })
            }
            b'~' => {
                at += 1;
                Token::Op(Op::Contains)
            }
            b'^' if bytes.get(at + 1) == Some(&b'=') => {
                at += 2;
                Token::Op(Op::StartsWith)
            }
            b if is_word_byte(b) => {
                while at < bytes.len() && is_word_byte(bytes[at]) {
                    at += 1;
                }
                Token::Word(text[start..at].to_string())
            }
            _ => {
                let c = text[at..].chars().next().unwrap_or('?');
                return Err(QueryError::new(Why::UnexpectedChar(c), at));
            }
        };
        out.push((token, start));
    }
    out.push((Token::End, bytes.len()));
    Ok(out)
}
