//! A part's check decided from the position before its move, where the check asks about
//! groups.
//!
//! Applies: to a part whose effect is one move and whose check reads stacks only through
//! `group_size` of cells given by expressions that read no stack ([`CheckBefore::of`]).
//! Guarantees: the same answer as playing the move and asking the check.
//! Proved by: `compiled::checks_on_groups_after_a_move_are_decided_before_it_where_they_can_be`,
//! `properties::a_check_decided_before_the_move_is_the_check_after_it_on_boards_of_many_words`;
//! debug builds play every move decided this way and compare.
//! More: docs/engine.md, "Checks decided before the move".

use super::board::{CellId, ORTHOGONAL};
use super::eval::eval;
use super::hooks::groups;
use super::natives::Ctx;
use super::precheck::cell_reads;
use super::program::{FRAME_INLINE, Node, OneMove, Part};
use super::state::EMPTY_TOP;
use crate::engine::cellset::WORDS;

/// What a part needs for its check to be decided before its move is played.
#[derive(Clone, Debug)]
pub struct CheckBefore {
    /// The slots of the cells the move is from and onto.
    from: u16,
    to: u16,
    /// Whether the move takes the top piece alone (`move_top`), which is decided here
    /// only when that piece is the whole stack.
    top_only: bool,
    /// Per `group_size` call of the check: the slot its size is written to, the cell it
    /// asks about and its directions (expressions that read no stack).
    sizes: Box<[(u16, Node, Node)]>,
    /// The check with each of those calls read from its slot: it reads no stack.
    check: Node,
}

impl CheckBefore {
    /// What `part` needs, if its effect is one move between named cells and its check
    /// reads stacks only through `group_size` of cells given by expressions that read no
    /// stack; `frame` is its action's number of slots, which the sizes' slots are added
    /// to (`None` where they would take it past the frame kept inline).
    pub fn of(part: &Part, frame: &mut usize) -> Option<CheckBefore> {
        let check = part.check.as_ref()?;
        let OneMove { from, to, top_only } = part.one_move()?;
        let mut check = check.clone();
        let mut sizes = Vec::new();
        let mut next = *frame;
        name_sizes(&mut check, &mut sizes, &mut next)?;
        // A frame past what is kept inline would be allocated for every candidate.
        if sizes.is_empty() || cell_reads(&check) != Some(0) || next > FRAME_INLINE {
            return None;
        }
        *frame = next;
        Some(CheckBefore {
            from,
            to,
            top_only,
            sizes: sizes.into(),
            check,
        })
    }

    /// The check and the sizes' cells and directions, for compiling to closures.
    pub fn nodes_mut(&mut self) -> impl Iterator<Item = &mut Node> {
        let sizes = self
            .sizes
            .iter_mut()
            .flat_map(|(_, cell, dirs)| [cell, dirs]);
        std::iter::once(&mut self.check).chain(sizes)
    }

    /// Whether the check holds once the move is played, worked out before it is; `None`
    /// where the move is not one this decides (from or onto `none` or a cell off the
    /// board, onto the cell it is from, from an empty cell, or a top piece off a stack
    /// of several), which is then played as usual.
    pub fn holds(&self, c: &Ctx, locals: &mut [i64]) -> Option<bool> {
        let cells = c.board.len() as i64;
        let (from, to) = (locals[self.from as usize], locals[self.to as usize]);
        if !(0..cells).contains(&from) || !(0..cells).contains(&to) || from == to {
            return None;
        }
        let (from, to) = (from as usize, to as usize);
        let height = c.state.stack(from as CellId).len();
        if height == 0 || self.top_only && height > 1 {
            return None;
        }
        let moved = c.state.top_code(from as CellId);
        let words = c.state.words();
        for (slot, cell, dirs) in self.sizes.iter() {
            let cell = eval(cell, c, locals);
            let size = if (0..cells).contains(&cell) {
                let cell = cell as usize;
                let top = match cell {
                    _ if cell == to => moved,
                    _ if cell == from => EMPTY_TOP,
                    _ => c.state.top_code(cell as CellId),
                };
                if top == EMPTY_TOP {
                    0
                } else {
                    let like = c.state.cells_topped_by(top);
                    let dirs = eval(dirs, c, locals) as u8;
                    let onto = u64::from(top == moved);
                    if let [like] = like {
                        // A board of one word: the set in a register.
                        let after = like & !(1 << from) & !(1 << to) | onto << to;
                        groups::size_within(c.board, &[after], cell, dirs)
                    } else {
                        let mut after = [0u64; WORDS];
                        after[..words].copy_from_slice(like);
                        after[from / 64] &= !(1 << (from % 64));
                        after[to / 64] &= !(1 << (to % 64));
                        after[to / 64] |= onto << (to % 64);
                        groups::size_within(c.board, &after[..words], cell, dirs)
                    }
                }
            } else {
                0
            };
            locals[*slot as usize] = size;
        }
        Some(eval(&self.check, c, locals) != 0)
    }
}

/// Replaces each `group_size` call of `node` whose cell and directions read no stack by
/// a new slot (from `next` on), noting the slot, the cell and the directions in `sizes`;
/// `None` where a call of it reads a stack (the check is then asked after the move).
fn name_sizes(node: &mut Node, sizes: &mut Vec<(u16, Node, Node)>, next: &mut usize) -> Option<()> {
    match node {
        Node::Call(_, args, "group_size") => {
            let fixed = |n: &Node| cell_reads(n) == Some(0);
            let (cell, dirs) = match &args[..] {
                [cell] if fixed(cell) => (cell.clone(), Node::Const(i64::from(ORTHOGONAL))),
                [cell, dirs] if fixed(cell) && fixed(dirs) => (cell.clone(), dirs.clone()),
                _ => return None,
            };
            let slot = u16::try_from(*next).ok()?;
            *next += 1;
            sizes.push((slot, cell, dirs));
            *node = Node::Local(slot);
        }
        Node::Not(x) | Node::Neg(x) | Node::VarAt(_, x) | Node::File(x) | Node::Rank(x) => {
            name_sizes(x, sizes, next)?
        }
        Node::Binary(_, a, b) | Node::Pair(_, a, b) | Node::Step(a, b) => {
            name_sizes(a, sizes, next)?;
            name_sizes(b, sizes, next)?;
        }
        Node::If(a, b, c) => {
            name_sizes(a, sizes, next)?;
            name_sizes(b, sizes, next)?;
            name_sizes(c, sizes, next)?;
        }
        Node::Call(_, args, _) => {
            for arg in args.iter_mut() {
                name_sizes(arg, sizes, next)?;
            }
        }
        _ => {}
    }
    Some(())
}
