//! The `arbiter` binary: flags, the wiring of stdin and stdout, and exit statuses. All
//! the protocol lives in the library.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

use std::cell::RefCell;
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;

use anyhow::Result;
use arbiter::position::Position;
use arbiter::protocol::board::colour_allowed;
use arbiter::protocol::completion::{complete, Snapshot as GameSnapshot};
use arbiter::protocol::{BoardStyle, Flow, Format, Runner, Session};
use clap::{CommandFactory, Parser};
use clap_complete::Shell;
use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{CompletionType, Config, Context, Editor, Helper};

/// A chess rules oracle speaking a UCI-style line protocol (see docs/protocol.md).
///
/// Without -c or FILE, reads commands from stdin: a REPL with history and Tab
/// completion on a terminal, the bare protocol otherwise.
#[derive(Parser, Debug)]
#[command(
    name = "arbiter",
    version,
    after_help = "Exit status: 0 when every command succeeded (with --pgn: every game is \
                  correct); 1 when a command answered an error (with --pgn: a game is \
                  broken); 2 for a usage error or a file that cannot be read."
)]
struct Cli {
    /// Run this command, then exit (repeatable; runs before any FILE).
    #[arg(
        short = 'c',
        long = "command",
        value_name = "CMD",
        conflicts_with = "pgn"
    )]
    commands: Vec<String>,

    /// Start the game from this position instead of the standard one.
    #[arg(long, value_name = "FEN", conflicts_with = "pgn")]
    fen: Option<String>,

    /// Start with UCI_Chess960 on: castling written king-takes-rook.
    #[arg(long, conflicts_with = "pgn")]
    chess960: bool,

    /// Print each command as "> CMD" before its answer, making a transcript.
    #[arg(long, conflicts_with = "pgn")]
    echo: bool,

    /// Answer in JSON Lines: one JSON object per answer (see docs/protocol.md). Not
    /// with --pgn, whose output is PGN, UCI or EPD text.
    #[arg(long, conflicts_with = "pgn")]
    json: bool,

    /// In the REPL, draw the board of `d` as text rather than in colour (as do
    /// NO_COLOR and TERM=dumb).
    #[arg(long)]
    no_color: bool,

    /// Print the completion script of these flags for a shell, then exit.
    #[arg(long, value_name = "SHELL")]
    completions: Option<Shell>,

    /// Check or convert the games of PGN files instead of speaking the protocol
    /// (docs/pgn.md); FILE... are then PGN files ("-" or none: stdin).
    #[arg(long)]
    pgn: bool,

    /// With --pgn: what to write of each game.
    #[arg(
        long,
        value_enum,
        value_name = "WHAT",
        default_value = "check",
        requires = "pgn"
    )]
    to: To,

    /// With --pgn: threads replaying games (default: the available cores).
    #[arg(long, value_name = "N", requires = "pgn", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,

    /// With --pgn --to pgn|uci|epd: write broken games as they were read instead of
    /// leaving them out.
    #[arg(long, requires = "pgn")]
    keep_broken: bool,

    /// Command files to run in order ("-" is stdin); with --pgn, PGN files.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// What `--pgn` writes of each game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum To {
    /// A verdict line per game, then a summary line.
    Check,
    /// The correct games in PGN export format.
    Pgn,
    /// A `position ... moves ...` line per correct game.
    Uci,
    /// A four-field EPD line per position of each correct game.
    Epd,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(shell) = cli.completions {
        clap_complete::generate(shell, &mut Cli::command(), "arbiter", &mut io::stdout());
        return ExitCode::SUCCESS;
    }
    if cli.pgn {
        return pgn_mode(&cli);
    }
    let base = match &cli.fen {
        None => Position::startpos(),
        Some(fen) => match Session::base_from_fen(fen, cli.chess960) {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("arbiter: --fen: {e}");
                return ExitCode::from(2);
            }
        },
    };
    // Not the locked handle: a perft's answer is written from its worker thread.
    let out = BufWriter::with_capacity(64 * 1024, io::stdout());
    let mut session = Session::from_position(base, cli.chess960);
    if cli.json {
        session.set_format(Format::Json);
    }
    let mut runner = Runner::new(session, out, cli.echo);
    if coloured_board(&cli) {
        runner.set_board_style(BoardStyle::Terminal);
    }
    runner.watch_reader(stdout_reader_gone);
    let outcome = run(&cli, &mut runner).and_then(|()| Ok(runner.flush()?));
    match outcome {
        Ok(()) => {}
        // A reader that went away (`| head`, a closed GUI) is a normal end.
        Err(e) if is_broken_pipe(&e) => {}
        Err(e) => {
            // Flushed first: the answers so far come before the complaint.
            let _ = runner.flush();
            eprintln!("arbiter: {e:#}");
            return ExitCode::from(if is_file_error(&e) { 2 } else { 1 });
        }
    }
    ExitCode::from(u8::from(runner.failed()))
}

