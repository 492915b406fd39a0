//! Ply generation: a depth-first walk over an action's parts and choices.
//!
//! Each part's choices run as a compiled chain (`engine::chain`) that binds each `in`
//! choice to the elements of its collection in turn (a set of cells is walked bit by
//! bit, nothing listed), works out `let`s and tests `where`s; the walk plays each part's
//! effect through a [`Journal`] and takes it back, so trying plies never copies the
//! position. The last part's effect is played only when a `check` reads its
//! result: otherwise the ply is complete once its choices are made. A repeated part's
//! plays bind its names in the same slots: once the plays after one are walked, it gets
//! its own back, so that its choices go on as they began. What happens to a
//! complete ply is the `Sink`'s business: listing (`legal_plies`, `perft`) or stopping
//! at the first (the stuck test after every ply).

use smallvec::SmallVec;

use super::action::Action;
use super::chain::Env;
use super::game::{Game, Ply};
use super::program::{Frame, MOST_REPEATS, MOST_STEPS, Repeat, frame};
use super::state::{Journal, State};

/// What the walk does with each complete ply.
pub(crate) trait Sink {
    /// Takes a ply; false to stop the walk.
    fn ply(&mut self, action: u16, values: &[i64], skipped: u8) -> bool;

    /// Whether the sink needs the plies as the rules that compare plies leave them
    /// (`engine::sift`); one that only asks whether there is a ply does not.
    fn sifted(&self) -> bool {
        true
    }
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

    fn sifted(&self) -> bool {
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
        self.walk_some(scratch, sink, false);
    }

    /// [`Game::walk`], or with `fallbacks_only` the fallback actions alone: for a caller
    /// that knows no other action gives a ply (a draw that tried every candidate).
    pub(crate) fn walk_some<S: Sink>(
        &self,
        scratch: &mut State,
        sink: &mut S,
        fallbacks_only: bool,
    ) {
        if scratch.outcome.is_some() {
            return;
        }
        if sink.sifted() && self.sifts() {
            let mut plies = Vec::new();
            self.walk_found(scratch, &mut plies, fallbacks_only);
            self.sift(scratch, &mut plies, true);
            for ply in &plies {
                if !sink.ply(ply.action, &ply.values, ply.skipped) {
                    return;
                }
            }
            return;
        }
        self.walk_found(scratch, sink, fallbacks_only);
    }

    /// Every ply the legal plies are sifted from (`engine::sift`), with `most` applied
    /// but every route kept: what a typed ply is also matched against.
    pub(crate) fn routes(&self, state: &State) -> Vec<Ply> {
        let mut plies = Vec::new();
        let mut scratch = state.clone();
        if scratch.outcome.is_none() {
            self.walk_found(&mut scratch, &mut plies, false);
            self.sift(&mut scratch, &mut plies, false);
        }
        plies
    }

    /// [`Game::walk_some`] before any sifting: the plies the actions find.
    pub(crate) fn walk_found<S: Sink>(
        &self,
        scratch: &mut State,
        sink: &mut S,
        fallbacks_only: bool,
    ) {
        let phase = self.current_phase(scratch);
        let me = scratch.to_move;
        let mut journal = Journal::recording();
        let mut found = Found { sink, any: false };
        let passes: &[bool] = if fallbacks_only {
            &[true]
        } else {
            &[false, true]
        };
        for &fallback in passes {
            for (index, action) in self.actions.iter().enumerate() {
                if action.fallback != fallback || (action.phase.is_some() && action.phase != phase)
                {
                    continue;
                }
                let mut locals = frame(action.frame);
                let mut env = Env {
                    board: &self.board,
                    state: scratch,
                    me,
                    locals: &mut locals,
                    count: false,
                    gather: false,
                };
                let mut w = Walk::new(self, &mut journal, index, &mut found);
                if !w.part(&mut env, 0) {
                    return;
                }
            }
            if found.any {
                return;
            }
        }
    }

    /// Feeds the plies of action `index` alone to `sink` (whatever the phase; fallback or
    /// not), trying them on `scratch` and taking them back. Returns the steps the walk
    /// took (each ply and each of its values, each play of a repeated part): what
    /// listing them costs.
    pub(crate) fn walk_action<S: Sink>(
        &self,
        scratch: &mut State,
        index: usize,
        sink: &mut S,
    ) -> u64 {
        let action = &self.actions[index];
        let mut journal = Journal::recording();
        let mut locals = frame(action.frame);
        let mut env = Env {
            board: &self.board,
            me: scratch.to_move,
            state: scratch,
            locals: &mut locals,
            count: false,
            gather: false,
        };
        let mut walk = Walk::new(self, &mut journal, index, sink);
        walk.part(&mut env, 0);
        walk.steps
    }

