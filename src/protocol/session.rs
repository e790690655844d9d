//! Executing commands against the game. Every command either succeeds or changes
//! nothing: the new state is built aside and swapped in only when it is complete.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::LazyLock;

use crate::color::Color;
use crate::fen::FenError;
use crate::game::{Decision, DrawReason, Game};
use crate::moves::{CastlingMode, Move};
use crate::pgn::reader::Skip;
use crate::pgn::writer::Comment;
use crate::pgn::{self, GameReader, Loaded, Next, Options, Replayer, Tags};
use crate::position::Position;
use crate::query::openings;
use crate::refusal::MoveRef;
use crate::square::Square;

use super::answer::{Answer, Format, MoveDetail, Reply, Standing};
use super::clock::VersionClock;
use super::command::{move_words, Command, Start};
use super::error::{BadInput, ProtocolError};
use super::job::{Job, PerftAnswer};
use super::name::{GameName, NameRef, Version};
use super::offers::{takeback_plies, Offer, OfferKind, OfferStep};
use super::options::{parse_option, OptionValue, DEFAULT_MAX_GAMES};
use super::prefix::Prefixed;
use super::request::Request;
use super::snapshot::{check_against, decision_name, Decided, Saved, Snapshot, StateError};

/// The games, the default one and the named ones, and the options that shape the next
/// game and the answers.
#[derive(Clone, Debug)]
pub struct Session {
    /// The game of every line without `game <name>`: one record like the named ones,
    /// kept apart only so that a line for it looks nothing up.
    default: Record,
    /// The named games. The hasher is std's, seeded per process: the names are chosen
    /// by clients, who must not be able to make lookups collide.
    named: HashMap<GameName, Record>,
    settings: Settings,
    /// Every change of every game takes its version from it.
    clock: VersionClock,
}

/// The options, which are the process's, not a game's.
#[derive(Clone, Copy, Debug)]
struct Settings {
    chess960: bool,
    json: bool,
    /// Perft threads; 0 is one per available core.
    threads: u32,
    max_games: u32,
    /// Safe mode: no command touches a file or runs unbounded work. Once on, it stays.
    safe: bool,
}

/// One game and what the protocol keeps beside it. The game keeps the castling
/// notation it was created in.
#[derive(Clone, Debug, Default)]
struct Record {
    version: Version,
    /// The pending draw offer.
    offer: Option<Offer>,
    /// The pending takeback offer.
    takeback: Option<Offer>,
    game: Game,
    /// The tags, once one is set or a PGN game brings them: most games have none.
    tags: Option<Box<Tags>>,
    /// The comments of a game loaded from PGN (or restored), by the ply they follow, in
    /// order: an undo drops those after the plies it takes back; other changes keep them.
    comments: Vec<Comment>,
}

/// The tags of a game without any: the defaults of the roster.
static NO_TAGS: LazyLock<Tags> = LazyLock::new(Tags::default);

/// What the answer to a line names beside the reply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Address<'a> {
    /// The command after the line's prefixes (the whole line when it has none, or when
    /// they are malformed): its first word names the answer.
    pub text: &'a str,
    /// The named game the line was for.
    pub game: Option<NameRef<'a>>,
    /// The game's version after the command, for a line that named a game or carried
    /// `if`, in JSON mode (none when the game is not open).
    pub version: Option<Version>,
}

impl<'a> Address<'a> {
    /// A line taken whole: no prefix read from it (yet).
    pub fn whole(text: &'a str) -> Address<'a> {
        Address {
            text,
            game: None,
            version: None,
        }
    }
}

/// What a command line leads to: a reply now, or long work whose answer comes later.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Reply(Reply),
    /// Boxed: a job holds a position, and every command's step is moved around.
    Job(Box<Job>),
}

impl Default for Session {
    fn default() -> Session {
        Session {
            default: Record::default(),
            named: HashMap::new(),
            settings: Settings {
                chess960: false,
                json: false,
                threads: 0,
                max_games: DEFAULT_MAX_GAMES,
                safe: false,
            },
            clock: VersionClock::new(),
        }
    }
}

impl Session {
    /// The standard start position, standard castling.
    pub fn new() -> Session {
        Session::default()
    }

    /// A session whose default game starts from `base`, in Chess960 mode or not.
    pub fn from_position(base: Position, chess960: bool) -> Session {
        let mut session = Session::default();
        session.settings.chess960 = chess960;
        session.default.game = Game::new(base, session.settings.mode());
        session
    }

    /// The base position a FEN gives for a new game, in Chess960 or standard chess:
    /// standard chess refuses the castling rights that only Chess960 has.
    pub fn base_from_fen(fen: &str, chess960: bool) -> Result<Position, ProtocolError> {
        base_from_fen(fen, CastlingMode::from_chess960(chess960))
    }

