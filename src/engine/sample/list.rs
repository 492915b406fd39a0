//! A head of one or two parts listed combination by combination ([`Lister`]), with the
//! slots of the part after it worked out for each combination where it has a tail
//! ([`Tail`]).

use super::numbered::*;
use crate::engine::action::Action;
use crate::engine::board::{Board, CellId};
use crate::engine::cellset::{self, WORDS};
use crate::engine::chain::Env;
use crate::engine::eval::with_cells;
use crate::engine::natives::Ctx;
use crate::engine::overlay::Overlay;
use crate::engine::shape::TailShape;
use crate::engine::state::Journal;

/// The walk that lists a head's combinations: the first part's choices (but the settled
/// ones, worked out already), and for a head of two parts, the second part's in the
/// position each combination of the first leaves. The choices run as chains (see
/// `engine::chain`); the position and the names are the [`Env`]'s.
pub(super) struct Lister<'a, 'g, T> {
    pub(super) journal: &'a mut Journal,
    pub(super) action: &'g Action,
    /// How many parts the head has.
    pub(super) depth: usize,
    pub(super) skipped: u8,
    pub(super) out: &'a mut Numbered,
    pub(super) total: u64,
    /// The slots of the part after the head for each combination: a [`Tail`], or
    /// [`NoTail`] (a listing of its own, so that one pays nothing for the other).
    pub(super) tail: T,
}

/// What the part after a listed head needs for each combination the head lists.
pub(super) trait TailSlots: Copy {
    /// How many slots after the combination the listing stands at (0: the part can have
    /// no element), given the cells of the head's counted choice, if counted.
    fn slots(&self, env: &mut Env, counted: Option<&[u64]>) -> u32;

    /// [`TailSlots::slots`] where the listing stands before a move it has not played,
    /// given the cells that pass the tail's conditions once the move is played (as the
    /// overlay works them out: see `engine::overlay`).
    fn overlaid(&self, env: &Env, conditions: &[u64], counted: &[u64]) -> u32;
}

/// No part after the head gets slots from the listing: each combination stands for its
/// own candidates alone.
#[derive(Clone, Copy)]
pub(super) struct NoTail;

impl TailSlots for NoTail {
    #[inline(always)]
    fn slots(&self, _: &mut Env, _: Option<&[u64]>) -> u32 {
        1
    }

    #[inline(always)]
    fn overlaid(&self, _: &Env, _: &[u64], _: &[u64]) -> u32 {
        1
    }
}

/// The part after a listed head, when it is the action's last and its one `in` choice is
/// a set of cells bounded by conditions on each cell's own stack ([`SetBound`]): worked
/// out for each combination the head lists rather than once for the position, where the
/// names chosen and every effect but the head's last part's are known, it needs fewer
/// slots and so fewer draws are refused.
#[derive(Clone, Copy)]
pub(super) struct Tail<'g> {
    /// The conditions, worked out where the listing stands.
    pub(super) fixed: &'g crate::engine::program::SetExpr,
    /// What the head's last part's effect (not played by the listing) can add.
    pub(super) gained: u32,
    /// At most this many cells whatever the conditions (the set's terms of a size of their
    /// own).
    pub(super) cap: Option<u32>,
    /// Which names the set leaves out that the head has chosen where the listing stands.
    pub(super) shape: TailShape,
}

impl<'g> Tail<'g> {
    /// The tail of `action` after a head of `depth` parts, if it has that shape
    /// ([`HeadShape::tails`](crate::engine::shape::HeadShape::tails)).
    pub(super) fn of(action: &'g Action, depth: usize) -> Option<Tail<'g>> {
        let (shape, bound) = action.tail(depth)?;
        Some(Tail {
            fixed: bound.fixed.as_ref()?,
            gained: bound.gained_last?,
            cap: bound.cap,
            shape,
        })
    }
}

impl TailSlots for Tail<'_> {
    fn slots(&self, env: &mut Env, counted: Option<&[u64]>) -> u32 {
        let c = Ctx {
            board: env.board,
            state: env.state,
            me: env.me,
        };
        with_cells(self.fixed, &c, env.locals, |set, locals| {
            self.of_conditions(env.board, set, locals, counted)
        })
    }

