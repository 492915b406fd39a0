//! The pest parser for the expression language, folded into the AST by precedence, with
//! chains of one associative operator balanced and nesting bounded ([`MAX_NESTING`]).
//!
//! Syntax errors come back as a [`SyntaxError`] with a span inside the expression text and
//! a human list of what was expected there (rule names are renamed, never shown raw).

use pest::Parser;
use pest::iterators::Pair;

use super::ast::*;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/expr.pest"]
struct ExprParser;

/// A syntax error located inside one expression string.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntaxError {
    pub span: Span,
    pub message: String,
}

/// How deeply one expression may nest: brackets, calls, `if`s, aggregates and operators
/// inside one another. Parsing, checking, compiling and evaluating all recurse once per
/// level, and the parser is the hungriest: measured on a 2 MiB thread stack (a test
/// thread's), it overflows past about 980 nested calls, 1,200 nested `if`s or 2,600
/// nested brackets (four times as many on an 8 MiB main thread), while evaluation goes
/// past 4,400 levels. Real rules nest a dozen or two levels deep; a long chain of one
/// operator (`a && b && ...`) is held as a balanced tree, so thousands of operators make
/// a dozen levels. The limit stops a file from exhausting the stack, never a rule.
pub const MAX_NESTING: usize = 256;

/// The error for a node too deep, pointed at its first character: its whole text would
/// be most of the expression.
fn too_deep(span: Span) -> SyntaxError {
    SyntaxError {
        span: Span::new(span.start, span.start + 1),
        message: format!(
            "this expression nests too deeply: more than {MAX_NESTING} brackets, calls, `if`s and operators inside one another (work inner parts out with `let` bindings, or split the rule)"
        ),
    }
}

/// Refuses text that nests past the limit before pest, which recurses, parses it. Pest
/// nests once per bracket and once per `if` (an `else if` chain nests without brackets),
/// so each open bracket plus the `if`s met since it opened is one level: an upper bound,
/// since a `;` at a bracket's level ends every `if` before it there.
fn check_nesting(src: &str) -> Result<(), SyntaxError> {
    let code = without_comments(src);
    let bytes = code.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    // The `if`s counted at each open bracket's level, outermost (the whole text) first.
    let mut ifs: Vec<usize> = vec![0];
    let mut depth = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let level = ifs.len() - 1;
        match b {
            b'(' | b'[' | b'{' => {
                ifs.push(0);
                depth += 1;
            }
            b')' | b']' | b'}' if level > 0 => depth -= 1 + ifs.pop().unwrap_or(0),
            b';' => depth -= std::mem::take(&mut ifs[level]),
            b'i' if bytes.get(i + 1) == Some(&b'f')
                && (i == 0 || !word(bytes[i - 1]))
                && bytes.get(i + 2).is_none_or(|&c| !word(c)) =>
            {
                ifs[level] += 1;
                depth += 1;
            }
            _ => continue,
        }
        if depth > MAX_NESTING {
            return Err(too_deep(Span::new(i, i)));
        }
    }
    Ok(())
}

/// A piece of syntax tree with its height (how many nodes deep it goes), or the error.
type Built<T> = Result<(T, usize), SyntaxError>;

/// A node over children at most `below` deep, refused when it passes the limit: no tree
/// deeper than the limit is ever built (nor dropped, which recurses too).
fn node(kind: ExprKind, span: Span, below: usize) -> Built<Expr> {
    if below >= MAX_NESTING {
        return Err(too_deep(span));
    }
    Ok((Expr { kind, span }, below + 1))
}

/// Parses a value or condition.
pub fn parse_expression(src: &str) -> Result<Expr, SyntaxError> {
    check_nesting(src)?;
    let mut pairs = ExprParser::parse(Rule::expression, src).map_err(|e| explain(src, e))?;
    let top = pairs.next().expect("expression rule matched");
    let expr = top.into_inner().next().expect("expression holds expr");
    Ok(build_expr(expr)?.0)
}

