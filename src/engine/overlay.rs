//! Listing a move's next part without playing the move: the second part's sets worked
//! out from the position before the move, patched at the two cells it edits.
//!
//! Applies: to a head whose first part is one `move`/`move_top` onto each cell of its
//! last choice ([`Part::moves_onto_last`]) and whose second part reads stacks only
//! through sets a cell is in by its own stack (checked at load by [`Overlay::of`]).
//! Guarantees: the same listing, in the same order, as playing each move.
//! Proved by: `properties::drawn_plies_are_uniform_when_the_listing_overlays_a_move`,
//! `properties::an_overlaid_listing_draws_what_a_carried_one_draws_on_boards_of_many_words`,
//! and in debug builds (the suite's) every overlaid listing is played and compared.
//! More: docs/engine.md, "Overlaid listings".

use super::cellset::{self, WORDS};
use super::eval::{eval, extreme_height, with_cells};
use super::natives::Ctx;
use super::precheck::cell_reads;
use super::program::{Choice, Domain, Node, OneMove, Part, Repeat, SetExpr};
use super::state::{EMPTY_TOP, NEUTRAL, Seen, State, height_within};
use crate::lang::ast::AggOp;

/// A set of cells the overlay works out: the set, and how to answer for one cell.
#[derive(Clone, Debug)]
struct Watched {
    set: SetExpr,
    probe: Probe,
    /// How often it is worked out while one piece's moves are listed.
    when: When,
    /// Whether the set leaves out the cell moved from by name (`x != from`): then that
    /// cell is not asked about.
    leaves_from: bool,
}

/// How often a [`Watched`] set is worked out while one piece's moves are listed.
#[derive(Clone, Copy, Debug)]
enum When {
    /// Once: it reads neither the cell moved onto nor a name of the second part.
    Once,
    /// Again only when one of the second part's names it reads (the slots, up to four:
    /// the lowest stack, say) has changed since the last cell moved onto.
    Keyed([u16; KEY], usize),
    /// For every cell moved onto, which it reads.
    Always,
}

/// The most names of the second part a set may read and be worked out again only when
/// they change.
const KEY: usize = 4;

/// The most sets an overlay works out (its lowest heights and sizes, the take, the tail):
/// as many as `Moving` has room for.
const MOST_WATCHED: usize = 8;

impl Watched {
    /// `set`, where `from` and `to` are the slots of the cells moved from and onto and
    /// `names` the second part's.
    fn of(set: &SetExpr, from: u16, to: u16, names: &[u16]) -> Option<Watched> {
        let read: Vec<u16> = names
            .iter()
            .copied()
            .filter(|&s| set.reads_any(&[s]))
            .collect();
        let when = if set.reads_any(&[to]) || read.len() > KEY {
            When::Always
        } else if read.is_empty() {
            When::Once
        } else {
            let mut key = [0; KEY];
            key[..read.len()].copy_from_slice(&read);
            When::Keyed(key, read.len())
        };
        let probe = Probe::of(set)?;
        Some(Watched {
            set: set.clone(),
            leaves_from: probe.leaves_out(from),
            probe,
            when,
        })
    }
}

/// A set worked out for one piece's moves (the cell it leaves patched), with the values
/// of the names it was worked out for ([`When::Keyed`]).
#[derive(Clone, Copy)]
struct Kept {
    words: [u64; WORDS],
    key: Option<[i64; KEY]>,
}

/// One of the second part's choices before its counted one, as the overlay works it out.
#[derive(Clone, Debug)]
enum Step {
    /// A `let` or `where` that reads no stack (the choice's index): evaluated as it is.
    Plain(usize),
    /// A `let` of the lowest or highest height over a set of cells, of the set's size, or
    /// of whether it has a cell.
    Over { slot: u16, op: Over, set: Watched },
}

/// What a [`Step::Over`] works out over its set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Over {
    Lowest,
    Highest,
    Count,
    Any,
}

/// What an action needs for its second part to be listed without playing its first.
#[derive(Clone, Debug)]
pub struct Overlay {
    /// The slot of the cell the first part moves from.
    from: u16,
    /// Whether it moves the top piece alone (`move_top`) or the whole stack (`move`).
    top_only: bool,
    steps: Box<[Step]>,
    /// The second part's counted set (its last `in` choice's), and the bound of the part
    /// after it when the listing gives that part slots.
    take: Watched,
    tail: Option<Watched>,
}

