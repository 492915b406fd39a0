//! Group hooks: sizes and counts of connected groups of like pieces.
//!
//! Two cells are in the same group when both top pieces have the same kind and owner and a
//! chain of such cells links them through the given directions. The state keeps, for each
//! kind and owner, the bit set of cells it tops, so a group is grown over bit sets: on a
//! rectangle board a whole frontier steps in one direction with a shift of its bits (the
//! cells that have a link that way, moved by the direction's index offset; on a board of
//! one word, a rotation), a few word operations per step however large the group. Other
//! boards follow the links cell by cell over the same sets. Nothing is allocated.
//!
//! A group grown is remembered, per thread, for its set of like pieces (see `Memo` and
//! `WideMemo`): the same sets are asked about again and again while plies are tried,
//! and a remembered group answers for every one of its cells. A group's liberties are
//! the group moved one step along each direction (`Board::step_set`), not a walk over
//! its members.

use std::cell::RefCell;

use super::View;
use crate::engine::board::{Board, CellId};
use crate::engine::cellset::{self, WORDS as MAX_WORDS};
use crate::engine::state::{EMPTY_TOP, NEUTRAL};

/// The size of the group containing `cell` (0 for an empty cell or none).
pub fn group_size(c: &View, cell: i64, dirs: i64) -> i64 {
    // A piece on an edge or point is in no group.
    if cell < 0 || cell as usize >= c.board.cell_count() {
        return 0;
    }
    let code = c.state.top_code(cell as CellId);
    if code == EMPTY_TOP {
        return 0;
    }
    let like = c.state.cells_topped_by(code);
    if let [like] = like
        && c.board.is_rectangle()
    {
        return group_in_one_word(c.board, *like, cell as usize, dirs as u8).count_ones() as i64;
    }
    let mut group = [0u64; MAX_WORDS];
    group_in_words(c.board, like, cell as usize, dirs as u8, &mut group);
    group.iter().map(|w| w.count_ones() as i64).sum()
}

/// The size of the group of `seed` within `like`, a set of like pieces that is not the
/// position's (the one a move would leave: see `engine::check_before`), so grown afresh
/// and not remembered.
pub fn size_within(board: &Board, like: &[u64], seed: usize, dirs: u8) -> i64 {
    if let [like] = like
        && board.is_rectangle()
    {
        return grow_in_one_word(board, *like, seed, dirs).count_ones() as i64;
    }
    let mut group = [0u64; MAX_WORDS];
    by_words(board, like.len(), |grow| {
        grow(board, like, seed, dirs, &mut group)
    });
    group.iter().map(|w| w.count_ones() as i64).sum()
}

/// Writes to `out` the cells of the group containing `cell` (nothing for an empty cell or
/// none): the `group(cell)` collection.
pub fn group_cells(c: &View, cell: i64, dirs: i64, out: &mut [u64; MAX_WORDS]) {
    if cell < 0 || cell as usize >= c.board.cell_count() {
        return;
    }
    let code = c.state.top_code(cell as CellId);
    if code == EMPTY_TOP {
        return;
    }
    let like = c.state.cells_topped_by(code);
    if let [like] = like
        && c.board.is_rectangle()
    {
        out[0] = group_in_one_word(c.board, *like, cell as usize, dirs as u8);
        return;
    }
    group_in_words(c.board, like, cell as usize, dirs as u8, out);
}

