//! Positions written by hand as board diagrams: a game started from a test position, a
//! puzzle or an endgame instead of its own start (`--position` on every command that
//! takes a game).
//!
//! A diagram is a list of lines (newlines, `/` or `;` separate them; `#` starts a comment
//! to the end of a newline-separated line):
//!
//! - a **rank**: one token per cell of the rank, in file order, the top rank first (as
//!   the board is drawn). A token is `.` for an empty cell, or the symbols of the pieces
//!   from the bottom of the stack up joined by `+` (`o+W`), a symbol followed by `*N`
//!   standing for N of that piece (`o*3`), and by `@T` for a piece last moved or placed
//!   in turn T (`R@4`; what `moved_in` and `moved_turn` read; 0, the setup, when not
//!   given). Symbols are the game's own (`[pieces]`).
//! - on a board with edges, a **place** `NAME = TOKEN`: the stack on an edge or point
//!   (`e3n = x`), a token as a rank's; places not given are empty.
//! - an **assignment** `NAME = VALUE`: `to_move` (a seat), `turn` (from 1),
//!   `ply_in_turn` (from 1), `plies` (played so far, from 0), `alive(SEAT) = false` for a
//!   player out of the game, or a variable of the game (`passes = 1`, a player variable
//!   with its seat: `supply(white) = 2`, a variable per kind with its kind,
//!   `hand(white, tile) = 1`, a turn variable). A value is a number, `true`/`false`,
//!   `none`, or a cell, seat, kind or direction by name, as the variable's type asks.
//!
//! So a diagram can say everything about a position that rules can read.
//!
//! Everything not given stays as at the game's start (its variables' initial values),
//! and the stuck rule is applied to the player to move as at any turn's start.

use crate::compile::MOST_PLIES;
use crate::engine::board::{DIRECTIONS, direction_index};
use crate::engine::game::{Game, Per};
use crate::engine::state::{NEUTRAL, NONE, Piece, State};
use crate::lang::types::Type;

/// Reads a diagram into a position of `game`; an error names the line it stops on (the
/// first line is 1) and what is wrong there. A board drawn as `moves --board` draws it
/// is read too ([`from_drawing`]).
pub fn read(game: &Game, text: &str) -> Result<State, String> {
    match from_drawing(game, text)? {
        Some(diagram) => read_diagram(game, &diagram),
        None => read_diagram(game, text),
    }
}

/// Reads a diagram written in the diagram's own syntax.
fn read_diagram(game: &Game, text: &str) -> Result<State, String> {
    let mut state = game.initial.clone();
    for place in game.board.cell_count()..game.board.len() {
        state.edit_stack(place as u16, |s| s.clear());
    }
    let mut ranks: Vec<(usize, &str)> = Vec::new();
    for (n, line) in lines(text) {
        if line.contains('=') {
            assign(game, &mut state, line).map_err(|e| format!("line {n}: {e}"))?;
        } else {
            ranks.push((n, line));
        }
    }
    let rows = board_rows(game);
    if ranks.len() != rows.len() {
        return Err(format!(
            "the diagram has {} rank{} of cells, the board {} (top rank first, one token per cell)",
            ranks.len(),
            if ranks.len() == 1 { "" } else { "s" },
            rows.len()
        ));
    }
    for ((n, line), cells) in ranks.iter().zip(&rows) {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.len() != cells.len() {
            return Err(format!(
                "line {n}: {} token{} for a rank of {} cell{}",
                tokens.len(),
                if tokens.len() == 1 { "" } else { "s" },
                cells.len(),
                if cells.len() == 1 { "" } else { "s" }
            ));
        }
        for (token, &cell) in tokens.iter().zip(cells) {
            let pieces = stack(game, token).map_err(|e| format!("line {n}: {e}"))?;
            state.edit_stack(cell, |s| {
                s.clear();
                s.extend(pieces);
            });
        }
    }
    // Who played last: the seat before the one to move.
    let n = game.players.len();
    state.restart_history(((state.to_move as usize + n - 1) % n) as u8);
    state.outcome = None;
    game.settle(&mut state);
    Ok(state)
}

