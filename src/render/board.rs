//! A plain-text board: ranks top to bottom, files left to right, coordinates on the edges.
//!
//! Each cell shows its top piece's symbol, followed by the stack height when it is not 1
//! (the number of pieces, or what the file's `[board] shown_height` counts); `.` is an
//! empty cell and a blank is a square outside the board.

use crate::engine::game::Game;
use crate::engine::state::{NEUTRAL, Piece, State};
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
    let width = (0..game.board.cell_count())
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
    } else if game.board.has_places() {
        let place_width = (game.board.cell_count()..game.board.len())
            .map(|c| cell_text(game, state, c).chars().count())
            .max()
            .unwrap_or(0)
            .max(1);
        with_places(game, &cell, width, place_width)
    } else {
        grid(game, &cell, width)
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

/// Cells right-aligned in columns one wider than the widest text (at least three wide);
/// blanks where the grid has no cell. A hexagonal board shifts each rank half a column
/// left of the one below, so that a cell's n and ne neighbours stand above it to the left
/// and right, and its file letter stands where its file, running up to the left, leaves
/// the board at the bottom.
fn grid(game: &Game, cell: &CellDrawer, widest: usize) -> String {
    let board = &game.board;
    let width = if board.hexagonal {
        // Half a column must be a whole number of characters.
        (widest + 1).div_ceil(2) * 2
    } else {
        widest.max(2) + 1
    };
    let shift = |rank: u8| {
        if board.hexagonal {
            (board.ranks - rank) as usize * width / 2
        } else {
            0
        }
    };
    let label = board.ranks.to_string().len();
    let mut out = String::new();
    for rank in (1..=board.ranks).rev() {
        let mut line = format!("{rank:>label$} {}", " ".repeat(shift(rank)));
        for file in 1..=board.files {
            match board.at(file as i64, rank as i64) {
                Some(c) => line.push_str(&cell(c as usize, width)),
                None => line.push_str(&" ".repeat(width)),
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let mut files = format!("{:label$} {}", "", " ".repeat(shift(0)));
    for file in 1..=board.files {
        files.push_str(&format!("{:>width$}", board.file_letter(file)));
    }
    out.push_str(&files);
    out.push('\n');
    out
}

/// A board with edges: its grid of half steps, a rank of cells on each line with its
/// number, the cells' sides between them, and a line of sides and corners between two
/// ranks (and above and below the board). A cell is drawn as on any board; an edge or
/// point with a piece shows its symbol, an empty one nothing. Every column of cells is
/// as wide as the widest cell's text and one more, every column between them as wide as
/// the widest place's text and one more; texts are right-aligned, the file letters at
/// the cells' right ends, so that a drawing read back finds each text's place by where
/// it ends (`record::diagram::from_drawing`).
fn with_places(game: &Game, cell: &CellDrawer, width: usize, place_width: usize) -> String {
    let board = &game.board;
    // The edges above and below the cells stand in the cells' columns.
    let (cell_w, place_w) = (width.max(place_width).max(2) + 1, place_width + 1);
    let label = board.ranks.to_string().len();
    let (w, h) = (2 * board.files as usize + 1, 2 * board.ranks as usize + 1);
    let mut out = String::new();
    for y in (0..h).rev() {
        let mut line = if y % 2 == 1 {
            format!("{:>label$} ", y.div_ceil(2))
        } else {
            " ".repeat(label + 1)
        };
        for x in 0..w {
            let pad = if x % 2 == 1 { cell_w } else { place_w };
            match board.half_at(x, y) {
                Some(c) => line.push_str(&cell(c as usize, pad)),
                None => line.push_str(&" ".repeat(pad)),
            }
        }
        // A border's line with nothing on it is left out; a line between ranks is
        // kept, blank or not, so that the ranks stand apart alike.
        if !(y == 0 || y == h - 1) || !line.trim().is_empty() {
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    let mut files = " ".repeat(label + 1);
    for file in 1..=board.files {
        files.push_str(&" ".repeat(place_w));
        files.push_str(&format!("{:>cell_w$}", board.file_letter(file)));
    }
    out.push_str(&files);
    out.push('\n');
    out
}

/// Points joined by their links: `-` east-west, `|` north-south, `\\` and `/` diagonals
/// (`X` where two cross). A link between distant points (a graph board's `a1`-`d1`) runs
/// across the squares it skips; a hexagonal board's ranks are shifted as in [`grid`].
fn lines(game: &Game, cell: &CellDrawer, width: usize) -> String {
    const GAP: usize = 3;
    let board = &game.board;
    let label = board.ranks.to_string().len();
    let step = if board.hexagonal {
        (width + GAP).div_ceil(2) * 2
    } else {
        width + GAP
    };
    // Row and column of a point: ranks two rows apart, the row between for the links.
    let place = |file: u8, rank: u8| {
        let shift = if board.hexagonal {
            (board.ranks - rank) as usize * step / 2
        } else {
            0
        };
        let row = (board.ranks - rank) as usize * 2;
        (row, label + 1 + (file as usize - 1) * step + shift)
    };
    let rows = board.ranks as usize * 2 - 1;
    let columns = place(board.files, 1).1 + width + 1;
    let mut canvas = vec![vec![' '; columns]; rows];
    for c in 0..board.len() {
        let (file, rank) = board.coords[c];
        for d in 0..8 {
            if let Some(to) = board.step(c as u16, d) {
                let (f, r) = board.coords[to as usize];
                segment(&mut canvas, place(file, rank), place(f, r));
            }
        }
    }
    let mut points = vec![Vec::new(); rows];
    for c in 0..board.len() {
        let (file, rank) = board.coords[c];
        let (row, column) = place(file, rank);
        points[row].push((column, cell(c, 0)));
    }
    let mut out = String::new();
    for (row, chars) in canvas.iter().enumerate() {
        let mut line = if row % 2 == 0 {
            format!("{:>label$} ", board.ranks as usize - row / 2)
        } else {
            String::new()
        };
        let mut column = line.chars().count();
        points[row].sort_by_key(|(column, _)| *column);
        for (at, text) in &points[row] {
            line.extend(&chars[column..*at]);
            line.push_str(text);
            column = (at + visible_width(text)).min(columns);
        }
        line.extend(&chars[column..]);
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let mut files = vec![' '; columns + step];
    for file in 1..=board.files {
        let (_, column) = place(file, 1);
        // A hexagonal file runs on down to the right, half a step further.
        let column = column + if board.hexagonal { step / 2 } else { 0 };
        files[column] = board.file_letter(file);
    }
    out.push_str(files.iter().collect::<String>().trim_end());
    out.push('\n');
    out
}

/// Draws the line between two points, the points themselves left out: `-` along a row,
/// `|` down a column, `\\` or `/` on each row between otherwise (where `/` meets `\\`,
/// `X`).
fn segment(canvas: &mut [Vec<char>], a: (usize, usize), b: (usize, usize)) {
    let ((r1, c1), (r2, c2)) = if a <= b { (a, b) } else { (b, a) };
    if r1 == r2 {
        for ch in &mut canvas[r1][c1 + 1..c2] {
            *ch = '-';
        }
        return;
    }
    let (rows, across) = ((r2 - r1) as isize, c2 as isize - c1 as isize);
    let mark = match across.signum() {
        0 => '|',
        1 => '\\',
        _ => '/',
    };
    for i in 1..rows {
        let column = (c1 as isize + (across * i).div_euclid(rows)) as usize;
        let ch = &mut canvas[r1 + i as usize][column];
        *ch = match (*ch, mark) {
            ('\\', '/') | ('/', '\\') | ('X', _) => 'X',
            _ => mark,
        };
    }
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

/// A cell's text: its top piece's symbol (and height), or for an empty cell the number a
/// game that numbers its cells gives it (`[board] numbers`: the number a player types),
/// `+` on a marked cell (`[board] marks`: a star point), else `.`; nothing for an empty
/// edge or point of a board with edges.
fn cell_text(game: &Game, state: &State, cell: usize) -> String {
    let Some(top) = state.stacks()[cell].last() else {
        let board = &game.board;
        if cell >= board.cell_count() {
            return String::new();
        }
        if let Some(n) = board.numbers.as_ref().and_then(|n| n.get(cell)) {
            return n.to_string();
        }
        let marked = board.marks.as_ref().and_then(|m| m.get(cell)) == Some(&true);
        return if marked { "+" } else { "." }.into();
    };
    let symbol = symbol(game, top);
    match drawn_height(game, state, cell) {
        Some(height) => format!("{symbol}{height}"),
        None => symbol,
    }
}

/// The symbol a piece is drawn with: its kind's symbol for its owner (the kind's one
/// symbol for a neutral piece; `?` for an owner the kind has no symbol for).
pub fn symbol(game: &Game, piece: &Piece) -> String {
    let kind = &game.kinds[piece.kind as usize];
    let index = if piece.owner == NEUTRAL {
        0
    } else {
        piece.owner as usize
    };
    kind.symbols
        .get(index)
        .cloned()
        .unwrap_or_else(|| "?".into())
}

/// The height drawn after a cell's top symbol, if one is: what the file's `shown_height`
/// counts (or the number of pieces), unless it is 1. Every picture of a position draws
/// the height by this one rule.
pub fn drawn_height(game: &Game, state: &State, cell: usize) -> Option<i64> {
    let height = game.shown_height(state, cell);
    (height != 1).then_some(height)
}

/// What the symbols stand for, one kind a line: `a z  token (first, second)`, then
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
