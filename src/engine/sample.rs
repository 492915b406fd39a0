//! Random plies without listing every legal ply: what random playouts need.
//!
//! A playout wants one ply drawn uniformly from the legal ones, and listing them all costs
//! as much as trying every candidate. Instead, each `in` choice of an action is given a
//! fixed number of slots: the choices of the first part whose collections do not depend
//! on earlier `in` choices have exactly their filtered elements (the position is the same for
//! every ply), every other choice as many slots as its collection can ever hold on this
//! board ([`Most`]). A candidate is one slot per choice (and, for an optional part, one
//! more value meaning "skipped"), so every candidate has the same chance. It is drawn,
//! played out (slots past the end of the collection, filters, `where`, effects, checks)
//! and kept if it is a legal ply. Every legal ply is exactly one candidate, so an
//! accepted draw is uniform over the legal plies. After a bounded number of rejections
//! the generator lists every legal ply and draws from the list, which is uniform too (and
//! finds the fallback actions when nothing else is legal): the result is exactly uniform
//! either way, only the cost depends on luck.

use rand::{Rng, RngExt};
use smallvec::SmallVec;

use super::eval::{domain, eval, exec};
use super::game::{Game, Ply};
use super::natives::{Ctx, Elems, Mut};
use super::program::{Action, Choice, Domain, Frame, Most, Part, frame};
use super::state::{Journal, State};

/// The slots of one `in` choice.
enum Slots {
    /// The filtered elements themselves, kept in [`Plans::known`] from `start` on (a
    /// first-part choice that depends on no earlier choice: the same for every candidate).
    Known { start: u32, len: u32 },
    /// A fixed number of slots, the collection being worked out for each candidate.
    Padded(u64),
}

/// The candidates of one action: the slots of each part's choices, and how many
/// candidates each part and the whole action have.
struct Plan<'g> {
    index: u16,
    action: &'g Action,
    /// Per part: the slots of its `in` choices and the number of its values (the product
    /// of the slots, plus one for "skipped" if the part is optional).
    parts: SmallVec<[(SmallVec<[Slots; 3]>, u64); 3]>,
    /// The names as the first part's settled choices leave them.
    preset: Frame,
    /// The first part's `let` and `where` choices (by index) that read nothing varying:
    /// worked out once into `preset` (a failed `where` leaves the action no candidate).
    settled: u64,
    /// The first part's choices listed exactly, when there are not too many: the values
    /// of its `in` choices for each combination that passes every filter and `where`, in
    /// [`Plans::tuples`] (`count` tuples of `width` values from `start`). Then the part's
    /// value is a tuple's index and no candidate is lost to the first part's filters.
    first: Option<Tuples>,
    size: u64,
}

/// Where a plan's exact first-part choices are kept (see [`Plan::first`]).
#[derive(Clone, Copy)]
struct Tuples {
    start: u32,
    count: u32,
    width: u32,
}

/// At most this many first-part combinations are listed exactly; past that a first part
/// gets slots like the other parts.
const MOST_TUPLES: usize = 1024;

/// A drawn ply: still to be played, or (a kept candidate) already played but for what
/// follows a ply (ends, turns).
enum Drawn {
    Played(Ply),
    Listed(Ply),
}

/// The plans of every action that may be played now, and the elements of their
/// [`Slots::Known`] choices in one buffer, so a plan stays small to build and move.
struct Plans<'g> {
    list: SmallVec<[Plan<'g>; 4]>,
    known: SmallVec<[i64; 128]>,
    tuples: SmallVec<[i64; 256]>,
}

/// What trying one candidate gave.
enum Tried {
    Legal(Ply),
    Rejected,
    /// A collection held more elements than its slots: only the listing is exact here.
    TooMany,
}

