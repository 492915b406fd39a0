//! The position of a game: stacks of pieces on cells, variables, whose turn it is.
//!
//! A state is a few flat arrays so that copying it is cheap; changes made while searching
//! for legal plies go through a [`Journal`] so they can be undone without a copy.

use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};
use smallvec::SmallVec;

use super::board::CellId;
use super::cellset;
pub use super::piece::{NEUTRAL, NONE, Piece, Stack};
pub use super::stack_test::StackTests;
pub use super::stacks::{StackMut, Stacks};

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winning players; empty for a draw.
    pub winners: Vec<u8>,
    /// Set when the interpreter, not the rules, ended the game (the ply cap).
    pub reason: Option<String>,
}

/// The top code of an empty cell (see [`State::top_code`]).
pub const EMPTY_TOP: u16 = u16::MAX;

/// What a position keeps about one cell's stack besides its sets: enough to put the
/// cell's bits in every set back as they were without looking at the stack, which is
/// how a [`Journal`] takes an edit back. One record per cell, so that an edit reads and
/// writes one place, not one array per cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cached {
    /// The stack tests it passes, a bit each (0 when the game has none).
    tests: u64,
    /// The kinds it holds, a bit each (0 unless the position keeps them).
    present: u64,
    /// Its hash (0 unless the position keeps hashes).
    hash: u64,
    /// Its top piece as a code.
    top: u16,
    /// Its height (at most `u16::MAX`).
    height: u16,
}

impl Cached {
    /// What is kept about a cell before anything was worked out: an empty stack that
    /// passes no test (the sets all start without the cell).
    const BLANK: Cached = Cached {
        tests: 0,
        present: 0,
        hash: 0,
        top: EMPTY_TOP,
        height: 0,
    };
}

/// What the cached sets would say of a cell's stack: its tests passed and kinds held (as
/// `Cached` keeps them), its top piece as a code, and its height. What a move not
/// played leaves ([`State::seen_left`], [`State::seen_onto`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seen {
    pub tests: u64,
    pub present: u64,
    pub top: u16,
    pub height: usize,
}

/// The tallest stack alike but for its top whose tests are looked up (see `State::short`).
const ALIKE_TALLEST: usize = 16;
/// The most piece classes (kinds times owner slots) for which those stacks are looked up:
/// the table holds `ALIKE_TALLEST` times the square of the classes.
const ALIKE_CLASSES: usize = 16;

/// A game position.
///
/// Besides the stacks it keeps caches that the hot paths read instead of the stacks,
/// all kept true by the few functions that change stacks ([`State::edit_stack`] and
/// [`State::transfer`], directly or through a [`Journal`], and the journal's rollback):
/// - each cell's top piece as a small code;
/// - cell sets (see [`cellset`]): per class of top piece (kind and owner; what the group
///   hooks flood over), per owner of the top piece, per kind of the top piece, the
///   occupied cells;
/// - per stack test of the game (a condition on one cell's stack alone, such as
///   `height(x) == 1`, that a filter over cells asks: see `compile::sets`), the cells
///   whose stack passes it.
///
/// So a filter such as `cells where owner(x) == me && height(x) == 1` is an intersection
/// of two sets, not a test per cell.
#[derive(Debug)]
pub struct State {
    /// One stack per cell, in one buffer.
    stacks: Stacks,
    /// Per cell, what the position keeps about its stack: the top piece as `kind << 8 |
    /// owner` (or [`EMPTY_TOP`]), the height, the stack tests passed, the kinds held and
    /// the hash.
    kept: Vec<Cached>,
    /// The tests passed and the kinds held by a stack of at most one piece, by the class
    /// of that piece plus one (0: the empty stack): worked out once, so that an edit
    /// leaving a cell empty or with one piece, the commonest by far, looks them up. Then,
    /// where the game has stack tests or keeps kinds held and few classes, those of the
    /// stacks of up to [`ALIKE_TALLEST`] pieces alike but for the top (a tower of one
    /// neutral kind with a player's piece on it): see [`State::alike`].
    short: Arc<[(u64, u64)]>,
    /// Every cached cell set, `words` words each: the classes of top piece (kind-major,
    /// then the owner's slot, neutral last), then per owner slot, per kind, the occupied
    /// cells, and per stack test. In a game of one kind the owners' sets are the
    /// classes' and the kind's set is the occupied cells' (see `rebuild`).
    sets: Vec<u64>,
    /// The game's stack tests (an empty list when the game has none).
    tests: StackTests,
    /// Classes per kind: one per player and one for neutral pieces.
    owner_slots: u16,
    /// The number of piece kinds.
    kind_count: u16,
    /// Where the sets of each sort start in `sets`, counted in sets: per owner, per
    /// kind, the occupied cells, per kind held anywhere in a stack, per stack test (the
    /// classes start at 0).
    starts: [u16; 5],
    /// Whether the position keeps, per kind, the cells whose stack holds one anywhere (a
    /// game whose filters ask `has(x, K)`): then per cell the kinds (the first 64) its
    /// stack holds, a bit each.
    holding: bool,
    /// Whether the position keeps cell sets by height (a game whose filters compare a
    /// height with a value that varies): then per height from 0 up to the tallest stack
    /// seen, the words of the cells of that height.
    by_height: bool,
    height_sets: Vec<u64>,
    /// Whether the position keeps a hash of its board (a game whose rules ask whether a
    /// position occurred before): per cell the hash of its stack, their combination, and
    /// the board's hash and the whole position's of every position played, counted (see
    /// [`State::record`]).
    hashing: bool,
    board_hash: u64,
    history: History,
    /// 64-bit words in a set of this board's cells.
    words: u16,
    /// Global variables, then player variables (grouped by variable, one slot per player),
    /// then turn variables.
    pub vars: Vec<i64>,
    /// The player to move.
    pub to_move: u8,
    /// The turn number, from 1.
    pub turn: u32,
    /// The index of the next ply within the current turn, from 1.
    pub ply_in_turn: u32,
    /// Plies played since the start.
    pub plies: u32,
    /// One bit per player still in the game.
    pub alive: u32,
    /// Consecutive turns passed silently because the player had no legal ply.
    pub silent_passes: u32,
    /// Set by the `end_turn()` effect: the current turn ends after this ply.
    pub turn_over: bool,
    /// Set once the game has ended.
    pub outcome: Option<Outcome>,
}

