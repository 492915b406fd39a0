//! Compiled expressions and effects: what the checker turns the AST into.
//!
//! Names are resolved to slots and table entries, constants (parameters, player and kind
//! names) are folded in, and every scalar is an `i64`. Evaluation lives in `eval.rs`.

use crate::lang::ast::{AggOp, BinOp};

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock, Weak};

use super::natives::{Ctx, EffectFn, NativeFn, SetFn};
use super::stack_test::StackExpr;

/// A compiled expression.
#[derive(Clone, Debug)]
pub enum Node {
    Const(i64),
    /// A bound name of the current frame (binding, aggregate variable, `let`).
    Local(u16),
    /// A global or turn variable: its slot in `State::vars`.
    Var(u16),
    /// A variable per player, per kind, or per player and kind: the slot of index 0, then
    /// the index (a player, a kind, or a [`Node::Pair`]); `none` reads 0.
    VarAt(u16, Box<Node>),
    /// The index of a (player, kind) pair in a variable per player and kind: player ×
    /// the number of kinds + kind, or `none` when either is `none`.
    Pair(u16, Box<Node>, Box<Node>),
    Not(Box<Node>),
    Neg(Box<Node>),
    Binary(BinOp, Box<Node>, Box<Node>),
    If(Box<Node>, Box<Node>, Box<Node>),
    /// A native function, its arguments and its name (which says what it reads).
    Call(NativeFn, Box<[Node]>, &'static str),
    /// `owner(cell)`, `empty(cell)` and `me`: the commonest natives, read straight from
    /// the state's caches instead of through a call, and recognised by the set pass
    /// (`narrow` in `compile::sets`).
    Owner(Box<Node>),
    Empty(Box<Node>),
    /// `top(cell)` (the top piece's kind) and `height(cell)`, read straight from the
    /// state like `owner`.
    Top(Box<Node>),
    Height(Box<Node>),
    /// `pieces(cell, kind)` and `has(cell, kind)`: the pieces of a kind in a cell's stack.
    Count(Box<Node>, Box<Node>),
    Has(Box<Node>, Box<Node>),
    /// `step(cell, dir)`: the cell linked that way, read from the board's table.
    Step(Box<Node>, Box<Node>),
    /// `groups(player, dirs)`: its own node so that a comparison with a constant counts
    /// only as many groups as it needs (`groups(me) == 1` stops at the second group).
    Groups(Box<Node>, Box<Node>),
    /// `file(cell)` and `rank(cell)`, from 1 (0 for none).
    File(Box<Node>),
    Rank(Box<Node>),
    /// A call of a function of the game file, expanded where it is called: the argument
    /// is worked out into the local slot of its parameter, then the body.
    Bind(u16, Box<Node>, Box<Node>),
    /// A call of a recursive function of the game file (one that declares `depth`): a
    /// real call, its body compiled once and run in a frame of its own.
    Recur(Box<Recur>),
    Me,
    /// `repetitions()` and `board_repeated()`: questions about earlier positions, read
    /// from the position's history (which a game keeps only when it asks them).
    Repetitions,
    BoardRepeated,
    Agg(Box<Aggregate>),
    /// A list literal; only ever iterated or compared.
    List(Box<[Node]>),
    /// The expression compiled to a closure (see `code.rs`), made last, after every
    /// pass that reads an expression's shape.
    Code(Arc<Code>),
}

impl Node {
    /// This expression as a test of the stack of the cell it reads, for the position's
    /// floor (`stack_test`), which knows nothing of nodes. The set pass (`compile::sets`)
    /// gives only expressions of one cell's stack, made of the nodes below.
    pub fn stack_expr(&self) -> StackExpr {
        use StackExpr as E;
        let boxed = |n: &Node| Box::new(n.stack_expr());
        match self {
            Node::Const(v) => E::Const(*v),
            Node::Height(_) => E::Height,
            Node::Empty(_) => E::Empty,
            Node::Top(_) => E::Top,
            Node::Owner(_) => E::Owner,
            Node::Count(_, k) => E::Count(boxed(k)),
            Node::Has(_, k) => E::Has(boxed(k)),
            Node::Not(x) => E::Not(boxed(x)),
            Node::Neg(x) => E::Neg(boxed(x)),
            Node::Binary(op, a, b) => E::Binary(*op, boxed(a), boxed(b)),
            Node::If(c, t, f) => E::If(boxed(c), boxed(t), boxed(f)),
            other => unreachable!("not a stack test: {other:?}"),
        }
    }

    /// Whether evaluating this expression may read one of the local `slots`.
    pub fn reads_any(&self, slots: &[u16]) -> bool {
        match self {
            Node::Local(i) => slots.contains(i),
            Node::Code(code) => code.node.reads_any(slots),
            Node::Recur(call) if call.depth.is_some_and(|d| slots.contains(&d)) => true,
            _ => self.any_child(|child| match child {
                Child::Node(n) => n.reads_any(slots),
                Child::Domain(d) => d.reads_any(slots),
            }),
        }
    }

