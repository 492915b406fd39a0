//! One analysed game: played by bots as `match` plays it (the same seats and seeds), on
//! an instrumented loop that writes down, ply by ply, what the metrics read: the legal
//! plies of each position, the action, parts and phase each ply used, what it did to the
//! pieces, repeated positions and who led by the game's `[eval]`.
//!
//! The instrumentation is this loop's alone: it counts plies and compares positions
//! around `Game::play`, which it calls as every other caller does, so the playouts of
//! bots and benchmarks run exactly as fast as before.

use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashSet, FxHasher};

use crate::bots;
use crate::engine::flow::EndCause;
use crate::engine::game::Game;
use crate::engine::piece::NEUTRAL;
use crate::engine::state::State;

/// What one game left for the metrics.
#[derive(Clone, Debug, Default)]
pub struct GameRecord {
    /// The participant (index into the bot specs) in each seat.
    pub seating: Vec<usize>,
    /// The seats that won (none: a draw).
    pub winners: Vec<u8>,
    /// Plies played.
    pub plies: u32,
    /// Why it ended (`None`: the bots stopped, or a walk ran away).
    pub cause: Option<EndCause>,
    /// The number of legal plies in each position a ply was chosen in, in order.
    pub branching: Vec<u32>,
    /// Plies played of each action.
    pub actions: Vec<u32>,
    /// Per action, the times each of its parts was played (a repeated part once a ply).
    pub parts: Vec<Vec<u32>>,
    /// Plies played in each phase.
    pub phases: Vec<u32>,
    /// Per kind: plies in which a piece of it went from one cell to another.
    pub moved: Vec<u32>,
    /// Per kind: pieces that came onto the board.
    pub placed: Vec<u32>,
    /// Per kind: pieces that left the board whose owner was not the player moving.
    pub captured: Vec<u32>,
    /// Per kind: pieces that left the board whose owner was the player moving.
    pub removed: Vec<u32>,
    /// Plies after which every player's pieces of every kind were as many as before.
    pub quiet: u32,
    /// The longest run of such plies.
    pub longest_quiet: u32,
    /// Plies that led to a position already seen in the game.
    pub repeats: u32,
    /// With an `[eval]`: how often the strict leader changed from one player to another.
    pub lead_changes: u32,
    /// With an `[eval]`: per seat, the positions after a ply in which it strictly led.
    pub led: Vec<u32>,
}

/// Plays game `index` with participant `(seat + index) % specs.len()` in each seat,
/// every bot seeded from `seed`, and writes down what the metrics need.
pub fn play(game: &Game, specs: &[String], seed: u64, index: usize) -> GameRecord {
    let seats = game.players.len();
    let kinds = game.kinds.len();
    let seating: Vec<usize> = (0..seats).map(|s| (s + index) % specs.len()).collect();
    let mut players: Vec<Box<dyn bots::Bot>> = seating
        .iter()
        .enumerate()
        .map(|(s, &b)| {
            bots::from_spec(&specs[b], seed.wrapping_add(s as u64)).expect("specs checked before")
        })
        .collect();
    let mut r = GameRecord {
        seating,
        actions: vec![0; game.actions.len()],
        parts: game
            .actions
            .iter()
            .map(|a| vec![0; a.parts.len()])
            .collect(),
        phases: vec![0; game.phases.len()],
        moved: vec![0; kinds],
        placed: vec![0; kinds],
        captured: vec![0; kinds],
        removed: vec![0; kinds],
        led: vec![0; seats],
        ..GameRecord::default()
    };
    let mut state = game.start();
    let mut seen = FxHashSet::default();
    seen.insert(position_key(&state));
    let mut leader = None;
    let mut quiet_run = 0;
    let mut mover = state.to_move;
    while state.outcome.is_none() && game.runaway().is_none() {
        mover = state.to_move;
        r.branching
            .push(game.count_plies(&state).min(u32::MAX as u64) as u32);
        if let Some(phase) = game.current_phase(&state) {
            r.phases[phase] += 1;
        }
        let Some(ply) = players[mover as usize].choose(game, &state) else {
            break;
        };
        let a = ply.action as usize;
        r.actions[a] += 1;
        for (p, count) in r.parts[a].iter_mut().enumerate() {
            if ply.skipped & (1 << p) == 0 {
                *count += 1;
            }
        }
        let before = Census::of(game, &state);
        game.play(&mut state, &ply);
        let after = Census::of(game, &state);
        if before.tally(&after, mover, &mut r) {
            r.quiet += 1;
            quiet_run += 1;
            r.longest_quiet = r.longest_quiet.max(quiet_run);
        } else {
            quiet_run = 0;
        }
        if !seen.insert(position_key(&state)) {
            r.repeats += 1;
        }
        if game.eval.is_some() {
            let now = strict_leader(game, &state);
            if let Some(p) = now {
                r.led[p as usize] += 1;
                if leader.is_some_and(|l| l != p) {
                    r.lead_changes += 1;
                }
                leader = Some(p);
            }
        }
    }
    r.plies = state.plies;
    r.cause = game.end_cause(&state, mover);
    r.winners = state.outcome.map(|o| o.winners).unwrap_or_default();
    r
}

