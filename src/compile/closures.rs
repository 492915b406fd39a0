//! The pass that makes every expression, set and statement a game runs into code
//! (`engine::lowering`), in place: the last rewrite of the program, then the chains are
//! made. The product's code is closures (`engine::code`).
//!
//! Applies: to every game; the reference (`compile::compile_reference`) lowers with the
//! test suite's tree walk instead, and reads no head from the position's sets.
//! Guarantees: every expression gives what its tree gives, in every position.
//! Proved by: `compiled::compiled_expressions_play_every_game_as_the_tree_walker_does` and
//! `compiled::compiled_expressions_agree_on_long_games` (every game of the library, both
//! ways, compared ply by ply).

use crate::engine::code::Kit;
use crate::engine::game::Game;
use crate::engine::lowering::Lowering;
use crate::engine::program::{Choice, EndResult, Node};
use crate::lang::ast::AggOp;

/// Compiles every expression the game evaluates to closures, in place, then the chains.
/// Called once, after the optimiser, by `compile::compile`.
pub fn compile_game(game: &mut Game) {
    let board = game.board.clone();
    let layout = game.initial.clone();
    let k = Kit::new(&board, &layout, game.kinds.len());
    for action in &mut game.actions {
        action.kept_head = (action.shape.pair)
            .zip(action.parts.first())
            .and_then(|(shape, part)| k.kept_head(shape, part));
    }
    lower_game(game, &k);
    for action in &mut game.actions {
        action.compile_chains(true, &k);
    }
}

/// Makes every expression, set and statement the game runs into code by `k`, in place
/// (the statements when the chains are made, by [`Action::compile_chains`]).
///
/// [`Action::compile_chains`]: crate::engine::action::Action::compile_chains
pub fn lower_game(game: &mut Game, k: &dyn Lowering) {
    // A recursive function's body, once, for every call of it (each call reaches it
    // through its function: see `engine::program::Callee`).
    for f in &mut game.recursive {
        k.wrap(&mut f.body);
        let _ = f.callee.code.set((f.body.clone(), f.frame));
    }
    for action in &mut game.actions {
        if let Some(overlay) = &mut action.overlay {
            overlay.sets_mut().for_each(|set| k.wrap_set(set));
            overlay.nodes_mut().for_each(|node| k.wrap(node));
        }
        for before in action
            .compiled
            .iter_mut()
            .filter_map(|code| code.before.as_mut())
        {
            before.nodes_mut().for_each(|node| k.wrap(node));
        }
        for part in &mut action.parts {
            for choice in &mut part.choices {
                match choice {
                    Choice::In {
                        domain,
                        filter,
                        bound,
                        ..
                    } => {
                        k.domain(domain);
                        if let Some(f) = filter {
                            k.wrap(f);
                        }
                        for set in [&mut bound.fixed, &mut bound.within].into_iter().flatten() {
                            k.wrap_set(set);
                        }
                    }
                    Choice::Let(_, node) | Choice::Where(node) => k.wrap(node),
                }
            }
            k.ops(&mut part.effect);
            if let Some(check) = &mut part.check {
                k.wrap(check);
            }
            for case in part.cases_mut() {
                for node in case.nodes_mut() {
                    k.wrap(node);
                }
            }
        }
    }
    for end in game.ends.iter_mut().chain(&mut game.stuck_rules) {
        k.wrap(&mut end.when);
        if let EndResult::Winner(n) | EndResult::Loser(n) = &mut end.result {
            k.wrap(n);
        }
    }
    for phase in &mut game.phases {
        k.wrap(&mut phase.when.node);
    }
    k.wrap(&mut game.plies_per_turn.node);
    for standalone in [&mut game.eval, &mut game.shown_height, &mut game.most]
        .into_iter()
        .flatten()
    {
        k.wrap(&mut standalone.node);
    }
    if let Some(score) = &mut game.score {
        // A sorted list is read by `eval_list` through its shape: its parts are compiled,
        // not the list itself.
        match &mut score.node {
            node @ Node::Agg(_) if is_sorted(node) => k.wrap_inside(node),
            node => k.wrap(node),
        }
    }
}

/// Whether an expression is a sorted list (which only `eval_list` reads).
fn is_sorted(node: &Node) -> bool {
    matches!(node, Node::Agg(agg) if matches!(agg.op, AggOp::SortDesc | AggOp::SortAsc))
}