    /// Whether `f` holds for any part of the expression one level down (its operands, an
    /// aggregate's collection, filter, body and direction; a compiled expression's parts
    /// are its code's business, and names and constants have none).
    pub fn any_child(&self, mut f: impl FnMut(Child<'_>) -> bool) -> bool {
        match self {
            Node::Const(_)
            | Node::Local(_)
            | Node::Var(_)
            | Node::Me
            | Node::Repetitions
            | Node::BoardRepeated
            | Node::Code(_) => false,
            Node::VarAt(_, x)
            | Node::Not(x)
            | Node::Neg(x)
            | Node::Owner(x)
            | Node::Empty(x)
            | Node::Top(x)
            | Node::Height(x)
            | Node::File(x)
            | Node::Rank(x) => f(Child::Node(x)),
            Node::Binary(_, a, b)
            | Node::Pair(_, a, b)
            | Node::Count(a, b)
            | Node::Has(a, b)
            | Node::Step(a, b)
            | Node::Groups(a, b)
            | Node::Bind(_, a, b) => f(Child::Node(a)) || f(Child::Node(b)),
            Node::If(a, b, c) => f(Child::Node(a)) || f(Child::Node(b)) || f(Child::Node(c)),
            Node::Call(_, args, _) | Node::List(args) => args.iter().any(|a| f(Child::Node(a))),
            Node::Recur(call) => call.args.iter().any(|a| f(Child::Node(a))),
            Node::Agg(agg) => {
                f(Child::Domain(&agg.domain))
                    || [&agg.filter, &agg.body, &agg.along]
                        .into_iter()
                        .flatten()
                        .any(|n| f(Child::Node(n)))
            }
        }
    }

    /// Calls `f` with each part of the expression one level down, as [`Node::any_child`]
    /// names them, to change it.
    pub fn each_child_mut(&mut self, mut f: impl FnMut(ChildMut<'_>)) {
        match self {
            Node::Const(_)
            | Node::Local(_)
            | Node::Var(_)
            | Node::Me
            | Node::Repetitions
            | Node::BoardRepeated
            | Node::Code(_) => {}
            Node::VarAt(_, x)
            | Node::Not(x)
            | Node::Neg(x)
            | Node::Owner(x)
            | Node::Empty(x)
            | Node::Top(x)
            | Node::Height(x)
            | Node::File(x)
            | Node::Rank(x) => f(ChildMut::Node(x)),
            Node::Binary(_, a, b)
            | Node::Pair(_, a, b)
            | Node::Count(a, b)
            | Node::Has(a, b)
            | Node::Step(a, b)
            | Node::Groups(a, b)
            | Node::Bind(_, a, b) => {
                f(ChildMut::Node(a));
                f(ChildMut::Node(b));
            }
            Node::If(a, b, c) => [a, b, c].into_iter().for_each(|n| f(ChildMut::Node(n))),
            Node::Call(_, args, _) | Node::List(args) => {
                args.iter_mut().for_each(|a| f(ChildMut::Node(a)))
            }
            Node::Recur(call) => call.args.iter_mut().for_each(|a| f(ChildMut::Node(a))),
            Node::Agg(agg) => {
                f(ChildMut::Domain(&mut agg.domain));
                [&mut agg.filter, &mut agg.body, &mut agg.along]
                    .into_iter()
                    .flatten()
                    .for_each(|n| f(ChildMut::Node(n)));
            }
        }
    }
}

/// A part of an expression one level down ([`Node::any_child`]).
pub enum Child<'a> {
    Node(&'a Node),
    Domain(&'a Domain),
}

/// A part of an expression one level down, to change ([`Node::each_child_mut`]).
pub enum ChildMut<'a> {
    Node(&'a mut Node),
    Domain(&'a mut Domain),
}

impl Op {
    /// Whether running this effect may read one of the local `slots`.
    pub fn reads_any(&self, slots: &[u16]) -> bool {
        match self {
            Op::If(cond, then, other) => {
                cond.reads_any(slots) || then.iter().chain(other).any(|op| op.reads_any(slots))
            }
            Op::For {
                domain,
                filter,
                body,
                ..
            } => {
                domain.reads_any(slots)
                    || filter.as_ref().is_some_and(|f| f.reads_any(slots))
                    || body.iter().any(|op| op.reads_any(slots))
            }
            Op::Let(_, value) | Op::SetVar(_, value) => value.reads_any(slots),
            Op::SetVarAt(_, at, value) => at.reads_any(slots) || value.reads_any(slots),
            Op::Effect(_, args, _) => args.iter().any(|a| a.reads_any(slots)),
        }
    }
}

impl Choice {
    /// Whether making this choice may read one of the local `slots`.
    pub fn reads_any(&self, slots: &[u16]) -> bool {
        match self {
            Choice::In { domain, filter, .. } => {
                domain.reads_any(slots) || filter.as_ref().is_some_and(|f| f.reads_any(slots))
            }
            Choice::Let(_, node) | Choice::Where(node) => node.reads_any(slots),
        }
    }
}

impl Domain {
    /// Whether computing the elements may read one of the local `slots`.
    pub fn reads_any(&self, slots: &[u16]) -> bool {
        match self {
            Domain::Native(_, args) | Domain::List(args) => args.iter().any(|a| a.reads_any(slots)),
            Domain::Cells(set) => set.reads_any(slots),
            Domain::Steps { cell, dirs, target } => {
                cell.reads_any(slots) || dirs.reads_any(slots) || target.reads_any(slots)
            }
        }
    }
}

impl SetExpr {
    /// Whether working out the set may read one of the local `slots`.
    pub fn reads_any(&self, slots: &[u16]) -> bool {
        match self {
            SetExpr::All
            | SetExpr::Empty
            | SetExpr::Occupied
            | SetExpr::Test(_)
            | SetExpr::Mask(_)
            | SetExpr::Holding(_) => false,
            SetExpr::OwnedBy(n)
            | SetExpr::TopKind(n)
            | SetExpr::Single(n)
            | SetExpr::When(n)
            | SetExpr::HeightNear(n, _) => n.reads_any(slots),
            SetExpr::Adjacent(a, b) => a.reads_any(slots) || b.reads_any(slots),
            SetExpr::Neighbours(a, _) | SetExpr::Leaps(a, _) => a.reads_any(slots),
            SetExpr::Ray(a, b)
            | SetExpr::Slide(a, b)
            | SetExpr::Group(a, b)
            | SetExpr::Reach(a, b) => a.reads_any(slots) || b.reads_any(slots),
            SetExpr::Conj(terms) => terms.iter().any(|(_, t)| t.reads_any(slots)),
            SetExpr::Or(a, b) => a.reads_any(slots) || b.reads_any(slots),
            SetExpr::Near(s, _) => s.reads_any(slots),
            SetExpr::Code(code) => code.set.reads_any(slots),
        }
    }

    /// Whether the set changes only at the cells whose stacks change: it reads no local
    /// name and no variable (`me` is fixed for a ply), and whether a cell is in it depends
    /// on that cell's stack alone (or on the board). After effects that change `e` cells it
    /// has gained at most `e` cells, which bounds the slots of a later part's choice.
    /// Not so for a slide or a group (one piece put down cuts a ray or joins groups) nor
    /// for the cells next to a set (one piece put down adds all its neighbours).
    pub fn changes_only_at_edits(&self) -> bool {
        match self {
            SetExpr::All
            | SetExpr::Empty
            | SetExpr::Occupied
            | SetExpr::Test(_)
            | SetExpr::Mask(_)
            | SetExpr::Holding(_) => true,
            SetExpr::OwnedBy(n)
            | SetExpr::TopKind(n)
            | SetExpr::Single(n)
            | SetExpr::HeightNear(n, _) => n.is_fixed(),
            SetExpr::Adjacent(a, b) | SetExpr::Ray(a, b) => a.is_fixed() && b.is_fixed(),
            SetExpr::Neighbours(a, _) | SetExpr::Leaps(a, _) => a.is_fixed(),
            SetExpr::Slide(..) | SetExpr::Group(..) | SetExpr::Reach(..) | SetExpr::Near(..) => {
                false
            }
            // A condition on variables may change with the effects of a part.
            SetExpr::When(_) => false,
            SetExpr::Conj(terms) => terms.iter().all(|(_, t)| t.changes_only_at_edits()),
            SetExpr::Or(a, b) => a.changes_only_at_edits() && b.changes_only_at_edits(),
            SetExpr::Code(code) => code.set.changes_only_at_edits(),
        }
    }

    /// Whether a cell is in the set by its top piece alone, and never while it is empty:
    /// the cells topped by a kind or owned by a player, the occupied cells, and their
    /// intersections and unions (a term of an intersection may hold empty cells if another
    /// term keeps them out). Such a set gains no cell when a whole stack moves: the cell
    /// moved onto gets the top piece that the cell moved from loses, and the cell moved
    /// from is left empty.
    pub fn of_tops(&self) -> bool {
        let piece = |n: &Node| match n {
            Node::Const(v) => *v >= 0,
            Node::Me => true,
            _ => false,
        };
        match self {
            SetExpr::Occupied => true,
            SetExpr::OwnedBy(n) | SetExpr::TopKind(n) => piece(n),
            SetExpr::Conj(terms) => {
                terms.iter().any(|(negated, t)| !negated && t.of_tops())
                    && terms.iter().all(|(_, t)| t.by_top())
            }
            SetExpr::Or(a, b) => a.of_tops() && b.of_tops(),
            SetExpr::Code(code) => code.set.of_tops(),
            _ => false,
        }
    }

    /// Whether the set reads no stack and nothing an effect can change but the variables
    /// in `written` (see [`Node::fixed_unless`]): a condition on variables, one named cell,
    /// a mask of the board, and their intersections and unions. Where the effects played
    /// so far in a ply set none of those variables, it is the set it was at the start of
    /// the ply, and a set it is a term of holds no more cells than it does.
    pub fn stackless_unless(&self, written: u64) -> bool {
        match self {
            SetExpr::All | SetExpr::Mask(_) => true,
            SetExpr::When(n) | SetExpr::Single(n) => n.fixed_unless(written),
            SetExpr::Conj(terms) => terms.iter().all(|(_, t)| t.stackless_unless(written)),
            SetExpr::Or(a, b) => a.stackless_unless(written) && b.stackless_unless(written),
            SetExpr::Code(code) => code.set.stackless_unless(written),
            _ => false,
        }
    }

    /// Whether a cell is in the set by its top piece alone (or by its having none).
    fn by_top(&self) -> bool {
        match self {
            SetExpr::Empty | SetExpr::Occupied => true,
            SetExpr::OwnedBy(n) | SetExpr::TopKind(n) => n.is_fixed(),
            SetExpr::Conj(terms) => terms.iter().all(|(_, t)| t.by_top()),
            SetExpr::Or(a, b) => a.by_top() && b.by_top(),
            SetExpr::Code(code) => code.set.by_top(),
            _ => false,
        }
    }
}

/// Natives whose value no effect changes within a ply: the turn's counters (moved on
/// between plies) and the board's geometry.
pub const OF_THE_PLY: &[&str] = &[
    "turn",
    "ply_in_turn",
    "plies",
    "forward",
    "file",
    "rank",
    "cell",
    "step",
    "opposite",
    "abs",
    "min",
    "max",
];

impl Node {
    /// Whether the value is the same throughout a ply: a constant or `me`.
    pub fn is_fixed(&self) -> bool {
        matches!(self, Node::Const(_) | Node::Me)
    }

    /// Whether the value reads no name and nothing an effect can change but the variables
    /// in `written` (a bit per variable slot, below 64): constants, `me`, the other
    /// variables and the natives [`OF_THE_PLY`], so that where the effects played so far
    /// set none of those variables, its value then is its value at the start of the ply.
    pub fn fixed_unless(&self, written: u64) -> bool {
        match self {
            Node::Const(_) | Node::Me => true,
            Node::Var(s) => *s < 64 && written & (1 << s) == 0,
            Node::Not(x) | Node::Neg(x) => x.fixed_unless(written),
            Node::Binary(_, a, b) => a.fixed_unless(written) && b.fixed_unless(written),
            Node::If(a, b, c) => [a, b, c].iter().all(|n| n.fixed_unless(written)),
            Node::Call(_, args, name) => {
                OF_THE_PLY.contains(name) && args.iter().all(|a| a.fixed_unless(written))
            }
            Node::Code(code) => code.node.fixed_unless(written),
            _ => false,
        }
    }
}

/// An aggregate over a collection.
#[derive(Clone, Debug)]
pub struct Aggregate {
    pub op: AggOp,
    pub slot: u16,
    pub domain: Domain,
    pub filter: Option<Node>,
    pub body: Option<Node>,
    /// For `first` and `last` over a ray made a set: the ray's direction, which orders
    /// its cells (nearest first) where cell order would not.
    pub along: Option<Node>,
}

/// A call of a recursive function: the function, the arguments (worked out in the
/// caller's frame, then put in slots 0.. of the callee's), and where the caller keeps how
/// deep it is itself (the slot a recursive body keeps its depth in; `None` outside any
/// recursive body, where a call is at depth 1).
#[derive(Clone, Debug)]
pub struct Recur {
    /// Weak: a body calls itself, and a strong reference would keep every game with a
    /// recursive function alive forever; the game holds the strong one
    /// ([`Game::recursive`](super::game::Game::recursive)).
    pub callee: Weak<Callee>,
    pub args: Box<[Node]>,
    pub depth: Option<u16>,
}

/// A recursive function as it runs: its body's code, its frame, how deep its calls may
/// nest, and whether some call went deeper (a run-time error of the game file that every
/// command reports, as a walk that runs away: [`Game::runaway`](super::game::Game::runaway)).
#[derive(Debug)]
pub struct Callee {
    pub name: String,
    /// How many parameters: slots 0..params of the frame hold the arguments, and slot
    /// `params` the depth of the call.
    pub params: usize,
    /// The deepest a call may be: calls of recursive functions under way, this one
    /// included, when it starts.
    pub depth: i64,
    /// What a call past the limit gives (`none`, or 0 for a number or a condition): the
    /// game then reports the error, so the value is never shown as a result.
    pub past: i64,
    /// The body's code and its frame size, set once when the game is compiled to code
    /// (the body calls functions that do not exist yet while it is checked).
    pub code: OnceLock<(Node, usize)>,
    /// Set by the first call past the limit.
    exceeded: AtomicBool,
    /// The error said when a call went past the limit, located at its `depth`.
    pub error: Arc<crate::spec::diag::Diagnostic>,
}

impl Callee {
    /// A function of `params` parameters whose calls may nest `depth` deep, its code to
    /// come.
    pub fn new(
        name: String,
        params: usize,
        depth: i64,
        past: i64,
        error: crate::spec::diag::Diagnostic,
    ) -> Callee {
        Callee {
            name,
            params,
            depth,
            past,
            code: OnceLock::new(),
            exceeded: AtomicBool::new(false),
            error: Arc::new(error),
        }
    }

    /// Notes that a call went past the limit.
    #[cold]
    pub fn exceed(&self) {
        self.exceeded.store(true, Ordering::Relaxed);
    }

    /// Whether some call went past the limit.
    pub fn exceeded(&self) -> bool {
        self.exceeded.load(Ordering::Relaxed)
    }
}

/// A recursive function of a game: how it runs, and its body as a tree until the game is
/// compiled to code (the passes that rewrite every expression rewrite it too).
#[derive(Clone, Debug)]
pub struct Recursive {
    pub callee: Arc<Callee>,
    pub body: Node,
    pub frame: usize,
}

/// Something a binding, aggregate or `for` ranges over.
#[derive(Clone, Debug)]
pub enum Domain {
    /// A native collection (`adjacent(c)`, `ray(c, d)`...): the function fills the
    /// elements in its own order.
    Native(NativeSet, Box<[Node]>),
    /// A list literal of values.
    List(Box<[Node]>),
    /// A set of cells, always in cell order: `cells`, and what the optimiser makes of a
    /// filter over `cells` or `adjacent(...)` (see `compile::sets`).
    Cells(SetExpr),
    /// The directions of `dirs`, in order, in which `cell` has a link to a cell of
    /// `target`: what the optimiser makes of `d in directions(cell, dirs)` followed by
    /// `to = step(cell, d)` and `where`s on `to` that sets can say. The directions are
    /// then a mask worked out with a bit test each, and random draws count them.
    Steps {
        /// The cell stepped from.
        cell: Box<Node>,
        /// The directions that may be taken, as a direction set.
        dirs: Box<Node>,
        /// Where a step must land (worked out once per cell, before a direction is
        /// chosen: it reads no direction).
        target: SetExpr,
    },
}

/// A native collection as a domain holds it: the function, the most elements it can
/// give on a board, and its name (which the optimiser recognises).
#[derive(Clone, Copy, Debug)]
pub struct NativeSet {
    pub f: SetFn,
    pub most: Most,
    pub name: &'static str,
}

/// A set of cells worked out with word operations: the position's cached sets, board
/// masks and their combinations.
#[derive(Clone, Debug)]
pub enum SetExpr {
    /// Every cell of the board.
    All,
    /// Cells holding no piece, and cells holding some.
    Empty,
    Occupied,
    /// The cells where `owner(x)` is the player this gives (`none`: empty cells and cells
    /// topped by a neutral piece).
    OwnedBy(Box<Node>),
    /// The cells whose top piece is of the kind this gives (`none`: empty cells).
    TopKind(Box<Node>),
    /// The cells whose stack is within a constant of a value that varies: as tall as it
    /// (`height(x) == E`, within 0), or a step up or down from it (`abs(height(x) - E)
    /// <= 1`, within 1): the union of the position's cells by height over that range
    /// (see `State::of_height`), so that a step's height rule is a few word operations,
    /// not a test of every neighbour.
    HeightNear(Box<Node>, i64),
    /// The cells whose stack holds a piece of this kind anywhere (`has(x, K)`, for the
    /// first 64 kinds).
    Holding(u8),
    /// The cells whose stack passes the game's stack test of this index (see
    /// [`State`](super::state::State): the position keeps these sets).
    Test(u16),
    /// The one cell a value gives (no cell for `none`).
    Single(Box<Node>),
    /// The cells linked to a cell through a direction set: `adjacent(cell, dirs)`.
    Adjacent(Box<Node>, Box<Node>),
    /// `adjacent(cell, D)` for a constant direction set: the board's precomputed
    /// neighbour masks number `table` (see `Board::neighbour_table`).
    Neighbours(Box<Node>, u16),
    /// The cells one of whose neighbours through the board's neighbour masks number
    /// `table` lies in a set: `any(y in adjacent(x, D) where P(y))` as a set of `x`, P a
    /// set that reads no `x` (see `Board::near`).
    Near(Box<SetExpr>, u16),
    /// `leaps(cell, a, b)` for constant `a` and `b`: the board's precomputed leap masks
    /// number `table` (see `Board::leap_table`).
    Leaps(Box<Node>, u16),
    /// A set of cells fixed by the board alone (a condition on `file(x)` and `rank(x)`):
    /// the board's precomputed mask number `i` (see `Board::mask`).
    Mask(u16),
    /// `group(cell, dirs)`: the cells of a cell's group (see `hooks::groups`).
    Group(Box<Node>, Box<Node>),
    /// `reachable(cell, dirs)`: the cells a walk from a cell reaches without crossing an
    /// occupied edge or point (see `hooks::groups::reachable`).
    Reach(Box<Node>, Box<Node>),
    /// `slide(cell, dir)`: the cells of the ray before the first occupied one (where a
    /// sliding piece may stop).
    Slide(Box<Node>, Box<Node>),
    /// `ray(cell, dir)`: the cells met going from a cell in a direction (see
    /// `Board::ray`); [`Aggregate::along`] keeps their order for `first` and `last`.
    Ray(Box<Node>, Box<Node>),
    /// Every cell while a condition that reads no element holds, else none.
    When(Box<Node>),
    /// The cells in every term, or with `true`, not in it: a filter's chain of `&&`.
    Conj(Box<[(bool, SetExpr)]>),
    Or(Box<SetExpr>, Box<SetExpr>),
    /// The set compiled to a closure for the board's size (see `code.rs`), made last.
    Code(Arc<SetCode>),
}

/// The most elements a native collection can hold on a board: what random draws pad a
/// collection to, so that every ply is drawn with the same chance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Most {
    /// At most one per cell.
    Cells,
    /// At most one per player.
    Players,
    /// At most one per piece kind.
    Kinds,
    /// At most one per link of a cell.
    Links,
    /// At most the longer side of the board (a line of cells).
    Side,
    /// At most eight (one per direction).
    Eight,
    /// At most one per track of the board.
    Tracks,
}

impl Most {
    /// The collection named `name` (a native set) holds at most this many elements.
    pub fn of_native(name: &str) -> Most {
        match name {
            "all_players" => Most::Players,
            "kinds" => Most::Kinds,
            "adjacent" | "directions" | "visible" => Most::Links,
            "ray" | "slide" => Most::Side,
            "leaps" | "direction set" | "track_ways" => Most::Eight,
            "tracks" => Most::Tracks,
            _ => Most::Cells,
        }
    }
}

/// A compiled effect statement.
#[derive(Clone, Debug)]
pub enum Op {
    If(Node, Vec<Op>, Vec<Op>),
    For {
        slot: u16,
        domain: Domain,
        filter: Option<Node>,
        body: Vec<Op>,
    },
    Let(u16, Node),
    SetVar(u16, Node),
    SetVarAt(u16, Node, Node),
    /// A native effect, its arguments and its name.
    Effect(EffectFn, Box<[Node]>, &'static str),
}

/// One entry of a compiled `choose` list.
#[derive(Clone, Debug)]
pub enum Choice {
    In {
        slot: u16,
        domain: Domain,
        filter: Option<Node>,
        /// Set when neither the collection nor the filter reads a name chosen earlier in
        /// the same part: random draws then work its elements out once per position.
        invariant: bool,
        /// For a set of cells: what bounds its size whatever the names it reads (see
        /// [`SetBound`]); set by the optimiser.
        bound: SetBound,
    },
    Let(u16, Node),
    Where(Node),
}

/// What bounds the size of a set of cells whatever the names it reads and whatever
/// effects changed a few cells before it is worked out: random draws give a choice that
/// many slots. Dropping terms of a conjunction only adds cells, so the terms that read
/// only the position (`fixed`, which changes by at most one cell per cell edited) and the
/// terms with a size of their own (`cap`: one cell, a cell's neighbours) each bound it.
/// Where `fixed` is a set of tops ([`SetExpr::of_tops`]), it gains at most
/// [`Edits::tops`](super::natives::Edits::tops) cells rather than one per cell edited. A cell the set leaves out by
/// name (`x != from`, the local slots in `excluded`, one bit each) never joins it, so an
/// edit of that named cell ([`Edits::named`](super::natives::Edits::named)) adds nothing. `gained` is what the effects
/// of the part's earlier parts can add to `fixed` (`None` when they are not bounded, a
/// push or a loop), and `gained_last` what the effect of the part just before can add
/// (the one effect a listing has not played when it reaches this part), both worked out
/// by the optimiser once, so that a draw reads them.
#[derive(Clone, Debug, Default)]
pub struct SetBound {
    pub fixed: Option<SetExpr>,
    pub cap: Option<u32>,
    pub tops: bool,
    pub excluded: u64,
    pub gained: Option<u32>,
    pub gained_last: Option<u32>,
    /// The terms of the conjunction that read no stack and that the effects of the
    /// part's earlier parts cannot change ([`SetExpr::stackless_unless`]): the set they
    /// make now, worked out where the part's slots are, holds every cell the set can
    /// (a variable that asks for one cell, or none, bounds the set by one cell, or none).
    pub within: Option<SetExpr>,
}

/// One piece of the notation template: literal text or a bound value to print.
#[derive(Clone, Debug)]
pub enum NotationPiece {
    Text(String),
    Value(u16, crate::lang::types::Type),
    /// `{file(x)}`: the letter of the file of a bound cell (`e` for `e4`), for a short
    /// text that names a file alone.
    File(u16),
    /// `{rank(x)}`: the number of the rank of a bound cell (`4` for `e4`).
    Rank(u16),
    /// `{x?}` (short notation only): as little of a bound cell as tells the ply apart
    /// from the other legal plies whose short text is otherwise the same: nothing, its
    /// file letter, its rank, or its whole name, the way players disambiguate by hand.
    Unique(u16),
    /// `{EXPR}`, `{letter(EXPR)}`, `{pad(EXPR, WIDTH)}`: an expression over the bound
    /// names, printed as a value of its type or, for a number, as a letter or padded,
    /// so that a coordinate written in letters (`e3h`, `7g7f`) is one template.
    Computed(Node, crate::lang::types::Type, Shown),
}

/// How a template prints a computed value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// As `{x}` prints a value of its type.
    Plain,
    /// A number from 1 as a letter, `a` for 1 (`A` when `upper`), `z` for 26, `aa` for
    /// 27 (as spreadsheet columns go on); a number below 1 in decimal.
    Letter { upper: bool },
    /// A number in decimal with zeros in front up to this many digits.
    Pad(u8),
}

impl Shown {
    /// The text of number `v` in this form (a value of another type goes through
    /// `plain`, which prints it by its type).
    pub fn number(self, v: i64, plain: impl FnOnce(i64) -> String) -> String {
        match self {
            Shown::Plain => plain(v),
            Shown::Letter { .. } if v < 1 => v.to_string(),
            Shown::Letter { upper } => {
                let base = if upper { b'A' } else { b'a' };
                let mut letters = Vec::new();
                let mut n = v;
                while n > 0 {
                    n -= 1;
                    letters.push((base + (n % 26) as u8) as char);
                    n /= 26;
                }
                letters.iter().rev().collect()
            }
            Shown::Pad(width) => {
                let width = usize::from(width);
                if v < 0 {
                    format!("-{:0width$}", v.unsigned_abs())
                } else {
                    format!("{v:0width$}")
                }
            }
        }
    }
}

impl NotationPiece {
    /// The local slot the piece prints, if it prints one.
    pub fn slot(&self) -> Option<u16> {
        match self {
            NotationPiece::Text(_) | NotationPiece::Computed(..) => None,
            NotationPiece::Value(s, _)
            | NotationPiece::File(s)
            | NotationPiece::Rank(s)
            | NotationPiece::Unique(s) => Some(*s),
        }
    }
}

/// How a part repeats: a capture chain of any length as one ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repeat {
    /// Played once.
    Once,
    /// Played zero or more times, each time again while it can be: the ply ends only
    /// where the part has no legal continuation ("must continue if you can").
    Must,
    /// Played zero or more times, the ply ending after any of them.
    May,
}

/// The most times a part repeats in one ply: a chain that could go on (a piece moving
/// back and forth) stops there.
pub const MOST_REPEATS: usize = 64;

/// The most steps the walk of one action takes in one position: a step for each ply it
/// gives and each value the ply holds, and one for each play of its repeated part. It
/// bounds what `MOST_REPEATS` does not: the number of chains, which with two choices a
/// play could reach 2^64, and a listing too large for memory or time (at most some 30 MB
/// and a tenth of a second; the widest game in the library lists some 9,000 steps). A
/// walk that reaches it stops, and the game says which action ran away
/// ([`crate::engine::game::Game::runaway`]).
pub const MOST_STEPS: u64 = 1_000_000;

/// One way a part may be written: the template used when `when` holds (always, without
/// one). A part's cases are tried in order.
#[derive(Clone, Debug)]
pub struct NotationCase {
    pub when: Option<Node>,
    pub pieces: Vec<NotationPiece>,
}

impl NotationCase {
    /// The expressions of the case (its `when` and its computed pieces), for the passes
    /// that rewrite every expression of a game.
    pub fn nodes_mut(&mut self) -> impl Iterator<Item = &mut Node> {
        self.when
            .iter_mut()
            .chain(self.pieces.iter_mut().filter_map(|p| match p {
                NotationPiece::Computed(node, ..) => Some(node),
                _ => None,
            }))
    }
}

/// A part's effect when it is one move between two names ([`Part::one_move`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OneMove {
    /// The slots of the cells the pieces move from and onto.
    pub from: u16,
    pub to: u16,
    /// Whether the top piece alone moves (`move_top`), or the whole stack (`move`).
    pub top_only: bool,
}

/// One part of an action: choices, an effect, a check after the effect, a notation.
#[derive(Clone, Debug)]
pub struct Part {
    pub choices: Vec<Choice>,
    pub effect: Vec<Op>,
    pub check: Option<Node>,
    pub notation: Vec<NotationCase>,
    /// The part's short notation (`short`), when the file gives one: what a player
    /// writes with the fewest characters, told apart from the other legal plies only as
    /// far as needed ([`NotationPiece::Unique`]).
    pub short: Option<Vec<NotationCase>>,
    pub optional: bool,
    /// Whether (and how) the part is played again after itself: only an action's last
    /// part repeats, so a ply's values past the other parts are its repetitions'.
    pub repeat: Repeat,
    /// The slots of the `in` choices, in order: the values of a ply this part adds.
    pub ins: Box<[u16]>,
}

impl Part {
    /// The choices (bit per index, the first 64) whose value or collection is the same for
    /// every combination of the part's `in` choices before them: `let` and `where`
    /// choices and collections (with their filters) that read no name chosen by an `in`
    /// choice or worked out from one. Random draws work these out once per position.
    pub fn fixed_choices(&self) -> u64 {
        let mut varying: Vec<u16> = Vec::new();
        let mut fixed = 0u64;
        for (i, choice) in self.choices.iter().enumerate().take(64) {
            let reads = choice.reads_any(&varying);
            let (slot, chosen) = match choice {
                Choice::In { slot, .. } => (Some(*slot), true),
                Choice::Let(slot, _) => (Some(*slot), false),
                Choice::Where(_) => (None, false),
            };
            if !reads {
                fixed |= 1 << i;
            }
            if let Some(slot) = slot
                && (chosen || reads)
            {
                varying.push(slot);
            }
        }
        fixed
    }