    /// The default game.
    pub fn game(&self) -> &Game {
        &self.default.game
    }

    /// The default game's tags, other than those derived from it.
    pub fn tags(&self) -> &Tags {
        self.default.tags()
    }

    /// A named game, if it is open.
    pub fn named_game(&self, name: &str) -> Option<&Game> {
        let name = GameName::from_bytes(name.as_bytes())?;
        self.named.get(&name).map(|record| &record.game)
    }

    /// The open named games, sorted by name.
    pub fn named_games(&self) -> Vec<(GameName, &Game)> {
        let mut games: Vec<(GameName, &Game)> = self
            .named
            .iter()
            .map(|(name, record)| (*name, &record.game))
            .collect();
        games.sort_unstable_by_key(|&(name, _)| name);
        games
    }

    /// The version of a game (`None`: the default one), if it is open.
    pub fn version(&self, game: Option<GameName>) -> Option<Version> {
        self.record(game.as_ref().map(GameName::name_ref))
            .map(|record| record.version)
    }

    /// The side whose draw offer is pending in a game (`None`: the default one).
    pub fn offer(&self, game: Option<GameName>) -> Option<Color> {
        self.record(game.as_ref().map(GameName::name_ref))
            .and_then(|record| record.offer.map(|offer| offer.by))
    }

    /// The side whose takeback offer is pending in a game (`None`: the default one).
    pub fn takeback(&self, game: Option<GameName>) -> Option<Color> {
        self.record(game.as_ref().map(GameName::name_ref))
            .and_then(|record| record.takeback.map(|offer| offer.by))
    }

    pub fn is_chess960(&self) -> bool {
        self.settings.chess960
    }

    /// How answers are written now.
    pub fn format(&self) -> Format {
        if self.settings.json {
            Format::Json
        } else {
            Format::Text
        }
    }

    pub fn set_format(&mut self, format: Format) {
        self.settings.json = format == Format::Json;
    }

    /// Safe mode, for a server: `position pgn`, `pgn save`, `go perft` and `perft` are
    /// refused with `not-allowed`. It cannot be turned off again.
    pub fn set_safe(&mut self) {
        self.settings.safe = true;
    }

    /// The threads a perft uses now.
    pub fn perft_threads(&self) -> usize {
        self.settings.perft_threads()
    }

    /// Runs one command line to its reply, long work included (it cannot be stopped
    /// here); an `@<id>` prefix is ignored. A control character before the command (in
    /// the id or the blanks around it) refuses the line, as the stream refuses it.
    pub fn execute(&mut self, line: &str) -> Reply {
        let request = Request::split(line);
        if head_has_control(line, &request) {
            return Reply::Error(ProtocolError::BadInput(BadInput::Control));
        }
        match self.step(request.text) {
            Step::Reply(reply) => reply,
            Step::Job(job) => Reply::Answer(job.run(&AtomicBool::new(false))),
        }
    }

    /// Runs one command (a line without its id), except long work, which it hands back.
    pub fn step(&mut self, text: &str) -> Step {
        self.step_addressed(text).0
    }