/// A file that cannot be opened or read, named in its error: exit status 2.
#[derive(Debug)]
struct FileError {
    name: String,
    error: io::Error,
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot read {}: {}", self.name, self.error)
    }
}

impl std::error::Error for FileError {}

impl FileError {
    fn wrap(name: &str, error: io::Error) -> io::Error {
        io::Error::new(
            error.kind(),
            FileError {
                name: name.to_string(),
                error,
            },
        )
    }
}

/// A file's reader whose errors name the file (`Is a directory` alone names nothing).
struct Named<R> {
    name: String,
    inner: R,
}

impl<R: io::Read> io::Read for Named<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| match e.kind() {
            io::ErrorKind::Interrupted => e,
            _ => FileError::wrap(&self.name, e),
        })
    }
}

/// Opens a file to read, its errors naming it; a directory is refused at once.
fn open_named(path: &std::path::Path) -> io::Result<Named<File>> {
    let name = path.display().to_string();
    let file = File::open(path).map_err(|e| FileError::wrap(&name, e))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(FileError::wrap(
            &name,
            io::Error::new(io::ErrorKind::IsADirectory, "is a directory"),
        ));
    }
    Ok(Named { name, inner: file })
}

fn is_file_error(error: &anyhow::Error) -> bool {
    error
        .chain()
        .filter_map(|e| e.downcast_ref::<io::Error>())
        .any(|e| e.get_ref().is_some_and(|inner| inner.is::<FileError>()))
}

/// `--pgn`: every game of the files checked or converted; exit 0 when all are
/// correct, 1 when any is not, 2 when a file cannot be read.
fn pgn_mode(cli: &Cli) -> ExitCode {
    use arbiter::pgn::database::{self, Config, Source, Target};
    let mut unreadable = false;
    let mut sources: Vec<Source<Box<dyn io::Read + Send>>> = Vec::new();
    let paths: Vec<PathBuf> = if cli.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        cli.files.clone()
    };
    for path in &paths {
        let name = path.display().to_string();
        if path.as_os_str() == "-" {
            sources.push(Source {
                name,
                reader: Box::new(io::stdin()),
                ready: false,
            });
            continue;
        }
        match open_named(path) {
            Ok(file) => sources.push(Source {
                name,
                ready: file.inner.metadata().is_ok_and(|m| m.is_file()),
                reader: Box::new(file),
            }),
            Err(e) => {
                eprintln!("arbiter: {e}");
                unreadable = true;
            }
        }
    }
    let jobs = cli.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        usize::from,
    );
    let config = Config {
        target: match cli.to {
            To::Check => Target::Check,
            To::Pgn => Target::Pgn,
            To::Uci => Target::Uci,
            To::Epd => Target::Epd,
        },
        jobs,
        keep_broken: cli.keep_broken,
        name_files: paths.len() > 1,
    };
    let mut out = BufWriter::with_capacity(256 * 1024, io::stdout().lock());
    let mut err = BufWriter::with_capacity(16 * 1024, io::stderr().lock());
    match database::run(sources, config, &mut out, &mut err) {
        Ok(summary) => {
            if unreadable {
                ExitCode::from(2)
            } else {
                ExitCode::from(u8::from(summary.errors > 0))
            }
        }
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = err.flush();
            eprintln!("arbiter: {e}");
            ExitCode::from(2)
        }
    }
}

/// Whether the run is a person at a terminal: the REPL with its output on the screen.
fn on_terminal(cli: &Cli) -> bool {
    cli.commands.is_empty()
        && cli.files.is_empty()
        && io::stdin().is_terminal()
        && io::stdout().is_terminal()
}

