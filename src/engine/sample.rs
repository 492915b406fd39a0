//! Random plies without listing every legal ply: what random playouts need.
//!
//! A playout wants one ply drawn uniformly from the legal ones, and listing them all costs
//! as much as trying every candidate. When each choice of an action ranges over a
//! collection that does not depend on the choices before it, the candidates of the action
//! are the product of those collections: draw a product element uniformly, try it (the
//! `where` choices, the effect and the check) and keep it if it is legal. Every legal ply
//! is one element, so an accepted draw is uniform over the legal plies. After a bounded
//! number of rejected draws the generator lists every legal ply and draws from the list,
//! which is uniform too (and finds the fallback actions when nothing else is legal), so
//! the result is exactly uniform either way; only the cost depends on luck.

use rand::{Rng, RngExt};
use smallvec::SmallVec;

use super::eval::{domain, eval, exec};
use super::game::{Game, Ply};
use super::natives::{Ctx, Elems, Mut};
use super::program::{Action, Choice};
use super::state::{Journal, State};

/// An action whose candidates form a product, with the filtered collections of its
/// `in` choices (in choice order) and the number of candidates.
struct Product<'g> {
    index: u16,
    action: &'g Action,
    collections: SmallVec<[Elems; 3]>,
    size: u64,
}

impl Game {
    /// A legal ply drawn uniformly at random, or `None` when there is none (or the game is
    /// over). Draws candidates before listing every ply, so it is much faster than
    /// [`Game::legal_plies`] where most candidates are legal. Candidates are tried on
    /// `state` itself and taken back: it ends as it was, and nothing is copied.
    pub fn random_ply<R: Rng + ?Sized>(&self, state: &mut State, rng: &mut R) -> Option<Ply> {
        if state.outcome.is_some() {
            return None;
        }
        if let Some(products) = self.products(state) {
            let total: u64 = products.iter().map(|p| p.size).sum();
            if total > 0 {
                // A quarter of the candidates: a draw costs about what one candidate of
                // the full listing costs, so even when every draw fails the listing that
                // follows costs at most a quarter more than listing straight away.
                for _ in 0..(total / 4).clamp(4, 4096) {
                    let mut pick = rng.random_range(0..total);
                    let Some(product) = products.iter().find(|p| {
                        let here = pick < p.size;
                        if !here {
                            pick -= p.size;
                        }
                        here
                    }) else {
                        break;
                    };
                    if let Some(ply) = self.try_candidate(state, product, pick) {
                        return Some(ply);
                    }
                }
            }
        }
        let mut legal = Vec::new();
        self.generate(state, &mut |p| {
            legal.push(p);
            true
        });
        if legal.is_empty() {
            return None;
        }
        let i = rng.random_range(0..legal.len() as u64) as usize;
        Some(legal.swap_remove(i))
    }

    /// The actions that may be played now, as products; `None` if one of them is not a
    /// product (several parts, an optional part, or a collection that depends on an
    /// earlier choice), in which case only the full listing is exact.
    fn products(&self, state: &State) -> Option<SmallVec<[Product<'_>; 4]>> {
        let phase = self.current_phase(state);
        let c = Ctx {
            game: self,
            state,
            me: state.to_move,
        };
        let mut products = SmallVec::new();
        for (index, action) in self.actions.iter().enumerate() {
            if action.fallback || (action.phase.is_some() && action.phase != phase) {
                continue;
            }
            let [part] = action.parts.as_slice() else {
                return None;
            };
            if part.optional {
                return None;
            }
            let mut locals = vec![0; action.frame];
            let mut collections = SmallVec::new();
            let mut size = 1u64;
            for choice in &part.choices {
                match choice {
                    Choice::In {
                        slot,
                        domain: d,
                        filter,
                        invariant: true,
                    } => {
                        let mut elems = Elems::new();
                        domain(d, &c, &mut locals, &mut elems);
                        if let Some(f) = filter {
                            elems.retain(|e| {
                                locals[*slot as usize] = *e;
                                eval(f, &c, &mut locals) != 0
                            });
                        }
                        size = size.saturating_mul(elems.len() as u64);
                        collections.push(elems);
                    }
                    Choice::In { .. } => return None,
                    Choice::Let(..) | Choice::Where(_) => {}
                }
            }
            products.push(Product {
                index: index as u16,
                action,
                collections,
                size,
            });
        }
        Some(products)
    }

    /// Tries candidate number `pick` of a product on `scratch` (left as it was): the ply
    /// if the candidate is legal.
    fn try_candidate(&self, scratch: &mut State, product: &Product, mut pick: u64) -> Option<Ply> {
        let action = product.action;
        let part = &action.parts[0];
        let me = scratch.to_move;
        let mut locals = vec![0; action.frame];
        let mut values = SmallVec::new();
        let mut collections = product.collections.iter();
        for choice in &part.choices {
            let c = Ctx {
                game: self,
                state: scratch,
                me,
            };
            match choice {
                Choice::In { slot, .. } => {
                    let elems = collections.next()?;
                    let n = elems.len() as u64;
                    let value = elems[(pick % n) as usize];
                    pick /= n;
                    locals[*slot as usize] = value;
                    values.push(value);
                }
                Choice::Let(slot, node) => locals[*slot as usize] = eval(node, &c, &mut locals),
                Choice::Where(node) => {
                    if eval(node, &c, &mut locals) == 0 {
                        return None;
                    }
                }
            }
        }
        let mut journal = Journal::recording();
        let mut m = Mut {
            game: self,
            state: scratch,
            journal: &mut journal,
            me,
        };
        exec(&part.effect, &mut m, &mut locals);
        let legal = part.check.as_ref().is_none_or(|check| {
            let c = Ctx {
                game: self,
                state: scratch,
                me,
            };
            eval(check, &c, &mut locals) != 0
        });
        journal.rollback(scratch, 0);
        legal.then_some(Ply {
            action: product.index,
            values,
            skipped: 0,
        })
    }
}
