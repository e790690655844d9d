//! Executing commands against the game. Every command either succeeds or changes
//! nothing: the new state is built aside and swapped in only when it is complete.

use std::sync::atomic::AtomicBool;

use crate::excerpt::Excerpt;
use crate::fen::FenError;
use crate::game::{resolve_move, Game};
use crate::moves::Move;
use crate::pgn::reader::Skip;
use crate::pgn::{self, GameReader, Loaded, Next, Options, Replayer, Tags};
use crate::position::Position;
use crate::square::Square;
use crate::uci::CastlingMode;

use super::answer::{Answer, Format, MoveDetail, Reply, MAX_THREADS};
use super::command::{Command, Start};
use super::error::{BadInput, MoveRef, ProtocolError};
use super::job::{Job, PerftAnswer};
use super::request::Request;

/// One game and the options that shape the next one and the answers.
#[derive(Clone, Debug, Default)]
pub struct Session {
    game: Game,
    tags: Tags,
    chess960: bool,
    json: bool,
    /// Perft threads; 0 is one per available core.
    threads: u32,
}

/// What a command line leads to: a reply now, or long work whose answer comes later.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Reply(Reply),
    /// Boxed: a job holds a position, and every command's step is moved around.
    Job(Box<Job>),
}

impl Session {
    /// The standard start position, standard castling.
    pub fn new() -> Session {
        Session::default()
    }

    /// A session whose game starts from `base`, in Chess960 mode or not.
    pub fn from_position(base: Position, chess960: bool) -> Session {
        let mut session = Session {
            chess960,
            ..Session::default()
        };
        session.game = Game::new(base, session.mode());
        session
    }

    /// The base position a FEN gives for a new game, in Chess960 or standard chess:
    /// standard chess refuses the castling rights that only Chess960 has.
    pub fn base_from_fen(fen: &str, chess960: bool) -> Result<Position, ProtocolError> {
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        base_from_fen(fen, mode)
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game's tags, other than those derived from it.
    pub fn tags(&self) -> &Tags {
        &self.tags
    }

    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// How answers are written now.
    pub fn format(&self) -> Format {
        if self.json {
            Format::Json
        } else {
            Format::Text
        }
    }

    pub fn set_format(&mut self, format: Format) {
        self.json = format == Format::Json;
    }

    /// The threads a perft uses now.
    pub fn perft_threads(&self) -> usize {
        match self.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n as usize,
        }
    }

