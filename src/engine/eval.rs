//! What runs a program whose expressions, sets and statements were made into code at
//! load (`engine::lowering`): an expression read where it stands or through its code, a
//! collection's elements, a set's cells, a sorted list, a statement's loop and native
//! effect. Nothing here walks a tree: the product's code is closures (`code.rs`), and the
//! tree walk they are proved equal to lives in the test suite (`tests/walk.rs`).
//!
//! Types were checked at load time, so every scalar is an `i64` here: booleans are 0/1,
//! cells, players, kinds and directions are indices, and `none` is -1.

use crate::lang::ast::AggOp;

use super::board::CellId;
use super::cellset::{self, WORDS};
use super::natives::{Ctx, EffectFn, Elems, Mut};
use super::program::{Domain, Node, SetExpr, Standalone, frame};
use super::state::{State, height_within};

impl Standalone {
    /// Evaluates the expression to a scalar, with `first` in slot 0 (the cell of a
    /// `shown_height`; unused elsewhere).
    pub fn eval(&self, c: &Ctx, first: i64) -> i64 {
        match self.node {
            Node::Const(v) => v,
            _ if self.frame <= 4 => eval(&self.node, c, &mut [first, 0, 0, 0]),
            _ => {
                let mut locals = frame(self.frame);
                locals[0] = first;
                eval(&self.node, c, &mut locals)
            }
        }
    }

    /// Evaluates a score: a number (a list of one) or a sorted list.
    pub fn eval_list(&self, c: &Ctx) -> Vec<i64> {
        let mut locals = frame(self.frame);
        eval_list(&self.node, c, &mut locals)
    }
}

/// Evaluates an expression to a scalar: a name or a constant read where it stands, else
/// its code. Every other expression was replaced by its code at load
/// (`compile::closures`), in the product and in the test suite's reference alike.
#[inline(always)]
pub fn eval(node: &Node, c: &Ctx, locals: &mut [i64]) -> i64 {
    match node {
        Node::Const(v) => *v,
        Node::Local(i) => locals[*i as usize],
        Node::Me => c.me as i64,
        Node::Var(slot) => c.state.vars[*slot as usize],
        Node::Code(code) => (code.run)(c, locals),
        _ => unreachable!("an expression left without its code at load"),
    }
}

/// The least (or, with `max`, the greatest) height of a stack among the cells `s`, from
/// the position's cells by height (which it keeps: [`State::of_height`]); `None` for no
/// cell.
#[inline(always)]
pub fn extreme_height(s: &[u64], max: bool, state: &State) -> Option<usize> {
    let sets = state.by_heights()?;
    if let [x] = s {
        // One word a set (boards of 64 cells or fewer): no inner loop.
        let meets = |set: &u64| set & x != 0;
        return if max {
            sets.iter().rposition(meets)
        } else {
            sets.iter().position(meets)
        };
    }
    debug_assert_eq!(s.len(), state.words(), "a set of the board's size");
    let meets = |set: &[u64]| set.iter().zip(s).any(|(a, b)| a & b != 0);
    let mut heights = sets.chunks_exact(s.len());
    if max {
        heights.rposition(meets)
    } else {
        heights.position(meets)
    }
}

/// Evaluates an integer-list expression (a `sort_desc`/`sort_asc` aggregate or a scalar,
/// which counts as a list of one).
pub fn eval_list(node: &Node, c: &Ctx, locals: &mut [i64]) -> Vec<i64> {
    if let Node::Agg(agg) = node
        && matches!(agg.op, AggOp::SortDesc | AggOp::SortAsc)
    {
        let mut out = Vec::new();
        each(&agg.domain, c, locals, |e, locals| {
            locals[agg.slot as usize] = e;
            if agg.filter.as_ref().is_none_or(|f| eval(f, c, locals) != 0) {
                out.push(agg.body.as_ref().map_or(e, |b| eval(b, c, locals)));
            }
            true
        });
        out.sort_unstable();
        if agg.op == AggOp::SortDesc {
            out.reverse();
        }
        return out;
    }
    vec![eval(node, c, locals)]
}

/// Calls `f` with each element of a collection in its order (cell order for sets of
/// cells) and the local slots, until it returns false.
#[inline]
pub fn each(d: &Domain, c: &Ctx, locals: &mut [i64], mut f: impl FnMut(i64, &mut [i64]) -> bool) {
    match d {
        Domain::Cells(set) => {
            let mut words = [0u64; WORDS];
            let n = cells_into(set, c, locals, &mut words);
            for (w, &word) in words[..n].iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let e = (w * 64 + bits.trailing_zeros() as usize) as i64;
                    bits &= bits - 1;
                    if !f(e, locals) {
                        return;
                    }
                }
            }
        }
        _ => {
            let mut elems = Elems::new();
            domain(d, c, locals, &mut elems);
            for &e in elems.iter() {
                if !f(e, locals) {
                    return;
                }
            }
        }
    }
}

/// Fills `out` with the elements of a collection.
pub fn domain(d: &Domain, c: &Ctx, locals: &mut [i64], out: &mut Elems) {
    match d {
        Domain::Native(native, args) => {
            let mut vals = [0i64; 4];
            for (slot, a) in vals.iter_mut().zip(args.iter()) {
                *slot = eval(a, c, locals);
            }
            (native.f)(c, &vals[..args.len()], out);
        }
        Domain::Cells(set) => with_cells(set, c, locals, |s, _| {
            out.extend(cellset::members(s).map(|x| x as i64))
        }),
        Domain::List(items) => {
            for item in items.iter() {
                let v = eval(item, c, locals);
                out.push(v);
            }
        }
        Domain::Steps { cell, dirs, target } => {
            let mask = steps(cell, dirs, target, c, locals);
            out.extend(cellset::members(&[mask]).map(|d| d as i64));
        }
    }
}

