//! What a learner sees of a position: planes over the board's grid, one value per cell.
//!
//! The planes, in order (their names are `Game.observation_planes()`):
//!
//! 1. per piece kind, in the game file's order: one plane per player for a kind players
//!    own, one for a neutral kind; each cell holds how many such pieces its stack holds
//!    (1 or 0 on a board of single pieces);
//! 2. `board`: 1 on the cells of the board, 0 on the squares of the grid outside it;
//! 3. per player, `to move: PLAYER`: 1 everywhere when that player is to move;
//! 4. per variable slot of the game file: its value everywhere.
//!
//! The grid is the board's files by its ranks: plane `[p, rank, file]`, rank 0 the first
//! (`a1` is `[p, 0, 0]`); a hexagonal board is its rhombus. A board with edges is its grid
//! of half steps, so that what stands on an edge or point is seen too: `2 * files + 1`
//! by `2 * ranks + 1`, the cell of file `f` and rank `r` (from 1) at `[p, 2r - 1, 2f - 1]`,
//! the edges and points between and around; `board` is 1 on every cell, edge and point.

use rulebook::engine::game::{Game, Per};
use rulebook::engine::state::{NEUTRAL, State};

/// Where each piece kind's planes start, and how the planes are laid out.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The first plane of each kind.
    kind_plane: Vec<usize>,
    /// Whether each kind has one plane per player.
    owned: Vec<bool>,
    board_plane: usize,
    players: usize,
    vars: usize,
    pub files: usize,
    pub ranks: usize,
    pub names: Vec<String>,
}

impl Layout {
    pub fn of(game: &Game) -> Layout {
        let players = game.players.len();
        let mut names = Vec::new();
        let mut kind_plane = Vec::new();
        let mut owned = Vec::new();
        for kind in &game.kinds {
            kind_plane.push(names.len());
            owned.push(kind.owned);
            if kind.owned {
                names.extend(game.players.iter().map(|p| format!("{} of {p}", kind.name)));
            } else {
                names.push(kind.name.clone());
            }
        }
        let board_plane = names.len();
        names.push("board".into());
        names.extend(game.players.iter().map(|p| format!("to move: {p}")));
        let vars = var_names(game);
        let count = vars.len();
        names.extend(vars);
        Layout {
            kind_plane,
            owned,
            board_plane,
            players,
            vars: count,
            files: grid(game.board.files, game),
            ranks: grid(game.board.ranks, game),
            names,
        }
    }

    /// The planes' count, then the grid's ranks and files.
    pub fn shape(&self) -> [usize; 3] {
        [self.names.len(), self.ranks, self.files]
    }

    /// The observation of `state`, plane after plane, rank after rank.
    pub fn observe(&self, game: &Game, state: &State) -> Vec<f32> {
        let area = self.ranks * self.files;
        let mut out = vec![0f32; self.names.len() * area];
        let board = &game.board;
        // Each place of the board with its position on the grid.
        let places: Vec<(usize, usize)> = if board.has_places() {
            (0..self.ranks)
                .flat_map(|y| (0..self.files).map(move |x| (x, y)))
                .filter_map(|(x, y)| {
                    board
                        .half_at(x, y)
                        .map(|p| (usize::from(p), y * self.files + x))
                })
                .collect()
        } else {
            // The board counts files and ranks from 1.
            (board.coords.iter().enumerate())
                .map(|(cell, &(file, rank))| {
                    (
                        cell,
                        usize::from(rank - 1) * self.files + usize::from(file - 1),
                    )
                })
                .collect()
        };
        for (cell, at) in places {
            out[self.board_plane * area + at] = 1.0;
            for piece in state.stack(cell as _) {
                let kind = usize::from(piece.kind);
                let mut plane = self.kind_plane[kind];
                if self.owned[kind] && piece.owner != NEUTRAL {
                    plane += usize::from(piece.owner);
                }
                out[plane * area + at] += 1.0;
            }
        }
        let fill = |out: &mut [f32], plane: usize, value: f32| {
            out[plane * area..(plane + 1) * area].fill(value);
        };
        if state.outcome.is_none() && usize::from(state.to_move) < self.players {
            fill(
                &mut out,
                self.board_plane + 1 + usize::from(state.to_move),
                1.0,
            );
        }
        let first_var = self.board_plane + 1 + self.players;
        for (i, &v) in state.vars.iter().take(self.vars).enumerate() {
            fill(&mut out, first_var + i, v as f32);
        }
        out
    }
}

/// The observation grid's side for a board side: the side, or on a board with edges its
/// half steps, `2 * side + 1`.
fn grid(side: u8, game: &Game) -> usize {
    if game.board.has_places() {
        2 * usize::from(side) + 1
    } else {
        usize::from(side)
    }
}

/// A name for each variable slot of the game: `name`, `name[player]`, `name[kind]`,
/// `name[player, kind]` or `name[cell]`.
fn var_names(game: &Game) -> Vec<String> {
    let slots = game.initial.vars.len();
    let mut names: Vec<String> = (0..slots).map(|i| format!("variable {i}")).collect();
    let kinds: Vec<&str> = game.kinds.iter().map(|k| k.name.as_str()).collect();
    for var in &game.vars {
        let first = usize::from(var.slot);
        let each: Vec<String> = match var.per {
            Per::Game => vec![var.name.clone()],
            Per::Player => (game.players.iter())
                .map(|p| format!("{}[{p}]", var.name))
                .collect(),
            Per::Kind => kinds.iter().map(|k| format!("{}[{k}]", var.name)).collect(),
            Per::PlayerKind => (game.players.iter())
                .flat_map(|p| kinds.iter().map(move |k| format!("{}[{p}, {k}]", var.name)))
                .collect(),
            Per::Cell => (game.board.names.iter())
                .map(|c| format!("{}[{c}]", var.name))
                .collect(),
        };
        for (i, name) in each.into_iter().enumerate() {
            if let Some(slot) = names.get_mut(first + i) {
                *slot = name;
            }
        }
    }
    names
}
