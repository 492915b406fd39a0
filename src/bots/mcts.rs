//! The MCTS bot: UCT over plies with random playouts, built to work where a turn has
//! thousands of plies as well as where it has three.
//!
//! Rewards are one value per player (1 for a win, shared equally in a draw or when a
//! playout reaches its cap); a node keeps the sum of the rewards of the player who chose
//! it, and a child is chosen by the player who moves at its parent (max^n). So 3 or 4
//! players, and turns of several plies by the same player, need no special case.
//!
//! Plain UCT tries every ply of a node once before it tries any twice, so where a turn
//! offers 2,280 plies two thousand iterations are spent one each on different children
//! and say nothing. Here:
//!
//! - **progressive widening**: a node with `n` visits has at most `ceil(widen·√n)`
//!   children, so visits go deeper into the plies tried instead of being spread over
//!   untried ones;
//! - **priors**: the root, and any node once it has [`PRIOR_VISITS`] visits, lists its
//!   plies ordered by the game's `[eval]` one ply later (a win first) and widens in that
//!   order; a node with fewer visits widens with uniformly random plies, drawn without
//!   listing them (the cost of ordering is paid only where visits come back);
//! - **tree reuse**: asked about a position that follows the last one searched, the bot
//!   keeps the subtree of the plies actually played;
//! - **threads taking turns**: `threads=N` grows one tree with N threads that take turns
//!   at it, in a fixed order, to back up a playout and go down for the next, and play
//!   their playouts at the same time (see `relay`): deterministic for a seed and a
//!   number of iterations, and one thread is exactly the serial search;
//! - **cut-off playouts**: in a game that declares an `[eval]`, a playout stops after the
//!   plies its `[eval] cutoff` gives (`compile::DEFAULT_EVAL_CUTOFF` by default, none
//!   with `cutoff = 0`; the spec's `cutoff=N` or `cutoff=0` overrides both) and is
//!   scored by `[eval]` instead of being played to the end: random plies say little in
//!   games where a random player hangs its pieces, and the heuristic says much.
//!
//! - **a solver** (MCTS-Solver): a node where the game ends with one winner is proven
//!   won by that player, and so is its parent when the parent's mover chose it, or when
//!   every ply of the parent is a child won by the same player. Selection passes over the
//!   children proven won by another player, an iteration that reaches a proven node
//!   scores it without a playout, and a node whose children are all lost may grow past
//!   what widening allows. A ply that lets the opponent win at once is proven lost as
//!   soon as the reply that wins is in the tree.
//!
//! Before any search, a ply that begins a line of the mover's own plies that wins within
//! its turn is played at once ([`winning_ply`]). Otherwise the ply played is the most
//! visited child of the root among those proven won, if any, else among those not proven
//! lost, else (every ply proven lost) the most visited;
//! [`Advice`] says how many visits that is, out of how many, and the mean reward behind
//! it with its interval. A search whose root is proven stops there.

use std::cmp::Reverse;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

mod relay;

use super::spec::Spec;
use super::{Bot, Clock, Timer, heuristic};
use crate::engine::game::{Game, Ply};
use crate::engine::state::State;

/// How long one search may run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// A number of iterations per thread (deterministic for a given seed).
    Iterations(u64),
    /// Wall-clock time (not reproducible: depends on the machine's speed).
    Time(Duration),
}

impl Budget {
    /// Whether a time budget is spent by `timer`'s reading (an iteration budget never is:
    /// its iterations are counted where they run). Reading a stepped clock moves it on.
    fn time_spent(self, timer: &mut Timer) -> bool {
        match self {
            Budget::Time(limit) => timer.elapsed() >= limit,
            Budget::Iterations(_) => false,
        }
    }
}

/// How the search grows its tree: the spec's options other than the budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The exploration constant of UCT.
    pub c: f64,
    /// Plies after which a playout stops and counts as a draw.
    pub playout_cap: u32,
    /// When a playout stops to be scored by `[eval]`.
    pub cutoff: Cutoff,
    /// The widening coefficient: a node with `n` visits has at most `ceil(widen·√n)`
    /// children; 0 expands every ply (plain UCT).
    pub widen: f64,
    /// Threads growing the tree, each with its own playouts.
    pub threads: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            c: 1.4,
            playout_cap: 300,
            cutoff: Cutoff::Auto,
            widen: 1.0,
            threads: 1,
        }
    }
}

/// When playouts stop early to be scored by the game's heuristic.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cutoff {
    /// As the game's `[eval] cutoff` says in a game that declares an `[eval]`
    /// (`compile::DEFAULT_EVAL_CUTOFF` plies when it says nothing), full playouts in one
    /// that does not: counting material is no substitute for playing on. Unless random
    /// playouts do not end there: when none of [`ENDING_PROBES`] from the position
    /// searched ends within the playout cap, playouts that would only run to the cap
    /// stop after `DEFAULT_EVAL_CUTOFF` plies, scored by material.
    Auto,
    /// Always full playouts (`cutoff=0`).
    Off,
    /// After this many plies, whatever the game (`cutoff=N`; scored by material when the
    /// game declares no `[eval]`).
    After(u32),
}