/// The positions a game went through, by hash: how many times each whole position
/// occurred, and which boards did. A question about repetitions is one lookup, whatever
/// the length of the game.
#[derive(Debug, Default)]
struct History {
    positions: FxHashMap<u64, u32>,
    boards: FxHashSet<u64>,
}

impl Clone for History {
    fn clone(&self) -> History {
        History {
            positions: self.positions.clone(),
            boards: self.boards.clone(),
        }
    }

    /// Refilled in place: a playout that starts from the same position every time keeps
    /// the tables its earlier playouts grew, and allocates nothing for them.
    fn clone_from(&mut self, source: &History) {
        self.positions.clear();
        self.positions.extend(source.positions.iter());
        self.boards.clear();
        self.boards.extend(source.boards.iter());
    }
}

/// Two positions are equal when their stacks, variables and turn agree: the caches are
/// worked out from the stacks (and may differ in the room they have kept, such as cell
/// sets for heights no stack has any more).
impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        self.stacks == other.stacks
            && self.vars == other.vars
            && self.to_move == other.to_move
            && self.turn == other.turn
            && self.ply_in_turn == other.ply_in_turn
            && self.plies == other.plies
            && self.alive == other.alive
            && self.silent_passes == other.silent_passes
            && self.turn_over == other.turn_over
            && self.outcome == other.outcome
    }
}

impl Eq for State {}

impl Clone for State {
    fn clone(&self) -> State {
        let mut copy = State {
            stacks: Stacks::new::<Stack>(&[]),
            kept: Vec::new(),
            short: self.short.clone(),
            sets: Vec::new(),
            height_sets: Vec::new(),
            history: History::default(),
            tests: self.tests.clone(),
            vars: Vec::new(),
            outcome: None,
            ..*self
        };
        copy.clone_from(self);
        copy
    }

    /// Copies `source` into this position reusing its buffers: a playout that starts
    /// from the same position every time allocates nothing for it.
    fn clone_from(&mut self, source: &State) {
        // Every field named, so that a new one cannot be forgotten here.
        let State {
            stacks,
            kept,
            short,
            sets,
            tests,
            owner_slots,
            kind_count,
            starts,
            holding,
            by_height,
            height_sets,
            hashing,
            board_hash,
            history,
            words,
            vars,
            to_move,
            turn,
            ply_in_turn,
            plies,
            alive,
            silent_passes,
            turn_over,
            outcome,
        } = source;
        self.stacks.clone_from(stacks);
        self.kept.clone_from(kept);
        if !Arc::ptr_eq(&self.short, short) {
            self.short = short.clone();
        }
        self.sets.clone_from(sets);
        if !self.tests.same(tests) {
            self.tests = tests.clone();
        }
        self.vars.clone_from(vars);
        self.outcome.clone_from(outcome);
        (self.owner_slots, self.kind_count, self.words) = (*owner_slots, *kind_count, *words);
        self.starts = *starts;
        self.holding = *holding;
        self.by_height = *by_height;
        self.height_sets.clone_from(height_sets);
        (self.hashing, self.board_hash) = (*hashing, *board_hash);
        self.history.clone_from(history);
        (self.to_move, self.turn, self.ply_in_turn) = (*to_move, *turn, *ply_in_turn);
        (self.plies, self.alive, self.silent_passes) = (*plies, *alive, *silent_passes);
        self.turn_over = *turn_over;
    }
}

impl State {
    /// The position at the start of a game with these stacks and variables, `players`
    /// seats and `kinds` piece kinds, first player to move.
    pub fn new(stacks: Vec<Stack>, vars: Vec<i64>, players: usize, kinds: usize) -> State {
        let words = stacks.len().div_ceil(64).max(1);
        let owner_slots = players + 1;
        let kinds = kinds.max(1);
        let stacks = Stacks::new(&stacks);
        let mut state = State {
            kept: Vec::new(),
            short: Arc::new([]),
            sets: Vec::new(),
            tests: StackTests::default(),
            owner_slots: owner_slots as u16,
            kind_count: kinds as u16,
            starts: [0; 5],
            holding: false,
            by_height: false,
            height_sets: Vec::new(),
            hashing: false,
            board_hash: 0,
            history: History::default(),
            words: words as u16,
            stacks,
            vars,
            to_move: 0,
            turn: 1,
            ply_in_turn: 1,
            plies: 0,
            alive: if players >= 32 {
                u32::MAX
            } else {
                (1u32 << players) - 1
            },
            silent_passes: 0,
            turn_over: false,
            outcome: None,
        };
        state.rebuild();
        state
    }

    /// Sets the game's stack tests (see [`State`]) and whether to keep cells by height,
    /// and works out their sets.
    pub fn set_caches(&mut self, tests: StackTests, by_height: bool, hashing: bool, holding: bool) {
        self.tests = tests;
        self.by_height = by_height;
        self.hashing = hashing;
        self.holding = holding;
        self.rebuild();
    }

