//! The MCTS bot: UCT over plies with random playouts.
//!
//! Rewards are one value per player (1 for a win, shared equally in a draw or when a
//! playout reaches its cap) and every node keeps the sum for each player; a node is
//! chosen by the player who moves at its parent (max^n). So 3 or 4 players, and turns of
//! several plies by the same player, need no special case. The move played is the most
//! visited child of the root.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use super::Bot;
use super::spec::Spec;
use crate::engine::game::{Game, Ply};
use crate::engine::state::State;

/// How long one search may run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// A number of iterations (deterministic for a given seed).
    Iterations(u64),
    /// Wall-clock time (not reproducible: depends on the machine's speed).
    Time(Duration),
}

/// Monte Carlo tree search with the UCT selection rule.
pub struct MctsBot {
    rng: Xoshiro256PlusPlus,
    budget: Budget,
    /// The exploration constant of UCT.
    c: f64,
    /// Plies after which a playout stops and counts as a draw.
    playout_cap: u32,
}

/// The options `mcts` takes, for error messages.
pub const OPTIONS: &[&str] = &["iters", "ms", "c", "playout"];

/// The most nodes one search grows (about a gigabyte): a search stops there whatever its
/// budget, as a long time budget on a fast game would otherwise fill memory. It is also
/// the most iterations `iters` may ask for (each iteration adds at most one node).
pub const MAX_NODES: usize = 10_000_000;

impl MctsBot {
    /// A bot with the given budget and the default exploration constant and playout cap.
    pub fn new(seed: u64, budget: Budget) -> MctsBot {
        MctsBot {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            budget,
            c: 1.4,
            playout_cap: 300,
        }
    }

    /// A bot from a spec's options: `iters=N` or `ms=N`, `c=F`, `playout=N`.
    pub fn from_spec(spec: &mut Spec, seed: u64) -> Result<MctsBot, String> {
        let iters: Option<u64> = spec.take_in("iters", 1..=MAX_NODES as u64)?;
        let ms: Option<u64> = spec.take_in("ms", 1..=super::MAX_MS)?;
        let budget = match (iters, ms) {
            (Some(_), Some(_)) => return Err("mcts takes `iters` or `ms`, not both".into()),
            (_, Some(ms)) => Budget::Time(Duration::from_millis(ms)),
            (Some(n), None) => Budget::Iterations(n),
            (None, None) => Budget::Iterations(1000),
        };
        let mut bot = MctsBot::new(seed, budget);
        if let Some(c) = spec.take::<f64>("c")? {
            if !(0.0..=100.0).contains(&c) {
                return Err(format!(
                    "mcts option `c={c}` must be a number from 0 to 100"
                ));
            }
            bot.c = c;
        }
        if let Some(cap) = spec.take_in::<u32>("playout", 1..=1_000_000)? {
            bot.playout_cap = cap;
        }
        spec.finish(OPTIONS)?;
        Ok(bot)
    }
}

/// The ply a search recommends and why: how often it was tried and the mean reward the
/// player to move got through it (1 = a win every time).
#[derive(Clone, Debug)]
pub struct Advice {
    pub ply: Ply,
    pub visits: u32,
    pub score: f64,
}

/// One node of the tree: the ply that leads to it, its statistics and its children.
struct Node {
    ply: Option<Ply>,
    parent: usize,
    children: Vec<usize>,
    /// Legal plies not expanded yet; `None` until the node is first visited.
    untried: Option<Vec<Ply>>,
    visits: u32,
    /// The sum of each player's rewards over the playouts through this node.
    rewards: Vec<f64>,
}

impl Node {
    fn new(ply: Option<Ply>, parent: usize, players: usize) -> Node {
        Node {
            ply,
            parent,
            children: Vec::new(),
            untried: None,
            visits: 0,
            rewards: vec![0.0; players],
        }
    }
}

/// Each player's reward for a finished (or capped) game.
fn rewards(state: &State, players: usize) -> Vec<f64> {
    let share = |winners: &[u8]| {
        let mut r = vec![0.0; players];
        for &w in winners {
            r[w as usize] = 1.0 / winners.len() as f64;
        }
        r
    };
    match &state.outcome {
        Some(o) if !o.winners.is_empty() => share(&o.winners),
        _ => vec![1.0 / players as f64; players],
    }
}

impl MctsBot {
    /// Plays random plies until the game ends or the cap is reached.
    fn playout(&mut self, game: &Game, state: &mut State) {
        game.playout(state, &mut self.rng, self.playout_cap);
    }

    /// The child of `node` with the best UCT value for `mover`.
    fn select(&self, tree: &[Node], node: usize, mover: usize) -> usize {
        let parent = &tree[node];
        let log_n = (parent.visits.max(1) as f64).ln();
        let mut best = parent.children[0];
        let mut best_value = f64::NEG_INFINITY;
        for &child in &parent.children {
            let n = tree[child].visits.max(1) as f64;
            let value = tree[child].rewards[mover] / n + self.c * (log_n / n).sqrt();
            if value > best_value {
                best_value = value;
                best = child;
            }
        }
        best
    }

