//! The command line's flags.

use std::path::PathBuf;

use clap::Parser;
use clap_complete::Shell;

/// The heading of `--help` under which the flags of `--pgn` stand.
const DATABASES: &str = "Game databases (with --pgn)";

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
pub struct Cli {
    /// Run this command, then exit (repeatable; runs before any FILE).
    #[arg(
        short = 'c',
        long = "command",
        value_name = "CMD",
        conflicts_with = "pgn"
    )]
    pub commands: Vec<String>,

    /// Start the game from this position instead of the standard one.
    #[arg(long, value_name = "FEN", conflicts_with = "pgn")]
    pub fen: Option<String>,

    /// Start with UCI_Chess960 on: castling written king-takes-rook.
    #[arg(long, conflicts_with = "pgn")]
    pub chess960: bool,

    /// Print each command as "> CMD" before its answer, making a transcript.
    #[arg(long, conflicts_with = "pgn")]
    pub echo: bool,

    /// Answer in JSON Lines: one JSON object per answer (see docs/protocol.md). Not
    /// with --pgn, whose output is PGN, UCI or EPD text.
    #[arg(long, conflicts_with = "pgn")]
    pub json: bool,

    /// Safe mode, for a server: refuse every command that touches files or runs
    /// unbounded work (position pgn, pgn save, go perft, perft) with not-allowed.
    #[arg(long, conflicts_with = "pgn")]
    pub safe: bool,

    /// In the REPL, draw the board of `d` as text rather than in colour (as do
    /// NO_COLOR and TERM=dumb).
    #[arg(long)]
    pub no_color: bool,

    /// Print the completion script of these flags for a shell, then exit.
    #[arg(long, value_name = "SHELL")]
    pub completions: Option<Shell>,

    /// Check or convert the games of PGN files instead of speaking the protocol
    /// (docs/pgn.md); FILE... are then PGN files ("-" or none: stdin).
    #[arg(long, help_heading = DATABASES)]
    pub pgn: bool,

    /// With --pgn: what to write of each game.
    #[arg(
        long,
        value_enum,
        value_name = "WHAT",
        default_value = "check",
        requires = "pgn",
        help_heading = DATABASES
    )]
    pub to: To,

    /// With --pgn: threads replaying games (default: the available cores).
    #[arg(long, value_name = "N", requires = "pgn", help_heading = DATABASES, value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,

    /// With --pgn --to pgn|uci|epd: write broken games as they were read instead of
    /// leaving them out.
    #[arg(long, requires = "pgn", help_heading = DATABASES)]
    pub keep_broken: bool,

    /// With --pgn: select the games for which EXPR holds (repeatable: all must hold),
    /// e.g. 'minelo >= 2400 and reach(material "KRkr")' (docs/pgn.md, "Questions").
    #[arg(
        long = "where",
        value_name = "EXPR",
        requires = "pgn",
        help_heading = DATABASES
    )]
    pub wheres: Vec<String>,

    /// With --pgn --to tsv: the columns, comma-separated (default n,white,black,result,plies;
    /// any --where field, plus fen, moves, san).
    #[arg(
        long,
        value_name = "LIST",
        requires = "pgn",
        help_heading = DATABASES
    )]
    pub fields: Option<String>,

    /// With --pgn: drop a selected game whose main line (start and moves) an earlier
    /// selected game had, and count it.
    #[arg(long, requires = "pgn", help_heading = DATABASES)]
    pub dedup: bool,

    /// With --pgn --to epd: end each line with id "<n>.<ply>"; (game number, ply).
    #[arg(long, requires = "pgn", help_heading = DATABASES)]
    pub label: bool,

    /// With --pgn --to pgn: leave these out of the movetext, any of
    /// comments,nags,variations,clocks (clocks: the [%clk], [%emt] and [%eval]
    /// commands inside comments).
    #[arg(
        long,
        value_name = "WHAT",
        requires = "pgn",
        help_heading = DATABASES
    )]
    pub strip: Option<String>,

    /// With --pgn --to pgn: write these tags, computed from the moves, any of
    /// eco,opening,plycount (replacing ECO, Opening, PlyCount).
    #[arg(
        long,
        value_name = "WHAT",
        requires = "pgn",
        help_heading = DATABASES
    )]
    pub add: Option<String>,

    /// With --pgn: rewrite a result the final position contradicts (mate, stalemate,
    /// an automatic draw), or * on a game the moves end, and report it on stderr,
    /// instead of counting the game broken.
    #[arg(long, requires = "pgn", help_heading = DATABASES)]
    pub fix_results: bool,

    /// With --pgn: write the games --dedup drops to FILE, as they were read (implies
    /// --dedup).
    #[arg(
        long,
        value_name = "FILE",
        requires = "pgn",
        help_heading = DATABASES
    )]
    pub dups: Option<PathBuf>,

    /// Command files to run in order ("-" is stdin); with --pgn, PGN files.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// What `--pgn` writes of each game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum To {
    /// A verdict line per game, then a summary line.
    Check,
    /// The correct games in PGN export format.
    Pgn,
    /// A `position ... moves ...` line per correct game.
    Uci,
    /// A four-field EPD line per position of each correct game.
    Epd,
    /// A header, then a tab-separated line of --fields per selected game.
    Tsv,
    /// A JSON object per selected game (JSON Lines).
    Json,
}
