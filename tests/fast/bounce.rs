//! Bounce written by hand for speed: the baseline the interpreter's playouts are measured
//! against (`benches/playouts.rs`), checked against the interpreter by `tests/fast_engines/bounce.rs`.
//!
//! The board is a cell set per colour, one bit per cell (`file + size * rank`, a1 = 0), in
//! a word wide enough for the size: `u64` up to 8x8, `u128` for 10x10 and [`Wide`] words
//! beyond (up to 26x26, the game file's largest). Groups are grown by shifting a set over
//! the board (masking the files at its edges), never cell by cell.
//!
//! Rule 6 is decided destination by destination, from the mover's groups alone. A checker
//! landing on the empty cell `to` joins the groups next to `to`, `T` checkers in all:
//! - a checker from a group that does not touch `to` is legal exactly when its group has at
//!   most `T` checkers (its group before: its size; after: `1 + T`);
//! - if only one group touches `to`, none of its checkers can move there (the group at
//!   best keeps its size);
//! - if several do, a checker of any of them is legal, except in the one group (if any)
//!   holding more than half of `T`: leaving it may cut off part of it, and the move is
//!   legal exactly when the part cut off from `to` is smaller than the other groups' `T -
//!   h`. Only checkers that are not locally simple (their neighbours in the group are not
//!   joined around them) can cut anything off; for those a fill of the group without them
//!   measures the part still touching `to`.
//!
//! A side's groups only change on its own turn, and only on and around the cells its ply
//! changed: a playout keeps each side's groups and, after a ply, fills again only the groups
//! there; that answers the end test (one group) and serves the side's next turn. A random
//! ply is drawn exactly uniformly by counting the legal plies (popcounts of each
//! destination's set of origins) and walking to the drawn index, so nothing is listed and
//! nothing allocated.

use std::fmt::Debug;
use std::ops::{BitAnd, BitOr, BitXor, Not, Shl, Shr};

use rand::{Rng, RngExt};

/// A set of cells, one bit per cell: the operations the engine needs from a board word.
pub trait Bits:
    Copy
    + Eq
    + Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// The empty set.
    const ZERO: Self;
    /// How many cells the word holds.
    const CELLS: usize;
    /// An array with an entry per cell, on the stack, for per-cell and per-group tables.
    type Table<T: Copy>: AsRef<[T]> + AsMut<[T]>;
    /// A table with `fill` in every entry.
    fn table<T: Copy>(fill: T) -> Self::Table<T>;
    /// The set of one cell.
    fn bit(cell: usize) -> Self;
    /// The number of cells in the set.
    fn count(self) -> u32;
    /// The lowest cell of a non-empty set.
    fn first(self) -> usize;
    /// The set without its lowest cell.
    fn rest(self) -> Self;
}

impl Bits for u64 {
    const ZERO: Self = 0;
    const CELLS: usize = 64;
    type Table<T: Copy> = [T; 64];
    fn table<T: Copy>(fill: T) -> [T; 64] {
        [fill; 64]
    }
    fn bit(cell: usize) -> Self {
        1 << cell
    }
    fn count(self) -> u32 {
        self.count_ones()
    }
    fn first(self) -> usize {
        self.trailing_zeros() as usize
    }
    fn rest(self) -> Self {
        self & (self - 1)
    }
}

impl Bits for u128 {
    const ZERO: Self = 0;
    const CELLS: usize = 128;
    type Table<T: Copy> = [T; 128];
    fn table<T: Copy>(fill: T) -> [T; 128] {
        [fill; 128]
    }
    fn bit(cell: usize) -> Self {
        1 << cell
    }
    fn count(self) -> u32 {
        self.count_ones()
    }
    fn first(self) -> usize {
        self.trailing_zeros() as usize
    }
    fn rest(self) -> Self {
        self & (self - 1)
    }
}

/// A cell set of `W` 64-bit words, lowest cells in the first word, for boards beyond
/// 128 cells. Its tables are sized for the largest board of the game file (26x26).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wide<const W: usize>([u64; W]);

/// Cells in a [`Wide`] table: 11 words, enough for 26x26 = 676 cells.
const WIDE_CELLS: usize = 704;

