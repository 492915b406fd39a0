//! The checker: resolves names, checks types and turns AST into compiled nodes.
//!
//! Every error points at the exact sub-expression and says what was expected there.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::engine::game::Per;
use crate::engine::natives::{self, Entry, Native, NativeFn};
use crate::engine::program::{
    Aggregate, Callee, Domain, Most, NativeSet, Node, Op, Recur, SetExpr,
};
use crate::lang::ast::{AggOp, BinOp, Expr, ExprKind, Name, Span, Stmt, UnOp};
use crate::lang::parser::MAX_NESTING;
use crate::lang::types::Type;

use super::LangError;

/// What a game-level name stands for.
#[derive(Clone, Debug)]
pub enum Named {
    /// A parameter, player, kind, direction or direction set.
    Const(i64, Type),
    /// A global or turn variable slot.
    Var(u16, Type),
    /// A variable per player, per kind or per both: the slot of index 0.
    VarAt(u16, Type, Per),
    /// A function of the game file.
    Function(Arc<Function>),
}

/// The most function calls one expression may expand to, nested calls included.
const MOST_EXPANSIONS: usize = 10_000;

/// A function of the game file (`[functions.NAME]`): expanded where it is called, or
/// called for real when it is recursive.
#[derive(Debug)]
pub struct Function {
    pub name: String,
    pub params: Vec<(Name, Type)>,
    pub body: Expr,
    /// What the function gives, when the file says (`returns`).
    pub returns: Option<Type>,
    /// The function as it runs, when it calls itself (directly or through others) and so
    /// is not expanded: its calls are [`Node::Recur`].
    pub callee: Option<Arc<Callee>>,
}

/// The names a game declares, shared by every expression of the file.
#[derive(Clone, Debug, Default)]
pub struct Names {
    pub map: BTreeMap<String, Named>,
    /// How many piece kinds the game has: the stride of a variable per player and kind.
    pub kinds: u16,
}

/// One expression frame: the game names plus the locals bound so far.
pub struct Scope<'a> {
    names: &'a Names,
    locals: Vec<(String, Type, u16)>,
    next_slot: u16,
    /// The first slot of the function body being checked: the slots below it hold its
    /// callers' names, hidden from it but still live, so leaving a scope never goes below.
    floor: u16,
    /// The most slots in use at once; the frame size.
    pub frame: usize,
    /// How many calls were expanded in all (a bound on what nested calls can make).
    expanded: usize,
    /// How deep the expression being checked nests here, function bodies expanded into
    /// it included: the parser bounds each expression, but a chain of functions calling
    /// functions nests them all into one.
    nesting: usize,
    /// The deepest `nesting` went: what a recursive body costs on the stack per call.
    pub peak: usize,
    /// Inside a recursive function's body, the slot that holds how deep its call is:
    /// the calls it makes are one deeper.
    recursion: Option<u16>,
}

fn describe(params: &[Type]) -> String {
    if params.is_empty() {
        return "no arguments".into();
    }
    let list: Vec<String> = params.iter().map(|t| t.to_string()).collect();
    format!(
        "{} argument{} ({})",
        params.len(),
        if params.len() == 1 { "" } else { "s" },
        list.join(", ")
    )
}