    /// `step`, with what the answer names beside the reply: the game and its version.
    pub fn step_addressed<'a>(&mut self, text: &'a str) -> (Step, Address<'a>) {
        let mut address = Address::whole(text);
        // Control characters (NUL above all) would otherwise be echoed back inside
        // error messages; tab is a separator.
        if has_control(text) {
            return (error(ProtocolError::BadInput(BadInput::Control)), address);
        }
        let prefixed = match Prefixed::split(text) {
            Ok(prefixed) => prefixed,
            Err(e) => return (error(e.into()), address),
        };
        address.text = prefixed.text;
        address.game = prefixed.game;
        let (step, version) = self.step_prefixed(&prefixed);
        // Only JSON answers give the version.
        if prefixed.is_addressed() && self.settings.json {
            address.version = version;
        }
        (step, address)
    }

    /// Runs a line's command on its game. With the version of that game after the line
    /// (none when it is not open), which JSON answers to lines with a prefix give.
    fn step_prefixed(&mut self, prefixed: &Prefixed<'_>) -> (Step, Option<Version>) {
        let command = match Command::parse(prefixed.text) {
            Ok(Some(command)) => command,
            Ok(None) if prefixed.is_addressed() => {
                return self.refused(
                    prefixed,
                    ProtocolError::BadArgument(
                        "game <name> and if <version> come before a command".to_string(),
                    ),
                )
            }
            Ok(None) => return (Step::Reply(Reply::Silent), None),
            Err(e) => return self.refused(prefixed, e),
        };
        // Checked before the game is looked up: the line is wrong whatever the game.
        if let Some(keyword) = command.process_wide().filter(|_| prefixed.is_addressed()) {
            return self.refused(prefixed, ProtocolError::ProcessWide(keyword));
        }
        if let Some(keyword) = command.unsafe_keyword().filter(|_| self.settings.safe) {
            return self.refused(prefixed, ProtocolError::NotAllowed(keyword));
        }
        let found = match prefixed.game {
            None => Ok(&mut self.default),
            Some(name) => self.named.get_mut(&name.to_name()).ok_or(name),
        };
        let settings = self.settings;
        let record = match found {
            Ok(record) => record,
            Err(name)
                if prefixed.expected.is_none()
                    && matches!(
                        command,
                        Command::UciNewGame | Command::Position { .. } | Command::Restore(_)
                    ) =>
            {
                return open_game(
                    &mut self.named,
                    name.to_name(),
                    &mut self.settings,
                    &mut self.clock,
                    command,
                );
            }
            Err(name) => return (error(ProtocolError::UnknownGame(name.to_name())), None),
        };
        let version = Some(record.version);
        if let Some(expected) = prefixed.expected {
            if expected != record.version {
                let stale = ProtocolError::StaleVersion {
                    expected,
                    current: record.version,
                };
                return (error(stale), version);
            }
        }
        let reply = match command {
            Command::Quit => Reply::Quit,
            Command::GoPerft(depth) => {
                let job = record.perft_job(&settings, PerftAnswer::Divide, depth);
                return (Step::Job(Box::new(job)), version);
            }
            Command::Perft(depth) => {
                let job = record.perft_job(&settings, PerftAnswer::Total, depth);
                return (Step::Job(Box::new(job)), version);
            }
            Command::Games => return (Step::Reply(self.games()), version),
            Command::Close => {
                let reply = self.close(prefixed.game);
                // A named game closed has no version; the default game stays.
                let version = version.filter(|_| prefixed.game.is_none());
                return (Step::Reply(reply), version);
            }
            command => match record.run(&mut self.settings, &mut self.clock, command) {
                Ok(Some(answer)) => Reply::Answer(answer),
                Ok(None) => Reply::Silent,
                Err(error) => Reply::Error(error),
            },
        };
        (Step::Reply(reply), Some(record.version))
    }

    /// A line refused before its game was looked up, with the game's version.
    fn refused(&self, prefixed: &Prefixed<'_>, e: ProtocolError) -> (Step, Option<Version>) {
        let version = self.record(prefixed.game).map(|record| record.version);
        (error(e), version)
    }

    fn games(&self) -> Reply {
        Reply::Answer(Answer::Games(
            self.named_games()
                .into_iter()
                .map(|(name, _)| name)
                .collect(),
        ))
    }

    /// `close`: the game's record is dropped, its memory free for the process to reuse.
    fn close(&mut self, game: Option<NameRef<'_>>) -> Reply {
        match game {
            Some(name) => {
                self.named.remove(&name.to_name());
                Reply::Silent
            }
            None => Reply::Error(ProtocolError::CloseDefault),
        }
    }

    fn record(&self, game: Option<NameRef<'_>>) -> Option<&Record> {
        match game {
            None => Some(&self.default),
            Some(name) => self.named.get(&name.to_name()),
        }
    }
}

/// Opens a named game, `open` games being open, with the command that creates it.
fn open_game(
    named: &mut HashMap<GameName, Record>,
    name: GameName,
    settings: &mut Settings,
    clock: &mut VersionClock,
    command: Command<'_>,
) -> (Step, Option<Version>) {
    let max_games = settings.max_games;
    if named.len() >= max_games as usize {
        return (error(ProtocolError::TooManyGames(max_games)), None);
    }
    // Built aside: a refused position opens nothing.
    let mut record = Record::default();
    match record.run(settings, clock, command) {
        Ok(_) => {
            let version = record.version;
            named.insert(name, record);
            (Step::Reply(Reply::Silent), Some(version))
        }
        Err(e) => (error(e), None),
    }
}

fn error(error: ProtocolError) -> Step {
    Step::Reply(Reply::Error(error))
}

impl Settings {
    /// The castling notation of the next game.
    fn mode(&self) -> CastlingMode {
        CastlingMode::from_chess960(self.chess960)
    }

    fn perft_threads(&self) -> usize {
        match self.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n as usize,
        }
    }
}

