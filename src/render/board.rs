//! A plain-text board: ranks top to bottom, files left to right, coordinates on the edges.
//!
//! Each cell shows its top piece's symbol, followed by the stack height when it is not 1
//! (the number of pieces, or what the file's `[board] shown_height` counts); `.` is an
//! empty cell and a blank is a square outside the board.

use crate::engine::game::Game;
use crate::engine::state::{NEUTRAL, State};
use crate::record::transcript::Transcript;

/// The board of a position, with a line saying whose turn it is or how the game ended.
pub fn render(game: &Game, state: &State) -> String {
    render_styled(game, state, false)
}

/// The same, with each player's pieces in a colour of their own when `colour` is set
/// (for a terminal; see [`use_colour`]).
pub fn render_styled(game: &Game, state: &State, colour: bool) -> String {
    render_marked(game, state, colour, None)
}

/// The same again, with the cells whose stacks differ from `before` (what the last ply
/// changed) underlined when `colour` is set. Plain text has no mark: on a pipe the
/// REPL's own lines say which ply was played.
pub fn render_marked(game: &Game, state: &State, colour: bool, before: Option<&State>) -> String {
    let changed = |c: usize| before.is_some_and(|b| b.stacks()[c] != state.stacks()[c]);
    let width = (0..game.board.len())
        .map(|c| cell_text(game, state, c).chars().count())
        .max()
        .unwrap_or(1);
    let cell = |c: usize, pad: usize| {
        let text = cell_text(game, state, c);
        let fill = " ".repeat(pad.saturating_sub(text.chars().count()));
        let underline = if colour && changed(c) { "4;" } else { "" };
        match state.stacks()[c].last() {
            Some(top) if colour && top.owner != NEUTRAL => {
                let code = PALETTE[top.owner as usize % PALETTE.len()];
                format!("{fill}\x1b[{underline}1;{code}m{text}\x1b[0m")
            }
            _ if !underline.is_empty() => format!("{fill}\x1b[4m{text}\x1b[0m"),
            _ => format!("{fill}{text}"),
        }
    };
    let mut out = if game.draw_lines {
        lines(game, &cell, width)
    } else {
        grid(game, &cell, width.max(2) + 1)
    };
    out.push_str(&status(game, state));
    out.push('\n');
    out
}

/// ANSI colour codes for the players, in seat order: red, blue, green, yellow, magenta,
/// cyan.
const PALETTE: [u8; 6] = [31, 34, 32, 33, 35, 36];

/// Whether output to stdout should be coloured: a terminal that understands colour
/// codes (`TERM` is not `dumb`), and `NO_COLOR` unset.
pub fn use_colour() -> bool {
    use std::io::IsTerminal;
    colour_wanted(
        std::io::stdout().is_terminal(),
        std::env::var_os("TERM").as_deref(),
        std::env::var_os("NO_COLOR").as_deref(),
    )
}

/// [`use_colour`]'s decision, from what it reads: whether stdout is a terminal, `TERM`
/// and `NO_COLOR`. A `dumb` terminal (an editor's shell buffer, a serial console) prints
/// colour codes as text.
pub fn colour_wanted(
    terminal: bool,
    term: Option<&std::ffi::OsStr>,
    no_color: Option<&std::ffi::OsStr>,
) -> bool {
    terminal && no_color.is_none() && term.is_none_or(|t| t != "dumb")
}

/// Draws cell `c` right-aligned in `pad` columns (as many as its text needs when 0).
type CellDrawer<'a> = dyn Fn(usize, usize) -> String + 'a;