impl<'a> Scope<'a> {
    pub fn new(names: &'a Names) -> Scope<'a> {
        Scope {
            names,
            locals: Vec::new(),
            next_slot: 0,
            floor: 0,
            frame: 0,
            expanded: 0,
            nesting: 0,
            peak: 0,
            recursion: None,
        }
    }

    /// Binds a new local and returns its slot.
    pub fn bind(&mut self, name: &Name, ty: Type) -> Result<u16, LangError> {
        if self.names.map.contains_key(&name.text) || natives::lookup(&name.text).next().is_some() {
            return Err(LangError::new(
                name.span,
                format!(
                    "`{}` is already the name of something in this game",
                    name.text
                ),
            )
            .label("choose another name for this variable"));
        }
        let slot = self.next_slot;
        self.next_slot += 1;
        self.frame = self.frame.max(self.next_slot as usize);
        self.locals.push((name.text.clone(), ty, slot));
        Ok(slot)
    }

    /// The type and slot of a local, if bound.
    pub fn local(&self, name: &str) -> Option<(Type, u16)> {
        self.locals
            .iter()
            .rev()
            .find(|(n, _, _)| n == name)
            .map(|(_, t, s)| (*t, *s))
    }

    /// How many locals are bound; pass to [`Scope::truncate`] to leave a nested scope.
    pub fn depth(&self) -> usize {
        self.locals.len()
    }

    /// Leaves a nested scope: its names are forgotten and their slots may be used again.
    pub fn truncate(&mut self, depth: usize) {
        self.locals.truncate(depth);
        self.next_slot = self
            .locals
            .last()
            .map_or(self.floor, |(_, _, slot)| slot + 1)
            .max(self.floor);
    }

    fn all_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .locals
            .iter()
            .filter(|(n, _, _)| !n.is_empty())
            .map(|(n, _, _)| n.clone())
            .collect();
        // Cells are left out: there are many, and their names (a1, b2...) explain themselves.
        v.extend(
            self.names
                .map
                .iter()
                .filter(|(_, named)| !matches!(named, Named::Const(_, Type::Cell)))
                .map(|(k, _)| k.clone()),
        );
        v.extend(
            natives::NATIVES
                .iter()
                .filter(|n| n.params.is_empty() && !matches!(n.entry, Entry::Effect(_)))
                .map(|n| n.name.to_string()),
        );
        v.sort();
        v.dedup();
        v
    }

    /// Compiles an expression that must have type `want`.
    pub fn expect(&mut self, e: &Expr, want: Type) -> Result<Node, LangError> {
        let (node, ty) = self.expr(e)?;
        if !ty.fits(want) {
            return Err(mismatch(e.span, want, ty));
        }
        Ok(node)
    }

    /// Compiles an expression and infers its type.
    pub fn expr(&mut self, e: &Expr) -> Result<(Node, Type), LangError> {
        self.nest(e.span, 1)?;
        let checked = self.expr_here(e);
        self.nesting -= 1;
        checked
    }

    /// `levels` deeper, refused past [`MAX_NESTING`]: every later stage recurses over
    /// the compiled nodes as deep as this goes.
    fn nest(&mut self, span: Span, levels: usize) -> Result<(), LangError> {
        if self.nesting + levels > MAX_NESTING {
            return Err(LangError::new(
                span,
                format!(
                    "this expression nests too deeply once its function calls are expanded: more than {MAX_NESTING} levels"
                ),
            )
            .help("work inner parts out with `let` bindings, or call fewer functions inside one another"));
        }
        self.nesting += levels;
        self.peak = self.peak.max(self.nesting);
        Ok(())
    }

    fn expr_here(&mut self, e: &Expr) -> Result<(Node, Type), LangError> {
        Ok(match &e.kind {
            ExprKind::Int(i) => (Node::Const(*i), Type::Int),
            ExprKind::Bool(b) => (Node::Const(*b as i64), Type::Bool),
            ExprKind::None => (Node::Const(-1), Type::Nothing),
            ExprKind::Name(n) => self.name(n, e.span)?,
            ExprKind::Call(f, args) => self.call(f, args, e.span)?,
            ExprKind::List(_) => {
                return Err(LangError::new(
                    e.span,
                    "a list can only be ranged over (after `in`)",
                ));
            }
            ExprKind::Unary(UnOp::Neg, x) => {
                (Node::Neg(Box::new(self.expect(x, Type::Int)?)), Type::Int)
            }
            ExprKind::Unary(UnOp::Not, x) => {
                (Node::Not(Box::new(self.expect(x, Type::Bool)?)), Type::Bool)
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b)?,
            ExprKind::If(c, t, f) => {
                let c = self.expect(c, Type::Bool)?;
                let (tn, tt) = self.expr(t)?;
                let (fnode, ft) = self.expr(f)?;
                let ty = if tt.fits(ft) {
                    ft
                } else if ft.fits(tt) {
                    tt
                } else {
                    return Err(LangError::new(
                        e.span,
                        format!("the branches of `if` differ: {tt} and {ft}"),
                    ));
                };
                (Node::If(Box::new(c), Box::new(tn), Box::new(fnode)), ty)
            }
            ExprKind::Agg {
                op,
                var,
                domain,
                filter,
                body,
            } => {
                if matches!(op, AggOp::SortDesc | AggOp::SortAsc) {
                    return Err(LangError::new(
                        e.span,
                        format!(
                            "`{}` makes a list, which can only be the whole of a `[scoring] score`",
                            op.name()
                        ),
                    ));
                }
                self.aggregate(*op, var, domain, filter.as_deref(), body.as_deref(), e.span)?
            }
        })
    }