/// Writes to `out` the empty cells connected to the empty `cell` through links in `dirs`,
/// by way of empty cells, `cell` included (nothing for an occupied cell or none): the
/// `empty_region(cell)` collection. An area of empty cells is what the pieces around it
/// enclose (a region walled off by one player's pieces), and [`group_cells`] cannot
/// give it, since a group is made of pieces.
pub fn empty_region(c: &View, cell: i64, dirs: i64, out: &mut [u64; MAX_WORDS]) {
    // Regions are of cells: an edge or point starts none.
    if cell < 0
        || cell as usize >= c.board.cell_count()
        || c.state.top_code(cell as CellId) != EMPTY_TOP
    {
        return;
    }
    let words = c.state.words();
    let board = c.board;
    let mut empty = [0u64; MAX_WORDS];
    for ((e, all), occupied) in empty.iter_mut().zip(board.all()).zip(c.state.occupied()) {
        *e = all & !occupied;
    }
    if words == 1 && board.is_rectangle() {
        out[0] = group_in_one_word(board, empty[0], cell as usize, dirs as u8);
        return;
    }
    group_in_words(board, &empty[..words], cell as usize, dirs as u8, out);
}

/// The number of empty cells linked through `dirs` to the group containing `cell` (0 for
/// an empty cell): a group's liberties.
pub fn liberties(c: &View, cell: i64, dirs: i64) -> i64 {
    let mut group = [0u64; MAX_WORDS];
    group_cells(c, cell, dirs, &mut group);
    let words = c.state.words();
    let board = c.board;
    let mut around = [0u64; MAX_WORDS];
    if board.is_rectangle() {
        board.step_set(&group[..words], dirs as u8, &mut around[..words]);
    } else {
        let mut left = group;
        while let Some(member) = first_member(&left[..words]) {
            left[member / 64] &= !(1 << (member % 64));
            board.add_adjacent(member as CellId, dirs as u8, &mut around[..words]);
        }
    }
    let occupied = c.state.occupied();
    (0..words)
        .map(|i| (around[i] & !group[i] & !occupied[i]).count_ones() as i64)
        .sum()
}

/// How many cells in a row, going from `cell` (itself excluded) in direction `dir`, have a
/// top piece of the same kind and owner as `cell`'s: a line's length is `1 + run(c, d) +
/// run(c, opposite(d))`.
pub fn run(c: &View, cell: i64, dir: i64) -> i64 {
    if cell < 0 || !(0..8).contains(&dir) {
        return 0;
    }
    let code = c.state.top_code(cell as CellId);
    if code == EMPTY_TOP {
        return 0;
    }
    let mut n = 0;
    let mut at = cell as CellId;
    while let Some(next) = c.board.step(at, dir as usize) {
        if c.state.top_code(next) != code || n >= c.board.len() as i64 {
            break;
        }
        n += 1;
        at = next;
    }
    n
}

/// The number of groups formed by the pieces on top that `player` owns, or `most` if
/// there are more (a caller that compares the count with a constant needs no more).
pub fn group_count(c: &View, player: i64, dirs: i64, most: u32) -> i64 {
    if !(0..c.state.players().min(NEUTRAL as usize) as i64).contains(&player) {
        return 0;
    }
    let words = c.state.words();
    let mut count = 0u32;
    if words == 1 && c.board.is_rectangle() {
        for kind in 0..c.state.kinds() as u16 {
            let mut left = c.state.cells_topped_by(kind << 8 | player as u16)[0];
            let like = left;
            while left != 0 {
                if count == most {
                    return most.into();
                }
                let seed = left.trailing_zeros() as usize;
                left &= !group_in_one_word(c.board, like, seed, dirs as u8);
                count += 1;
            }
        }
        return count.into();
    }
    for kind in 0..c.state.kinds() as u16 {
        let like = c.state.cells_topped_by(kind << 8 | player as u16);
        let mut left = [0u64; MAX_WORDS];
        // The cells only: pieces on the edges and points of a board with edges are
        // in no group.
        for ((l, like), cell) in left.iter_mut().zip(like).zip(c.board.all()) {
            *l = like & cell;
        }
        while let Some(seed) = first_member(&left[..words]) {
            if count == most {
                return most.into();
            }
            let mut group = [0u64; MAX_WORDS];
            group_in_words(c.board, like, seed, dirs as u8, &mut group);
            for (l, g) in left.iter_mut().zip(group) {
                *l &= !g;
            }
            count += 1;
        }
    }
    count.into()
}