impl<const W: usize> BitAnd for Wide<W> {
    type Output = Self;
    fn bitand(self, other: Self) -> Self {
        Wide(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }
}

impl<const W: usize> BitOr for Wide<W> {
    type Output = Self;
    fn bitor(self, other: Self) -> Self {
        Wide(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }
}

impl<const W: usize> BitXor for Wide<W> {
    type Output = Self;
    fn bitxor(self, other: Self) -> Self {
        Wide(std::array::from_fn(|i| self.0[i] ^ other.0[i]))
    }
}

impl<const W: usize> Not for Wide<W> {
    type Output = Self;
    fn not(self) -> Self {
        Wide(self.0.map(|w| !w))
    }
}

/// Shifts towards higher cells by fewer than 64 (the engine shifts by 1 or a row).
impl<const W: usize> Shl<u32> for Wide<W> {
    type Output = Self;
    fn shl(self, by: u32) -> Self {
        debug_assert!(0 < by && by < 64);
        Wide(std::array::from_fn(|i| {
            let carry = if i > 0 { self.0[i - 1] >> (64 - by) } else { 0 };
            (self.0[i] << by) | carry
        }))
    }
}

/// Shifts towards lower cells by fewer than 64.
impl<const W: usize> Shr<u32> for Wide<W> {
    type Output = Self;
    fn shr(self, by: u32) -> Self {
        debug_assert!(0 < by && by < 64);
        Wide(std::array::from_fn(|i| {
            let carry = if i + 1 < W {
                self.0[i + 1] << (64 - by)
            } else {
                0
            };
            (self.0[i] >> by) | carry
        }))
    }
}

impl<const W: usize> Bits for Wide<W> {
    const ZERO: Self = Wide([0; W]);
    const CELLS: usize = 64 * W;
    type Table<T: Copy> = [T; WIDE_CELLS];
    fn table<T: Copy>(fill: T) -> [T; WIDE_CELLS] {
        assert!(64 * W <= WIDE_CELLS, "a Wide set has at most 11 words");
        [fill; WIDE_CELLS]
    }
    fn bit(cell: usize) -> Self {
        let mut words = [0; W];
        words[cell / 64] = 1 << (cell % 64);
        Wide(words)
    }
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    fn first(self) -> usize {
        let i = self.0.iter().position(|&w| w != 0).expect("a cell");
        64 * i + self.0[i].trailing_zeros() as usize
    }
    fn rest(mut self) -> Self {
        if let Some(w) = self.0.iter_mut().find(|w| **w != 0) {
            *w &= *w - 1;
        }
        self
    }
}

/// The cells of a set, lowest first.
fn cells<B: Bits>(mut set: B) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != B::ZERO).then(|| {
            let cell = set.first();
            set = set.rest();
            cell
        })
    })
}

/// The `index`-th cell (from 0, lowest first) of a set with more cells than that.
fn nth<B: Bits>(mut set: B, index: u32) -> usize {
    for _ in 0..index {
        set = set.rest();
    }
    set.first()
}

/// The board's shape as masks, so that a set is moved one step by a shift: a row up or
/// down by `size`, a file across by one, with the cells that wrapped round an edge masked.
#[derive(Clone, Copy, Debug)]
struct Geometry<B> {
    size: u32,
    all: B,
    /// Every cell but those of the first file (a), and of the last.
    not_first_file: B,
    not_last_file: B,
}

impl<B: Bits> Geometry<B> {
    fn new(size: u32) -> Self {
        let n = size as usize;
        let set = |keep: &dyn Fn(usize) -> bool| {
            (0..n * n)
                .filter(|&c| keep(c % n))
                .fold(B::ZERO, |s, c| s | B::bit(c))
        };
        Geometry {
            size,
            all: set(&|_| true),
            not_first_file: set(&|file| file != 0),
            not_last_file: set(&|file| file != n - 1),
        }
    }

    /// The orthogonal neighbours of the cells of `set` (possibly some of `set` itself, and
    /// cells past the last rank: callers mask with a set on the board).
    fn around(&self, set: B) -> B {
        (set << self.size)
            | (set >> self.size)
            | ((set << 1) & self.not_first_file)
            | ((set >> 1) & self.not_last_file)
    }

    /// The cells of `region` joined to `seed` (within `region`) orthogonally.
    fn fill(&self, seed: B, region: B) -> B {
        let mut filled = seed;
        loop {
            let next = (filled | self.around(filled)) & region;
            if next == filled {
                return filled;
            }
            filled = next;
        }
    }

