//! A game of two players as a PGN record (the Portable Game Notation's export format):
//! the seven-tag roster, the plies in the game's short notation with move numbers, and
//! the result. The tags come from the transcript (the seats' names and players), the
//! result from who won; a game that started elsewhere than at its start adds `SetUp` and
//! `FEN` with its position text. Only a game whose file gives a short notation has one.

use std::fmt::Write as _;

use super::position_text;
use super::transcript::Transcript;
use crate::engine::game::Game;
use crate::engine::state::State;

/// The most characters on a line of movetext (the export format asks for fewer than 80).
const LINE: usize = 79;

/// The record of the game of `t`, played on `game` through `positions` (the start, then
/// the position after each ply), or why there is none.
pub fn write(game: &Game, t: &Transcript, positions: &[State]) -> Result<String, String> {
    if !game.has_short() {
        return Err(format!(
            "{} gives no short notation (`short`), which a PGN record is written in",
            game.name
        ));
    }
    if game.players.len() != 2 {
        return Err(format!(
            "a PGN record is of a game of two players; {} has {}",
            game.name,
            game.players.len()
        ));
    }
    let result = result(game, t, positions.last());
    let mut out = String::new();
    let tag = |out: &mut String, name: &str, value: &str| {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(out, "[{name} \"{value}\"]");
    };
    tag(&mut out, "Event", &format!("{} game", game.name));
    tag(&mut out, "Site", "?");
    tag(&mut out, "Date", "????.??.??");
    tag(&mut out, "Round", "?");
    for name in &game.players {
        let player = (t.names.iter().find(|(s, _)| s == name))
            .or_else(|| t.seats.iter().find(|(s, _)| s == name))
            .map_or("?", |(_, p)| p.as_str());
        tag(&mut out, &capitalised(name), player);
    }
    tag(&mut out, "Result", result);
    if let (Some(_), Some(start)) = (&t.position, positions.first()) {
        tag(&mut out, "SetUp", "1");
        tag(&mut out, "FEN", &position_text::write(game, start)?);
    }
    out.push('\n');
    let mut words = Vec::new();
    for (i, (entry, state)) in t.plies.iter().zip(positions).enumerate() {
        let ply = (game.parse_ply(state, &entry.ply))
            .map_err(|_| format!("`{}` is not legal in the game's position", entry.ply))?;
        let round = (state.turn - 1) / 2 + 1;
        if state.to_move == 0 {
            words.push(format!("{round}."));
        } else if i == 0 {
            words.push(format!("{round}..."));
        }
        words.push(game.short_text(state, &ply));
    }
    words.push(result.to_string());
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > LINE {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    out.push_str(&line);
    out.push('\n');
    Ok(out)
}

/// `1-0` when the first seat won, `0-1` the second, `1/2-1/2` a draw, `*` unfinished (a
/// resignation, which the position does not show, read from the transcript's result).
fn result(game: &Game, t: &Transcript, last: Option<&State>) -> &'static str {
    let winners: Vec<usize> = match last.and_then(|s| s.outcome.as_ref()) {
        Some(o) if o.winners.is_empty() => return "1/2-1/2",
        Some(o) => o.winners.iter().map(|&w| w as usize).collect(),
        None => match t.result.split_once(" won (") {
            Some((won, _)) => (game.players.iter().position(|p| p == won))
                .into_iter()
                .collect(),
            None => return "*",
        },
    };
    match winners[..] {
        [0] => "1-0",
        [1] => "0-1",
        _ => "*",
    }
}

/// A seat's name as a tag's: its first letter in capitals (`white` is `White`).
fn capitalised(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}
