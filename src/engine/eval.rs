//! Evaluation of compiled expressions by walking their trees, and execution of compiled
//! effects.
//!
//! A game's expressions run as closures (`code.rs`): a compiled game meets a tree only
//! at a [`Node::Code`] or a [`SetExpr::Code`], and reaches the walk below them
//! (`eval_node`, `aggregate`, `leaf`) only in the reference the closures are tested
//! against (`compile::compile_tree_walking`). What the other modules call here runs the
//! compiled forms: a collection's elements, a set's cells, a statement list.
//!
//! Types were checked at load time, so every scalar is an `i64` here: booleans are 0/1,
//! cells, players, kinds and directions are indices, and `none` is -1.

use crate::lang::ast::{AggOp, BinOp};

use super::board::CellId;
use super::cellset::{self, WORDS};
use super::natives::{
    Ctx, EffectFn, Elems, Mut, count_kind, empty_of, height_of, owner_of, top_of,
};
use super::program::{Aggregate, Domain, Node, Op, SetExpr, Standalone, frame};
use super::state::{NEUTRAL, NONE, State, height_within};

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

/// Evaluates an expression to a scalar: the commonest leaves here, the rest in
/// `eval_node`.
#[inline(always)]
pub fn eval(node: &Node, c: &Ctx, locals: &mut [i64]) -> i64 {
    match node {
        Node::Const(v) => *v,
        Node::Local(i) => locals[*i as usize],
        Node::Me => c.me as i64,
        Node::Var(slot) => c.state.vars[*slot as usize],
        Node::Code(code) => (code.run)(c, locals),
        _ => eval_node(node, c, locals),
    }
}

/// Evaluates an expression to a scalar.
fn eval_node(node: &Node, c: &Ctx, locals: &mut [i64]) -> i64 {
    match node {
        Node::Const(v) => *v,
        Node::Local(i) => locals[*i as usize],
        Node::Var(slot) => c.state.vars[*slot as usize],
        Node::Pair(kinds, player, kind) => {
            let (player, kind) = (eval(player, c, locals), eval(kind, c, locals));
            if player < 0 || kind < 0 {
                NONE
            } else {
                player * *kinds as i64 + kind
            }
        }
        Node::VarAt(slot, p) => {
            let p = eval(p, c, locals);
            if p < 0 {
                0
            } else {
                c.state.vars[*slot as usize + p as usize]
            }
        }
        Node::Owner(x) => owner_of(c, eval(x, c, locals)),
        Node::Top(x) => top_of(c, eval(x, c, locals)),
        Node::Height(x) => height_of(c, eval(x, c, locals)),
        Node::Empty(x) => empty_of(c, eval(x, c, locals)),
        Node::Count(x, k) => count_kind(c, eval(x, c, locals), eval(k, c, locals)),
        Node::Repetitions => c.state.repetitions(c.me),
        Node::BoardRepeated => c.state.board_repeated() as i64,
        Node::Step(x, d) => super::natives::step(c, eval(x, c, locals), eval(d, c, locals)),
        Node::Groups(p, d) => super::hooks::groups::group_count(
            &c.view(),
            eval(p, c, locals),
            eval(d, c, locals),
            u32::MAX,
        ),
        Node::File(x) => match eval(x, c, locals) {
            x if x >= 0 => c.board.coords[x as usize].0 as i64,
            _ => 0,
        },
        Node::Rank(x) => match eval(x, c, locals) {
            x if x >= 0 => c.board.coords[x as usize].1 as i64,
            _ => 0,
        },
        Node::Bind(slot, value, body) => {
            locals[*slot as usize] = eval(value, c, locals);
            eval(body, c, locals)
        }
        Node::Has(x, k) => match (eval(x, c, locals), eval(k, c, locals)) {
            (x, k) if x >= 0 && (0..64).contains(&k) => c.state.holds(x as CellId, k as u8) as i64,
            (x, k) => (count_kind(c, x, k) > 0) as i64,
        },
        Node::Me => c.me as i64,
        Node::Not(x) => (eval(x, c, locals) == 0) as i64,
        Node::Neg(x) => eval(x, c, locals).wrapping_neg(),
        Node::Binary(op, a, b) => binary(*op, a, b, c, locals),
        Node::If(cond, t, f) => {
            if eval(cond, c, locals) != 0 {
                eval(t, c, locals)
            } else {
                eval(f, c, locals)
            }
        }
        Node::Call(f, args, _) => {
            let mut vals = [0i64; 4];
            for (slot, a) in vals.iter_mut().zip(args.iter()) {
                *slot = eval(a, c, locals);
            }
            f(c, &vals[..args.len()])
        }
        Node::Agg(agg) => aggregate(agg, c, locals),
        Node::Code(code) => (code.run)(c, locals),
        Node::List(_) => unreachable!("lists are only iterated"),
    }
}

