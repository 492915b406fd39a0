//! The set pass: filters over cells become set algebra.
//!
//! After type checking, every collection ranged over (by a choice, an aggregate or a
//! `for`) is looked at with its filter. Where the collection is `cells`, or
//! `adjacent(c, dirs)` and the order of the elements does not matter, the conjuncts of the
//! filter that ask only about the element's own stack, its top piece's owner or kind, or
//! its identity become a [`SetExpr`]: cached sets of the position, masks of the board and
//! their intersections. What is left of the filter (conjuncts that read other cells or
//! variables in ways a set cannot say) is tested per element as before. Expressions have
//! no side effects, so taking conjuncts out of a chain and testing them first changes
//! nothing but the time.
//!
//! A condition on one cell's stack alone with constants (`height(x) == 1`,
//! `!has(x, marker)`) becomes a *stack test*: the position keeps the set of cells passing
//! each test, updated whenever a stack changes, so the filter is one word read.
//!
//! Applies: at load, to every collection with a filter, before the closures are made;
//! a choice of directions followed by a step is folded only when the game is compiled
//! with closures (the reference, `compile::compile_reference`, keeps steps as written).
//! Guarantees: the same elements, in the same order, as testing the filter element by
//! element.
//! Proved by: `semantics::filters_on_owners_and_empty_cells_keep_their_meaning_when_read_from_cell_sets`
//! and its kin (top kinds, leaps and membership: sets against what the expression says,
//! cell by cell), `semantics::a_step_condition_that_reads_the_direction_is_tested_for_each_direction`,
//! `compiled::compiled_expressions_play_every_game_as_the_tree_walker_does` (folded steps
//! against steps as written), and the generated files of
//! `actions::generated_actions_give_the_plies_the_rules_give` (filters in choices and
//! counts, against an enumeration that tests every element).

use crate::engine::board::{Board, ORTHOGONAL};
use crate::engine::game::Game;
use crate::engine::natives::{self, Edits};
use crate::engine::program::{
    Aggregate, ChildMut, Choice, Domain, Node, Op, Repeat, SetBound, SetExpr,
};
use crate::engine::stack_test::{MAX_TESTS, StackTests};
use crate::lang::ast::{AggOp, BinOp, balanced};

/// Rewrites every filter of `game` into set algebra where it can, and gives the initial
/// position the stack tests this found.
pub fn optimise(game: &mut Game, fold_steps: bool) {
    game.board.settle_links();
    let mut pass = Pass {
        tests: Vec::new(),
        keys: Vec::new(),
        board: &mut game.board,
        by_height: false,
        holding: false,
        history: false,
    };
    for action in &mut game.actions {
        // The names chosen so far in the action: a cell they name stays the same to the
        // end of the ply (but in a part that repeats, which chooses again each time).
        let mut chosen = 0u64;
        // What each part's effect can change at most.
        let mut effects = Vec::new();
        for part in &mut action.parts {
            chosen |= part.names(part.choices.len());
            for choice in &mut part.choices {
                match choice {
                    Choice::In {
                        slot,
                        domain,
                        filter,
                        bound,
                        ..
                    } => {
                        pass.narrow(domain, filter, *slot, false);
                        if let Domain::Cells(set) = domain {
                            let side = pass.board.files.max(pass.board.ranks) as u32;
                            *bound = set_bound(set, pass.board.most_links() as u32, side);
                        }
                    }
                    Choice::Let(_, node) | Choice::Where(node) => pass.node(node),
                }
            }
            if fold_steps {
                pass.steps(&mut part.choices);
            }
            pass.ops(&mut part.effect);
            let kept = if part.repeat == Repeat::Once {
                chosen
            } else {
                0
            };
            effects.push(edits(&part.effect, kept));
            for case in part.cases_mut() {
                for node in case.nodes_mut() {
                    pass.node(node);
                }
            }
            if let Some(check) = &mut part.check {
                pass.node(check);
            }
        }
        // Each set of cells learns what the effects of its part's earlier parts can add,
        // and which of its terms they cannot change.
        let (mut before, mut last) = (Some(Edits::default()), Some(Edits::default()));
        let mut written = 0u64;
        for (part, effect) in action.parts.iter_mut().zip(effects) {
            for choice in &mut part.choices {
                if let Choice::In { bound, domain, .. } = choice {
                    bound.gained = before.map(|e| e.gained(bound.tops, bound.excluded));
                    bound.gained_last = last.map(|e| e.gained(bound.tops, bound.excluded));
                    if let Domain::Cells(set) = domain {
                        bound.within = within(set, written);
                    }
                }
            }
            before = before.zip(effect).map(|(a, b)| a.then(b));
            last = effect;
            written |= vars_written(&part.effect);
        }
    }
    for f in &mut game.recursive {
        pass.node(&mut f.body);
    }
    for end in &mut game.ends {
        pass.node(&mut end.when);
        if let crate::engine::program::EndResult::Winner(n)
        | crate::engine::program::EndResult::Loser(n) = &mut end.result
        {
            pass.node(n);
        }
    }
    for phase in &mut game.phases {
        pass.node(&mut phase.when.node);
    }
    pass.node(&mut game.plies_per_turn.node);
    for standalone in [&mut game.score, &mut game.eval, &mut game.shown_height]
        .into_iter()
        .flatten()
    {
        pass.node(&mut standalone.node);
    }
    let by_height = pass.by_height;
    let tests = StackTests::new(pass.tests.iter().map(Node::stack_expr).collect());
    let hashing = pass.history;
    game.initial
        .set_caches(tests, by_height, hashing, pass.holding);
    // The start is a position like the others for repetitions.
    let before_first = (game.players.len() as u8).saturating_sub(1);
    game.initial.record(before_first);
}

