//! Group hooks: sizes and counts of connected groups of like pieces.
//!
//! Two cells are in the same group when both top pieces have the same kind and owner and a
//! chain of such cells links them through the given directions. The flood fill uses a
//! fixed-size bit set and queue on the stack: no allocation on the move-generation path.

use crate::engine::board::CellId;
use crate::engine::natives::Ctx;
use crate::engine::state::Piece;

/// The most cells a board can have (26 × 26).
const MAX_CELLS: usize = 26 * 26;
const WORDS: usize = MAX_CELLS.div_ceil(64);

struct Marks([u64; WORDS]);

impl Marks {
    fn new() -> Marks {
        Marks([0; WORDS])
    }
    fn is_set(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }
    fn test_and_set(&mut self, i: usize) -> bool {
        let (w, b) = (i / 64, i % 64);
        let was = self.0[w] & (1 << b) != 0;
        self.0[w] |= 1 << b;
        was
    }
}

fn same(a: &Piece, b: &Piece) -> bool {
    a.kind == b.kind && a.owner == b.owner
}

/// Floods from `start` and returns the size of its group, marking every member.
fn flood(c: &Ctx, start: CellId, dirs: i64, marks: &mut Marks) -> i64 {
    let Some(&like) = c.state.top(start) else {
        return 0;
    };
    let mut queue = [0 as CellId; MAX_CELLS];
    let (mut head, mut tail) = (0, 0);
    marks.test_and_set(start as usize);
    queue[tail] = start;
    tail += 1;
    while head < tail {
        let cell = queue[head];
        head += 1;
        for d in 0..8 {
            if dirs & (1 << d) == 0 {
                continue;
            }
            if let Some(n) = c.game.board.step(cell, d)
                && c.state.top(n).is_some_and(|p| same(p, &like))
                && !marks.test_and_set(n as usize)
            {
                queue[tail] = n;
                tail += 1;
            }
        }
    }
    tail as i64
}

/// The size of the group containing `cell` (0 for an empty cell or none).
pub fn group_size(c: &Ctx, cell: i64, dirs: i64) -> i64 {
    if cell < 0 {
        return 0;
    }
    flood(c, cell as CellId, dirs, &mut Marks::new())
}

/// The number of groups formed by the pieces on top that `player` owns.
pub fn group_count(c: &Ctx, player: i64, dirs: i64) -> i64 {
    if player < 0 {
        return 0;
    }
    let mut marks = Marks::new();
    let mut count = 0;
    for cell in 0..c.game.board.len() {
        let owned = c
            .state
            .top(cell as CellId)
            .is_some_and(|p| p.owner as i64 == player);
        if owned && !marks.is_set(cell) {
            flood(c, cell as CellId, dirs, &mut marks);
            count += 1;
        }
    }
    count
}
