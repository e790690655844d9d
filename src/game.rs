//! A game: a base position, the moves played from it, and its result.
//!
//! The history is compact, since a process may hold many games: the moves, the
//! repetition key of the position after each, and a snapshot of the position every
//! `SNAPSHOT_EVERY` plies. Undo goes back to the nearest snapshot and replays the few
//! moves after it, which brings back captured pieces, castling rights, the en-passant
//! square and the clocks exactly. Repetitions are counted among the keys since the last
//! capture or pawn move (no earlier position can come back): a scan of a few keys per
//! move, with no map to keep.

use std::cell::OnceCell;
use std::fmt;

use crate::color::Color;
use crate::illegal::IllegalMove;
use crate::moves::{CastlingMode, Move, MoveList, ShortList};
use crate::position::Position;
use crate::role::Role;
use crate::san::SanError;
use crate::uci::UciMove;

/// The state of a game, as the protocol names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum State {
    Active,
    Check,
    Checkmate,
    Stalemate,
    Draw,
    Resigned,
    /// A side's flag fell with the other side able to mate.
    Timeout,
    /// The game ended without a result.
    Aborted,
}

impl State {
    pub const fn name(self) -> &'static str {
        match self {
            State::Active => "active",
            State::Check => "check",
            State::Checkmate => "checkmate",
            State::Stalemate => "stalemate",
            State::Draw => "draw",
            State::Resigned => "resigned",
            State::Timeout => "timeout",
            State::Aborted => "aborted",
        }
    }
}

/// Why a game is drawn (or may be claimed drawn).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    Agreement,
    Threefold,
    FiftyMove,
    Fivefold,
    SeventyFiveMove,
    InsufficientMaterial,
    /// A flag fell against a side whose opponent cannot mate by any series of legal
    /// moves (FIDE Laws 6.9).
    TimeoutVsInsufficientMaterial,
}

impl DrawReason {
    pub const fn name(self) -> &'static str {
        match self {
            DrawReason::Agreement => "agreement",
            DrawReason::Threefold => "threefold",
            DrawReason::FiftyMove => "fifty-move",
            DrawReason::Fivefold => "fivefold",
            DrawReason::SeventyFiveMove => "seventy-five-move",
            DrawReason::InsufficientMaterial => "insufficient-material",
            DrawReason::TimeoutVsInsufficientMaterial => "timeout-vs-insufficient-material",
        }
    }
}

/// The draws a player may claim now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Claims {
    pub threefold: bool,
    pub fifty_move: bool,
}

impl Claims {
    pub const fn is_empty(self) -> bool {
        !self.threefold && !self.fifty_move
    }

    /// The claimable reasons, threefold first.
    pub fn reasons(self) -> impl Iterator<Item = DrawReason> {
        [
            self.threefold.then_some(DrawReason::Threefold),
            self.fifty_move.then_some(DrawReason::FiftyMove),
        ]
        .into_iter()
        .flatten()
    }
}

/// Everything the protocol reports about where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Status {
    pub state: State,
    /// The winner of a checkmate, resignation or timeout.
    pub winner: Option<Color>,
    /// The reason of a draw.
    pub reason: Option<DrawReason>,
    /// Draws that may be claimed; only while the game has no result.
    pub claims: Claims,
}

impl Status {
    const fn of(state: State) -> Status {
        Status {
            state,
            winner: None,
            reason: None,
            claims: Claims {
                threefold: false,
                fifty_move: false,
            },
        }
    }

    const fn drawn(reason: DrawReason) -> Status {
        Status {
            reason: Some(reason),
            ..Status::of(State::Draw)
        }
    }

    /// Whether the game has a result, so that no more moves may be played.
    pub const fn is_over(&self) -> bool {
        !matches!(self.state, State::Active | State::Check)
    }
}

impl fmt::Display for Status {
    /// The words of a result in a sentence: `checkmate, white wins`, `draw by fivefold`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.state, self.winner, self.reason) {
            (State::Draw, _, Some(reason)) => write!(f, "draw by {}", reason.name()),
            (state, Some(winner), _) => write!(f, "{}, {winner} wins", state.name()),
            (state, _, _) => f.write_str(state.name()),
        }
    }
}

/// A result decided by the players or the clock rather than by the board; it cannot
/// be undone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    Resigned {
        winner: Color,
    },
    /// Agreed, claimed, or a flag fall against a side the other cannot mate.
    Drawn(DrawReason),
    /// The loser's flag fell.
    Timeout {
        winner: Color,
    },
    /// The game ended without a result.
    Aborted,
}

/// An automatic draw that a game record played on past: the rule, and the ply after
/// which the position stood drawn (the number of moves played by then).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DrawnAt {
    pub ply: usize,
    pub reason: DrawReason,
}

/// Why move text names no move that can be played now, in the order the protocol
/// classifies them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Neither UCI nor SAN.
    Syntax,
    /// The game has a result.
    GameOver(Status),
    /// UCI text naming no legal move.
    Uci(IllegalMove),
    /// SAN text naming no single legal move.
    San(SanError),
    /// SAN text naming one move that is not legal, and why.
    SanIllegal(IllegalMove),
}

