//! Byte searches tuned for short spans: a PGN clock comment, a tag value and a tag line
//! are a few dozen bytes, and so is a protocol command line, where the set-up of a
//! vector search costs more than the search. The first bytes are looked at eight at a
//! time in a `u64`; a longer span goes on with `memchr`. The PGN reader and the
//! protocol's line reader and control-character check all search through here.

use memchr::{memchr, memchr2};

/// How far the word-at-a-time search looks before it hands over to `memchr`.
const SHORT: usize = 48;

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// A word whose bytes equal to `byte` (and possibly bytes above the first of them) have
/// their high bit set: the classic has-zero-byte test on `word ^ byte`. The lowest set
/// bit is always exact, which is all the search reads.
fn equal_bytes(word: u64, byte: u8) -> u64 {
    let x = word ^ (ONES * u64::from(byte));
    x.wrapping_sub(ONES) & !x & HIGHS
}

fn word_at(hay: &[u8], at: usize) -> Option<u64> {
    let bytes: [u8; 8] = hay.get(at..at + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(bytes))
}

/// The offset of the first `a` or `b` in `hay`.
pub fn find2(a: u8, b: u8, hay: &[u8]) -> Option<usize> {
    let mut at = 0;
    while at < SHORT {
        let Some(word) = word_at(hay, at) else {
            // Fewer than eight bytes left.
            return hay
                .get(at..)?
                .iter()
                .position(|&c| c == a || c == b)
                .map(|i| at + i);
        };
        let hits = equal_bytes(word, a) | equal_bytes(word, b);
        if hits != 0 {
            return Some(at + (hits.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    memchr2(a, b, hay.get(at..)?).map(|i| at + i)
}

/// Flags (high bits) of the bytes of a word that are not printable ASCII: below 0x20,
/// or 0x7F and up. The lowest flag is always exact (a borrow or a carry out of a
/// flagged byte can only flag bytes above it).
fn odd_bytes(x: u64) -> u64 {
    let below = x.wrapping_sub(ONES * 0x20) & !x & HIGHS;
    let above = (x.wrapping_add(ONES) | x) & HIGHS;
    below | above
}

/// `find2(a, b, hay)`, and whether every byte before the one found is printable
/// ASCII, told from the same words: where a `{` comment ends or breaks its line, where
/// a tag value's closing quote (or first escape) is. `false` means "not known": a span
/// longer than the word search, or one ending in its last few bytes, is left to the
/// caller.
pub fn find2_plain(a: u8, b: u8, hay: &[u8]) -> (Option<usize>, bool) {
    let mut at = 0;
    let mut plain = true;
    while at < SHORT {
        let Some(word) = word_at(hay, at) else {
            let found = hay
                .get(at..)
                .and_then(|rest| rest.iter().position(|&c| c == a || c == b))
                .map(|i| at + i);
            return (found, false);
        };
        let hits = equal_bytes(word, a) | equal_bytes(word, b);
        let odd = odd_bytes(word);
        if hits != 0 {
            // Only the bytes below the first hit count, and their flags are exact.
            let first = hits & hits.wrapping_neg();
            let before = odd & (first - 1);
            return (
                Some(at + (first.trailing_zeros() / 8) as usize),
                plain && before == 0,
            );
        }
        plain &= odd == 0;
        at += 8;
    }
    (
        memchr2(a, b, hay.get(at..).unwrap_or(&[])).map(|i| at + i),
        false,
    )
}

/// The offset of the first byte of `hay` that is not printable ASCII (see
/// `all_printable`), eight bytes at a time.
#[inline]
pub fn first_odd(hay: &[u8]) -> Option<usize> {
    let mut at = 0;
    while let Some(word) = word_at(hay, at) {
        let odd = odd_bytes(word);
        if odd != 0 {
            return Some(at + (odd.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    hay.get(at..)?
        .iter()
        .position(|&b| !(0x20..0x7f).contains(&b))
        .map(|i| at + i)
}

/// Whether every byte of `hay` is printable ASCII (0x20 to 0x7E): the text of nearly
/// every comment and tag value, told eight bytes at a time.
pub fn all_printable(hay: &[u8]) -> bool {
    if hay.len() < 8 {
        return hay.iter().all(|&b| (0x20..0x7f).contains(&b));
    }
    // Whole words, the last one overlapping the one before it, their flags gathered
    // without a branch a word: nearly every text is all printable and read to its end.
    let last = hay.len() - 8;
    let mut odd = 0;
    let mut at = 0;
    while at < last {
        odd |= word_at(hay, at).map_or(HIGHS, odd_bytes);
        at += 8;
    }
    odd |= word_at(hay, last).map_or(HIGHS, odd_bytes);
    odd == 0
}

/// The offset of the first `a` in `hay`.
pub fn find1(a: u8, hay: &[u8]) -> Option<usize> {
    let mut at = 0;
    while at < SHORT {
        let Some(word) = word_at(hay, at) else {
            // Fewer than eight bytes left.
            return hay.get(at..)?.iter().position(|&c| c == a).map(|i| at + i);
        };
        let hits = equal_bytes(word, a);
        if hits != 0 {
            return Some(at + (hits.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    memchr(a, hay.get(at..)?).map(|i| at + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every offset of every needle, in spans shorter and longer than the word search,
    /// with look-alike bytes (0x7d ^ 0x80, 0x0a + 1) around them, against a plain search.
    #[test]
    fn agrees_with_a_plain_search() {
        for len in 0..130 {
            for hit in 0..=len {
                let mut hay: Vec<u8> = (0..len).map(|i| [b'x', 0xfd, 0x0b, 0x7c][i % 4]).collect();
                if hit < len {
                    hay[hit] = if hit % 2 == 0 { b'}' } else { b'\n' };
                }
                let plain2 = hay.iter().position(|&c| c == b'}' || c == b'\n');
                assert_eq!(find2(b'}', b'\n', &hay), plain2, "len {len} hit {hit}");
                let plain1 = hay.iter().position(|&c| c == b'\n');
                assert_eq!(find1(b'\n', &hay), plain1, "len {len} hit {hit}");
            }
        }
    }

    #[test]
    fn all_printable_agrees_with_a_plain_test() {
        let odd = [0x00, 0x09, 0x0a, 0x1f, 0x7f, 0x80, 0xc2, 0xff];
        for len in 0..40 {
            let plain: Vec<u8> = (0..len).map(|i| b' ' + (i * 13 % 95) as u8).collect();
            assert!(all_printable(&plain), "len {len}");
            for at in 0..len {
                for bad in odd {
                    let mut hay = plain.clone();
                    hay[at] = bad;
                    assert!(!all_printable(&hay), "len {len} at {at} byte {bad:#x}");
                }
            }
        }
    }

    /// The fused search finds what `find2` finds, and never calls a span plain that
    /// holds a byte `all_printable` refuses.
    #[test]
    fn find2_plain_agrees_with_the_plain_tests() {
        let odd = [0x00u8, 0x09, 0x1f, 0x7f, 0x80, 0xff];
        for len in 0..70 {
            for hit in 0..=len {
                for bad in [None, Some(0), Some(hit / 2), Some(hit + 1)] {
                    let mut hay: Vec<u8> = (0..len).map(|i| b' ' + (i * 7 % 90) as u8).collect();
                    for b in hay.iter_mut() {
                        if *b == b'}' {
                            *b = b'a';
                        }
                    }
                    if hit < len {
                        hay[hit] = if hit % 3 == 0 { b'\n' } else { b'}' };
                    }
                    if let Some(at) = bad.filter(|&at| at < len && at != hit) {
                        hay[at] = odd[(at + len) % odd.len()];
                    }
                    let (found, plain) = find2_plain(b'}', b'\n', &hay);
                    assert_eq!(found, find2(b'}', b'\n', &hay), "len {len} hit {hit}");
                    let end = found.unwrap_or(hay.len());
                    if plain {
                        assert!(all_printable(&hay[..end]), "len {len} hit {hit} {bad:?}");
                    }
                    assert_eq!(
                        first_odd(&hay),
                        hay.iter().position(|&b| !(0x20..0x7f).contains(&b)),
                        "len {len} hit {hit} {bad:?}"
                    );
                }
            }
        }
        // The usual clock comment is told plain in the same pass.
        assert_eq!(
            find2_plain(b'}', b'\n', b" [%clk 0:03:00] } 1... e5"),
            (Some(16), true)
        );
    }

    #[test]
    fn finds_the_first_of_several() {
        let hay = b"abc}def}\n}";
        assert_eq!(find2(b'}', b'\n', hay), Some(3));
        assert_eq!(find1(b'\n', hay), Some(8));
        assert_eq!(find1(b'q', hay), None);
    }
}
