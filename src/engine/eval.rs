//! Evaluation of compiled expressions and execution of compiled effects.
//!
//! Types were checked at load time, so every scalar is an `i64` here: booleans are 0/1,
//! cells, players, kinds and directions are indices, and `none` is -1.

use crate::lang::ast::{AggOp, BinOp};

use super::board::CellId;
use super::natives::{Ctx, Elems, Mut};
use super::program::{CellQuery, Domain, Node, Op, Standalone, frame};
use super::state::{EMPTY_TOP, NEUTRAL, NONE};

impl Standalone {
    /// Evaluates the expression to a scalar, with `first` in slot 0 (the cell of a
    /// `shown_height`; unused elsewhere).
    pub fn eval(&self, c: &Ctx, first: i64) -> i64 {
        let mut locals = frame(self.frame.max(1));
        locals[0] = first;
        eval(&self.node, c, &mut locals)
    }

    /// Evaluates a score: a number (a list of one) or a sorted list.
    pub fn eval_list(&self, c: &Ctx) -> Vec<i64> {
        let mut locals = frame(self.frame);
        eval_list(&self.node, c, &mut locals)
    }
}

/// Evaluates an expression to a scalar.
pub fn eval(node: &Node, c: &Ctx, locals: &mut [i64]) -> i64 {
    match node {
        Node::Const(v) => *v,
        Node::Local(i) => locals[*i as usize],
        Node::Var(slot) => c.state.vars[*slot as usize],
        Node::PlayerVar(slot, p) => {
            let p = eval(p, c, locals);
            if p < 0 {
                0
            } else {
                c.state.vars[*slot as usize + p as usize]
            }
        }
        Node::Owner(x) => {
            let cell = eval(x, c, locals);
            if cell < 0 {
                return NONE;
            }
            match c.state.top_code(cell as CellId) {
                EMPTY_TOP => NONE,
                code if code as u8 == NEUTRAL => NONE,
                code => (code & 0xff) as i64,
            }
        }
        Node::Top(x) => match eval(x, c, locals) {
            cell if cell < 0 => NONE,
            cell => match c.state.top_code(cell as CellId) {
                EMPTY_TOP => NONE,
                code => (code >> 8) as i64,
            },
        },
        Node::Height(x) => match eval(x, c, locals) {
            cell if cell < 0 => 0,
            cell => c.state.stack(cell as CellId).len() as i64,
        },
        Node::Empty(x) => {
            let cell = eval(x, c, locals);
            (cell >= 0 && c.state.top_code(cell as CellId) == EMPTY_TOP) as i64
        }
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
        Node::Call(f, args) => {
            let mut vals = [0i64; 4];
            for (slot, a) in vals.iter_mut().zip(args.iter()) {
                *slot = eval(a, c, locals);
            }
            f(c, &vals[..args.len()])
        }
        Node::Agg(agg) => {
            let mut elems = Elems::new();
            domain(&agg.domain, c, locals, &mut elems);
            let mut acc: Option<i64> = None;
            let mut count = 0i64;
            for e in elems {
                locals[agg.slot as usize] = e;
                if let Some(f) = &agg.filter
                    && eval(f, c, locals) == 0
                {
                    continue;
                }
                if agg.op == AggOp::First {
                    return e;
                }
                if agg.op == AggOp::Last {
                    acc = Some(e);
                    continue;
                }
                let v = agg.body.as_ref().map_or(1, |b| eval(b, c, locals));
                match agg.op {
                    AggOp::Count => count += (v != 0) as i64,
                    AggOp::Any => {
                        if v != 0 {
                            return 1;
                        }
                    }
                    AggOp::All => {
                        if v == 0 {
                            return 0;
                        }
                    }
                    AggOp::Sum => count = count.wrapping_add(v),
                    AggOp::Min => acc = Some(acc.map_or(v, |a| a.min(v))),
                    AggOp::Max => acc = Some(acc.map_or(v, |a| a.max(v))),
                    AggOp::First | AggOp::Last => unreachable!("handled above"),
                    AggOp::SortDesc | AggOp::SortAsc => {
                        unreachable!("lists are evaluated by eval_list")
                    }
                }
            }
            match agg.op {
                AggOp::Any => 0,
                AggOp::All => 1,
                AggOp::Min | AggOp::Max => acc.unwrap_or(0),
                AggOp::First | AggOp::Last => acc.unwrap_or(NONE),
                _ => count,
            }
        }
        Node::List(_) => unreachable!("lists are only iterated"),
    }
}