/// Grows the group of `seed` within `like` through `dirs`, writing its cells to `group`.
type Grow = fn(&Board, &[u64], usize, u8, &mut [u64; MAX_WORDS]);

/// Calls `f` with the fastest way to grow groups on this board: shifts with the word
/// count fixed at compile time on rectangle boards, links otherwise.
fn by_words<R>(board: &Board, words: usize, f: impl FnOnce(Grow) -> R) -> R {
    if !board.is_rectangle() {
        return f(grow_by_links);
    }
    macro_rules! fixed {
        ($($w:literal)*) => {
            match words {
                $($w => f(grow_by_shifts::<$w>),)*
                _ => f(grow_by_links),
            }
        };
    }
    fixed!(1 2 3 4 5 6 7 8 9 10 11)
}

/// The lowest cell of a set, if any.
fn first_member(set: &[u64]) -> Option<usize> {
    set.iter()
        .position(|&w| w != 0)
        .map(|i| i * 64 + set[i].trailing_zeros() as usize)
}

/// `x` moved by `by` bits towards higher cell indices (lower when negative).
#[inline(always)]
fn shifted<const W: usize>(x: &[u64; W], by: isize) -> [u64; W] {
    let mut out = [0u64; W];
    let s = by.unsigned_abs() as u32;
    if s == 0 || s >= 64 {
        // Only a one-file board gives a zero offset (for a diagonal, which it lacks) and
        // boards are at most 26 files wide: neither set has a member to move.
        return if s == 0 { *x } else { out };
    }
    if by > 0 {
        for i in 0..W {
            out[i] = x[i] << s | if i > 0 { x[i - 1] >> (64 - s) } else { 0 };
        }
    } else {
        for i in 0..W {
            out[i] = x[i] >> s | if i + 1 < W { x[i + 1] << (64 - s) } else { 0 };
        }
    }
    out
}

/// How many sets of like pieces [`Memo`] keeps the groups of.
const SLOTS: usize = 64;

/// How many groups of two or more it keeps per set.
const KEPT_GROUPS: usize = 8;

/// The groups already grown on boards of at most 64 cells, per set of like pieces: a
/// group depends only on the board's links, the directions and that set, so a group
/// found once answers every later question about its cells while the set stays as it
/// is, however the rest of the position changed. Trying plies asks again and again
/// about the same sets: each candidate move is tried on the same position, and a side's
/// pieces stand still while the other side plays. A set is filed in one slot of
/// [`SLOTS`] by a hash (a newer set takes the slot over).
struct Memo {
    /// Per slot: the board's id and the directions (`id << 8 | dirs`), 0 when empty.
    keys: [u64; SLOTS],
    /// Per slot: the set of like pieces.
    likes: [u64; SLOTS],
    /// Per slot: the pieces known to stand alone.
    lone: [u64; SLOTS],
    /// Per slot: the cells of the groups kept, and those groups.
    covered: [u64; SLOTS],
    groups: [[u64; KEPT_GROUPS]; SLOTS],
    counts: [u8; SLOTS],
}

thread_local! {
    static MEMO: RefCell<Memo> = const {
        RefCell::new(Memo {
            keys: [0; SLOTS],
            likes: [0; SLOTS],
            lone: [0; SLOTS],
            covered: [0; SLOTS],
            groups: [[0; KEPT_GROUPS]; SLOTS],
            counts: [0; SLOTS],
        })
    };
}

