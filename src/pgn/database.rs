//! Whole PGN databases: every game replayed with the full rules, its verdict or its
//! conversion written in input order, on as many threads as asked, in constant memory.
//!
//! The text is cut into batches of whole games; workers replay them; the answers are
//! written in the order the games came. On regular files the workers take the batches
//! from the files themselves and the calling thread, one of them, writes; on other
//! input a reading thread cuts the batches and the calling thread only writes; there,
//! with one job, there is no split: one pass reads and replays. One job on regular files
//! is the calling thread alone, doing what each of many does.

use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Condvar, Mutex, MutexGuard, PoisonError};

use crate::game::DrawnAt;
use crate::position::Position;

use std::sync::Arc;

use crate::query::columns::{parse_fields, write_json, write_tsv, Column, NUMBER_MARK};
use crate::query::{GameView, Phase, Query, QueryError, Selector};

use super::edit::{Add, Repair, Strip};
use super::reader::{last_game_start, read_game, resync, GameRead, Skip, SyntaxError, Visitor};
use super::replay::{GameError, Options, Replayer};
use super::stream::{blanks, too_long, GameReader, RawGame, MAX_GAME};
use super::writer::{outcome_of, write_tags};

/// What becomes of each game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Target {
    /// One verdict line per game, then a summary.
    #[default]
    Check,
    /// The correct games in export format, comments, NAGs and variations kept.
    Pgn,
    /// One `position ... moves ...` line per correct game.
    Uci,
    /// One four-field EPD line per position of each correct game's main line.
    Epd,
    /// A header, then one tab-separated line of the chosen fields per selected game.
    Tsv,
    /// One JSON object per selected game (JSON Lines).
    Json,
}

/// The questions of a run: which games are selected, and what is done to them.
#[derive(Clone, Debug)]
pub struct Select {
    pub query: Arc<Query>,
    /// The columns of `--to tsv`, with their names.
    pub columns: Vec<(String, Column)>,
    /// `--dedup`: a selected game whose main line (start and moves) an earlier selected
    /// game had is dropped.
    pub dedup: bool,
    /// `--label`: each EPD line of `--to epd` ends with `id "<n>.<ply>";`.
    pub label: bool,
    /// `--strip`: what `--to pgn` leaves out of the movetext.
    pub strip: Strip,
    /// `--add`: the tags `--to pgn` computes from the moves.
    pub add: Add,
    /// `--fix-results`: a result the final position contradicts, or `*` on a game the
    /// moves end, is rewritten (and reported) instead of making the game broken.
    pub fix_results: bool,
    /// `--dups FILE`: the games `--dedup` drops are written, as they were read, to the
    /// writer `run_with` is given.
    pub dups: bool,
}

impl Select {
    pub fn new(query: Query) -> Select {
        Select::with_columns(query, Vec::new())
    }

    /// With the columns of `--fields` (which may add tags for the query to keep).
    pub fn with_fields(mut query: Query, fields: &str) -> Result<Select, QueryError> {
        let columns = parse_fields(fields, &mut query)?;
        Ok(Select::with_columns(query, columns))
    }

    fn with_columns(query: Query, columns: Vec<(String, Column)>) -> Select {
        Select {
            query: Arc::new(query),
            columns,
            dedup: false,
            label: false,
            strip: Strip::default(),
            add: Add::default(),
            fix_results: false,
            dups: false,
        }
    }
}

/// How a run goes.
#[derive(Clone, Copy, Debug)]
pub struct Config<'q> {
    pub target: Target,
    /// Threads replaying games; 1 on any input but regular files reads and replays in
    /// one pass.
    pub jobs: usize,
    /// With `Pgn`, `Uci` or `Epd`: write broken games as they were read instead of
    /// leaving them out.
    pub keep_broken: bool,
    /// Name the file in each verdict (when there are several).
    pub name_files: bool,
    /// The questions (`--where` and the edits), when there are any: without, every
    /// game is selected and written as it always was.
    pub select: Option<&'q Select>,
}

impl Default for Config<'_> {
    fn default() -> Self {
        Config {
            target: Target::Check,
            jobs: 1,
            keep_broken: false,
            name_files: false,
            select: None,
        }
    }
}

/// The counts of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: u64,
    pub ok: u64,
    pub errors: u64,
    /// Main-line plies of the correct games.
    pub plies: u64,
    /// With a question: the games selected, and those skipped without replay (their
    /// tags failed it).
    pub selected: u64,
    pub skipped: u64,
    /// With `--dedup`: the selected games dropped as repeats of earlier ones.
    pub duplicates: u64,
    /// With `--fix-results`: the games whose result was rewritten.
    pub fixed: u64,
}

/// One PGN source and the name its verdicts give it.
pub struct Source<R> {
    pub name: String,
    pub reader: R,
    /// Whether every read returns at once with what there is (a regular file): its
    /// text is then cut into runs as it is read, with no thread to watch for input
    /// that is not there yet.
    pub ready: bool,
}

/// Games per batch handed to a worker, and bytes: enough to make the hand-over cheap,
/// few enough that the batches in flight stay small.
const BATCH_GAMES: usize = 512;
const BATCH_BYTES: usize = 512 * 1024;

/// The verdict of one game, before it is numbered.
enum Verdict {
    Ok {
        plies: usize,
        result: &'static str,
        /// The automatic draw that the moves went on past.
        drawn_at: Option<DrawnAt>,
        /// The answers of the question's atoms (see `Query::select`), 0 without one.
        facts: u64,
        /// With `--dedup`: the main line's fingerprint (`line_print`).
        print: u128,
        /// With `--fix-results`: the result rewritten.
        repair: Option<Box<Repair>>,
        /// With `--dups`: how many bytes at the end of the game's answer are its text
        /// as read, for the duplicates' file (the answer proper comes before).
        raw: usize,
    },
    /// The game's tags failed the question: it was not replayed.
    Skipped,
    Error {
        code: &'static str,
        /// `ply 5 Ke3` when the error is about a move.
        at: Option<String>,
        why: String,
    },
}

/// What a worker made of one game: its verdict and, for the conversions, its text.
struct Done {
    verdict: Verdict,
    file: usize,
}

/// Replays games and writes what the target wants of them.
struct Worker<'q> {
    config: Config<'q>,
    replayer: Replayer,
    epd: String,
}