/// How many plies apart the positions that undo starts from are kept: an undo
/// replays fewer moves than this, and a game of 80 plies keeps five positions.
const SNAPSHOT_EVERY: usize = 16;

/// A move played, and the repetition key of the position it led to. The key is kept
/// as bytes, so that a ply takes 10 bytes rather than 16: a process may hold millions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ply {
    key: [u8; 8],
    m: Move,
}

impl Ply {
    fn new(m: Move, key: u64) -> Ply {
        Ply {
            key: key.to_ne_bytes(),
            m,
        }
    }

    fn key(&self) -> u64 {
        u64::from_ne_bytes(self.key)
    }
}

/// One game: base position, moves, result.
///
/// The play path's inlining is forced (`refresh`, `refresh_kept`, `automatic_draw`,
/// `play_recorded` and its slow half, `play_by`, `play_live`, and `command`'s move
/// reader): left to the compiler, `--pgn` runs 8% more instructions and `position ...
/// moves` requests 2.5% more.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    /// The moves played from the base, in order, each with the repetition key of the
    /// position it led to.
    plies: Vec<Ply>,
    /// The legal moves of the current position, generated when first asked for after
    /// each change (`moves`, `dests`): the status needs only whether there is one, and
    /// a move is found from its own squares.
    /// Boxed: a kilobyte that a game holds only while its moves are asked for.
    legal: OnceCell<Box<MoveList>>,
    /// Set when a move is played on past an automatic draw (only records do that): the
    /// game stays drawn whatever the later moves do, until undo goes back before it.
    drawn_at: Option<DrawnAt>,
    /// How many times the current position has stood on the board.
    repeated: u32,
    /// The status, computed once after each change: clients ask for it after every move.
    status: Status,
    decision: Option<Decision>,
    mode: CastlingMode,
    /// Whether the side to move has a legal move.
    can_move: bool,
    /// Lean games (for replaying files) do not list the legal moves after each move:
    /// `legal` stays empty and moves are looked up by their target square.
    lean: bool,
    /// The position after every `SNAPSHOT_EVERY` plies: `snapshots[i]` stands after
    /// `(i + 1) * SNAPSHOT_EVERY` of them.
    snapshots: Vec<Position>,
    base: Position,
}

/// Half-move clock values of the move-count rules (in plies).
const FIFTY_MOVES: u32 = 100;
const SEVENTY_FIVE_MOVES: u32 = 150;

impl Default for Game {
    fn default() -> Game {
        Game::new(Position::startpos(), CastlingMode::Standard)
    }
}

impl Game {
    /// A game starting from `base`, writing castling in `mode`.
    pub fn new(base: Position, mode: CastlingMode) -> Game {
        let mut game = Game {
            mode,
            base,
            position: base,
            plies: Vec::new(),
            snapshots: Vec::new(),
            decision: None,
            drawn_at: None,
            legal: OnceCell::new(),
            status: Status::of(State::Active),
            can_move: true,
            repeated: 1,
            lean: false,
        };
        game.refresh();
        game
    }

    /// Starts this game again from `base`, keeping its allocations: a database of
    /// millions of games replays them all through one `Game`.
    pub fn reset(&mut self, base: Position, mode: CastlingMode) {
        self.mode = mode;
        self.base = base;
        self.position = base;
        self.plies.clear();
        self.snapshots.clear();
        self.repeated = 1;
        self.decision = None;
        self.drawn_at = None;
        self.refresh();
    }

    /// Makes room for `plies` more moves at once: a game sent whole is replayed
    /// without growing its history move by move.
    pub fn reserve(&mut self, plies: usize) {
        self.plies.reserve(plies);
        self.snapshots.reserve(plies / SNAPSHOT_EVERY);
    }

    /// Recomputes what is cached about the current position.
    // Forced: part of the play path (see the note on `Game`).
    #[inline(always)]
    fn refresh(&mut self) {
        // A lean game works its status out only when asked (`status`): a file's next
        // move, when it is legal, already shows there was a move to play. (The test is
        // inlined: a lean replay would pay a call a ply for nothing.)
        if !self.lean {
            self.refresh_kept();
        }
    }

    /// `refresh` of a game that is not lean.
    // Forced: part of the play path (see the note on `Game`).
    #[inline(never)]
    fn refresh_kept(&mut self) {
        self.legal = OnceCell::new();
        self.can_move = self.position.has_legal_moves();
        self.status = self.compute_status();
    }

    /// Makes the game lean or not. A lean game does not keep the list of legal moves
    /// (`legal_moves` is empty): a file's moves are found from their text alone, and
    /// every rule still holds.
    pub fn set_lean(&mut self, lean: bool) {
        if self.lean != lean {
            self.lean = lean;
            self.legal = OnceCell::new();
            self.refresh();
        }
    }

    /// The legal moves of the current position, in generation order (none kept in a
    /// lean game).
    pub fn legal_moves(&self) -> &MoveList {
        self.legal.get_or_init(|| {
            Box::new(if self.lean {
                MoveList::new()
            } else {
                self.position.legal_moves()
            })
        })
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn base(&self) -> &Position {
        &self.base
    }

    pub fn mode(&self) -> CastlingMode {
        self.mode
    }

    /// The position the last move was played from, if any move was played: replayed
    /// from the nearest snapshot, as undo does (a game does not keep it, so that a move
    /// writes one position, not two).
    pub fn before_last(&self) -> Option<Position> {
        let ply = self.plies.len().checked_sub(1)?;
        Some(self.position_after(ply))
    }

    /// The moves played from the base position, in order.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.plies.iter().map(|ply| ply.m)
    }