/// Above this many candidates a draw is almost never legal: list the plies instead.
const MOST_CANDIDATES: u64 = 1 << 40;

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
        let plans = self.plans(state);
        let total = plans
            .list
            .iter()
            .fold(0u64, |sum, p| sum.saturating_add(p.size));
        if total > 0 && total < MOST_CANDIDATES {
            let mut journal = Journal::recording();
            let mut memo = Memo::default();
            // A quarter of the candidates, within bounds: where most draws fail, listing
            // soon costs less than drawing on.
            for _ in 0..(total / 4).clamp(8, 512) {
                let mut pick = rng.random_range(0..total);
                let Some(which) = plans.list.iter().position(|p| {
                    let here = pick < p.size;
                    if !here {
                        pick -= p.size;
                    }
                    here
                }) else {
                    break;
                };
                match self.try_candidate(
                    state,
                    (&mut journal, &mut memo),
                    &plans,
                    which,
                    pick,
                    keep,
                ) {
                    Tried::Legal(ply) => return Some(Drawn::Played(ply)),
                    Tried::Rejected => {}
                    Tried::TooMany => break,
                }
            }
        }
        // Usually a few plies (a forced pass): kept inline.
        let mut legal: SmallVec<[Ply; 8]> = SmallVec::new();
        self.generate(state, &mut |p| {
            legal.push(p);
            true
        });
        if legal.is_empty() {
            return None;
        }
        let i = rng.random_range(0..legal.len() as u64) as usize;
        Some(Drawn::Listed(legal.swap_remove(i)))
    }

    /// The candidates of every action that may be played now (fallback actions aside).
    fn plans(&self, state: &State) -> Plans<'_> {
        let phase = self.current_phase(state);
        let c = Ctx {
            game: self,
            state,
            me: state.to_move,
        };
        let mut plans = Plans {
            list: SmallVec::new(),
            known: SmallVec::new(),
            tuples: SmallVec::new(),
        };
        for (index, action) in self.actions.iter().enumerate() {
            if action.fallback || (action.phase.is_some() && action.phase != phase) {
                continue;
            }
            let mut locals = frame(action.frame);
            let mut parts = SmallVec::new();
            let mut size = 1u64;
            let first = self.first_tuples(&c, action, &mut locals, &mut plans.tuples);
            // First part: `let` and `where` choices that read no chosen name are worked
            // out here, once; so are the collections of such `in` choices.
            let mut settled = 0u64;
            for (p, part) in action.parts.iter().enumerate() {
                let mut slots = SmallVec::new();
                let mut values = 1u64;
                if let (0, Some(tuples)) = (p, first) {
                    let values = u64::from(tuples.count) + part.optional as u64;
                    size = size.saturating_mul(values);
                    parts.push((slots, values));
                    continue;
                }
                for (i, choice) in part.choices.iter().enumerate() {
                    let first = p == 0 && i < 64;
                    let fixed = first && action.fixed & (1 << i) != 0;
                    let (slot, d, filter) = match choice {
                        Choice::In {
                            slot,
                            domain: d,
                            filter,
                            ..
                        } => (*slot, d, filter),
                        Choice::Let(slot, node) => {
                            if fixed {
                                locals[*slot as usize] = eval(node, &c, &mut locals);
                                settled |= 1 << i;
                            }
                            continue;
                        }
                        Choice::Where(node) => {
                            if fixed {
                                if eval(node, &c, &mut locals) == 0 {
                                    values = 0;
                                }
                                settled |= 1 << i;
                            }
                            continue;
                        }
                    };
                    let s = if fixed {
                        let mut elems = Elems::new();
                        domain(d, &c, &mut locals, &mut elems);
                        if let Some(f) = filter {
                            elems.retain(|e| {
                                locals[slot as usize] = *e;
                                eval(f, &c, &mut locals) != 0
                            });
                        }
                        values = values.saturating_mul(elems.len() as u64);
                        let start = plans.known.len() as u32;
                        plans.known.extend_from_slice(&elems);
                        Slots::Known {
                            start,
                            len: elems.len() as u32,
                        }
                    } else {
                        let n = self.most(d) as u64;
                        values = values.saturating_mul(n);
                        Slots::Padded(n)
                    };
                    slots.push(s);
                }
                let values = values.saturating_add(part.optional as u64);
                size = size.saturating_mul(values);
                parts.push((slots, values));
            }
            plans.list.push(Plan {
                index: index as u16,
                action,
                parts,
                preset: locals,
                settled,
                first,
                size,
            });
        }
        plans
    }

    /// Lists the combinations of the first part's choices that pass its filters and
    /// `where`s, for a first part where an `in` choice depends on an earlier one (the part's effect has not run, so they all see `c`'s position), keeping
    /// the values of its `in` choices in `out`; `None`, and `out` as it was, past
    /// [`MOST_TUPLES`] combinations.
    fn first_tuples(
        &self,
        c: &Ctx,
        action: &Action,
        locals: &mut Frame,
        out: &mut SmallVec<[i64; 256]>,
    ) -> Option<Tuples> {
        let part = action.parts.first()?;
        // Where every `in` choice of the first part reads no earlier choice, its slots are
        // its filtered elements already: exact, and cheaper than listing combinations
        // (which would work out every `let` for each of them).
        let fixed = |i: usize| i < 64 && action.fixed & (1 << i) != 0;
        let in_choice = |i: &usize| matches!(part.choices[*i], Choice::In { .. });
        if (0..part.choices.len()).filter(in_choice).all(fixed) {
            return None;
        }
        let width = part
            .choices
            .iter()
            .filter(|ch| matches!(ch, Choice::In { .. }))
            .count();
        let start = out.len();
        let mut chosen: SmallVec<[i64; 6]> = SmallVec::new();
        let mut count = 0usize;
        if !list_choices(c, &part.choices, locals, &mut chosen, out, &mut count) {
            out.truncate(start);
            return None;
        }
        Some(Tuples {
            start: start as u32,
            count: count as u32,
            width: width as u32,
        })
    }

    /// The most elements a collection can hold on this board.
    fn most(&self, d: &Domain) -> usize {
        match d {
            Domain::Cells(_) => self.board.len(),
            Domain::List(items) => items.len(),
            Domain::Native(_, _, most) => match most {
                Most::Cells => self.board.len(),
                Most::Players => self.players.len(),
                Most::Links => self.board.most_links(),
                Most::Side => self.board.files.max(self.board.ranks) as usize,
            },
        }
    }

    /// Tries candidate number `pick` of plan `which` on `state`, which it leaves as it was
    /// (or, with `keep`, as the candidate left it if it is a legal ply).
    fn try_candidate(
        &self,
        state: &mut State,
        (journal, memo): (&mut Journal, &mut Memo),
        plans: &Plans,
        which: usize,
        pick: u64,
        keep: bool,
    ) -> Tried {
        let (plan, known) = (&plans.list[which], &plans.known[..]);
        let mark = journal.mark();
        let mut locals = plan.preset.clone();
        let me = state.to_move;
        let mut draw = Draw {
            game: self,
            state,
            journal,
            me,
            locals: &mut locals,
            values: SmallVec::new(),
            pick: 0,
            memo,
            at: (plan.index, 0, 0, 0),
        };
        let (mut pick, mut skipped, mut tried) = (pick, 0u8, None);
        for (p, (part, (slots, values))) in plan.action.parts.iter().zip(&plan.parts).enumerate() {
            // The part's value, then its choices' slots from it (mixed radix).
            let value = pick % values;
            pick /= values;
            if part.optional && value == values - 1 {
                part.clear_slots(draw.locals);
                skipped |= 1 << p;
                continue;
            }
            draw.pick = value;
            draw.at = (plan.index, p as u8, 0, skipped);
            let outcome = match (p, plan.first) {
                (0, Some(t)) => {
                    let at = (t.start + value as u32 * t.width) as usize;
                    draw.listed_part(part, &plans.tuples[at..at + t.width as usize])
                }
                (0, None) => draw.part(part, slots, known, plan.settled),
                _ => draw.part(part, slots, known, 0),
            };
            if let Err(t) = outcome {
                tried = Some(t);
                break;
            }
        }
        let values = std::mem::take(&mut draw.values);
        if !(keep && tried.is_none()) {
            journal.rollback(state, mark);
        }
        tried.unwrap_or(Tried::Legal(Ply {
            action: plan.index,
            values,
            skipped,
        }))
    }
}

