//! A part's choices compiled to a chain of closures, each of which binds or tests one
//! choice and calls the next: how plies are walked (`generate`) and heads are listed
//! (`sample`).
//!
//! Walking the choices by matching on each one at every step costs a jump whose target
//! changes from step to step and a frame per level of a general recursion; a chain picks
//! each step's code once, at load, so every call site in it has one target. The steps
//! the games use most have their own code: a set of cells walked bit by bit, the
//! directions in which a cell has a link read from the board, a neighbour read from the
//! board's table. What happens at the end of the part (a ply listed, an effect played
//! and the next part walked) is the caller's, handed in as a continuation.

use std::fmt;

use super::board::{Board, CellId};
use super::cellset::{self, WORDS};
use super::eval::{cells_into, domain, eval, steps};
use super::natives::{Ctx, Elems};
use super::program::{Choice, Domain, Node, directions_args};
use super::state::{NONE, State};

/// What a chain walks with: the game, the position (which the continuation may change
/// and must give back as it was), the player to move and the frame of names.
pub struct Env<'a> {
    /// The board of the game whose choices these are.
    pub board: &'a Board,
    /// The position, given back as it was by every continuation.
    pub state: &'a mut State,
    /// The player to move.
    pub me: u8,
    /// The frame of names the choices bind and read.
    pub locals: &'a mut [i64],
    /// Whether the last choice of the chain, when it is a set of cells with nothing left
    /// to test, is handed to the continuation whole (to be counted) instead of walked.
    pub count: bool,
    /// Whether the chain's last choice, when it is a set of cells ([`Chain::gathers`]),
    /// is handed to the continuation as the cells that pass its filter, all tested
    /// before the continuation changes the position, instead of walked one by one.
    pub gather: bool,
}

/// What a chain calls at the end of its choices: with the set of the last choice when
/// it was handed over whole (see [`Env::count`]); false to stop the walk.
pub type Next<'k> = dyn FnMut(&mut Env, Option<&[u64]>) -> bool + 'k;

type Link = Box<dyn Fn(&mut Env, &mut Next) -> bool + Send + Sync>;

/// The choices of one part, compiled.
pub struct Chain {
    first: Link,
    /// The slot of the last choice when it was compiled to be gathered, an `in` over a
    /// set of cells, which the chain hands over whole when [`Env::gather`] asks for it
    /// (the continuation then binds each cell itself).
    gathers: Option<u16>,
}

impl fmt::Debug for Chain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Chain")
    }
}

/// A context for evaluating in `env` (a macro, so that the frame stays free to borrow).
macro_rules! ctx {
    ($env:expr) => {
        Ctx {
            board: $env.board,
            state: $env.state,
            me: $env.me,
        }
    };
}

impl Chain {
    /// Compiles `choices`, leaving out those whose bit is set in `skip` (the first 64:
    /// choices worked out before the chain runs). With `special` false every choice
    /// gets the general code (collections through `eval::domain`, names through `eval`):
    /// the reference the special code is tested against (`tests/compiled.rs`). With
    /// `gather`, a last choice over a set of cells can hand its cells over whole
    /// ([`Env::gather`]); only chains that are asked to get that code.
    pub fn new(choices: &[Choice], skip: u64, special: bool, gather: bool) -> Chain {
        // The last `in` choice may be handed over whole when only `let`s follow it: they
        // are worked out for the candidate drawn, and nothing after it refuses one.
        let countable = choices
            .iter()
            .rposition(|choice| !matches!(choice, Choice::Let(..)))
            .filter(|&i| matches!(choices[i], Choice::In { .. }));
        let skipped = |i: usize| i < 64 && skip & (1 << i) != 0;
        let gathers = match choices.last() {
            Some(Choice::In {
                slot,
                domain: Domain::Cells(_),
                ..
            }) if gather && !skipped(choices.len() - 1) => Some(*slot),
            _ => None,
        };
        let mut next: Link = Box::new(|env, k| k(env, None));
        for (i, choice) in choices.iter().enumerate().rev() {
            if skipped(i) {
                continue;
            }
            let last = i + 1 == choices.len() && gathers.is_some();
            next = link(choice, countable == Some(i), last, special, next);
        }
        Chain {
            first: next,
            gathers,
        }
    }

    /// The slot of the last choice when the chain hands its cells over whole, tested,
    /// where [`Env::gather`] asks for it.
    pub fn gathers(&self) -> Option<u16> {
        self.gathers
    }

    /// Walks the choices, calling `k` for every combination that passes them; false if
    /// `k` stopped the walk.
    #[inline]
    pub fn run(&self, env: &mut Env, k: &mut Next) -> bool {
        (self.first)(env, k)
    }
}

/// Binds `e` to the choice's slot and, if it passes the choice's filter, goes on with
/// the next choice; false once the walk is to stop.
#[inline(always)]
fn take(
    env: &mut Env,
    k: &mut Next,
    slot: usize,
    filter: Option<&Node>,
    next: &Link,
    e: i64,
) -> bool {
    env.locals[slot] = e;
    if let Some(f) = filter
        && eval(f, &ctx!(env), env.locals) == 0
    {
        return true;
    }
    next(env, k)
}

