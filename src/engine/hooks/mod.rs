//! Native hooks: generic mechanics that are awkward or slow to write in the language.
//!
//! Each file holds one family of hooks; each is registered by name in `natives.rs` and
//! documented in `docs/game-format.md`. A hook sees what it needs of a game and no
//! more: a [`View`] to read (the board, the position, how many players and kinds there
//! are) or an [`Edit`] to change the position, never the game's rules. So hooks sit on
//! the floors of the board and the position, below the program that calls them.

use smallvec::SmallVec;

use crate::engine::board::Board;
use crate::engine::state::{Journal, State};

pub mod groups;
pub mod line_of_sight;
pub mod push;

/// The elements of a collection a hook or native fills.
pub type Elems = SmallVec<[i64; 32]>;

/// What a hook may read: the board and the position (which knows the game's numbers of
/// players and piece kinds).
#[derive(Clone, Copy)]
pub struct View<'a> {
    pub board: &'a Board,
    pub state: &'a State,
}

/// What a hook that changes the position may touch: the board it reads, the position,
/// and the journal every edit goes through (so that it can be taken back).
pub struct Edit<'a> {
    pub board: &'a Board,
    pub state: &'a mut State,
    pub journal: &'a mut Journal,
}
