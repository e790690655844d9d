//! Streaming the games of a PGN source of any size through one fixed buffer.

use std::io::{self, Read};

use super::reader::{read_game, resync, GameRead, SyntaxError, Visitor};

/// The longest game (tags and movetext) the reader holds at once: a longer one is
/// refused as `SyntaxError::TooLong` and skipped.
pub const MAX_GAME: usize = 1 << 20;

/// The most the buffer holds beyond the longest game.
const CHUNK: usize = 1 << 20;

/// How much is read from the source at a time, at least: little enough that the text
/// a read brings is still in the core's cache when the games in it are read, where a
/// read of megabytes has the kernel's copy push its start out before it is reached.
const READ: usize = 128 * 1024;

/// A game's place in the text `next_game_raw` copied out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RawGame {
    /// How many of the copied bytes the reader read as the game; the rest (after a
    /// syntax error) was skipped to reach the next game. Reading exactly these bytes
    /// again, as the whole input, gives the visitor the same events.
    pub parsed: usize,
    /// The game was longer than `MAX_GAME` (and none of it counts as parsed).
    pub too_long: bool,
}

/// A game refused for its length: its text, from its first byte that is not blank to
/// its end, is longer than `MAX_GAME`. Whether a window happened to hold all of it does
/// not matter, nor does where a parallel reader cut the text before it: `GameReader` and
/// the database's workers refuse the same games through this one rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TooLong {
    /// The blanks before the game.
    lead: usize,
}

/// The blank bytes at the start of a text.
pub(crate) fn blanks(text: &[u8]) -> usize {
    text.iter().take_while(|b| b.is_ascii_whitespace()).count()
}

/// Whether the game at the start of `window`, read as `step` says, is too long.
pub(crate) fn too_long(window: &[u8], step: GameRead) -> Option<TooLong> {
    let lead = blanks(window);
    let long = match step {
        GameRead::Game(n) | GameRead::Broken(n) => n - lead.min(n) > MAX_GAME,
        GameRead::NeedMore => window.len() - lead > MAX_GAME,
        GameRead::End => false,
    };
    long.then_some(TooLong { lead })
}

impl TooLong {
    /// Its text up to where `skip` moves on (the rest follows as skipped text).
    pub(crate) fn text(self, window: &[u8]) -> &[u8] {
        &window[self.lead..self.skip()]
    }