/// The player whose `[eval]` value is above every other player's, if one is.
fn strict_leader(game: &Game, state: &State) -> Option<u8> {
    let values: Vec<i64> = (0..game.players.len() as u8)
        .map(|p| game.evaluate(state, p))
        .collect();
    let best = *values.iter().max()?;
    let mut at = values.iter().enumerate().filter(|(_, v)| **v == best);
    let (first, _) = at.next()?;
    at.next().is_none().then_some(first as u8)
}

/// A position as the rules see it, for repetitions: every stack's pieces (kind and
/// owner), the variables and the player to move, hashed.
fn position_key(state: &State) -> u64 {
    let mut h = FxHasher::default();
    for stack in state.stacks().iter() {
        stack.len().hash(&mut h);
        for p in stack {
            (p.kind, p.owner).hash(&mut h);
        }
    }
    state.vars.hash(&mut h);
    state.to_move.hash(&mut h);
    h.finish()
}

/// The pieces of a position counted per cell and kind, and per owner and kind.
struct Census {
    kinds: usize,
    /// `cell × kinds + kind`: the pieces of that kind on that cell.
    cells: Vec<u16>,
    /// `owner × kinds + kind`, the neutral pieces after the players': the pieces on
    /// the board.
    material: Vec<u32>,
}

impl Census {
    fn of(game: &Game, state: &State) -> Census {
        let kinds = game.kinds.len();
        let players = game.players.len();
        let mut c = Census {
            kinds,
            cells: vec![0; state.stacks().len() * kinds],
            material: vec![0; (players + 1) * kinds],
        };
        for (cell, stack) in state.stacks().iter().enumerate() {
            for p in stack {
                let k = p.kind as usize;
                c.cells[cell * kinds + k] = c.cells[cell * kinds + k].saturating_add(1);
                let owner = if p.owner == NEUTRAL || p.owner as usize >= players {
                    players
                } else {
                    p.owner as usize
                };
                c.material[owner * kinds + k] += 1;
            }
        }
        c
    }

    /// Adds what changed from `self` to `after` (a ply by `mover`) to the record's piece
    /// counts; says whether the material stayed as it was (a quiet ply).
    fn tally(&self, after: &Census, mover: u8, r: &mut GameRecord) -> bool {
        let k = self.kinds;
        for kind in 0..k {
            let (mut lost, mut gained) = (false, false);
            for cell in 0..self.cells.len() / k.max(1) {
                let (b, a) = (self.cells[cell * k + kind], after.cells[cell * k + kind]);
                lost |= a < b;
                gained |= a > b;
            }
            if lost && gained {
                r.moved[kind] += 1;
            }
        }
        for (i, (&b, &a)) in self.material.iter().zip(&after.material).enumerate() {
            let (owner, kind) = (i / k, i % k);
            if a > b {
                r.placed[kind] += a - b;
            } else if owner == mover as usize {
                r.removed[kind] += b - a;
            } else {
                r.captured[kind] += b - a;
            }
        }
        self.material == after.material
    }
}