/// What the overlay keeps while one piece's moves are listed: the cell it leaves, what
/// that cell will say, and per set (in the order of the steps', then the take's, then the
/// tail's) what it was last worked out to.
pub struct Moving {
    from: usize,
    left: Seen,
    /// Whether the pieces that move hold a kind that every set leaves out (`!has(x, K)`):
    /// then no cell they move onto is in any set, whatever its stack, and what it will
    /// show is not worked out.
    onto_out: bool,
    kept: [Kept; MOST_WATCHED],
}

impl Default for Moving {
    fn default() -> Moving {
        Moving {
            from: 0,
            left: Seen {
                tests: 0,
                present: 0,
                top: EMPTY_TOP,
                height: 0,
            },
            onto_out: false,
            kept: [Kept {
                words: [0; WORDS],
                key: None,
            }; MOST_WATCHED],
        }
    }
}

impl Overlay {
    /// What an action of `parts` needs, if its head may be listed this way (see the module's
    /// documentation): its first part moves onto each cell of its last choice, its
    /// second part is played once, cannot be skipped, and makes its choices before its
    /// last `in` choice (a set of cells with no filter, followed by `let`s alone) from
    /// values that read no stack and from heights and sizes of sets read cell by cell;
    /// those sets, the last one, and the bound of the part after it (`tail`, when the
    /// listing gives it slots) say of a cell only what its own stack says.
    /// A lowest or highest height is worked out only where the position keeps its cells
    /// by height (`heights`: [`State::of_height`]).
    pub fn of(parts: &[Part], tail: Option<&SetExpr>, heights: bool) -> Option<Overlay> {
        let [first, second, ..] = parts else {
            return None;
        };
        if !first.moves_onto_last() || second.optional || second.repeat != Repeat::Once {
            return None;
        }
        let OneMove { from, to, top_only } = first.one_move()?;
        let counted = second
            .choices
            .iter()
            .rposition(|c| matches!(c, Choice::In { .. }))?;
        let Choice::In {
            domain: Domain::Cells(set),
            filter: None,
            ..
        } = &second.choices[counted]
        else {
            return None;
        };
        if !second.choices[counted + 1..]
            .iter()
            .all(|c| matches!(c, Choice::Let(..)))
        {
            return None;
        }
        // What a set may read that changes from one cell moved onto to the next.
        let names: Vec<u16> = second
            .choices
            .iter()
            .filter_map(|c| match c {
                Choice::In { slot, .. } | Choice::Let(slot, _) => Some(*slot),
                Choice::Where(_) => None,
            })
            .collect();
        let watched = |set: &SetExpr| Watched::of(set, from, to, &names);
        let steps = second.choices[..counted]
            .iter()
            .enumerate()
            .map(|(i, choice)| match choice {
                Choice::Let(slot, Node::Agg(agg)) => {
                    let Domain::Cells(set) = &agg.domain else {
                        return None;
                    };
                    let height = matches!(&agg.body, Some(Node::Height(x))
                        if matches!(**x, Node::Local(s) if s == agg.slot));
                    let op = match agg.op {
                        AggOp::Min if height && heights => Over::Lowest,
                        AggOp::Max if height && heights => Over::Highest,
                        AggOp::Count if agg.body.is_none() => Over::Count,
                        AggOp::Any if agg.body.is_none() => Over::Any,
                        _ => return None,
                    };
                    if agg.filter.is_some() || agg.along.is_some() {
                        return None;
                    }
                    Some(Step::Over {
                        slot: *slot,
                        op,
                        set: watched(set)?,
                    })
                }
                Choice::Let(_, node) | Choice::Where(node) => {
                    (cell_reads(node) == Some(0)).then_some(Step::Plain(i))
                }
                Choice::In { .. } => None,
            })
            .collect::<Option<Box<[Step]>>>()?;
        let tail = match tail {
            Some(set) => Some(watched(set)?),
            None => None,
        };
        // Every set has its entry in `Moving` (a fixed array: nothing allocated while listing).
        let sets = steps
            .iter()
            .filter(|s| matches!(s, Step::Over { .. }))
            .count()
            + 2;
        if sets > MOST_WATCHED {
            return None;
        }
        Some(Overlay {
            from,
            top_only,
            steps,
            take: watched(set)?,
            tail,
        })
    }