    /// Works out every cache from the stacks.
    fn rebuild(&mut self) {
        let (kinds, owner_slots) = (self.kind_count as usize, self.owner_slots as usize);
        let classes = kinds * owner_slots;
        let (owners, kinds_at, occupied) = if kinds == 1 {
            // One kind: a piece's class is its owner's slot and every piece is of that
            // kind, so the classes' sets are the owners' and the occupied cells are the
            // kind's: each kept once (an edit flips two sets, not four).
            (0, classes, classes)
        } else {
            (
                classes,
                classes + owner_slots,
                classes + owner_slots + kinds,
            )
        };
        let contains = occupied + 1;
        let tests = contains + if self.holding { kinds.min(64) } else { 0 };
        self.starts = [owners, kinds_at, occupied, contains, tests].map(|n| n as u16);
        let sets = self.tests_at() + self.tests.len();
        self.sets = vec![0; sets * self.words as usize];
        self.kept = vec![Cached::BLANK; self.stacks.len()];
        // The short stacks: empty, then one piece of each class (kind-major, then the
        // owner's slot, neutral last), as `class` numbers them.
        let players = owner_slots - 1;
        let one = |kind: usize, slot: usize| {
            let owner = if slot < players { slot as u8 } else { NEUTRAL };
            [Piece::new(kind as u8, owner, 0)]
        };
        let short = std::iter::once(Vec::new()).chain(
            (0..kinds).flat_map(|k| (0..owner_slots).map(move |slot| one(k, slot).to_vec())),
        );
        // Then the stacks alike but for the top, by height, class below, class on top.
        let looked_up = (self.holding || !self.tests.is_empty()) && classes <= ALIKE_CLASSES;
        let tallest = if looked_up { ALIKE_TALLEST } else { 1 };
        let alike = (2..=tallest).flat_map(|height| {
            (0..classes).flat_map(move |below| {
                (0..classes).map(move |top| {
                    let [under] = one(below / owner_slots, below % owner_slots);
                    let [over] = one(top / owner_slots, top % owner_slots);
                    let mut stack = vec![under; height - 1];
                    stack.push(over);
                    stack
                })
            })
        });
        self.short = short
            .chain(alike)
            .map(|stack| self.tests_and_kinds(&stack))
            .collect();
        self.height_sets.clear();
        if self.by_height {
            self.height_sets = cellset::below(self.stacks.len(), self.words as usize);
        }
        self.board_hash = 0;
        for cell in 0..self.stacks.len() {
            self.refresh(cell);
        }
    }

    /// Where the sets of each sort start, counted in sets.
    #[inline]
    fn owners_at(&self) -> usize {
        self.starts[0] as usize
    }
    #[inline]
    fn kinds_at(&self) -> usize {
        self.starts[1] as usize
    }
    #[inline]
    fn occupied_at(&self) -> usize {
        self.starts[2] as usize
    }
    #[inline]
    fn contains_at(&self) -> usize {
        self.starts[3] as usize
    }
    #[inline]
    fn tests_at(&self) -> usize {
        self.starts[4] as usize
    }

    /// The cached set number `i`: see [`State::cached_words`].
    #[inline]
    fn set(&self, i: usize) -> &[u64] {
        let w = self.words as usize;
        &self.sets[i * w..(i + 1) * w]
    }

    /// Every cached set, `words` words each: set number `i` (as [`State::owned_number`]
    /// and its kin number them) is the words from `i * words`. Every position of a game
    /// is a copy of its first one and keeps its sets in the same order, so a closure
    /// compiled once for the game (`engine::code`) works the number out at load time and
    /// reads the set with one index.
    #[inline]
    pub fn cached_words(&self) -> &[u64] {
        &self.sets
    }

    /// The number of the set [`State::owned`] gives for `player`.
    #[inline]
    pub fn owned_number(&self, player: u8) -> usize {
        self.owners_at() + (player as usize).min(self.owner_slots as usize - 1)
    }

    /// The number of the set [`State::topped_by_kind`] gives for `kind`.
    #[inline]
    pub fn kind_number(&self, kind: u8) -> usize {
        self.kinds_at() + (kind as usize).min(self.kind_count as usize - 1)
    }

    /// The number of the set [`State::occupied`] gives.
    #[inline]
    pub fn occupied_number(&self) -> usize {
        self.occupied_at()
    }

    /// The number of the set [`State::holding`] gives for `kind`.
    #[inline]
    pub fn holding_number(&self, kind: u8) -> usize {
        self.contains_at() + kind as usize
    }

    /// The number of the set [`State::passing`] gives for `test`.
    #[inline]
    pub fn test_number(&self, test: u16) -> usize {
        self.tests_at() + test as usize
    }

    /// Every cell's stack, bottom first: indexed by cell, or walked in cell order.
    #[inline]
    pub fn stacks(&self) -> &Stacks {
        &self.stacks
    }

    /// The stack on a cell, bottom first.
    #[inline]
    pub fn stack(&self, cell: CellId) -> &[Piece] {
        self.stacks.get(cell as usize)
    }

    /// Changes a cell's stack outside any journal (for building positions by hand; plies
    /// go through [`Journal::edit`] so they can be taken back).
    pub fn edit_stack<R>(&mut self, cell: CellId, f: impl FnOnce(&mut StackMut) -> R) -> R {
        let r = f(&mut self.stacks.stack_mut(cell as usize));
        self.refresh(cell as usize);
        r
    }

    /// Moves the top `count` pieces (all, if fewer) of `from` onto `to`, stamped with the
    /// current turn, without a copy of them in between (`from` and `to` differ).
    pub fn transfer(&mut self, from: CellId, to: CellId, count: usize) {
        if self.shifts(from, to, count) {
            self.shift(from as usize, to as usize);
        } else {
            self.restack(from as usize, to as usize, count);
        }
    }

    /// [`State::transfer`] when it is no shift: the pieces moved, and both cells' caches
    /// worked out again from their stacks.
    fn restack(&mut self, from: usize, to: usize, count: usize) {
        let turn = self.turn;
        self.stacks
            .transfer(from, to, count, |piece| piece.stamped(turn));
        self.refresh(from);
        self.refresh(to);
    }

    /// Whether moving `count` pieces from `from` to `to` is a shift: the one piece of
    /// `from` onto the empty `to`, most moves of most games. Everything kept about the
    /// two cells then trades places ([`State::swap_kept`]), and taking it back is the
    /// same trade.
    #[inline]
    fn shifts(&self, from: CellId, to: CellId, count: usize) -> bool {
        count >= 1
            && from != to
            && self.kept[from as usize].height == 1
            && self.kept[to as usize].height == 0
    }

    /// Moves the one piece of `from` onto the empty `to`, stamped with the current turn.
    #[inline(always)]
    fn shift(&mut self, from: usize, to: usize) {
        let turn = self.turn;
        self.stacks.shift(from, to, |piece| piece.stamped(turn));
        self.swap_kept(from, to);
    }