/// The diagram on one line (its lines joined with ` / `, comments left out), as a
/// transcript records it.
pub fn one_line(text: &str) -> String {
    lines(text)
        .map(|(_, line)| line)
        .collect::<Vec<_>>()
        .join(" / ")
}

/// The lines of a diagram with their numbers, comments and blank lines left out.
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split(['\n', '/', ';'])
        .enumerate()
        .map(|(i, line)| (i + 1, line.split('#').next().unwrap_or("").trim()))
        .filter(|(_, line)| !line.is_empty())
}

/// The cells of each rank that has any, top rank first, each in file order.
fn board_rows(game: &Game) -> Vec<Vec<u16>> {
    let board = &game.board;
    (1..=board.ranks)
        .rev()
        .map(|rank| {
            (1..=board.files)
                .filter_map(|file| board.at(file as i64, rank as i64))
                .collect::<Vec<_>>()
        })
        .filter(|row| !row.is_empty())
        .collect()
}

/// The pieces a token stands for, bottom first.
fn stack(game: &Game, token: &str) -> Result<Vec<Piece>, String> {
    if token == "." {
        return Ok(Vec::new());
    }
    let mut pieces = Vec::new();
    for part in token.split('+') {
        let (symbol, count) = match part.rsplit_once('*') {
            Some((symbol, n)) => (
                symbol,
                n.parse::<usize>()
                    .ok()
                    .filter(|n| (1..=1000).contains(n))
                    .ok_or_else(|| format!("`{part}`: the count after `*` is 1 to 1000"))?,
            ),
            None => (part, 1),
        };
        let (symbol, moved) = match symbol.rsplit_once('@') {
            Some((symbol, t)) => (
                symbol,
                t.parse::<u32>()
                    .ok()
                    .filter(|&t| t <= MOST_PLIES)
                    .ok_or_else(|| {
                        format!("`{part}`: the turn after `@` is a number from 0 to {MOST_PLIES}")
                    })?,
            ),
            None => (symbol, 0),
        };
        let (kind, owner) = piece(game, symbol)?;
        pieces.extend(std::iter::repeat_n(Piece::new(kind, owner, moved), count));
    }
    Ok(pieces)
}

/// The kind and owner of the piece drawn as `symbol`.
fn piece(game: &Game, symbol: &str) -> Result<(u8, u8), String> {
    let mut found = Vec::new();
    for (k, info) in game.kinds.iter().enumerate() {
        for (i, s) in info.symbols.iter().enumerate() {
            if s == symbol {
                let owner = if info.owned { i as u8 } else { NEUTRAL };
                if !info.owned || i < game.players.len() {
                    found.push((k as u8, owner));
                }
            }
        }
    }
    match found[..] {
        [one] => Ok(one),
        [] => {
            let mut all: Vec<&str> = game
                .kinds
                .iter()
                .flat_map(|k| k.symbols.iter().map(String::as_str))
                .collect();
            all.sort_unstable();
            all.dedup();
            Err(format!(
                "no piece is drawn `{symbol}`; symbols: {}",
                all.join(" ")
            ))
        }
        _ => Err(format!("`{symbol}` is the symbol of several pieces")),
    }
}

