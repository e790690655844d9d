//! A command line's optional request id: `@<id> <command>`. The id is any token without
//! blanks after the `@`; the answer carries it back, so that a client can match answers
//! to requests when long work makes them arrive out of order.

/// One command line split into its id and its command text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request<'a> {
    pub id: Option<&'a str>,
    /// The line after the id: what `Command::parse` reads.
    pub text: &'a str,
}

impl<'a> Request<'a> {
    pub fn split(line: &'a str) -> Request<'a> {
        // The usual line starts with its command: nothing to look for.
        if line.as_bytes().first().is_some_and(u8::is_ascii_alphabetic) {
            return Request {
                id: None,
                text: line,
            };
        }
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix('@') {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            if end > 0 {
                return Request {
                    id: Some(&rest[..end]),
                    text: &rest[end..],
                };
            }
        }
        Request {
            id: None,
            text: line,
        }
    }

    /// The command's first word, which JSON answers name: `None` for a blank line or a
    /// comment.
    pub fn keyword(&self) -> Option<&'a str> {
        super::command::words(self.text)
            .next()
            .filter(|word| !word.starts_with('#'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_the_token_after_the_at_sign() {
        let r = Request::split("  @a-7 move e4");
        assert_eq!((r.id, r.keyword()), (Some("a-7"), Some("move")));
        assert_eq!(r.text, " move e4");
    }

    #[test]
    fn a_lone_at_sign_is_no_id() {
        let r = Request::split("@ isready");
        assert_eq!((r.id, r.keyword()), (None, Some("@")));
    }

    #[test]
    fn a_comment_after_an_id_has_no_keyword() {
        assert_eq!(Request::split("@1 # note").keyword(), None);
        assert_eq!(Request::split("@1").keyword(), None);
    }
}
