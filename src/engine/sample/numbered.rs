//! The numbered candidates of a draw: how each choice's candidates are counted
//! ([`Factor`]), how a head's are ([`Head`], [`Entry`]), each action's [`Plan`] and the
//! buffers that hold them ([`Numbered`]), and what a tried candidate gave.

use crate::engine::cellset;
use crate::engine::eval::with_cells;
use crate::engine::game::Ply;
use crate::engine::natives::Ctx;
use crate::engine::overlay::Moving;
use crate::engine::program::{Part, SetBound};

/// At most this many combinations are listed for a head; past that the head is the first
/// part alone, then the first part gets slots like the later parts.
pub(super) const MOST_ENTRIES: usize = 1024;

/// A plan's frame when its trials start from a frame of zeros ([`Plan::frame`]).
pub(super) const FRESH: u32 = u32::MAX;

/// How the candidates of one `in` choice are numbered.
#[derive(Clone, Copy)]
pub(super) enum Factor {
    /// The cells of a set worked out at plan time, kept in [`Numbered::sets`] from `at`.
    Set { at: u32, count: u32 },
    /// Elements worked out at plan time, kept in [`Numbered::elements`] from `at`.
    List { at: u32, count: u32 },
    /// So many slots, the collection being worked out for each candidate.
    Slots(u32),
}

impl Factor {
    pub(super) fn count(self) -> u64 {
        match self {
            Factor::Set { count, .. } | Factor::List { count, .. } | Factor::Slots(count) => {
                u64::from(count)
            }
        }
    }
}

/// How the head's candidates are numbered.
#[derive(Clone, Copy)]
pub(super) enum Head {
    /// The first part alone, one factor per `in` choice, in [`Numbered::factors`] from
    /// `at`; a candidate is one element of each (mixed radix, first choice fastest).
    Product { at: u32, len: u32 },
    /// Listed combinations, [`Numbered::entries`] `at..at + len`; with `tail`, the part
    /// after them got slots for each combination ([`Entry::tail`]), counted in.
    Listed {
        at: u32,
        len: u32,
        tail: bool,
        /// The first part's `where`s after its last choice are not tested by the listing
        /// (a pair head's, [`crate::engine::program::PairShape::tested`]): a drawn candidate is.
        untested: bool,
    },
    /// Whole plies, [`Numbered::plies`] `at..at + len`: an action whose last part repeats
    /// (a capture chain), whose plies are walked and listed.
    Plies { at: u32 },
}

/// One listed combination of the head's choices.
#[derive(Clone, Copy)]
pub(super) struct Entry {
    /// Candidates before this entry within its head.
    pub(super) before: u64,
    /// Its `in` values, [`Numbered::values`] `values..values + len`.
    pub(super) values: u32,
    pub(super) len: u8,
    /// The head's optional parts it skips (bit per part).
    pub(super) skipped: u8,
    /// Where the last `in` choice's cells start in [`Numbered::sets`], if the entry stands
    /// for one candidate per cell of that set; `u32::MAX` when the entry is one candidate.
    pub(super) leaf: u32,
    /// The slots of the part after the head, worked out for this combination, when the
    /// head has a `tail` (1 otherwise): the entry stands for that many candidates each.
    pub(super) tail: u32,
}

/// The candidates of one action.
pub(super) struct Plan {
    pub(super) action: u16,
    pub(super) head: Head,
    /// How many parts the head numbers, and its candidates.
    pub(super) parts: u8,
    pub(super) head_count: u64,
    /// Where the factors of the parts after the head start in [`Numbered::factors`] (one
    /// per `in` choice of each, in order).
    pub(super) tail: u32,
    /// Where the names the first part works out once (its action's
    /// [`crate::engine::shape::HeadShape::settled`] `let`s) start in [`Numbered::frames`];
    /// [`FRESH`] when it has none.
    pub(super) frame: u32,
    pub(super) size: u64,
    /// Whether every candidate is a legal ply (nothing is tested when it is tried): then
    /// a candidate that is kept is played without recording how to take it back.
    pub(super) exact: bool,
}

/// The numbered candidates of every action that may be played now.
pub(super) struct Numbered {
    pub(super) plans: Vec<Plan>,
    pub(super) factors: Vec<Factor>,
    pub(super) entries: Vec<Entry>,
    pub(super) values: Vec<i64>,
    pub(super) sets: Vec<u64>,
    pub(super) elements: Vec<i64>,
    pub(super) frames: Vec<i64>,
    pub(super) plies: Vec<Ply>,
    /// What the overlay keeps while one piece's moves are listed (`engine::overlay`):
    /// here, made once, since its arrays are large to clear and each piece's listing
    /// writes what it reads.
    pub(super) moving: Moving,
}

