//! Stack tests: conditions on one cell's stack alone (such as `height(x) == 1` or
//! `pieces(x, k) >= 1`) that filters over cells ask, and whose cells the position
//! keeps as sets (see `compile::sets` and `state::State`).
//!
//! A position works every test out again for each stack it edits, so the tests are kept
//! in the shape they are evaluated in: the common one, a reading of the stack compared
//! with a constant, is one match and one comparison, not a walk down an expression tree.
//! A test is given as a [`StackExpr`], the few expressions a test is made of, so that
//! this floor, below positions, needs nothing of the program above it (which turns its
//! own expressions into these: `program::Node::stack_expr`).

use std::sync::Arc;

use super::piece::{NEUTRAL, NONE, Piece};
use crate::lang::ast::BinOp;

/// An expression of one stack, the cell's own: what a stack test is made of.
#[derive(Clone, Debug, PartialEq)]
pub enum StackExpr {
    Const(i64),
    Height,
    Empty,
    Top,
    Owner,
    /// The pieces of a kind in the stack.
    Count(Box<StackExpr>),
    /// Whether the stack holds a piece of a kind.
    Has(Box<StackExpr>),
    Not(Box<StackExpr>),
    Neg(Box<StackExpr>),
    Binary(BinOp, Box<StackExpr>, Box<StackExpr>),
    If(Box<StackExpr>, Box<StackExpr>, Box<StackExpr>),
}

/// The most stack tests a game keeps sets for: their results on one cell are a word.
pub const MAX_TESTS: usize = 64;

/// The game's stack tests, shared by every position of a game.
#[derive(Clone, Debug, Default)]
pub struct StackTests(Arc<[Test]>);

impl PartialEq for StackTests {
    fn eq(&self, other: &StackTests) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.is_empty() && other.0.is_empty()
    }
}

impl Eq for StackTests {}

impl StackTests {
    /// The tests (at most [`MAX_TESTS`]).
    pub fn new(tests: Vec<StackExpr>) -> StackTests {
        debug_assert!(tests.len() <= MAX_TESTS);
        StackTests(tests.into_iter().map(Test::new).collect())
    }

    /// How many tests there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether two handles share their tests (so a copy need not take the other's).
    pub fn same(&self, other: &StackTests) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// The tests a stack passes, one bit per test.
    #[inline]
    pub fn passed(&self, stack: &[Piece]) -> u64 {
        self.0
            .iter()
            .enumerate()
            .fold(0, |bits, (i, test)| bits | (test.passes(stack) as u64) << i)
    }

    /// Whether a stack passes test number `i`.
    pub fn passes(&self, i: usize, stack: &[Piece]) -> bool {
        self.0[i].passes(stack)
    }
}

/// One test, in the shape it is evaluated in.
#[derive(Debug)]
enum Test {
    /// A reading of the stack compared with a constant.
    Compare(BinOp, Reading, i64),
    /// Any other test, walked as the expression it is.
    Tree(StackExpr),
}

/// What a test reads of a stack.
#[derive(Clone, Copy, Debug)]
enum Reading {
    Height,
    Top,
    Owner,
    /// The pieces of one kind in the stack.
    Count(i64),
}

impl Test {
    fn new(node: StackExpr) -> Test {
        use StackExpr as E;
        let reading = |node: &StackExpr| match node {
            E::Height => Some(Reading::Height),
            E::Top => Some(Reading::Top),
            E::Owner => Some(Reading::Owner),
            E::Count(kind) => match **kind {
                E::Const(k) => Some(Reading::Count(k)),
                _ => None,
            },
            // `empty(x)` is `height(x) == 0`, `has(x, K)` is `pieces(x, K) != 0`.
            _ => None,
        };
        let compared = match &node {
            E::Binary(
                op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
                a,
                b,
            ) => match (reading(a), &**b) {
                (Some(r), E::Const(c)) => Some((*op, r, *c)),
                _ => None,
            },
            E::Empty => Some((BinOp::Eq, Reading::Height, 0)),
            E::Not(x) if matches!(**x, E::Empty) => Some((BinOp::Ne, Reading::Height, 0)),
            E::Has(kind) => match **kind {
                E::Const(k) => Some((BinOp::Ne, Reading::Count(k), 0)),
                _ => None,
            },
            E::Not(x) => match &**x {
                E::Has(kind) => match **kind {
                    E::Const(k) => Some((BinOp::Eq, Reading::Count(k), 0)),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        match compared {
            Some((op, reading, value)) => Test::Compare(op, reading, value),
            None => Test::Tree(node),
        }
    }

    #[inline]
    fn passes(&self, stack: &[Piece]) -> bool {
        match self {
            Test::Compare(op, reading, value) => {
                let x = match *reading {
                    Reading::Height => stack.len() as i64,
                    Reading::Top => stack.last().map_or(NONE, |p| p.kind as i64),
                    Reading::Owner => owner(stack),
                    Reading::Count(kind) => {
                        stack.iter().filter(|p| p.kind as i64 == kind).count() as i64
                    }
                };
                op.apply(x, *value) != 0
            }
            Test::Tree(node) => value(node, stack) != 0,
        }
    }
}

/// The owner of a stack's top piece, or [`NONE`] (empty, or a neutral piece).
fn owner(stack: &[Piece]) -> i64 {
    match stack.last() {
        Some(p) if p.owner != NEUTRAL => p.owner as i64,
        _ => NONE,
    }
}

/// The value of a test's expression for a stack.
fn value(node: &StackExpr, stack: &[Piece]) -> i64 {
    use StackExpr as E;
    let kind_count = |k: &StackExpr| {
        let k = value(k, stack);
        stack.iter().filter(|p| p.kind as i64 == k).count() as i64
    };
    match node {
        E::Const(v) => *v,
        E::Height => stack.len() as i64,
        E::Empty => stack.is_empty() as i64,
        E::Top => stack.last().map_or(NONE, |p| p.kind as i64),
        E::Owner => owner(stack),
        E::Count(k) => kind_count(k),
        E::Has(k) => (kind_count(k) > 0) as i64,
        E::Not(x) => (value(x, stack) == 0) as i64,
        E::Neg(x) => value(x, stack).wrapping_neg(),
        E::Binary(op, a, b) => {
            let x = value(a, stack);
            match op {
                BinOp::And if x == 0 => 0,
                BinOp::Or if x != 0 => 1,
                _ => op.apply(x, value(b, stack)),
            }
        }
        E::If(c, t, f) => {
            if value(c, stack) != 0 {
                value(t, stack)
            } else {
                value(f, stack)
            }
        }
    }
}
