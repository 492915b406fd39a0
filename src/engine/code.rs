//! Expressions compiled to closures: what plies, checks and end rules run instead of
//! walking the expression tree (the pass that calls it is `compile::closures`).
//!
//! Applies: to every expression a game evaluates, after the optimiser: every node and
//! every set has its closure, so a compiled game never walks a tree (aggregates over any
//! collection share one fold, `engine::fold`).
//! Guarantees: every value the tree walk of the test suite (`tests/walk.rs`) gives.
//! Proved by: `compiled::compiled_expressions_play_every_game_as_the_tree_walker_does`,
//! `compiled::compiled_expressions_agree_on_long_games`, and the generated expressions and
//! actions of `positions` and `semantics`, each played both ways.
//! More: docs/engine.md, "Closures".

use std::sync::Arc;

use crate::lang::ast::{AggOp, BinOp};

use super::board::{Board, CellId};
use super::cellset::WORDS;
use super::effect::Effect;
use super::eval;
use super::fold::{self, ElemWalk, Elements, SetWalk};
use super::hooks::groups;
use super::kept::{Kept, KeptHead, Reach, flip};
use super::lowering::{Lowering, read_at_once};
use super::natives::{Ctx, count_kind, empty_of, height_of, owner_of, top_of};
use super::program::{
    self, Aggregate, Arg, Cells, Choice, Code, Domain, MakeCells, Node, Op, Part, Recur, Scalar,
    SetCode, SetExpr, directions_args,
};
use super::shape::PairShape;
use super::state::{NEUTRAL, NONE, State};

/// Builds a set's closure for a board of `W` words ([`MakeCells`]).
struct SetMaker<'s, 'k> {
    set: &'s SetExpr,
    k: &'s Kit<'k>,
}

impl MakeCells for SetMaker<'_, '_> {
    fn make<const W: usize>(&self) -> Cells<W> {
        cells::<W>(self.set, self.k)
    }
}

/// A call of a recursive function: its arguments worked out in the caller's frame, then
/// its body's code run in a frame of its own (inline, no allocation, for a body of up to
/// `FRAME_INLINE` slots), one call deeper than the caller; past the function's `depth`
/// the call is not made, the function notes it (the game then reports the error) and
/// gives its `past` value.
fn recur(call: &Recur, k: &Kit) -> Scalar {
    let callee = call.callee.clone();
    let args: Vec<Scalar> = call.args.iter().map(|a| k.scalar(a)).collect();
    let depth = call.depth.map(usize::from);
    Box::new(move |c, l| {
        let Some(f) = callee.upgrade() else {
            return NONE;
        };
        let deep = depth.map_or(0, |d| l[d]) + 1;
        let Some((body, size)) = f.code.get().filter(|_| deep <= f.depth) else {
            f.exceed();
            return f.past;
        };
        let mut frame = program::frame(*size);
        for (slot, arg) in frame.iter_mut().zip(&args) {
            *slot = arg(c, l);
        }
        frame[f.params] = deep;
        eval::eval(body, c, &mut frame)
    })
}

/// A set compiled for the board's number of words.
fn set_code(set: &SetExpr, k: &Kit) -> SetCode {
    SetCode::new(set.clone(), k.words, &SetMaker { set, k })
}

/// A set's terms, as a conjunction's (each with whether its complement is meant).
fn terms(set: &SetExpr) -> Vec<(bool, &SetExpr)> {
    match set {
        SetExpr::Conj(terms) => terms.iter().map(|(n, t)| (*n, t)).collect(),
        _ => vec![(false, set)],
    }
}

/// Calls a function generic over the board's number of words with the game's own.
macro_rules! by_words {
    ($words:expr, $f:ident($($arg:expr),*)) => {
        match $words {
            1 => $f::<1>($($arg),*),
            2 => $f::<2>($($arg),*),
            3 => $f::<3>($($arg),*),
            4 => $f::<4>($($arg),*),
            5 => $f::<5>($($arg),*),
            6 => $f::<6>($($arg),*),
            7 => $f::<7>($($arg),*),
            8 => $f::<8>($($arg),*),
            9 => $f::<9>($($arg),*),
            10 => $f::<10>($($arg),*),
            11 => $f::<11>($($arg),*),
            w => unreachable!("a board of {w} words"),
        }
    };
}

/// What compiling needs to know of the game: constant masks and sizes. The pass that
/// compiles a whole game (`compile::closures`) hands it each expression.
pub struct Kit<'g> {
    board: &'g Board,
    /// The game's first position: every position keeps its sets in the same order.
    layout: &'g State,
    kinds: usize,
    words: usize,
}

/// A term of a conjunction that the position keeps as a set.
enum Numbered {
    /// The set of this number (see [`State::cached_words`]).
    Fixed(usize),
    /// The cells the player to move owns.
    Mine,
}

