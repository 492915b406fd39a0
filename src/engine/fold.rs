//! Aggregates folded over the elements of a collection: the closures `engine::code`
//! makes for `count`, `sum`, `any`, `all`, `min`, `max`, `first` and `last`, given the
//! collection's, the filter's and the body's code already compiled.
//!
//! One fold serves every kind of collection: a set of cells walked bit by bit
//! ([`SetWalk`]) or the elements a native collection, a list or a step's directions write
//! out ([`ElemWalk`]). Proved by the tests `code.rs` names, through every aggregate of
//! every game and of the generated expressions.

use crate::lang::ast::AggOp;

use super::board::CellId;
use super::cellset;
use super::natives::{Ctx, Elems, height_of};
use super::program::{Cells, Scalar};
use super::state::NONE;

/// The elements an aggregate ranges over, in their order, each handed with the local
/// slots to `f` until it returns false. Made once at load for each aggregate, so the
/// fold below is one code for every kind of collection.
pub trait Walk: Send + Sync + 'static {
    fn walk(&self, c: &Ctx, l: &mut [i64], f: impl FnMut(i64, &mut [i64]) -> bool);
}

/// The cells of a compiled set, in cell order.
pub struct SetWalk<const W: usize>(pub Cells<W>);

impl<const W: usize> Walk for SetWalk<W> {
    #[inline(always)]
    fn walk(&self, c: &Ctx, l: &mut [i64], mut f: impl FnMut(i64, &mut [i64]) -> bool) {
        let s = (self.0)(c, l);
        each_bit(s, |e| f(e, l));
    }
}

/// The elements a compiled collection writes out (a native collection, a list, the
/// directions of a step), in the collection's order.
pub struct ElemWalk(pub Elements);

impl Walk for ElemWalk {
    #[inline(always)]
    fn walk(&self, c: &Ctx, l: &mut [i64], mut f: impl FnMut(i64, &mut [i64]) -> bool) {
        let mut out = Elems::new();
        (self.0)(c, l, &mut out);
        for &e in out.iter() {
            if !f(e, l) {
                return;
            }
        }
    }
}

/// A collection compiled to a closure that writes its elements out.
pub type Elements = Box<dyn Fn(&Ctx, &mut [i64], &mut Elems) + Send + Sync>;

/// An aggregate's value over the elements `each` walks, `slot` bound to each: the
/// filter and the body compiled, the fold picked by the operator at load.
pub fn fold<E: Walk>(
    each: E,
    op: AggOp,
    slot: usize,
    filter: Option<Scalar>,
    body: Option<Scalar>,
) -> Scalar {
    let passes = move |c: &Ctx, l: &mut [i64]| filter.as_ref().is_none_or(|f| f(c, l) != 0);
    let value = move |c: &Ctx, l: &mut [i64]| body.as_ref().map_or(1, |b| b(c, l));
    match op {
        AggOp::Count => Box::new(move |c, l| {
            let mut n = 0i64;
            each.walk(c, l, |e, l| {
                l[slot] = e;
                n += (passes(c, l) && value(c, l) != 0) as i64;
                true
            });
            n
        }),
        AggOp::Sum => Box::new(move |c, l| {
            let mut n = 0i64;
            each.walk(c, l, |e, l| {
                l[slot] = e;
                if passes(c, l) {
                    n = n.wrapping_add(value(c, l));
                }
                true
            });
            n
        }),
        AggOp::Any => Box::new(move |c, l| {
            let mut found = false;
            each.walk(c, l, |e, l| {
                l[slot] = e;
                found = passes(c, l) && value(c, l) != 0;
                !found
            });
            found as i64
        }),
        AggOp::All => Box::new(move |c, l| {
            let mut all = true;
            each.walk(c, l, |e, l| {
                l[slot] = e;
                all = !passes(c, l) || value(c, l) != 0;
                all
            });
            all as i64
        }),
        AggOp::Min | AggOp::Max => {
            let max = op == AggOp::Max;
            Box::new(move |c, l| {
                let mut acc: Option<i64> = None;
                each.walk(c, l, |e, l| {
                    l[slot] = e;
                    if passes(c, l) {
                        let v = value(c, l);
                        acc = Some(acc.map_or(v, |a| if max { a.max(v) } else { a.min(v) }));
                    }
                    true
                });
                acc.unwrap_or(0)
            })
        }
        // The element itself: the body is not read.
        AggOp::First => Box::new(move |c, l| {
            let mut found = NONE;
            each.walk(c, l, |e, l| {
                l[slot] = e;
                if passes(c, l) {
                    found = e;
                    return false;
                }
                true
            });
            found
        }),
        AggOp::Last => Box::new(move |c, l| {
            let mut found = NONE;
            each.walk(c, l, |e, l| {
                l[slot] = e;
                if passes(c, l) {
                    found = e;
                }
                true
            });
            found
        }),
        AggOp::SortDesc | AggOp::SortAsc => unreachable!("lists are left to eval_list"),
    }
}

