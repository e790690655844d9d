//! Slider attacks by fancy magic bitboards, with every table built at compile time.
//!
//! For each square, the occupancy bits that can block a ray (`mask`) are multiplied by a
//! per-square `factor` and shifted so that every blocker subset lands on its own slot of a
//! shared table. The factors were found by `find_factors` below (run it with
//! `cargo test --release -- --ignored find_factors --nocapture`) and are checked against a
//! ray walk for every subset by the `factors_are_collision_free` test.

/// One square's lookup parameters.
#[derive(Clone, Copy)]
struct Magic {
    mask: u64,
    factor: u64,
    offset: u32,
    shift: u32,
}

pub(crate) const ROOK_DIRECTIONS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub(crate) const BISHOP_DIRECTIONS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Attacks of a slider on `sq` by walking each ray until the first occupied square.
pub(crate) const fn ray_attacks(sq: usize, occupied: u64, directions: &[(i32, i32); 4]) -> u64 {
    let mut attacks = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = directions[d];
        let mut file = (sq % 8) as i32 + df;
        let mut rank = (sq / 8) as i32 + dr;
        while file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            let bit = 1u64 << (rank * 8 + file);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            file += df;
            rank += dr;
        }
        d += 1;
    }
    attacks
}

/// The squares whose occupancy matters: each ray without its last square.
const fn blocker_mask(sq: usize, directions: &[(i32, i32); 4]) -> u64 {
    let mut mask = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = directions[d];
        let mut file = (sq % 8) as i32 + df;
        let mut rank = (sq / 8) as i32 + dr;
        while file + df >= 0 && file + df < 8 && rank + dr >= 0 && rank + dr < 8 {
            mask |= 1u64 << (rank * 8 + file);
            file += df;
            rank += dr;
        }
        d += 1;
    }
    mask
}

const fn build_magics(
    factors: &[u64; 64],
    directions: &[(i32, i32); 4],
    base: u32,
) -> ([Magic; 64], u32) {
    let mut magics = [Magic {
        mask: 0,
        factor: 0,
        offset: 0,
        shift: 0,
    }; 64];
    let mut offset = base;
    let mut sq = 0;
    while sq < 64 {
        let mask = blocker_mask(sq, directions);
        let bits = mask.count_ones();
        magics[sq] = Magic {
            mask,
            factor: factors[sq],
            offset,
            shift: 64 - bits,
        };
        offset += 1 << bits;
        sq += 1;
    }
    (magics, offset)
}

const ROOK_BUILD: ([Magic; 64], u32) = build_magics(&ROOK_FACTORS, &ROOK_DIRECTIONS, 0);
const BISHOP_BUILD: ([Magic; 64], u32) =
    build_magics(&BISHOP_FACTORS, &BISHOP_DIRECTIONS, ROOK_BUILD.1);
/// The table is padded to a power of two, so that masking a slot keeps it in bounds
/// with no bounds check (the padding is never read, so it costs no cache).
const TABLE_SIZE: usize = (BISHOP_BUILD.1 as usize).next_power_of_two();

static ROOK_MAGICS: [Magic; 64] = ROOK_BUILD.0;
static BISHOP_MAGICS: [Magic; 64] = BISHOP_BUILD.0;

const fn slot(magic: &Magic, occupied: u64) -> usize {
    (magic.offset as usize
        + ((occupied & magic.mask).wrapping_mul(magic.factor) >> magic.shift) as usize)
        & (TABLE_SIZE - 1)
}

const fn fill(
    mut table: [u64; TABLE_SIZE],
    magics: &[Magic; 64],
    directions: &[(i32, i32); 4],
) -> [u64; TABLE_SIZE] {
    let mut sq = 0;
    while sq < 64 {
        let magic = &magics[sq];
        // Enumerate every subset of the mask (the carry-rippler trick).
        let mut subset: u64 = 0;
        loop {
            table[slot(magic, subset)] = ray_attacks(sq, subset, directions);
            subset = subset.wrapping_sub(magic.mask) & magic.mask;
            if subset == 0 {
                break;
            }
        }
        sq += 1;
    }
    table
}

