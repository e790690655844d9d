//! Reading command lines from a byte stream and writing the answers: the line length
//! limit, UTF-8 checking, echo, and flushing only when the reader would wait.

use std::io::{self, Read, Write};

use super::answer::{Answer, Reply};
use super::board::{self, BoardStyle};
use super::error::{BadInput, ProtocolError};
use super::session::{has_control, Session};

/// The longest line, in bytes without its line ending, that is read as a command.
pub const MAX_LINE: usize = 1 << 20;

const BUFFER: usize = 64 * 1024;

/// One line read from the input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The line's bytes (into the caller's buffer), without `\n` or `\r\n`.
    Bytes,
    /// Longer than `MAX_LINE`; its bytes were skipped.
    TooLong,
}

/// Splits a byte stream into lines without ever holding more than `MAX_LINE` bytes of
/// one, and tells its caller when the next read may block.
pub struct LineReader<R> {
    inner: R,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
}

impl<R: Read> LineReader<R> {
    pub fn new(inner: R) -> LineReader<R> {
        LineReader {
            inner,
            buf: vec![0; BUFFER].into_boxed_slice(),
            start: 0,
            end: 0,
        }
    }

    /// Reads the next line into `line`; `None` at the end of the input. `before_wait`
    /// runs whenever every byte read so far has been used, just before a read that may
    /// block: the moment to flush answers to a client that is waiting for them.
    pub fn next_line(
        &mut self,
        line: &mut Vec<u8>,
        mut before_wait: impl FnMut() -> io::Result<()>,
    ) -> io::Result<Option<Line>> {
        line.clear();
        let mut too_long = false;
        let mut seen_any = false;
        loop {
            if self.start == self.end {
                before_wait()?;
                let n = loop {
                    match self.inner.read(&mut self.buf) {
                        Ok(n) => break n,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                        Err(e) => return Err(e),
                    }
                };
                if n == 0 {
                    return Ok(seen_any.then(|| finish(line, too_long)));
                }
                self.start = 0;
                self.end = n;
            }
            seen_any = true;
            let available = &self.buf[self.start..self.end];
            let (chunk, newline) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (&available[..i], true),
                None => (available, false),
            };
            if !too_long {
                // A `\r` ending the line is not part of it, so allow one byte more here.
                if line.len() + chunk.len() > MAX_LINE + 1 {
                    too_long = true;
                    line.clear();
                } else {
                    line.extend_from_slice(chunk);
                }
            }
            self.start += chunk.len() + usize::from(newline);
            if newline {
                return Ok(Some(finish(line, too_long)));
            }
        }
    }
}

fn finish(line: &mut Vec<u8>, too_long: bool) -> Line {
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    if too_long || line.len() > MAX_LINE {
        line.clear();
        Line::TooLong
    } else {
        Line::Bytes
    }
}

/// Whether to go on reading after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// A session wired to an output: runs lines, echoes them if asked, remembers whether
/// any answer was an error (for the exit status).
pub struct Runner<W: Write> {
    session: Session,
    out: W,
    echo: bool,
    failed: bool,
    board: BoardStyle,
}

impl<W: Write> Runner<W> {
    pub fn new(session: Session, out: W, echo: bool) -> Runner<W> {
        Runner {
            session,
            out,
            echo,
            failed: false,
            board: BoardStyle::Text,
        }
    }

    /// How `d` draws the board; the text board unless the binary asks otherwise.
    pub fn set_board_style(&mut self, style: BoardStyle) {
        self.board = style;
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Whether any command answered an error.
    pub fn failed(&self) -> bool {
        self.failed
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Runs one command line.
    pub fn run_line(&mut self, line: &str) -> io::Result<Flow> {
        if self.echo {
            let shown = line.trim();
            // A line refused as bad input is not echoed: its text cannot be shown.
            if !shown.is_empty() && !has_control(shown) {
                writeln!(self.out, "> {shown}")?;
            }
        }
        let reply = self.session.execute(line);
        self.emit(&reply)?;
        Ok(if reply == Reply::Quit {
            Flow::Quit
        } else {
            Flow::Continue
        })
    }

    fn emit(&mut self, reply: &Reply) -> io::Result<()> {
        if matches!(reply, Reply::Error(_)) {
            self.failed = true;
        }
        if let (BoardStyle::Terminal, Reply::Answer(Answer::Board(pos))) = (self.board, reply) {
            let last = self.session.game().moves().last();
            return self.out.write_all(board::render(pos, last).as_bytes());
        }
        reply.write_to(&mut self.out)
    }

    /// Runs every line of a stream until its end or `quit`, flushing the answers
    /// whenever the input has nothing more waiting.
    pub fn run_stream(&mut self, input: impl Read) -> io::Result<Flow> {
        let mut reader = LineReader::new(input);
        let mut bytes = Vec::new();
        loop {
            let out = &mut self.out;
            let line = reader.next_line(&mut bytes, || out.flush())?;
            let flow = match line {
                None => return Ok(Flow::Continue),
                Some(Line::TooLong) => {
                    self.emit(&Reply::Error(ProtocolError::LineTooLong(MAX_LINE)))?;
                    Flow::Continue
                }
                Some(Line::Bytes) => match std::str::from_utf8(&bytes) {
                    Ok(text) => self.run_line(text)?,
                    Err(_) => {
                        self.emit(&Reply::Error(ProtocolError::BadInput(BadInput::Utf8)))?;
                        Flow::Continue
                    }
                },
            };
            if flow == Flow::Quit {
                return Ok(Flow::Quit);
            }
        }
    }
}
