//! The commonest head read from the position's sets and the board's links alone: a piece
//! of a set the position keeps and where it steps, onto a cell of another such set.
//!
//! Applies: to a pair head ([`super::shape::HeadShape::pair`]) whose sets are kept sets
//! and whose second choice is a step, a neighbour or a link direction of the piece.
//! Guarantees: the same entries, in the same order, as the general listing.
//! Proved by: `properties::a_head_of_kept_sets_lists_what_the_general_listing_lists`
//! (and `..._on_boards_of_many_words`); the playouts' fingerprints do not change.
//! More: docs/engine.md, "Kept heads".

use super::board::Board;
use super::state::State;

/// An intersection of sets the position keeps ([`super::state::State::cached_words`]),
/// their complements and the mover's cells (or their complement), worked out from the
/// position's words without a call.
#[derive(Clone, Debug)]
pub struct Kept {
    /// Each set's number, and what its words are flipped with: every bit where its
    /// complement is meant, none otherwise.
    terms: Box<[(usize, u64)]>,
    /// Whether the mover's cells are a term, and what they are flipped with.
    mine: Option<u64>,
}

/// What a set is flipped with: every bit for its complement.
pub fn flip(negated: bool) -> u64 {
    if negated { !0 } else { 0 }
}

impl Kept {
    /// The intersection of the sets numbered in `terms` (each with its flip) and, with
    /// `mine`, of the mover's cells (flipped so).
    pub fn new(terms: Vec<(usize, u64)>, mine: Option<u64>) -> Kept {
        Kept {
            terms: terms.into(),
            mine,
        }
    }

    /// The set on a board of one word (up to 64 cells), `me` moving.
    #[inline(always)]
    pub fn word(&self, board: &Board, state: &State, me: u8) -> u64 {
        let sets = state.cached_words();
        let mut acc = board.all()[0];
        for &(i, flip) in self.terms.iter() {
            acc &= sets[i] ^ flip;
        }
        if let Some(flip) = self.mine {
            acc &= sets[state.owned_number(me)] ^ flip;
        }
        acc
    }

    /// The set, into `out` (as many words as the position's sets).
    #[inline(always)]
    pub fn words_into(&self, board: &Board, state: &State, me: u8, out: &mut [u64]) {
        let w = out.len();
        let sets = state.cached_words();
        out.copy_from_slice(&board.all()[..w]);
        for &(i, flip) in self.terms.iter() {
            for (x, s) in out.iter_mut().zip(&sets[i * w..(i + 1) * w]) {
                *x &= s ^ flip;
            }
        }
        if let Some(flip) = self.mine {
            for (x, s) in out.iter_mut().zip(state.owned(me)) {
                *x &= s ^ flip;
            }
        }
    }
}

/// How the last choice of a [`KeptHead`] reaches its elements from the piece.
#[derive(Clone, Copy, Debug)]
pub enum Reach {
    /// The directions of this bit set in which the piece's link leads into the target:
    /// the elements are directions (a folded step, `steps(from, dirs) where ...`).
    Steps(u8),
    /// The cells the board's neighbour table of this number links the piece to, in the
    /// target: the elements are cells.
    Neighbours(u16),
    /// The directions of this bit set in which the piece has a link, whatever it leads
    /// to (`directions(from)`, the target every cell): the elements are directions.
    Links(u8),
}

/// A pair head read from kept sets alone (see the module's documentation): the pieces,
/// how the last choice reaches its elements from a piece, and the set they must be in.
#[derive(Clone, Debug)]
pub struct KeptHead {
    pub pieces: Kept,
    pub reach: Reach,
    pub target: Kept,
}