/// The group of `seed` within `like` through `dirs` on a rectangle board of at most 64
/// cells: remembered (see [`Memo`]) or grown and remembered, where the links of `dirs`
/// all have links back.
fn group_in_one_word(board: &Board, like: u64, seed: usize, dirs: u8) -> u64 {
    // Where some link has none back, the cells a cell reaches are not a group that
    // answers for its other members.
    if !board.links_both_ways(dirs) {
        return grow_in_one_word(board, like, seed, dirs);
    }
    let key = board.id() << 8 | dirs as u64;
    let bit = 1u64 << seed;
    MEMO.with_borrow_mut(|m| {
        let slot = ((like ^ key).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58) as usize % SLOTS;
        if m.keys[slot] == key && m.likes[slot] == like {
            if m.lone[slot] & bit != 0 {
                debug_assert_eq!(grow_in_one_word(board, like, seed, dirs), bit);
                return bit;
            }
            if m.covered[slot] & bit != 0 {
                let kept = &m.groups[slot][..m.counts[slot] as usize];
                let group = kept.iter().copied().find(|g| g & bit != 0).unwrap_or(0);
                debug_assert_eq!(grow_in_one_word(board, like, seed, dirs), group);
                return group;
            }
        } else {
            m.keys[slot] = key;
            m.likes[slot] = like;
            m.lone[slot] = 0;
            m.covered[slot] = 0;
            m.counts[slot] = 0;
        }
        let group = grow_in_one_word(board, like, seed, dirs);
        if group == bit {
            m.lone[slot] |= bit;
        } else if (m.counts[slot] as usize) < KEPT_GROUPS {
            m.groups[slot][m.counts[slot] as usize] = group;
            m.counts[slot] += 1;
            m.covered[slot] |= group;
        }
        group
    })
}

/// How many sets of like pieces [`WideMemo`] keeps the groups of.
const WIDE_SLOTS: usize = 16;

/// How many groups it keeps per set.
const WIDE_GROUPS: usize = 4;

/// [`Memo`] for boards of more than 64 cells or of other shapes: fewer sets and groups,
/// each as many words as the board's sets.
struct WideMemo {
    /// Per slot: the board's id and the directions (`id << 8 | dirs`), 0 when empty.
    keys: [u64; WIDE_SLOTS],
    /// Per slot: the set of like pieces.
    likes: [[u64; MAX_WORDS]; WIDE_SLOTS],
    /// Per slot: the groups kept, and how many.
    groups: [[[u64; MAX_WORDS]; WIDE_GROUPS]; WIDE_SLOTS],
    counts: [u8; WIDE_SLOTS],
}

thread_local! {
    static WIDE_MEMO: RefCell<WideMemo> = const {
        RefCell::new(WideMemo {
            keys: [0; WIDE_SLOTS],
            likes: [[0; MAX_WORDS]; WIDE_SLOTS],
            groups: [[[0; MAX_WORDS]; WIDE_GROUPS]; WIDE_SLOTS],
            counts: [0; WIDE_SLOTS],
        })
    };
}

