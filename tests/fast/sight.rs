//! Sight written by hand for speed: the baseline the interpreter's playouts are measured
//! against (`benches/playouts.rs`), checked against the interpreter by `tests/fast_engines/sight.rs`.
//! Rule numbers are those of `docs/rules/sight.md`.
//!
//! The 5x5 Alquerque board is a 25-bit set per player (`occupied`), and the heights of all
//! the stacks are kept bit-sliced: `planes[k]` holds the cells whose height has bit `k`
//! set. That makes every step of a ply a handful of word operations: growing every friendly
//! piece in sight (rules 6-7) is one ripple-carry add of the seen set, "height >= 2" is an
//! OR of the upper planes, and the highest of a set of stacks (rule 8) is five masked tests
//! from the top plane down. The pieces in sight (rule 4) are the nearest occupied cell of
//! each ray, taken from tables built once: the lowest bit for the rays going up the cell
//! numbers, the highest for the rays going down.
//!
//! Every ply occupies one more point (a placement fills one, a move leaves its origin
//! occupied and fills its destination), so a game lasts at most 25 plies and a height
//! never passes 25: five planes are enough.
//!
//! A random ply is drawn exactly uniformly by counting the legal plies and walking to the
//! drawn index, in the order [`Sight::moves`] lists them, so nothing is listed and nothing
//! allocated. Placements need no count (25 minus the plies played) and no walk: the empty
//! points are also kept in an array, so the drawn one is read at its index. Moves are
//! counted by popcounts of each origin's empty neighbours.

use rand::{Rng, RngExt};

/// Points of the board: `file + 5 * rank`, a1 = 0.
const CELLS: usize = 25;
/// Every point.
const FULL: u32 = (1 << CELLS) - 1;
/// Bit planes of the heights: enough for 31, and a height stays at most 25 (see above).
const PLANES: usize = 5;
/// The points off file a and off file e: those that may shift one file down or up.
const NOT_FILE_A: u32 = FULL & !0b00001_00001_00001_00001_00001;
const NOT_FILE_E: u32 = FULL & !0b10000_10000_10000_10000_10000;

/// A ply: a placement (rule 6), or the top piece of the stack on `from` moved to `to`
/// (rule 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Place(u8),
    Step(u8, u8),
}

/// The lines of each point (rule 1): the ray along each of its directions, split by
/// whether the ray goes up the cell numbers (n, e, ne, nw: its nearest point is its lowest
/// bit) or down (s, w, se, sw: its highest). An odd point's diagonal rays are empty.
struct Tables {
    up: [[u32; 4]; CELLS],
    down: [[u32; 4]; CELLS],
    /// The points one segment away (rule 2).
    adjacent: [u32; CELLS],
}

const TABLES: Tables = tables();

const fn tables() -> Tables {
    let mut t = Tables {
        up: [[0; 4]; CELLS],
        down: [[0; 4]; CELLS],
        adjacent: [0; CELLS],
    };
    // (file step, rank step): up n, e, ne, nw; down s, w, se, sw.
    let up = [(0, 1), (1, 0), (1, 1), (-1, 1)];
    let down = [(0, -1), (-1, 0), (1, -1), (-1, -1)];
    let mut cell = 0;
    while cell < CELLS {
        let (file, rank) = ((cell % 5) as i32, (cell / 5) as i32);
        // Diagonal lines join the points whose file + rank is even (rule 1).
        let diagonals = (file + rank) % 2 == 0;
        let mut d = 0;
        while d < 4 {
            let lines = d < 2 || diagonals;
            if lines {
                t.up[cell][d] = ray(file, rank, up[d]);
                t.down[cell][d] = ray(file, rank, down[d]);
                let (u, w) = (t.up[cell][d], t.down[cell][d]);
                // The nearest point of each ray.
                t.adjacent[cell] |= u & u.wrapping_neg();
                if w != 0 {
                    t.adjacent[cell] |= 1 << (31 - w.leading_zeros());
                }
            }
            d += 1;
        }
        cell += 1;
    }
    t
}

/// The points from (`file`, `rank`) along `(df, dr)` to the edge, the start excluded.
const fn ray(file: i32, rank: i32, (df, dr): (i32, i32)) -> u32 {
    let (mut f, mut r, mut set) = (file + df, rank + dr, 0);
    while f >= 0 && f < 5 && r >= 0 && r < 5 {
        set |= 1 << (f + 5 * r);
        f += df;
        r += dr;
    }
    set
}

