//! Reading command lines from a byte stream and writing the answers: the line length
//! limit, UTF-8 checking, echo, flushing only when the reader would wait, and long work
//! on a worker thread while the reading goes on.

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use super::answer::{Answer, Format, Header, Reply};
use super::command::Command;
use super::error::{BadInput, ProtocolError};
use super::job::Job;
use super::name::{GameName, NameRef, Version};
use super::request::Request;
use super::session::{has_control, head_has_control, Address, Session, Step};

/// The longest line, in bytes without its line ending, that is read as a command.
pub const MAX_LINE: usize = 1 << 20;

const BUFFER: usize = 64 * 1024;

/// How much of a line longer than `MAX_LINE` is kept: enough for its request id, which
/// the error must carry.
const KEPT_OF_TOO_LONG: usize = 1024;

/// The UTF-8 byte-order mark that Windows editors write at the start of a file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// How often, once the input has ended with long work left, the stream asks whether
/// anyone still reads the answers: the most a vanished client waits for the work to
/// stop, beyond the stop itself.
const HANGUP_CHECK: Duration = Duration::from_millis(10);

/// The most input held in memory while a job runs: lines past it stay in the pipe,
/// unread, until the worker has answered enough of the queue (a `stop` or `isready`
/// behind them is then read late). Four lines of the longest kind fit.
pub const MAX_QUEUED: usize = 4 * MAX_LINE;

/// One line read from the input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The line's bytes (into the caller's buffer), without `\n` or `\r\n`.
    Bytes,
    /// Longer than `MAX_LINE`; its bytes were skipped but the first
    /// `KEPT_OF_TOO_LONG`, left in the caller's buffer.
    TooLong,
}

/// Splits a byte stream into lines without ever holding more than `MAX_LINE` bytes of
/// one, and tells its caller when the next read may block.
pub struct LineReader<R> {
    inner: R,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    /// No line has been returned yet: a byte-order mark may start the input.
    first: bool,
}

impl<R: Read> LineReader<R> {
    pub fn new(inner: R) -> LineReader<R> {
        LineReader {
            inner,
            buf: vec![0; BUFFER].into_boxed_slice(),
            start: 0,
            end: 0,
            first: true,
        }
    }

    /// Reads the next line into `line`; `None` at the end of the input. `before_wait`
    /// runs whenever every byte read so far has been used, just before a read that may
    /// block: the moment to flush answers to a client that is waiting for them.
    pub fn next_line(
        &mut self,
        line: &mut Vec<u8>,
        before_wait: impl FnMut() -> io::Result<()>,
    ) -> io::Result<Option<Line>> {
        let next = self.read_line(line, before_wait)?;
        if std::mem::take(&mut self.first) && line.starts_with(BOM) {
            line.drain(..BOM.len());
        }
        Ok(next)
    }

    fn read_line(
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
            let (chunk, newline) = match crate::scan::find1(b'\n', available) {
                Some(i) => (&available[..i], true),
                None => (available, false),
            };
            if !too_long {
                // A `\r` ending the line is not part of it, so allow one byte more here.
                if line.len() + chunk.len() > MAX_LINE + 1 {
                    too_long = true;
                    line.truncate(KEPT_OF_TOO_LONG);
                    let room = KEPT_OF_TOO_LONG - line.len();
                    line.extend_from_slice(&chunk[..room.min(chunk.len())]);
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
        line.truncate(KEPT_OF_TOO_LONG);
        Line::TooLong
    } else {
        Line::Bytes
    }
}

/// The request id of a line whose text cannot be read (not UTF-8, or the start of a
/// line too long to read): its leading `@<id>`, when the id is readable text followed
/// by a blank, so that the error still reaches the request that waits for it.
fn readable_id(bytes: &[u8]) -> Option<&str> {
    let blank = |b: &u8| *b == b' ' || *b == b'\t';
    let start = bytes.iter().position(|b| !blank(b))?;
    let rest = bytes[start..].strip_prefix(b"@")?;
    let end = rest.iter().position(blank)?;
    let token = std::str::from_utf8(&rest[..end]).ok()?;
    // As `Request::split` reads it: up to the first blank of any kind.
    let id = token.split(char::is_whitespace).next()?;
    (!id.is_empty() && !has_control(id)).then_some(id)
}

/// Where the work run in the reading thread stands, for the thread that watches the
/// answers' reader meanwhile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Watched {
    #[default]
    Idle,
    Working,
    /// Nobody reads the answers: the work was stopped, and no more is run.
    Gone,
    Closed,
}

/// Stops a perft run in the reading thread (command files, `-c`, the REPL), where no
/// `stop` can come, once nobody reads its answer: `arbiter -c 'perft 9' | true` ends
/// at once instead of counting for hours.
#[derive(Default)]
struct Watch {
    state: Mutex<Watched>,
    wake: Condvar,
}

impl Watch {
    fn lock(&self) -> MutexGuard<'_, Watched> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The watcher thread: while work runs, asks every `HANGUP_CHECK` whether the
    /// reader has gone, and if so raises `stop`; ends at `close`.
    fn watch(&self, stop: &AtomicBool, reader_gone: ReaderGone) {
        let mut state = self.lock();
        loop {
            state = match *state {
                Watched::Gone | Watched::Closed => return,
                Watched::Idle => self
                    .wake
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner),
                Watched::Working => {
                    if reader_gone() {
                        stop.store(true, Ordering::Relaxed);
                        *state = Watched::Gone;
                        return;
                    }
                    match self.wake.wait_timeout(state, HANGUP_CHECK) {
                        Ok((state, _)) => state,
                        Err(poisoned) => poisoned.into_inner().0,
                    }
                }
            };
        }
    }