    /// The cases of the part's notation and of its short notation.
    pub fn cases(&self) -> impl Iterator<Item = &NotationCase> {
        self.notation.iter().chain(self.short.iter().flatten())
    }

    /// [`Part::cases`], to be rewritten.
    pub fn cases_mut(&mut self) -> impl Iterator<Item = &mut NotationCase> {
        self.notation
            .iter_mut()
            .chain(self.short.iter_mut().flatten())
    }

    /// Whether the part's effect, check or notation may read one of the local `slots`.
    pub fn played_reads_any(&self, slots: &[u16]) -> bool {
        self.effect.iter().any(|op| op.reads_any(slots))
            || self.check.as_ref().is_some_and(|c| c.reads_any(slots))
            || self.cases().any(|case| {
                case.when.as_ref().is_some_and(|w| w.reads_any(slots))
                    || (case.pieces.iter()).any(|p| match p {
                        NotationPiece::Computed(node, ..) => node.reads_any(slots),
                        p => p.slot().is_some_and(|s| slots.contains(&s)),
                    })
            })
    }

    /// Whether the part's last choice is an `in` over a set of cells and its effect one
    /// `move` or `move_top` from a cell named before onto that choice's cell, with no
    /// check and no repetition. When it is an action's first part, its chains gather the
    /// cells of its last choice (`Chain::gathers`), and listing the part moves the
    /// pieces from each of them to the next
    /// ([`Journal::retarget`](super::state::Journal::retarget)) instead of playing the
    /// move from the position and taking it back for every cell.
    pub fn moves_onto_last(&self) -> bool {
        let Some(Choice::In {
            slot,
            domain: Domain::Cells(_),
            ..
        }) = self.choices.last()
        else {
            return false;
        };
        let Some(OneMove { from, to, .. }) = self.one_move() else {
            return false;
        };
        let plain = self.check.is_none() && matches!(self.repeat, Repeat::Once);
        plain && to == *slot && from != *slot
    }