    /// The cells of `set` whose orthogonal neighbours in `set` are not all joined to each
    /// other through the diagonal cells around them: the only cells whose removal can cut
    /// their group apart. Walking round a cell N, E, S, W, a neighbour starts an arc unless
    /// the previous one is there with the corner between them; two arcs or more is a cut.
    fn cuts(&self, set: B) -> B {
        let (n, all) = (self.size, self.all);
        let (east, west) = (self.not_last_file, self.not_first_file);
        let north = set >> n;
        let south = (set << n) & all;
        let has_e = (set >> 1) & east;
        let has_w = (set << 1) & west;
        let ne = (set >> (n + 1)) & east;
        let nw = (set >> (n - 1)) & west;
        let se = (set << (n - 1)) & east & all;
        let sw = (set << (n + 1)) & west & all;
        let a = north & !(has_w & nw);
        let b = has_e & !(north & ne);
        let c = south & !(has_e & se);
        let d = has_w & !(south & sw);
        set & (((a | b) & (c | d)) | (a & b) | (c & d))
    }
}

/// One side's checkers split into groups, with what move generation asks of them. Lone
/// checkers (groups of one, most groups in a game's first half) are kept as one set and
/// need no fill or entry of their own.
struct Groups<B: Bits> {
    /// The checkers with no neighbour of their colour.
    lone: B,
    /// The groups of two or more: their cells and sizes, `count` of them in no order.
    members: B::Table<B>,
    sizes: B::Table<u32>,
    count: usize,
    /// The side's cells that may cut their group apart ([`Geometry::cuts`]).
    cuts: B,
}

impl<B: Bits> Groups<B> {
    /// The groups of the side with the checkers `own`.
    fn new(geometry: &Geometry<B>, own: B) -> Self {
        let mut groups = Groups {
            lone: B::ZERO,
            members: B::table(B::ZERO),
            sizes: B::table(0),
            count: 0,
            cuts: B::ZERO,
        };
        groups.update(geometry, own, own);
        groups
    }

    /// Brings the groups up to date once the side's checkers are `own`, only the cells of
    /// `changed` having changed: a group neither on nor next to those cells is as it was,
    /// so only the cells of the others, and of `own` around `changed`, are filled again.
    fn update(&mut self, geometry: &Geometry<B>, own: B, changed: B) {
        let (members, sizes) = (self.members.as_mut(), self.sizes.as_mut());
        let near = changed | geometry.around(changed);
        let lone = own & !geometry.around(own);
        let mut redo = own & near;
        let mut count = 0;
        for g in 0..self.count {
            // Kept in place (compacted), or left to fill again.
            let (cells, size) = (members[g], sizes[g]);
            let kept = cells & near == B::ZERO;
            members[count] = cells;
            sizes[count] = size;
            count += usize::from(kept);
            if !kept {
                redo = redo | cells;
            }
        }
        let mut rest = redo & own & !lone;
        while rest != B::ZERO {
            let group = geometry.fill(B::bit(rest.first()), rest);
            rest = rest & !group;
            members[count] = group;
            sizes[count] = group.count();
            count += 1;
        }
        self.lone = lone;
        self.count = count;
        self.cuts = geometry.cuts(own);
    }

    /// Whether the side's checkers (at least one) form one group (rule 8).
    fn one(&self) -> bool {
        if self.lone == B::ZERO {
            self.count == 1
        } else {
            self.count == 0 && self.lone.rest() == B::ZERO
        }
    }
}

/// The legal moves of a position: per empty cell with at least one, the cells whose
/// checker may move there and their number, in increasing order of the empty cell.
struct Destinations<B: Bits> {
    to: B::Table<u16>,
    from: B::Table<B>,
    count: B::Table<u32>,
    len: usize,
    /// The number of moves.
    total: u32,
}

impl<B: Bits> Destinations<B> {
    fn new() -> Self {
        Destinations {
            to: B::table(0),
            from: B::table(B::ZERO),
            count: B::table(0),
            len: 0,
            total: 0,
        }
    }

    /// Move number `index` (below `total`): destinations in increasing order, origins in
    /// increasing order for each.
    fn nth(&self, mut index: u32) -> Move {
        for i in 0..self.len {
            let n = self.count.as_ref()[i];
            if index < n {
                return Move::Step(
                    nth(self.from.as_ref()[i], index) as u16,
                    self.to.as_ref()[i],
                );
            }
            index -= n;
        }
        unreachable!("an index below the number of moves")
    }
}

