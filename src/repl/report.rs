//! What the REPL says about a ply and about the end of a game, worked out from the
//! positions alone: the engine knows no game, and neither does this.
//!
//! A ply is described by comparing the position before it with the one after: the pieces
//! that left the board (by owner and kind), the players who left the game, the phase that
//! began. The end of a game is explained by the end rule whose condition holds in the last
//! position (found by asking a variant of the game, see [`variant`]), or by the rule the
//! interpreter applies itself (last player standing, passes, the ply cap), with the
//! scores when the game scores.

use std::collections::BTreeMap;

use super::variant::{Variant, one_line};
use crate::engine::flow::EndCause;
use crate::engine::game::Game;
use crate::engine::state::{NEUTRAL, State};

/// What a ply did besides its text: pieces that left the board, players out of the game,
/// a new phase. Empty when it did nothing of the sort.
pub fn effects(game: &Game, before: &State, after: &State) -> Vec<String> {
    let mut said = Vec::new();
    let count = |state: &State| {
        let mut n: BTreeMap<(u8, u8), usize> = BTreeMap::new();
        for piece in state.stacks().iter().flatten() {
            *n.entry((piece.owner, piece.kind)).or_default() += 1;
        }
        n
    };
    let (was, is) = (count(before), count(after));
    let mut removed = Vec::new();
    for (&(owner, kind), &n) in &was {
        let left = is.get(&(owner, kind)).copied().unwrap_or(0);
        if left < n {
            let kind = &game.kinds[kind as usize].name;
            let whose = if owner == NEUTRAL {
                String::new()
            } else {
                format!("{}'s ", game.players[owner as usize])
            };
            removed.push(match n - left {
                1 => format!("{whose}{kind}"),
                k => format!("{k} of {whose}{}", plural(kind)),
            });
        }
    }
    if !removed.is_empty() {
        said.push(format!("removes {}", removed.join(", ")));
    }
    for p in 0..game.players.len() as u8 {
        if before.is_alive(p) && !after.is_alive(p) {
            said.push(format!("{} is out of the game", game.players[p as usize]));
        }
    }
    if after.outcome.is_none() {
        let phase = |s: &State| game.current_phase(s).map(|p| game.phases[p].name.clone());
        if let (Some(was), Some(is)) = (phase(before), phase(after))
            && was != is
        {
            said.push(format!("the {is} phase begins"));
        }
    }
    said
}

/// A kind's name for several pieces: `tokens`, `boxes`.
fn plural(kind: &str) -> String {
    if ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|e| kind.ends_with(e))
    {
        format!("{kind}es")
    } else {
        format!("{kind}s")
    }
}

/// Why a finished game ended, after the ply that took `before` to `after`, in one or two
/// lines: the end rule that held (its condition as the file writes it, and where), or the
/// interpreter's own rule; then the scores, when the game scores.
pub fn ending(game: &Game, variant: Option<&Variant>, before: &State, after: &State) -> String {
    let Some(outcome) = &after.outcome else {
        return String::new();
    };
    let mover = before.to_move;
    let mut why = if outcome.reason.as_deref() == Some("ply cap") {
        format!(
            "why: the ply cap of {} plies was reached (a limit of the program, not a rule of \
             the game: `max_plies` in the game file)",
            after.plies
        )
    } else if let Some(EndCause::End(i)) = game.end_cause(after, mover)
        && let Some(rule) = variant.and_then(|v| v.end_rule(i))
    {
        format!(
            "why: the end rule `{}` holds, with me = {} ({})",
            one_line(&rule.text),
            game.players[mover as usize],
            rule.place
        )
    } else if game.players.len() > 1 && after.alive.count_ones() <= 1 {
        // Out with their pieces still on the board: they had no legal ply (`stuck`),
        // rather than being taken out by an effect, which removes the pieces.
        let stuck: Vec<&str> = (0..game.players.len() as u8)
            .filter(|&p| before.is_alive(p) && !after.is_alive(p))
            .filter(|&p| {
                after
                    .stacks()
                    .iter()
                    .flatten()
                    .any(|piece| piece.owner == p)
            })
            .map(|p| game.players[p as usize].as_str())
            .collect();
        let mut why = match (0..game.players.len() as u8).find(|&p| after.is_alive(p)) {
            Some(p) => format!(
                "why: {} is the last player left in the game",
                game.players[p as usize]
            ),
            None => "why: no player is left in the game".to_string(),
        };
        if !stuck.is_empty() {
            why.push_str(&format!(
                " ({} had no legal ply at the start of a turn)",
                stuck.join(", ")
            ));
        }
        why
    } else if outcome.winners.is_empty() && after.silent_passes > 0 {
        "why: every player still in the game had no legal ply, one after the other".to_string()
    } else {
        "why: the player to move had no legal ply".to_string()
    };
    let scores = game.scores(after);
    if !scores.is_empty() {
        let each: Vec<String> = scores
            .iter()
            .enumerate()
            .map(|(p, s)| {
                let list: Vec<String> = s.iter().map(|&v| game.score_unit.show(v)).collect();
                format!("{} {}", game.players[p], list.join(" "))
            })
            .collect();
        why.push_str(&format!("\nscores: {}", each.join("; ")));
    }
    why
}
