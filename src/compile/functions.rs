//! `[functions]`: each function declared, with its parameters, and its body checked on
//! its own. A call of a function is expanded where it is made (see
//! `check::Scope::expand`), but for a function that calls itself, directly or through
//! others: that one declares how deep its calls may nest (`depth`) and what it gives
//! (`returns`), and its body is compiled once and called for real
//! (`engine::program::Callee`).

use std::collections::BTreeSet;
use std::sync::Arc;

use super::*;
use crate::engine::program::{Callee, Recursive};
use crate::lang::ast::ExprKind;

/// The deepest a recursive function's `depth` may be.
pub const MOST_DEPTH: i64 = 1_000;

/// What a call of a recursive function costs on the stack beyond its body, counted in
/// levels of nesting (a frame of slots and the call's own code).
pub const CALL_LEVELS: usize = 4;

/// The most levels of nesting the calls of recursive functions may stack up: the deepest
/// `depth` of the file times (the deepest body's nesting + [`CALL_LEVELS`]). With the
/// 256 levels of the expression that makes the first call and those of the last body,
/// evaluation stays well within a test thread's 2 MiB stack (docs/game-format.md, Limits).
pub const RECURSION_LEVELS: usize = 8_192;

/// A function as the file declares it: its name, parameters, body and `returns`.
type Declared = (String, Vec<(Name, Type)>, Expr, Option<Type>);

impl Compiler<'_> {
    /// Declares the file's functions (`[functions.NAME]`) and checks each body on its own;
    /// the recursive ones, compiled, for the game to hold.
    pub(super) fn functions(&self, names: &mut Names) -> Result<Vec<Recursive>, Box<Diagnostic>> {
        let specs = &self.src.file.functions;
        let mut declared: Vec<Declared> = Vec::new();
        for (name, spec) in specs {
            let span = spec.value.span();
            let reserved = natives::lookup(name).next().is_some()
                || matches!(name.as_str(), "file" | "rank")
                || names.map.contains_key(name);
            if reserved || !is_name(name) {
                return Err(self.at(
                    span,
                    format!("`{name}` cannot name a function"),
                    if reserved {
                        "already a name in this game or the language"
                    } else {
                        "a function's name is a word (letters, digits, _)"
                    },
                ));
            }
            let mut params: Vec<(Name, Type)> = Vec::new();
            for p in &spec.params {
                let text = p.get_ref();
                let (pname, ty) = text
                    .split_once(':')
                    .map_or((text.as_str(), ""), |(a, b)| (a.trim(), b.trim()));
                let Some(ty) = Type::named(ty) else {
                    return Err(self
                        .at(
                            p.span(),
                            format!("`{text}` is not a parameter"),
                            "expected `NAME: TYPE`",
                        )
                        .with_help_box(
                            "types: number, condition, cell, player, kind, direction, directions, track",
                        ));
                };
                if !is_name(pname) || params.iter().any(|(n, _)| n.text == pname) {
                    return Err(self.at(
                        p.span(),
                        format!("`{pname}` cannot name a parameter here"),
                        "a word, once per function",
                    ));
                }
                params.push((
                    Name {
                        text: pname.to_string(),
                        span: Span::new(0, 0),
                    },
                    ty,
                ));
            }
            let returns = match &spec.returns {
                None => None,
                Some(r) => Some(Type::named(r.get_ref()).ok_or_else(|| {
                    self.at(
                        r.span(),
                        format!("`{}` is not a type", r.get_ref()),
                        "what the function gives",
                    )
                    .with_help_box(
                        "types: number, condition, cell, player, kind, direction, directions, track",
                    )
                })?),
            };
            let body = self.parse_expr(&spec.value)?;
            declared.push((name.clone(), params, body, returns));
        }
        let recursive = recursive(&declared);
        for (name, params, body, returns) in declared {
            let spec = &specs[&name];
            let callee = self.callee(&name, spec, params.len(), returns, &recursive)?;
            let function = check::Function {
                name: name.clone(),
                params,
                body,
                returns,
                callee,
            };
            names
                .map
                .insert(name, Named::Function(std::sync::Arc::new(function)));
        }
        // Each body on its own, so that a mistake in one is shown in it even if unused.
        let mut compiled = Vec::new();
        // The deepest `depth` (and whose), and the deepest recursive body.
        let mut deepest: Option<(&String, i64)> = None;
        let mut peak = 0;
        for (name, spec) in specs {
            let Some(Named::Function(f)) = names.map.get(name) else {
                continue;
            };
            let f = f.clone();
            for ((pname, _), p) in f.params.iter().zip(&spec.params) {
                if names.map.contains_key(&pname.text)
                    || natives::lookup(&pname.text).next().is_some()
                {
                    return Err(self.at(
                        p.span(),
                        format!(
                            "`{}` is already the name of something in this game",
                            pname.text
                        ),
                        "choose another name for this parameter",
                    ));
                }
            }
            let mut scope = Scope::new(names);
            let body = scope.function(&f).map_err(|e| self.lang(&spec.value, e))?;
            if let Some(callee) = &f.callee {
                if deepest.is_none_or(|(_, depth)| callee.depth > depth) {
                    deepest = Some((name, callee.depth));
                }
                peak = peak.max(scope.peak);
                compiled.push(Recursive {
                    callee: callee.clone(),
                    body,
                    frame: scope.frame,
                });
            }
        }
        if let Some((name, depth)) = deepest {
            let levels = depth as usize * (peak + CALL_LEVELS);
            if levels > RECURSION_LEVELS {
                let span = specs[name].depth.as_ref().map_or(0..0, |d| d.span());
                return Err(self
                    .at(
                        span,
                        format!(
                            "calls nested {depth} deep, of bodies that nest {peak} levels, \
                             could overflow the stack: {depth} × ({peak} + {CALL_LEVELS}) = \
                             {levels} levels, more than {RECURSION_LEVELS}"
                        ),
                        "the deepest `depth` of the file's recursive functions",
                    )
                    .with_help_box(&format!(
                        "lower `depth`, or make the recursive bodies shallower (the deepest \
                         nests {peak} levels, its functions' calls expanded)"
                    )));
            }
        }
        Ok(compiled)
    }

    /// The run-time function of `name` when it is recursive, with its `depth` and
    /// `returns` checked; `None` for a function that is not (and has no `depth`).
    fn callee(
        &self,
        name: &str,
        spec: &schema::FunctionSpec,
        params: usize,
        returns: Option<Type>,
        recursive: &BTreeMap<String, Span>,
    ) -> Result<Option<Arc<Callee>>, Box<Diagnostic>> {
        let Some(depth) = &spec.depth else {
            if let Some(&call) = recursive.get(name) {
                let e = LangError::new(
                    call,
                    format!("`{name}` calls itself, directly or through other functions, and does not say how deep"),
                )
                .label("this call leads back to it")
                .help(format!(
                    "add `depth = N` to [functions.{name}]: how deep its calls may nest (1 to {MOST_DEPTH}){}",
                    if returns.is_some() { "" } else { ", and `returns = \"TYPE\"`: what it gives" }
                ));
                return Err(self.lang(&spec.value, e));
            }
            return Ok(None);
        };
        if !recursive.contains_key(name) {
            return Err(self
                .at(
                    depth.span(),
                    format!("`{name}` does not call itself: `depth` is for a recursive function"),
                    "remove this",
                )
                .with_help_box("a function that calls no function that calls it back is expanded where it is called"));
        }
        let limit = *depth.get_ref();
        if !(1..=MOST_DEPTH).contains(&limit) {
            return Err(self.at(
                depth.span(),
                format!("a function's `depth` is from 1 to {MOST_DEPTH}"),
                "how deep its calls may nest",
            ));
        }
        let Some(returns) = returns else {
            return Err(self
                .at(
                    depth.span(),
                    format!("`{name}` calls itself: say what it gives with `returns`"),
                    "a recursive function",
                )
                .with_help_box("add `returns = \"TYPE\"` (number, condition, cell, player, kind, direction, directions, track): its calls are checked before its body is"));
        };
        let mut error = *self.at(
            depth.span(),
            format!(
                "function `{name}` was called deeper than its `depth` of {limit}; what was worked out from that call is wrong, and the plies, results or scores that read it were cut short"
            ),
            "how deep its calls may nest",
        );
        error.help.push(format!(
            "raise `depth` (at most {MOST_DEPTH}), or make the body stop sooner: test before the call that it is needed"
        ));
        let past = if returns.nullable() { NONE } else { 0 };
        Ok(Some(Arc::new(Callee::new(
            name.to_string(),
            params,
            limit,
            past,
            error,
        ))))
    }
}