    /// Trades everything kept about cells `a` and `b`, after their stacks traded places
    /// (a shift, or a shift taken back; the moved piece's stamps aside, which nothing
    /// kept reads): their records, and their bits in every set.
    /// A set holds `a` afterwards exactly when it held `b` before, so the bits of both
    /// flip in each set that held one of them and not the other. Only the hashes are
    /// worked out again, since a stack's hash depends on its cell.
    #[inline(always)]
    fn swap_kept(&mut self, a: usize, b: usize) {
        let (was_a, was_b) = (self.kept[a], self.kept[b]);
        self.kept[a] = was_b;
        self.kept[b] = was_a;
        if self.hashing {
            for cell in [a, b] {
                let hash = stack_hash(cell, self.stacks.get(cell));
                self.board_hash ^= self.kept[cell].hash ^ hash;
                self.kept[cell].hash = hash;
            }
        }
        let w = self.words as usize;
        let (word_a, word_b) = (a / 64, b / 64);
        let (bit_a, bit_b) = (1u64 << (a % 64), 1u64 << (b % 64));
        // Both cells in one word (always, on a board of up to 64 cells): one write.
        let flip = |sets: &mut [u64], set: usize| {
            if word_a == word_b {
                sets[set * w + word_a] ^= bit_a | bit_b;
            } else {
                sets[set * w + word_a] ^= bit_a;
                sets[set * w + word_b] ^= bit_b;
            }
        };
        let mut changed = was_a.tests ^ was_b.tests;
        let first = self.tests_at();
        while changed != 0 {
            flip(&mut self.sets, first + changed.trailing_zeros() as usize);
            changed &= changed - 1;
        }
        if self.by_height && was_a.height != was_b.height {
            flip(&mut self.height_sets, was_a.height as usize);
            flip(&mut self.height_sets, was_b.height as usize);
        }
        let mut changed = was_a.present ^ was_b.present;
        let first = self.contains_at();
        while changed != 0 {
            flip(&mut self.sets, first + changed.trailing_zeros() as usize);
            changed &= changed - 1;
        }
        let layout = self.top_sets();
        layout.differing(was_a.top, was_b.top, |set| flip(&mut self.sets, set));
    }

    /// Where the sets read from a cell's top piece start, for [`TopSets::differing`].
    #[inline(always)]
    fn top_sets(&self) -> TopSets {
        TopSets {
            slots: self.owner_slots as usize,
            owners: self.owners_at(),
            kinds: self.kinds_at(),
            occupied: self.occupied_at(),
        }
    }

    /// The top piece of a cell, if any.
    #[inline]
    pub fn top(&self, cell: CellId) -> Option<&Piece> {
        self.stacks.get(cell as usize).last()
    }

    /// The top piece of a cell as `kind << 8 | owner`, or [`EMPTY_TOP`]: one array read.
    #[inline]
    pub fn top_code(&self, cell: CellId) -> u16 {
        self.kept[cell as usize].top
    }

    /// The cells whose top piece has this code (kind and owner), as the words of a bit
    /// set by cell index; empty for [`EMPTY_TOP`].
    #[inline]
    pub fn cells_topped_by(&self, code: u16) -> &[u64] {
        match self.class(code) {
            Some(class) => self.set(class),
            None => &[],
        }
    }

    /// The cells whose top piece `player` owns (the neutral slot for [`NEUTRAL`]).
    #[inline]
    pub fn owned(&self, player: u8) -> &[u64] {
        self.set(self.owned_number(player))
    }

    /// The cells whose top piece is of kind `kind` (any owner).
    #[inline]
    pub fn topped_by_kind(&self, kind: u8) -> &[u64] {
        self.set(self.kind_number(kind))
    }

    /// The cells that hold a piece.
    #[inline]
    pub fn occupied(&self) -> &[u64] {
        self.set(self.occupied_number())
    }

    /// The cells whose stack holds a piece of kind `kind` (one of the first 64 kinds)
    /// anywhere.
    #[inline]
    pub fn holding(&self, kind: u8) -> &[u64] {
        self.set(self.holding_number(kind))
    }

    /// Whether the stack on `cell` holds a piece of kind `kind` (one of the first 64).
    #[inline]
    pub fn holds(&self, cell: CellId, kind: u8) -> bool {
        if self.holding {
            self.kept[cell as usize].present >> kind & 1 != 0
        } else {
            self.stacks
                .get(cell as usize)
                .iter()
                .any(|p| p.kind == kind)
        }
    }

    /// The cells whose stack holds exactly `height` pieces, if the position keeps cells by
    /// height (an empty set for a height no stack has, a negative one included); `None`
    /// if it does not, or once a stack has reached the most the kept heights may say
    /// (65,534 pieces, which makes `u16::MAX` sets: past that the sets would no longer be
    /// exact, so from then on the callers look at the stacks).
    #[inline]
    pub fn of_height(&self, height: i64) -> Option<&[u64]> {
        let w = self.words as usize;
        if !self.by_height || self.height_sets.len() >= usize::from(u16::MAX) * w {
            return None;
        }
        let at = usize::try_from(height).ok().and_then(|h| h.checked_mul(w));
        let set = at.and_then(|at| self.height_sets.get(at..at.checked_add(w)?));
        Some(set.unwrap_or(&[]))
    }

