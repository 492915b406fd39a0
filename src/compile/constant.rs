//! Constant evaluation: expressions that depend only on parameters (and, for board shapes
//! and setup, on `file` and `rank`). They are computed once, before any position exists.

use crate::lang::ast::{BinOp, Expr, ExprKind, UnOp};

use super::LangError;

/// A constant value: a number or a truth value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Const {
    Int(i64),
    Bool(bool),
}

impl Const {
    /// The value as the interpreter stores it.
    pub fn raw(self) -> i64 {
        match self {
            Const::Int(i) => i,
            Const::Bool(b) => b as i64,
        }
    }
}

/// Names a constant expression may use.
pub trait Env {
    fn get(&self, name: &str) -> Option<Const>;
    /// Every name, for "names that exist" help.
    fn names(&self) -> Vec<String>;
}

fn want_int(v: Const, e: &Expr) -> Result<i64, LangError> {
    match v {
        Const::Int(i) => Ok(i),
        Const::Bool(_) => Err(LangError::new(
            e.span,
            "expected a number, found a condition",
        )),
    }
}

fn want_bool(v: Const, e: &Expr) -> Result<bool, LangError> {
    match v {
        Const::Bool(b) => Ok(b),
        Const::Int(_) => Err(LangError::new(
            e.span,
            "expected a condition, found a number",
        )),
    }
}

/// A result of arithmetic on constants, or an error at `e` where it does not fit in a
/// whole number (it would wrap round silently).
fn overflow(result: Option<i64>, e: &Expr) -> Result<i64, LangError> {
    result.ok_or_else(|| {
        LangError::new(
            e.span,
            format!(
                "this arithmetic overflows: whole numbers run from {} to {}",
                i64::MIN,
                i64::MAX
            ),
        )
        .label("too large")
    })
}

/// Evaluates a constant expression.
pub fn eval(e: &Expr, env: &dyn Env) -> Result<Const, LangError> {
    Ok(match &e.kind {
        ExprKind::Int(i) => Const::Int(*i),
        ExprKind::Bool(b) => Const::Bool(*b),
        ExprKind::Name(n) => env
            .get(n)
            .ok_or_else(|| LangError::unknown(e.span, n, env.names()))?,
        ExprKind::Unary(UnOp::Neg, x) => {
            Const::Int(overflow(want_int(eval(x, env)?, x)?.checked_neg(), e)?)
        }
        ExprKind::Unary(UnOp::Not, x) => Const::Bool(!want_bool(eval(x, env)?, x)?),
        ExprKind::If(c, t, f) => {
            let (t, f) = (eval(t, env)?, eval(f, env)?);
            if std::mem::discriminant(&t) != std::mem::discriminant(&f) {
                return Err(LangError::new(
                    e.span,
                    "the two branches of `if` differ in type",
                ));
            }
            if want_bool(eval(c, env)?, c)? { t } else { f }
        }
        ExprKind::Binary(op, a, b) => {
            let (x, y) = (eval(a, env)?, eval(b, env)?);
            match op {
                BinOp::And => Const::Bool(want_bool(x, a)? && want_bool(y, b)?),
                BinOp::Or => Const::Bool(want_bool(x, a)? || want_bool(y, b)?),
                BinOp::Eq | BinOp::Ne => {
                    if std::mem::discriminant(&x) != std::mem::discriminant(&y) {
                        return Err(LangError::new(
                            e.span,
                            "cannot compare a number with a condition",
                        ));
                    }
                    Const::Bool((x == y) == (*op == BinOp::Eq))
                }
                _ => {
                    let (x, y) = (want_int(x, a)?, want_int(y, b)?);
                    match op {
                        BinOp::Lt => Const::Bool(x < y),
                        BinOp::Le => Const::Bool(x <= y),
                        BinOp::Gt => Const::Bool(x > y),
                        BinOp::Ge => Const::Bool(x >= y),
                        BinOp::Add => Const::Int(overflow(x.checked_add(y), e)?),
                        BinOp::Sub => Const::Int(overflow(x.checked_sub(y), e)?),
                        BinOp::Mul => Const::Int(overflow(x.checked_mul(y), e)?),
                        BinOp::Div if y == 0 => Const::Int(0),
                        BinOp::Div => Const::Int(overflow(x.checked_div(y), e)?),
                        _ if y == 0 => Const::Int(0),
                        _ => Const::Int(overflow(x.checked_rem(y), e)?),
                    }
                }
            }
        }
        ExprKind::Call(f, args) if matches!(f.text.as_str(), "abs" | "min" | "max") => {
            let vals = args
                .iter()
                .map(|a| want_int(eval(a, env)?, a))
                .collect::<Result<Vec<_>, _>>()?;
            match (f.text.as_str(), vals.as_slice()) {
                ("abs", [x]) => Const::Int(x.saturating_abs()),
                ("min", [x, y]) => Const::Int(*x.min(y)),
                ("max", [x, y]) => Const::Int(*x.max(y)),
                _ => {
                    return Err(LangError::new(
                        e.span,
                        format!(
                            "`{}` takes {} here",
                            f.text,
                            if f.text == "abs" {
                                "1 argument"
                            } else {
                                "2 arguments"
                            }
                        ),
                    ));
                }
            }
        }
        _ => {
            return Err(LangError::new(
                e.span,
                "only numbers, conditions, parameters, arithmetic, `if`, abs, min and max can be used here",
            ));
        }
    })
}