    /// The move that is the part's whole effect, when it is one `move` or `move_top`
    /// between two names: such an effect changes the stacks of those two cells and
    /// nothing else, which the listing, the draws and the checks build on
    /// (`engine::overlay`, `engine::precheck`, `engine::check_before`).
    pub fn one_move(&self) -> Option<OneMove> {
        let [Op::Effect(_, args, name)] = self.effect.as_slice() else {
            return None;
        };
        let top_only = match *name {
            "move" => false,
            "move_top" => true,
            _ => return None,
        };
        match **args {
            [Node::Local(from), Node::Local(to)] => Some(OneMove { from, to, top_only }),
            _ => None,
        }
    }

    /// Sets the names this part binds to `none`, its choices' and its effect's `let`s
    /// (those of the effect's top level, which later parts see): what later parts see
    /// when an optional part is skipped, instead of whatever an earlier branch left in
    /// the slots, or a fresh frame's zeros.
    pub fn clear_slots(&self, locals: &mut [i64]) {
        for choice in &self.choices {
            if let Choice::In { slot, .. } | Choice::Let(slot, _) = choice {
                locals[*slot as usize] = super::state::NONE;
            }
        }
        for op in &self.effect {
            if let Op::Let(slot, _) = op {
                locals[*slot as usize] = super::state::NONE;
            }
        }
    }

