//! `rulebook bench`: how fast the interpreter plays a game, measured the way bots use it.
//!
//! Random playouts from the start position run on one thread for a fixed time; the figures
//! are playouts and plies per second, the average game length and how the games ended. A
//! second, shorter measure runs the MCTS bot from the start position and counts its
//! iterations per second (on one thread, or as many as `--threads` asks for). Times are wall-clock, so figures vary between runs: report
//! medians of several.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use serde_json::{Value, json};

use crate::bots::mcts::{Budget, Cutoff, MctsBot, Settings};
use crate::engine::game::{Draw, Game};

/// What one benchmark run measured.
pub struct BenchReport {
    pub game: String,
    pub seconds: f64,
    pub playouts: u64,
    pub plies: u64,
    /// How the playouts ended: a winner's name, `draw` or `ply cap`, with counts.
    pub endings: BTreeMap<String, u64>,
    pub mcts_iterations: u64,
    pub mcts_seconds: f64,
    /// The threads the MCTS measure ran on.
    pub mcts_threads: usize,
    /// The process's peak resident memory in bytes, where the system tells it.
    pub peak_memory: Option<u64>,
    /// How the random plies were drawn, and the actions whose plies were listed rather
    /// than drawn ([`Game::listed_by_draw`]: every action but the fallbacks with `list`,
    /// those whose last part repeats with any way).
    pub draw: Draw,
    pub listed: Vec<String>,
    /// Whether some action's candidates were drawn.
    pub drawn: bool,
}

/// How much work a benchmark run does.
#[derive(Clone, Copy, Debug)]
pub enum Amount {
    /// Random playouts for this many seconds, then MCTS for a fifth of that (at least
    /// half a second).
    Seconds(f64),
    /// Exactly this many random playouts, then as many MCTS iterations: the same work on
    /// every run, for profilers and instruction counts (`valgrind --tool=callgrind`).
    Playouts(u64),
}

/// Plays random playouts from the start, then runs MCTS from the start on `threads`
/// threads, as `amount` says.
pub fn run(game: &Game, amount: Amount, seed: u64, threads: usize) -> BenchReport {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (limit, count) = match amount {
        Amount::Seconds(s) => (Duration::from_secs_f64(s.max(0.01)), u64::MAX),
        Amount::Playouts(n) => (Duration::MAX, n.max(1)),
    };
    let start = game.start();
    // Measured before the clock starts (`Draw::Auto` measures the game at its first draw).
    let by_draw = game.listed_by_draw();
    let listed: Vec<String> = (by_draw.iter().zip(&game.actions))
        .filter(|(listed, _)| **listed)
        .map(|(_, a)| a.name.clone())
        .collect();
    let drawn = (by_draw.iter().zip(&game.actions)).any(|(listed, a)| !listed && !a.fallback);
    let clock = Instant::now();
    let (mut playouts, mut plies) = (0u64, 0u64);
    let mut endings: BTreeMap<String, u64> = BTreeMap::new();
    let mut state = start.clone();
    while playouts == 0 || (playouts < count && clock.elapsed() < limit) {
        state.clone_from(&start);
        let mut time_up = false;
        loop {
            // The clock is read between pieces of a playout too (every few hundred plies,
            // so the reading costs nothing): one game can outlast the whole measure, under
            // a high ply cap or in a file whose end rules are never met.
            let played = game.playout(&mut state, &mut rng, CLOCK_EVERY as u32);
            plies += u64::from(played);
            if state.outcome.is_some() || played < CLOCK_EVERY as u32 {
                break;
            }
            if clock.elapsed() >= limit {
                time_up = true;
                break;
            }
        }
        playouts += 1;
        let end = if time_up {
            TIME_UP.to_string()
        } else {
            ending(game, &state)
        };
        *endings.entry(end).or_default() += 1;
    }
    let elapsed = clock.elapsed().as_secs_f64();

    let budget = match amount {
        Amount::Seconds(s) => Budget::Time(Duration::from_secs_f64((s / 5.0).max(0.5))),
        Amount::Playouts(n) => Budget::Iterations(n.max(1)),
    };
    // Full playouts, as before cut-offs were the default: the figure measures how fast
    // the engine plays a game out inside a search, and stays comparable across builds.
    let settings = Settings {
        cutoff: Cutoff::Off,
        threads,
        ..Settings::default()
    };
    let mut bot = MctsBot::with_settings(seed, budget, settings);
    let clock = Instant::now();
    let (_, mcts_iterations) = bot.search(game, &start);
    let mcts_seconds = clock.elapsed().as_secs_f64();

    BenchReport {
        game: game.name.clone(),
        seconds: elapsed,
        playouts,
        plies,
        endings,
        mcts_iterations,
        mcts_seconds,
        mcts_threads: bot.settings().threads,
        peak_memory: peak_memory(),
        draw: game.draw,
        listed,
        drawn,
    }
}

