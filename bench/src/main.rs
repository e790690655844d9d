//! Reference perft driver used by `scripts/bench-perft`.
//!
//! Usage: `ref-perft <laura|cozy> <depth> <FEN...>`
//!
//! Counts the leaf nodes of the legal-move tree of the given position to the
//! given depth and prints `Nodes searched: <N>`, the same closing line that
//! Stockfish and `arbiter` print, so the benchmark script parses every engine
//! the same way.
//!
//! Both drivers use bulk counting: at depth 1 the legal moves are counted,
//! never played. That is the usual way to write a fast perft, and it is how
//! the numbers of these libraries are normally quoted.

use std::process::ExitCode;
use std::str::FromStr;

/// laura_core: boards are immutable values (`make_move` returns a new board),
/// moves come from a closure-driven generator.
mod laura {
    use laura_core::{enumerate_legal_moves, gen_moves, AllMoves, Board, Move};

    /// Number of legal moves, counted straight from the generator's callback
    /// without building a list.
    fn count_moves(board: &Board) -> u64 {
        let mut n: u64 = 0;
        enumerate_legal_moves::<AllMoves, _>(board, |_mv: Move| {
            n += 1;
            true
        });
        n
    }

    pub fn perft(board: &Board, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => count_moves(board),
            _ => gen_moves::<AllMoves>(board)
                .into_iter()
                .map(|mv| perft(&board.make_move(mv), depth - 1))
                .sum(),
        }
    }
}

/// cozy-chess: the generator hands out one `PieceMoves` per piece (a source
/// square plus a destination bitboard), so the leaf count is a sum of
/// popcounts.
mod cozy {
    use cozy_chess::{BitBoard, Board, Piece, PieceMoves, Rank};

    /// Squares where a pawn move turns into four moves (one per promotion piece).
    const PROMO_RANKS: BitBoard = BitBoard(Rank::First.bitboard().0 | Rank::Eighth.bitboard().0);

    /// Moves packed in one `PieceMoves`: popcount of the destination set, with
    /// pawn moves onto the last rank counted four times.
    #[inline(always)]
    fn packed_len(pm: &PieceMoves) -> u64 {
        if pm.piece == Piece::Pawn {
            let promos = (pm.to & PROMO_RANKS).len() as u64;
            let others = (pm.to & !PROMO_RANKS).len() as u64;
            others + 4 * promos
        } else {
            pm.to.len() as u64
        }
    }

    pub fn perft(board: &Board, depth: u32) -> u64 {
        let mut total: u64 = 0;
        match depth {
            0 => return 1,
            1 => {
                board.generate_moves(|pm| {
                    total += packed_len(&pm);
                    false // false = keep generating
                });
            }
            _ => {
                board.generate_moves(|pm| {
                    for mv in pm {
                        let mut child = board.clone();
                        child.play_unchecked(mv);
                        total += perft(&child, depth - 1);
                    }
                    false
                });
            }
        }
        total
    }
}

fn usage() -> ExitCode {
    eprintln!("usage: ref-perft <laura|cozy> <depth> <FEN...>");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        return usage();
    }
    let depth: u32 = match args[1].parse() {
        Ok(d) => d,
        Err(_) => return usage(),
    };
    // The FEN may come as one argument or as several words.
    let fen = args[2..].join(" ");

    let nodes = match args[0].as_str() {
        "laura" | "laura_core" => match laura_core::Board::from_str(&fen) {
            Ok(board) => laura::perft(&board, depth),
            Err(e) => {
                eprintln!("laura_core: bad FEN {fen:?}: {e:?}");
                return ExitCode::FAILURE;
            }
        },
        "cozy" | "cozy-chess" => match cozy_chess::Board::from_fen(&fen, false) {
            Ok(board) => cozy::perft(&board, depth),
            Err(e) => {
                eprintln!("cozy-chess: bad FEN {fen:?}: {e:?}");
                return ExitCode::FAILURE;
            }
        },
        _ => return usage(),
    };
    println!("Nodes searched: {nodes}");
    ExitCode::SUCCESS
}
