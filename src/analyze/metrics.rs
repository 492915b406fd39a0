//! The metrics of one column (a game with one set of parameters, or one variant file),
//! worked out from its games' records in index order: fairness by seat, draws,
//! decisiveness, length, branching, forced plies, lead changes and drama, stalls, rule
//! coverage and piece usage. `docs/analyze.md` gives each one's formula.

use std::collections::BTreeMap;

use serde::Serialize;

use super::record::GameRecord;
use super::skill::Skill;
use super::stats::{Mean, Proportion, round};
use crate::engine::flow::EndCause;
use crate::engine::game::Game;
use crate::spec::Source;

/// The names coverage gives the rules the compiled game keeps by number: the file's
/// `[[end]]` and `[[stuck]]` rules have none, so each is named by its line and condition.
#[derive(Clone, Debug, Default)]
pub struct RuleNames {
    pub ends: Vec<String>,
    pub stuck: Vec<String>,
}

impl RuleNames {
    /// The names of `source`'s end and stuck rules: `at line 72: groups(me) == 1`.
    pub fn of(source: &Source) -> RuleNames {
        let line = |at: usize| {
            source.text[..at.min(source.text.len())]
                .matches('\n')
                .count()
                + 1
        };
        let name = |when: &crate::spec::schema::Code| {
            let text: String = when
                .get_ref()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            format!("at line {}: {text}", line(when.span().start))
        };
        RuleNames {
            ends: source.file.end.iter().map(|e| name(&e.when)).collect(),
            stuck: source.file.stuck.iter().map(|e| name(&e.when)).collect(),
        }
    }
}

/// A bin of the length histogram: games of `from` to `to` plies (both included).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bin {
    pub from: u32,
    pub to: u32,
    pub games: u64,
}

/// The legal plies at one ply of the game, over the games that reached it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlyBranching {
    /// The ply about to be played, from 1.
    pub ply: u32,
    pub mean: f64,
    pub games: u64,
}

/// A seat's results: wins alone, and its score (a draw shared by all, a shared win by
/// the winners).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatResult {
    pub seat: String,
    pub wins: u64,
    pub score: Proportion,
}

/// How often one rule of the file fired.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RuleUse {
    /// `action`, `part`, `phase`, `end` or `stuck`.
    pub kind: &'static str,
    pub name: String,
    /// Times it fired: plies for actions, parts and phases, games for end rules.
    pub count: u64,
    /// The games in which it fired at least once.
    pub games: u64,
}

impl RuleUse {
    /// How the table and the list of dead rules name it: `action move`, `move part 2`,
    /// `phase placement`, `end at line 72: groups(me) == 1`.
    pub fn title(&self) -> String {
        if self.kind == "part" {
            self.name.clone()
        } else {
            format!("{} {}", self.kind, self.name)
        }
    }
}

/// How one piece kind was used.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PieceUse {
    pub kind: String,
    /// Plies in which a piece of the kind went from one cell to another.
    pub moved: u64,
    /// Pieces that came onto the board.
    pub placed: u64,
    /// Pieces that left the board, taken from another player (or neutral).
    pub captured: u64,
    /// Pieces that left the board, taken off by their owner.
    pub removed: u64,
}

/// Every metric of one column.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Metrics {
    /// What tells this column from the others: `size=6`, or the variant file.
    pub label: String,
    /// Every parameter and its value.
    pub params: BTreeMap<String, String>,
    pub games: u64,
    pub seats: Vec<SeatResult>,
    /// The first seat's score: the first-player edge (fair is 1 / players).
    pub first_player: Proportion,
    pub draws: Proportion,
    /// Games won by someone, not ended by a cap.
    pub decisive: Proportion,
    /// Games ended by the ply cap.
    pub capped: u64,
    /// Plies per game.
    pub length: Mean,
    pub length_min: u32,
    pub length_median: u32,
    pub length_max: u32,
    pub length_histogram: Vec<Bin>,
    /// Each game's mean number of legal plies, over the games.
    pub branching: Mean,
    /// The mean legal plies at each ply, up to the last ply one game in ten reached.
    pub branching_by_ply: Vec<PlyBranching>,
    /// Positions with exactly one legal ply, of all positions played from.
    pub forced: Proportion,
    /// Plies that changed no player's material, of all plies.
    pub quiet: Proportion,
    /// Each game's longest run of quiet plies.
    pub longest_quiet: Mean,
    /// Plies per game that led back to a position seen before in the game.
    pub repeats: Mean,
    /// Games with at least one repeated position.
    pub repeating_games: Proportion,
    /// With an `[eval]`: changes of the strict leader per game.
    pub lead_changes: Option<Mean>,
    /// With an `[eval]`: in decisive games, the share of positions in which an eventual
    /// loser strictly led.
    pub drama: Option<Mean>,
    /// Every action, part, phase, end and stuck rule, and how often it fired.
    pub coverage: Vec<RuleUse>,
    /// The rules of `coverage` that never fired.
    pub dead: Vec<String>,
    pub pieces: Vec<PieceUse>,
    /// The kinds that never moved, came onto or left the board.
    pub unused_pieces: Vec<String>,
    /// Skill depth, when asked for (`--skill`).
    pub skill: Option<Skill>,
}