/// Random playouts [`Cutoff::Auto`] plays from a position, in a game without `[eval]`, to
/// tell whether random games end there.
pub const ENDING_PROBES: u64 = 3;

impl Settings {
    /// The plies after which a search from `state` stops its playouts in `game` and
    /// scores them by its heuristic, or `None` for playouts to the end (or to the cap).
    pub fn cutoff_in(&self, game: &Game, state: &State) -> Option<u32> {
        match self.cutoff {
            Cutoff::Auto if game.eval.is_some() => game.eval_cutoff,
            Cutoff::Auto => {
                let ends = (0..ENDING_PROBES).any(|seed| {
                    let mut probe = state.clone();
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                    game.playout(&mut probe, &mut rng, self.playout_cap);
                    probe.outcome.is_some()
                });
                (!ends).then_some(crate::compile::DEFAULT_EVAL_CUTOFF)
            }
            Cutoff::Off => None,
            Cutoff::After(n) => Some(n),
        }
    }

    /// These settings with the cut-off of a search from `state` in `game` worked out.
    fn resolved(self, game: &Game, state: &State) -> Settings {
        Settings {
            cutoff: match self.cutoff_in(game, state) {
                Some(n) => Cutoff::After(n),
                None => Cutoff::Off,
            },
            ..self
        }
    }
}

/// Monte Carlo tree search with the UCT selection rule.
pub struct MctsBot {
    budget: Budget,
    settings: Settings,
    clock: Clock,
    /// How many threads the workers may run on (the machine's cores when `None`).
    cores: Option<usize>,
    /// The search tree, kept between moves (every thread grows this one).
    tree: Tree,
    /// One per thread, kept between moves: its generator and scratch positions.
    workers: Vec<Worker>,
}

/// The options `mcts` takes, for error messages.
pub const OPTIONS: &[&str] = &["iters", "ms", "c", "playout", "cutoff", "widen", "threads"];

/// The most nodes one search keeps (about a gigabyte): a search stops
/// there whatever its budget, as a long time budget on a fast game would otherwise fill
/// memory. It is also the most iterations `iters` may ask for.
pub const MAX_NODES: usize = 10_000_000;

/// The most threads `threads=` may ask for.
pub const MAX_THREADS: usize = 64;

/// Visits after which a node orders its plies by `[eval]`: listing and judging every
/// ply of a node with thousands of plies costs about as much as some tens of playouts,
/// so it is spent on nodes that searches come back to, not on every leaf.
pub const PRIOR_VISITS: u32 = 32;

/// Random draws that may land on plies already tried before a node lists its plies to
/// find one that is not.
const DRAW_TRIES: u32 = 8;

/// The most plies between two positions asked about for the tree of the first to be
/// searched for the second.
const REUSE_DEPTH: u32 = 16;

/// The most plies replayed while looking for the new root in the old tree.
const REUSE_PLAYS: usize = 20_000;

/// The clock (and the stop flag) is read once per this many plies judged while ordering
/// a wide root, or positions looked at for a win within the turn.
const CLOCK_EVERY: usize = 64;

/// The most positions [`winning_ply`] looks at for a line that wins within the turn (a
/// whole turn of three plies of about 25 each is some 15,000).
const TURN_SEARCH: usize = 100_000;

/// A node index that points nowhere.
const NONE: u32 = u32::MAX;

/// The number of legal plies of a node whose plies were never listed.
const UNKNOWN: u32 = u32::MAX;

/// The winner of a node whose value is not proven.
const UNPROVEN: u8 = u8::MAX;

impl MctsBot {
    /// A bot with the given budget and the default settings.
    pub fn new(seed: u64, budget: Budget) -> MctsBot {
        MctsBot::with_settings(seed, budget, Settings::default())
    }

    /// A bot with the given budget and settings.
    pub fn with_settings(seed: u64, budget: Budget, settings: Settings) -> MctsBot {
        let threads = settings.threads.clamp(1, MAX_THREADS);
        MctsBot {
            budget,
            settings: Settings {
                threads,
                ..settings
            },
            clock: Clock::Real,
            cores: None,
            tree: Tree::default(),
            workers: (0..threads)
                .map(|i| Worker::new(thread_seed(seed, i as u64)))
                .collect(),
        }
    }

    /// The settings the search runs with, as its spec gave them: what a spec's options
    /// turn into is a promise to the user, and tests hold it.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// The same bot reading the time from `clock` (tests of the budget logic).
    pub fn with_clock(mut self, clock: Clock) -> MctsBot {
        self.clock = clock;
        self
    }

    /// The same bot with its workers on at most `cores` threads (tests that the search
    /// does not depend on how many there are).
    pub fn with_cores(mut self, cores: usize) -> MctsBot {
        self.cores = Some(cores.max(1));
        self
    }

