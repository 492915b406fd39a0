//! Random plies without listing every legal ply: every action that may be played gets a
//! numbered set of candidates such that each legal ply is exactly one of them; one is
//! drawn uniformly and tried, refused ones are drawn again (`engine::draw` decides which
//! actions are listed instead).
//!
//! Applies: to every action `engine::draw` does not list.
//! Guarantees: every legal ply is drawn with the same probability, and only legal plies.
//! Proved by: `properties::drawn_plies_are_uniform_over_the_legal_plies` and the other
//! `drawn_plies_are_uniform_*` tests (chi-square over the legal plies of positions of
//! every shipped game and of generated files), `actions::generated_actions_give_the_plies_the_rules_give`.
//! How the candidates are numbered: docs/engine.md, "Random plies".

use std::cell::RefCell;

use rand::{Rng, RngExt};
use smallvec::SmallVec;

use super::action::{Action, PartCode};
use super::board::{Board, CellId};
use super::cellset::{self, WORDS};
use super::chain::Env;
use super::eval::{cells_into, domain, eval, steps, with_cells};
use super::game::{Game, Ply};
use super::kept::{KeptHead, Reach};
use super::natives::{Ctx, Elems, Mut};
use super::overlay::{Moving, Overlay};
use super::precheck::{Precheck, Verdict};
use super::program::{
    Choice, Domain, FRAME_INLINE, Most, Node, Part, Repeat, SetBound, directions_args, frame,
    frame_len,
};
use super::radix::digit;
use super::shape::{PairShape, TailShape};
use super::state::{Journal, State};

/// At most this many combinations are listed for a head; past that the head is the first
/// part alone, then the first part gets slots like the later parts.
const MOST_ENTRIES: usize = 1024;

/// Above this many candidates a draw is almost never legal: list the plies instead.
const MOST_CANDIDATES: u64 = 1 << 40;

/// At most this many candidates are drawn (with replacement) before a draw goes through
/// them in a random order or lists the plies: a quarter of them, at least 8.
pub(crate) const MOST_DRAWS: u64 = 512;

/// At most this many candidates are gone through in a random order when draws keep
/// being refused (the order is a list of their numbers); past that, the plies are listed.
const MOST_SHUFFLED: u64 = 1 << 16;

/// A plan's frame when its trials start from a frame of zeros ([`Plan::frame`]).
const FRESH: u32 = u32::MAX;

/// What drawing found.
enum Found {
    Legal(Ply),
    /// A legal candidate, left played and not written out ([`Keep::Position`]).
    Kept,
    /// No candidate at all, or every one refused: only the fallback actions may give a
    /// ply.
    Fallbacks,
    /// Not decided (too many candidates, or a collection outgrew its slots): the full
    /// listing decides.
    Nothing,
}

/// How the candidates of one `in` choice are numbered.
#[derive(Clone, Copy)]
enum Factor {
    /// The cells of a set worked out at plan time, kept in [`Numbered::sets`] from `at`.
    Set { at: u32, count: u32 },
    /// Elements worked out at plan time, kept in [`Numbered::elements`] from `at`.
    List { at: u32, count: u32 },
    /// So many slots, the collection being worked out for each candidate.
    Slots(u32),
}

impl Factor {
    fn count(self) -> u64 {
        match self {
            Factor::Set { count, .. } | Factor::List { count, .. } | Factor::Slots(count) => {
                u64::from(count)
            }
        }
    }
}

/// How the head's candidates are numbered.
#[derive(Clone, Copy)]
enum Head {
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
        /// (a pair head's, [`super::program::PairShape::tested`]): a drawn candidate is.
        untested: bool,
    },
    /// Whole plies, [`Numbered::plies`] `at..at + len`: an action whose last part repeats
    /// (a capture chain), whose plies are walked and listed.
    Plies { at: u32 },
}

/// One listed combination of the head's choices.
#[derive(Clone, Copy)]
struct Entry {
    /// Candidates before this entry within its head.
    before: u64,
    /// Its `in` values, [`Numbered::values`] `values..values + len`.
    values: u32,
    len: u8,
    /// The head's optional parts it skips (bit per part).
    skipped: u8,
    /// Where the last `in` choice's cells start in [`Numbered::sets`], if the entry stands
    /// for one candidate per cell of that set; `u32::MAX` when the entry is one candidate.
    leaf: u32,
    /// The slots of the part after the head, worked out for this combination, when the
    /// head has a `tail` (1 otherwise): the entry stands for that many candidates each.
    tail: u32,
}

/// The candidates of one action.
struct Plan {
    action: u16,
    head: Head,
    /// How many parts the head numbers, and its candidates.
    parts: u8,
    head_count: u64,
    /// Where the factors of the parts after the head start in [`Numbered::factors`] (one
    /// per `in` choice of each, in order).
    tail: u32,
    /// Where the names the first part works out once (its action's
    /// [`super::shape::HeadShape::settled`] `let`s) start in [`Numbered::frames`];
    /// [`FRESH`] when it has none.
    frame: u32,
    size: u64,
    /// Whether every candidate is a legal ply (nothing is tested when it is tried): then
    /// a candidate that is kept is played without recording how to take it back.
    exact: bool,
}

/// The buffers of a draw, kept per thread so that drawing allocates nothing once warm.
struct Scratch {
    numbered: Numbered,
    journal: Journal,
    /// The candidates' numbers in the order a draw goes through them (see `draw`).
    order: Vec<u32>,
}

/// The numbered candidates of every action that may be played now.
struct Numbered {
    plans: Vec<Plan>,
    factors: Vec<Factor>,
    entries: Vec<Entry>,
    values: Vec<i64>,
    sets: Vec<u64>,
    elements: Vec<i64>,
    frames: Vec<i64>,
    plies: Vec<Ply>,
    /// What the overlay keeps while one piece's moves are listed (`engine::overlay`):
    /// here, made once, since its arrays are large to clear and each piece's listing
    /// writes what it reads.
    moving: Moving,
}

