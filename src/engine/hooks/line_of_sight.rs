//! Line-of-sight hooks: the first piece seen from a cell along each linked direction.
//!
//! It follows the board's links, so on a board where only some points have diagonals it
//! bends to the board's lines exactly as its links do. Any piece blocks it, whoever owns it.

use crate::engine::board::{CellId, DIRECTIONS};
use crate::engine::natives::{Ctx, Elems};
use crate::engine::state::{EMPTY_TOP, NONE};

/// The first occupied cell met going from `cell` along `dir` (the cell itself excluded),
/// or none if the line reaches the edge first.
pub fn first_seen(c: &Ctx, cell: i64, dir: i64) -> i64 {
    if cell < 0 || !(0..DIRECTIONS.len() as i64).contains(&dir) {
        return NONE;
    }
    let mut cur = cell as CellId;
    // A line can visit each cell at most once; the bound guards against cyclic links.
    for _ in 0..c.game.board.len() {
        match c.game.board.step(cur, dir as usize) {
            None => return NONE,
            Some(next) if c.state.top_code(next) != EMPTY_TOP => return next as i64,
            Some(next) => cur = next,
        }
    }
    NONE
}

/// The occupied cells in line of sight of `cell` through the directions of `dirs`: one per
/// direction at most, in direction order.
pub fn visible(c: &Ctx, cell: i64, dirs: i64, out: &mut Elems) {
    if cell < 0 {
        return;
    }
    for d in 0..DIRECTIONS.len() {
        if dirs & (1 << d) != 0 {
            let seen = first_seen(c, cell, d as i64);
            if seen >= 0 {
                out.push(seen);
            }
        }
    }
}
