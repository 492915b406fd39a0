//! `rulebook analyze`: what a designer asks of a game and its variants, measured over
//! many seeded bot games: fairness by seat, draws and decisiveness, length, branching,
//! forced plies, lead changes and drama, stalls, rule coverage (the rules that never
//! fire), piece usage and, when asked, skill depth; one column per variant (a swept
//! parameter or edited copies of the file), with the significant differences marked.
//!
//! `record.rs` plays one game on an instrumented loop and writes down what the metrics
//! read; `metrics.rs` works the metrics out from a column's records; `stats.rs` holds
//! their intervals and tests; `skill.rs` the bot ladder; `report.rs` the table and the
//! JSON; `html.rs` the page of plots. Every game's seed comes from the base seed and its
//! index, as in `match`, and the records are gathered in index order, so the numbers do
//! not depend on the number of threads.

pub mod html;
pub mod metrics;
pub mod record;
pub mod report;
pub mod skill;
pub mod stats;

use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::Serialize;

use crate::bots;
use crate::engine::game::Game;
use crate::render::progress::progress;
use crate::tournament::game_seed;
use metrics::{Metrics, RuleNames};
use stats::{ALPHA, two_proportions, welch};

/// The most games a column may ask for: each game's record is kept until its column
/// is summed up (a few hundred bytes to a few kilobytes), so memory stays bounded.
pub const MOST_GAMES: usize = 100_000;

/// One column of the analysis: a game compiled with one set of parameters.
pub struct Column {
    /// What tells it from the other columns (`size=6`, a variant's file).
    pub label: String,
    pub game: Game,
    pub names: RuleNames,
}

/// How an analysis is run.
pub struct Settings {
    /// Bot specs: participant `(seat + game) % count` sits in each seat.
    pub bots: Vec<String>,
    /// Games per column (the most, with `seconds`).
    pub games: usize,
    /// A time budget per column instead of a number of games.
    pub seconds: Option<Duration>,
    pub seed: u64,
    /// Worker threads; 0 for one per core.
    pub jobs: usize,
    /// Games per rung of the skill ladder (0: skill depth is not measured).
    pub skill: usize,
}

/// What an analysis found, column by column: what the table, the JSON and the page show.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    pub game: String,
    pub file: String,
    pub bots: Vec<String>,
    pub seed: u64,
    pub columns: Vec<Metrics>,
    /// Each column's differences from the first, tested.
    pub differences: Vec<Difference>,
}

/// A metric of a column compared with the first column's.
#[derive(Clone, Debug, Serialize)]
pub struct Difference {
    pub column: String,
    pub metric: &'static str,
    /// The test's two-sided p-value.
    pub p: f64,
    /// Whether `p` is below [`ALPHA`].
    pub significant: bool,
}

/// The games a time budget plays between two looks at the clock, per worker: games are
/// played in whole batches of consecutive indices, so a budget in seconds plays the
/// first N games that a budget of N games would.
const BATCH_PER_JOB: usize = 4;

/// Analyses every column; the progress bar on standard error counts games.
pub fn run(file: &str, columns: &[Column], settings: &Settings) -> Result<Analysis, String> {
    if settings.bots.is_empty() {
        return Err("--bots needs at least one bot spec".into());
    }
    for spec in &settings.bots {
        bots::from_spec(spec, 0)?;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.jobs)
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    let skill_games = settings.skill * (skill::LADDER.len() - 1);
    let total = columns.len() * (settings.games + skill_games);
    let bar = progress(
        Some(total as u64),
        "{msg} {bar:30} {pos}/{len} games  {elapsed_precise} (about {eta} left)",
        String::new(),
    );
    let mut out = Vec::new();
    for column in columns {
        bar.set_message(column.label.clone());
        let records = pool.install(|| play_column(column, settings, &|| bar.inc(1)));
        let mut metrics = Metrics::of(column.label.clone(), &column.game, &column.names, &records);
        if settings.skill > 0 {
            let done = || bar.inc(1);
            let ladder =
                pool.install(|| skill::ladder(&column.game, settings.skill, settings.seed, &done));
            metrics.skill = Some(ladder);
        }
        out.push(metrics);
    }
    bar.finish_and_clear();
    if let Some(d) = columns.iter().find_map(|c| c.game.runaway()) {
        return Err(d.to_string());
    }
    Ok(Analysis {
        game: columns
            .first()
            .map_or(String::new(), |c| c.game.name.clone()),
        file: file.to_string(),
        bots: settings.bots.clone(),
        seed: settings.seed,
        differences: differences(&out),
        columns: out,
    })
}

/// Plays a column's games in index order (all of them, or whole batches until its time
/// is up) and gives their records in that order.
fn play_column(
    column: &Column,
    settings: &Settings,
    done: &(dyn Fn() + Sync),
) -> Vec<record::GameRecord> {
    let one = |i: usize| {
        let r = record::play(
            &column.game,
            &settings.bots,
            game_seed(settings.seed, i as u64),
            i,
        );
        done();
        r
    };
    let Some(budget) = settings.seconds else {
        return (0..settings.games).into_par_iter().map(one).collect();
    };
    let started = Instant::now();
    let batch = rayon::current_num_threads().max(1) * BATCH_PER_JOB;
    let mut records = Vec::new();
    while records.len() < settings.games && started.elapsed() < budget {
        let from = records.len();
        let to = (from + batch).min(settings.games);
        records.par_extend((from..to).into_par_iter().map(one));
    }
    records
}

/// Each column's differences from the first: shares by the two-proportion test, means by
/// Welch's.
fn differences(columns: &[Metrics]) -> Vec<Difference> {
    let Some((first, rest)) = columns.split_first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for c in rest {
        let mut push = |metric, p: f64| {
            out.push(Difference {
                column: c.label.clone(),
                metric,
                p: stats::round(p),
                significant: p < ALPHA,
            })
        };
        push(
            "first_player",
            two_proportions(&c.first_player, &first.first_player),
        );
        push("draws", two_proportions(&c.draws, &first.draws));
        push("decisive", two_proportions(&c.decisive, &first.decisive));
        push("length", welch(&c.length, &first.length));
        push("branching", welch(&c.branching, &first.branching));
        push("forced", two_proportions(&c.forced, &first.forced));
        push("quiet", two_proportions(&c.quiet, &first.quiet));
        push("repeats", welch(&c.repeats, &first.repeats));
        if let (Some(a), Some(b)) = (&c.lead_changes, &first.lead_changes) {
            push("lead_changes", welch(a, b));
        }
        if let (Some(a), Some(b)) = (&c.drama, &first.drama) {
            push("drama", welch(a, b));
        }
    }
    out
}

impl Analysis {
    /// Whether `metric` of column `label` differs significantly from the first column.
    pub fn significant(&self, label: &str, metric: &str) -> bool {
        self.differences
            .iter()
            .any(|d| d.column == label && d.metric == metric && d.significant)
    }
}