/// Cells in columns of `width`, right-aligned; blanks where the grid has no cell.
fn grid(game: &Game, cell: &CellDrawer, width: usize) -> String {
    let board = &game.board;
    let label = board.ranks.to_string().len();
    let mut out = String::new();
    for rank in (1..=board.ranks).rev() {
        let mut line = format!("{rank:>label$} ");
        for file in 1..=board.files {
            match board.at(file as i64, rank as i64) {
                Some(c) => line.push_str(&cell(c as usize, width)),
                None => line.push_str(&" ".repeat(width)),
            }
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
    out
}

/// Points joined by their links: `-` east-west, `|` north-south, `\` and `/` diagonals
/// (`X` where two cross).
fn lines(game: &Game, cell: &CellDrawer, width: usize) -> String {
    const GAP: usize = 3;
    let board = &game.board;
    let label = board.ranks.to_string().len();
    let step = width + GAP;
    let linked = |file: u8, rank: u8, dir: &str| {
        let d = crate::engine::board::direction_index(dir).expect("compass direction");
        board
            .at(file as i64, rank as i64)
            .is_some_and(|c| board.step(c, d).is_some())
    };
    let mut out = String::new();
    for rank in (1..=board.ranks).rev() {
        let mut line = format!("{rank:>label$} ");
        for file in 1..=board.files {
            let (text, shown) = match board.at(file as i64, rank as i64) {
                Some(c) => (cell(c as usize, 0), visible_width(&cell(c as usize, 0))),
                None => (String::new(), 0),
            };
            let fill = if linked(file, rank, "e") { '-' } else { ' ' };
            line.push_str(&text);
            if file < board.files {
                line.extend(std::iter::repeat_n(fill, step - shown));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
        if rank > 1 {
            let mut between = format!("{:label$} ", "");
            for file in 1..=board.files {
                between.push(if linked(file, rank, "s") { '|' } else { ' ' });
                if file < board.files {
                    let diagonal = match (linked(file, rank, "se"), linked(file + 1, rank, "sw")) {
                        (true, true) => 'X',
                        (true, false) => '\\',
                        (false, true) => '/',
                        (false, false) => ' ',
                    };
                    let mut gap = vec![' '; step - 1];
                    gap[step / 2 - 1] = diagonal;
                    between.extend(gap);
                }
            }
            out.push_str(between.trim_end());
            out.push('\n');
        }
    }
    let mut files = format!("{:label$} ", "");
    for file in 1..=board.files {
        files.push((b'a' + file - 1) as char);
        if file < board.files {
            files.extend(std::iter::repeat_n(' ', step - 1));
        }
    }
    out.push_str(&files);
    out.push('\n');
    out
}

/// The number of characters a text shows, colour codes left out.
fn visible_width(text: &str) -> usize {
    let mut width = 0;
    let mut in_code = false;
    for ch in text.chars() {
        match ch {
            '\x1b' => in_code = true,
            'm' if in_code => in_code = false,
            _ if in_code => {}
            _ => width += 1,
        }
    }
    width
}

fn cell_text(game: &Game, state: &State, cell: usize) -> String {
    let stack = &state.stacks()[cell];
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
    let height = game.shown_height(state, cell);
    if height != 1 {
        format!("{symbol}{height}")
    } else {
        symbol
    }
}

/// What the symbols stand for, one kind a line: `r b  checker (red, blue)`, then
/// what an empty cell and a number after a symbol mean.
pub fn legend(game: &Game) -> String {
    let mut out = String::new();
    for kind in &game.kinds {
        if kind.owned {
            let seats = game.players.len().min(kind.symbols.len());
            out.push_str(&format!(
                "  {}  {} ({})\n",
                kind.symbols[..seats].join(" "),
                kind.name,
                game.players.join(", ")
            ));
        } else if let Some(symbol) = kind.symbols.first() {
            out.push_str(&format!("  {symbol}  {}\n", kind.name));
        }
    }
    out.push_str(
        "  .  an empty cell; a number after a symbol is the stack's height as the game counts it\n",
    );
    out
}

/// One line: who is to move (with the phase and step where relevant), or the result.
pub fn status(game: &Game, state: &State) -> String {
    if state.outcome.is_some() {
        return format!("game over: {}", Transcript::result_of(game, state));
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