impl Numbered {
    /// Records a listed combination of the head's `in` values, the values pushed since
    /// `values` (where they start in [`Numbered::values`]), standing for candidates after
    /// the `before` counted so far in its head; false once the heads hold more than
    /// [`MOST_ENTRIES`] combinations.
    fn entry(&mut self, before: u64, values: usize, skipped: u8, leaf: u32, tail: u32) -> bool {
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
    fn piece(
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
    fn mark(&self) -> (usize, usize, usize) {
        (self.entries.len(), self.values.len(), self.sets.len())
    }

    /// Takes back a listing that held too many combinations.
    fn rewind(&mut self, (entries, values, sets): (usize, usize, usize)) {
        self.entries.truncate(entries);
        self.values.truncate(values);
        self.sets.truncate(sets);
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch {
        numbered: Numbered {
            plans: Vec::new(),
            factors: Vec::new(),
            entries: Vec::new(),
            values: Vec::new(),
            sets: Vec::new(),
            elements: Vec::new(),
            frames: Vec::new(),
            plies: Vec::new(),
            moving: Moving::default(),
        },
        journal: Journal::recording(),
        order: Vec::new(),
    });
}

/// Why a candidate is no ply (small, so that a trial's `?` moves a byte, not a ply).
#[derive(Clone, Copy)]
enum Refused {
    Rejected,
    /// A collection held more elements than its slots. The slots' bounds are meant never
    /// to let this happen (a debug build stops there, so that every test checks them):
    /// the plies past the slots would have no candidate of their own, so listing every
    /// ply from here keeps the ply legal, but the draw is no longer exactly uniform.
    TooMany,
}

/// What trying one candidate gave.
enum Tried {
    Legal(Ply),
    /// Legal, left played, and not written out ([`Keep::Position`]).
    Kept,
    Refused(Refused),
}

/// A drawn ply: still to be played, or (a kept candidate) already played but for what
/// follows a ply (ends, turns); `Kept` when the draw was told not to write the ply out
/// (a playout needs only the position).
pub(crate) enum Drawn {
    Played(Ply),
    Kept,
    Listed(Ply),
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

/// The way a draw goes.
#[derive(Clone, Copy)]
pub(crate) enum Route<'a> {
    /// Every legal ply listed, and one picked.
    List,
    /// Candidates numbered and drawn; the actions `listed` marks (by index) are numbered
    /// by their plies, listed (every candidate of theirs legal).
    Sample { listed: &'a [bool] },
}

/// What numbering one action's candidates in one position gave: what a draw's route is
/// chosen by ([`Game::candidates`]).
pub(crate) struct Numbering {
    pub action: u16,
    /// Its candidates.
    pub size: u64,
}

impl Game {
    /// Numbers the candidates of every action that may be played now, none of them
    /// listed, into `out` (an action without a candidate is left out).
    pub(crate) fn candidates(&self, state: &mut State, out: &mut Vec<Numbering>) {
        out.clear();
        SCRATCH.with_borrow_mut(|scratch| {
            self.plan(state, &mut scratch.numbered, &mut scratch.journal, &[]);
            out.extend(scratch.numbered.plans.iter().map(|p| Numbering {
                action: p.action,
                size: p.size,
            }));
        });
    }

    /// A uniformly random legal ply, by the way `route` says: a drawn candidate (left
    /// played on `state`, and written out or not, as `keep` says), or one from the full
    /// listing.
    pub(crate) fn draw<R: Rng + ?Sized>(
        &self,
        state: &mut State,
        rng: &mut R,
        keep: Keep,
        route: Route,
    ) -> Option<Drawn> {
        if state.outcome.is_some() {
            return None;
        }
        let drawn = match route {
            Route::List => Found::Nothing,
            Route::Sample { listed } => self.draw_numbered(state, rng, keep, listed),
        };
        let fallbacks_only = match drawn {
            Found::Legal(ply) => return Some(Drawn::Played(ply)),
            Found::Kept => return Some(Drawn::Kept),
            Found::Fallbacks => true,
            Found::Nothing => false,
        };
        // Usually a few plies (a forced pass): kept inline.
        let mut legal: SmallVec<[Ply; 8]> = SmallVec::new();
        self.walk_some(state, &mut legal, fallbacks_only);
        if legal.is_empty() {
            return None;
        }
        let i = rng.random_range(0..legal.len() as u64) as usize;
        Some(Drawn::Listed(legal.swap_remove(i)))
    }

    /// Draws among the numbered candidates (the actions `listed` marks numbered by their
    /// plies): a legal one, or what the listing must do instead.
    fn draw_numbered<R: Rng + ?Sized>(
        &self,
        state: &mut State,
        rng: &mut R,
        keep: Keep,
        listed: &[bool],
    ) -> Found {
        SCRATCH.with_borrow_mut(|scratch| {
            self.plan(state, &mut scratch.numbered, &mut scratch.journal, listed);
            let total = scratch
                .numbered
                .plans
                .iter()
                .fold(0u64, |sum, p| sum.saturating_add(p.size));
            if total == 0 {
                return Found::Fallbacks;
            }
            if total >= MOST_CANDIDATES {
                return Found::Nothing;
            }
            // A quarter of the candidates, within bounds, drawn with replacement: where
            // most are refused, going through them in a random order soon costs less.
            for _ in 0..(total / 4).clamp(8, MOST_DRAWS) {
                let pick = rng.random_range(0..total);
                match self.try_numbered(state, scratch, pick, keep) {
                    Tried::Legal(ply) => return Found::Legal(ply),
                    Tried::Kept => return Found::Kept,
                    Tried::Refused(Refused::Rejected) => {}
                    Tried::Refused(Refused::TooMany) => return Found::Nothing,
                }
            }
            // Where a candidate has parts after its head, the listing plays each head
            // once for all its completions, and costs less than trying candidates one
            // by one (which cost 7 to 8% more instructions a ply in two such games of
            // the library); otherwise a candidate costs what the listing pays for it,
            // and the listing never stops early.
            let heads_only = scratch
                .numbered
                .plans
                .iter()
                .all(|p| p.parts as usize == self.actions[p.action as usize].parts.len());
            if total > MOST_SHUFFLED || !heads_only {
                return Found::Nothing;
            }
            // Every candidate once, in a uniformly random order (a Fisher-Yates shuffle
            // made as it goes): the first legal one is each legal ply with the same
            // chance, as the draws above are, whatever they refused.
            let mut order = std::mem::take(&mut scratch.order);
            order.clear();
            order.extend(0..total as u32);
            let mut found = Found::Fallbacks;
            for i in 0..order.len() {
                let j = rng.random_range(i..order.len());
                order.swap(i, j);
                match self.try_numbered(state, scratch, u64::from(order[i]), keep) {
                    Tried::Legal(ply) => {
                        found = Found::Legal(ply);
                        break;
                    }
                    Tried::Kept => {
                        found = Found::Kept;
                        break;
                    }
                    Tried::Refused(Refused::Rejected) => {}
                    Tried::Refused(Refused::TooMany) => {
                        found = Found::Nothing;
                        break;
                    }
                }
            }
            scratch.order = order;
            found
        })
    }

    /// Tries candidate `pick` of the numbered candidates, counted across the plans.
    fn try_numbered(
        &self,
        state: &mut State,
        scratch: &mut Scratch,
        pick: u64,
        keep: Keep,
    ) -> Tried {
        let mut pick = pick;
        let which = scratch.numbered.plans.iter().position(|p| {
            let here = pick < p.size;
            if !here {
                pick -= p.size;
            }
            here
        });
        match which {
            Some(which) => self.try_candidate(state, scratch, which, pick, keep),
            // (Not reached: the pick is below the plans' total.)
            None => Tried::Refused(Refused::TooMany),
        }
    }

    /// Numbers the candidates of every action that may be played now (fallback actions
    /// aside) into `out`. Heads of several parts are listed by playing their first part on
    /// `state` through `journal` and taking it back. The actions `listed` marks (by
    /// index), and those whose last part repeats, are numbered by their plies, listed.
    fn plan(&self, state: &mut State, out: &mut Numbered, journal: &mut Journal, listed: &[bool]) {
        out.plans.clear();
        out.factors.clear();
        out.entries.clear();
        out.values.clear();
        out.sets.clear();
        out.elements.clear();
        out.frames.clear();
        out.plies.clear();
        let phase = self.current_phase(state);
        let me = state.to_move;
        for (index, action) in self.actions.iter().enumerate() {
            if action.fallback || (action.phase.is_some() && action.phase != phase) {
                continue;
            }
            if action.shape.repeats || listed.get(index) == Some(&true) {
                let at = out.plies.len();
                self.walk_action(state, index, &mut out.plies);
                let len = out.plies.len() - at;
                if len > 0 {
                    out.plans.push(Plan {
                        action: index as u16,
                        head: Head::Plies { at: at as u32 },
                        parts: action.parts.len() as u8,
                        head_count: len as u64,
                        tail: out.factors.len() as u32,
                        frame: FRESH,
                        size: len as u64,
                        exact: true,
                    });
                }
                continue;
            }
            let c = Ctx {
                board: &self.board,
                state,
                me,
            };
            let mut locals = frame(action.frame);
            let locals = &mut locals[..];
            let part = &action.parts[0];
            // The first part's `let`s and `where`s that read no chosen name: once, here.
            let settled = action.shape.settled;
            let mut possible = true;
            let mut lets = false;
            let mut bits = settled;
            while bits != 0 && possible {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                match &part.choices[i] {
                    Choice::Let(slot, node) => {
                        locals[*slot as usize] = eval(node, &c, locals);
                        lets = true;
                    }
                    Choice::Where(node) => possible = eval(node, &c, locals) != 0,
                    Choice::In { .. } => {}
                }
            }
            if !possible && !part.optional {
                continue;
            }
            let (head, parts, head_count) = if possible {
                self.head(state, journal, action, locals, out)
            } else {
                // Only "skip the first part" is left: a product of nothing, plus the skip.
                let at = out.factors.len() as u32;
                (Head::Product { at, len: 0 }, 1, 1)
            };
            if head_count == 0 {
                continue;
            }
            let c = Ctx {
                board: &self.board,
                state,
                me,
            };
            let tail = out.factors.len() as u32;
            let mut size = head_count;
            // A tail numbered with the head's combinations is in the head's count.
            let counted = matches!(head, Head::Listed { tail: true, .. }) as usize;
            for part in &action.parts[parts as usize + counted..] {
                let mut values = 1u64;
                for choice in &part.choices {
                    if let Choice::In { .. } = choice {
                        let n = self.slots(&c, choice);
                        values = values.saturating_mul(n);
                        out.factors.push(Factor::Slots(n as u32));
                    }
                }
                size = size.saturating_mul(values.saturating_add(part.optional as u64));
            }
            // The frame carries the settled `let`s to the trials; without any, a trial's
            // names are all bound by the trial itself, and it starts from a fresh frame.
            let frame_at = if lets {
                let at = out.frames.len() as u32;
                match <&[i64; FRAME_INLINE]>::try_from(&locals[..]) {
                    Ok(small) => out.frames.extend_from_slice(small),
                    Err(_) => out.frames.extend_from_slice(locals),
                }
                at
            } else {
                FRESH
            };
            let last = &action.parts[parts as usize - 1];
            let exact = parts as usize == action.parts.len()
                && last.check.is_none()
                && match head {
                    Head::Product { at, len } => {
                        let factors = &out.factors[at as usize..(at + len) as usize];
                        let unsettled_where = last.choices.iter().enumerate().any(|(i, ch)| {
                            matches!(ch, Choice::Where(_)) && (i >= 64 || settled & (1 << i) == 0)
                        });
                        !unsettled_where && factors.iter().all(|f| !matches!(f, Factor::Slots(_)))
                    }
                    Head::Listed { untested, .. } => !untested,
                    Head::Plies { .. } => true,
                };
            out.plans.push(Plan {
                action: index as u16,
                head,
                parts,
                head_count,
                tail,
                frame: frame_at,
                size,
                exact,
            });
        }
    }

    /// Numbers the head's candidates (see the module's documentation): how, over how many
    /// parts, and how many candidates.
    fn head(
        &self,
        state: &mut State,
        journal: &mut Journal,
        action: &Action,
        locals: &mut [i64],
        out: &mut Numbered,
    ) -> (Head, u8, u64) {
        let part = &action.parts[0];
        let optional = part.optional as u64;
        let me = state.to_move;
        if action.shape.product {
            let c = Ctx {
                board: &self.board,
                state,
                me,
            };
            let at = out.factors.len();
            let mut count = 1u64;
            for choice in &part.choices {
                if let Choice::In {
                    slot,
                    domain: d,
                    filter,
                    ..
                } = choice
                {
                    let factor = known(&c, d, filter.as_ref(), *slot, locals, out);
                    count = count.saturating_mul(factor.count());
                    out.factors.push(factor);
                }
            }
            let len = (out.factors.len() - at) as u32;
            let head = Head::Product { at: at as u32, len };
            return (head, 1, count.saturating_add(optional));
        }
        // A second part that may be skipped is left to slots: its candidates are few (an
        // optional extra) and every first-part combination is a ply without it, whereas
        // listing it would play every first-part combination. So is a second part with no
        // more slots than the first part can have combinations (a shot along any of eight
        // lines after one of some eighty long moves, a choice of four kinds after a
        // promoting move, a direction after a step with as many directions): the
        // listing would play every first part at every draw, whichever action the draw
        // then picks, whereas only the draws that pick this action fill its slots (which
        // took 12% off the instructions a ply of one game of the library, where a rule
        // of half as many slots listed the throws).
        // (Decided at load where the board alone decides it: `HeadShape::shallow`.)
        let deepest = if !action.shape.shallow {
            let first = self.part_slots(state, &action.parts[0]);
            let second = self.part_slots(state, &action.parts[1]);
            if second <= first { 1 } else { 2 }
        } else {
            1
        };
        if deepest == 1
            && let Some(shape) = action.shape.pair
            && let Some(found) = self.pair_head(state, action, shape, locals, out)
        {
            return found;
        }
        for depth in (1..=deepest).rev() {
            let mark = out.mark();
            let at = mark.0;
            let mut env = Env {
                board: &self.board,
                state: &mut *state,
                me,
                locals: &mut *locals,
                count: false,
                gather: false,
            };
            let j = &mut *journal;
            let listed = match Tail::of(action, depth) {
                Some(tail) => Lister::list(j, action, depth, out, tail, &mut env).zip(Some(true)),
                None => Lister::list(j, action, depth, out, NoTail, &mut env).zip(Some(false)),
            };
            if let Some((total, tail)) = listed {
                let len = (out.entries.len() - at) as u32;
                return (
                    Head::Listed {
                        at: at as u32,
                        len,
                        tail,
                        untested: false,
                    },
                    depth as u8,
                    total,
                );
            }
            // Too many combinations: a shallower head.
            out.rewind(mark);
        }
        // Still too many: slots for the first part, as for the later parts.
        let c = Ctx {
            board: &self.board,
            state,
            me,
        };
        let at = out.factors.len();
        let mut count = 1u64;
        for choice in &part.choices {
            if let Choice::In { .. } = choice {
                let n = self.slots(&c, choice);
                count = count.saturating_mul(n);
                out.factors.push(Factor::Slots(n as u32));
            }
        }
        let len = (out.factors.len() - at) as u32;
        (
            Head::Product { at: at as u32, len },
            1,
            count.saturating_add(optional),
        )
    }

    /// The head of a first part whose choices left to make are a set of cells and the
    /// part's last `in` choice, followed by `let`s and `where`s alone (a piece, then where
    /// or which way it goes: [`super::shape::HeadShape::pair`]). The same candidates in
    /// the same order as [`Lister`] would number, but listed in one loop over the first
    /// set instead of a walk through the choices, with one entry per piece standing for
    /// the elements of the second choice that pass what follows it. `None` when it has
    /// more combinations than a head lists (nothing is left in `out` then).
    fn pair_head(
        &self,
        state: &State,
        action: &Action,
        shape: PairShape,
        locals: &mut [i64],
        out: &mut Numbered,
    ) -> Option<(Head, u8, u64)> {
        let pair = Pair {
            c: Ctx {
                board: &self.board,
                state,
                me: state.to_move,
            },
            part: &action.parts[0],
            shape,
        };
        match &action.kept_head {
            Some(head) => pair.kept_head(head, out),
            None => pair.walked(locals, out),
        }
    }

    /// How many slots the `in` choices of `part` get together, after the effects of the
    /// parts before it.
    fn part_slots(&self, state: &State, part: &Part) -> u64 {
        let c = Ctx {
            board: &self.board,
            state,
            me: state.to_move,
        };
        part.choices
            .iter()
            .filter(|choice| matches!(choice, Choice::In { .. }))
            .fold(1u64, |n, choice| n.saturating_mul(self.slots(&c, choice)))
    }

    /// How many slots an `in` choice over `d` gets, after the effects of its part's
    /// earlier parts (which its bound knows).
    fn slots(&self, c: &Ctx, choice: &Choice) -> u64 {
        let Choice::In {
            domain: d, bound, ..
        } = choice
        else {
            return 1;
        };
        self.fixed_slots(d)
            .unwrap_or_else(|| set_bound(bound, c).min(self.board.len() as u64))
    }

    /// The slots of an `in` choice over `d` that the board decides, whatever the
    /// position: every domain's but a set of cells (`None`), whose bound the position
    /// decides. What lets a head's depth be decided at load
    /// ([`HeadShape::of`](super::shape::HeadShape::of)).
    pub(crate) fn fixed_slots(&self, d: &Domain) -> Option<u64> {
        Some(match d {
            Domain::Cells(_) => return None,
            Domain::List(items) => items.len() as u64,
            Domain::Steps { .. } => self.board.most_links() as u64,
            Domain::Native(native, _) => match native.most {
                Most::Cells => self.board.len() as u64,
                Most::Players => self.players.len() as u64,
                Most::Kinds => self.kinds.len() as u64,
                Most::Links => self.board.most_links() as u64,
                Most::Side => self.board.files.max(self.board.ranks) as u64,
                Most::Eight => 8,
            },
        })
    }

    /// Tries candidate number `pick` of plan `which` on `state`, which it leaves as it was
    /// (or, with `keep`, as the candidate left it if it is a legal ply).
    fn try_candidate(
        &self,
        state: &mut State,
        scratch: &mut Scratch,
        which: usize,
        pick: u64,
        keep: Keep,
    ) -> Tried {
        let Scratch {
            numbered, journal, ..
        } = scratch;
        let plan = &numbered.plans[which];
        let action = &self.actions[plan.action as usize];
        let len = frame_len(action.frame);
        let (mut small, mut large);
        let locals: &mut [i64] = if plan.frame == FRESH {
            if len == FRAME_INLINE {
                small = [0; FRAME_INLINE];
                &mut small
            } else {
                large = vec![0; len];
                &mut large
            }
        } else {
            let stored = &numbered.frames[plan.frame as usize..][..len];
            match <[i64; FRAME_INLINE]>::try_from(stored) {
                Ok(copy) => {
                    small = copy;
                    &mut small
                }
                Err(_) => {
                    large = stored.to_vec();
                    &mut large
                }
            }
        };
        let mark = journal.mark();
        let me = state.to_move;
        // A candidate that cannot be refused and is kept is never taken back.
        let kept = keep != Keep::No;
        let unrecorded = kept && plan.exact;
        journal.set_recording(!unrecorded);
        let mut t = Trial {
            game: self,
            state,
            journal,
            me,
            locals,
            values: SmallVec::new(),
            write: keep != Keep::Position,
            refused_early: false,
            chosen_early: false,
        };
        let outcome = t.run(action, plan, numbered, pick);
        let action_index = plan.action;
        let values = std::mem::take(&mut t.values);
        if !(kept && outcome.is_ok()) {
            journal.rollback(state, mark);
        }
        journal.clear();
        journal.set_recording(true);
        match outcome {
            Ok(_) if keep == Keep::Position => Tried::Kept,
            Ok(skipped) => Tried::Legal(Ply {
                action: action_index,
                values,
                skipped,
            }),
            Err(refused) => Tried::Refused(refused),
        }
    }
}

/// A later part's candidates for one head combination: its slots (the product of its
/// factors' counts) and, with "skipped" for an optional part, its values in all.
fn part_values(part: &Part, factors: &[Factor]) -> (u64, u64) {
    let values = factors
        .iter()
        .fold(1u64, |v, f| v.saturating_mul(f.count()));
    (values, values.saturating_add(part.optional as u64))
}

/// The elements of an independent first-part choice, worked out at plan time.
fn known(
    c: &Ctx,
    d: &Domain,
    filter: Option<&super::program::Node>,
    slot: u16,
    locals: &mut [i64],
    scratch: &mut Numbered,
) -> Factor {
    if let Domain::Cells(set) = d {
        return with_cells(set, c, locals, |s, locals| match filter {
            None => {
                let at = scratch.sets.len() as u32;
                cellset::append(&mut scratch.sets, s);
                Factor::Set {
                    at,
                    count: cellset::count(s) as u32,
                }
            }
            // The cells are walked in the set, not listed first: a set may hold more
            // cells than a list keeps inline.
            Some(f) => {
                let at = scratch.elements.len() as u32;
                for cell in cellset::members(s) {
                    locals[slot as usize] = cell as i64;
                    if eval(f, c, locals) != 0 {
                        scratch.elements.push(cell as i64);
                    }
                }
                Factor::List {
                    at,
                    count: scratch.elements.len() as u32 - at,
                }
            }
        });
    }
    let at = scratch.elements.len() as u32;
    let mut elems = Elems::new();
    domain(d, c, locals, &mut elems);
    for &e in elems.iter() {
        locals[slot as usize] = e;
        if filter.is_none_or(|f| eval(f, c, locals) != 0) {
            scratch.elements.push(e);
        }
    }
    Factor::List {
        at,
        count: scratch.elements.len() as u32 - at,
    }
}

/// An upper bound on the size of a set with this bound when it is worked out after the
/// effects of its part's earlier parts.
fn set_bound(bound: &SetBound, c: &Ctx) -> u64 {
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
fn append_mask(sets: &mut Vec<u64>, mask: u64, w: usize) -> u64 {
    sets.push(mask);
    sets.extend(std::iter::repeat_n(0, w - 1));
    u64::from(mask.count_ones())
}

/// A head listed by [`Game::pair_head`]: a piece's choice and the part's last `in`
/// choice, with what follows it.
struct Pair<'a> {
    c: Ctx<'a>,
    part: &'a Part,
    shape: PairShape,
}

impl Pair<'_> {
    /// Lists the entries of a head the compiled expressions work out.
    #[inline(never)]
    fn walked(&self, locals: &mut [i64], out: &mut Numbered) -> Option<(Head, u8, u64)> {
        let Choice::In { domain, .. } = &self.part.choices[self.shape.last as usize] else {
            return None;
        };
        let w = self.c.state.words();
        // The last choice's elements for the piece in the frame, appended to the sets
        // (as many words as the position's sets), and how many they are.
        match domain {
            Domain::Cells(targets) => self.list(locals, out, |c, locals, sets| {
                with_cells(targets, c, locals, |s, _| {
                    cellset::append(sets, s);
                    cellset::count(s) as u64
                })
            }),
            Domain::Steps { cell, dirs, target } => self.list(locals, out, |c, locals, sets| {
                append_mask(sets, steps(cell, dirs, target, c, locals), w)
            }),
            Domain::Native(_, args) => {
                let (cell, dirs) = directions_args(args)?;
                self.list(locals, out, |c, locals, sets| {
                    let cell = locals[cell];
                    let mask = if cell < 0 {
                        0
                    } else {
                        c.board.link_dirs(cell as CellId) & dirs
                    };
                    append_mask(sets, u64::from(mask), w)
                })
            }
            Domain::List(_) => None,
        }
    }

    /// Lists the entries of a head of kept sets ([`Pair::kept`]).
    #[inline(never)]
    fn kept_head(&self, head: &KeptHead, out: &mut Numbered) -> Option<(Head, u8, u64)> {
        match self.c.state.words() {
            1 => self.kept::<1>(head, out, 1),
            w => self.kept::<WORDS>(head, out, w),
        }
    }

    /// The head of the listing, once its entries are in `out` from `at` on: what follows
    /// the last choice, if anything, is left to the draw ([`Head::Listed::untested`]).
    fn listed(&self, at: usize, out: &Numbered, total: u64) -> Option<(Head, u8, u64)> {
        let len = (out.entries.len() - at) as u32;
        Some((
            Head::Listed {
                at: at as u32,
                len,
                tail: false,
                untested: self.shape.tested,
            },
            1,
            total,
        ))
    }

    /// Lists one entry per piece, standing for the elements that `second` appends to
    /// the sets (and counts).
    fn list(
        &self,
        locals: &mut [i64],
        out: &mut Numbered,
        mut second: impl FnMut(&Ctx, &mut [i64], &mut Vec<u64>) -> u64,
    ) -> Option<(Head, u8, u64)> {
        let Choice::In {
            slot,
            domain: Domain::Cells(pieces),
            ..
        } = &self.part.choices[self.shape.first as usize]
        else {
            return None;
        };
        let mark = out.mark();
        let at = mark.0;
        let mut words = [0u64; WORDS];
        let n = cells_into(pieces, &self.c, locals, &mut words);
        let mut total = 0u64;
        for e in cellset::members(&words[..n]) {
            locals[*slot as usize] = e as i64;
            let leaf = out.sets.len();
            let count = second(&self.c, locals, &mut out.sets);
            if count == 0 {
                out.sets.truncate(leaf);
                continue;
            }
            if !out.piece(e, leaf, count, &mut total, mark) {
                return None;
            }
        }
        self.listed(at, out, total)
    }

    /// [`Game::pair_head`] for a head of kept sets ([`KeptHead`]): the pieces and each
    /// one's elements read from the position's words and the board's links, on a board of
    /// `w` words worked out in arrays of `W` (a register, for boards of up to 64 cells).
    #[inline(always)]
    fn kept<const W: usize>(
        &self,
        head: &KeptHead,
        out: &mut Numbered,
        w: usize,
    ) -> Option<(Head, u8, u64)> {
        let c = &self.c;
        let (mut pieces, mut target) = ([0u64; W], [0u64; W]);
        if W == 1 {
            pieces[0] = head.pieces.word(c.board, c.state, c.me);
            target[0] = head.target.word(c.board, c.state, c.me);
        } else {
            head.pieces
                .words_into(c.board, c.state, c.me, &mut pieces[..w]);
            head.target
                .words_into(c.board, c.state, c.me, &mut target[..w]);
        }
        let board = c.board;
        let mark = out.mark();
        let at = mark.0;
        let mut total = 0u64;
        for e in cellset::members(&pieces[..w]) {
            let mut leaf = [0u64; W];
            let count = match head.reach {
                Reach::Steps(dirs) => {
                    let mut left = dirs & board.link_dirs(e as CellId);
                    let mut n = 0;
                    while left != 0 {
                        let d = left.trailing_zeros() as usize;
                        left &= left - 1;
                        // (On one word the target's bit is added in, not branched on:
                        // which way it goes is the position's, and a processor guesses it
                        // wrong half the time. A link in `left` always leads somewhere.)
                        let bit = board.step(e as CellId, d).map_or(0, |to| {
                            let to = to as usize;
                            if W == 1 {
                                (target[0] >> (to % 64)) & 1
                            } else {
                                u64::from(cellset::contains(&target[..w], to))
                            }
                        });
                        leaf[0] |= bit << d;
                        n += bit;
                    }
                    n
                }
                Reach::Links(dirs) => {
                    leaf[0] = u64::from(dirs & board.link_dirs(e as CellId));
                    u64::from(leaf[0].count_ones())
                }
                Reach::Neighbours(table) => {
                    let near = board.neighbours(table, e as CellId);
                    let mut n = 0;
                    for i in 0..w {
                        leaf[i] = near[i] & target[i];
                        n += u64::from(leaf[i].count_ones());
                    }
                    n
                }
            };
            if count == 0 {
                continue;
            }
            let leaf_at = out.sets.len();
            out.sets.extend_from_slice(&leaf[..w]);
            if !out.piece(e, leaf_at, count, &mut total, mark) {
                return None;
            }
        }
        self.listed(at, out, total)
    }
}

/// The walk that lists a head's combinations: the first part's choices (but the settled
/// ones, worked out already), and for a head of two parts, the second part's in the
/// position each combination of the first leaves. The choices run as chains (see
/// `engine::chain`); the position and the names are the [`Env`]'s.
struct Lister<'a, 'g, T> {
    journal: &'a mut Journal,
    action: &'g Action,
    /// How many parts the head has.
    depth: usize,
    skipped: u8,
    out: &'a mut Numbered,
    total: u64,
    /// The slots of the part after the head for each combination: a [`Tail`], or
    /// [`NoTail`] (a listing of its own, so that one pays nothing for the other).
    tail: T,
}

/// What the part after a listed head needs for each combination the head lists.
trait TailSlots: Copy {
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
struct NoTail;

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
struct Tail<'g> {
    /// The conditions, worked out where the listing stands.
    fixed: &'g super::program::SetExpr,
    /// What the head's last part's effect (not played by the listing) can add.
    gained: u32,
    /// At most this many cells whatever the conditions (the set's terms of a size of their
    /// own).
    cap: Option<u32>,
    /// Which names the set leaves out that the head has chosen where the listing stands.
    shape: TailShape,
}

impl<'g> Tail<'g> {
    /// The tail of `action` after a head of `depth` parts, if it has that shape
    /// ([`HeadShape::tails`](super::shape::HeadShape::tails)).
    fn of(action: &'g Action, depth: usize) -> Option<Tail<'g>> {
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
    fn of_conditions(
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
    fn list(
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
    fn part(&mut self, env: &mut Env, p: usize) -> bool {
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
    fn chosen(&mut self, env: &mut Env, p: usize, leaf: Option<&[u64]>) -> bool {
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
    /// piece there, [`Part::moves_onto_last`](super::program::Part::moves_onto_last)),
    /// in the order the chain would have walked them: the move is played to the first
    /// cell, then carried on from each cell to the next
    /// ([`Journal::retarget`](super::state::Journal::retarget)), and taken back once.
    /// Not inlined: called once for all the cells, it would weigh on the code that every
    /// listed combination runs.
    #[inline(never)]
    fn carried_moves(&mut self, env: &mut Env, p: usize, cells: &[u64]) -> bool {
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
    fn overlaid_moves(&mut self, env: &mut Env, overlay: &Overlay, cells: &[u64]) -> bool {
        // Sets of one or two words (boards of up to 64 or 128 cells) are copied as such.
        match cells.len() {
            1 => self.overlaid_moves_in::<1>(env, overlay, cells),
            2 => self.overlaid_moves_in::<2>(env, overlay, cells),
            _ => self.overlaid_moves_in::<WORDS>(env, overlay, cells),
        }
    }

    /// [`Lister::overlaid_moves`] with sets of `W` words (at least the board's).
    #[inline(never)]
    fn overlaid_moves_in<const W: usize>(
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
    fn check_overlaid(&mut self, env: &mut Env, overlaid: Option<(&[u64], u32)>) {
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
    fn entry(&mut self, env: &Env, leaf: Option<(u32, u64)>, tail: u32) -> bool {
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
    fn record(&mut self, values: usize, leaf: Option<(u32, u64)>, tail: u32) -> bool {
        let (at, count) = leaf.unwrap_or((u32::MAX, 1));
        let fits = self.out.entry(self.total, values, self.skipped, at, tail);
        self.total += count * u64::from(tail);
        fits
    }
}

/// One candidate being played out.
struct Trial<'a, 's> {
    game: &'a Game,
    state: &'s mut State,
    journal: &'s mut Journal,
    me: u8,
    locals: &'s mut [i64],
    /// The ply's values, when `write`.
    values: SmallVec<[i64; 6]>,
    write: bool,
    /// Set (in debug builds, which then play the candidate all the same) when the second
    /// part refused the candidate before the head was played ([`Precheck`]).
    refused_early: bool,
    /// Set when the second part's choices were made before the head was played: only
    /// its effect and check are left.
    chosen_early: bool,
}

/// The second part of a candidate, to be tried before the head's move is played (see
/// [`Precheck`]): its action's precheck, the part, its factors and its slots' value.
#[derive(Clone, Copy)]
struct Second<'p> {
    precheck: &'p Precheck,
    part: &'p Part,
    factors: &'p [Factor],
    value: u64,
}

impl<'p> Second<'p> {
    /// The second part of candidate `pick` (what is left of its number once the head's
    /// combination is taken out) of `plan`, when its action has a precheck, its head is
    /// the first part alone and the candidate does not skip the second part.
    #[inline(always)]
    fn of(action: &'p Action, plan: &Plan, s: &'p Numbered, pick: u64) -> Option<Second<'p>> {
        let precheck = action.precheck.as_ref()?;
        Second::with(precheck, action, plan, s, pick)
    }

    /// [`Second::of`] for an action with a precheck (apart, so that the others' draws
    /// pay one test).
    #[inline(never)]
    fn with(
        precheck: &'p Precheck,
        action: &'p Action,
        plan: &Plan,
        s: &'p Numbered,
        pick: u64,
    ) -> Option<Second<'p>> {
        if plan.parts != 1 {
            return None;
        }
        let part = &action.parts[1];
        let factors = &s.factors[plan.tail as usize..][..part.ins.len()];
        let (values, all) = part_values(part, factors);
        if all == 0 {
            return None;
        }
        let value = pick % all;
        (!(part.optional && value == values)).then_some(Second {
            precheck,
            part,
            factors,
            value,
        })
    }
}

impl Trial<'_, '_> {
    /// Plays candidate `pick` of `plan`; the parts it skipped, or why it is no ply.
    fn run(
        &mut self,
        action: &Action,
        plan: &Plan,
        s: &Numbered,
        pick: u64,
    ) -> Result<u8, Refused> {
        let outcome = self.played(action, plan, s, pick);
        debug_assert!(
            !self.refused_early || outcome.is_err(),
            "a candidate of `{}` refused before its head was played is a ply",
            action.name
        );
        outcome
    }

    /// [`Trial::run`], but for the debug builds' check of candidates refused early.
    #[inline(always)]
    fn played(
        &mut self,
        action: &Action,
        plan: &Plan,
        s: &Numbered,
        pick: u64,
    ) -> Result<u8, Refused> {
        // (A division is slow: an action with no part after its head never needs one.)
        let (head, mut pick) = if pick < plan.head_count {
            (pick, 0)
        } else {
            (pick % plan.head_count, pick / plan.head_count)
        };
        let second = match plan.head {
            Head::Listed { tail: true, .. } | Head::Plies { .. } => None,
            _ => Second::of(action, plan, s, pick),
        };
        let mut skipped = 0u8;
        match plan.head {
            Head::Product { at, len } => {
                let parts = action.part(0);
                let part = parts.0;
                if part.optional && head == plan.head_count - 1 {
                    part.clear_slots(self.locals);
                    skipped |= 1;
                } else {
                    let factors = &s.factors[at as usize..(at + len) as usize];
                    let settled = action.shape.settled;
                    match second {
                        None => self.part(parts, factors, s, head, settled)?,
                        Some(second) => self.part_then(parts, factors, s, head, settled, second)?,
                    }
                }
            }
            Head::Plies { at, .. } => {
                return self.replay(action, &s.plies[(at as u64 + head) as usize]);
            }
            Head::Listed {
                at,
                len,
                tail,
                untested,
            } => {
                let entries = &s.entries[at as usize..(at + len) as usize];
                let e = entries.partition_point(|e| e.before <= head) - 1;
                let entry = entries[e];
                skipped = entry.skipped;
                let k = head - entry.before;
                if tail {
                    return self
                        .listed_with_tail(action, plan, s, entry, k)
                        .map(|()| skipped);
                }
                self.listed(action, plan, s, entry, k, (untested, second))?
            }
        }
        let mut factors = &s.factors[plan.tail as usize..];
        for (p, part) in action.parts.iter().enumerate().skip(plan.parts as usize) {
            let (mine, rest) = factors.split_at(part.ins.len());
            factors = rest;
            let (values, all) = part_values(part, mine);
            let value = pick % all;
            pick /= all;
            if part.optional && value == values {
                part.clear_slots(self.locals);
                skipped |= 1 << p;
                continue;
            }
            if std::mem::take(&mut self.chosen_early) {
                self.chosen((part, &action.compiled[p]), mine, s, value)?;
                continue;
            }
            self.part((part, &action.compiled[p]), mine, s, value, 0)?;
        }
        Ok(skipped)
    }

    /// Makes a part's choices from the candidate's number `value` (one element of each
    /// factor), then plays its effect and check.
    fn part(
        &mut self,
        part: (&Part, &PartCode),
        factors: &[Factor],
        s: &Numbered,
        value: u64,
        settled: u64,
    ) -> Result<(), Refused> {
        self.part_with(part, factors, s, value, settled, None)
    }

    /// Plays a part whose choices were made before the head was played ([`Verdict::Chosen`]):
    /// its effect and check. Debug builds make the choices again, where the head left the
    /// position, and stop if they differ.
    fn chosen(
        &mut self,
        (part, code): (&Part, &PartCode),
        factors: &[Factor],
        s: &Numbered,
        value: u64,
    ) -> Result<(), Refused> {
        if cfg!(debug_assertions) {
            let early: SmallVec<[i64; 4]> =
                part.ins.iter().map(|&i| self.locals[i as usize]).collect();
            let played = self.part((part, code), factors, s, value, 0);
            let again: SmallVec<[i64; 4]> =
                part.ins.iter().map(|&i| self.locals[i as usize]).collect();
            assert!(
                played.is_ok() && early == again || played.is_err() && part.check.is_some(),
                "choices made before the head was played ({early:?}) differ from those made after"
            );
            return played;
        }
        if self.write {
            for &i in part.ins.iter() {
                self.values.push(self.locals[i as usize]);
            }
        }
        self.effect_and_check(code, None)
    }

    /// [`Trial::part`] for a head whose `second` part is tried before it is played.
    #[inline(never)]
    fn part_then(
        &mut self,
        part: (&Part, &PartCode),
        factors: &[Factor],
        s: &Numbered,
        value: u64,
        settled: u64,
        second: Second,
    ) -> Result<(), Refused> {
        self.part_with(part, factors, s, value, settled, Some(second))
    }

    /// [`Trial::part`], trying the `second` part, if any, before the effect.
    #[inline(always)]
    fn part_with(
        &mut self,
        (part, code): (&Part, &PartCode),
        factors: &[Factor],
        s: &Numbered,
        mut value: u64,
        settled: u64,
        second: Option<Second>,
    ) -> Result<(), Refused> {
        let mut factors = factors.iter();
        for (i, choice) in part.choices.iter().enumerate() {
            if i < 64 && settled & (1 << i) != 0 {
                continue;
            }
            match choice {
                Choice::In {
                    slot,
                    domain: d,
                    filter,
                    ..
                } => {
                    let factor = *factors.next().ok_or(Refused::TooMany)?;
                    let k = digit(&mut value, factor.count(), factors.len() == 0) as usize;
                    let e = match factor {
                        Factor::Set { at, .. } => {
                            let w = self.state.words();
                            let set = &s.sets[at as usize..at as usize + w];
                            cellset::nth(set, k).expect("within the count") as i64
                        }
                        Factor::List { at, .. } => s.elements[at as usize + k],
                        Factor::Slots(n) => self.nth(d, k, n)?,
                    };
                    self.locals[*slot as usize] = e;
                    if matches!(factor, Factor::Slots(_))
                        && let Some(f) = filter
                    {
                        self.holds(f)?;
                    }
                    if self.write {
                        self.values.push(e);
                    }
                }
                Choice::Let(slot, node) => {
                    let c = Ctx {
                        board: &self.game.board,
                        state: self.state,
                        me: self.me,
                    };
                    self.locals[*slot as usize] = eval(node, &c, self.locals);
                }
                Choice::Where(node) => self.holds(node)?,
            }
        }
        self.effect_and_check(code, second)
    }

    /// Refuses the candidate unless `node` holds where the trial stands (a filter, a
    /// `where`).
    #[inline(always)]
    fn holds(&mut self, node: &Node) -> Result<(), Refused> {
        let c = Ctx {
            board: &self.game.board,
            state: self.state,
            me: self.me,
        };
        if eval(node, &c, self.locals) == 0 {
            return Err(Refused::Rejected);
        }
        Ok(())
    }

    /// The element in slot `k` of a collection given `n` slots.
    fn nth(&mut self, d: &Domain, k: usize, n: u32) -> Result<i64, Refused> {
        let c = Ctx {
            board: &self.game.board,
            state: self.state,
            me: self.me,
        };
        match d {
            Domain::Cells(set) => with_cells(set, &c, self.locals, |s, _| {
                let count = cellset::count(s);
                if count > n as usize {
                    debug_assert!(false, "{count} cells outgrew {n} slots");
                    return Err(Refused::TooMany);
                }
                cellset::nth(s, k)
                    .map(|e| e as i64)
                    .ok_or(Refused::Rejected)
            }),
            _ => {
                let mut elems = Elems::new();
                domain(d, &c, self.locals, &mut elems);
                if elems.len() > n as usize {
                    debug_assert!(false, "{} elements outgrew {n} slots", elems.len());
                    return Err(Refused::TooMany);
                }
                elems.get(k).copied().ok_or(Refused::Rejected)
            }
        }
    }

    /// Plays candidate `k` of a listed combination whose head has a tail: the head's
    /// combination `k / slots`, then slot `k % slots` of the tail. Kept out of
    /// [`Trial::run`], whose other heads are most draws, so that it stays as it was.
    #[inline(never)]
    fn listed_with_tail(
        &mut self,
        action: &Action,
        plan: &Plan,
        s: &Numbered,
        entry: Entry,
        k: u64,
    ) -> Result<(), Refused> {
        let slots = u64::from(entry.tail);
        self.listed(action, plan, s, entry, k / slots, (false, None))?;
        let part = action.part(plan.parts as usize);
        self.part(part, &[Factor::Slots(entry.tail)], s, k % slots, 0)
    }

    /// Makes the head's choices from a listed combination: its `in` values in order, then
    /// the last `in` choice's `k`-th cell when the entry counts a set; plays each part
    /// (trying the `second` part before the first is played, if any).
    #[inline(always)]
    fn listed(
        &mut self,
        action: &Action,
        plan: &Plan,
        s: &Numbered,
        entry: Entry,
        k: u64,
        (untested, second): (bool, Option<Second>),
    ) -> Result<(), Refused> {
        let start = entry.values as usize;
        let mut values = s.values[start..start + entry.len as usize].iter();
        for (p, part) in action.parts.iter().enumerate().take(plan.parts as usize) {
            if entry.skipped & (1 << p) != 0 {
                part.clear_slots(self.locals);
                continue;
            }
            for (i, choice) in part.choices.iter().enumerate() {
                match choice {
                    Choice::In { slot, .. } => {
                        let e = match values.next() {
                            Some(&e) => e,
                            None => {
                                let w = self.state.words();
                                let at = entry.leaf as usize;
                                let set = &s.sets[at..at + w];
                                cellset::nth(set, k as usize).expect("within the count") as i64
                            }
                        };
                        self.locals[*slot as usize] = e;
                        if self.write {
                            self.values.push(e);
                        }
                    }
                    Choice::Let(_, _)
                        if !untested
                            && p < 2
                            && i < 64
                            && action.shape.unread_lets[p] & (1 << i) != 0 => {}
                    Choice::Let(slot, node) => {
                        let c = Ctx {
                            board: &self.game.board,
                            state: self.state,
                            me: self.me,
                        };
                        self.locals[*slot as usize] = eval(node, &c, self.locals);
                    }
                    // Left by the listing to the draw.
                    Choice::Where(node) if untested && p == 0 => self.holds(node)?,
                    // The listing tested it for this combination already.
                    Choice::Where(_) => {}
                }
            }
            self.effect_and_check(&action.compiled[p], second.filter(|_| p == 0))?;
        }
        Ok(())
    }

    /// Plays a ply that was listed whole (its parts, and the last one as many times as it
    /// has values); the parts it skipped.
    fn replay(&mut self, action: &Action, ply: &Ply) -> Result<u8, Refused> {
        let mut values = ply.values.iter();
        for (p, part) in action.parts.iter().enumerate() {
            if ply.skipped & (1 << p) != 0 || part.repeat != Repeat::Once {
                part.clear_slots(self.locals);
            }
            if ply.skipped & (1 << p) != 0 {
                continue;
            }
            while part.repeat == Repeat::Once || values.len() > 0 {
                for choice in &part.choices {
                    match choice {
                        Choice::In { slot, .. } => {
                            let e = values.next().copied().unwrap_or(super::state::NONE);
                            self.locals[*slot as usize] = e;
                            if self.write {
                                self.values.push(e);
                            }
                        }
                        Choice::Let(slot, node) => {
                            let c = Ctx {
                                board: &self.game.board,
                                state: self.state,
                                me: self.me,
                            };
                            self.locals[*slot as usize] = eval(node, &c, self.locals);
                        }
                        Choice::Where(_) => {}
                    }
                }
                self.effect_and_check(&action.compiled[p], None)?;
                if part.repeat == Repeat::Once {
                    break;
                }
            }
        }
        Ok(ply.skipped)
    }

    /// What the `second` part makes of the candidate before the head is played (see
    /// [`Precheck::verdict`]). Not inlined: only the actions with a precheck call it.
    #[inline(never)]
    fn tried_before(&mut self, second: Second) -> Verdict {
        let c = Ctx {
            board: &self.game.board,
            state: self.state,
            me: self.me,
        };
        let slots = |i: usize| second.factors[i].count();
        second
            .precheck
            .verdict(&c, self.locals, second.part, second.value, slots)
    }

    /// Plays the part's effect, then its check; `Err` when the check fails, or when the
    /// `second` part, tried first, refuses the candidate (release builds play nothing
    /// then; debug builds note it and play on, for [`Trial::run`] to check).
    fn effect_and_check(&mut self, part: &PartCode, second: Option<Second>) -> Result<(), Refused> {
        if let Some(second) = second {
            match self.tried_before(second) {
                Verdict::Refused if !cfg!(debug_assertions) => return Err(Refused::Rejected),
                Verdict::Refused => self.refused_early = true,
                Verdict::Chosen => self.chosen_early = true,
                Verdict::Unknown => {}
            }
        }
        let mut m = Mut {
            board: &self.game.board,
            state: self.state,
            journal: self.journal,
            me: self.me,
        };
        if part.play_and_check(&mut m, self.locals) {
            Ok(())
        } else {
            Err(Refused::Rejected)
        }
    }
}
