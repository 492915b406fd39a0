//! Random plies without listing every legal ply: what random playouts need.
//!
//! A playout wants one ply drawn uniformly from the legal ones, and listing them all costs
//! as much as trying every candidate. Instead, every action that may be played now gets a
//! numbered set of *candidates*, such that every legal ply is exactly one candidate:
//!
//! - The first part's choices are numbered exactly. Where every `in` choice of the part
//!   reads no earlier one (a checker and an empty cell), each has its elements worked out
//!   once (a set of cells, or a short list where a filter is left after the set pass) and
//!   a candidate is one element of each. Where a choice depends on an earlier one (a step
//!   from a piece to a neighbour), the combinations are listed, and when the last `in`
//!   choice is a set of cells with nothing left to test per element, a combination of the
//!   others stands for as many candidates as that set has cells (a popcount): nothing is
//!   padded and nothing is rejected for the first part's filters.
//! - Each `in` choice of a later part (which sees the position the earlier parts' effects
//!   left) gets a fixed number of slots, at least as many as its collection can hold
//!   whatever those effects did: for a set of cells, the size of its conditions on the
//!   position now plus the most cells the earlier effects can change, else the most the
//!   collection can hold on this board. An optional part has one more value, "skipped".
//!
//! A candidate is drawn uniformly, played out (slots past the end of a collection,
//! filters, `where`s, effects, checks) and kept if it is a legal ply, so an accepted draw
//! is uniform over the legal plies. After a bounded number of rejections every legal ply
//! is listed and one drawn from the list, which is uniform too (and finds the fallback
//! actions when nothing else is legal): the result is exactly uniform either way, only the
//! cost depends on luck. The buffers a draw needs are kept per thread and reused, so
//! drawing allocates nothing once warm.

use std::cell::RefCell;

use rand::{Rng, RngExt};
use smallvec::SmallVec;

use super::cellset::{self, WORDS};
use super::eval::{cells_into, domain, eval, exec, with_cells};
use super::game::{Game, Ply};
use super::natives::{Ctx, Elems, Mut};
use super::program::{Action, Choice, Domain, Frame, Most, Part, SetBound, frame};
use super::state::{Journal, State};

/// At most this many first-part combinations are listed; past that the first part gets
/// slots like the later parts.
const MOST_ENTRIES: usize = 1024;

/// Above this many candidates a draw is almost never legal: list the plies instead.
const MOST_CANDIDATES: u64 = 1 << 40;

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

/// How the first part's candidates are numbered.
#[derive(Clone, Copy)]
enum First {
    /// One factor per `in` choice, in [`Numbered::factors`] from `at`; a candidate is one
    /// element of each (mixed radix, first choice fastest).
    Product { at: u32, len: u32 },
    /// Listed combinations, [`Numbered::entries`] `at..at + len`.
    Listed { at: u32, len: u32 },
}

/// One listed combination of the first part's choices.
#[derive(Clone, Copy)]
struct Entry {
    /// Candidates before this entry within its plan.
    before: u64,
    /// Where its `in` values start in [`Numbered::values`].
    values: u32,
    /// Where the last `in` choice's cells start in [`Numbered::sets`], if the entry stands
    /// for one candidate per cell of that set; `u32::MAX` when the entry is one candidate.
    leaf: u32,
}

/// The candidates of one action.
struct Plan {
    action: u16,
    first: First,
    first_count: u64,
    /// Where this plan's later parts' factors start in [`Numbered::factors`] (one per `in`
    /// choice of each later part, in order).
    later: u32,
    /// Where the names the first part works out once start in [`Numbered::frames`].
    frame: u32,
    /// The first part's `let` and `where` choices (bit per index) worked out at plan time.
    settled: u64,
    size: u64,
}

/// The buffers of a draw, kept per thread so that drawing allocates nothing once warm.
struct Scratch {
    numbered: Numbered,
    journal: Journal,
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
        },
        journal: Journal::recording(),
    });
}

/// What trying one candidate gave.
enum Tried {
    Legal(Ply),
    Rejected,
    /// A collection held more elements than its slots: only the listing is exact here.
    TooMany,
}

