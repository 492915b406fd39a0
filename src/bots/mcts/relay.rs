//! Several threads growing one tree, taking turns at it, so that the search stays
//! deterministic.
//!
//! Each thread runs iterations with its own generator and positions, but only the thread
//! whose turn it is touches the tree: at its turn it backs up the playout it finished
//! since its last turn, goes down the tree for its next one (counting its visits on the
//! way, a "virtual loss", so that the next thread is steered to other plies), and hands
//! the turn on; then it plays that playout while the others take their turns. The turn
//! goes round the threads in a fixed order, so every change to the tree happens in the
//! same order on any machine, whatever the threads' timing: for a given seed and number
//! of iterations the tree, and the ply chosen, are always the same. A thread waits only
//! while another takes its turn (short: a descent and a back-up) or when its playout ended
//! before the one whose turn comes first.
//!
//! One tree of twice the iterations goes deeper where it matters than two trees of the
//! same iterations each, whose statistics would only be added up at the root (root
//! parallelism, which this replaced: both trees spent their iterations on the same few
//! best plies).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::{Budget, Limits, Settings, Tree, UNPROVEN, Worker, outcome_rewards, play_out};
use crate::bots::Timer;
use crate::engine::game::Game;
use crate::engine::state::State;

/// Spins before a waiting thread starts yielding its core: a turn at the tree takes
/// microseconds, and waking a parked thread would take about as long.
const SPINS: u32 = 2_000;

/// What the threads share: the tree, whose turn it is, who is still searching.
struct Relay<'t> {
    tree: Mutex<&'t mut Tree>,
    /// The thread whose turn it is, or the number of threads once none is left.
    turn: AtomicUsize,
    /// Per thread, whether it still searches (a thread that stopped is passed over).
    active: Vec<AtomicBool>,
    /// A thread panicked (a bug): the others stop, and the panic is raised.
    failed: AtomicBool,
}