/// The stack tests found so far, each once, and the board (which keeps a table of
/// neighbour masks for each constant direction set a filter uses).
struct Pass<'b> {
    tests: Vec<Node>,
    keys: Vec<String>,
    board: &'b mut Board,
    /// Whether some set reads cells by height.
    by_height: bool,
    /// Whether some set reads the cells holding a kind (`has(x, K)` in a filter).
    holding: bool,
    /// Whether some expression asks about earlier positions (`repetitions`,
    /// `board_repeated`): then positions keep a hash and a history.
    history: bool,
}

impl Pass<'_> {
    fn ops(&mut self, ops: &mut [Op]) {
        for op in ops {
            match op {
                Op::If(cond, t, f) => {
                    self.node(cond);
                    self.ops(t);
                    self.ops(f);
                }
                Op::For {
                    slot,
                    domain,
                    filter,
                    body,
                } => {
                    // Effects may depend on the order of the elements: keep it.
                    self.narrow(domain, filter, *slot, true);
                    self.ops(body);
                }
                Op::Let(_, n) | Op::SetVar(_, n) => self.node(n),
                Op::SetVarAt(_, p, v) => {
                    self.node(p);
                    self.node(v);
                }
                Op::Effect(_, args, _) => args.iter_mut().for_each(|a| self.node(a)),
            }
        }
    }

    /// Visits the aggregates inside an expression, and folds constants.
    fn node(&mut self, node: &mut Node) {
        self.visit(node);
        fold(node);
    }

    fn visit(&mut self, node: &mut Node) {
        match node {
            Node::Repetitions | Node::BoardRepeated => self.history = true,
            Node::Bind(slot, value, body) => {
                self.node(value);
                // A function called with a name or a constant: the body reads the
                // argument itself, so the set pass sees `owner(x) == me` through the call.
                if matches!(
                    **value,
                    Node::Const(_) | Node::Local(_) | Node::Me | Node::Var(_)
                ) {
                    let (slot, value) = (*slot, (**value).clone());
                    let mut body = std::mem::replace(&mut **body, Node::Const(0));
                    substitute(&mut body, slot, &value);
                    *node = body;
                    self.node(node);
                } else {
                    self.node(body);
                }
            }
            Node::Agg(agg) => {
                if let Some(body) = &mut agg.body {
                    self.node(body);
                }
                // `any(x in D: P)` and `count(x in D: P)` are `any`/`count` of the
                // elements where P holds: a filter, which the set pass can narrow.
                if matches!(agg.op, AggOp::Any | AggOp::Count | AggOp::All)
                    && let Some(body) = agg.body.take()
                {
                    let body = match agg.op {
                        // `all(x in D: P)` is `!any(x in D: !P)`.
                        AggOp::All => Node::Not(Box::new(body)),
                        _ => body,
                    };
                    agg.filter = Some(match agg.filter.take() {
                        Some(f) => Node::Binary(BinOp::And, Box::new(f), Box::new(body)),
                        None => body,
                    });
                    if agg.op == AggOp::All {
                        agg.op = AggOp::Any;
                        let any = std::mem::replace(node, Node::Const(0));
                        *node = Node::Not(Box::new(any));
                        let Node::Not(any) = node else { unreachable!() };
                        let Node::Agg(agg) = any.as_mut() else {
                            unreachable!()
                        };
                        if let Some(f) = &mut agg.filter {
                            fold(f);
                        }
                        let ordered = false;
                        self.narrow(&mut agg.domain, &mut agg.filter, agg.slot, ordered);
                        return;
                    }
                }
                let ordered = matches!(agg.op, AggOp::First | AggOp::Last);
                // A `first`/`last` along a ray is seen again when it stands in the body
                // of an `any`/`count`/`all` (its body is passed once, then again as the
                // filter it becomes): already a set taken in ray order, it stays one.
                if agg.along.is_some() {
                    return;
                }
                if ordered && agg.body.is_none() {
                    agg.along = self.along_ray(&mut agg.domain, &mut agg.filter, agg.slot);
                    if agg.along.is_some() {
                        return;
                    }
                }
                self.narrow(&mut agg.domain, &mut agg.filter, agg.slot, ordered);
            }
            // Everything else: its parts one level down (expressions are compiled to
            // closures only after this pass, so there is no `Code` to look into).
            other => other.each_child_mut(|child| {
                if let ChildMut::Node(n) = child {
                    self.node(n);
                }
            }),
        }
    }

    /// `first`/`last` of `x in ray(c, d) where P` with P wholly a set: the ray's cells as
    /// a set, taken nearest first by the direction (returned); `None`, and nothing
    /// changed, otherwise.
    fn along_ray(
        &mut self,
        domain: &mut Domain,
        filter: &mut Option<Node>,
        slot: u16,
    ) -> Option<Node> {
        let Domain::Native(native, args) = domain else {
            return None;
        };
        if !matches!(native.name, "ray" | "slide") {
            return None;
        }
        args.iter_mut().for_each(|a| self.node(a));
        let (cell, dir) = (Box::new(args[0].clone()), Box::new(args[1].clone()));
        let mut set = match native.name {
            "ray" => SetExpr::Ray(cell, dir),
            _ => SetExpr::Slide(cell, dir),
        };
        if let Some(f) = filter {
            self.node(f);
            let mut parts = Vec::new();
            conjuncts(f.clone(), &mut parts);
            for part in parts {
                set = and(set, self.set(&part, slot)?);
            }
        }
        let dir = args[1].clone();
        self.board.make_rays();
        *domain = Domain::Cells(set);
        *filter = None;
        Some(dir)
    }

    /// Turns a collection of cells and its filter into a set and what is left of the
    /// filter. `ordered`: the elements must keep the collection's own order (`first`,
    /// `last`, `for`), so only `cells` (in cell order already) may become a set.
    fn narrow(&mut self, domain: &mut Domain, filter: &mut Option<Node>, slot: u16, ordered: bool) {
        if matches!(domain, Domain::Native(native, _) if native.name == "visible") {
            // Line of sight reads the nearest occupied cell of each ray.
            self.board.make_rays();
        }
        match domain {
            Domain::Native(_, args) | Domain::List(args) => {
                args.iter_mut().for_each(|a| self.node(a))
            }
            Domain::Cells(_) | Domain::Steps { .. } => {}
        }
        if let Some(f) = filter {
            self.node(f);
        }
        let base = match domain {
            // On a board with edges a position's sets hold its places too: the cells
            // are a mask of their own there.
            Domain::Cells(SetExpr::All) if self.board.has_places() => {
                SetExpr::Mask(self.board.add_mask(|_, _| true))
            }
            Domain::Cells(SetExpr::All) => SetExpr::All,
            // A group has no order of its own: its cells in cell order, as a set.
            Domain::Native(native, args) if native.name == "group" => {
                let dirs = args
                    .get(1)
                    .cloned()
                    .unwrap_or(Node::Const(ORTHOGONAL as i64));
                SetExpr::Group(Box::new(args[0].clone()), Box::new(dirs))
            }
            // The cells a walk reaches have no order of their own either.
            Domain::Native(native, args) if native.name == "reachable" => {
                let dirs = args
                    .get(1)
                    .cloned()
                    .unwrap_or(Node::Const(ORTHOGONAL as i64));
                SetExpr::Reach(Box::new(args[0].clone()), Box::new(dirs))
            }
            Domain::Native(native, args) if native.name == "ray" && !ordered => {
                self.board.make_rays();
                SetExpr::Ray(Box::new(args[0].clone()), Box::new(args[1].clone()))
            }
            Domain::Native(native, args) if native.name == "slide" && !ordered => {
                self.board.make_rays();
                SetExpr::Slide(Box::new(args[0].clone()), Box::new(args[1].clone()))
            }
            Domain::Native(native, args) if native.name == "leaps" && !ordered => {
                match (&args[1], &args[2]) {
                    (Node::Const(a), Node::Const(b)) => {
                        SetExpr::Leaps(Box::new(args[0].clone()), self.board.leap_table(*a, *b))
                    }
                    _ => return,
                }
            }
            Domain::Native(native, args) if native.name == "adjacent" && !ordered => {
                let cell = Box::new(args[0].clone());
                match args.get(1).unwrap_or(&Node::Const(0xff)) {
                    Node::Const(dirs) => {
                        SetExpr::Neighbours(cell, self.board.neighbour_table(*dirs as u8))
                    }
                    dirs => SetExpr::Adjacent(cell, Box::new(dirs.clone())),
                }
            }
            _ => return,
        };
        let mut set = base;
        let mut rest = Vec::new();
        let mut parts = Vec::new();
        if let Some(f) = filter.take() {
            conjuncts(f, &mut parts);
        }
        for part in parts {
            match self.set(&part, slot) {
                Some(s) => set = and(set, s),
                None => rest.push(part),
            }
        }
        *domain = Domain::Cells(set);
        *filter = balanced(rest, &|a, b| {
            Node::Binary(BinOp::And, Box::new(a), Box::new(b))
        });
    }

    /// Folds `d in directions(c[, D])`, `to = step(c, d)` and the `where`s right after
    /// them that speak of `to` in a way sets can say into one choice over the directions
    /// whose step lands in that set ([`Domain::Steps`]), so that the directions are
    /// worked out with a bit test each and random draws can count them instead of
    /// walking them. The same directions in the same order: the plies and their order
    /// are unchanged.
    fn steps(&mut self, choices: &mut Vec<Choice>) {
        let mut i = 0;
        while i + 1 < choices.len() {
            let (
                Choice::In {
                    slot: d,
                    domain: Domain::Native(native, args),
                    filter: None,
                    ..
                },
                Choice::Let(to, Node::Step(from, dir)),
            ) = (&choices[i], &choices[i + 1])
            else {
                i += 1;
                continue;
            };
            let same_cell =
                matches!((&args[0], &**from), (Node::Local(a), Node::Local(b)) if a == b);
            let same_dir = matches!(**dir, Node::Local(x) if x == *d);
            if native.name != "directions" || !same_cell || !same_dir {
                i += 1;
                continue;
            }
            let (cell, dirs, d, to) = (
                args[0].clone(),
                args.get(1).cloned().unwrap_or(Node::Const(0xff)),
                *d,
                *to,
            );
            let mut target = SetExpr::All;
            let mut folded = false;
            while let Some(Choice::Where(condition)) = choices.get(i + 2) {
                // The set is worked out once for every direction: it may not read `d`.
                if !condition.reads_any(&[to]) || condition.reads_any(&[d]) {
                    break;
                }
                let mut parts = Vec::new();
                conjuncts(condition.clone(), &mut parts);
                // A condition that sets cannot say whole leaves no stack test behind.
                let before = (self.tests.len(), self.by_height, self.holding);
                let Some(sets) = parts
                    .iter()
                    .map(|part| self.set(part, to))
                    .collect::<Option<Vec<SetExpr>>>()
                else {
                    self.tests.truncate(before.0);
                    self.keys.truncate(before.0);
                    (self.by_height, self.holding) = (before.1, before.2);
                    break;
                };
                target = sets.into_iter().fold(target, and);
                choices.remove(i + 2);
                folded = true;
            }
            if folded && let Choice::In { domain, .. } = &mut choices[i] {
                *domain = Domain::Steps {
                    cell: Box::new(cell),
                    dirs: Box::new(dirs),
                    target,
                };
            }
            i += 1;
        }
    }

    /// The set of cells for which `node` holds, with the cell bound to `x`, if it is of a
    /// form sets can say.
    fn set(&mut self, node: &Node, x: u16) -> Option<SetExpr> {
        let is_x = |n: &Node| matches!(n, Node::Local(s) if *s == x);
        let reads_x = |n: &Node| n.reads_any(&[x]);
        if !reads_x(node) {
            return Some(SetExpr::When(Box::new(node.clone())));
        }
        let equal = |a: &Node, b: &Node| -> Option<SetExpr> {
            if reads_x(b) {
                return None;
            }
            let varies = !matches!(b, Node::Const(_));
            let b = Box::new(b.clone());
            match a {
                Node::Owner(c) if is_x(c) => Some(SetExpr::OwnedBy(b)),
                // A height against a constant is a stack test; against a value that
                // varies, the position's cells by height.
                Node::Height(c) if is_x(c) && varies => Some(SetExpr::HeightNear(b, 0)),
                Node::Top(c) if is_x(c) => Some(SetExpr::TopKind(b)),
                c if is_x(c) => Some(SetExpr::Single(b)),
                _ => None,
            }
        };
        let structural = match node {
            Node::Empty(c) if is_x(c) => Some(SetExpr::Empty),
            Node::Has(c, k) if is_x(c) => match **k {
                Node::Const(k) if (0..64).contains(&k) => {
                    self.holding = true;
                    Some(SetExpr::Holding(k as u8))
                }
                _ => None,
            },
            Node::Not(inner) => match inner.as_ref() {
                Node::Empty(c) if is_x(c) => Some(SetExpr::Occupied),
                inner => self.set(inner, x).map(complement),
            },
            Node::Binary(BinOp::Eq, a, b) => equal(a, b).or_else(|| equal(b, a)),
            // `abs(height(x) - E) <= k` (or `< k`, or the other way round), k a
            // constant: the cells within k of E.
            Node::Binary(op @ (BinOp::Le | BinOp::Lt | BinOp::Ge | BinOp::Gt), a, b) => {
                let (distance, bound) = match op {
                    BinOp::Le | BinOp::Lt => (a, b),
                    _ => (b, a),
                };
                // (Against a constant E, a stack test says it in one word read.)
                match (height_distance(distance, x), &**bound) {
                    (Some(value), Node::Const(k)) if !matches!(value, Node::Const(_)) => {
                        let strict = matches!(op, BinOp::Lt | BinOp::Gt);
                        let radius = if strict { k.checked_sub(1) } else { Some(*k) };
                        radius.map(|r| SetExpr::HeightNear(Box::new(value.clone()), r))
                    }
                    _ => None,
                }
            }
            Node::Binary(BinOp::Ne, a, b) => equal(a, b).or_else(|| equal(b, a)).map(complement),
            Node::Binary(BinOp::And, a, b) => {
                let (a, b) = (self.set(a, x), self.set(b, x));
                a.zip(b).map(|(a, b)| and(a, b))
            }
            Node::Binary(BinOp::Or, a, b) => {
                let (a, b) = (self.set(a, x), self.set(b, x));
                a.zip(b).map(|(a, b)| SetExpr::Or(Box::new(a), Box::new(b)))
            }
            Node::Agg(agg) => member(agg, x),
            _ => None,
        };
        if structural.as_ref().is_some_and(by_height) {
            self.by_height = true;
        }
        structural
            .or_else(|| {
                stack_only(node, x)
                    .then(|| self.test(node, x))
                    .flatten()
                    .map(SetExpr::Test)
            })
            .or_else(|| {
                geometric(node, x).then(|| {
                    SetExpr::Mask(
                        self.board
                            .add_mask(|file, rank| geometry(node, file, rank) != 0),
                    )
                })
            })
    }

    /// The index of the stack test `node` (with the cell bound to `x`), added if new;
    /// none once the game has [`MAX_TESTS`] (the test is then made per element).
    fn test(&mut self, node: &Node, x: u16) -> Option<u16> {
        let canonical = rename(node, x);
        let key = format!("{canonical:?}");
        match self.keys.iter().position(|k| *k == key) {
            Some(i) => Some(i as u16),
            None if self.tests.len() < MAX_TESTS => {
                self.keys.push(key);
                self.tests.push(canonical);
                Some((self.tests.len() - 1) as u16)
            }
            None => None,
        }
    }
}

