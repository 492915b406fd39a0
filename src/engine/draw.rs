//! Random plies, as playouts and bots ask for them, and the way each action's are drawn:
//! numbered candidates tried (`engine::sample`) or every legal ply listed and one picked.
//!
//! Applies: [`Draw::Auto`] (the default) measures the game before its first draw
//! ([`Game::listed_actions`]) and lists an action whose refused candidates cost more than
//! walking its plies; `--draw list|sample` forces one way.
//! Guarantees: both ways are exactly uniform; a seed gives the same game on every machine
//! (work is counted, not time).
//! Proved by: `properties::drawn_plies_are_uniform_whatever_the_route_of_each_action`,
//! `routes::a_seed_plays_the_same_game_whatever_the_draws_measured_before` and the
//! generated files of `actions::generated_actions_give_the_plies_the_rules_give`.
//! More: docs/engine.md, "Listed or drawn".

use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt, SeedableRng};

use super::flow::Probe;
use super::game::{Draw, Game, Ply};
use super::program::frame;
use super::sample::{Drawn, Keep, MOST_DRAWS, Numbering, Route, lists_plies};
use super::state::State;

/// The measure before the first draw: so many games from the start, their plies picked
/// from the listing with fixed seeds, weighed at each of their first `PROBE_EVERY_PLY`
/// plies and then at every `PROBE_STRIDE`-th, up to `PROBE_LONGEST` plies: late enough
/// for the actions a game opens only as it goes on (a phase that starts when the pieces
/// are down, a move open to the last three pieces).
const PROBE_GAMES: u64 = 2;
const PROBE_EVERY_PLY: usize = 30;
const PROBE_STRIDE: usize = 10;
const PROBE_LONGEST: usize = 400;

/// What a refused candidate costs, in steps of a walk: a trial plays its parts and takes
/// them back alone, where a walk shares its head's work among the plies that follow it.
/// Set on the library (docs/performance.md, "2026-11-28 (fourth)" and "2026-11-29"): a
/// game whose two actions refuse a candidate for every 1.9 and 1.3 steps of their walks
/// plays 36% more random games a second listed; its third refuses one for every 4.9,
/// and the other games' actions one for every 27 steps or more, or none (drawn).
const REFUSAL_COST: f64 = 4.0;

impl Game {
    /// A legal ply drawn uniformly at random, or `None` when there is none (or the game is
    /// over), the way the game's [`Draw`] says: candidates drawn (much faster than
    /// [`Game::legal_plies`] where a fair share of them is legal) or plies listed.
    /// Candidates are tried on `state` itself and taken back: it ends as it was, and
    /// nothing is copied.
    pub fn random_ply<R: Rng + ?Sized>(&self, state: &mut State, rng: &mut R) -> Option<Ply> {
        self.draw(state, rng, Keep::No, self.route())
            .and_then(|drawn| match drawn {
                Drawn::Played(ply) | Drawn::Listed(ply) => Some(ply),
                Drawn::Kept => None,
            })
    }

