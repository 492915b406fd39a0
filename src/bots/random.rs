//! The random bot: a uniformly random legal ply.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use super::Bot;
use crate::engine::game::{Game, Ply};
use crate::engine::state::State;

/// Picks uniformly among the legal plies, in generation order, from a seeded generator.
pub struct RandomBot {
    rng: Xoshiro256PlusPlus,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl Bot for RandomBot {
    fn choose(&mut self, game: &Game, state: &State) -> Option<Ply> {
        let mut legal = game.legal_plies(state);
        if legal.is_empty() {
            return None;
        }
        // Sampled as u64 so the choice is the same on 32- and 64-bit machines.
        let i = self.rng.random_range(0..legal.len() as u64) as usize;
        Some(legal.swap_remove(i))
    }
}
