//! The position of a game: stacks of pieces on cells, variables, whose turn it is.
//!
//! A state is a few flat arrays so that copying it is cheap; changes made while searching
//! for legal plies go through a [`Journal`] so they can be undone without a copy.

use smallvec::SmallVec;

use super::board::CellId;
use super::natives::Elems;

/// A value that stands for "no cell / no player / no kind / no direction".
pub const NONE: i64 = -1;

/// The owner byte of a neutral piece.
pub const NEUTRAL: u8 = u8::MAX;

/// One piece: its kind, its owner (or [`NEUTRAL`]) and the last two turns in which it
/// moved, so rules can ask about the current turn and the one before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub kind: u8,
    pub owner: u8,
    /// The turn number in which this piece was last placed or moved (0: at setup).
    pub moved: u32,
    /// The turn, before `moved`, in which it had last moved (0: none).
    pub moved_before: u32,
}

impl Piece {
    /// A piece that has not moved since it was put down in `turn` (0 for the setup).
    pub fn new(kind: u8, owner: u8, turn: u32) -> Piece {
        Piece {
            kind,
            owner,
            moved: turn,
            moved_before: 0,
        }
    }

    /// The piece after it moved in `turn`.
    pub fn stamped(self, turn: u32) -> Piece {
        if self.moved == turn {
            self
        } else {
            Piece {
                moved: turn,
                moved_before: self.moved,
                ..self
            }
        }
    }

    /// Whether it moved (or was put down) during turn `turn`; turn 0, the setup, never
    /// counts. Exact for the two most recent turns in which it moved.
    pub fn moved_in(&self, turn: i64) -> bool {
        turn > 0 && (self.moved as i64 == turn || self.moved_before as i64 == turn)
    }
}

/// The pieces on one cell, bottom first. Eight are kept inline, so that the stacks that
/// stacking games build (often past four pieces) are copied and edited without allocating.
pub type Stack = SmallVec<[Piece; 8]>;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winning players; empty for a draw.
    pub winners: Vec<u8>,
    /// Set when the interpreter, not the rules, ended the game (the ply cap).
    pub reason: Option<String>,
}

/// The most 64-bit words a set of cells needs: boards have at most 26 × 26 cells.
pub const CELL_SET_WORDS: usize = (26 * 26usize).div_ceil(64);

/// The top code of an empty cell (see [`State::top_code`]).
pub const EMPTY_TOP: u16 = u16::MAX;