impl<'g> Kit<'g> {
    /// The kit for a game on `board` whose first position is `layout` (every position
    /// keeps its sets in the same order), with `kinds` kinds of piece.
    pub fn new(board: &'g Board, layout: &'g State, kinds: usize) -> Kit<'g> {
        Kit {
            board,
            layout,
            kinds,
            words: board.all().len(),
        }
    }

    /// Whether the position keeps a set of cells as it is, and which.
    fn numbered(&self, set: &SetExpr) -> Option<Numbered> {
        let state = self.layout;
        let number = match set {
            SetExpr::Occupied => state.occupied_number(),
            SetExpr::Test(t) => state.test_number(*t),
            SetExpr::Holding(kind) => state.holding_number(*kind),
            SetExpr::OwnedBy(p) => match **p {
                Node::Me => return Some(Numbered::Mine),
                Node::Const(p) if (0..NEUTRAL as i64).contains(&p) => state.owned_number(p as u8),
                _ => return None,
            },
            SetExpr::TopKind(kind) => match **kind {
                Node::Const(x) if (0..self.kinds as i64).contains(&x) => state.kind_number(x as u8),
                _ => return None,
            },
            _ => return None,
        };
        Some(Numbered::Fixed(number))
    }

    /// The terms of a conjunction (each with whether its complement is meant) as sets
    /// the position keeps, if every one is one of them (the mover's cells once at most).
    fn kept<'s>(&self, terms: impl IntoIterator<Item = (bool, &'s SetExpr)>) -> Option<Kept> {
        let mut numbers = Vec::new();
        let mut mine = None;
        for (negated, term) in terms {
            if !negated && matches!(term, SetExpr::All) {
                continue;
            }
            match self.kept_term(negated, term)? {
                (Numbered::Fixed(i), negated) => numbers.push((i, flip(negated))),
                (Numbered::Mine, negated) if mine.is_none() => mine = Some(flip(negated)),
                (Numbered::Mine, _) => return None,
            }
        }
        Some(Kept::new(numbers, mine))
    }

    /// A term of a conjunction as a set the position keeps, and whether its complement is
    /// meant (`empty(x)` is the occupied cells' complement); `None` where it is no such set.
    fn kept_term(&self, negated: bool, term: &SetExpr) -> Option<(Numbered, bool)> {
        match term {
            SetExpr::Empty => Some((Numbered::Fixed(self.layout.occupied_number()), !negated)),
            _ => Some((self.numbered(term)?, negated)),
        }
    }

    /// `action`'s head as kept sets, where it is a pair head whose pieces are kept sets
    /// and whose last choice is a step from the piece or its neighbours within kept sets,
    /// or its link directions (see `engine::kept`).
    pub fn kept_head(&self, shape: PairShape, part: &Part) -> Option<KeptHead> {
        let Choice::In {
            slot,
            domain: Domain::Cells(pieces),
            filter: None,
            ..
        } = &part.choices[shape.first as usize]
        else {
            return None;
        };
        let Choice::In {
            domain,
            filter: None,
            ..
        } = &part.choices[shape.last as usize]
        else {
            return None;
        };
        let at_piece = |cell: &Node| matches!(*cell, Node::Local(s) if s == *slot);
        let (reach, target) = match domain {
            Domain::Steps { cell, dirs, target } if at_piece(cell) => {
                let Node::Const(dirs) = **dirs else {
                    return None;
                };
                (Reach::Steps((dirs & 0xff) as u8), self.kept(terms(target))?)
            }
            Domain::Native(native, args) if native.name == "directions" => {
                let (cell, dirs) = directions_args(args)?;
                (cell == usize::from(*slot)).then_some(())?;
                (Reach::Links(dirs), Kept::new(Vec::new(), None))
            }
            Domain::Cells(set) => {
                let mut table = None;
                let mut rest = Vec::new();
                for (negated, term) in terms(set) {
                    match term {
                        SetExpr::Neighbours(cell, t)
                            if !negated && table.is_none() && at_piece(cell) =>
                        {
                            table = Some(*t);
                        }
                        _ => rest.push((negated, term)),
                    }
                }
                (Reach::Neighbours(table?), self.kept(rest)?)
            }
            _ => return None,
        };
        Some(KeptHead {
            pieces: self.kept(terms(pieces))?,
            reach,
            target,
        })
    }

    /// The closure that writes out the elements of a collection, in its order.
    fn elements(&self, d: &Domain) -> Elements {
        match d {
            Domain::Native(native, args) => {
                let f = native.f;
                let plain: Option<Vec<Arg>> = args.iter().map(Arg::of).collect();
                match plain.as_deref() {
                    Some(&[a]) => return Box::new(move |c, l, out| f(c, &[a.get(c.me, l)], out)),
                    Some(&[a, b]) => {
                        return Box::new(move |c, l, out| {
                            f(c, &[a.get(c.me, l), b.get(c.me, l)], out)
                        });
                    }
                    _ => {}
                }
                let args: Vec<Scalar> = args.iter().map(|a| self.scalar(a)).collect();
                Box::new(move |c, l, out| {
                    let mut vals = [0i64; 4];
                    for (v, a) in vals.iter_mut().zip(&args) {
                        *v = a(c, l);
                    }
                    f(c, &vals[..args.len()], out)
                })
            }
            Domain::List(items) => {
                let items: Vec<Scalar> = items.iter().map(|a| self.scalar(a)).collect();
                Box::new(move |c, l, out| {
                    for item in &items {
                        let v = item(c, l);
                        out.push(v);
                    }
                })
            }
            Domain::Cells(set) => by_words!(self.words, members(set, self)),
            Domain::Steps { cell, dirs, target } => {
                by_words!(self.words, steps(cell, dirs, target, self))
            }
        }
    }

    /// The closure of a scalar expression.
    fn scalar(&self, node: &Node) -> Scalar {
        match node {
            Node::Const(v) => {
                let v = *v;
                Box::new(move |_, _| v)
            }
            Node::Local(i) => {
                let i = *i as usize;
                Box::new(move |_, l| l[i])
            }
            Node::Var(slot) => {
                let slot = *slot as usize;
                Box::new(move |c, _| c.state.vars[slot])
            }
            Node::Me => Box::new(|c, _| c.me as i64),
            Node::VarAt(slot, p) => {
                let slot = *slot as usize;
                if let Node::Me = **p {
                    return Box::new(move |c, _| c.state.vars[slot + c.me as usize]);
                }
                let p = self.scalar(p);
                Box::new(move |c, l| match p(c, l) {
                    p if p < 0 => 0,
                    p => c.state.vars[slot + p as usize],
                })
            }
            Node::Pair(kinds, player, kind) => {
                let kinds = *kinds as i64;
                let (player, kind) = (self.scalar(player), self.scalar(kind));
                Box::new(move |c, l| {
                    let (p, k) = (player(c, l), kind(c, l));
                    if p < 0 || k < 0 { NONE } else { p * kinds + k }
                })
            }
            Node::Owner(x) => self.on_cell(x, owner_of),
            Node::Top(x) => self.on_cell(x, top_of),
            Node::Height(x) => self.on_cell(x, height_of),
            Node::Empty(x) => self.on_cell(x, empty_of),
            Node::File(x) => self.on_cell(x, |c, x| match x {
                x if x >= 0 => c.board.coords[x as usize].0 as i64,
                _ => 0,
            }),
            Node::Rank(x) => self.on_cell(x, |c, x| match x {
                x if x >= 0 => c.board.coords[x as usize].1 as i64,
                _ => 0,
            }),
            Node::Count(x, k) => {
                // A named cell and a constant kind: read at once.
                if let Some((i, CellRead::Count(kind))) = CellRead::at_local(node) {
                    return Box::new(move |c, l| count_kind(c, l[i], kind));
                }
                let (x, k) = (self.scalar(x), self.scalar(k));
                Box::new(move |c, l| {
                    let x = x(c, l);
                    count_kind(c, x, k(c, l))
                })
            }
            Node::Has(x, k) => {
                let (x, k) = (self.scalar(x), self.scalar(k));
                Box::new(move |c, l| {
                    let x = x(c, l);
                    match k(c, l) {
                        k if x >= 0 && (0..64).contains(&k) => {
                            c.state.holds(x as CellId, k as u8) as i64
                        }
                        k => (count_kind(c, x, k) > 0) as i64,
                    }
                })
            }
            Node::Step(x, d) => {
                // A step from a named cell in a named or constant direction (`step(from,
                // d)`, the commonest): both read where they are, not through closures.
                if let Node::Local(i) = **x {
                    let i = i as usize;
                    match **d {
                        Node::Local(j) => {
                            let j = j as usize;
                            return Box::new(move |c, l| super::natives::step(c, l[i], l[j]));
                        }
                        Node::Const(d) => {
                            return Box::new(move |c, l| super::natives::step(c, l[i], d));
                        }
                        _ => {
                            let d = self.scalar(d);
                            return Box::new(move |c, l| {
                                let d = d(c, l);
                                super::natives::step(c, l[i], d)
                            });
                        }
                    }
                }
                let (x, d) = (self.scalar(x), self.scalar(d));
                Box::new(move |c, l| {
                    let x = x(c, l);
                    super::natives::step(c, x, d(c, l))
                })
            }
            Node::Groups(p, d) => self.groups(p, d, u32::MAX),
            Node::Repetitions => Box::new(|c, _| c.state.repetitions(c.me)),
            Node::BoardRepeated => Box::new(|c, _| c.state.board_repeated() as i64),
            Node::Bind(slot, value, body) => {
                let slot = *slot as usize;
                let (value, body) = (self.scalar(value), self.scalar(body));
                Box::new(move |c, l| {
                    l[slot] = value(c, l);
                    body(c, l)
                })
            }
            Node::Recur(call) => recur(call, self),
            Node::Not(x) => {
                let x = self.scalar(x);
                Box::new(move |c, l| (x(c, l) == 0) as i64)
            }
            Node::Neg(x) => {
                let x = self.scalar(x);
                Box::new(move |c, l| x(c, l).wrapping_neg())
            }
            Node::If(cond, t, f) => {
                let (cond, t, f) = (self.scalar(cond), self.scalar(t), self.scalar(f));
                Box::new(move |c, l| if cond(c, l) != 0 { t(c, l) } else { f(c, l) })
            }
            Node::Binary(op, a, b) => self.binary(*op, a, b),
            Node::Call(f, args, _) => {
                let f = *f;
                // Arguments that are names or constants (a chosen cell, a set of
                // directions) are read where they are, not each through a closure.
                let plain: Option<Vec<Arg>> = args.iter().map(Arg::of).collect();
                match plain.as_deref() {
                    Some(&[a]) => return Box::new(move |c, l| f(c, &[a.get(c.me, l)])),
                    Some(&[a, b]) => {
                        return Box::new(move |c, l| f(c, &[a.get(c.me, l), b.get(c.me, l)]));
                    }
                    Some(&[a, b, d]) => {
                        return Box::new(move |c, l| {
                            f(c, &[a.get(c.me, l), b.get(c.me, l), d.get(c.me, l)])
                        });
                    }
                    _ => {}
                }
                let args: Vec<Scalar> = args.iter().map(|a| self.scalar(a)).collect();
                match args.len() {
                    0 => Box::new(move |c, _| f(c, &[])),
                    1 => {
                        let a = args.into_iter().next().expect("one argument");
                        Box::new(move |c, l| f(c, &[a(c, l)]))
                    }
                    _ => Box::new(move |c, l| {
                        let mut vals = [0i64; 4];
                        for (v, a) in vals.iter_mut().zip(&args) {
                            *v = a(c, l);
                        }
                        f(c, &vals[..args.len()])
                    }),
                }
            }
            Node::Agg(agg) => {
                match &agg.domain {
                    // Over a set of cells, with nothing that reads their order or builds a
                    // list: a loop over the set's bits, calling the compiled filter and body
                    // (the least or greatest height read from the position's cells by
                    // height, where it keeps them).
                    Domain::Cells(set)
                        if agg.along.is_none()
                            && !matches!(agg.op, AggOp::SortDesc | AggOp::SortAsc) =>
                    {
                        by_words!(self.words, over_cells(set, agg, self))
                    }
                    // First or last of a ray's cells, taken nearest first.
                    Domain::Cells(set) if let Some(dir) = &agg.along => {
                        let first = agg.op == AggOp::First;
                        by_words!(self.words, along(set, dir, first, self))
                    }
                    // Any other collection: its elements written out by its code, then
                    // the same fold.
                    domain => {
                        let each = ElemWalk(self.elements(domain));
                        let slot = agg.slot as usize;
                        let filter = agg.filter.as_ref().map(|f| self.scalar(f));
                        let body = agg.body.as_ref().map(|b| self.scalar(b));
                        fold::fold(each, agg.op, slot, filter, body)
                    }
                }
            }
            Node::Code(code) => {
                let code = code.clone();
                Box::new(move |c, l| (code.run)(c, l))
            }
            Node::List(_) => unreachable!("a list is only iterated, never a value"),
        }
    }

    /// A function of a cell, the cell read straight from a local slot where it is one.
    fn on_cell<F>(&self, x: &Node, f: F) -> Scalar
    where
        F: Fn(&Ctx, i64) -> i64 + Send + Sync + 'static,
    {
        if let Node::Local(i) = *x {
            let i = i as usize;
            return Box::new(move |c, l| f(c, l[i]));
        }
        let x = self.scalar(x);
        Box::new(move |c, l| {
            let x = x(c, l);
            f(c, x)
        })
    }

    /// `groups(p, d)`, counting at most `most` groups.
    fn groups(&self, p: &Node, d: &Node, most: u32) -> Scalar {
        let (p, d) = (self.scalar(p), self.scalar(d));
        Box::new(move |c, l| {
            let p = p(c, l);
            groups::group_count(&c.view(), p, d(c, l), most)
        })
    }

    fn binary(&self, op: BinOp, a: &Node, b: &Node) -> Scalar {
        // A count of groups compared with a constant k: whether there are k, more or
        // fewer is decided once k + 1 are found, so no more are counted.
        if let (Node::Groups(p, d), Node::Const(k)) = (a, b)
            && matches!(
                op,
                BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
            )
        {
            let most = u32::try_from(k.saturating_add(1).max(1)).unwrap_or(u32::MAX);
            let count = self.groups(p, d, most);
            let k = *k;
            return Box::new(move |c, l| op.apply(count(c, l), k));
        }
        match op {
            BinOp::And => {
                let (a, b) = (self.scalar(a), self.scalar(b));
                Box::new(move |c, l| (a(c, l) != 0 && b(c, l) != 0) as i64)
            }
            BinOp::Or => {
                let (a, b) = (self.scalar(a), self.scalar(b));
                Box::new(move |c, l| (a(c, l) != 0 || b(c, l) != 0) as i64)
            }
            BinOp::Eq => self.arith(a, b, |x, y| (x == y) as i64),
            BinOp::Ne => self.arith(a, b, |x, y| (x != y) as i64),
            BinOp::Lt => self.arith(a, b, |x, y| (x < y) as i64),
            BinOp::Le => self.arith(a, b, |x, y| (x <= y) as i64),
            BinOp::Gt => self.arith(a, b, |x, y| (x > y) as i64),
            BinOp::Ge => self.arith(a, b, |x, y| (x >= y) as i64),
            BinOp::Add => self.arith(a, b, i64::wrapping_add),
            BinOp::Sub => self.arith(a, b, i64::wrapping_sub),
            BinOp::Mul => self.arith(a, b, i64::wrapping_mul),
            BinOp::Div | BinOp::Rem => self.arith(a, b, move |x, y| op.apply(x, y)),
        }
    }

    /// A binary operator on two values. A left value that is a name, a variable or a
    /// reading of a named cell (`owner(x)`, `height(x)`, `pieces(x, K)`...) and a right
    /// one that is a constant, `me`, a name or a reading of a named cell are read inside
    /// the operator's closure, not through closures of their own: `owner(x) == me`,
    /// `supply(me) > 0` and `pieces(a, K) - pieces(b, K)` are one call each.
    fn arith<F>(&self, a: &Node, b: &Node, f: F) -> Scalar
    where
        F: Fn(i64, i64) -> i64 + Send + Sync + 'static,
    {
        macro_rules! at_local {
            ($x:expr, $read:expr) => {
                if let Node::Local(i) = **$x {
                    let i = i as usize;
                    let read = $read;
                    return self.arith_right(move |c: &Ctx, l: &mut [i64]| read(c, l[i]), b, f);
                }
            };
        }
        match a {
            Node::Local(i) => {
                let i = *i as usize;
                return self.arith_right(move |_: &Ctx, l: &mut [i64]| l[i], b, f);
            }
            Node::Var(slot) => {
                let slot = *slot as usize;
                return self.arith_right(move |c: &Ctx, _: &mut [i64]| c.state.vars[slot], b, f);
            }
            Node::VarAt(slot, p) if matches!(**p, Node::Me) => {
                let slot = *slot as usize;
                return self.arith_right(
                    move |c: &Ctx, _: &mut [i64]| c.state.vars[slot + c.me as usize],
                    b,
                    f,
                );
            }
            Node::Owner(x) => at_local!(x, owner_of),
            Node::Top(x) => at_local!(x, top_of),
            Node::Height(x) => at_local!(x, height_of),
            Node::Empty(x) => at_local!(x, empty_of),
            Node::Count(x, kind) => {
                if let Node::Const(kind) = **kind {
                    at_local!(x, move |c: &Ctx, x: i64| count_kind(c, x, kind));
                }
            }
            // A native function of names and constants, or of nothing (`first_empty(to,
            // d) != none`, `turn - 1`): called inside the operator's closure.
            Node::Call(native, args, _) => {
                let native = *native;
                let plain: Option<Vec<Arg>> = args.iter().map(Arg::of).collect();
                match plain.as_deref() {
                    Some(&[]) => {
                        return self.arith_right(
                            move |c: &Ctx, _: &mut [i64]| native(c, &[]),
                            b,
                            f,
                        );
                    }
                    Some(&[x]) => {
                        let read = move |c: &Ctx, l: &mut [i64]| native(c, &[x.get(c.me, l)]);
                        return self.arith_right(read, b, f);
                    }
                    Some(&[x, y]) => {
                        let read = move |c: &Ctx, l: &mut [i64]| {
                            native(c, &[x.get(c.me, l), y.get(c.me, l)])
                        };
                        return self.arith_right(read, b, f);
                    }
                    _ => {}
                }
            }
            _ => {}
        }
        let a = self.scalar(a);
        self.arith_right(move |c: &Ctx, l: &mut [i64]| a(c, l), b, f)
    }

    /// [`Kit::arith`] with the left value's reader settled: the right one read at once
    /// where it is a constant, `me`, a local name or a reading of the cell a local name
    /// holds ([`CellRead`]).
    fn arith_right<A, F>(&self, a: A, b: &Node, f: F) -> Scalar
    where
        A: Fn(&Ctx, &mut [i64]) -> i64 + Send + Sync + 'static,
        F: Fn(i64, i64) -> i64 + Send + Sync + 'static,
    {
        if let Some((i, read)) = CellRead::at_local(b) {
            return Box::new(move |c, l| {
                let x = a(c, l);
                f(x, read.of(c, l[i]))
            });
        }
        match *b {
            Node::Const(k) => Box::new(move |c, l| f(a(c, l), k)),
            Node::Me => Box::new(move |c, l| f(a(c, l), c.me as i64)),
            Node::Local(i) => {
                let i = i as usize;
                Box::new(move |c, l| {
                    let x = a(c, l);
                    f(x, l[i])
                })
            }
            _ => {
                let b = self.scalar(b);
                Box::new(move |c, l| {
                    let x = a(c, l);
                    f(x, b(c, l))
                })
            }
        }
    }
}