impl<'q> Worker<'q> {
    fn new(config: Config<'q>) -> Worker<'q> {
        let options = Options {
            chess960: false,
            strict_result_tag: true,
            record: config.target == Target::Pgn,
            skip_tags: config.target != Target::Pgn,
            lean: true,
            comments: false,
            strip: config.select.map_or(Strip::default(), |s| s.strip),
            fix_results: config.select.is_some_and(|s| s.fix_results),
        };
        let mut replayer = Replayer::new(options);
        if let Some(select) = config.select {
            replayer.set_selector(Some(Selector::new(
                Arc::clone(&select.query),
                config.target == Target::Json,
            )));
        }
        Worker {
            config,
            replayer,
            epd: String::new(),
        }
    }

    /// Replays a game from its text, as the reader split it off.
    fn replay(&mut self, raw: &[u8], game: RawGame) {
        if game.too_long {
            self.replayer.begin_game();
            self.replayer
                .end_game(Some(&SyntaxError::TooLong(MAX_GAME)));
        } else {
            read_game(&raw[..game.parsed], true, &mut self.replayer);
        }
    }

    /// The verdict on the game the replayer has just read; its conversion goes to
    /// `out`.
    fn settle(&mut self, raw: Option<&[u8]>, out: &mut Vec<u8>) -> Verdict {
        if self.config.select.is_some() {
            return self.settle_selected(raw, out);
        }
        match self.replayer.finish() {
            Ok(()) => {
                let game = self.replayer.game();
                let result = outcome_of(&game.status()).token();
                let plies = game.moves().len();
                let drawn_at = game.drawn_at();
                self.convert(out);
                Verdict::Ok {
                    plies,
                    result,
                    drawn_at,
                    facts: 0,
                    print: 0,
                    repair: None,
                    raw: 0,
                }
            }
            Err(error) => {
                if self.config.keep_broken && self.config.target != Target::Check {
                    if let Some(raw) = raw {
                        out.extend_from_slice(raw.trim_ascii());
                        out.extend_from_slice(b"\n\n");
                    }
                }
                verdict_of(error)
            }
        }
    }

    /// `settle` with a question: a game whose tags failed it is skipped; a correct
    /// one gets its facts, and is converted unless they already fail it.
    #[inline(never)]
    fn settle_selected(&mut self, raw: Option<&[u8]>, out: &mut Vec<u8>) -> Verdict {
        if self.replayer.skipped() {
            return Verdict::Skipped;
        }
        match self.replayer.finish() {
            Ok(()) => {
                let target = self.config.target;
                let columns = self.config.select.map_or(&[][..], |s| &s.columns[..]);
                let Some((selector, game)) = self.replayer.selector_and_game() else {
                    return Verdict::Skipped;
                };
                let mut view = GameView::new(game);
                let facts = selector.facts(&mut view);
                // Converted unless the facts already fail it (the number aside).
                let query = selector.query();
                let open = query.eval(&mut |i| {
                    (query.atoms[i].subject.phase() != Phase::Number).then_some(facts >> i & 1 == 1)
                }) != Some(false);
                let game = self.replayer.game();
                let result = outcome_of(&game.status()).token();
                let plies = game.moves().len();
                let drawn_at = game.drawn_at();
                let print = if self.config.select.is_some_and(|s| s.dedup) {
                    line_print(game)
                } else {
                    0
                };
                if open {
                    match target {
                        Target::Tsv | Target::Json => {
                            if let Some((selector, game)) = self.replayer.selector_and_game() {
                                let mut view = GameView::new(game);
                                if target == Target::Tsv {
                                    write_tsv(out, columns, selector, &mut view, result);
                                } else {
                                    write_json(out, selector, &mut view, result);
                                }
                            }
                        }
                        _ => self.convert(out),
                    }
                }
                let repair = self.replayer.take_repair().map(Box::new);
                // The text as read goes after the answer, for the writer to put in the
                // duplicates' file should the game be one.
                let mut kept = 0;
                let dups = self.config.select.is_some_and(|s| s.dups);
                if let Some(raw) = raw.filter(|_| open && dups) {
                    let before = out.len();
                    out.extend_from_slice(raw.trim_ascii());
                    out.extend_from_slice(b"\n\n");
                    kept = out.len() - before;
                }
                Verdict::Ok {
                    plies,
                    result,
                    drawn_at,
                    facts,
                    print,
                    repair,
                    raw: kept,
                }
            }
            Err(error) => {
                if self.config.keep_broken && self.config.target != Target::Check {
                    if let Some(raw) = raw {
                        out.extend_from_slice(raw.trim_ascii());
                        out.extend_from_slice(b"\n\n");
                    }
                }
                verdict_of(error)
            }
        }
    }

    fn convert(&mut self, out: &mut Vec<u8>) {
        let game = self.replayer.game();
        let mode = game.mode();
        match self.config.target {
            Target::Check | Target::Tsv | Target::Json => {}
            Target::Pgn => {
                if let Some(add) = self.config.select.map(|s| s.add).filter(Add::any) {
                    self.add_tags(add);
                }
                let game = self.replayer.game();
                let mut text = String::with_capacity(1024);
                let result = outcome_of(&game.status());
                write_tags(
                    &mut text,
                    self.replayer.tags(),
                    result,
                    game.base(),
                    mode.is_chess960(),
                    None,
                );
                text.push_str(self.replayer.movetext());
                text.push('\n');
                out.extend_from_slice(text.as_bytes());
            }
            Target::Uci => {
                let base = game.base();
                if *base == Position::startpos() {
                    out.extend_from_slice(b"position startpos");
                } else {
                    out.extend_from_slice(b"position fen ");
                    out.extend_from_slice(base.fen().as_bytes());
                }
                if game.moves().len() > 0 {
                    out.extend_from_slice(b" moves");
                    for m in game.moves() {
                        let _ = write!(out, " {}", m.to_uci(mode));
                    }
                }
                out.push(b'\n');
            }
            Target::Epd if self.config.select.is_some_and(|s| s.label) => {
                let mut pos = *game.base();
                let mut moves = game.moves();
                for ply in 0..=game.moves().len() {
                    if ply > 0 {
                        if let Some(m) = moves.next() {
                            pos.play_unchecked(m);
                        }
                    }
                    write_epd(out, &pos, &mut self.epd);
                    out.pop();
                    out.extend_from_slice(b" id \"");
                    out.push(NUMBER_MARK);
                    let _ = writeln!(out, ".{ply}\";");
                }
            }
            Target::Epd => {
                let mut pos = *game.base();
                write_epd(out, &pos, &mut self.epd);
                for m in game.moves() {
                    pos.play_unchecked(m);
                    write_epd(out, &pos, &mut self.epd);
                }
            }
        }
    }
}

impl Worker<'_> {
    /// `--add`: the tags asked for, computed from the moves, replace those of the same
    /// names; `ECO` and `Opening` go when no position of the game is named.
    #[cold]
    fn add_tags(&mut self, add: Add) {
        let game = self.replayer.game();
        let opening = (add.eco || add.opening)
            .then(|| crate::query::openings::classify(game))
            .flatten();
        let plies = game.moves().len();
        let tags = self.replayer.tags_mut();
        for (asked, name, value) in [
            (add.eco, "ECO", opening.map(|o| o.eco)),
            (add.opening, "Opening", opening.map(|o| o.name)),
        ] {
            match (asked, value) {
                (false, _) => {}
                (true, Some(value)) => tags.insert(name, value),
                (true, None) => tags.drop_other(name),
            }
        }
        if add.plycount {
            tags.insert("PlyCount", &plies.to_string());
        }
    }
}