/// The group of `seed` within `like` through `dirs`, written to `out`, on a board whose
/// sets take `like.len()` words: remembered (see [`WideMemo`]) or grown and remembered,
/// where the links of `dirs` all have links back.
fn group_in_words(board: &Board, like: &[u64], seed: usize, dirs: u8, out: &mut [u64; MAX_WORDS]) {
    let words = like.len();
    let grow = |out: &mut [u64; MAX_WORDS]| {
        by_words(board, words, |grow| grow(board, like, seed, dirs, out))
    };
    if !board.links_both_ways(dirs) {
        return grow(out);
    }
    let key = board.id() << 8 | dirs as u64;
    let (word, bit) = (seed / 64, 1u64 << (seed % 64));
    WIDE_MEMO.with_borrow_mut(|m| {
        let hash = like
            .iter()
            .fold(key, |h, &w| (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let slot = (hash >> 60) as usize % WIDE_SLOTS;
        if m.keys[slot] == key && m.likes[slot][..words] == *like {
            let kept = &m.groups[slot][..m.counts[slot] as usize];
            if let Some(group) = kept.iter().find(|g| g[word] & bit != 0) {
                out[..words].copy_from_slice(&group[..words]);
                debug_assert!({
                    let mut fresh = [0u64; MAX_WORDS];
                    grow(&mut fresh);
                    fresh == *out
                });
                return;
            }
        } else {
            m.keys[slot] = key;
            m.likes[slot][..words].copy_from_slice(like);
            m.counts[slot] = 0;
        }
        grow(out);
        let n = m.counts[slot] as usize;
        if n < WIDE_GROUPS {
            m.groups[slot][n][..words].copy_from_slice(&out[..words]);
            m.counts[slot] += 1;
        }
    })
}

/// [`grow_by_shifts`] for boards of at most 64 cells, where a set is one word and a step
/// in a direction is a rotation of the cells linked that way: no branches. The
/// usual numbers of directions (four orthogonal or diagonal, six on a hexagonal grid,
/// eight) have their steps unrolled with every mask held in a register.
fn grow_in_one_word(board: &Board, like: u64, seed: usize, dirs: u8) -> u64 {
    let all = board.one_word_steps();
    match dirs.count_ones() {
        4 => grow_with::<4>(all, like, seed, dirs),
        6 => grow_with::<6>(all, like, seed, dirs),
        8 => grow_with::<8>(all, like, seed, dirs),
        _ => grow_any(all, like, seed, dirs),
    }
}

/// [`grow_in_one_word`] through exactly `N` directions.
#[inline(always)]
fn grow_with<const N: usize>(all: &[(u64, u32); 8], like: u64, seed: usize, dirs: u8) -> u64 {
    let mut left = dirs;
    let ways: [(u64, u32); N] = std::array::from_fn(|_| {
        let way = all[left.trailing_zeros() as usize % 8];
        left &= left.wrapping_sub(1);
        way
    });
    let mut group = 1u64 << seed;
    let mut frontier = group;
    loop {
        let reached = ways.iter().fold(0, |r, &(linked, by)| {
            r | (frontier & linked).rotate_left(by)
        });
        frontier = reached & like & !group;
        if frontier == 0 {
            return group;
        }
        group |= frontier;
    }
}

/// [`grow_in_one_word`] through any number of directions.
fn grow_any(all: &[(u64, u32); 8], like: u64, seed: usize, dirs: u8) -> u64 {
    let mut ways = [(0u64, 0u32); 8];
    let mut n = 0;
    let mut left = dirs;
    while left != 0 {
        ways[n] = all[left.trailing_zeros() as usize];
        left &= left - 1;
        n += 1;
    }
    let mut group = 1u64 << seed;
    let mut frontier = group;
    loop {
        let mut reached = 0;
        for &(linked, by) in &ways[..n] {
            reached |= (frontier & linked).rotate_left(by);
        }
        frontier = reached & like & !group;
        if frontier == 0 {
            return group;
        }
        group |= frontier;
    }
}

/// Grows a group a frontier at a time: each step moves the frontier along every
/// direction of `dirs` with one shift per direction.
fn grow_by_shifts<const W: usize>(
    board: &Board,
    like: &[u64],
    seed: usize,
    dirs: u8,
    out: &mut [u64; MAX_WORDS],
) {
    let like: &[u64; W] = like.try_into().expect("a cell set of the board's size");
    let mut ways = [([0u64; W], 0isize); 8];
    let mut n = 0;
    for (d, way) in (0..8).filter(|d| dirs & (1 << d) != 0).zip(ways.iter_mut()) {
        let linked: &[u64; W] = board.linked_that_way(d).try_into().expect("board-sized");
        *way = (*linked, board.offset(d));
        n += 1;
    }
    let mut group = [0u64; W];
    group[seed / 64] = 1 << (seed % 64);
    let mut frontier = group;
    loop {
        let mut reached = [0u64; W];
        for (linked, offset) in &ways[..n] {
            let mut from = frontier;
            for i in 0..W {
                from[i] &= linked[i];
            }
            let moved = shifted(&from, *offset);
            for i in 0..W {
                reached[i] |= moved[i];
            }
        }
        let mut any = 0;
        for i in 0..W {
            frontier[i] = reached[i] & like[i] & !group[i];
            group[i] |= frontier[i];
            any |= frontier[i];
        }
        if any == 0 {
            break;
        }
    }
    out[..W].copy_from_slice(&group);
}

/// Grows a group cell by cell along the board's links (any board shape).
fn grow_by_links(board: &Board, like: &[u64], seed: usize, dirs: u8, out: &mut [u64; MAX_WORDS]) {
    let words = like.len();
    let member = |set: &[u64], i: usize| set[i / 64] & (1 << (i % 64)) != 0;
    let mut pending = [0u64; MAX_WORDS];
    out[seed / 64] |= 1 << (seed % 64);
    pending[seed / 64] |= 1 << (seed % 64);
    while let Some(cell) = first_member(&pending[..words]) {
        pending[cell / 64] &= !(1 << (cell % 64));
        for d in (0..8).filter(|d| dirs & (1 << d) != 0) {
            if let Some(n) = board.step(cell as CellId, d) {
                let n = n as usize;
                if member(like, n) && !member(&out[..], n) {
                    out[n / 64] |= 1 << (n % 64);
                    pending[n / 64] |= 1 << (n % 64);
                }
            }
        }
    }
}

/// Whether the group containing `cell` goes around some cell: a cell, of the group or
/// not, that the group's other cells cut off from the rim of the board (the `encloses`
/// hook: a ring of pieces, whatever stands inside it). A cell is on the rim when it lacks
/// a link in one of the directions of `dirs` that the board links somewhere; a way out
/// goes through links in `dirs` over cells outside the group. So a cell outside the group
/// that no such way leads from to the rim is enclosed; and a cell of the group, off the
/// rim, whose every neighbour is in the group is enclosed by them (the ring around it is
/// made of them). False for an empty cell or none. Grown cell by cell: it is asked once a
/// ply at most, where a rule looks at the group of the piece just placed.
pub fn encloses(c: &View, cell: i64, dirs: i64) -> bool {
    let mut group = [0u64; MAX_WORDS];
    group_cells(c, cell, dirs, &mut group);
    let words = c.state.words();
    if group[..words].iter().all(|&w| w == 0) {
        return false;
    }
    let board = c.board;
    let dirs = dirs as u8;
    let cells = 0..board.cell_count() as CellId;
    let links = |x: CellId| {
        (0..8)
            .filter(|&d| board.step(x, d).is_some())
            .fold(0u8, |m, d| m | 1 << d)
    };
    let linked = cells.clone().fold(0u8, |used, x| used | links(x)) & dirs;
    let on_rim = |x: CellId| links(x) & linked != linked;
    let (mut outside, mut free) = ([0u64; MAX_WORDS], [0u64; MAX_WORDS]);
    for x in cells.clone() {
        let i = x as usize;
        if group[i / 64] & (1 << (i % 64)) == 0 {
            cellset::insert(&mut outside, i);
            if on_rim(x) {
                cellset::insert(&mut free, i);
            }
        }
    }
    // Grow the cells outside the group that a way leads from to the rim, a frontier at a
    // time.
    let mut fresh = free;
    while fresh[..words].iter().any(|&w| w != 0) {
        let mut next = [0u64; MAX_WORDS];
        for m in cellset::members(&fresh[..words]) {
            board.add_adjacent(m as CellId, dirs, &mut next[..words]);
        }
        for ((n, o), f) in next[..words].iter_mut().zip(&outside).zip(&mut free) {
            *n &= o & !*f;
            *f |= *n;
        }
        fresh = next;
    }
    if (0..words).any(|i| outside[i] & !free[i] != 0) {
        return true;
    }
    // No cell outside is shut in: a cell of the group off the rim whose every neighbour
    // is in the group is.
    cellset::members(&group[..words]).any(|m| {
        let mut around = [0u64; MAX_WORDS];
        board.add_adjacent(m as CellId, dirs, &mut around[..words]);
        !on_rim(m as CellId) && (0..words).all(|i| around[i] & !group[i] == 0)
    })
}

/// The cells reached from `cell` (itself included) by steps along links through `dirs`
/// that cross no occupied place: on a board with edges, a step is blocked when the place
/// between the two cells (`Board::side`: the edge of an orthogonal step, the point of a
/// diagonal one) holds a piece; the cells' own pieces block nothing. Without places,
/// every cell linked to `cell`.
///
/// Where the cells are on the grid in order ([`Board::cells_on_grid`]) the cells grow as
/// a set, a frontier stepping along each direction at once (`Board::step_set`) from its
/// cells whose step that way is open: the cells linked that way, less those beside each
/// occupied place. Elsewhere a walk over the links visits each cell once. The two agree
/// (`edges::reachable_grows_as_a_walk_visits`, on generated boards and pieces).
pub fn reachable(c: &View, cell: i64, dirs: i64, out: &mut [u64; MAX_WORDS]) {
    let board = c.board;
    if cell < 0 || cell as usize >= board.cell_count() {
        return;
    }
    let dirs = dirs as u8;
    if !board.cells_on_grid() {
        return reachable_by_walk(c, cell as CellId, dirs, out);
    }
    // The cells come first: the words past theirs hold places only, and stay empty here.
    let words = board.cell_count().div_ceil(64);
    // Per direction, the cells whose step that way crosses nothing.
    let mut open = [[0u64; MAX_WORDS]; 8];
    let mut left = dirs;
    while left != 0 {
        let d = left.trailing_zeros() as usize;
        left &= left - 1;
        open[d][..words].copy_from_slice(&board.linked_that_way(d)[..words]);
    }
    if board.has_places() {
        let cells = board.cell_count();
        for place in cellset::members(c.state.occupied()).filter(|&p| p >= cells) {
            let mut left = dirs;
            while left != 0 {
                let d = left.trailing_zeros() as usize;
                left &= left - 1;
                // The cell whose step d crosses this place: half a step back from it.
                if let Some(x) = board.side(place as CellId, (d + 4) % 8)
                    && usize::from(x) < cells
                {
                    open[d][usize::from(x) / 64] &= !(1u64 << (x % 64));
                }
            }
        }
    }
    let mut reached = [0u64; MAX_WORDS];
    cellset::insert(&mut reached, cell as usize);
    let mut frontier = reached;
    loop {
        let mut next = [0u64; MAX_WORDS];
        let mut left = dirs;
        while left != 0 {
            let d = left.trailing_zeros() as usize;
            left &= left - 1;
            let mut from = [0u64; MAX_WORDS];
            for ((f, a), o) in from.iter_mut().zip(&frontier).zip(&open[d]).take(words) {
                *f = a & o;
            }
            board.step_set(&from[..words], 1 << d, &mut next[..words]);
        }
        let mut grew = false;
        for (n, r) in next.iter_mut().zip(reached.iter_mut()).take(words) {
            *n &= !*r;
            *r |= *n;
            grew |= *n != 0;
        }
        if !grew {
            break;
        }
        frontier = next;
    }
    for (o, r) in out.iter_mut().zip(reached).take(words) {
        *o |= r;
    }
}

/// [`reachable`] by a walk over the links with a stack of cells to visit, each once.
fn reachable_by_walk(c: &View, cell: CellId, dirs: u8, out: &mut [u64; MAX_WORDS]) {
    let board = c.board;
    let mut todo = [0 as CellId; MAX_WORDS * 64];
    let mut n = 1;
    todo[0] = cell;
    cellset::insert(out, cell as usize);
    while n > 0 {
        n -= 1;
        let at = todo[n];
        let mut left = board.link_dirs(at) & dirs;
        while left != 0 {
            let d = left.trailing_zeros() as usize;
            left &= left - 1;
            let Some(to) = board.step(at, d) else {
                continue;
            };
            let open = board
                .side(at, d)
                .is_none_or(|place| c.state.top_code(place) == EMPTY_TOP);
            if open && !cellset::contains(out, to as usize) {
                cellset::insert(out, to as usize);
                todo[n] = to;
                n += 1;
            }
        }
    }
}
