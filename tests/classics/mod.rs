//! Classic games (`games/tictactoe.toml`, `connect4`, `breakthrough`, `clobber`, `hex`,
//! `amazons`): each against its published perft counts, on random games that must end by
//! the rules, and on hand-made positions that pin one rule each. Deeper perft counts are
//! `#[ignore]`d tests, each naming the release command that runs it.

mod amazons;
mod breakthrough;
mod clobber;
mod connect4;
mod hex;
mod tictactoe;

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rulebook::cli::perft_exact;
use rulebook::engine::game::Game;
use rulebook::engine::state::State;

use crate::common::seat;

/// The winners of a finished game, by name (empty for a draw); panics if it goes on.
fn winners(g: &Game, s: &State) -> Vec<String> {
    let outcome = s.outcome.as_ref().expect("the game is over");
    assert_eq!(outcome.reason, None, "ended by the rules, not a cap");
    outcome
        .winners
        .iter()
        .map(|&w| g.players[w as usize].clone())
        .collect()
}

/// Checks `perft --exact` from the start against `counts` (depth 1 first).
fn perft_from_start(g: &Game, counts: &[u64]) {
    for (depth, &count) in (1..).zip(counts) {
        assert_eq!(
            perft_exact(g, &g.start(), depth),
            count,
            "{}: perft --exact {depth}",
            g.name
        );
    }
}

/// Plays `games` seeded random games to the end, with no ply cap: each must end by the
/// rules with an outcome, within `most` plies. Returns how many were draws.
fn random_games_end(g: &Game, games: u64, most: u32) -> usize {
    // Every game has a ply cap (10,000 by default): these end far before it, by the rules.
    assert!(
        g.max_plies.is_none_or(|cap| cap > most),
        "{}: a cap that could end a game before its rules",
        g.name
    );
    let mut draws = 0;
    for seed in 0..games {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut s = g.start();
        let plies = g.playout(&mut s, &mut rng, most + 1);
        assert!(
            plies <= most,
            "{}: seed {seed} ran past {most} plies",
            g.name
        );
        assert!(
            s.outcome.is_some(),
            "{}: seed {seed} stopped unfinished",
            g.name
        );
        draws += winners(g, &s).is_empty() as usize;
    }
    draws
}