/// A fingerprint of a game's main line: its start position's key and the repetition key
/// after every move, folded by two independent mixes into 128 bits (two games share it
/// by chance with odds of about 2^-128 per pair; moves that lead to the same positions
/// from the same start are the same moves but for castling notation).
fn line_print(game: &crate::game::Game) -> u128 {
    let mix = |h: u64, k: u64, m: u64| (h ^ k).wrapping_mul(m).rotate_left(29);
    let base = game.base().key();
    let (mut a, mut b) = (
        base ^ 0x9e37_79b9_7f4a_7c15,
        base.rotate_left(17) ^ 0xc2b2_ae3d_27d4_eb4f,
    );
    for k in game.keys() {
        a = mix(a, k, 0xff51_afd7_ed55_8ccd);
        b = mix(b, k.rotate_left(31), 0xc4ce_b9fe_1a85_ec53);
    }
    a = mix(a, game.moves().len() as u64, 0xff51_afd7_ed55_8ccd);
    (u128::from(a) << 64) | u128::from(b)
}

/// The four-field EPD of a position: placement, side, castling, en passant.
fn write_epd(out: &mut Vec<u8>, pos: &Position, scratch: &mut String) {
    scratch.clear();
    scratch.push_str(&pos.fen());
    // The FEN's last two fields are the clocks.
    let end = scratch
        .rmatch_indices(' ')
        .nth(1)
        .map_or(scratch.len(), |(i, _)| i);
    out.extend_from_slice(&scratch.as_bytes()[..end]);
    out.push(b'\n');
}

/// The verdict on a game that cannot be loaded: the protocol's code and words, with
/// the ply and move written `ply 5 Ke3: ...`.
fn verdict_of(error: GameError) -> Verdict {
    let at = match (error.ply(), error.move_ref()) {
        (Some(ply), Some(at)) if at.variation => {
            Some(format!("ply {ply} {} (in a variation)", at.text))
        }
        (Some(ply), Some(at)) => Some(format!("ply {ply} {}", at.text)),
        (Some(ply), None) => Some(format!("ply {ply}")),
        (None, _) => None,
    };
    Verdict::Error {
        code: error.code(),
        why: match at {
            Some(_) => error.reason().to_string(),
            None => error.to_string(),
        },
        at,
    }
}

/// A verdict line built on the stack: at most two numbers of 20 digits and a few words.
struct VerdictLine {
    bytes: [u8; 64],
    len: usize,
}

impl Default for VerdictLine {
    fn default() -> VerdictLine {
        VerdictLine {
            bytes: [0; 64],
            len: 0,
        }
    }
}

impl VerdictLine {
    fn push(&mut self, text: &[u8]) {
        if let Some(room) = self.bytes.get_mut(self.len..self.len + text.len()) {
            room.copy_from_slice(text);
            self.len += text.len();
        }
    }

    fn decimal(&mut self, n: u64) {
        let (digits, len) = crate::fen::decimal(n);
        self.push(&digits[digits.len() - len..]);
    }

    fn bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// `game <n>`, then ` <file>` when the game's file is named: how every line about a
/// game starts (its verdict, a skip, a repair).
fn write_game(out: &mut impl Write, number: u64, file: Option<&str>) -> io::Result<()> {
    write!(out, "game {number}")?;
    if let Some(file) = file {
        write!(out, " {file}")?;
    }
    Ok(())
}

/// Writes the verdict line of game `number`.
fn write_verdict(
    out: &mut impl Write,
    number: u64,
    file: Option<&str>,
    verdict: &Verdict,
    selected: bool,
) -> io::Result<()> {
    if let (
        None,
        Verdict::Ok {
            plies,
            result,
            drawn_at: None,
            ..
        },
        false,
    ) = (file, verdict, selected)
    {
        // Nearly every line of a check: written without the formatting machinery,
        // which cost more than the rest of the line's work.
        let mut line = VerdictLine::default();
        line.push(b"game ");
        line.decimal(number);
        line.push(b" ok ");
        line.decimal(*plies as u64);
        line.push(b" ");
        line.push(result.as_bytes());
        line.push(b"\n");
        return out.write_all(line.bytes());
    }
    write_game(out, number, file)?;
    let mark = if selected { " selected" } else { "" };
    match verdict {
        Verdict::Ok {
            plies,
            result,
            drawn_at: None,
            ..
        } => writeln!(out, " ok {plies} {result}{mark}"),
        Verdict::Ok {
            plies,
            result,
            drawn_at: Some(drawn),
            ..
        } => writeln!(
            out,
            " ok {plies} {result} drawn-at {} {}{mark}",
            drawn.ply,
            drawn.reason.name()
        ),
        Verdict::Skipped => writeln!(out, " skipped"),
        Verdict::Error {
            code,
            at: Some(at),
            why,
        } => writeln!(out, " error {code} {at}: {why}"),
        Verdict::Error {
            code,
            at: None,
            why,
        } => writeln!(out, " error {code}: {why}"),
    }
}

/// Writes the verdicts and conversions of a run in input order, numbering the games.
struct Output<'a, W: Write, E: Write> {
    out: &'a mut W,
    err: &'a mut E,
    config: Config<'a>,
    names: &'a [String],
    summary: Summary,
    /// With `--dedup`: the fingerprints of the selected games' main lines.
    seen: std::collections::HashSet<u128>,
    /// With `--dups`: where the dropped duplicates go.
    dups: Option<&'a mut dyn Write>,
}