    /// Draws a ply as [`Game::random_ply`] does and plays it: the same ply, with the same
    /// chance, as `random_ply` followed by [`Game::play`], but a drawn candidate that is
    /// legal is kept as it was tried instead of being taken back and played again.
    /// Random playouts (`rulebook bench`, MCTS) play this way.
    pub fn play_random<R: Rng + ?Sized>(&self, state: &mut State, rng: &mut R) -> Option<Ply> {
        let me = state.to_move;
        match self.draw(state, rng, Keep::Ply, self.route())? {
            // (Not asked for: `Keep::Ply` writes the ply out.)
            Drawn::Kept => None,
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

    /// Plays uniformly random legal plies until the game ends, no ply is left, or `limit`
    /// plies were played; returns how many were played. The same games, with the same
    /// chances, as [`Game::play_random`] in a loop, but whether the next player can play
    /// is answered by drawing (and playing) that player's ply at once, which the next step
    /// then finishes, rather than by a walk for the first legal ply and a draw after it.
    pub fn playout<R: Rng + ?Sized>(&self, state: &mut State, rng: &mut R, limit: u32) -> u32 {
        // The probe draws the next player's ply as it asks whether they can play; the
        // next step plays on from it (or draws one itself when the probe was not asked).
        let mut probe = Drawing {
            rng,
            route: self.route(),
            drawn: false,
            listed: None,
        };
        let mut plies = 0;
        // A game whose plies ran past their bound draws from lists cut short: stop.
        while plies < limit && state.outcome.is_none() && self.ran_away.get().is_none() {
            let me = state.to_move;
            if !probe.drawn && !probe.can_play(self, state) {
                break;
            }
            probe.drawn = false;
            if let Some(ply) = probe.listed.take() {
                let action = &self.actions[ply.action as usize];
                let mut locals = frame(action.frame);
                self.replay(state, &ply, &mut locals, None);
            }
            plies += 1;
            if plies == limit {
                // Nothing may be left half played.
                self.finish_ply(state, me);
            } else {
                self.finish_ply_with(state, me, &mut probe);
            }
        }
        plies
    }

    /// The actions whose plies [`Draw::Auto`] lists rather than draws (by index in
    /// [`Game::actions`]), measured on the first call: those where, over a few seeded
    /// games from the start, the candidates a draw would refuse cost more than walking
    /// the action's plies.
    pub fn listed_actions(&self) -> &[bool] {
        self.routes.get_or_init(|| self.measure_routes())
    }

    /// Lists the plies of the actions `listed` marks (by index) and draws the others',
    /// from now on: [`Draw::Auto`] with its measure replaced, for tests that compare the
    /// routes. Plies and their chances are the same whatever it says.
    pub fn list_actions(&mut self, listed: &[bool]) {
        self.draw = Draw::Auto;
        self.routes = listed.to_vec().into_boxed_slice().into();
    }

    /// Per action (by index), whether a draw lists its plies rather than drawing its
    /// candidates, the way the game's [`Draw`] says: every action under [`Draw::List`]; under
    /// the others those whose last part repeats (always listed), and under [`Draw::Auto`]
    /// those its measure lists. A fallback action is neither: it is walked only when no
    /// other action gives a ply.
    pub fn listed_by_draw(&self) -> Vec<bool> {
        if self.sifts() {
            return self.actions.iter().map(|a| !a.fallback).collect();
        }
        let measured = match self.draw {
            Draw::Auto => self.listed_actions(),
            Draw::List | Draw::Sample => &[],
        };
        (self.actions.iter().enumerate())
            .map(|(a, action)| {
                !action.fallback && (self.draw == Draw::List || lists_plies(action, measured, a))
            })
            .collect()
    }

    fn route(&self) -> Route<'_> {
        // Plies compared with each other (`engine::sift`) are drawn from their list.
        if self.sifts() {
            return Route::List;
        }
        match self.draw {
            Draw::List => Route::List,
            Draw::Sample => Route::Sample { listed: &[] },
            Draw::Auto => Route::Sample {
                listed: self.listed_actions(),
            },
        }
    }

    /// Plays a few seeded games from the start and, in positions along them, weighs for
    /// each action the candidates a draw would refuse against what walking its plies
    /// costs, in units of work (a candidate tried; a ply and each of its values walked,
    /// each play of a repeated part). A refused candidate is charged to every draw of the
    /// position (it is met before a legal one in proportion), at most what a draw refuses
    /// before it lists every ply. Both ways list the head's combinations first (a draw to
    /// number its candidates, a walk to go on from them), so neither is charged for them.
    /// The games are played on a copy of the game: a walk that runs away there
    /// ([`Game::runaway`]) ends the measure and leaves this game's plies whole.
    fn measure_routes(&self) -> Box<[bool]> {
        let n = self.actions.len();
        let (mut refused, mut walked) = (vec![0f64; n], vec![0f64; n]);
        let mut numbered: Vec<Numbering> = Vec::new();
        let mut plies = Vec::new();
        let probe = Game {
            ran_away: Default::default(),
            ..self.clone()
        };
        'games: for seed in 0..PROBE_GAMES {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut state = probe.start();
            for ply in 0..PROBE_LONGEST {
                if state.outcome.is_some() {
                    break;
                }
                if ply < PROBE_EVERY_PLY || ply % PROBE_STRIDE == 0 {
                    probe.candidates(&mut state, &mut numbered);
                    let counts: Vec<(u64, u64)> = numbered
                        .iter()
                        .map(|p| probe.count_action(&mut state, p.action as usize))
                        .collect();
                    let legal: u64 = counts.iter().map(|c| c.0).sum();
                    for (p, &(count, steps)) in numbered.iter().zip(&counts) {
                        let a = p.action as usize;
                        let wasted = p.size.saturating_sub(count) as f64 / legal.max(1) as f64;
                        refused[a] += wasted.min(MOST_DRAWS as f64);
                        walked[a] += steps as f64;
                    }
                }
                plies.clear();
                probe.walk(&mut state, &mut plies);
                if probe.ran_away.get().is_some() {
                    break 'games;
                }
                if plies.is_empty() {
                    break;
                }
                let ply = plies.swap_remove(rng.random_range(0..plies.len()));
                probe.play(&mut state, &ply);
            }
        }
        (0..n)
            .map(|a| !self.actions[a].fallback && REFUSAL_COST * refused[a] > walked[a])
            .collect()
    }
}

/// Asks whether the player to move can play by drawing their ply. A drawn candidate is
/// left played on the position (the rules ask last, so nothing else changes it before
/// [`Game::playout`] finishes that ply); a ply from a listing is kept to be played.
struct Drawing<'r, 'g, R: ?Sized> {
    rng: &'r mut R,
    route: Route<'g>,
    /// Whether a ply was drawn, and the ply when it was listed (not yet played): kept
    /// apart, so that the commonest answer, a candidate kept as played, moves a flag and
    /// not a whole [`Drawn`] (whose copy, read back in wide loads over the narrow write
    /// of its tag, stalled).
    drawn: bool,
    listed: Option<Ply>,
}

impl<R: Rng + ?Sized> Probe for Drawing<'_, '_, R> {
    fn can_play(&mut self, game: &Game, state: &mut State) -> bool {
        self.drawn = match game.draw(state, self.rng, Keep::Position, self.route) {
            None => false,
            // (A drawn candidate is left played: `Keep::Position` never writes it out.)
            Some(Drawn::Kept | Drawn::Played(_)) => true,
            Some(Drawn::Listed(ply)) => {
                self.listed = Some(ply);
                true
            }
        };
        self.drawn
    }
}
