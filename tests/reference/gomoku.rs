//! Gomoku, from docs/rules/gomoku.md (rule numbers are that file's).
//!
//! - A 15x15 board, empty; black first (rules 1, 2). A ply puts a stone on an empty
//!   point (rule 3).
//! - Five or more in an unbroken row wins; with `exact_five`, exactly five (rules 4, 5).
//!   The whole board is scanned for rows after every ply, not only the lines through the
//!   last stone.
//! - A full board without a winning row is a draw (rule 6).
//!
//! Bitboards: each colour's stones are a 225-bit set in four words, rows found by
//! shifting and intersecting.

use super::{GameResult, Reference, cell_name};

/// Turn order (rule 2: black plays first).
pub const PLAYERS: [&str; 2] = ["black", "white"];

const SIDE: usize = 15;
const POINTS: usize = SIDE * SIDE;

/// A set of points, bit `rank * 15 + file`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bits([u64; 4]);

impl Bits {
    fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    fn and(self, o: Bits) -> Bits {
        Bits([
            self.0[0] & o.0[0],
            self.0[1] & o.0[1],
            self.0[2] & o.0[2],
            self.0[3] & o.0[3],
        ])
    }

    fn and_not(self, o: Bits) -> Bits {
        Bits([
            self.0[0] & !o.0[0],
            self.0[1] & !o.0[1],
            self.0[2] & !o.0[2],
            self.0[3] & !o.0[3],
        ])
    }

    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The set moved `k` bits up (toward higher indices), bits past 225 dropped.
    fn up(self, k: usize) -> Bits {
        let mut out = [0u64; 4];
        for (i, word) in out.iter_mut().enumerate() {
            let (q, r) = ((k / 64) as isize, k % 64);
            let lo = i as isize - q;
            let mut w = 0;
            if lo >= 0 {
                w |= self.0[lo as usize] << r;
                if r > 0 && lo >= 1 {
                    w |= self.0[lo as usize - 1] >> (64 - r);
                }
            }
            *word = w;
        }
        let mut b = Bits(out);
        b.0[3] &= (1u64 << (POINTS - 192)) - 1;
        b
    }

    /// The points whose column lets a step of `df` files stay on the board.
    fn column_mask(df: i32) -> Bits {
        let mut b = Bits::default();
        for i in 0..POINTS {
            let f = (i % SIDE) as i32;
            if (0..SIDE as i32).contains(&(f + df)) {
                b.set(i);
            }
        }
        b
    }
}

/// The points starting a row of at least `k` stones of `s` going (df, dr), df >= 0,
/// dr >= 0 or (df, dr) = (1, -1): found by shifting the set onto itself.
fn runs(s: Bits, k: usize, (df, dr): (i32, i32)) -> Bits {
    // Moving a set by one step (df, dr) means a shift by dr * 15 + df bits, with the
    // points whose step would leave the board through a side masked off first.
    let step = |b: Bits| -> Bits {
        let b = b.and(Bits::column_mask(df));
        let shift = dr * SIDE as i32 + df;
        if shift >= 0 {
            b.up(shift as usize)
        } else {
            down(b, (-shift) as usize)
        }
    };
    // `acc` holds the points p such that p, p + step, ... (j of them) are all stones:
    // kept as the END points, then intersected with the set moved once more.
    let mut acc = s;
    for _ in 1..k {
        acc = step(acc).and(s);
    }
    acc
}

fn down(b: Bits, k: usize) -> Bits {
    let mut out = [0u64; 4];
    let (q, r) = (k / 64, k % 64);
    for (i, word) in out.iter_mut().enumerate() {
        let hi = i + q;
        let mut w = 0;
        if hi < 4 {
            w |= b.0[hi] >> r;
            if r > 0 && hi + 1 < 4 {
                w |= b.0[hi + 1] << (64 - r);
            }
        }
        *word = w;
    }
    Bits(out)
}

const LINES: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