impl<W: Write, E: Write> Output<'_, W, E> {
    /// Counts and reports one game, writing `text`, what the worker made of it, in its
    /// place.
    fn game(&mut self, done: &Done, text: &[u8]) -> io::Result<()> {
        if self.config.select.is_some() {
            return self.selected_game(done, text);
        }
        self.out.write_all(text)?;
        self.summary.games += 1;
        let number = self.summary.games;
        let file = self
            .config
            .name_files
            .then(|| self.names.get(done.file).map(String::as_str))
            .flatten();
        match done.verdict {
            Verdict::Ok { plies, .. } => {
                self.summary.ok += 1;
                self.summary.plies += plies as u64;
            }
            Verdict::Error { .. } => self.summary.errors += 1,
            Verdict::Skipped => self.summary.skipped += 1,
        }
        match (&done.verdict, self.config.target) {
            (_, Target::Check) => write_verdict(self.out, number, file, &done.verdict, false),
            (Verdict::Error { .. }, _) => {
                write_verdict(self.err, number, file, &done.verdict, false)?;
                // As each game is reached, not when the run ends: one watching the
                // reports of a long run sees them as they come.
                self.err.flush()
            }
            (Verdict::Ok { .. } | Verdict::Skipped, _) => Ok(()),
        }
    }

    /// `game` with a question: the game's number decides the atoms on it, a selected
    /// game is marked (`--to check`) or written, the others are not.
    #[inline(never)]
    fn selected_game(&mut self, done: &Done, text: &[u8]) -> io::Result<()> {
        self.summary.games += 1;
        let number = self.summary.games;
        let file = self
            .config
            .name_files
            .then(|| self.names.get(done.file).map(String::as_str))
            .flatten();
        let check = self.config.target == Target::Check;
        match done.verdict {
            Verdict::Ok {
                plies,
                facts,
                print,
                ref repair,
                raw,
                ..
            } => {
                self.summary.ok += 1;
                self.summary.plies += plies as u64;
                let (text, raw) = text.split_at(text.len().saturating_sub(raw));
                let mut selected = self
                    .config
                    .select
                    .is_none_or(|s| s.query.select(facts, number));
                if selected
                    && self.config.select.is_some_and(|s| s.dedup)
                    && !self.seen.insert(print)
                {
                    selected = false;
                    self.summary.duplicates += 1;
                    if let Some(dups) = &mut self.dups {
                        dups.write_all(raw)?;
                    }
                }
                if check {
                    write_verdict(self.out, number, file, &done.verdict, selected)?;
                }
                if selected {
                    self.summary.selected += 1;
                    // The repairs of the games the run selects: those it writes.
                    if let Some(repair) = repair {
                        self.summary.fixed += 1;
                        write_game(self.err, number, file)?;
                        writeln!(self.err, " {repair}")?;
                        // As each game is reached, like the reports of broken games.
                        self.err.flush()?;
                    }
                    let marked = matches!(self.config.target, Target::Tsv | Target::Json)
                        || self.config.select.is_some_and(|s| s.label);
                    if marked {
                        // The worker left a mark where the number goes.
                        let mut parts = text.split(|&b| b == NUMBER_MARK);
                        if let Some(first) = parts.next() {
                            self.out.write_all(first)?;
                        }
                        for part in parts {
                            write!(self.out, "{number}")?;
                            self.out.write_all(part)?;
                        }
                    } else if !check {
                        self.out.write_all(text)?;
                    }
                }
                Ok(())
            }
            Verdict::Skipped => {
                self.summary.skipped += 1;
                if check {
                    write_game(self.out, number, file)?;
                    writeln!(self.out, " skipped")?;
                }
                Ok(())
            }
            Verdict::Error { .. } => {
                self.summary.errors += 1;
                if check {
                    return write_verdict(self.out, number, file, &done.verdict, false);
                }
                // A broken game's text is there only with --keep-broken.
                self.out.write_all(text)?;
                write_verdict(self.err, number, file, &done.verdict, false)?;
                self.err.flush()
            }
        }
    }

    fn finish(&mut self) -> io::Result<Summary> {
        let s = self.summary;
        let line = format!(
            "games {} ok {} errors {} plies {}",
            s.games, s.ok, s.errors, s.plies
        );
        match (self.config.target, self.config.select) {
            (Target::Check, None) => writeln!(self.out, "{line}")?,
            (_, None) => {}
            // With a question the summary says what it selected, on stderr when the
            // output is the games.
            (target, Some(_)) => {
                let out: &mut dyn Write = if target == Target::Check {
                    self.out
                } else {
                    self.err
                };
                write!(out, "{line} selected {} skipped {}", s.selected, s.skipped)?;
                if self.config.select.is_some_and(|s| s.dedup) {
                    write!(out, " duplicates {}", s.duplicates)?;
                }
                if self.config.select.is_some_and(|s| s.fix_results) {
                    write!(out, " fixed {}", s.fixed)?;
                }
                writeln!(out)?;
            }
        }
        self.out.flush()?;
        self.err.flush()?;
        if let Some(dups) = &mut self.dups {
            dups.flush()?;
        }
        Ok(self.summary)
    }
}

/// Checks or converts every game of the sources, in order, writing to `out` (and the
/// verdicts of broken games, when converting, to `err`).
pub fn run<R: Read + Send>(
    sources: Vec<Source<R>>,
    config: Config<'_>,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<Summary> {
    run_with(sources, config, out, err, None)
}

/// `run`, with the games `--dedup` drops written to `dups` as they were read (when the
/// question asks for them: `Select::dups`).
pub fn run_with<R: Read + Send>(
    sources: Vec<Source<R>>,
    config: Config<'_>,
    out: &mut impl Write,
    err: &mut impl Write,
    dups: Option<&mut dyn Write>,
) -> io::Result<Summary> {
    let names: Vec<String> = sources.iter().map(|s| s.name.clone()).collect();
    if let (Target::Tsv, Some(select)) = (config.target, config.select) {
        let header: Vec<&str> = select.columns.iter().map(|(n, _)| n.as_str()).collect();
        writeln!(out, "{}", header.join("\t"))?;
    }
    let mut output = Output {
        out,
        err,
        config,
        names: &names,
        summary: Summary::default(),
        seen: std::collections::HashSet::new(),
        dups: dups.map(|d| d as &mut dyn Write),
    };
    if sources.iter().all(|s| s.ready) {
        run_files(sources, config, &mut output)?;
    } else if config.jobs <= 1 {
        run_sequential(sources, config, &mut output)?;
    } else {
        run_parallel(sources, config, &mut output)?;
    }
    output.finish()
}

fn run_sequential<R: Read, W: Write, E: Write>(
    sources: Vec<Source<R>>,
    config: Config<'_>,
    output: &mut Output<'_, W, E>,
) -> io::Result<()> {
    let mut worker = Worker::new(config);
    let mut raw = Vec::new();
    let mut text = Vec::with_capacity(64 * 1024);
    let keep_raw = keeps_raw(config);
    for (file, source) in sources.into_iter().enumerate() {
        // A read of a file never waits for the reader of the output: its answers are
        // written as the buffer fills, not in a small write before every read.
        let ready = source.ready;
        let mut reader = GameReader::new(source.reader);
        loop {
            let out = &mut *output.out;
            let got = reader.read(
                &mut worker.replayer,
                keep_raw.then_some(&mut raw),
                &mut || if ready { Ok(()) } else { out.flush() },
            )?;
            if got.is_none() {
                break;
            }
            text.clear();
            let verdict = worker.settle(keep_raw.then_some(&raw[..]), &mut text);
            output.game(&Done { verdict, file }, &text)?;
        }
    }
    Ok(())
}

/// Whether a game's text as read is wanted after it is replayed: for `--keep-broken`
/// in the writing modes, and for `--dups`.
fn keeps_raw(config: Config<'_>) -> bool {
    (config.keep_broken && config.target != Target::Check) || config.select.is_some_and(|s| s.dups)
}

/// Games split off by the reader, handed to a worker whole.
struct Batch {
    seq: u64,
    bytes: Vec<u8>,
    games: Games,
}

