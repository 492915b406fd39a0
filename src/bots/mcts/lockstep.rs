//! Several threads growing one tree, in rounds, so that the search stays deterministic.
//!
//! Each thread has a *lane*: its generator, its position and its playout's rewards. A
//! round goes down the tree once per lane, one lane after the other, each descent
//! counting its visits on the way ([`Tree::visit`], a "virtual loss") so that the next
//! lane is steered to other plies; then every lane plays its playout at the same time,
//! the calling thread's lane among them; then the results are backed up, lane by lane.
//! Everything that touches the tree happens on the calling thread in lane order, and a
//! lane's playout depends only on its own generator: for a given seed and number of
//! iterations the tree, and the ply chosen, are the same on any machine, whatever the
//! threads' timing (the iteration budget counts rounds).
//!
//! One tree of twice the iterations goes deeper where it matters than two trees of the
//! same iterations each (the root parallelism this replaced: every tree spent its
//! iterations on the same few best plies, and their statistics were only added up at the
//! root). The price is the wait at the end of each round for the slowest playout.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use rand::rngs::Xoshiro256PlusPlus;

use super::{Budget, Limits, Settings, Tree, UNPROVEN, Worker, outcome_rewards, play_out};
use crate::bots::Timer;
use crate::engine::game::Game;
use crate::engine::state::State;

/// Spins before a waiting thread starts yielding its core: a playout takes some tens of
/// microseconds to milliseconds, and waking a parked thread would take about as long.
const SPINS: u32 = 2_000;

/// One thread's share of a round.
struct Lane<'w> {
    rng: &'w mut Xoshiro256PlusPlus,
    scratch: &'w mut State,
    rewards: &'w mut Vec<f64>,
    /// The node this round's descent stopped at.
    node: usize,
    /// Whether the node still needs its playout (else its rewards are known: the game
    /// ends there or its result is proven).
    open: bool,
    /// Whether the rewards are `[eval]` values still to be softened by the tree.
    soften: bool,
}

impl<'w> Lane<'w> {
    /// A worker's lane, its position made from `state` the first time.
    fn of(
        rng: &'w mut Xoshiro256PlusPlus,
        scratch: &'w mut Option<State>,
        rewards: &'w mut Vec<f64>,
        state: &State,
    ) -> Mutex<Lane<'w>> {
        Mutex::new(Lane {
            rng,
            scratch: scratch.get_or_insert_with(|| state.clone()),
            rewards,
            node: 0,
            open: false,
            soften: false,
        })
    }

    /// Plays this lane's playout, if it needs one, and works out its rewards.
    fn play(&mut self, game: &Game, settings: &Settings) {
        if self.open {
            let by_eval = play_out(game, self.scratch, self.rng, settings);
            self.soften = outcome_rewards(game, self.scratch, by_eval, self.rewards);
        }
    }
}

/// What the calling thread and the helpers signal each other with.
struct Signals {
    /// Rounds started: a helper plays when it sees a round it has not played.
    round: AtomicU64,
    /// Helpers done with the current round.
    finished: AtomicUsize,
    /// No more rounds: the helpers return.
    done: AtomicBool,
    /// A helper's playout panicked (a bug): the search stops and the panic is raised.
    failed: AtomicBool,
}

