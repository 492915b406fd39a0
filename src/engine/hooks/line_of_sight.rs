//! Line-of-sight hooks: the first piece seen from a cell along each linked direction.
//!
//! It follows the board's links, so on a board where only some points have diagonals it
//! bends to the board's lines exactly as its links do. Any piece blocks it, whoever owns it.

use super::{Elems, View};
use crate::engine::board::{CellId, DIRECTIONS, rising};
use crate::engine::cellset::{self, WORDS};
use crate::engine::state::{EMPTY_TOP, NONE};

/// The first occupied cell met going from `cell` along `dir` (the cell itself excluded),
/// or none if the line reaches the edge first.
pub fn first_seen(c: &View, cell: i64, dir: i64) -> i64 {
    if cell < 0 || !(0..DIRECTIONS.len() as i64).contains(&dir) {
        return NONE;
    }
    let mut cur = cell as CellId;
    // A line can visit each cell at most once; the bound guards against cyclic links.
    for _ in 0..c.board.len() {
        match c.board.step(cur, dir as usize) {
            None => return NONE,
            Some(next) if c.state.top_code(next) != EMPTY_TOP => return next as i64,
            Some(next) => cur = next,
        }
    }
    NONE
}

/// The occupied cells in line of sight of `cell` through the directions of `dirs`: one per
/// direction at most, in direction order. Where the board keeps its rays (a game that
/// asks for `visible` has them made), each is the nearest occupied cell of a ray, a few
/// word operations; otherwise the lines are followed cell by cell.
pub fn visible(c: &View, cell: i64, dirs: i64, out: &mut Elems) {
    if cell < 0 {
        return;
    }
    let board = c.board;
    if board.has_rays() {
        let occupied = c.state.occupied();
        let mut seen = [0u64; WORDS];
        let seen = &mut seen[..occupied.len()];
        let mut left = (dirs & 0xff) as u8 & board.link_dirs(cell as CellId);
        while left != 0 {
            let d = left.trailing_zeros() as usize;
            left &= left - 1;
            let ray = board.ray(cell as CellId, d);
            if let ([ray], [occupied]) = (ray, occupied) {
                // One word (a board of up to 64 cells, the commonest): no copy to a set.
                // (Measured: 4% of the instructions of a ply of the library's game built on it.)
                let hit = ray & occupied;
                if hit != 0 {
                    let nearest = if rising(d) {
                        hit.trailing_zeros()
                    } else {
                        63 - hit.leading_zeros()
                    };
                    out.push(nearest as i64);
                }
                continue;
            }
            for ((s, r), o) in seen.iter_mut().zip(ray).zip(occupied) {
                *s = r & o;
            }
            // Along a ray the cell numbers only grow or only shrink (see `rising`).
            let nearest = if rising(d) {
                cellset::first(seen)
            } else {
                cellset::last(seen)
            };
            if let Some(x) = nearest {
                out.push(x as i64);
            }
        }
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
