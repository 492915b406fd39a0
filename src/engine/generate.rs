//! Ply generation: a depth-first walk over an action's parts and choices.
//!
//! The walk binds each `in` choice to the elements of its collection in turn (a set of
//! cells is walked bit by bit, nothing listed), works out `let`s, tests `where`s, plays
//! each part's effect through a [`Journal`] and takes it back, so trying plies never
//! copies the position. The last part's effect is played only when a `check` reads its
//! result: otherwise the ply is complete once its choices are made. What happens to a
//! complete ply is the [`Sink`]'s business: listing (`legal_plies`, `perft`) or stopping
//! at the first (the stuck test after every ply).

use smallvec::SmallVec;

use super::cellset::WORDS;
use super::eval::{cells_into, domain, eval, exec};
use super::game::{Game, Ply};
use super::natives::{Ctx, Elems, Mut};
use super::program::{Action, Choice, Domain, Frame, MOST_REPEATS, Node, Repeat, frame};
use super::state::{Journal, State};

/// What the walk does with each complete ply.
pub(crate) trait Sink {
    /// Takes a ply; false to stop the walk.
    fn ply(&mut self, action: u16, values: &[i64], skipped: u8) -> bool;
}

/// Lists every ply.
impl Sink for Vec<Ply> {
    #[inline]
    fn ply(&mut self, action: u16, values: &[i64], skipped: u8) -> bool {
        self.push(Ply {
            action,
            values: SmallVec::from_slice(values),
            skipped,
        });
        true
    }
}

/// Lists every ply, the first eight inline (a forced pass, a short list).
impl Sink for SmallVec<[Ply; 8]> {
    #[inline]
    fn ply(&mut self, action: u16, values: &[i64], skipped: u8) -> bool {
        self.push(Ply {
            action,
            values: SmallVec::from_slice(values),
            skipped,
        });
        true
    }
}

/// Stops at the first ply and remembers that there was one.
pub(crate) struct Any(pub bool);

impl Sink for Any {
    #[inline]
    fn ply(&mut self, _: u16, _: &[i64], _: u8) -> bool {
        self.0 = true;
        false
    }
}

/// Counts the plies.
pub(crate) struct Count(pub u64);

impl Sink for Count {
    #[inline]
    fn ply(&mut self, _: u16, _: &[i64], _: u8) -> bool {
        self.0 += 1;
        true
    }
}

impl Game {
    /// Feeds the legal plies of the position to `sink` until it says stop. Fallback actions
    /// are tried only when no other action gives a ply. Candidates are tried on `scratch`
    /// and taken back, so it ends as it was.
    pub(crate) fn walk<S: Sink>(&self, scratch: &mut State, sink: &mut S) {
        if scratch.outcome.is_some() {
            return;
        }
        let phase = self.current_phase(scratch);
        let me = scratch.to_move;
        let mut journal = Journal::recording();
        let mut found = Found { sink, any: false };
        for fallback in [false, true] {
            for (index, action) in self.actions.iter().enumerate() {
                if action.fallback != fallback || (action.phase.is_some() && action.phase != phase)
                {
                    continue;
                }
                let mut w = Walk {
                    game: self,
                    state: scratch,
                    journal: &mut journal,
                    me,
                    locals: frame(action.frame),
                    values: SmallVec::new(),
                    skipped: 0,
                    action: index as u16,
                    sink: &mut found,
                    reps: 0,
                    continued: 0,
                };
                if !w.part(action, 0) {
                    return;
                }
            }
            if found.any {
                return;
            }
        }
    }
}

impl Game {
    /// Feeds the plies of action `index` alone to `sink` (whatever the phase; fallback or
    /// not), trying them on `scratch` and taking them back.
    pub(crate) fn walk_action<S: Sink>(&self, scratch: &mut State, index: usize, sink: &mut S) {
        let action = &self.actions[index];
        let mut journal = Journal::recording();
        let me = scratch.to_move;
        let mut w = Walk {
            game: self,
            state: scratch,
            journal: &mut journal,
            me,
            locals: frame(action.frame),
            values: SmallVec::new(),
            skipped: 0,
            action: index as u16,
            sink,
            reps: 0,
            continued: 0,
        };
        w.part(action, 0);
    }
}

/// A sink that also notes whether any ply was found (for the fallback actions).
struct Found<'s, S: Sink> {
    sink: &'s mut S,
    any: bool,
}

impl<S: Sink> Sink for Found<'_, S> {
    #[inline]
    fn ply(&mut self, action: u16, values: &[i64], skipped: u8) -> bool {
        self.any = true;
        self.sink.ply(action, values, skipped)
    }
}

/// One action being walked.
struct Walk<'a, 's, S: Sink> {
    game: &'a Game,
    state: &'s mut State,
    journal: &'s mut Journal,
    me: u8,
    locals: Frame,
    values: SmallVec<[i64; 6]>,
    skipped: u8,
    action: u16,
    sink: &'s mut S,
    /// How many times the repeated part has been played in this ply so far, and how many
    /// times it was completed in the whole walk (a repetition that went on changes it).
    reps: usize,
    continued: u64,
}