    /// The cells whose height `h` is within `radius` of `value` (as the language says
    /// it, `abs(h - value) <= radius`: [`height_within`]), into `out` (cleared first), if
    /// the position keeps cells by height; false if it does not, or no longer can (see
    /// [`State::of_height`]).
    #[inline]
    pub fn of_heights_near(&self, value: i64, radius: i64, out: &mut [u64]) -> bool {
        let w = self.words as usize;
        if !self.by_height || self.height_sets.len() >= usize::from(u16::MAX) * w {
            return false;
        }
        out.fill(0);
        // Where nothing can overflow, the heights within reach are one range, whose sets
        // lie side by side; beyond that (a value no stack is near), every kept height is
        // asked.
        const SANE: i64 = 1 << 40;
        if !(-SANE..SANE).contains(&value) || !(0..SANE).contains(&radius) {
            let kept = (self.height_sets.len() / w) as i64;
            for h in (0..kept).filter(|&h| height_within(h, value, radius)) {
                let at = h as usize * w;
                for (o, s) in out.iter_mut().zip(&self.height_sets[at..at + w]) {
                    *o |= s;
                }
            }
            return true;
        }
        // In words (no division: the kept sets are whole sets of `w` words).
        let kept = self.height_sets.len() as i64;
        let (low, high) = (
            (value - radius).max(0) * w as i64,
            ((value + radius + 1) * w as i64).min(kept),
        );
        if low >= high {
            return true;
        }
        let sets = &self.height_sets[low as usize..high as usize];
        if let ([word, ..], 1) = (&mut *out, w) {
            // One word a set (boards of 64 cells or fewer): no inner loop.
            *word = sets.iter().fold(0, |acc, s| acc | s);
        } else {
            for set in sets.chunks_exact(w) {
                for (o, s) in out.iter_mut().zip(set) {
                    *o |= s;
                }
            }
        }
        true
    }

    /// Every set of cells by height the position keeps, lowest height first, as many
    /// words each as its sets have; `None` where [`State::of_height`] says `None`. One
    /// slice, so that a walk over the heights pays no bounds test per height.
    #[inline]
    pub fn by_heights(&self) -> Option<&[u64]> {
        let w = self.words as usize;
        (self.by_height && self.height_sets.len() < usize::from(u16::MAX) * w)
            .then_some(&self.height_sets[..])
    }

    /// The tallest height the position keeps a set for (0 when it keeps none).
    #[inline]
    pub fn tallest_kept(&self) -> usize {
        (self.height_sets.len() / self.words as usize).saturating_sub(1)
    }

    /// The cells whose stack passes the game's stack test `test`.
    #[inline]
    pub fn passing(&self, test: u16) -> &[u64] {
        self.set(self.test_number(test))
    }

    /// The number of 64-bit words in a cell set of this position.
    #[inline]
    pub fn words(&self) -> usize {
        self.words as usize
    }

    /// How many players the game has.
    #[inline]
    pub fn players(&self) -> usize {
        usize::from(self.owner_slots) - 1
    }

    /// How many kinds of piece the game has (a game declares at least one).
    #[inline]
    pub fn kinds(&self) -> usize {
        usize::from(self.kind_count)
    }

    /// The class index of a top code: kind-major, then the owner's slot (neutral last).
    #[inline]
    fn class(&self, code: u16) -> Option<usize> {
        if code == EMPTY_TOP {
            return None;
        }
        Some(self.class_of((code >> 8) as u8, (code & 0xff) as u8))
    }

    /// The class index of a piece of this kind and owner.
    #[inline]
    fn class_of(&self, kind: u8, owner: u8) -> usize {
        let slots = self.owner_slots as usize;
        kind as usize * slots + (owner as usize).min(slots - 1)
    }

    /// Whether the caches agree with the stacks: each cell's record, the board's hash as
    /// the records' hashes combined, and each cached set holding exactly the cells it
    /// should (and no bit past the last cell). Checked after every ply in debug builds.
    pub fn caches_agree(&self) -> bool {
        let n = self.stacks.len();
        let sets = self.sets.len() / self.words as usize;
        let expected = |cell: usize, set: usize| {
            let stack = self.stacks.get(cell);
            let code = top_code(stack);
            let top = code != EMPTY_TOP;
            let slots = self.owner_slots as usize;
            let (kind, owner) = (
                (code >> 8) as usize,
                ((code & 0xff) as usize).min(slots - 1),
            );
            if set < self.owners_at() {
                top && set == kind * slots + owner
            } else if set < self.kinds_at() {
                top && set - self.owners_at() == owner
            } else if set < self.occupied_at() {
                top && set - self.kinds_at() == kind
            } else if set == self.occupied_at() {
                top
            } else if set < self.tests_at() {
                stack
                    .iter()
                    .any(|p| p.kind as usize == set - self.contains_at())
            } else {
                self.tests.passes(set - self.tests_at(), stack)
            }
        };
        // What is kept per cell, worked out the long way (not through the short table).
        let kept_agree = (0..n).all(|cell| {
            let stack = self.stacks.get(cell);
            let expected = self.kept_for(cell, stack, top_code(stack), self.tests_and_kinds(stack));
            self.kept[cell] == expected
        });
        // (A kept height stops at `u16::MAX`, as `kept_for` counts it.)
        let w = self.words as usize;
        let heights_agree = !self.by_height
            || (0..self.tallest_kept() + 1).all(|h| {
                let set = self.height_sets.get(h * w..(h + 1) * w).unwrap_or(&[]);
                (0..n).all(|cell| {
                    let height = self.stacks.get(cell).len().min(usize::from(u16::MAX));
                    cellset::contains(set, cell) == (height == h)
                })
            });
        let hash_agrees = self.kept.iter().fold(0, |h, k| h ^ k.hash) == self.board_hash;
        kept_agree
            && hash_agrees
            && heights_agree
            && (0..sets).all(|set| {
                let words = self.set(set);
                (0..self.words as usize * 64)
                    .all(|cell| cellset::contains(words, cell) == (cell < n && expected(cell, set)))
            })
    }

    /// Brings the caches of one cell in line with its stack.
    fn refresh(&mut self, cell: usize) {
        let fresh = self.fresh(cell);
        self.apply(cell, fresh);
    }

    /// What the position keeps now about a cell's stack.
    #[inline]
    fn cached(&self, cell: usize) -> Cached {
        self.kept[cell]
    }

    /// The stack tests a stack passes and the kinds it holds (0 for what the position
    /// does not keep).
    fn tests_and_kinds(&self, stack: &[Piece]) -> (u64, u64) {
        let present = if self.holding {
            let kinds = stack.iter().filter(|p| p.kind < 64);
            kinds.fold(0u64, |m, p| m | 1 << p.kind)
        } else {
            0
        };
        (self.tests.passed(stack), present)
    }

