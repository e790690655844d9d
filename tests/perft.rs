//! Perft counts: the shared suite (Stockfish's counts) and the published deep ones.

use arbiter::perft::perft;
use arbiter::position::Position;

/// Node counts above this run only with `--ignored` (see `scripts/perft-deep`).
const QUICK_LIMIT: u64 = 3_000_000;

struct Case {
    fen: String,
    depths: Vec<(u32, u64)>,
}

fn suite() -> Vec<Case> {
    include_str!("data/perft-suite.epd")
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let mut fields = line.split(';');
            let fen = fields.next().unwrap_or_default().trim().to_string();
            let depths = fields
                .filter_map(|f| {
                    let f = f.trim();
                    let rest = f.strip_prefix('D')?;
                    let (depth, count) = rest.split_once(' ')?;
                    Some((depth.parse().ok()?, count.trim().parse().ok()?))
                })
                .collect();
            Case { fen, depths }
        })
        .collect()
}

fn check_suite(keep: impl Fn(u64) -> bool) {
    let cases = suite();
    assert_eq!(cases.len(), 67, "the suite has 67 positions");
    // A malformed depth field would drop its check silently: count them all.
    let depths: usize = cases.iter().map(|case| case.depths.len()).sum();
    assert_eq!(depths, 341, "the suite has 341 position-depth counts");
    let mut failures = Vec::new();
    for case in &cases {
        let pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        for &(depth, expected) in case.depths.iter().filter(|(_, n)| keep(*n)) {
            let got = perft(&pos, depth);
            if got != expected {
                failures.push(format!(
                    "{} depth {depth}: expected {expected}, got {got}",
                    case.fen
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn suite_at_quick_depths() {
    check_suite(|n| n <= QUICK_LIMIT);
}

#[test]
#[ignore = "deep: about a billion nodes; run by scripts/perft-deep"]
fn suite_at_deep_depths() {
    check_suite(|n| n > QUICK_LIMIT);
}

#[test]
#[ignore = "deep: run by scripts/perft-deep"]
fn startpos_depth_6() {
    assert_eq!(perft(&Position::startpos(), 6), 119_060_324);
}

#[test]
#[ignore = "deep: run by scripts/perft-deep"]
fn kiwipete_depth_5() {
    let pos =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    assert_eq!(pos.map(|p| perft(&p, 5)), Ok(193_690_690));
}

#[test]
#[ignore = "deep: run by scripts/perft-deep"]
fn position_3_depth_7() {
    let pos = Position::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1");
    assert_eq!(pos.map(|p| perft(&p, 7)), Ok(178_633_661));
}

#[test]
fn startpos_depth_5() {
    assert_eq!(perft(&Position::startpos(), 5), 4_865_609);
}