/// The occupied points seen from `cell` (rule 4): the nearest occupied point of each ray.
#[inline]
fn seen(cell: usize, occupied: u32) -> u32 {
    let (up, down) = (&TABLES.up[cell], &TABLES.down[cell]);
    let mut set = 0;
    for d in 0..4 {
        let u = up[d] & occupied;
        set |= u & u.wrapping_neg();
        // The highest bit, or nothing for an empty ray (a shift by 32 of a u64 is defined).
        let w = down[d] & occupied;
        set |= ((1u64 << 31) >> w.leading_zeros()) as u32;
    }
    set
}

/// The points one segment away from some point of `set` (rule 2, adjacency is
/// symmetric): orthogonal shifts everywhere, diagonal ones between even points only.
#[inline]
fn next_to(set: u32) -> u32 {
    let orthogonal = set << 5 | set >> 5 | (set & NOT_FILE_E) << 1 | (set & NOT_FILE_A) >> 1;
    let even = set & EVEN;
    let diagonal = (even & NOT_FILE_E) << 6
        | (even & NOT_FILE_A) << 4
        | (even & NOT_FILE_E) >> 4
        | (even & NOT_FILE_A) >> 6;
    (orthogonal | diagonal) & FULL
}

/// The points whose file + rank is even: the only ones with diagonal lines (rule 1).
const EVEN: u32 = even();

const fn even() -> u32 {
    let (mut set, mut cell) = (0, 0);
    while cell < CELLS {
        if (cell % 5 + cell / 5) % 2 == 0 {
            set |= 1 << cell;
        }
        cell += 1;
    }
    set
}

/// What the player to act may do: place on any empty point (no stack, rule 6), or move
/// from one of `from` to an adjacent point of `empty` (rules 7-8).
#[derive(Clone, Copy)]
enum Options {
    Place,
    Step { from: u32, empty: u32 },
}

/// A position. White is player 0 and plays first (rule 5). Equality compares the order of
/// `empties` too: equal positions are those reached by the same plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sight {
    /// Each player's points (stacks and singletons alike; a point holds one colour).
    occupied: [u32; 2],
    /// Bit `k` of the height of every point, empty ones 0.
    planes: [u32; PLANES],
    /// The empty points in the first `25 - plies` entries (each ply fills one), in the
    /// order placements are numbered: a drawn placement is one load, not a search for the
    /// n-th bit. A filled point is swapped with the last one.
    empties: [u8; CELLS],
    /// The index of each empty point in `empties`.
    slot: [u8; CELLS],
    to_move: u8,
    plies: u8,
    /// The rule 8 variant switch: only the highest stacks may move, blocked or not.
    strict_priority: bool,
}

impl Sight {
    /// The empty board, white to play (rule 5).
    pub fn start(strict_priority: bool) -> Sight {
        let cells: [u8; CELLS] = std::array::from_fn(|c| c as u8);
        Sight {
            occupied: [0; 2],
            planes: [0; PLANES],
            empties: cells,
            slot: cells,
            to_move: 0,
            plies: 0,
            strict_priority,
        }
    }

    /// What the player to act may do.
    #[inline]
    fn options(&self) -> Options {
        let me = self.occupied[self.to_move as usize];
        // Height >= 2: a bit above the lowest plane (rule 3).
        let stacks = me & (self.planes[1] | self.planes[2] | self.planes[3] | self.planes[4]);
        if stacks == 0 {
            return Options::Place;
        }
        let empty = FULL & !(self.occupied[0] | self.occupied[1]);
        let movable = stacks & next_to(empty);
        // Rule 8: the highest of the stacks that can step, or of all of them (strict):
        // keep those with the top bit, plane by plane from the highest (without branches).
        let mut from = if self.strict_priority {
            stacks
        } else {
            movable
        };
        for plane in self.planes.iter().rev() {
            let higher = from & plane;
            from = if higher != 0 { higher } else { from };
        }
        Options::Step {
            from: from & movable,
            empty,
        }
    }