/// Carries out one `NAME = VALUE` line.
fn assign(game: &Game, state: &mut State, line: &str) -> Result<(), String> {
    let (target, value) = line.split_once('=').expect("a line with =");
    let (target, value) = (target.trim(), value.trim());
    // `NAME` or `NAME(ARG, ...)`: a variable per player or kind takes its seat and kind.
    let (name, args) = match target.split_once('(') {
        Some((name, rest)) => {
            let args = rest.strip_suffix(')').ok_or_else(|| {
                format!("`{target}`: expected NAME(SEAT), NAME(KIND) or NAME(SEAT, KIND)")
            })?;
            (
                name.trim(),
                Some(args.split(',').map(str::trim).collect::<Vec<_>>()),
            )
        }
        None => (target, None),
    };
    if let (None, Some(place)) = (&args, game.board.find(name))
        && usize::from(place) >= game.board.cell_count()
    {
        // An edge or point of a board with edges: its stack, as a rank's token says one.
        let pieces = stack(game, value)?;
        state.edit_stack(place, |s| {
            s.clear();
            s.extend(pieces);
        });
        return Ok(());
    }
    match (name, &args) {
        ("to_move", None) => {
            state.to_move = self::value(game, value, Type::Player)?
                .try_into()
                .map_err(|_| "`to_move` needs a seat, not none".to_string())?;
        }
        ("plies", None) => state.plies = counter(game, "plies", value, 0)?,
        ("turn", None) => state.turn = counter(game, "turn", value, 1)?,
        ("ply_in_turn", None) => state.ply_in_turn = counter(game, "ply_in_turn", value, 1)?,
        ("alive", Some(seat)) if seat.len() == 1 => {
            let p = self::value(game, seat[0], Type::Player)?;
            let bit = 1u32 << p;
            if self::value(game, value, Type::Bool)? != 0 {
                state.alive |= bit;
            } else if state.alive & !bit == 0 {
                return Err("at least one player must stay in the game".into());
            } else {
                state.alive &= !bit;
            }
        }
        _ => {
            let var = game.vars.iter().find(|v| v.name == name).ok_or_else(|| {
                let mut names: Vec<&str> = game.vars.iter().map(|v| v.name.as_str()).collect();
                names.extend(["to_move", "turn", "ply_in_turn", "plies", "alive(SEAT)"]);
                format!(
                    "`{name}` is not a variable of this game; names: {}",
                    names.join(", ")
                )
            })?;
            let want = var.per.indices();
            let args = args.as_deref().unwrap_or_default();
            if args.len() != want.len() {
                let form = match var.per {
                    Per::Game => format!("one variable: `{name} = ...`"),
                    Per::Player => format!("a variable per player: `{name}(SEAT) = ...`"),
                    Per::Kind => format!("a variable per piece kind: `{name}(KIND) = ...`"),
                    Per::PlayerKind => {
                        format!("a variable per player and piece kind: `{name}(SEAT, KIND) = ...`")
                    }
                    Per::Cell => format!("a variable per cell: `{name}(CELL) = ...`"),
                };
                return Err(format!("`{name}` is {form}"));
            }
            let mut indices = Vec::with_capacity(args.len());
            for (arg, ty) in args.iter().zip(want) {
                let i = self::value(game, arg, *ty)?;
                indices.push(usize::try_from(i).map_err(|_| format!("`{name}` of none"))?);
            }
            let slot = var.slot as usize + var.per.offset(&indices, game.kinds.len());
            state.vars[slot] = self::value(game, value, var.ty)?;
        }
    }
    Ok(())
}

/// A count of the game so far (`plies`, `turn`, `ply_in_turn`): a whole number from
/// `least` to [`MOST_PLIES`], which no game exceeds.
fn counter(game: &Game, name: &str, text: &str, least: u32) -> Result<u32, String> {
    self::value(game, text, Type::Int)?
        .try_into()
        .ok()
        .filter(|n| (least..=MOST_PLIES).contains(n))
        .ok_or_else(|| format!("`{name}` is a whole number from {least} to {MOST_PLIES}"))
}

/// A value of type `ty` written as text.
fn value(game: &Game, text: &str, ty: Type) -> Result<i64, String> {
    let named = |names: &[String]| names.iter().position(|n| n == text).map(|i| i as i64);
    let found = match ty {
        _ if text == "none" && ty.nullable() => Some(NONE),
        Type::Int => text.parse::<i64>().ok(),
        Type::Bool => match text {
            "true" => Some(1),
            "false" => Some(0),
            _ => None,
        },
        Type::Cell => game.board.find(text).map(i64::from),
        Type::Player => named(&game.players),
        Type::Kind => game
            .kinds
            .iter()
            .position(|k| k.name == text)
            .map(|i| i as i64),
        Type::Dir => direction_index(text).map(|d| d as i64),
        _ => None,
    };
    found.ok_or_else(|| match ty {
        Type::Dir => format!(
            "`{text}` is not a direction ({})",
            DIRECTIONS.map(|d| d.0).join(", ")
        ),
        _ => format!("`{text}` is not {ty}"),
    })
}

