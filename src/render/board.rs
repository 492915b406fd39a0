//! A plain-text board: ranks top to bottom, files left to right, coordinates on the edges.
//!
//! Each cell shows its top piece's symbol, followed by the stack height when more than one
//! piece is stacked; `.` is an empty cell and a blank is a square outside the board.

use crate::engine::game::Game;
use crate::engine::state::{NEUTRAL, State};

/// The board of a position, with a line saying whose turn it is or how the game ended.
pub fn render(game: &Game, state: &State) -> String {
    let board = &game.board;
    let width = (0..board.len())
        .map(|c| cell_text(game, state, c).chars().count())
        .max()
        .unwrap_or(1)
        .max(2)
        + 1;
    let label = board.ranks.to_string().len();
    let mut out = String::new();
    for rank in (1..=board.ranks).rev() {
        let mut line = format!("{rank:>label$} ");
        for file in 1..=board.files {
            let text = match board.at(file as i64, rank as i64) {
                Some(c) => cell_text(game, state, c as usize),
                None => String::new(),
            };
            line.push_str(&format!("{text:>width$}"));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let mut files = format!("{:label$} ", "");
    for file in 1..=board.files {
        files.push_str(&format!("{:>width$}", (b'a' + file - 1) as char));
    }
    out.push_str(&files);
    out.push('\n');
    out.push_str(&status(game, state));
    out.push('\n');
    out
}

fn cell_text(game: &Game, state: &State, cell: usize) -> String {
    let stack = &state.stacks[cell];
    let Some(top) = stack.last() else {
        return ".".into();
    };
    let kind = &game.kinds[top.kind as usize];
    let symbol = if top.owner == NEUTRAL {
        kind.symbols[0].clone()
    } else {
        kind.symbols
            .get(top.owner as usize)
            .cloned()
            .unwrap_or_else(|| "?".into())
    };
    if stack.len() > 1 {
        format!("{symbol}{}", stack.len())
    } else {
        symbol
    }
}

/// One line: who is to move (with the phase and step where relevant), or the result.
pub fn status(game: &Game, state: &State) -> String {
    if let Some(outcome) = &state.outcome {
        let mut s = if outcome.winners.is_empty() {
            "game over: draw".to_string()
        } else {
            let names: Vec<&str> = outcome
                .winners
                .iter()
                .map(|&p| game.players[p as usize].as_str())
                .collect();
            format!("game over: {} won", names.join(", "))
        };
        if let Some(reason) = &outcome.reason {
            s.push_str(&format!(" ({reason})"));
        }
        return s;
    }
    let mut s = format!("{} to move", game.players[state.to_move as usize]);
    let plies = game.plies_this_turn(state);
    if plies > 1 {
        s.push_str(&format!(", step {} of {plies}", state.ply_in_turn));
    }
    if let Some(p) = game.current_phase(state) {
        s.push_str(&format!(" ({} phase)", game.phases[p].name));
    }
    s
}
