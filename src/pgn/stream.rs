//! Streaming the games of a PGN source of any size through one fixed buffer.

use std::io::{self, Read};

use super::reader::{read_game, resync, Step, SyntaxError, Visitor};

/// The longest game (tags and movetext) the reader holds at once: a longer one is
/// refused as `SyntaxError::TooLong` and skipped.
pub const MAX_GAME: usize = 1 << 20;

/// How much is read from the source at a time.
const CHUNK: usize = 1 << 20;

/// What one call to `next_game` met.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// A game, whole or broken, was given to the visitor.
    Game,
    /// The source is exhausted.
    End,
}

/// Reads games one after the other from any byte source, in constant memory.
pub struct GameReader<R> {
    inner: R,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    at_end: bool,
    /// After a broken game: bytes are dropped up to the next game's tags.
    skipping: bool,
    /// Bytes consumed before `buf[start]`, from the source's beginning.
    offset: u64,
}

impl<R: Read> GameReader<R> {
    pub fn new(inner: R) -> GameReader<R> {
        GameReader {
            inner,
            buf: vec![0; MAX_GAME + CHUNK].into_boxed_slice(),
            start: 0,
            end: 0,
            at_end: false,
            skipping: false,
            offset: 0,
        }
    }

    /// Where the next game starts, in bytes from the source's beginning.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    fn advance(&mut self, n: usize) {
        self.start += n;
        self.offset += n as u64;
    }

    /// Moves what is left to the front and reads more; sets `at_end` at the source's end.
    fn fill(&mut self) -> io::Result<()> {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        while self.end < self.buf.len() {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.at_end = true;
                    break;
                }
                Ok(n) => {
                    self.end += n;
                    // Enough to go on with; reading until full would delay a pipe.
                    if self.end - self.start >= CHUNK / 2 {
                        break;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Drops bytes up to the next game's tags.
    fn skip(&mut self) -> io::Result<()> {
        loop {
            if let Some(at) = resync(&self.buf[self.start..self.end]) {
                self.advance(at);
                self.skipping = false;
                return Ok(());
            }
            // Keep the last few bytes: they may begin the next game's `\n[Event ` or
            // the blank line before its tags, which the next read completes.
            let keep = (self.end - self.start).min(b"\n[Event ".len());
            let drop = self.end - self.start - keep;
            self.advance(drop);
            if self.at_end {
                let rest = self.end - self.start;
                self.advance(rest);
                self.skipping = false;
                return Ok(());
            }
            self.fill()?;
        }
    }

    /// Gives the next game to the visitor, whole or broken.
    pub fn next_game<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Next> {
        loop {
            if self.skipping {
                self.skip()?;
            }
            // The reader sees at most the limit and one byte more (to see where a last
            // token ends), so a game is refused past the limit however the source's
            // reads fell, and never read whole because one read happened to hold it.
            let held = self.end - self.start;
            let window = held.min(MAX_GAME + 1);
            let at_end = self.at_end && held == window;
            match read_game(&self.buf[self.start..self.start + window], at_end, visitor) {
                Step::Game(n) => {
                    self.advance(n);
                    return Ok(Next::Game);
                }
                Step::Broken(n) => {
                    self.advance(n);
                    self.skipping = true;
                    return Ok(Next::Game);
                }
                Step::End => {
                    let rest = self.end - self.start;
                    self.advance(rest);
                    return Ok(Next::End);
                }
                Step::NeedMore if window > MAX_GAME => {
                    visitor.end_game(Some(&SyntaxError::TooLong(MAX_GAME)));
                    // No other game starts inside the window (the reader would have
                    // ended this one there), but this game's own tags do, after the
                    // blank lines before it: resynchronise only near the window's end,
                    // keeping enough bytes for `resync` to see a `\n[Event ` that
                    // straddles it.
                    self.advance(window - 8);
                    self.skipping = true;
                    return Ok(Next::Game);
                }
                Step::NeedMore => self.fill()?,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::reader::Skip;

    /// A source that hands out its bytes a few at a time, as a pipe may.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.1.min(self.0.len()).min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[derive(Default)]
    struct Count {
        games: usize,
        errors: usize,
        moves: usize,
    }

    impl Visitor for Count {
        fn begin_game(&mut self) {
            self.moves = 0;
        }
        fn san(&mut self, _: &[u8]) {
            self.moves += 1;
        }
        fn end_game(&mut self, error: Option<&SyntaxError>) {
            self.games += 1;
            self.errors += usize::from(error.is_some());
        }
    }

    fn count(input: &[u8], step: usize) -> Count {
        let mut reader = GameReader::new(Trickle(input, step));
        let mut count = Count::default();
        while reader.next_game(&mut count).unwrap() == Next::Game {}
        count
    }

    #[test]
    fn games_split_across_reads_are_whole() {
        let input = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 1-0\n\n".repeat(50);
        for step in [1, 7, 4096] {
            let c = count(input.as_bytes(), step);
            assert_eq!((c.games, c.errors), (50, 0), "step {step}");
        }
    }

    #[test]
    fn a_broken_game_is_skipped_to_the_next_tags() {
        let input = b"[Event \"a\"]\n\n1. e4 ) e5 2. Nf3 1-0\n\n[Event \"b\"]\n\n1. d4 *\n";
        let c = count(input, 5);
        assert_eq!((c.games, c.errors), (2, 1));
    }

    #[test]
    fn a_game_too_long_is_refused_and_skipped() {
        let mut input = b"[Event \"a\"]\n\n1. e4 {".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_GAME + 10));
        input.extend(b"} *\n\n[Event \"b\"]\n\n1. d4 *\n");
        let c = count(&input, 65536);
        assert_eq!((c.games, c.errors), (2, 1));
    }

    #[test]
    fn the_next_event_tag_is_found_when_a_read_ends_inside_it() {
        // A broken game, then filler up to where the first fill of 4096-byte reads
        // ends (CHUNK / 2), so that `\n[Ev` is in one buffer and `ent ` in the next.
        let mut input = b"[Event \"a\"]\n\n1. e4 ) e5 ".to_vec();
        input.resize(CHUNK / 2 - 4, b'x');
        input.extend_from_slice(b"\n[Event \"b\"]\n\n1. d4 *\n");
        let c = count(&input, 4096);
        assert_eq!((c.games, c.errors), (2, 1));
    }

    #[test]
    fn binary_garbage_ends() {
        let input: Vec<u8> = (0..200_000u32).map(|i| (i * 7919 % 251) as u8).collect();
        let mut reader = GameReader::new(&input[..]);
        let mut games = 0;
        while reader.next_game(&mut Skip).unwrap() == Next::Game {
            games += 1;
            assert!(games < 100_000);
        }
    }
}