/// A position as a diagram on one line (ranks and assignments joined by ` / `): every
/// stack in full, the player to move and the counters, who is out, and the variables
/// whose values differ from the game's start. Read back ([`read`]), it gives the same
/// position but for its history (it counts as the first for repetitions).
pub fn write(game: &Game, state: &State) -> String {
    let mut lines: Vec<String> = board_rows(game)
        .iter()
        .map(|row| {
            let tokens: Vec<String> = row.iter().map(|&c| token(game, state, c)).collect();
            tokens.join(" ")
        })
        .collect();
    for place in game.board.cell_count()..game.board.len() {
        if !state.stacks()[place].is_empty() {
            let name = &game.board.names[place];
            lines.push(format!("{name} = {}", token(game, state, place as u16)));
        }
    }
    let seat = |p: usize| game.players[p].clone();
    lines.push(format!("to_move = {}", seat(state.to_move as usize)));
    lines.push(format!("turn = {}", state.turn));
    lines.push(format!("ply_in_turn = {}", state.ply_in_turn));
    lines.push(format!("plies = {}", state.plies));
    for p in 0..game.players.len() {
        if !state.is_alive(p as u8) {
            lines.push(format!("alive({}) = false", seat(p)));
        }
    }
    let kinds = game.kinds.len();
    for var in &game.vars {
        let indices: Vec<Vec<usize>> = match var.per {
            Per::Game => vec![vec![]],
            Per::Player => (0..game.players.len()).map(|p| vec![p]).collect(),
            Per::Kind => (0..kinds).map(|k| vec![k]).collect(),
            Per::PlayerKind => (0..game.players.len())
                .flat_map(|p| (0..kinds).map(move |k| vec![p, k]))
                .collect(),
            Per::Cell => (0..game.board.len()).map(|c| vec![c]).collect(),
        };
        for index in indices {
            let slot = var.slot as usize + var.per.offset(&index, kinds);
            let v = state.vars[slot];
            if v == game.initial.vars[slot] {
                continue;
            }
            let args: Vec<String> = (index.iter().zip(var.per.indices()))
                .map(|(&i, ty)| match ty {
                    Type::Player => seat(i),
                    Type::Cell => game.board.names[i].clone(),
                    _ => game.kinds[i].name.clone(),
                })
                .collect();
            let name = if args.is_empty() {
                var.name.clone()
            } else {
                format!("{}({})", var.name, args.join(", "))
            };
            lines.push(format!("{name} = {}", game.show(var.ty, v)));
        }
    }
    lines.join(" / ")
}

/// A cell's stack as a diagram token: `.`, or its pieces bottom first joined by `+`, a
/// run of one piece as `SYMBOL*N`, a piece that moved as `SYMBOL@T`.
fn token(game: &Game, state: &State, cell: u16) -> String {
    let stack = &state.stacks()[cell as usize];
    if stack.is_empty() {
        return ".".into();
    }
    let mut parts: Vec<(String, usize)> = Vec::new();
    for piece in stack.iter() {
        let mut text = crate::render::board::symbol(game, piece);
        if piece.moved != 0 {
            text.push_str(&format!("@{}", piece.moved));
        }
        match parts.last_mut() {
            Some((last, n)) if *last == text => *n += 1,
            _ => parts.push((text, 1)),
        }
    }
    let parts: Vec<String> = (parts.into_iter())
        .map(|(t, n)| if n == 1 { t } else { format!("{t}*{n}") })
        .collect();
    parts.join("+")
}