    /// Runs a job under watch: its answer, or a `BrokenPipe` error once nobody reads.
    fn run(&self, job: &Job, stop: &AtomicBool) -> io::Result<Answer> {
        let gone = || io::Error::new(io::ErrorKind::BrokenPipe, "nobody reads the answers");
        // Lowered before the watcher may raise it.
        stop.store(false, Ordering::Relaxed);
        {
            let mut state = self.lock();
            if *state == Watched::Gone {
                return Err(gone());
            }
            *state = Watched::Working;
        }
        self.wake.notify_one();
        let answer = job.run(stop);
        let mut state = self.lock();
        if *state == Watched::Gone {
            return Err(gone());
        }
        *state = Watched::Idle;
        Ok(answer)
    }

    fn close(&self) {
        let mut state = self.lock();
        if *state != Watched::Gone {
            *state = Watched::Closed;
        }
        drop(state);
        self.wake.notify_one();
    }
}

/// Whether to go on reading after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// A job with what its answer needs to name its request.
struct Work {
    job: Box<Job>,
    id: Option<String>,
    command: Option<String>,
    game: Option<GameName>,
    version: Option<Version>,
}

/// What a line did.
enum Handled {
    Done,
    Quit,
    /// Boxed: every line's outcome is passed back, and few are long work.
    Work(Box<Work>),
}

/// A line waiting for the running job to end, or what was wrong with its bytes.
enum Queued {
    /// `stopped`: a `stop` came after it, so a perft it asks for answers at once, as
    /// stopped (a double-clicked Perft button then needs one `stop`).
    Line { text: String, stopped: bool },
    Refused {
        error: ProtocolError,
        id: Option<String>,
    },
}

impl Queued {
    /// What the entry costs in memory, for the bound on queued input.
    fn weight(&self) -> usize {
        let text = match self {
            Queued::Line { text, .. } => text.len(),
            Queued::Refused { id, .. } => id.as_ref().map_or(0, String::len),
        };
        text + std::mem::size_of::<Queued>()
    }
}

/// Everything the reader and the worker share, behind one lock.
struct Core<W> {
    session: Session,
    out: W,
    echo: bool,
    failed: bool,
    /// A job runs, or the lines that came during one are still being answered.
    busy: bool,
    /// Nobody reads the answers any more: every job left stops at once.
    quitting: bool,
    queue: VecDeque<Queued>,
    /// The bytes `queue` holds, counted by `Queued::weight`; at most about `MAX_QUEUED`.
    queued: usize,
    /// An output error the worker met, for the reader to return.
    error: Option<io::Error>,
    board: BoardStyle,
}

impl<W: Write> Core<W> {
    fn enqueue(&mut self, queued: Queued) {
        self.queued += queued.weight();
        self.queue.push_back(queued);
    }

    fn dequeue(&mut self) -> Option<Queued> {
        let queued = self.queue.pop_front()?;
        self.queued -= queued.weight();
        Some(queued)
    }

    fn clear_queue(&mut self) {
        self.queue.clear();
        self.queued = 0;
    }