    /// The names (local slots below 64, a bit each) that the part's first `upto`
    /// choices bind.
    pub fn names(&self, upto: usize) -> u64 {
        self.choices[..upto]
            .iter()
            .fold(0, |bits, choice| match choice {
                Choice::In { slot, .. } | Choice::Let(slot, _) if *slot < 64 => bits | 1 << slot,
                _ => bits,
            })
    }
}

/// A scalar expression as a closure: the context and the local slots in, the value out.
pub type Scalar = Box<dyn Fn(&Ctx, &mut [i64]) -> i64 + Send + Sync>;

/// A set of cells as a closure, for a board whose sets have `W` words.
pub type Cells<const W: usize> = Box<dyn Fn(&Ctx, &mut [i64]) -> [u64; W] + Send + Sync>;

/// A compiled scalar expression: the expression and its closure.
pub struct Code {
    pub node: Node,
    pub run: Scalar,
}

impl fmt::Debug for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Code({:?})", self.node)
    }
}

/// A compiled set of cells: the set and its closure for the board's size.
pub struct SetCode {
    pub set: SetExpr,
    run: Sized,
}

/// What builds a set's closure for a board of any number of words (`engine::code`).
pub trait MakeCells {
    fn make<const W: usize>(&self) -> Cells<W>;
}