/// How many plies a playout plays between two readings of the clock.
const CLOCK_EVERY: u64 = 256;

/// The ending of a playout that the time limit stopped before the game was over.
const TIME_UP: &str = "unfinished at the time limit";

/// How a finished playout ended, by name.
fn ending(game: &Game, state: &crate::engine::state::State) -> String {
    match &state.outcome {
        Some(o) if o.reason.is_some() => o.reason.clone().unwrap_or_default(),
        Some(o) if o.winners.is_empty() => "draw".into(),
        Some(o) => o
            .winners
            .iter()
            .map(|&p| game.players[p as usize].as_str())
            .collect::<Vec<_>>()
            .join("+"),
        None => "no ply".into(),
    }
}

/// The peak resident set size from `/proc/self/status` (Linux only).
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

impl BenchReport {
    pub fn playouts_per_second(&self) -> f64 {
        self.playouts as f64 / self.seconds
    }

    pub fn plies_per_second(&self) -> f64 {
        self.plies as f64 / self.seconds
    }

    pub fn mcts_per_second(&self) -> f64 {
        self.mcts_iterations as f64 / self.mcts_seconds
    }

    /// The report as text; the last line is `playouts/s N`, for scripts.
    pub fn text(&self) -> String {
        let mut s = format!(
            "{}: {} random playouts in {:.2} s on one thread\n",
            self.game, self.playouts, self.seconds
        );
        s += &format!("plies/s {:.0}\n", self.plies_per_second());
        s += &format!(
            "plies per game {:.1}\n",
            self.plies as f64 / self.playouts as f64
        );
        let shares: Vec<String> = self
            .endings
            .iter()
            .map(|(k, n)| format!("{k} {:.1}%", 100.0 * *n as f64 / self.playouts as f64))
            .collect();
        s += &format!("endings {}\n", shares.join(", "));
        s += &format!("draw {}\n", self.draw_text());
        let threads = match self.mcts_threads {
            1 => String::new(),
            n => format!(" on {n} threads"),
        };
        s += &format!(
            "mcts iterations/s {:.0} (from the start, {:.1} s{threads})\n",
            self.mcts_per_second(),
            self.mcts_seconds
        );
        if let Some(bytes) = self.peak_memory {
            s += &format!("peak memory {:.1} MiB\n", bytes as f64 / (1024.0 * 1024.0));
        }
        s += &format!("playouts/s {:.0}\n", self.playouts_per_second());
        s
    }

    /// The same figures as JSON.
    pub fn json(&self) -> Value {
        json!({
            "game": self.game,
            "seconds": self.seconds,
            "playouts": self.playouts,
            "plies": self.plies,
            "playouts_per_second": self.playouts_per_second(),
            "plies_per_second": self.plies_per_second(),
            "endings": self.endings,
            "mcts_iterations_per_second": self.mcts_per_second(),
            "mcts_threads": self.mcts_threads,
            "peak_memory_bytes": self.peak_memory,
            "draw": self.draw_name(),
            "listed_actions": self.listed,
        })
    }

    fn draw_name(&self) -> &'static str {
        match self.draw {
            Draw::Auto => "auto",
            Draw::Sample => "sample",
            Draw::List => "list",
        }
    }

    /// The way plies were drawn, and which actions' plies were listed.
    fn draw_text(&self) -> String {
        let listed: Vec<String> = self.listed.iter().map(|a| format!("`{a}`")).collect();
        let mode = self.draw_name();
        match (self.draw, listed.is_empty(), self.drawn) {
            (Draw::List, ..) => format!("{mode} (every legal ply listed, one picked)"),
            (_, true, _) => format!("{mode} (candidates drawn for every action)"),
            (_, false, false) => format!("{mode} (plies listed for {})", listed.join(", ")),
            (_, false, true) => format!(
                "{mode} (plies listed for {}, candidates drawn for the rest)",
                listed.join(", ")
            ),
        }
    }
}