/// A drawn ply: still to be played, or (a kept candidate) already played but for what
/// follows a ply (ends, turns).
enum Drawn {
    Played(Ply),
    Listed(Ply),
}

impl Game {
    /// A legal ply drawn uniformly at random, or `None` when there is none (or the game is
    /// over). Draws candidates before listing every ply, so it is much faster than
    /// [`Game::legal_plies`] where a fair share of the candidates is legal. Candidates are
    /// tried on `state` itself and taken back: it ends as it was, and nothing is copied.
    pub fn random_ply<R: Rng + ?Sized>(&self, state: &mut State, rng: &mut R) -> Option<Ply> {
        self.draw(state, rng, false).map(|drawn| match drawn {
            Drawn::Played(ply) | Drawn::Listed(ply) => ply,
        })
    }

    /// Draws a ply as [`Game::random_ply`] does and plays it: the same ply, with the same
    /// chance, as `random_ply` followed by [`Game::play`], but a drawn candidate that is
    /// legal is kept as it was tried instead of being taken back and played again.
    /// Random playouts (`rulebook bench`, MCTS) play this way.
    pub fn play_random<R: Rng + ?Sized>(&self, state: &mut State, rng: &mut R) -> Option<Ply> {
        let me = state.to_move;
        match self.draw(state, rng, true)? {
            Drawn::Played(ply) => {
                self.finish_ply(state, me);
                Some(ply)
            }
            Drawn::Listed(ply) => {
                self.play(state, &ply);
                Some(ply)
            }
        }
    }

    /// A uniformly random legal ply: a drawn candidate (left played on `state` when
    /// `keep`), or one from the full listing.
    fn draw<R: Rng + ?Sized>(&self, state: &mut State, rng: &mut R, keep: bool) -> Option<Drawn> {
        if state.outcome.is_some() {
            return None;
        }
        let drawn = SCRATCH.with_borrow_mut(|scratch| {
            self.plan(state, &mut scratch.numbered);
            let total = scratch
                .numbered
                .plans
                .iter()
                .fold(0u64, |sum, p| sum.saturating_add(p.size));
            if total == 0 || total >= MOST_CANDIDATES {
                return None;
            }
            // A quarter of the candidates, within bounds: where most draws fail, listing
            // soon costs less than drawing on.
            for _ in 0..(total / 4).clamp(8, 512) {
                let mut pick = rng.random_range(0..total);
                let which = scratch.numbered.plans.iter().position(|p| {
                    let here = pick < p.size;
                    if !here {
                        pick -= p.size;
                    }
                    here
                })?;
                match self.try_candidate(state, scratch, which, pick, keep) {
                    Tried::Legal(ply) => return Some(ply),
                    Tried::Rejected => {}
                    Tried::TooMany => return None,
                }
            }
            None
        });
        if let Some(ply) = drawn {
            return Some(Drawn::Played(ply));
        }
        // Usually a few plies (a forced pass): kept inline.
        let mut legal: SmallVec<[Ply; 8]> = SmallVec::new();
        self.walk(state, &mut legal);
        if legal.is_empty() {
            return None;
        }
        let i = rng.random_range(0..legal.len() as u64) as usize;
        Some(Drawn::Listed(legal.swap_remove(i)))
    }

