//! Every cell's stack of pieces in one buffer, so that copying a position copies two
//! arrays, not a container per cell.
//!
//! Each cell owns a region of the buffer with room for a few pieces ([`ROOM`] to begin
//! with). A stack that outgrows its region moves to one at least twice as large at the
//! end of the buffer, and the region it leaves stays unused: a cell's old regions add up
//! to less than its room now, so the buffer never holds more than twice the room in use.
//! Which region a cell uses is invisible outside: two sets of stacks are equal when every
//! cell holds the same pieces.

use std::ops::{Deref, DerefMut, Index};

use super::piece::Piece;

/// The room each cell's region has at first (more where the setup stacks higher).
pub const ROOM: usize = 4;

/// Where a cell's region is, how many pieces it holds and how many it has room for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Region {
    start: u32,
    len: u32,
    room: u32,
}

/// The stacks of every cell, bottom first.
#[derive(Debug)]
pub struct Stacks {
    pieces: Vec<Piece>,
    cells: Vec<Region>,
}

impl Clone for Stacks {
    fn clone(&self) -> Stacks {
        Stacks {
            pieces: self.pieces.clone(),
            cells: self.cells.clone(),
        }
    }

    /// Two copies of arrays of plain values, reusing this one's buffers.
    fn clone_from(&mut self, source: &Stacks) {
        self.pieces.clone_from(&source.pieces);
        self.cells.clone_from(&source.cells);
    }
}

impl PartialEq for Stacks {
    fn eq(&self, other: &Stacks) -> bool {
        self.len() == other.len() && (0..self.len()).all(|c| self.get(c) == other.get(c))
    }
}

impl Eq for Stacks {}

/// A piece that fills room nobody reads.
const FILLER: Piece = Piece {
    kind: 0,
    owner: 0,
    moved: 0,
    moved_before: 0,
};

impl Stacks {
    /// Stacks holding these pieces, bottom first, one list per cell.
    pub fn new<S: AsRef<[Piece]>>(stacks: &[S]) -> Stacks {
        let mut s = Stacks {
            pieces: Vec::new(),
            cells: Vec::with_capacity(stacks.len()),
        };
        for stack in stacks {
            let stack = stack.as_ref();
            let room = stack.len().max(ROOM).next_power_of_two();
            s.cells.push(Region {
                start: s.pieces.len() as u32,
                len: stack.len() as u32,
                room: room as u32,
            });
            s.pieces.extend_from_slice(stack);
            s.pieces.resize(s.pieces.len() + room - stack.len(), FILLER);
        }
        s
    }

    /// The number of cells.
    #[inline]
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether there is no cell.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The pieces on a cell, bottom first.
    #[inline]
    pub fn get(&self, cell: usize) -> &[Piece] {
        let r = self.cells[cell];
        &self.pieces[r.start as usize..][..r.len as usize]
    }

    #[inline]
    fn get_mut(&mut self, cell: usize) -> &mut [Piece] {
        let r = self.cells[cell];
        &mut self.pieces[r.start as usize..][..r.len as usize]
    }

    /// Every cell's pieces, in cell order.
    pub fn iter(&self) -> impl Iterator<Item = &[Piece]> + '_ {
        (0..self.len()).map(|c| self.get(c))
    }

    /// Makes room on `cell` for `more` pieces on top.
    #[inline]
    fn reserve(&mut self, cell: usize, more: usize) {
        let r = self.cells[cell];
        if r.len as usize + more > r.room as usize {
            self.regrow(cell, more);
        }
    }

    /// Moves a cell's stack to a region at the end of the buffer with room for `more`
    /// pieces on top, and at least twice the room it had.
    #[cold]
    fn regrow(&mut self, cell: usize, more: usize) {
        let r = self.cells[cell];
        let room = (r.len as usize + more)
            .max(2 * r.room as usize)
            .next_power_of_two();
        let start = self.pieces.len();
        self.pieces
            .extend_from_within(r.start as usize..r.start as usize + r.len as usize);
        self.pieces.resize(start + room, FILLER);
        self.cells[cell] = Region {
            start: start as u32,
            len: r.len,
            room: room as u32,
        };
    }

    /// Puts a piece on top of a cell's stack.
    #[inline]
    pub fn push(&mut self, cell: usize, piece: Piece) {
        self.reserve(cell, 1);
        let r = &mut self.cells[cell];
        self.pieces[r.start as usize + r.len as usize] = piece;
        r.len += 1;
    }

    /// Takes the top piece off a cell's stack.
    #[inline]
    pub fn pop(&mut self, cell: usize) -> Option<Piece> {
        let r = &mut self.cells[cell];
        if r.len == 0 {
            return None;
        }
        r.len -= 1;
        Some(self.pieces[r.start as usize + r.len as usize])
    }

    /// Keeps the bottom `len` pieces of a cell's stack.
    #[inline]
    pub fn truncate(&mut self, cell: usize, len: usize) {
        let r = &mut self.cells[cell];
        r.len = (r.len as usize).min(len) as u32;
    }

    /// Puts pieces on top of a cell's stack, the first lowest.
    pub fn extend_from_slice(&mut self, cell: usize, pieces: &[Piece]) {
        self.reserve(cell, pieces.len());
        let r = &mut self.cells[cell];
        let at = r.start as usize + r.len as usize;
        self.pieces[at..at + pieces.len()].copy_from_slice(pieces);
        r.len += pieces.len() as u32;
    }

    /// Moves the top `count` pieces of `from` (all, if fewer) onto `to`, each changed by
    /// `stamp` (`from` and `to` differ). Always inlined: the moves of a playout go
    /// through it, and a call costs them more than its few lines.
    #[inline(always)]
    pub fn transfer(
        &mut self,
        from: usize,
        to: usize,
        count: usize,
        stamp: impl Fn(Piece) -> Piece,
    ) {
        let moving = (self.cells[from].len as usize).min(count);
        // Room first: moving the target's region may move the source's too.
        self.reserve(to, moving);
        let (f, t) = (self.cells[from], self.cells[to]);
        let (keep, at) = (f.len as usize - moving, t.start as usize + t.len as usize);
        for i in 0..moving {
            self.pieces[at + i] = stamp(self.pieces[f.start as usize + keep + i]);
        }
        self.cells[from].len = keep as u32;
        self.cells[to].len += moving as u32;
    }

    /// [`Stacks::transfer`] of the one piece of `from` onto the empty `to` (every region
    /// has room for [`ROOM`] pieces at least): two stores and no loop.
    #[inline(always)]
    pub fn shift(&mut self, from: usize, to: usize, stamp: impl Fn(Piece) -> Piece) {
        let (f, t) = (self.cells[from], self.cells[to]);
        debug_assert!(f.len == 1 && t.len == 0 && t.room >= 1);
        self.pieces[t.start as usize] = stamp(self.pieces[f.start as usize]);
        self.cells[from].len = 0;
        self.cells[to].len = 1;
    }

    /// A cell's stack, open for change.
    #[inline]
    pub fn stack_mut(&mut self, cell: usize) -> StackMut<'_> {
        StackMut { stacks: self, cell }
    }
}

