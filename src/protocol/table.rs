//! The open named games: each name's record in one dense slab, found through a compact
//! index.
//!
//! A process serving many games finds each line's game cold in memory, so what a lookup
//! reads is kept small and close: the index holds 8 bytes a game (part of the name's
//! hash and the record's slot), a few MiB for 100,000 games, and the name is stored at
//! the head of its record, whose first cache lines the line's command reads next. A map
//! of names to boxed records read a 72-byte bucket in a table of many MiB, then the
//! record elsewhere; the index here stays in the processor's cache, and the addresses a
//! line will read can be worked out ahead of its turn (`hash`, `prefetch_index`,
//! `guess`, `prefetch_record`).

use std::hash::BuildHasher;

use super::prefix::{GameName, MAX_NAME};

/// The fewest entries the index has.
const MIN_INDEX: usize = 16;

/// An index entry: the high half of the name's hash (its tag) and one more than the
/// record's slot; 0 is an empty entry.
type Entry = u64;

/// Records and their names, by name.
#[derive(Clone, Debug)]
pub struct Table<R> {
    /// Open addressing with linear probing, at most half full: a name is found within
    /// a few neighbouring entries of its hash, without tombstones (`remove` shifts the
    /// entries after the hole back).
    index: Vec<Entry>,
    /// The records, dense: `remove` moves the last one into the hole.
    slots: Vec<Slot<R>>,
    /// Keys the hash: names come from clients, who must not be able to choose names
    /// that all land on one run of entries.
    seed: u64,
}

/// A record and its name, which a lookup compares in the record's first cache line.
/// Aligned to a cache line, so that a record's head never straddles two.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
struct Slot<R> {
    name: GameName,
    record: R,
}

impl<R> Default for Table<R> {
    fn default() -> Table<R> {
        Table {
            index: vec![0; MIN_INDEX],
            slots: Vec::new(),
            seed: std::hash::RandomState::new().hash_one(0u64),
        }
    }
}

impl<R> Table<R> {
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// The hash of a name's bytes (read from a line). Read 8 bytes at a time, the last
    /// word padded with zeros as a `GameName` stores it; each word is folded in by a
    /// wide multiply.
    pub fn hash(&self, name: &[u8]) -> u64 {
        let whole = name.len() - name.len() % 8;
        let (words, tail) = name.split_at(whole);
        let tail = tail.iter().rev().fold(0, |w, &b| w << 8 | u64::from(b));
        self.mix(name.len(), words, tail)
    }

    /// `hash` of a name of `len` bytes, given its whole words and its last bytes (those
    /// past the whole words, as a little-endian word padded with zeros): the one
    /// definition of the hash, for `hash` and `hash_head` alike.
    #[inline(always)]
    fn mix(&self, len: usize, words: &[u8], tail: u64) -> u64 {
        let mut h = self.start(len);
        for word in words.chunks_exact(8) {
            h = fold(h ^ word_at(word), MULTIPLIER);
        }
        if !len.is_multiple_of(8) {
            h = fold(h ^ tail, MULTIPLIER);
        }
        fold(h, self.seed | 1)
    }

    /// The name at the head of a line's text (up to its first blank or control byte)
    /// and `hash` of it, read a word at a time: the read-ahead's guess of a line's
    /// game, made for every line to come. `None` when the head is no name's length, or
    /// the text ends within a word of it (the caller then reads it byte by byte). What
    /// else the head holds is not checked: a wrong guess only brings in memory for
    /// nothing, and the line's own lookup compares the name.
    #[inline(always)]
    pub fn hash_head(&self, text: &[u8]) -> Option<(u64, usize)> {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGHS: u64 = 0x8080_8080_8080_8080;
        // A byte below `!` is flagged in `below`: a blank, a line end or a control
        // byte. The lowest flag is exact (a false one only stands above a true one).
        let below = |word: u64| word.wrapping_sub(ONES * u64::from(b'!')) & !word & HIGHS;
        let mut at = 0;
        let (len, last) = loop {
            let word = word_at(text.get(at..at + 8)?);
            let flags = below(word);
            if flags != 0 {
                let len = at + (flags.trailing_zeros() / 8) as usize;
                break (len, word);
            }
            at += 8;
            if at > MAX_NAME {
                return None;
            }
        };
        if len == 0 || len > MAX_NAME {
            return None;
        }
        // The name's last bytes, padded with zeros as `hash` pads them.
        let tail = last
            & u64::MAX
                .checked_shr(64 - 8 * (len - at) as u32)
                .unwrap_or(0);
        Some((self.mix(len, text.get(..at)?, tail), len))
    }

