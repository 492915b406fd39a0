//! Bots: programs that choose a ply for the player to move.
//!
//! Every bot works on any described game through the same small trait, and is
//! deterministic for a given seed.

pub mod greedy;
pub mod mcts;
pub mod random;
pub mod spec;

use crate::engine::game::{Game, Ply};
use crate::engine::state::State;

/// A player program.
pub trait Bot {
    /// Chooses a legal ply for the player to move, or `None` if the game is over.
    fn choose(&mut self, game: &Game, state: &State) -> Option<Ply>;
}

/// The bots that exist, for help and error messages.
pub const BOTS: &[&str] = &["random", "greedy", "mcts"];

/// Builds a bot from its spec string (`random`, `greedy`, `mcts:iters=2000`), seeded.
pub fn from_spec(text: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
    let mut spec = spec::Spec::parse(text)?;
    let bot: Box<dyn Bot> = match spec.name.as_str() {
        "random" => {
            spec.finish(&[])?;
            Box::new(random::RandomBot::new(seed))
        }
        "greedy" => {
            spec.finish(&[])?;
            Box::new(greedy::GreedyBot::new(seed))
        }
        "mcts" => Box::new(mcts::MctsBot::from_spec(&mut spec, seed)?),
        other => {
            return Err(format!(
                "unknown bot `{other}`; bots: {} (e.g. `mcts:iters=2000`)",
                BOTS.join(", ")
            ));
        }
    };
    Ok(bot)
}
