//! The abstract syntax tree of expressions, statements and bindings.
//!
//! Every node carries the byte span of its source text inside the expression string, so
//! later stages can point at the exact place of a mistake.

/// A byte range inside one expression's source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
}

/// Joins `items` left to right with an associative `join`, as a balanced tree: a chain of
/// thousands of `&&` is then a dozen levels deep, not thousands, for every stage that
/// recurses over it. `None` for no items.
pub fn balanced<T>(mut items: Vec<T>, join: &impl Fn(T, T) -> T) -> Option<T> {
    if items.len() <= 1 {
        return items.pop();
    }
    let right = items.split_off(items.len().div_ceil(2));
    Some(join(balanced(items, join)?, balanced(right, join)?))
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
}

/// Binary operators, from loosest to tightest binding: `||`, `&&`, comparisons,
/// `+ -`, `* / %`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinOp {
    /// The operator on two values, as the language defines it on 64-bit whole numbers:
    /// comparisons and `&&`, `||` give 1 or 0, arithmetic wraps, and division or the
    /// remainder by zero gives 0 rather than a crash (game files are user input). `&&`
    /// and `||` here take values already worked out.
    #[inline]
    pub fn apply(self, x: i64, y: i64) -> i64 {
        match self {
            BinOp::Eq => (x == y) as i64,
            BinOp::Ne => (x != y) as i64,
            BinOp::Lt => (x < y) as i64,
            BinOp::Le => (x <= y) as i64,
            BinOp::Gt => (x > y) as i64,
            BinOp::Ge => (x >= y) as i64,
            BinOp::Add => x.wrapping_add(y),
            BinOp::Sub => x.wrapping_sub(y),
            BinOp::Mul => x.wrapping_mul(y),
            BinOp::Div if y == 0 => 0,
            BinOp::Div => x.wrapping_div(y),
            BinOp::Rem if y == 0 => 0,
            BinOp::Rem => x.wrapping_rem(y),
            BinOp::And => (x != 0 && y != 0) as i64,
            BinOp::Or => (x != 0 || y != 0) as i64,
        }
    }

    /// Whether `(a op b) op c` always equals `a op (b op c)`: for these (`&&`, `||`, and
    /// `+`, `*` on wrapping 64-bit numbers) a long chain can be held as a balanced tree.
    pub fn associative(self) -> bool {
        matches!(self, BinOp::Or | BinOp::And | BinOp::Add | BinOp::Mul)
    }

    /// The operator as written in the language.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "||",
            BinOp::And => "&&",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
        }
    }
}

/// Aggregates over a collection: `count(c in cells where P)`, `min(c in cells: height(c))`,
/// `first(x in ray(c, d) where !empty(x))` (an element, or `none`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AggOp {
    Count,
    First,
    Last,
    Any,
    All,
    Min,
    Max,
    Sum,
    SortDesc,
    SortAsc,
}

impl AggOp {
    pub fn from_name(name: &str) -> Option<AggOp> {
        Some(match name {
            "count" => AggOp::Count,
            "first" => AggOp::First,
            "last" => AggOp::Last,
            "any" => AggOp::Any,
            "all" => AggOp::All,
            "min" => AggOp::Min,
            "max" => AggOp::Max,
            "sum" => AggOp::Sum,
            "sort_desc" => AggOp::SortDesc,
            "sort_asc" => AggOp::SortAsc,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            AggOp::Count => "count",
            AggOp::First => "first",
            AggOp::Last => "last",
            AggOp::Any => "any",
            AggOp::All => "all",
            AggOp::Min => "min",
            AggOp::Max => "max",
            AggOp::Sum => "sum",
            AggOp::SortDesc => "sort_desc",
            AggOp::SortAsc => "sort_asc",
        }
    }
}

/// A name with the span where it is written.
#[derive(Clone, Debug, PartialEq)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

/// An expression node with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// The shapes an expression can take.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    None,
    Name(String),
    Call(Name, Vec<Expr>),
    List(Vec<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Agg {
        op: AggOp,
        var: Name,
        domain: Box<Expr>,
        filter: Option<Box<Expr>>,
        body: Option<Box<Expr>>,
    },
}

/// One statement of an effect.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    For {
        var: Name,
        domain: Expr,
        filter: Option<Expr>,
        body: Vec<Stmt>,
    },
    Let(Name, Expr),
    /// `x = v`, or `supply(me) = v`, `hand(me, k) = v` for a variable per player or kind.
    Assign {
        target: Name,
        indices: Vec<Expr>,
        value: Expr,
    },
    Call(Name, Vec<Expr>, Span),
}

impl Stmt {
    /// Where to point at the statement: its condition, the name it binds or sets, or
    /// the call.
    pub fn span(&self) -> Span {
        match self {
            Stmt::If(cond, ..) => cond.span,
            Stmt::For { var, .. } | Stmt::Let(var, _) | Stmt::Assign { target: var, .. } => {
                var.span
            }
            Stmt::Call(_, _, span) => *span,
        }
    }
}

/// One entry of an action's `choose` list.
#[derive(Clone, Debug, PartialEq)]
pub enum Binding {
    /// `x in DOMAIN [where COND]`: branch over every element that passes.
    In {
        var: Name,
        domain: Expr,
        filter: Option<Expr>,
    },
    /// `x = EXPR`: name a value computed in the position before the action.
    Let { var: Name, value: Expr },
    /// `where COND`: keep only the branches where the condition holds.
    Where(Expr),
}