/// Waits until `ready` says so, spinning first, then yielding the core between looks.
fn wait_until(ready: impl Fn() -> bool) {
    let mut spins = 0u32;
    while !ready() {
        if spins < SPINS {
            spins += 1;
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
}

fn lock<'a, 'w>(lane: &'a Mutex<Lane<'w>>) -> MutexGuard<'a, Lane<'w>> {
    lane.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Grows `tree` (made ready for `state`) with one lane per worker, within the limits;
/// returns the iterations run (rounds times lanes).
pub(super) fn grow(
    tree: &mut Tree,
    workers: &mut [Worker],
    game: &Game,
    state: &State,
    settings: &Settings,
    limits: &Limits,
    mut timer: Timer,
) -> u64 {
    let (first, others) = workers
        .split_first_mut()
        .expect("a lockstep search has workers");
    let probe = first.probe.get_or_insert_with(|| state.clone());
    let mut lanes = vec![Lane::of(
        &mut first.rng,
        &mut first.scratch,
        &mut first.rewards,
        state,
    )];
    for w in others.iter_mut() {
        lanes.push(Lane::of(&mut w.rng, &mut w.scratch, &mut w.rewards, state));
    }
    let signals = Signals {
        round: AtomicU64::new(0),
        finished: AtomicUsize::new(0),
        done: AtomicBool::new(false),
        failed: AtomicBool::new(false),
    };
    let helpers = lanes.len() - 1;
    let rounds = std::thread::scope(|scope| {
        for lane in &lanes[1..] {
            let signals = &signals;
            scope.spawn(move || helper(lane, game, settings, signals));
        }
        let mut rounds = 0u64;
        loop {
            let more = match limits.budget {
                Budget::Iterations(n) => rounds < n,
                Budget::Time(_) => !limits.budget.time_spent(&mut timer) || rounds == 0,
            };
            // A proven root has nothing left to search.
            let proven = tree.nodes[0].won_by != UNPROVEN && rounds > 0;
            if !more
                || proven
                || tree.nodes.len() >= limits.nodes
                || limits.stop.load(Ordering::Relaxed)
                || signals.failed.load(Ordering::Acquire)
            {
                break;
            }
            descend_all(tree, &lanes, game, state, probe, settings);
            signals.finished.store(0, Ordering::Relaxed);
            signals.round.fetch_add(1, Ordering::Release);
            lock(&lanes[0]).play(game, settings);
            wait_until(|| signals.finished.load(Ordering::Acquire) == helpers);
            back_up_all(tree, &lanes);
            rounds += 1;
        }
        signals.done.store(true, Ordering::Release);
        rounds
    });
    if signals.failed.load(Ordering::Acquire) {
        panic!("a search thread panicked");
    }
    rounds * lanes.len() as u64
}

/// A helper thread: plays its lane's playout at each round until told it is done.
fn helper(lane: &Mutex<Lane>, game: &Game, settings: &Settings, signals: &Signals) {
    let mut played = 0u64;
    loop {
        wait_until(|| {
            signals.done.load(Ordering::Acquire) || signals.round.load(Ordering::Acquire) > played
        });
        if signals.done.load(Ordering::Acquire) {
            return;
        }
        played += 1;
        let result = catch_unwind(AssertUnwindSafe(|| lock(lane).play(game, settings)));
        if result.is_err() {
            signals.failed.store(true, Ordering::Release);
        }
        signals.finished.fetch_add(1, Ordering::AcqRel);
    }
}

/// Each lane's descent, in lane order, with its visits counted on the way when a
/// playout is to follow.
fn descend_all(
    tree: &mut Tree,
    lanes: &[Mutex<Lane>],
    game: &Game,
    root: &State,
    probe: &mut State,
    settings: &Settings,
) {
    for lane in lanes {
        let mut guard = lock(lane);
        let l = &mut *guard;
        l.node = tree.descend(game, root, l.scratch, probe, l.rng, settings);
        l.open = !tree.settle(game, l.node, l.scratch, l.rewards);
        l.soften = false;
        if l.open {
            tree.visit(l.node);
        }
    }
}

/// Each lane's rewards backed up, in lane order.
fn back_up_all(tree: &mut Tree, lanes: &[Mutex<Lane>]) {
    for lane in lanes {
        let mut guard = lock(lane);
        let l = &mut *guard;
        if l.soften {
            tree.soften(l.rewards);
        }
        // A lane settled without a playout counted no visit on the way down.
        tree.back_up(l.node, l.rewards, !l.open);
    }
}
