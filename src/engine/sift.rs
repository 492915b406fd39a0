//! The rules that compare a position's plies with each other, applied to the plies the
//! walk found: `[turns] most` (only the plies that make a number greatest are legal: a
//! majority capture) and an action's `merge_routes` (plies of the action that leave the
//! same position are one move, the first found kept: two routes of one capture).
//!
//! Each ply is played through a journal on the position the walk used and taken back,
//! once: what it leaves is read there (the number, and for a merging action the whole
//! position: every stack with its pieces' stamps, and every variable). Nothing is
//! hashed, so two plies are one move only when the positions they leave are equal.
//! A game without either rule never comes here; a caller that only asks whether a ply
//! exists does not either (sifting keeps at least one ply of a non-empty list).

use super::game::{Game, Ply};
use super::piece::Piece;
use super::program::frame;
use super::state::{Journal, State};

/// The position a ply leaves, as a merging action compares them.
#[derive(PartialEq, Eq)]
struct Left {
    /// Every cell's height, then every piece in cell order.
    heights: Vec<u32>,
    pieces: Vec<Piece>,
    vars: Vec<i64>,
}

impl Game {
    /// Whether the legal plies are sifted ([`Game::sifted`], worked out at load).
    #[inline]
    pub(crate) fn sifts(&self) -> bool {
        self.sifted
    }

    /// Keeps the plies of `plies` (found in `scratch`, which ends as it was) that the
    /// rules keep, in their order: those that make `most` greatest and, with `merge`,
    /// of a merging action's plies that leave one position, the first.
    pub(crate) fn sift(&self, scratch: &mut State, plies: &mut Vec<Ply>, merge: bool) {
        if plies.len() < 2 {
            return;
        }
        let me = scratch.to_move;
        let mut journal = Journal::recording();
        let mut seen: Vec<(i64, Option<Left>)> = Vec::with_capacity(plies.len());
        for ply in plies.iter() {
            let action = &self.actions[ply.action as usize];
            let merging = merge && action.merge_routes;
            if self.most.is_none() && !merging {
                seen.push((0, None));
                continue;
            }
            let mark = journal.mark();
            let mut locals = frame(action.frame);
            self.replay_in(scratch, ply, &mut locals, None, &mut journal);
            let value = (self.most.as_ref()).map_or(0, |m| m.eval(&self.ctx(scratch, me), 0));
            let left = merging.then(|| self.left(scratch));
            journal.rollback(scratch, mark);
            seen.push((value, left));
        }
        let best = seen.iter().map(|s| s.0).max().unwrap_or(0);
        let mut kept: Vec<usize> = Vec::with_capacity(plies.len());
        for (i, (value, left)) in seen.iter().enumerate() {
            if *value != best {
                continue;
            }
            let again = left.as_ref().is_some_and(|left| {
                kept.iter().any(|&k| {
                    plies[k].action == plies[i].action && seen[k].1.as_ref() == Some(left)
                })
            });
            if !again {
                kept.push(i);
            }
        }
        if kept.len() == plies.len() {
            return;
        }
        let mut next = kept.iter().peekable();
        let mut i = 0;
        plies.retain(|_| {
            let keep = next.next_if(|&&k| k == i).is_some();
            i += 1;
            keep
        });
    }

    /// The position as a merging action compares it.
    fn left(&self, state: &State) -> Left {
        let cells = self.board.len();
        let mut heights = Vec::with_capacity(cells);
        let mut pieces = Vec::new();
        for cell in 0..cells {
            let stack = state.stack(cell as u16);
            heights.push(stack.len() as u32);
            pieces.extend_from_slice(stack);
        }
        Left {
            heights,
            pieces,
            vars: state.vars.clone(),
        }
    }

    /// Whether plies `a` and `b` of the position leave the same position (a typed route
    /// that `merge_routes` folded into the one listed).
    pub(crate) fn same_position(&self, state: &State, a: &Ply, b: &Ply) -> bool {
        let left = |ply: &Ply| {
            let mut s = state.clone();
            let mut locals = frame(self.actions[ply.action as usize].frame);
            self.replay(&mut s, ply, &mut locals, None);
            self.left(&s)
        };
        a.action == b.action && left(a) == left(b)
    }
}

impl Game {
    /// Every ply the actions find in `state`, before the rules that compare plies: what
    /// a refused ply is looked for in, to say which rule refused it.
    pub fn found_plies(&self, state: &State) -> Vec<Ply> {
        let mut plies = Vec::new();
        let mut scratch = state.clone();
        if scratch.outcome.is_none() {
            self.walk_found(&mut scratch, &mut plies, false);
        }
        plies
    }

    /// What `[turns] most` makes of `ply` in `state` (`None` without it).
    pub fn most_value(&self, state: &State, ply: &Ply) -> Option<i64> {
        let most = self.most.as_ref()?;
        let mut after = state.clone();
        let mut locals = frame(self.actions[ply.action as usize].frame);
        self.replay(&mut after, ply, &mut locals, None);
        Some(most.eval(&self.ctx(&after, state.to_move), 0))
    }
}