static TABLE: [u64; TABLE_SIZE] = fill(
    fill([0; TABLE_SIZE], &ROOK_BUILD.0, &ROOK_DIRECTIONS),
    &BISHOP_BUILD.0,
    &BISHOP_DIRECTIONS,
);

pub(crate) const fn empty_board(directions: &[(i32, i32); 4]) -> [u64; 64] {
    let mut rays = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        rays[sq] = ray_attacks(sq, 0, directions);
        sq += 1;
    }
    rays
}

static ROOK_RAYS: [u64; 64] = empty_board(&ROOK_DIRECTIONS);
static BISHOP_RAYS: [u64; 64] = empty_board(&BISHOP_DIRECTIONS);

/// Rook attacks from `sq` on an empty board: a table small enough to stay in the
/// first-level cache, to rule a rook lookup out before paying for it.
pub(crate) fn rook_rays(sq: usize) -> u64 {
    ROOK_RAYS[sq & 63]
}

/// Bishop attacks from `sq` on an empty board.
pub(crate) fn bishop_rays(sq: usize) -> u64 {
    BISHOP_RAYS[sq & 63]
}

/// Rook attacks from `sq` given the occupied squares.
pub(crate) fn rook_attacks(sq: usize, occupied: u64) -> u64 {
    TABLE[slot(&ROOK_MAGICS[sq & 63], occupied)]
}

/// Bishop attacks from `sq` given the occupied squares.
pub(crate) fn bishop_attacks(sq: usize, occupied: u64) -> u64 {
    TABLE[slot(&BISHOP_MAGICS[sq & 63], occupied)]
}

#[rustfmt::skip]
const ROOK_FACTORS: [u64; 64] = [
    0x08800090a0844000,
    0x0140004020001000,
    0x0600082200108040,
    0x1080248008005000,
    0x4200110200080420,
    0x0580018024000a00,
    0x81004081000c1200,
    0x21000a0388486300,
    0x121280104000a080,
    0x8a40400020100048,
    0xa001001100412000,
    0x0082001042002049,
    0x4191800800802400,
    0x0002000802003004,
    0x0400800100802200,
    0x100100110020c882,
    0x08c3020020844201,
    0x009000c000200240,
    0x2022220040108202,
    0x0081010010012208,
    0xca08008028040080,
    0x110081800c000200,
    0x000480804b002200,
    0x0010120001418114,
    0x010092208004c000,
    0x1881200040005009,
    0x0020809200220044,
    0x1188100080080084,
    0x0018004d00110008,
    0x0090c00801042030,
    0x9080481400015002,
    0x002004020012a041,
    0x0082408202002100,
    0x4320004020401000,
    0x3800312082004201,
    0x0080802800801002,
    0x0102801800800400,
    0x008a804200800400,
    0x00401801d4001002,
    0x008a0288c2000401,
    0x8820804013208001,
    0x8080d00220024000,
    0x0008410020010011,
    0x000200109b420020,
    0x1008000451010008,
    0x4640040002008080,
    0x1000080106040070,
    0x20000400a0420001,
    0x4000420108288200,
    0xc910004000200840,
    0x00504020030a1100,
    0x0001080210008080,
    0x0111240048008080,
    0x200a007048044200,
    0x4080100201a85400,
    0x040900108200c500,
    0x2002182104408001,
    0x0040208410430202,
    0x0032012010084282,
    0x2807003000090421,
    0x82920060c8041042,
    0x01c1002804004201,
    0x04000a00b1102804,
    0x0420040700628046,
];

