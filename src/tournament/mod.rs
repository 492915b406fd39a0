//! Tournaments: many games between bots, seats rotated, played in parallel, and a table of
//! results with confidence intervals (`rulebook match`).
//!
//! Every game's seed comes from the base seed and the game's index, and the totals are
//! sums, so the table does not depend on how the games were scheduled on threads, nor on
//! how the match was split into shards played on separate machines (`--shard`, then
//! `merge`): `shard.rs` says which games a shard plays, `report.rs` holds the table and
//! the JSON, `stats.rs` its intervals and Elo, `merge.rs` checks shards and adds them up.

pub mod merge;
pub mod report;
pub mod shard;
pub mod stats;

use std::ops::Range;
use std::time::{Duration, Instant};

use indicatif::ProgressBar;
use rayon::prelude::*;

use crate::bots;
use crate::engine::game::Game;
use crate::record::transcript::Transcript;
use crate::render::progress::progress;
use report::labels;
pub use report::{Elo, MOST_GAMES, Report, Standing};
use shard::Shard;

/// What a match is asked to do.
pub struct MatchSettings {
    /// Bot specs, one entry per participant (the same spec may appear twice).
    pub bots: Vec<String>,
    pub games: usize,
    pub seed: u64,
    /// Worker threads; 0 for one per core.
    pub jobs: usize,
    /// The game file as given, for transcripts.
    pub file: String,
    /// A folder to write one transcript per game into (`game-001.txt`...).
    pub transcripts: Option<String>,
    /// Plays only this shard's games (`--shard K/N`); `None` for all of them.
    pub shard: Option<Shard>,
}

impl MatchSettings {
    /// The shard to play, checked against the number of games; `1/1` is the whole match.
    fn shard(&self) -> Result<Option<Shard>, String> {
        match self.shard {
            Some(shard) if shard.of > 1 => {
                shard.games(self.games)?;
                Ok(Some(shard))
            }
            _ => Ok(None),
        }
    }

    /// The indices of the games to play.
    pub fn played(&self) -> Result<Range<usize>, String> {
        match self.shard()? {
            Some(shard) => shard.games(self.games),
            None => Ok(0..self.games),
        }
    }
}

/// One finished game: who sat where, who won, how long it was.
struct GameResult {
    /// The participant (index into the bots) in each seat.
    seating: Vec<usize>,
    winners: Vec<u8>,
    plies: u32,
    /// Per seat: time spent choosing plies, and how many plies were chosen.
    thinking: Vec<(Duration, u32)>,
    transcript: Transcript,
}