/// Parses an effect: statements separated by `;`.
pub fn parse_statements(src: &str) -> Result<Vec<Stmt>, SyntaxError> {
    check_nesting(src)?;
    let mut pairs = ExprParser::parse(Rule::statements, src).map_err(|e| explain(src, e))?;
    let top = pairs.next().expect("statements rule matched");
    let block = top.into_inner().next().expect("statements hold a block");
    Ok(build_block(block)?.0)
}

/// Parses one entry of a `choose` list.
pub fn parse_binding(src: &str) -> Result<Binding, SyntaxError> {
    check_nesting(src)?;
    let mut pairs = ExprParser::parse(Rule::binding, src).map_err(|e| explain(src, e))?;
    let top = pairs.next().expect("binding rule matched");
    let inner = top.into_inner().next().expect("binding holds one form");
    let rule = inner.as_rule();
    let mut parts = inner_of(inner);
    Ok(match rule {
        Rule::bind_in => {
            let var = name(parts.next().expect("var"));
            let domain = build_expr(parts.next().expect("domain"))?.0;
            let filter = parts.next().map(build_expr).transpose()?.map(|f| f.0);
            Binding::In {
                var,
                domain,
                filter,
            }
        }
        Rule::bind_let => {
            let var = name(parts.next().expect("var"));
            let value = build_expr(parts.next().expect("value"))?.0;
            Binding::Let { var, value }
        }
        _ => Binding::Where(build_expr(parts.next().expect("condition"))?.0),
    })
}

/// The children of a pair without the keyword tokens, which only mark structure.
fn inner_of(pair: Pair<Rule>) -> impl Iterator<Item = Pair<Rule>> {
    pair.into_inner().filter(|p| {
        !matches!(
            p.as_rule(),
            Rule::kw_if
                | Rule::kw_then
                | Rule::kw_else
                | Rule::kw_in
                | Rule::kw_where
                | Rule::kw_for
                | Rule::kw_let
                | Rule::kw_and
                | Rule::kw_or
                | Rule::kw_not
        )
    })
}

