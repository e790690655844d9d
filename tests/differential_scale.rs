//! The differential run at scale: a million (or `DIFF_POSITIONS`) positions from seeded
//! random games, each compared with `shakmaty`, and every disagreement reported.
//!
//! Per position: the FEN, the legal moves (UCI, in the game's castling notation), the
//! checkers, check, checkmate, stalemate, insufficient material per side, the Polyglot
//! key, the SAN of every legal move, and perft 2. Games start from the standard position,
//! random Chess960 starts and the perft suite; move choice favours castling, en passant,
//! promotions (under-promotions with capture above all), checks and captures, so the
//! rare rules come up tens of thousands of times.
//!
//! `scripts/differential` runs the ignored test; `DIFF_POSITIONS=N` and `DIFF_SEED=S`
//! scale and vary it. The default test run compares a small slice.

use arbiter::moves::CastlingMode;
use arbiter::moves::{Move, MoveKind};
use arbiter::perft::perft;
use arbiter::position::Position;
use arbiter::role::Role;
use shakmaty::fen::Fen;
use shakmaty::{Chess, Position as _};

use super::differential::{chess960_fen, shakmaty_mode, suite_starts, Rng};

const PLIES_PER_GAME: usize = 100;
const MAX_REPORTED: usize = 50;

/// What the run went through.
#[derive(Debug, Default)]
struct Tally {
    positions: u64,
    games: u64,
    castles: u64,
    en_passants: u64,
    promotions: u64,
    under_promotion_captures: u64,
    checks: u64,
    double_checks: u64,
    checkmates: u64,
    stalemates: u64,
    insufficient: u64,
    perft2_nodes: u64,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.positions += o.positions;
        self.games += o.games;
        self.castles += o.castles;
        self.en_passants += o.en_passants;
        self.promotions += o.promotions;
        self.under_promotion_captures += o.under_promotion_captures;
        self.checks += o.checks;
        self.double_checks += o.double_checks;
        self.checkmates += o.checkmates;
        self.stalemates += o.stalemates;
        self.insufficient += o.insufficient;
        self.perft2_nodes += o.perft2_nodes;
    }
}

/// The first disagreement in one position, in words: everything
/// `differential::compare` checks (FEN, legal moves and their SAN, checkers,
/// check/checkmate/stalemate, insufficient material, the Polyglot key and more), then
/// perft 2.
fn compare(ours: &Position, theirs: &Chess, mode: CastlingMode) -> Result<(), String> {
    super::differential::compare(ours, theirs, mode, false)?;
    let (a, b) = (perft(ours, 2), shakmaty::perft(theirs, 2));
    if a != b {
        return Err(format!("perft 2: ours {a}, shakmaty {b}"));
    }
    Ok(())
}

/// A legal move, preferring the rare kinds.
fn choose(pos: &Position, rng: &mut Rng) -> Option<Move> {
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    if moves.is_empty() {
        return None;
    }
    let capture = |m: &Move| pos.occupied().contains(m.to()) && !m.is_castle();
    let filter = |keep: &dyn Fn(Move) -> bool| -> Vec<Move> {
        moves.iter().copied().filter(|&m| keep(m)).collect()
    };
    let checks = |m: Move| pos.after(m).checkers().count();
    let kinds: [(usize, Vec<Move>); 7] = [
        (90, filter(&|m| m.is_castle())),
        (90, filter(&|m| m.is_en_passant())),
        (90, filter(&|m| checks(m) > 1)),
        (
            85,
            filter(&|m| m.promotion().is_some_and(|r| r != Role::Queen) && capture(&m)),
        ),
        (70, filter(&|m| m.promotion().is_some())),
        (35, filter(&|m| checks(m) > 0)),
        (30, filter(&|m| capture(&m))),
    ];
    for (percent, candidates) in kinds {
        if !candidates.is_empty() && rng.chance(percent) {
            return Some(candidates[rng.below(candidates.len())]);
        }
    }
    Some(moves[rng.below(moves.len())])
}