fn binary(op: BinOp, a: &Node, b: &Node, c: &Ctx, locals: &mut [i64]) -> i64 {
    let x = eval(a, c, locals);
    match op {
        BinOp::And => (x != 0 && eval(b, c, locals) != 0) as i64,
        BinOp::Or => (x != 0 || eval(b, c, locals) != 0) as i64,
        _ => op.apply(x, eval(b, c, locals)),
    }
}

/// An aggregate's value. Over a set of cells with no filter left, `count` is a popcount
/// and `any` a test for an empty set.
pub(super) fn aggregate(agg: &Aggregate, c: &Ctx, locals: &mut [i64]) -> i64 {
    if let (Domain::Cells(set), None, None) = (&agg.domain, &agg.filter, &agg.body) {
        let at = |x: Option<usize>| x.map_or(NONE, |x| x as i64);
        if let Some(dir) = &agg.along {
            // Along a ray: nearest first, which is the lowest cell index going n, ne, e
            // or nw (cells are numbered rank by rank), the highest going the other ways.
            let d = eval(dir, c, locals);
            let rising = (0..8).contains(&d) && super::board::rising(d as usize);
            let lowest = rising == (agg.op == AggOp::First);
            return with_cells(set, c, locals, |s, _| {
                at(if lowest {
                    cellset::first(s)
                } else {
                    cellset::last(s)
                })
            });
        }
        match agg.op {
            AggOp::Count => return with_cells(set, c, locals, |s, _| cellset::count(s) as i64),
            AggOp::Any => return with_cells(set, c, locals, |s, _| !cellset::is_empty(s) as i64),
            AggOp::First => return with_cells(set, c, locals, |s, _| at(cellset::first(s))),
            AggOp::Last => return with_cells(set, c, locals, |s, _| at(cellset::last(s))),
            _ => {}
        }
    }
    if let (Domain::Cells(set), None, Some(Node::Height(x)), AggOp::Min | AggOp::Max) =
        (&agg.domain, &agg.filter, &agg.body, agg.op)
        && matches!(**x, Node::Local(s) if s == agg.slot)
        && c.state.of_height(0).is_some()
    {
        return height_extreme(set, agg.op == AggOp::Max, c, locals);
    }
    let mut acc: Option<i64> = None;
    let mut count = 0i64;
    let mut result = None;
    each(&agg.domain, c, locals, |e, locals| {
        locals[agg.slot as usize] = e;
        if let Some(f) = &agg.filter
            && eval(f, c, locals) == 0
        {
            return true;
        }
        if agg.op == AggOp::First {
            result = Some(e);
            return false;
        }
        if agg.op == AggOp::Last {
            acc = Some(e);
            return true;
        }
        let v = agg.body.as_ref().map_or(1, |b| eval(b, c, locals));
        match agg.op {
            AggOp::Count => count += (v != 0) as i64,
            AggOp::Any if v != 0 => {
                result = Some(1);
                return false;
            }
            AggOp::All if v == 0 => {
                result = Some(0);
                return false;
            }
            AggOp::Any | AggOp::All => {}
            AggOp::Sum => count = count.wrapping_add(v),
            AggOp::Min => acc = Some(acc.map_or(v, |a| a.min(v))),
            AggOp::Max => acc = Some(acc.map_or(v, |a| a.max(v))),
            AggOp::First | AggOp::Last => unreachable!("handled above"),
            AggOp::SortDesc | AggOp::SortAsc => {
                unreachable!("lists are evaluated by eval_list")
            }
        }
        true
    });
    if let Some(r) = result {
        return r;
    }
    match agg.op {
        AggOp::Any => 0,
        AggOp::All => 1,
        AggOp::Min | AggOp::Max => acc.unwrap_or(0),
        AggOp::First | AggOp::Last => acc.unwrap_or(NONE),
        _ => count,
    }
}

