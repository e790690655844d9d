//! Long work: a perft, run apart from the session (on a worker thread in a stream), so
//! that it can be stopped and the conversation goes on meanwhile. A job holds a copy of
//! everything it needs; it never touches the session.

use std::sync::atomic::AtomicBool;

use crate::moves::CastlingMode;
use crate::perft;
use crate::position::Position;

use super::answer::Answer;

/// Which perft answer a job gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerftAnswer {
    /// `go perft`: the count below each root move, then the total.
    Divide,
    /// `perft`: the total only.
    Total,
}

/// A perft to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub answer: PerftAnswer,
    pub position: Position,
    pub depth: u32,
    /// How the root moves are written.
    pub mode: CastlingMode,
    pub threads: usize,
}

impl Job {
    /// The answer of a perft dropped before it started: stopped, nothing counted.
    pub fn dropped(&self) -> Answer {
        match self.answer {
            PerftAnswer::Total => Answer::Perft {
                depth: self.depth,
                nodes: 0,
                stopped: true,
            },
            PerftAnswer::Divide => Answer::Divide {
                lines: Vec::new(),
                total: 0,
                stopped: true,
            },
        }
    }

    /// Runs the perft until it is done or `stop` is raised.
    pub fn run(&self, stop: &AtomicBool) -> Answer {
        let split = if self.depth == 0 {
            perft::Divide {
                moves: Vec::new(),
                stopped: false,
            }
        } else {
            perft::divide_parallel(&self.position, self.depth, self.threads, stop)
        };
        let total = if self.depth == 0 { 1 } else { split.nodes() };
        match self.answer {
            PerftAnswer::Total => Answer::Perft {
                depth: self.depth,
                nodes: total,
                stopped: split.stopped,
            },
            PerftAnswer::Divide => {
                let mut lines: Vec<(String, u64)> = split
                    .moves
                    .iter()
                    .map(|&(m, nodes)| (m.to_uci(self.mode).to_string(), nodes))
                    .collect();
                lines.sort_unstable();
                Answer::Divide {
                    lines,
                    total,
                    stopped: split.stopped,
                }
            }
        }
    }
}