/// Plays one game, comparing every position; stops at `budget` positions.
fn play_game(
    fen: &str,
    mode: CastlingMode,
    rng: &mut Rng,
    budget: u64,
    tally: &mut Tally,
    failures: &mut Vec<String>,
) {
    let mut ours = Position::from_fen(fen).unwrap();
    let mut theirs: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(shakmaty_mode(mode))
        .unwrap();
    tally.games += 1;
    let mut history = String::new();
    for _ in 0..PLIES_PER_GAME {
        if tally.positions >= budget {
            return;
        }
        tally.positions += 1;
        if let Err(e) = compare(&ours, &theirs, mode) {
            failures.push(format!(
                "{}: {e}\n  start {fen}\n  moves{history}",
                ours.fen()
            ));
            return;
        }
        tally.perft2_nodes += perft(&ours, 2);
        let checkers = ours.checkers().count();
        tally.checks += u64::from(checkers > 0);
        tally.double_checks += u64::from(checkers > 1);
        tally.checkmates += u64::from(ours.is_checkmate());
        tally.stalemates += u64::from(ours.is_stalemate());
        tally.insufficient += u64::from(ours.is_insufficient_material());
        if ours.is_insufficient_material() || ours.halfmoves() >= 150 {
            return;
        }
        let Some(m) = choose(&ours, rng) else {
            return;
        };
        tally.castles += u64::from(m.is_castle());
        tally.en_passants += u64::from(m.is_en_passant());
        if m.promotion().is_some() {
            tally.promotions += 1;
            let underpromotion = m.promotion() != Some(Role::Queen);
            tally.under_promotion_captures +=
                u64::from(underpromotion && ours.occupied().contains(m.to()));
        }
        // Match the move on their side by its Chess960 UCI text, which is unambiguous.
        let uci = m.to_uci(CastlingMode::Chess960).to_string();
        let Some(their_move) = theirs
            .legal_moves()
            .iter()
            .find(|t| t.to_uci(shakmaty::CastlingMode::Chess960).to_string() == uci)
            .cloned()
        else {
            failures.push(format!("{}: shakmaty has no move {uci}", ours.fen()));
            return;
        };
        history.push(' ');
        history.push_str(&uci);
        debug_assert!(matches!(m.kind(), MoveKind::Castle) == m.is_castle());
        ours.play_unchecked(m);
        theirs.play_unchecked(&their_move);
    }
}

/// The start positions: (FEN, castling mode), cycled through game by game.
fn starts(rng: &mut Rng) -> Vec<(String, CastlingMode)> {
    let mut starts = suite_starts();
    for _ in 0..starts.len() {
        starts.push((Position::startpos().fen(), CastlingMode::Standard));
        starts.push((chess960_fen(rng.below(960), false), CastlingMode::Chess960));
    }
    starts
}

/// Compares `positions` positions over two or more threads; the tally and failures.
fn run(positions: u64, seed: u64) -> (Tally, Vec<String>) {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(8)) as u64;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|worker| {
                scope.spawn(move || {
                    let mut rng = Rng::new(seed ^ worker.wrapping_mul(0x2545_F491_4F6C_DD1D));
                    let starts = starts(&mut rng);
                    let budget = positions / workers + u64::from(worker < positions % workers);
                    let mut tally = Tally::default();
                    let mut failures = Vec::new();
                    let mut next = 0;
                    while tally.positions < budget && failures.len() < MAX_REPORTED {
                        let (fen, mode) = &starts[next % starts.len()];
                        next += 1;
                        play_game(fen, *mode, &mut rng, budget, &mut tally, &mut failures);
                    }
                    (tally, failures)
                })
            })
            .collect();
        let mut total = Tally::default();
        let mut failures = Vec::new();
        for handle in handles {
            let (tally, part) = handle.join().unwrap();
            total.add(&tally);
            failures.extend(part);
        }
        (total, failures)
    })
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(default)
}

fn check(positions: u64, seed: u64) -> Tally {
    let started = std::time::Instant::now();
    let (tally, failures) = run(positions, seed);
    eprintln!(
        "differential (seed {seed:#x}): {tally:?} in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} disagreements with shakmaty:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(tally.positions, positions);
    tally
}

#[test]
fn a_slice_of_positions_agrees_with_shakmaty() {
    let tally = check(20_000, 0x5EED_0001);
    assert!(tally.castles > 50 && tally.en_passants > 10, "{tally:?}");
    assert!(tally.under_promotion_captures > 5, "{tally:?}");
}

#[test]
#[ignore = "a million positions take minutes; run by scripts/differential"]
fn a_million_positions_agree_with_shakmaty() {
    let positions = env_u64("DIFF_POSITIONS", 1_000_000);
    let seed = env_u64("DIFF_SEED", 0xC0FF_EE00_2026_0004);
    let tally = check(positions, seed);
    if positions >= 1_000_000 {
        assert!(tally.castles > 4_000, "{tally:?}");
        assert!(tally.en_passants > 1_000, "{tally:?}");
        assert!(tally.under_promotion_captures > 500, "{tally:?}");
        assert!(tally.double_checks > 1_000, "{tally:?}");
        assert!(tally.checkmates > 500 && tally.stalemates > 50, "{tally:?}");
    }
}
