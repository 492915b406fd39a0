//! The greedy bot: plays out its own turn (every ply of it) and keeps the best position
//! that does not hand the next player a win in one.
//!
//! Positions are judged by the end of the game first (a win beats everything, a loss is
//! worst), then by the game's declared `[eval]` heuristic (material when it declares
//! none); ties are broken by the seed. The heuristic alone cannot see a reply that wins
//! at once, so the plies are then taken best first and the first whose turn does not
//! leave the next player a winning ply is played.

use std::sync::atomic::{AtomicBool, Ordering};

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;

use super::{Bot, heuristic};
use crate::engine::game::{Game, Ply};
use crate::engine::state::State;

/// How many positions one decision may look at before it settles for what it has seen.
const NODE_BUDGET: usize = 200_000;

/// The value of a lost position: any other value is above it.
const LOSS: i64 = i64::MIN / 2;

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
    /// the turn and the replies checked for a win, unless the budget ran out.
    pub fn positions_seen(&self) -> usize {
        self.seen
    }
}

/// The value of a position for `me`: game results dominate the heuristic.
fn value(game: &Game, state: &State, me: u8) -> i64 {
    match &state.outcome {
        Some(o) if o.winners.contains(&me) => i64::MAX / 2,
        Some(o) if o.winners.is_empty() => 0,
        Some(_) => LOSS,
        None => heuristic(game, state, me),
    }
}

/// The best value `me` can reach by the end of its current turn, `turn`, with the
/// position where it is reached written to `end`. The turn number, not the player to
/// move, says when the turn is over: when every opponent is stuck and passes, `me` moves
/// again, but in a later turn that this bot does not search. `stop` (Ctrl-C in `play`)
/// ends the search like an exhausted budget.
fn best_in_turn(
    game: &Game,
    state: &State,
    me: u8,
    turn: u32,
    budget: &mut usize,
    stop: &AtomicBool,
    end: &mut State,
) -> i64 {
    if state.outcome.is_some() || state.turn != turn || *budget == 0 {
        end.clone_from(state);
        return value(game, state, me);
    }
    if stop.load(Ordering::Relaxed) {
        *budget = 0;
        end.clone_from(state);
        return value(game, state, me);
    }
    let mut best = i64::MIN;
    let mut reached = state.clone();
    for ply in game.legal_plies(state) {
        *budget = budget.saturating_sub(1);
        let mut next = state.clone();
        game.play(&mut next, &ply);
        let v = best_in_turn(game, &next, me, turn, budget, stop, &mut reached);
        if v > best {
            best = v;
            end.clone_from(&reached);
        }
    }
    best
}

/// Whether the player to move at `end`, if it is not `me`, has a ply that wins at once
/// (alone or shared); each reply tried costs one position of the budget.
fn hands_a_win(game: &Game, end: &State, me: u8, budget: &mut usize) -> bool {
    if end.outcome.is_some() || end.to_move == me {
        return false;
    }
    let them = end.to_move;
    let mut next = end.clone();
    game.legal_plies(end).iter().any(|reply| {
        *budget = budget.saturating_sub(1);
        next.clone_from(end);
        game.play(&mut next, reply);
        next.outcome
            .as_ref()
            .is_some_and(|o| o.winners.contains(&them))
    })
}

impl Bot for GreedyBot {
    fn choose(&mut self, game: &Game, state: &State) -> Option<Ply> {
        self.choose_or_stop(game, state, &AtomicBool::new(false))
    }

    /// Stopped, it keeps the best of the plies it had judged (the budget ran out early).
    fn choose_or_stop(&mut self, game: &Game, state: &State, stop: &AtomicBool) -> Option<Ply> {
        let me = state.to_move;
        let mut budget = NODE_BUDGET;
        let mut legal = game.legal_plies(state);
        // Shuffled, then sorted stably by value: among equal values the order is the
        // seed's, so the first safe ply of the best value is a seeded tie-break.
        legal.shuffle(&mut self.rng);
        let mut judged: Vec<(i64, Ply, State)> = Vec::with_capacity(legal.len());
        for ply in legal {
            if stop.load(Ordering::Relaxed) && !judged.is_empty() {
                break;
            }
            budget = budget.saturating_sub(1);
            let mut next = state.clone();
            game.play(&mut next, &ply);
            let mut end = next.clone();
            let v = best_in_turn(game, &next, me, state.turn, &mut budget, stop, &mut end);
            judged.push((v, ply, end));
        }
        judged.sort_by_key(|(v, _, _)| std::cmp::Reverse(*v));
        let safe = judged.iter().position(|(v, _, end)| {
            *v > LOSS
                && (budget == 0
                    || stop.load(Ordering::Relaxed)
                    || !hands_a_win(game, end, me, &mut budget))
        });
        self.seen = NODE_BUDGET - budget;
        if judged.is_empty() {
            return None;
        }
        let i = safe.unwrap_or(0);
        Some(judged.swap_remove(i).1)
    }
}