    /// The castling notation of the next game.
    fn mode(&self) -> CastlingMode {
        if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    /// Runs one command line to its reply, long work included (it cannot be stopped
    /// here); an `@<id>` prefix is ignored.
    pub fn execute(&mut self, line: &str) -> Reply {
        match self.step(Request::split(line).text) {
            Step::Reply(reply) => reply,
            Step::Job(job) => Reply::Answer(job.run(&AtomicBool::new(false))),
        }
    }

    /// Runs one command (a line without its id), except long work, which it hands back.
    pub fn step(&mut self, text: &str) -> Step {
        // Control characters (NUL above all) would otherwise be echoed back inside
        // error messages; tab is a separator.
        if has_control(text) {
            return Step::Reply(Reply::Error(ProtocolError::BadInput(BadInput::Control)));
        }
        let command = match Command::parse(text) {
            Ok(Some(command)) => command,
            Ok(None) => return Step::Reply(Reply::Silent),
            Err(error) => return Step::Reply(Reply::Error(error)),
        };
        let reply = match command {
            Command::Quit => Reply::Quit,
            Command::GoPerft(depth) => {
                return Step::Job(Box::new(self.perft_job(PerftAnswer::Divide, depth)))
            }
            Command::Perft(depth) => {
                return Step::Job(Box::new(self.perft_job(PerftAnswer::Total, depth)))
            }
            command => match self.run(command) {
                Ok(Some(answer)) => Reply::Answer(answer),
                Ok(None) => Reply::Silent,
                Err(error) => Reply::Error(error),
            },
        };
        Step::Reply(reply)
    }

    fn perft_job(&self, answer: PerftAnswer, depth: u32) -> Job {
        Job {
            answer,
            position: *self.game.position(),
            depth,
            mode: self.game.mode(),
            threads: self.perft_threads(),
        }
    }

    fn uci(&self, m: Move) -> String {
        m.to_uci(self.game.mode()).to_string()
    }

    fn sorted_uci(&self, moves: impl IntoIterator<Item = Move>) -> Vec<String> {
        let mut texts: Vec<String> = moves.into_iter().map(|m| self.uci(m)).collect();
        texts.sort_unstable();
        texts
    }

    fn run(&mut self, command: Command<'_>) -> Result<Option<Answer>, ProtocolError> {
        let pos = *self.game.position();
        let mode = self.game.mode();
        let answer = match command {
            Command::Uci => Answer::Uci,
            Command::IsReady => Answer::ReadyOk,
            Command::UciNewGame => {
                self.game = Game::new(Position::startpos(), self.mode());
                self.tags = Tags::default();
                return Ok(None);
            }
            Command::SetOption { name, value } => {
                match parse_option(&name, value.as_deref())? {
                    OptionValue::Chess960(on) => self.chess960 = on,
                    OptionValue::Threads(n) => self.threads = n,
                    OptionValue::Json(on) => self.json = on,
                }
                return Ok(None);
            }
            Command::Position {
                start: Start::Pgn { path, game },
                ..
            } => {
                let loaded = self.load_pgn(&path, game)?;
                self.game = loaded.game;
                self.tags = loaded.tags;
                return Ok(None);
            }
            Command::Position { start, moves } => {
                self.game = self.replay(start, &moves)?;
                self.tags = Tags::default();
                return Ok(None);
            }
            Command::Tag { name, value } => {
                let done = match value {
                    Some(value) => self.tags.set(name, value),
                    None => self.tags.remove(name),
                };
                done.map_err(|e| ProtocolError::BadArgument(e.to_string()))?;
                return Ok(None);
            }
            Command::Pgn => {
                let mut text = String::with_capacity(1024);
                pgn::writer::write_game(&mut text, &self.tags, &self.game);
                Answer::Pgn(text)
            }
            Command::PgnSave(path) => {
                let mut text = String::with_capacity(1024);
                pgn::writer::write_game(&mut text, &self.tags, &self.game);
                std::fs::write(path, text).map_err(|e| ProtocolError::UnwritableFile {
                    path: path.to_string(),
                    reason: e.to_string(),
                })?;
                return Ok(None);
            }
            Command::Display => Answer::Board(Box::new(pos)),
            // Long work is handed back by `step`; run here, it would not be stoppable.
            Command::GoPerft(depth) => self
                .perft_job(PerftAnswer::Divide, depth)
                .run(&AtomicBool::new(false)),
            Command::Perft(depth) => self
                .perft_job(PerftAnswer::Total, depth)
                .run(&AtomicBool::new(false)),
            Command::Moves {
                from,
                verbose: false,
                ..
            } => {
                let moves = self.game.legal_moves().iter().copied();
                Answer::Moves(
                    self.sorted_uci(moves.filter(|m| from.is_none_or(|sq| m.from() == sq))),
                )
            }
            Command::Moves {
                from,
                verbose: true,
                fen,
            } => {
                let mut details: Vec<MoveDetail> = self
                    .game
                    .legal_moves()
                    .iter()
                    .filter(|m| from.is_none_or(|sq| m.from() == sq))
                    .map(|&m| self.detail(&pos, m, &pos.after(m), fen))
                    .collect();
                details.sort_unstable_by_key(MoveDetail::uci_order);
                Answer::VerboseMoves(details)
            }
            Command::Dests => Answer::Dests(self.dests()),
            Command::Legal(text) => {
                let code = self
                    .game
                    .parse_move(text)
                    .err()
                    .map(|e| ProtocolError::from_move(e, at(text, None), mode).code());
                Answer::Legal(text.to_string(), code)
            }
            Command::Check => {
                let mut squares: Vec<Square> = pos.checkers().into_iter().collect();
                // As text: by file, then rank.
                squares.sort_unstable_by_key(|sq| (sq.file().index(), sq.rank().index()));
                Answer::Check(squares)
            }
            Command::Turn => Answer::Turn(pos.turn()),
            Command::Fen => Answer::Fen(pos.fen()),
            Command::Status => Answer::Status(self.game.status()),
            Command::Move(text) => {
                let m = self
                    .game
                    .parse_move(text)
                    .map_err(|e| ProtocolError::from_move(e, at(text, None), mode))?;
                // Played first: the game works out the position after the move anyway.
                self.game.play(m);
                let detail = self.detail(&pos, m, self.game.position(), true);
                Answer::Played(Box::new(detail), self.game.status())
            }
            Command::Undo => {
                if self.game.is_final() {
                    return Err(ProtocolError::ResultFinal(self.game.status()));
                }
                let m = self.game.undo().ok_or(ProtocolError::NothingToUndo)?;
                Answer::Undone(self.uci(m))
            }
            Command::History => Answer::History(self.game.moves().map(|m| self.uci(m)).collect()),
            Command::Resign(color) => {
                self.refuse_if_over()?;
                self.game.resign(color.unwrap_or(pos.turn()));
                Answer::Status(self.game.status())
            }
            Command::Draw => {
                self.refuse_if_over()?;
                self.game.agree_draw();
                Answer::Status(self.game.status())
            }
            Command::Claim => {
                self.refuse_if_over()?;
                self.game.claim().ok_or(ProtocolError::NoClaim)?;
                Answer::Status(self.game.status())
            }
            Command::San(text) => {
                let m = resolve_move(&pos, text, mode)
                    .map_err(|e| ProtocolError::from_move(e, at(text, None), mode))?;
                Answer::San(pos.san(m))
            }
            Command::Help => Answer::Help,
            Command::HelpOn(topic) => Answer::HelpOn(topic),
            // Nothing runs while a command is being executed: a stop has nothing to end.
            Command::Stop | Command::Quit => return Ok(None),
        };
        Ok(Some(answer))
    }

    /// A legal move's facts as `move` and `moves verbose` answer them, given the
    /// position it leads to.
    fn detail(&self, pos: &Position, m: Move, after: &Position, with_fen: bool) -> MoveDetail {
        let facts = pos.facts_of(m, after);
        let mut san = pos.san_without_suffix(m);
        if facts.checkmate {
            san.push('#');
        } else if facts.check {
            san.push('+');
        }
        MoveDetail {
            uci: m.to_uci(self.game.mode()),
            san,
            facts,
            fen: with_fen.then(|| after.fen_text()),
        }
    }

    /// Every origin square with the targets `move` accepts from it. Castling is the
    /// target that UCI prints and, in standard notation, king-takes-rook too: board
    /// widgets send either. None once the game has a result: a board fed from them
    /// must not let a piece be dragged that `move` would refuse.
    fn dests(&self) -> Vec<(Square, Vec<Square>)> {
        if self.game.status().is_over() {
            return Vec::new();
        }
        let mode = self.game.mode();
        let mut pairs: Vec<(Square, Square)> = Vec::new();
        for &m in self.game.legal_moves().iter() {
            if m.promotion()
                .is_some_and(|role| role != crate::role::Role::Queen)
            {
                continue; // one entry per target: the four promotions share it
            }
            let uci = m.to_uci(mode);
            pairs.push((m.from(), uci.to));
            if m.is_castle() && uci.to != m.to() {
                pairs.push((m.from(), m.to()));
            }
        }
        // Squares sort as text by file, then rank.
        let key = |sq: Square| (sq.file().index(), sq.rank().index());
        pairs.sort_unstable_by_key(|&(from, to)| (key(from), key(to)));
        pairs.dedup();
        let mut dests: Vec<(Square, Vec<Square>)> = Vec::new();
        for (from, to) in pairs {
            match dests.last_mut() {
                Some((last, targets)) if *last == from => targets.push(to),
                _ => dests.push((from, vec![to])),
            }
        }
        dests
    }

    fn refuse_if_over(&self) -> Result<(), ProtocolError> {
        let status = self.game.status();
        if status.is_over() {
            return Err(ProtocolError::GameOver(None, status));
        }
        Ok(())
    }

    /// Game `number` of a PGN file, replayed with the full rules.
    fn load_pgn(&self, path: &str, number: usize) -> Result<Loaded, ProtocolError> {
        let unreadable = |e: std::io::Error| ProtocolError::UnreadableFile {
            path: path.to_string(),
            reason: e.to_string(),
        };
        let file = std::fs::File::open(path).map_err(unreadable)?;
        let mut reader = GameReader::new(file);
        for found in 0..number - 1 {
            if reader.next_game(&mut Skip).map_err(unreadable)? == Next::End {
                return Err(ProtocolError::NoSuchGame {
                    path: path.to_string(),
                    wanted: number,
                    found,
                });
            }
        }
        let mut replayer = Replayer::new(Options {
            chess960: self.chess960,
            ..Options::default()
        });
        if reader.next_game(&mut replayer).map_err(unreadable)? == Next::End {
            return Err(ProtocolError::NoSuchGame {
                path: path.to_string(),
                wanted: number,
                found: number - 1,
            });
        }
        replayer.load().map_err(|e| {
            let mode = if self.chess960 {
                CastlingMode::Chess960
            } else {
                CastlingMode::Standard
            };
            ProtocolError::from_game(number, e, mode)
        })
    }

    /// The game a `position` command describes, built aside so that a bad FEN or move
    /// leaves the current game as it was.
    fn replay(&self, start: Start, moves: &[&str]) -> Result<Game, ProtocolError> {
        let mode = self.mode();
        let base = match start {
            Start::StartPos => Position::startpos(),
            Start::Fen(fen) => base_from_fen(&fen, mode)?,
            Start::Pgn { path, game } => return Ok(self.load_pgn(&path, game)?.game),
        };
        let mut game = Game::new(base, mode);
        for (index, text) in moves.iter().enumerate() {
            let m = game
                .parse_move(text)
                .map_err(|e| ProtocolError::from_move(e, at(text, Some(index + 1)), mode))?;
            game.play(m);
        }
        Ok(game)
    }
}

/// The base position a FEN gives in a game of `mode`: standard chess refuses the
/// castling rights that only Chess960 has.
pub(crate) fn base_from_fen(fen: &str, mode: CastlingMode) -> Result<Position, ProtocolError> {
    let pos = Position::from_fen(fen).map_err(ProtocolError::BadFen)?;
    if mode == CastlingMode::Standard {
        pos.check_standard_castling()
            .map_err(|e| ProtocolError::BadFen(FenError::Position(e)))?;
    }
    Ok(pos)
}

/// Whether a line holds a control character other than tab: bad input. A carriage
/// return inside a line, a vertical tab, a form feed or a C1 control such as U+0085 is
/// no separator a client means to send, and would be copied raw into a transcript.
pub(crate) fn has_control(line: &str) -> bool {
    // Printable ASCII and tab in one pass, without decoding characters: every command
    // line is checked.
    if line
        .bytes()
        .all(|b| (b' '..=b'~').contains(&b) || b == b'\t')
    {
        return false;
    }
    line.chars().any(|c| c.is_control() && c != '\t')
}

fn at(text: &str, ply: Option<usize>) -> MoveRef {
    MoveRef {
        text: text.to_string(),
        ply,
        variation: false,
    }
}

/// A new value of one option.
enum OptionValue {
    Chess960(bool),
    Threads(u32),
    Json(bool),
}

/// The option `setoption` names, with its new value. Names and values are
/// case-insensitive.
fn parse_option(name: &str, value: Option<&str>) -> Result<OptionValue, ProtocolError> {
    if name.eq_ignore_ascii_case("UCI_Chess960") {
        return parse_check("UCI_Chess960", value).map(OptionValue::Chess960);
    }
    if name.eq_ignore_ascii_case("JSON") {
        return parse_check("JSON", value).map(OptionValue::Json);
    }
    if name.eq_ignore_ascii_case("Threads") {
        return match value.map(|v| (v, v.parse::<u32>())) {
            Some((_, Ok(n))) if n <= MAX_THREADS => Ok(OptionValue::Threads(n)),
            Some((v, _)) => Err(ProtocolError::BadOption(format!(
                "Threads is a whole number from 0 (one per core) to {MAX_THREADS}, not '{}'",
                Excerpt(v)
            ))),
            None => Err(ProtocolError::BadOption(
                "Threads needs a value: a number of threads, or 0 for one per core".to_string(),
            )),
        };
    }
    Err(ProtocolError::BadOption(format!(
        "unknown option '{}' (the options are UCI_Chess960, Threads and JSON)",
        Excerpt(name)
    )))
}

/// The value of a `check` option.
fn parse_check(name: &str, value: Option<&str>) -> Result<bool, ProtocolError> {
    match value {
        Some(v) if v.eq_ignore_ascii_case("true") => Ok(true),
        Some(v) if v.eq_ignore_ascii_case("false") => Ok(false),
        Some(v) => Err(ProtocolError::BadOption(format!(
            "{name} is true or false, not '{}'",
            Excerpt(v)
        ))),
        None => Err(ProtocolError::BadOption(format!(
            "{name} needs a value: true or false"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_control_character_but_tab_is_bad_input() {
        for b in 0u8..128 {
            let line = format!("move e4{}", char::from(b));
            let control = b < 0x20 && b != b'\t' || b == 0x7f;
            assert_eq!(has_control(&line), control, "byte {b:#x}");
        }
        assert!(has_control("é\u{9f}"));
        assert!(has_control("turn\u{85}fen"));
        assert!(!has_control("é\u{a0}"));
        assert!(!has_control("move\u{2003}e4"));
    }
}
