//! The arbiter line protocol: command lines in, one answer (or one error line) out.
//!
//! `request` splits off a line's `@<id>`, `prefix` its `game <name>` and
//! `if <version>`, `command` parses the rest into a typed
//! `Command`, `session` executes it against the game (handing back long work as a `job`),
//! `answer` holds every answer as a value, `text` prints it as text and `json` as JSON
//! Lines (`print` picks the one asked for), `options` the options and their limits,
//! `name` games' names and versions, `clock` the one counter every version comes from,
//! `error` the stable error codes, and `stream` reads lines from a byte stream, runs
//! long work on a worker thread and writes answers with sensible flushing.
//! `help` holds the help of each command, `offers` the draw and takeback offers,
//! `snapshot` the game whole as `state` writes it and `restore` reads it.

pub mod answer;
pub mod clock;
pub mod command;
mod error;
pub mod files;
mod help;
mod job;
mod json;
pub mod name;
pub mod offers;
pub mod options;
pub mod prefix;
mod print;
pub mod request;
mod session;
pub mod snapshot;
mod stream;
mod text;

pub use answer::{Answer, Format, Header, Reply};
pub use command::{Command, MAX_PERFT_DEPTH};
pub use error::ProtocolError;
pub use name::{GameName, Version};
pub use session::{Session, Step};
pub use stream::{BoardStyle, Flow, Runner, MAX_LINE};