/// Walks `choices` depth first, appending the `in` values of every complete combination
/// to `out`; false once more than [`MOST_TUPLES`] were found.
fn list_choices(
    c: &Ctx,
    choices: &[Choice],
    locals: &mut Frame,
    chosen: &mut SmallVec<[i64; 6]>,
    out: &mut SmallVec<[i64; 256]>,
    count: &mut usize,
) -> bool {
    let Some((choice, rest)) = choices.split_first() else {
        *count += 1;
        out.extend_from_slice(chosen);
        return *count <= MOST_TUPLES;
    };
    match choice {
        Choice::In {
            slot,
            domain: d,
            filter,
            ..
        } => {
            let mut elems = Elems::new();
            domain(d, c, locals, &mut elems);
            for e in elems {
                locals[*slot as usize] = e;
                if filter.as_ref().is_some_and(|f| eval(f, c, locals) == 0) {
                    continue;
                }
                chosen.push(e);
                let go_on = list_choices(c, rest, locals, chosen, out, count);
                chosen.pop();
                if !go_on {
                    return false;
                }
            }
            true
        }
        Choice::Let(slot, node) => {
            locals[*slot as usize] = eval(node, c, locals);
            list_choices(c, rest, locals, chosen, out, count)
        }
        Choice::Where(node) => {
            eval(node, c, locals) == 0 || list_choices(c, rest, locals, chosen, out, count)
        }
    }
}

/// One candidate being played out.
struct Draw<'a, 's> {
    game: &'a Game,
    state: &'s mut State,
    journal: &'s mut Journal,
    me: u8,
    locals: &'s mut [i64],
    values: SmallVec<[i64; 6]>,
    /// What is left of the part's value: the next choice's slot is `pick % slots`.
    pick: u64,
    memo: &'s mut Memo,
    /// Where the draw stands, for the memo.
    at: Place,
}