impl fmt::Debug for SetCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SetCode({:?})", self.set)
    }
}

macro_rules! sized {
    ($($variant:ident $w:literal)*) => {
        /// A set's closure for the board's number of words (boards of up to 704 cells).
        enum Sized {
            $($variant(Cells<$w>),)*
        }

        impl SetCode {
            /// `set` with the closure `make` builds for a board of `words` words.
            pub fn new(set: SetExpr, words: usize, make: &impl MakeCells) -> SetCode {
                let run = match words {
                    $($w => Sized::$variant(make.make::<$w>()),)*
                    w => unreachable!("a board of {w} words"),
                };
                SetCode { set, run }
            }

            /// Works the set out and hands it to `f` (with the local slots back).
            #[inline]
            pub fn with<R>(
                &self,
                c: &Ctx,
                locals: &mut [i64],
                f: impl FnOnce(&[u64], &mut [i64]) -> R,
            ) -> R {
                match &self.run {
                    $(Sized::$variant(run) => {
                        let s = run(c, locals);
                        f(&s, locals)
                    })*
                }
            }
        }
    };
}

sized!(W1 1 W2 2 W3 3 W4 4 W5 5 W6 6 W7 7 W8 8 W9 9 W10 10 W11 11);

/// The arguments of `directions(cell)` or `directions(cell, D)` when the cell is a name
/// and `D` a constant: the cell's slot and the direction set (every direction without
/// one).
pub fn directions_args(args: &[Node]) -> Option<(usize, u8)> {
    match args {
        [Node::Local(cell)] => Some((usize::from(*cell), 0xff)),
        [Node::Local(cell), Node::Const(dirs)] => Some((usize::from(*cell), *dirs as u8)),
        _ => None,
    }
}

