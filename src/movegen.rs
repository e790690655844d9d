//! Legal move generation, written once over a `Sink` so that the same code fills a move
//! list or only counts moves (perft's bulk counting at the leaves).

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::magic;
use crate::moves::{Move, MoveKind, MoveList, ShortList};
use crate::position::{back_rank, Position};
use crate::role::Role;
use crate::square::{File, Rank, Square};

/// Receives legal moves as the generator finds them, in sets where it can.
pub(crate) trait Sink {
    /// Ordinary moves of one `role` piece (not a pawn) to each of `targets`.
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard);
    /// Pawn moves to each of `targets`, each from `target - delta`.
    fn pawns(&mut self, targets: Bitboard, delta: i32, kind: MoveKind);
    /// Pawn moves to the last rank: four promotions per target.
    fn promotions(&mut self, targets: Bitboard, delta: i32);
    /// One move of a special kind (castling, en passant).
    fn single(&mut self, m: Move);
}

impl Sink for MoveList {
    fn piece(&mut self, _role: Role, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(from, to, MoveKind::Normal));
        }
    }

    fn pawns(&mut self, targets: Bitboard, delta: i32, kind: MoveKind) {
        for to in targets {
            self.push(Move::new(
                Square::from_index_wrapping((to as i32 - delta) as u32),
                to,
                kind,
            ));
        }
    }

    fn promotions(&mut self, targets: Bitboard, delta: i32) {
        for to in targets {
            let from = Square::from_index_wrapping((to as i32 - delta) as u32);
            for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                self.push(Move::new(from, to, MoveKind::Promotion(role)));
            }
        }
    }

    fn single(&mut self, m: Move) {
        self.push(m);
    }
}

/// How the moves of the knights, bishops, rooks and queens of the side to move reach a
/// sink: `Lookup` finds them in their attack sets; perft's last ply counts them from what
/// the ply above found.
pub(crate) trait Officers<S> {
    /// What is already known of the enemy's attacks around our king (nothing, unless
    /// perft's ply above worked it out).
    fn danger(&self) -> Danger {
        Danger::UNKNOWN
    }

    /// The squares the enemy's pawns, knights and king attack, as far as our king's
    /// targets and castling walks go, when perft's ply above can tell them from the move
    /// that led here and `danger` did not: asked only when the generator needs them.
    fn leapers(&self) -> Option<Bitboard> {
        None
    }

    /// Counts our pawns' pushes and captures (en passant aside) into `sink` when they
    /// are known (perft's ply above counted them), given the pieces that check and our
    /// pinned pawns; whether it did.
    fn count_pawn_steps(&self, _sink: &mut S, _checkers: Bitboard, _pinned: Bitboard) -> bool {
        false
    }

    /// Whether an enemy slider may pin a piece of ours: false when perft's ply above
    /// knows that none stands on a line through our king, and the move that led here
    /// brought none there.
    fn may_pin(&self) -> bool {
        true
    }

    /// Those moves, given the pieces pinned to `king` and the squares that answer a
    /// check (every square not ours, out of check).
    fn generate(
        self,
        pos: &Position,
        sink: &mut S,
        king: Square,
        pinned: Bitboard,
        target: Bitboard,
    );
}

/// The enemy's attacks around the king of the side to move, when the ply above knows
/// them: the generator then skips its own tests.
#[derive(Clone, Copy)]
pub(crate) struct Danger {
    /// Among the king's targets and the squares of its castling walks, those the enemy's
    /// sliders attack with the king lifted off the board.
    pub sliders: Option<Bitboard>,
    /// The squares the enemy's pawns, knights and king attack.
    pub leapers: Option<Bitboard>,
    /// The rooks we may castle with, out of check.
    pub castles: Option<Bitboard>,
    /// The rooks we have the right to castle with whose paths are clear.
    pub clear_castles: Option<Bitboard>,
}

impl Danger {
    pub const UNKNOWN: Danger = Danger {
        sliders: None,
        leapers: None,
        castles: None,
        clear_castles: None,
    };
}

/// What the side to move attacks around the enemy king, worked out once for all its
/// moves (see `Position::watch`).
pub(crate) struct Watch {
    /// Among the zone (the enemy king's targets not held by its own pieces, and the
    /// squares of its castling walks whose path its own pieces leave clear), those that
    /// our sliders attack with the enemy king lifted.
    pub sliders: Bitboard,
    /// The squares our pawns, knights and king attack.
    pub leapers: Bitboard,
    /// The enemy king's neighbours and the squares of its castling walks whose path its
    /// own pieces leave clear: after a move of a pawn, knight or king that attacked none
    /// of them, `leapers` and the piece's new attacks are right on them.
    pub leapers_view: Bitboard,
    /// The squares a slider on the zone sees (king lifted), and the enemy's pieces beside
    /// its king: a move that leaves and lands off them changes no slider's attack on the
    /// zone, and adds no square to it.
    pub view: Bitboard,
    /// The rooks the enemy king may castle with, were it its turn and out of check.
    pub castles: Bitboard,
    /// `view`, the castling rooks and the squares their castling crosses: a slider's move
    /// that leaves and lands off them leaves `castles` as it is.
    pub castles_view: Bitboard,
    /// The rooks the enemy may castle with whose paths are clear.
    pub clear_castles: Bitboard,
    /// Those rooks and the squares their castling crosses: a move that leaves and lands
    /// off them leaves `clear_castles` as it is.
    pub clear_view: Bitboard,
    /// The pushes and captures of the enemy's pawns (en passant aside, each promotion
    /// counted four times), were it its turn, out of check and without pins.
    pub pawn_steps: u64,
    /// The enemy's pawns and the squares they would push across, push to or capture on:
    /// a move that leaves and lands off them leaves `pawn_steps` as it is.
    pub pawn_view: Bitboard,
}

/// The officers' moves from their attack sets.
pub(crate) struct Lookup;

impl<S: Sink> Officers<S> for Lookup {
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn generate(
        self,
        pos: &Position,
        sink: &mut S,
        king: Square,
        pinned: Bitboard,
        target: Bitboard,
    ) {
        pos.generate_officers(sink, king, pinned, target);
    }
}

/// Counts moves without listing them.
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    fn piece(&mut self, _role: Role, _from: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }

    fn pawns(&mut self, targets: Bitboard, _delta: i32, _kind: MoveKind) {
        self.0 += u64::from(targets.count());
    }

    fn promotions(&mut self, targets: Bitboard, _delta: i32) {
        self.0 += 4 * u64::from(targets.count());
    }

    fn single(&mut self, _m: Move) {
        self.0 += 1;
    }
}

/// Notes whether there is any legal move at all.
pub(crate) struct Any(pub bool);

impl Sink for Any {
    fn piece(&mut self, _role: Role, _from: Square, targets: Bitboard) {
        self.0 |= targets.is_nonempty();
    }

    fn pawns(&mut self, targets: Bitboard, _delta: i32, _kind: MoveKind) {
        self.0 |= targets.is_nonempty();
    }

    fn promotions(&mut self, targets: Bitboard, _delta: i32) {
        self.0 |= targets.is_nonempty();
    }

    fn single(&mut self, _m: Move) {
        self.0 = true;
    }
}

/// Those of `pieces`, each on a line through `to`, with nothing between them and `to`.
fn clear_paths(to: Square, pieces: Bitboard, occupied: Bitboard) -> Bitboard {
    let mut clear = Bitboard::EMPTY;
    for from in pieces {
        if (attacks::between(to, from) & occupied).is_empty() {
            clear = clear.with(from);
        }
    }
    clear
}

/// A plain move (no castling, no en passant) of a `role` piece. Whether it is a double
/// push is worked out without a branch: which piece moves is the file's choice, and
/// no predictor follows it.
// Forced: --pgn 13% more instructions without its path's forced inlines.
#[inline(always)]
fn plain_move(role: Role, from: Square, to: Square, promotion: Option<Role>) -> Move {
    let double = (role == Role::Pawn) & (from.index().abs_diff(to.index()) == 16);
    Move::plain(from, to, double, promotion)
}