/// The functions that call themselves, directly or through others, each with where its
/// body first calls a function that leads back to it (itself, or one that calls it).
fn recursive(declared: &[Declared]) -> BTreeMap<String, Span> {
    let functions: BTreeSet<&str> = declared.iter().map(|d| d.0.as_str()).collect();
    let calls: BTreeMap<&str, BTreeMap<&str, Span>> = declared
        .iter()
        .map(|(name, _, body, _)| {
            let mut called = BTreeMap::new();
            mentions(body, &functions, &mut called);
            (name.as_str(), called)
        })
        .collect();
    // Whether a call of `from` reaches a call of `to`.
    let reaches = |from: &str, to: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from];
        while let Some(f) = todo.pop() {
            if f == to {
                return true;
            }
            if seen.insert(f) {
                todo.extend(calls[f].keys().copied());
            }
        }
        false
    };
    let mut found = BTreeMap::new();
    for (&name, called) in &calls {
        let back = called.iter().filter(|(f, _)| reaches(f, name));
        if let Some((_, span)) = back.min_by_key(|(_, span)| span.start) {
            found.insert(name.to_string(), *span);
        }
    }
    found
}

/// The functions of `functions` that `e` names, each with where it is first named (every
/// name of a function in a body is a call of it: no local name may shadow one).
fn mentions<'a>(e: &Expr, functions: &BTreeSet<&'a str>, into: &mut BTreeMap<&'a str, Span>) {
    let mut name = |n: &str, span: Span| {
        if let Some(&f) = functions.get(n) {
            into.entry(f).or_insert(span);
        }
    };
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::None => {}
        ExprKind::Name(n) => name(n, e.span),
        ExprKind::Call(f, args) => {
            name(&f.text, e.span);
            args.iter().for_each(|a| mentions(a, functions, into));
        }
        ExprKind::List(items) => items.iter().for_each(|a| mentions(a, functions, into)),
        ExprKind::Unary(_, x) => mentions(x, functions, into),
        ExprKind::Binary(_, a, b) => {
            mentions(a, functions, into);
            mentions(b, functions, into);
        }
        ExprKind::If(c, t, f) => {
            for x in [c, t, f] {
                mentions(x, functions, into);
            }
        }
        ExprKind::Agg {
            domain,
            filter,
            body,
            ..
        } => {
            mentions(domain, functions, into);
            for x in [filter, body].into_iter().flatten() {
                mentions(x, functions, into);
            }
        }
    }
}