    /// `hash` of a name, from its whole padded words.
    fn hash_name(&self, name: &GameName) -> u64 {
        let len = name.as_bytes().len();
        let whole = len - len % 8;
        let padded = name.padded();
        let tail = padded.get(whole..whole + 8).map_or(0, word_at);
        self.mix(len, padded.get(..whole).unwrap_or(&[]), tail)
    }

    fn start(&self, len: usize) -> u64 {
        self.seed ^ (len as u64).wrapping_mul(MULTIPLIER)
    }

    /// The record of a name, if it is open.
    pub fn get(&self, name: &[u8]) -> Option<&R> {
        let slot = self.find(name)?.1;
        self.slots.get(slot).map(|slot| &slot.record)
    }

    /// The record of a name, if it is open, looked for first in `near`, a slot where
    /// the name was seen shortly before (by `guess`): when its name is the one asked
    /// for, it is the record, and the name is neither hashed nor searched for again.
    pub fn get_mut_near(&mut self, name: &[u8], near: Option<usize>) -> Option<&mut R> {
        let named = |slot: &usize| self.slots.get(*slot).is_some_and(|s| s.name.is(name));
        let slot = match near.filter(named) {
            Some(slot) => slot,
            None => self.find(name)?.1,
        };
        self.slots.get_mut(slot).map(|slot| &mut slot.record)
    }

    pub fn contains(&self, name: &[u8]) -> bool {
        self.find(name).is_some()
    }

    /// Adds a record under a name that is not open (the caller looked).
    pub fn insert(&mut self, name: GameName, record: R) {
        if 2 * (self.slots.len() + 1) > self.index.len() {
            self.rebuild(2 * self.index.len());
        }
        let slot = self.slots.len();
        if slot == self.slots.capacity() {
            // Moved into fresh memory rather than grown in place, so that the records
            // already there get huge pages too (growing keeps the pages they had).
            let mut grown: Vec<Slot<R>> = Vec::with_capacity((2 * slot).max(MIN_INDEX));
            let bytes = grown.capacity() * std::mem::size_of::<Slot<R>>();
            super::heap::prefer_huge_pages(grown.as_ptr().cast(), bytes);
            grown.append(&mut self.slots);
            self.slots = grown;
        }
        self.slots.push(Slot { name, record });
        super::heap::follow_heap();
        let hash = self.hash_name(&name);
        self.place(hash, slot);
    }

    /// Drops a name's record; `None` when the name is not open, else whether the
    /// memory held for records went down (most of the table's room stood empty).
    pub fn remove(&mut self, name: &[u8]) -> Option<bool> {
        let (at, slot) = self.find(name)?;
        self.vacate(at);
        let last = self.slots.len() - 1;
        if slot != last {
            // The last record moves into the hole: its entry must say so.
            let moved = self.slots.get(last).map(|s| self.hash_name(&s.name))?;
            let at = self.entry_of(moved, last)?;
            self.index[at] = entry(moved, slot);
        }
        self.slots.swap_remove(slot);
        let mut shrank = false;
        if 4 * self.slots.len() < self.slots.capacity() {
            self.slots.shrink_to(2 * self.slots.len());
            shrank = true;
        }
        if 8 * self.slots.len() < self.index.len() && self.index.len() > MIN_INDEX {
            self.rebuild((self.index.len() / 4).max(MIN_INDEX));
        }
        Some(shrank)
    }