/// Byte buffers handed back for reuse: the text of a database passes through a read
/// chunk and a run, and allocating (and zeroing) those afresh for every run is a large
/// share of the work (docs/performance.md).
#[derive(Default)]
struct Pool(std::sync::Mutex<Vec<Vec<u8>>>);

impl Pool {
    /// An empty buffer, reused when one is free.
    fn take(&self, capacity: usize) -> Vec<u8> {
        let mut buf = self.reuse();
        buf.clear();
        buf.reserve(capacity);
        buf
    }

    /// A buffer of `len` bytes to read into, reused when one is free: only what the
    /// last read into it did not fill is zeroed again.
    fn take_filled(&self, len: usize) -> Vec<u8> {
        let mut buf = self.reuse();
        buf.resize(len, 0);
        buf
    }

    /// A free buffer as it was given back, or a new empty one.
    fn reuse(&self) -> Vec<u8> {
        let free = self.0.lock().ok().and_then(|mut free| free.pop());
        free.unwrap_or_default()
    }

    fn give(&self, buf: Vec<u8>) {
        if let Ok(mut free) = self.0.lock() {
            // A few are enough for the runs in flight; more would only hold memory.
            if free.len() < 16 {
                free.push(buf);
            }
        }
    }
}

/// How the games of a batch lie in its bytes.
enum Games {
    /// A run of text cut where games begin or end, from one file: the worker reads its
    /// games one after the other.
    Run { file: usize },
    /// Games the reader has read already: where each one's text lies in `bytes`, how
    /// the reader read it, its file.
    Read(Vec<(usize, usize, RawGame, usize)>),
}

/// What a worker gives back for a batch.
struct Answered {
    seq: u64,
    text: Vec<u8>,
    /// Where each game's text ends in `text`, and its verdict.
    games: Vec<(usize, Done)>,
}