    /// Echoes, executes and answers a line; long work is handed back unstarted.
    fn handle(&mut self, line: &str) -> io::Result<Handled> {
        if self.echo {
            let shown = line.trim();
            // A line refused as bad input is not echoed: its text cannot be shown.
            if !shown.is_empty() && !has_control(line) {
                writeln!(self.out, "> {shown}")?;
            }
        }
        let request = Request::split(line);
        let (step, address) = if head_has_control(line, &request) {
            let refused = Step::Reply(Reply::Error(ProtocolError::BadInput(BadInput::Control)));
            (refused, Address::whole(request.text))
        } else {
            match self.session.step_addressed(request.text) {
                // An id alone asks for nothing, yet its client waits for an answer.
                (Step::Reply(Reply::Silent), address)
                    if request.id.is_some() && request.keyword().is_none() =>
                {
                    (Step::Reply(Reply::Error(ProtocolError::NoCommand)), address)
                }
                answered => answered,
            }
        };
        // A request with an id is answered, always: a command silent on success (and
        // `quit`) answers `ok`, named so in JSON.
        let acknowledged =
            request.id.is_some() && matches!(step, Step::Reply(Reply::Silent | Reply::Quit));
        // The answer is named by the command's word, after any prefixes.
        let command = Request {
            id: request.id,
            text: address.text,
        };
        // A line refused for its bytes names no command.
        let refused = matches!(
            step,
            Step::Reply(Reply::Error(ProtocolError::BadInput(BadInput::Control)))
        );
        let keyword = || match acknowledged {
            true => Some("ok"),
            false => command.keyword().filter(|_| !refused),
        };
        let header = Header {
            id: request.id.filter(|id| !has_control(id)),
            // Only JSON answers name the command: a text answer does not pay for
            // finding its first word.
            command: match self.session.format() {
                Format::Json => keyword(),
                Format::Text => None,
            },
            game: address.game,
            version: address.version,
        };
        match step {
            Step::Reply(reply) => {
                if acknowledged {
                    self.emit(&header, &Reply::Answer(Answer::Ok))?;
                } else {
                    self.emit(&header, &reply)?;
                }
                Ok(if reply == Reply::Quit {
                    Handled::Quit
                } else {
                    Handled::Done
                })
            }
            Step::Job(job) => Ok(Handled::Work(Box::new(Work {
                job,
                id: header.id.map(str::to_string),
                // Answered later, in the format of that moment: the header has the
                // word only when the format is JSON now.
                command: header.command.or_else(keyword).map(str::to_string),
                game: header.game.map(NameRef::to_name),
                version: header.version,
            }))),
        }
    }

    fn emit(&mut self, header: &Header, reply: &Reply) -> io::Result<()> {
        if matches!(reply, Reply::Error(_)) {
            self.failed = true;
        }
        let format = self.session.format();
        // The coloured board is for a person at a terminal: JSON answers (whichever way
        // JSON was turned on) and answers carrying an id stay machine text.
        if let (BoardStyle::Drawn(draw), Format::Text, None, Reply::Answer(Answer::Board(pos))) =
            (self.board, format, header.id, reply)
        {
            let last = self.session.game().moves().last();
            return self.out.write_all(draw(pos, last).as_bytes());
        }
        reply.write(&mut self.out, header, format)
    }

    /// The answer to a line that never became a command (too long, not UTF-8), with
    /// the line's id when that much of it could be read.
    fn refuse(&mut self, error: ProtocolError, id: Option<&str>) -> io::Result<()> {
        let header = Header {
            id,
            command: None,
            game: None,
            version: None,
        };
        self.emit(&header, &Reply::Error(error))
    }

    /// Handles a line and runs its job, if any, here and now, with `run`.
    fn run_to_end(
        &mut self,
        line: &str,
        run: impl FnOnce(&Job) -> io::Result<Answer>,
    ) -> io::Result<Flow> {
        match self.handle(line)? {
            Handled::Done => Ok(Flow::Continue),
            Handled::Quit => Ok(Flow::Quit),
            Handled::Work(work) => {
                let answer = run(&work.job)?;
                self.finish(&work, answer)?;
                Ok(Flow::Continue)
            }
        }
    }

    fn finish(&mut self, work: &Work, answer: Answer) -> io::Result<()> {
        let header = Header {
            id: work.id.as_deref(),
            command: work.command.as_deref(),
            game: work.game.as_ref().map(GameName::name_ref),
            version: work.version,
        };
        self.emit(&header, &Reply::Answer(answer))
    }
}