fn span_of(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

fn name(pair: Pair<Rule>) -> Name {
    Name {
        text: pair.as_str().to_string(),
        span: span_of(&pair),
    }
}

fn binary_op(rule: Rule) -> Option<BinOp> {
    Some(match rule {
        Rule::or => BinOp::Or,
        Rule::and => BinOp::And,
        Rule::eq => BinOp::Eq,
        Rule::ne => BinOp::Ne,
        Rule::lt => BinOp::Lt,
        Rule::le => BinOp::Le,
        Rule::gt => BinOp::Gt,
        Rule::ge => BinOp::Ge,
        Rule::add => BinOp::Add,
        Rule::sub => BinOp::Sub,
        Rule::mul => BinOp::Mul,
        Rule::div => BinOp::Div,
        Rule::rem => BinOp::Rem,
        _ => return None,
    })
}

/// How tightly an operator binds, loosest 0: `||`, `&&`, comparisons, `+ -`, `* / %`.
fn precedence(op: BinOp) -> usize {
    match op {
        BinOp::Or => 0,
        BinOp::And => 1,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 2,
        BinOp::Add | BinOp::Sub => 3,
        BinOp::Mul | BinOp::Div | BinOp::Rem => 4,
    }
}

/// An `expr`: the flat sequence `prefix* operand (infix prefix* operand)*` the grammar
/// matches, folded by precedence, every operator left-associative.
fn build_expr(pair: Pair<Rule>) -> Built<Expr> {
    debug_assert_eq!(pair.as_rule(), Rule::expr);
    let mut operands = Vec::new();
    let mut ops = Vec::new();
    let mut prefixes: Vec<Pair<Rule>> = Vec::new();
    for p in pair.into_inner() {
        if let Some(op) = binary_op(p.as_rule()) {
            ops.push(op);
        } else if matches!(p.as_rule(), Rule::neg | Rule::not) {
            prefixes.push(p);
        } else {
            let (mut e, mut height) = build_operand(p)?;
            for op in prefixes.drain(..).rev() {
                let span = Span::new(op.as_span().start(), e.span.end);
                let op = if op.as_rule() == Rule::neg {
                    UnOp::Neg
                } else {
                    UnOp::Not
                };
                (e, height) = node(ExprKind::Unary(op, Box::new(e)), span, height)?;
            }
            operands.push((e, height));
        }
    }
    fold(operands, &ops, 0)
}

/// Folds `operands` joined by `ops` (one fewer) from precedence `level` on: split at the
/// operators of that level, each piece folded at the next, the pieces joined left to
/// right, a run of one associative operator as a balanced tree (see [`balanced`]).
fn fold(operands: Vec<(Expr, usize)>, ops: &[BinOp], level: usize) -> Built<Expr> {
    let mut operands = operands.into_iter();
    if ops.is_empty() {
        return Ok(operands.next().expect("an expr has an operand"));
    }
    if !ops.iter().any(|op| precedence(*op) == level) {
        return fold(operands.collect(), ops, level + 1);
    }
    let mut pieces = Vec::new();
    let mut joins = Vec::new();
    let mut start = 0;
    for (i, op) in ops.iter().enumerate() {
        if precedence(*op) == level {
            let piece = operands.by_ref().take(i + 1 - start).collect();
            pieces.push(fold(piece, &ops[start..i], level + 1)?);
            joins.push(*op);
            start = i + 1;
        }
    }
    pieces.push(fold(operands.collect(), &ops[start..], level + 1)?);
    let mut pieces = pieces.into_iter();
    let mut acc = pieces.next().expect("a first piece");
    let mut joins = joins.into_iter().peekable();
    while let Some(op) = joins.next() {
        let mut run = vec![Ok(acc), Ok(pieces.next().expect("a piece per operator"))];
        while op.associative() && joins.next_if_eq(&op).is_some() {
            run.push(Ok(pieces.next().expect("a piece per operator")));
        }
        let join = |a: Built<Expr>, b: Built<Expr>| {
            let ((a, ha), (b, hb)) = (a?, b?);
            let span = Span::new(a.span.start, b.span.end);
            node(
                ExprKind::Binary(op, Box::new(a), Box::new(b)),
                span,
                ha.max(hb),
            )
        };
        acc = balanced(run, &join).expect("a run has operands")?;
    }
    Ok(acc)
}

/// The exprs of `pairs`, and the height of the deepest.
fn build_all<'a>(pairs: impl Iterator<Item = Pair<'a, Rule>>) -> Built<Vec<Expr>> {
    let mut height = 0;
    let mut out = Vec::new();
    for p in pairs {
        let (e, h) = build_expr(p)?;
        height = height.max(h);
        out.push(e);
    }
    Ok((out, height))
}

fn build_operand(pair: Pair<Rule>) -> Built<Expr> {
    let span = span_of(&pair);
    let (kind, below) = match pair.as_rule() {
        Rule::expr => return build_expr(pair),
        // Digits only: the grammar guarantees it; saturate absurdly long literals, the
        // checker bounds numbers where it matters.
        Rule::int => (ExprKind::Int(pair.as_str().parse().unwrap_or(i64::MAX)), 0),
        Rule::boolean => (ExprKind::Bool(pair.as_str() == "true"), 0),
        Rule::none => (ExprKind::None, 0),
        Rule::ident => (ExprKind::Name(pair.as_str().to_string()), 0),
        Rule::list => {
            let (items, height) = build_all(inner_of(pair))?;
            (ExprKind::List(items), height)
        }
        Rule::call => {
            let mut inner = inner_of(pair);
            let callee = name(inner.next().expect("callee"));
            let (args, height) = build_all(inner)?;
            (ExprKind::Call(callee, args), height)
        }
        Rule::if_expr => {
            let (mut parts, height) = build_all(inner_of(pair))?;
            let (e, t, c) = (parts.pop(), parts.pop(), parts.pop());
            let (Some(c), Some(t), Some(e)) = (c, t, e) else {
                unreachable!("`if` has a condition and two branches")
            };
            (ExprKind::If(Box::new(c), Box::new(t), Box::new(e)), height)
        }
        Rule::aggregate => {
            let mut inner = inner_of(pair);
            let op = AggOp::from_name(inner.next().expect("op").as_str()).expect("agg op");
            let var = name(inner.next().expect("var"));
            let (domain, mut height) = build_expr(inner.next().expect("domain"))?;
            // The optional `where` and `:` parts are told apart by the text between them.
            let mut filter = None;
            let mut body = None;
            for pair in inner {
                let preceded_by_colon = {
                    let before = &pair.get_input()[..pair.as_span().start()];
                    before.trim_end().ends_with(':')
                };
                let (e, h) = build_expr(pair)?;
                height = height.max(h);
                if preceded_by_colon {
                    body = Some(Box::new(e));
                } else {
                    filter = Some(Box::new(e));
                }
            }
            let domain = Box::new(domain);
            let kind = ExprKind::Agg {
                op,
                var,
                domain,
                filter,
                body,
            };
            (kind, height)
        }
        rule => unreachable!("operand rule {rule:?}"),
    };
    node(kind, span, below)
}