/// The least (or, with `max`, the greatest) height of a stack in `set` (0 for no cell),
/// from the position's cells by height: a few intersections instead of a height per cell.
fn height_extreme(set: &SetExpr, max: bool, c: &Ctx, locals: &mut [i64]) -> i64 {
    with_cells(set, c, locals, |s, _| {
        extreme_height(s, max, c.state).map_or(0, |h| h as i64)
    })
}

/// The least (or, with `max`, the greatest) height of a stack among the cells `s`, from
/// the position's cells by height (which it keeps: [`State::of_height`]); `None` for no
/// cell.
#[inline(always)]
pub(super) fn extreme_height(s: &[u64], max: bool, state: &State) -> Option<usize> {
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
    if let SetExpr::Code(code) = set {
        return code.with(c, locals, f);
    }
    macro_rules! sized {
        ($($w:literal)*) => {
            match c.state.words() {
                $($w => {
                    let s = cells::<$w>(set, c, locals);
                    f(&s, locals)
                })*
                w => unreachable!("a board of {w} words"),
            }
        };
    }
    sized!(1 2 3 4 5 6 7 8 9 10 11)
}

/// Works out a set of cells into `out`; returns how many words the board's sets have.
#[inline]
pub fn cells_into(set: &SetExpr, c: &Ctx, locals: &mut [i64], out: &mut [u64; WORDS]) -> usize {
    with_cells(set, c, locals, |s, _| {
        out[..s.len()].copy_from_slice(s);
        s.len()
    })
}

/// The words of a cached set, as an array of the board's size.
#[inline]
fn words<const W: usize>(s: &[u64]) -> [u64; W] {
    s.try_into().expect("a set of the board's size")
}

/// Works out a set of cells on a board whose sets have `W` words.
fn cells<const W: usize>(set: &SetExpr, c: &Ctx, locals: &mut [i64]) -> [u64; W] {
    match set {
        SetExpr::Conj(terms) => {
            let mut acc: [u64; W] = words(c.board.all());
            for (negated, term) in terms.iter() {
                let x = leaf::<W>(term, c, locals);
                let mut any = 0;
                for (a, x) in acc.iter_mut().zip(x) {
                    *a &= if *negated { !x } else { x };
                    any |= *a;
                }
                if any == 0 {
                    break;
                }
            }
            acc
        }
        SetExpr::Or(a, b) => {
            let mut a = cells::<W>(a, c, locals);
            let b = cells::<W>(b, c, locals);
            for (x, y) in a.iter_mut().zip(b) {
                *x |= y;
            }
            a
        }
        leaf_set => leaf::<W>(leaf_set, c, locals),
    }
}