    /// The sets the overlay works out itself (`engine::code` compiles them), and those
    /// its probes work out.
    pub fn sets_mut(&mut self) -> impl Iterator<Item = &mut SetExpr> {
        self.watched_mut().flat_map(|w| {
            let Watched { set, probe, .. } = w;
            std::iter::once(set).chain(probe.sets_mut())
        })
    }

    /// The values its probes read, for `engine::code` to compile.
    pub fn nodes_mut(&mut self) -> impl Iterator<Item = &mut Node> {
        self.watched_mut().flat_map(|w| w.probe.nodes_mut())
    }

    fn watched_mut(&mut self) -> impl Iterator<Item = &mut Watched> {
        let steps = self.steps.iter_mut().filter_map(|step| match step {
            Step::Over { set, .. } => Some(set),
            Step::Plain(_) => None,
        });
        steps
            .chain(std::iter::once(&mut self.take))
            .chain(self.tail.as_mut())
    }

    fn watched(&self) -> impl Iterator<Item = &Watched> {
        let steps = self.steps.iter().filter_map(|step| match step {
            Step::Over { set, .. } => Some(set),
            Step::Plain(_) => None,
        });
        steps
            .chain(std::iter::once(&self.take))
            .chain(self.tail.as_ref())
    }

    /// Readies `moving` for listing the moves of the piece on the cell in the frame's
    /// `from`: the cell it leaves and what that cell will say, and the sets worked out
    /// once for the piece; false when there is no such cell.
    pub fn begin(&self, c: &Ctx, locals: &mut [i64], moving: &mut Moving) -> bool {
        let Ok(from) = usize::try_from(locals[self.from as usize]) else {
            return false;
        };
        moving.from = from;
        moving.left = c.state.seen_left(from as _, self.count());
        let kinds = c
            .state
            .moving(from as _, self.count())
            .iter()
            .filter(|p| p.kind < 64)
            .fold(0u64, |m, p| m | 1 << p.kind);
        moving.onto_out = self.watched().all(|w| w.probe.present.1 & kinds != 0);
        for (at, watched) in self.watched().enumerate() {
            moving.kept[at].key = None;
            if let When::Once = watched.when {
                let mut words = [0; WORDS];
                watched.work_out::<WORDS>(c, locals, moving, &mut words);
                moving.kept[at].words = words;
            }
        }
        true
    }

    /// How many pieces the move takes along (all, for `move`).
    fn count(&self) -> usize {
        if self.top_only { 1 } else { usize::MAX }
    }

    /// Works the second part's choices out as they would come out after the piece moves
    /// onto `to`, up to its counted set, which goes into `take` (and the tail's bound into
    /// `tail`, where the counted set has a cell): how many cells the counted set has, 0
    /// also where a `where` refuses; `None` where the move would do nothing or a height
    /// is beyond what the position keeps by height (a stack of `u16::MAX` pieces).
    /// `W` words at least hold the board's sets (the caller picks the fewest: copies
    /// of `W` words are a few moves).
    #[allow(clippy::too_many_arguments)]
    pub fn step<const W: usize>(
        &self,
        second: &Part,
        c: &Ctx,
        locals: &mut [i64],
        moving: &mut Moving,
        to: usize,
        take: &mut [u64; W],
        tail: &mut [u64; W],
    ) -> Option<usize> {
        if to == moving.from {
            return None;
        }
        // What the cell moved onto will show, unless no set can hold it.
        let onto =
            (!moving.onto_out).then(|| c.state.seen_onto(moving.from as _, to as _, self.count()));
        let onto = onto.as_ref();
        let w = c.state.words();
        let mut at = 0;
        for step in &self.steps {
            match step {
                Step::Plain(i) => match &second.choices[*i] {
                    Choice::Let(slot, node) => locals[*slot as usize] = eval(node, c, locals),
                    Choice::Where(node) => {
                        if eval(node, c, locals) == 0 {
                            return Some(0);
                        }
                    }
                    Choice::In { .. } => return None,
                },
                Step::Over { slot, op, set } => {
                    let mut words = [0u64; W];
                    set.patched(c, locals, moving, at, to, onto, &mut words);
                    at += 1;
                    let edited = [(moving.from, Some(&moving.left)), (to, onto)];
                    locals[*slot as usize] = over(*op, &words, w, c.state, edited)?;
                }
            }
        }
        self.take.patched(c, locals, moving, at, to, onto, take);
        let n = cellset::count(&take[..w]);
        if n > 0
            && let Some(watched) = &self.tail
        {
            watched.patched(c, locals, moving, at + 1, to, onto, tail);
        }
        Some(n)
    }
}

