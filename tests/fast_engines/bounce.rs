//! The hand-written bounce of `tests/fast/bounce.rs` agrees with the interpreter.

use crate::common::{game, play};
use crate::fast::bounce::{Bits, Bounce, Wide};
use rand::RngExt;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// Bounce by hand on a `size` x `size` board held in `B` words against the interpreter,
/// over `games` seeded random games. The interpreter lists each position's plies once:
/// their texts are compared, and the drawn ply is found among them to play it.
fn bounce_agrees<B: Bits>(size: u32, games: u64) {
    let g = game("bounce", &[("size", &size.to_string())]);
    for seed in 0..games {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut fast = Bounce::<B>::start(size);
        let mut s = g.start();
        loop {
            let interpreter = g.legal_with_notation(&s);
            let moves = fast.moves();
            let mut texts: Vec<String> = moves.iter().map(|&m| fast.notation(m)).collect();
            texts.sort();
            assert!(
                texts.iter().eq(interpreter.iter().map(|(t, _)| t)),
                "size {size}, seed {seed}, ply {}: {texts:?}",
                fast.plies()
            );
            let Some(winner) = fast.result() else {
                let m = moves[rng.random_range(0..moves.len())];
                let text = fast.notation(m);
                let (_, ply) = interpreter.iter().find(|(t, _)| *t == text).expect("legal");
                g.play(&mut s, ply);
                fast.play(m);
                continue;
            };
            let winners = s.outcome.as_ref().expect("over").winners.clone();
            assert_eq!(winners, vec![winner], "size {size}, seed {seed}");
            break;
        }
    }
}

#[test]
fn bounce_by_hand_agrees_with_the_interpreter_on_random_games() {
    bounce_agrees::<u64>(4, 100);
    bounce_agrees::<u64>(6, 100);
    bounce_agrees::<u64>(8, 100);
    bounce_agrees::<u128>(10, 100);
    // Three words: the boards beyond 128 cells.
    bounce_agrees::<Wide<3>>(12, 10);
}

/// Bounce by hand and the interpreter count the same leaves `depth` plies deep from the
/// start of a `size` x `size` game and after `plies` plies of each of `games` seeded
/// random games (fewer if a game ends first).
fn bounce_perft_agrees<B: Bits>(size: u32, depth: u32, games: u64, plies: u32) {
    let g = game("bounce", &[("size", &size.to_string())]);
    let fast = Bounce::<B>::start(size);
    let start = g.start();
    assert_eq!(
        fast.perft(depth),
        rulebook::cli::perft(&g, &start, depth),
        "size {size}"
    );
    for seed in 0..games {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let (mut fast, mut s) = (fast, start.clone());
        while fast.result().is_none() && fast.plies() < plies {
            let moves = fast.moves();
            let m = moves[rng.random_range(0..moves.len())];
            play(&g, &mut s, &fast.notation(m));
            fast.play(m);
        }
        assert_eq!(
            fast.perft(depth),
            rulebook::cli::perft(&g, &s, depth),
            "size {size}, seed {seed}, ply {}",
            fast.plies()
        );
    }
}

#[test]
fn bounce_by_hand_has_the_interpreters_perft_counts() {
    // Rules fact: on 8x8 red starts with 60 moves, any checker to a1 or h8. Deeper counts
    // are the interpreter's (`rulebook perft games/bounce.toml --depth 3`), too slow to
    // recount in a debug build.
    let start = Bounce::<u64>::start(8);
    assert_eq!(start.perft(1), 60);
    assert_eq!(start.perft(3), 312_492);
    bounce_perft_agrees::<u64>(4, 4, 10, 6);
    bounce_perft_agrees::<u64>(6, 3, 6, 16);
    bounce_perft_agrees::<u64>(8, 2, 6, 30);
    bounce_perft_agrees::<u128>(10, 2, 3, 50);
    bounce_perft_agrees::<Wide<3>>(12, 2, 2, 60);
    // The largest board of the game file, in eleven words.
    bounce_perft_agrees::<Wide<11>>(26, 1, 2, 40);
}

#[test]
fn bounce_by_hand_random_playouts_draw_among_every_legal_ply() {
    // As for STAQS: replaying a playout's draws from the same seed through the listing
    // gives the same game and winner, at every size and board word.
    fn same_games<B: Bits>(size: u32) {
        for seed in 0..200u64 {
            let mut fast = Bounce::<B>::start(size);
            let winner = fast.random_playout(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut listed = Bounce::<B>::start(size);
            while listed.result().is_none() {
                let moves = listed.moves();
                listed.play(moves[rng.random_range(0..moves.len() as u32) as usize]);
            }
            // The same final position (checkers, plies, winner), and its winner returned.
            assert_eq!(
                format!("{listed:?}"),
                format!("{fast:?}"),
                "size {size}, seed {seed}"
            );
            assert_eq!(listed.result(), Some(winner), "size {size}, seed {seed}");
        }
    }
    same_games::<u64>(4);
    same_games::<u64>(6);
    same_games::<u64>(8);
    same_games::<u128>(10);
    same_games::<Wide<3>>(12);
}