    /// Every name and its record, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&GameName, &R)> {
        self.slots.iter().map(|slot| (&slot.name, &slot.record))
    }

    /// Starts loading the index entry where a hash's search begins.
    pub fn prefetch_index(&self, hash: u64) {
        crate::prefetch::prefetch_bytes(
            self.index.as_ptr().wrapping_add(self.home(hash)).cast(),
            8,
        );
    }

    /// The slot of the first entry with the hash's tag, without comparing the name: a
    /// guess of a line's game, good enough to bring its memory into the cache ahead of
    /// its turn, read from entries that `prefetch_index` brought.
    pub fn guess(&self, hash: u64) -> Option<usize> {
        self.probe(hash, |e| tag(e) == tag(hash))
            .map(|(_, e)| slot_of(e))
    }

    /// Starts loading a slot's name and the first `bytes` bytes of its record.
    pub fn prefetch_slot(&self, slot: usize, bytes: usize) {
        let head = self.slots.as_ptr().wrapping_add(slot).cast::<u8>();
        crate::prefetch::prefetch_bytes(head, std::mem::offset_of!(Slot<R>, record) + bytes);
    }

    /// The record in a slot (as `guess` gives it), if the slot is in use.
    pub fn record_at(&self, slot: usize) -> Option<&R> {
        self.slots.get(slot).map(|slot| &slot.record)
    }

    fn home(&self, hash: u64) -> usize {
        hash as usize & (self.index.len() - 1)
    }

    /// The first entry of a hash's run, and where it stands, that `hit` accepts; the
    /// search ends at the run's first empty entry.
    #[inline(always)]
    fn probe(&self, hash: u64, hit: impl Fn(Entry) -> bool) -> Option<(usize, Entry)> {
        let mask = self.index.len() - 1;
        let mut at = self.home(hash);
        loop {
            let e = *self.index.get(at)?;
            if e == 0 {
                return None;
            }
            if hit(e) {
                return Some((at, e));
            }
            at = (at + 1) & mask;
        }
    }

    /// The entry and slot of a name.
    fn find(&self, name: &[u8]) -> Option<(usize, usize)> {
        let hash = self.hash(name);
        let named =
            |e| tag(e) == tag(hash) && self.slots.get(slot_of(e)).is_some_and(|s| s.name.is(name));
        self.probe(hash, named).map(|(at, e)| (at, slot_of(e)))
    }

    /// The entry that points at `slot`, whose name has `hash`.
    fn entry_of(&self, hash: u64, slot: usize) -> Option<usize> {
        self.probe(hash, |e| slot_of(e) == slot).map(|(at, _)| at)
    }

    /// Writes a slot's entry in the first free place of its hash's run.
    fn place(&mut self, hash: u64, slot: usize) {
        let mask = self.index.len() - 1;
        let mut at = self.home(hash);
        while self.index.get(at).is_some_and(|&e| e != 0) {
            at = (at + 1) & mask;
        }
        if let Some(e) = self.index.get_mut(at) {
            *e = entry(hash, slot);
        }
    }

    /// Empties an entry, moving back each later entry of the run that may stand in the
    /// hole (its home is not between the hole and it), so that every search still
    /// finds its entry before an empty one.
    fn vacate(&mut self, mut hole: usize) {
        let mask = self.index.len() - 1;
        let mut at = hole;
        loop {
            at = (at + 1) & mask;
            let e = self.index.get(at).copied().unwrap_or(0);
            if e == 0 {
                break;
            }
            let home = self
                .slots
                .get(slot_of(e))
                .map_or(at, |s| self.home(self.hash_name(&s.name)));
            // Movable unless its home lies cyclically in (hole, at].
            if (at.wrapping_sub(home) & mask) >= (at.wrapping_sub(hole) & mask) {
                self.index[hole] = e;
                hole = at;
            }
        }
        self.index[hole] = 0;
    }

    /// A new index of `size` entries (a power of two) for the records there are.
    fn rebuild(&mut self, size: usize) {
        self.index = vec![0; size];
        super::heap::prefer_huge_pages(self.index.as_ptr().cast(), size * 8);
        for slot in 0..self.slots.len() {
            let hash = self.hash_name(&self.slots[slot].name);
            self.place(hash, slot);
        }
    }
}