    /// Numbers the candidates of every action that may be played now (fallback actions
    /// aside) into `scratch`.
    fn plan(&self, state: &State, scratch: &mut Numbered) {
        scratch.plans.clear();
        scratch.factors.clear();
        scratch.entries.clear();
        scratch.values.clear();
        scratch.sets.clear();
        scratch.elements.clear();
        scratch.frames.clear();
        let phase = self.current_phase(state);
        let c = Ctx {
            game: self,
            state,
            me: state.to_move,
        };
        for (index, action) in self.actions.iter().enumerate() {
            if action.fallback || (action.phase.is_some() && action.phase != phase) {
                continue;
            }
            let mut locals = frame(action.frame);
            let part = &action.parts[0];
            // The first part's `let`s and `where`s that read no chosen name: once, here.
            let mut settled = 0u64;
            let mut possible = true;
            for (i, choice) in part.choices.iter().enumerate().take(64) {
                if action.fixed & (1 << i) == 0 {
                    continue;
                }
                match choice {
                    Choice::Let(slot, node) => {
                        locals[*slot as usize] = eval(node, &c, &mut locals);
                        settled |= 1 << i;
                    }
                    Choice::Where(node) => {
                        possible &= eval(node, &c, &mut locals) != 0;
                        settled |= 1 << i;
                    }
                    Choice::In { .. } => {}
                }
                if !possible {
                    break;
                }
            }
            if !possible {
                continue;
            }
            let (first, first_count) = self.first_part(&c, action, &mut locals, scratch);
            if first_count == 0 {
                continue;
            }
            let later = scratch.factors.len() as u32;
            let mut size = first_count;
            let mut edits = Some(0u32);
            for (p, part) in action.parts.iter().enumerate().skip(1) {
                edits = edits.zip(action.parts[p - 1].edits).map(|(a, b)| a + b);
                let mut values = 1u64;
                for choice in &part.choices {
                    if let Choice::In { .. } = choice {
                        let n = self.slots(&c, choice, edits);
                        values = values.saturating_mul(n);
                        scratch.factors.push(Factor::Slots(n as u32));
                    }
                }
                size = size.saturating_mul(values.saturating_add(part.optional as u64));
            }
            let frame_at = scratch.frames.len() as u32;
            scratch.frames.extend_from_slice(&locals);
            scratch.plans.push(Plan {
                action: index as u16,
                first,
                first_count,
                later,
                frame: frame_at,
                settled,
                size,
            });
        }
    }

    /// Numbers the first part's candidates: a product of independent choices, or a list
    /// of combinations (see the module's documentation); returns how and how many.
    fn first_part(
        &self,
        c: &Ctx,
        action: &Action,
        locals: &mut Frame,
        scratch: &mut Numbered,
    ) -> (First, u64) {
        let part = &action.parts[0];
        let independent = part.choices.iter().all(|ch| match ch {
            Choice::In { invariant, .. } => *invariant,
            _ => true,
        });
        let optional = part.optional as u64;
        if independent {
            let at = scratch.factors.len();
            let mut count = 1u64;
            for choice in &part.choices {
                if let Choice::In {
                    slot,
                    domain: d,
                    filter,
                    ..
                } = choice
                {
                    let factor = known(c, d, filter.as_ref(), *slot, locals, scratch);
                    count = count.saturating_mul(factor.count());
                    scratch.factors.push(factor);
                }
            }
            let len = (scratch.factors.len() - at) as u32;
            let first = First::Product { at: at as u32, len };
            return (first, count.saturating_add(optional));
        }
        let at = scratch.entries.len();
        let last = part
            .choices
            .iter()
            .rposition(|ch| matches!(ch, Choice::In { .. }))
            .expect("a dependent choice");
        // The last `in` choice is counted, not walked, when it is a set with nothing left
        // to test and nothing after it in the part.
        let counted = last + 1 == part.choices.len()
            && matches!(
                &part.choices[last],
                Choice::In {
                    domain: Domain::Cells(_),
                    filter: None,
                    ..
                }
            );
        let mut lister = Lister {
            c,
            choices: &part.choices,
            counted,
            locals,
            chosen: SmallVec::new(),
            scratch,
            total: 0,
        };
        if lister.list(0) {
            let len = (lister.scratch.entries.len() - at) as u32;
            let total = lister.total;
            return (
                First::Listed { at: at as u32, len },
                total.saturating_add(optional),
            );
        }
        // Too many combinations: slots, as for the later parts.
        lister.scratch.entries.truncate(at);
        let at = scratch.factors.len();
        let mut count = 1u64;
        for choice in &part.choices {
            if let Choice::In { .. } = choice {
                let n = self.slots(c, choice, Some(0));
                count = count.saturating_mul(n);
                scratch.factors.push(Factor::Slots(n as u32));
            }
        }
        let len = (scratch.factors.len() - at) as u32;
        (
            First::Product { at: at as u32, len },
            count.saturating_add(optional),
        )
    }

