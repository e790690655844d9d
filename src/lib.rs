//! chess-arbiter: the rules of chess, exactly, and fast.
//!
//! The types a program needs are at the root: [`Position`] and [`Move`], [`Game`] with
//! its [`Status`], the squares, sides and pieces, and the notations' types. FEN is
//! [`Position::from_fen`] and [`Position::fen`] ([`Setup`] for a FEN not yet checked
//! against the rules), SAN [`Position::parse_san`] and [`Position::san`], UCI
//! [`UciMove`] with [`Move::to_uci`] and [`Position::uci_to_move`]. PGN reading and
//! writing is the [`pgn`] module; the line protocol that the `arbiter` binary speaks is
//! [`protocol`]. The core knows nothing of input and output.
//!
//! ```
//! use arbiter::{CastlingMode, Color, Game, Position, State, UciMove};
//!
//! let mut game = Game::new(Position::startpos(), CastlingMode::Standard);
//! // Moves in SAN or in UCI, each checked against the rules before it is played.
//! for text in ["e4", "e7e5", "Qh5", "Nc6", "Bc4", "Nf6"] {
//!     let m = game.parse_move(text).expect("a legal move");
//!     game.play(m);
//! }
//! assert!(game.parse_move("Ke3").is_err());
//!
//! let pos = *game.position();
//! let mate = pos.parse_san("Qxf7").expect("a legal move");
//! assert_eq!(pos.san(mate), "Qxf7#");
//! assert_eq!(mate.to_uci(CastlingMode::Standard).to_string(), "h5f7");
//! let uci: UciMove = "h5f7".parse().expect("UCI move text");
//! assert_eq!(pos.uci_to_move(uci, CastlingMode::Standard), Ok(mate));
//!
//! game.play(mate);
//! let status = game.status();
//! assert_eq!(status.state, State::Checkmate);
//! assert_eq!(status.winner, Some(Color::White));
//! assert_eq!(status.to_string(), "checkmate, white wins");
//! assert_eq!(
//!     game.position().fen(),
//!     "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
//! );
//! let again = Position::from_fen(&game.position().fen()).expect("a valid FEN");
//! assert!(again.is_checkmate());
//! ```

// No panics reachable from input: unwrap, expect and panic! are refused outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod attacks;
pub mod bitboard;
pub mod color;
mod describe;
pub mod diagnose;
mod excerpt;
pub mod fen;
mod frontier;
pub mod game;
pub mod illegal;
mod magic;
mod material;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod pgn;
#[cfg(test)]
mod playouts;
mod polyglot;
pub mod position;
pub mod protocol;
pub mod query;
pub mod refusal;
mod repetition;
pub mod role;
pub mod san;
mod scan;
pub mod square;
pub mod uci;

// Inlined: the documentation lists them at the root, where a program finds them.
#[doc(inline)]
pub use crate::{
    bitboard::Bitboard,
    color::Color,
    fen::{FenError, ParseFenError, PositionError, Setup},
    game::{DrawReason, Game, MoveError, State, Status},
    illegal::IllegalMove,
    moves::{CastlingMode, Move, MoveKind, MoveList},
    perft::perft,
    position::Position,
    role::{Piece, Role},
    san::SanError,
    square::{File, Rank, Square},
    uci::{ParseUciError, UciMove},
};