impl Lowering for Kit<'_> {
    /// Replaces an expression by its closure, and wraps what it keeps beside it: the
    /// closure itself is made from the expression as it was.
    fn wrap(&self, node: &mut Node) {
        if read_at_once(node) {
            return;
        }
        let run = self.scalar(node);
        let mut original = std::mem::replace(node, Node::Const(0));
        self.wrap_inside(&mut original);
        *node = Node::Code(Arc::new(Code {
            node: original,
            run,
        }));
    }

    fn wrap_set(&self, set: &mut SetExpr) {
        if !matches!(set, SetExpr::Code(_)) {
            let mut code = set_code(set, self);
            self.wrap_in_set(&mut code.set);
            *set = SetExpr::Code(Arc::new(code));
        }
    }

    fn effect(&self, ops: &[Op]) -> Effect {
        Effect::new(ops)
    }
}

/// A reading of one cell's stack, the cell a name's value: what the right-hand side of
/// an operator reads inside the operator's closure (`pieces(a, K) - pieces(b, K)` is
/// one call, not five).
#[derive(Clone, Copy)]
enum CellRead {
    Owner,
    Top,
    Height,
    Empty,
    /// `pieces(x, K)` for a constant kind.
    Count(i64),
}

impl CellRead {
    /// The local slot and the reading, where `node` reads a named cell's stack.
    fn at_local(node: &Node) -> Option<(usize, CellRead)> {
        let (x, read) = match node {
            Node::Owner(x) => (x, CellRead::Owner),
            Node::Top(x) => (x, CellRead::Top),
            Node::Height(x) => (x, CellRead::Height),
            Node::Empty(x) => (x, CellRead::Empty),
            Node::Count(x, kind) => match **kind {
                Node::Const(kind) => (x, CellRead::Count(kind)),
                _ => return None,
            },
            _ => return None,
        };
        match **x {
            Node::Local(i) => Some((i as usize, read)),
            _ => None,
        }
    }