    /// How many slots an `in` choice over `d` gets in a part that the earlier parts'
    /// effects reach after changing at most `edits` cells (`None`: any number).
    fn slots(&self, c: &Ctx, choice: &Choice, edits: Option<u32>) -> u64 {
        let cells = self.board.len() as u64;
        let Choice::In {
            domain: d, bound, ..
        } = choice
        else {
            return 1;
        };
        match d {
            Domain::Cells(_) => set_bound(bound, c, edits).min(cells),
            Domain::List(items) => items.len() as u64,
            Domain::Native(native, _) => match native.most {
                Most::Cells => cells,
                Most::Players => self.players.len() as u64,
                Most::Links => self.board.most_links() as u64,
                Most::Side => self.board.files.max(self.board.ranks) as u64,
            },
        }
    }

    /// Tries candidate number `pick` of plan `which` on `state`, which it leaves as it was
    /// (or, with `keep`, as the candidate left it if it is a legal ply).
    fn try_candidate(
        &self,
        state: &mut State,
        scratch: &mut Scratch,
        which: usize,
        pick: u64,
        keep: bool,
    ) -> Tried {
        let Scratch { numbered, journal } = scratch;
        let plan = &numbered.plans[which];
        let action = &self.actions[plan.action as usize];
        let mut locals = Frame::from_slice(
            &numbered.frames[plan.frame as usize..plan.frame as usize + action.frame],
        );
        let mark = journal.mark();
        let me = state.to_move;
        let mut t = Trial {
            game: self,
            state,
            journal,
            me,
            locals: &mut locals,
            values: SmallVec::new(),
        };
        let outcome = t.run(action, plan, numbered, pick);
        let action_index = plan.action;
        let values = std::mem::take(&mut t.values);
        if !(keep && outcome.is_ok()) {
            journal.rollback(state, mark);
        }
        journal.clear();
        match outcome {
            Ok(skipped) => Tried::Legal(Ply {
                action: action_index,
                values,
                skipped,
            }),
            Err(tried) => tried,
        }
    }
}