impl Metrics {
    /// The metrics of `records` (the games of one column, in index order).
    pub fn of(label: String, game: &Game, names: &RuleNames, records: &[GameRecord]) -> Metrics {
        let games = records.len() as u64;
        let seats = game.players.len();
        let mut wins = vec![0u64; seats];
        let mut score = vec![0f64; seats];
        for r in records {
            if r.winners.is_empty() {
                for s in &mut score {
                    *s += 1.0 / seats as f64;
                }
            }
            for &w in &r.winners {
                score[w as usize] += 1.0 / r.winners.len() as f64;
                if r.winners.len() == 1 {
                    wins[w as usize] += 1;
                }
            }
        }
        let seat_results: Vec<SeatResult> = (0..seats)
            .map(|s| SeatResult {
                seat: game.players[s].clone(),
                wins: wins[s],
                score: Proportion::new(score[s], games),
            })
            .collect();
        let count = |f: &dyn Fn(&GameRecord) -> bool| records.iter().filter(|r| f(r)).count();
        let capped = count(&|r| r.cause == Some(EndCause::Cap)) as u64;
        let draws = count(&|r| r.winners.is_empty()) as f64;
        let decisive = count(&|r| !r.winners.is_empty() && r.cause != Some(EndCause::Cap)) as f64;
        let mut lengths: Vec<u32> = records.iter().map(|r| r.plies).collect();
        lengths.sort_unstable();
        let positions: u64 = records.iter().map(|r| r.branching.len() as u64).sum();
        let forced: u64 = records
            .iter()
            .map(|r| r.branching.iter().filter(|&&b| b == 1).count() as u64)
            .sum();
        let played: u64 = records.iter().map(|r| r.plies as u64).sum();
        let quiet: u64 = records.iter().map(|r| r.quiet as u64).sum();
        let has_eval = game.eval.is_some();
        Metrics {
            label,
            params: game.param_texts().into_iter().collect(),
            games,
            first_player: seat_results
                .first()
                .map_or(Proportion::new(0.0, 0), |s| s.score.clone()),
            seats: seat_results,
            draws: Proportion::new(draws, games),
            decisive: Proportion::new(decisive, games),
            capped,
            length: Mean::of(lengths.iter().map(|&l| l as f64)),
            length_min: lengths.first().copied().unwrap_or(0),
            length_median: lengths.get(lengths.len() / 2).copied().unwrap_or(0),
            length_max: lengths.last().copied().unwrap_or(0),
            length_histogram: histogram(&lengths),
            branching: Mean::of(records.iter().filter(|r| !r.branching.is_empty()).map(|r| {
                r.branching.iter().map(|&b| b as f64).sum::<f64>() / r.branching.len() as f64
            })),
            branching_by_ply: by_ply(records),
            forced: Proportion::new(forced as f64, positions),
            quiet: Proportion::new(quiet as f64, played),
            longest_quiet: Mean::of(records.iter().map(|r| r.longest_quiet as f64)),
            repeats: Mean::of(records.iter().map(|r| r.repeats as f64)),
            repeating_games: Proportion::new(count(&|r| r.repeats > 0) as f64, games),
            lead_changes: has_eval.then(|| Mean::of(records.iter().map(|r| r.lead_changes as f64))),
            drama: has_eval.then(|| Mean::of(records.iter().filter_map(drama))),
            coverage: coverage(game, names, records),
            dead: Vec::new(),
            pieces: pieces(game, records),
            unused_pieces: Vec::new(),
            skill: None,
        }
        .with_dead()
    }

    /// Lists the rules that never fired and the kinds never used.
    fn with_dead(mut self) -> Metrics {
        self.dead = (self.coverage.iter())
            .filter(|u| u.count == 0)
            .map(RuleUse::title)
            .collect();
        self.unused_pieces = (self.pieces.iter())
            .filter(|p| p.moved + p.placed + p.captured + p.removed == 0)
            .map(|p| p.kind.clone())
            .collect();
        self
    }
}

/// In a decisive game with an `[eval]`, the share of positions after a ply in which one
/// of the eventual losers strictly led.
fn drama(r: &GameRecord) -> Option<f64> {
    if r.winners.is_empty() || r.cause == Some(EndCause::Cap) || r.plies == 0 {
        return None;
    }
    let losers_led: u32 = (r.led.iter().enumerate())
        .filter(|(s, _)| !r.winners.contains(&(*s as u8)))
        .map(|(_, &n)| n)
        .sum();
    Some(round(losers_led as f64 / r.plies as f64))
}

/// The histogram of sorted `lengths`, in at most about 20 bins of a round width (1, 2 or
/// 5 times a power of ten).
pub fn histogram(lengths: &[u32]) -> Vec<Bin> {
    let (Some(&min), Some(&max)) = (lengths.first(), lengths.last()) else {
        return Vec::new();
    };
    let width = bin_width(max - min + 1);
    let start = min / width * width;
    let bins = (max - start) / width + 1;
    (0..bins)
        .map(|b| {
            let from = start + b * width;
            let to = from + width - 1;
            let games = lengths
                .iter()
                .filter(|&&l| (from..=to).contains(&l))
                .count() as u64;
            Bin { from, to, games }
        })
        .collect()
}