fn build_block(pair: Pair<Rule>) -> Built<Vec<Stmt>> {
    let mut height = 0;
    let mut out = Vec::new();
    for p in inner_of(pair).filter(|p| p.as_rule() != Rule::semicolon) {
        let (s, h) = build_stmt(p)?;
        height = height.max(h);
        out.push(s);
    }
    Ok((out, height))
}

fn build_stmt(pair: Pair<Rule>) -> Built<Stmt> {
    let span = span_of(&pair);
    let (stmt, below) = match pair.as_rule() {
        Rule::if_stmt => {
            let mut inner = inner_of(pair);
            let (cond, hc) = build_expr(inner.next().expect("cond"))?;
            let braced = inner.next().expect("then");
            let (then, ht) = build_block(braced.into_inner().next().expect("block"))?;
            let (otherwise, he) = match inner.next() {
                None => (Vec::new(), 0),
                Some(p) if p.as_rule() == Rule::if_stmt => {
                    let (s, h) = build_stmt(p)?;
                    (vec![s], h)
                }
                Some(p) => build_block(p.into_inner().next().expect("block"))?,
            };
            (Stmt::If(cond, then, otherwise), hc.max(ht).max(he))
        }
        Rule::for_stmt => {
            let mut inner = inner_of(pair);
            let var = name(inner.next().expect("var"));
            let (domain, mut height) = build_expr(inner.next().expect("domain"))?;
            let mut next = inner.next().expect("body");
            let filter = if next.as_rule() == Rule::expr {
                let (f, h) = build_expr(next)?;
                height = height.max(h);
                next = inner.next().expect("body");
                Some(f)
            } else {
                None
            };
            let (body, h) = build_block(next.into_inner().next().expect("block"))?;
            let stmt = Stmt::For {
                var,
                domain,
                filter,
                body,
            };
            (stmt, height.max(h))
        }
        Rule::let_stmt => {
            let mut inner = inner_of(pair);
            let var = name(inner.next().expect("var"));
            let (value, h) = build_expr(inner.next().expect("value"))?;
            (Stmt::Let(var, value), h)
        }
        Rule::assign => {
            let mut inner: Vec<Pair<Rule>> = inner_of(pair).collect();
            let (value, mut height) = build_expr(inner.pop().expect("value"))?;
            let mut it = inner.into_iter();
            let target = name(it.next().expect("target"));
            let (indices, h) = build_all(it)?;
            let stmt = Stmt::Assign {
                target,
                indices,
                value,
            };
            height = height.max(h);
            (stmt, height)
        }
        Rule::call => {
            let mut inner = inner_of(pair);
            let callee = name(inner.next().expect("callee"));
            let (args, h) = build_all(inner)?;
            (Stmt::Call(callee, args, span), h)
        }
        rule => unreachable!("statement rule {rule:?}"),
    };
    if below >= MAX_NESTING {
        return Err(too_deep(span));
    }
    Ok((stmt, below + 1))
}