    #[inline(always)]
    fn of(self, c: &Ctx, x: i64) -> i64 {
        match self {
            CellRead::Owner => owner_of(c, x),
            CellRead::Top => top_of(c, x),
            CellRead::Height => height_of(c, x),
            CellRead::Empty => empty_of(c, x),
            CellRead::Count(kind) => count_kind(c, x, kind),
        }
    }
}

/// The words of a set of the board's size.
#[inline]
fn words<const W: usize>(s: &[u64]) -> [u64; W] {
    s.try_into().expect("a set of the board's size")
}

/// The closure of a set of cells on a board whose sets have `W` words.
fn cells<const W: usize>(set: &SetExpr, k: &Kit) -> Cells<W> {
    let all: [u64; W] = words(k.board.all());
    match set {
        SetExpr::All => Box::new(move |_, _| all),
        SetExpr::Empty => Box::new(move |c, _| {
            let mut s = all;
            for (x, o) in s.iter_mut().zip(c.state.occupied()) {
                *x &= !o;
            }
            s
        }),
        SetExpr::Occupied => Box::new(|c, _| words(c.state.occupied())),
        SetExpr::OwnedBy(p) if matches!(**p, Node::Me) => {
            Box::new(|c, _| words(c.state.owned(c.me)))
        }
        SetExpr::OwnedBy(p) if matches!(**p, Node::Const(p) if (0..NEUTRAL as i64).contains(&p)) => {
            let Node::Const(p) = **p else { unreachable!() };
            Box::new(move |c, _| words(c.state.owned(p as u8)))
        }
        SetExpr::TopKind(kind) if matches!(**kind, Node::Const(x) if (0..k.kinds as i64).contains(&x)) =>
        {
            let Node::Const(kind) = **kind else {
                unreachable!()
            };
            Box::new(move |c, _| words(c.state.topped_by_kind(kind as u8)))
        }
        SetExpr::Test(t) => {
            let t = *t;
            Box::new(move |c, _| words(c.state.passing(t)))
        }
        SetExpr::Mask(m) => {
            let m: [u64; W] = words(k.board.mask(*m));
            Box::new(move |_, _| m)
        }
        SetExpr::Holding(kind) => {
            let kind = *kind;
            Box::new(move |c, _| words(c.state.holding(kind)))
        }
        SetExpr::Neighbours(x, table) => {
            let table = *table;
            at_cell(k, x, move |c, x| words(c.board.neighbours(table, x)))
        }
        SetExpr::Leaps(x, table) => {
            let table = *table;
            at_cell(k, x, move |c, x| words(c.board.leaps(table, x)))
        }
        SetExpr::HeightNear(value, radius) => {
            let radius = *radius;
            // A name (the lowest height, say) read where it is, not through a call.
            if let Node::Local(slot) = **value {
                let slot = usize::from(slot);
                return Box::new(move |c, l| eval::heights_near::<W>(c, l[slot], radius));
            }
            let value = k.scalar(value);
            Box::new(move |c, l| eval::heights_near::<W>(c, value(c, l), radius))
        }
        SetExpr::Single(x) => {
            let cells = k.board.len() as i64;
            let x = k.scalar(x);
            Box::new(move |c, l| {
                let mut s = [0; W];
                let x = x(c, l);
                if (0..cells).contains(&x) {
                    s[x as usize / 64] |= 1 << (x % 64);
                }
                s
            })
        }
        SetExpr::Conj(terms) => {
            // The terms the position keeps as sets are read by number, first (they cost
            // a load each); the others follow, while any cell is left.
            // (A kept set, or its complement: `empty(x)` is the complement of the
            // occupied cells.)
            let mut numbered = Vec::new();
            let mut mine = false;
            let mut rest = Vec::new();
            let mut worked_out = Vec::new();
            for &(negated, ref term) in terms.iter() {
                match k.kept_term(negated, term) {
                    Some((Numbered::Fixed(i), negated)) => numbered.push((i, negated)),
                    Some((Numbered::Mine, false)) => mine = true,
                    _ => {
                        rest.push((negated, cells::<W>(term, k)));
                        worked_out.push(term);
                    }
                }
            }
            // Where each kept set starts among the position's words, and what to flip
            // its words with (all bits for a complement; `acc` starts as the board's
            // cells, so nothing beyond them is let in).
            let starts: Vec<(usize, u64)> = numbered
                .iter()
                .map(|&(i, negated)| (i * W, flip(negated)))
                .collect();
            let rest = Rest { rest, worked_out };
            // The kept sets read by a closure made for their number (up to three) and
            // for whether the mover's pieces are one: no loop whose length the branch
            // predictor would have to guess from one set to the next.
            macro_rules! kept {
                ($mine:literal) => {
                    match starts[..] {
                        [] => rest.after(k, kept::<_, $mine, W>([], all)),
                        [a] => rest.after(k, kept::<_, $mine, W>([a], all)),
                        [a, b] => rest.after(k, kept::<_, $mine, W>([a, b], all)),
                        [a, b, c] => rest.after(k, kept::<_, $mine, W>([a, b, c], all)),
                        _ => rest.after(k, kept::<_, $mine, W>(starts.into_boxed_slice(), all)),
                    }
                };
            }
            if mine { kept!(true) } else { kept!(false) }
        }
        SetExpr::Slide(x, d) => {
            let (x, d) = (k.scalar(x), k.scalar(d));
            Box::new(move |c, l| {
                let x = x(c, l);
                eval::slide::<W>(c, x, d(c, l))
            })
        }
        SetExpr::Ray(x, d) => {
            let (x, d) = (k.scalar(x), k.scalar(d));
            Box::new(move |c, l| match (x(c, l), d(c, l)) {
                (x, d) if x >= 0 && (0..8).contains(&d) => {
                    words(c.board.ray(x as CellId, d as usize))
                }
                _ => [0; W],
            })
        }
        // A condition that reads no element: compiled, not walked at every use.
        SetExpr::When(cond) => {
            let cond = k.scalar(cond);
            Box::new(move |c, l| if cond(c, l) != 0 { all } else { [0; W] })
        }
        SetExpr::Near(s, table) => {
            let (inner, table) = (cells::<W>(s, k), *table);
            Box::new(move |c, l| {
                let s = inner(c, l);
                let mut near = all;
                c.board.near(table, &s, &mut near);
                near
            })
        }
        SetExpr::Or(a, b) => {
            let (a, b) = (cells::<W>(a, k), cells::<W>(b, k));
            Box::new(move |c, l| {
                let mut s = a(c, l);
                for (x, y) in s.iter_mut().zip(b(c, l)) {
                    *x |= y;
                }
                s
            })
        }
        SetExpr::Code(code) => {
            let code = code.clone();
            Box::new(move |c, l| code.with(c, l, |s, _| words(s)))
        }
        // A player worked out: none stands for the cells no player owns.
        SetExpr::OwnedBy(p) => {
            let p = k.scalar(p);
            Box::new(move |c, l| match p(c, l) {
                p if p >= 0 => words(c.state.owned(p as u8)),
                _ => {
                    let mut s = all;
                    let (occupied, neutral) = (c.state.occupied(), c.state.owned(NEUTRAL));
                    for ((x, o), n) in s.iter_mut().zip(occupied).zip(neutral) {
                        *x = (*x & !o) | n;
                    }
                    s
                }
            })
        }
        // A kind worked out: none stands for the empty cells, a kind beyond the game's
        // for no cell.
        SetExpr::TopKind(kind) => {
            let (kind, kinds) = (k.scalar(kind), k.kinds as i64);
            Box::new(move |c, l| match kind(c, l) {
                x if (0..kinds).contains(&x) => words(c.state.topped_by_kind(x as u8)),
                x if x >= 0 => [0; W],
                _ => {
                    let mut s = all;
                    for (x, o) in s.iter_mut().zip(c.state.occupied()) {
                        *x &= !o;
                    }
                    s
                }
            })
        }
        SetExpr::Group(x, dirs) => {
            let (x, dirs) = (k.scalar(x), k.scalar(dirs));
            Box::new(move |c, l| {
                let mut set = [0u64; WORDS];
                let (cell, dirs) = (x(c, l), dirs(c, l));
                groups::group_cells(&c.view(), cell, dirs, &mut set);
                words(&set[..W])
            })
        }
        SetExpr::Reach(x, dirs) => {
            let (x, dirs) = (k.scalar(x), k.scalar(dirs));
            Box::new(move |c, l| {
                let mut set = [0u64; WORDS];
                let (cell, dirs) = (x(c, l), dirs(c, l));
                groups::reachable(&c.view(), cell, dirs, &mut set);
                words(&set[..W])
            })
        }
        SetExpr::Adjacent(x, dirs) => {
            let (x, dirs) = (k.scalar(x), k.scalar(dirs));
            Box::new(move |c, l| {
                let mut s = [0; W];
                let (cell, dirs) = (x(c, l), dirs(c, l));
                if cell >= 0 {
                    c.board.add_adjacent(cell as CellId, dirs as u8, &mut s);
                }
                s
            })
        }
    }
}