    /// A bot from a spec's options: `iters=N` or `ms=N`, `c=F`, `playout=N`, `cutoff=N`
    /// (`cutoff=0`: full playouts), `widen=F`, `threads=N`.
    pub fn from_spec(spec: &mut Spec, seed: u64) -> Result<MctsBot, String> {
        let iters: Option<u64> = spec.take_in("iters", 1..=MAX_NODES as u64)?;
        let ms: Option<u64> = spec.take_in("ms", 1..=super::MAX_MS)?;
        let budget = match (iters, ms) {
            (Some(_), Some(_)) => return Err("mcts takes `iters` or `ms`, not both".into()),
            (_, Some(ms)) => Budget::Time(Duration::from_millis(ms)),
            (Some(n), None) => Budget::Iterations(n),
            (None, None) => Budget::Iterations(1000),
        };
        let mut settings = Settings::default();
        if let Some(c) = spec.take_in::<f64>("c", 0.0..=100.0)? {
            settings.c = c;
        }
        if let Some(cap) = spec.take_in::<u32>("playout", 1..=1_000_000)? {
            settings.playout_cap = cap;
        }
        match spec.take_in::<u32>("cutoff", 0..=1_000_000)? {
            Some(0) => settings.cutoff = Cutoff::Off,
            Some(n) => settings.cutoff = Cutoff::After(n),
            None => {}
        }
        if let Some(widen) = spec.take_in::<f64>("widen", 0.0..=100.0)? {
            settings.widen = widen;
        }
        if let Some(threads) = spec.take_in::<usize>("threads", 1..=MAX_THREADS)? {
            settings.threads = threads;
        }
        spec.finish(OPTIONS)?;
        Ok(MctsBot::with_settings(seed, budget, settings))
    }
}

/// Thread `i`'s seed: the bot's own for the first thread, so one thread is the serial
/// search; well mixed (splitmix64) for the others.
fn thread_seed(seed: u64, i: u64) -> u64 {
    if i == 0 {
        return seed;
    }
    let mut z = seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The ply a search recommends and how sure it is.
#[derive(Clone, Debug)]
pub struct Advice {
    pub ply: Ply,
    /// Iterations through the ply, over all threads (0: it wins within the turn, no search
    /// ran: see [`winning_ply`]).
    pub visits: u64,
    /// Iterations through any child of the root, over all threads.
    pub total: u64,
    /// The root's plies that the search tried (widening leaves the others untried).
    pub tried: usize,
    /// The mean reward of the player to move through the ply (1 = a win every time).
    pub score: f64,
}

impl Advice {
    /// The share of the root's iterations that went through the ply: the search's own
    /// measure of how sure it is, as the ply played is the most visited (of the plies
    /// proven won, if any, else of those not proven lost).
    pub fn share(&self) -> f64 {
        self.visits as f64 / self.total.max(1) as f64
    }

    /// Half the width of a 95% interval around `score`: rewards lie in [0, 1], so their
    /// variance is at most `score·(1 − score)`. A score from a few visits is not a
    /// confident one, and this says by how much.
    pub fn margin(&self) -> f64 {
        let n = self.visits.max(1) as f64;
        1.96 * (self.score * (1.0 - self.score) / n).sqrt()
    }
}

/// One node of a tree: the ply that leads to it, its statistics, its children (a list
/// threaded through the nodes, so a node needs no vector of its own).
struct Node {
    ply: Ply,
    parent: u32,
    first_child: u32,
    next_sibling: u32,
    children: u32,
    /// How many legal plies the position has, once they were listed (else [`UNKNOWN`]).
    legal: u32,
    /// The node's plies ordered by `[eval]`, an index into [`Tree::ranked`], if done.
    ranked: u32,
    visits: u32,
    /// The sum of the rewards of the player who chose this node (who moves at its parent).
    reward: f64,
    /// The player to move in the node's position.
    mover: u8,
    /// The player who wins from this position whatever the others do, once the search
    /// has proven it (else [`UNPROVEN`]): the game ends there with that player alone
    /// winning, or its mover has a child it wins, or every ply of it is a child that the
    /// same player wins (MCTS-Solver, Winands et al. 2008).
    won_by: u8,
}

impl Node {
    fn new(ply: Ply, parent: u32, mover: u8) -> Node {
        Node {
            ply,
            parent,
            first_child: NONE,
            next_sibling: NONE,
            children: 0,
            legal: UNKNOWN,
            ranked: NONE,
            visits: 0,
            reward: 0.0,
            mover,
            won_by: UNPROVEN,
        }
    }
}

/// A node's plies, best first by `[eval]`, and how many were offered for widening.
struct Ranked {
    plies: Vec<Ply>,
    next: usize,
}

/// One search tree, kept between moves.
#[derive(Default)]
struct Tree {
    nodes: Vec<Node>,
    ranked: Vec<Ranked>,
    /// The position of the root (none before the first search).
    root: Option<State>,
    /// The sum and count of the spread of `[eval]` between players at cut-off playouts:
    /// their mean is the scale that turns a lead into a reward.
    spread: (f64, u64),
}

/// A search thread's own things: its generator and scratch positions.
struct Worker {
    rng: Xoshiro256PlusPlus,
    /// The position an iteration walks down the tree and plays out.
    scratch: Option<State>,
    /// Where ordering tries each ply.
    probe: Option<State>,
    /// Each player's reward for the playout just finished.
    rewards: Vec<f64>,
}

/// What one search thread may spend.
struct Limits<'a> {
    budget: Budget,
    nodes: usize,
    stop: &'a AtomicBool,
    /// The threads the workers may run on.
    cores: usize,
}