impl<S: Sink> Walk<'_, '_, S> {
    /// Continues from part `p`; returns false once the sink wants no more.
    fn part(&mut self, action: &Action, p: usize) -> bool {
        if p == action.parts.len() {
            return self.sink.ply(self.action, &self.values, self.skipped);
        }
        if action.parts[p].repeat != Repeat::Once {
            action.parts[p].clear_slots(&mut self.locals);
            return self.repeat(action, p);
        }
        if action.parts[p].optional {
            action.parts[p].clear_slots(&mut self.locals);
            self.skipped |= 1 << p;
            let go_on = self.part(action, p + 1);
            self.skipped &= !(1 << p);
            if !go_on {
                return false;
            }
        }
        self.choice(action, p, 0)
    }

    /// The repeated part `p` (the last), once more or not: with `may` the ply may end
    /// here; with `must` it ends here only if the part cannot be played again.
    fn repeat(&mut self, action: &Action, p: usize) -> bool {
        let end = |w: &mut Self| w.sink.ply(w.action, &w.values, w.skipped);
        if self.reps >= MOST_REPEATS {
            return end(self);
        }
        let must = action.parts[p].repeat == Repeat::Must;
        if !must && !end(self) {
            return false;
        }
        let before = self.continued;
        if !self.choice(action, p, 0) {
            return false;
        }
        !must || self.continued != before || end(self)
    }

    /// Takes `e` for the choice bound to `slot` and, if it passes the choice's filter,
    /// goes on with choice `i + 1`.
    #[inline]
    fn chosen(
        &mut self,
        action: &Action,
        (p, i): (usize, usize),
        slot: u16,
        filter: Option<&Node>,
        e: i64,
    ) -> bool {
        self.locals[slot as usize] = e;
        if let Some(f) = filter {
            let c = Ctx {
                game: self.game,
                state: self.state,
                me: self.me,
            };
            if eval(f, &c, &mut self.locals) == 0 {
                return true;
            }
        }
        self.values.push(e);
        let go_on = self.choice(action, p, i + 1);
        self.values.pop();
        go_on
    }

    fn choice(&mut self, action: &Action, p: usize, i: usize) -> bool {
        let part = &action.parts[p];
        let Some(choice) = part.choices.get(i) else {
            // The last part's effect changes nothing a ply's legality depends on unless a
            // check reads it: the ply is complete without playing it.
            let repeated = part.repeat != Repeat::Once;
            if p + 1 == action.parts.len() && part.check.is_none() && !repeated {
                return self.part(action, p + 1);
            }
            let mark = self.journal.mark();
            let mut m = Mut {
                game: self.game,
                state: self.state,
                journal: self.journal,
                me: self.me,
            };
            exec(&part.effect, &mut m, &mut self.locals);
            let ok = match &part.check {
                Some(check) => {
                    let c = Ctx {
                        game: self.game,
                        state: self.state,
                        me: self.me,
                    };
                    eval(check, &c, &mut self.locals) != 0
                }
                None => true,
            };
            let go_on = !ok
                || if repeated {
                    self.continued += 1;
                    self.reps += 1;
                    let go_on = self.repeat(action, p);
                    self.reps -= 1;
                    go_on
                } else {
                    self.part(action, p + 1)
                };
            self.journal.rollback(self.state, mark);
            return go_on;
        };
        match choice {
            Choice::In {
                slot,
                domain: Domain::Cells(set),
                filter,
                ..
            } => {
                let mut words = [0u64; WORDS];
                let c = Ctx {
                    game: self.game,
                    state: self.state,
                    me: self.me,
                };
                let n = cells_into(set, &c, &mut self.locals, &mut words);
                for (w, &word) in words[..n].iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        let e = (w * 64 + bits.trailing_zeros() as usize) as i64;
                        bits &= bits - 1;
                        if !self.chosen(action, (p, i), *slot, filter.as_ref(), e) {
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
                let c = Ctx {
                    game: self.game,
                    state: self.state,
                    me: self.me,
                };
                domain(d, &c, &mut self.locals, &mut elems);
                for &e in elems.iter() {
                    if !self.chosen(action, (p, i), *slot, filter.as_ref(), e) {
                        return false;
                    }
                }
                true
            }
            Choice::Let(slot, node) => {
                let c = Ctx {
                    game: self.game,
                    state: self.state,
                    me: self.me,
                };
                self.locals[*slot as usize] = eval(node, &c, &mut self.locals);
                self.choice(action, p, i + 1)
            }
            Choice::Where(node) => {
                let c = Ctx {
                    game: self.game,
                    state: self.state,
                    me: self.me,
                };
                eval(node, &c, &mut self.locals) == 0 || self.choice(action, p, i + 1)
            }
        }
    }
}
