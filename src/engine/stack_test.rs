//! Stack tests: conditions on one cell's stack alone (such as `height(x) == 1` or
//! `pieces(x, k) >= 1`) that filters over cells ask, and whose cells the position
//! keeps as sets (see `compile::sets` and [`State`](super::state::State)).
//!
//! A position works every test out again for each stack it edits, so the tests are kept
//! in the shape they are evaluated in: the common one, a reading of the stack compared
//! with a constant, is one match and one comparison, not a walk down an expression tree.

use std::sync::Arc;

use super::eval::arith;
use super::program::Node;
use super::state::{NEUTRAL, NONE, Piece};
use crate::lang::ast::BinOp;

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
    /// The tests (at most [`MAX_TESTS`]), each with the cell in local slot 0.
    pub fn new(nodes: Vec<Node>) -> StackTests {
        debug_assert!(nodes.len() <= MAX_TESTS);
        StackTests(nodes.into_iter().map(Test::new).collect())
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
    Tree(Node),
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
    fn new(node: Node) -> Test {
        let reading = |node: &Node| match node {
            Node::Height(_) => Some(Reading::Height),
            Node::Top(_) => Some(Reading::Top),
            Node::Owner(_) => Some(Reading::Owner),
            Node::Count(_, kind) => match **kind {
                Node::Const(k) => Some(Reading::Count(k)),
                _ => None,
            },
            // `empty(x)` is `height(x) == 0`, `has(x, K)` is `pieces(x, K) != 0`.
            _ => None,
        };
        let compared = match &node {
            Node::Binary(
                op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
                a,
                b,
            ) => match (reading(a), &**b) {
                (Some(r), Node::Const(c)) => Some((*op, r, *c)),
                _ => None,
            },
            Node::Empty(_) => Some((BinOp::Eq, Reading::Height, 0)),
            Node::Not(x) if matches!(**x, Node::Empty(_)) => Some((BinOp::Ne, Reading::Height, 0)),
            Node::Has(_, kind) => match **kind {
                Node::Const(k) => Some((BinOp::Ne, Reading::Count(k), 0)),
                _ => None,
            },
            Node::Not(x) => match &**x {
                Node::Has(_, kind) => match **kind {
                    Node::Const(k) => Some((BinOp::Eq, Reading::Count(k), 0)),
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
                arith(*op, x, *value) != 0
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

/// The value of a test's expression (its cell in slot 0) for a stack: the few nodes
/// such a test is made of (see `compile::sets`).
fn value(node: &Node, stack: &[Piece]) -> i64 {
    let kind_count = |k: &Node| {
        let k = value(k, stack);
        stack.iter().filter(|p| p.kind as i64 == k).count() as i64
    };
    match node {
        Node::Const(v) => *v,
        Node::Height(_) => stack.len() as i64,
        Node::Empty(_) => stack.is_empty() as i64,
        Node::Top(_) => stack.last().map_or(NONE, |p| p.kind as i64),
        Node::Owner(_) => owner(stack),
        Node::Count(_, k) => kind_count(k),
        Node::Has(_, k) => (kind_count(k) > 0) as i64,
        Node::Not(x) => (value(x, stack) == 0) as i64,
        Node::Neg(x) => value(x, stack).wrapping_neg(),
        Node::Binary(op, a, b) => {
            let x = value(a, stack);
            match op {
                BinOp::And if x == 0 => 0,
                BinOp::Or if x != 0 => 1,
                _ => arith(*op, x, value(b, stack)),
            }
        }
        Node::If(c, t, f) => {
            if value(c, stack) != 0 {
                value(t, stack)
            } else {
                value(f, stack)
            }
        }
        other => unreachable!("not a stack test: {other:?}"),
    }
}