impl Worker {
    fn new(seed: u64) -> Worker {
        Worker {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            scratch: None,
            probe: None,
            rewards: Vec::new(),
        }
    }

    /// Its generator, its two positions (made from `state` the first time) and its
    /// rewards, borrowed apart.
    fn parts(
        &mut self,
        state: &State,
    ) -> (
        &mut Xoshiro256PlusPlus,
        &mut State,
        &mut State,
        &mut Vec<f64>,
    ) {
        let scratch = self.scratch.get_or_insert_with(|| state.clone());
        let probe = self.probe.get_or_insert_with(|| state.clone());
        (&mut self.rng, scratch, probe, &mut self.rewards)
    }

    /// Grows `tree` for `state` within the limits, alone; returns the iterations run.
    fn grow(
        &mut self,
        tree: &mut Tree,
        game: &Game,
        state: &State,
        settings: &Settings,
        limits: &Limits,
        mut timer: Timer,
    ) -> u64 {
        let (rng, scratch, probe, rewards) = self.parts(state);
        tree.ready(game, state, probe, rng, limits, &mut timer);
        let time_up = |timer: &mut Timer| limits.budget.time_spent(timer);
        let mut iterations = 0;
        loop {
            // A time budget spent before the first iteration (ordering a wide root can
            // take it all) still runs one, so that the bot has a ply to answer with.
            let more = match limits.budget {
                Budget::Iterations(n) => iterations < n,
                Budget::Time(_) => !time_up(&mut timer) || iterations == 0,
            };
            // A proven root has nothing left to search.
            let proven = tree.nodes[0].won_by != UNPROVEN && iterations > 0;
            if !more
                || proven
                || tree.nodes.len() >= limits.nodes
                || limits.stop.load(Ordering::Relaxed)
                || game.runaway().is_some()
            {
                break;
            }
            tree.iterate(game, state, scratch, probe, rng, rewards, settings);
            iterations += 1;
        }
        iterations
    }
}

/// A ply's value for `mover` one ply later, for ordering: a win alone first, a loss
/// last, otherwise the heuristic (a draw is worth an even position).
fn one_ply_value(game: &Game, after: &State, mover: u8) -> i64 {
    match &after.outcome {
        Some(o) if o.winners == [mover] => i64::MAX,
        Some(o) if o.winners.is_empty() => 0,
        Some(o) if o.winners.contains(&mover) => i64::MAX / 2,
        Some(_) => i64::MIN,
        None => heuristic(game, after, mover),
    }
}

/// The most children a node with `visits` visits may have.
fn allowed(visits: u32, widen: f64) -> u32 {
    if widen <= 0.0 {
        return u32::MAX;
    }
    (widen * f64::from(visits.max(1)).sqrt()).ceil() as u32
}

impl Tree {
    /// Makes `state` the root ([`Tree::reroot`]) and orders its plies if they are not
    /// yet, within the time budget.
    fn ready(
        &mut self,
        game: &Game,
        state: &State,
        probe: &mut State,
        rng: &mut Xoshiro256PlusPlus,
        limits: &Limits,
        timer: &mut Timer,
    ) {
        self.reroot(game, state);
        if self.nodes[0].ranked == NONE {
            self.rank(game, 0, state, probe, rng, || {
                limits.budget.time_spent(timer)
            });
        }
    }

    /// Starts afresh from `state`.
    fn reset(&mut self, state: &State) {
        self.nodes.clear();
        self.ranked.clear();
        let root = Ply {
            action: 0,
            values: Default::default(),
            skipped: 0,
        };
        self.nodes.push(Node::new(root, NONE, state.to_move));
        self.root = Some(state.clone());
    }

    /// Makes `state` the root: the node standing for it in the tree of the last search,
    /// with its subtree, when `state` follows that search's position by a few plies and
    /// the plies played are in the tree; a fresh tree otherwise.
    fn reroot(&mut self, game: &Game, state: &State) {
        let Some(old) = self.root.take() else {
            return self.reset(state);
        };
        if old == *state {
            self.root = Some(old);
            return;
        }
        if state.plies > old.plies && state.plies - old.plies <= REUSE_DEPTH {
            let mut plays = REUSE_PLAYS;
            if let Some(node) = self.find(game, 0, &old, state, &mut plays) {
                // Equal positions reached by other plies have other pasts: where the
                // game reads its history, what was proven under one may not hold.
                self.keep(node, !state.keeps_history());
                self.root = Some(state.clone());
                return;
            }
        }
        self.reset(state);
    }

    /// The node under `node` (whose position is `at`) whose position is `target`,
    /// searched depth first, the most visited children first: the ply the bot played
    /// last is usually its most visited, so the search rarely looks anywhere else.
    fn find(
        &self,
        game: &Game,
        node: usize,
        at: &State,
        target: &State,
        plays: &mut usize,
    ) -> Option<usize> {
        let mut kids = self.children(node);
        kids.sort_by_key(|&k| Reverse(self.nodes[k].visits));
        let mut next = at.clone();
        for k in kids {
            if *plays == 0 {
                return None;
            }
            *plays -= 1;
            next.clone_from(at);
            game.play(&mut next, &self.nodes[k].ply);
            if next.plies >= target.plies {
                if next == *target {
                    return Some(k);
                }
            } else if let Some(found) = self.find(game, k, &next, target, plays) {
                return Some(found);
            }
        }
        None
    }