/// A ply: a checker moved from a cell to another (`from`, `to`), or removed (rule 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Step(u16, u16),
    Remove(u16),
}

/// A position. Red is player 0 and moves first.
#[derive(Clone, Copy, Debug)]
pub struct Bounce<B: Bits> {
    /// Per player: the cells of their checkers.
    checkers: [B; 2],
    geometry: Geometry<B>,
    to_move: u8,
    plies: u32,
    /// Set once a player has won (there are no draws).
    winner: Option<u8>,
}

impl<B: Bits> Bounce<B> {
    /// The start on a `size` x `size` board (rules 1-3).
    pub fn start(size: u32) -> Self {
        let n = size as usize;
        assert!(
            (4..=26).contains(&size) && size.is_multiple_of(2) && n * n <= B::CELLS,
            "size {size} does not fit this board word"
        );
        let geometry = Geometry::new(size);
        let mut checkers = [B::ZERO; 2];
        for cell in 0..n * n {
            let (file, rank) = (cell % n, cell / n);
            let corner = (file == 0 || file == n - 1) && (rank == 0 || rank == n - 1);
            if !corner {
                // 1-based file + rank odd is red: 0-based file + rank odd.
                let p = 1 - (file + rank) % 2;
                checkers[p] = checkers[p] | B::bit(cell);
            }
        }
        Bounce {
            checkers,
            geometry,
            to_move: 0,
            plies: 0,
            winner: None,
        }
    }

    /// Fills `out` with the moves of the player to act, whose groups are `groups`
    /// (rules 5-6; see the module's comment).
    fn destinations(&self, groups: &Groups<B>, out: &mut Destinations<B>) {
        let own = self.checkers[self.to_move as usize];
        let empty = self.geometry.all & !(self.checkers[0] | self.checkers[1]);
        let (members, sizes) = (groups.members.as_ref(), groups.sizes.as_ref());
        let (mut len, mut total) = (0, 0);
        for to in cells(empty) {
            let touching = self.geometry.around(B::bit(to)) & own;
            if touching == B::ZERO {
                continue;
            }
            // The distinct groups next to `to`: their cells, their number, their total size
            // and the largest of two or more checkers (a lone checker is never more than
            // half of two groups or more).
            let (mut joined, mut k, mut t) = (B::ZERO, 0, 0);
            let (mut big, mut h) = (0, 0);
            for cell in cells(touching) {
                let bit = B::bit(cell);
                if joined & bit != B::ZERO {
                    continue;
                }
                k += 1;
                if groups.lone & bit != B::ZERO {
                    joined = joined | bit;
                    t += 1;
                    continue;
                }
                let g = (0..groups.count)
                    .find(|&g| members[g] & bit != B::ZERO)
                    .expect("a group");
                joined = joined | members[g];
                t += sizes[g];
                if sizes[g] > h {
                    (big, h) = (g, sizes[g]);
                }
            }
            // The checkers of groups away from `to` of at most `t`: all but the larger ones.
            let mut away = joined;
            for g in 0..groups.count {
                if sizes[g] > t {
                    away = away | members[g];
                }
            }
            let mut from = own & !away;
            if k >= 2 {
                if 2 * h > t {
                    from = from
                        | (joined & !members[big])
                        | self.origins_in_majority(members[big], touching, t - h, groups.cuts);
                } else {
                    from = from | joined;
                }
            }
            if from != B::ZERO {
                let n = from.count();
                out.to.as_mut()[len] = to as u16;
                out.from.as_mut()[len] = from;
                out.count.as_mut()[len] = n;
                len += 1;
                total += n;
            }
        }
        out.len = len;
        out.total = total;
    }

    /// The checkers of the group `group` (more than the `others` checkers of the other
    /// groups next to the destination) that may move to a destination touching the group at
    /// `touching`: those leaving fewer than `others` checkers of the group cut off from the
    /// destination.
    fn origins_in_majority(&self, group: B, touching: B, others: u32, cuts: B) -> B {
        let touching = touching & group;
        let mut legal = group & !cuts;
        if touching.rest() == B::ZERO {
            // The only checker next to the destination would leave the whole group behind.
            legal = legal & !touching;
        }
        for cell in cells(group & cuts) {
            let lifted = !B::bit(cell);
            let seed = touching & lifted;
            if seed == B::ZERO {
                continue;
            }
            let cut_off = group & lifted & !self.geometry.fill(seed, group & lifted);
            if cut_off == B::ZERO || (others > 1 && cut_off.count() < others) {
                legal = legal | B::bit(cell);
            }
        }
        legal
    }