/// How many slots a frame keeps inline.
pub const FRAME_INLINE: usize = 16;

/// The local slots of one evaluation (an action's names, an end rule's, an aggregate's
/// variable): on the stack for the frames real games need, so evaluating allocates nothing.
pub type Frame = smallvec::SmallVec<[i64; FRAME_INLINE]>;

/// A frame of at least `size` slots, all 0: never fewer than [`FRAME_INLINE`], so that a
/// small frame is copied as a block of fixed size (one the compiler copies in registers,
/// not through a call).
pub fn frame(size: usize) -> Frame {
    if size <= FRAME_INLINE {
        Frame::from_buf([0; FRAME_INLINE])
    } else {
        Frame::from_elem(0, size)
    }
}

/// The slots of a frame of at least `size` slots made by [`frame`].
pub fn frame_len(size: usize) -> usize {
    size.max(FRAME_INLINE)
}

/// An expression evaluated on its own, outside any action (a phase condition, the plies
/// of a turn, the score, the heuristic, the drawn height): the node together with the
/// number of local slots its aggregates and bindings need. Keeping the two in one value
/// means no caller can evaluate such an expression with a frame too small for it.
#[derive(Clone, Debug)]
pub struct Standalone {
    pub node: Node,
    pub frame: usize,
}

/// A phase: its name and the condition that makes it the current one.
#[derive(Clone, Debug)]
pub struct Phase {
    pub name: String,
    pub when: Standalone,
}

