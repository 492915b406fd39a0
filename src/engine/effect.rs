//! A part's effect compiled to closures: what plies play instead of matching on each
//! statement (the test suite's statement walk is the reference it is proved equal to,
//! through every game).
//!
//! Each statement's code is picked once, at load. A native effect whose arguments are
//! names or constants (`move(from, to)`, `place(at, man, me)`) reads them straight from
//! the frame; a variable set to a constant is one store through the journal.

use std::fmt;

use super::eval::{call_effect, eval, for_each};
use super::natives::{EffectFn, Mut};
use super::program::{Arg, Node, Op};

/// What an effect runs: the statements against the position (through its journal) and
/// the local slots.
pub type Run = Box<dyn Fn(&mut Mut, &mut [i64]) + Send + Sync>;

/// An effect, compiled.
pub struct Effect {
    run: Run,
}

impl fmt::Debug for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Effect")
    }
}

impl Effect {
    /// Compiles a list of statements (whose expressions are compiled already).
    pub fn new(ops: &[Op]) -> Effect {
        Effect { run: block(ops) }
    }

    /// An effect that runs `run`: how another evaluator (the test suite's reference)
    /// plays statements.
    pub fn from_run(run: Run) -> Effect {
        Effect { run }
    }

    /// Plays the effect on the position, through its journal.
    #[inline]
    pub fn run(&self, m: &mut Mut, locals: &mut [i64]) {
        (self.run)(m, locals)
    }
}

/// Statements played in order.
fn block(ops: &[Op]) -> Run {
    let mut runs: Vec<Run> = ops.iter().map(statement).collect();
    match runs.len() {
        0 => Box::new(|_, _| {}),
        1 => runs.pop().expect("one statement"),
        2 => {
            let second = runs.pop().expect("two statements");
            let first = runs.pop().expect("two statements");
            Box::new(move |m, l| {
                first(m, l);
                second(m, l);
            })
        }
        _ => Box::new(move |m, l| runs.iter().for_each(|run| run(m, l))),
    }
}

fn statement(op: &Op) -> Run {
    match op {
        Op::If(cond, t, f) => {
            let (cond, t, f) = (cond.clone(), block(t), block(f));
            Box::new(move |m, l| {
                if eval(&cond, &m.ctx(), l) != 0 {
                    t(m, l)
                } else {
                    f(m, l)
                }
            })
        }
        Op::For {
            slot,
            domain: d,
            filter,
            body,
        } => {
            let (slot, d, filter, body) = (*slot, d.clone(), filter.clone(), block(body));
            Box::new(move |m, l| for_each(&d, filter.as_ref(), slot, m, l, |m, l| body(m, l)))
        }
        Op::Let(slot, value) => {
            let (slot, value) = (*slot as usize, value.clone());
            Box::new(move |m, l| l[slot] = eval(&value, &m.ctx(), l))
        }
        Op::SetVar(slot, value) => {
            let slot = *slot as usize;
            match Arg::of(value) {
                Some(arg) => Box::new(move |m, l| {
                    let v = arg.get(m.me, l);
                    m.journal.set_var(m.state, slot, v)
                }),
                None => {
                    let value = value.clone();
                    Box::new(move |m, l| {
                        let v = eval(&value, &m.ctx(), l);
                        m.journal.set_var(m.state, slot, v)
                    })
                }
            }
        }
        Op::SetVarAt(slot, player, value) => {
            let (slot, player, value) = (*slot as usize, player.clone(), value.clone());
            Box::new(move |m, l| {
                let p = eval(&player, &m.ctx(), l);
                let v = eval(&value, &m.ctx(), l);
                if p >= 0 {
                    m.journal.set_var(m.state, slot + p as usize, v);
                }
            })
        }
        Op::Effect(f, args, _) => native(*f, args),
    }
}

/// A native effect with its arguments: read as they are where they are names or
/// constants, else evaluated.
fn native(f: EffectFn, args: &[Node]) -> Run {
    let plain: Option<Vec<Arg>> = args.iter().map(Arg::of).collect();
    match plain.as_deref() {
        Some(&[]) => Box::new(move |m, _| f(m, &[])),
        Some(&[a]) => Box::new(move |m, l| {
            let a = a.get(m.me, l);
            f(m, &[a])
        }),
        Some(&[a, b]) => Box::new(move |m, l| {
            let (a, b) = (a.get(m.me, l), b.get(m.me, l));
            f(m, &[a, b])
        }),
        Some(&[a, b, c]) => Box::new(move |m, l| {
            let (a, b, c) = (a.get(m.me, l), b.get(m.me, l), c.get(m.me, l));
            f(m, &[a, b, c])
        }),
        _ => {
            let args: Box<[Node]> = args.into();
            Box::new(move |m, l| call_effect(f, &args, m, l))
        }
    }
}