    /// The children of `node`, newest first.
    fn children(&self, node: usize) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.nodes[node].children as usize);
        let mut child = self.nodes[node].first_child;
        while child != NONE {
            out.push(child as usize);
            child = self.nodes[child as usize].next_sibling;
        }
        out
    }

    /// Keeps only the subtree of `top`, which becomes the root, and what its nodes were
    /// proven to be if `proofs`.
    fn keep(&mut self, top: usize, proofs: bool) {
        let mut nodes: Vec<Node> = Vec::new();
        let mut ranked: Vec<Ranked> = Vec::new();
        let mut queue = VecDeque::from([(top, NONE)]);
        while let Some((old, parent)) = queue.pop_front() {
            let index = nodes.len() as u32;
            let o = &mut self.nodes[old];
            let mut n = Node::new(o.ply.clone(), parent, o.mover);
            (n.legal, n.visits, n.reward) = (o.legal, o.visits, o.reward);
            if proofs {
                n.won_by = o.won_by;
            }
            if o.ranked != NONE {
                n.ranked = ranked.len() as u32;
                ranked.push(std::mem::replace(
                    &mut self.ranked[o.ranked as usize],
                    Ranked {
                        plies: Vec::new(),
                        next: 0,
                    },
                ));
            }
            if parent != NONE {
                let p = &mut nodes[parent as usize];
                n.next_sibling = p.first_child;
                p.first_child = index;
                p.children += 1;
            }
            nodes.push(n);
            let mut child = self.nodes[old].first_child;
            while child != NONE {
                queue.push_back((child as usize, index));
                child = self.nodes[child as usize].next_sibling;
            }
        }
        self.nodes = nodes;
        self.ranked = ranked;
    }

    /// Orders the plies of `node`, whose position is `at`, by their value one ply later
    /// for its mover, ties in a seeded order; `probe` is scratch. Judging stops early
    /// when `time_up` says so (read every [`CLOCK_EVERY`] plies): the plies not
    /// judged go last, in their seeded order.
    fn rank(
        &mut self,
        game: &Game,
        node: usize,
        at: &State,
        probe: &mut State,
        rng: &mut Xoshiro256PlusPlus,
        mut time_up: impl FnMut() -> bool,
    ) {
        let mover = at.to_move;
        let mut plies = game.legal_plies(at);
        plies.shuffle(rng);
        let mut judging = true;
        let mut scored: Vec<(i64, Ply)> = Vec::with_capacity(plies.len());
        for (i, ply) in plies.into_iter().enumerate() {
            if judging && i % CLOCK_EVERY == CLOCK_EVERY - 1 && time_up() {
                judging = false;
            }
            let value = if judging {
                probe.clone_from(at);
                game.play(probe, &ply);
                one_ply_value(game, probe, mover)
            } else {
                i64::MIN
            };
            scored.push((value, ply));
        }
        scored.sort_by_key(|(v, _)| Reverse(*v));
        let n = &mut self.nodes[node];
        n.legal = scored.len() as u32;
        n.ranked = self.ranked.len() as u32;
        self.ranked.push(Ranked {
            plies: scored.into_iter().map(|(_, p)| p).collect(),
            next: 0,
        });
    }

    /// Whether `ply` is already a child of `node`.
    fn has_child(&self, node: usize, ply: &Ply) -> bool {
        let mut child = self.nodes[node].first_child;
        while child != NONE {
            if self.nodes[child as usize].ply == *ply {
                return true;
            }
            child = self.nodes[child as usize].next_sibling;
        }
        false
    }

    /// A ply of `node` (whose position `at` holds) that is not a child yet: the best
    /// ranked one left, or else a uniformly random one. `None` when every legal ply is a
    /// child (the node's count of legal plies is then exact).
    fn untried(
        &mut self,
        game: &Game,
        node: usize,
        at: &mut State,
        rng: &mut Xoshiro256PlusPlus,
    ) -> Option<Ply> {
        let r = self.nodes[node].ranked;
        if r != NONE {
            let r = r as usize;
            while self.ranked[r].next < self.ranked[r].plies.len() {
                let i = self.ranked[r].next;
                self.ranked[r].next += 1;
                if !self.has_child(node, &self.ranked[r].plies[i]) {
                    return Some(self.ranked[r].plies[i].clone());
                }
            }
        }
        for _ in 0..DRAW_TRIES {
            let Some(ply) = game.random_ply(at, rng) else {
                self.nodes[node].legal = 0;
                return None;
            };
            if !self.has_child(node, &ply) {
                return Some(ply);
            }
        }
        let mut left = game.legal_plies(at);
        self.nodes[node].legal = left.len() as u32;
        left.retain(|p| !self.has_child(node, p));
        if left.is_empty() {
            return None;
        }
        let i = rng.random_range(0..left.len() as u64) as usize;
        Some(left.swap_remove(i))
    }

    /// Adds a child reached by `ply` under `node`; `mover` is who moves there.
    fn add_child(&mut self, node: usize, ply: Ply, mover: u8) -> usize {
        let index = self.nodes.len() as u32;
        let mut child = Node::new(ply, node as u32, mover);
        child.next_sibling = self.nodes[node].first_child;
        self.nodes.push(child);
        let parent = &mut self.nodes[node];
        parent.first_child = index;
        parent.children += 1;
        index as usize
    }

    /// The child of `node` with the best UCT value for the player who moves at `node`,
    /// among the children not proven won by another player while any is left (with
    /// three or more players, a node whose plies all lose may still decide who wins).
    fn select(&self, node: usize, c: f64) -> usize {
        let mover = self.nodes[node].mover;
        let log_n = f64::from(self.nodes[node].visits.max(1)).ln();
        let mut best = self.nodes[node].first_child;
        let mut best_value = (false, f64::NEG_INFINITY);
        let mut child = best;
        while child != NONE {
            let ch = &self.nodes[child as usize];
            let n = f64::from(ch.visits.max(1));
            let open = ch.won_by == UNPROVEN || ch.won_by == mover;
            let value = (open, ch.reward / n + c * (log_n / n).sqrt());
            if value.0 && !best_value.0 || value.0 == best_value.0 && value.1 > best_value.1 {
                best_value = value;
                best = child;
            }
            child = ch.next_sibling;
        }
        best as usize
    }

    /// Whether every child of `node` is proven won by a player other than its mover: it
    /// may then grow a child past what widening allows, a ply that may not lose.
    fn all_lost(&self, node: usize) -> bool {
        let mover = self.nodes[node].mover;
        let mut child = self.nodes[node].first_child;
        while child != NONE {
            let ch = &self.nodes[child as usize];
            if ch.won_by == UNPROVEN || ch.won_by == mover {
                return false;
            }
            child = ch.next_sibling;
        }
        true
    }

    /// The player who wins every ply of `node`, if every ply is a child (its plies
    /// counted) proven won by that one player.
    fn won_by_children(&self, node: usize) -> Option<u8> {
        let n = &self.nodes[node];
        if n.legal == UNKNOWN || n.children != n.legal || n.first_child == NONE {
            return None;
        }
        let winner = self.nodes[n.first_child as usize].won_by;
        let mut child = n.first_child;
        while child != NONE {
            if self.nodes[child as usize].won_by != winner {
                return None;
            }
            child = self.nodes[child as usize].next_sibling;
        }
        (winner != UNPROVEN).then_some(winner)
    }

    /// Proves `node` won by `winner`, then what that proves above it: its parent when
    /// its mover chose it (that player wins there too), or when every ply of the parent
    /// is a child won by the same player; and on up while proofs follow.
    fn prove(&mut self, mut node: usize, winner: u8) {
        self.nodes[node].won_by = winner;
        loop {
            let parent = self.nodes[node].parent;
            if parent == NONE || self.nodes[parent as usize].won_by != UNPROVEN {
                return;
            }
            let parent = parent as usize;
            if self.nodes[parent].mover != winner && self.won_by_children(parent) != Some(winner) {
                return;
            }
            self.nodes[parent].won_by = winner;
            node = parent;
        }
    }

    /// One iteration from `root`: down the tree by UCT until a node may grow a child (its
    /// widening allows one and it has a ply left), add it, play out from it (or score it
    /// without a playout where the game ends or the result is proven), back up.
    #[allow(clippy::too_many_arguments)]
    fn iterate(
        &mut self,
        game: &Game,
        root: &State,
        scratch: &mut State,
        probe: &mut State,
        rng: &mut Xoshiro256PlusPlus,
        rewards: &mut Vec<f64>,
        settings: &Settings,
    ) {
        let node = self.descend(game, root, scratch, probe, rng, settings);
        if !self.settle(game, node, scratch, rewards) {
            let by_eval = play_out(game, scratch, rng, settings);
            if outcome_rewards(game, scratch, by_eval, rewards) {
                self.soften(rewards);
            }
        }
        self.back_up(node, rewards, true);
    }

    /// The selection and expansion of an iteration: from `root` (played on `scratch`)
    /// down the tree by UCT until a node may grow a child (its widening allows one and it
    /// has a ply left), which it adds; returns the node the iteration scores, whose
    /// position `scratch` is left in.
    fn descend(
        &mut self,
        game: &Game,
        root: &State,
        scratch: &mut State,
        probe: &mut State,
        rng: &mut Xoshiro256PlusPlus,
        settings: &Settings,
    ) -> usize {
        scratch.clone_from(root);
        let mut node = 0;
        while scratch.outcome.is_none() && self.nodes[node].won_by == UNPROVEN {
            let n = &self.nodes[node];
            if n.children < n.legal
                && (n.children < allowed(n.visits, settings.widen) || self.all_lost(node))
            {
                if n.ranked == NONE && n.visits >= PRIOR_VISITS {
                    self.rank(game, node, scratch, probe, rng, || false);
                }
                if let Some(ply) = self.untried(game, node, scratch, rng) {
                    game.play(scratch, &ply);
                    node = self.add_child(node, ply, scratch.to_move);
                    break;
                }
                // No ply left to grow: its plies were just counted, and every one may be
                // a child proven already (a child proven later proves it through
                // `prove`).
                if let Some(winner) = self.won_by_children(node) {
                    self.prove(node, winner);
                    break;
                }
            }
            if self.nodes[node].children == 0 {
                break;
            }
            node = self.select(node, settings.c);
            game.play(scratch, &self.nodes[node].ply);
        }
        node
    }

    /// Scores `node` without a playout where none can say more (the game ends in
    /// `scratch`, its position, or the node's result is proven): fills `rewards`, proves
    /// the node if it was not, and says so.
    fn settle(
        &mut self,
        game: &Game,
        node: usize,
        scratch: &State,
        rewards: &mut Vec<f64>,
    ) -> bool {
        let won_by = match &scratch.outcome {
            Some(o) if o.winners.len() == 1 => o.winners[0],
            _ => self.nodes[node].won_by,
        };
        if won_by == UNPROVEN {
            return false;
        }
        rewards.clear();
        rewards.resize(game.players.len(), 0.0);
        rewards[won_by as usize] = 1.0;
        if self.nodes[node].won_by == UNPROVEN {
            self.prove(node, won_by);
        }
        true
    }

    /// Adds `rewards` to `node` and every node above it, each for the player who chose
    /// it, and a visit to each when `visit` (a shared tree counted the visits on the
    /// way down: see [`Tree::visit`]).
    fn back_up(&mut self, mut node: usize, rewards: &[f64], visit: bool) {
        loop {
            let n = &mut self.nodes[node];
            n.visits += u32::from(visit);
            let parent = n.parent;
            if parent == NONE {
                break;
            }
            let chooser = self.nodes[parent as usize].mover;
            self.nodes[node].reward += rewards[chooser as usize];
            node = parent as usize;
        }
    }

    /// Counts a visit to `node` and every node above it before its playout is scored:
    /// the other threads of a shared tree then see those nodes visited with nothing won
    /// yet (a "virtual loss") and spread over other plies while the playout runs.
    fn visit(&mut self, mut node: usize) {
        loop {
            let n = &mut self.nodes[node];
            n.visits += 1;
            if n.parent == NONE {
                break;
            }
            node = n.parent as usize;
        }
    }

    /// Turns the players' `[eval]` at the end of a cut-off playout (in `out`) into
    /// rewards: a softmax in units of the spread between players seen so far in this
    /// tree.
    fn soften(&mut self, out: &mut [f64]) {
        let players = out.len();
        let mean = out.iter().sum::<f64>() / players as f64;
        let spread = out.iter().map(|e| (e - mean).abs()).sum::<f64>() / players as f64;
        self.spread.0 += spread;
        self.spread.1 += 1;
        let scale = (self.spread.0 / self.spread.1 as f64).max(1.0);
        let top = out.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        for e in out.iter_mut() {
            *e = ((*e - top) / scale).exp();
        }
        let sum: f64 = out.iter().sum();
        for e in out.iter_mut() {
            *e /= sum;
        }
    }
}

