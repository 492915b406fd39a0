//! `rulebook merge`: the JSON files of a match's shards, checked to be one match with each
//! shard there once, added up into the report the whole match would have given.
//!
//! Only a complete set is merged: a missing shard is an error naming it, so a merged
//! table is never mistaken for the whole match's. (A shard's own JSON and table already
//! say what part they cover.) The JSON of a whole match merges alone into itself.

use crate::record::file::read_text;
use crate::render::text::printable;

use super::report::Report;
use super::shard::Shard;

/// The most bytes a match's JSON may have: a few hundred a bot.
const MOST_BYTES: u64 = 16 << 20;

/// Reads the JSON `match --json` wrote; the error names the file.
pub fn read(path: &str) -> Result<Report, String> {
    let shown = printable(path);
    let text = read_text(path, MOST_BYTES, "match's JSON")
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    Report::from_json(&text).map_err(|e| format!("{shown}: {e}"))
}

/// Adds up the reports of `parts` (each with the path it was read from, for messages):
/// every shard of one match, each once, in any order.
pub fn merge(parts: &[(String, Report)]) -> Result<Report, String> {
    let Some((first_path, first)) = parts.first() else {
        return Err("merge needs the JSON of at least one shard".into());
    };
    for (path, report) in &parts[1..] {
        same_match(first_path, first, path, report)?;
    }
    let of = first.shard.map_or(1, |s| s.of);
    let mut by_index: Vec<Option<&str>> = vec![None; of];
    for (path, report) in parts {
        let index = report.shard.map_or(1, |s| s.index);
        if let Some(earlier) = by_index[index - 1].replace(path) {
            return Err(format!(
                "{} and {} are both shard {index}/{of}: merge takes each shard once",
                printable(earlier),
                printable(path)
            ));
        }
    }
    missing(first.games, &by_index)?;
    Ok(sum(parts))
}

/// Refuses `report` unless it is from the match `first` is from; the message names the
/// first thing that differs.
fn same_match(first_path: &str, first: &Report, path: &str, report: &Report) -> Result<(), String> {
    let theirs = identity(first);
    for ((what, mine), (_, other)) in identity(report).into_iter().zip(theirs) {
        if mine != other {
            let (path, first_path) = (printable(path), printable(first_path));
            return Err(format!(
                "{path} and {first_path} are not shards of one match ({what}: {mine} in \
                 {path}, {other} in {first_path}); shards of one match agree on the game, \
                 file, parameters, position, bots, number of games, seed and number of shards"
            ));
        }
    }
    Ok(())
}

/// What makes runs shards of one match, each with what it is called in messages.
fn identity(r: &Report) -> Vec<(&'static str, String)> {
    let params: Vec<String> = r.params.iter().map(|(n, v)| format!("{n}={v}")).collect();
    vec![
        ("game", format!("`{}`", r.game)),
        ("game file", format!("`{}`", r.file)),
        ("parameters", or_none(params.join(", "))),
        (
            "starting position",
            r.position
                .as_ref()
                .map_or("the game's own".into(), |p| format!("`{p}`")),
        ),
        ("bots", format!("`{}`", r.specs.join(","))),
        (
            "seats",
            r.seats
                .iter()
                .map(|(s, _)| s.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        ),
        ("number of games", r.games.to_string()),
        ("seed", r.seed.to_string()),
        (
            "number of shards",
            r.shard
                .map_or("1 (a whole match)".into(), |s| s.of.to_string()),
        ),
    ]
}

fn or_none(text: String) -> String {
    if text.is_empty() { "none".into() } else { text }
}

/// Refuses a set of shards with one missing, naming each missing shard and its games.
fn missing(games: usize, by_index: &[Option<&str>]) -> Result<(), String> {
    let of = by_index.len();
    let missing: Vec<String> = (1..=of)
        .filter(|&k| by_index[k - 1].is_none())
        .map(|k| {
            // Shards read from files are checked against the number of games.
            let range = Shard { index: k, of }.games(games).unwrap_or(0..0);
            format!(
                "shard {k}/{of} (games {} to {})",
                range.start + 1,
                range.end
            )
        })
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(format!(
        "missing {}: merge needs every shard of the match once, to print the whole \
         match's table",
        missing.join(", ")
    ))
}

/// The whole match's report: the parts' totals added up.
fn sum(parts: &[(String, Report)]) -> Report {
    let mut whole = parts[0].1.clone();
    whole.shard = None;
    for (_, part) in &parts[1..] {
        for (a, b) in whole.standings.iter_mut().zip(&part.standings) {
            a.add(b);
        }
        for ((_, a), (_, b)) in whole.seats.iter_mut().zip(&part.seats) {
            *a += b;
        }
        whole.draws += part.draws;
    }
    whole
}