/// The commands that act at once even while a job runs: `isready` and `stop` are
/// answered ahead of the queue, `quit` ends the reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Urgent {
    IsReady,
    Stop,
    Quit,
}

fn urgent(line: &str) -> Option<Urgent> {
    match Command::parse(Request::split(line).text) {
        Ok(Some(Command::IsReady)) => Some(Urgent::IsReady),
        Ok(Some(Command::Stop)) => Some(Urgent::Stop),
        Ok(Some(Command::Quit)) => Some(Urgent::Quit),
        _ => None,
    }
}

/// Tells whether nobody reads the answers any more (the output's reader has gone).
pub type ReaderGone = fn() -> bool;

/// How `d` draws the board.
#[derive(Clone, Copy, Debug, Default)]
pub enum BoardStyle {
    /// Stockfish's text diagram: the protocol's answer.
    #[default]
    Text,
    /// Drawn for a person at a terminal (the binary's coloured board), from the
    /// position and the move that led to it. Text answers without an id only: JSON
    /// answers and answers carrying an id keep the protocol's board.
    Drawn(fn(&crate::position::Position, Option<crate::moves::Move>) -> String),
}

/// A session wired to an output: runs lines, echoes them if asked, remembers whether
/// any answer was an error (for the exit status). In a stream, long work runs on a
/// worker thread while the lines go on being read: `isready` is answered at once,
/// `stop` ends the work and the perfts queued behind it, and every other line waits its
/// turn and is answered after the work, in order. `quit` and the end of the input end
/// the reading and let the work finish, unless nobody reads the answers any more
/// (`run_stream_watched`).
pub struct Runner<W: Write> {
    core: Mutex<Core<W>>,
    stop: AtomicBool,
    /// Signalled when the worker has answered everything and is no longer busy.
    idle: Condvar,
    /// Signalled when the worker takes lines off the queue or ends.
    room: Condvar,
    /// Whether nobody reads the answers any more, for work run where no `stop` can
    /// come (`run_line`, `run_batch`); `None`: the output is always read.
    reader_gone: Option<ReaderGone>,
}

impl<W: Write + Send> Runner<W> {
    pub fn new(session: Session, out: W, echo: bool) -> Runner<W> {
        Runner {
            core: Mutex::new(Core {
                session,
                out,
                echo,
                failed: false,
                busy: false,
                quitting: false,
                queue: VecDeque::new(),
                queued: 0,
                error: None,
                board: BoardStyle::Text,
            }),
            stop: AtomicBool::new(false),
            idle: Condvar::new(),
            room: Condvar::new(),
            reader_gone: None,
        }
    }

    /// Tells `run_line` and `run_batch` how to see that nobody reads the answers any
    /// more: a perft they run then stops, and they end with a `BrokenPipe` error.
    pub fn watch_reader(&mut self, reader_gone: ReaderGone) {
        self.reader_gone = Some(reader_gone);
    }

    fn lock(&self) -> MutexGuard<'_, Core<W>> {
        // Nothing panics while holding the lock (and a release build aborts on panic),
        // so a poisoned lock still holds a consistent state.
        self.core.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn core(&mut self) -> &mut Core<W> {
        self.parts().0
    }

    /// The core, and beside it what long work run in this thread needs: the stop flag
    /// and the test for a vanished reader.
    fn parts(&mut self) -> (&mut Core<W>, &AtomicBool, Option<ReaderGone>) {
        let core = self.core.get_mut().unwrap_or_else(PoisonError::into_inner);
        (core, &self.stop, self.reader_gone)
    }

    /// How `d` draws the board; the text board unless the binary asks otherwise.
    pub fn set_board_style(&mut self, style: BoardStyle) {
        self.core().board = style;
    }

    /// The session. Exclusive access to the runner reaches it without locking, and the
    /// reference lives as long as that access.
    pub fn session(&mut self) -> &Session {
        &self.core().session
    }

    /// Whether any command answered an error.
    pub fn failed(&self) -> bool {
        self.lock().failed
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.core().out.flush()
    }