    /// The plies of action `index` alone, and the steps their walk took.
    pub(crate) fn count_action(&self, scratch: &mut State, index: usize) -> (u64, u64) {
        let mut count = Count(0);
        let steps = self.walk_action(scratch, index, &mut count);
        (count.0, steps)
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

/// One action being walked (the position and the names are the [`Env`]'s).
struct Walk<'a, 's, S: Sink> {
    game: &'a Game,
    journal: &'s mut Journal,
    action: &'a Action,
    index: u16,
    values: SmallVec<[i64; 6]>,
    skipped: u8,
    sink: &'s mut S,
    /// How many times the repeated part has been played in this ply so far, and how many
    /// times it was completed in the whole walk (a repetition that went on changes it).
    reps: usize,
    continued: u64,
    /// Plies given and plays of the repeated part so far, bounded by [`MOST_STEPS`].
    steps: u64,
}

impl<'a, 's, S: Sink> Walk<'a, 's, S> {
    fn new(game: &'a Game, journal: &'s mut Journal, index: usize, sink: &'s mut S) -> Self {
        Walk {
            game,
            action: &game.actions[index],
            journal,
            index: index as u16,
            values: SmallVec::new(),
            skipped: 0,
            sink,
            reps: 0,
            continued: 0,
            steps: 0,
        }
    }

    /// Counts `n` steps of the walk (a ply given and its values, a play of the repeated
    /// part); past [`MOST_STEPS`] the walk stops, false, with the action noted as the
    /// one that ran away ([`Game::runaway`]).
    fn step(&mut self, n: usize) -> bool {
        self.steps += n as u64;
        if self.steps > MOST_STEPS {
            let _ = self.game.ran_away.set(self.index);
            return false;
        }
        true
    }

    /// Continues from part `p`; returns false once the sink wants no more.
    fn part(&mut self, env: &mut Env, p: usize) -> bool {
        let action = self.action;
        if p == action.parts.len() {
            return self.step(1 + self.values.len())
                && self.sink.ply(self.index, &self.values, self.skipped);
        }
        let part = &action.parts[p];
        if part.repeat != Repeat::Once {
            part.clear_slots(env.locals);
            return self.repeat(env, p);
        }
        if part.optional {
            part.clear_slots(env.locals);
            self.skipped |= 1 << p;
            let go_on = self.part(env, p + 1);
            self.skipped &= !(1 << p);
            if !go_on {
                return false;
            }
        }
        self.choices(env, p)
    }

    /// The repeated part `p`, once more or not: with `may` the chain may end here; with
    /// `must` it ends here only if the part cannot be played again. Where it ends, the
    /// parts after it (which choose nothing) finish the ply.
    fn repeat(&mut self, env: &mut Env, p: usize) -> bool {
        if self.reps >= MOST_REPEATS {
            return self.part(env, p + 1);
        }
        let must = self.action.parts[p].repeat == Repeat::Must;
        if !must && !self.part(env, p + 1) {
            return false;
        }
        let before = self.continued;
        if !self.choices(env, p) {
            return false;
        }
        !must || self.continued != before || self.part(env, p + 1)
    }

    /// Walks the choices of part `p`, and on from each combination that passes them.
    fn choices(&mut self, env: &mut Env, p: usize) -> bool {
        let chain = &self.action.compiled[p].chain;
        chain.run(env, &mut |env, _| self.chosen(env, p))
    }

    /// Goes on from a combination of part `p`'s choices: its values noted, its effect
    /// played (unless nothing reads it) and the rest of the ply walked.
    fn chosen(&mut self, env: &mut Env, p: usize) -> bool {
        let action = self.action;
        let part = &action.parts[p];
        let noted = self.values.len();
        for &slot in &part.ins {
            self.values.push(env.locals[slot as usize]);
        }
        // The last part's effect changes nothing a ply's legality depends on unless a
        // check reads it: the ply is complete without playing it.
        let repeated = part.repeat != Repeat::Once;
        let go_on = if p + 1 == action.parts.len() && part.check.is_none() && !repeated {
            self.part(env, p + 1)
        } else {
            let mark = self.journal.mark();
            let ok = env.play(&action.compiled[p], self.journal);
            let go_on = !ok
                || if repeated {
                    self.step(1) && {
                        self.continued += 1;
                        self.reps += 1;
                        // The next play binds the part's names again, in the same slots;
                        // this play's choices still to be walked read them (a collection,
                        // a filter, the values noted), so they get back what it bound.
                        let kept = Frame::from_slice(env.locals);
                        let go_on = self.repeat(env, p);
                        env.locals.copy_from_slice(&kept);
                        self.reps -= 1;
                        go_on
                    }
                } else {
                    self.part(env, p + 1)
                };
            self.journal.rollback(env.state, mark);
            go_on
        };
        self.values.truncate(noted);
        go_on
    }
}