/// The terms of a conjunction the position does not keep as sets, each with whether it
/// is negated and the term it was compiled from (one kind of term is worked out with the
/// others' result in hand).
struct Rest<'s, const W: usize> {
    rest: Vec<(bool, Cells<W>)>,
    worked_out: Vec<&'s SetExpr>,
}

impl<const W: usize> Rest<'_, W> {
    /// The conjunction's closure: the kept sets' cells (`kept`), then, while any cell is
    /// left, the other terms.
    fn after<K>(mut self, k: &Kit, kept: K) -> Cells<W>
    where
        K: Fn(&Ctx) -> [u64; W] + Send + Sync + 'static,
    {
        if self.rest.is_empty() {
            return Box::new(move |c, _| kept(c));
        }
        // One term left, the cells next to a set: worked out among the cells left
        // (`Board::near` tests a few through their masks).
        if let ([(false, _)], [SetExpr::Near(inner, table)]) =
            (&self.rest[..], &self.worked_out[..])
        {
            let (inner, table) = (cells::<W>(inner, k), *table);
            return Box::new(move |c, l| {
                let mut acc = kept(c);
                if acc.iter().any(|&a| a != 0) {
                    let s = inner(c, l);
                    c.board.near(table, &s, &mut acc);
                }
                acc
            });
        }
        if let [(false, _)] = self.rest[..] {
            // One term left to work out (a cell's neighbours, say): no loop.
            let (_, term) = self.rest.pop().expect("one term");
            return Box::new(move |c, l| {
                let mut acc = kept(c);
                if acc.iter().any(|&a| a != 0) {
                    let x = term(c, l);
                    for w in 0..W {
                        acc[w] &= x[w];
                    }
                }
                acc
            });
        }
        let rest: Box<[(bool, Cells<W>)]> = self.rest.into();
        Box::new(move |c, l| {
            let mut acc = kept(c);
            for (negated, term) in rest.iter() {
                if acc.iter().all(|&a| a == 0) {
                    break;
                }
                let x = term(c, l);
                for w in 0..W {
                    acc[w] &= if *negated { !x[w] } else { x[w] };
                }
            }
            acc
        })
    }
}