    /// What the position should keep about a cell's stack as it is now.
    #[inline]
    fn fresh(&self, cell: usize) -> Cached {
        let stack = self.stacks.get(cell);
        let top = top_code(stack);
        self.kept_for(cell, stack, top, self.looked_up(stack))
    }

    /// The tests a stack passes and the kinds it holds, looked up where the stack is
    /// short or alike but for its top ([`State::alike`]), else worked out.
    #[inline(always)]
    fn looked_up(&self, stack: &[Piece]) -> (u64, u64) {
        match stack {
            [] => self.short[0],
            [piece] => self.short[1 + self.class_of(piece.kind, piece.owner)],
            [below @ .., top] => self
                .alike(below, top)
                .unwrap_or_else(|| self.tests_and_kinds(stack)),
        }
    }

    /// What the sets would say of cell `from` once its top `count` pieces (all, if
    /// fewer) moved away, without moving them: how a listing works out what a move
    /// leaves without playing it (`engine::overlay`).
    pub fn seen_left(&self, from: CellId, count: usize) -> Seen {
        let a = self.stack(from);
        self.seen(&a[..a.len() - self.moving(from, count).len()])
    }

    /// The pieces a move of the top `count` pieces (all, if fewer) of `from` takes along.
    #[inline]
    pub fn moving(&self, from: CellId, count: usize) -> &[Piece] {
        let a = self.stack(from);
        &a[a.len() - count.min(a.len())..]
    }

    /// What the sets would say of cell `to` once the top `count` pieces (all, if fewer)
    /// of `from` (another cell) moved onto it, without moving them.
    pub fn seen_onto(&self, from: CellId, to: CellId, count: usize) -> Seen {
        let (b, moved) = (self.stack(to), self.moving(from, count));
        match (b, moved) {
            (_, []) => self.seen(b),
            ([], _) => self.seen(moved),
            (_, [top]) => match self.alike(b, top) {
                Some((tests, present)) => Seen {
                    tests,
                    present,
                    top: top_code(moved),
                    height: b.len() + 1,
                },
                None => self.seen(
                    &b.iter()
                        .chain(moved)
                        .copied()
                        .collect::<SmallVec<[Piece; 16]>>(),
                ),
            },
            _ => self.seen(
                &b.iter()
                    .chain(moved)
                    .copied()
                    .collect::<SmallVec<[Piece; 16]>>(),
            ),
        }
    }

    /// What the sets say of a stack.
    #[inline(always)]
    fn seen(&self, stack: &[Piece]) -> Seen {
        let (tests, present) = self.looked_up(stack);
        Seen {
            tests,
            present,
            top: top_code(stack),
            height: stack.len(),
        }
    }

    /// The slot of the sets by owner that a piece of `owner` counts in (the last, the
    /// neutral pieces', for any owner past the players).
    #[inline]
    pub fn owner_slot(&self, owner: u8) -> usize {
        (owner as usize).min(self.owner_slots as usize - 1)
    }

    /// The tests passed and the kinds held by a stack of two pieces or more, looked up
    /// when every piece below the top is of one class and the stack is short enough to
    /// be in the table (`None` otherwise). In a game of towers of one kind that the
    /// players' pieces stand on, most edits leave such a stack, and evaluating every test
    /// on it was 5% of the instructions of such a game's playout.
    #[inline]
    fn alike(&self, below: &[Piece], top: &Piece) -> Option<(u64, u64)> {
        let classes = self.kind_count as usize * self.owner_slots as usize;
        let height = below.len() + 1;
        let first = below[0];
        let looked_up = self.short.len() > 1 + classes && height <= ALIKE_TALLEST;
        let alike = || {
            below
                .iter()
                .all(|p| (p.kind, p.owner) == (first.kind, first.owner))
        };
        (looked_up && alike()).then(|| {
            let under = self.class_of(first.kind, first.owner);
            let over = self.class_of(top.kind, top.owner);
            self.short[1 + classes + ((height - 2) * classes + under) * classes + over]
        })
    }

    /// What the position keeps about a cell's stack, given its top code, the tests it
    /// passes and the kinds it holds.
    #[inline]
    fn kept_for(
        &self,
        cell: usize,
        stack: &[Piece],
        top: u16,
        (tests, present): (u64, u64),
    ) -> Cached {
        Cached {
            tests,
            present,
            hash: if self.hashing {
                stack_hash(cell, stack)
            } else {
                0
            },
            top,
            height: stack.len().min(u16::MAX as usize) as u16,
        }
    }

    /// Makes the caches say `new` of a cell: flips the cell's bit in every set whose
    /// answer changes. Taking an edit back hands it what was kept before the edit, so
    /// the stack is not looked at again.
    ///
    /// Inlined: passed to a call, `new` went through memory, written field by field and
    /// read back in wider loads that waited for the writes (a stall that was 45% of the
    /// time this function took in a game of moves tried and taken back).
    #[inline(always)]
    fn apply(&mut self, cell: usize, new: Cached) {
        let old = std::mem::replace(&mut self.kept[cell], new);
        let w = self.words as usize;
        let (word, bit) = (cell / 64, 1u64 << (cell % 64));
        self.board_hash ^= old.hash ^ new.hash;
        let mut changed = old.tests ^ new.tests;
        if changed != 0 {
            let first = self.tests_at();
            while changed != 0 {
                let test = changed.trailing_zeros() as usize;
                changed &= changed - 1;
                self.sets[(first + test) * w + word] ^= bit;
            }
        }
        if self.by_height && old.height != new.height {
            let (old, new) = (old.height as usize, new.height as usize);
            if self.height_sets.len() < (new + 1) * w {
                self.height_sets.resize((new + 1) * w, 0);
            }
            self.height_sets[old * w + word] ^= bit;
            self.height_sets[new * w + word] ^= bit;
        }
        let mut changed = old.present ^ new.present;
        if changed != 0 {
            let first = self.contains_at();
            while changed != 0 {
                let kind = changed.trailing_zeros() as usize;
                changed &= changed - 1;
                self.sets[(first + kind) * w + word] ^= bit;
            }
        }
        let layout = self.top_sets();
        layout.differing(old.top, new.top, |set| self.sets[set * w + word] ^= bit);
    }