    fn overlaid(&self, env: &Env, conditions: &[u64], counted: &[u64]) -> u32 {
        self.of_conditions(env.board, conditions, env.locals, Some(counted))
    }
}

impl Tail<'_> {
    /// The slots, given the cells that pass the conditions (`set`) and the head's counted
    /// choice's cells, if counted.
    #[inline(always)]
    pub(super) fn of_conditions(
        &self,
        board: &Board,
        set: &[u64],
        locals: &[i64],
        counted: Option<&[u64]>,
    ) -> u32 {
        let cells = board.len() as i64;
        let known = if counted.is_some() {
            self.shape.known
        } else {
            self.shape.known_listed
        };
        // The set less the cells the names hold (`gone`, each counted once), not copied.
        let w = set.len();
        let mut gone = [0u64; WORDS];
        let mut n = cellset::count(set);
        let mut names = known;
        while names != 0 {
            let slot = names.trailing_zeros() as usize;
            names &= names - 1;
            let cell = locals[slot];
            if (0..cells).contains(&cell)
                && cellset::contains(set, cell as usize)
                && !cellset::contains(&gone[..w], cell as usize)
            {
                cellset::insert(&mut gone[..w], cell as usize);
                n -= 1;
            }
        }
        // The counted choice's cell is left out too: one fewer, whichever it is, when
        // every cell it may be is in the set.
        if let Some(t) = counted
            && self.shape.leaves_out_counted
            && n > 0
            && t.iter()
                .zip(set)
                .zip(&gone[..w])
                .all(|((t, s), g)| t & !(s & !g) == 0)
        {
            n -= 1;
        }
        let n = n as u32 + self.gained;
        self.cap.map_or(n, |cap| n.min(cap)).min(cells as u32)
    }
}

impl<'a, 'g, T: TailSlots> Lister<'a, 'g, T> {
    /// Lists the head of `depth` parts into `out`: how many candidates its combinations
    /// stand for, or `None` once there are more than [`MOST_ENTRIES`].
    pub(super) fn list(
        journal: &'a mut Journal,
        action: &'g Action,
        depth: usize,
        out: &'a mut Numbered,
        tail: T,
        env: &mut Env,
    ) -> Option<u64> {
        let mut lister = Lister {
            journal,
            action,
            depth,
            skipped: 0,
            out,
            total: 0,
            tail,
        };
        lister.part(env, 0).then_some(lister.total)
    }

    /// Lists from part `p` on; false once there are more than [`MOST_ENTRIES`].
    pub(super) fn part(&mut self, env: &mut Env, p: usize) -> bool {
        if p == self.depth {
            let tail = self.tail.slots(env, None);
            return tail == 0 || self.entry(env, None, tail);
        }
        let part = &self.action.parts[p];
        if part.optional {
            part.clear_slots(env.locals);
            self.skipped |= 1 << p;
            let go_on = self.part(env, p + 1);
            self.skipped &= !(1 << p);
            if !go_on {
                return false;
            }
        }
        let chain = if p == 0 {
            &self.action.head
        } else {
            &self.action.compiled[p].chain
        };
        // The head's last `in` choice is counted, not walked, where the chain can hand
        // it over whole (see `Chain::new`); an earlier part that moves a piece to each
        // cell of its last choice has those cells handed over, to be moved to in turn.
        let outer = (env.count, env.gather);
        env.count = p + 1 == self.depth;
        env.gather = !env.count && chain.gathers().is_some();
        let go_on = chain.run(env, &mut |env, leaf| self.chosen(env, p, leaf));
        (env.count, env.gather) = outer;
        go_on
    }