/// A board drawn as `moves --board` (and `play`) draws it, from its first line to its
/// `SEAT to move` line, made into a diagram: each rank's cells after its number (the
/// lines between ranks of a board drawn with its links, and the links between its
/// points, left out), the file letters' line checked and left out, `SEAT to move` (and
/// `, step K of N`) as `to_move` (and `ply_in_turn`); lines after it are the diagram's
/// own. A cell drawn as a number ([`board] numbers`) or `+` (a star point) is empty; a
/// symbol followed by a height is the piece on as many pieces below it as make that
/// height as the game draws it: pieces of the game's one neutral kind, or when it has
/// none or several, pieces like the top one. `None` when the text is no drawing (no
/// `SEAT to move` line after a first line).
pub fn from_drawing(game: &Game, text: &str) -> Result<Option<String>, String> {
    let lines: Vec<&str> = text.lines().collect();
    if let Some(n) = lines
        .iter()
        .position(|l| l.trim_start().starts_with("game over:"))
    {
        return Err(format!(
            "line {}: the drawing is of a finished game, which cannot be a start",
            n + 1
        ));
    }
    let Some((at, seat, step)) = (lines.iter().enumerate())
        .skip(1)
        .find_map(|(n, l)| status(game, l).map(|(seat, step)| (n, seat, step)))
    else {
        return Ok(None);
    };
    let board = &game.board;
    let drawing: Vec<(usize, &str)> = (lines[..at].iter().enumerate())
        .map(|(n, l)| (n + 1, l.trim_end()))
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    let Some(((files_at, files_line), ranks)) = drawing.split_last() else {
        return Ok(None);
    };
    let mut out = if board.has_places() {
        with_places(game, ranks, (*files_at, files_line))?
    } else {
        squares(game, seat, ranks, (*files_at, files_line))?
    };
    out.push(format!("to_move = {seat}"));
    if let Some(step) = step {
        out.push(format!("ply_in_turn = {step}"));
    }
    out.extend(lines[at + 1..].iter().map(|l| l.to_string()));
    Ok(Some(out.join("\n")))
}