impl Watched {
    /// Works the set out into `out` where the listing stands, with the cell the piece
    /// leaves patched (the cell moved onto is not yet).
    fn work_out<const W: usize>(
        &self,
        c: &Ctx,
        locals: &mut [i64],
        moving: &Moving,
        out: &mut [u64; W],
    ) {
        with_cells(&self.set, c, locals, |s, _| {
            out[..s.len()].copy_from_slice(s)
        });
        let inside = !self.leaves_from && self.probe.holds(moving.from, &moving.left, c, locals);
        set_to(&mut out[..c.state.words()], moving.from, inside);
    }

    /// The set once the piece moved onto `to` (which then shows `onto`; `None` when no
    /// set holds it, [`Moving::onto_out`]), into `out`:
    /// worked out again only when it reads what changed since it was last worked out
    /// (`kept`, its entry `at` in the piece's).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn patched<const W: usize>(
        &self,
        c: &Ctx,
        locals: &mut [i64],
        moving: &mut Moving,
        at: usize,
        to: usize,
        onto: Option<&Seen>,
        out: &mut [u64; W],
    ) {
        let w = c.state.words();
        match self.when {
            When::Once => out.copy_from_slice(&moving.kept[at].words[..W]),
            When::Always => self.work_out(c, locals, moving, out),
            When::Keyed(slots, n) => {
                let mut key = [0i64; KEY];
                for (k, &s) in key.iter_mut().zip(&slots[..n]) {
                    *k = locals[s as usize];
                }
                if moving.kept[at].key == Some(key) {
                    out.copy_from_slice(&moving.kept[at].words[..W]);
                } else {
                    self.work_out(c, locals, moving, out);
                    moving.kept[at].words[..W].copy_from_slice(out);
                    moving.kept[at].key = Some(key);
                }
            }
        }
        let inside = onto.is_some_and(|onto| self.probe.holds(to, onto, c, locals));
        set_to(&mut out[..w], to, inside);
    }
}

/// The value of a node, a name or a constant read at once (no call).
#[inline(always)]
fn value(node: &Node, c: &Ctx, locals: &mut [i64]) -> i64 {
    match node {
        Node::Local(s) => locals[*s as usize],
        Node::Const(v) => *v,
        node => eval(node, c, locals),
    }
}

/// Puts `cell` in `set` or takes it out.
#[inline(always)]
fn set_to(set: &mut [u64], cell: usize, inside: bool) {
    if inside {
        cellset::insert(set, cell);
    } else {
        cellset::remove(set, cell);
    }
}

/// The value of a [`Step::Over`] over `set` (already patched at the two edited cells,
/// whose heights the position does not know yet: they are given with them, where the
/// set may hold them).
fn over<const W: usize>(
    op: Over,
    words: &[u64; W],
    w: usize,
    state: &State,
    edited: [(usize, Option<&Seen>); 2],
) -> Option<i64> {
    let set = &words[..w];
    match op {
        Over::Count => Some(cellset::count(set) as i64),
        Over::Any => Some(!cellset::is_empty(set) as i64),
        Over::Lowest | Over::Highest => {
            let highest = op == Over::Highest;
            let better = |h: usize, best: Option<usize>| {
                best.is_none_or(|b| if highest { h > b } else { h < b })
            };
            let mut rest = *words;
            let mut best: Option<usize> = None;
            for (cell, seen) in edited {
                if let Some(seen) = seen
                    && cellset::contains(set, cell)
                {
                    cellset::remove(&mut rest[..w], cell);
                    if better(seen.height, best) {
                        best = Some(seen.height);
                    }
                }
            }
            // The other cells' heights are the position's, read from its cells by height.
            state.by_heights()?;
            if let Some(h) = extreme_height(&rest[..w], highest, state)
                && better(h, best)
            {
                best = Some(h);
            }
            Some(best.map_or(0, |h| h as i64))
        }
    }
}

