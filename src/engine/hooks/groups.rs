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

/// Floods from `start` and returns the size of its group, marking every member. The
/// cells still to visit are kept in a bit set too, so nothing needs clearing per call.
fn flood(c: &Ctx, start: CellId, dirs: i64, marks: &mut Marks) -> i64 {
    let Some(&like) = c.state.top(start) else {
        return 0;
    };
    let links = &c.game.board.links;
    let dirs = dirs as u8;
    let mut pending = Marks::new();
    marks.test_and_set(start as usize);
    pending.test_and_set(start as usize);
    let mut size = 1;
    let mut word = 0;
    while word < WORDS {
        let bits = pending.0[word];
        if bits == 0 {
            word += 1;
            continue;
        }
        let cell = word * 64 + bits.trailing_zeros() as usize;
        pending.0[word] &= bits - 1;
        let mut todo = dirs;
        while todo != 0 {
            let d = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            if let Some(n) = links[cell][d]
                && c.state.top(n).is_some_and(|p| same(p, &like))
                && !marks.test_and_set(n as usize)
            {
                pending.test_and_set(n as usize);
                size += 1;
                // A new member below the current word restarts the scan there.
                word = word.min(n as usize / 64);
            }
        }
    }
    size
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