    /// Runs one command line to its end, long work included.
    pub fn run_line(&mut self, line: &str) -> io::Result<Flow> {
        let (core, stop, reader_gone) = self.parts();
        core.run_to_end(line, |job| match reader_gone {
            None => Ok(job.run(&AtomicBool::new(false))),
            // A watcher for this job alone: a line is typed or given with `-c`.
            Some(gone) => {
                let watch = &Watch::default();
                std::thread::scope(|scope| {
                    scope.spawn(move || watch.watch(stop, gone));
                    let answer = watch.run(job, stop);
                    watch.close();
                    answer
                })
            }
        })
    }

    /// Runs every line of a stream one after the other, long work included, until its
    /// end or `quit`: a command file, where nobody waits to interrupt a perft and the
    /// answers come strictly in order. A perft stops once nobody reads the answers
    /// (see `watch_reader`).
    pub fn run_batch(&mut self, input: impl Read) -> io::Result<Flow> {
        let (core, stop, reader_gone) = self.parts();
        let watch = &Watch::default();
        std::thread::scope(|scope| {
            // One watcher for the whole file: it sleeps while no perft runs.
            if let Some(gone) = reader_gone {
                scope.spawn(move || watch.watch(stop, gone));
            }
            let flow = Self::batch(core, input, |job| watch.run(job, stop));
            watch.close();
            flow
        })
    }

    fn batch(
        core: &mut Core<W>,
        input: impl Read,
        run: impl Fn(&Job) -> io::Result<Answer>,
    ) -> io::Result<Flow> {
        let mut reader = LineReader::new(input);
        let mut bytes = Vec::new();
        loop {
            let out = &mut core.out;
            let flow = match reader.next_line(&mut bytes, || out.flush())? {
                None => return Ok(Flow::Continue),
                Some(Line::TooLong) => {
                    core.refuse(ProtocolError::LineTooLong(MAX_LINE), readable_id(&bytes))?;
                    Flow::Continue
                }
                Some(Line::Bytes) => match std::str::from_utf8(&bytes) {
                    Ok(text) => core.run_to_end(text, &run)?,
                    Err(_) => {
                        core.refuse(ProtocolError::BadInput(BadInput::Utf8), readable_id(&bytes))?;
                        Flow::Continue
                    }
                },
            };
            if flow == Flow::Quit {
                return Ok(Flow::Quit);
            }
        }
    }

    /// Runs every line of a stream until its end or `quit`, flushing the answers
    /// whenever the input has nothing more waiting. At the end of the input or `quit`,
    /// the work already asked for is finished and answered before this returns: the
    /// output is taken to be read to its end (a `Vec`, a file).
    pub fn run_stream(&mut self, input: impl Read) -> io::Result<Flow> {
        self.run_stream_watched(input, || false)
    }

    /// `run_stream` for an output whose reader may go away, as a client's pipe does
    /// when the client exits: `reader_gone` tells whether it has. When the input ends
    /// (or `quit` comes) while long work is left, the work is finished and answered as long as someone
    /// reads the answers; once nobody does, the running perft is stopped and the lines
    /// waiting behind it are dropped, so that the process ends promptly.
    pub fn run_stream_watched(
        &mut self,
        input: impl Read,
        reader_gone: impl Fn() -> bool,
    ) -> io::Result<Flow> {
        let this = &*self;
        let flow = std::thread::scope(|scope| {
            let flow = this.read_stream(input, scope);
            // `quit` and the end of the input alike: no more commands.
            if flow.is_ok() {
                this.await_work(&reader_gone);
            }
            if flow.is_err() {
                // Nobody will read what the worker writes: let it end at once.
                this.stop.store(true, Ordering::Relaxed);
                this.lock().quitting = true;
            }
            flow
        });
        let core = self.core();
        match core.error.take() {
            Some(error) => Err(error),
            None => flow,
        }
    }