/// Replaces an operation on constants by its value (parameters are constants by now, so
/// `if diagonal_steps then all_directions else orthogonal` is one direction set).
fn fold(node: &mut Node) {
    let value = |n: &Node| match n {
        Node::Const(v) => Some(*v),
        _ => None,
    };
    let folded = match node {
        Node::Not(x) => value(x).map(|v| (v == 0) as i64),
        Node::Neg(x) => value(x).map(i64::wrapping_neg),
        Node::Binary(op, a, b) => match (*op, value(a), value(b)) {
            (op, Some(x), Some(y)) => Some(op.apply(x, y)),
            // Operands of `&&` and `||` are booleans (0 or 1) with no side effects.
            (BinOp::And, Some(0), _) | (BinOp::And, _, Some(0)) => Some(0),
            (BinOp::Or, Some(1), _) | (BinOp::Or, _, Some(1)) => Some(1),
            (BinOp::And, Some(_), _) | (BinOp::Or, Some(_), _) => {
                *node = std::mem::replace(&mut **b, Node::Const(0));
                return;
            }
            (BinOp::And, _, Some(_)) | (BinOp::Or, _, Some(_)) => {
                *node = std::mem::replace(&mut **a, Node::Const(0));
                return;
            }
            _ => None,
        },
        Node::If(cond, t, f) => match value(cond) {
            Some(v) => {
                let branch = if v != 0 { t } else { f };
                *node = std::mem::replace(&mut **branch, Node::Const(0));
                return;
            }
            None => None,
        },
        _ => None,
    };
    if let Some(v) = folded {
        *node = Node::Const(v);
    }
}

