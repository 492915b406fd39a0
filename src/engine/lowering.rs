//! What makes a compiled program runnable: every expression replaced by its code
//! ([`Node::Code`]), every set by its code ([`SetExpr::Code`]), every statement list by an
//! [`Effect`]. The engine runs nothing else: a position never meets a bare tree.
//!
//! Two implementations exist. The product's is `engine::code::Kit`, which compiles to
//! closures with the game's constant masks folded in. The test suite supplies the other,
//! a plain tree walk, as the reference the closures are proved equal to
//! (`compile::compile_reference`).

use super::effect::Effect;
use super::program::{ChildMut, Domain, Node, Op, SetExpr};

/// Turns a program's expressions, sets and statements into code. The traversals are
/// shared: an implementation says how one expression, one set and one statement list
/// become code, and what they keep beside their code is wrapped the same way (the
/// strategies that read a shape at run time evaluate its parts).
pub trait Lowering {
    /// Replaces an expression by its code (names and constants stay as they are: they
    /// are read where they stand).
    fn wrap(&self, node: &mut Node);

    /// Replaces a set by its code.
    fn wrap_set(&self, set: &mut SetExpr);

    /// The code of a statement list.
    fn effect(&self, ops: &[Op]) -> Effect;

    /// Wraps the parts of an expression: what an expression keeps beside its code.
    fn wrap_inside(&self, node: &mut Node) {
        node.each_child_mut(|child| match child {
            ChildMut::Node(n) => self.wrap(n),
            ChildMut::Domain(d) => self.domain(d),
        });
    }

    /// Wraps the expressions a set holds (its terms stay sets, read through its code).
    fn wrap_in_set(&self, set: &mut SetExpr) {
        match set {
            SetExpr::All
            | SetExpr::Empty
            | SetExpr::Occupied
            | SetExpr::Holding(_)
            | SetExpr::Test(_)
            | SetExpr::Mask(_)
            | SetExpr::Code(_) => {}
            SetExpr::OwnedBy(x)
            | SetExpr::TopKind(x)
            | SetExpr::HeightNear(x, _)
            | SetExpr::Single(x)
            | SetExpr::Neighbours(x, _)
            | SetExpr::Leaps(x, _)
            | SetExpr::When(x) => self.wrap(x),
            SetExpr::Adjacent(a, b)
            | SetExpr::Group(a, b)
            | SetExpr::Reach(a, b)
            | SetExpr::Slide(a, b)
            | SetExpr::Ray(a, b) => {
                self.wrap(a);
                self.wrap(b);
            }
            SetExpr::Near(inner, _) => self.wrap_in_set(inner),
            SetExpr::Conj(terms) => terms.iter_mut().for_each(|(_, t)| self.wrap_in_set(t)),
            SetExpr::Or(a, b) => {
                self.wrap_in_set(a);
                self.wrap_in_set(b);
            }
        }
    }

    /// Wraps what a collection is worked out from.
    fn domain(&self, d: &mut Domain) {
        match d {
            Domain::Cells(set) => self.wrap_set(set),
            Domain::Steps { cell, dirs, target } => {
                self.wrap(cell);
                self.wrap(dirs);
                self.wrap_set(target);
            }
            Domain::Native(_, args) | Domain::List(args) => {
                args.iter_mut().for_each(|a| self.wrap(a))
            }
        }
    }

    /// Wraps the expressions of statements (the statements themselves become code in
    /// [`Lowering::effect`]).
    fn ops(&self, ops: &mut [Op]) {
        for op in ops {
            match op {
                Op::If(cond, t, f) => {
                    self.wrap(cond);
                    self.ops(t);
                    self.ops(f);
                }
                Op::For {
                    domain,
                    filter,
                    body,
                    ..
                } => {
                    self.domain(domain);
                    if let Some(f) = filter {
                        self.wrap(f);
                    }
                    self.ops(body);
                }
                Op::Let(_, n) | Op::SetVar(_, n) => self.wrap(n),
                Op::SetVarAt(_, p, n) => {
                    self.wrap(p);
                    self.wrap(n);
                }
                Op::Effect(_, args, _) => args.iter_mut().for_each(|a| self.wrap(a)),
            }
        }
    }
}

/// Whether an expression is read where it stands, with no code of its own: a constant,
/// a name, a variable or the player to move.
pub fn read_at_once(node: &Node) -> bool {
    matches!(
        node,
        Node::Const(_) | Node::Local(_) | Node::Me | Node::Var(_) | Node::Code(_)
    )
}