    /// How far to move on before looking for the next game. No other game starts within
    /// the limit (the reader would have ended this one there), but this game's own tags
    /// do: resynchronise near the limit's end, where `resync` still sees a `\n[Event `
    /// that begins there.
    pub(crate) fn skip(self) -> usize {
        self.lead + MAX_GAME - b"\n[Event ".len()
    }
}

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
    /// `before_read` runs first: a read may block, so whatever a caller owes its own
    /// reader must be flushed then.
    fn fill(&mut self, before_read: &mut dyn FnMut() -> io::Result<()>) -> io::Result<()> {
        before_read()?;
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        // One read: it may return less than asked (a pipe), and a second one could
        // wait while a whole game is already here to be answered. A game longer than
        // what is held is read again from its start once more comes: asking for as much
        // as is held keeps those readings few, whatever the game's length.
        let want = READ.max(self.end);
        while self.end < self.buf.len() {
            let room = self.buf.len().min(self.end + want);
            match self.inner.read(&mut self.buf[self.end..room]) {
                Ok(0) => {
                    self.at_end = true;
                    break;
                }
                Ok(n) => {
                    self.end += n;
                    break;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Drops bytes up to the next game's tags, copying them to `raw` when given (all
    /// of them: `--keep-broken` writes a broken game whole, whatever its length).
    fn skip(
        &mut self,
        mut raw: Option<&mut Vec<u8>>,
        before_read: &mut dyn FnMut() -> io::Result<()>,
    ) -> io::Result<()> {
        loop {
            let found = resync(&self.buf[self.start..self.end]);
            // Keep the last few bytes: they may begin the next game's `\n[Event ` or the
            // blank line before its tags, which the next read completes.
            let held = self.end - self.start;
            let drop = match found {
                Some(at) => at,
                None if self.at_end => held,
                None => held - held.min(b"\n[Event ".len()),
            };
            if let Some(raw) = raw.as_deref_mut() {
                raw.extend_from_slice(&self.buf[self.start..self.start + drop]);
            }
            self.advance(drop);
            if found.is_some() || self.at_end {
                self.skipping = false;
                return Ok(());
            }
            self.fill(before_read)?;
        }
    }

    /// Gives the next game to the visitor, whole or broken.
    pub fn next_game<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Next> {
        Ok(match self.read(visitor, None, &mut || Ok(()))? {
            Some(_) => Next::Game,
            None => Next::End,
        })
    }

    /// Gives the next game to the visitor and copies its text into `raw` (cleared
    /// first): the game and, after a syntax error or past the length limit, what was
    /// skipped to reach the next one. `None` at the end of the source.
    pub fn next_game_raw<V: Visitor>(
        &mut self,
        visitor: &mut V,
        raw: &mut Vec<u8>,
    ) -> io::Result<Option<RawGame>> {
        raw.clear();
        self.read(visitor, Some(raw), &mut || Ok(()))
    }

    /// The next game, as `next_game` or (with `raw`) `next_game_raw` give it; before any
    /// read from the source, which may block, `before_read` runs (to flush answers that
    /// the other end of a pipe may be waiting for).
    pub fn read<V: Visitor>(
        &mut self,
        visitor: &mut V,
        mut raw: Option<&mut Vec<u8>>,
        before_read: &mut dyn FnMut() -> io::Result<()>,
    ) -> io::Result<Option<RawGame>> {
        if let Some(raw) = raw.as_deref_mut() {
            raw.clear();
        }
        loop {
            if self.skipping {
                self.skip(None, before_read)?;
            }
            let window = &self.buf[self.start..self.end];
            let step = read_game(window, self.at_end, visitor);
            let too_long = too_long(window, step);
            if let Some(refused) = too_long {
                visitor.begin_game();
                visitor.end_game(Some(&SyntaxError::TooLong(MAX_GAME)));
                if let Some(raw) = raw.as_deref_mut() {
                    raw.extend_from_slice(refused.text(window));
                }
                self.advance(refused.skip());
                self.skipping = true;
                if raw.is_some() {
                    self.skip(raw, before_read)?;
                }
                return Ok(Some(RawGame {
                    parsed: 0,
                    too_long: true,
                }));
            }
            let lead = blanks(window);
            // The copy leaves out the blanks before the game: what was parsed is counted
            // in the copy's bytes.
            let (taken, parsed, broken) = match step {
                GameRead::Game(n) => (n, n - lead.min(n), false),
                GameRead::Broken(n) => (n, n - lead.min(n), true),
                GameRead::End => {
                    let rest = self.end - self.start;
                    self.advance(rest);
                    return Ok(None);
                }
                GameRead::NeedMore => {
                    self.fill(before_read)?;
                    continue;
                }
            };
            let window = &self.buf[self.start..self.end];
            if let Some(raw) = raw.as_deref_mut() {
                raw.extend_from_slice(&window[lead.min(taken)..taken]);
            }
            self.advance(taken);
            if broken {
                self.skipping = true;
                if raw.is_some() {
                    self.skip(raw, before_read)?;
                }
            }
            return Ok(Some(RawGame {
                parsed,
                too_long: false,
            }));
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
        /// Whether the game being read has a syntax error (a game read again starts
        /// with `begin_game`, which forgets it).
        broken: bool,
    }

    impl Visitor for Count {
        fn begin_game(&mut self) {
            self.broken = false;
        }
        fn end_game(&mut self, error: Option<&SyntaxError>) {
            self.broken = error.is_some();
        }
    }

    fn count(input: &[u8], step: usize) -> Count {
        let mut reader = GameReader::new(Trickle(input, step));
        let mut count = Count::default();
        while reader.next_game(&mut count).unwrap() == Next::Game {
            count.games += 1;
            count.errors += usize::from(count.broken);
        }
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
    fn a_game_too_long_is_copied_whole() {
        let mut game = b"[Event \"a\"]\n\n1. e4 {".to_vec();
        game.extend(std::iter::repeat_n(b'x', 3 * MAX_GAME));
        game.extend(b"} *\n\n");
        let mut input = b"\n\n".to_vec();
        input.extend_from_slice(&game);
        input.extend(b"[Event \"b\"]\n\n1. d4 *\n");
        let mut reader = GameReader::new(Trickle(&input, 65536));
        let mut raw = Vec::new();
        let first = reader.next_game_raw(&mut Skip, &mut raw).unwrap();
        assert_eq!(first.map(|g| g.too_long), Some(true));
        assert!(raw == game, "{} bytes of {}", raw.len(), game.len());
        reader.next_game_raw(&mut Skip, &mut raw).unwrap();
        assert_eq!(raw, b"[Event \"b\"]\n\n1. d4 *");
    }

    #[test]
    fn the_parsed_bytes_of_a_game_after_blanks_lie_in_its_copy() {
        let input = b"[Event \"a\"]\n\n1. e4 *\n\n\n[Event \"b\"]\n\n1. d4 ) *\n";
        let mut reader = GameReader::new(&input[..]);
        let mut raw = Vec::new();
        reader.next_game_raw(&mut Skip, &mut raw).unwrap();
        let second = reader.next_game_raw(&mut Skip, &mut raw).unwrap().unwrap();
        assert_eq!(raw, b"[Event \"b\"]\n\n1. d4 ) *\n");
        assert_eq!(&raw[..second.parsed], b"[Event \"b\"]\n\n1. d4 )");
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

    #[test]
    fn the_next_event_tag_is_found_when_a_read_ends_inside_it() {
        // A broken game, then filler up to where a 4096-byte read ends, so that
        // `\n[Ev` comes in one read and `ent ` in the next.
        let mut input = b"[Event \"a\"]\n\n1. e4 ) e5 ".to_vec();
        input.resize(CHUNK / 2 - 4, b'x');
        input.extend_from_slice(b"\n[Event \"b\"]\n\n1. d4 *\n");
        let c = count(&input, 4096);
        assert_eq!((c.games, c.errors), (2, 1));
    }
}