/// What bounds the size of `set` (see [`SetBound`]); a cell has at most `links` neighbours
/// and a line at most `side` cells.
fn set_bound(set: &SetExpr, links: u32, side: u32) -> SetBound {
    if set.changes_only_at_edits() {
        return SetBound {
            fixed: Some(set.clone()),
            cap: None,
            tops: set.of_tops(),
            excluded: 0,
            gained: None,
            gained_last: None,
            within: None,
        };
    }
    let cap = |s: &SetExpr| match s {
        SetExpr::Single(_) => Some(1),
        SetExpr::Adjacent(..) | SetExpr::Neighbours(..) => Some(links),
        SetExpr::Leaps(..) => Some(8),
        SetExpr::Ray(..) | SetExpr::Slide(..) => Some(side),
        _ => None,
    };
    match set {
        SetExpr::Conj(terms) => {
            let fixed: Vec<(bool, SetExpr)> = terms
                .iter()
                .filter(|(_, t)| t.changes_only_at_edits())
                .cloned()
                .collect();
            let caps = terms.iter().filter(|(negated, _)| !negated);
            let fixed = (!fixed.is_empty()).then(|| SetExpr::Conj(fixed.into()));
            // `x != y`, y a name: the cell named y is never in the set.
            let excluded = terms.iter().fold(0u64, |bits, (negated, t)| match t {
                SetExpr::Single(n) if *negated => match **n {
                    Node::Local(s) if s < 64 => bits | 1 << s,
                    _ => bits,
                },
                _ => bits,
            });
            SetBound {
                tops: fixed.as_ref().is_some_and(SetExpr::of_tops),
                fixed,
                cap: caps.filter_map(|(_, t)| cap(t)).min(),
                excluded,
                gained: None,
                gained_last: None,
                within: None,
            }
        }
        s => SetBound {
            fixed: None,
            cap: cap(s),
            tops: false,
            excluded: 0,
            gained: None,
            gained_last: None,
            within: None,
        },
    }
}

