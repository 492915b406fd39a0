//! Push hooks: an unbroken line of occupied cells shifted one step into the first empty
//! cell beyond it, and the test of where that cell is. Links are followed, and nothing
//! is ever pushed off the board.

use crate::engine::board::CellId;
use crate::engine::natives::{Ctx, Elems, Mut, move_pieces, step};
use crate::engine::state::{EMPTY_TOP, NONE};

/// The cells from `cell` (included) going in `dir` up to the first empty one, following
/// links; empty if the edge comes before an empty cell.
fn line_to_hole(c: &Ctx, cell: i64, dir: i64) -> Elems {
    let mut line = Elems::new();
    let mut cur = cell;
    while cur >= 0 && line.len() <= c.game.board.len() {
        line.push(cur);
        if c.state.top_code(cur as CellId) == EMPTY_TOP {
            return line;
        }
        cur = step(c, cur, dir);
    }
    Elems::new()
}

/// `first_empty(cell, dir)`: the empty cell a push would fill, or `none`.
pub fn first_empty(c: &Ctx, a: &[i64]) -> i64 {
    if a[0] < 0 || a[1] < 0 {
        return NONE;
    }
    // The last cell of `line_to_hole`, found without listing the line.
    let mut cur = a[0];
    for _ in 0..=c.game.board.len() {
        if cur < 0 {
            break;
        }
        if c.state.top_code(cur as CellId) == EMPTY_TOP {
            return cur;
        }
        cur = step(c, cur, a[1]);
    }
    NONE
}

/// `push(cell, dir)`: shifts the line starting at `cell` one step along `dir`, farthest
/// stack first; does nothing when the edge comes before an empty cell.
pub fn push(m: &mut Mut, a: &[i64]) {
    if a[0] < 0 || a[1] < 0 {
        return;
    }
    let line = {
        let c = Ctx {
            game: m.game,
            state: m.state,
            me: m.me,
        };
        line_to_hole(&c, a[0], a[1])
    };
    // Farthest stack first, each into the cell after it; the last cell is the hole.
    for pair in line.windows(2).rev() {
        move_pieces(m, pair[0], pair[1], usize::MAX);
    }
}