/// Human names for grammar rules, used in "expected ..." lists.
fn rule_name(rule: &Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::EOI => "end of expression",
        Rule::expr | Rule::expression => "an expression",
        Rule::ident => "a name",
        Rule::int => "a number",
        Rule::or | Rule::and => "a logical operator (&&, ||)",
        Rule::eq | Rule::ne | Rule::lt | Rule::le | Rule::gt | Rule::ge => {
            "a comparison (==, !=, <, <=, >, >=)"
        }
        Rule::add | Rule::sub | Rule::mul | Rule::div | Rule::rem => {
            "an arithmetic operator (+, -, *, /, %)"
        }
        Rule::neg | Rule::not => "a prefix operator (-, !)",
        Rule::if_expr | Rule::if_stmt => "`if`",
        Rule::kw_then => "`then`",
        Rule::kw_else => "`else` (an `if ... then ...` expression needs one)",
        Rule::aggregate | Rule::agg_op => {
            "an aggregate (count, any, all, min, max, sum, first, last, sort_desc, sort_asc)"
        }
        Rule::call => "a function call",
        Rule::list => "a list `[...]`",
        Rule::boolean => "true or false",
        Rule::none => "none",
        Rule::for_stmt => "`for`",
        Rule::let_stmt => "`let`",
        Rule::assign => "an assignment",
        Rule::block | Rule::statements => "a statement",
        Rule::braced => "a block `{ ... }`",
        Rule::semicolon => "`;` between statements",
        Rule::bind_in => "`NAME in COLLECTION`",
        Rule::bind_let => "`NAME = EXPRESSION`",
        Rule::bind_where => "`where CONDITION`",
        Rule::binding => "a binding",
        _ => return None,
    })
}

/// A syntax error as a person would describe it. Pest reports where the text stopped
/// making sense, as a list of what could have come there, which misleads for two common
/// slips: a bracket never closed (pest blames the end of the expression) and an aggregate
/// that does not exist (pest reads `avg(c in cells: ...)` as a call and blames the `in`).
/// Those two are looked for first; anything else keeps pest's account.
fn explain(src: &str, err: pest::error::Error<Rule>) -> SyntaxError {
    unknown_aggregate(src)
        .or_else(|| unbalanced(src))
        .unwrap_or_else(|| convert_error(err))
}

/// `NAME(x in ...` where NAME is not an aggregate: only an aggregate takes `x in`.
fn unknown_aggregate(src: &str) -> Option<SyntaxError> {
    let code = without_comments(src);
    let bytes = code.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i < bytes.len() {
        if !(word(bytes[i]) && (i == 0 || !word(bytes[i - 1]))) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && word(bytes[i]) {
            i += 1;
        }
        let name = &code[start..i];
        let rest = code[i..].trim_start();
        let Some(inside) = rest.strip_prefix('(') else {
            continue;
        };
        let inside = inside.trim_start();
        let var_len = inside.bytes().take_while(|&b| word(b)).count();
        let after = &inside[var_len..];
        let takes_in = var_len > 0
            && after.starts_with(char::is_whitespace)
            && after
                .trim_start()
                .strip_prefix("in")
                .is_some_and(|r| r.bytes().next().is_none_or(|b| !word(b)));
        if takes_in && AggOp::from_name(name).is_none() && !name.as_bytes()[0].is_ascii_digit() {
            return Some(SyntaxError {
                span: Span::new(start, start + name.len()),
                message: format!(
                    "there is no aggregate `{name}`: `NAME(x in ...)` is an aggregate, one of \
                     count, any, all, min, max, sum, first, last, sort_desc, sort_asc"
                ),
            });
        }
    }
    None
}

