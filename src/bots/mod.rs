//! Bots: programs that choose a ply for the player to move.
//!
//! Every bot works on any described game through the same small trait, and is
//! deterministic for a given seed.

pub mod alphabeta;
pub mod greedy;
pub mod mcts;
pub mod random;
pub mod spec;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::engine::game::{Game, Ply};
use crate::engine::state::{NEUTRAL, State};

/// A player program. `Send`, so that `play` can let it think on a thread of its own
/// while it shows the time and listens for Ctrl-C.
pub trait Bot: Send {
    /// Chooses a legal ply for the player to move, or `None` if the game is over.
    fn choose(&mut self, game: &Game, state: &State) -> Option<Ply>;

    /// The same, but gives up once `stop` is set (Ctrl-C in `play`): then it returns the
    /// best ply it has found so far, or `None` when it has none worth playing yet. A bot
    /// that answers at once need not look at the flag.
    fn choose_or_stop(&mut self, game: &Game, state: &State, stop: &AtomicBool) -> Option<Ply> {
        let _ = stop;
        self.choose(game, state)
    }
}

/// The bot that takes the seats nobody named in `rulebook play`: it answers at once on
/// every game, is deterministic for a seed, and beats random play in every shipped game
/// (docs/bots.md has the figures).
pub const DEFAULT_OPPONENT: &str = "greedy";

/// The longest time budget a bot spec may give (`ms=`), an hour: longer is a mistake.
pub const MAX_MS: u64 = 3_600_000;

/// Where a bot with a time budget reads the time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Clock {
    /// The machine's clock.
    Real,
    /// A clock that moves this far at every reading and not otherwise: a test of a bot's
    /// budget logic then knows exactly how many readings fit in a budget, whatever the
    /// machine's speed (tests never assert on wall time).
    Stepped(Duration),
}

/// The time since a search started, read from a [`Clock`]. Each search thread has its own,
/// so a stepped clock counts that thread's readings alone.
#[derive(Clone, Debug)]
pub struct Timer {
    clock: Clock,
    start: Instant,
    readings: u32,
}

impl Timer {
    /// Starts timing now.
    pub fn start(clock: Clock) -> Timer {
        Timer {
            clock,
            start: Instant::now(),
            readings: 0,
        }
    }

    /// The time spent since the start (a stepped clock moves on by one step).
    pub fn elapsed(&mut self) -> Duration {
        match self.clock {
            Clock::Real => self.start.elapsed(),
            Clock::Stepped(step) => {
                self.readings = self.readings.saturating_add(1);
                step.saturating_mul(self.readings)
            }
        }
    }
}

/// The bots that exist, for help and error messages.
pub const BOTS: &[&str] = &["random", "greedy", "alphabeta", "mcts"];

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
        "alphabeta" => Box::new(alphabeta::AlphaBetaBot::from_spec(&mut spec, seed)?),
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

/// How good a running position is for `me`, for the bots that judge positions: the game's
/// `[eval]` when it declares one, otherwise material (my pieces against the others', each
/// opponent weighing as much as me in total).
pub fn heuristic(game: &Game, state: &State, me: u8) -> i64 {
    if game.eval.is_some() {
        return game.evaluate(state, me);
    }
    let (mut mine, mut theirs) = (0i64, 0i64);
    for p in state.stacks().iter().flatten() {
        if p.owner == me {
            mine += 1;
        } else if p.owner != NEUTRAL {
            theirs += 1;
        }
    }
    let opponents = (game.players.len() as i64 - 1).max(1);
    mine * opponents - theirs
}