/// Works out a set that is not a combination of others (those go back to [`cells`]).
#[inline]
pub(super) fn leaf<const W: usize>(set: &SetExpr, c: &Ctx, locals: &mut [i64]) -> [u64; W] {
    let (board, state) = (c.board, c.state);
    let minus = |mut a: [u64; W], b: &[u64]| {
        for (x, y) in a.iter_mut().zip(b) {
            *x &= !y;
        }
        a
    };
    match set {
        SetExpr::All => words(board.all()),
        SetExpr::Empty => minus(words(board.all()), state.occupied()),
        SetExpr::Occupied => words(state.occupied()),
        SetExpr::OwnedBy(p) => match eval(p, c, locals) {
            p if p >= 0 => words(state.owned(p as u8)),
            _ => {
                let mut s = minus(words(board.all()), state.occupied());
                for (x, y) in s.iter_mut().zip(state.owned(NEUTRAL)) {
                    *x |= y;
                }
                s
            }
        },
        SetExpr::TopKind(k) => match eval(k, c, locals) {
            k if k >= 0 && k < c.state.kinds() as i64 => words(state.topped_by_kind(k as u8)),
            k if k >= 0 => [0; W],
            _ => minus(words(board.all()), state.occupied()),
        },
        SetExpr::Test(t) => words(state.passing(*t)),
        SetExpr::Mask(m) => words(board.mask(*m)),
        SetExpr::Holding(k) => words(state.holding(*k)),
        SetExpr::HeightNear(h, radius) => heights_near(c, eval(h, c, locals), *radius),
        SetExpr::Single(x) => {
            let mut s = [0; W];
            match eval(x, c, locals) {
                x if x >= 0 && (x as usize) < board.len() => cellset::insert(&mut s, x as usize),
                _ => {}
            }
            s
        }
        SetExpr::Leaps(x, table) => match eval(x, c, locals) {
            x if x >= 0 => words(board.leaps(*table, x as CellId)),
            _ => [0; W],
        },
        SetExpr::Neighbours(x, table) => match eval(x, c, locals) {
            x if x >= 0 => words(board.neighbours(*table, x as CellId)),
            _ => [0; W],
        },
        SetExpr::Group(x, dirs) => {
            let mut set = [0u64; WORDS];
            let (cell, dirs) = (eval(x, c, locals), eval(dirs, c, locals));
            super::hooks::groups::group_cells(&c.view(), cell, dirs, &mut set);
            words(&set[..W])
        }
        SetExpr::Slide(x, d) => slide::<W>(c, eval(x, c, locals), eval(d, c, locals)),
        SetExpr::Ray(x, d) => match (eval(x, c, locals), eval(d, c, locals)) {
            (x, d) if x >= 0 && (0..8).contains(&d) => words(board.ray(x as CellId, d as usize)),
            _ => [0; W],
        },
        SetExpr::Adjacent(x, dirs) => {
            let mut s = [0; W];
            let (cell, dirs) = (eval(x, c, locals), eval(dirs, c, locals));
            if cell >= 0 {
                board.add_adjacent(cell as CellId, dirs as u8, &mut s);
            }
            s
        }
        SetExpr::When(cond) => {
            if eval(cond, c, locals) != 0 {
                words(board.all())
            } else {
                [0; W]
            }
        }
        SetExpr::Code(code) => code.with(c, locals, |s, _| words(s)),
        SetExpr::Near(s, table) => {
            let inner = cells::<W>(s, c, locals);
            let mut near = words(board.all());
            board.near(*table, &inner, &mut near);
            near
        }
        SetExpr::Conj(_) | SetExpr::Or(..) => cells::<W>(set, c, locals),
    }
}

/// The cells whose height is within `radius` of `value` ([`SetExpr::HeightNear`]): read
/// from the position's cells by height, or, where it keeps none, each stack measured.
#[inline]
pub(super) fn heights_near<const W: usize>(c: &Ctx, value: i64, radius: i64) -> [u64; W] {
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

/// Runs effect statements against the position.
pub fn exec(ops: &[Op], m: &mut Mut, locals: &mut [i64]) {
    for op in ops {
        match op {
            Op::If(cond, t, f) => {
                let v = eval(cond, &m.ctx(), locals);
                exec(if v != 0 { t } else { f }, m, locals);
            }
            Op::For {
                slot,
                domain: d,
                filter,
                body,
            } => for_each(d, filter.as_ref(), *slot, m, locals, |m, l| {
                exec(body, m, l)
            }),
            Op::Let(slot, value) => locals[*slot as usize] = eval(value, &m.ctx(), locals),
            Op::SetVar(slot, value) => {
                let v = eval(value, &m.ctx(), locals);
                m.journal.set_var(m.state, *slot as usize, v);
            }
            Op::SetVarAt(slot, player, value) => {
                let p = eval(player, &m.ctx(), locals);
                let v = eval(value, &m.ctx(), locals);
                if p >= 0 {
                    m.journal.set_var(m.state, *slot as usize + p as usize, v);
                }
            }
            Op::Effect(f, args, _) => call_effect(*f, args, m, locals),
        }
    }
}

/// Runs `body` for each element, with `slot` bound to it, of a `for` statement's
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
pub(super) fn slide<const W: usize>(c: &Ctx, x: i64, d: i64) -> [u64; W] {
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
