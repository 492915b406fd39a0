//! A match's results: the table people read, and the JSON a match or a shard writes and
//! `merge` reads back.
//!
//! The JSON holds the raw sums (plies, plies chosen, thinking time in nanoseconds), not
//! only the averages made from them, so that shards add up to exactly the whole match;
//! it also holds what makes two runs one match (game, file, parameters, position, bot
//! specs, games, seed), so that `merge` can refuse shards of different matches. Timing,
//! the one figure that differs from run to run, stands apart: the last line of the table
//! and the `timing` list of the JSON.

use std::collections::BTreeMap;
use std::ops::Range;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::shard::Shard;
use super::stats::{elo, elo_json, elo_text, wilson};
use crate::compile::MOST_PLIES;

/// The most games a match may have: a bound that keeps every total far from overflowing,
/// above any match anyone plays.
pub const MOST_GAMES: usize = 1_000_000_000;

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

    /// The score's 95% interval, Wilson's (`stats::wilson`: honest at 0 and 1, where the
    /// normal approximation says `± 0`), as `(low, high)`.
    pub fn interval(&self) -> (f64, f64) {
        wilson(self.score(), self.games)
    }

    /// Half the width of the normal approximation's 95% interval of the score: only for
    /// the JSON's `ci95`, kept for the readers of older files (the table prints
    /// [`Standing::interval`]).
    pub fn margin(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        let p = self.score();
        1.96 * (p * (1.0 - p) / self.games as f64).sqrt()
    }

    /// Adds the totals of other games of the same participant: every field is a sum, so
    /// games may be added in any grouping (threads, shards) with the same result.
    pub fn add(&mut self, other: &Standing) {
        self.games += other.games;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.plies += other.plies;
        self.think = self.think.saturating_add(other.think);
        self.chosen += other.chosen;
    }

    fn plies_per_game(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.plies as f64 / self.games as f64
        }
    }

    fn ms_per_ply(&self) -> f64 {
        if self.chosen == 0 {
            0.0
        } else {
            self.think.as_secs_f64() * 1000.0 / self.chosen as f64
        }
    }
}

/// The Elo difference of one participant over the other in a match of two: the point
/// figure from the score, the ends from the score interval's; `±∞` where a score or an
/// end is 0 or 1 (`stats::elo`).
#[derive(Clone, Debug, PartialEq)]
pub struct Elo {
    pub bot: String,
    pub against: String,
    pub diff: f64,
    pub low: f64,
    pub high: f64,
}

/// A match's outcome, or a shard's: one standing per participant, in the order given.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The game's name.
    pub game: String,
    /// The game file as given on the command line.
    pub file: String,
    /// Every parameter of the game and its value, defaults included.
    pub params: BTreeMap<String, String>,
    /// The diagram the games started from (one line), if not the game's own start.
    pub position: Option<String>,
    /// The bot specs, one per participant, as given.
    pub specs: Vec<String>,
    /// The games of the whole match, whatever part of it this report covers.
    pub games: usize,
    pub seed: u64,
    /// Which part of the match this report covers; `None` for all of it.
    pub shard: Option<Shard>,
    pub standings: Vec<Standing>,
    /// Per seat (the game's players, in order): its name and the games won from it,
    /// whoever sat there. Seats rotate, so a bot's score says nothing of how much the
    /// seat itself is worth; this does (a game whose first player wins 90% of the time
    /// leaves two bots of any strength near 50%).
    pub seats: Vec<(String, usize)>,
    /// Games that ended with no winner.
    pub draws: usize,
}

impl Report {
    /// The indices of the games this report covers.
    pub fn played(&self) -> Range<usize> {
        match self.shard {
            None => 0..self.games,
            // Checked when the shard was played or read.
            Some(shard) => shard.games(self.games).unwrap_or(0..0),
        }
    }