    /// The repetition keys (`Position::repetition_key`) of the positions the moves led
    /// to, in order: a position's identity as EPD, kept by the game as it is played.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = u64> + DoubleEndedIterator + '_ {
        self.plies.iter().map(Ply::key)
    }

    /// How many times the current position has stood on the board since the base.
    pub fn repetitions(&self) -> u32 {
        self.repeated
    }

    /// Where the game stands. Checkmate, insufficient material, stalemate, the
    /// seventy-five-move rule and fivefold repetition end the game by themselves, in that
    /// order of precedence; resignation and agreed or claimed draws come from the players.
    pub fn status(&self) -> Status {
        if self.lean {
            self.compute_status()
        } else {
            self.status
        }
    }

    fn compute_status(&self) -> Status {
        match self.decision {
            Some(Decision::Resigned { winner }) => {
                return Status {
                    winner: Some(winner),
                    ..Status::of(State::Resigned)
                }
            }
            Some(Decision::Drawn(reason)) => return Status::drawn(reason),
            Some(Decision::Timeout { winner }) => {
                return Status {
                    winner: Some(winner),
                    ..Status::of(State::Timeout)
                }
            }
            Some(Decision::Aborted) => return Status::of(State::Aborted),
            None => {}
        }
        if let Some(drawn) = self.drawn_at {
            return Status::drawn(drawn.reason);
        }
        let pos = &self.position;
        let check = pos.is_check();
        let stuck = if self.lean {
            !pos.has_legal_moves()
        } else {
            !self.can_move
        };
        if check && stuck {
            return Status {
                winner: Some(pos.turn().other()),
                ..Status::of(State::Checkmate)
            };
        }
        match self.automatic_draw() {
            // Stalemate outranks the move-count and repetition rules, not material.
            Some(DrawReason::InsufficientMaterial) => {
                return Status::drawn(DrawReason::InsufficientMaterial)
            }
            _ if stuck => return Status::of(State::Stalemate),
            Some(reason) => return Status::drawn(reason),
            None => {}
        }
        Status {
            claims: self.claims_on_board(),
            ..Status::of(if check { State::Check } else { State::Active })
        }
    }

    /// The draw the current position makes by itself, without a move generated:
    /// insufficient material, the seventy-five-move rule, fivefold repetition. The one
    /// test of these rules, for lean and kept games alike.
    // Forced: part of the play path (see the note on `Game`).
    #[inline(always)]
    fn automatic_draw(&self) -> Option<DrawReason> {
        let pos = &self.position;
        if pos.is_insufficient_material() {
            Some(DrawReason::InsufficientMaterial)
        } else if pos.halfmoves() >= SEVENTY_FIVE_MOVES {
            Some(DrawReason::SeventyFiveMove)
        } else if self.repeated >= 5 {
            Some(DrawReason::Fivefold)
        } else {
            None
        }
    }

    /// Whether the game is over, as cheaply as each kind of game can tell: a kept
    /// game's cached status; a lean game's rules that need no move generation
    /// (checkmate and stalemate leave no move to find anyway).
    #[inline]
    fn is_over_at_a_glance(&self) -> bool {
        if self.lean {
            self.decision.is_some() || self.drawn_at.is_some() || self.automatic_draw().is_some()
        } else {
            self.status.is_over()
        }
    }

    /// The draws the current position allows a claim of, whether or not the game has
    /// a result (the status lists them only while it has none).
    pub fn claims_on_board(&self) -> Claims {
        Claims {
            threefold: self.repeated >= 3,
            fifty_move: self.position.halfmoves() >= FIFTY_MOVES,
        }
    }

    /// The automatic draw that moves were played past, if any (see `parse_recorded`).
    pub fn drawn_at(&self) -> Option<DrawnAt> {
        self.drawn_at
    }

    /// The legal move that text names, UCI or SAN, or why none may be played now. UCI
    /// syntax goes first, so a text that is both stays UCI. The common texts are found
    /// the cheapest way: a UCI move checked alone, a SAN move found from its own
    /// squares, as a file's moves are; anything else goes to the full lookup for the
    /// move or the exact reason.
    // Inlined into each protocol request's move: 0.3% more instructions on a
    // session of moves without it.
    #[inline]
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        match text.parse::<UciMove>() {
            Ok(uci) => self.parse_uci(uci, text),
            Err(_) => self.parse_san(text.as_bytes()),
        }
    }

    /// `parse_move` of `text`, which reads as `uci`.
    fn parse_uci(&self, uci: UciMove, text: &str) -> Result<Move, MoveError> {
        // The commonest text of all, a legal UCI move, checked alone (no other move
        // generated, and in a lean game no status worked out: a legal move shows the
        // side to move is neither mated nor stalemated).
        if !self.is_over_at_a_glance() {
            if let Some((m, _)) = self.position.find_plain_uci(uci) {
                return Ok(m);
            }
        }
        self.find_or_refuse(text, Some(uci))
    }

    /// `parse_move` of text that is not UCI: SAN bytes, found from the move's own
    /// squares without listing the legal moves or allocating; an illegal or ambiguous
    /// move, or the game over, goes to the full lookup for the exact reason. For a
    /// caller that has already read the text as not UCI (`position ... moves`).
    pub(crate) fn parse_san(&self, text: &[u8]) -> Result<Move, MoveError> {
        self.find_san(text, self.is_over_at_a_glance())
    }

    /// The move `text` names, the game's status first, by the full lookup: what the
    /// shortcuts leave (castling and en passant in UCI, and every refusal's reason).
    /// `uci` is the text read as UCI, if it is.
    fn find_or_refuse(&self, text: &str, uci: Option<UciMove>) -> Result<Move, MoveError> {
        let status = self.status();
        if status.is_over() {
            return Err(match classify_syntax(&self.position, text) {
                Syntax::Neither => MoveError::Syntax,
                _ => MoveError::GameOver(status),
            });
        }
        // A legal UCI move is found among the legal moves to its target (and the
        // castling moves, for a king); anything else goes to the core's parsers for
        // the move or the exact reason.
        if let Some(uci) = uci {
            let pos = &self.position;
            let mut candidates = ShortList::new();
            let castles = uci.from == pos.king(pos.turn());
            pos.legal_moves_of_to(None, uci.to, castles, &mut candidates);
            let mut matching = candidates.as_slice().iter().filter(|m| {
                m.from() == uci.from && Position::uci_target_matches(**m, uci.to, self.mode)
            });
            if let (Some(&m), None) = (matching.next(), matching.next()) {
                if m.promotion() == uci.promotion {
                    return Ok(m);
                }
            }
        }
        self.position.parse_move(text, self.mode)
    }

    /// A move of a game record, as `parse_move` finds a SAN move, except that a record
    /// goes on past an automatic draw: players who did not stop at it made moves that
    /// are still checked, while the game stays drawn at the ply the rule ended it
    /// (`play` keeps that). Nothing follows checkmate, stalemate or a decided result.
    pub fn parse_recorded(&self, text: &[u8]) -> Result<Move, MoveError> {
        if self.decision.is_some() {
            return self.find_san(text, true);
        }
        match self.find_san(text, false) {
            Err(MoveError::GameOver(status)) if !matches!(status.state, State::Draw) => {
                Err(MoveError::GameOver(status))
            }
            Err(MoveError::GameOver(status)) => match std::str::from_utf8(text) {
                // The reason the board gives, as anywhere else; a board with no legal
                // move has nothing more to play.
                Ok(text) if self.position.has_legal_moves() => {
                    self.position.parse_move(text, self.mode)
                }
                Ok(_) => Err(MoveError::GameOver(status)),
                Err(_) => Err(MoveError::Syntax),
            },
            found => found,
        }
    }

    /// The move that bytes of a game record or a SAN move name: found from its own
    /// squares unless the game has `ended`; else, or when the shortcuts do not find
    /// it, read as `parse_move` reads text (UCI first) by the full lookup.
    fn find_san(&self, text: &[u8], ended: bool) -> Result<Move, MoveError> {
        if !ended {
            if let Some((m, _)) = self.position.find_plain_san(text) {
                return Ok(m);
            }
            if let Ok(m) = self.position.parse_san_bytes(text) {
                return Ok(m);
            }
        }
        match std::str::from_utf8(text) {
            Ok(text) => match text.parse::<UciMove>() {
                Ok(uci) => self.parse_uci(uci, text),
                Err(_) => self.find_or_refuse(text, None),
            },
            Err(_) => Err(MoveError::Syntax),
        }
    }

    /// Plays a legal move (from `parse_move` or the move generator). The caller checks
    /// that the game is not over, or (`parse_recorded`) over only by an automatic draw,
    /// which the game then keeps.
    pub fn play(&mut self, m: Move) {
        let role = self.position.role_at(m.from()).unwrap_or(Role::Pawn);
        self.play_by(role, m);
    }

    /// The move of a game record that SAN bytes name, played: `parse_recorded` then
    /// `play`, with the common shapes of move found and played in one step (the piece
    /// found is not looked for again).
    // Forced: part of the play path (see the note on `Game`).
    #[inline(always)]
    pub fn play_recorded(&mut self, text: &[u8]) -> Result<(), MoveError> {
        if self.decision.is_none() {
            if let Some((m, role)) = self.position.find_plain_san(text) {
                self.play_by(role, m);
                return Ok(());
            }
        }
        self.play_recorded_slowly(text)
    }

    /// `play_recorded` of what `find_plain_san` leaves (castling, en passant, a move
    /// after a decided result, every refusal), apart from its hot path.
    // Forced: part of the play path (see the note on `Game`).
    #[inline(never)]
    fn play_recorded_slowly(&mut self, text: &[u8]) -> Result<(), MoveError> {
        let m = self.parse_recorded(text)?;
        self.play(m);
        Ok(())
    }

    /// `parse_move` of text that reads as `uci`, then `play` (`position ... moves`): the
    /// commonest move, legal and of a live game, found and played in one step, with the
    /// game's liveness and the moving piece each looked at once.
    pub fn play_uci(&mut self, uci: UciMove, text: &str) -> Result<(), MoveError> {
        if !self.is_over_at_a_glance() {
            if let Some((m, role)) = self.position.find_plain_uci(uci) {
                // A live game has no automatic draw for `play_by` to record.
                self.play_live(role, m);
                return Ok(());
            }
        }
        let m = self.parse_uci(uci, text)?;
        self.play(m);
        Ok(())
    }

    /// `play` of a move of the `role` piece on its origin.
    // Forced: part of the play path (see the note on `Game`).
    #[inline(always)]
    fn play_by(&mut self, role: Role, m: Move) {
        if self.drawn_at.is_none() && self.decision.is_none() {
            if let Some(reason) = self.automatic_draw() {
                self.drawn_at = Some(DrawnAt {
                    ply: self.plies.len(),
                    reason,
                });
            }
        }
        self.play_live(role, m);
    }

    /// `play_by` once the automatic draws are settled (none holds, or it is recorded).
    // Forced: part of the play path (see the note on `Game`).
    #[inline(always)]
    fn play_live(&mut self, role: Role, m: Move) {
        self.position.play_unchecked_by(role, m);
        self.plies.push(Ply::new(m, self.position.repetition_key()));
        if self.plies.len().is_multiple_of(SNAPSHOT_EVERY) {
            self.snapshots.push(self.position);
        }
        // No earlier position can come back within four plies of a capture or pawn
        // move, which most moves of a game are.
        self.repeated = if self.position.halfmoves() < 4 {
            1
        } else {
            self.count_repetitions()
        };
        self.refresh();
    }

    /// How often the current position has stood on the board since the base: among
    /// the positions since the last capture or pawn move (the half-move clock says how
    /// far back that was), those with the same side to move.
    fn count_repetitions(&self) -> u32 {
        let plies = self.plies.len();
        let Some(key) = self.plies.last().map(Ply::key) else {
            return 1;
        };
        // The first ply of the window: the one after the last capture or pawn move.
        let first = plies - (self.position.halfmoves() as usize).min(plies);
        // A position two plies back differs (each side has moved one piece away): the
        // first that can be the same is four plies back, then every other one.
        let Some(last) = plies.checked_sub(4).filter(|&last| last >= first) else {
            return 1;
        };
        // The position after ply `p` has the key `key(p - 1)`; the base stands at ply 0.
        let mut count = 1;
        for index in (first.max(1) - 1..last).rev().step_by(2) {
            count += u32::from(self.plies.get(index).map(Ply::key) == Some(key));
        }
        if first == 0 && last % 2 == 0 {
            count += u32::from(self.base.repetition_key() == key);
        }
        count
    }

    /// Whether undo is refused because the players decided the result.
    pub fn is_final(&self) -> bool {
        self.decision.is_some()
    }

    /// Takes back the last move, which is returned; `None` when there is none. The
    /// caller checks `is_final` first: a decided result is not undone here.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.plies.pop()?.m;
        // Back at the ply of the draw, the position shows it by itself.
        if self
            .drawn_at
            .is_some_and(|drawn| self.plies.len() <= drawn.ply)
        {
            self.drawn_at = None;
        }
        let plies = self.plies.len();
        self.snapshots.truncate(plies / SNAPSHOT_EVERY);
        self.position = self.position_after(plies);
        self.repeated = self.count_repetitions();
        self.refresh();
        Some(m)
    }

    /// The position after the first `ply` moves, replayed from the nearest snapshot:
    /// fewer than `SNAPSHOT_EVERY` moves.
    fn position_after(&self, ply: usize) -> Position {
        let kept = ply / SNAPSHOT_EVERY;
        let (mut pos, from) = match kept.checked_sub(1).and_then(|i| self.snapshots.get(i)) {
            Some(&snapshot) => (snapshot, kept * SNAPSHOT_EVERY),
            None => (self.base, 0),
        };
        for done in self.plies.get(from..ply).unwrap_or(&[]) {
            pos.play_unchecked(done.m);
        }
        pos
    }

    /// The result the players or the clock decided, if any.
    pub fn decision(&self) -> Option<Decision> {
        self.decision
    }

    /// Gives the game a decided result. The caller checks that the game is not over.
    pub fn decide(&mut self, decision: Decision) {
        self.decision = Some(decision);
        self.status = self.compute_status();
    }

    /// `color` resigns. The caller checks that the game is not over.
    pub fn resign(&mut self, color: Color) {
        self.decide(Decision::Resigned {
            winner: color.other(),
        });
    }

    /// The players agree a draw. The caller checks that the game is not over.
    pub fn agree_draw(&mut self) {
        self.decide(Decision::Drawn(DrawReason::Agreement));
    }

    /// Claims the first claimable draw (threefold before fifty-move); `None` when none
    /// is claimable now. The caller checks that the game is not over.
    pub fn claim(&mut self) -> Option<DrawReason> {
        let reason = self.status().claims.reasons().next()?;
        self.decide(Decision::Drawn(reason));
        Some(reason)
    }

    /// `color`'s flag fell: it loses, unless the other side cannot mate by any series
    /// of legal moves, which makes it a draw (FIDE Laws 6.9). The caller checks that
    /// the game is not over.
    pub fn flag_fell(&mut self, color: Color) -> Decision {
        let winner = color.other();
        let decision = if self.position.has_insufficient_material(winner) {
            Decision::Drawn(DrawReason::TimeoutVsInsufficientMaterial)
        } else {
            Decision::Timeout { winner }
        };
        self.decide(decision);
        decision
    }

    /// Ends the game without a result. The caller checks that the game is not over.
    pub fn abort(&mut self) {
        self.decide(Decision::Aborted);
    }
}

