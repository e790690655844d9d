//! Replaying a PGN game with the full rules: the visitor that turns the reader's events
//! into a `Game` (its main line, every draw rule, its result) and checks every move of
//! every variation too.

use std::fmt;

use crate::fen::{FenError, PositionError};
use crate::game::{Decision, DrawReason, DrawnAt, Game, MoveError, State, Status};
use crate::moves::CastlingMode;
use crate::position::Position;

use super::edit::{strip_clocks, Repair, Strip};
use super::reader::{unescape, Outcome, SyntaxError, Visitor};
use super::tags::{decode, first_control, Tags};
use super::writer::{
    outcome_of, termination_of, Comment, Movetext, CLAIMED_FIFTY_MOVE, CLAIMED_THREEFOLD,
    TERMINATION,
};
use crate::excerpt::Excerpt;
use crate::query::Selector;
use crate::refusal::{MoveRef, Refusal};

/// Why the result of a game cannot stand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResultError {
    /// The final position says otherwise: `1-0` when white is mated, a decisive result
    /// after stalemate or an automatic draw.
    Contradicted { outcome: Outcome, status: Status },
    /// A decisive result after an automatic draw that the moves went on past: the game
    /// ended at that ply, whatever the later moves did.
    DrawnEarlier { outcome: Outcome, drawn: DrawnAt },
    /// The `Result` tag and the result token disagree (only when asked to check).
    TagMismatch { tag: String, token: Outcome },
}

impl fmt::Display for ResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResultError::Contradicted { outcome, status } => {
                write!(
                    f,
                    "the result {outcome} contradicts the final position ({status})"
                )
            }
            ResultError::DrawnEarlier { outcome, drawn } => write!(
                f,
                "the result {outcome} contradicts the draw by {} at ply {}",
                drawn.reason.name(),
                drawn.ply
            ),
            ResultError::TagMismatch { tag, token } => write!(
                f,
                "the Result tag says {tag} but the movetext ends with {token}"
            ),
        }
    }
}

/// Why a game in a PGN file cannot be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    Syntax(SyntaxError),
    /// The `FEN` tag is not a legal position (for the game's variant).
    Fen(FenError),
    /// `SetUp "1"` without a `FEN` tag.
    MissingFen,
    /// A `Variant` other than standard chess or Chess960.
    Variant(String),
    /// A move that cannot be played (a null move among them: `--` or `Z0` in the main
    /// line, or in a variation where the side to move is in check), with its ply
    /// counted from 1 and its text, and why.
    Move(MoveRef, Refusal),
    /// A variation where no move stands before it to be replaced.
    VariationFirst {
        ply: usize,
    },
    Result(ResultError),
}

impl GameError {
    /// The stable code, as the protocol answers it.
    pub const fn code(&self) -> &'static str {
        match self {
            GameError::Syntax(SyntaxError::TooLong(_)) => "game-too-long",
            GameError::Syntax(_) | GameError::VariationFirst { .. } => "pgn-syntax",
            GameError::Fen(_) | GameError::MissingFen => "bad-fen",
            GameError::Variant(_) => "bad-variant",
            GameError::Move(_, why) => why.code(),
            GameError::Result(_) => "bad-result",
        }
    }

    /// The ply the error is about, when it names one.
    pub fn ply(&self) -> Option<usize> {
        match self {
            GameError::Move(at, _) => at.ply,
            GameError::VariationFirst { ply } => Some(*ply),
            _ => None,
        }
    }

    /// The move the error is about, when it names one.
    pub fn move_ref(&self) -> Option<&MoveRef> {
        match self {
            GameError::Move(at, _) => Some(at),
            _ => None,
        }
    }

    /// The message without the move or ply it names: what follows `ply 5 (Ke3): `.
    pub fn reason(&self) -> GameReason<'_> {
        GameReason(self)
    }
}

/// The whole message: `ply 5 (Ke3): ` and the reason for an error at a ply.
impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Move(at, why) => write!(f, "{at}: {why}"),
            GameError::VariationFirst { ply } => write!(f, "ply {ply}: {}", self.reason()),
            _ => self.reason().fmt(f),
        }
    }
}

/// A game error's message without the move or ply it names (`GameError::reason`); for
/// an error that names none, the whole message.
pub struct GameReason<'a>(&'a GameError);

impl fmt::Display for GameReason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            GameError::Syntax(why) => write!(f, "{why}"),
            GameError::Fen(why @ FenError::Position(PositionError::Chess960Castling { .. })) => {
                write!(
                    f,
                    "the FEN tag: {why}; a Chess960 game needs the tag [Variant \"Chess960\"]"
                )
            }
            GameError::Fen(why) => write!(f, "the FEN tag: {why}"),
            GameError::MissingFen => f.write_str("the SetUp tag is 1 but there is no FEN tag"),
            GameError::Variant(variant) => write!(
                f,
                "variant '{}' is not played here (only standard chess and Chess960)",
                Excerpt(variant)
            ),
            GameError::Move(_, why) => write!(f, "{why}"),
            GameError::VariationFirst { .. } => {
                f.write_str("a variation stands before any move it could replace")
            }
            GameError::Result(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for GameError {}

/// How strictly results are checked, and what is kept of the movetext.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Start every game in Chess960 even without a `Variant` tag.
    pub chess960: bool,
    /// Refuse a `Result` tag that the result token contradicts (else the token wins).
    pub strict_result_tag: bool,
    /// Rewrite the movetext (canonical SAN, comments, NAGs, variations) in export format.
    pub record: bool,
    /// Skip the tags other than those that shape the game (`FEN`, `SetUp`, `Variant`,
    /// `Result`): checking a database needs no others.
    pub skip_tags: bool,
    /// Replay with a lean `Game` (no list of legal moves kept): for databases, whose
    /// games are only checked or converted.
    pub lean: bool,
    /// Keep the comments of the main line, each with the ply it follows (`position
    /// pgn`, whose game writes them back).
    pub comments: bool,
    /// What the recorded movetext leaves out (`--strip`).
    pub strip: Strip,
    /// A result the final position contradicts, or `*` on a game the moves end, is
    /// rewritten to the one the position makes (and the repair noted) instead of
    /// refused.
    pub fix_results: bool,
}

