//! Refusing a drawn candidate before its head is played, where the part after the head
//! cannot tell whether the head was played.
//!
//! Applies: to an action whose first part is one move between two named cells and whose
//! second part reads only named cells other than those two and a set decided by top
//! pieces that neither cell is in before or after the move ([`Precheck::of`]).
//! Guarantees: the same candidates refused as when the move is played first.
//! Proved by: `properties::drawn_plies_are_uniform_when_a_second_part_is_tried_before_the_first_is_played`;
//! debug builds play every candidate refused early and check that it is refused.
//! More: docs/engine.md, "Prechecks".

use super::board::CellId;
use super::cellset;
use super::eval::{eval, with_cells};
use super::natives::Ctx;
use super::program::{Choice, Domain, Node, OF_THE_PLY, OneMove, Part, Repeat, SetExpr};
use super::radix::digit;
use super::state::EMPTY_TOP;

/// Natives that read nothing a move can change, besides those of [`OF_THE_PLY`]: who is
/// in the game, which a move leaves as it is (other effects may not).
const OF_PLAYERS: &[&str] = &["alive", "next"];

/// Natives that read the stack of the cell in their first argument and nothing else the
/// move can change.
const OF_CELL: &[&str] = &[
    "empty",
    "height",
    "top",
    "owner",
    "has",
    "pieces",
    "moved_turn",
    "moved_in",
];

/// What trying a second part before the first part's move is played says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The part refuses the candidate, and would after the move.
    Refused,
    /// The part's choices are made (its names bound), as they would be after the move;
    /// what is left is its effect and its check.
    Chosen,
    /// The move could change what the part reads: the candidate is to be played.
    Unknown,
}

/// What an action needs for its second part to be tried before its first part is played.
#[derive(Clone, Debug)]
pub struct Precheck {
    /// The slots of the cells the first part moves from and onto.
    from: u16,
    to: u16,
    /// Whether it moves the top piece alone (`move_top`) or the whole stack (`move`).
    top_only: bool,
    /// For each choice of the second part, the slots (bit per slot) of the cells whose
    /// stacks it reads, and for an `in` choice, the kinds of top piece its set may hold
    /// where it holds no empty cell and pieces of some kinds only ([`top_kinds`]).
    reads: Box<[(u64, Option<u64>)]>,
}

impl Precheck {
    /// What an action of `parts` needs, if its first part's effect is one move between named cells
    /// and its second part can be tried before the move (see the module's documentation).
    pub fn of(parts: &[Part]) -> Option<Precheck> {
        let [head, second, ..] = parts else {
            return None;
        };
        if head.repeat != Repeat::Once || second.repeat != Repeat::Once {
            return None;
        }
        let OneMove { from, to, top_only } = head.one_move()?;
        let reads = second
            .choices
            .iter()
            .map(|choice| match choice {
                Choice::In {
                    domain: Domain::Cells(set),
                    filter,
                    ..
                } if by_top(set) => {
                    let reads = filter.as_ref().map_or(Some(0), cell_reads)?;
                    Some((reads, top_kinds(set)))
                }
                Choice::In { .. } => None,
                Choice::Let(_, node) | Choice::Where(node) => Some((cell_reads(node)?, None)),
            })
            .collect::<Option<Box<[(u64, Option<u64>)]>>>()?;
        Some(Precheck {
            from,
            to,
            top_only,
            reads,
        })
    }