/// Plays `scratch` out at random for the search's playout: to the end, to the cap, or
/// to the cut-off; says whether it is to be scored by `[eval]` (a cut-off applies).
fn play_out(
    game: &Game,
    scratch: &mut State,
    rng: &mut Xoshiro256PlusPlus,
    settings: &Settings,
) -> bool {
    // A search resolves `Auto` once, from the position it starts at (`resolved`).
    debug_assert!(settings.cutoff != Cutoff::Auto);
    let cutoff = match settings.cutoff {
        Cutoff::After(n) => Some(n),
        Cutoff::Off | Cutoff::Auto => None,
    };
    let limit = cutoff.map_or(settings.playout_cap, |c| c.min(settings.playout_cap));
    game.playout(scratch, rng, limit);
    cutoff.is_some()
}

/// Each player's reward for the end of a playout, into `out`: a win shared by its
/// winners, a draw by everyone, and a playout stopped short either a draw or, when
/// `by_eval`, the players' `[eval]`; true in that last case, where the tree's
/// [`Tree::soften`] is still to turn them into rewards.
fn outcome_rewards(game: &Game, state: &State, by_eval: bool, out: &mut Vec<f64>) -> bool {
    let players = game.players.len();
    out.clear();
    match &state.outcome {
        Some(o) if !o.winners.is_empty() => {
            out.resize(players, 0.0);
            for &w in &o.winners {
                out[w as usize] = 1.0 / o.winners.len() as f64;
            }
            false
        }
        None if by_eval => {
            out.extend((0..players as u8).map(|p| heuristic(game, state, p) as f64));
            true
        }
        _ => {
            out.resize(players, 1.0 / players as f64);
            false
        }
    }
}