fn run_parallel<R: Read + Send, W: Write, E: Write>(
    sources: Vec<Source<R>>,
    config: Config<'_>,
    output: &mut Output<'_, W, E>,
) -> io::Result<()> {
    let jobs = config.jobs;
    let stop = AtomicBool::new(false);
    let (work_tx, work_rx) = mpsc::sync_channel::<Batch>(jobs * 2);
    let work_rx = std::sync::Mutex::new(work_rx);
    let (done_tx, done_rx) = mpsc::sync_channel::<Answered>(jobs * 2);
    let pool = Pool::default();
    std::thread::scope(|scope| -> io::Result<()> {
        let stop = &stop;
        let pool = &pool;
        let reader = scope.spawn(move || split(sources, &work_tx, stop, pool));
        for _ in 0..jobs {
            let done_tx = done_tx.clone();
            let work_rx = &work_rx;
            scope.spawn(move || {
                let mut worker = Worker::new(config);
                loop {
                    let batch = match work_rx.lock() {
                        Ok(rx) => match rx.recv() {
                            Ok(batch) => batch,
                            Err(_) => return,
                        },
                        Err(_) => return,
                    };
                    let answered = worker.batch(batch, pool);
                    if done_tx.send(answered).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done_tx);
        let written = write_in_order(&done_rx, output);
        if written.is_err() {
            stop.store(true, Ordering::Relaxed);
            // Let the workers and the reader end: nothing more is taken from them.
            while done_rx.recv().is_ok() {}
        }
        let read = reader.join().unwrap_or(Ok(()));
        written?;
        read
    })
}

/// The sources of a run on files, handed out batch by batch to whichever worker asks.
struct Feed<R> {
    sources: std::iter::Enumerate<std::vec::IntoIter<Source<R>>>,
    cutter: Option<(usize, Cutter<R>)>,
    seq: u64,
    /// A read that failed: the run ends there, once the batches before it are written.
    failed: Option<io::Error>,
}

impl<R: Read> Feed<R> {
    /// The next batch, numbered, with the file it is from (a run is read into `buf`);
    /// `None` at the end of the last source or after a failed read.
    fn next(&mut self, buf: &mut Vec<u8>) -> Option<(u64, Cut, usize)> {
        while self.failed.is_none() {
            let (file, cutter) = match &mut self.cutter {
                Some(current) => current,
                None => {
                    let (file, source) = self.sources.next()?;
                    self.cutter.insert((file, Cutter::new(source.reader)))
                }
            };
            let file = *file;
            match cutter.next(file, buf) {
                Ok(Some(cut)) => {
                    let seq = self.seq;
                    self.seq += 1;
                    return Some((seq, cut, file));
                }
                Ok(None) => self.cutter = None,
                Err(e) => self.failed = Some(e),
            }
        }
        None
    }
}

/// A worker's turn in `run_files`: the next batch taken from the feed and answered.
/// `None` when there is none. Inlined into `work`, like `Worker::answer`: see there.
// Forced: --pgn 13% more instructions without its path's forced inlines.
#[inline(always)]
fn answer_next<R: Read>(
    worker: &mut Worker<'_>,
    feed: &Mutex<Feed<R>>,
    buf: &mut Vec<u8>,
) -> Option<Answered> {
    let (seq, cut, file) = lock(feed).next(buf)?;
    Some(match cut {
        Cut::Run(len) => worker.answer(seq, &buf[..len], &Games::Run { file }),
        Cut::Games(bytes, games) => worker.answer(seq, &bytes, &games),
    })
}

/// The answers of a run on files waiting for their turn, shared by the workers.
struct Order {
    next: u64,
    parked: BTreeMap<u64, Answered>,
    /// Workers besides the writing one that have not finished.
    helpers: usize,
    /// The output failed: no more batches are taken.
    stop: bool,
}

/// Counts a helper out when it ends, however it ends: the writing thread waits for
/// every helper, and one that panicked must not leave it waiting for ever.
struct Leaving<'a> {
    order: &'a Mutex<Order>,
    turn: &'a Condvar,
}

impl Drop for Leaving<'_> {
    fn drop(&mut self) {
        lock(self.order).helpers -= 1;
        self.turn.notify_all();
    }
}

/// Answers that may wait for their turn before a worker takes more input: a few, so
/// that one slow batch does not make the others pile up in memory.
const PARKED: usize = 4;

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A worker that panicked left nothing half-changed that the others rely on.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Several jobs on sources whose reads never wait: no reading or writing thread. Each
/// of the `jobs` workers, the calling thread one of them, takes the next batch straight
/// from the source under a lock and replays it; the calling thread also writes the
/// answers in order as they are ready, the others leave theirs waiting for it. Fewer
/// threads and hand-overs than the pipeline: a second job costs little more work.
fn run_files<R: Read + Send, W: Write, E: Write>(
    sources: Vec<Source<R>>,
    config: Config<'_>,
    output: &mut Output<'_, W, E>,
) -> io::Result<()> {
    let feed = Mutex::new(Feed {
        sources: sources.into_iter().enumerate(),
        cutter: None,
        seq: 0,
        failed: None,
    });
    let order = Mutex::new(Order {
        next: 0,
        parked: BTreeMap::new(),
        helpers: config.jobs.saturating_sub(1),
        stop: false,
    });
    let turn = Condvar::new();
    let written = std::thread::scope(|scope| {
        let (feed, order, turn) = (&feed, &order, &turn);
        for _ in 1..config.jobs {
            scope.spawn(move || {
                let _leaving = Leaving { order, turn };
                work(config, feed, &mut |answered| {
                    let mut state = lock(order);
                    state.parked.insert(answered.seq, answered);
                    turn.notify_all();
                    while state.parked.len() >= PARKED && !state.stop {
                        state = turn.wait(state).unwrap_or_else(PoisonError::into_inner);
                    }
                    !state.stop
                });
            });
        }
        let written = write_files(config, feed, order, turn, output);
        if written.is_err() {
            lock(order).stop = true;
            turn.notify_all();
        }
        written
    });
    written?;
    match feed
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .failed
    {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// One worker's loop in `run_files`: the next batch taken from the feed and answered,
/// and handed to `hand`, until there is none or `hand` says to stop. Every worker (the
/// writing one, and with one job the only one) runs this one copy of the code, the game
/// replay inlined into it and the worker a local of it, so that the position lies at
/// fixed places in the frame rather than behind a pointer the loop keeps spilling, and
/// one job and many run the same code (docs/performance.md).
// Forced: --pgn 13% more instructions without its path's forced inlines.
#[inline(never)]
fn work<R: Read>(
    config: Config<'_>,
    feed: &Mutex<Feed<R>>,
    hand: &mut dyn FnMut(Answered) -> bool,
) {
    let mut worker = Worker::new(config);
    let mut buf = Vec::new();
    while let Some(answered) = answer_next(&mut worker, feed, &mut buf) {
        if !hand(answered) {
            return;
        }
    }
}

/// The calling thread's part of `run_files`: replays batches while there are any,
/// writes every answer whose turn has come after each, then waits for the rest.
fn write_files<R: Read, W: Write, E: Write>(
    config: Config<'_>,
    feed: &Mutex<Feed<R>>,
    order: &Mutex<Order>,
    turn: &Condvar,
    output: &mut Output<'_, W, E>,
) -> io::Result<()> {
    let mut ready = Vec::new();
    let mut written = Ok(());
    work(config, feed, &mut |answered| {
        {
            let mut state = lock(order);
            state.parked.insert(answered.seq, answered);
            loop {
                take_ready(&mut state, &mut ready);
                // Like the helpers, this thread takes no more input while answers pile
                // up behind one that has not come.
                if !ready.is_empty() || state.parked.len() < PARKED || state.helpers == 0 {
                    break;
                }
                state = turn.wait(state).unwrap_or_else(PoisonError::into_inner);
            }
        }
        turn.notify_all();
        written = ready
            .drain(..)
            .try_for_each(|answered| write_answered(&answered, output));
        written.is_ok()
    });
    written?;
    // No more input: the answers of the batches the helpers still hold.
    loop {
        {
            let mut state = lock(order);
            loop {
                take_ready(&mut state, &mut ready);
                if !ready.is_empty() {
                    break;
                }
                if state.helpers == 0 {
                    return Ok(());
                }
                state = turn.wait(state).unwrap_or_else(PoisonError::into_inner);
            }
        }
        turn.notify_all();
        for answered in ready.drain(..) {
            write_answered(&answered, output)?;
        }
    }
}

/// Moves the parked answers whose turn has come to `ready`, in order.
fn take_ready(state: &mut Order, ready: &mut Vec<Answered>) {
    let Order { next, parked, .. } = state;
    while let Some(answered) = parked.remove(next) {
        *next += 1;
        ready.push(answered);
    }
}

/// Writes the text and verdicts of one batch.
fn write_answered<W: Write, E: Write>(
    answered: &Answered,
    output: &mut Output<'_, W, E>,
) -> io::Result<()> {
    let mut from = 0;
    for (end, game) in &answered.games {
        output.game(game, &answered.text[from..*end])?;
        from = *end;
    }
    Ok(())
}

impl Worker<'_> {
    fn batch(&mut self, batch: Batch, pool: &Pool) -> Answered {
        let answered = self.answer(batch.seq, &batch.bytes, &batch.games);
        pool.give(batch.bytes);
        answered
    }

    /// The answers to the games of `bytes`, which lie there as `layout` says.
    // Forced: --pgn 13% more instructions without its path's forced inlines.
    #[inline(always)]
    fn answer(&mut self, seq: u64, bytes: &[u8], layout: &Games) -> Answered {
        let mut text = Vec::with_capacity(bytes.len() / 2);
        let keep_raw = keeps_raw(self.config);
        let mut games = Vec::new();
        match layout {
            Games::Read(read) => {
                for &(start, end, raw_game, file) in read {
                    let raw = &bytes[start..end];
                    self.replay(raw, raw_game);
                    let verdict = self.settle(keep_raw.then_some(raw), &mut text);
                    games.push((text.len(), Done { verdict, file }));
                }
            }
            Games::Run { file } => {
                let mut at = 0;
                loop {
                    let start = at;
                    let step = read_game(&bytes[at..], true, &mut self.replayer);
                    // The same rules as `GameReader`: a game longer than the limit is
                    // refused, a broken one is skipped to where the next one starts.
                    let refused = too_long(&bytes[at..], step);
                    let (taken, broken) = match (step, refused) {
                        (GameRead::End | GameRead::NeedMore, _) => break,
                        (_, Some(refused)) => {
                            self.replayer.begin_game();
                            self.replayer
                                .end_game(Some(&SyntaxError::TooLong(MAX_GAME)));
                            (refused.skip(), true)
                        }
                        (GameRead::Game(n), None) => (n, false),
                        (GameRead::Broken(n), None) => (n, true),
                    };
                    at += taken;
                    if broken {
                        at += resync(&bytes[at..]).unwrap_or(bytes.len() - at);
                    }
                    // Its whole text, as `GameReader` copies it, whatever its length.
                    let raw = &bytes[(start + blanks(&bytes[start..])).min(at)..at];
                    let verdict = self.settle(keep_raw.then_some(raw), &mut text);
                    games.push((
                        text.len(),
                        Done {
                            verdict,
                            file: *file,
                        },
                    ));
                }
            }
        }
        Answered { seq, text, games }
    }
}

/// How much text the reader cuts into one run for a worker, and the most it holds
/// while looking for a place to cut.
const RUN_BYTES: usize = 512 * 1024;
const RUN_WINDOW: usize = 2 * MAX_GAME + RUN_BYTES;

/// The reader's side: the text of every source, cut into runs of whole games for the
/// workers. A run is cut before a line that starts an `[Event ` tag right after a
/// result token and is no line of a comment that goes on past it (`last_game_start`:
/// every game ends there, whatever came before), or, when no more input is ready, after
/// the last game already whole. A source with no such line for too long is read game by
/// game instead.
fn split<R: Read + Send>(
    sources: Vec<Source<R>>,
    work: &mpsc::SyncSender<Batch>,
    stop: &AtomicBool,
    pool: &Pool,
) -> io::Result<()> {
    let mut seq = 0;
    let mut send = |bytes: Vec<u8>, games: Games| -> bool {
        let batch = Batch { seq, bytes, games };
        seq += 1;
        work.send(batch).is_ok()
    };
    let mut buf = pool.take(RUN_WINDOW + READ_BYTES);
    for (file, source) in sources.into_iter().enumerate() {
        buf.clear();
        // Reads happen on a thread of their own, so that this one knows when no input
        // is ready (and answers must not wait for more).
        if source.ready {
            if !split_ready(source.reader, file, &mut send, stop, pool)? {
                return Ok(());
            }
            continue;
        }
        let mut source = source.reader;
        let chunk_pool = Pool::default();
        let chunk_pool = &chunk_pool;
        let done = std::thread::scope(|scope| -> io::Result<bool> {
            // Dropped when this closure returns, which ends the reading thread.
            let (chunks_tx, chunks) = mpsc::sync_channel::<io::Result<Vec<u8>>>(4);
            scope.spawn(move || loop {
                let mut chunk = chunk_pool.take_filled(READ_BYTES);
                let read = loop {
                    match source.read(&mut chunk) {
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        other => break other,
                    }
                };
                let last = !matches!(read, Ok(n) if n > 0);
                let sent = chunks_tx.send(read.map(|n| {
                    chunk.truncate(n);
                    chunk
                }));
                if last || sent.is_err() {
                    return;
                }
            });
            let mut start = 0;
            loop {
                if stop.load(Ordering::Relaxed) {
                    return Ok(false);
                }
                if buf.len() - start >= RUN_BYTES {
                    match send_run_before_event(&mut buf, &mut start, file, &mut send, pool) {
                        Some(true) => continue,
                        Some(false) => return Ok(false),
                        None => {}
                    }
                    if buf.len() - start >= RUN_WINDOW {
                        // No game starts with an Event tag here: read game by game.
                        let rest = std::io::Cursor::new(buf[start..].to_vec())
                            .chain(ChunkReader::new(&chunks));
                        return split_games(rest, file, &mut send, stop);
                    }
                }
                let chunk = match chunks.try_recv() {
                    Ok(chunk) => chunk,
                    Err(mpsc::TryRecvError::Empty) => {
                        // About to wait for input: hand over the games already whole.
                        let whole = whole_games(&buf[start..]);
                        if whole > 0 {
                            let end = start + whole;
                            let run = cut_run(&mut buf, &mut start, end, pool);
                            if !send(run, Games::Run { file }) {
                                return Ok(false);
                            }
                        }
                        chunks.recv().unwrap_or(Ok(Vec::new()))
                    }
                    Err(mpsc::TryRecvError::Disconnected) => Ok(Vec::new()),
                }?;
                if chunk.is_empty() {
                    if start < buf.len() && !send(buf[start..].to_vec(), Games::Run { file }) {
                        return Ok(false);
                    }
                    return Ok(true);
                }
                buf.drain(..start);
                start = 0;
                buf.extend_from_slice(&chunk);
                chunk_pool.give(chunk);
            }
        })?;
        if !done {
            return Ok(());
        }
    }
    Ok(())
}

/// The reader's side for a source whose reads never wait, cut by a `Cutter`. `false`
/// when the workers are gone.
fn split_ready<R: Read>(
    source: R,
    file: usize,
    send: &mut impl FnMut(Vec<u8>, Games) -> bool,
    stop: &AtomicBool,
    pool: &Pool,
) -> io::Result<bool> {
    // Its runs are copied out of one buffer: a source that never waits in a run that
    // has one that may is rare.
    let mut cutter = Cutter::new(source);
    let mut buf = Vec::new();
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(false);
        }
        let sent = match cutter.next(file, &mut buf)? {
            Some(Cut::Run(len)) => {
                let mut run = pool.take(len);
                run.extend_from_slice(&buf[..len]);
                send(run, Games::Run { file })
            }
            Some(Cut::Games(bytes, games)) => send(bytes, games),
            None => return Ok(true),
        };
        if !sent {
            return Ok(false);
        }
    }
}