/// A set that says of a cell only what the cell's own stack says (given values that read
/// no stack), made to answer for one cell from what its stack shows ([`Seen`]), as the
/// set's code would: the stack tests and kinds held it asks for as masks,
/// and its other terms.
#[derive(Clone, Debug)]
struct Probe {
    /// Stack tests that must pass, and that must not.
    tests: (u64, u64),
    /// Kinds (the first 64) that must be held, and that must not.
    present: (u64, u64),
    /// The other terms, each with whether it is negated.
    terms: Box<[(bool, Term)]>,
}

/// A term of a [`Probe`].
#[derive(Clone, Debug)]
enum Term {
    All,
    Occupied,
    TopKind(Node),
    OwnedBy(Node),
    HeightNear(Node, i64),
    Single(Node),
    When(Node),
    Mask(u16),
    /// Cells that the board and the names fix (next to a cell, along a line).
    Fixed(SetExpr),
    Or(Box<Probe>, Box<Probe>),
    And(Box<Probe>),
}

impl Probe {
    /// The probe of `set`, if it says of a cell only what the cell's own stack says.
    fn of(set: &SetExpr) -> Option<Probe> {
        let mut probe = Probe {
            tests: (0, 0),
            present: (0, 0),
            terms: Box::new([]),
        };
        let mut terms = Vec::new();
        probe.add(false, set, &mut terms)?;
        probe.terms = terms.into();
        Some(probe)
    }

    fn add(&mut self, negated: bool, set: &SetExpr, terms: &mut Vec<(bool, Term)>) -> Option<()> {
        let free = |n: &Node| (cell_reads(n) == Some(0)).then(|| n.clone());
        let mask = |on: &mut (u64, u64), bit: u64| {
            if negated {
                on.1 |= bit;
            } else {
                on.0 |= bit;
            }
        };
        let term = match set {
            SetExpr::Test(t) if *t < 64 => {
                mask(&mut self.tests, 1 << t);
                return Some(());
            }
            SetExpr::Holding(k) if *k < 64 => {
                mask(&mut self.present, 1 << k);
                return Some(());
            }
            SetExpr::Conj(inner) if !negated => {
                for (n, t) in inner.iter() {
                    self.add(*n, t, terms)?;
                }
                return Some(());
            }
            SetExpr::Conj(_) => Term::And(Box::new(Probe::of(set)?)),
            SetExpr::All => Term::All,
            SetExpr::Empty => return self.add(!negated, &SetExpr::Occupied, terms),
            SetExpr::Occupied => Term::Occupied,
            SetExpr::Mask(m) => Term::Mask(*m),
            SetExpr::TopKind(n) => Term::TopKind(free(n)?),
            SetExpr::OwnedBy(n) => Term::OwnedBy(free(n)?),
            SetExpr::HeightNear(n, radius) => Term::HeightNear(free(n)?, *radius),
            SetExpr::Single(n) => Term::Single(free(n)?),
            SetExpr::When(n) => Term::When(free(n)?),
            SetExpr::Neighbours(n, _) | SetExpr::Leaps(n, _) => {
                free(n)?;
                Term::Fixed(set.clone())
            }
            SetExpr::Adjacent(a, b) | SetExpr::Ray(a, b) => {
                free(a)?;
                free(b)?;
                Term::Fixed(set.clone())
            }
            SetExpr::Or(a, b) => Term::Or(Box::new(Probe::of(a)?), Box::new(Probe::of(b)?)),
            SetExpr::Code(code) => return self.add(negated, &code.set, terms),
            SetExpr::Test(_)
            | SetExpr::Holding(_)
            | SetExpr::Slide(..)
            | SetExpr::Group(..)
            | SetExpr::Reach(..)
            | SetExpr::Near(..) => return None,
        };
        terms.push((negated, term));
        Some(())
    }

