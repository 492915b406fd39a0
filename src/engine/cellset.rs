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

/// The `n`-th cell in index order (from 0) of a set of `count` cells (`n` below it),
/// walked from whichever end is nearer: a uniform draw then clears a quarter of the set's
/// bits on average instead of half.
#[inline]
pub fn nth_of(set: &[u64], n: usize, count: usize) -> Option<usize> {
    debug_assert_eq!(count, self::count(set), "the set's count");
    if 2 * n < count {
        return nth(set, n);
    }
    let mut from_top = count.checked_sub(n + 1)?;
    for (i, &w) in set.iter().enumerate().rev() {
        let mut bits = w;
        // One word needs no count: the cell is in it.
        let ones = if set.len() == 1 {
            64
        } else {
            w.count_ones() as usize
        };
        if from_top < ones {
            for _ in 0..from_top {
                bits ^= 1 << (63 - bits.leading_zeros());
            }
            return (bits != 0).then(|| i * 64 + 63 - bits.leading_zeros() as usize);
        }
        from_top -= ones;
    }
    None
}

/// The `n`-th cell in index order (from 0), if the set has that many.
#[inline]
pub fn nth(set: &[u64], mut n: usize) -> Option<usize> {
    for (i, &w) in set.iter().enumerate() {
        // One word needs no count: the cell is in it, if anywhere.
        let ones = if set.len() == 1 {
            64
        } else {
            w.count_ones() as usize
        };
        if n < ones {
            let mut bits = w;
            for _ in 0..n {
                bits &= bits.wrapping_sub(1);
            }
            return (bits != 0).then(|| i * 64 + bits.trailing_zeros() as usize);
        }
        n -= ones;
    }
    None
}

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
        for (i, c) in all.iter().enumerate() {
            assert_eq!(nth_of(&s, i, 6), Some(*c));
            assert_eq!(
                nth_of(&s[..1], i, 3),
                all.get(i).filter(|&&c| c < 64).copied()
            );
        }
        assert_eq!((nth(&s[..1], 3), nth_of(&s[..1], 3, 3)), (None, None));
        // Past the last cell of one word: none, not an overflow.
        assert_eq!(nth(&[0b1], 2), None);
        assert_eq!(count(&below(70, 2)), 70);
        remove(&mut s, 5);
        assert!(!contains(&s, 5) && contains(&s, 64));
        assert_eq!(members(&s[..1]).count(), 2);
    }
}
