//! Pieces, the lowest floor of a position: a piece's kind, owner and when it moved, a
//! stack of them, and the value that stands for "none" everywhere above.

use smallvec::SmallVec;

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

/// The pieces on one cell, bottom first, as the setup lists them for `State::new` (a
/// position keeps every stack in one buffer: see `Stacks`).
pub type Stack = SmallVec<[Piece; 8]>;