    fn read_stream<'scope>(
        &'scope self,
        input: impl Read,
        scope: &'scope std::thread::Scope<'scope, '_>,
    ) -> io::Result<Flow> {
        let mut reader = LineReader::new(input);
        let mut bytes = Vec::new();
        loop {
            let line = reader.next_line(&mut bytes, || self.lock().out.flush())?;
            let text = match line {
                None => return Ok(Flow::Continue),
                Some(Line::TooLong) => Err(ProtocolError::LineTooLong(MAX_LINE)),
                Some(Line::Bytes) => {
                    std::str::from_utf8(&bytes).map_err(|_| ProtocolError::BadInput(BadInput::Utf8))
                }
            };
            let mut core = self.lock();
            if let Some(error) = core.error.take() {
                return Err(error);
            }
            if core.busy {
                match text.map(|t| (t, urgent(t))) {
                    Ok((t, Some(Urgent::IsReady))) => {
                        core.handle(t)?;
                        core.out.flush()?;
                    }
                    Ok((t, Some(Urgent::Stop))) => {
                        core.handle(t)?;
                        core.out.flush()?;
                        self.stop.store(true, Ordering::Relaxed);
                        for queued in &mut core.queue {
                            if let Queued::Line { stopped, .. } = queued {
                                *stopped = true;
                            }
                        }
                    }
                    // No more commands: those before it are answered in full, as at
                    // the end of the input; it waits its turn to be echoed.
                    Ok((t, Some(Urgent::Quit))) => {
                        core.enqueue(Queued::Line {
                            text: t.to_string(),
                            stopped: false,
                        });
                        return Ok(Flow::Quit);
                    }
                    Ok((t, None)) => core.enqueue(Queued::Line {
                        text: t.to_string(),
                        stopped: false,
                    }),
                    Err(error) => core.enqueue(Queued::Refused {
                        error,
                        id: readable_id(&bytes).map(str::to_string),
                    }),
                }
                // Past the bound the next lines wait in the pipe, not in memory.
                while core.busy && core.queued > MAX_QUEUED {
                    core = match self.room.wait(core) {
                        Ok(core) => core,
                        Err(poisoned) => poisoned.into_inner(),
                    };
                }
                continue;
            }
            let outcome = match text {
                Ok(t) => core.handle(t)?,
                Err(error) => {
                    core.refuse(error, readable_id(&bytes))?;
                    Handled::Done
                }
            };
            match outcome {
                Handled::Done => {}
                Handled::Quit => return Ok(Flow::Quit),
                Handled::Work(work) => {
                    core.busy = true;
                    self.stop.store(false, Ordering::Relaxed);
                    drop(core);
                    scope.spawn(move || self.work(work));
                }
            }
        }
    }

    /// At the end of the input or `quit`: waits until the worker has answered
    /// everything, unless the answers' reader goes away first, which stops the work and
    /// drops the lines still waiting (nobody could read their answers).
    fn await_work(&self, reader_gone: &impl Fn() -> bool) {
        let mut core = self.lock();
        while core.busy {
            if reader_gone() {
                self.stop.store(true, Ordering::Relaxed);
                core.quitting = true;
                core.clear_queue();
                return;
            }
            core = match self.idle.wait_timeout(core, HANGUP_CHECK) {
                Ok((core, _)) => core,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }

    /// The worker: runs a job, answers it, then the lines that came meanwhile, and goes
    /// on with the next job among them, if any.
    fn work(&self, mut work: Box<Work>) {
        loop {
            let answer = work.job.run(&self.stop);
            let mut core = self.lock();
            match self.answer_and_drain(&mut core, &work, answer) {
                Ok(Some(next)) => work = next,
                Ok(None) => {
                    // Under the same lock as the drain: a line queued after it would
                    // otherwise wait for a worker that has gone.
                    core.busy = false;
                    break;
                }
                Err(error) => {
                    core.error = Some(error);
                    core.clear_queue();
                    core.busy = false;
                    break;
                }
            }
        }
        self.idle.notify_all();
        self.room.notify_all();
    }

    /// Answers a finished job, then the queued lines up to the next job.
    fn answer_and_drain(
        &self,
        core: &mut Core<W>,
        work: &Work,
        answer: Answer,
    ) -> io::Result<Option<Box<Work>>> {
        core.finish(work, answer)?;
        // The reader may wait for room in the queue, which this drain makes.
        self.room.notify_all();
        while let Some(queued) = core.dequeue() {
            match queued {
                Queued::Refused { error, id } => core.refuse(error, id.as_deref())?,
                Queued::Line { text, stopped } => match core.handle(&text)? {
                    Handled::Done | Handled::Quit => {}
                    Handled::Work(next) if stopped || core.quitting => {
                        let answer = next.job.dropped();
                        core.finish(&next, answer)?;
                    }
                    Handled::Work(next) => {
                        // Armed before the answers so far go out: a client that reads
                        // them and sends stop must stop the next perft.
                        self.stop.store(false, Ordering::Relaxed);
                        // The answers so far must not wait for the next perft.
                        core.out.flush()?;
                        return Ok(Some(next));
                    }
                },
            }
        }
        // The reader may be waiting for input, having flushed long ago.
        core.out.flush()?;
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(lines: &str) -> String {
        let mut out = Vec::new();
        let mut runner = Runner::new(Session::new(), &mut out, false);
        runner.set_board_style(BoardStyle::Drawn(|_, _| {
            "\x1b[7m drawn \x1b[0m\n".to_string()
        }));
        runner.run_stream(lines.as_bytes()).unwrap();
        drop(runner);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn an_unreadable_line_keeps_a_readable_id_followed_by_a_blank() {
        assert_eq!(readable_id(b"@n2 move \xff\xfe"), Some("n2"));
        assert_eq!(readable_id(b" \t@a:b\tx"), Some("a:b"));
        assert_eq!(readable_id(b"@\xc3\xa9t \xff"), Some("\u{e9}t"));
        // Cut off, unreadable, holding a control character, or no id at all.
        for line in [
            &b"@n3"[..],
            b"@n\xff x",
            b"@n\x01 x",
            b"@ x",
            b"move \xff",
            b"",
        ] {
            assert_eq!(readable_id(line), None, "{line:?}");
        }
    }

    #[test]
    fn a_byte_order_mark_is_skipped_at_the_start_only() {
        let mut reader = LineReader::new(&b"\xef\xbb\xbfturn\n\xef\xbb\xbffen\n"[..]);
        let mut line = Vec::new();
        let mut lines = Vec::new();
        while let Some(Line::Bytes) = reader.next_line(&mut line, || Ok(())).unwrap() {
            lines.push(line.clone());
        }
        assert_eq!(lines, [b"turn".to_vec(), b"\xef\xbb\xbffen".to_vec()]);
    }

    /// Hands out at most `step` bytes a read: lines split across the reader's refills.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// Lines for named games read from a stream answer as they do run one by one,
    /// however the input is cut into reads: games opened, closed and opened again,
    /// names that share their beginnings, lines ending in `\r\n`, default-game lines
    /// among them, and more than the reader's buffer holds.
    #[test]
    fn lines_from_a_stream_answer_as_lines_run_alone() {
        let mut script = String::new();
        for i in 0.. {
            if script.len() > 2 * BUFFER {
                break;
            }
            let name = ["g1", "g10", "g100", "g1000000", "a:b.c-d_e0123456789"][i % 5];
            let line = match i % 13 {
                0 | 7 => format!("game {name} position startpos moves e2e4 e7e5"),
                1 | 4 | 10 => format!("game {name} fen"),
                2 => format!("game {name} turn\r"),
                3 => format!("game {name} close"),
                5 => format!("game {name} ucinewgame"),
                6 => "turn".to_string(),
                8 => format!("game {name} move g1f3"),
                9 => format!("game {name}  version"),
                11 => "games".to_string(),
                _ => format!("game {name} undo"),
            };
            script.push_str(&line);
            script.push('\n');
        }
        let mut alone = Vec::new();
        let mut runner = Runner::new(Session::new(), &mut alone, false);
        for line in script.lines() {
            runner.run_line(line.trim_end_matches('\r')).unwrap();
        }
        drop(runner);
        for step in [1, 7, 64, 1000, usize::MAX] {
            for batch in [false, true] {
                let input = Trickle {
                    bytes: script.as_bytes(),
                    step,
                };
                let mut out = Vec::new();
                let mut runner = Runner::new(Session::new(), &mut out, false);
                if batch {
                    runner.run_batch(input).unwrap();
                } else {
                    runner.run_stream(input).unwrap();
                }
                drop(runner);
                assert!(out == alone, "step {step}, batch {batch}");
            }
        }
    }

    #[test]
    fn the_terminal_board_is_drawn_in_text_mode_without_an_id() {
        let out = run("d\n");
        assert!(out.contains('\x1b'), "{out}");
        assert!(!out.contains("+---+"), "{out}");
    }

    #[test]
    fn json_mode_keeps_the_board_machine_readable_however_it_was_turned_on() {
        let out = run("setoption name JSON value true\nd\n");
        assert!(out.starts_with("{\"answer\":\"d\",\"board\":["), "{out}");
        assert!(!out.contains('\x1b'), "{out}");
    }

    #[test]
    fn an_answer_with_an_id_gets_the_text_board() {
        let out = run("@7 d\n");
        assert!(out.starts_with("@7  +---+"), "{out}");
        assert!(!out.contains('\x1b'), "{out}");
    }
}
