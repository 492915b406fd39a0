//! The alpha-beta bot: iterative deepening over plies with a transposition table.
//!
//! Beyond two players the search is paranoid: the bot's own plies maximise its value and
//! every other player's plies minimise it, whoever they are, which is sound for turns of
//! several plies too (the player to move decides who chooses). Each iteration orders the
//! plies of a position by the best one the previous iteration found there, kept in the
//! transposition table under the position's Zobrist hash.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rustc_hash::FxHashMap;

use super::spec::Spec;
use super::{Bot, Clock, Timer, heuristic};
use crate::engine::game::{Game, Ply};
use crate::engine::state::State;

/// The value of a won position (minus the plies it takes, so faster wins rank higher).
const WIN: i64 = 1 << 40;

/// How deep or how long one search may go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Iterations up to this many plies (deterministic for a given seed).
    Depth(u32),
    /// Deepen until the time is up; the last finished iteration decides.
    Time(Duration),
}

/// The options `alphabeta` takes, for error messages.
pub const OPTIONS: &[&str] = &["depth", "ms"];

/// The deepest search, in plies (also where a time budget stops deepening).
pub const MAX_DEPTH: u32 = 64;

/// The most positions the transposition table keeps (some hundreds of megabytes): past
/// it the table starts afresh, so a long time budget slows the search a little instead of
/// filling memory.
const MAX_TABLE: usize = 2_000_000;

/// Iterative-deepening alpha-beta (paranoid beyond two players).
pub struct AlphaBetaBot {
    rng: Xoshiro256PlusPlus,
    budget: Budget,
    clock: Clock,
}

/// What the table remembers of a searched position.
#[derive(Clone)]
struct Entry {
    depth: u32,
    value: i64,
    bound: Bound,
    best: Option<Ply>,
}

#[derive(Clone, Copy, PartialEq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// A search in progress: the table, the clock, the player searched for.
struct Search<'a> {
    game: &'a Game,
    me: u8,
    table: FxHashMap<u64, Entry>,
    /// The time spent, read at every inner node, and the budget, if it is one of time.
    timer: Timer,
    limit: Option<Duration>,
    /// Set from outside (Ctrl-C in `play`) to stop the search like the time budget does.
    stop: &'a AtomicBool,
    out_of_time: bool,
}

impl AlphaBetaBot {
    pub fn new(seed: u64, budget: Budget) -> AlphaBetaBot {
        AlphaBetaBot {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            budget,
            clock: Clock::Real,
        }
    }

    /// The same bot reading the time from `clock` (tests of the budget logic).
    pub fn with_clock(mut self, clock: Clock) -> AlphaBetaBot {
        self.clock = clock;
        self
    }

    /// A bot from a spec's options: `depth=N` or `ms=N` (default depth 3).
    pub fn from_spec(spec: &mut Spec, seed: u64) -> Result<AlphaBetaBot, String> {
        let depth: Option<u32> = spec.take_in("depth", 1..=MAX_DEPTH)?;
        let ms: Option<u64> = spec.take_in("ms", 1..=super::MAX_MS)?;
        let budget = match (depth, ms) {
            (Some(_), Some(_)) => return Err("alphabeta takes `depth` or `ms`, not both".into()),
            (_, Some(ms)) => Budget::Time(Duration::from_millis(ms)),
            (Some(d), None) => Budget::Depth(d),
            (None, None) => Budget::Depth(3),
        };
        spec.finish(OPTIONS)?;
        Ok(AlphaBetaBot::new(seed, budget))
    }
}