/// A seed for game `index` of a match, well mixed (splitmix64) so neighbouring games
/// do not share random streams.
pub fn game_seed(base: u64, index: u64) -> u64 {
    let mut z = base ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The file name of the transcript of game `i` (from 0) of `games` in `--transcripts`:
/// `game-001.txt`, with as many digits as the last game's number needs, three at least.
pub fn transcript_name(i: usize, games: usize) -> String {
    let digits = games.to_string().len().max(3);
    format!("game-{:0digits$}.txt", i + 1)
}

/// Plays game `index`: participant `(seat + index) % count` sits in each seat.
fn play_one(game: &Game, specs: &[String], file: &str, base: u64, index: usize) -> GameResult {
    let seats = game.players.len();
    let seating: Vec<usize> = (0..seats).map(|s| (s + index) % specs.len()).collect();
    let seed = game_seed(base, index as u64);
    let mut transcript = Transcript::new(game, file, seed);
    transcript.seats = game
        .players
        .iter()
        .zip(&seating)
        .map(|(p, &b)| (p.clone(), specs[b].clone()))
        .collect();
    let mut players: Vec<Box<dyn bots::Bot>> = seating
        .iter()
        .enumerate()
        .map(|(s, &b)| {
            bots::from_spec(&specs[b], seed.wrapping_add(s as u64)).expect("specs checked before")
        })
        .collect();
    let mut thinking = vec![(Duration::ZERO, 0u32); seats];
    let mut state = game.start();
    // A game whose plies ran past their bound is reported by the caller.
    while state.outcome.is_none() && game.runaway().is_none() {
        let seat = state.to_move as usize;
        let start = Instant::now();
        let Some(ply) = players[seat].choose(game, &state) else {
            break;
        };
        thinking[seat].0 += start.elapsed();
        thinking[seat].1 += 1;
        let by = &specs[seating[seat]];
        transcript.push(game, &state, &game.notation(&state, &ply), by);
        game.play(&mut state, &ply);
    }
    transcript.result = Transcript::result_of(game, &state);
    GameResult {
        seating,
        winners: state.outcome.map(|o| o.winners).unwrap_or_default(),
        plies: state.plies,
        thinking,
        transcript,
    }
}

/// Runs a match, or the shard of it the settings name. A progress bar is drawn on stderr
/// when it is a terminal.
pub fn run(game: &Game, settings: &MatchSettings) -> Result<Report, String> {
    if settings.bots.is_empty() {
        return Err("--bots needs at least one bot spec".into());
    }
    for spec in &settings.bots {
        bots::from_spec(spec, 0)?;
    }
    let played = settings.played()?;
    if settings.jobs > MOST_JOBS {
        return Err(format!(
            "--jobs takes at most {MOST_JOBS} worker threads, got {}",
            settings.jobs
        ));
    }
    let jobs = if settings.jobs == 0 {
        0
    } else {
        settings.jobs.min(played.len().max(1))
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    if let Some(dir) = &settings.transcripts {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {dir}: {e}"))?;
    }
    let progress = progress_bar(played.len());
    let totals = pool.install(|| play_all(game, settings, played, &progress));
    progress.finish_and_clear();
    report(game, settings, totals?)
}

/// A progress bar for `games` games on stderr, hidden when stderr is no terminal.
fn progress_bar(games: usize) -> ProgressBar {
    progress(
        Some(games as u64),
        "{bar:40} {pos}/{len} games  {elapsed_precise} (about {eta} left)",
        String::new(),
    )
}

/// Plays the games of `played` (global indices: a game's seed, seating and transcript
/// name are the whole match's) on the current thread pool and adds them up.
fn play_all(
    game: &Game,
    settings: &MatchSettings,
    played: Range<usize>,
    progress: &ProgressBar,
) -> Result<Totals, String> {
    let zero = || Totals {
        standings: vec![Standing::default(); settings.bots.len()],
        seat_wins: vec![0; game.players.len()],
        draws: 0,
    };
    // Each game is added to its worker's totals as soon as it ends (and its transcript
    // written), so memory does not grow with the number of games; totals are sums, so
    // the table does not depend on how games were spread over threads.
    played
        .into_par_iter()
        .map(|i| {
            let r = play_one(game, &settings.bots, &settings.file, settings.seed, i);
            progress.inc(1);
            if let Some(dir) = &settings.transcripts {
                let path = std::path::Path::new(dir).join(transcript_name(i, settings.games));
                crate::record::file::write_output(&path, r.transcript.to_text())
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            }
            Ok(r)
        })
        .try_fold(zero, |mut totals, r: Result<GameResult, String>| {
            totals.add(&r?);
            Ok(totals)
        })
        .try_reduce(zero, |mut a, b| {
            a.merge(b);
            Ok(a)
        })
}

/// The report of the games played: their totals, with what names the match.
fn report(game: &Game, settings: &MatchSettings, totals: Totals) -> Result<Report, String> {
    let Totals {
        mut standings,
        seat_wins,
        draws,
    } = totals;
    for (st, label) in standings.iter_mut().zip(labels(&settings.bots)) {
        st.label = label;
    }
    Ok(Report {
        game: game.name.clone(),
        file: settings.file.clone(),
        params: game.param_texts().into_iter().collect(),
        position: game.start_position.clone(),
        specs: settings.bots.clone(),
        games: settings.games,
        seed: settings.seed,
        shard: settings.shard()?,
        standings,
        seats: game.players.iter().cloned().zip(seat_wins).collect(),
        draws,
    })
}

/// The most worker threads a match may ask for.
pub const MOST_JOBS: usize = 256;

/// What the games played so far add up to: per participant, and per seat.
struct Totals {
    standings: Vec<Standing>,
    seat_wins: Vec<usize>,
    draws: usize,
}

impl Totals {
    /// Adds one game.
    fn add(&mut self, r: &GameResult) {
        for (b, st) in self.standings.iter_mut().enumerate() {
            let seats: Vec<usize> = (0..r.seating.len())
                .filter(|&s| r.seating[s] == b)
                .collect();
            if seats.is_empty() {
                continue;
            }
            st.games += 1;
            st.plies += r.plies as u64;
            if r.winners.is_empty() {
                st.draws += 1;
            } else if seats.iter().any(|&s| r.winners.contains(&(s as u8))) {
                st.wins += 1;
            } else {
                st.losses += 1;
            }
            for &s in &seats {
                st.think += r.thinking[s].0;
                st.chosen += r.thinking[s].1 as u64;
            }
        }
        if r.winners.is_empty() {
            self.draws += 1;
        }
        for &w in &r.winners {
            self.seat_wins[w as usize] += 1;
        }
    }

    /// Adds the totals of other games.
    fn merge(&mut self, other: Totals) {
        for (a, b) in self.standings.iter_mut().zip(&other.standings) {
            a.add(b);
        }
        for (a, b) in self.seat_wins.iter_mut().zip(other.seat_wins) {
            *a += b;
        }
        self.draws += other.draws;
    }
}