impl Record {
    fn perft_job(&self, settings: &Settings, answer: PerftAnswer, depth: u32) -> Job {
        Job {
            answer,
            position: *self.game.position(),
            depth,
            mode: self.game.mode(),
            threads: settings.perft_threads(),
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

    /// The game in PGN export format.
    fn pgn(&self) -> String {
        let mut text = String::with_capacity(1024);
        pgn::writer::write_commented_game(&mut text, self.tags(), &self.game, &self.comments);
        text
    }

    fn tags(&self) -> &Tags {
        self.tags.as_deref().unwrap_or(&NO_TAGS)
    }

    fn tags_mut(&mut self) -> &mut Tags {
        self.tags.get_or_insert_with(Box::default)
    }

    /// The status, with the pending offers.
    fn standing(&self) -> Standing {
        Standing {
            status: self.game.status(),
            offer: self.offer.map(|offer| offer.by),
            takeback: self.takeback.map(|offer| offer.by),
        }
    }

    /// Starts the record afresh with a new game: no offers, no tags, and a version the
    /// clock has never handed out (so none a client can have seen for this name).
    fn replace(
        &mut self,
        clock: &mut VersionClock,
        game: Game,
        tags: Option<Tags>,
        comments: Vec<Comment>,
    ) {
        self.game = game;
        self.tags = tags.map(Box::new);
        self.comments = comments;
        self.offer = None;
        self.takeback = None;
        self.version = clock.next();
    }

    /// A result the players or the clock decided: the offers go, and it is one change.
    fn decided(&mut self, clock: &mut VersionClock) -> Answer {
        self.offer = None;
        self.takeback = None;
        self.version = clock.next();
        Answer::Status(self.standing())
    }

    /// The pending offer of a kind.
    fn offer_mut(&mut self, kind: OfferKind) -> &mut Option<Offer> {
        match kind {
            OfferKind::Draw => &mut self.offer,
            OfferKind::Takeback => &mut self.takeback,
        }
    }

    /// Keeps the offers that still stand with the game back at its current ply,
    /// and the comments that still follow a ply of the game.
    fn offers_after_undo(&mut self) {
        let plies = self.game.moves().len();
        self.comments.retain(|comment| comment.ply <= plies);
        for kind in [OfferKind::Draw, OfferKind::Takeback] {
            let offer = self.offer_mut(kind);
            *offer = offer.filter(|offer| offer.survives_undo(plies));
        }
    }

    /// Plays a legal move: an offer made to the mover is withdrawn by it, and one that
    /// the move ends the game under goes too.
    fn play(&mut self, clock: &mut VersionClock, pos: &Position, m: Move) -> Answer {
        // Played first: the game works out the position after the move anyway.
        self.game.play(m);
        let over = self.game.status().is_over();
        let mover = pos.turn();
        for kind in [OfferKind::Draw, OfferKind::Takeback] {
            let offer = self.offer_mut(kind);
            *offer = offer.filter(|offer| offer.survives_move(mover, over));
        }
        self.version = clock.next();
        let detail = self.detail(pos, m, self.game.position(), true);
        Answer::Played(Box::new(detail), self.standing())
    }

    /// Runs a command on this game. The commands that set a game or the options up
    /// come first, and answer nothing; then those that act on the game (`act`), then
    /// the questions (`ask`).
    fn run(
        &mut self,
        settings: &mut Settings,
        clock: &mut VersionClock,
        command: Command<'_>,
    ) -> Result<Option<Answer>, ProtocolError> {
        match command {
            Command::UciNewGame => {
                let game = Game::new(Position::startpos(), settings.mode());
                self.replace(clock, game, None, Vec::new());
            }
            Command::SetOption { name, value } => match parse_option(&name, value.as_deref())? {
                OptionValue::Chess960(on) => settings.chess960 = on,
                OptionValue::Threads(n) => settings.threads = n,
                OptionValue::Json(on) => settings.json = on,
                OptionValue::MaxGames(n) => settings.max_games = n,
                OptionValue::Safe(true) => settings.safe = true,
                OptionValue::Safe(false) if settings.safe => {
                    return Err(ProtocolError::NotAllowed("setoption name Safe value false"))
                }
                OptionValue::Safe(false) => {}
            },
            Command::Position {
                start: Start::Pgn { path, game },
                ..
            } => {
                let mut loaded = load_pgn(settings, &path, game)?;
                loaded.read_termination();
                self.replace(clock, loaded.game, Some(loaded.tags), loaded.comments);
            }
            Command::Position {
                start,
                chess960,
                moves,
            } => {
                let mode = CastlingMode::from_chess960(chess960 || settings.chess960);
                let game = replay(settings, mode, start, moves)?;
                self.replace(clock, game, None, Vec::new());
            }
            Command::Tag { name, value } => {
                let done = match value {
                    Some(value) => self.tags_mut().set(name, value),
                    None => self.tags_mut().remove(name),
                };
                done.map_err(|e| ProtocolError::BadArgument(e.to_string()))?;
                self.version = clock.next();
            }
            Command::Restore(text) => {
                // Built aside: a bad object changes nothing, the version included.
                let record = Record::restored(text)?;
                if !clock.adopt(record.version) {
                    return Err(ProtocolError::BadState(StateError::VersionTooHigh(
                        record.version,
                    )));
                }
                *self = record;
            }
            Command::PgnSave(path) => {
                let unwritable = |e: std::io::Error| ProtocolError::UnwritableFile {
                    path: path.to_string(),
                    reason: e.to_string(),
                };
                let mut file = super::files::open_write(path)
                    .map_err(|e| e.into_protocol(path, unwritable))?;
                std::io::Write::write_all(&mut file, self.pgn().as_bytes()).map_err(unwritable)?;
            }
            command => return self.act(settings, clock, command),
        }
        Ok(None)
    }

    /// The commands that play on the game or decide its result: each is one change.
    fn act(
        &mut self,
        settings: &Settings,
        clock: &mut VersionClock,
        command: Command<'_>,
    ) -> Result<Option<Answer>, ProtocolError> {
        let pos = *self.game.position();
        let mode = self.game.mode();
        let answer = match command {
            Command::Move(text) => {
                let m = self
                    .game
                    .parse_move(text)
                    .map_err(|e| ProtocolError::from_move(e, at(text, None), mode))?;
                self.play(clock, &pos, m)
            }
            Command::MoveAs(text, seat) => {
                // A game over says so whoever asks.
                if seat != pos.turn() && !self.game.status().is_over() {
                    return Err(ProtocolError::NotYourSeat(at(text, None), seat));
                }
                let m = self
                    .game
                    .parse_move(text)
                    .map_err(|e| ProtocolError::from_move(e, at(text, None), mode))?;
                self.play(clock, &pos, m)
            }
            Command::Undo => {
                if self.game.is_final() {
                    return Err(ProtocolError::ResultFinal(self.game.status()));
                }
                let m = self.game.undo().ok_or(ProtocolError::NothingToUndo)?;
                self.offers_after_undo();
                self.version = clock.next();
                Answer::Undone(self.uci(m))
            }
            Command::Resign(color) => {
                self.refuse_if_over()?;
                self.game.resign(color.unwrap_or(pos.turn()));
                self.decided(clock)
            }
            Command::Draw => {
                self.refuse_if_over()?;
                self.game.agree_draw();
                self.decided(clock)
            }
            Command::Offer(step, side) => {
                self.refuse_if_over()?;
                match step {
                    OfferStep::Offer => self.offer_step(clock, OfferKind::Draw, side)?,
                    OfferStep::Accept => {
                        self.pending(OfferKind::Draw, side)?;
                        self.game.agree_draw();
                        self.decided(clock)
                    }
                    OfferStep::Decline => self.decline(clock, OfferKind::Draw, side)?,
                }
            }
            Command::Takeback(step, side) => {
                self.refuse_if_over()?;
                match step {
                    OfferStep::Offer => {
                        let plies = self.game.moves().len();
                        takeback_plies(side, pos.turn(), plies)
                            .ok_or(ProtocolError::NoMoveToTakeBack(side))?;
                        self.offer_step(clock, OfferKind::Takeback, side)?
                    }
                    OfferStep::Accept => {
                        let by = self.pending(OfferKind::Takeback, side)?;
                        self.take_back(clock, by, pos.turn())?
                    }
                    OfferStep::Decline => self.decline(clock, OfferKind::Takeback, side)?,
                }
            }
            Command::Timeout(side) => {
                self.refuse_if_over()?;
                self.game.flag_fell(side);
                self.decided(clock)
            }
            Command::Abort => {
                self.refuse_if_over()?;
                self.game.abort();
                self.decided(clock)
            }
            Command::Claim => {
                self.refuse_if_over()?;
                self.game.claim().ok_or(ProtocolError::NoClaim)?;
                self.decided(clock)
            }
            command => return self.ask(settings, command),
        };
        Ok(Some(answer))
    }

    /// The questions about the game, which change nothing.
    fn ask(
        &self,
        settings: &Settings,
        command: Command<'_>,
    ) -> Result<Option<Answer>, ProtocolError> {
        let pos = *self.game.position();
        let mode = self.game.mode();
        let answer = match command {
            Command::Uci => Answer::Uci,
            Command::IsReady => Answer::ReadyOk,
            Command::Pgn => Answer::Pgn(self.pgn()),
            Command::Display => Answer::Board(Box::new(pos)),
            // Long work is handed back by `step`; run here, it would not be stoppable.
            Command::GoPerft(depth) => self
                .perft_job(settings, PerftAnswer::Divide, depth)
                .run(&AtomicBool::new(false)),
            Command::Perft(depth) => self
                .perft_job(settings, PerftAnswer::Total, depth)
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
            Command::Status => Answer::Status(self.standing()),
            Command::Opening => Answer::Opening(openings::classify(&self.game)),
            Command::History => Answer::History(self.game.moves().map(|m| self.uci(m)).collect()),
            Command::San(text) => {
                let m = pos
                    .parse_move(text, mode)
                    .map_err(|e| ProtocolError::from_move(e, at(text, None), mode))?;
                Answer::San(pos.san(m))
            }
            Command::Version => Answer::Version(self.version),
            Command::State => Answer::State(Box::new(self.snapshot())),
            Command::Help => Answer::Help,
            Command::HelpOn(topic) => Answer::HelpOn(topic),
            // Taken by `run` and `act` before.
            Command::UciNewGame
            | Command::SetOption { .. }
            | Command::Position { .. }
            | Command::Tag { .. }
            | Command::PgnSave(_)
            | Command::Restore(_)
            | Command::Move(_)
            | Command::MoveAs(..)
            | Command::Undo
            | Command::Resign(_)
            | Command::Draw
            | Command::Offer(..)
            | Command::Takeback(..)
            | Command::Timeout(_)
            | Command::Abort
            | Command::Claim => return Ok(None),
            // Handled by the session, which holds every game.
            Command::Games | Command::Close => return Ok(None),
            // Nothing runs while a command is being executed: a stop has nothing to end.
            Command::Stop | Command::Quit => return Ok(None),
        };
        Ok(Some(answer))
    }

    /// The game whole, as `state` answers it.
    fn snapshot(&self) -> Snapshot {
        let game = &self.game;
        let mode = game.mode();
        let plies = game.moves().len();
        let mut moves = Vec::with_capacity(plies);
        let mut san = Vec::with_capacity(plies);
        let mut pos = *game.base();
        for m in game.moves() {
            moves.push(m.to_uci(mode).to_string());
            san.push(pos.san(m));
            pos.play_unchecked(m);
        }
        let status = game.status();
        let tags = self.tags();
        let tag_list = tags
            .roster()
            .zip(NO_TAGS.roster())
            .filter(|(tag, unknown)| tag.1 != unknown.1)
            .map(|(tag, _)| tag)
            .chain(tags.others())
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect();
        // As `pgn` writes it: the game's own tag, else the one its ending gives.
        let termination = tags
            .get(pgn::writer::TERMINATION)
            .or_else(|| pgn::writer::termination_of(&status))
            .map(str::to_string);
        Snapshot {
            version: self.version,
            start: game.base().fen(),
            chess960: mode.is_chess960(),
            moves,
            san,
            fen: game.position().fen(),
            turn: game.position().turn(),
            status,
            dests: self.dests(),
            tags: tag_list,
            offers: [self.offer, self.takeback],
            result: pgn::writer::outcome_of(&status).token(),
            decision: decision_name(game),
            termination,
            comments: self.comments.clone(),
        }
    }

    /// The record `restore` makes of an object: checked whole before anything changes.
    /// The moves are read as a PGN record's are (UCI or SAN), so that a game loaded
    /// from PGN that went on past an automatic draw comes back as it was.
    fn restored(text: &str) -> Result<Record, ProtocolError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ProtocolError::BadJson(e.to_string()))?;
        let saved = Saved::from_value(value).map_err(ProtocolError::BadState)?;
        let decided = saved.decided().map_err(ProtocolError::BadState)?;
        let mode = CastlingMode::from_chess960(saved.chess960);
        let base = base_from_fen(&saved.start, mode)?;
        let mut game = Game::new(base, mode);
        game.reserve(saved.moves.len());
        for (index, text) in saved.moves.iter().enumerate() {
            let m = game
                .parse_recorded(text.as_bytes())
                .map_err(|e| ProtocolError::from_move(e, at(text, Some(index + 1)), mode))?;
            game.play(m);
        }
        if let Some(decided) = decided {
            decide(&mut game, decided, &saved).map_err(ProtocolError::BadState)?;
        }
        let ended = decision_name(&game);
        if ended != saved.decision.as_deref() {
            return Err(ProtocolError::BadState(StateError::Decision(format!(
                "the decision is {}, but the moves give {}",
                saved.decision.as_deref().unwrap_or("null"),
                ended.unwrap_or("null (the game goes on)")
            ))));
        }
        check_against(&saved, &game).map_err(ProtocolError::BadState)?;
        let mut tags = Tags::default();
        for (name, value) in &saved.tags {
            tags.set(name, value)
                .map_err(|e| ProtocolError::BadState(StateError::Tag(e)))?;
        }
        Ok(Record {
            version: saved.version,
            offer: saved.offers[0],
            takeback: saved.offers[1],
            game,
            tags: (!saved.tags.is_empty()).then(|| Box::new(tags)),
            comments: saved.comments,
        })
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

    /// `side` makes an offer of `kind`: refused while one of that kind is pending.
    fn offer_step(
        &mut self,
        clock: &mut VersionClock,
        kind: OfferKind,
        side: Color,
    ) -> Result<Answer, ProtocolError> {
        let ply = self.game.moves().len();
        let offer = self.offer_mut(kind);
        if let Some(pending) = offer {
            return Err(ProtocolError::OfferPending(kind, pending.by));
        }
        *offer = Some(Offer { by: side, ply });
        self.version = clock.next();
        Ok(self.standing_answer())
    }

    /// The side that made the pending offer of `kind` that `side` answers: refused
    /// when the other side has made none.
    fn pending(&self, kind: OfferKind, side: Color) -> Result<Color, ProtocolError> {
        let offer = match kind {
            OfferKind::Draw => self.offer,
            OfferKind::Takeback => self.takeback,
        };
        match offer {
            Some(offer) if offer.by != side => Ok(offer.by),
            _ => Err(ProtocolError::NoOffer(kind, side.other())),
        }
    }

    /// `side` declines the other side's pending offer of `kind`.
    fn decline(
        &mut self,
        clock: &mut VersionClock,
        kind: OfferKind,
        side: Color,
    ) -> Result<Answer, ProtocolError> {
        self.pending(kind, side)?;
        *self.offer_mut(kind) = None;
        self.version = clock.next();
        Ok(self.standing_answer())
    }

    /// An accepted takeback by `by` with `turn` to move: the proposer's last move, and
    /// the reply to it when there is one, taken back as one change.
    fn take_back(
        &mut self,
        clock: &mut VersionClock,
        by: Color,
        turn: Color,
    ) -> Result<Answer, ProtocolError> {
        let count = takeback_plies(by, turn, self.game.moves().len())
            .ok_or(ProtocolError::NoMoveToTakeBack(by))?;
        let mut undone = Vec::with_capacity(count);
        for _ in 0..count {
            if let Some(m) = self.game.undo() {
                undone.push(self.uci(m));
            }
        }
        self.takeback = None;
        self.offers_after_undo();
        self.version = clock.next();
        Ok(Answer::TakenBack(undone))
    }

    fn standing_answer(&self) -> Answer {
        Answer::Status(self.standing())
    }

    fn refuse_if_over(&self) -> Result<(), ProtocolError> {
        let status = self.game.status();
        if status.is_over() {
            return Err(ProtocolError::GameOver(status));
        }
        Ok(())
    }
}

/// Gives a restored game the decision the players or the clock made, refusing one the
/// game does not allow: none once the board has ended it, a claim the position does not
/// allow, a loss on time against a side the winner cannot mate.
fn decide(game: &mut Game, decided: Decided, saved: &Saved) -> Result<(), StateError> {
    let status = game.status();
    if status.is_over() {
        return Err(StateError::Decision(format!(
            "the moves already end the game ({status})"
        )));
    }
    let claims = game.claims_on_board();
    let refused = |why: &str| Err(StateError::Decision(why.to_string()));
    match decided {
        Decided::Resignation => game.resign(saved.winner()?.other()),
        Decided::Timeout => {
            let winner = saved.winner()?;
            if game.flag_fell(winner.other()) != (Decision::Timeout { winner }) {
                return refused("a loss on time against a side the winner cannot mate is a draw (timeout-vs-insufficient-material)");
            }
        }
        Decided::Abort => game.abort(),
        Decided::Drawn(DrawReason::Threefold) if !claims.threefold => {
            return refused("threefold repetition cannot be claimed in the final position")
        }
        Decided::Drawn(DrawReason::FiftyMove) if !claims.fifty_move => {
            return refused("the fifty-move rule cannot be claimed in the final position")
        }
        Decided::Drawn(DrawReason::TimeoutVsInsufficientMaterial)
            if !Color::ALL
                .iter()
                .any(|&side| game.position().has_insufficient_material(side)) =>
        {
            return refused("both sides can mate: a flag fall loses")
        }
        Decided::Drawn(reason) => game.decide(Decision::Drawn(reason)),
    }
    Ok(())
}

/// Game `number` of a PGN file, replayed with the full rules.
fn load_pgn(settings: &Settings, path: &str, number: usize) -> Result<Loaded, ProtocolError> {
    let unreadable = |e: std::io::Error| ProtocolError::UnreadableFile {
        path: path.to_string(),
        reason: e.to_string(),
    };
    let file = super::files::open_read(path).map_err(|e| e.into_protocol(path, unreadable))?;
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
        chess960: settings.chess960,
        comments: true,
        ..Options::default()
    });
    if reader.next_game(&mut replayer).map_err(unreadable)? == Next::End {
        return Err(ProtocolError::NoSuchGame {
            path: path.to_string(),
            wanted: number,
            found: number - 1,
        });
    }
    replayer
        .load()
        .map_err(|e| ProtocolError::InGame(number, e))
}