/// The elements of an independent first-part choice, worked out at plan time.
fn known(
    c: &Ctx,
    d: &Domain,
    filter: Option<&super::program::Node>,
    slot: u16,
    locals: &mut Frame,
    scratch: &mut Numbered,
) -> Factor {
    if let (Domain::Cells(set), None) = (d, filter) {
        let at = scratch.sets.len() as u32;
        let count = with_cells(set, c, locals, |s, _| {
            scratch.sets.extend_from_slice(s);
            cellset::count(s)
        });
        return Factor::Set {
            at,
            count: count as u32,
        };
    }
    let at = scratch.elements.len() as u32;
    let mut elems = Elems::new();
    domain(d, c, locals, &mut elems);
    for e in elems {
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

/// An upper bound on the size of a set with this bound when it is worked out after
/// effects that change at most `edits` cells (`None`: any number).
fn set_bound(bound: &SetBound, c: &Ctx, edits: Option<u32>) -> u64 {
    let cells = c.game.board.len() as u64;
    let fixed = match (&bound.fixed, edits) {
        (Some(set), Some(e)) => {
            with_cells(set, c, &mut [], |s, _| cellset::count(s)) as u64 + u64::from(e)
        }
        _ => cells,
    };
    fixed.min(bound.cap.map_or(cells, u64::from))
}

/// The walk that lists the first part's combinations.
struct Lister<'a, 'c> {
    c: &'a Ctx<'c>,
    choices: &'a [Choice],
    /// Whether the last `in` choice is counted rather than walked.
    counted: bool,
    locals: &'a mut Frame,
    chosen: SmallVec<[i64; 6]>,
    scratch: &'a mut Numbered,
    total: u64,
}

impl Lister<'_, '_> {
    /// Lists from choice `i` on; false once there are more than [`MOST_ENTRIES`].
    fn list(&mut self, i: usize) -> bool {
        let Some(choice) = self.choices.get(i) else {
            return self.entry(u32::MAX, 1);
        };
        let c = self.c;
        match choice {
            Choice::In {
                domain: Domain::Cells(set),
                ..
            } if self.counted && i + 1 == self.choices.len() => {
                let at = self.scratch.sets.len() as u32;
                let count = with_cells(set, c, self.locals, |s, _| {
                    self.scratch.sets.extend_from_slice(s);
                    cellset::count(s)
                });
                if count == 0 {
                    self.scratch.sets.truncate(at as usize);
                    return true;
                }
                self.entry(at, count as u64)
            }
            Choice::In {
                slot,
                domain: Domain::Cells(set),
                filter,
                ..
            } => {
                let mut words = [0u64; WORDS];
                let n = cells_into(set, c, self.locals, &mut words);
                for (w, &word) in words[..n].iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        let e = (w * 64 + bits.trailing_zeros() as usize) as i64;
                        bits &= bits - 1;
                        if !self.take(i, *slot, filter.as_ref(), e) {
                            return false;
                        }
                    }
                }
                true
            }
            Choice::In {
                slot,
                domain: d,
                filter,
                ..
            } => {
                let mut elems = Elems::new();
                domain(d, c, self.locals, &mut elems);
                for e in elems {
                    if !self.take(i, *slot, filter.as_ref(), e) {
                        return false;
                    }
                }
                true
            }
            Choice::Let(slot, node) => {
                self.locals[*slot as usize] = eval(node, c, self.locals);
                self.list(i + 1)
            }
            Choice::Where(node) => eval(node, c, self.locals) == 0 || self.list(i + 1),
        }
    }

    /// Binds `e` to choice `i` if it passes the filter, and lists on.
    fn take(&mut self, i: usize, slot: u16, filter: Option<&super::program::Node>, e: i64) -> bool {
        self.locals[slot as usize] = e;
        if filter.is_some_and(|f| eval(f, self.c, self.locals) == 0) {
            return true;
        }
        self.chosen.push(e);
        let go_on = self.list(i + 1);
        self.chosen.pop();
        go_on
    }

    /// Records a combination standing for `count` candidates.
    fn entry(&mut self, leaf: u32, count: u64) -> bool {
        let values = self.scratch.values.len() as u32;
        self.scratch.values.extend_from_slice(&self.chosen);
        self.scratch.entries.push(Entry {
            before: self.total,
            values,
            leaf,
        });
        self.total += count;
        self.scratch.entries.len() <= MOST_ENTRIES
    }
}

/// One candidate being played out.
struct Trial<'a, 's> {
    game: &'a Game,
    state: &'s mut State,
    journal: &'s mut Journal,
    me: u8,
    locals: &'s mut Frame,
    values: SmallVec<[i64; 6]>,
}

impl Trial<'_, '_> {
    /// Plays candidate `pick` of `plan`; the parts it skipped, or why it is no ply.
    fn run(&mut self, action: &Action, plan: &Plan, s: &Numbered, pick: u64) -> Result<u8, Tried> {
        let part = &action.parts[0];
        let first = pick % plan.first_count;
        let mut pick = pick / plan.first_count;
        let mut skipped = 0u8;
        if part.optional && first == plan.first_count - 1 {
            part.clear_slots(self.locals);
            skipped |= 1;
        } else {
            match plan.first {
                First::Product { at, len } => {
                    let factors = &s.factors[at as usize..(at + len) as usize];
                    self.part(part, factors, s, first, plan.settled)?
                }
                First::Listed { at, len } => {
                    let entries = &s.entries[at as usize..(at + len) as usize];
                    let e = entries.partition_point(|e| e.before <= first) - 1;
                    let entry = entries[e];
                    self.listed(part, s, entry, first - entry.before)?
                }
            }
        }
        let mut factors = &s.factors[plan.later as usize..];
        for (p, part) in action.parts.iter().enumerate().skip(1) {
            let ins = part
                .choices
                .iter()
                .filter(|ch| matches!(ch, Choice::In { .. }))
                .count();
            let (mine, rest) = factors.split_at(ins);
            factors = rest;
            let values = mine.iter().fold(1u64, |v, f| v.saturating_mul(f.count()));
            let all = values.saturating_add(part.optional as u64);
            let value = pick % all;
            pick /= all;
            if part.optional && value == values {
                part.clear_slots(self.locals);
                skipped |= 1 << p;
                continue;
            }
            self.part(part, mine, s, value, 0)?;
        }
        Ok(skipped)
    }