    /// Goes on from a combination of part `p`'s choices (with the set of the last one
    /// when it was counted, or the cells of the last one when they were gathered).
    pub(super) fn chosen(&mut self, env: &mut Env, p: usize, leaf: Option<&[u64]>) -> bool {
        if let Some(cells) = leaf
            && p + 1 < self.depth
        {
            let action = self.action;
            if let Some(overlay) = &action.overlay
                && self.depth == 2
            {
                return self.overlaid_moves(env, overlay, cells);
            }
            return self.carried_moves(env, p, cells);
        }
        if let Some(set) = leaf {
            let count = cellset::count(set);
            if count == 0 {
                return true;
            }
            let tail = self.tail.slots(env, Some(set));
            if tail == 0 {
                return true;
            }
            let at = self.out.sets.len() as u32;
            cellset::append(&mut self.out.sets, set);
            return self.entry(env, Some((at, count as u64)), tail);
        }
        // The head's last part is played by each candidate; an earlier part is played
        // here, to list the next part's choices where it leaves the position.
        if p + 1 == self.depth {
            return self.part(env, p + 1);
        }
        let mark = self.journal.mark();
        let go_on = !env.play(&self.action.compiled[p], self.journal) || self.part(env, p + 1);
        self.journal.rollback(env.state, mark);
        go_on
    }

    /// Goes on from each cell of part `p`'s last choice (gathered: a part that moves a
    /// piece there, [`Part::moves_onto_last`](crate::engine::program::Part::moves_onto_last)),
    /// in the order the chain would have walked them: the move is played to the first
    /// cell, then carried on from each cell to the next
    /// ([`Journal::retarget`](crate::engine::state::Journal::retarget)), and taken back once.
    /// Not inlined: called once for all the cells, it would weigh on the code that every
    /// listed combination runs.
    #[inline(never)]
    pub(super) fn carried_moves(&mut self, env: &mut Env, p: usize, cells: &[u64]) -> bool {
        let part = &self.action.compiled[p];
        let slot = part.chain.gathers().expect("a gathered part") as usize;
        let mark = self.journal.mark();
        let mut go_on = true;
        let mut moved = false;
        for cell in cellset::members(cells) {
            env.locals[slot] = cell as i64;
            if moved && self.journal.retarget(env.state, mark, cell as CellId) {
                debug_assert!(env.state.caches_agree(), "caches after a move to {cell}");
            } else {
                self.journal.rollback(env.state, mark);
                moved = env.play(part, self.journal);
                if !moved {
                    continue;
                }
            }
            go_on = self.part(env, p + 1);
            if !go_on {
                break;
            }
        }
        self.journal.rollback(env.state, mark);
        go_on
    }

    /// Goes on from each cell of the first part's last choice (gathered, as for
    /// [`Lister::carried_moves`]) to the second part, the head's last, without playing
    /// the move: the second part's choices, its counted set and the tail's slots are
    /// worked out where the listing stands, with the two cells the move edits patched
    /// (see `engine::overlay`). The same entries as carrying the move would list; where a
    /// cell is beyond what the overlay works out, the move is carried from there on.
    pub(super) fn overlaid_moves(
        &mut self,
        env: &mut Env,
        overlay: &Overlay,
        cells: &[u64],
    ) -> bool {
        // Sets of one or two words (boards of up to 64 or 128 cells) are copied as such.
        match cells.len() {
            1 => self.overlaid_moves_in::<1>(env, overlay, cells),
            2 => self.overlaid_moves_in::<2>(env, overlay, cells),
            _ => self.overlaid_moves_in::<WORDS>(env, overlay, cells),
        }
    }