/// The lines of a drawing of a board of squares or points (`render::board`'s), up to its
/// file letters, as the diagram's ranks: each rank's cells after its number (the lines
/// between ranks of a board drawn with its links, and the links between its points, left
/// out), the file letters' line checked.
fn squares(
    game: &Game,
    seat: &str,
    ranks: &[(usize, &str)],
    (files_at, files_line): (usize, &str),
) -> Result<Vec<String>, String> {
    let board = &game.board;
    let letters: Vec<String> = (1..=board.files)
        .map(|f| board.file_letter(f).to_string())
        .collect();
    if files_line
        .split_whitespace()
        .ne(letters.iter().map(String::as_str))
    {
        return Err(format!(
            "line {files_at}: the line above `{seat} to move` holds the file letters: `{}`",
            letters.join(" ")
        ));
    }
    let link = |c: char| matches!(c, '-' | '|' | '\\' | '/');
    let mut rows: Vec<Option<Vec<String>>> = vec![None; usize::from(board.ranks) + 1];
    for &(n, line) in ranks {
        let line = line.trim_start();
        let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 {
            if game.draw_lines && line.chars().all(|c| link(c) || c == 'X' || c == ' ') {
                continue;
            }
            return Err(format!(
                "line {n}: a rank of the drawing starts with its number"
            ));
        }
        let rank: usize = (line[..digits].parse().ok())
            .filter(|r| (1..=usize::from(board.ranks)).contains(r))
            .ok_or_else(|| format!("line {n}: the board has no rank {}", &line[..digits]))?;
        if rows[rank].is_some() {
            return Err(format!("line {n}: rank {rank} is drawn twice"));
        }
        let rest: String = if game.draw_lines {
            line[digits..]
                .chars()
                .map(|c| if link(c) { ' ' } else { c })
                .collect()
        } else {
            line[digits..].to_string()
        };
        let cells: Vec<u16> = (1..=board.files)
            .filter_map(|f| board.at(i64::from(f), rank as i64))
            .collect();
        let tokens: Vec<&str> = rest.split_whitespace().collect();
        if tokens.len() != cells.len() {
            return Err(format!(
                "line {n}: {} cell{} drawn for rank {rank}, which has {}",
                tokens.len(),
                if tokens.len() == 1 { "" } else { "s" },
                cells.len()
            ));
        }
        let row = (tokens.iter().zip(&cells))
            .map(|(t, &c)| drawn(game, c, t).map_err(|e| format!("line {n}: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        rows[rank] = Some(row);
    }
    let mut out = Vec::new();
    for rank in (1..=usize::from(board.ranks)).rev() {
        let has_cells = (1..=board.files).any(|f| board.at(i64::from(f), rank as i64).is_some());
        match (&rows[rank], has_cells) {
            (Some(row), true) => out.push(row.join(" ")),
            (None, true) => return Err(format!("the drawing has no rank {rank}")),
            _ => {}
        }
    }
    Ok(out)
}

/// The lines of a drawing of a board with edges (`render::board`'s), up to its file
/// letters, as diagram lines: its ranks, then `NAME = TOKEN` for each edge or point with
/// a piece. A line that starts with a number is that rank's; another is the line of
/// edges and points between the ranks around it (or above the top rank, or below the
/// first). A text is placed by the column where it ends: at a file letter's column, that
/// file's cell; between two letters' columns (or before the first, or after the last),
/// the edge or point between those files.
fn with_places(
    game: &Game,
    drawing: &[(usize, &str)],
    (files_at, files_line): (usize, &str),
) -> Result<Vec<String>, String> {
    let board = &game.board;
    // Each text of a line with the column just after its last character.
    let texts = |line: &str| -> Vec<(usize, String)> {
        let mut out: Vec<(usize, String)> = Vec::new();
        let mut current = String::new();
        for (i, ch) in line.chars().chain([' ']).enumerate() {
            if ch == ' ' {
                if !current.is_empty() {
                    out.push((i, std::mem::take(&mut current)));
                }
            } else {
                current.push(ch);
            }
        }
        out
    };
    let letters = texts(files_line);
    let expected: Vec<String> = (1..=board.files)
        .map(|f| board.file_letter(f).to_string())
        .collect();
    if letters.iter().map(|(_, l)| l).ne(expected.iter()) {
        return Err(format!(
            "line {files_at}: the line above the one saying who is to move holds the file letters: `{}`",
            expected.join(" ")
        ));
    }
    let ends: Vec<usize> = letters.iter().map(|(end, _)| *end).collect();
    // The column of the grid of half steps a text ending at `end` stands in.
    let column = |end: usize| -> usize {
        match ends.iter().position(|&e| e >= end) {
            Some(f) if ends[f] == end => 2 * f + 1,
            Some(f) => 2 * f,
            None => 2 * ends.len(),
        }
    };
    let mut cells: Vec<Option<String>> = vec![None; board.cell_count()];
    let mut places: Vec<(u16, String)> = Vec::new();
    let mut rows_seen = vec![false; 2 * usize::from(board.ranks) + 1];
    // The row of the grid of the last rank line seen (top first), none before the first.
    let mut last_rank: Option<usize> = None;
    for &(n, line) in drawing {
        let trimmed = line.trim_start();
        let digits = trimmed.len()
            - trimmed
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .len();
        let (y, body) = if digits > 0 {
            let rank: usize = (trimmed[..digits].parse().ok())
                .filter(|r| (1..=usize::from(board.ranks)).contains(r))
                .ok_or_else(|| format!("line {n}: the board has no rank {}", &trimmed[..digits]))?;
            let y = 2 * rank - 1;
            if last_rank.is_some_and(|last| last <= y) {
                return Err(format!(
                    "line {n}: rank {rank} is drawn out of order (the top rank first)"
                ));
            }
            last_rank = Some(y);
            // The number blanked out, the columns kept.
            let skip = line.len() - trimmed.len() + digits;
            (y, format!("{}{}", " ".repeat(skip), &line[skip..]))
        } else {
            let y = last_rank.map_or(2 * usize::from(board.ranks), |r| r - 1);
            (y, line.to_string())
        };
        if std::mem::replace(&mut rows_seen[y], true) {
            return Err(format!(
                "line {n}: one line of edges and points between two ranks, or one rank, at a time"
            ));
        }
        for (end, text) in texts(&body) {
            let x = column(end);
            let place = board.half_at(x, y).ok_or_else(|| {
                format!("line {n}: `{text}` is drawn where the board has no cell, edge or point")
            })?;
            if usize::from(place) < board.cell_count() {
                cells[usize::from(place)] =
                    Some(drawn(game, place, &text).map_err(|e| format!("line {n}: {e}"))?);
            } else if text != "." {
                places.push((
                    place,
                    drawn(game, place, &text).map_err(|e| format!("line {n}: {e}"))?,
                ));
            }
        }
    }
    let mut out = Vec::new();
    for row in board_rows(game) {
        let mut tokens = Vec::new();
        for cell in row {
            let token = cells[usize::from(cell)].take().ok_or_else(|| {
                format!(
                    "the drawing has nothing on {}, where its cell is",
                    board.names[usize::from(cell)]
                )
            })?;
            tokens.push(token);
        }
        out.push(tokens.join(" "));
    }
    out.extend(
        places
            .into_iter()
            .map(|(place, token)| format!("{} = {token}", board.names[usize::from(place)])),
    );
    Ok(out)
}

/// The seat of a `SEAT to move` line, with the step of its turn if it says one
/// (`, step K of N`); what follows (`(NAME phase)`) the game works out itself.
fn status<'a>(game: &'a Game, line: &str) -> Option<(&'a str, Option<u32>)> {
    let line = line.trim();
    let (seat, rest) = game.players.iter().find_map(|p| {
        let rest = line.strip_prefix(p.as_str())?.strip_prefix(" to move")?;
        Some((p.as_str(), rest))
    })?;
    let step = rest
        .strip_prefix(", step ")
        .and_then(|r| r.split(' ').next())
        .and_then(|k| k.parse().ok());
    Some((seat, step))
}

/// A cell's text in a drawing as a diagram token: a number or `+` drawn in an empty
/// cell is `.`, a symbol with a height the stack it stands for, anything else as
/// diagrams write it.
fn drawn(game: &Game, cell: u16, text: &str) -> Result<String, String> {
    if text == "+" || text == "." {
        return Ok(".".into());
    }
    if text.bytes().all(|b| b.is_ascii_digit()) {
        let number = (game.board.numbers.as_ref()).and_then(|n| n.get(usize::from(cell)));
        return match number {
            Some(n) if n.to_string() == text => Ok(".".into()),
            _ => Err(format!(
                "`{text}` drawn on {}, whose number is not {text}",
                game.board.names[usize::from(cell)]
            )),
        };
    }
    let symbol = text.trim_end_matches(|c: char| c.is_ascii_digit());
    if symbol.is_empty() || symbol.contains(['+', '*', '@']) {
        return Ok(text.into());
    }
    // A symbol alone is a stack drawn with height 1 (a piece on one neutral piece, where
    // the game's drawn height counts the neutral pieces only).
    let height: i64 = if symbol.len() == text.len() {
        1
    } else {
        (text[symbol.len()..].parse().ok())
            .filter(|h| *h != 1 && (0..=1000).contains(h))
            .ok_or_else(|| format!("`{text}`: a height drawn after a symbol is 0, or 2 to 1000"))?
    };
    let (kind, owner) = piece(game, symbol)?;
    let top = Piece::new(kind, owner, 0);
    let mut neutral = (game.kinds.iter().enumerate())
        .filter(|(_, k)| !k.owned && !k.symbols.is_empty())
        .map(|(k, _)| Piece::new(k as u8, NEUTRAL, 0));
    let below = match (neutral.next(), neutral.next()) {
        (Some(one), None) => one,
        _ => top,
    };
    let mut state = game.initial.clone();
    for k in 0..=height as usize {
        state.edit_stack(cell, |s| {
            s.clear();
            s.extend(std::iter::repeat_n(below, k));
            s.extend([top]);
        });
        if game.shown_height(&state, usize::from(cell)) == height {
            let under = crate::render::board::symbol(game, &below);
            return Ok(match k {
                0 => symbol.to_string(),
                1 => format!("{under}+{symbol}"),
                _ => format!("{under}*{k}+{symbol}"),
            });
        }
    }
    if symbol.len() == text.len() {
        return Ok(text.into());
    }
    Err(format!(
        "`{text}`: no stack with `{symbol}` on top is drawn with height {height}"
    ))
}