/// `first` or `last` of a ray's cells made a set (`Aggregate::along`): the nearest (or
/// farthest) cell of the set going in the direction, which is the lowest cell index going
/// n, ne, e or nw (cells are numbered rank by rank), the highest the other ways.
pub fn along<const W: usize>(set: Cells<W>, dir: Scalar, first: bool) -> Scalar {
    Box::new(move |c, l| {
        let d = dir(c, l);
        let rising = (0..8).contains(&d) && super::board::rising(d as usize);
        let s = set(c, l);
        let at = if rising == first {
            cellset::first(&s)
        } else {
            cellset::last(&s)
        };
        at.map_or(NONE, |x| x as i64)
    })
}

/// The directions of a `Domain::Steps` in which `cell` has a link to a cell of
/// `target`, in direction order.
pub fn steps<const W: usize>(cell: Scalar, dirs: Scalar, target: Cells<W>) -> Elements {
    Box::new(move |c, l, out| {
        let cell = cell(c, l);
        if cell < 0 {
            return;
        }
        let board = c.board;
        let mut left = (dirs(c, l) & 0xff) as u8 & board.link_dirs(cell as CellId);
        let target = target(c, l);
        while left != 0 {
            let d = left.trailing_zeros() as usize;
            left &= left - 1;
            if let Some(to) = board.step(cell as CellId, d)
                && cellset::contains(&target, to as usize)
            {
                out.push(d as i64);
            }
        }
    })
}

/// The cells of a set, in cell order, written out.
pub fn members<const W: usize>(set: Cells<W>) -> Elements {
    Box::new(move |c, l, out| {
        let s = set(c, l);
        each_bit(s, |e| {
            out.push(e);
            true
        });
    })
}

/// Calls `f` with each cell of a set in cell order until it returns false.
#[inline]
pub fn each_bit<const W: usize>(s: [u64; W], mut f: impl FnMut(i64) -> bool) {
    for (w, word) in s.into_iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let e = (w * 64 + bits.trailing_zeros() as usize) as i64;
            bits &= bits - 1;
            if !f(e) {
                return;
            }
        }
    }
}

/// The least (or, with `max`, the greatest) height of the cells of `set` that pass the
/// filter, `slot` bound to each: read from the position's cells by height where it keeps
/// them (tallest or lowest first, the filter run on no cell of another height), else
/// each stack measured.
pub fn of_heights<const W: usize>(
    set: Cells<W>,
    slot: usize,
    max: bool,
    filter: Option<Scalar>,
) -> Scalar {
    let passes = move |c: &Ctx, l: &mut [i64]| filter.as_ref().is_none_or(|f| f(c, l) != 0);
    let each = SetWalk(set);
    Box::new(move |c, l| {
        if let Some(sets) = c.state.by_heights() {
            // The greatest (least) height of a cell that passes the filter: the
            // position's cells by height, tallest (lowest) first, until one passes; the
            // filter runs on no cell of another height.
            let s = (each.0)(c, l);
            let heights = sets.len() / W;
            for i in 0..heights {
                let h = if max { heights - 1 - i } else { i };
                let of = &sets[h * W..(h + 1) * W];
                let mut at: [u64; W] = [0; W];
                for ((a, x), y) in at.iter_mut().zip(&s).zip(of) {
                    *a = x & y;
                }
                let mut found = false;
                each_bit(at, |e| {
                    l[slot] = e;
                    found = passes(c, l);
                    !found
                });
                if found {
                    return h as i64;
                }
            }
            return 0;
        }
        let mut acc: Option<i64> = None;
        each.walk(c, l, |e, l| {
            l[slot] = e;
            if passes(c, l) {
                let v = height_of(c, e);
                acc = Some(acc.map_or(v, |a| if max { a.max(v) } else { a.min(v) }));
            }
            true
        });
        acc.unwrap_or(0)
    })
}