/// The terms of `set` (a conjunction, or a set of one term) that read no stack and no
/// variable in `written` ([`SetBound::within`]), if any.
fn within(set: &SetExpr, written: u64) -> Option<SetExpr> {
    let SetExpr::Conj(terms) = set else {
        return set.stackless_unless(written).then(|| set.clone());
    };
    let kept: Vec<(bool, SetExpr)> = (terms.iter())
        .filter(|(_, t)| t.stackless_unless(written))
        .cloned()
        .collect();
    (!kept.is_empty()).then(|| SetExpr::Conj(kept.into()))
}

/// The variables `ops` may set, a bit per slot (every bit where a slot is 64 or more, or
/// is a player's variable, whose slot is worked out as it runs).
fn vars_written(ops: &[Op]) -> u64 {
    ops.iter().fold(0, |bits, op| {
        bits | match op {
            Op::SetVar(s, _) if *s < 64 => 1 << s,
            Op::SetVar(..) | Op::SetVarAt(..) => u64::MAX,
            Op::If(_, t, f) => vars_written(t) | vars_written(f),
            Op::For { body, .. } => vars_written(body),
            Op::Let(..) | Op::Effect(..) => 0,
        }
    })
}

/// What running `ops` can change at most, if that is bounded; the cells it edits that
/// are named by the local slots in `chosen` (names the action chose before `ops` and keeps
/// to the end of the ply) are marked as such.
fn edits(ops: &[Op], chosen: u64) -> Option<Edits> {
    let mut total = Edits::default();
    for op in ops {
        total = total.then(match op {
            Op::Effect(_, args, name) => {
                let mut e = natives::cells_edited(name)?;
                for &i in natives::edited_cell_args(name) {
                    if let Some(Node::Local(s)) = args.get(i)
                        && *s < 64
                        && chosen & (1 << s) != 0
                    {
                        e.named |= 1 << s;
                    }
                }
                e
            }
            Op::If(_, t, f) => edits(t, chosen)?.either(edits(f, chosen)?),
            Op::For { .. } => return None,
            Op::Let(..) | Op::SetVar(..) | Op::SetVarAt(..) => Edits::default(),
        });
    }
    Some(total)
}

