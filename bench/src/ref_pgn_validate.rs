//! Reference PGN validator used by `scripts/bench-pgn`.
//!
//! Usage: `ref-pgn-validate [--quiet] FILE...`
//!
//! Reads every game with the crates.io `pgn-reader` crate and replays its
//! main line with shakmaty, the way pgn-reader's own `validate` example
//! does: a `FEN` tag sets the start (read with Chess960 castling, which also
//! covers standard positions), each SAN is resolved against the position and
//! played, and the first move that does not resolve ends the game as an
//! error. Variations are skipped (the visitor's default), results and draw
//! rules are not looked at: this is the least work a validating reader does.
//!
//! Prints one summary line, `games <total> ok <ok> errors <errors> plies
//! <plies>`, shaped like `arbiter --pgn`'s, and one line per broken game on
//! stderr (unless `--quiet`); text the reader refuses (pgn-reader stops at an
//! unterminated comment) counts as one broken game and ends that file. Exit status: 0 when every game replayed, 1 when
//! any did not, 2 on bad usage or an unreadable file.

use std::fs::File;
use std::io;
use std::ops::ControlFlow;
use std::process::ExitCode;

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

#[derive(Default)]
struct Validator {
    games: u64,
    plies: u64,
    quiet: bool,
}

impl Validator {
    fn report(&self, what: std::fmt::Arguments<'_>) {
        if !self.quiet {
            eprintln!("game {}: {what}", self.games);
        }
    }
}

impl Visitor for Validator {
    /// The start position, once a `FEN` tag has named one.
    type Tags = Option<Chess>;
    type Movetext = Chess;
    /// Whether the game replayed.
    type Output = bool;

    fn begin_tags(&mut self) -> ControlFlow<bool, Option<Chess>> {
        self.games += 1;
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        tags: &mut Option<Chess>,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<bool> {
        if name != b"FEN" {
            return ControlFlow::Continue(());
        }
        let parsed = Fen::from_ascii(value.as_bytes())
            .map_err(|e| e.to_string())
            .and_then(|fen| {
                fen.into_position(CastlingMode::Chess960)
                    .map_err(|e| e.to_string())
            });
        match parsed {
            Ok(pos) => {
                *tags = Some(pos);
                ControlFlow::Continue(())
            }
            Err(e) => {
                self.report(format_args!("bad FEN tag: {e}"));
                ControlFlow::Break(false)
            }
        }
    }

    fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<bool, Chess> {
        ControlFlow::Continue(tags.unwrap_or_default())
    }

    fn san(&mut self, pos: &mut Chess, san_plus: SanPlus) -> ControlFlow<bool> {
        match san_plus.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                self.plies += 1;
                ControlFlow::Continue(())
            }
            Err(e) => {
                self.report(format_args!("{e}: {san_plus}"));
                ControlFlow::Break(false)
            }
        }
    }

    fn end_game(&mut self, _pos: Chess) -> bool {
        true
    }
}

fn main() -> ExitCode {
    let mut validator = Validator::default();
    let mut files = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--quiet" => validator.quiet = true,
            _ => files.push(arg),
        }
    }
    if files.is_empty() {
        eprintln!("usage: ref-pgn-validate [--quiet] FILE...");
        return ExitCode::from(2);
    }
    let mut ok = 0u64;
    for path in &files {
        let result = File::open(path).and_then(|file| {
            let mut reader = Reader::new(file);
            loop {
                match reader.read_game(&mut validator) {
                    Ok(Some(game_ok)) => ok += u64::from(game_ok),
                    Ok(None) => return Ok(()),
                    // Malformed text (an unterminated comment: only at the
                    // end of a file) ends the reader: the game is broken.
                    Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                        validator.report(format_args!("{e}"));
                        return Ok(());
                    }
                    Err(e) => return Err(e),
                }
            }
        });
        if let Err(e) = result {
            eprintln!("ref-pgn-validate: {path}: {e}");
            return ExitCode::from(2);
        }
    }
    let games = validator.games;
    println!(
        "games {games} ok {ok} errors {} plies {}",
        games - ok,
        validator.plies
    );
    if ok == games {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