/// The directions of a [`Domain::Steps`], a bit each.
#[inline]
pub fn steps(cell: &Node, dirs: &Node, target: &SetExpr, c: &Ctx, locals: &mut [i64]) -> u64 {
    let cell = eval(cell, c, locals);
    if cell < 0 {
        return 0;
    }
    let board = c.board;
    let mut left = (eval(dirs, c, locals) & 0xff) as u8 & board.link_dirs(cell as CellId);
    with_cells(target, c, locals, |target, _| {
        let mut mask = 0u64;
        while left != 0 {
            let d = left.trailing_zeros() as usize;
            left &= left - 1;
            if let Some(to) = board.step(cell as CellId, d)
                && cellset::contains(target, to as usize)
            {
                mask |= 1 << d;
            }
        }
        mask
    })
}

/// Works out a set of cells and hands it to `f` (with the local slots back): the set is
/// computed with as many words as the board's sets have, fixed at compile time for each
/// size, so a set on a board of up to 64 cells is one word in a register.
#[inline]
pub fn with_cells<R>(
    set: &SetExpr,
    c: &Ctx,
    locals: &mut [i64],
    f: impl FnOnce(&[u64], &mut [i64]) -> R,
) -> R {
    match set {
        SetExpr::Code(code) => code.with(c, locals, f),
        _ => unreachable!("a set left without its code at load"),
    }
}

/// Works out a set of cells into `out`; returns how many words the board's sets have.
#[inline]
pub fn cells_into(set: &SetExpr, c: &Ctx, locals: &mut [i64], out: &mut [u64; WORDS]) -> usize {
    with_cells(set, c, locals, |s, _| {
        out[..s.len()].copy_from_slice(s);
        s.len()
    })
}

/// The cells whose height is within `radius` of `value` ([`SetExpr::HeightNear`]): read
/// from the position's cells by height, or, where it keeps none, each stack measured.
#[inline]
pub fn heights_near<const W: usize>(c: &Ctx, value: i64, radius: i64) -> [u64; W] {
    let mut s = [0; W];
    if radius == 0 {
        // As tall as the value: one kept set, read as it is.
        match c.state.of_height(value) {
            Some([]) => return s,
            Some(set) => return words(set),
            None => {}
        }
    } else if c.state.of_heights_near(value, radius, &mut s) {
        return s;
    }
    // Not kept (never, once the optimiser asked for it, until a stack reaches 65,534
    // pieces: `State::of_height`): test each cell.
    for cell in 0..c.board.len() {
        let height = c.state.stack(cell as CellId).len() as i64;
        if height_within(height, value, radius) {
            cellset::insert(&mut s, cell);
        }
    }
    s
}

/// collection as it was when the loop started (the body may change the position) that
/// passes the filter.
pub fn for_each(
    d: &Domain,
    filter: Option<&Node>,
    slot: u16,
    m: &mut Mut,
    locals: &mut [i64],
    mut body: impl FnMut(&mut Mut, &mut [i64]),
) {
    let mut elems = Elems::new();
    domain(d, &m.ctx(), locals, &mut elems);
    for &e in elems.iter() {
        locals[slot as usize] = e;
        if let Some(f) = filter
            && eval(f, &m.ctx(), locals) == 0
        {
            continue;
        }
        body(m, locals);
    }
}

/// Calls a native effect with its arguments worked out.
pub fn call_effect(f: EffectFn, args: &[Node], m: &mut Mut, locals: &mut [i64]) {
    let mut vals = [0i64; 4];
    for (slot, a) in vals.iter_mut().zip(args.iter()) {
        *slot = eval(a, &m.ctx(), locals);
    }
    f(m, &vals[..args.len()]);
}

/// `slide(x, d)`: the cells of the ray from `x` towards `d` before the first occupied one
/// (none for no cell or no direction). Shared by the tree-walker and the compiled sets.
pub fn slide<const W: usize>(c: &Ctx, x: i64, d: i64) -> [u64; W] {
    let (board, state) = (c.board, c.state);
    match (x, d) {
        (x, d) if x >= 0 && (0..8).contains(&d) => {
            let ray: [u64; W] = words(board.ray(x as CellId, d as usize));
            let mut blockers = ray;
            for (b, o) in blockers.iter_mut().zip(state.occupied()) {
                *b &= o;
            }
            // Nearest first: the lowest index going n, ne, e or nw, the highest the
            // other ways; the cells kept are those nearer than the first blocker.
            let rising = super::board::rising(d as usize);
            let nearest = if rising {
                cellset::first(&blockers)
            } else {
                cellset::last(&blockers)
            };
            match nearest {
                None => ray,
                Some(b) => {
                    let mut s = ray;
                    for (i, w) in s.iter_mut().enumerate() {
                        let (lo, hi) = (i * 64, i * 64 + 64);
                        let keep = if rising {
                            match b {
                                b if b >= hi => u64::MAX,
                                b if b <= lo => 0,
                                b => (1u64 << (b - lo)) - 1,
                            }
                        } else {
                            match b {
                                b if b < lo => u64::MAX,
                                b if b >= hi - 1 => 0,
                                b => !((1u64 << (b - lo + 1)) - 1),
                            }
                        };
                        *w &= keep;
                    }
                    s
                }
            }
        }
        _ => [0; W],
    }
}

/// The words of a set, as an array of the board's size.
#[inline]
fn words<const W: usize>(s: &[u64]) -> [u64; W] {
    s.try_into().expect("a set of the board's size")
}
