//! The hand-written staqs of `tests/fast/staqs.rs` agrees with the interpreter.

use rand::RngExt;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use crate::common::{game, legal, play};
use crate::fast::staqs::Staqs;

#[test]
fn staqs_by_hand_agrees_with_the_interpreter_on_random_games() {
    for diagonal in [false, true] {
        let g = game("staqs", &[("diagonal_steps", &diagonal.to_string())]);
        for seed in 0..150u64 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut fast = Staqs::start(diagonal);
            let mut s = g.start();
            loop {
                let mut texts: Vec<String> =
                    fast.moves().iter().map(|&m| fast.notation(m)).collect();
                texts.sort();
                assert_eq!(texts, legal(&g, &s), "seed {seed}, ply {}", fast.plies());
                let Some(result) = fast.result() else {
                    let moves = fast.moves();
                    let m = moves[rng.random_range(0..moves.len())];
                    play(&g, &mut s, &fast.notation(m));
                    fast.play(m);
                    continue;
                };
                let winners = s.outcome.as_ref().expect("over").winners.clone();
                assert_eq!(
                    winners,
                    result.into_iter().collect::<Vec<u8>>(),
                    "seed {seed}"
                );
                break;
            }
        }
    }
}

#[test]
fn staqs_by_hand_has_the_interpreters_perft_counts() {
    // 25 x 24 x 23 x 22 placements, as the rules fact says (25 then 24).
    assert_eq!(Staqs::start(false).perft(4), 303_600);
    for diagonal in [false, true] {
        let g = game("staqs", &[("diagonal_steps", &diagonal.to_string())]);
        let mut s = g.start();
        let mut fast = Staqs::start(diagonal);
        // Into the movement phase, where the variants differ.
        for text in ["a1", "c3", "e5", "b2", "a5", "e1", "d4", "b4"] {
            let m = fast
                .moves()
                .into_iter()
                .find(|&m| fast.notation(m) == text)
                .expect("legal");
            fast.play(m);
            play(&g, &mut s, text);
        }
        let interpreter = rulebook::cli::perft(&g, &s, 3);
        assert_eq!(fast.perft(3), interpreter, "diagonal {diagonal}");
    }
}

#[test]
fn staqs_by_hand_random_playouts_draw_among_every_legal_ply() {
    // A playout draws an index below the count of legal plies at every ply: replaying its
    // draws from the same seed through the listing gives the same game and result.
    for seed in 0..50u64 {
        let mut fast = Staqs::start(seed % 2 == 1);
        let result = fast.random_playout(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut listed = Staqs::start(seed % 2 == 1);
        while listed.result().is_none() {
            let moves = listed.moves();
            listed.play(moves[rng.random_range(0..moves.len() as u32) as usize]);
        }
        assert_eq!(
            (listed.result(), listed.plies()),
            (Some(result), fast.plies())
        );
        // The whole position, not only the result and length: the same game was played.
        assert_eq!(format!("{listed:?}"), format!("{fast:?}"), "seed {seed}");
    }
}