/// A 64-bit Zobrist hash of everything that decides a position's future: each piece by
/// cell, height, kind, owner and move stamps, the variables, whose turn and which ply of
/// it, the turn number and who is still in the game. The keys come from a fixed mixing
/// function of the feature (splitmix64) rather than a table, so no table bounds the board
/// or the stack heights, and the hash is the same on every machine.
pub fn zobrist(state: &State) -> u64 {
    fn key(parts: [u64; 4]) -> u64 {
        let mut z = parts[0]
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(parts[1].wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
            .wrapping_add(parts[2].wrapping_mul(0x1656_67B1_9E37_79F9))
            .wrapping_add(parts[3]);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    let mut h = key([
        1,
        state.to_move as u64,
        state.ply_in_turn as u64,
        state.turn as u64,
    ]);
    h ^= key([2, state.alive as u64, state.silent_passes as u64, 0]);
    for (cell, stack) in state.stacks().iter().enumerate() {
        for (level, p) in stack.iter().enumerate() {
            let piece = (p.kind as u64) << 8 | p.owner as u64;
            let stamps = (p.moved as u64) << 32 | p.moved_before as u64;
            h ^= key([3, (cell as u64) << 16 | level as u64, piece, stamps]);
        }
    }
    for (slot, &v) in state.vars.iter().enumerate() {
        h ^= key([4, slot as u64, v as u64, 0]);
    }
    h
}

impl Search<'_> {
    fn time_is_up(&mut self) -> bool {
        if let Some(limit) = self.limit
            && self.timer.elapsed() >= limit
        {
            self.out_of_time = true;
        }
        // A game whose plies ran past their bound lists them cut short: nothing to
        // search on (`Game::runaway`).
        if self.stop.load(Ordering::Relaxed) || self.game.runaway().is_some() {
            self.out_of_time = true;
        }
        self.out_of_time
    }

    /// The value of a finished or horizon position for `me`.
    fn leaf(&self, state: &State, height: u32) -> i64 {
        match &state.outcome {
            Some(o) if o.winners.contains(&self.me) => WIN - height as i64,
            Some(o) if o.winners.is_empty() => 0,
            Some(_) => -WIN + height as i64,
            None => heuristic(self.game, state, self.me),
        }
    }

    /// Alpha-beta to `depth` more plies; `height` is the distance from the root.
    fn search(
        &mut self,
        state: &State,
        depth: u32,
        height: u32,
        mut alpha: i64,
        mut beta: i64,
    ) -> i64 {
        if depth == 0 || state.outcome.is_some() || self.time_is_up() {
            return self.leaf(state, height);
        }
        let hash = zobrist(state);
        let mut first = None;
        if let Some(e) = self.table.get(&hash) {
            if e.depth >= depth {
                match e.bound {
                    Bound::Exact => return e.value,
                    Bound::Lower => alpha = alpha.max(e.value),
                    Bound::Upper => beta = beta.min(e.value),
                }
                if alpha >= beta {
                    return e.value;
                }
            }
            first = e.best.clone();
        }
        let mut plies = self.game.legal_plies(state);
        if plies.is_empty() {
            return self.leaf(state, height);
        }
        if let Some(best) = first
            && let Some(i) = plies.iter().position(|p| *p == best)
        {
            plies[..=i].rotate_right(1);
        }
        let maximising = state.to_move == self.me;
        let (alpha0, beta0) = (alpha, beta);
        let mut best_value = if maximising { i64::MIN } else { i64::MAX };
        let mut best_ply = None;
        for ply in plies {
            let mut next = state.clone();
            self.game.play(&mut next, &ply);
            let v = self.search(&next, depth - 1, height + 1, alpha, beta);
            if self.out_of_time {
                return best_value;
            }
            if (maximising && v > best_value) || (!maximising && v < best_value) {
                best_value = v;
                best_ply = Some(ply);
            }
            if maximising {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        let bound = if best_value <= alpha0 {
            Bound::Upper
        } else if best_value >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if self.table.len() >= MAX_TABLE {
            self.table.clear();
        }
        self.table.insert(
            hash,
            Entry {
                depth,
                value: best_value,
                bound,
                best: best_ply,
            },
        );
        best_value
    }
}

impl Bot for AlphaBetaBot {
    fn choose(&mut self, game: &Game, state: &State) -> Option<Ply> {
        self.choose_or_stop(game, state, &AtomicBool::new(false))
    }

    /// Stopped, it plays the best ply of the deepest search it finished; before the first
    /// (one ply deep) is finished it has none.
    fn choose_or_stop(&mut self, game: &Game, state: &State, stop: &AtomicBool) -> Option<Ply> {
        let mut plies = game.legal_plies(state);
        if plies.len() <= 1 {
            return plies.pop();
        }
        // The seed breaks ties: equal plies are met in a seeded order, the first kept.
        plies.shuffle(&mut self.rng);
        let (max_depth, limit) = match self.budget {
            Budget::Depth(d) => (d, None),
            Budget::Time(t) => (MAX_DEPTH, Some(t)),
        };
        let mut search = Search {
            game,
            me: state.to_move,
            table: FxHashMap::default(),
            timer: Timer::start(self.clock),
            limit,
            stop,
            out_of_time: false,
        };
        let mut best = plies[0].clone();
        let mut finished = false;
        for depth in 1..=max_depth {
            let mut alpha = i64::MIN;
            let mut iteration_best = None;
            for ply in &plies {
                let mut next = state.clone();
                game.play(&mut next, ply);
                let v = search.search(&next, depth - 1, 1, alpha, i64::MAX);
                if search.out_of_time {
                    break;
                }
                if v > alpha || iteration_best.is_none() {
                    alpha = v;
                    iteration_best = Some(ply.clone());
                }
            }
            if search.out_of_time {
                break;
            }
            if let Some(b) = iteration_best {
                // Search the best first next time.
                let i = plies.iter().position(|p| *p == b).expect("from the list");
                plies[..=i].rotate_right(1);
                best = b;
                finished = true;
            }
            if alpha >= WIN - 64 {
                break;
            }
        }
        (finished || !stop.load(Ordering::Relaxed)).then_some(best)
    }
}