/// What happens to a player who has no legal ply at the start of their turn, when no
/// `[[stuck]]` rule ends the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stuck {
    /// The player loses and takes no more turns; their pieces stay on the board (unlike
    /// the `eliminate` effect, which takes them off).
    Lose,
    /// The turn passes silently; if every player in turn does so, the game ends: a draw,
    /// or (`all_passed = "score"`) by the scores.
    Pass { scored: bool },
}

/// The result an end rule declares.
#[derive(Clone, Debug)]
pub enum EndResult {
    Winner(Node),
    Loser(Node),
    Draw,
    Score,
}

/// An end rule: checked after every ply, with `me` the player who just played.
#[derive(Clone, Debug)]
pub struct EndRule {
    pub when: Node,
    pub result: EndResult,
    pub frame: usize,
}

#[cfg(test)]
mod tests {
    use super::{Node, SetExpr};

    fn kind(k: i64) -> SetExpr {
        SetExpr::TopKind(Box::new(Node::Const(k)))
    }

    #[test]
    fn a_set_of_tops_is_decided_by_the_top_piece_and_holds_no_empty_cell() {
        let mine = || SetExpr::OwnedBy(Box::new(Node::Me));
        let conj = |terms: Vec<(bool, SetExpr)>| SetExpr::Conj(terms.into());
        // Decided by the top piece, never empty: a whole stack moved takes its top away
        // from one cell and onto the other, so the set gains no cell.
        assert!(kind(2).of_tops());
        assert!(mine().of_tops());
        assert!(SetExpr::Occupied.of_tops());
        assert!(conj(vec![(false, SetExpr::Occupied), (true, mine())]).of_tops());
        assert!(SetExpr::Or(Box::new(kind(1)), Box::new(mine())).of_tops());
        // Empty cells are in it: the cell moved from joins it.
        assert!(!kind(-1).of_tops());
        assert!(!SetExpr::Empty.of_tops());
        assert!(!conj(vec![(true, kind(2))]).of_tops());
        // Decided by more than the top piece: the cell moved onto may join it while the
        // cell moved from was not in it.
        assert!(!SetExpr::Test(0).of_tops());
        assert!(!SetExpr::Holding(1).of_tops());
        assert!(!conj(vec![(false, kind(2)), (false, SetExpr::Mask(0))]).of_tops());
        assert!(!conj(vec![(false, kind(2)), (false, SetExpr::Test(0))]).of_tops());
        // A kind or a player that varies is not fixed for the ply.
        assert!(!SetExpr::TopKind(Box::new(Node::Local(0))).of_tops());
        assert!(!SetExpr::OwnedBy(Box::new(Node::Local(0))).of_tops());
    }
}

/// An argument that is read without evaluating anything: a local slot (a name chosen
/// or worked out before), a constant, or the player to move. Native calls and native
/// effects read such arguments where they are, not each through a closure.
#[derive(Clone, Copy)]
pub enum Arg {
    Local(usize),
    Const(i64),
    Me,
}

impl Arg {
    pub fn of(node: &Node) -> Option<Arg> {
        match *node {
            Node::Local(i) => Some(Arg::Local(i as usize)),
            Node::Const(v) => Some(Arg::Const(v)),
            Node::Me => Some(Arg::Me),
            _ => None,
        }
    }

    #[inline(always)]
    pub fn get(self, me: u8, locals: &[i64]) -> i64 {
        match self {
            Arg::Local(i) => locals[i],
            Arg::Const(v) => v,
            Arg::Me => me as i64,
        }
    }
}
