//! The `arbiter` binary: flags, the wiring of stdin and stdout, and exit statuses. The
//! protocol lives in the library; the REPL (line editing, Tab completion, the coloured
//! board) lives here.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod board;
mod cli;
mod completion;
mod files;
mod repl;

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use arbiter::protocol::{BoardStyle, Flow, Format, Runner, Session};
use arbiter::Position;
use clap::{CommandFactory, Parser, ValueEnum};

use crate::cli::{Cli, To};
use crate::files::{is_file_error, open_named};

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
    if cli.safe {
        session.set_safe();
    }
    let mut runner = Runner::new(session, out, cli.echo);
    if coloured_board(&cli) {
        runner.set_board_style(BoardStyle::Drawn(board::render));
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

/// `--pgn`: every game of the files checked or converted; exit 0 when all are
/// correct, 1 when any is not, 2 when a file cannot be read.
fn pgn_mode(cli: &Cli) -> ExitCode {
    use arbiter::pgn::database::{self, Config, Select, Source, Target};
    // Nothing is read before the questions are known to be good.
    let tabular = matches!(cli.to, To::Tsv | To::Json);
    let (strip, add) = match edits(cli) {
        Ok(edits) => edits,
        Err(e) => {
            eprintln!("arbiter: {e}");
            return ExitCode::from(2);
        }
    };
    let dedup = cli.dedup || cli.dups.is_some();
    let asked = !cli.wheres.is_empty()
        || tabular
        || dedup
        || cli.label
        || strip.any()
        || add.any()
        || cli.fix_results;
    let select = if !asked {
        None
    } else {
        let exprs: Vec<&str> = cli.wheres.iter().map(String::as_str).collect();
        let query = match arbiter::query::Query::new(&exprs) {
            Ok(query) => query,
            Err(e) => {
                eprintln!("arbiter: {e}");
                return ExitCode::from(2);
            }
        };
        let fields = cli
            .fields
            .as_deref()
            .unwrap_or("n,white,black,result,plies");
        match Select::with_fields(query, fields) {
            Ok(mut select) => {
                select.dedup = dedup;
                select.label = cli.label && cli.to == To::Epd;
                select.strip = strip;
                select.add = add;
                select.fix_results = cli.fix_results;
                select.dups = cli.dups.is_some();
                Some(select)
            }
            Err(error) => {
                let e = arbiter::query::WhereError {
                    expr: fields.to_string(),
                    error,
                };
                eprintln!(
                    "arbiter: {}",
                    e.to_string().replacen("--where", "--fields", 1)
                );
                return ExitCode::from(2);
            }
        }
    };
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
    // Made before any game is read, and never over one of the inputs.
    let mut dups = match &cli.dups {
        None => None,
        Some(path) => match create_dups(path, &paths) {
            Ok(file) => Some(BufWriter::with_capacity(64 * 1024, file)),
            Err(e) => {
                eprintln!("arbiter: --dups {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
    };
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
            To::Tsv => Target::Tsv,
            To::Json => Target::Json,
        },
        jobs,
        keep_broken: cli.keep_broken,
        name_files: paths.len() > 1,
        select: select.as_ref(),
    };
    let mut out = BufWriter::with_capacity(256 * 1024, io::stdout().lock());
    let mut err = BufWriter::with_capacity(16 * 1024, io::stderr().lock());
    let dups_out = dups.as_mut().map(|d| d as &mut dyn Write);
    match database::run_with(sources, config, &mut out, &mut err, dups_out) {
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

/// `--strip` and `--add`: their words, and the output they need (`--to pgn`, the only
/// one that writes comments, NAGs, variations and tags as PGN).
fn edits(cli: &Cli) -> Result<(arbiter::pgn::edit::Strip, arbiter::pgn::edit::Add), String> {
    use arbiter::pgn::edit::{Add, Strip};
    let strip = match &cli.strip {
        None => Strip::default(),
        Some(list) => Strip::parse(list).map_err(|e| e.to_string())?,
    };
    let add = match &cli.add {
        None => Add::default(),
        Some(list) => Add::parse(list).map_err(|e| e.to_string())?,
    };
    for (flag, given) in [
        ("--strip", cli.strip.is_some()),
        ("--add", cli.add.is_some()),
    ] {
        if given && cli.to != To::Pgn {
            // The name `--to` takes for it, as clap derives it.
            let to = cli.to.to_possible_value();
            return Err(format!(
                "{flag} edits the PGN that --to pgn writes; with --to {} it would change nothing",
                to.as_ref().map_or("?", |to| to.get_name())
            ));
        }
    }
    Ok((strip, add))
}

/// The file of `--dups`, created empty; refused when it is one of the inputs (which
/// creating it would empty before it is read).
fn create_dups(path: &std::path::Path, inputs: &[PathBuf]) -> io::Result<std::fs::File> {
    if let Ok(dups) = std::fs::canonicalize(path) {
        let clash = inputs
            .iter()
            .filter(|input| input.as_os_str() != "-")
            .any(|input| std::fs::canonicalize(input).is_ok_and(|input| input == dups));
        if clash {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "it is one of the PGN files read",
            ));
        }
    }
    std::fs::File::create(path)
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
        && board::colour_allowed(cli.no_color, no_color.as_deref(), term.as_deref())
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
            return repl::repl(runner, on_terminal(cli));
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
