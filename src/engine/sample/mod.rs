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

use crate::engine::action::Action;
use crate::engine::cellset;
use crate::engine::chain::Env;
use crate::engine::eval::{domain, eval, with_cells};
use crate::engine::game::{Game, Ply};
use crate::engine::natives::{Ctx, Elems};
use crate::engine::overlay::Moving;
use crate::engine::program::{Choice, Domain, FRAME_INLINE, Most, Part, frame, frame_len};
use crate::engine::shape::PairShape;
use crate::engine::state::{Journal, State};

mod list;
mod numbered;
mod pair;
mod trial;

use list::*;
pub(crate) use numbered::Keep;
use numbered::*;
use pair::*;
use trial::*;

/// Above this many candidates a draw is almost never legal: list the plies instead.
const MOST_CANDIDATES: u64 = 1 << 40;

/// At most this many candidates are drawn (with replacement) before a draw goes through
/// them in a random order or lists the plies: a quarter of them, at least 8.
pub(crate) const MOST_DRAWS: u64 = 512;

/// At most this many candidates are gone through in a random order when draws keep
/// being refused (the order is a list of their numbers); past that, the plies are listed.
const MOST_SHUFFLED: u64 = 1 << 16;

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

/// The buffers of a draw, kept per thread so that drawing allocates nothing once warm.
struct Scratch {
    numbered: Numbered,
    journal: Journal,
    /// The candidates' numbers in the order a draw goes through them (see `draw`).
    order: Vec<u32>,
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

/// Whether a draw numbers action `index` by its plies, listed (every candidate of them
/// legal), rather than by candidates: an action whose last part repeats always is, and
/// so is one that `listed` marks.
pub(crate) fn lists_plies(action: &Action, listed: &[bool], index: usize) -> bool {
    action.shape.repeats || listed.get(index) == Some(&true)
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
            if lists_plies(action, listed, index) {
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
            let c = self.ctx(state, me);
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
            let c = self.ctx(state, me);
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
            let c = self.ctx(state, me);
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
        let c = self.ctx(state, me);
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
            c: self.ctx(state, state.to_move),
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
        let c = self.ctx(state, state.to_move);
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
                Most::Tracks => self.board.tracks.len() as u64,
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
