//! Push hooks: an unbroken line of occupied cells shifted one step into the first empty
//! cell beyond it, and the test of where that cell is. Links are followed; `push` never
//! pushes anything off the board, `push_off` takes the stack at the edge off it.

use super::{Edit, Elems};
use crate::engine::board::{Board, CellId};
use crate::engine::state::{EMPTY_TOP, NONE, State};

/// The cells from `cell` (included) going in `dir` up to the first empty one, following
/// links; empty if the edge comes before an empty cell.
fn line_to_hole(board: &Board, state: &State, cell: i64, dir: i64) -> Elems {
    let mut line = Elems::new();
    let mut cur = cell;
    while cur >= 0 && line.len() <= board.len() {
        line.push(cur);
        if state.top_code(cur as CellId) == EMPTY_TOP {
            return line;
        }
        cur = board.step_value(cur, dir);
    }
    Elems::new()
}

/// The occupied cells from `cell` (included) going in `dir` up to the edge, following
/// links; empty if an empty cell (where `push` puts the line) or a loop of links comes
/// first.
fn line_to_edge(board: &Board, state: &State, cell: i64, dir: i64) -> Elems {
    let mut line = Elems::new();
    let mut cur = cell;
    while cur >= 0 {
        if state.top_code(cur as CellId) == EMPTY_TOP || line.len() >= board.len() {
            return Elems::new();
        }
        line.push(cur);
        cur = board.step_value(cur, dir);
    }
    line
}

/// `first_empty(cell, dir)`: the empty cell a push would fill, or `none`.
pub fn first_empty(board: &Board, state: &State, a: &[i64]) -> i64 {
    if a[0] < 0 || a[1] < 0 {
        return NONE;
    }
    // The last cell of `line_to_hole`, found without listing the line.
    let mut cur = a[0];
    for _ in 0..=board.len() {
        if cur < 0 {
            break;
        }
        if state.top_code(cur as CellId) == EMPTY_TOP {
            return cur;
        }
        cur = board.step_value(cur, a[1]);
    }
    NONE
}

/// `push(cell, dir)`: shifts the line starting at `cell` one step along `dir`, farthest
/// stack first; does nothing when the edge comes before an empty cell.
pub fn push(e: &mut Edit, a: &[i64]) {
    if a[0] < 0 || a[1] < 0 {
        return;
    }
    let line = line_to_hole(e.board, e.state, a[0], a[1]);
    // Farthest stack first, each into the cell after it; the last cell is the hole.
    for pair in line.windows(2).rev() {
        e.journal
            .transfer(e.state, pair[0] as CellId, pair[1] as CellId, usize::MAX);
    }
}

/// `push_off(cell, dir)`: as `push`, but where the edge comes before an empty cell, the
/// stack at the edge leaves the board and the rest of the line shifts one step after it.
pub fn push_off(e: &mut Edit, a: &[i64]) {
    if a[0] < 0 || a[1] < 0 {
        return;
    }
    let line = line_to_edge(e.board, e.state, a[0], a[1]);
    let Some(&last) = line.last() else {
        return push(e, a);
    };
    e.journal
        .edit(e.state, last as CellId, |stack| stack.clear());
    for pair in line.windows(2).rev() {
        e.journal
            .transfer(e.state, pair[0] as CellId, pair[1] as CellId, usize::MAX);
    }
}
