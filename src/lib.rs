//! chess-arbiter: the rules of chess, exactly, and fast.
//!
//! The core (`position`, `movegen`, `fen`, `san`, `uci`, `diagnose`, `perft`) knows
//! nothing of input and output; the `protocol` layer turns command lines into answers.

// No panics reachable from input: unwrap, expect and panic! are refused outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod attacks;
pub mod bitboard;
pub mod color;
pub mod diagnose;
pub mod fen;
pub mod game;
mod magic;
pub mod material;
pub mod movegen;
pub mod moves;
pub mod perft;
mod polyglot;
pub mod position;
pub mod protocol;
mod repetition;
pub mod role;
pub mod san;
pub mod square;
pub mod uci;
