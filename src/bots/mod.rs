//! Bots: programs that choose a ply for the player to move.
//!
//! Every bot works on any described game through the same small trait, and is
//! deterministic for a given seed.

pub mod greedy;
pub mod random;

use crate::engine::game::{Game, Ply};
use crate::engine::state::State;

/// A player program.
pub trait Bot {
    /// Chooses a legal ply for the player to move, or `None` if the game is over.
    fn choose(&mut self, game: &Game, state: &State) -> Option<Ply>;
}

/// Builds a bot from its spec string (`random`, `greedy`), seeded.
pub fn from_spec(spec: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
    match spec.trim() {
        "random" => Ok(Box::new(random::RandomBot::new(seed))),
        "greedy" => Ok(Box::new(greedy::GreedyBot::new(seed))),
        other => Err(format!("unknown bot `{other}`; bots: random, greedy")),
    }
}