impl Index<usize> for Stacks {
    type Output = [Piece];

    #[inline]
    fn index(&self, cell: usize) -> &[Piece] {
        self.get(cell)
    }
}

/// One cell's stack, open for change: its pieces as a slice, and what changes its height.
pub struct StackMut<'a> {
    stacks: &'a mut Stacks,
    cell: usize,
}

impl StackMut<'_> {
    /// Puts a piece on top.
    pub fn push(&mut self, piece: Piece) {
        self.stacks.push(self.cell, piece);
    }

    /// Takes the top piece off.
    pub fn pop(&mut self) -> Option<Piece> {
        self.stacks.pop(self.cell)
    }

    /// Keeps the bottom `len` pieces.
    pub fn truncate(&mut self, len: usize) {
        self.stacks.truncate(self.cell, len);
    }

    /// Takes every piece off.
    pub fn clear(&mut self) {
        self.truncate(0);
    }

    /// Puts pieces on top, the first lowest.
    pub fn extend(&mut self, pieces: impl IntoIterator<Item = Piece>) {
        for piece in pieces {
            self.push(piece);
        }
    }

    /// Keeps only the pieces for which `keep` holds, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Piece) -> bool) {
        let stack = self.stacks.get_mut(self.cell);
        let mut kept = 0;
        for i in 0..stack.len() {
            if keep(&stack[i]) {
                stack[kept] = stack[i];
                kept += 1;
            }
        }
        self.truncate(kept);
    }
}

impl Deref for StackMut<'_> {
    type Target = [Piece];

    fn deref(&self) -> &[Piece] {
        self.stacks.get(self.cell)
    }
}

impl DerefMut for StackMut<'_> {
    fn deref_mut(&mut self) -> &mut [Piece] {
        self.stacks.get_mut(self.cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(kind: u8) -> Piece {
        Piece::new(kind, 0, 0)
    }

    #[test]
    fn stacks_that_outgrow_their_room_move_and_keep_their_pieces() {
        let mut s = Stacks::new(&[vec![piece(1)], vec![], vec![piece(2), piece(3)]]);
        for k in 0..40 {
            s.push(1, piece(k));
        }
        assert_eq!(s.get(1).len(), 40);
        assert!(s.get(1).iter().enumerate().all(|(k, p)| p.kind == k as u8));
        assert_eq!(s.get(0), &[piece(1)]);
        assert_eq!(s.get(2), &[piece(2), piece(3)]);
        // Rooms of 4 (cells 0 and 2), then 4, 8, 16, 32 and 64 for cell 1.
        assert_eq!(s.pieces.len(), 4 + 4 + 4 + 8 + 16 + 32 + 64);
        s.transfer(1, 0, 3, |p| p);
        assert_eq!(
            s.get(0).iter().map(|p| p.kind).collect::<Vec<_>>(),
            [1, 37, 38, 39]
        );
        assert_eq!(s.get(1).len(), 37);
        let mut t = Stacks::new::<Vec<Piece>>(&[]);
        t.clone_from(&s);
        assert_eq!(t, s);
        t.stack_mut(2).retain(|p| p.kind != 2);
        assert_eq!(t.get(2), &[piece(3)]);
        assert_ne!(t, s);
    }

    #[test]
    fn a_stack_may_hold_more_pieces_than_16_bits_count() {
        let mut s = Stacks::new(&[vec![piece(1)], vec![]]);
        s.extend_from_slice(0, &vec![piece(2); 70_000]);
        assert_eq!(s.get(0).len(), 70_001);
        s.transfer(0, 1, usize::MAX, |p| p);
        assert_eq!((s.get(0).len(), s.get(1).len()), (0, 70_001));
        s.truncate(1, 1 << 20);
        assert_eq!(s.get(1).len(), 70_001);
        s.truncate(1, 1);
        assert_eq!(s.get(1), &[piece(1)]);
    }
}