/// The values of `let` choices already worked out for earlier draws of the same position,
/// by where the choice stands and the values chosen before it. The position a choice
/// sees is the start position changed by the effects of the parts before it, all fixed
/// by those values, so the same place and values give the same result. Kept inline (it
/// never holds more than [`MEMO_SIZE`]), so drawing allocates nothing.
#[derive(Default)]
struct Memo(SmallVec<[Remembered; MEMO_SIZE]>);

/// One remembered `let` value: where, after which values, and the value.
type Remembered = (Place, SmallVec<[i64; 6]>, i64);

/// Where a draw stands: action, part, choice, parts skipped so far.
type Place = (u16, u8, u8, u8);

/// More remembered values than this and the memo stops learning (it is searched in
/// order, and a position rarely sees more).
const MEMO_SIZE: usize = 64;

impl Draw<'_, '_> {
    /// The next value out of `n` from the candidate's number.
    fn take(&mut self, n: u64) -> u64 {
        let v = self.pick % n;
        self.pick /= n;
        v
    }

    /// Makes the part's choices from one listed combination of its `in` values (the
    /// `let`s worked out again, the `where`s known to hold), then plays its effect and
    /// check.
    fn listed_part(&mut self, part: &Part, tuple: &[i64]) -> Result<(), Tried> {
        let mut values = tuple.iter();
        for choice in &part.choices {
            match choice {
                Choice::In { slot, .. } => {
                    let value = *values.next().expect("one value per `in` choice");
                    self.locals[*slot as usize] = value;
                    self.values.push(value);
                }
                Choice::Let(slot, node) => {
                    let c = Ctx {
                        game: self.game,
                        state: self.state,
                        me: self.me,
                    };
                    self.locals[*slot as usize] = eval(node, &c, self.locals);
                }
                Choice::Where(_) => {}
            }
        }
        self.effect_and_check(part)
    }

    /// Makes the part's choices from the candidate's number, then plays its effect and
    /// check; `Err` when the candidate is not a ply.
    fn part(
        &mut self,
        part: &Part,
        slots: &[Slots],
        known: &[i64],
        settled: u64,
    ) -> Result<(), Tried> {
        let mut slots = slots.iter();
        for (i, choice) in part.choices.iter().enumerate() {
            if i < 64 && settled & (1 << i) != 0 {
                continue;
            }
            // The slot comes first: it is taken whatever the position says.
            let slot_and_index = match choice {
                Choice::In { .. } => match slots.next() {
                    Some(s @ Slots::Known { len, .. }) => Some((s, self.take(*len as u64))),
                    Some(s @ Slots::Padded(n)) => Some((s, self.take(*n))),
                    None => return Err(Tried::TooMany),
                },
                _ => None,
            };
            let c = Ctx {
                game: self.game,
                state: self.state,
                me: self.me,
            };
            match choice {
                Choice::In {
                    slot,
                    domain: d,
                    filter,
                    ..
                } => {
                    let value = match slot_and_index {
                        Some((Slots::Known { start, .. }, i)) => {
                            known[*start as usize + i as usize]
                        }
                        Some((Slots::Padded(n), i)) => {
                            let mut elems = Elems::new();
                            domain(d, &c, self.locals, &mut elems);
                            if elems.len() as u64 > *n {
                                return Err(Tried::TooMany);
                            }
                            let Some(&value) = elems.get(i as usize) else {
                                return Err(Tried::Rejected);
                            };
                            self.locals[*slot as usize] = value;
                            if filter
                                .as_ref()
                                .is_some_and(|f| eval(f, &c, self.locals) == 0)
                            {
                                return Err(Tried::Rejected);
                            }
                            value
                        }
                        None => return Err(Tried::TooMany),
                    };
                    self.locals[*slot as usize] = value;
                    self.values.push(value);
                }
                Choice::Let(slot, node) => {
                    let at = (self.at.0, self.at.1, i as u8, self.at.3);
                    let known = self
                        .memo
                        .0
                        .iter()
                        .find(|(a, v, _)| *a == at && *v == self.values);
                    let value = match known {
                        Some((_, _, value)) => *value,
                        None => {
                            let value = eval(node, &c, self.locals);
                            if self.memo.0.len() < MEMO_SIZE && i <= u8::MAX as usize {
                                self.memo.0.push((at, self.values.clone(), value));
                            }
                            value
                        }
                    };
                    self.locals[*slot as usize] = value;
                }
                Choice::Where(node) => {
                    if eval(node, &c, self.locals) == 0 {
                        return Err(Tried::Rejected);
                    }
                }
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