    /// What the second part (`part`) makes of the candidate whose slots in it are
    /// `value` (mixed radix over its `in` choices, `slots(i)` for the `i`-th, as
    /// `engine::sample` numbers them), worked out before the first part's move is played,
    /// in the frame where the first part's choices are made: the part's names are left
    /// bound to what it chose.
    pub fn verdict(
        &self,
        c: &Ctx,
        locals: &mut [i64],
        part: &Part,
        mut value: u64,
        slots: impl Fn(usize) -> u64,
    ) -> Verdict {
        let (a, b) = (locals[self.from as usize], locals[self.to as usize]);
        if a < 0 || b < 0 || a == b {
            return Verdict::Unknown;
        }
        let stack = c.state.stack(a as CellId);
        let Some(moved) = stack.last() else {
            return Verdict::Unknown;
        };
        // The tops the two cells have once the move is played.
        let code = |p: &super::state::Piece| u16::from(p.kind) << 8 | u16::from(p.owner);
        let left = match stack {
            [.., below, _] if self.top_only => code(below),
            _ => EMPTY_TOP,
        };
        let edited = [(a as usize, left), (b as usize, code(moved))];
        let touches = |reads: u64, locals: &[i64]| {
            cellset::members(&[reads]).any(|s| locals[s] == a || locals[s] == b)
        };
        let ins = part.ins.len();
        let mut counted = 0;
        for (choice, &(reads, kinds)) in part.choices.iter().zip(&self.reads) {
            match choice {
                Choice::In {
                    slot,
                    domain: Domain::Cells(set),
                    filter,
                    ..
                } => {
                    let n = slots(counted);
                    counted += 1;
                    let k = digit(&mut value, n, counted == ins);
                    let found = with_cells(set, c, locals, |s, locals| {
                        if cellset::count(s) as u64 > n {
                            return Err(());
                        }
                        for &(cell, top) in &edited {
                            // A top piece of a kind the set never holds (or none, where
                            // the set holds pieces of some kinds only) keeps a cell out.
                            let kept_out = kinds.is_some_and(|kinds| {
                                top == EMPTY_TOP || (top >> 8) < 64 && kinds & 1 << (top >> 8) == 0
                            });
                            if cellset::contains(s, cell)
                                || !kept_out && admits(set, top, cell, c, locals) != Some(false)
                            {
                                return Err(());
                            }
                        }
                        Ok(cellset::nth(s, k as usize))
                    });
                    match found {
                        Err(()) => return Verdict::Unknown,
                        Ok(None) => return Verdict::Refused,
                        Ok(Some(cell)) => locals[*slot as usize] = cell as i64,
                    }
                    if let Some(f) = filter {
                        if touches(reads, locals) {
                            return Verdict::Unknown;
                        }
                        if eval(f, c, locals) == 0 {
                            return Verdict::Refused;
                        }
                    }
                }
                Choice::In { .. } => return Verdict::Unknown,
                Choice::Let(slot, node) => {
                    if touches(reads, locals) {
                        return Verdict::Unknown;
                    }
                    locals[*slot as usize] = eval(node, c, locals);
                }
                Choice::Where(node) => {
                    if touches(reads, locals) {
                        return Verdict::Unknown;
                    }
                    if eval(node, c, locals) == 0 {
                        return Verdict::Refused;
                    }
                }
            }
        }
        Verdict::Chosen
    }
}

/// The slot of a name read as it is.
fn local(node: &Node) -> Option<u16> {
    match node {
        Node::Local(s) => Some(*s),
        Node::Code(code) => local(&code.node),
        _ => None,
    }
}

/// The slots (bit per slot) of the cells whose stacks `node` reads, if it reads nothing
/// else that a move can change and every cell it reads is a name (bound before it, below
/// slot 64).
pub(super) fn cell_reads(node: &Node) -> Option<u64> {
    let cell = |x: &Node| match local(x) {
        Some(s) if s < 64 => Some(1u64 << s),
        _ => None,
    };
    Some(match node {
        Node::Const(_) | Node::Local(_) | Node::Var(_) | Node::Me => 0,
        Node::VarAt(_, x) | Node::Not(x) | Node::Neg(x) | Node::File(x) | Node::Rank(x) => {
            cell_reads(x)?
        }
        Node::Owner(x) | Node::Empty(x) | Node::Top(x) | Node::Height(x) => cell(x)?,
        Node::Count(x, k) | Node::Has(x, k) => cell(x)? | cell_reads(k)?,
        Node::Binary(_, a, b) | Node::Pair(_, a, b) | Node::Step(a, b) => {
            cell_reads(a)? | cell_reads(b)?
        }
        Node::If(a, b, c) => cell_reads(a)? | cell_reads(b)? | cell_reads(c)?,
        // A function of the file: its body reads its parameter's slot, bound only as it
        // runs, so a cell named by the parameter cannot be checked beforehand.
        Node::Bind(slot, value, body) => {
            let inner = cell_reads(body)?;
            if *slot >= 64 || inner & (1 << slot) != 0 {
                return None;
            }
            cell_reads(value)? | inner
        }
        Node::Call(_, args, name) => {
            let all = args.iter().try_fold(0, |m, a| Some(m | cell_reads(a)?))?;
            if OF_THE_PLY.contains(name) || OF_PLAYERS.contains(name) {
                all
            } else if OF_CELL.contains(name) {
                all | cell(args.first()?)?
            } else {
                return None;
            }
        }
        Node::Code(code) => cell_reads(&code.node)?,
        Node::Groups(..)
        | Node::Recur(_)
        | Node::Repetitions
        | Node::BoardRepeated
        | Node::Agg(_)
        | Node::List(_) => return None,
    })
}