    /// The number of plies of the player to act, the moves being in `out` (filled by
    /// [`Bounce::destinations`]); 0 once the game is over.
    fn count_with(&self, groups: &Groups<B>, out: &mut Destinations<B>) -> u32 {
        if self.winner.is_some() {
            return 0;
        }
        self.destinations(groups, out);
        if out.total > 0 {
            out.total
        } else {
            self.checkers[self.to_move as usize].count()
        }
    }

    /// Ply number `index` (below the count of [`Bounce::count_with`]): the moves, or
    /// else the removals in increasing order of the cell.
    fn nth_with(&self, out: &Destinations<B>, index: u32) -> Move {
        if out.total > 0 {
            out.nth(index)
        } else {
            Move::Remove(nth(self.checkers[self.to_move as usize], index) as u16)
        }
    }

    /// The groups of the player to act.
    fn groups(&self) -> Groups<B> {
        Groups::new(&self.geometry, self.checkers[self.to_move as usize])
    }

    /// Every legal ply, in the order a playout draws from.
    pub fn moves(&self) -> Vec<Move> {
        let mut out = Destinations::new();
        let n = self.count_with(&self.groups(), &mut out);
        (0..n).map(|i| self.nth_with(&out, i)).collect()
    }

    /// Moves or removes the mover's checker; the turn passes. Returns the cells changed.
    fn apply(&mut self, m: Move) -> B {
        let changed = match m {
            Move::Step(from, to) => B::bit(from as usize) | B::bit(to as usize),
            Move::Remove(cell) => B::bit(cell as usize),
        };
        let own = &mut self.checkers[self.to_move as usize];
        // Both cells of a step flip: the origin empties, the destination fills.
        *own = *own ^ changed;
        self.plies += 1;
        self.to_move ^= 1;
        changed
    }

    /// Rule 8: the player who has just played wins with all their checkers in one group.
    fn end_turn(&mut self, one_group: bool) {
        if one_group {
            self.winner = Some(self.to_move ^ 1);
        }
    }

    /// Plays a legal ply; the end test fills the mover's checkers from one of them.
    pub fn play(&mut self, m: Move) {
        self.apply(m);
        let own = self.checkers[(self.to_move ^ 1) as usize];
        let one_group = self.geometry.fill(B::bit(own.first()), own) == own;
        self.end_turn(one_group);
    }

    /// `None` while the game goes on, then the winner.
    pub fn result(&self) -> Option<u8> {
        self.winner
    }

    /// Plies played since the start.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The game file's text of a ply.
    pub fn notation(&self, m: Move) -> String {
        match m {
            Move::Step(from, to) => format!("{}-{}", self.name(from), self.name(to)),
            Move::Remove(cell) => format!("x{}", self.name(cell)),
        }
    }

    /// `a1` for cell 0.
    fn name(&self, cell: u16) -> String {
        let n = self.geometry.size as u16;
        format!("{}{}", (b'a' + (cell % n) as u8) as char, cell / n + 1)
    }

    /// Plays uniformly random plies to the end; returns the winner. Each side's groups are
    /// kept from ply to ply, brought up to date after each ply of its own (see the module's
    /// comment).
    pub fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> u8 {
        let mut groups = self.checkers.map(|own| Groups::new(&self.geometry, own));
        let mut out = Destinations::new();
        loop {
            if let Some(winner) = self.winner {
                return winner;
            }
            let me = self.to_move as usize;
            let n = self.count_with(&groups[me], &mut out);
            let m = self.nth_with(&out, rng.random_range(0..n));
            let changed = self.apply(m);
            groups[me].update(&self.geometry, self.checkers[me], changed);
            self.end_turn(groups[me].one());
        }
    }

    /// Leaf plies `depth` plies deep, as the interpreter counts them: a ply that ends the
    /// game is a leaf, and a finished game has no plies.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut out = Destinations::new();
        let n = self.count_with(&self.groups(), &mut out);
        if depth == 1 {
            return n as u64;
        }
        (0..n)
            .map(|i| {
                let mut next = *self;
                next.play(self.nth_with(&out, i));
                if next.winner.is_some() {
                    1
                } else {
                    next.perft(depth - 1)
                }
            })
            .sum()
    }
}
