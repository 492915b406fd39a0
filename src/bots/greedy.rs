//! The greedy bot: plays out its own turn (every ply of it) and keeps the best position.
//!
//! Positions are judged by the end of the game first (a win beats everything, a loss is
//! worst), then by the game's declared `[eval]` heuristic (material when it declares
//! none); ties are broken by the seed.

use std::sync::atomic::{AtomicBool, Ordering};

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use super::{Bot, heuristic};
use crate::engine::game::{Game, Ply};
use crate::engine::state::State;

/// How many positions one decision may look at before it settles for what it has seen.
const NODE_BUDGET: usize = 200_000;

/// Looks ahead to the end of its own turn and maximises the evaluation.
pub struct GreedyBot {
    rng: Xoshiro256PlusPlus,
    /// How many positions the last decision looked at.
    seen: usize,
}

impl GreedyBot {
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            seen: 0,
        }
    }

    /// How many positions the last decision looked at: every position reachable within
    /// the turn, unless the budget ran out.
    pub fn positions_seen(&self) -> usize {
        self.seen
    }
}

/// The value of a position for `me`: game results dominate the heuristic.
fn value(game: &Game, state: &State, me: u8) -> i64 {
    match &state.outcome {
        Some(o) if o.winners.contains(&me) => i64::MAX / 2,
        Some(o) if o.winners.is_empty() => 0,
        Some(_) => i64::MIN / 2,
        None => heuristic(game, state, me),
    }
}

/// The best value `me` can reach by the end of its current turn, `turn`. The turn number,
/// not the player to move, says when the turn is over: when every opponent is stuck and
/// passes, `me` moves again, but in a later turn that this bot does not search.
/// `stop` (Ctrl-C in `play`) ends the search like an exhausted budget.
fn best_in_turn(
    game: &Game,
    state: &State,
    me: u8,
    turn: u32,
    budget: &mut usize,
    stop: &AtomicBool,
) -> i64 {
    if state.outcome.is_some() || state.turn != turn || *budget == 0 {
        return value(game, state, me);
    }
    if stop.load(Ordering::Relaxed) {
        *budget = 0;
        return value(game, state, me);
    }
    let mut best = i64::MIN;
    for ply in game.legal_plies(state) {
        *budget = budget.saturating_sub(1);
        let mut next = state.clone();
        game.play(&mut next, &ply);
        best = best.max(best_in_turn(game, &next, me, turn, budget, stop));
    }
    best
}

impl Bot for GreedyBot {
    fn choose(&mut self, game: &Game, state: &State) -> Option<Ply> {
        self.choose_or_stop(game, state, &AtomicBool::new(false))
    }

    /// Stopped, it keeps the best of the plies it had judged (the budget ran out early).
    fn choose_or_stop(&mut self, game: &Game, state: &State, stop: &AtomicBool) -> Option<Ply> {
        let me = state.to_move;
        let mut budget = NODE_BUDGET;
        let mut best: Vec<Ply> = Vec::new();
        let mut best_value = i64::MIN;
        let legal = game.legal_plies(state);
        for ply in &legal {
            if stop.load(Ordering::Relaxed) && !best.is_empty() {
                break;
            }
            budget = budget.saturating_sub(1);
            let mut next = state.clone();
            game.play(&mut next, ply);
            let v = best_in_turn(game, &next, me, state.turn, &mut budget, stop);
            if v > best_value {
                best_value = v;
                best.clear();
            }
            if v == best_value {
                best.push(ply.clone());
            }
        }
        self.seen = NODE_BUDGET - budget;
        if best.is_empty() {
            return None;
        }
        let i = self.rng.random_range(0..best.len() as u64) as usize;
        Some(best.swap_remove(i))
    }
}