    /// Compiles a score: a number, or a `sort_desc`/`sort_asc` aggregate as the whole
    /// expression (the only place a list of numbers may appear).
    pub fn score(&mut self, e: &Expr) -> Result<(Node, Type), LangError> {
        match &e.kind {
            ExprKind::Agg {
                op: op @ (AggOp::SortDesc | AggOp::SortAsc),
                var,
                domain,
                filter,
                body,
            } => self.aggregate(*op, var, domain, filter.as_deref(), body.as_deref(), e.span),
            _ => self.expr(e),
        }
    }

    fn name(&mut self, n: &str, span: Span) -> Result<(Node, Type), LangError> {
        if let Some((ty, slot)) = self.local(n) {
            return Ok((Node::Local(slot), ty));
        }
        match self.names.map.get(n) {
            Some(Named::Const(v, ty)) => return Ok((Node::Const(*v), *ty)),
            Some(Named::Var(slot, ty)) => return Ok((Node::Var(*slot), *ty)),
            Some(Named::VarAt(_, _, per)) => {
                return Err(LangError::new(
                    span,
                    format!(
                        "`{n}` is a variable {}: write {}",
                        per_text(*per),
                        indexed(n, *per)
                    ),
                ));
            }
            Some(Named::Function(f)) if f.params.is_empty() => {
                let f = f.clone();
                return self.expand(&f, &[], span);
            }
            Some(Named::Function(_)) => {
                return Err(LangError::new(
                    span,
                    format!("`{n}` is a function: call it with arguments"),
                ));
            }
            None => {}
        }
        if let Some(native) = natives::lookup(n).find(|x| x.params.is_empty()) {
            return match native.entry {
                Entry::Value(f) => Ok((specialise(native.name, f, Vec::new()), native.ret)),
                Entry::Set(_) => Err(LangError::new(
                    span,
                    format!("`{n}` is a collection: range over it with `x in {n}` or an aggregate"),
                )),
                Entry::Effect(_) => Err(effect_in_expression(n, span)),
            };
        }
        if natives::lookup(n).next().is_some() {
            return Err(LangError::new(
                span,
                format!("`{n}` is a function: call it with arguments"),
            ));
        }
        Err(LangError::unknown(span, n, self.all_names()))
    }

    fn call(&mut self, f: &Name, args: &[Expr], span: Span) -> Result<(Node, Type), LangError> {
        if let Some(Named::VarAt(slot, ty, per)) = self.names.map.get(&f.text) {
            let (slot, ty, per) = (*slot, *ty, *per);
            let index = self.var_index(&f.text, per, args, span)?;
            return Ok((Node::VarAt(slot, Box::new(index)), ty));
        }
        if let Some(Named::Function(function)) = self.names.map.get(&f.text) {
            let function = function.clone();
            return self.expand(&function, args, span);
        }
        let native = self.resolve_native(f, args.len(), span)?;
        let nodes = self.args(native, args)?;
        match native.entry {
            Entry::Value(func) => Ok((specialise(native.name, func, nodes), native.ret)),
            Entry::Set(_) => Err(LangError::new(
                span,
                format!(
                    "`{}` is a collection: range over it with `x in {}(...)` or an aggregate",
                    f.text, f.text
                ),
            )),
            Entry::Effect(_) => Err(effect_in_expression(&f.text, f.span)),
        }
    }