/// The smallest round width (1, 2, 5, 10, 20, ...) that covers `span` in 20 bins.
fn bin_width(span: u32) -> u32 {
    let mut unit = 1u32;
    loop {
        for w in [unit, 2 * unit, 5 * unit] {
            if span.div_ceil(w) <= 20 {
                return w;
            }
        }
        unit = unit.saturating_mul(10);
    }
}

/// The mean legal plies at each ply, up to the last ply at least one game in ten (and at
/// least one game) reached.
fn by_ply(records: &[GameRecord]) -> Vec<PlyBranching> {
    let enough = (records.len() as u64).div_ceil(10).max(1);
    let mut out = Vec::new();
    for ply in 0.. {
        let at: Vec<u32> = records
            .iter()
            .filter_map(|r| r.branching.get(ply).copied())
            .collect();
        if (at.len() as u64) < enough {
            break;
        }
        out.push(PlyBranching {
            ply: ply as u32 + 1,
            mean: round(at.iter().map(|&b| b as f64).sum::<f64>() / at.len() as f64),
            games: at.len() as u64,
        });
    }
    out
}

/// How often each action, part (after the first), phase, end rule and stuck rule fired.
fn coverage(game: &Game, names: &RuleNames, records: &[GameRecord]) -> Vec<RuleUse> {
    let mut out = Vec::new();
    let mut add = |kind, name: String, per_game: &dyn Fn(&GameRecord) -> u64| {
        let counts: Vec<u64> = records.iter().map(per_game).collect();
        out.push(RuleUse {
            kind,
            name,
            count: counts.iter().sum(),
            games: counts.iter().filter(|&&c| c > 0).count() as u64,
        });
    };
    for (a, action) in game.actions.iter().enumerate() {
        add("action", action.name.clone(), &|r| r.actions[a] as u64);
        for p in 1..action.parts.len() {
            add("part", format!("{} part {}", action.name, p + 1), &|r| {
                r.parts[a][p] as u64
            });
        }
    }
    for (i, phase) in game.phases.iter().enumerate() {
        add("phase", phase.name.clone(), &|r| r.phases[i] as u64);
    }
    for i in 0..game.ends.len() {
        let name = names
            .ends
            .get(i)
            .cloned()
            .unwrap_or_else(|| (i + 1).to_string());
        add("end", name, &|r| (r.cause == Some(EndCause::End(i))) as u64);
    }
    for i in 0..game.stuck_rules.len() {
        let name = names
            .stuck
            .get(i)
            .cloned()
            .unwrap_or_else(|| (i + 1).to_string());
        add("stuck", name, &|r| {
            (r.cause == Some(EndCause::Stuck(i))) as u64
        });
    }
    out
}

/// What happened to each kind's pieces over all the games.
fn pieces(game: &Game, records: &[GameRecord]) -> Vec<PieceUse> {
    let sum = |f: &dyn Fn(&GameRecord) -> u32| records.iter().map(|r| f(r) as u64).sum::<u64>();
    (game.kinds.iter().enumerate())
        .map(|(k, kind)| PieceUse {
            kind: kind.name.clone(),
            moved: sum(&|r| r.moved[k]),
            placed: sum(&|r| r.placed[k]),
            captured: sum(&|r| r.captured[k]),
            removed: sum(&|r| r.removed[k]),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{bin_width, histogram};

    #[test]
    fn histograms_have_round_bins_that_hold_every_game() {
        assert_eq!(bin_width(9), 1);
        assert_eq!(bin_width(21), 2);
        assert_eq!(bin_width(95), 5);
        assert_eq!(bin_width(300), 20);
        let lengths = [3, 7, 7, 12, 40];
        let bins = histogram(&lengths);
        assert_eq!(bins.iter().map(|b| b.games).sum::<u64>(), 5);
        assert_eq!(bins[0].from, 2);
        assert!(bins.iter().all(|b| b.to - b.from + 1 == 2));
    }
}

#[cfg(test)]
mod properties {
    use proptest::prelude::*;

    use super::histogram;

    proptest! {
        #[test]
        fn a_histogram_covers_every_length_once_in_at_most_20_equal_bins(
            mut lengths in proptest::collection::vec(0u32..5000, 1..300)
        ) {
            lengths.sort_unstable();
            let bins = histogram(&lengths);
            prop_assert!(bins.len() <= 21);
            prop_assert_eq!(bins.iter().map(|b| b.games).sum::<u64>(), lengths.len() as u64);
            let width = bins[0].to - bins[0].from + 1;
            for pair in bins.windows(2) {
                prop_assert_eq!(pair[1].from, pair[0].to + 1);
                prop_assert_eq!(pair[1].to - pair[1].from + 1, width);
            }
            prop_assert!(bins[0].from <= lengths[0]);
            prop_assert!(bins[bins.len() - 1].to >= lengths[lengths.len() - 1]);
        }
    }
}
