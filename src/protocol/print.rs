//! A reply in the format asked for: the text printer or the JSON one, siblings that
//! know nothing of each other.

use std::io::{self, Write};

use super::answer::{Format, Header, Reply};

impl Reply {
    /// Writes the reply in a format, for the request the header names. In text, an id
    /// and then the game's name start every line of the answer
    /// (`@7 game g1 readyok`); in JSON they are fields.
    pub fn write(&self, out: &mut impl Write, header: &Header, format: Format) -> io::Result<()> {
        match format {
            Format::Text => super::text::write_reply(out, header, self),
            Format::Json => super::json::write_reply(out, header, self),
        }
    }
}