/// An odd constant with its bits spread (the fractional part of the golden ratio).
const MULTIPLIER: u64 = 0x9e37_79b9_7f4a_7c15;

/// The two halves of a full 128-bit product folded together: every bit of either
/// factor reaches every bit of the result.
fn fold(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ ((product >> 64) as u64)
}

/// A little-endian word of 8 bytes.
fn word_at(bytes: &[u8]) -> u64 {
    let mut word = [0; 8];
    word.copy_from_slice(bytes);
    u64::from_le_bytes(word)
}

fn tag(hash_or_entry: u64) -> u32 {
    (hash_or_entry >> 32) as u32
}

fn entry(hash: u64, slot: usize) -> Entry {
    (hash & !0xffff_ffff) | (slot as u64 + 1)
}

fn slot_of(e: Entry) -> usize {
    ((e & 0xffff_ffff) as usize).wrapping_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(text: &str) -> GameName {
        GameName::parse(text).unwrap()
    }

    /// A slot given as where the name was seen is only a first place to look: a wrong
    /// or empty one still finds the name's record, or none.
    #[test]
    fn a_record_is_found_near_a_slot_or_without_one() {
        let mut table = Table::default();
        for i in 0..100 {
            table.insert(name(&format!("g{i}")), i);
        }
        let g7 = name("g7");
        let right = table.guess(table.hash(b"g7"));
        assert_eq!(table.get_mut_near(g7.as_bytes(), right).copied(), Some(7));
        for near in [None, Some(0), Some(99), Some(100), Some(usize::MAX)] {
            assert_eq!(
                table.get_mut_near(g7.as_bytes(), near).copied(),
                Some(7),
                "{near:?}"
            );
        }
        assert_eq!(table.get_mut_near(name("g100").as_bytes(), right), None);
    }

    #[test]
    fn names_are_found_until_removed() {
        let mut table = Table::default();
        for i in 0..1000 {
            table.insert(name(&format!("g{i}")), i);
        }
        assert_eq!(table.len(), 1000);
        for i in (0..1000).step_by(3) {
            assert!(table.remove(name(&format!("g{i}")).as_bytes()).is_some());
        }
        assert_eq!(table.remove(name("g0").as_bytes()), None);
        for i in 0..1000 {
            let expected = (i % 3 != 0).then_some(i);
            assert_eq!(
                table.get(name(&format!("g{i}")).as_bytes()).copied(),
                expected,
                "g{i}"
            );
        }
        assert_eq!(table.get(name("g1000").as_bytes()), None);
        assert_eq!(table.len(), 666);
    }

    #[test]
    fn a_table_emptied_gives_its_room_back() {
        let mut table = Table::default();
        for i in 0..4096 {
            table.insert(name(&format!("game-{i}")), [i; 8]);
        }
        let mut shrank = 0;
        for i in 0..4096 {
            let n = name(&format!("game-{i}"));
            assert_eq!(table.get(n.as_bytes()), Some(&[i; 8]));
            shrank += usize::from(table.remove(n.as_bytes()).unwrap());
        }
        assert!(shrank > 0);
        assert_eq!(table.slots.capacity(), 0);
        assert_eq!(table.index.len(), MIN_INDEX);
        assert!(table.index.iter().all(|&e| e == 0));
    }

    /// Names whose hashes share their home entry, removed in every order, leave the
    /// others findable: the run is closed up, not cut.
    #[test]
    fn removing_from_a_run_of_collisions_keeps_the_rest_findable() {
        let mut table = Table::default();
        // The index has 64 entries once the 18 names are in.
        let home = |t: &Table<usize>, n: &str| t.hash(n.as_bytes()) & 63;
        // Twelve names of one home among a few hundred, inserted first so that they
        // share a run with wrapped and foreign entries around it.
        let names: Vec<String> = (0..200_000).map(|i| format!("n{i}")).collect();
        for (i, n) in names.iter().take(6).enumerate() {
            table.insert(name(n), i);
        }
        let target = home(&table, "n0");
        // Not among the six already in: the hash's seed is random, and one of them
        // may share n0's home.
        let same: Vec<&String> = names
            .iter()
            .skip(6)
            .filter(|n| home(&table, n) == target)
            .take(12)
            .collect();
        for (i, n) in same.iter().enumerate() {
            table.insert(name(n), 100 + i);
        }
        for n in same.iter().rev().step_by(2) {
            assert!(table.remove(name(n).as_bytes()).is_some());
        }
        for (k, n) in same.iter().enumerate() {
            let expected = (k % 2 == 0).then_some(100 + k);
            assert_eq!(table.get(name(n).as_bytes()).copied(), expected, "{n}");
        }
        for (i, n) in names.iter().take(6).enumerate() {
            assert_eq!(table.get(name(n).as_bytes()).copied(), Some(i));
        }
        assert_eq!(table.index.len(), 64);
    }

    /// A name of `len` letters, `abc…` over and over.
    fn letters(len: usize) -> String {
        (0..len)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect()
    }

    #[test]
    fn a_name_hashes_alike_from_a_line_and_stored() {
        let table: Table<()> = Table::default();
        for len in 1..=MAX_NAME {
            let text = letters(len);
            assert_eq!(
                table.hash(text.as_bytes()),
                table.hash_name(&name(&text)),
                "{len}"
            );
        }
    }

    /// The read-ahead's word-at-a-time hash of a line's head is the hash of the name
    /// there, whatever the name's length and whatever ends it.
    #[test]
    fn a_line_head_hashes_as_its_name() {
        let table: Table<()> = Table::default();
        for len in 1..=MAX_NAME {
            let text = letters(len);
            for end in [" move e2e4\n", "\tmove e2e4", "\r\n        ", "\n        "] {
                let line = format!("{text}{end}");
                assert_eq!(
                    table.hash_head(line.as_bytes()),
                    Some((table.hash(text.as_bytes()), len)),
                    "{len} {end:?}"
                );
            }
        }
    }

    /// No name, a name too long, or a text that ends within a word of the name's end:
    /// no guess.
    #[test]
    fn a_line_head_without_a_whole_name_has_no_hash() {
        let table: Table<()> = Table::default();
        assert_eq!(table.hash_head(b" move e2e4 and more"), None);
        assert_eq!(table.hash_head(b"g1 move"), None);
        let long = "a".repeat(MAX_NAME + 1) + " move e2e4 and more";
        assert_eq!(table.hash_head(long.as_bytes()), None);
        let longest = "a".repeat(MAX_NAME) + " move e2e4 and more";
        assert!(table.hash_head(longest.as_bytes()).is_some());
    }

    #[test]
    fn a_name_is_told_from_its_prefixes_and_extensions() {
        let mut table = Table::default();
        table.insert(name("abcdefgh"), 1);
        table.insert(name("abcdefghi"), 2);
        assert_eq!(table.get(name("abcdefg").as_bytes()), None);
        assert_eq!(table.get(name("abcdefgh").as_bytes()), Some(&1));
        assert_eq!(table.get(name("abcdefghi").as_bytes()), Some(&2));
        assert_eq!(table.get(name("abcdefghij").as_bytes()), None);
    }
}