/// The code of one choice, which calls `next` for each value it lets through (or, when
/// it is `countable` and [`Env::count`] asks for it, hands its set whole to the
/// continuation: the set of cells, or the mask of directions of a [`Domain::Steps`];
/// or, when it is the `last` choice, compiled to be gathered, and [`Env::gather`] asks
/// for it, the cells of its set that pass its filter).
fn link(choice: &Choice, countable: bool, last: bool, special: bool, next: Link) -> Link {
    match choice {
        Choice::In {
            slot,
            domain: Domain::Cells(set),
            filter,
            ..
        } => {
            let (slot, set, filter) = (*slot as usize, set.clone(), filter.clone());
            let countable = countable && filter.is_none();
            if last {
                // Its own closure, so that the chains that never gather pay nothing.
                return Box::new(move |env, k| {
                    let mut words = [0u64; WORDS];
                    let n = cells_into(&set, &ctx!(env), env.locals, &mut words);
                    if env.gather {
                        if let Some(f) = &filter {
                            let all = words;
                            for e in cellset::members(&all[..n]) {
                                env.locals[slot] = e as i64;
                                if eval(f, &ctx!(env), env.locals) == 0 {
                                    words[e / 64] &= !(1 << (e % 64));
                                }
                            }
                        }
                        return k(env, Some(&words[..n]));
                    }
                    if countable && env.count {
                        return k(env, Some(&words[..n]));
                    }
                    cellset::members(&words[..n])
                        .all(|e| take(env, k, slot, filter.as_ref(), &next, e as i64))
                });
            }
            Box::new(move |env, k| {
                let mut words = [0u64; WORDS];
                let n = cells_into(&set, &ctx!(env), env.locals, &mut words);
                if countable && env.count {
                    return k(env, Some(&words[..n]));
                }
                cellset::members(&words[..n])
                    .all(|e| take(env, k, slot, filter.as_ref(), &next, e as i64))
            })
        }
        Choice::In {
            slot,
            domain: Domain::Native(native, args),
            filter,
            ..
        } if special && native.name == "directions" && directions_args(args).is_some() => {
            let (cell, dirs) = directions_args(args).expect("checked above");
            let (slot, filter) = (*slot as usize, filter.clone());
            Box::new(move |env, k| {
                let cell = env.locals[cell];
                if cell < 0 {
                    return true;
                }
                let mask = u64::from(env.board.link_dirs(cell as CellId) & dirs);
                cellset::members(&[mask])
                    .all(|d| take(env, k, slot, filter.as_ref(), &next, d as i64))
            })
        }
        Choice::In {
            slot,
            domain: Domain::Steps { cell, dirs, target },
            filter,
            ..
        } => {
            let (slot, filter) = (*slot as usize, filter.clone());
            let (cell, dirs, target) = (cell.clone(), dirs.clone(), target.clone());
            let countable = countable && filter.is_none();
            Box::new(move |env, k| {
                let mask = steps(&cell, &dirs, &target, &ctx!(env), env.locals);
                if countable && env.count {
                    let mut words = [0u64; WORDS];
                    words[0] = mask;
                    return k(env, Some(&words[..env.state.words()]));
                }
                cellset::members(&[mask])
                    .all(|d| take(env, k, slot, filter.as_ref(), &next, d as i64))
            })
        }
        Choice::In {
            slot,
            domain: d,
            filter,
            ..
        } => {
            let (slot, d, filter) = (*slot as usize, d.clone(), filter.clone());
            Box::new(move |env, k| {
                let mut elems = Elems::new();
                domain(&d, &ctx!(env), env.locals, &mut elems);
                elems
                    .iter()
                    .all(|&e| take(env, k, slot, filter.as_ref(), &next, e))
            })
        }
        Choice::Let(slot, node) if special && step_of_locals(node).is_some() => {
            let (cell, dir) = step_of_locals(node).expect("checked above");
            let slot = *slot as usize;
            Box::new(move |env, k| {
                let (x, d) = (env.locals[cell], env.locals[dir]);
                env.locals[slot] = if x < 0 || !(0..8).contains(&d) {
                    NONE
                } else {
                    env.board
                        .step(x as CellId, d as usize)
                        .map_or(NONE, i64::from)
                };
                next(env, k)
            })
        }
        Choice::Let(slot, Node::Code(code)) if special => {
            let (slot, code) = (*slot as usize, code.clone());
            Box::new(move |env, k| {
                env.locals[slot] = (code.run)(&ctx!(env), env.locals);
                next(env, k)
            })
        }
        Choice::Let(slot, node) => {
            let (slot, node) = (*slot as usize, node.clone());
            Box::new(move |env, k| {
                env.locals[slot] = eval(&node, &ctx!(env), env.locals);
                next(env, k)
            })
        }
        Choice::Where(Node::Code(code)) if special => {
            let code = code.clone();
            Box::new(move |env, k| (code.run)(&ctx!(env), env.locals) == 0 || next(env, k))
        }
        Choice::Where(node) => {
            let node = node.clone();
            Box::new(move |env, k| eval(&node, &ctx!(env), env.locals) == 0 || next(env, k))
        }
    }
}

/// The slots of `step(a, b)` with two names read as they are (compiled or not).
fn step_of_locals(node: &Node) -> Option<(usize, usize)> {
    match node {
        Node::Step(cell, dir) => Some((local(cell)?, local(dir)?)),
        Node::Code(code) => step_of_locals(&code.node),
        _ => None,
    }
}

/// The slot of a name read as it is.
fn local(node: &Node) -> Option<usize> {
    match node {
        Node::Local(i) => Some(*i as usize),
        _ => None,
    }
}
