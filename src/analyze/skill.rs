//! Skill depth: how much a stronger bot gains over a weaker one in a game. A ladder of
//! bots, each rung a short match between one bot and the next stronger: random, greedy,
//! MCTS at 100 iterations, MCTS at 1,000. A game in which the stronger bot of a rung
//! does not win more has little skill to learn at that level; the depth is the number
//! of rungs the stronger bot wins with a score whose interval lies above one half.
//!
//! It is the expensive metric (MCTS at 1,000 iterations a ply), so it runs only when
//! asked (`--skill GAMES`, the games of each rung), seeded as the other games are.

use rayon::prelude::*;
use serde::Serialize;

use super::stats::Proportion;
use crate::bots;
use crate::engine::game::Game;
use crate::tournament::game_seed;

/// The ladder, weakest first.
pub const LADDER: [&str; 4] = ["random", "greedy", "mcts:iters=100", "mcts:iters=1000"];

/// Mixed into the seed so that the ladder's games do not share the analysis' seeds.
const SALT: u64 = 0x5EED_5C11_1D00_0000;

/// One rung: the stronger bot's score against the weaker.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rung {
    pub stronger: String,
    pub weaker: String,
    pub score: Proportion,
}

/// The ladder's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Skill {
    pub rungs: Vec<Rung>,
    /// Rungs whose stronger bot's score interval lies above 0.5.
    pub depth: usize,
}

/// Plays `games` games on each rung of the ladder (seats alternating), on the current
/// thread pool, calling `done` after each game.
pub fn ladder(game: &Game, games: usize, seed: u64, done: &(dyn Fn() + Sync)) -> Skill {
    let rungs: Vec<Rung> = (0..LADDER.len() - 1)
        .map(|rung| {
            let specs = [LADDER[rung + 1], LADDER[rung]];
            let scores: Vec<f64> = (0..games)
                .into_par_iter()
                .map(|i| {
                    let s = game_seed(seed ^ SALT, (rung * games + i) as u64);
                    let score = stronger_score(game, &specs, s, i);
                    done();
                    score
                })
                .collect();
            Rung {
                stronger: specs[0].into(),
                weaker: specs[1].into(),
                score: Proportion::new(scores.iter().sum(), games as u64),
            }
        })
        .collect();
    let depth = rungs.iter().filter(|r| r.score.low > 0.5).count();
    Skill { rungs, depth }
}

/// Plays one game, participant `(seat + index) % 2` in each seat, and gives the first
/// participant's score: 1 for a win, 0 for a loss, a half for a draw.
fn stronger_score(game: &Game, specs: &[&str; 2], seed: u64, index: usize) -> f64 {
    let seating: Vec<usize> = (0..game.players.len()).map(|s| (s + index) % 2).collect();
    let mut players: Vec<Box<dyn bots::Bot>> = (seating.iter().enumerate())
        .map(|(s, &b)| {
            bots::from_spec(specs[b], seed.wrapping_add(s as u64)).expect("the ladder's specs")
        })
        .collect();
    let mut state = game.start();
    while state.outcome.is_none() && game.runaway().is_none() {
        let Some(ply) = players[state.to_move as usize].choose(game, &state) else {
            break;
        };
        game.play(&mut state, &ply);
    }
    let winners = state.outcome.map(|o| o.winners).unwrap_or_default();
    if winners.is_empty() {
        return 0.5;
    }
    let stronger_won = winners.iter().any(|&w| seating[w as usize] == 0);
    let weaker_won = winners.iter().any(|&w| seating[w as usize] == 1);
    match (stronger_won, weaker_won) {
        (true, false) => 1.0,
        (false, true) => 0.0,
        _ => 0.5,
    }
}