/// The first bracket that is never closed, or the first closing one that closes nothing
/// or the wrong kind.
fn unbalanced(src: &str) -> Option<SyntaxError> {
    let code = without_comments(src);
    let mut open: Vec<(usize, char)> = Vec::new();
    for (i, c) in code.char_indices() {
        match c {
            '(' | '[' | '{' => open.push((i, c)),
            ')' | ']' | '}' => {
                let want = match c {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                match open.pop() {
                    Some((_, o)) if o == want => {}
                    Some((_, o)) => {
                        let missing = match o {
                            '(' => ')',
                            '[' => ']',
                            _ => '}',
                        };
                        return Some(SyntaxError {
                            span: Span::new(i, i + 1),
                            message: format!(
                                "this `{c}` closes a `{o}`: a `{missing}` is missing before it"
                            ),
                        });
                    }
                    None => {
                        return Some(SyntaxError {
                            span: Span::new(i, i + 1),
                            message: format!("this `{c}` closes nothing: no `{want}` is open"),
                        });
                    }
                }
            }
            _ => {}
        }
    }
    let (i, c) = open.pop()?;
    let close = match c {
        '(' => ')',
        '[' => ']',
        _ => '}',
    };
    Some(SyntaxError {
        span: Span::new(i, i + 1),
        message: format!("this `{c}` is never closed: a `{close}` is missing"),
    })
}

/// The expression with its `#` comments blanked out (same length, so places still match).
fn without_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut in_comment = false;
    for c in src.chars() {
        if c == '#' {
            in_comment = true;
        } else if c == '\n' {
            in_comment = false;
        }
        if in_comment {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    out
}

fn convert_error(err: pest::error::Error<Rule>) -> SyntaxError {
    use pest::error::{ErrorVariant, InputLocation};
    let (start, end) = match err.location {
        InputLocation::Pos(p) => (p, p),
        InputLocation::Span((s, e)) => (s, e),
    };
    let message = match &err.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<&str> = positives.iter().filter_map(rule_name).collect();
            names.sort();
            names.dedup();
            match names.len() {
                0 => "unexpected text".to_string(),
                1 => format!("expected {}", names[0]),
                _ => {
                    let last = names.pop().unwrap_or_default();
                    format!("expected {} or {}", names.join(", "), last)
                }
            }
        }
        ErrorVariant::CustomError { message } => message.clone(),
    };
    SyntaxError {
        span: Span::new(start, end),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Int(i) => i.to_string(),
            ExprKind::Bool(b) => b.to_string(),
            ExprKind::None => "none".into(),
            ExprKind::Name(n) => n.clone(),
            ExprKind::Call(f, args) => format!(
                "{}({})",
                f.text,
                args.iter().map(show).collect::<Vec<_>>().join(", ")
            ),
            ExprKind::List(xs) => {
                format!("[{}]", xs.iter().map(show).collect::<Vec<_>>().join(", "))
            }
            ExprKind::Unary(UnOp::Neg, x) => format!("(-{})", show(x)),
            ExprKind::Unary(UnOp::Not, x) => format!("(!{})", show(x)),
            ExprKind::Binary(op, a, b) => format!("({} {} {})", show(a), op.symbol(), show(b)),
            ExprKind::If(c, t, f) => format!("(if {} then {} else {})", show(c), show(t), show(f)),
            ExprKind::Agg {
                op,
                var,
                domain,
                filter,
                body,
            } => format!(
                "{}({} in {}{}{})",
                op.name(),
                var.text,
                show(domain),
                filter
                    .as_ref()
                    .map(|f| format!(" where {}", show(f)))
                    .unwrap_or_default(),
                body.as_ref()
                    .map(|b| format!(": {}", show(b)))
                    .unwrap_or_default()
            ),
        }
    }

    #[test]
    fn precedence_and_associativity() {
        let e = parse_expression("1 + 2 * 3 - 4 == 3 && !a || b").unwrap();
        assert_eq!(show(&e), "(((((1 + (2 * 3)) - 4) == 3) && (!a)) || b)");
        let e = parse_expression("-a % 2 != 0 and not b or c").unwrap();
        assert_eq!(show(&e), "(((((-a) % 2) != 0) && (!b)) || c)");
    }

    #[test]
    fn a_chain_of_one_associative_operator_is_balanced_and_others_fold_left() {
        let e = parse_expression("a && b && c").unwrap();
        assert_eq!(show(&e), "((a && b) && c)");
        let e = parse_expression("a && b && c && d || e").unwrap();
        assert_eq!(show(&e), "(((a && b) && (c && d)) || e)");
        let e = parse_expression("a - b + c + d + e - f").unwrap();
        assert_eq!(show(&e), "((((a - b) + c) + (d + e)) - f)");
        let long = vec!["x"; 4096].join(" + ");
        let e = parse_expression(&long).unwrap();
        let depth = |mut e: &Expr| {
            let mut d = 1;
            while let ExprKind::Binary(_, a, _) = &e.kind {
                e = a;
                d += 1;
            }
            d
        };
        assert_eq!(depth(&e), 13);
    }

    #[test]
    fn aggregates_calls_and_ifs() {
        let e = parse_expression("min(c in cells where height(c) > 0: height(c))").unwrap();
        assert_eq!(show(&e), "min(c in cells where (height(c) > 0): height(c))");
        let e = parse_expression("max(c in cells: height(c))").unwrap();
        assert_eq!(show(&e), "max(c in cells: height(c))");
        let e = parse_expression("count(c in adjacent(x, orthogonal) where empty(c))").unwrap();
        assert_eq!(
            show(&e),
            "count(c in adjacent(x, orthogonal) where empty(c))"
        );
        let e = parse_expression("max(a, b) + if x then 1 else 2").unwrap();
        assert_eq!(show(&e), "(max(a, b) + (if x then 1 else 2))");
        let e = parse_expression("[n, e] ").unwrap();
        assert_eq!(show(&e), "[n, e]");
    }

    #[test]
    fn keywords_are_not_names_but_prefixes_are() {
        assert!(parse_expression("iffy + nonempty + input").is_ok());
        assert!(parse_expression("if + 1").is_err());
    }

    #[test]
    fn statements_and_bindings() {
        let s = parse_statements("move(a, b); x = x + 1; supply(me) = 3; if c { remove(a) } else if d { end_turn() } else { }; for c in cells where empty(c) { place(c, k) };").unwrap();
        assert_eq!(s.len(), 5);
        assert!(parse_statements("").unwrap().is_empty());
        assert!(matches!(
            parse_binding("to in cells where empty(to)").unwrap(),
            Binding::In {
                filter: Some(_),
                ..
            }
        ));
        assert!(matches!(
            parse_binding("g = group_size(from)").unwrap(),
            Binding::Let { .. }
        ));
        assert!(matches!(
            parse_binding("where g > 1").unwrap(),
            Binding::Where(_)
        ));
    }

    #[test]
    fn errors_are_located_and_human() {
        let e = parse_expression("height(c) >").unwrap_err();
        assert_eq!(e.span.start, 11);
        assert!(e.message.starts_with("expected"), "{}", e.message);
        assert!(!e.message.contains("Rule"), "{}", e.message);
        let e = parse_expression("a b").unwrap_err();
        assert_eq!(e.span.start, 2);
    }

    #[test]
    fn an_unknown_aggregate_is_named_not_blamed_on_its_in() {
        let e = parse_expression("1 + avg(c in cells: height(c))").unwrap_err();
        assert_eq!((e.span.start, e.span.end), (4, 7));
        assert!(
            e.message.starts_with("there is no aggregate `avg`"),
            "{}",
            e.message
        );
        // A call with `in` after a name is an aggregate, whatever the spacing.
        let e = parse_binding("x in cells where Count( c  in adjacent(x))").unwrap_err();
        assert!(
            e.message.starts_with("there is no aggregate `Count`"),
            "{}",
            e.message
        );
    }

    #[test]
    fn a_missing_bracket_is_blamed_on_the_bracket_left_open() {
        let e = parse_expression("max(c in cells: height(c) # (\n + 1").unwrap_err();
        assert_eq!(e.span.start, 3);
        assert_eq!(e.message, "this `(` is never closed: a `)` is missing");
        let e = parse_expression("[n, e)").unwrap_err();
        assert_eq!(e.span.start, 5);
        assert_eq!(
            e.message,
            "this `)` closes a `[`: a `]` is missing before it"
        );
        let e = parse_statements("move(a, b))").unwrap_err();
        assert_eq!(e.message, "this `)` closes nothing: no `(` is open");
    }
}