    /// The hash of the whole position as `mover` leaves it: the board, the variables
    /// and who just played (0 when the position keeps no hash).
    pub fn position_hash(&self, mover: u8) -> u64 {
        if !self.hashing {
            return 0;
        }
        let vars = self.vars.iter().enumerate().fold(0u64, |h, (i, &v)| {
            h ^ mix((1 << 62) | (i as u64) << 40, v as u64)
        });
        self.board_hash ^ vars ^ mix(1 << 63, mover as u64)
    }

    /// Remembers the position `mover` just left (after every ply, and for the start),
    /// for [`State::repetitions`] and [`State::board_repeated`].
    pub fn record(&mut self, mover: u8) {
        if self.hashing {
            let position = self.position_hash(mover);
            *self.history.positions.entry(position).or_insert(0) += 1;
            self.history.boards.insert(self.board_hash);
        }
    }

    /// Forgets the recorded positions and records this one as the first (a game started
    /// from a position written by hand).
    pub fn restart_history(&mut self, mover: u8) {
        self.history.positions.clear();
        self.history.boards.clear();
        self.record(mover);
    }

    /// How many times the position as `mover` leaves it occurred before (as recorded).
    pub fn repetitions(&self, mover: u8) -> i64 {
        let now = self.position_hash(mover);
        self.history
            .positions
            .get(&now)
            .map_or(0, |&n| i64::from(n))
    }

    /// Whether the position keeps its history (the game asks about repetitions): two
    /// equal positions may then differ in what their pasts allow.
    pub fn keeps_history(&self) -> bool {
        self.hashing
    }

    /// Whether the board (the stacks alone) is one recorded before.
    pub fn board_repeated(&self) -> bool {
        self.hashing && self.history.boards.contains(&self.board_hash)
    }

    /// Whether player `p` is still in the game.
    #[inline]
    pub fn is_alive(&self, p: u8) -> bool {
        self.alive & (1 << p) != 0
    }
}

/// Whether a stack `height` tall is within `radius` of `value`, exactly as the language
/// works out `abs(height - value) <= radius` (wrapping subtraction, saturating `abs`):
/// what a cell of [`SetExpr::HeightNear`](super::program::SetExpr::HeightNear) passes.
#[inline]
pub fn height_within(height: i64, value: i64, radius: i64) -> bool {
    height.wrapping_sub(value).saturating_abs() <= radius
}

/// The top piece of a stack as `kind << 8 | owner`, or [`EMPTY_TOP`].
#[inline]
fn top_code(stack: &[Piece]) -> u16 {
    stack
        .last()
        .map_or(EMPTY_TOP, |p| (p.kind as u16) << 8 | p.owner as u16)
}

