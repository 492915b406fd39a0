//! The position of a game: stacks of pieces on cells, variables, whose turn it is.
//!
//! A state is a few flat arrays so that copying it is cheap; changes made while searching
//! for legal plies go through a [`Journal`] so they can be undone without a copy.

use smallvec::SmallVec;

use super::board::CellId;

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

/// The pieces on one cell, bottom first.
pub type Stack = SmallVec<[Piece; 4]>;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winning players; empty for a draw.
    pub winners: Vec<u8>,
    /// Set when the interpreter, not the rules, ended the game (the ply cap).
    pub reason: Option<String>,
}

/// A game position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// One stack per cell.
    pub stacks: Vec<Stack>,
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

impl State {
    /// The top piece of a cell, if any.
    #[inline]
    pub fn top(&self, cell: CellId) -> Option<&Piece> {
        self.stacks[cell as usize].last()
    }

    /// Whether player `p` is still in the game.
    #[inline]
    pub fn is_alive(&self, p: u8) -> bool {
        self.alive & (1 << p) != 0
    }
}

/// One undo record.
#[derive(Clone, Debug)]
enum Undo {
    Stack(CellId, Stack),
    Var(usize, i64),
    Alive(u32),
    TurnOver(bool),
}

/// A log of changes to a state, so a trial ply can be taken back.
#[derive(Default, Debug)]
pub struct Journal {
    log: Vec<Undo>,
    on: bool,
}

impl Journal {
    /// A journal that records changes.
    pub fn recording() -> Journal {
        Journal {
            log: Vec::new(),
            on: true,
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
                Some(Undo::Stack(c, s)) => state.stacks[c as usize] = s,
                Some(Undo::Var(i, v)) => state.vars[i] = v,
                Some(Undo::Alive(a)) => state.alive = a,
                Some(Undo::TurnOver(t)) => state.turn_over = t,
                None => break,
            }
        }
    }

    /// Gives mutable access to a stack, remembering its old contents.
    pub fn stack<'s>(&mut self, state: &'s mut State, cell: CellId) -> &'s mut Stack {
        if self.on {
            self.log
                .push(Undo::Stack(cell, state.stacks[cell as usize].clone()));
        }
        &mut state.stacks[cell as usize]
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