/// Replaces every read of local `slot` in `node` by `value` (which reads no slot bound
/// inside `node`: a constant, `me`, a variable or an outer name).
fn substitute(node: &mut Node, slot: u16, value: &Node) {
    let sub = |n: &mut Node| substitute(n, slot, value);
    match node {
        Node::Local(s) if *s == slot => *node = value.clone(),
        // Expressions are compiled to closures only after this pass.
        Node::Code(_)
        | Node::Const(_)
        | Node::Local(_)
        | Node::Var(_)
        | Node::Me
        | Node::Repetitions
        | Node::BoardRepeated => {}
        Node::VarAt(_, x)
        | Node::Not(x)
        | Node::Neg(x)
        | Node::Owner(x)
        | Node::Empty(x)
        | Node::Top(x)
        | Node::Height(x)
        | Node::File(x)
        | Node::Rank(x) => sub(x),
        Node::Binary(_, a, b)
        | Node::Pair(_, a, b)
        | Node::Count(a, b)
        | Node::Has(a, b)
        | Node::Step(a, b)
        | Node::Groups(a, b)
        | Node::Bind(_, a, b) => {
            sub(a);
            sub(b);
        }
        Node::If(a, b, c) => {
            sub(a);
            sub(b);
            sub(c);
        }
        Node::Call(_, args, _) | Node::List(args) => args.iter_mut().for_each(sub),
        Node::Recur(call) => call.args.iter_mut().for_each(sub),
        Node::Agg(agg) => {
            match &mut agg.domain {
                Domain::Native(_, args) | Domain::List(args) => args.iter_mut().for_each(sub),
                // Before the set pass a collection of cells is `cells`, which reads nothing,
                // and no collection is made of steps.
                Domain::Cells(_) | Domain::Steps { .. } => {}
            }
            for n in [&mut agg.filter, &mut agg.body, &mut agg.along]
                .into_iter()
                .flatten()
            {
                sub(n);
            }
        }
    }
}