    /// One iteration: select down the tree, expand one node, play out, back up. `state`
    /// is scratch space, set to `root` first (reusing its buffers).
    fn iterate(&mut self, game: &Game, root: &State, state: &mut State, tree: &mut Vec<Node>) {
        let players = game.players.len();
        state.clone_from(root);
        let mut node = 0;
        loop {
            if state.outcome.is_some() {
                break;
            }
            if tree[node].untried.is_none() {
                tree[node].untried = Some(game.legal_plies(state));
            }
            let untried = tree[node].untried.as_mut().expect("set above");
            if !untried.is_empty() {
                let i = self.rng.random_range(0..untried.len() as u64) as usize;
                let ply = untried.swap_remove(i);
                game.play(state, &ply);
                tree.push(Node::new(Some(ply), node, players));
                let child = tree.len() - 1;
                tree[node].children.push(child);
                node = child;
                break;
            }
            if tree[node].children.is_empty() {
                break;
            }
            let mover = state.to_move as usize;
            node = self.select(tree, node, mover);
            let ply = tree[node].ply.as_ref().expect("children have plies");
            game.play(state, ply);
        }
        self.playout(game, state);
        let r = rewards(state, players);
        loop {
            tree[node].visits += 1;
            for (sum, x) in tree[node].rewards.iter_mut().zip(&r) {
                *sum += x;
            }
            if node == 0 {
                break;
            }
            node = tree[node].parent;
        }
    }
}

impl MctsBot {
    /// Searches from `state` within the budget, even when the choice is forced; returns
    /// the most visited ply with its statistics, and how many iterations were run
    /// (`rulebook bench` measures the bot with it, the REPL's `hint` explains itself).
    /// A ply that wins at once is returned without a search (0 visits, score 1): among
    /// many plies, random playouts can leave it too few visits to be chosen.
    pub fn search(&mut self, game: &Game, state: &State) -> (Option<Advice>, u64) {
        self.search_until(game, state, &AtomicBool::new(false))
    }

    /// [`MctsBot::search`], stopping early once `stop` is set: the advice is then the
    /// best of the iterations run so far (none if none ran).
    pub fn search_until(
        &mut self,
        game: &Game,
        state: &State,
        stop: &AtomicBool,
    ) -> (Option<Advice>, u64) {
        let go_on = || !stop.load(Ordering::Relaxed);
        if let Some(ply) = winning_ply(game, state) {
            let advice = Advice {
                ply,
                visits: 0,
                score: 1.0,
            };
            return (Some(advice), 0);
        }
        let mut tree = vec![Node::new(None, 0, game.players.len())];
        let mut scratch = state.clone();
        let mut iterations = 0;
        match self.budget {
            Budget::Iterations(n) => {
                while iterations < n && tree.len() < MAX_NODES && go_on() {
                    self.iterate(game, state, &mut scratch, &mut tree);
                    iterations += 1;
                }
            }
            Budget::Time(limit) => {
                let start = Instant::now();
                while start.elapsed() < limit && tree.len() < MAX_NODES && go_on() {
                    self.iterate(game, state, &mut scratch, &mut tree);
                    iterations += 1;
                }
            }
        }
        // Most visited; ties go to the better average for the player to move.
        let me = state.to_move as usize;
        let best = tree[0].children.iter().copied().max_by(|&a, &b| {
            let key = |n: usize| {
                let node = &tree[n];
                (node.visits, node.rewards[me] / node.visits.max(1) as f64)
            };
            let (va, ra) = key(a);
            let (vb, rb) = key(b);
            va.cmp(&vb).then(ra.total_cmp(&rb))
        });
        let advice = best.and_then(|b| {
            let node = tree.swap_remove(b);
            let visits = node.visits;
            let score = node.rewards[me] / visits.max(1) as f64;
            node.ply.map(|ply| Advice { ply, visits, score })
        });
        (advice, iterations)
    }
}

/// The first legal ply after which the player to move wins alone, if any.
pub fn winning_ply(game: &Game, state: &State) -> Option<Ply> {
    let me = state.to_move;
    let mut next = state.clone();
    game.legal_plies(state).into_iter().find(|ply| {
        next.clone_from(state);
        game.play(&mut next, ply);
        next.outcome.as_ref().is_some_and(|o| o.winners == [me])
    })
}

impl Bot for MctsBot {
    fn choose(&mut self, game: &Game, state: &State) -> Option<Ply> {
        self.choose_or_stop(game, state, &AtomicBool::new(false))
    }

    fn choose_or_stop(&mut self, game: &Game, state: &State, stop: &AtomicBool) -> Option<Ply> {
        let legal = game.legal_plies(state);
        if legal.len() <= 1 {
            return legal.into_iter().next();
        }
        self.search_until(game, state, stop).0.map(|a| a.ply)
    }
}