fn binary(op: BinOp, a: &Node, b: &Node, c: &Ctx, locals: &mut [i64]) -> i64 {
    let x = eval(a, c, locals);
    match op {
        BinOp::And => return (x != 0 && eval(b, c, locals) != 0) as i64,
        BinOp::Or => return (x != 0 || eval(b, c, locals) != 0) as i64,
        _ => {}
    }
    let y = eval(b, c, locals);
    match op {
        BinOp::Eq => (x == y) as i64,
        BinOp::Ne => (x != y) as i64,
        BinOp::Lt => (x < y) as i64,
        BinOp::Le => (x <= y) as i64,
        BinOp::Gt => (x > y) as i64,
        BinOp::Ge => (x >= y) as i64,
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Mul => x.wrapping_mul(y),
        // Division by zero yields 0 rather than a crash: game files are user input.
        BinOp::Div => {
            if y == 0 {
                0
            } else {
                x.wrapping_div(y)
            }
        }
        BinOp::Rem => {
            if y == 0 {
                0
            } else {
                x.wrapping_rem(y)
            }
        }
        BinOp::And | BinOp::Or => unreachable!("handled above"),
    }
}

/// Evaluates an integer-list expression (a `sort_desc`/`sort_asc` aggregate or a scalar,
/// which counts as a list of one).
pub fn eval_list(node: &Node, c: &Ctx, locals: &mut [i64]) -> Vec<i64> {
    if let Node::Agg(agg) = node
        && matches!(agg.op, AggOp::SortDesc | AggOp::SortAsc)
    {
        let mut elems = Elems::new();
        domain(&agg.domain, c, locals, &mut elems);
        let mut out = Vec::new();
        for e in elems {
            locals[agg.slot as usize] = e;
            if let Some(f) = &agg.filter
                && eval(f, c, locals) == 0
            {
                continue;
            }
            out.push(agg.body.as_ref().map_or(e, |b| eval(b, c, locals)));
        }
        out.sort_unstable();
        if agg.op == AggOp::SortDesc {
            out.reverse();
        }
        return out;
    }
    vec![eval(node, c, locals)]
}

/// Fills `out` with the elements of a collection.
pub fn domain(d: &Domain, c: &Ctx, locals: &mut [i64], out: &mut Elems) {
    match d {
        Domain::Native(f, args, _) => {
            let mut vals = [0i64; 4];
            for (slot, a) in vals.iter_mut().zip(args.iter()) {
                *slot = eval(a, c, locals);
            }
            f(c, &vals[..args.len()], out);
        }
        Domain::Cells(query) => match query {
            CellQuery::All => out.extend((0..c.game.board.len()).map(|i| i as i64)),
            CellQuery::TopKind(kind) => match eval(kind, c, locals) {
                k if k >= 0 => c.state.cells_topped_by_kind(k as u8, out),
                _ => c.state.empty_cells(out),
            },
            CellQuery::Empty => c.state.empty_cells(out),
            CellQuery::Occupied => c.state.occupied_cells(out),
            CellQuery::OwnedBy(player) => match eval(player, c, locals) {
                p if p >= 0 => c.state.owned_cells(p as u8, out),
                _ => out.extend((0..c.game.board.len() as CellId).filter_map(|cell| {
                    let code = c.state.top_code(cell);
                    (code == EMPTY_TOP || code as u8 == NEUTRAL).then_some(cell as i64)
                })),
            },
        },
        Domain::List(items) => {
            for item in items.iter() {
                let v = eval(item, c, locals);
                out.push(v);
            }
        }
    }
}

/// Runs effect statements against the position.
pub fn exec(ops: &[Op], m: &mut Mut, locals: &mut [i64]) {
    for op in ops {
        match op {
            Op::If(cond, t, f) => {
                let v = eval(cond, &ctx(m), locals);
                exec(if v != 0 { t } else { f }, m, locals);
            }
            Op::For {
                slot,
                domain: d,
                filter,
                body,
            } => {
                let mut elems = Elems::new();
                domain(d, &ctx(m), locals, &mut elems);
                for e in elems {
                    locals[*slot as usize] = e;
                    if let Some(f) = filter
                        && eval(f, &ctx(m), locals) == 0
                    {
                        continue;
                    }
                    exec(body, m, locals);
                }
            }
            Op::Let(slot, value) => locals[*slot as usize] = eval(value, &ctx(m), locals),
            Op::SetVar(slot, value) => {
                let v = eval(value, &ctx(m), locals);
                m.journal.set_var(m.state, *slot as usize, v);
            }
            Op::SetPlayerVar(slot, player, value) => {
                let p = eval(player, &ctx(m), locals);
                let v = eval(value, &ctx(m), locals);
                if p >= 0 {
                    m.journal.set_var(m.state, *slot as usize + p as usize, v);
                }
            }
            Op::Effect(f, args) => {
                let mut vals = [0i64; 4];
                for (slot, a) in vals.iter_mut().zip(args.iter()) {
                    *slot = eval(a, &ctx(m), locals);
                }
                f(m, &vals[..args.len()]);
            }
        }
    }
}

fn ctx<'a>(m: &'a Mut) -> Ctx<'a> {
    Ctx {
        game: m.game,
        state: m.state,
        me: m.me,
    }
}