/// The coloured board is for a person at a terminal; a transcript (`--echo`) keeps
/// the text board, as do JSON mode, pipes, files and `-c`.
fn coloured_board(cli: &Cli) -> bool {
    let no_color = std::env::var_os("NO_COLOR");
    let term = std::env::var_os("TERM");
    on_terminal(cli)
        && !cli.echo
        && !cli.json
        && colour_allowed(cli.no_color, no_color.as_deref(), term.as_deref())
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .chain()
        .filter_map(|e| e.downcast_ref::<io::Error>())
        .any(|e| e.kind() == io::ErrorKind::BrokenPipe)
}

fn run(cli: &Cli, runner: &mut Runner<impl Write + Send>) -> Result<()> {
    if cli.commands.is_empty() && cli.files.is_empty() {
        if io::stdin().is_terminal() {
            return repl(runner, on_terminal(cli));
        }
        runner.run_stream_watched(io::stdin().lock(), stdout_reader_gone)?;
        return Ok(());
    }
    for command in &cli.commands {
        if runner.run_line(command)? == Flow::Quit {
            return Ok(());
        }
    }
    for path in &cli.files {
        // Command files run one command after the other, a perft included.
        let flow = if path.as_os_str() == "-" {
            runner.run_batch(io::stdin().lock())?
        } else {
            runner.run_batch(open_named(path)?)?
        };
        if flow == Flow::Quit {
            break;
        }
    }
    Ok(())
}

/// Whether nobody can read stdout any more: the client that held its pipe (or the
/// terminal) has gone. A file or `/dev/null` is always read.
#[cfg(unix)]
fn stdout_reader_gone() -> bool {
    use rustix::event::{poll, PollFd, PollFlags, Timespec};
    let stdout = io::stdout();
    let mut fds = [PollFd::new(&stdout, PollFlags::empty())];
    let now = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // Error, hang-up and a closed descriptor are reported whatever was asked for; a pipe
    // whose last reader has closed reports an error.
    poll(&mut fds, Some(&now)).is_ok()
        && fds[0]
            .revents()
            .intersects(PollFlags::ERR | PollFlags::HUP | PollFlags::NVAL)
}

#[cfg(not(unix))]
fn stdout_reader_gone() -> bool {
    false
}

/// What completion needs to know of the game, updated after every line.
type Snapshot = Rc<RefCell<GameSnapshot>>;

struct ReplHelper {
    snapshot: Snapshot,
}

impl Completer for ReplHelper {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        Ok(complete(
            line.get(..pos).unwrap_or(line),
            &self.snapshot.borrow(),
        ))
    }
}

impl Hinter for ReplHelper {
    type Hint = String;
}

impl Highlighter for ReplHelper {}

impl Validator for ReplHelper {}

impl Helper for ReplHelper {}

fn history_path() -> Option<PathBuf> {
    std::env::var_os("ARBITER_HISTORY")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".arbiter_history"))
        })
}

fn repl(runner: &mut Runner<impl Write + Send>, banner: bool) -> Result<()> {
    let snapshot: Snapshot = Rc::new(RefCell::new(GameSnapshot::of(runner.session())));
    // List mode shows every candidate at once, the natural view of a move list.
    let config = Config::builder()
        .completion_type(CompletionType::List)
        .build();
    let mut editor: Editor<ReplHelper, DefaultHistory> = Editor::with_config(config)?;
    editor.set_helper(Some(ReplHelper {
        snapshot: Rc::clone(&snapshot),
    }));
    let history = history_path();
    if let Some(path) = &history {
        // A missing history file is the normal first run.
        let _ = editor.load_history(path);
    }
    if banner {
        println!(
            "arbiter {} — type help, Tab completes moves",
            env!("CARGO_PKG_VERSION")
        );
    }
    loop {
        match editor.readline("arbiter> ") {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                let flow = runner.run_line(&line)?;
                runner.flush()?;
                *snapshot.borrow_mut() = GameSnapshot::of(runner.session());
                if flow == Flow::Quit {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(e.into()),
        }
    }
    if let Some(path) = &history {
        let _ = editor.save_history(path);
    }
    Ok(())
}
