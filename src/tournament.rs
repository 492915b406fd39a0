//! Tournaments: many games between bots, seats rotated, played in parallel, and a table of
//! results with confidence intervals (`rulebook match`).
//!
//! Every game's seed comes from the base seed and the game's index, and the totals are
//! sums, so the table does not depend on how the games were scheduled on threads.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde_json::json;

use crate::bots;
use crate::engine::game::Game;
use crate::record::transcript::Transcript;

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

/// The totals of one participant over a match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standing {
    pub label: String,
    pub games: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// Plies of the games this participant played, summed.
    pub plies: u64,
    pub think: Duration,
    pub chosen: u64,
}

impl Standing {
    /// Wins plus half the draws, over the games played.
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games as f64
    }

    /// Half the width of the 95% confidence interval of the score (normal approximation).
    pub fn margin(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        let p = self.score();
        1.96 * (p * (1.0 - p) / self.games as f64).sqrt()
    }
}

/// A match's outcome: one standing per participant, in the order given.
pub struct Report {
    pub game: String,
    pub games: usize,
    pub seed: u64,
    pub standings: Vec<Standing>,
    /// Per seat (the game's players, in order): its name and the games won from it,
    /// whoever sat there. Seats rotate, so a bot's score says nothing of how much the
    /// seat itself is worth; this does (a game whose first player wins 90% of the time
    /// leaves two bots of any strength near 50%).
    pub seats: Vec<(String, usize)>,
    /// Games that ended with no winner.
    pub draws: usize,
}

/// A seed for game `index` of a match, well mixed (splitmix64) so neighbouring games
/// do not share random streams.
fn game_seed(base: u64, index: u64) -> u64 {
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

/// Runs a match. A progress bar is drawn on stderr when it is a terminal.
pub fn run(game: &Game, settings: &MatchSettings) -> Result<Report, String> {
    if settings.bots.is_empty() {
        return Err("--bots needs at least one bot spec".into());
    }
    for spec in &settings.bots {
        bots::from_spec(spec, 0)?;
    }
    let progress = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(settings.games as u64);
        if let Ok(style) = ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games  {elapsed_precise} (about {eta} left)",
        ) {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    if settings.jobs > MOST_JOBS {
        return Err(format!(
            "--jobs takes at most {MOST_JOBS} worker threads, got {}",
            settings.jobs
        ));
    }
    let jobs = if settings.jobs == 0 {
        0
    } else {
        settings.jobs.min(settings.games.max(1))
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    if let Some(dir) = &settings.transcripts {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {dir}: {e}"))?;
    }
    let participants = settings.bots.len();
    let zero = || Totals {
        standings: vec![Standing::default(); participants],
        seat_wins: vec![0; game.players.len()],
        draws: 0,
    };
    // Each game is added to its worker's totals as soon as it ends (and its transcript
    // written), so memory does not grow with the number of games; totals are sums, so
    // the table does not depend on how games were spread over threads.
    let totals: Result<Totals, String> = pool.install(|| {
        (0..settings.games)
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
    });
    progress.finish_and_clear();
    let Totals {
        mut standings,
        seat_wins,
        draws,
    } = totals?;
    for (st, label) in standings.iter_mut().zip(labels(&settings.bots)) {
        st.label = label;
    }
    Ok(Report {
        game: game.name.clone(),
        games: settings.games,
        seed: settings.seed,
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
        for (a, b) in self.standings.iter_mut().zip(other.standings) {
            a.games += b.games;
            a.wins += b.wins;
            a.draws += b.draws;
            a.losses += b.losses;
            a.plies += b.plies;
            a.think += b.think;
            a.chosen += b.chosen;
        }
        for (a, b) in self.seat_wins.iter_mut().zip(other.seat_wins) {
            *a += b;
        }
        self.draws += other.draws;
    }
}

/// Bot specs as table labels; a spec given twice gets `#1`, `#2`.
fn labels(specs: &[String]) -> Vec<String> {
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let same = specs.iter().filter(|t| *t == s).count();
            if same > 1 {
                let nth = specs[..=i].iter().filter(|t| *t == s).count();
                format!("{s} #{nth}")
            } else {
                s.clone()
            }
        })
        .collect()
}

impl Report {
    /// The results table (the same for the same game, bots, games and seed), then the
    /// thinking times, which vary with the machine.
    pub fn table(&self) -> String {
        let width = self
            .standings
            .iter()
            .map(|s| s.label.len())
            .max()
            .unwrap_or(3)
            .max(3);
        let mut out = format!(
            "{}: {} games, seed {}\n{:width$}  {:>5}  {:>5}  {:>5}  {:>6}  {:>6}  {:>7}  {:>10}\n",
            self.game,
            self.games,
            self.seed,
            "bot",
            "games",
            "wins",
            "draws",
            "losses",
            "score",
            "95% CI",
            "plies/game"
        );
        for s in &self.standings {
            out.push_str(&format!(
                "{:width$}  {:>5}  {:>5}  {:>5}  {:>6}  {:>5.1}%  ±{:>5.1}%  {:>10.1}\n",
                s.label,
                s.games,
                s.wins,
                s.draws,
                s.losses,
                100.0 * s.score(),
                100.0 * s.margin(),
                if s.games == 0 {
                    0.0
                } else {
                    s.plies as f64 / s.games as f64
                }
            ));
        }
        out.push_str("games won by seat:");
        for (seat, wins) in &self.seats {
            out.push_str(&format!(" {seat} {wins},"));
        }
        out.push_str(&format!(" drawn {}\n", self.draws));
        out.push_str("thinking time per ply:");
        for s in &self.standings {
            out.push_str(&format!(" {} {:.2} ms;", s.label, s.ms_per_ply()));
        }
        out.pop();
        out.push('\n');
        out
    }

    /// The same figures as JSON.
    pub fn json(&self) -> serde_json::Value {
        json!({
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "bots": self.standings.iter().map(|s| json!({
                "bot": s.label,
                "games": s.games,
                "wins": s.wins,
                "draws": s.draws,
                "losses": s.losses,
                "score": s.score(),
                "ci95": s.margin(),
                "plies_per_game": if s.games == 0 { 0.0 } else { s.plies as f64 / s.games as f64 },
                "ms_per_ply": s.ms_per_ply(),
            })).collect::<Vec<_>>(),
            "seats": self.seats.iter().map(|(seat, wins)| json!({
                "seat": seat,
                "wins": wins,
            })).collect::<Vec<_>>(),
            "draws": self.draws,
        })
    }
}

impl Standing {
    fn ms_per_ply(&self) -> f64 {
        if self.chosen == 0 {
            0.0
        } else {
            self.think.as_secs_f64() * 1000.0 / self.chosen as f64
        }
    }
}
