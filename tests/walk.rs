//! The reference the product's code is proved equal to: a plain walk of the program's
//! trees, supplied to `compile::compile_reference` as its lowering. Each expression's
//! code matches on its node at every evaluation and evaluates the node's parts (each
//! wrapped the same way); each set's code matches on its set; each effect walks its
//! statements. Nothing here is fast, and nothing here reads a shape to skip work.
//!
//! `compiled`, `positions`, `semantics` and `hooks` play games both ways and compare.

use std::sync::Arc;

use rulebook::compile;
use rulebook::engine::board::{self, CellId};
use rulebook::engine::cellset::{self, WORDS};
use rulebook::engine::effect::Effect;
use rulebook::engine::eval::{call_effect, each, eval, for_each, heights_near, slide, with_cells};
use rulebook::engine::game::Game;
use rulebook::engine::hooks::groups;
use rulebook::engine::lowering::{Lowering, read_at_once};
use rulebook::engine::natives::{
    self, Ctx, Mut, count_kind, empty_of, height_of, owner_of, top_of,
};
use rulebook::engine::program::{
    Aggregate, Cells, Code, Domain, MakeCells, Node, Op, Recur, SetCode, SetExpr,
};
use rulebook::engine::state::{NEUTRAL, NONE};
use rulebook::lang::ast::{AggOp, BinOp};
use rulebook::spec::{self, diag::Diagnostic};

/// Compiles a game file with every expression, set and statement walked (see the module
/// documentation), with `params` as `--param` overrides.
pub fn compile(src: &spec::Source, params: &[(String, String)]) -> Result<Game, Box<Diagnostic>> {
    compile::compile_reference(src, params, &|g: &Game| {
        Box::new(Walk {
            words: g.board.all().len(),
        })
    })
}

/// The reference's lowering: a walk of each tree, for a board of `words` words.
struct Walk {
    words: usize,
}

impl Lowering for Walk {
    fn wrap(&self, node: &mut Node) {
        if read_at_once(node) {
            return;
        }
        let mut tree = std::mem::replace(node, Node::Const(0));
        self.wrap_inside(&mut tree);
        let walked = tree.clone();
        *node = Node::Code(Arc::new(Code {
            node: tree,
            run: Box::new(move |c, l| eval_node(&walked, c, l)),
        }));
    }

    fn wrap_set(&self, set: &mut SetExpr) {
        if matches!(set, SetExpr::Code(_)) {
            return;
        }
        self.wrap_in_set(set);
        let code = SetCode::new(set.clone(), self.words, &Walked(set.clone()));
        *set = SetExpr::Code(Arc::new(code));
    }

    fn effect(&self, ops: &[Op]) -> Effect {
        let ops = ops.to_vec();
        Effect::from_run(Box::new(move |m, l| exec(&ops, m, l)))
    }
}

/// A set whose code walks it.
struct Walked(SetExpr);

impl MakeCells for Walked {
    fn make<const W: usize>(&self) -> Cells<W> {
        let set = self.0.clone();
        Box::new(move |c, l| cells::<W>(&set, c, l))
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
        Node::Step(x, d) => natives::step(c, eval(x, c, locals), eval(d, c, locals)),
        Node::Groups(p, d) => {
            groups::group_count(&c.view(), eval(p, c, locals), eval(d, c, locals), u32::MAX)
        }
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
        Node::Recur(call) => recur(call, c, locals),
    }
}

/// A call of a recursive function, as the format describes it: the arguments in order,
/// then the body in a fresh frame with the parameters first and the call's depth after
/// them; a call deeper than the function's `depth` is not made, but noted, and gives
/// `none` (0 for a number or a condition).
fn recur(call: &Recur, c: &Ctx, locals: &mut [i64]) -> i64 {
    let f = call.callee.upgrade().expect("the game holds its functions");
    let depth = call.depth.map_or(0, |slot| locals[slot as usize]) + 1;
    if depth > f.depth {
        f.exceed();
        return f.past;
    }
    let (body, size) = f.code.get().expect("compiled with the game");
    let mut frame = vec![0; *size];
    for (i, arg) in call.args.iter().enumerate() {
        frame[i] = eval(arg, c, locals);
    }
    frame[f.params] = depth;
    eval(body, c, &mut frame)
}
fn binary(op: BinOp, a: &Node, b: &Node, c: &Ctx, locals: &mut [i64]) -> i64 {
    let x = eval(a, c, locals);
    match op {
        BinOp::And => (x != 0 && eval(b, c, locals) != 0) as i64,
        BinOp::Or => (x != 0 || eval(b, c, locals) != 0) as i64,
        _ => op.apply(x, eval(b, c, locals)),
    }
}

/// An aggregate's value: the elements in order, the filter and the body evaluated for
/// each (a set of cells with neither is read as a set: its count, whether it is empty, its
/// first or last cell, nearest first along a ray).
fn aggregate(agg: &Aggregate, c: &Ctx, locals: &mut [i64]) -> i64 {
    if let (Domain::Cells(set), None, None) = (&agg.domain, &agg.filter, &agg.body) {
        let at = |x: Option<usize>| x.map_or(NONE, |x| x as i64);
        if let Some(dir) = &agg.along {
            // Along a ray: nearest first, which is the lowest cell index going n, ne, e
            // or nw (cells are numbered rank by rank), the highest going the other ways.
            let d = eval(dir, c, locals);
            let rising = (0..8).contains(&d) && board::rising(d as usize);
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
fn leaf<const W: usize>(set: &SetExpr, c: &Ctx, locals: &mut [i64]) -> [u64; W] {
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
            groups::group_cells(&c.view(), cell, dirs, &mut set);
            words(&set[..W])
        }
        SetExpr::Reach(x, dirs) => {
            let mut set = [0u64; WORDS];
            let (cell, dirs) = (eval(x, c, locals), eval(dirs, c, locals));
            groups::reachable(&c.view(), cell, dirs, &mut set);
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
/// Runs effect statements against the position.
fn exec(ops: &[Op], m: &mut Mut, locals: &mut [i64]) {
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