/// Whether a set reads the position's cells by height.
fn by_height(set: &SetExpr) -> bool {
    match set {
        SetExpr::HeightNear(..) => true,
        SetExpr::Conj(terms) => terms.iter().any(|(_, t)| by_height(t)),
        SetExpr::Or(a, b) => by_height(a) || by_height(b),
        SetExpr::Near(s, _) => by_height(s),
        _ => false,
    }
}

/// E, where `node` is `abs(height(x) - E)` or `abs(E - height(x))` and E reads no `x`:
/// how far a cell's height is from E, which [`SetExpr::HeightNear`] bounds.
fn height_distance(node: &Node, x: u16) -> Option<&Node> {
    let Node::Call(_, args, "abs") = node else {
        return None;
    };
    let [Node::Binary(BinOp::Sub, a, b)] = &args[..] else {
        return None;
    };
    let is_height =
        |n: &Node| matches!(n, Node::Height(c) if matches!(**c, Node::Local(s) if s == x));
    match (&**a, &**b) {
        (h, e) | (e, h) if is_height(h) && !e.reads_any(&[x]) => Some(e),
        _ => None,
    }
}

/// `any(y in S where y == x)`, S a set of cells that reads no `x` (already narrowed, so
/// `y == x` is its term `Single(x)`): whether `x` is in S, which as a filter on `x` is S.
/// And `any(y in adjacent(x, D) where P)`, P a set that reads no `x` (narrowed to the
/// terms `Neighbours(x)` and P): the cells with a neighbour in P ([`SetExpr::Near`]).
fn member(agg: &Aggregate, x: u16) -> Option<SetExpr> {
    if agg.op != AggOp::Any || agg.filter.is_some() || agg.body.is_some() || agg.along.is_some() {
        return None;
    }
    let Domain::Cells(set) = &agg.domain else {
        return None;
    };
    let terms: Vec<(bool, SetExpr)> = match set {
        SetExpr::Conj(terms) => terms.to_vec(),
        s => vec![(false, s.clone())],
    };
    // The term that ties the element to `x`: `x` itself, or its neighbours (with the
    // table they are read from).
    let is_x = |n: &Node| matches!(*n, Node::Local(v) if v == x);
    let (at, near) = terms
        .iter()
        .enumerate()
        .find_map(|(i, (negated, t))| match t {
            _ if *negated => None,
            SetExpr::Single(n) if is_x(n) => Some((i, None)),
            SetExpr::Neighbours(n, table) if is_x(n) => Some((i, Some(*table))),
            _ => None,
        })?;
    let rest: Vec<(bool, SetExpr)> = terms
        .into_iter()
        .enumerate()
        .filter(|(i, _)| *i != at)
        .map(|(_, t)| t)
        .collect();
    if rest.iter().any(|(_, t)| t.reads_any(&[x])) {
        return None;
    }
    let set = rest.into_iter().fold(SetExpr::All, |acc, (negated, t)| {
        and(acc, if negated { complement(t) } else { t })
    });
    Some(match near {
        Some(table) => SetExpr::Near(Box::new(set), table),
        None => set,
    })
}