/// The board's cells less those the position's kept sets (`starts`: where each starts
/// among the position's words, and what to flip its words with) leave out, and less
/// those not the mover's where `MINE`. `starts` is an array where its length is to be
/// known at compile time (the loop unrolled), else a boxed slice.
fn kept<S, const MINE: bool, const W: usize>(
    starts: S,
    all: [u64; W],
) -> impl Fn(&Ctx) -> [u64; W] + Send + Sync + 'static
where
    S: AsRef<[(usize, u64)]> + Send + Sync + 'static,
{
    move |c: &Ctx| {
        let mut acc = all;
        let sets = c.state.cached_words();
        for &(at, flip) in starts.as_ref() {
            let x: [u64; W] = words(&sets[at..at + W]);
            for w in 0..W {
                acc[w] &= x[w] ^ flip;
            }
        }
        if MINE {
            let mine: [u64; W] = words(c.state.owned(c.me));
            for w in 0..W {
                acc[w] &= mine[w];
            }
        }
        acc
    }
}

/// An aggregate over a set of cells (in cell order, neither sorted nor along a ray), on
/// a board whose sets have `W` words. The least or greatest height of the cells that pass
/// a filter is read from the position's cells by height, where it keeps them.
fn over_cells<const W: usize>(set: &SetExpr, agg: &Aggregate, k: &Kit) -> Scalar {
    let set = cells::<W>(set, k);
    let slot = agg.slot as usize;
    let filter = agg.filter.as_ref().map(|f| k.scalar(f));
    let of_heights = matches!(agg.op, AggOp::Min | AggOp::Max)
        && matches!(&agg.body, Some(Node::Height(x)) if matches!(**x, Node::Local(s) if s as usize == slot));
    if of_heights {
        return fold::of_heights(set, slot, agg.op == AggOp::Max, filter);
    }
    let body = agg.body.as_ref().map(|b| k.scalar(b));
    fold::fold(SetWalk(set), agg.op, slot, filter, body)
}