/// The square of an index, when it is on the board.
fn square_at(index: i32) -> Option<Square> {
    (0..64)
        .contains(&index)
        .then(|| Square::from_index_wrapping(index as u32))
}

/// See `Position::check_info`.
pub(crate) struct CheckInfo {
    /// The enemy king.
    king: Square,
    /// By role: the squares from which a piece of ours would attack the enemy king.
    squares: [Bitboard; 6],
    /// Our pieces standing alone between the enemy king and one of our sliders.
    discoverers: Bitboard,
}

/// What castling needs, for a king and a rook on white's first rank (black's are the
/// same mirrored onto the eighth, by a byte swap): the paths of every castling, read from a
/// table rather than worked out at each node.
#[derive(Clone, Copy)]
struct CastlingPath {
    /// The squares both pieces cross or land on, but their own: they must be empty.
    clear: u64,
    /// The king's squares after its own, its destination included: none may be attacked.
    walk: u64,
    /// The squares of `walk` beside the king, when the rook stands in a corner: the king's
    /// own targets were tested the same way (king lifted; a rook in the corner shields
    /// nothing), so castling can read that test. Empty for an inner Chess960 rook, which
    /// may shield such a square until it moves.
    near: u64,
    /// The rank and files through `walk` but `near`, and its diagonals: an enemy slider
    /// that stands on none of them cannot attack these squares.
    straight: u64,
    diagonal: u64,
}

/// What the king's own move generation found, which castling reads.
struct Known {
    /// The king's targets not held by our own pieces.
    candidates: Bitboard,
    /// The squares the enemy's pawns, knights and king attack.
    cover: Bitboard,
    /// The king's safe targets.
    safe: Bitboard,
    /// The squares of the castling walks that the enemy's sliders attack, when known.
    sliders: Option<Bitboard>,
}

/// The squares from file `a` to file `b` of the first rank, both included.
const fn first_rank_span(a: u32, b: u32) -> u64 {
    let (low, high) = if a < b { (a, b) } else { (b, a) };
    (1 << (high + 1)) - (1 << low)
}

const fn castling_path(king: u32, rook: u32) -> CastlingPath {
    let (king_to, rook_to) = if rook > king { (6, 5) } else { (2, 3) };
    let pieces = 1 << king | 1 << rook;
    // A king that does not move still has its square in the walk: the rook leaving may
    // open a line onto it.
    let walk = first_rank_span(king, king_to) & !(1 << king) | 1 << king_to;
    let clear = (first_rank_span(king, king_to) | first_rank_span(rook, rook_to)) & !pieces;
    let beside = (1 << king >> 1 | 1 << king << 1) & 0xff;
    let near = if rook == 0 || rook == 7 {
        walk & beside
    } else {
        0
    };
    let mut path = CastlingPath {
        clear,
        walk,
        near,
        straight: 0,
        diagonal: 0,
    };
    let mut file = 0;
    while file < 8 {
        if (walk & !near) & 1 << file != 0 {
            path.straight |= magic::ray_attacks(file, 0, &magic::ROOK_DIRECTIONS);
            path.diagonal |= magic::ray_attacks(file, 0, &magic::BISHOP_DIRECTIONS);
        }
        file += 1;
    }
    path
}

/// By side (white, black) and the files of king and rook: black's paths are white's
/// mirrored onto the eighth rank once here, not at every node.
static CASTLING_PATHS: [[[CastlingPath; 8]; 8]; 2] = {
    let mut table = [[[castling_path(0, 0); 8]; 8]; 2];
    let mut king = 0;
    while king < 8 {
        let mut rook = 0;
        while rook < 8 {
            let path = castling_path(king as u32, rook as u32);
            table[0][king][rook] = path;
            table[1][king][rook] = CastlingPath {
                clear: path.clear.swap_bytes(),
                walk: path.walk.swap_bytes(),
                near: path.near.swap_bytes(),
                straight: path.straight.swap_bytes(),
                diagonal: path.diagonal.swap_bytes(),
            };
            rook += 1;
        }
        king += 1;
    }
    table
};

impl CastlingPath {
    /// The path of castling with the king and the rook on these squares of the first
    /// rank of the side (white when `WHITE`).
    fn of<const WHITE: bool>(king: Square, rook: Square) -> CastlingPath {
        CASTLING_PATHS[usize::from(!WHITE)][king.file().index()][rook.file().index()]
    }
}

/// Keeps only the moves to one square (and castling, when asked): reading a move from
/// text needs the few moves that could match it, not the whole list.
pub(crate) struct ToSquare {
    pub to: Square,
    pub castles: bool,
    pub list: ShortList,
}

impl Sink for ToSquare {
    fn piece(&mut self, _role: Role, from: Square, targets: Bitboard) {
        if targets.contains(self.to) {
            self.list.push(Move::new(from, self.to, MoveKind::Normal));
        }
    }

    fn pawns(&mut self, targets: Bitboard, delta: i32, kind: MoveKind) {
        if targets.contains(self.to) {
            let from = Square::from_index_wrapping((self.to as i32 - delta) as u32);
            self.list.push(Move::new(from, self.to, kind));
        }
    }

    fn promotions(&mut self, targets: Bitboard, delta: i32) {
        if targets.contains(self.to) {
            let from = Square::from_index_wrapping((self.to as i32 - delta) as u32);
            for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                self.list
                    .push(Move::new(from, self.to, MoveKind::Promotion(role)));
            }
        }
    }

    fn single(&mut self, m: Move) {
        if (m.is_castle() && self.castles) || (!m.is_castle() && m.to() == self.to) {
            self.list.push(m);
        }
    }
}

const CORNERS: Bitboard = Bitboard(0x8100_0000_0000_0081);
const NOT_FILE_A: Bitboard = Bitboard(!0x0101_0101_0101_0101);
const NOT_FILE_H: Bitboard = Bitboard(!0x8080_8080_8080_8080);

/// Moves every square of a set by `delta` index steps (positive is towards rank 8).
pub(crate) fn shift(bb: Bitboard, delta: i32) -> Bitboard {
    if delta >= 0 {
        Bitboard(bb.0 << delta)
    } else {
        Bitboard(bb.0 >> -delta)
    }
}

