//! VLKNO written by hand for speed: the baseline the interpreter's playouts are measured
//! against (`benches/playouts.rs`), checked against the interpreter by `tests/fast_engines/vlkno.rs`.
//! Rule numbers are those of `docs/rules/vlkno.md`.
//!
//! The 5x5 board is a 25-bit set. Besides each cell's height, `level[h]` holds the cells
//! of exactly `h` stones (`level[0]` is the lava), so a pawn's steps are one mask
//! (`ADJACENT[from] & free & level[h-1..=h+1]`) and the lowest stacks a lookup.
//!
//! A turn (rules 4-6) is one ply of three choices, and its count needs no listing: every
//! take and place candidate is a stone-bearing cell without a pawn (`free`) other than the
//! step's destination (the space left has a pawn until the step, so it is never in
//! `free`). The takes are thus the lowest free stacks minus the destination, or the next
//! height up when the destination was the only lowest one, and the places are the `free`
//! cells minus the destination and, unless the stone may go back (`put_back`, and the
//! stack keeps a stone), minus the stack taken from. Each step therefore has
//! `takes * places` plies by popcounts, a random ply is drawn exactly uniformly by walking
//! these counts to a drawn index, and nothing is listed or allocated. The player to move
//! with no ply loses (rule 8); the game file's ply cap (`max_plies`) draws the game first.

use rand::{Rng, RngExt};

/// Cells of the board: `file + 5 * rank`, a1 = 0.
const CELLS: usize = 25;
/// Every cell.
const FULL: u32 = (1 << CELLS) - 1;
/// Heights 0 to 25 (all 25 stones on one stack) and one more, so that the heights a pawn
/// may step to (`h - 1 ..= h + 1`) are always in the table.
const LEVELS: usize = CELLS + 2;
/// The game file's `max_plies`: once this many plies are played the game is a draw, the
/// cap being checked before the next player's turn is (the interpreter's order).
pub const MAX_PLIES: u32 = 1000;

/// A whole turn: the pawn on `from` steps to `to`, a stone is taken from `take` and put on
/// `put` (rules 4-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub from: u8,
    pub to: u8,
    pub take: u8,
    pub put: u8,
}

/// The cells one step away from each cell in the 8 directions (rule 4).
const ADJACENT: [u32; CELLS] = adjacent();

const fn adjacent() -> [u32; CELLS] {
    let mut t = [0; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (file, rank) = ((cell % 5) as i32, (cell / 5) as i32);
        let mut df = -1;
        while df <= 1 {
            let mut dr = -1;
            while dr <= 1 {
                let (f, r) = (file + df, rank + dr);
                if (df != 0 || dr != 0) && f >= 0 && f < 5 && r >= 0 && r < 5 {
                    t[cell] |= 1 << (f + 5 * r);
                }
                dr += 1;
            }
            df += 1;
        }
        cell += 1;
    }
    t
}

/// A position. Players are numbered in the game file's order: black 0, white 1.
#[derive(Clone, Copy, Debug)]
pub struct Vlkno {
    /// Stones on each cell, pawns not counted.
    height: [u8; CELLS],
    /// `level[h]`: the cells of exactly `h` stones.
    level: [u32; LEVELS],
    /// Each player's pawn cells.
    pawns: [u32; 2],
    to_move: u8,
    /// Rule 6 variant: the stone may go back on the stack it came from.
    put_back: bool,
    plies: u32,
    /// The number of legal plies of the player to move; 0 once the game is over.
    legal: u32,
}

/// What the take and place steps of a position depend on, the same for every pawn step.
struct Stage {
    /// Stone-bearing cells without a pawn.
    free: u32,
    /// The free cells of the lowest height, and how many places each of their takes has.
    low: u32,
    low_places: u32,
    /// When `low` is a single cell: the free cells of the next height up (the takes of a
    /// step onto that cell), and their places.
    next: u32,
    next_places: u32,
}

impl Stage {
    /// The plies of a step onto the cell of the one-bit set `to`: the takes, and the
    /// places of each.
    fn takes(&self, to: u32) -> (u32, u32) {
        if self.low != to {
            (self.low & !to, self.low_places)
        } else {
            (self.next, self.next_places)
        }
    }

    /// The plies of all the steps onto the cells of `steps`.
    fn count(&self, steps: u32) -> u32 {
        let lows = self.low.count_ones();
        let onto_low = (steps & self.low).count_ones();
        let elsewhere = (steps.count_ones() - onto_low) * lows * self.low_places;
        elsewhere
            + onto_low
                * if lows > 1 {
                    (lows - 1) * self.low_places
                } else {
                    self.next.count_ones() * self.next_places
                }
    }
}

impl Vlkno {
    /// The start (rules 1-3): one stone on every cell, white pawns on a1 and e5, black on
    /// a5 and e1, black to move.
    pub fn start(put_back: bool) -> Vlkno {
        let mut level = [0; LEVELS];
        level[1] = FULL;
        let mut v = Vlkno {
            height: [1; CELLS],
            level,
            pawns: [1 << 20 | 1 << 4, 1 | 1 << 24],
            // Rule 3: black plays first.
            to_move: 0,
            put_back,
            plies: 0,
            legal: 0,
        };
        v.legal = v.count();
        v
    }