/// A Gomoku position.
#[derive(Clone, Debug)]
pub struct Gomoku {
    pub stones: [Bits; 2],
    pub to_move: usize,
    pub plies: usize,
    pub result: Option<GameResult>,
    /// Rule 5's variant: only exactly five wins.
    pub exact_five: bool,
}

impl Gomoku {
    /// The empty board (rule 2).
    pub fn new(exact_five: bool) -> Gomoku {
        Gomoku {
            stones: [Bits::default(); 2],
            to_move: 0,
            plies: 0,
            result: None,
            exact_five,
        }
    }

    /// Whether `side` has a winning row anywhere (rules 4, 5).
    pub fn has_row(&self, side: usize) -> bool {
        let s = self.stones[side];
        LINES.iter().any(|&d| {
            let five = runs(s, 5, d);
            if !self.exact_five {
                return !five.is_empty();
            }
            // Exactly five: an end of five whose row is neither longer beyond that end
            // nor before its start, i.e. no run of six ends there or one step further.
            let six = runs(s, 6, d);
            let mut exact = five.and_not(six);
            // Drop ends whose next point along the line is a stone (the row goes on).
            for i in 0..POINTS {
                if exact.get(i) {
                    let (f, r) = ((i % SIDE) as i32 + d.0, (i / SIDE) as i32 + d.1);
                    if (0..15).contains(&f)
                        && (0..15).contains(&r)
                        && s.get(r as usize * SIDE + f as usize)
                    {
                        exact.0[i / 64] &= !(1 << (i % 64));
                    }
                }
            }
            !exact.is_empty()
        })
    }
}

impl Reference for Gomoku {
    type Move = usize;

    fn players(&self) -> Vec<&'static str> {
        PLAYERS.to_vec()
    }

    fn to_move(&self) -> &'static str {
        PLAYERS[self.to_move]
    }

    fn moves(&self) -> Vec<usize> {
        if self.result.is_some() {
            return Vec::new();
        }
        (0..POINTS)
            .filter(|&i| !self.stones[0].get(i) && !self.stones[1].get(i))
            .collect()
    }

    fn notation(&self, &i: &usize) -> String {
        cell_name(i % SIDE, i / SIDE)
    }

    fn apply(&mut self, &i: &usize) {
        let me = self.to_move;
        self.stones[me].set(i);
        self.plies += 1;
        self.to_move = 1 - me;
        if self.has_row(me) {
            self.result = Some(GameResult::Win(PLAYERS[me]));
        } else if self.plies == POINTS {
            self.result = Some(GameResult::Draw);
        }
    }

    fn result(&self) -> Option<GameResult> {
        self.result.clone()
    }

    fn plies(&self) -> usize {
        self.plies
    }

    fn render(&self) -> String {
        let mut s = String::new();
        for r in (0..SIDE).rev() {
            s.push_str(&format!("{:2} ", r + 1));
            for f in 0..SIDE {
                let i = r * SIDE + f;
                s.push(if self.stones[0].get(i) {
                    'X'
                } else if self.stones[1].get(i) {
                    'O'
                } else {
                    '.'
                });
                s.push(' ');
            }
            s.push('\n');
        }
        s
    }
}

#[test]
fn rows_are_found_along_every_line_and_at_the_edges() {
    let mut g = Gomoku::new(false);
    for f in 10..15 {
        g.stones[0].set(14 * SIDE + f);
    }
    assert!(g.has_row(0), "five along the top edge, to the corner");
    let mut g = Gomoku::new(true);
    for k in 0..5 {
        g.stones[0].set(k * SIDE + 14 - k);
    }
    assert!(g.has_row(0), "five on an anti-diagonal");
    g.stones[0].set(5 * SIDE + 9);
    assert!(!g.has_row(0), "six is no longer exactly five");
    let mut g = Gomoku::new(false);
    for f in 12..15 {
        g.stones[0].set(3 * SIDE + f);
    }
    for f in 0..2 {
        g.stones[0].set(4 * SIDE + f);
    }
    assert!(!g.has_row(0), "a row does not wrap round the edge");
}