/// What kind of move text something is, before looking at legality.
enum Syntax {
    Uci(UciMove),
    San,
    Neither,
}

fn classify_syntax(pos: &Position, text: &str) -> Syntax {
    if let Ok(uci) = text.parse::<UciMove>() {
        return Syntax::Uci(uci);
    }
    match pos.parse_san(text) {
        Err(SanError::Syntax) => Syntax::Neither,
        _ => Syntax::San,
    }
}

impl Position {
    /// The legal move that UCI or SAN text names in this position, or why there is
    /// none, whatever a game's result (`Game::parse_move` asks the game first). UCI
    /// syntax goes first, so a text that is both stays UCI; castling in UCI is read
    /// as `mode` writes it.
    pub fn parse_move(&self, text: &str, mode: CastlingMode) -> Result<Move, MoveError> {
        match classify_syntax(self, text) {
            Syntax::Uci(uci) => self.uci_to_move(uci, mode).map_err(MoveError::Uci),
            Syntax::San => self.parse_san(text).map_err(|e| match e {
                SanError::Syntax => MoveError::Syntax,
                SanError::NoSuchMove => self
                    .explain_san(text)
                    .map_or(MoveError::San(SanError::NoSuchMove), MoveError::SanIllegal),
                e => MoveError::San(e),
            }),
            Syntax::Neither => Err(MoveError::Syntax),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(game: &mut Game, moves: &str) {
        for text in moves.split_whitespace() {
            let m = game.parse_move(text).unwrap();
            game.play(m);
        }
    }

    /// Every legal move's UCI text, in both castling notations, names that move: found
    /// among the moves to its target, without the full list (random playouts of the
    /// perft suite, standard and Chess960 positions alike).
    #[test]
    fn every_legal_move_is_found_from_its_uci_text() {
        let suite = include_str!("../tests/data/perft-suite.epd");
        let mut seed: u64 = 0x5851_f42d_4c95_7f2d;
        let mut checked = 0;
        for line in suite.lines() {
            let fen = line.split(';').next().unwrap_or("").trim();
            let Ok(start) = Position::from_fen(fen) else {
                continue;
            };
            for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
                let mut game = Game::new(start, mode);
                for _ in 0..40 {
                    let legal = game.position().legal_moves();
                    if legal.is_empty() || game.status().is_over() {
                        break;
                    }
                    for &m in legal.as_slice() {
                        for notation in [CastlingMode::Standard, CastlingMode::Chess960] {
                            let text = m.to_uci(notation).to_string();
                            let expected = game.position().uci_to_move(text.parse().unwrap(), mode);
                            assert_eq!(
                                game.parse_move(&text).ok(),
                                expected.ok(),
                                "{text} in {fen}"
                            );
                        }
                        checked += 1;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    game.play(legal.as_slice()[(seed % legal.len() as u64) as usize]);
                }
            }
        }
        assert!(checked > 50_000, "only {checked} moves");
    }

    /// The repetition count after every move of games that shuffle their pieces
    /// (windows of every length since the last capture or pawn move, from the start
    /// position or not) is the number of earlier positions, the base included, with
    /// the current one's key, the same side to move and no capture or pawn move since.
    #[test]
    fn the_repetition_count_is_every_same_position_since_the_last_irreversible_move() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut repeated = 0;
        for base in [
            Position::startpos(),
            Position::from_fen("4k3/8/3r4/8/8/3R4/8/4K3 w - - 7 30").unwrap(),
        ] {
            for _ in 0..60 {
                let mut game = Game::new(base, CastlingMode::Standard);
                game.set_lean(true);
                let mut history = vec![base];
                for _ in 0..90 {
                    let legal = game.position().legal_moves();
                    if legal.is_empty() || game.is_over_at_a_glance() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    // Mostly moves of pieces that can come back; now and then another.
                    let pos = *game.position();
                    let quiet: Vec<Move> = legal
                        .iter()
                        .copied()
                        .filter(|m| {
                            pos.role_at(m.from()) != Some(Role::Pawn)
                                && pos.piece_at(m.to()).is_none()
                                && !m.is_castle()
                        })
                        .collect();
                    let pick = if quiet.is_empty() || seed.is_multiple_of(23) {
                        legal.as_slice()
                    } else {
                        &quiet[..quiet.len().min(3)]
                    };
                    let m = pick[(seed >> 32) as usize % pick.len()];
                    game.play(m);
                    history.push(*game.position());
                    let now = *game.position();
                    let window = (now.halfmoves() as usize).min(history.len() - 1);
                    let expected = history[history.len() - 1 - window..]
                        .iter()
                        .rev()
                        .step_by(2)
                        .filter(|p| p.repetition_key() == now.repetition_key())
                        .count();
                    assert_eq!(game.repetitions() as usize, expected);
                    repeated += usize::from(expected > 1);
                }
            }
        }
        assert!(repeated > 100, "only {repeated} repeated positions");
    }

    #[test]
    fn knight_shuffles_reach_threefold_then_fivefold() {
        let mut game = Game::default();
        play_all(&mut game, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
        let status = game.status();
        assert_eq!(status.state, State::Active);
        assert!(status.claims.threefold);
        play_all(&mut game, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
        assert_eq!(game.status().reason, Some(DrawReason::Fivefold));
        assert_eq!(
            game.parse_move("e4"),
            Err(MoveError::GameOver(game.status()))
        );
        game.undo();
        assert_eq!(game.status().state, State::Active);
        assert_eq!(game.repetitions(), 4);
    }

    #[test]
    fn an_upper_case_b_starts_a_bishop_move_not_uci() {
        // Bishops on c3 and f4 both reach d2, and the knight on b3 does too: B3d2 is
        // the bishop of the third rank, never the knight's UCI move b3d2.
        let base = Position::from_fen("4k3/8/8/8/5B2/1NB5/8/4K3 w - - 0 1").unwrap();
        let game = Game::new(base, CastlingMode::Standard);
        let m = game.parse_move("B3d2").unwrap();
        assert_eq!(m.from(), crate::square::Square::C3);
        let mut lean = game.clone();
        lean.set_lean(true);
        assert_eq!(lean.parse_san(b"B3d2"), Ok(m));
    }

    #[test]
    fn a_lean_game_counts_repetitions_as_a_full_one() {
        let moves = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 e4 e5 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 \
                     Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1";
        let mut full = Game::default();
        let mut lean = Game::default();
        lean.set_lean(true);
        for text in moves.split_whitespace() {
            let m = full.parse_move(text).unwrap();
            assert_eq!(lean.parse_san(text.as_bytes()), Ok(m));
            full.play(m);
            lean.play(m);
            assert_eq!(lean.repetitions(), full.repetitions(), "after {text}");
            assert_eq!(lean.status(), full.status(), "after {text}");
            assert_eq!(lean.before_last(), full.before_last(), "after {text}");
        }
        for _ in 0..12 {
            assert_eq!(lean.undo(), full.undo());
            assert_eq!(lean.position(), full.position());
            assert_eq!(lean.before_last(), full.before_last());
            assert_eq!(lean.repetitions(), full.repetitions());
            assert_eq!(lean.status(), full.status());
        }
        lean.set_lean(false);
        assert_eq!(lean.status(), full.status());
        assert_eq!(lean.legal_moves().len(), full.legal_moves().len());
    }

    /// Plays the moves the way a record is read.
    fn play_recorded(game: &mut Game, moves: &str) {
        for text in moves.split_whitespace() {
            let m = game.parse_recorded(text.as_bytes()).unwrap();
            game.play(m);
        }
    }

    /// Rook against knight; after 3... Kxc7 only the knight is left (ply 5).
    const KNIGHT_ENDING: &str = "4k3/8/8/8/8/8/8/2R1K1n1 b - - 0 1";
    const TO_BARE_KNIGHT: &str = "Nf3+ Ke2 Kd7 Rc7+ Kxc7";

    #[test]
    fn a_record_plays_on_past_an_automatic_draw_which_stands() {
        for lean in [false, true] {
            let base = Position::from_fen(KNIGHT_ENDING).unwrap();
            let mut game = Game::new(base, CastlingMode::Standard);
            game.set_lean(lean);
            play_recorded(&mut game, TO_BARE_KNIGHT);
            assert_eq!(game.drawn_at(), None, "the board shows it by itself");
            play_recorded(&mut game, "Kxf3 Kd6");
            let drawn = DrawnAt {
                ply: 5,
                reason: DrawReason::InsufficientMaterial,
            };
            assert_eq!(game.drawn_at(), Some(drawn));
            assert_eq!(game.status(), Status::drawn(drawn.reason));
            assert_eq!(game.moves().len(), 7);
        }
    }

    #[test]
    fn a_capture_after_the_seventy_five_move_rule_does_not_revive_the_game() {
        let base = Position::from_fen("4k3/8/8/8/8/8/r7/R3K3 w - - 149 100").unwrap();
        let mut game = Game::new(base, CastlingMode::Standard);
        play_recorded(&mut game, "Kf1 Kd8 Rxa2");
        assert_eq!(
            game.drawn_at(),
            Some(DrawnAt {
                ply: 1,
                reason: DrawReason::SeventyFiveMove
            })
        );
        assert_eq!(game.status().reason, Some(DrawReason::SeventyFiveMove));
    }

    #[test]
    fn undo_before_the_draw_makes_the_game_live_again() {
        let base = Position::from_fen(KNIGHT_ENDING).unwrap();
        let mut game = Game::new(base, CastlingMode::Standard);
        play_recorded(&mut game, TO_BARE_KNIGHT);
        play_recorded(&mut game, "Kxf3 Kd6");
        game.undo();
        game.undo();
        assert_eq!(game.drawn_at(), None);
        assert_eq!(game.status().reason, Some(DrawReason::InsufficientMaterial));
        game.undo();
        assert!(!game.status().is_over());
    }

    #[test]
    fn moves_past_an_automatic_draw_are_refused_outside_a_record() {
        let base = Position::from_fen(KNIGHT_ENDING).unwrap();
        let mut game = Game::new(base, CastlingMode::Standard);
        play_recorded(&mut game, TO_BARE_KNIGHT);
        let drawn = Err(MoveError::GameOver(game.status()));
        assert_eq!(game.parse_move("Kxf3"), drawn);
        assert_eq!(game.parse_san(b"Kxf3"), drawn);
    }

    #[test]
    fn an_illegal_move_past_an_automatic_draw_gets_its_own_reason() {
        let base = Position::from_fen(KNIGHT_ENDING).unwrap();
        let mut game = Game::new(base, CastlingMode::Standard);
        play_recorded(&mut game, TO_BARE_KNIGHT);
        let expected = game.position().parse_move("Ke4", CastlingMode::Standard);
        assert!(matches!(expected, Err(MoveError::SanIllegal(_))));
        assert_eq!(game.parse_recorded(b"Ke4"), expected);
        assert_eq!(game.parse_recorded(b"Zz9"), Err(MoveError::Syntax));
    }

    #[test]
    fn nothing_follows_mate_in_a_record() {
        let mut game = Game::default();
        play_recorded(&mut game, "f3 e5 g4 Qh4#");
        assert_eq!(
            game.parse_recorded(b"Kf2"),
            Err(MoveError::GameOver(game.status()))
        );
    }

    /// Undo across the snapshots gives back each position, and the one before it,
    /// exactly as they stood.
    #[test]
    fn undo_across_snapshots_restores_every_position_and_the_one_before() {
        let mut game = Game::default();
        let mut seen = vec![(*game.position(), game.before_last())];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        while game.moves().len() < 3 * SNAPSHOT_EVERY + 5 && !game.status().is_over() {
            let legal = game.position().legal_moves();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            game.play(legal.as_slice()[(seed % legal.len() as u64) as usize]);
            seen.push((*game.position(), game.before_last()));
        }
        assert!(game.moves().len() > 2 * SNAPSHOT_EVERY);
        while game.undo().is_some() {
            seen.pop();
            let (position, before) = seen.last().copied().unwrap();
            assert_eq!(*game.position(), position);
            assert_eq!(game.before_last(), before);
        }
        assert_eq!(seen.len(), 1);
    }

    /// Moves played after undoing back past the plies a game keeps inline follow the
    /// older ones: the game then stands exactly as one that played its moves straight.
    #[test]
    fn playing_on_after_a_deep_undo_matches_a_straight_replay() {
        let mut game = Game::default();
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |game: &Game| {
            let legal = game.position().legal_moves();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            legal.as_slice()[(seed % legal.len() as u64) as usize]
        };
        for (play, undo) in [(45, 30), (7, 2), (33, 25), (20, 0)] {
            for _ in 0..play {
                if game.status().is_over() {
                    break;
                }
                let m = next(&game);
                game.play(m);
            }
            for _ in 0..undo {
                game.undo();
            }
        }
        let mut straight = Game::default();
        for m in game.moves() {
            straight.play(m);
        }
        assert!(game.moves().len() > 40);
        assert_eq!(game.position(), straight.position());
        assert_eq!(game.repetitions(), straight.repetitions());
        assert_eq!(game.status(), straight.status());
        assert_eq!(game.before_last(), straight.before_last());
    }

    #[test]
    fn a_flag_fall_loses_unless_the_other_side_cannot_mate() {
        let base = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        let mut game = Game::new(base, CastlingMode::Standard);
        assert_eq!(
            game.flag_fell(Color::Black),
            Decision::Timeout {
                winner: Color::White
            }
        );
        assert_eq!(game.status().state, State::Timeout);
        assert_eq!(game.status().winner, Some(Color::White));
        assert!(game.is_final());
        let mut game = Game::new(base, CastlingMode::Standard);
        let drawn = Decision::Drawn(DrawReason::TimeoutVsInsufficientMaterial);
        assert_eq!(game.flag_fell(Color::White), drawn);
        assert_eq!(
            game.status().reason,
            Some(DrawReason::TimeoutVsInsufficientMaterial)
        );
    }

    #[test]
    fn an_abort_ends_the_game_without_a_winner() {
        let mut game = Game::default();
        play_all(&mut game, "e4");
        game.abort();
        let status = game.status();
        assert_eq!((status.state, status.winner), (State::Aborted, None));
        assert!(status.is_over() && game.is_final());
        assert_eq!(game.parse_move("e5"), Err(MoveError::GameOver(status)));
    }

    #[test]
    fn undo_restores_the_position_exactly() {
        let mut game = Game::default();
        play_all(&mut game, "e4 d5 exd5 Qxd5 Nc3");
        let before = *game.position();
        play_all(&mut game, "Qxa2");
        game.undo();
        assert_eq!(*game.position(), before);
    }
}
