//! The pass that compiles every expression a game evaluates to closures
//! (`engine::code`), in place: the last rewrite of the program before the chains are
//! made.
//!
//! Applies: to every game compiled with closures (the default); the tree-walking
//! reference (`compile::compile_tree_walking`) skips it.
//! Guarantees: every expression gives what its tree gives, in every position.
//! Proved by: `compiled::compiled_expressions_play_every_game_as_the_tree_walker_does` and
//! `compiled::compiled_expressions_agree_on_long_games` (every game of the library, both
//! ways, compared ply by ply).

use crate::engine::code::Kit;
use crate::engine::game::Game;
use crate::engine::program::{Choice, EndResult, Node};

/// Compiles every expression the game evaluates, in place. Called once, after the
/// optimiser, by `compile::compile`.
pub fn compile_game(game: &mut Game) {
    let board = game.board.clone();
    let layout = game.initial.clone();
    let k = Kit::new(&board, &layout, game.kinds.len());
    for action in &mut game.actions {
        action.kept_head = (action.shape.pair)
            .zip(action.parts.first())
            .and_then(|(shape, part)| k.kept_head(shape, part));
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
                if let Some(when) = &mut case.when {
                    k.wrap(when);
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
    for standalone in [&mut game.eval, &mut game.shown_height]
        .into_iter()
        .flatten()
    {
        k.wrap(&mut standalone.node);
    }
    if let Some(score) = &mut game.score {
        // A sorted list is read by `eval_list` through its shape: its parts are compiled,
        // not the list itself.
        match &mut score.node {
            Node::Agg(agg) => **agg = k.aggregate(agg),
            node => k.wrap(node),
        }
    }
}
