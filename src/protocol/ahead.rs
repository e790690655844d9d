//! Bringing the games of the lines waiting in the input into the cache before their
//! turn.
//!
//! A process serving many games finds each line's game cold in memory, and reading it
//! is a chain of cache misses, each address known only once the memory before is in:
//! the name's index entry, then the record it points at, then the ends of the game's
//! history that the record points at. The lines already read into the input buffer say
//! which games come next, so each line's chain is walked a step at a time during the
//! turns of the lines before it: its index entry is asked for `DEPTH` lines ahead, its
//! record `RECORD_AT` lines ahead, its history one line ahead, and each step reads only
//! what the step before brought in. The misses of many lines then overlap with the work
//! of the lines before them instead of each stalling its own line. The slot found for a
//! line is handed to its lookup when its turn comes, which then only checks the name
//! there.

use super::session::Session;
use super::stream::find_newline;

/// How many lines ahead a line's index entry is asked for.
const DEPTH: usize = 6;

/// How many lines after the next one a line's record is asked for.
const RECORD_AT: usize = 2;

/// The room for lines looked at: a power of two, at least `DEPTH`.
const RING: usize = 8;

/// The lines looked at ahead of their turn.
#[derive(Debug, Default)]
pub struct ReadAhead {
    /// The lines looked at and not yet run, in order from `first`, `len` of them.
    lines: [Pending; RING],
    first: usize,
    len: usize,
    /// Where the first line not yet looked at starts in the stream.
    next: u64,
}

/// A line looked at ahead of its turn.
#[derive(Clone, Copy, Debug, Default)]
struct Pending {
    /// Where it starts in the stream, and where the line after it starts.
    start: u64,
    end: u64,
    /// The hash of its game's name.
    hash: u64,
    /// Its record's slot, once the second step has found it.
    slot: Option<usize>,
}

impl ReadAhead {
    /// Takes the next steps, as the line before `at` (a position in the stream) is
    /// about to run; `ahead` holds the bytes read from `at` on. Tells the session where
    /// that line's game was seen.
    #[inline(always)]
    pub fn advance(&mut self, session: &mut Session, at: u64, ahead: &[u8]) {
        // A client of the default game pays this comparison a line.
        if self.len > 0 || ahead.starts_with(b"game ") {
            let current = self.step(session, at, ahead);
            session.ahead_current(current);
        }
    }

    /// The start and end (the byte after its newline) of the first line looked at and
    /// not yet run: the line to be read next, when it starts where the reader is.
    #[inline(always)]
    pub fn next_line(&self) -> Option<(u64, u64)> {
        (self.len > 0).then(|| {
            let line = &self.lines[self.first];
            (line.start, line.end)
        })
    }

    /// The steps; returns the slot of the line about to run, if it was looked at.
    fn step(&mut self, session: &Session, at: u64, ahead: &[u8]) -> Option<usize> {
        let mut current = None;
        while self.len > 0 && self.lines[self.first].start < at {
            let line = &self.lines[self.first];
            current = line.slot.filter(|_| line.end == at);
            self.first = (self.first + 1) % RING;
            self.len -= 1;
        }
        if self.next < at {
            self.len = 0;
            self.next = at;
        }
        while self.len < DEPTH {
            let Some(rest) = usize::try_from(self.next - at)
                .ok()
                .and_then(|from| ahead.get(from..))
            else {
                break;
            };
            // A line for the default game ends the look.
            let Some((hash, name_end)) = session.ahead_index(rest) else {
                break;
            };
            let Some(end) = rest
                .get(name_end..)
                .and_then(find_newline)
                .map(|end| name_end + end)
            else {
                break;
            };
            let start = self.next;
            self.next += end as u64 + 1;
            self.lines[(self.first + self.len) % RING] = Pending {
                start,
                end: self.next,
                hash,
                slot: None,
            };
            self.len += 1;
        }
        if self.len > RECORD_AT {
            let line = &mut self.lines[(self.first + RECORD_AT) % RING];
            line.slot = session.ahead_record(line.hash);
        }
        if self.len > 0 {
            // A line that came too late for the second step takes it now.
            let line = &mut self.lines[self.first];
            line.slot = line.slot.or_else(|| session.ahead_record(line.hash));
            if let Some(slot) = line.slot {
                session.ahead_history(slot);
            }
        }
        current
    }
}