    /// The index into a variable per player, kind or both: its arguments checked against
    /// what it is indexed by, a (player, kind) pair joined into one.
    fn var_index(
        &mut self,
        name: &str,
        per: Per,
        args: &[Expr],
        span: Span,
    ) -> Result<Node, LangError> {
        let want = per.indices();
        if args.len() != want.len() {
            return Err(LangError::new(
                span,
                format!(
                    "`{name}` is a variable {}: it takes {}, not {}",
                    per_text(per),
                    describe(want),
                    args.len()
                ),
            )
            .help(format!("write {}", indexed(name, per))));
        }
        let mut nodes = Vec::with_capacity(args.len());
        for (arg, ty) in args.iter().zip(want) {
            nodes.push(self.expect(arg, *ty)?);
        }
        Ok(match <[Node; 2]>::try_from(nodes) {
            Ok([player, kind]) => Node::Pair(self.names.kinds, Box::new(player), Box::new(kind)),
            Err(mut one) => one.pop().expect("one index"),
        })
    }

    /// A call of a function of the game file: each argument is worked out into a slot of
    /// its own (the body sees only its parameters and the game's names), then the body.
    fn expand(
        &mut self,
        f: &Function,
        args: &[Expr],
        span: Span,
    ) -> Result<(Node, Type), LangError> {
        if args.len() != f.params.len() {
            let forms: Vec<Type> = f.params.iter().map(|(_, t)| *t).collect();
            return Err(LangError::new(
                span,
                format!(
                    "`{}` takes {}, not {}",
                    f.name,
                    describe(&forms),
                    args.len()
                ),
            ));
        }
        if let (Some(callee), Some(returns)) = (&f.callee, f.returns) {
            let mut values = Vec::with_capacity(args.len());
            for (arg, (_, ty)) in args.iter().zip(&f.params) {
                values.push(self.expect(arg, *ty)?);
            }
            let call = Recur {
                callee: Arc::downgrade(callee),
                args: values.into(),
                depth: self.recursion,
            };
            return Ok((Node::Recur(Box::new(call)), returns));
        }
        self.expanded += 1;
        if self.expanded > MOST_EXPANSIONS {
            return Err(LangError::new(
                span,
                format!("function calls here expand to more than {MOST_EXPANSIONS} calls"),
            )
            .label("functions calling functions several times each multiply")
            .help("work a value out once with a `let` binding and pass it on"));
        }
        // The parameters' slots are kept out of the arguments' own bindings (held by
        // locals no name can reach while the arguments are checked): an argument such as
        // `first(x in ...)` is worked out after the parameters before it are bound, and
        // must not overwrite them (nor be taken for them by the set pass).
        let depth = self.depth();
        for (_, ty) in &f.params {
            let slot = self.next_slot;
            self.next_slot += 1;
            self.frame = self.frame.max(self.next_slot as usize);
            self.locals.push((String::new(), *ty, slot));
        }
        let mut values = Vec::with_capacity(args.len());
        for (arg, (_, ty)) in args.iter().zip(&f.params) {
            values.push(self.expect(arg, *ty)?);
        }
        self.truncate(depth);
        // The body's names: its parameters alone, in slots above every slot in use.
        let outer_next = self.next_slot;
        let outer = std::mem::take(&mut self.locals);
        let outer_floor = std::mem::replace(&mut self.floor, outer_next);
        let mut slots = Vec::with_capacity(f.params.len());
        for (name, ty) in &f.params {
            let slot = self.next_slot;
            self.next_slot += 1;
            self.frame = self.frame.max(self.next_slot as usize);
            self.locals.push((name.text.clone(), *ty, slot));
            slots.push(slot);
        }
        // The body is wrapped in one binding per parameter, each a level of its own.
        self.nest(span, f.params.len())?;
        let body = self.expr(&f.body);
        self.nesting -= f.params.len();
        self.locals = outer;
        self.next_slot = outer_next;
        self.floor = outer_floor;
        let (mut node, ty) = body.map_err(|e| within(e, &f.name))?;
        for (slot, value) in slots.into_iter().zip(values).rev() {
            node = Node::Bind(slot, Box::new(value), Box::new(node));
        }
        Ok((node, f.returns.unwrap_or(ty)))
    }