    /// The results table (the same for the same game, bots, games, seed and shard), then
    /// the thinking times, which vary with the machine, on the last line.
    pub fn table(&self) -> String {
        let width = self
            .standings
            .iter()
            .map(|s| s.label.len())
            .max()
            .unwrap_or(3)
            .max(3);
        let mut out = format!(
            "{}: {}, seed {}\n{:width$}  {:>5}  {:>5}  {:>5}  {:>6}  {:>6}  {:>16}  {:>10}\n",
            self.game,
            self.extent(),
            self.seed,
            "bot",
            "games",
            "wins",
            "draws",
            "losses",
            "score",
            "95% interval",
            "plies/game"
        );
        for s in &self.standings {
            let (low, high) = s.interval();
            out.push_str(&format!(
                "{:width$}  {:>5}  {:>5}  {:>5}  {:>6}  {:>5.1}%  [{:>5.1}%, {:>5.1}%]  {:>10.1}\n",
                s.label,
                s.games,
                s.wins,
                s.draws,
                s.losses,
                100.0 * s.score(),
                100.0 * low,
                100.0 * high,
                s.plies_per_game()
            ));
        }
        if let Some(line) = self.elo_line() {
            out.push_str(&line);
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

    /// The Elo difference of the first participant over the second, with its 95%
    /// interval (the score interval's ends, as Elo): only a match of two has one.
    pub fn elo(&self) -> Option<Elo> {
        let [first, second] = self.standings.as_slice() else {
            return None;
        };
        let (low, high) = first.interval();
        Some(Elo {
            bot: first.label.clone(),
            against: second.label.clone(),
            diff: elo(first.score()),
            low: elo(low),
            high: elo(high),
        })
    }

    /// The table's Elo line, for a match of two.
    fn elo_line(&self) -> Option<String> {
        let e = self.elo()?;
        Some(format!(
            "Elo of {} against {}: {}, 95% interval [{}, {}]\n",
            e.bot,
            e.against,
            elo_text(e.diff),
            elo_text(e.low),
            elo_text(e.high)
        ))
    }

    /// What the table covers: `200 games`, or `shard 2/4 of a match of 200 games (games
    /// 51 to 100)`.
    fn extent(&self) -> String {
        match self.shard {
            None => format!("{} games", self.games),
            Some(shard) => {
                let played = self.played();
                format!(
                    "shard {shard} of a match of {} games (games {} to {})",
                    self.games,
                    played.start + 1,
                    played.end
                )
            }
        }
    }

    /// The same figures as JSON text (pretty, ending with a newline), with what `merge`
    /// needs to check and add up shards.
    pub fn json(&self) -> String {
        let saved = Saved::from(self);
        // Plain structs of strings and numbers always serialize.
        serde_json::to_string_pretty(&saved).unwrap_or_default() + "\n"
    }

    /// Reads back what [`Report::json`] wrote; the error says what is missing or wrong.
    pub fn from_json(text: &str) -> Result<Report, String> {
        let saved: Saved = serde_json::from_str(text)
            .map_err(|e| format!("not the JSON of `rulebook match --json`: {e}"))?;
        saved.into_report()
    }
}

/// The JSON of a match, field by field: written from a [`Report`] and read back into one.
/// Averages are written for people and ignored when read (`skip_deserializing`): the
/// sums they come from are there.
#[derive(Serialize, Deserialize)]
struct Saved {
    game: String,
    file: String,
    params: BTreeMap<String, String>,
    position: Option<String>,
    games: usize,
    seed: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    shard: Option<Shard>,
    bots: Vec<SavedBot>,
    seats: Vec<SavedSeat>,
    draws: usize,
    /// A match of two: the first bot's Elo difference over the second (recomputed from
    /// the sums when read).
    #[serde(default, skip_deserializing, skip_serializing_if = "Option::is_none")]
    elo: Option<SavedElo>,
    /// Thinking time, apart from the rest: it differs from run to run.
    timing: Vec<SavedTiming>,
}

#[derive(Serialize, Deserialize)]
struct SavedBot {
    bot: String,
    spec: String,
    games: usize,
    wins: usize,
    draws: usize,
    losses: usize,
    #[serde(skip_deserializing)]
    score: f64,
    /// The normal approximation's half-width, for the readers of older files.
    #[serde(skip_deserializing)]
    ci95: f64,
    /// Wilson's 95% interval of the score, the table's.
    #[serde(skip_deserializing)]
    score_low: f64,
    #[serde(skip_deserializing)]
    score_high: f64,
    plies: u64,
    #[serde(skip_deserializing)]
    plies_per_game: f64,
    plies_chosen: u64,
}

/// An [`Elo`] in JSON, which has no infinities: `null` for one (`stats::elo_json`).
#[derive(Serialize, Deserialize)]
struct SavedElo {
    bot: String,
    against: String,
    diff: Option<f64>,
    low: Option<f64>,
    high: Option<f64>,
}

#[derive(Serialize, Deserialize)]
struct SavedSeat {
    seat: String,
    wins: usize,
}

#[derive(Serialize, Deserialize)]
struct SavedTiming {
    bot: String,
    think_ns: u64,
    #[serde(skip_deserializing)]
    ms_per_ply: f64,
}

impl From<&Report> for Saved {
    fn from(r: &Report) -> Saved {
        let bots = r.standings.iter().zip(&r.specs);
        Saved {
            game: r.game.clone(),
            file: r.file.clone(),
            params: r.params.clone(),
            position: r.position.clone(),
            games: r.games,
            seed: r.seed,
            shard: r.shard,
            bots: bots
                .map(|(s, spec)| SavedBot {
                    bot: s.label.clone(),
                    spec: spec.clone(),
                    games: s.games,
                    wins: s.wins,
                    draws: s.draws,
                    losses: s.losses,
                    score: s.score(),
                    ci95: s.margin(),
                    score_low: s.interval().0,
                    score_high: s.interval().1,
                    plies: s.plies,
                    plies_per_game: s.plies_per_game(),
                    plies_chosen: s.chosen,
                })
                .collect(),
            seats: r
                .seats
                .iter()
                .map(|(seat, wins)| SavedSeat {
                    seat: seat.clone(),
                    wins: *wins,
                })
                .collect(),
            draws: r.draws,
            elo: r.elo().map(|e| SavedElo {
                bot: e.bot,
                against: e.against,
                diff: elo_json(e.diff),
                low: elo_json(e.low),
                high: elo_json(e.high),
            }),
            timing: r
                .standings
                .iter()
                .map(|s| SavedTiming {
                    bot: s.label.clone(),
                    think_ns: u64::try_from(s.think.as_nanos()).unwrap_or(u64::MAX),
                    ms_per_ply: s.ms_per_ply(),
                })
                .collect(),
        }
    }
}

impl Saved {
    /// The report, once what the JSON says is checked to hang together.
    fn into_report(self) -> Result<Report, String> {
        if !(1..=MOST_GAMES).contains(&self.games) {
            return Err(format!(
                "its number of games, {}, is not from 1 to {MOST_GAMES}",
                self.games
            ));
        }
        if let Some(shard) = self.shard {
            Shard::new(shard.index, shard.of)
                .and_then(|s| s.games(self.games))
                .map_err(|e| format!("its shard is wrong: {e}"))?;
        }
        if self.timing.len() != self.bots.len() {
            return Err(format!(
                "it lists {} bots but the timing of {}",
                self.bots.len(),
                self.timing.len()
            ));
        }
        let specs: Vec<String> = self.bots.iter().map(|b| b.spec.clone()).collect();
        let standings = self
            .bots
            .iter()
            .zip(&self.timing)
            .zip(labels(&specs))
            .map(|((b, t), label)| Standing {
                label,
                games: b.games,
                wins: b.wins,
                draws: b.draws,
                losses: b.losses,
                plies: b.plies,
                think: Duration::from_nanos(t.think_ns),
                chosen: b.plies_chosen,
            })
            .collect();
        let report = Report {
            game: self.game,
            file: self.file,
            params: self.params,
            position: self.position,
            specs,
            games: self.games,
            seed: self.seed,
            // `1/1` is the whole match, as `match --shard 1/1` writes it.
            shard: self.shard.filter(|s| s.of > 1),
            standings,
            seats: self.seats.into_iter().map(|s| (s.seat, s.wins)).collect(),
            draws: self.draws,
        };
        report.check_totals()?;
        Ok(report)
    }
}

impl Report {
    /// Refuses totals that no run of this report's games gives (a file edited by hand, or
    /// cut short): each bot's wins, draws and losses adding up to its games, no more
    /// games than were played, no more plies than their cap allows. Merged totals then
    /// stay far from overflowing.
    fn check_totals(&self) -> Result<(), String> {
        let played = self.played().len() as u128;
        let most_plies = played * u128::from(MOST_PLIES);
        let wrong = |what: String| Err(format!("its totals are not a match's: {what}"));
        for s in &self.standings {
            let results = s.wins as u128 + s.draws as u128 + s.losses as u128;
            if results != s.games as u128 || s.games as u128 > played {
                return wrong(format!(
                    "{} has {} games, {} wins, {} draws and {} losses, of {played} games played",
                    s.label, s.games, s.wins, s.draws, s.losses
                ));
            }
            if u128::from(s.plies.max(s.chosen)) > most_plies {
                return wrong(format!(
                    "{} has more plies than {played} games can have",
                    s.label
                ));
            }
        }
        if let Some((seat, wins)) = self.seats.iter().find(|(_, w)| *w as u128 > played) {
            return wrong(format!("{seat} won {wins} of {played} games"));
        }
        if self.draws as u128 > played {
            return wrong(format!("{} of {played} games drawn", self.draws));
        }
        Ok(())
    }
}

/// Bot specs as table labels; a spec given twice gets `#1`, `#2`.
pub(super) fn labels(specs: &[String]) -> Vec<String> {
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
