//! A pair head listed: a piece's choice and the part's last `in` choice (where it goes,
//! or the way it goes), with what follows it ([`Pair`]).

use super::numbered::*;
use crate::engine::board::CellId;
use crate::engine::cellset::{self, WORDS};
use crate::engine::eval::{cells_into, steps, with_cells};
use crate::engine::kept::{KeptHead, Reach};
use crate::engine::natives::Ctx;
use crate::engine::program::{Choice, Domain, Part, directions_args};
use crate::engine::shape::PairShape;

/// A head listed by [`Game::pair_head`]: a piece's choice and the part's last `in`
/// choice, with what follows it.
pub(super) struct Pair<'a> {
    pub(super) c: Ctx<'a>,
    pub(super) part: &'a Part,
    pub(super) shape: PairShape,
}

impl Pair<'_> {
    /// Lists the entries of a head the compiled expressions work out.
    #[inline(never)]
    pub(super) fn walked(&self, locals: &mut [i64], out: &mut Numbered) -> Option<(Head, u8, u64)> {
        let Choice::In { domain, .. } = &self.part.choices[self.shape.last as usize] else {
            return None;
        };
        let w = self.c.state.words();
        // The last choice's elements for the piece in the frame, appended to the sets
        // (as many words as the position's sets), and how many they are.
        match domain {
            Domain::Cells(targets) => self.list(locals, out, |c, locals, sets| {
                with_cells(targets, c, locals, |s, _| {
                    cellset::append(sets, s);
                    cellset::count(s) as u64
                })
            }),
            Domain::Steps { cell, dirs, target } => self.list(locals, out, |c, locals, sets| {
                append_mask(sets, steps(cell, dirs, target, c, locals), w)
            }),
            Domain::Native(_, args) => {
                let (cell, dirs) = directions_args(args)?;
                self.list(locals, out, |c, locals, sets| {
                    let cell = locals[cell];
                    let mask = if cell < 0 {
                        0
                    } else {
                        c.board.link_dirs(cell as CellId) & dirs
                    };
                    append_mask(sets, u64::from(mask), w)
                })
            }
            Domain::List(_) => None,
        }
    }

    /// Lists the entries of a head of kept sets ([`Pair::kept`]).
    #[inline(never)]
    pub(super) fn kept_head(&self, head: &KeptHead, out: &mut Numbered) -> Option<(Head, u8, u64)> {
        match self.c.state.words() {
            1 => self.kept::<1>(head, out, 1),
            w => self.kept::<WORDS>(head, out, w),
        }
    }

    /// The head of the listing, once its entries are in `out` from `at` on: what follows
    /// the last choice, if anything, is left to the draw ([`Head::Listed::untested`]).
    pub(super) fn listed(&self, at: usize, out: &Numbered, total: u64) -> Option<(Head, u8, u64)> {
        let len = (out.entries.len() - at) as u32;
        Some((
            Head::Listed {
                at: at as u32,
                len,
                tail: false,
                untested: self.shape.tested,
            },
            1,
            total,
        ))
    }

    /// Lists one entry per piece, standing for the elements that `second` appends to
    /// the sets (and counts).
    pub(super) fn list(
        &self,
        locals: &mut [i64],
        out: &mut Numbered,
        mut second: impl FnMut(&Ctx, &mut [i64], &mut Vec<u64>) -> u64,
    ) -> Option<(Head, u8, u64)> {
        let Choice::In {
            slot,
            domain: Domain::Cells(pieces),
            ..
        } = &self.part.choices[self.shape.first as usize]
        else {
            return None;
        };
        let mark = out.mark();
        let at = mark.0;
        let mut words = [0u64; WORDS];
        let n = cells_into(pieces, &self.c, locals, &mut words);
        let mut total = 0u64;
        for e in cellset::members(&words[..n]) {
            locals[*slot as usize] = e as i64;
            let leaf = out.sets.len();
            let count = second(&self.c, locals, &mut out.sets);
            if count == 0 {
                out.sets.truncate(leaf);
                continue;
            }
            if !out.piece(e, leaf, count, &mut total, mark) {
                return None;
            }
        }
        self.listed(at, out, total)
    }

    /// [`Game::pair_head`] for a head of kept sets ([`KeptHead`]): the pieces and each
    /// one's elements read from the position's words and the board's links, on a board of
    /// `w` words worked out in arrays of `W` (a register, for boards of up to 64 cells).
    #[inline(always)]
    pub(super) fn kept<const W: usize>(
        &self,
        head: &KeptHead,
        out: &mut Numbered,
        w: usize,
    ) -> Option<(Head, u8, u64)> {
        let c = &self.c;
        let (mut pieces, mut target) = ([0u64; W], [0u64; W]);
        if W == 1 {
            pieces[0] = head.pieces.word(c.board, c.state, c.me);
            target[0] = head.target.word(c.board, c.state, c.me);
        } else {
            head.pieces
                .words_into(c.board, c.state, c.me, &mut pieces[..w]);
            head.target
                .words_into(c.board, c.state, c.me, &mut target[..w]);
        }
        let board = c.board;
        let mark = out.mark();
        let at = mark.0;
        let mut total = 0u64;
        for e in cellset::members(&pieces[..w]) {
            let mut leaf = [0u64; W];
            let count = match head.reach {
                Reach::Steps(dirs) => {
                    let mut left = dirs & board.link_dirs(e as CellId);
                    let mut n = 0;
                    while left != 0 {
                        let d = left.trailing_zeros() as usize;
                        left &= left - 1;
                        // (On one word the target's bit is added in, not branched on:
                        // which way it goes is the position's, and a processor guesses it
                        // wrong half the time. A link in `left` always leads somewhere.)
                        let bit = board.step(e as CellId, d).map_or(0, |to| {
                            let to = to as usize;
                            if W == 1 {
                                (target[0] >> (to % 64)) & 1
                            } else {
                                u64::from(cellset::contains(&target[..w], to))
                            }
                        });
                        leaf[0] |= bit << d;
                        n += bit;
                    }
                    n
                }
                Reach::Links(dirs) => {
                    leaf[0] = u64::from(dirs & board.link_dirs(e as CellId));
                    u64::from(leaf[0].count_ones())
                }
                Reach::Neighbours(table) => {
                    let near = board.neighbours(table, e as CellId);
                    let mut n = 0;
                    for i in 0..w {
                        leaf[i] = near[i] & target[i];
                        n += u64::from(leaf[i].count_ones());
                    }
                    n
                }
            };
            if count == 0 {
                continue;
            }
            let leaf_at = out.sets.len();
            out.sets.extend_from_slice(&leaf[..w]);
            if !out.piece(e, leaf_at, count, &mut total, mark) {
                return None;
            }
        }
        self.listed(at, out, total)
    }
}