    /// Makes a part's choices from the candidate's number `value` (one element of each
    /// factor), then plays its effect and check.
    fn part(
        &mut self,
        part: &Part,
        factors: &[Factor],
        s: &Numbered,
        mut value: u64,
        settled: u64,
    ) -> Result<(), Tried> {
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
                    let factor = *factors.next().ok_or(Tried::TooMany)?;
                    let n = factor.count();
                    let k = (value % n) as usize;
                    value /= n;
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
                        let c = Ctx {
                            game: self.game,
                            state: self.state,
                            me: self.me,
                        };
                        if eval(f, &c, self.locals) == 0 {
                            return Err(Tried::Rejected);
                        }
                    }
                    self.values.push(e);
                }
                Choice::Let(slot, node) => {
                    let c = Ctx {
                        game: self.game,
                        state: self.state,
                        me: self.me,
                    };
                    self.locals[*slot as usize] = eval(node, &c, self.locals);
                }
                Choice::Where(node) => {
                    let c = Ctx {
                        game: self.game,
                        state: self.state,
                        me: self.me,
                    };
                    if eval(node, &c, self.locals) == 0 {
                        return Err(Tried::Rejected);
                    }
                }
            }
        }
        self.effect_and_check(part)
    }

    /// The element in slot `k` of a collection given `n` slots.
    fn nth(&mut self, d: &Domain, k: usize, n: u32) -> Result<i64, Tried> {
        let c = Ctx {
            game: self.game,
            state: self.state,
            me: self.me,
        };
        match d {
            Domain::Cells(set) => with_cells(set, &c, self.locals, |s, _| {
                if cellset::count(s) > n as usize {
                    return Err(Tried::TooMany);
                }
                cellset::nth(s, k).map(|e| e as i64).ok_or(Tried::Rejected)
            }),
            _ => {
                let mut elems = Elems::new();
                domain(d, &c, self.locals, &mut elems);
                if elems.len() > n as usize {
                    return Err(Tried::TooMany);
                }
                elems.get(k).copied().ok_or(Tried::Rejected)
            }
        }
    }

    /// Makes the first part's choices from a listed combination: its `in` values, then the
    /// last `in` choice's `k`-th cell when the entry counts a set.
    fn listed(&mut self, part: &Part, s: &Numbered, entry: Entry, k: u64) -> Result<(), Tried> {
        let ins = part
            .choices
            .iter()
            .filter(|ch| matches!(ch, Choice::In { .. }))
            .count();
        let width = ins - (entry.leaf != u32::MAX) as usize;
        let mut values = s.values[entry.values as usize..entry.values as usize + width].iter();
        for choice in &part.choices {
            match choice {
                Choice::In { slot, .. } => {
                    let e = match values.next() {
                        Some(&e) => e,
                        None => {
                            let w = self.state.words();
                            let set = &s.sets[entry.leaf as usize..entry.leaf as usize + w];
                            cellset::nth(set, k as usize).expect("within the count") as i64
                        }
                    };
                    self.locals[*slot as usize] = e;
                    self.values.push(e);
                }
                Choice::Let(slot, node) => {
                    let c = Ctx {
                        game: self.game,
                        state: self.state,
                        me: self.me,
                    };
                    self.locals[*slot as usize] = eval(node, &c, self.locals);
                }
                // The listing tested it for this combination already.
                Choice::Where(_) => {}
            }
        }
        self.effect_and_check(part)
    }

    /// Plays the part's effect, then its check; `Err` when the check fails.
    fn effect_and_check(&mut self, part: &Part) -> Result<(), Tried> {
        let mut m = Mut {
            game: self.game,
            state: self.state,
            journal: self.journal,
            me: self.me,
        };
        exec(&part.effect, &mut m, self.locals);
        let c = Ctx {
            game: self.game,
            state: self.state,
            me: self.me,
        };
        match &part.check {
            Some(check) if eval(check, &c, self.locals) == 0 => Err(Tried::Rejected),
            _ => Ok(()),
        }
    }
}
