//! Sets of cells as bits: what filters over cells are compiled to.
//!
//! A filter that asks only about each cell's own stack (`empty(x)`, `owner(x) == me`,
//! `height(x) == 1`, ...) is a set the position keeps up to date (see
//! [`State`](super::state::State)), and a collection such as `adjacent(c)` is a mask the
//! board works out from its links; `cells where A && B` is then a few word operations, its
//! size a popcount and its n-th element a short walk, instead of a test per cell.
//!
//! A board of `n` cells uses sets of `n.div_ceil(64)` words (one word up to 8x8), and the
//! functions that work sets out are compiled once per word count (`[u64; W]`), so a set on
//! a small board is a single register.

/// The most 64-bit words a set of cells needs: boards have at most 26 × 26 cells.
pub const WORDS: usize = (26 * 26usize).div_ceil(64);

/// The words of a set of `n` cells: `0..n`.
pub fn below(n: usize, words: usize) -> Vec<u64> {
    (0..words)
        .map(|i| {
            let lo = i * 64;
            if n >= lo + 64 {
                u64::MAX
            } else if n > lo {
                (1u64 << (n - lo)) - 1
            } else {
                0
            }
        })
        .collect()
}

#[inline]
pub fn insert(set: &mut [u64], cell: usize) {
    set[cell / 64] |= 1 << (cell % 64);
}

#[inline]
pub fn remove(set: &mut [u64], cell: usize) {
    set[cell / 64] &= !(1 << (cell % 64));
}

#[inline]
pub fn contains(set: &[u64], cell: usize) -> bool {
    set.get(cell / 64)
        .is_some_and(|w| w & (1 << (cell % 64)) != 0)
}

/// Appends a set's words to `out`: a one-word set (a board of up to 64 cells) as one
/// push, not a copy through a call.
#[inline]
pub fn append(out: &mut Vec<u64>, set: &[u64]) {
    match set {
        [word] => out.push(*word),
        _ => out.extend_from_slice(set),
    }
}

/// The number of cells in a set.
#[inline]
pub fn count(set: &[u64]) -> usize {
    set.iter().map(|w| w.count_ones() as usize).sum()
}

#[inline]
pub fn is_empty(set: &[u64]) -> bool {
    set.iter().all(|&w| w == 0)
}

/// The lowest cell, if any.
#[inline]
pub fn first(set: &[u64]) -> Option<usize> {
    set.iter()
        .position(|&w| w != 0)
        .map(|i| i * 64 + set[i].trailing_zeros() as usize)
}

/// The highest cell, if any.
#[inline]
pub fn last(set: &[u64]) -> Option<usize> {
    set.iter()
        .rposition(|&w| w != 0)
        .map(|i| i * 64 + 63 - set[i].leading_zeros() as usize)
}

/// The `n`-th cell in index order (from 0), if the set has that many: the word that
/// holds it found by counting, the cell within the word by [`select`].
#[inline]
pub fn nth(set: &[u64], mut n: usize) -> Option<usize> {
    if let [word] = set {
        return select(*word, n);
    }
    for (i, &w) in set.iter().enumerate() {
        let ones = w.count_ones() as usize;
        if n < ones {
            return select(w, n).map(|bit| i * 64 + bit);
        }
        n -= ones;
    }
    None
}