/// Mixes two numbers into a well-spread 64-bit hash (the splitmix64 finaliser): the key
/// of one piece at one height of one cell, of one variable's value, of the mover.
fn mix(a: u64, b: u64) -> u64 {
    let mut z = a ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The hash of one cell's stack: a key per piece by height, kind and owner.
fn stack_hash(cell: usize, stack: &[Piece]) -> u64 {
    stack.iter().enumerate().fold(0, |h, (i, p)| {
        let key = (cell as u64) << 32 | (i as u64) << 16 | (p.kind as u64) << 8 | p.owner as u64;
        h ^ mix(key, 0x5EED)
    })
}

/// Where a position's sets read from a cell's top piece start: those of the classes
/// (`slots` owner slots a kind), the owners', the kinds' (the last two the classes'
/// own in a game of one kind) and the occupied cells'.
#[derive(Clone, Copy)]
struct TopSets {
    slots: usize,
    owners: usize,
    kinds: usize,
    occupied: usize,
}

impl TopSets {
    /// Calls `flip` with each set that holds a cell topped by `a` or by `b` (top codes)
    /// but not both: the sets whose bit a cell flips when its top changes from one to
    /// the other.
    #[inline(always)]
    fn differing(self, a: u16, b: u16, mut flip: impl FnMut(usize)) {
        if a == b {
            return;
        }
        for code in [a, b] {
            if code == EMPTY_TOP {
                continue;
            }
            let (kind, owner) = (
                (code >> 8) as usize,
                ((code & 0xff) as usize).min(self.slots - 1),
            );
            flip(kind * self.slots + owner);
            if self.kinds != self.occupied {
                flip(self.owners + owner);
                flip(self.kinds + kind);
            }
        }
        if (a == EMPTY_TOP) != (b == EMPTY_TOP) {
            flip(self.occupied);
        }
    }
}

/// One undo record. A stack's old pieces are kept in the journal's piece store, from
/// `start` on, so that recording an edit allocates nothing.
#[derive(Clone, Copy, Debug)]
enum Undo {
    Stack {
        cell: CellId,
        start: u32,
        len: u32,
        cached: Cached,
    },
    /// The top `len` pieces of `to` came from the top of `from` (see
    /// [`Journal::transfer`]); the pieces as they were, stamps and all, are kept from
    /// `start` on.
    Transfer {
        from: CellId,
        to: CellId,
        start: u32,
        len: u32,
        cached: [Cached; 2],
    },
    /// The one piece of `from` went onto the empty `to` ([`State::shifts`]); `piece`
    /// is that piece as it was, before its stamp.
    Shift {
        from: CellId,
        to: CellId,
        piece: Piece,
    },
    Var(usize, i64),
    Alive(u32),
    TurnOver(bool),
}

/// A log of changes to a state, so a trial ply can be taken back. Its records and the
/// pieces of the stacks it saved are kept inline up to a size that one ply does not
/// exceed in the shipped games, so trying a ply allocates nothing.
#[derive(Default, Debug)]
pub struct Journal {
    log: SmallVec<[Undo; 16]>,
    pieces: SmallVec<[Piece; 32]>,
    on: bool,
}

impl Journal {
    /// A journal that records changes.
    pub fn recording() -> Journal {
        Journal {
            on: true,
            ..Journal::default()
        }
    }

    /// A journal that records nothing (for plies that are played for good).
    pub fn off() -> Journal {
        Journal::default()
    }

    /// Starts or stops recording changes.
    pub fn set_recording(&mut self, on: bool) {
        self.on = on;
    }

    /// Forgets every record (after a ply that is kept), still recording.
    pub fn clear(&mut self) {
        self.log.clear();
        self.pieces.clear();
    }

    /// A mark to roll back to.
    pub fn mark(&self) -> usize {
        self.log.len()
    }

    /// Undoes every change recorded since `mark`.
    pub fn rollback(&mut self, state: &mut State, mark: usize) {
        while self.log.len() > mark {
            match self.log.pop() {
                Some(Undo::Stack {
                    cell,
                    start,
                    len,
                    cached,
                }) => {
                    let saved = &self.pieces[start as usize..(start + len) as usize];
                    state.stacks.truncate(cell as usize, 0);
                    state.stacks.extend_from_slice(cell as usize, saved);
                    self.pieces.truncate(start as usize);
                    state.apply(cell as usize, cached);
                }
                Some(Undo::Transfer {
                    from,
                    to,
                    start,
                    len,
                    cached,
                }) => {
                    let (from, to) = (from as usize, to as usize);
                    let keep = state.stacks.get(to).len() - len as usize;
                    state.stacks.truncate(to, keep);
                    if len == 1 {
                        state.stacks.push(from, self.pieces[start as usize]);
                    } else {
                        let saved = &self.pieces[start as usize..(start + len) as usize];
                        state.stacks.extend_from_slice(from, saved);
                    }
                    self.pieces.truncate(start as usize);
                    state.apply(from, cached[0]);
                    state.apply(to, cached[1]);
                }
                Some(Undo::Shift { from, to, piece }) => {
                    let (from, to) = (from as usize, to as usize);
                    state.stacks.shift(to, from, |_| piece);
                    state.swap_kept(from, to);
                }
                Some(Undo::Var(i, v)) => state.vars[i] = v,
                Some(Undo::Alive(a)) => state.alive = a,
                Some(Undo::TurnOver(t)) => state.turn_over = t,
                None => break,
            }
        }
    }

    /// Changes a cell's stack, remembering its old contents.
    pub fn edit<R>(
        &mut self,
        state: &mut State,
        cell: CellId,
        f: impl FnOnce(&mut StackMut) -> R,
    ) -> R {
        if self.on {
            let old = state.stacks.get(cell as usize);
            self.log.push(Undo::Stack {
                cell,
                start: self.pieces.len() as u32,
                len: old.len() as u32,
                cached: state.cached(cell as usize),
            });
            self.pieces.extend_from_slice(old);
        }
        state.edit_stack(cell, f)
    }

    /// [`State::transfer`], remembering how to take it back: only the pieces that move
    /// are kept, not the two stacks.
    pub fn transfer(&mut self, state: &mut State, from: CellId, to: CellId, count: usize) {
        if state.shifts(from, to, count) {
            if self.on {
                let piece = state.stacks.get(from as usize)[0];
                self.log.push(Undo::Shift { from, to, piece });
            }
            return state.shift(from as usize, to as usize);
        }
        if self.on {
            let source = state.stacks.get(from as usize);
            let moving = &source[source.len().saturating_sub(count)..];
            self.log.push(Undo::Transfer {
                from,
                to,
                start: self.pieces.len() as u32,
                len: moving.len() as u32,
                cached: [state.cached(from as usize), state.cached(to as usize)],
            });
            if let [piece] = moving {
                self.pieces.push(*piece);
            } else {
                self.pieces.extend_from_slice(moving);
            }
        }
        state.restack(from as usize, to as usize, count);
    }

    /// Turns the one move recorded since `mark` (a [`Journal::transfer`] from some cell
    /// onto another) into the same move onto `to`, as if it had been taken back and
    /// played again to `to`: the pieces go on from where they went, and only the cell
    /// they leave (whose old record the journal kept) and `to` change, where taking the
    /// move back and playing it again changes four records. False, changing nothing,
    /// when there is no such move, when `to` is the cell the move is from or already
    /// its cell, or when the move was a shift (a lone piece onto an empty cell: its
    /// records traded places) and `to` is not empty. A move carried onto an empty cell
    /// that a fresh move would make a shift stays a transfer: the same position, taken
    /// back the same way.
    ///
    /// Listing a part that moves one piece to each of its cells in turn
    /// ([`Part::moves_onto_last`](super::program::Part::moves_onto_last)) is made of
    /// these.
    pub fn retarget(&mut self, state: &mut State, mark: usize, to: CellId) -> bool {
        if self.log.len() != mark + 1 {
            return false;
        }
        match self.log.last_mut() {
            Some(Undo::Transfer {
                from,
                to: went,
                len,
                cached,
                ..
            }) if to != *from && to != *went => {
                let (was, to) = (*went as usize, to as usize);
                // The pieces on top of `was` are the moved ones, stamped already.
                state.stacks.transfer(was, to, *len as usize, |piece| piece);
                state.apply(was, cached[1]);
                cached[1] = state.cached(to);
                *went = to as CellId;
                state.refresh(to);
                true
            }
            Some(Undo::Shift { from, to: went, .. })
                if to != *from && to != *went && state.kept[to as usize].height == 0 =>
            {
                let was = *went as usize;
                *went = to;
                state.shift(was, to as usize);
                true
            }
            _ => false,
        }
    }

    /// Sets a variable slot, remembering its old value.
    pub fn set_var(&mut self, state: &mut State, slot: usize, value: i64) {
        if self.on {
            self.log.push(Undo::Var(slot, state.vars[slot]));
        }
        state.vars[slot] = value;
    }

    /// Removes a player from the game, remembering who was alive.
    pub fn set_alive(&mut self, state: &mut State, alive: u32) {
        if self.on {
            self.log.push(Undo::Alive(state.alive));
        }
        state.alive = alive;
    }

    /// Marks the current turn as over after this ply.
    pub fn end_turn(&mut self, state: &mut State) {
        if self.on {
            self.log.push(Undo::TurnOver(state.turn_over));
        }
        state.turn_over = true;
    }
}