/// Whether a cell is in `set` or not by its top piece alone (and names that read no
/// stack): what [`admits`] can answer.
fn by_top(set: &SetExpr) -> bool {
    let fixed = |n: &Node| cell_reads(n) == Some(0);
    match set {
        SetExpr::All | SetExpr::Empty | SetExpr::Occupied | SetExpr::Mask(_) => true,
        SetExpr::TopKind(n) | SetExpr::OwnedBy(n) | SetExpr::Single(n) | SetExpr::When(n) => {
            fixed(n)
        }
        SetExpr::Conj(terms) => terms.iter().all(|(_, t)| by_top(t)),
        SetExpr::Or(a, b) => by_top(a) && by_top(b),
        SetExpr::Code(code) => by_top(&code.set),
        _ => false,
    }
}

/// The kinds of top piece a cell of `set` (a [`by_top`] set) may have (bit per kind, the
/// first 64), when the set holds no empty cell and only pieces of the kinds named by its
/// `top(x) == k` terms; `None` when it may hold any top, or none.
fn top_kinds(set: &SetExpr) -> Option<u64> {
    match set {
        SetExpr::TopKind(k) => match local_const(k) {
            Some(k) if (0..64).contains(&k) => Some(1 << k),
            _ => None,
        },
        SetExpr::Conj(terms) => terms
            .iter()
            .filter(|(negated, _)| !negated)
            .filter_map(|(_, t)| top_kinds(t))
            .reduce(|a, b| a & b),
        SetExpr::Or(a, b) => Some(top_kinds(a)? | top_kinds(b)?),
        SetExpr::Code(code) => top_kinds(&code.set),
        _ => None,
    }
}

/// The value of a constant (compiled or not).
fn local_const(node: &Node) -> Option<i64> {
    match node {
        Node::Const(v) => Some(*v),
        Node::Code(code) => local_const(&code.node),
        _ => None,
    }
}

/// Whether `cell`, topped by `top` (a top code, or [`EMPTY_TOP`]), is in `set` (a
/// [`by_top`] set), as the set's code would say; `None` where that is not worked out here.
fn admits(set: &SetExpr, top: u16, cell: usize, c: &Ctx, locals: &mut [i64]) -> Option<bool> {
    let empty = top == EMPTY_TOP;
    Some(match set {
        SetExpr::All => true,
        SetExpr::Empty => empty,
        SetExpr::Occupied => !empty,
        SetExpr::Mask(m) => cellset::contains(c.board.mask(*m), cell),
        SetExpr::TopKind(k) => match eval(k, c, locals) {
            k if k < 0 => empty,
            k => !empty && i64::from(top >> 8) == k,
        },
        SetExpr::OwnedBy(p) => match eval(p, c, locals) {
            p if p < 0 => empty || top & 0xff == u16::from(super::state::NEUTRAL),
            p if p < c.state.players() as i64 => !empty && i64::from(top & 0xff) == p,
            _ => return None,
        },
        SetExpr::Single(x) => eval(x, c, locals) == cell as i64,
        SetExpr::When(cond) => eval(cond, c, locals) != 0,
        SetExpr::Conj(terms) => {
            for (negated, term) in terms.iter() {
                if admits(term, top, cell, c, locals)? == *negated {
                    return Some(false);
                }
            }
            true
        }
        SetExpr::Or(a, b) => admits(a, top, cell, c, locals)? || admits(b, top, cell, c, locals)?,
        SetExpr::Code(code) => admits(&code.set, top, cell, c, locals)?,
        _ => return None,
    })
}