    /// [`Lister::overlaid_moves`] with sets of `W` words (at least the board's).
    #[inline(never)]
    pub(super) fn overlaid_moves_in<const W: usize>(
        &mut self,
        env: &mut Env,
        overlay: &Overlay,
        cells: &[u64],
    ) -> bool {
        let slot = self.action.compiled[0].chain.gathers();
        let slot = slot.expect("a gathered part") as usize;
        let w = cells.len();
        let c = Ctx {
            board: env.board,
            state: env.state,
            me: env.me,
        };
        if !overlay.begin(&c, env.locals, &mut self.out.moving) {
            return self.carried_moves(env, 0, cells);
        }
        let mut left = [0u64; WORDS];
        left[..w].copy_from_slice(cells);
        // The names each entry records ([`Lister::entry`] for a head of two parts, none
        // skipped, the second's last `in` choice counted): the same for every cell.
        debug_assert_eq!(self.skipped, 0, "an overlaid head skips no part");
        let (first, second) = (&self.action.parts[0], &self.action.parts[1]);
        let ins = (
            &first.ins[..],
            &second.ins[..second.ins.len().saturating_sub(1)],
        );
        for cell in cellset::members(cells) {
            env.locals[slot] = cell as i64;
            let (mut take, mut bound) = ([0u64; W], [0u64; W]);
            let c = Ctx {
                board: env.board,
                state: env.state,
                me: env.me,
            };
            let found = overlay.step(
                second,
                &c,
                env.locals,
                &mut self.out.moving,
                cell,
                &mut take,
                &mut bound,
            );
            let Some(n) = found else {
                return self.carried_moves(env, 0, &left[..w]);
            };
            cellset::remove(&mut left[..w], cell);
            let tail = if n > 0 {
                self.tail.overlaid(env, &bound[..w], &take[..w])
            } else {
                0
            };
            #[cfg(debug_assertions)]
            self.check_overlaid(env, (n > 0).then_some((&take[..w], tail)));
            if n == 0 || tail == 0 {
                continue;
            }
            let at = self.out.sets.len() as u32;
            cellset::append(&mut self.out.sets, &take[..w]);
            let values = self.out.values.len();
            for &slot in ins.0.iter().chain(ins.1) {
                self.out.values.push(env.locals[slot as usize]);
            }
            if !self.record(values, Some((at, n as u64)), tail) {
                return false;
            }
        }
        true
    }

    /// Plays the move an overlaid listing did not play, works the second part out where
    /// it leaves the board as the listing would, takes the move back, and stops if the
    /// overlay found otherwise: its counted set and the tail's slots where that set has a
    /// cell, else `None`.
    #[cfg(debug_assertions)]
    pub(super) fn check_overlaid(&mut self, env: &mut Env, overlaid: Option<(&[u64], u32)>) {
        let mark = self.journal.mark();
        let moved = env.play(&self.action.compiled[0], self.journal);
        assert!(moved, "an overlaid move is played");
        let outer = (env.count, env.gather);
        (env.count, env.gather) = (true, false);
        let tail = self.tail;
        // (Arrays, not vectors: a debug draw allocates nothing either.)
        let mut played: Option<([u64; WORDS], u32)> = None;
        self.action.compiled[1].chain.run(env, &mut |env, leaf| {
            if let Some(set) = leaf.filter(|set| !cellset::is_empty(set)) {
                let mut words = [0u64; WORDS];
                words[..set.len()].copy_from_slice(set);
                played = Some((words, tail.slots(env, Some(set))));
            }
            true
        });
        (env.count, env.gather) = outer;
        self.journal.rollback(env.state, mark);
        let overlaid = overlaid.map(|(set, slots)| {
            let mut words = [0u64; WORDS];
            words[..set.len()].copy_from_slice(set);
            (words, slots)
        });
        assert_eq!(
            overlaid, played,
            "a second part of `{}` listed without playing the move differs from the played one",
            self.action.name
        );
    }

    /// Records a combination: the `in` values of the head's parts it did not skip (but
    /// the last one's when its set is counted: `leaf`, where the set was kept and how
    /// many cells it has), standing for one candidate or one per cell of that set, times
    /// the `tail`'s slots (1 without a tail).
    pub(super) fn entry(&mut self, env: &Env, leaf: Option<(u32, u64)>, tail: u32) -> bool {
        let values = self.out.values.len();
        for (p, part) in self.action.parts[..self.depth].iter().enumerate() {
            if self.skipped & (1 << p) != 0 {
                continue;
            }
            // A counted set is the part's last choice, so its last `in` one.
            let counted = (leaf.is_some() && p + 1 == self.depth) as usize;
            for &slot in &part.ins[..part.ins.len() - counted] {
                self.out.values.push(env.locals[slot as usize]);
            }
        }
        self.record(values, leaf, tail)
    }

    /// Records a combination whose `in` values were pushed from `values` on (see
    /// [`Lister::entry`]).
    #[inline(always)]
    pub(super) fn record(&mut self, values: usize, leaf: Option<(u32, u64)>, tail: u32) -> bool {
        let (at, count) = leaf.unwrap_or((u32::MAX, 1));
        let fits = self.out.entry(self.total, values, self.skipped, at, tail);
        self.total += count * u64::from(tail);
        fits
    }
}
