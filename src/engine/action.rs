//! An action as the engine runs it: its parts as written ([`Part`], the program), what
//! random draws know of its shape, and each part compiled ([`PartCode`]: the chain of its
//! choices, its effect, its check and the check decided before the effect) with the
//! strategies chosen for it at load (precheck, overlay, kept head). Everything that
//! tries a part (the walk, the draws) goes through [`PartCode::play_and_check`]; a ply
//! known to be legal is replayed by its effects alone (`engine::flow`).

use std::sync::Arc;

use super::chain::{Chain, Env};
use super::check_before::CheckBefore;
use super::effect::Effect;
use super::eval::eval;
use super::kept::KeptHead;
use super::lowering::Lowering;
use super::natives::Mut;
use super::overlay::Overlay;
use super::precheck::Precheck;
use super::program::{Choice, Node, Part, SetBound, SetExpr};
use super::shape::{HeadShape, TailShape};
use super::state::Journal;
use crate::spec::diag::Diagnostic;

/// An action a player may take: one or more parts played as a single ply.
#[derive(Clone, Debug)]
pub struct Action {
    pub name: String,
    pub phase: Option<usize>,
    pub fallback: bool,
    /// Whether plies of this action that leave the same position are one move (the
    /// file's `merge_routes`): the walk keeps the first of them.
    pub merge_routes: bool,
    pub parts: Vec<Part>,
    /// How many local slots evaluating this action needs.
    pub frame: usize,
    /// What random draws know of the action's shape before any position, worked out
    /// once the optimiser has settled its choices (see [`HeadShape::of`]).
    pub shape: HeadShape,
    /// How random draws may try the second part before the first is played, where the
    /// first part's effect cannot change what the second reads (see `engine::precheck`).
    pub precheck: Option<Precheck>,
    /// How random draws may list the second part without playing the first, where the
    /// first moves a piece between two named cells and the second reads each cell's own
    /// stack (see `engine::overlay`).
    pub overlay: Option<Overlay>,
    /// The head as kept sets, where it is a pair head of a piece from a set the position
    /// keeps that steps onto a cell of another (see `engine::kept`): what random draws
    /// list it from, without working an expression out.
    pub kept_head: Option<KeptHead>,
    /// The first part's choices but the settled ones ([`HeadShape::settled`]), compiled
    /// to a chain: what random draws list the head with, once those are worked out.
    pub head: Arc<Chain>,
    /// The parts compiled, one for each of `parts`, made as the game is compiled (the
    /// checks decided before the move first, the chains and effects last): what plays
    /// them.
    pub compiled: Vec<PartCode>,
    /// The error, located in the game file, that the commands report if the action's
    /// walk in a position runs past [`MOST_STEPS`](super::program::MOST_STEPS).
    pub runaway: Arc<Diagnostic>,
}

impl Action {
    /// The part after a head of `depth` parts, when the listing gives it slots for each
    /// combination ([`HeadShape::tails`]): the index of its `in` choice, and its bound.
    pub fn tail(&self, depth: usize) -> Option<(TailShape, &SetBound)> {
        let shape = (*self.shape.tails.get(depth.checked_sub(1)?)?)?;
        match &self.parts[depth].choices[shape.choice as usize] {
            Choice::In { bound, .. } if bound.fixed.is_some() && bound.gained_last.is_some() => {
                Some((shape, bound))
            }
            _ => None,
        }
    }

    /// Part `p` as written and as compiled.
    #[inline(always)]
    pub fn part(&self, p: usize) -> (&Part, &PartCode) {
        (&self.parts[p], &self.compiled[p])
    }

    /// The conditions that bound the part after a head of `depth` parts, when the listing
    /// gives it slots for each combination (see [`Action::tail`]).
    pub fn tail_bound(&self, depth: usize) -> Option<&SetExpr> {
        self.tail(depth)?.1.fixed.as_ref()
    }

