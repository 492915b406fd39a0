//! The trace format: one JSON object per line, read by other programs.
//!
//! Line 1 is a header (game, file as given, players, every parameter, seed); then one line
//! per ply with the sorted legal plies and the one played; the last line is the result
//! and why the game ended.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::engine::game::Game;
use crate::engine::state::Outcome;

#[derive(Serialize)]
struct Header<'a> {
    game: &'a str,
    file: &'a str,
    players: &'a [String],
    params: BTreeMap<&'a str, serde_json::Value>,
    seed: u64,
    /// The bot spec of each seat, when the game was not played by random plies alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    bots: Option<&'a [String]>,
}

#[derive(Serialize)]
struct PlyLine<'a> {
    ply: usize,
    player: &'a str,
    legal: &'a [String],
    #[serde(rename = "move")]
    played: &'a str,
}

#[derive(Serialize)]
struct End<'a> {
    winners: Vec<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    /// Why the game ended, in the words `play` uses after `why: `.
    why: &'a str,
}

#[derive(Serialize)]
struct EndLine<'a> {
    end: End<'a>,
}

/// The header line; `bots` names the seats' bots, if any were given.
pub fn header(game: &Game, file: &str, seed: u64, bots: Option<&[String]>) -> String {
    let params = game
        .params
        .iter()
        .map(|p| {
            let v = if p.is_bool {
                serde_json::Value::Bool(p.value != 0)
            } else if p.scale > 1 {
                // In the unit people type (7.5), as `--param` takes it.
                serde_json::from_str(&p.text()).unwrap_or(serde_json::Value::Null)
            } else {
                serde_json::Value::from(p.value)
            };
            (p.name.as_str(), v)
        })
        .collect();
    line(&Header {
        game: &game.name,
        file,
        players: &game.players,
        bots,
        params,
        seed,
    })
}

/// The line of one ply.
pub fn ply(index: usize, player: &str, legal: &[String], played: &str) -> String {
    line(&PlyLine {
        ply: index,
        player,
        legal,
        played,
    })
}

/// The last line: the winners, `reason` where the program ended the game (`ply cap`),
/// and `why` it ended, as `play` says it.
pub fn end(game: &Game, outcome: &Outcome, why: &str) -> String {
    line(&EndLine {
        end: End {
            winners: outcome
                .winners
                .iter()
                .map(|&p| game.players[p as usize].as_str())
                .collect(),
            reason: outcome.reason.as_deref(),
            why,
        },
    })
}

fn line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("trace lines serialize")
}