impl Position {
    /// Our pieces that stand alone between our king and an enemy slider aimed at it.
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    pub(crate) fn pinned(&self, king: Square, us: Color) -> Bitboard {
        let them = us.other();
        let theirs = self.by_color(them);
        let snipers = self.slider_attackers(
            king,
            self.rooks_queens() & theirs,
            self.bishops_queens() & theirs,
            theirs,
        );
        if snipers.is_empty() {
            return snipers;
        }
        let occupied = self.occupied();
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & occupied;
            if !blockers.has_more_than_one() {
                pinned |= blockers;
            }
        }
        pinned & self.by_color(us)
    }

    /// The bishops, rooks and queens of either side that stand on a line through `sq`
    /// they move along, whatever stands between.
    pub(crate) fn slider_rays_through(&self, sq: Square) -> Bitboard {
        (attacks::rook_rays(sq) & self.rooks_queens())
            | (attacks::bishop_rays(sq) & self.bishops_queens())
    }

    /// `pinned`, with the pinning sliders found by their lines and the small `between`
    /// table rather than a slider lookup.
    fn pinned_by_paths(&self, king: Square, theirs: Bitboard, occupied: Bitboard) -> Bitboard {
        let snipers = self.slider_rays_through(king) & theirs;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & occupied;
            if !blockers.has_more_than_one() {
                pinned |= blockers;
            }
        }
        pinned & !theirs
    }

    /// Generates every legal move into `sink`.
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    pub(crate) fn generate<S: Sink>(&self, sink: &mut S) {
        self.generate_given(sink, self.checkers_seen_first());
    }

    /// Generates every legal move into `sink`, given the pieces that check the side to
    /// move (perft works them out from the move that led here).
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    pub(crate) fn generate_given<S: Sink>(&self, sink: &mut S, checkers: Bitboard) {
        self.generate_given_with(sink, checkers, Lookup);
    }

    /// The pieces that check the side to move: `checkers` with the slider lookups made
    /// only when needed.
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    pub(crate) fn checkers_seen_first(&self) -> Bitboard {
        let us = self.turn;
        self.attackers_seen_first(self.king(us), self.by_color(us.other()), self.occupied())
    }

    /// What tells, move by move, whether a move of the side to move checks: the squares
    /// from which each kind of piece would attack the enemy king, and the pieces whose
    /// leaving a line uncovers one of our sliders aimed at it.
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    pub(crate) fn check_info(&self) -> CheckInfo {
        let us = self.turn;
        let them = us.other();
        let ours = self.by_color(us);
        let theirs = self.by_color(them);
        let king = self.king(them);
        let occupied = ours | theirs;
        let bishop = attacks::bishop_attacks(king, occupied);
        let rook = attacks::rook_attacks(king, occupied);
        // Our sliders that would see the king through our own pieces only.
        let snipers = self.slider_attackers(
            king,
            self.rooks_queens() & ours,
            self.bishops_queens() & ours,
            theirs,
        );
        let mut discoverers = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & occupied;
            if !blockers.has_more_than_one() {
                discoverers |= blockers;
            }
        }
        CheckInfo {
            king,
            squares: [
                attacks::pawn_attacks(them, king),
                attacks::knight_attacks(king),
                bishop,
                rook,
                bishop | rook,
                Bitboard::EMPTY,
            ],
            discoverers,
        }
    }

    /// The pieces that check the side to move in `child`, the position after an ordinary
    /// move (not castling, en passant or a promotion) of a `role` piece from `from` to
    /// `to` here. A slider's check squares seen from the king are exact although `from`
    /// empties: a slider leaving a line through the king along that line was blocked
    /// from the king before (the king was not in check), and stays so.
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    pub(crate) fn checkers_after(
        &self,
        info: &CheckInfo,
        child: &Position,
        role: Role,
        from: Square,
        to: Square,
    ) -> Bitboard {
        let mut checkers = Bitboard::EMPTY;
        if info.squares[role.index()].contains(to) {
            checkers = checkers.with(to);
        }
        if info.discoverers.contains(from) && !attacks::line(info.king, from).contains(to) {
            let ours = child.by_color(self.turn);
            checkers |= child.slider_attackers(
                info.king,
                child.rooks_queens() & ours,
                child.bishops_queens() & ours,
                child.occupied(),
            );
        }
        checkers
    }

    /// The moves of the knights, bishops, rooks and queens of the side to move, not
    /// `pinned`, or along their pin, to `target`.
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    pub(crate) fn generate_officers<S: Sink>(
        &self,
        sink: &mut S,
        king: Square,
        pinned: Bitboard,
        target: Bitboard,
    ) {
        let ours = self.by_color(self.turn);
        let occupied = self.occupied();
        for from in self.by_role(Role::Knight) & ours & !pinned {
            sink.piece(Role::Knight, from, attacks::knight_attacks(from) & target);
        }
        // Queens move in both loops; a sink that plays the moves is told which piece moves
        // (the others drop this unused work).
        let queens = self.by_role(Role::Queen);
        let role = |from: Square, other: Role| {
            if queens.contains(from) {
                Role::Queen
            } else {
                other
            }
        };
        for from in self.bishops_queens() & ours {
            let mut targets = attacks::bishop_attacks(from, occupied) & target;
            if pinned.contains(from) {
                targets &= attacks::line(king, from);
            }
            sink.piece(role(from, Role::Bishop), from, targets);
        }
        for from in self.rooks_queens() & ours {
            let mut targets = attacks::rook_attacks(from, occupied) & target;
            if pinned.contains(from) {
                targets &= attacks::line(king, from);
            }
            sink.piece(role(from, Role::Rook), from, targets);
        }
    }

    /// `generate_given`, with the knights, bishops, rooks and queens generated by
    /// `officers` (given the pinned pieces and the squares that answer a check, every
    /// square not ours out of check): perft's last ply counts them from what the ply
    /// above found.
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    pub(crate) fn generate_given_with<S: Sink, O: Officers<S>>(
        &self,
        sink: &mut S,
        checkers: Bitboard,
        officers: O,
    ) {
        // One copy per side to move, so pawn directions and ranks are constants.
        match self.turn {
            Color::White => self.generate_for::<S, O, true>(sink, checkers, officers),
            Color::Black => self.generate_for::<S, O, false>(sink, checkers, officers),
        }
    }

    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn generate_for<S: Sink, O: Officers<S>, const WHITE: bool>(
        &self,
        sink: &mut S,
        checkers: Bitboard,
        officers: O,
    ) {
        let us = if WHITE { Color::White } else { Color::Black };
        let them = us.other();
        let ours = self.by_color(us);
        let theirs = self.by_color(them);
        let occupied = ours | theirs;
        let king = self.king(us);

        // What the enemy's pawns, knights and king cover, which castling reads too: only
        // castling whose path is clear needs it. In the opening most often no path is
        // clear and the king has no free target, and the cover is not worked out at all;
        // perft's ply above tells which paths are clear when the move touched none.
        let candidates = attacks::king_attacks(king) & !ours;
        let danger = officers.danger();
        let castles = match (danger.castles, danger.clear_castles) {
            (Some(_), _) => Bitboard::EMPTY,
            (None, Some(clear)) => clear,
            (None, None) => self.clear_castles::<WHITE>(king, occupied),
        };
        let cover = match danger.leapers {
            Some(cover) => cover,
            None if (candidates | castles).is_nonempty() => officers
                .leapers()
                .unwrap_or_else(|| self.leaper_cover::<WHITE>()),
            None => Bitboard::EMPTY,
        };

        // The king: every target not attacked once the king has left its square (so a
        // slider's ray through the king's square counts).
        let safe = match danger.sliders {
            Some(attacked) => candidates & !cover & !attacked,
            None => self.king_targets::<WHITE>(king, candidates & !cover, occupied),
        };
        sink.piece(Role::King, king, safe);

        if checkers.has_more_than_one() {
            return;
        }
        let target = match checkers.first() {
            Some(checker) => attacks::between(king, checker).with(checker),
            None => !ours,
        };
        let pinned = if officers.may_pin() {
            self.pinned(king, us)
        } else {
            Bitboard::EMPTY
        };

        let counted = officers.count_pawn_steps(sink, checkers, self.by_role(Role::Pawn) & pinned);
        officers.generate(self, sink, king, pinned, target);

        self.generate_pawns::<S, WHITE>(sink, king, pinned, target, checkers, counted);
        if checkers.is_empty() {
            let known = Known {
                candidates,
                cover,
                safe,
                sliders: danger.sliders,
            };
            match danger.castles {
                Some(rooks) => {
                    for rook in rooks {
                        sink.single(Move::new(king, rook, MoveKind::Castle));
                    }
                }
                None => self.generate_castling::<S, WHITE>(sink, king, castles, &known),
            }
        }
    }

    /// The rooks of the side to move (white when `WHITE`) that may castle, with nothing
    /// on the squares king and rook cross.
    fn clear_castles<const WHITE: bool>(&self, king: Square, occupied: Bitboard) -> Bitboard {
        let rights = self.castling & Bitboard(if WHITE { 0xff } else { 0xff << 56 });
        let mut clear = Bitboard::EMPTY;
        for rook in rights {
            let path = CastlingPath::of::<WHITE>(king, rook);
            if (Bitboard(path.clear) & occupied).is_empty() {
                clear = clear.with(rook);
            }
        }
        clear
    }

    /// Castling with the rooks `castles`, whose paths are clear, out of check.
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn generate_castling<S: Sink, const WHITE: bool>(
        &self,
        sink: &mut S,
        king: Square,
        castles: Bitboard,
        known: &Known,
    ) {
        if castles.is_empty() {
            // Said outright: otherwise the loop's set-up is hoisted above its first test.
            return;
        }
        for rook in castles {
            let path = CastlingPath::of::<WHITE>(king, rook);
            if self.is_castling_safe::<WHITE>(king, rook, &path, known) {
                sink.single(Move::new(king, rook, MoveKind::Castle));
            }
        }
    }

    /// What the side to move attacks around the enemy king: perft's ply above the last
    /// works it out once, and each of its moves that leaves and lands off `view` hands
    /// the slider part to the generator of the position after it (and, for a move of a
    /// slider, the leaper part too).
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    pub(crate) fn watch(&self) -> Watch {
        let us = self.turn;
        let them = us.other();
        let ours = self.by_color(us);
        let theirs = self.by_color(them);
        let king = self.king(them);
        let beside = attacks::king_attacks(king);
        let mut zone = beside & !theirs;
        for rook in self.castling & Bitboard::rank(back_rank(them)) {
            let path = match them {
                Color::White => CastlingPath::of::<true>(king, rook),
                Color::Black => CastlingPath::of::<false>(king, rook),
            };
            if (Bitboard(path.clear) & theirs).is_empty() {
                zone |= Bitboard(path.walk);
            }
        }
        let lifted = self.occupied().without(king);
        let rooks = self.rooks_queens() & ours;
        let bishops = self.bishops_queens() & ours;
        let mut sliders = Bitboard::EMPTY;
        let mut view = beside & theirs;
        for sq in zone {
            let straight = attacks::rook_attacks(sq, lifted);
            let diagonal = attacks::bishop_attacks(sq, lifted);
            if ((straight & rooks) | (diagonal & bishops)).is_nonempty() {
                sliders = sliders.with(sq);
            }
            view |= straight | diagonal;
        }
        let leapers = match us {
            Color::White => self.leaper_cover::<false>(),
            Color::Black => self.leaper_cover::<true>(),
        };
        // The enemy's castling as it stands: a slider's move off `castles_view` leaves
        // its rights, its paths' occupancy and the attacks on its walks as they were.
        let occupied = self.occupied();
        let mut castles = Bitboard::EMPTY;
        let mut castles_view = view;
        let mut clear_castles = Bitboard::EMPTY;
        let mut clear_view = Bitboard::EMPTY;
        for rook in self.castling & Bitboard::rank(back_rank(them)) {
            let path = match them {
                Color::White => CastlingPath::of::<true>(king, rook),
                Color::Black => CastlingPath::of::<false>(king, rook),
            };
            // An inner Chess960 rook may shield its walk: left to the generator.
            if (Bitboard::from_square(rook) & CORNERS).is_empty() {
                castles_view = Bitboard::FULL;
            }
            castles_view |= Bitboard(path.clear).with(rook);
            clear_view |= Bitboard(path.clear).with(rook);
            if (Bitboard(path.clear) & occupied).is_empty() {
                clear_castles = clear_castles.with(rook);
                if (Bitboard(path.walk) & (leapers | sliders)).is_empty() {
                    castles = castles.with(rook);
                }
            }
        }
        let (pawn_steps, pawn_view) = match them {
            Color::White => self.pawn_steps::<true>(),
            Color::Black => self.pawn_steps::<false>(),
        };
        Watch {
            sliders,
            leapers,
            leapers_view: zone | beside,
            view,
            castles,
            castles_view,
            clear_castles,
            clear_view,
            pawn_steps,
            pawn_view,
        }
    }

    /// The pushes and captures (en passant aside, promotions four times) of white's pawns
    /// when `WHITE`, else black's, without pins or check; and the squares they depend on:
    /// the pawns', those they push across or to and those they attack.
    fn pawn_steps<const WHITE: bool>(&self) -> (u64, Bitboard) {
        let (side, up, last_rank, double_rank) = if WHITE {
            (
                Color::White,
                8,
                Bitboard::rank(Rank::EIGHTH),
                Bitboard::rank(Rank::THIRD),
            )
        } else {
            (
                Color::Black,
                -8,
                Bitboard::rank(Rank::FIRST),
                Bitboard::rank(Rank::SIXTH),
            )
        };
        let pawns = self.pieces(side, Role::Pawn);
        let victims = self.by_color(side.other());
        let occupied = self.occupied();
        let ahead = shift(pawns, up);
        let single = ahead & !occupied;
        let beyond = shift(ahead & double_rank, up);
        let double = shift(single & double_rank, up) & !occupied;
        let left = shift(pawns & NOT_FILE_A, up - 1);
        let right = shift(pawns & NOT_FILE_H, up + 1);
        let mut steps = u64::from(double.count());
        for targets in [single, left & victims, right & victims] {
            steps += u64::from((targets & !last_rank).count());
            steps += 4 * u64::from((targets & last_rank).count());
        }
        (steps, pawns | ahead | beyond | left | right)
    }

    /// The squares the enemy's pawns, knights and king attack.
    fn leaper_cover<const WHITE: bool>(&self) -> Bitboard {
        let them = if WHITE { Color::Black } else { Color::White };
        let theirs = self.by_color(them);
        let their_pawns = self.by_role(Role::Pawn) & theirs;
        let mut cover = match them {
            Color::White => shift(their_pawns & NOT_FILE_A, 7) | shift(their_pawns & NOT_FILE_H, 9),
            Color::Black => {
                shift(their_pawns & NOT_FILE_A, -9) | shift(their_pawns & NOT_FILE_H, -7)
            }
        };
        cover |= attacks::king_attacks(self.king(them));
        for knight in self.by_role(Role::Knight) & theirs {
            cover |= attacks::knight_attacks(knight);
        }
        cover
    }

    /// The king's safe targets among `candidates` (its targets that no enemy pawn, knight
    /// or king covers), tested against sliders with the king lifted off the board (so a
    /// ray through its square counts).
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn king_targets<const WHITE: bool>(
        &self,
        king: Square,
        candidates: Bitboard,
        occupied: Bitboard,
    ) -> Bitboard {
        if candidates.is_empty() {
            return candidates;
        }
        let them = if WHITE { Color::Black } else { Color::White };
        let theirs = self.by_color(them);
        let without_king = occupied.without(king);
        let rooks = self.rooks_queens() & theirs;
        let bishops = self.bishops_queens() & theirs;
        let sliders = rooks | bishops;
        if !Bitboard(sliders.0 & sliders.0.wrapping_sub(1)).has_more_than_one()
            && candidates.has_more_than_one()
        {
            // Two sliders at most and an open king (an endgame): the attacks of each
            // slider aimed at the king's surroundings, rather than a test per square.
            let mut attacked = Bitboard::EMPTY;
            for rook in rooks {
                if (attacks::rook_rays(rook) & candidates).is_nonempty() {
                    attacked |= attacks::rook_attacks(rook, without_king);
                }
            }
            for bishop in bishops {
                if (attacks::bishop_rays(bishop) & candidates).is_nonempty() {
                    attacked |= attacks::bishop_attacks(bishop, without_king);
                }
            }
            return candidates & !attacked;
        }
        // Otherwise a test per square, each looking up only the kinds of slider that
        // stand on one of its lines, which most often none does.
        let mut safe = Bitboard::EMPTY;
        for to in candidates {
            if self
                .slider_attackers(to, rooks, bishops, without_king)
                .is_empty()
            {
                safe = safe.with(to);
            }
        }
        safe
    }

    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn generate_pawns<S: Sink, const WHITE: bool>(
        &self,
        sink: &mut S,
        king: Square,
        pinned: Bitboard,
        target: Bitboard,
        checkers: Bitboard,
        counted: bool,
    ) {
        if !counted {
            self.generate_pawn_steps::<S, WHITE>(sink, king, pinned, target);
        }
        self.generate_en_passant::<S, WHITE>(sink, king, checkers);
    }

    /// Our pawns' pushes and captures (en passant aside), pins and check obeyed.
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn generate_pawn_steps<S: Sink, const WHITE: bool>(
        &self,
        sink: &mut S,
        king: Square,
        pinned: Bitboard,
        target: Bitboard,
    ) {
        let us = if WHITE { Color::White } else { Color::Black };
        let them = us.other();
        let theirs = self.by_color(them);
        let occupied = self.occupied();
        let pawns = self.pieces(us, Role::Pawn);
        let (up, last_rank, double_rank) = match us {
            Color::White => (8, Bitboard::rank(Rank::EIGHTH), Bitboard::rank(Rank::THIRD)),
            Color::Black => (-8, Bitboard::rank(Rank::FIRST), Bitboard::rank(Rank::SIXTH)),
        };

        // Pushes: a pinned pawn may only advance along a pin on the king's file.
        let pushers = pawns & (!pinned | Bitboard::file(king.file()));
        let single = shift(pushers, up) & !occupied;
        let double = shift(single & double_rank, up) & !occupied & target;
        let single = single & target;
        sink.pawns(single & !last_rank, up, MoveKind::Normal);
        sink.promotions(single & last_rank, up);
        sink.pawns(double, 2 * up, MoveKind::DoublePush);

        // Captures by unpinned pawns, set-wise, towards each side.
        let free = pawns & !pinned;
        let victims = theirs & target;
        for (mask, delta) in [(NOT_FILE_A, up - 1), (NOT_FILE_H, up + 1)] {
            let hits = shift(free & mask, delta) & victims;
            sink.pawns(hits & !last_rank, delta, MoveKind::Normal);
            sink.promotions(hits & last_rank, delta);
        }
        // A pinned pawn may capture only the pinning piece along its diagonal.
        for from in pawns & pinned {
            let hits = attacks::pawn_attacks(us, from) & victims & attacks::line(king, from);
            if let Some(to) = hits.first() {
                let delta = to as i32 - from as i32;
                let hit = Bitboard::from_square(to);
                sink.pawns(hit & !last_rank, delta, MoveKind::Normal);
                sink.promotions(hit & last_rank, delta);
            }
        }
    }

    /// Our pawns' en-passant captures.
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn generate_en_passant<S: Sink, const WHITE: bool>(
        &self,
        sink: &mut S,
        king: Square,
        checkers: Bitboard,
    ) {
        let us = if WHITE { Color::White } else { Color::Black };
        if let Some(ep) = self.ep_square {
            for from in self.en_passant_origins(us, ep, king, checkers) {
                sink.single(Move::new(from, ep, MoveKind::EnPassant));
            }
        }
    }

    /// Those of our pawns (`us`, to move) that may capture en passant onto `ep`, with
    /// our king on `king` given check by `checkers` (not a double check: out of one
    /// only the king moves).
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn en_passant_origins(
        &self,
        us: Color,
        ep: Square,
        king: Square,
        checkers: Bitboard,
    ) -> Bitboard {
        let them = us.other();
        let up = if us == Color::White { 8 } else { -8 };
        let victim = Square::from_index_wrapping((ep as i32 - up) as u32);
        // A knight's or another pawn's check cannot be answered by en passant.
        if (checkers
            & !self.by_role(Role::Rook)
            & !self.by_role(Role::Bishop)
            & !self.by_role(Role::Queen))
        .without(victim)
        .is_nonempty()
        {
            return Bitboard::EMPTY;
        }
        let occupied = self.occupied();
        let sliders = self.by_color(them).without(victim);
        let mut origins = Bitboard::EMPTY;
        for from in attacks::pawn_attacks(them, ep) & self.pieces(us, Role::Pawn) {
            // Play it on the occupancy and look for a slider that now sees the king:
            // this covers pins, the two pawns leaving one rank, and slider checks.
            let after = occupied.without(from).without(victim).with(ep);
            if (attacks::rook_attacks(king, after) & self.rooks_queens() & sliders).is_empty()
                && (attacks::bishop_attacks(king, after) & self.bishops_queens() & sliders)
                    .is_empty()
            {
                origins = origins.with(from);
            }
        }
        origins
    }

    /// Whether castling with the rook on `rook`, its path clear and the king not in check,
    /// leaves no square of the king's walk attacked (`cover`: what the enemy's pawns,
    /// knights and king attack). Sliders are looked at only when one stands on a line
    /// through the walk, with king and rook lifted off the board (a Chess960 king or rook
    /// can shield a square until it moves).
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    fn is_castling_safe<const WHITE: bool>(
        &self,
        king: Square,
        rook: Square,
        path: &CastlingPath,
        known: &Known,
    ) -> bool {
        // The squares beside the king that were among its own targets were tested then.
        let near = Bitboard(path.near) & known.candidates;
        if (near & !known.safe).is_nonempty() {
            return false;
        }
        let walk = Bitboard(path.walk) & !near;
        if (walk & known.cover).is_nonempty() {
            return false;
        }
        if let Some(attacked) = known.sliders {
            if (walk & attacked).is_nonempty() {
                return false;
            }
            // A rook in its corner shields no square of the walk: the king lifted was
            // all that mattered. An inner Chess960 rook may, and is lifted below.
            if matches!(rook.file(), File::A | File::H) {
                return true;
            }
        }
        let them = if WHITE { Color::Black } else { Color::White };
        let theirs = self.by_color(them);
        let straight = self.rooks_queens() & theirs;
        let diagonal = self.bishops_queens() & theirs;
        if (Bitboard(path.straight) & straight).is_empty()
            && (Bitboard(path.diagonal) & diagonal).is_empty()
        {
            return true;
        }
        let lifted = self.occupied().without(king).without(rook);
        walk.into_iter().all(|sq| {
            self.slider_attackers(sq, straight, diagonal, lifted)
                .is_empty()
        })
    }

    /// Where king and rook end up when the king castles with the rook on `rook`.
    pub(crate) fn castling_targets(king: Square, rook: Square) -> (Square, Square) {
        let rank = king.rank();
        if rook.file() > king.file() {
            (
                Square::from_coords(File::G, rank),
                Square::from_coords(File::F, rank),
            )
        } else {
            (
                Square::from_coords(File::C, rank),
                Square::from_coords(File::D, rank),
            )
        }
    }

    /// Whether castling with this rook is blocked by another piece.
    pub(crate) fn is_castling_blocked(&self, king: Square, rook: Square) -> bool {
        let (king_to, rook_to) = Position::castling_targets(king, rook);
        let path = (attacks::between(king, king_to).with(king_to)
            | attacks::between(rook, rook_to).with(rook_to))
        .without(king)
        .without(rook);
        (path & self.occupied()).is_nonempty()
    }

    /// The first square on the king's castling path (its destination included) that an
    /// enemy attacks once king and rook have left their squares.
    #[allow(clippy::manual_find)]
    pub(crate) fn castling_attacked_square(&self, king: Square, rook: Square) -> Option<Square> {
        let (king_to, _) = Position::castling_targets(king, rook);
        let occupied = self.occupied().without(king).without(rook);
        let theirs = self.by_color(self.turn.other());
        // A plain loop: `find` would leave it out of line, without the caller's CPU features.
        for sq in attacks::between(king, king_to).with(king_to) {
            if self
                .attackers_seen_first(sq, theirs, occupied)
                .is_nonempty()
            {
                return Some(sq);
            }
        }
        None
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// The number of legal moves, without listing them.
    pub fn count_legal_moves(&self) -> u64 {
        self.count_legal_moves_given(self.checkers_seen_first())
    }

    /// The number of legal moves, given the pieces that check the side to move.
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(always)]
    pub(crate) fn count_legal_moves_given(&self, checkers: Bitboard) -> u64 {
        let mut counter = Counter(0);
        self.generate_given(&mut counter, checkers);
        counter.0
    }

    /// The legal moves of the piece on `from`.
    pub fn legal_moves_from(&self, from: Square) -> MoveList {
        let mut list = self.legal_moves();
        list.retain(|m| m.from() == from);
        list
    }

    /// Whether a move is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(m)
    }

    /// Whether the side to move has a legal move. Out of check, any move of a piece
    /// that is neither the king nor pinned is legal, and nearly every position has one:
    /// only the others need the generator.
    pub fn has_legal_moves(&self) -> bool {
        // Asked once a game when replaying records, when the large slider tables are
        // no longer in the cache: every test here reads the small tables the search of
        // a move reads (steps, rays, `between`).
        let us = self.turn;
        let theirs = self.by_color(us.other());
        let ours = self.by_color(us);
        let king = self.king(us);
        let occupied = self.occupied();
        if self.attackers_by_paths(king, theirs, occupied).is_empty() {
            let free = ours & !self.pinned_by_paths(king, theirs, occupied);
            if (free & self.by_role(Role::Knight))
                .any(|from| (attacks::knight_attacks(from) & !ours).is_nonempty())
            {
                return true;
            }
            let up = if us == Color::White { 8 } else { -8 };
            if (shift(free & self.by_role(Role::Pawn), up) & !occupied).is_nonempty() {
                return true;
            }
            // A slider that can move can move to a square beside it.
            let next = |from: Square, rays: Bitboard| attacks::king_attacks(from) & rays & !ours;
            if (free & self.bishops_queens())
                .any(|from| next(from, attacks::bishop_rays(from)).is_nonempty())
                || (free & self.rooks_queens())
                    .any(|from| next(from, attacks::rook_rays(from)).is_nonempty())
            {
                return true;
            }
        }
        let lifted = occupied.without(king);
        if (attacks::king_attacks(king) & !ours)
            .any(|to| self.attackers_by_paths(to, theirs, lifted).is_empty())
        {
            return true;
        }
        self.has_legal_moves_generated()
    }

    /// `has_legal_moves` where its shortcut cannot tell (in check, or every piece
    /// stuck or pinned): apart, so that the shortcut's few lines are all a game's end
    /// brings into the instruction cache.
    // Forced: perft 57% more instructions without the perft path's forced inlines.
    #[inline(never)]
    fn has_legal_moves_generated(&self) -> bool {
        let mut any = Any(false);
        self.generate(&mut any);
        any.0
    }

    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// The legal moves to `to`, with every castling move too when `castles`: the
    /// candidates of a SAN move. Found from the target square (the pieces that reach
    /// it, then pins and check), without working out every other move; castling and en
    /// passant, rare and intricate, come from the full generator.
    #[cfg(test)]
    pub(crate) fn legal_moves_to(&self, to: Square, castles: bool) -> ShortList {
        let mut list = ShortList::new();
        self.legal_moves_of_to(None, to, castles, &mut list);
        list
    }

    /// `legal_moves_to`, of the pieces of one kind only when `only` names it (castling
    /// moves are the king's).
    /// `legal_moves_to` into `list` (which must be empty), of the pieces of one kind
    /// only when `only` names it (castling moves are the king's).
    pub(crate) fn legal_moves_of_to(
        &self,
        only: Option<Role>,
        to: Square,
        castles: bool,
        list: &mut ShortList,
    ) {
        let wants = |role: Role| only.is_none_or(|r| r == role);
        if castles || self.ep_square == Some(to) {
            let mut sink = ToSquare {
                to,
                castles,
                list: ShortList::new(),
            };
            self.generate(&mut sink);
            // The whole generator lists every piece's moves: keep those of the kind asked.
            for &m in sink.list.as_slice() {
                if wants(self.role_at(m.from()).unwrap_or(Role::Pawn)) {
                    list.push(m);
                }
            }
            return;
        }
        let us = self.turn;
        let them = us.other();
        let ours = self.by_color(us);
        let theirs = self.by_color(them);
        if ours.contains(to) {
            return;
        }
        let occupied = ours | theirs;
        let king = self.king(us);
        if wants(Role::King)
            && attacks::king_attacks(king).contains(to)
            && self
                .attackers_to(to, them, occupied.without(king))
                .is_empty()
        {
            list.push(Move::new(king, to, MoveKind::Normal));
        }
        let checkers = self.attackers_to(king, them, occupied);
        if checkers.has_more_than_one() {
            return;
        }
        if let Some(checker) = checkers.first() {
            if !attacks::between(king, checker).with(checker).contains(to) {
                return;
            }
        }
        if only == Some(Role::King) {
            return;
        }
        let free = |from: Square| self.leaves_king_safe(king, from, to, occupied);
        let kind = |role: Role| match only {
            None => self.by_role(role),
            Some(r) if r == role => self.by_role(role),
            _ => Bitboard::EMPTY,
        };
        let diagonal = kind(Role::Bishop) | kind(Role::Queen);
        let straight = kind(Role::Rook) | kind(Role::Queen);
        let mut pieces = Bitboard::EMPTY;
        if wants(Role::Knight) {
            pieces |= attacks::knight_attacks(to) & self.by_role(Role::Knight);
        }
        if (diagonal & ours).is_nonempty() {
            pieces |= attacks::bishop_attacks(to, occupied) & diagonal;
        }
        if (straight & ours).is_nonempty() {
            pieces |= attacks::rook_attacks(to, occupied) & straight;
        }
        for from in pieces & ours {
            if free(from) {
                list.push(Move::new(from, to, MoveKind::Normal));
            }
        }
        if !wants(Role::Pawn) {
            return;
        }
        let pawns = self.pieces(us, Role::Pawn);
        let (up, last, fourth) = match us {
            Color::White => (8, Rank::EIGHTH, Rank::FOURTH),
            Color::Black => (-8, Rank::FIRST, Rank::FIFTH),
        };
        let push_pawn = |list: &mut ShortList, from: Square, kind: MoveKind| {
            if !free(from) {
                return;
            }
            if to.rank() == last {
                for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    list.push(Move::new(from, to, MoveKind::Promotion(role)));
                }
            } else {
                list.push(Move::new(from, to, kind));
            }
        };
        if theirs.contains(to) {
            for from in attacks::pawn_attacks(them, to) & pawns {
                push_pawn(list, from, MoveKind::Normal);
            }
        } else if let Some(one) = square_at(to as i32 - up) {
            if pawns.contains(one) {
                push_pawn(list, one, MoveKind::Normal);
            } else if to.rank() == fourth && !occupied.contains(one) {
                if let Some(two) = square_at(one as i32 - up) {
                    if pawns.contains(two) {
                        push_pawn(list, two, MoveKind::DoublePush);
                    }
                }
            }
        }
    }

    /// Whether the piece on `from` (not the king) may leave for `to` without exposing
    /// its king: it may unless it stands alone between the king and an enemy slider on
    /// a line that `to` is not on. Most pieces stand on no line with their king, and
    /// this spares them the pin search's table lookups.
    // Forced: --pgn 13% more instructions without its path's forced inlines.
    #[inline(always)]
    fn leaves_king_safe(&self, king: Square, from: Square, to: Square, occupied: Bitboard) -> bool {
        // Only the king's rows of the geometry tables are read, which stay in cache.
        // The three ways a piece is free (on no line with its king, shielded by another
        // piece, moving along the line) are told by one test, not one each: which
        // holds is the file's choice, and no predictor follows it.
        let line = attacks::line(king, from);
        let shielded = (attacks::between(king, from) & occupied).is_nonempty();
        if line.is_empty() | line.contains(to) | shielded {
            return true;
        }
        let straight = attacks::rook_rays(king).contains(from);
        // A slider of theirs on the line beyond `from` pins it when nothing else stands
        // between: told from the small `between` table, not from a slider lookup in the
        // large magic tables, which a long game's replay keeps missing in the cache.
        let open = occupied.without(from);
        let sliders = if straight {
            self.rooks_queens()
        } else {
            self.bishops_queens()
        };
        let theirs = self.by_color(self.turn.other());
        !(sliders & theirs & line).any(|sniper| {
            let path = attacks::between(king, sniper);
            path.contains(from) && (path & open).is_empty()
        })
    }

    /// The knights, kings and pawns standing where such a piece of the side not to move
    /// would attack `sq`, of both colours (callers keep the enemy's): the leaper half of
    /// the two attacker tests below.
    fn leapers_at(&self, sq: Square) -> Bitboard {
        (attacks::knight_attacks(sq) & self.by_role(Role::Knight))
            | (attacks::king_attacks(sq) & self.by_role(Role::King))
            | (attacks::pawn_attacks(self.turn, sq) & self.by_role(Role::Pawn))
    }

    /// `attackers_seen_first`, with the sliders found by their clear paths in the small
    /// `between` table instead of a slider lookup: for the one-move searches of records,
    /// where the large magic tables are seldom in the cache.
    // Forced: --pgn 13% more instructions without its path's forced inlines.
    #[inline(always)]
    pub(crate) fn attackers_by_paths(
        &self,
        sq: Square,
        theirs: Bitboard,
        occupied: Bitboard,
    ) -> Bitboard {
        let sliders = (attacks::rook_rays(sq) & self.rooks_queens())
            | (attacks::bishop_rays(sq) & self.bishops_queens());
        (self.leapers_at(sq) & theirs) | clear_paths(sq, sliders & theirs, occupied)
    }

    /// The squares the bishop, rook or queen on `sq` attacks.
    pub(crate) fn slider_targets(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let mut targets = Bitboard::EMPTY;
        if self.bishops_queens().contains(sq) {
            targets |= attacks::bishop_attacks(sq, occupied);
        }
        if self.rooks_queens().contains(sq) {
            targets |= attacks::rook_attacks(sq, occupied);
        }
        targets
    }

    /// Which of `straight` (moving like rooks) and `diagonal` (like bishops) attack
    /// `sq`: a slider lookup is made only for a kind that stands on one of the lines
    /// through `sq`, which most often none does.
    fn slider_attackers(
        &self,
        sq: Square,
        straight: Bitboard,
        diagonal: Bitboard,
        occupied: Bitboard,
    ) -> Bitboard {
        let mut found = Bitboard::EMPTY;
        if (attacks::rook_rays(sq) & straight).is_nonempty() {
            found |= attacks::rook_attacks(sq, occupied) & straight;
        }
        if (attacks::bishop_rays(sq) & diagonal).is_nonempty() {
            found |= attacks::bishop_attacks(sq, occupied) & diagonal;
        }
        found
    }

    /// The pieces of `theirs` (the side not to move) that attack `sq`: `attackers_to`
    /// with the slider lookups made only when needed.
    // Forced: --pgn 13% more instructions without its path's forced inlines.
    #[inline(always)]
    fn attackers_seen_first(&self, sq: Square, theirs: Bitboard, occupied: Bitboard) -> Bitboard {
        (self.leapers_at(sq) & theirs)
            | self.slider_attackers(
                sq,
                self.rooks_queens() & theirs,
                self.bishops_queens() & theirs,
                occupied,
            )
    }

    /// The one legal move of a `role` piece standing on `origins` to `to`, promoting to
    /// `promotion`: what a SAN move names, found without listing any move. `None` when
    /// there is no such move or more than one, and for what this shortcut leaves to
    /// `legal_moves_of_to` (castling, en passant, a promotion without its piece).
    // Forced: --pgn 13% more instructions without its path's forced inlines.
    #[inline(always)]
    pub(crate) fn unique_move_to(
        &self,
        role: Role,
        to: Square,
        origins: Bitboard,
        promotion: Option<Role>,
    ) -> Option<Move> {
        let us = self.turn;
        let them = us.other();
        let ours = self.by_color(us);
        let theirs = self.by_color(them);
        if ours.contains(to) {
            return None;
        }
        let occupied = ours | theirs;
        let mine = self.pieces(us, role) & origins;
        let (up, last, fourth) = match us {
            Color::White => (8, Rank::EIGHTH, Rank::FOURTH),
            Color::Black => (-8, Rank::FIRST, Rank::FIFTH),
        };
        let froms = if role != Role::Pawn {
            // One lookup for every piece, with no branch on which: the slider tables
            // are too large to stay in cache, so the few pieces on the lines through
            // `to` are checked for a clear path in the smaller `between`, which is
            // empty from a knight's or king's square.
            clear_paths(to, attacks::reach(role, to) & mine, occupied)
        } else if theirs.contains(to) {
            attacks::pawn_attacks(them, to) & mine
        } else {
            let one = square_at(to as i32 - up)?;
            if occupied.contains(one) {
                mine & Bitboard::from_square(one)
            } else if to.rank() == fourth {
                mine & Bitboard::from_square(square_at(one as i32 - up)?)
            } else {
                Bitboard::EMPTY
            }
        };
        if froms.is_empty() || (role == Role::Pawn && self.ep_square == Some(to)) {
            return None;
        }
        if (role == Role::Pawn && to.rank() == last) != promotion.is_some() {
            return None;
        }
        let from = self.one_safe_origin(role, froms, to, theirs, occupied)?;
        Some(plain_move(role, from, to, promotion))
    }

    /// The legal move of our piece on `from` to `to`, promoting to `promotion`, with
    /// the piece's role: what a UCI move names, checked from its origin without listing
    /// any move. `None` when it is not legal, and for what this shortcut leaves to the
    /// full lookup (castling, en passant, a promotion letter on another move).
    ///
    /// Which piece stands on the origin is a replayed game's choice at every ply, and
    /// no predictor follows it: the piece is found, and its reach and the king's safety
    /// tested, without a branch on the piece.
    // Forced: position requests 3.6% more instructions without their path's forced inlines.
    #[inline(always)]
    pub(crate) fn plain_move_from(
        &self,
        from: Square,
        to: Square,
        promotion: Option<Role>,
    ) -> Option<(Move, Role)> {
        let us = self.turn;
        let ours = self.by_color(us);
        let theirs = self.by_color(us.other());
        if !ours.contains(from) || ours.contains(to) {
            return None;
        }
        let occupied = ours | theirs;
        let role = self.role_of_piece_on(from);
        let pawn = role == Role::Pawn;
        // A pawn's row of the reach table is empty: its own targets are added under a
        // mask instead of a branch. A double push's skipped square, like a slider's
        // path, is `between` the two squares.
        let pawn_targets = (attacks::pawn_attacks(us, from) & theirs)
            | (attacks::pawn_pushes(us, from) & !occupied);
        let targets = attacks::reach(role, from) | (pawn_targets & Bitboard::mask_if(pawn));
        let reaches = targets.contains(to) & (attacks::between(from, to) & occupied).is_empty();
        let promotes = pawn & (to.rank() == back_rank(us.other()));
        if !reaches || promotes != promotion.is_some() {
            return None;
        }
        // Legal when our king, wherever it stands after the move, is not attacked: one
        // test for every piece, in check or not.
        let king = if role == Role::King {
            to
        } else {
            self.king(us)
        };
        let after = occupied.without(from).with(to);
        self.attackers_by_paths(king, theirs.without(to), after)
            .is_empty()
            .then(|| (plain_move(role, from, to, promotion), role))
    }

    /// The one of `froms`, where our `role` pieces stand that reach `to`, whose move
    /// there leaves our king safe; `None` when none does or more than one.
    // Forced: --pgn 13% more instructions without its path's forced inlines.
    #[inline(always)]
    fn one_safe_origin(
        &self,
        role: Role,
        froms: Bitboard,
        to: Square,
        theirs: Bitboard,
        occupied: Bitboard,
    ) -> Option<Square> {
        let king = self.king(self.turn);
        if role == Role::King {
            // One king, so one origin at most.
            let from = froms.first()?;
            return self
                .attackers_by_paths(to, theirs, occupied.without(king))
                .is_empty()
                .then_some(from);
        }
        let checkers = self.attackers_by_paths(king, theirs, occupied);
        if let Some(checker) = checkers.first() {
            if checkers.has_more_than_one()
                || !attacks::between(king, checker).with(checker).contains(to)
            {
                return None;
            }
        }
        let mut found = None;
        for from in froms {
            if self.leaves_king_safe(king, from, to, occupied) {
                if found.is_some() {
                    return None;
                }
                found = Some(from);
            }
        }
        found
    }

    /// The en-passant square only when a legal en-passant capture exists: the
    /// generator's test of each capture alone (a repetition key asks after most double
    /// pushes, and the whole generator's run cost more than the rest of the move).
    pub fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        let us = self.turn;
        let king = self.king(us);
        let checkers = self.checkers();
        // Out of a double check only the king moves.
        if checkers.has_more_than_one() {
            return None;
        }
        self.en_passant_origins(us, ep, king, checkers)
            .is_nonempty()
            .then_some(ep)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn positions() -> Vec<Position> {
        crate::playouts::playouts(20, 60, 0x9e37_79b9_7f4a_7c15)
    }

    #[test]
    fn moves_to_a_square_are_the_full_list_filtered() {
        for pos in positions() {
            let all = pos.legal_moves();
            for to in Square::ALL {
                let mut expected: Vec<Move> = all
                    .iter()
                    .copied()
                    .filter(|m| !m.is_castle() && m.to() == to)
                    .collect();
                let mut got: Vec<Move> = pos.legal_moves_to(to, false).as_slice().to_vec();
                expected.sort_by_key(|m| format!("{m:?}"));
                got.sort_by_key(|m| format!("{m:?}"));
                assert_eq!(got, expected, "{} to {to}", pos.fen());
            }
            let castles: Vec<Move> = all.iter().copied().filter(|m| m.is_castle()).collect();
            let got: Vec<Move> = pos
                .legal_moves_to(Square::A1, true)
                .as_slice()
                .iter()
                .copied()
                .filter(|m| m.is_castle())
                .collect();
            assert_eq!(got, castles, "{}", pos.fen());
        }
    }

    /// `unique_move_to` names the one legal move of a piece kind to a square, from a set
    /// of origins (all squares, or a file or rank as SAN's hints give), exactly when the
    /// full list has one (en passant is left to the caller), and nothing when it has none
    /// or several.
    #[test]
    fn the_unique_move_to_a_square_is_the_full_list_filtered() {
        let mut found = 0;
        for pos in positions().into_iter().step_by(3) {
            let all = pos.legal_moves();
            for role in Role::ALL {
                for to in Square::ALL {
                    let moves: Vec<Move> = all
                        .iter()
                        .copied()
                        .filter(|m| {
                            !m.is_castle() && m.to() == to && pos.role_at(m.from()) == Some(role)
                        })
                        .collect();
                    let mut origin_sets = vec![Bitboard::FULL];
                    for m in &moves {
                        origin_sets.push(Bitboard::file(m.from().file()));
                        origin_sets.push(Bitboard::rank(m.from().rank()));
                    }
                    let promotions = [None, Some(Role::Queen), Some(Role::Knight)];
                    for origins in origin_sets {
                        for promotion in promotions {
                            let expected: Vec<Move> = moves
                                .iter()
                                .copied()
                                .filter(|m| {
                                    origins.contains(m.from()) && m.promotion() == promotion
                                })
                                .collect();
                            let got = pos.unique_move_to(role, to, origins, promotion);
                            match expected.as_slice() {
                                [only] if only.is_en_passant() => {
                                    assert!(got.is_none() || got == Some(*only))
                                }
                                [only] => {
                                    found += 1;
                                    assert_eq!(got, Some(*only), "{} {role:?} to {to}", pos.fen())
                                }
                                _ => assert_eq!(got, None, "{} {role:?} to {to}", pos.fen()),
                            }
                        }
                    }
                }
            }
        }
        assert!(found > 10_000, "only {found} unique moves looked at");
    }

    /// The moves of one kind of piece to a square, en-passant squares among them (where
    /// the whole generator is asked), are the full list filtered by that kind.
    #[test]
    fn moves_of_one_kind_to_a_square_are_the_full_list_filtered() {
        let mut ep_squares = 0;
        for pos in positions() {
            let all = pos.legal_moves();
            let mut targets: Vec<Square> = all.iter().map(|m| m.to()).collect();
            targets.extend(pos.ep_square);
            ep_squares += usize::from(pos.ep_square.is_some());
            for to in targets {
                for role in Role::ALL {
                    let mut expected: Vec<Move> = all
                        .iter()
                        .copied()
                        .filter(|m| !m.is_castle() && m.to() == to)
                        .filter(|m| pos.role_at(m.from()) == Some(role))
                        .collect();
                    let mut got = ShortList::new();
                    pos.legal_moves_of_to(Some(role), to, false, &mut got);
                    let mut got = got.as_slice().to_vec();
                    expected.sort_by_key(|m| format!("{m:?}"));
                    got.sort_by_key(|m| format!("{m:?}"));
                    assert_eq!(got, expected, "{} {role:?} to {to}", pos.fen());
                }
            }
        }
        assert!(ep_squares > 100, "only {ep_squares} en-passant squares");
    }

    /// The en-passant square is kept exactly when the generator lists an en-passant
    /// capture.
    #[test]
    fn the_legal_en_passant_square_is_the_generators() {
        let mut legal = 0;
        let mut illegal = 0;
        for pos in positions().into_iter().chain(
            [
                // Pinned along the rank once both pawns leave it.
                "8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1",
                // The double-pushed pawn gives check: taking it answers.
                "8/8/8/3k4/3pP3/8/8/4K3 b - e3 0 1",
                // Pinned on the diagonal to the king.
                "8/8/8/4k3/3pP3/8/8/B3K3 b - e3 0 1",
            ]
            .iter()
            .map(|fen| Position::from_fen(fen).unwrap()),
        ) {
            let Some(ep) = pos.ep_square else {
                continue;
            };
            let listed = pos
                .legal_moves()
                .iter()
                .any(|m| m.is_en_passant() && m.to() == ep);
            assert_eq!(pos.legal_ep_square().is_some(), listed, "{}", pos.fen());
            legal += usize::from(listed);
            illegal += usize::from(!listed);
        }
        assert!(legal > 10 && illegal > 3, "{legal} legal, {illegal} not");
    }

    /// The castling table holds, for every king and rook of either side, the squares
    /// that `castling_targets` and `between` give.
    #[test]
    fn castling_paths_match_the_geometry() {
        for rank in [Rank::FIRST, Rank::EIGHTH] {
            for king_file in File::ALL {
                for rook_file in File::ALL.into_iter().filter(|&f| f != king_file) {
                    let king = Square::from_coords(king_file, rank);
                    let rook = Square::from_coords(rook_file, rank);
                    let (king_to, rook_to) = Position::castling_targets(king, rook);
                    let walk = attacks::between(king, king_to).with(king_to);
                    let clear = (walk | attacks::between(rook, rook_to).with(rook_to))
                        .without(king)
                        .without(rook);
                    let path = if rank == Rank::FIRST {
                        CastlingPath::of::<true>(king, rook)
                    } else {
                        CastlingPath::of::<false>(king, rook)
                    };
                    assert_eq!(Bitboard(path.walk), walk, "{king} {rook}");
                    assert_eq!(Bitboard(path.clear), clear, "{king} {rook}");
                    let corner = rook_file == File::A || rook_file == File::H;
                    let beside = attacks::king_attacks(king) & walk;
                    let near = if corner { beside } else { Bitboard::EMPTY };
                    assert_eq!(Bitboard(path.near), near, "{king} {rook}");
                    for sq in walk & !near {
                        assert_eq!(
                            Bitboard(path.straight) & attacks::rook_rays(sq),
                            attacks::rook_rays(sq)
                        );
                        assert_eq!(
                            Bitboard(path.diagonal) & attacks::bishop_rays(sq),
                            attacks::bishop_rays(sq)
                        );
                    }
                }
            }
        }
    }

    /// A Chess960 rook that shields the king's destination from an enemy rook behind it
    /// cannot castle: the square next to the king was safe only while the rook stood
    /// there. With the enemy rook gone, the same castling is legal.
    #[test]
    fn an_inner_rook_shielding_the_walk_cannot_castle() {
        let castles = |fen: &str| {
            let pos = Position::from_fen(fen).expect("legal");
            pos.legal_moves().iter().filter(|m| m.is_castle()).count()
        };
        assert_eq!(castles("4k3/8/8/8/8/8/8/rR1K4 w B - 0 1"), 0);
        assert_eq!(castles("4k3/8/8/8/8/8/8/1R1K4 w B - 0 1"), 1);
    }

    /// The checkers found by their lines are those the slider lookups find.
    #[test]
    fn checkers_by_their_lines_are_the_attackers() {
        let mut checks = 0;
        for pos in positions() {
            let us = pos.turn();
            let attackers = pos.attackers_to(pos.king(us), us.other(), pos.occupied());
            assert_eq!(pos.checkers(), attackers, "{}", pos.fen());
            checks += usize::from(attackers.is_nonempty());
        }
        assert!(checks > 50, "only {checks} checks");
    }

    #[test]
    fn has_legal_moves_agrees_with_the_list() {
        let positions = positions();
        assert!(positions.iter().any(|p| p.legal_moves().is_empty()));
        for pos in positions {
            assert_eq!(
                pos.has_legal_moves(),
                !pos.legal_moves().is_empty(),
                "{}",
                pos.fen()
            );
        }
    }
}