/// `a && b` as sets: one chain of terms, dropping every cell and a lone positive term's
/// chain.
fn and(a: SetExpr, b: SetExpr) -> SetExpr {
    let terms = |s: SetExpr| -> Vec<(bool, SetExpr)> {
        match s {
            SetExpr::All => Vec::new(),
            SetExpr::Conj(terms) => terms.into_vec(),
            s => vec![(false, s)],
        }
    };
    let mut all = terms(a);
    all.extend(terms(b));
    match all.len() {
        0 => SetExpr::All,
        1 if !all[0].0 => all.pop().expect("one term").1,
        _ => SetExpr::Conj(all.into()),
    }
}

/// The cells not in `s`.
fn complement(s: SetExpr) -> SetExpr {
    SetExpr::Conj(Box::new([(true, s)]))
}

/// The operands of a chain of `&&`, left to right.
fn conjuncts(node: Node, out: &mut Vec<Node>) {
    match node {
        Node::Binary(BinOp::And, a, b) => {
            conjuncts(*a, out);
            conjuncts(*b, out);
        }
        n => out.push(n),
    }
}

/// Whether `node` reads nothing but constants and the stack of the cell bound to `x`:
/// then its value for a cell changes only when that cell's stack does.
fn stack_only(node: &Node, x: u16) -> bool {
    let is_x = |n: &Node| matches!(n, Node::Local(s) if *s == x);
    match node {
        Node::Const(_) => true,
        Node::Height(c) | Node::Top(c) | Node::Owner(c) | Node::Empty(c) => is_x(c),
        Node::Count(c, k) | Node::Has(c, k) => is_x(c) && matches!(**k, Node::Const(_)),
        Node::Not(a) | Node::Neg(a) => stack_only(a, x),
        Node::Binary(_, a, b) => stack_only(a, x) && stack_only(b, x),
        Node::If(a, b, c) => stack_only(a, x) && stack_only(b, x) && stack_only(c, x),
        _ => false,
    }
}

/// Whether `node` reads nothing but constants and the coordinates of the cell bound to
/// `x`: then the cells for which it holds are fixed by the board.
fn geometric(node: &Node, x: u16) -> bool {
    let is_x = |n: &Node| matches!(n, Node::Local(s) if *s == x);
    match node {
        Node::Const(_) => true,
        Node::File(c) | Node::Rank(c) => is_x(c),
        Node::Not(a) | Node::Neg(a) => geometric(a, x),
        Node::Binary(_, a, b) => geometric(a, x) && geometric(b, x),
        Node::If(a, b, c) => geometric(a, x) && geometric(b, x) && geometric(c, x),
        _ => false,
    }
}

/// The value of a [`geometric`] node for the cell at (`file`, `rank`) (its cell is the
/// only one it reads).
fn geometry(node: &Node, file: u8, rank: u8) -> i64 {
    let g = |n: &Node| geometry(n, file, rank);
    match node {
        Node::Const(v) => *v,
        Node::File(_) => file as i64,
        Node::Rank(_) => rank as i64,
        Node::Not(a) => (g(a) == 0) as i64,
        Node::Neg(a) => g(a).wrapping_neg(),
        Node::Binary(op, a, b) => op.apply(g(a), g(b)),
        Node::If(a, b, c) => {
            if g(a) != 0 {
                g(b)
            } else {
                g(c)
            }
        }
        other => unreachable!("not geometric: {other:?}"),
    }
}

/// A stack test with its cell in slot 0, so that equal tests written with different
/// names are kept once.
fn rename(node: &Node, x: u16) -> Node {
    let r = |n: &Node| Box::new(rename(n, x));
    match node {
        Node::Local(s) if *s == x => Node::Local(0),
        Node::Height(c) => Node::Height(r(c)),
        Node::Top(c) => Node::Top(r(c)),
        Node::Owner(c) => Node::Owner(r(c)),
        Node::Empty(c) => Node::Empty(r(c)),
        Node::Count(c, k) => Node::Count(r(c), r(k)),
        Node::File(c) => Node::File(r(c)),
        Node::Rank(c) => Node::Rank(r(c)),
        Node::Has(c, k) => Node::Has(r(c), r(k)),
        Node::Not(a) => Node::Not(r(a)),
        Node::Neg(a) => Node::Neg(r(a)),
        Node::Binary(op, a, b) => Node::Binary(*op, r(a), r(b)),
        Node::If(a, b, c) => Node::If(r(a), r(b), r(c)),
        other => other.clone(),
    }
}
