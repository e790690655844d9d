//! chess-arbiter: the rules of chess, exactly, and fast.
//!
//! The core (`position`, `movegen`, `fen`, `san`, `uci`, `diagnose`, `perft`) knows
//! nothing of input and output; the `protocol` layer turns command lines into answers.
//!
//! ```
//! use arbiter::position::Position;
//! use arbiter::moves::CastlingMode;
//!
//! let mut pos = Position::startpos();
//! for san in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"] {
//!     let m = pos.parse_san(san).expect("a legal move");
//!     pos.play_unchecked(m);
//! }
//! let mate = pos.parse_san("Qxf7").expect("a legal move");
//! assert_eq!(pos.san(mate), "Qxf7#");
//! assert_eq!(mate.to_uci(CastlingMode::Standard).to_string(), "h5f7");
//! assert!(pos.after(mate).is_checkmate());
//! ```

// No panics reachable from input: unwrap, expect and panic! are refused outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod attacks;
pub mod bitboard;
pub mod color;
pub mod describe;
pub mod diagnose;
pub mod excerpt;
pub mod fen;
mod frontier;
pub mod game;
pub mod illegal;
mod magic;
pub mod material;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod pgn;
#[cfg(test)]
mod playouts;
mod polyglot;
pub mod position;
pub mod protocol;
pub mod refusal;
mod repetition;
pub mod role;
pub mod san;
mod scan;
pub mod square;
pub mod uci;