    /// Checks a function's body on its own, with its parameters bound (in slots 0..,
    /// and for a recursive function the depth of its call after them): its code, of the
    /// type the function declares, if it does.
    pub fn function(&mut self, f: &Function) -> Result<Node, LangError> {
        for (name, ty) in &f.params {
            self.bind(name, *ty)?;
        }
        if f.callee.is_some() {
            let slot = self.next_slot;
            self.next_slot += 1;
            self.frame = self.frame.max(self.next_slot as usize);
            self.locals.push((String::new(), Type::Int, slot));
            self.recursion = Some(slot);
        }
        match f.returns {
            Some(ty) => self.expect(&f.body, ty),
            None => Ok(self.expr(&f.body)?.0),
        }
    }

    /// Finds the native called `f` with this many arguments, or explains what exists.
    pub fn resolve_native(
        &self,
        f: &Name,
        arity: usize,
        span: Span,
    ) -> Result<&'static Native, LangError> {
        let candidates: Vec<&Native> = natives::lookup(&f.text).collect();
        if candidates.is_empty() {
            let mut names: Vec<String> = natives::NATIVES
                .iter()
                .filter(|n| !n.params.is_empty())
                .map(|n| n.name.to_string())
                .collect();
            names.extend(
                self.names
                    .map
                    .iter()
                    .filter(|(_, v)| matches!(v, Named::VarAt(..)))
                    .map(|(k, _)| k.clone()),
            );
            names.sort();
            names.dedup();
            let mut e = LangError::new(f.span, format!("unknown function `{}`", f.text))
                .label("no function has this name");
            if let Some(near) = super::nearest(&f.text, &names) {
                e = e.help(format!("did you mean `{near}`?"));
            }
            return Err(e.help(format!("functions: {}", names.join(", "))));
        }
        candidates
            .iter()
            .find(|n| n.params.len() == arity)
            .copied()
            .ok_or_else(|| {
                let forms: Vec<String> = candidates.iter().map(|n| describe(n.params)).collect();
                LangError::new(
                    span,
                    format!("`{}` takes {}, not {arity}", f.text, forms.join(" or ")),
                )
            })
    }

    /// Compiles the arguments of a native, checking each against its parameter type.
    pub fn args(&mut self, native: &Native, args: &[Expr]) -> Result<Vec<Node>, LangError> {
        args.iter()
            .zip(native.params)
            .map(|(a, t)| self.expect(a, *t))
            .collect()
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Result<(Node, Type), LangError> {
        let node = |x, y| Node::Binary(op, Box::new(x), Box::new(y));
        Ok(match op {
            BinOp::And | BinOp::Or => (
                node(self.expect(a, Type::Bool)?, self.expect(b, Type::Bool)?),
                Type::Bool,
            ),
            BinOp::Eq | BinOp::Ne => {
                let (x, tx) = self.expr(a)?;
                let (y, ty) = self.expr(b)?;
                if !Type::comparable(tx, ty) || tx.element().is_some() {
                    return Err(LangError::new(
                        Span::new(a.span.start, b.span.end),
                        format!("cannot compare {tx} with {ty}"),
                    ));
                }
                (node(x, y), Type::Bool)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => (
                node(self.expect(a, Type::Int)?, self.expect(b, Type::Int)?),
                Type::Bool,
            ),
            _ => (
                node(self.expect(a, Type::Int)?, self.expect(b, Type::Int)?),
                Type::Int,
            ),
        })
    }

    fn aggregate(
        &mut self,
        op: AggOp,
        var: &Name,
        domain: &Expr,
        filter: Option<&Expr>,
        body: Option<&Expr>,
        span: Span,
    ) -> Result<(Node, Type), LangError> {
        let (dom, elem) = self.domain(domain)?;
        let depth = self.depth();
        let slot = self.bind(var, elem)?;
        let filter = filter.map(|f| self.expect(f, Type::Bool)).transpose()?;
        if matches!(op, AggOp::First | AggOp::Last) {
            if !elem.nullable() {
                self.truncate(depth);
                return Err(LangError::new(
                    domain.span,
                    format!(
                        "`{}` needs a collection of cells, players, kinds, directions or tracks (it gives `none` when nothing matches); each element here is {elem}",
                        op.name()
                    ),
                ));
            }
            if let Some(b) = body {
                return Err(LangError::new(
                    b.span,
                    format!("`{}` gives the element itself: remove `: ...`", op.name()),
                ));
            }
            self.truncate(depth);
            return Ok((
                Node::Agg(Box::new(Aggregate {
                    op,
                    slot,
                    domain: dom,
                    filter,
                    body: None,
                    along: None,
                })),
                elem,
            ));
        }
        let (body_type, ret) = match op {
            AggOp::First | AggOp::Last => unreachable!("returned above"),
            AggOp::Count | AggOp::Any | AggOp::All => (Type::Bool, Type::Bool),
            AggOp::Min | AggOp::Max | AggOp::Sum => (Type::Int, Type::Int),
            AggOp::SortDesc | AggOp::SortAsc => (Type::Int, Type::IntList),
        };
        let ret = if op == AggOp::Count { Type::Int } else { ret };
        let body = match body {
            Some(b) => Some(self.expect(b, body_type)?),
            None if matches!(op, AggOp::Count | AggOp::Any | AggOp::All) => None,
            None if elem == Type::Int => None,
            None => {
                return Err(LangError::new(
                    span,
                    format!(
                        "`{}` needs a value to aggregate: add `: EXPRESSION` before `)`",
                        op.name()
                    ),
                ));
            }
        };
        self.truncate(depth);
        Ok((
            Node::Agg(Box::new(Aggregate {
                op,
                slot,
                domain: dom,
                filter,
                body,
                along: None,
            })),
            ret,
        ))
    }

    /// Compiles a collection expression; returns it and its element type.
    pub fn domain(&mut self, e: &Expr) -> Result<(Domain, Type), LangError> {
        let not_collection = |ty: Type| {
            LangError::new(e.span, format!("expected a collection to range over, found {ty}"))
                .help("collections: cells, all_players, kinds, adjacent(CELL), adjacent(CELL, DIRSET), directions(CELL), directions(CELL, DIRSET), ray(CELL, DIR), or a list [a, b, ...]")
        };
        match &e.kind {
            ExprKind::List(items) => {
                let mut nodes = Vec::new();
                let mut elem = Type::Nothing;
                for item in items {
                    let (n, t) = self.expr(item)?;
                    if t.collection().is_none() && t != Type::Nothing {
                        return Err(LangError::new(
                            item.span,
                            format!("a list holds cells, players, kinds or directions, not {t}"),
                        ));
                    }
                    if !t.fits(elem) && !elem.fits(t) {
                        return Err(LangError::new(
                            item.span,
                            format!("a list holds values of one type: expected {elem}, found {t}"),
                        ));
                    }
                    if elem == Type::Nothing {
                        elem = t;
                    }
                    nodes.push(n);
                }
                if elem == Type::Nothing {
                    return Err(LangError::new(e.span, "an empty list has no element type"));
                }
                Ok((Domain::List(nodes.into()), elem))
            }
            ExprKind::Name(n) if self.local(n).is_none() && !self.names.map.contains_key(n) => {
                match natives::lookup(n).find(|x| x.params.is_empty()) {
                    Some(Native {
                        name: "cells", ret, ..
                    }) => Ok((
                        Domain::Cells(SetExpr::All),
                        ret.element().expect("collection type"),
                    )),
                    Some(Native {
                        name,
                        entry: Entry::Set(f),
                        ret,
                        ..
                    }) => Ok((
                        Domain::Native(native_set(*f, name), Box::new([])),
                        ret.element().expect("collection type"),
                    )),
                    _ => {
                        let (_, ty) = self.expr(e)?;
                        Err(not_collection(ty))
                    }
                }
            }
            ExprKind::Call(f, args) if natives::lookup(&f.text).next().is_some() => {
                let native = self.resolve_native(f, args.len(), e.span)?;
                let nodes = self.args(native, args)?;
                match native.entry {
                    Entry::Set(func) => Ok((
                        Domain::Native(native_set(func, native.name), nodes.into()),
                        native.ret.element().expect("collection type"),
                    )),
                    _ => Err(not_collection(native.ret)),
                }
            }
            _ => {
                let (node, ty) = self.expr(e)?;
                if ty == Type::DirSet {
                    // `d in orthogonal`: the directions of a set.
                    let set = NativeSet {
                        f: natives::each_direction,
                        most: Most::Eight,
                        name: "direction set",
                    };
                    return Ok((Domain::Native(set, Box::new([node])), Type::Dir));
                }
                Err(not_collection(ty))
            }
        }
    }

    /// Compiles effect statements.
    pub fn statements(&mut self, stmts: &[Stmt]) -> Result<Vec<Op>, LangError> {
        stmts.iter().map(|s| self.statement(s)).collect()
    }

    fn statement(&mut self, s: &Stmt) -> Result<Op, LangError> {
        self.nest(s.span(), 1)?;
        let checked = self.statement_here(s);
        self.nesting -= 1;
        checked
    }

    fn statement_here(&mut self, s: &Stmt) -> Result<Op, LangError> {
        Ok(match s {
            Stmt::If(c, t, f) => {
                let c = self.expect(c, Type::Bool)?;
                let depth = self.depth();
                let t = self.statements(t)?;
                self.truncate(depth);
                let f = self.statements(f)?;
                self.truncate(depth);
                Op::If(c, t, f)
            }
            Stmt::For {
                var,
                domain,
                filter,
                body,
            } => {
                let (dom, elem) = self.domain(domain)?;
                let depth = self.depth();
                let slot = self.bind(var, elem)?;
                let filter = filter
                    .as_ref()
                    .map(|f| self.expect(f, Type::Bool))
                    .transpose()?;
                let body = self.statements(body)?;
                self.truncate(depth);
                Op::For {
                    slot,
                    domain: dom,
                    filter,
                    body,
                }
            }
            Stmt::Let(var, value) => {
                let (node, ty) = self.expr(value)?;
                let slot = self.bind(var, ty)?;
                Op::Let(slot, node)
            }
            Stmt::Assign {
                target,
                indices,
                value,
            } => match self.names.map.get(&target.text).cloned() {
                Some(Named::Var(slot, ty)) if indices.is_empty() => {
                    Op::SetVar(slot, self.expect(value, ty)?)
                }
                Some(Named::Var(..)) => {
                    return Err(LangError::new(
                        target.span,
                        format!(
                            "`{}` is one variable, not one per player or kind: write `{} = ...` without arguments",
                            target.text, target.text
                        ),
                    ));
                }
                Some(Named::VarAt(slot, ty, per)) => {
                    let span = Span::new(
                        target.span.start,
                        indices.last().map_or(target.span.end, |i| i.span.end + 1),
                    );
                    let index = self.var_index(&target.text, per, indices, span)?;
                    Op::SetVarAt(slot, index, self.expect(value, ty)?)
                }
                _ => {
                    let vars: Vec<String> = self
                        .names
                        .map
                        .iter()
                        .filter(|(_, v)| matches!(v, Named::Var(..) | Named::VarAt(..)))
                        .map(|(k, _)| k.clone())
                        .collect();
                    return Err(LangError::new(
                        target.span,
                        format!("`{}` is not a variable of this game", target.text),
                    )
                    .label("only variables declared under [vars] can be set")
                    .help(if vars.is_empty() {
                        "this game declares no variables".to_string()
                    } else {
                        format!("variables: {}", vars.join(", "))
                    }));
                }
            },
            Stmt::Call(f, args, span) => {
                let native = self.resolve_native(f, args.len(), *span)?;
                let nodes = self.args(native, args)?;
                match native.entry {
                    Entry::Effect(func) => Op::Effect(func, nodes.into(), native.name),
                    _ => {
                        return Err(LangError::new(
                            f.span,
                            format!(
                                "`{}` is not an effect; an effect statement calls move, move_top, place, remove, remove_top, eliminate or end_turn",
                                f.text
                            ),
                        ));
                    }
                }
            }
        })
    }
}

/// What a variable indexed by `per` holds one value for.
fn per_text(per: Per) -> &'static str {
    match per {
        Per::Game => "of the game",
        Per::Player => "per player",
        Per::Kind => "per piece kind",
        Per::PlayerKind => "per player and piece kind",
        Per::Cell => "per cell",
    }
}

