//! One candidate played out ([`Trial`]): its choices made from its number, its effects
//! played and its checks asked, and the second part tried before the head where a
//! precheck allows ([`Second`]).

use smallvec::SmallVec;

use super::numbered::*;
use crate::engine::action::{Action, PartCode};
use crate::engine::cellset;
use crate::engine::eval::{domain, eval, with_cells};
use crate::engine::game::{Game, Ply};
use crate::engine::natives::{Ctx, Elems, Mut};
use crate::engine::precheck::{Precheck, Verdict};
use crate::engine::program::{Choice, Domain, Node, Part, Repeat};
use crate::engine::radix::digit;
use crate::engine::state::{Journal, State};

/// What an expression reads where trial `$t` stands (a macro, so that its frame of names
/// stays free to borrow).
macro_rules! trial_ctx {
    ($t:expr) => {
        Ctx {
            board: &$t.game.board,
            state: $t.state,
            me: $t.me,
        }
    };
}

/// One candidate being played out.
pub(super) struct Trial<'a, 's> {
    pub(super) game: &'a Game,
    pub(super) state: &'s mut State,
    pub(super) journal: &'s mut Journal,
    pub(super) me: u8,
    pub(super) locals: &'s mut [i64],
    /// The ply's values, when `write`.
    pub(super) values: SmallVec<[i64; 6]>,
    pub(super) write: bool,
    /// Set (in debug builds, which then play the candidate all the same) when the second
    /// part refused the candidate before the head was played ([`Precheck`]).
    pub(super) refused_early: bool,
    /// Set when the second part's choices were made before the head was played: only
    /// its effect and check are left.
    pub(super) chosen_early: bool,
}

/// The second part of a candidate, to be tried before the head's move is played (see
/// [`Precheck`]): its action's precheck, the part, its factors and its slots' value.
#[derive(Clone, Copy)]
pub(super) struct Second<'p> {
    pub(super) precheck: &'p Precheck,
    pub(super) part: &'p Part,
    pub(super) factors: &'p [Factor],
    pub(super) value: u64,
}

impl<'p> Second<'p> {
    /// The second part of candidate `pick` (what is left of its number once the head's
    /// combination is taken out) of `plan`, when its action has a precheck, its head is
    /// the first part alone and the candidate does not skip the second part.
    #[inline(always)]
    pub(super) fn of(
        action: &'p Action,
        plan: &Plan,
        s: &'p Numbered,
        pick: u64,
    ) -> Option<Second<'p>> {
        let precheck = action.precheck.as_ref()?;
        Second::with(precheck, action, plan, s, pick)
    }

    /// [`Second::of`] for an action with a precheck (apart, so that the others' draws
    /// pay one test).
    #[inline(never)]
    pub(super) fn with(
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
    pub(super) fn run(
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
    pub(super) fn played(
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
    pub(super) fn part(
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
    pub(super) fn chosen(
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
    pub(super) fn part_then(
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
    pub(super) fn part_with(
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
                    let c = trial_ctx!(self);
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
    pub(super) fn holds(&mut self, node: &Node) -> Result<(), Refused> {
        let c = trial_ctx!(self);
        if eval(node, &c, self.locals) == 0 {
            return Err(Refused::Rejected);
        }
        Ok(())
    }

    /// The element in slot `k` of a collection given `n` slots.
    pub(super) fn nth(&mut self, d: &Domain, k: usize, n: u32) -> Result<i64, Refused> {
        let c = trial_ctx!(self);
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
    pub(super) fn listed_with_tail(
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
    pub(super) fn listed(
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
                        let c = trial_ctx!(self);
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
    pub(super) fn replay(&mut self, action: &Action, ply: &Ply) -> Result<u8, Refused> {
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
                            let e = values.next().copied().unwrap_or(crate::engine::state::NONE);
                            self.locals[*slot as usize] = e;
                            if self.write {
                                self.values.push(e);
                            }
                        }
                        Choice::Let(slot, node) => {
                            let c = trial_ctx!(self);
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
    pub(super) fn tried_before(&mut self, second: Second) -> Verdict {
        let c = trial_ctx!(self);
        let slots = |i: usize| second.factors[i].count();
        second
            .precheck
            .verdict(&c, self.locals, second.part, second.value, slots)
    }

    /// Plays the part's effect, then its check; `Err` when the check fails, or when the
    /// `second` part, tried first, refuses the candidate (release builds play nothing
    /// then; debug builds note it and play on, for [`Trial::run`] to check).
    pub(super) fn effect_and_check(
        &mut self,
        part: &PartCode,
        second: Option<Second>,
    ) -> Result<(), Refused> {
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
