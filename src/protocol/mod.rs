//! The arbiter line protocol: command lines in, one answer (or one error line) out.
//!
//! `request` splits off a line's `@<id>`, `prefix` its `game <name>` and
//! `if <version>`, `command` parses the rest into a typed
//! `Command`, `session` executes it against the game (handing back long work as a `job`),
//! `answer` formats every answer as text and `json` as JSON Lines, `error` holds the
//! stable error codes, and `stream` reads lines from a byte stream, runs long work on a
//! worker thread and writes answers with sensible flushing.
//! `help` holds the help of each command.

mod ahead;
pub mod answer;
pub mod command;
mod error;
mod heap;
mod help;
mod job;
mod json;
pub mod prefix;
pub mod request;
mod session;
pub mod stream;
mod table;

pub use answer::{Answer, Format, Header, Reply};
pub use command::{Command, MAX_PERFT_DEPTH};
pub use error::ProtocolError;
pub use prefix::{GameName, Version};
pub use session::{Session, Step};
pub use stream::{BoardStyle, Flow, Runner, MAX_LINE};