/// The game of `mode` a `position` command describes, built aside so that a bad FEN or move
/// leaves the current game as it was.
fn replay(
    settings: &Settings,
    mode: CastlingMode,
    start: Start,
    moves: &str,
) -> Result<Game, ProtocolError> {
    let base = match start {
        Start::StartPos => Position::startpos(),
        Start::Fen(fen) => base_from_fen(&fen, mode)?,
        Start::Pgn { path, game } => return Ok(load_pgn(settings, &path, game)?.game),
    };
    let mut game = Game::new(base, mode);
    // A move's text and its blank take four bytes at the least in UCI, three in SAN.
    game.reserve(moves.len() / 4 + 1);
    // Replayed lean: no legal-move list or status after each move, only what undo and
    // the repetition count keep; the status of the last position comes back at the end.
    game.set_lean(true);
    for (index, (text, uci)) in move_words(moves).enumerate() {
        let played = match uci {
            Ok(uci) => game.play_uci(uci, text),
            Err(_) => game.parse_san(text.as_bytes()).map(|m| game.play(m)),
        };
        played.map_err(|e| ProtocolError::from_move(e, at(text, Some(index + 1)), mode))?;
    }
    game.set_lean(false);
    Ok(game)
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
#[inline]
pub(crate) fn has_control(line: &str) -> bool {
    // Every command line is checked, and a named game's line is twice as long as the
    // default game's: printable ASCII is recognised 8 bytes at a time, as in PGN text.
    // Anything else (a tab, a byte above 0x7e) goes on to the exact test by characters.
    let plain = crate::scan::all_printable(line.as_bytes());
    if plain {
        return false;
    }
    line.chars().any(|c| c.is_control() && c != '\t')
}

/// Whether the part of `line` before its request's command text (the blanks, `@` and
/// the id) holds a control character: `step` checks the command text itself. Blanks
/// are read as Unicode reads them, so a form feed before `@` is found here.
pub(crate) fn head_has_control(line: &str, request: &Request<'_>) -> bool {
    line.len()
        .checked_sub(request.text.len())
        .and_then(|head| line.get(..head))
        .is_some_and(has_control)
}

fn at(text: &str, ply: Option<usize>) -> MoveRef {
    MoveRef {
        text: text.to_string(),
        ply,
        variation: false,
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

    /// `execute` refuses a line with a control character in its id or before it, as
    /// the stream does, and changes nothing: the id is not the command's, but it is the
    /// line's.
    #[test]
    fn a_control_character_in_or_before_the_id_refuses_the_line() {
        let mut session = Session::new();
        for line in [
            "@7\u{1d} game g1 position startpos",
            "\u{c}@7 game g1 position startpos",
        ] {
            let reply = session.execute(line);
            assert!(
                matches!(
                    reply,
                    Reply::Error(ProtocolError::BadInput(BadInput::Control))
                ),
                "{line:?}: {reply:?}"
            );
            assert!(session.named_games().is_empty(), "{line:?}");
        }
        assert_eq!(
            session.execute("@7 game g1 position startpos"),
            Reply::Silent
        );
        assert_eq!(session.named_games().len(), 1);
    }

    /// The bytes are read a word at a time, the last word overlapping: a control
    /// character is found at every place of lines of every length around a word's.
    #[test]
    fn a_control_character_is_found_wherever_it_stands() {
        for len in 1..=25 {
            for place in 0..len {
                for b in 0u8..128 {
                    let mut line = vec![b'a'; len];
                    line[place] = b;
                    let line = String::from_utf8(line).unwrap();
                    let control = b < 0x20 && b != b'\t' || b == 0x7f;
                    assert_eq!(has_control(&line), control, "{line:?}");
                }
                let line: String = (0..len)
                    .map(|i| if i == place { '\u{85}' } else { 'a' })
                    .collect();
                assert!(has_control(&line), "{line:?}");
                let line: String = (0..len)
                    .map(|i| if i == place { 'é' } else { 'a' })
                    .collect();
                assert!(!has_control(&line), "{line:?}");
            }
        }
    }
}
