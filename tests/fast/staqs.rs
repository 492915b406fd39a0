//! STAQS written by hand for speed: the baseline the interpreter's playouts are measured
//! against (`benches/playouts.rs`), checked against the interpreter by `tests/fast_engines/staqs.rs`.
//!
//! The 5x5 board is a 25-bit set: `lone` holds the cells with a lone neutral piece (the
//! only cells a piece may be placed on or step onto), and each player's four stacks are a
//! cell and a height each. A placement is any bit of `lone`; the steps of a stack are the
//! bits of `lone & ADJACENT[cell]`, from tables built once. A random ply is drawn exactly
//! uniformly by counting every player's plies (popcounts) and walking to the drawn index,
//! so nothing is listed and nothing allocated. It follows the rules as the game file does:
//! placement while the mover has pieces in hand, then steps onto lone neutrals (diagonals
//! too with the variant switch), a pass when no step exists, the end after two passes in a
//! row, and the winner by heights sorted tallest first.

use rand::{Rng, RngExt};

/// Cells of the board: `file + 5 * rank`, a1 = 0.
const CELLS: usize = 25;
/// Every cell.
const FULL: u32 = (1 << CELLS) - 1;

/// A ply: a placement on a cell, a step of the stack on `from` to `to`, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Place(u8),
    Step(u8, u8),
    Pass,
}

/// The neighbours of each cell, orthogonal only and with diagonals.
struct Tables {
    orthogonal: [u32; CELLS],
    all: [u32; CELLS],
}

const TABLES: Tables = tables();

const fn tables() -> Tables {
    let mut t = Tables {
        orthogonal: [0; CELLS],
        all: [0; CELLS],
    };
    let mut cell = 0;
    while cell < CELLS {
        let (file, rank) = ((cell % 5) as i32, (cell / 5) as i32);
        let mut df = -1;
        while df <= 1 {
            let mut dr = -1;
            while dr <= 1 {
                let (f, r) = (file + df, rank + dr);
                if (df != 0 || dr != 0) && f >= 0 && f < 5 && r >= 0 && r < 5 {
                    let bit = 1u32 << (f + 5 * r);
                    t.all[cell] |= bit;
                    if df == 0 || dr == 0 {
                        t.orthogonal[cell] |= bit;
                    }
                }
                dr += 1;
            }
            df += 1;
        }
        cell += 1;
    }
    t
}

/// A position. Blue is player 0 and moves first.
#[derive(Clone, Copy, Debug)]
pub struct Staqs {
    /// Cells holding a lone neutral piece.
    lone: u32,
    /// Per player: the cells of their stacks and the heights (neutral pieces included).
    stacks: [[u8; 4]; 2],
    heights: [[u8; 4]; 2],
    /// Pieces each player still has to place.
    supply: [u8; 2],
    /// Consecutive passes.
    passes: u8,
    to_move: u8,
    plies: u32,
    diagonal: bool,
    /// Set once the game is over: `Some(winner)` or `None` for a draw.
    result: Option<Option<u8>>,
}

impl Staqs {
    /// The start: a lone neutral on every cell, four pieces in each hand.
    pub fn start(diagonal_steps: bool) -> Staqs {
        Staqs {
            lone: FULL,
            stacks: [[0; 4]; 2],
            heights: [[0; 4]; 2],
            supply: [4, 4],
            passes: 0,
            to_move: 0,
            plies: 0,
            diagonal: diagonal_steps,
            result: None,
        }
    }

    fn neighbours(&self, cell: u8) -> u32 {
        if self.diagonal {
            TABLES.all[cell as usize]
        } else {
            TABLES.orthogonal[cell as usize]
        }
    }

    /// The mover's stacks placed so far.
    fn placed(&self, p: usize) -> usize {
        4 - self.supply[p] as usize
    }

    /// How many plies the mover has (0 once the game is over).
    pub fn count(&self) -> u32 {
        if self.result.is_some() {
            return 0;
        }
        let p = self.to_move as usize;
        if self.supply[p] > 0 {
            return self.lone.count_ones();
        }
        let steps: u32 = (0..self.placed(p))
            .map(|i| (self.neighbours(self.stacks[p][i]) & self.lone).count_ones())
            .sum();
        steps.max(1)
    }

    /// Ply number `index` (below [`Staqs::count`]) in a fixed order.
    pub fn nth(&self, mut index: u32) -> Move {
        let p = self.to_move as usize;
        if self.supply[p] > 0 {
            return Move::Place(nth_bit(self.lone, index));
        }
        for i in 0..self.placed(p) {
            let from = self.stacks[p][i];
            let to = self.neighbours(from) & self.lone;
            let n = to.count_ones();
            if index < n {
                return Move::Step(from, nth_bit(to, index));
            }
            index -= n;
        }
        Move::Pass
    }

    /// Every legal ply, in the order of [`Staqs::nth`].
    pub fn moves(&self) -> Vec<Move> {
        (0..self.count()).map(|i| self.nth(i)).collect()
    }

    /// Plays a legal ply.
    pub fn play(&mut self, m: Move) {
        let p = self.to_move as usize;
        match m {
            Move::Place(cell) => {
                let i = self.placed(p);
                self.stacks[p][i] = cell;
                self.heights[p][i] = 2;
                self.supply[p] -= 1;
                self.lone &= !(1 << cell);
            }
            Move::Step(from, to) => {
                let i = self.stacks[p]
                    .iter()
                    .position(|&c| c == from)
                    .expect("a stack");
                self.stacks[p][i] = to;
                self.heights[p][i] += 1;
                self.lone &= !(1 << to);
                self.passes = 0;
            }
            Move::Pass => {
                self.passes += 1;
                if self.passes == 2 {
                    self.result = Some(self.winner_by_heights());
                }
            }
        }
        self.plies += 1;
        self.to_move ^= 1;
    }

    /// Heights sorted tallest first, compared element by element.
    fn winner_by_heights(&self) -> Option<u8> {
        let sorted = |p: usize| {
            let mut h = self.heights[p];
            h.sort_unstable_by(|a, b| b.cmp(a));
            h
        };
        match sorted(0).cmp(&sorted(1)) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// `None` while the game goes on; then `Some(winner)`, `Some(None)` for a draw.
    pub fn result(&self) -> Option<Option<u8>> {
        self.result
    }

    /// Plies played since the start.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The game file's text of a ply.
    pub fn notation(&self, m: Move) -> String {
        match m {
            Move::Place(c) => name(c),
            Move::Step(a, b) => format!("{}-{}", name(a), name(b)),
            Move::Pass => "pass".to_string(),
        }
    }

    /// Plays uniformly random plies to the end; returns the result.
    pub fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Option<u8> {
        loop {
            if let Some(result) = self.result {
                return result;
            }
            let n = self.count();
            let m = self.nth(rng.random_range(0..n));
            self.play(m);
        }
    }

    /// Leaf plies `depth` plies deep; a ply that ends the game is a leaf.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.result.is_some() {
            return 1;
        }
        let n = self.count();
        if depth == 1 {
            return n as u64;
        }
        (0..n)
            .map(|i| {
                let mut next = *self;
                next.play(self.nth(i));
                next.perft(depth - 1)
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