impl MctsBot {
    /// Searches from `state` within the budget (less once the root is proven), even when
    /// the choice is forced; returns the ply to play (see the module's documentation)
    /// with its statistics, and how many iterations were run over
    /// all threads (`rulebook bench` measures the bot with it, the REPL's `hint`
    /// explains itself). A ply that wins within the turn ([`winning_ply`]) is returned
    /// without a search (0 visits, score 1): among many plies, random playouts can leave
    /// it too few visits to be chosen.
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
        let mut timer = Timer::start(self.clock);
        let budget = self.budget;
        let mut give_up = || stop.load(Ordering::Relaxed) || budget.time_spent(&mut timer);
        if let Some(ply) = winning_ply(game, state, &mut give_up) {
            let advice = Advice {
                ply,
                visits: 0,
                total: 0,
                tried: 0,
                score: 1.0,
            };
            return (Some(advice), 0);
        }
        let limits = Limits {
            budget: self.budget,
            nodes: MAX_NODES,
            stop,
            cores: self
                .cores
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)),
        };
        let settings = self.settings.resolved(game, state);
        let tree = &mut self.tree;
        let iterations = match self.workers.as_mut_slice() {
            [one] => one.grow(tree, game, state, &settings, &limits, timer),
            many => {
                let (rng, _, probe, _) = many[0].parts(state);
                tree.ready(game, state, probe, rng, &limits, &mut timer);
                relay::grow(tree, many, game, state, &settings, &limits, timer)
            }
        };
        (self.advice(), iterations)
    }

    /// The most visited child of the root among those proven won if any, else among
    /// those not proven lost, else of all; ties go to the better mean.
    fn advice(&self) -> Option<Advice> {
        let tree = &self.tree;
        let root = tree.nodes.first()?;
        // Per child: 1 if proven won by the root's mover, -1 lost, 0 neither.
        let proof = |n: &Node| match n.won_by {
            UNPROVEN => 0i8,
            w if w == root.mover => 1,
            _ => -1,
        };
        let mean = |n: &Node| n.reward / f64::from(n.visits.max(1));
        let (mut best, mut total, mut tried) = (None::<&Node>, 0u64, 0usize);
        let mut child = root.first_child;
        while child != NONE {
            let n = &tree.nodes[child as usize];
            total += u64::from(n.visits);
            tried += 1;
            if best.is_none_or(|b| (proof(n), n.visits, mean(n)) > (proof(b), b.visits, mean(b))) {
                best = Some(n);
            }
            child = n.next_sibling;
        }
        best.map(|n| Advice {
            ply: n.ply.clone(),
            visits: u64::from(n.visits),
            total,
            tried,
            score: mean(n),
        })
    }
}