/// A game position.
///
/// Besides the stacks it keeps two caches that the hot paths read instead of the stacks:
/// each cell's top piece as a small code, and for each class of top piece (kind and
/// owner) the bit set of cells it tops, which the group hooks flood over. Stacks change
/// only through [`State::edit_stack`] (directly, or through a [`Journal`]), which keeps
/// the caches true.
#[derive(Debug, PartialEq, Eq)]
pub struct State {
    /// One stack per cell.
    stacks: Vec<Stack>,
    /// Per cell: `kind << 8 | owner` of the top piece, or [`EMPTY_TOP`].
    tops: Vec<u16>,
    /// Per class of top piece, `words` words: the cells topped by that class.
    classes: Vec<u64>,
    /// Classes per kind: one per player and one for neutral pieces.
    owner_slots: u16,
    /// 64-bit words per cell set.
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

impl Clone for State {
    fn clone(&self) -> State {
        let mut copy = State {
            stacks: Vec::new(),
            tops: Vec::new(),
            classes: Vec::new(),
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
            tops,
            classes,
            owner_slots,
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
        self.tops.clone_from(tops);
        self.classes.clone_from(classes);
        self.vars.clone_from(vars);
        self.outcome.clone_from(outcome);
        (self.owner_slots, self.words) = (*owner_slots, *words);
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
        let mut state = State {
            tops: vec![EMPTY_TOP; stacks.len()],
            classes: vec![0; kinds.max(1) * owner_slots * words],
            owner_slots: owner_slots as u16,
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
        for cell in 0..state.stacks.len() {
            state.refresh(cell);
        }
        state
    }

    /// Every cell's stack, bottom first.
    #[inline]
    pub fn stacks(&self) -> &[Stack] {
        &self.stacks
    }

    /// The stack on a cell, bottom first.
    #[inline]
    pub fn stack(&self, cell: CellId) -> &Stack {
        &self.stacks[cell as usize]
    }

    /// Changes a cell's stack outside any journal (for building positions by hand; plies
    /// go through [`Journal::edit`] so they can be taken back).
    pub fn edit_stack<R>(&mut self, cell: CellId, f: impl FnOnce(&mut Stack) -> R) -> R {
        let r = f(&mut self.stacks[cell as usize]);
        self.refresh(cell as usize);
        r
    }

    /// The top piece of a cell, if any.
    #[inline]
    pub fn top(&self, cell: CellId) -> Option<&Piece> {
        self.stacks[cell as usize].last()
    }

    /// The top piece of a cell as `kind << 8 | owner`, or [`EMPTY_TOP`]: one array read.
    #[inline]
    pub fn top_code(&self, cell: CellId) -> u16 {
        self.tops[cell as usize]
    }

    /// The cells whose top piece has this code (kind and owner), as a bit set by cell
    /// index; empty for [`EMPTY_TOP`].
    #[inline]
    pub fn cells_topped_by(&self, code: u16) -> &[u64] {
        match self.class(code) {
            Some(class) => {
                let w = self.words as usize;
                &self.classes[class * w..(class + 1) * w]
            }
            None => &[],
        }
    }

    /// Pushes, in cell order, the cells whose top piece `player` owns.
    pub fn owned_cells(&self, player: u8, out: &mut Elems) {
        if (player as usize) + 1 < self.owner_slots as usize {
            self.push_members(
                |class| class % self.owner_slots as usize == player as usize,
                false,
                out,
            );
        }
    }

    /// Pushes, in cell order, the cells whose top piece is of kind `kind` (any owner).
    pub fn cells_topped_by_kind(&self, kind: u8, out: &mut Elems) {
        let slots = self.owner_slots as usize;
        self.push_members(|class| class / slots == kind as usize, false, out);
    }

    /// Pushes, in cell order, the cells that hold a piece.
    pub fn occupied_cells(&self, out: &mut Elems) {
        self.push_members(|_| true, false, out);
    }

    /// Pushes, in cell order, the cells that hold nothing.
    pub fn empty_cells(&self, out: &mut Elems) {
        self.push_members(|_| true, true, out);
    }

    /// Pushes the members of the union of the classes that `pick` accepts (or of its
    /// complement among the cells), in cell order.
    fn push_members(&self, pick: impl Fn(usize) -> bool, complement: bool, out: &mut Elems) {
        let words = self.words as usize;
        let mut union = [0u64; CELL_SET_WORDS];
        for (class, set) in self.classes.chunks_exact(words).enumerate() {
            if pick(class) {
                for (u, w) in union.iter_mut().zip(set) {
                    *u |= w;
                }
            }
        }
        for (i, &word) in union[..words].iter().enumerate() {
            let mut bits = if complement { !word } else { word };
            while bits != 0 {
                let cell = i * 64 + bits.trailing_zeros() as usize;
                if cell >= self.stacks.len() {
                    break;
                }
                out.push(cell as i64);
                bits &= bits - 1;
            }
        }
    }

    /// The number of 64-bit words in a cell set of this position.
    #[inline]
    pub fn words(&self) -> usize {
        self.words as usize
    }

    /// The class index of a top code: kind-major, then the owner's slot (neutral last).
    #[inline]
    fn class(&self, code: u16) -> Option<usize> {
        if code == EMPTY_TOP {
            return None;
        }
        let (kind, owner) = ((code >> 8) as usize, (code & 0xff) as usize);
        let slots = self.owner_slots as usize;
        Some(kind * slots + owner.min(slots - 1))
    }

    /// Whether the caches agree with the stacks: each cell's top code, and each class's
    /// cell set holding exactly the cells it tops. Checked after every ply in debug builds.
    pub fn caches_agree(&self) -> bool {
        let code = |stack: &Stack| {
            stack
                .last()
                .map_or(EMPTY_TOP, |p| (p.kind as u16) << 8 | p.owner as u16)
        };
        let tops_agree = (self.stacks.iter().map(code)).eq(self.tops.iter().copied());
        let words = self.words as usize;
        tops_agree
            && self
                .classes
                .chunks_exact(words)
                .enumerate()
                .all(|(class, set)| {
                    (0..self.stacks.len()).all(|cell| {
                        let member = set[cell / 64] & (1 << (cell % 64)) != 0;
                        member == (self.class(self.tops[cell]) == Some(class))
                    }) && set.iter().enumerate().all(|(w, &word)| {
                        // No bit past the last cell.
                        let valid = self.stacks.len().saturating_sub(w * 64).min(64);
                        valid == 64 || word >> valid == 0
                    })
                })
    }

    /// Brings the caches of one cell in line with its stack.
    fn refresh(&mut self, cell: usize) {
        let new = self.stacks[cell]
            .last()
            .map_or(EMPTY_TOP, |p| (p.kind as u16) << 8 | p.owner as u16);
        let old = self.tops[cell];
        if new == old {
            return;
        }
        self.tops[cell] = new;
        let (w, bit) = (cell / 64, 1u64 << (cell % 64));
        let words = self.words as usize;
        if let Some(class) = self.class(old) {
            self.classes[class * words + w] &= !bit;
        }
        if let Some(class) = self.class(new) {
            self.classes[class * words + w] |= bit;
        }
    }

    /// Whether player `p` is still in the game.
    #[inline]
    pub fn is_alive(&self, p: u8) -> bool {
        self.alive & (1 << p) != 0
    }
}

/// One undo record. A stack's old pieces are kept in the journal's piece store, from
/// `start` on, so that recording an edit allocates nothing.
#[derive(Clone, Copy, Debug)]
enum Undo {
    Stack { cell: CellId, start: u32, len: u32 },
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

    /// A mark to roll back to.
    pub fn mark(&self) -> usize {
        self.log.len()
    }

    /// Undoes every change recorded since `mark`.
    pub fn rollback(&mut self, state: &mut State, mark: usize) {
        while self.log.len() > mark {
            match self.log.pop() {
                Some(Undo::Stack { cell, start, len }) => {
                    let saved = &self.pieces[start as usize..(start + len) as usize];
                    let stack = &mut state.stacks[cell as usize];
                    stack.clear();
                    stack.extend_from_slice(saved);
                    self.pieces.truncate(start as usize);
                    state.refresh(cell as usize);
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
        f: impl FnOnce(&mut Stack) -> R,
    ) -> R {
        if self.on {
            let old = &state.stacks[cell as usize];
            self.log.push(Undo::Stack {
                cell,
                start: self.pieces.len() as u32,
                len: old.len() as u32,
            });
            self.pieces.extend_from_slice(old);
        }
        state.edit_stack(cell, f)
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
