//! The hand-written sight of `tests/fast/sight.rs` agrees with the interpreter.

use crate::common::{game, legal, play};
use crate::fast::sight::Sight;
use rand::RngExt;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

#[test]
fn sight_by_hand_agrees_with_the_interpreter_on_random_games() {
    for strict in [false, true] {
        let g = game("sight", &[("strict_priority", &strict.to_string())]);
        for seed in 0..150u64 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut fast = Sight::start(strict);
            let mut s = g.start();
            loop {
                let mut texts: Vec<String> =
                    fast.moves().iter().map(|&m| fast.notation(m)).collect();
                texts.sort();
                assert_eq!(texts, legal(&g, &s), "seed {seed}, ply {}", fast.plies());
                let Some(winner) = fast.result() else {
                    let moves = fast.moves();
                    let m = moves[rng.random_range(0..moves.len())];
                    play(&g, &mut s, &fast.notation(m));
                    fast.play(m);
                    continue;
                };
                let winners = &s.outcome.as_ref().expect("over").winners;
                assert_eq!(winners, &[winner], "seed {seed}");
                break;
            }
        }
    }
}

#[test]
fn sight_by_hand_has_the_interpreters_perft_counts() {
    let g = game("sight", &[]);
    assert_eq!(
        Sight::start(false).perft(4),
        rulebook::cli::perft(&g, &g.start(), 4)
    );
    // Positions reached in random play whose trees, 4 plies deep, hold positions where the
    // variants differ: a player's highest stacks all blocked while a lower one can move
    // (rule 8).
    for line in [
        "a5 c4 c1 b4 d1 c4-d4 c1-d2 e2 d1-e1 c5 d2-e3 b4-a4",
        "e4 c3 e3 b2 e4-d4 c3-b4 e3-e2 b2-a3 d2 b4-b5",
        "a2 e4 c1 c4 b4 e4-e3 d3 b1 b2 c5 c1-c2 e3-d4",
        "b5 e4 c5 d3 b5-b4 e3 c5-c4 d3-d2 b4-a4 e3-d4 a3 e4-e5 b4-b3 d4-c3",
    ] {
        let mut counts = Vec::new();
        for strict in [false, true] {
            let g = game("sight", &[("strict_priority", &strict.to_string())]);
            let mut s = g.start();
            let mut fast = Sight::start(strict);
            for text in line.split(' ') {
                let m = fast
                    .moves()
                    .into_iter()
                    .find(|&m| fast.notation(m) == text)
                    .expect("legal");
                fast.play(m);
                play(&g, &mut s, text);
            }
            let interpreter = rulebook::cli::perft(&g, &s, 4);
            assert_eq!(fast.perft(4), interpreter, "strict {strict}, after {line}");
            counts.push(interpreter);
        }
        assert_ne!(
            counts[0], counts[1],
            "after {line}: the switch changes the tree"
        );
    }
}

#[test]
fn sight_by_hand_random_playouts_draw_among_every_legal_ply() {
    // A playout draws an index below the count of legal plies at every ply: replaying its
    // draws from the same seed through the listing gives the same game and result.
    for seed in 0..200u64 {
        let strict = seed % 2 == 1;
        let mut fast = Sight::start(strict);
        let winner = fast.random_playout(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut listed = Sight::start(strict);
        while listed.result().is_none() {
            let moves = listed.moves();
            listed.play(moves[rng.random_range(0..moves.len() as u32) as usize]);
        }
        assert_eq!(
            (listed, listed.result()),
            (fast, Some(winner)),
            "seed {seed}"
        );
    }
}