impl Numbered {
    /// Records a listed combination of the head's `in` values, the values pushed since
    /// `values` (where they start in [`Numbered::values`]), standing for candidates after
    /// the `before` counted so far in its head; false once the heads hold more than
    /// [`MOST_ENTRIES`] combinations.
    pub(super) fn entry(
        &mut self,
        before: u64,
        values: usize,
        skipped: u8,
        leaf: u32,
        tail: u32,
    ) -> bool {
        self.entries.push(Entry {
            before,
            values: values as u32,
            len: (self.values.len() - values) as u8,
            skipped,
            leaf,
            tail,
        });
        self.entries.len() <= MOST_ENTRIES
    }

    /// Records a pair head's entry for piece `e`, standing for the `count` elements of
    /// its last choice whose set starts at `leaf` in the sets, after the `total` counted
    /// so far (which it adds to); false, with the listing taken back to `mark`, once the
    /// heads hold more than [`MOST_ENTRIES`] combinations.
    #[inline]
    pub(super) fn piece(
        &mut self,
        e: usize,
        leaf: usize,
        count: u64,
        total: &mut u64,
        mark: (usize, usize, usize),
    ) -> bool {
        let values = self.values.len();
        self.values.push(e as i64);
        let fits = self.entry(*total, values, 0, leaf as u32, 1);
        *total += count;
        if !fits {
            self.rewind(mark);
        }
        fits
    }

    /// Where a head's listing starts: what [`Numbered::rewind`] takes it back to.
    pub(super) fn mark(&self) -> (usize, usize, usize) {
        (self.entries.len(), self.values.len(), self.sets.len())
    }

    /// Takes back a listing that held too many combinations.
    pub(super) fn rewind(&mut self, (entries, values, sets): (usize, usize, usize)) {
        self.entries.truncate(entries);
        self.values.truncate(values);
        self.sets.truncate(sets);
    }
}

/// Why a candidate is no ply (small, so that a trial's `?` moves a byte, not a ply).
#[derive(Clone, Copy)]
pub(super) enum Refused {
    Rejected,
    /// A collection held more elements than its slots. The slots' bounds are meant never
    /// to let this happen (a debug build stops there, so that every test checks them):
    /// the plies past the slots would have no candidate of their own, so listing every
    /// ply from here keeps the ply legal, but the draw is no longer exactly uniform.
    TooMany,
}

/// What a draw does with the candidate it finds legal.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keep {
    /// Takes it back, and hands the ply over.
    No,
    /// Leaves it played, and hands the ply over.
    Ply,
    /// Leaves it played and hands nothing over ([`Drawn::Kept`]): a playout.
    Position,
}

/// A later part's candidates for one head combination: its slots (the product of its
/// factors' counts) and, with "skipped" for an optional part, its values in all.
pub(super) fn part_values(part: &Part, factors: &[Factor]) -> (u64, u64) {
    let values = factors
        .iter()
        .fold(1u64, |v, f| v.saturating_mul(f.count()));
    (values, values.saturating_add(part.optional as u64))
}

/// An upper bound on the size of a set with this bound when it is worked out after the
/// effects of its part's earlier parts.
pub(super) fn set_bound(bound: &SetBound, c: &Ctx) -> u64 {
    let cells = c.board.len() as u64;
    let fixed = match (&bound.fixed, bound.gained) {
        (Some(set), Some(gained)) => {
            with_cells(set, c, &mut [], |s, _| cellset::count(s)) as u64 + u64::from(gained)
        }
        _ => cells,
    };
    let within = bound.within.as_ref().map_or(cells, |set| {
        with_cells(set, c, &mut [], |s, _| cellset::count(s)) as u64
    });
    fixed.min(bound.cap.map_or(cells, u64::from)).min(within)
}

/// Appends a mask of directions to the sets as a set of `w` words (the directions in the
/// first), and says how many directions it holds.
#[inline(always)]
pub(super) fn append_mask(sets: &mut Vec<u64>, mask: u64, w: usize) -> u64 {
    sets.push(mask);
    sets.extend(std::iter::repeat_n(0, w - 1));
    u64::from(mask.count_ones())
}