/// How to write a reference to variable `name` indexed by `per`.
fn indexed(name: &str, per: Per) -> String {
    match per {
        Per::Game => format!("`{name}`"),
        Per::Player => format!("`{name}(PLAYER)`, e.g. `{name}(me)`"),
        Per::Kind => format!("`{name}(KIND)`, e.g. `{name}(k)` with `k in kinds`"),
        Per::PlayerKind => format!("`{name}(PLAYER, KIND)`, e.g. `{name}(me, top(c))`"),
        Per::Cell => format!("`{name}(CELL)`, e.g. `{name}(to)`"),
    }
}

/// An error found while expanding function `name`, placed in that function's body
/// (unless it is placed already, in a function it calls).
fn within(mut e: LangError, name: &str) -> LangError {
    e.within.get_or_insert_with(|| name.to_string());
    e
}

fn effect_in_expression(name: &str, span: Span) -> LangError {
    LangError::new(
        span,
        format!(
            "`{name}` is an effect: it can only be used in `effect`, not in a value or condition"
        ),
    )
}

fn mismatch(span: Span, want: Type, found: Type) -> LangError {
    LangError::new(span, format!("expected {want}, found {found}"))
        .label(format!("this is {found}"))
}

/// The node for a call of a native function: the commonest ones get nodes of their own
/// (see [`Node::Owner`]), the rest a call through the table.
fn specialise(name: &'static str, func: NativeFn, mut args: Vec<Node>) -> Node {
    match (name, args.len()) {
        // Written `repetitions` or `repetitions()` alike: these nodes tell the set pass
        // that positions must keep their history.
        ("me", 0) => Node::Me,
        ("repetitions", 0) => Node::Repetitions,
        ("board_repeated", 0) => Node::BoardRepeated,
        ("owner", 1) => Node::Owner(Box::new(args.remove(0))),
        ("empty", 1) => Node::Empty(Box::new(args.remove(0))),
        ("top", 1) => Node::Top(Box::new(args.remove(0))),
        ("height", 1) => Node::Height(Box::new(args.remove(0))),
        ("file", 1) => Node::File(Box::new(args.remove(0))),
        ("rank", 1) => Node::Rank(Box::new(args.remove(0))),
        ("pieces", 2) => {
            let (cell, kind) = (args.remove(0), args.remove(0));
            Node::Count(Box::new(cell), Box::new(kind))
        }
        ("has", 2) => {
            let (cell, kind) = (args.remove(0), args.remove(0));
            Node::Has(Box::new(cell), Box::new(kind))
        }
        ("step", 2) => {
            let (cell, dir) = (args.remove(0), args.remove(0));
            Node::Step(Box::new(cell), Box::new(dir))
        }
        ("groups", 1) => Node::Groups(
            Box::new(args.remove(0)),
            Box::new(Node::Const(crate::engine::board::ORTHOGONAL as i64)),
        ),
        ("groups", 2) => {
            let (player, dirs) = (args.remove(0), args.remove(0));
            Node::Groups(Box::new(player), Box::new(dirs))
        }
        _ => Node::Call(func, args.into(), name),
    }
}

/// A native collection as a domain holds it.
fn native_set(f: natives::SetFn, name: &'static str) -> NativeSet {
    NativeSet {
        f,
        most: Most::of_native(name),
        name,
    }
}