/// The text of a source whose reads never wait (a regular file), cut into batches as it
/// is read: runs cut as `split` cuts them, or, in a source with no line to cut before
/// for too long, games read one by one.
enum Cutter<R> {
    Runs {
        source: R,
        /// What followed the last run cut: the start of the next.
        carry: Vec<u8>,
    },
    Games {
        reader: Box<GameReader<io::Chain<io::Cursor<Vec<u8>>, R>>>,
        raw: Vec<u8>,
    },
    Done,
}

/// A batch cut by a `Cutter`.
enum Cut {
    /// A run of whole games: the first bytes of the buffer given.
    Run(usize),
    /// Games read one by one, their text and where each lies in it.
    Games(Vec<u8>, Games),
}

impl<R: Read> Cutter<R> {
    fn new(source: R) -> Cutter<R> {
        Cutter::Runs {
            source,
            carry: Vec::new(),
        }
    }

    /// The next batch of the source's games, `None` at its end. A run is read into
    /// `buf`, which grows to what it has to hold and stays that long: reading into the
    /// same bytes again and again zeroes nothing (reading into a vector's spare
    /// capacity through a `dyn Read` zeroes it first, as much work as the read).
    fn next(&mut self, file: usize, buf: &mut Vec<u8>) -> io::Result<Option<Cut>> {
        loop {
            match self {
                Cutter::Runs { source, carry } => {
                    let mut filled = carry.len();
                    if buf.len() < filled {
                        buf.resize(filled, 0);
                    }
                    buf[..filled].copy_from_slice(carry);
                    carry.clear();
                    loop {
                        if filled >= RUN_BYTES {
                            if let Some(end) = last_game_start(&buf[..filled]) {
                                carry.extend_from_slice(&buf[end..filled]);
                                return Ok(Some(Cut::Run(end)));
                            }
                            if filled >= RUN_WINDOW {
                                break;
                            }
                        }
                        let room = if filled < RUN_BYTES {
                            RUN_BYTES - filled
                        } else {
                            READ_BYTES
                        };
                        if buf.len() < filled + room {
                            buf.resize(filled + room, 0);
                        }
                        let read = loop {
                            match source.read(&mut buf[filled..filled + room]) {
                                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                                other => break other,
                            }
                        }?;
                        if read == 0 {
                            *self = Cutter::Done;
                            return Ok((filled > 0).then_some(Cut::Run(filled)));
                        }
                        filled += read;
                    }
                    // No game starts with an Event tag in the window: read game by game
                    // from here, its bytes read again from the game reader's buffer.
                    let seen = buf[..filled].to_vec();
                    if let Cutter::Runs { source, .. } = std::mem::replace(self, Cutter::Done) {
                        *self = Cutter::Games {
                            reader: Box::new(GameReader::new(io::Cursor::new(seen).chain(source))),
                            raw: Vec::new(),
                        };
                    }
                }
                Cutter::Games { reader, raw } => {
                    let mut batch = GameBatch::default();
                    while !batch.is_full() {
                        let Some(game) = reader.read(&mut Skip, Some(raw), &mut || Ok(()))? else {
                            *self = Cutter::Done;
                            break;
                        };
                        batch.push(raw, game, file);
                    }
                    return Ok((!batch.is_empty()).then(|| {
                        let (bytes, games) = batch.take();
                        Cut::Games(bytes, games)
                    }));
                }
                Cutter::Done => return Ok(None),
            }
        }
    }
}