/// The place of the `k`-th set bit of `word` (from 0, lowest first), if it has that
/// many. A broadword select: the bits counted per byte, the counts summed across the
/// bytes by one multiplication, the byte holding the bit found by comparing all eight
/// sums at once, and the bit within that byte read from a table. Its only branch, on
/// whether the word has that many bits, goes the same way in every draw: a walk bit by
/// bit stops at a place drawn at random, and the processor mispredicts where.
#[inline]
pub fn select(word: u64, k: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut s = word - ((word >> 1) & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    s = (s + (s >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    // Byte i: the set bits of bytes 0 to i.
    let sums = s.wrapping_mul(ONES);
    if k >= (sums >> 56) as usize {
        return None;
    }
    // The high bit of byte i is set when its sum is at most k: each byte is 0x80 + k -
    // sum (k < 64, so `| HIGH` adds 0x80 to each byte), and no byte borrows from the
    // next since a sum is at most 64. The sums grow, so the bytes so marked come first,
    // and their number is the byte holding the bit.
    let at_most = (((k as u64 * ONES) | HIGH) - sums) & HIGH;
    let byte = ((at_most >> 7).wrapping_mul(ONES) >> 56) as usize;
    // The bits before that byte: the sum of the byte below it (0 for the first).
    let before = ((sums << 8) >> (8 * byte)) as usize & 0xFF;
    let bits = (word >> (8 * byte)) as usize & 0xFF;
    Some(8 * byte + IN_BYTE[bits][k - before] as usize)
}

/// `IN_BYTE[b][r]`: the place of the `r`-th set bit of the byte `b` (8 past its last).
static IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[8u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut r) = (0, 0);
        while bit < 8 {
            if b >> bit & 1 == 1 {
                table[b][r] = bit as u8;
                r += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    table
};

/// The cells of a set in index order, read from the set where it is (nothing copied).
#[inline]
pub fn members(set: &[u64]) -> Members<'_> {
    Members {
        rest: set,
        word: 0,
        base: 0,
        next: 0,
    }
}

/// The iterator of [`members`]: the bits left of the word being walked and its first
/// cell, and the words after it and their first cell.
pub struct Members<'a> {
    rest: &'a [u64],
    word: u64,
    base: usize,
    next: usize,
}

impl Iterator for Members<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word == 0 {
            let (&first, rest) = self.rest.split_first()?;
            (self.word, self.base, self.next, self.rest) = (first, self.next, self.next + 64, rest);
        }
        let bit = self.word.trailing_zeros() as usize;
        self.word &= self.word - 1;
        Some(self.base + bit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_nth_first_last_and_count_agree() {
        let mut s = [0u64; WORDS];
        for c in [0, 5, 63, 64, 200, 675] {
            insert(&mut s, c);
        }
        let all: Vec<usize> = members(&s).collect();
        assert_eq!(all, vec![0, 5, 63, 64, 200, 675]);
        assert_eq!(count(&s), 6);
        assert_eq!((first(&s), last(&s)), (Some(0), Some(675)));
        for (i, c) in all.iter().enumerate() {
            assert_eq!(nth(&s, i), Some(*c));
        }
        assert_eq!(nth(&s, 6), None);
        for i in 0..all.len() {
            assert_eq!(nth(&s[..1], i), all.get(i).filter(|&&c| c < 64).copied());
        }
        assert_eq!(nth(&s[..1], 3), None);
        // Past the last cell of one word: none, not an overflow.
        assert_eq!(nth(&[0b1], 2), None);
        assert_eq!(count(&below(70, 2)), 70);
        remove(&mut s, 5);
        assert!(!contains(&s, 5) && contains(&s, 64));
        assert_eq!(members(&s[..1]).count(), 2);
    }

    #[test]
    fn select_finds_every_set_bit_of_a_word() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let words = [0, 1, 1 << 63, u64::MAX, 0xFF00, 0x8000_0000_0000_0001];
        for round in 0..2000 {
            // Sparse, dense and random words (xorshift), and the edge cases above.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let word = match round % 4 {
                0 => x & x.rotate_left(17) & x.rotate_left(31),
                1 => x | x.rotate_left(23),
                2 => x,
                _ => words[round / 4 % words.len()],
            };
            let bits: Vec<usize> = (0..64).filter(|b| word >> b & 1 == 1).collect();
            for k in 0..64 {
                assert_eq!(select(word, k), bits.get(k).copied(), "{word:#x} {k}");
            }
        }
    }
}