    /// The take and place candidates of this position.
    fn stage(&self) -> Stage {
        let free = !self.level[0] & FULL & !(self.pawns[0] | self.pawns[1]);
        // Places per take, with `c` candidates once the destination is struck: all but the
        // stack taken from, or all of them if the stone may go back and the stack stays.
        let c = free.count_ones().saturating_sub(1);
        let places = |h: usize| {
            if self.put_back && h >= 2 {
                c
            } else {
                c.saturating_sub(1)
            }
        };
        let Some(low_h) = (1..LEVELS).find(|&h| self.level[h] & free != 0) else {
            return Stage {
                free,
                low: 0,
                low_places: 0,
                next: 0,
                next_places: 0,
            };
        };
        let low = self.level[low_h] & free;
        let (next, next_places) = if low.count_ones() == 1 {
            (low_h + 1..LEVELS)
                .find(|&h| self.level[h] & free != 0)
                .map_or((0, 0), |h| (self.level[h] & free, places(h)))
        } else {
            (0, 0)
        };
        Stage {
            free,
            low,
            low_places: places(low_h),
            next,
            next_places,
        }
    }

    /// The cells the pawn on `from` may step to (rule 4): adjacent, stone-bearing, without
    /// a pawn, and within one stone of its height.
    fn steps(&self, stage: &Stage, from: usize) -> u32 {
        let h = self.height[from] as usize;
        let near = self.level[h - 1] | self.level[h] | self.level[h + 1];
        ADJACENT[from] & stage.free & near
    }

    /// How many plies the player to move has (rule 8: whole turns only).
    fn count(&self) -> u32 {
        let stage = self.stage();
        let mut pawns = self.pawns[self.to_move as usize];
        let mut n = 0;
        while pawns != 0 {
            let from = pawns.trailing_zeros() as usize;
            pawns &= pawns - 1;
            n += stage.count(self.steps(&stage, from));
        }
        n
    }

    /// Ply number `index` (below the number of legal plies): pawns, destinations, takes
    /// and places each in cell order.
    pub fn nth(&self, mut index: u32) -> Move {
        let stage = self.stage();
        let mut pawns = self.pawns[self.to_move as usize];
        loop {
            let from = pawns.trailing_zeros() as usize;
            pawns &= pawns - 1;
            let mut steps = self.steps(&stage, from);
            let n = stage.count(steps);
            if index >= n {
                index -= n;
                continue;
            }
            loop {
                let to = steps & steps.wrapping_neg();
                steps ^= to;
                let (takes, places) = stage.takes(to);
                let n = takes.count_ones() * places;
                if index >= n {
                    index -= n;
                    continue;
                }
                let take = nth_bit(takes, index / places);
                let mut puts = stage.free & !to;
                if places != puts.count_ones() {
                    puts &= !(1 << take);
                }
                return Move {
                    from: from as u8,
                    to: to.trailing_zeros() as u8,
                    take,
                    put: nth_bit(puts, index % places),
                };
            }
        }
    }

    /// Every legal ply, in the order of [`Vlkno::nth`].
    pub fn moves(&self) -> Vec<Move> {
        (0..self.legal).map(|i| self.nth(i)).collect()
    }

    /// Plays a legal ply, then ends the game at the ply cap or when the next player has no
    /// ply.
    pub fn play(&mut self, m: Move) {
        self.pawns[self.to_move as usize] ^= 1 << m.from | 1 << m.to;
        self.restack(m.take, -1);
        self.restack(m.put, 1);
        self.plies += 1;
        self.to_move ^= 1;
        self.legal = if self.plies >= MAX_PLIES {
            0
        } else {
            self.count()
        };
    }

    /// Adds `by` stones to the stack on `cell`.
    fn restack(&mut self, cell: u8, by: i8) {
        let h = &mut self.height[cell as usize];
        self.level[*h as usize] ^= 1 << cell;
        *h = h.wrapping_add_signed(by);
        self.level[*h as usize] ^= 1 << cell;
    }

    /// `None` while the game goes on; then `Some(winner)`, `Some(None)` for a draw at the
    /// ply cap.
    pub fn result(&self) -> Option<Option<u8>> {
        if self.legal > 0 {
            None
        } else if self.plies >= MAX_PLIES {
            Some(None)
        } else {
            Some(Some(self.to_move ^ 1))
        }
    }

    /// Plies played since the start.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The game file's text of a ply: `a5-b4 c3 d1`.
    pub fn notation(&self, m: Move) -> String {
        format!(
            "{}-{} {} {}",
            name(m.from),
            name(m.to),
            name(m.take),
            name(m.put)
        )
    }

    /// Plays uniformly random plies to the end; returns the result.
    pub fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Option<u8> {
        while self.legal > 0 {
            let m = self.nth(rng.random_range(0..self.legal));
            self.play(m);
        }
        self.result().expect("over")
    }

    /// Leaf plies `depth` plies deep; a ply that ends the game is a leaf.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return self.legal as u64;
        }
        (0..self.legal)
            .map(|i| {
                let mut next = *self;
                next.play(self.nth(i));
                if next.legal == 0 {
                    1
                } else {
                    next.perft(depth - 1)
                }
            })
            .sum()
    }
}

/// The cell of the `index`-th set bit of `set`.
fn nth_bit(mut set: u32, index: u32) -> u8 {
    for _ in 0..index {
        set &= set - 1;
    }
    set.trailing_zeros() as u8
}

/// `a1` for cell 0.
fn name(cell: u8) -> String {
    format!("{}{}", (b'a' + cell % 5) as char, cell / 5 + 1)
}