/// The first ply of the shortest line of the mover's own plies that wins the game alone
/// before its turn ends, if one is found within `TURN_SEARCH` positions (fewer if
/// `give_up` says so: it is asked every `CLOCK_EVERY` positions): a ply that wins at
/// once if there is one, else, in a turn of several plies, the first of two plies that
/// win (a piece that steps into place, then strikes), and so on.
///
/// Random playouts can give such a line too few visits to be found among many plies,
/// where the greedy bot, which searches its whole turn, finds it.
pub fn winning_ply(game: &Game, state: &State, give_up: &mut dyn FnMut() -> bool) -> Option<Ply> {
    let mut search = TurnSearch {
        game,
        me: state.to_move,
        turn: state.turn,
        budget: TURN_SEARCH,
        give_up,
    };
    let plies = game.legal_plies(state);
    let mut next = state.clone();
    // Deeper at each pass, so that the shortest win is found first; a pass that leaves no
    // line open (every turn or game over) is the last.
    let mut depth = 0;
    loop {
        let mut open = false;
        for ply in &plies {
            next.clone_from(state);
            game.play(&mut next, ply);
            match search.wins_within(&next, depth) {
                Some(true) => return Some(ply.clone()),
                Some(false) => {}
                None => open = true,
            }
        }
        if !open || search.budget == 0 {
            return None;
        }
        depth += 1;
    }
}

/// A search of [`winning_ply`] under way.
struct TurnSearch<'a> {
    game: &'a Game,
    /// The player to move, and the turn its line must win within.
    me: u8,
    turn: u32,
    /// Positions left to look at.
    budget: usize,
    /// Whether to stop now (the search was interrupted, or its time is spent).
    give_up: &'a mut dyn FnMut() -> bool,
}

impl TurnSearch<'_> {
    /// Whether the mover wins alone from `state` by the end of its turn, with at most
    /// `depth` more of its own plies: `Some(true)` it does, `Some(false)` it cannot (the
    /// turn or the game is over, or no line wins), `None` a line is still open at this
    /// depth (or the search ran out of positions).
    fn wins_within(&mut self, state: &State, depth: u32) -> Option<bool> {
        if let Some(o) = &state.outcome {
            return Some(o.winners == [self.me]);
        }
        if state.turn != self.turn || state.to_move != self.me {
            return Some(false);
        }
        if depth == 0 {
            return None;
        }
        let mut open = false;
        let mut next = state.clone();
        for ply in self.game.legal_plies(state) {
            if self.budget == 0 {
                return None;
            }
            self.budget -= 1;
            if self.budget.is_multiple_of(CLOCK_EVERY) && (self.give_up)() {
                self.budget = 0;
                return None;
            }
            next.clone_from(state);
            self.game.play(&mut next, &ply);
            match self.wins_within(&next, depth - 1) {
                Some(true) => return Some(true),
                Some(false) => {}
                None => open = true,
            }
        }
        if open { None } else { Some(false) }
    }
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