    /// How many plies `options` holds (0: the player to act is stuck and loses, rule 10).
    #[inline]
    fn count_of(&self, options: Options) -> u32 {
        match options {
            // Every ply fills one point.
            Options::Place => CELLS as u32 - u32::from(self.plies),
            Options::Step { mut from, empty } => {
                let mut n = 0;
                while from != 0 {
                    n += (TABLES.adjacent[from.trailing_zeros() as usize] & empty).count_ones();
                    from &= from - 1;
                }
                n
            }
        }
    }

    /// Ply number `index` (below [`Sight::count_of`]) of `options`: placements in the
    /// order of `empties`; moves by origin, then destination, in cell order.
    #[inline]
    fn nth_of(&self, options: Options, mut index: u32) -> Move {
        match options {
            Options::Place => Move::Place(self.empties[index as usize]),
            Options::Step { mut from, empty } => loop {
                let cell = from.trailing_zeros() as usize;
                let to = TABLES.adjacent[cell] & empty;
                let n = to.count_ones();
                if index < n {
                    return Move::Step(cell as u8, nth_bit(to, index));
                }
                index -= n;
                from &= from - 1;
            },
        }
    }

    /// How many legal plies the player to act has (0 once the game is over).
    pub fn count(&self) -> u32 {
        self.count_of(self.options())
    }

    /// Every legal ply, in the order the random playout numbers them.
    pub fn moves(&self) -> Vec<Move> {
        let options = self.options();
        (0..self.count_of(options))
            .map(|i| self.nth_of(options, i))
            .collect()
    }

    /// Plays a legal ply.
    #[inline]
    pub fn play(&mut self, m: Move) {
        let p = self.to_move as usize;
        let (to, from) = match m {
            Move::Place(to) => (to, 0),
            Move::Step(from, to) => {
                // The origin loses its top piece: subtract one, borrowing up the planes.
                let mut borrow = 1 << from;
                for plane in &mut self.planes {
                    let next = borrow & !*plane;
                    *plane ^= borrow;
                    borrow = next;
                }
                (to, 1 << from)
            }
        };
        // `to` leaves the empty points: the last one takes its slot.
        let (slot, last) = (
            self.slot[to as usize],
            self.empties[CELLS - 1 - self.plies as usize],
        );
        self.empties[slot as usize] = last;
        self.slot[last as usize] = slot;
        let bit = 1u32 << to;
        self.occupied[p] |= bit;
        self.planes[0] |= bit;
        // Every friendly piece in sight grows by one, the origin excepted (rules 6-7): add
        // one to each, carrying up the planes.
        let mut carry =
            seen(to as usize, self.occupied[0] | self.occupied[1]) & self.occupied[p] & !from;
        for plane in &mut self.planes {
            let next = carry & *plane;
            *plane ^= carry;
            carry = next;
        }
        self.plies += 1;
        self.to_move ^= 1;
    }

    /// `None` while the game goes on, then the winner: the player to act loses when they
    /// have no legal ply (rule 10; no draws).
    pub fn result(&self) -> Option<u8> {
        (self.count() == 0).then_some(self.to_move ^ 1)
    }

    /// Plies played since the start.
    pub fn plies(&self) -> u32 {
        u32::from(self.plies)
    }

    /// The game file's text of a ply: `c3`, `c3-d4`.
    pub fn notation(&self, m: Move) -> String {
        match m {
            Move::Place(c) => name(c),
            Move::Step(a, b) => format!("{}-{}", name(a), name(b)),
        }
    }

    /// Plays uniformly random plies to the end; returns the winner.
    pub fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> u8 {
        loop {
            let options = self.options();
            let n = self.count_of(options);
            if n == 0 {
                return self.to_move ^ 1;
            }
            self.play(self.nth_of(options, rng.random_range(0..n)));
        }
    }

    /// Leaf plies `depth` plies deep, as the interpreter counts them: a ply that ends the
    /// game is a leaf.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let options = self.options();
        let n = self.count_of(options);
        if depth == 1 {
            return u64::from(n);
        }
        (0..n)
            .map(|i| {
                let mut next = *self;
                next.play(self.nth_of(options, i));
                if next.count() == 0 {
                    1
                } else {
                    next.perft(depth - 1)
                }
            })
            .sum()
    }
}

/// The cell of the `index`-th set bit of `set` (a point's empty neighbours: at most 8).
#[inline]
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
