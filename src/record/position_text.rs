//! Positions written on one line (`[position_text]`): the board's ranks,
//! top first, separated by `/`, each cell's one-character symbol or a run of empty cells
//! as its length, then the file's fields separated by spaces. Read by `--position` (as a
//! board diagram made from it, so everything a diagram checks is checked) and written by
//! `fen` in `play`; what is written reads back as the same position.

use super::diagram;
use crate::engine::game::{Game, PositionText, TextField};
use crate::engine::state::{NEUTRAL, NONE, State};

/// The position as the game's `[position_text]` writes it, or why it cannot be: a
/// game without one, a stack of more than one piece.
pub fn write(game: &Game, state: &State) -> Result<String, String> {
    let spec = text_spec(game)?;
    let board = &game.board;
    let mut ranks = Vec::new();
    for rank in (1..=board.ranks).rev() {
        let mut row = String::new();
        let mut empty = 0;
        let mut any = false;
        for file in 1..=board.files {
            let Some(cell) = board.at(file as i64, rank as i64) else {
                continue;
            };
            any = true;
            match state.stacks()[cell as usize] {
                [] => empty += 1,
                [piece] => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let kind = &game.kinds[piece.kind as usize];
                    let index = if piece.owner == NEUTRAL {
                        0
                    } else {
                        piece.owner as usize
                    };
                    row.push_str(kind.symbols.get(index).map_or("?", String::as_str));
                }
                _ => {
                    return Err(format!(
                        "{} holds a stack, which a position text cannot write",
                        board.names[cell as usize]
                    ));
                }
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        if any {
            ranks.push(row);
        }
    }
    let mut words = vec![ranks.join("/")];
    let turn = i64::from(state.turn);
    for field in &spec.fields {
        words.push(match field {
            TextField::Mover(texts) => texts[state.to_move as usize].clone(),
            TextField::Flags(flags) => {
                let set: String = (flags.iter())
                    .filter(|(_, v)| state.vars[v.slot] != 0)
                    .map(|(c, _)| *c)
                    .collect();
                if set.is_empty() { "-".into() } else { set }
            }
            TextField::Cell(v) => match state.vars[v.slot] {
                NONE => "-".into(),
                cell => game.board.names[cell as usize].clone(),
            },
            TextField::Since(v) => (turn - 1 - state.vars[v.slot]).to_string(),
            TextField::Round => ((turn - 1) / game.players.len() as i64 + 1).to_string(),
        });
    }
    Ok(words.join(" "))
}

/// Reads what `--position` gives: the game's position text when it has one and the
/// text reads as one, else a board diagram ([`diagram::read`]). Returns the position and
/// its text on one line, as a transcript records where its game started.
pub fn read_any(game: &Game, text: &str) -> Result<(State, String), String> {
    if let Some(diagram) = diagram::from_drawing(game, text)? {
        return diagram::read(game, &diagram).map(|state| (state, diagram::one_line(&diagram)));
    }
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let as_text = (game.position_text.as_ref())
        .filter(|_| !text.contains(['=', '\n', ';']))
        .map(|_| read(game, &one_line));
    match as_text {
        Some(Ok(state)) => Ok((state, one_line)),
        Some(Err(e)) => diagram::read(game, text)
            .map(|state| (state, diagram::one_line(text)))
            .map_err(|_| e),
        None => diagram::read(game, text).map(|state| (state, diagram::one_line(text))),
    }
}

/// Reads a position text; an error says which field is wrong and why.
pub fn read(game: &Game, text: &str) -> Result<State, String> {
    let spec = text_spec(game)?;
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() != spec.fields.len() + 1 {
        return Err(format!(
            "a position text has {} fields (the board, then {}); this one has {}",
            spec.fields.len() + 1,
            spec.fields.len(),
            words.len()
        ));
    }
    let mut lines: Vec<String> = Vec::new();
    for rank in words[0].split('/') {
        let mut tokens = Vec::new();
        let mut run = String::new();
        for c in rank.chars().chain(std::iter::once(' ')) {
            if c.is_ascii_digit() {
                run.push(c);
                continue;
            }
            if !run.is_empty() {
                let n: usize = (run.parse().ok())
                    .filter(|&n| n <= usize::from(game.board.files))
                    .ok_or_else(|| format!("`{run}` empty cells in a rank of the board field"))?;
                tokens.extend(std::iter::repeat_n(".".to_string(), n));
                run.clear();
            }
            if c != ' ' {
                tokens.push(c.to_string());
            }
        }
        lines.push(tokens.join(" "));
    }
    let n = game.players.len();
    let mut mover = game.initial.to_move as usize;
    let mut round = None;
    let mut since = Vec::new();
    for (field, word) in spec.fields.iter().zip(&words[1..]) {
        match field {
            TextField::Mover(texts) => {
                mover = texts.iter().position(|t| t == word).ok_or_else(|| {
                    format!("`{word}` names no player to move ({})", texts.join(", "))
                })?;
                lines.push(format!("to_move = {}", game.players[mover]));
            }
            TextField::Flags(flags) => {
                if *word != "-"
                    && let Some(bad) = word.chars().find(|c| flags.iter().all(|f| f.0 != *c))
                {
                    let letters: String = flags.iter().map(|f| f.0).collect();
                    return Err(format!("`{bad}` in `{word}` is no flag ({letters}, or -)"));
                }
                for (c, v) in flags {
                    lines.push(format!(
                        "{} = {}",
                        v.name,
                        *word != "-" && word.contains(*c)
                    ));
                }
            }
            TextField::Cell(v) => {
                let cell = if *word == "-" { "none" } else { word };
                lines.push(format!("{} = {cell}", v.name));
            }
            TextField::Since(v) => since.push((v, count(word)?)),
            TextField::Round => round = Some(count(word)?.max(1)),
        }
    }
    let turn = match round {
        Some(r) => (r - 1) * n as i64 + mover as i64 + 1,
        None => i64::from(game.initial.turn),
    };
    if round.is_some() {
        lines.push(format!("turn = {turn}"));
    }
    for (v, k) in since {
        lines.push(format!("{} = {}", v.name, turn - 1 - k));
    }
    diagram::read(game, &lines.join("\n"))
}

/// The game's `[position_text]`, or the error of a game without one.
fn text_spec(game: &Game) -> Result<&PositionText, String> {
    (game.position_text.as_ref())
        .ok_or_else(|| format!("{} has no position text (`[position_text]`)", game.name))
}

/// A count field: a whole number, not too large for a turn.
fn count(word: &str) -> Result<i64, String> {
    (word.parse::<i64>().ok())
        .filter(|n| (0..=i64::from(crate::compile::MOST_PLIES)).contains(n))
        .ok_or_else(|| format!("`{word}` is not a count"))
}