    /// Whether the set leaves out the cell in local `slot` by name (a `x != name` of
    /// its conjunction), whatever that cell's stack.
    fn leaves_out(&self, slot: u16) -> bool {
        self.terms.iter().any(|(negated, term)| {
            *negated && matches!(term, Term::Single(Node::Local(s)) if *s == slot)
        })
    }

    /// Whether `cell`, whose stack shows `seen`, is in the set.
    /// (Inlined: the masks turn most cells away, and only then is a call paid for.)
    #[inline(always)]
    fn holds(&self, cell: usize, seen: &Seen, c: &Ctx, locals: &mut [i64]) -> bool {
        let (on, off) = self.tests;
        let (held, not_held) = self.present;
        if seen.tests & on != on
            || seen.tests & off != 0
            || seen.present & held != held
            || seen.present & not_held != 0
        {
            return false;
        }
        self.terms.is_empty() || self.terms_hold(cell, seen, c, locals)
    }

    /// Whether `cell` passes the terms beside the masks.
    #[inline(never)]
    fn terms_hold(&self, cell: usize, seen: &Seen, c: &Ctx, locals: &mut [i64]) -> bool {
        self.terms
            .iter()
            .all(|(negated, term)| term.holds(cell, seen, c, locals) != *negated)
    }

    fn sets_mut(&mut self) -> Box<dyn Iterator<Item = &mut SetExpr> + '_> {
        Box::new(self.terms.iter_mut().flat_map(
            |(_, term)| -> Box<dyn Iterator<Item = &mut SetExpr>> {
                match term {
                    Term::Fixed(set) => Box::new(std::iter::once(set)),
                    Term::Or(a, b) => Box::new(a.sets_mut().chain(b.sets_mut())),
                    Term::And(a) => a.sets_mut(),
                    _ => Box::new(std::iter::empty()),
                }
            },
        ))
    }

    fn nodes_mut(&mut self) -> Box<dyn Iterator<Item = &mut Node> + '_> {
        Box::new(self.terms.iter_mut().flat_map(
            |(_, term)| -> Box<dyn Iterator<Item = &mut Node>> {
                match term {
                    Term::TopKind(n)
                    | Term::OwnedBy(n)
                    | Term::HeightNear(n, _)
                    | Term::Single(n)
                    | Term::When(n) => Box::new(std::iter::once(n)),
                    Term::Or(a, b) => Box::new(a.nodes_mut().chain(b.nodes_mut())),
                    Term::And(a) => a.nodes_mut(),
                    _ => Box::new(std::iter::empty()),
                }
            },
        ))
    }
}

impl Term {
    /// Whether `cell`, whose stack shows `seen`, is in the term's set.
    fn holds(&self, cell: usize, seen: &Seen, c: &Ctx, locals: &mut [i64]) -> bool {
        let empty = seen.top == EMPTY_TOP;
        match self {
            Term::All => true,
            Term::Occupied => !empty,
            Term::Mask(m) => cellset::contains(c.board.mask(*m), cell),
            Term::TopKind(k) => match value(k, c, locals) {
                k if k >= 0 => !empty && i64::from(seen.top >> 8) == k,
                _ => empty,
            },
            Term::OwnedBy(p) => {
                let slot = |owner: u8| c.state.owner_slot(owner);
                match value(p, c, locals) {
                    p if p >= 0 => !empty && slot(seen.top as u8) == slot(p as u8),
                    _ => empty || slot(seen.top as u8) == slot(NEUTRAL),
                }
            }
            Term::HeightNear(h, radius) => {
                height_within(seen.height as i64, value(h, c, locals), *radius)
            }
            Term::Single(x) => value(x, c, locals) == cell as i64,
            Term::When(cond) => value(cond, c, locals) != 0,
            Term::Fixed(set) => with_cells(set, c, locals, |s, _| cellset::contains(s, cell)),
            Term::Or(a, b) => a.holds(cell, seen, c, locals) || b.holds(cell, seen, c, locals),
            Term::And(a) => a.holds(cell, seen, c, locals),
        }
    }
}
