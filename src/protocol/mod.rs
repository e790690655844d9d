//! The arbiter line protocol: command lines in, one answer (or one error line) out.
//!
//! `command` parses a line into a typed `Command`, `session` executes it against the
//! game, `answer` formats every answer, `error` holds the stable error codes, and
//! `stream` reads lines from a byte stream and writes answers with sensible flushing.
//! For the REPL: `help` holds the help of each command, `completion` the Tab
//! completion, `board` the coloured board of `d`.

pub mod answer;
pub mod board;
pub mod command;
pub mod completion;
pub mod error;
pub mod help;
pub mod session;
pub mod stream;

pub use answer::{Answer, Reply};
pub use board::BoardStyle;
pub use command::{Command, MAX_PERFT_DEPTH};
pub use error::ProtocolError;
pub use session::Session;
pub use stream::{Flow, Runner, MAX_LINE};
