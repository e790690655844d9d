//! The fuzz targets' seeds and every crash the fuzzers found, replayed through the same
//! invariants (`fuzz/checks.rs`) in the normal test run, plus the crashes as plain tests.

use std::path::Path;

use arbiter::fen::{ParseFenError, MAX_CLOCK};
use arbiter::position::Position;

#[path = "../fuzz/checks.rs"]
mod checks;

/// Runs every file of `fuzz/seeds/<target>` and `fuzz/regressions/<target>` through
/// `check`; returns how many there were.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut count = 0;
    for kind in ["seeds", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(kind).join(target)) else {
            continue;
        };
        let mut paths: Vec<_> = entries
            .map(|e| e.expect("directory entry").path())
            .collect();
        paths.sort();
        for path in paths {
            let data = std::fs::read(&path).expect("read input");
            eprintln!("{}", path.display());
            check(&data);
            count += 1;
        }
    }
    count
}

#[test]
fn fen_inputs() {
    assert!(replay("fen", checks::fen) > 5);
}

#[test]
fn san_inputs() {
    assert!(replay("san", checks::san) > 5);
}

#[test]
fn uci_move_inputs() {
    assert!(replay("uci_move", checks::uci_move) > 5);
}

#[test]
fn session_inputs() {
    assert!(replay("session", checks::session) > 3);
}

#[test]
fn pgn_inputs() {
    assert!(replay("pgn", checks::pgn) > 5);
}

/// The database runs start from the PGN seeds.
#[test]
fn database_inputs() {
    assert!(replay("pgn", checks::database) > 5);
    replay("database", checks::database);
}

/// Found by the `fen` fuzzer: a half-move clock of u32::MAX overflowed when a move was
/// played (a panic with overflow checks, a clock wrapping to 0 without).
#[test]
fn clocks_beyond_the_maximum_are_refused() {
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 4294967295 1",
        "4k3/8/8/8/8/8/8/4K3 b - - 0 4294967295",
        "4k3/8/8/8/8/8/8/4K3 w - - 2147483648 1",
    ] {
        assert!(
            matches!(
                Position::from_fen(fen),
                Err(arbiter::fen::FenError::Parse(ParseFenError::ClockTooLarge(
                    _
                )))
            ),
            "{fen}"
        );
    }
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 2147483647 2147483647").unwrap();
    assert_eq!((pos.halfmoves(), pos.fullmoves()), (MAX_CLOCK, MAX_CLOCK));
    let next = pos.after(pos.legal_moves().as_slice()[0]);
    assert_eq!(next.halfmoves(), MAX_CLOCK + 1);
    assert_eq!(next.fullmoves(), MAX_CLOCK + 1);
}

#[test]
fn the_fixed_positions_of_the_targets_are_valid() {
    for fen in checks::SAN_FENS.iter().chain(checks::UCI_FENS) {
        assert!(Position::from_fen(fen).is_ok(), "{fen}");
    }
}

#[test]
fn query_inputs() {
    assert!(replay("query", checks::query) > 5);
}