/// A game as a PGN file gives it.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub tags: Tags,
    /// The main line, with its result settled.
    pub game: Game,
    /// The movetext in export format, when recording.
    pub movetext: String,
    /// The comments of the main line in the order read, when keeping them.
    pub comments: Vec<Comment>,
}

impl Loaded {
    /// Reads the game's `Termination` tag into its result: `time forfeit` turns a
    /// decisive result the board does not make into a loss on time and a draw by
    /// agreement into a flag fall against a side that cannot mate, `abandoned` on a
    /// game without a result aborts it, and `threefold repetition` or `fifty-move rule`
    /// on a draw makes the agreement that claim when the final position allows it. The
    /// tag is then dropped when it says what
    /// arbiter writes for the game anyway, so that it is not held twice; any other
    /// value stays, the record's own word.
    pub fn read_termination(&mut self) {
        let Some(value) = self.tags.get(TERMINATION) else {
            return;
        };
        let value = value.trim().to_ascii_lowercase();
        match (value.as_str(), self.game.decision()) {
            ("time forfeit", Some(Decision::Resigned { winner })) => {
                self.game.decide(Decision::Timeout { winner });
            }
            ("time forfeit", Some(Decision::Drawn(DrawReason::Agreement))) => {
                self.game
                    .decide(Decision::Drawn(DrawReason::TimeoutVsInsufficientMaterial));
            }
            ("abandoned", None) if !self.game.status().is_over() => self.game.abort(),
            // A claim reads back as the claim when the final position allows it.
            (CLAIMED_THREEFOLD, Some(Decision::Drawn(DrawReason::Agreement)))
                if self.game.claims_on_board().threefold =>
            {
                self.game.decide(Decision::Drawn(DrawReason::Threefold));
            }
            (CLAIMED_FIFTY_MOVE, Some(Decision::Drawn(DrawReason::Agreement)))
                if self.game.claims_on_board().fifty_move =>
            {
                self.game.decide(Decision::Drawn(DrawReason::FiftyMove));
            }
            _ => {}
        }
        if termination_of(&self.game.status()) == Some(value.as_str()) {
            self.tags.drop_other(TERMINATION);
        }
    }
}

/// One open variation: where it stands and what its last move was played from.
#[derive(Clone, Copy, Debug)]
struct Frame {
    position: Position,
    before_last: Option<Position>,
    /// The ply number of the next move.
    ply: usize,
}

/// The visitor that replays a game. Reused from game to game.
pub struct Replayer {
    options: Options,
    tags: Tags,
    fen: Option<String>,
    setup: Option<String>,
    variant: Option<String>,
    result_tag: Option<String>,
    /// The game being replayed, reused from game to game; valid once `started`.
    game: Game,
    started: bool,
    frames: Vec<Frame>,
    outcome: Option<Outcome>,
    error: Option<GameError>,
    movetext: String,
    layout: Movetext,
    /// The main line's comments, when keeping them.
    comments: Vec<Comment>,
    /// The names of the game's tags so far, each followed by a 0 byte: a name given
    /// twice is an error.
    tag_names: Vec<u8>,
    /// Whether a tag has come: comments before the first one lie between games and
    /// are no part of this one.
    tagged: bool,
    /// One bit per hash of the names in `tag_names`, so that a name is looked for there
    /// only when its bit is already set.
    tag_bits: u64,
    /// The question the games are selected by, when there is one: it hears every tag,
    /// and a game whose tags already fail it is not replayed.
    selector: Option<Box<Selector>>,
    /// The game's tags failed the selector: its moves are read but not replayed.
    skipped: bool,
    /// The result rewritten by `fix_results`, once `finish` has settled it.
    repair: Option<Repair>,
}

/// The bit (below 32) of `Replayer::tag_bits` that stands for a tag name of the roster
/// or the usual extras of lichess and tournament files, `None` for any other name.
fn common_tag_bit(name: &[u8]) -> Option<u32> {
    Some(match name {
        b"Event" => 0,
        b"Site" => 1,
        b"Date" => 2,
        b"Round" => 3,
        b"White" => 4,
        b"Black" => 5,
        b"Result" => 6,
        b"WhiteElo" => 7,
        b"BlackElo" => 8,
        b"ECO" => 9,
        b"EventDate" => 10,
        b"UTCDate" => 11,
        b"UTCTime" => 12,
        b"WhiteRatingDiff" => 13,
        b"BlackRatingDiff" => 14,
        b"WhiteTitle" => 15,
        b"BlackTitle" => 16,
        b"Opening" => 17,
        b"TimeControl" => 18,
        b"Termination" => 19,
        b"FEN" => 20,
        b"SetUp" => 21,
        b"Variant" => 22,
        b"PlyCount" => 23,
        b"Annotator" => 24,
        b"Mode" => 25,
        _ => return None,
    })
}

/// The bits of `common_tag_bit` of the tags that shape the game (`FEN`, `SetUp`,
/// `Variant`, `Result`): read even when the others are skipped.
const SHAPING_TAGS: u64 = 1 << 20 | 1 << 21 | 1 << 22 | 1 << 6;