/// `first` or `last` along a ray ([`Aggregate::along`]), on a board of `W` words.
fn along<const W: usize>(set: &SetExpr, dir: &Node, first: bool, k: &Kit) -> Scalar {
    fold::along(cells::<W>(set, k), k.scalar(dir), first)
}

/// The directions of a [`Domain::Steps`], on a board of `W` words.
fn steps<const W: usize>(cell: &Node, dirs: &Node, target: &SetExpr, k: &Kit) -> Elements {
    fold::steps(k.scalar(cell), k.scalar(dirs), cells::<W>(target, k))
}

/// The cells of a set written out, on a board of `W` words.
fn members<const W: usize>(set: &SetExpr, k: &Kit) -> Elements {
    fold::members(cells::<W>(set, k))
}

/// A set that a cell gives (none for no cell), the cell read straight from a local slot
/// where it is one.
fn at_cell<const W: usize, F>(k: &Kit, x: &Node, f: F) -> Cells<W>
where
    F: Fn(&Ctx, CellId) -> [u64; W] + Send + Sync + 'static,
{
    if let Node::Local(i) = *x {
        let i = i as usize;
        return Box::new(move |c, l| match l[i] {
            x if x >= 0 => f(c, x as CellId),
            _ => [0; W],
        });
    }
    let x = k.scalar(x);
    Box::new(move |c, l| match x(c, l) {
        x if x >= 0 => f(c, x as CellId),
        _ => [0; W],
    })
}