    /// Compiles the choices of every part to chains (and the head's) and the effects
    /// (by `lower`: to closures, or by the test suite's reference walk), beside
    /// the checks decided before the effects already in [`Action::compiled`]: the last
    /// step of compiling a game, after every pass that rewrites an expression.
    pub fn compile_chains(&mut self, closures: bool, lower: &dyn Lowering) {
        // Only a head's first part is played to list the next (a head has at most two
        // parts), so only the first part's chains may gather.
        let gather = self.parts.first().is_some_and(Part::moves_onto_last);
        self.compiled
            .resize_with(self.parts.len(), PartCode::default);
        for (i, (part, code)) in self.parts.iter_mut().zip(&mut self.compiled).enumerate() {
            code.chain = Arc::new(Chain::new(&part.choices, 0, closures, gather && i == 0));
            code.play = Arc::new(lower.effect(&part.effect));
            code.check = part.check.clone();
            part.ins = part
                .choices
                .iter()
                .filter_map(|choice| match choice {
                    Choice::In { slot, .. } => Some(*slot),
                    _ => None,
                })
                .collect();
        }
        if let Some(first) = self.parts.first() {
            self.head = Arc::new(Chain::new(
                &first.choices,
                self.shape.settled,
                closures,
                gather,
            ));
        }
    }
}

/// One part compiled: what plays it.
#[derive(Clone, Debug)]
pub struct PartCode {
    /// The choices compiled to a chain (see `engine::chain`), made last, once every pass
    /// that rewrites them has run ([`Action::compile_chains`]).
    pub chain: Arc<Chain>,
    /// The effect compiled (see `engine::effect`), made with the chain.
    pub play: Arc<Effect>,
    /// The check after the effect, as compiled (the part's own, once every pass ran).
    pub check: Option<Node>,
    /// How the check is decided before the effect is played, where it can be (see
    /// `engine::check_before`).
    pub before: Option<CheckBefore>,
}

impl Default for PartCode {
    /// A part that chooses nothing, plays nothing and checks nothing.
    fn default() -> PartCode {
        PartCode {
            chain: Arc::new(Chain::new(&[], 0, false, false)),
            play: Arc::new(Effect::new(&[])),
            check: None,
            before: None,
        }
    }
}

impl PartCode {
    /// Plays the part's effect on the position (through `m`'s journal), then says
    /// whether its check holds there (true without a check). A check decided before the
    /// effect (`engine::check_before`) plays nothing when it fails: a caller takes a
    /// refused part back to its journal's mark, and reads nothing it left.
    pub fn play_and_check(&self, m: &mut Mut, locals: &mut [i64]) -> bool {
        if let Some(before) = &self.before {
            return self.decided_before(before, m, locals);
        }
        self.play.run(m, locals);
        self.check_holds(m, locals)
    }

    /// Whether the check holds in the position `m` holds.
    #[inline(always)]
    fn check_holds(&self, m: &Mut, locals: &mut [i64]) -> bool {
        let c = m.ctx();
        (self.check.as_ref()).is_none_or(|check| eval(check, &c, locals) != 0)
    }

    /// [`PartCode::play_and_check`] for a check decided before the effect (see
    /// `engine::check_before`): nothing is played when it fails, and it is not asked
    /// again when it holds (debug builds play the effect and ask it, and stop where the
    /// two answers differ). Apart, so that the other parts' code stays as it was.
    #[inline(never)]
    fn decided_before(&self, before: &CheckBefore, m: &mut Mut, locals: &mut [i64]) -> bool {
        let c = m.ctx();
        let decided = before.holds(&c, locals);
        if !cfg!(debug_assertions) {
            match decided {
                Some(false) => return false,
                Some(true) => {
                    self.play.run(m, locals);
                    return true;
                }
                None => {}
            }
        }
        self.play.run(m, locals);
        let holds = self.check_holds(m, locals);
        debug_assert!(
            decided.is_none_or(|d| d == holds),
            "the check decided before the move ({decided:?}) differs from the check after it"
        );
        holds
    }
}

impl Env<'_> {
    /// Plays a part's effect through `journal` and says whether its check holds (see
    /// [`PartCode::play_and_check`]: a refused part may have played nothing, and is
    /// taken back to a mark of the journal either way).
    pub fn play(&mut self, part: &PartCode, journal: &mut Journal) -> bool {
        let mut m = Mut {
            board: self.board,
            state: self.state,
            journal,
            me: self.me,
        };
        part.play_and_check(&mut m, self.locals)
    }
}