fn text_of(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The move at `ply` (in a variation or not) whose text is `text`.
fn at(ply: usize, text: String, variation: bool) -> MoveRef {
    MoveRef {
        text,
        ply: Some(ply),
        variation,
    }
}

/// Whether a `Variant` tag names Chess960 (`Some(true)`), standard chess
/// (`Some(false)`) or something else.
pub fn variant_is_chess960(value: &str) -> Option<bool> {
    let v = value.trim().to_ascii_lowercase();
    match v.as_str() {
        "chess960" | "chess 960" | "fischerandom" | "fischer random" | "fischerrandom" => {
            Some(true)
        }
        "" | "standard" | "chess" | "normal" | "from position" => Some(false),
        _ => None,
    }
}

impl Replayer {
    pub fn new(options: Options) -> Replayer {
        Replayer {
            options,
            tags: Tags::default(),
            fen: None,
            setup: None,
            variant: None,
            result_tag: None,
            game: Game::default(),
            started: false,
            frames: Vec::new(),
            outcome: None,
            error: None,
            movetext: String::new(),
            layout: Movetext::new(),
            comments: Vec::new(),
            tag_names: Vec::new(),
            tagged: false,
            tag_bits: 0,
            selector: None,
            skipped: false,
            repair: None,
        }
    }

    /// Selects games by a question: a game whose tags fail it is read to its end
    /// without being replayed (`skipped`).
    pub fn set_selector(&mut self, selector: Option<Selector>) {
        self.selector = selector.map(Box::new);
    }

    pub fn selector_mut(&mut self) -> Option<&mut Selector> {
        self.selector.as_deref_mut()
    }

    /// The selector and the game just read, borrowed together.
    pub fn selector_and_game(&mut self) -> Option<(&mut Selector, &Game)> {
        Some((self.selector.as_deref_mut()?, &self.game))
    }

    /// Whether the game just read was skipped without replay, its tags failing the
    /// selector (a game with no movetext is decided here).
    pub fn skipped(&mut self) -> bool {
        if !self.skipped && !self.started {
            if let Some(selector) = &mut self.selector {
                self.skipped = selector.failed();
            }
        }
        self.skipped
    }

    /// Whether the game has given a tag of this name before (and notes it). The names
    /// nearly every game gives have a bit each of `tag_bits`; only others are listed.
    fn seen_tag(&mut self, name: &[u8], common: Option<u32>) -> bool {
        if let Some(bit) = common {
            let bit = 1u64 << bit;
            let seen = self.tag_bits & bit != 0;
            self.tag_bits |= bit;
            return seen;
        }
        let first = name.first().copied().unwrap_or(0);
        let last = name.last().copied().unwrap_or(0);
        let hash = (usize::from(first) * 7 + usize::from(last) * 3 + name.len()) % 32;
        let bit = 1u64 << (32 + hash);
        let seen = self.tag_bits & bit != 0 && self.tag_names.split(|&b| b == 0).any(|n| n == name);
        self.tag_bits |= bit;
        self.tag_names.extend_from_slice(name);
        self.tag_names.push(0);
        seen
    }

    /// Settles the game just read: `Ok` when it is correct, then `game`, `tags` and
    /// `movetext` describe it; else why it cannot be loaded.
    pub fn finish(&mut self) -> Result<(), GameError> {
        if let Some(error) = self.error.take() {
            return Err(error);
        }
        if !self.started {
            self.start()?;
        }
        let token = self.outcome.unwrap_or(Outcome::Unknown);
        if self.options.fix_results && self.game.status().is_over() {
            return self.finish_repaired(token);
        }
        if self.options.strict_result_tag {
            if let Some(tag) = &self.result_tag {
                if tag.as_bytes() != token.token().as_bytes() {
                    return Err(GameError::Result(ResultError::TagMismatch {
                        tag: tag.clone(),
                        token,
                    }));
                }
            }
        }
        settle(&mut self.game, token).map_err(GameError::Result)?;
        if self.options.record {
            std::mem::take(&mut self.layout)
                .result(&mut self.movetext, outcome_of(&self.game.status()));
        }
        Ok(())
    }

    /// `finish` for a game whose moves end it, with `fix_results`: the result is the
    /// one the final position makes, whatever the token and the `Result` tag said; when
    /// either said otherwise the repair is noted.
    #[cold]
    fn finish_repaired(&mut self, token: Outcome) -> Result<(), GameError> {
        let right = outcome_of(&self.game.status());
        let from = if token != right {
            Some(token.token().to_string())
        } else {
            self.result_tag
                .as_ref()
                .filter(|tag| tag.as_bytes() != right.token().as_bytes())
                .cloned()
        };
        if let Some(from) = from {
            self.repair = Some(Repair { from, to: right });
        }
        // `*` agrees with every position: the game keeps the end its moves make.
        settle(&mut self.game, Outcome::Unknown).map_err(GameError::Result)?;
        if self.options.record {
            std::mem::take(&mut self.layout).result(&mut self.movetext, right);
        }
        Ok(())
    }

    /// The result `finish` rewrote (with `fix_results`), taken out.
    pub fn take_repair(&mut self) -> Option<Repair> {
        self.repair.take()
    }

    /// The game's tags, to be edited before they are written.
    pub fn tags_mut(&mut self) -> &mut Tags {
        &mut self.tags
    }

    /// The game just read (after `finish` answered `Ok`).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Its tags (none but the roster's unknowns when skipping tags).
    pub fn tags(&self) -> &Tags {
        &self.tags
    }

    /// Its movetext in export format, when recording.
    pub fn movetext(&self) -> &str {
        &self.movetext
    }

    /// `finish`, then the game taken out.
    pub fn load(&mut self) -> Result<Loaded, GameError> {
        self.finish()?;
        Ok(Loaded {
            tags: std::mem::take(&mut self.tags),
            game: self.game.clone(),
            movetext: std::mem::take(&mut self.movetext),
            comments: std::mem::take(&mut self.comments),
        })
    }

    fn mode(&self) -> Result<CastlingMode, GameError> {
        let chess960 = match &self.variant {
            None => false,
            Some(v) => variant_is_chess960(v).ok_or_else(|| GameError::Variant(v.clone()))?,
        };
        Ok(CastlingMode::from_chess960(
            chess960 || self.options.chess960,
        ))
    }

    /// Sets the game up as the tags describe it, before any move.
    fn start(&mut self) -> Result<(), GameError> {
        self.started = true;
        let mode = self.mode()?;
        let base = match (&self.fen, self.setup.as_deref().map(str::trim)) {
            (Some(fen), _) => {
                let pos = Position::from_fen(fen.trim()).map_err(GameError::Fen)?;
                if mode == CastlingMode::Standard {
                    pos.check_standard_castling()
                        .map_err(|e| GameError::Fen(FenError::Position(e)))?;
                }
                pos
            }
            (None, Some("1")) => return Err(GameError::MissingFen),
            (None, _) => Position::startpos(),
        };
        self.game.set_lean(self.options.lean);
        self.game.reset(base, mode);
        Ok(())
    }

    /// A tag pair, and the control character its value holds if any.
    fn take_tag(&mut self, name: &[u8], value: &[u8], control: Option<char>) {
        if !self.tagged {
            self.tagged = true;
            // Comments before the tags stand between this game and the one before it
            // (whose text, read in parallel, may have ended a run where this one
            // begins the next): they belong to neither, and are dropped with what they
            // did, the only thing that can come before a tag.
            self.movetext.clear();
            self.layout = Movetext::new();
            self.comments.clear();
            self.error = None;
        }
        let common = common_tag_bit(name);
        if self.seen_tag(name, common) {
            self.fail(GameError::Syntax(SyntaxError::DuplicateTag(text_of(name))));
        }
        if let Some(c) = control {
            self.fail(GameError::Syntax(SyntaxError::ControlInTag(
                text_of(name),
                c,
            )));
        }
        if let Some(selector) = &mut self.selector {
            selector.tag(name, value);
        }
        // The tags that shape the game are all common ones: their bits tell them.
        if self.options.skip_tags && common.is_none_or(|bit| SHAPING_TAGS & 1 << bit == 0) {
            return;
        }
        let mut value = decode(&unescape(value));
        if value.contains('\t') {
            // Export format allows no tab: it is read as the blank it stands for.
            value = value.replace('\t', " ");
        }
        match name {
            b"FEN" => self.fen = Some(value),
            b"SetUp" => self.setup = Some(value),
            b"Variant" => self.variant = Some(value),
            b"Result" => self.result_tag = Some(value),
            _ if self.options.skip_tags => {}
            _ => {
                if let Ok(name) = std::str::from_utf8(name) {
                    self.tags.insert(name, &value);
                }
            }
        }
    }

    fn fail(&mut self, error: GameError) {
        if self.error.is_none() {
            self.error = Some(error);
        }
    }

    // Forced: --pgn 13% more instructions without its path's forced inlines.
    #[inline(always)]
    fn main_move(&mut self, san: &[u8]) {
        if !self.started {
            return;
        }
        if self.options.record {
            return self.record_main_move(san);
        }
        if let Err(error) = self.game.play_recorded(san) {
            self.main_move_failed(san, error);
        }
    }

    /// A main-line move, rewritten in the movetext.
    fn record_main_move(&mut self, san: &[u8]) {
        let game = &mut self.game;
        match game.parse_recorded(san) {
            Ok(m) => {
                let before = *game.position();
                let mut text = before.san_without_suffix(m);
                game.play(m);
                // The board's mate, not the game's status: past an automatic draw
                // the status stays the draw.
                let pos = game.position();
                if pos.is_check() {
                    text.push(if pos.has_legal_moves() { '+' } else { '#' });
                }
                self.layout.play(&mut self.movetext, &before, &text);
            }
            Err(error) => self.main_move_failed(san, error),
        }
    }

    #[cold]
    fn main_move_failed(&mut self, san: &[u8], error: MoveError) {
        let ply = self.game.moves().len() + 1;
        let text = text_of(san);
        let why = Refusal::of(error, &text, self.game.mode());
        self.fail(GameError::Move(at(ply, text, false), why))
    }

    fn variation_move(&mut self, san: &[u8]) {
        if !self.started {
            return;
        }
        let mode = self.game.mode();
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        let pos = &frame.position;
        // The quick search reads only ASCII: what it finds needs no UTF-8 check.
        let parsed = match pos.find_plain_san(san) {
            Some((m, _)) => Ok(m),
            None => std::str::from_utf8(san)
                .map_err(|_| MoveError::Syntax)
                .and_then(|text| {
                    if let Ok(m) = pos.parse_san_bytes(text.as_bytes()) {
                        return Ok(m);
                    }
                    if !pos.has_legal_moves() {
                        // The variation goes on after mate or stalemate.
                        return Err(MoveError::GameOver(ended(pos)));
                    }
                    pos.parse_move(text, mode)
                }),
        };
        match parsed {
            Ok(m) => {
                let before = frame.position;
                frame.before_last = Some(before);
                frame.position.play_unchecked(m);
                frame.ply += 1;
                if self.records_variations() {
                    let san = before.san(m);
                    self.layout.play(&mut self.movetext, &before, &san);
                }
            }
            Err(error) => {
                let ply = frame.ply;
                let text = text_of(san);
                let why = Refusal::of(error, &text, mode);
                self.fail(GameError::Move(at(ply, text, true), why))
            }
        }
    }
}

impl Replayer {
    /// Keeps a comment of the main line (when asked to), trimmed, with the ply it
    /// follows; a variation's comments are not kept, as the variations are not.
    fn keep_comment(&mut self, text: &[u8]) {
        if self.options.comments && self.error.is_none() && self.frames.is_empty() {
            let ply = if self.started {
                self.game.moves().len()
            } else {
                0
            };
            let text = decode(text);
            self.comments.push(Comment {
                ply,
                text: text.trim().to_string(),
            });
        }
    }
}

impl Replayer {
    /// Whether variations go into the recorded movetext: it is recorded, and
    /// `--strip variations` was not asked.
    fn records_variations(&self) -> bool {
        self.options.record && !self.options.strip.variations
    }

    /// Whether what `asked` strips, or the variation being read, is left out of the
    /// recorded movetext here.
    fn strips(&self, asked: bool) -> bool {
        asked || (self.options.strip.variations && !self.frames.is_empty())
    }

    /// A comment into the recorded movetext, unless `--strip` leaves it out: as `{ }`,
    /// or as a `;` comment when it holds a `}` (which would end a `{ }` one early).
    fn record_comment(&mut self, text: &str) {
        let strip = self.options.strip;
        if self.strips(strip.comments) {
            return;
        }
        let stripped;
        let text = if strip.clocks {
            let (rest, removed) = strip_clocks(text);
            if removed && rest.trim().is_empty() {
                return;
            }
            stripped = rest;
            stripped.as_str()
        } else {
            text
        };
        if text.contains('}') {
            self.layout.line_comment(&mut self.movetext, text);
        } else {
            self.layout.comment(&mut self.movetext, text);
        }
    }
}

/// The status of a position with no legal moves, for a variation's error.
fn ended(pos: &Position) -> Status {
    Game::new(*pos, CastlingMode::Standard).status()
}

/// Gives a game the result its movetext ends with, refusing one the board contradicts:
/// a decisive result the moves do not reach is a resignation, a draw the board does not
/// make is a draw by agreement, and `*` leaves the game as it stands. A game that went
/// on past an automatic draw has that draw as its result.
pub fn settle(game: &mut Game, outcome: Outcome) -> Result<(), ResultError> {
    let status = game.status();
    if status.is_over() {
        let agrees = outcome == Outcome::Unknown || outcome == outcome_of(&status);
        return match game.drawn_at() {
            _ if agrees => Ok(()),
            Some(drawn) => Err(ResultError::DrawnEarlier { outcome, drawn }),
            None => Err(ResultError::Contradicted { outcome, status }),
        };
    }
    debug_assert!(matches!(status.state, State::Active | State::Check));
    match outcome {
        Outcome::WhiteWins => game.resign(crate::color::Color::Black),
        Outcome::BlackWins => game.resign(crate::color::Color::White),
        Outcome::Draw => game.agree_draw(),
        Outcome::Unknown => {}
    }
    Ok(())
}

impl Visitor for Replayer {
    fn begin_game(&mut self) {
        // Skipped tags leave the roster's unknowns as they are (`load` takes them out
        // only to leave the same behind), so a database check allocates no tags afresh
        // for every game.
        if !self.options.skip_tags {
            self.tags = Tags::default();
        }
        self.fen = None;
        self.setup = None;
        self.variant = None;
        self.result_tag = None;
        self.started = false;
        self.frames.clear();
        self.outcome = None;
        self.error = None;
        self.movetext.clear();
        self.layout = Movetext::new();
        self.comments.clear();
        self.tag_names.clear();
        self.tagged = false;
        self.tag_bits = 0;
        self.skipped = false;
        self.repair = None;
        if let Some(selector) = &mut self.selector {
            selector.begin();
        }
    }

    fn tag(&mut self, name: &[u8], value: &[u8]) {
        let control = first_control(value, &['\t']);
        self.take_tag(name, value, control);
    }

    fn plain_tag(&mut self, name: &[u8], value: &[u8]) {
        self.take_tag(name, value, None);
    }

    fn skims(&self) -> bool {
        self.skipped
    }

    fn begin_movetext(&mut self) {
        if let Some(selector) = &mut self.selector {
            if selector.failed() {
                self.skipped = true;
                return;
            }
        }
        if let Err(error) = self.start() {
            self.fail(error);
        }
    }

    // Forced: --pgn 13% more instructions without its path's forced inlines.
    #[inline(always)]
    fn san(&mut self, san: &[u8]) {
        if self.error.is_some() {
            return;
        }
        if self.frames.is_empty() {
            self.main_move(san);
        } else {
            self.variation_move(san);
        }
    }

    fn null_move(&mut self, text: &[u8]) {
        if self.error.is_some() || !self.started {
            return;
        }
        let Some(frame) = self.frames.last_mut() else {
            let ply = self.game.moves().len() + 1;
            let at = at(ply, text_of(text), false);
            self.fail(GameError::Move(at, Refusal::NullMove));
            return;
        };
        let pos = frame.position;
        match pos.after_null() {
            Some(next) => {
                frame.before_last = Some(pos);
                frame.position = next;
                frame.ply += 1;
                if self.records_variations() {
                    self.layout.play(&mut self.movetext, &pos, "--");
                }
            }
            None => {
                let ply = frame.ply;
                let at = at(ply, text_of(text), true);
                let why = Refusal::Illegal("a null move while in check".to_string());
                self.fail(GameError::Move(at, why));
            }
        }
    }

    fn nag(&mut self, nag: u8) {
        if self.options.record && self.error.is_none() && !self.strips(self.options.strip.nags) {
            self.layout.nag(&mut self.movetext, nag);
        }
    }

    fn comment(&mut self, text: &[u8]) {
        if let Some(c) = first_control(text, &['\t', '\n', '\r']) {
            self.fail(GameError::Syntax(SyntaxError::ControlInComment(c)));
        }
        self.plain_comment(text);
    }

    fn plain_comment(&mut self, text: &[u8]) {
        // A comment before the first move is kept too, and written before it (but see
        // `tag` for one before the tags).
        self.keep_comment(text);
        if self.options.record && self.error.is_none() {
            self.record_comment(&decode(text));
        }
    }

    fn line_comment(&mut self, text: &[u8]) {
        if let Some(c) = first_control(text, &['\t']) {
            self.fail(GameError::Syntax(SyntaxError::ControlInComment(c)));
        }
        self.keep_comment(text);
        if self.options.record && self.error.is_none() {
            self.record_comment(&decode(text));
        }
    }

    fn begin_variation(&mut self) {
        if self.error.is_some() || !self.started {
            return;
        }
        let (before, ply) = match self.frames.last() {
            Some(frame) => (frame.before_last, frame.ply),
            // Replayed from the game's nearest snapshot: a few moves, once a variation.
            None => (self.game.before_last(), self.game.moves().len() + 1),
        };
        match before {
            Some(position) => {
                self.frames.push(Frame {
                    position,
                    before_last: None,
                    ply: ply - 1,
                });
                if self.records_variations() {
                    self.layout.begin_variation(&mut self.movetext);
                }
            }
            None => self.fail(GameError::VariationFirst { ply }),
        }
    }

    fn end_variation(&mut self) {
        if self.error.is_some() {
            return;
        }
        self.frames.pop();
        if self.records_variations() {
            self.layout.end_variation(&mut self.movetext);
        }
    }

    fn outcome(&mut self, outcome: Outcome) {
        self.outcome = Some(outcome);
    }

    fn end_game(&mut self, error: Option<&SyntaxError>) {
        if let Some(error) = error {
            // A syntax error outranks a move error only when it comes first; the
            // reader reports it at the end, so keep an earlier move error.
            self.fail(GameError::Syntax(error.clone()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bits that keep a tag when the others are skipped are those of the four
    /// tags that shape the game, and no other common tag's.
    #[test]
    fn the_shaping_tags_have_the_shaping_bits() {
        let common = [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "WhiteElo",
            "BlackElo",
            "ECO",
            "EventDate",
            "UTCDate",
            "UTCTime",
            "WhiteRatingDiff",
            "BlackRatingDiff",
            "WhiteTitle",
            "BlackTitle",
            "Opening",
            "TimeControl",
            "Termination",
            "FEN",
            "SetUp",
            "Variant",
            "PlyCount",
            "Annotator",
            "Mode",
        ];
        for name in common {
            let bit = common_tag_bit(name.as_bytes()).unwrap();
            let shaping = matches!(name, "FEN" | "SetUp" | "Variant" | "Result");
            assert_eq!(SHAPING_TAGS & 1 << bit != 0, shaping, "{name}");
        }
        assert_eq!(SHAPING_TAGS.count_ones(), 4);
    }
    use crate::game::DrawReason;
    use crate::pgn::reader::read_game;

    fn load_with(input: &str, options: Options) -> Result<Loaded, GameError> {
        let mut replayer = Replayer::new(options);
        read_game(input.as_bytes(), true, &mut replayer);
        replayer.load()
    }

    fn load(input: &str) -> Result<Loaded, GameError> {
        load_with(input, Options::default())
    }

    #[test]
    fn the_main_line_becomes_the_history() {
        let loaded = load("[White \"A\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *").unwrap();
        assert_eq!(loaded.game.moves().len(), 3);
        assert_eq!(loaded.tags.get("White"), Some("A"));
    }

    #[test]
    fn a_bad_move_in_a_variation_is_found() {
        let error = load("1. e4 e5 (1... c5 2. Nf3 Qa5 3. a3 Kd6) 2. Nf3 *").unwrap_err();
        assert!(
            matches!(
                error,
                GameError::Move(
                    MoveRef {
                        ply: Some(6),
                        variation: true,
                        ..
                    },
                    _
                )
            ),
            "{error:?}"
        );
    }

    #[test]
    fn a_decisive_result_on_a_live_board_is_a_resignation() {
        let loaded = load("1. e4 e5 0-1").unwrap();
        assert_eq!(loaded.game.status().state, State::Resigned);
        assert!(loaded.game.is_final());
    }

    #[test]
    fn a_draw_on_a_live_board_is_an_agreement() {
        let loaded = load("1. e4 e5 1/2-1/2").unwrap();
        assert_eq!(loaded.game.status().reason, Some(DrawReason::Agreement));
    }

    #[test]
    fn the_wrong_winner_of_a_mate_is_refused() {
        let error = load("1. f3 e5 2. g4 Qh4# 1-0").unwrap_err();
        assert!(matches!(
            error,
            GameError::Result(ResultError::Contradicted { .. })
        ));
    }

    #[test]
    fn a_decisive_result_after_stalemate_is_refused() {
        let error = load("[FEN \"k7/3Q4/1K6/8/8/8/8/8 w - - 0 1\"]\n\n1. Qc7 1-0").unwrap_err();
        assert!(matches!(
            error,
            GameError::Result(ResultError::Contradicted { .. })
        ));
        let options = Options {
            strict_result_tag: true,
            ..Options::default()
        };
        assert!(load_with(
            "[FEN \"k7/3Q4/1K6/8/8/8/8/8 w - - 0 1\"]\n\n1. Qc7 1/2-1/2",
            options
        )
        .is_ok());
    }

    #[test]
    fn moves_after_an_automatic_draw_are_read_and_the_draw_stands() {
        let moves = "[FEN \"4k3/8/8/8/8/8/8/2R1K1n1 b - - 0 1\"]\n\n\
                     1... Nf3+ 2. Ke2 Kd7 3. Rc7+ Kxc7 4. Kxf3 Kd6";
        let loaded = load(&format!("{moves} *")).unwrap();
        assert_eq!(loaded.game.moves().len(), 7);
        assert_eq!(
            loaded.game.status().reason,
            Some(DrawReason::InsufficientMaterial)
        );
        assert_eq!(
            load(&format!("{moves} 1-0")).unwrap_err(),
            GameError::Result(ResultError::DrawnEarlier {
                outcome: Outcome::WhiteWins,
                drawn: DrawnAt {
                    ply: 5,
                    reason: DrawReason::InsufficientMaterial
                }
            })
        );
    }

    #[test]
    fn the_token_wins_over_the_tag_unless_strict() {
        let input = "[Result \"1-0\"]\n\n1. e4 0-1";
        assert_eq!(
            outcome_of(&load(input).unwrap().game.status()),
            Outcome::BlackWins
        );
        let strict = Options {
            strict_result_tag: true,
            ..Options::default()
        };
        assert!(matches!(
            load_with(input, strict),
            Err(GameError::Result(ResultError::TagMismatch { .. }))
        ));
    }

    #[test]
    fn a_fen_tag_needs_no_setup_tag() {
        let loaded = load("[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 *").unwrap();
        assert_eq!(loaded.game.moves().len(), 1);
    }

    #[test]
    fn setup_without_fen_is_refused() {
        assert_eq!(
            load("[SetUp \"1\"]\n\n1. e4 *").unwrap_err(),
            GameError::MissingFen
        );
    }

    #[test]
    fn chess960_comes_from_the_variant_tag() {
        let fen = "[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]";
        assert!(matches!(
            load(&format!("{fen}\n\n1. e4 *")),
            Err(GameError::Fen(_))
        ));
        let loaded = load(&format!("[Variant \"fischerandom\"]\n{fen}\n\n1. e4 *")).unwrap();
        assert_eq!(loaded.game.mode(), CastlingMode::Chess960);
    }

    #[test]
    fn other_variants_are_refused() {
        assert_eq!(
            load("[Variant \"Crazyhouse\"]\n\n1. e4 *").unwrap_err(),
            GameError::Variant("Crazyhouse".to_string())
        );
    }

    #[test]
    fn null_moves_are_refused_in_the_main_line_only() {
        assert!(matches!(
            load("1. e4 -- 2. d4 *").unwrap_err(),
            GameError::Move(
                MoveRef {
                    ply: Some(2),
                    variation: false,
                    ..
                },
                Refusal::NullMove
            )
        ));
        let loaded = load("1. e4 e5 (1... -- 2. d4) 2. Nf3 *").unwrap();
        assert_eq!(loaded.game.moves().len(), 3);
    }

    fn record(input: &str) -> String {
        let options = Options {
            record: true,
            ..Options::default()
        };
        load_with(input, options).unwrap().movetext
    }

    #[test]
    fn a_comment_before_the_first_move_is_kept() {
        assert_eq!(
            record("[Event \"C\"]\n\n{Notes by GM X} 1. e4 e5 *"),
            "{ Notes by GM X } 1. e4 e5 *\n"
        );
        assert_eq!(
            record("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 7\"]\n\n{Black} 7... Kd7 *"),
            "{ Black } 7... Kd7 *\n"
        );
    }

    #[test]
    fn a_comment_before_the_tags_is_no_part_of_the_game() {
        assert_eq!(record("{between} [Event \"C\"]\n\n1. e4 *"), "1. e4 *\n");
        assert!(load("{a\u{1}} [Event \"C\"]\n\n1. e4 *").is_ok());
        // Without tags, it is the game's first comment.
        assert_eq!(record("{lead} 1. e4 *"), "{ lead } 1. e4 *\n");
    }

    #[test]
    fn a_line_comment_holding_a_brace_stays_one() {
        assert_eq!(
            record("1. e4 ; x } y\n1... e5 ; plain\n*"),
            "1. e4 ; x } y\n1... e5 { plain } *\n"
        );
    }

    #[test]
    fn tabs_in_tag_values_are_spaces_and_other_controls_refused() {
        let loaded = load("[White \"a\tb\"]\n\n*").unwrap();
        assert_eq!(loaded.tags.get("White"), Some("a b"));
        assert_eq!(
            load("[White \"a\u{7}b\"]\n\n*").unwrap_err(),
            GameError::Syntax(SyntaxError::ControlInTag("White".to_string(), '\u{7}'))
        );
        assert_eq!(
            load("1. e4 {a\u{1b}b} *").unwrap_err(),
            GameError::Syntax(SyntaxError::ControlInComment('\u{1b}'))
        );
        assert!(load("1. e4 {a\tb\r\nc} *").is_ok());
    }

    #[test]
    fn a_lone_backslash_in_a_tag_value_is_kept() {
        let loaded = load("[Site \"C:\\path\\x\"]\n\n*").unwrap();
        assert_eq!(loaded.tags.get("Site"), Some("C:\\path\\x"));
    }

    #[test]
    fn a_tag_given_twice_is_refused() {
        let error =
            load("[White \"First\"]\n[Black \"B\"]\n[White \"Second\"]\n\n1. e4 *").unwrap_err();
        assert_eq!(
            error,
            GameError::Syntax(SyntaxError::DuplicateTag("White".to_string()))
        );
        // Also when the tags are not kept, as a database check skips them.
        let skipping = Options {
            skip_tags: true,
            ..Options::default()
        };
        assert!(load_with("[Site \"a\"]\n[Site \"a\"]\n\n1. e4 *", skipping).is_err());
        assert!(load_with("[Site \"a\"]\n[Round \"a\"]\n\n1. e4 *", skipping).is_ok());
    }

    /// Names outside the common bits are listed, and told apart even when their hashes
    /// meet (`Xa`, `Ya`... share the first and last bytes' weights only by chance).
    #[test]
    fn an_uncommon_tag_given_twice_is_refused() {
        let twice = load("[Event \"E\"]\n[Board \"1\"]\n[Board \"2\"]\n\n1. e4 *");
        assert_eq!(
            twice.unwrap_err(),
            GameError::Syntax(SyntaxError::DuplicateTag("Board".to_string()))
        );
        let names: String = (b'A'..=b'Z')
            .flat_map(|a| {
                (b'a'..=b'e').map(move |b| format!("[{}x{} \"v\"]\n", a as char, b as char))
            })
            .collect();
        assert!(load(&format!("{names}\n1. e4 *")).is_ok());
        let again = format!("{names}[Qxc \"w\"]\n\n1. e4 *");
        assert_eq!(
            load(&again).unwrap_err(),
            GameError::Syntax(SyntaxError::DuplicateTag("Qxc".to_string()))
        );
    }

    #[test]
    fn recording_rewrites_the_movetext() {
        let options = Options {
            record: true,
            ..Options::default()
        };
        let loaded = load_with("1. e4 {x} e5 $1 (1... c5) 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O Bg4 6. h3 h5 7. hxg4 hxg4 8. Nh2 Qh4 9. Qxg4 Qxh2# 0-1", options).unwrap();
        assert_eq!(
            loaded.movetext,
            "1. e4 { x } 1... e5 $1 ( 1... c5 ) 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O Bg4\n6. h3 h5 7. hxg4 hxg4 8. Nh2 Qh4 9. Qxg4 Qxh2# 0-1\n"
        );
    }

    fn recording(strip: Strip) -> Options {
        Options {
            record: true,
            strip,
            ..Options::default()
        }
    }

    #[test]
    fn stripping_variations_leaves_them_out_with_what_they_hold() {
        let strip = Strip {
            variations: true,
            ..Strip::default()
        };
        let loaded = load_with(
            "1. e4 { main } e5 (1... c5 { inside } $2 2. Nf3) $1 2. Nf3 *",
            recording(strip),
        )
        .unwrap();
        assert_eq!(loaded.movetext, "1. e4 { main } 1... e5 $1 2. Nf3 *\n");
    }

    #[test]
    fn a_stripped_variation_is_still_checked() {
        let strip = Strip {
            variations: true,
            ..Strip::default()
        };
        let error = load_with("1. e4 e5 (1... Ke3) 2. Nf3 *", recording(strip)).unwrap_err();
        assert!(
            matches!(
                error,
                GameError::Move(
                    MoveRef {
                        variation: true,
                        ..
                    },
                    _
                )
            ),
            "{error:?}"
        );
    }

    #[test]
    fn stripping_clocks_drops_a_comment_left_blank_and_keeps_the_words() {
        let strip = Strip {
            clocks: true,
            ..Strip::default()
        };
        let loaded = load_with(
            "1. e4 { [%clk 0:03:00] } e5 { [%eval 0.2] fine [%csl Gd4] } {} *",
            recording(strip),
        )
        .unwrap();
        assert_eq!(loaded.movetext, "1. e4 e5 { fine [%csl Gd4] } {} *\n");
    }

    #[test]
    fn stripping_comments_and_nags_leaves_the_moves() {
        let strip = Strip {
            comments: true,
            nags: true,
            ..Strip::default()
        };
        let loaded = load_with(
            "{ start } 1. e4! { a } e5 $4 ; line\n2. Nf3 *",
            recording(strip),
        )
        .unwrap();
        assert_eq!(loaded.movetext, "1. e4 e5 2. Nf3 *\n");
    }

    fn fixing() -> Options {
        Options {
            record: true,
            strict_result_tag: true,
            fix_results: true,
            ..Options::default()
        }
    }

    fn fixed(input: &str) -> (Result<(), GameError>, Option<Repair>, String) {
        let mut replayer = Replayer::new(fixing());
        read_game(input.as_bytes(), true, &mut replayer);
        let finished = replayer.finish();
        let movetext = replayer.movetext().to_string();
        (finished, replayer.take_repair(), movetext)
    }

    #[test]
    fn fixing_gives_a_mate_its_winner_and_notes_the_repair() {
        let (finished, repair, movetext) = fixed("[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0");
        assert_eq!(finished, Ok(()));
        assert_eq!(
            repair,
            Some(Repair {
                from: "1-0".to_string(),
                to: Outcome::BlackWins
            })
        );
        assert!(movetext.ends_with("Qh4# 0-1\n"), "{movetext}");
    }

    #[test]
    fn fixing_names_the_tag_when_only_the_tag_was_wrong() {
        let (finished, repair, _) = fixed("[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 0-1");
        assert_eq!(finished, Ok(()));
        assert_eq!(repair.map(|r| r.from), Some("1/2-1/2".to_string()));
    }

    #[test]
    fn fixing_gives_a_star_on_an_ended_game_its_result() {
        let (_, repair, _) = fixed("1. f3 e5 2. g4 Qh4# *");
        assert_eq!(
            repair.map(|r| (r.from, r.to)),
            Some(("*".to_string(), Outcome::BlackWins))
        );
    }

    #[test]
    fn fixing_repairs_nothing_that_is_right() {
        let (finished, repair, _) = fixed("[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1");
        assert_eq!((finished, repair), (Ok(()), None));
        let (finished, repair, _) = fixed("1. e4 e5 1-0");
        assert_eq!((finished, repair), (Ok(()), None));
    }

    /// On a board the moves do not end, no rule says whether the tag or the token is
    /// right: the game stays broken.
    #[test]
    fn fixing_leaves_a_disagreement_on_a_live_board_an_error() {
        let (finished, repair, _) = fixed("[Result \"1-0\"]\n\n1. e4 e5 0-1");
        assert!(matches!(
            finished,
            Err(GameError::Result(ResultError::TagMismatch { .. }))
        ));
        assert_eq!(repair, None);
    }
}
