//! Shards: a match split into N parts that separate machines play (`match --shard K/N`),
//! whose results `merge` adds up to the whole match's.
//!
//! Shard K of N plays a contiguous block of the match's game indices, the K-th of N
//! blocks as even as can be (their sizes differ by one at most). Contiguous rather than
//! every N-th game: seats rotate with the index, so a block seats each bot first in as
//! many of its games as the whole match does (give or take one), and a shard's own table
//! already means something; every N-th game, with N a multiple of the number of bots,
//! would seat the same bot first in every game of a shard. A block's transcripts are also
//! one run of names (`game-051.txt` to `game-100.txt`). Any partition would merge exactly:
//! a game's seed and seating come from its index alone.

use std::ops::Range;

use serde::{Deserialize, Serialize};

/// Shard `index` (from 1) of `of`: which part of a match a run plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: usize,
    pub of: usize,
}

/// What `--shard` takes, for messages.
const EXPECTED: &str = "K/N, shard K of N with 1 <= K <= N, e.g. 2/4";

impl Shard {
    /// A shard, checked: `index` from 1 to `of`.
    pub fn new(index: usize, of: usize) -> Result<Shard, String> {
        if of == 0 {
            return Err(format!(
                "{index}/{of} splits the match into no shards: N must be at least 1 ({EXPECTED})"
            ));
        }
        if index == 0 {
            return Err(format!(
                "{index}/{of}: shards are numbered from 1, so K must be at least 1 ({EXPECTED})"
            ));
        }
        if index > of {
            return Err(format!(
                "{index}/{of}: there is no shard {index} of {of}, K must be at most N ({EXPECTED})"
            ));
        }
        Ok(Shard { index, of })
    }

    /// Parses `K/N` as `--shard` takes it; the message says what was expected.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let Some((k, n)) = text.split_once('/') else {
            return Err(format!("`{text}` is not {EXPECTED}"));
        };
        Shard::new(number(k, "K", text)?, number(n, "N", text)?)
    }

    /// The indices (from 0) of the games this shard plays, of a match of `games`.
    /// Refused when there are more shards than games: some shard would play none, which
    /// is surely not what was meant.
    pub fn games(&self, games: usize) -> Result<Range<usize>, String> {
        if self.of > games {
            return Err(format!(
                "--shard {self}: {} shards of a match of {games} games would leave some \
                 with no game; N must be at most the number of games",
                self.of
            ));
        }
        Ok(self.start(games)..self.start_of(self.index, games))
    }

    /// The first index of this shard's block.
    fn start(&self, games: usize) -> usize {
        self.start_of(self.index - 1, games)
    }

    /// Where block `k` (from 0) of `of` starts: `k * games / of`, computed wide so that
    /// it cannot overflow.
    fn start_of(&self, k: usize, games: usize) -> usize {
        (k as u128 * games as u128 / self.of as u128) as usize
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.of)
    }
}

/// One side of `K/N`: digits only (no sign, no spaces), fitting a `usize`.
fn number(side: &str, name: &str, text: &str) -> Result<usize, String> {
    if side.is_empty() || !side.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "`{text}`: {name} must be a whole number, got `{side}` ({EXPECTED})"
        ));
    }
    side.parse()
        .map_err(|_| format!("`{text}`: {name} is too large ({EXPECTED})"))
}

#[cfg(test)]
mod tests {
    use super::Shard;

    #[test]
    fn the_blocks_of_every_split_cover_each_game_once() {
        for games in 1..=40 {
            for of in 1..=games {
                let mut next = 0;
                for index in 1..=of {
                    let range = Shard::new(index, of).unwrap().games(games).unwrap();
                    assert_eq!(range.start, next, "{index}/{of} of {games}");
                    let len = range.len();
                    assert!(len == games / of || len == games.div_ceil(of));
                    next = range.end;
                }
                assert_eq!(next, games);
            }
        }
    }
}