#[rustfmt::skip]
const BISHOP_FACTORS: [u64; 64] = [
    0x0318010104010201,
    0x1108500080830100,
    0x0090090845018000,
    0x0014040182401802,
    0x4043104004001602,
    0x4000900420110410,
    0x8002111012900c80,
    0x460084004104200c,
    0x000140080a008211,
    0x0000040108010900,
    0x801410013a006010,
    0x0000040400800040,
    0x0800040520020a00,
    0x0090098804420200,
    0x0800010801100a00,
    0x4802808048021000,
    0x0248000410100240,
    0x9048448210490208,
    0x2012288c00220200,
    0x0943060804110000,
    0x0004040202110280,
    0x1011200110101003,
    0x1808800211900900,
    0x400142408e080100,
    0x1010040010218208,
    0x02010c0020643400,
    0x012808030b020228,
    0x0008080004820003,
    0x0000840010822004,
    0x801800400080e010,
    0x0c31040581040100,
    0x0040c10002028202,
    0x4618824003100440,
    0x4408011001088200,
    0x0800441005120020,
    0x2000020080c80080,
    0x2020188400a08020,
    0x0010018202002200,
    0x0014088080022800,
    0x0000810300020490,
    0x408c0202110140a0,
    0x0002080184110820,
    0x5086108413011000,
    0x0030002214000800,
    0x8c00200204100280,
    0x0002081001000260,
    0x80080ac804401200,
    0x0404030c00201100,
    0x2400c804102b0084,
    0x080300c104210052,
    0x00004080e8080100,
    0x1008105046080200,
    0x802e00900a120022,
    0x2209212410208000,
    0x061030020820c000,
    0x00100c3840802404,
    0x1044420820880400,
    0x4040010246100402,
    0x0000500040441000,
    0x0000008010208808,
    0x0801800110120880,
    0x0008012024031208,
    0x0400200510020044,
    0x8804041004010530,
];

#[cfg(test)]
mod tests {
    use super::*;

    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    fn subsets(mask: u64) -> Vec<u64> {
        let mut all = vec![0];
        let mut subset = mask.wrapping_neg() & mask;
        while subset != 0 {
            all.push(subset);
            subset = subset.wrapping_sub(mask) & mask;
        }
        all
    }

    fn is_collision_free(sq: usize, factor: u64, directions: &[(i32, i32); 4]) -> bool {
        let mask = blocker_mask(sq, directions);
        let shift = 64 - mask.count_ones();
        let mut seen = vec![None; 1 << mask.count_ones()];
        for subset in subsets(mask) {
            let index = (subset.wrapping_mul(factor) >> shift) as usize;
            let attacks = ray_attacks(sq, subset, directions);
            match seen[index] {
                Some(other) if other != attacks => return false,
                _ => seen[index] = Some(attacks),
            }
        }
        true
    }

    #[test]
    #[ignore = "generator for the factor tables, not a check"]
    fn find_factors() {
        let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
        for (name, directions) in [("ROOK", &ROOK_DIRECTIONS), ("BISHOP", &BISHOP_DIRECTIONS)] {
            println!("const {name}_FACTORS: [u64; 64] = [");
            for sq in 0..64 {
                let factor = loop {
                    let candidate = rng.next() & rng.next() & rng.next();
                    if is_collision_free(sq, candidate, directions) {
                        break candidate;
                    }
                };
                println!("    0x{factor:016x},");
            }
            println!("];");
        }
    }

    #[test]
    fn factors_are_collision_free() {
        for sq in 0..64 {
            assert!(
                is_collision_free(sq, ROOK_FACTORS[sq], &ROOK_DIRECTIONS),
                "rook {sq}"
            );
            assert!(
                is_collision_free(sq, BISHOP_FACTORS[sq], &BISHOP_DIRECTIONS),
                "bishop {sq}"
            );
        }
    }

    #[test]
    fn lookups_match_ray_walk_on_random_boards() {
        let mut rng = XorShift(7);
        for _ in 0..20_000 {
            let occupied = rng.next() & rng.next();
            let sq = (rng.next() % 64) as usize;
            assert_eq!(
                rook_attacks(sq, occupied),
                ray_attacks(sq, occupied, &ROOK_DIRECTIONS)
            );
            assert_eq!(
                bishop_attacks(sq, occupied),
                ray_attacks(sq, occupied, &BISHOP_DIRECTIONS)
            );
        }
    }
}