/// Sends what `buf` holds from `start` up to its last line that starts an `[Event `
/// tag where a game surely begins (`last_game_start`) as a run: `Some(true)` when sent, `Some(false)` when the workers are gone, `None`
/// when there is no such line.
fn send_run_before_event(
    buf: &mut Vec<u8>,
    start: &mut usize,
    file: usize,
    send: &mut impl FnMut(Vec<u8>, Games) -> bool,
    pool: &Pool,
) -> Option<bool> {
    let end = *start + last_game_start(&buf[*start..])?;
    let run = cut_run(buf, start, end, pool);
    Some(send(run, Games::Run { file }))
}

/// `buf[*start..end]` as a run of its own, and `buf` left holding what follows: the
/// buffer itself becomes the run when nothing before it is left over (the usual case),
/// so that the text is not copied once more.
fn cut_run(buf: &mut Vec<u8>, start: &mut usize, end: usize, pool: &Pool) -> Vec<u8> {
    let mut rest = pool.take(RUN_WINDOW + READ_BYTES);
    rest.extend_from_slice(&buf[end..]);
    let mut run = std::mem::replace(buf, rest);
    run.truncate(end);
    run.drain(..*start);
    *start = 0;
    run
}

/// How much the reading thread reads at a time.
const READ_BYTES: usize = 256 * 1024;

/// The chunks of the reading thread as a byte source again.
struct ChunkReader<'a> {
    chunks: &'a mpsc::Receiver<io::Result<Vec<u8>>>,
    chunk: Vec<u8>,
    at: usize,
}

impl<'a> ChunkReader<'a> {
    fn new(chunks: &'a mpsc::Receiver<io::Result<Vec<u8>>>) -> ChunkReader<'a> {
        ChunkReader {
            chunks,
            chunk: Vec::new(),
            at: 0,
        }
    }
}

impl Read for ChunkReader<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.at == self.chunk.len() {
            self.chunk = match self.chunks.recv() {
                Ok(chunk) => chunk?,
                Err(_) => return Ok(0),
            };
            self.at = 0;
        }
        let n = out.len().min(self.chunk.len() - self.at);
        out[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// How many bytes of `text` hold whole games, cut at the end of a line: read on, a game
/// would begin where it begins in a single reading of the file.
fn whole_games(text: &[u8]) -> usize {
    let mut at = 0;
    let mut cut = 0;
    while let GameRead::Game(n) = read_game(&text[at..], false, &mut Skip) {
        if n > MAX_GAME {
            break;
        }
        at += n;
        let blanks = text[at..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t' || b == b'\r')
            .count();
        if text.get(at + blanks) == Some(&b'\n') {
            cut = at + blanks + 1;
        }
    }
    cut
}

/// Splits a source game by game, reading each (without replaying it) to find its end.
/// `false` when the workers are gone.
fn split_games<R: Read>(
    source: R,
    file: usize,
    send: &mut impl FnMut(Vec<u8>, Games) -> bool,
    stop: &AtomicBool,
) -> io::Result<bool> {
    // Its bytes are read again from this reader's buffer, not from the window above.
    let mut reader = GameReader::new(source);
    let mut raw = Vec::new();
    let mut batch = GameBatch::default();
    let mut gone = false;
    loop {
        if stop.load(Ordering::Relaxed) || gone {
            return Ok(false);
        }
        let mut hand_over = || {
            if !batch.is_empty() {
                let (bytes, games) = batch.take();
                gone = !send(bytes, games);
            }
            Ok(())
        };
        let Some(game) = reader.read(&mut Skip, Some(&mut raw), &mut hand_over)? else {
            break;
        };
        batch.push(&raw, game, file);
        if batch.is_full() {
            let (bytes, games) = batch.take();
            if !send(bytes, games) {
                return Ok(false);
            }
        }
    }
    if batch.is_empty() {
        return Ok(true);
    }
    let (bytes, games) = batch.take();
    Ok(send(bytes, games))
}

/// Games read one by one, gathered for a worker: their texts one after the other, and
/// where each lies among them.
#[derive(Default)]
struct GameBatch {
    bytes: Vec<u8>,
    games: Vec<(usize, usize, RawGame, usize)>,
}

impl GameBatch {
    fn push(&mut self, raw: &[u8], game: RawGame, file: usize) {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(raw);
        self.games.push((start, self.bytes.len(), game, file));
    }

    fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Enough for one hand-over: a worker's share, and a bound on what waits in memory.
    fn is_full(&self) -> bool {
        self.games.len() >= BATCH_GAMES || self.bytes.len() >= BATCH_BYTES
    }

    /// What was gathered, as a batch's text and layout; this one starts again empty.
    fn take(&mut self) -> (Vec<u8>, Games) {
        let GameBatch { bytes, games } = std::mem::take(self);
        (bytes, Games::Read(games))
    }
}

/// Writes the workers' answers in batch order.
fn write_in_order<W: Write, E: Write>(
    done: &mpsc::Receiver<Answered>,
    output: &mut Output<'_, W, E>,
) -> io::Result<()> {
    let mut waiting: BTreeMap<u64, Answered> = BTreeMap::new();
    let mut next = 0;
    loop {
        // Flush whenever no answer is ready: the reader of the output may be waiting for
        // these before it sends more input.
        let answered = match done.try_recv() {
            Ok(answered) => answered,
            Err(mpsc::TryRecvError::Empty) => {
                output.out.flush()?;
                output.err.flush()?;
                match done.recv() {
                    Ok(answered) => answered,
                    Err(_) => break,
                }
            }
            Err(mpsc::TryRecvError::Disconnected) => break,
        };
        waiting.insert(answered.seq, answered);
        while let Some(answered) = waiting.remove(&next) {
            write_answered(&answered, output)?;
            next += 1;
        }
    }
    Ok(())
}