impl<'t> Relay<'t> {
    fn tree(&self) -> MutexGuard<'_, &'t mut Tree> {
        self.tree.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits for thread `i`'s turn; false if the search failed meanwhile.
    fn wait_turn(&self, i: usize) -> bool {
        let mut spins = 0u32;
        loop {
            if self.failed.load(Ordering::Acquire) {
                return false;
            }
            if self.turn.load(Ordering::Acquire) == i {
                return true;
            }
            if spins < SPINS {
                spins += 1;
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }

    /// Hands the turn from thread `i` to the next thread that still searches (`i`
    /// itself if it is the last one), or to nobody.
    fn pass(&self, i: usize) {
        let n = self.active.len();
        let next = (1..=n)
            .map(|k| (i + k) % n)
            .find(|&j| self.active[j].load(Ordering::Acquire))
            .unwrap_or(n);
        self.turn.store(next, Ordering::Release);
    }
}

/// What every thread of one search reads: the game, the position searched from, the
/// bot's settings and what the search may spend.
#[derive(Clone, Copy)]
struct Job<'a> {
    game: &'a Game,
    state: &'a State,
    settings: &'a Settings,
    limits: &'a Limits<'a>,
}

/// Grows `tree` (made ready for `state`) with its workers taking turns, within the
/// limits; returns the iterations run over all workers. The workers run on as many
/// threads as the machine has cores, at most one each, the calling thread the first:
/// thread `t` runs workers `t`, `t + k`, `t + 2k`... in turn order, each one's playout
/// played before its next turn. The tree changes only at turns, in the one fixed order,
/// so it is the same whatever the number of threads or cores; more threads than cores
/// would only keep the thread whose turn it is off a core.
pub(super) fn grow(
    tree: &mut Tree,
    workers: &mut [Worker],
    game: &Game,
    state: &State,
    settings: &Settings,
    limits: &Limits,
    timer: Timer,
) -> u64 {
    let relay = Relay {
        tree: Mutex::new(tree),
        turn: AtomicUsize::new(0),
        active: workers.iter().map(|_| AtomicBool::new(true)).collect(),
        failed: AtomicBool::new(false),
    };
    let job = Job {
        game,
        state,
        settings,
        limits,
    };
    let threads = workers.len().min(limits.cores).max(1);
    let mut shares: Vec<Vec<Runner>> = (0..threads).map(|_| Vec::new()).collect();
    for (i, worker) in workers.iter_mut().enumerate() {
        shares[i % threads].push(Runner {
            i,
            worker,
            pending: None,
            iterations: 0,
            timer: timer.clone(),
        });
    }
    let iterations = std::thread::scope(|scope| {
        let mut shares = shares.into_iter();
        let first = shares.next().expect("a relay has a first thread");
        let handles: Vec<_> = shares
            .map(|share| {
                let relay = &relay;
                scope.spawn(move || run(share, relay, job))
            })
            .collect();
        let mine = run(first, &relay, job);
        mine + handles
            .into_iter()
            .map(|h| h.join().unwrap_or(0))
            .sum::<u64>()
    });
    if relay.failed.load(Ordering::Acquire) {
        panic!("a search thread panicked");
    }
    iterations
}

/// One thread's share of the workers, run in turn order, a panic caught so that the
/// other threads stop too; the iterations they ran.
fn run(mut share: Vec<Runner>, relay: &Relay, job: Job) -> u64 {
    let result = catch_unwind(AssertUnwindSafe(|| {
        let searching = |r: &&mut Runner| relay.active[r.i].load(Ordering::Acquire);
        while share
            .iter()
            .any(|r| relay.active[r.i].load(Ordering::Acquire))
        {
            for runner in share.iter_mut().filter(searching) {
                if !relay.wait_turn(runner.i) {
                    return;
                }
                runner.turn(relay, job);
            }
        }
    }));
    if result.is_err() {
        relay.failed.store(true, Ordering::Release);
        return 0;
    }
    share.iter().map(|r| r.iterations).sum()
}

/// A worker's part of the search: the playout it still has to back up, and what it has
/// run so far.
struct Runner<'w> {
    i: usize,
    worker: &'w mut Worker,
    /// The node whose playout is still to be backed up, and whether its rewards are
    /// `[eval]` values for the tree to soften.
    pending: Option<(usize, bool)>,
    iterations: u64,
    timer: Timer,
}

impl Runner<'_> {
    /// Worker `i`'s turn, which has come: the last playout backed up and the next descent
    /// made (or the worker stopped), the turn handed on, then the playout played.
    fn turn(&mut self, relay: &Relay, job: Job) {
        let Job {
            game,
            state,
            settings,
            limits,
        } = job;
        let i = self.i;
        let (rng, scratch, probe, rewards) = self.worker.parts(state);
        let mut tree = relay.tree();
        if let Some((node, soften)) = self.pending.take() {
            if soften {
                tree.soften(rewards);
            }
            tree.back_up(node, rewards, false);
            self.iterations += 1;
        }
        let more = match limits.budget {
            Budget::Iterations(n) => self.iterations < n,
            Budget::Time(_) => !limits.budget.time_spent(&mut self.timer) || self.iterations == 0,
        };
        // A proven root has nothing left to search.
        let proven = tree.nodes[0].won_by != UNPROVEN && self.iterations > 0;
        if !more
            || proven
            || tree.nodes.len() >= limits.nodes
            || limits.stop.load(Ordering::Relaxed)
            || game.runaway().is_some()
        {
            drop(tree);
            relay.active[i].store(false, Ordering::Release);
            relay.pass(i);
            return;
        }
        let node = tree.descend(game, state, scratch, probe, rng, settings);
        if tree.settle(game, node, scratch, rewards) {
            // No playout: its result is known at once.
            tree.back_up(node, rewards, true);
            self.iterations += 1;
            drop(tree);
            relay.pass(i);
            return;
        }
        tree.visit(node);
        drop(tree);
        relay.pass(i);
        let by_eval = play_out(game, scratch, rng, settings);
        let soften = outcome_rewards(game, scratch, by_eval, rewards);
        self.pending = Some((node, soften));
    }
}
