//! The hand-written vlkno of `tests/fast/vlkno.rs` agrees with the interpreter.

use crate::common::{game, play};
use crate::fast::vlkno::{self, Vlkno};
use rand::RngExt;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// 100 seeded random games of VLKNO played by the hand-written engine and the interpreter
/// side by side: the same plies (by their texts) at every position, the same winners at
/// the end. Returns how many games were drawn at the ply cap.
fn vlkno_by_hand_against_the_interpreter(put_back: bool) -> u32 {
    let g = game("vlkno", &[("put_back", &put_back.to_string())]);
    let mut capped = 0;
    for seed in 0..100u64 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut fast = Vlkno::start(put_back);
        let mut s = g.start();
        loop {
            // The interpreter's plies with their texts, sorted by text (what `legal`
            // gives): compared, then searched for the ply to play, so that the
            // interpreter lists each position once (`play` would list it again).
            let listed = g.legal_with_notation(&s);
            let moves = fast.moves();
            let mut texts: Vec<String> = moves.iter().map(|&m| fast.notation(m)).collect();
            texts.sort();
            let theirs: Vec<&str> = listed.iter().map(|(t, _)| t.as_str()).collect();
            assert_eq!(
                texts,
                theirs,
                "put_back {put_back}, seed {seed}, ply {}",
                fast.plies()
            );
            let Some(result) = fast.result() else {
                let m = moves[rng.random_range(0..moves.len())];
                let i = theirs
                    .binary_search(&fast.notation(m).as_str())
                    .expect("listed");
                g.play(&mut s, &listed[i].1);
                fast.play(m);
                continue;
            };
            let winners = s.outcome.as_ref().expect("over").winners.clone();
            assert_eq!(
                winners,
                result.into_iter().collect::<Vec<u8>>(),
                "put_back {put_back}, seed {seed}"
            );
            if result.is_none() {
                // No draw but the game file's ply cap.
                assert_eq!(fast.plies(), vlkno::MAX_PLIES, "seed {seed}");
                capped += 1;
            }
            break;
        }
    }
    capped
}

#[test]
fn vlkno_by_hand_agrees_with_the_interpreter_on_random_games() {
    // The default reading ends every random game.
    assert_eq!(vlkno_by_hand_against_the_interpreter(false), 0);
}

#[test]
fn vlkno_by_hand_agrees_with_the_interpreter_on_random_games_with_put_back() {
    // A stone may go back where it came from: some games run into the ply cap.
    assert!(vlkno_by_hand_against_the_interpreter(true) > 0);
}

#[test]
fn vlkno_by_hand_has_the_interpreters_perft_counts() {
    for put_back in [false, true] {
        let g = game("vlkno", &[("put_back", &put_back.to_string())]);
        let start = Vlkno::start(put_back);
        assert_eq!(start.perft(1), rulebook::cli::perft(&g, &g.start(), 1));
        // vlkno.md, "Facts": 6 steps x 20 takes x 19 places, and 4,223,016 plies two deep,
        // the interpreter's count too (`traces_vlkno_sight`: 4 s of a debug build).
        assert_eq!(start.perft(1), 2280);
        assert_eq!(start.perft(2), 4_223_016);
        // Every fourth position of seeded random games once lava has spread (fewer than 400
        // plies), where tall stacks and blocked pawns occur: two plies deep, three once few
        // plies are left.
        let mut compared = [0; 2];
        for seed in 0..4u64 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut fast = start;
            let mut s = g.start();
            while fast.result().is_none() {
                let n = fast.perft(1);
                if fast.plies() % 4 == 3 && n < 400 {
                    let depth = if n < 60 { 3 } else { 2 };
                    assert_eq!(
                        fast.perft(depth),
                        rulebook::cli::perft(&g, &s, depth),
                        "put_back {put_back}, seed {seed}, ply {}, depth {depth}",
                        fast.plies()
                    );
                    compared[depth as usize - 2] += 1;
                }
                let moves = fast.moves();
                let m = moves[rng.random_range(0..moves.len())];
                play(&g, &mut s, &fast.notation(m));
                fast.play(m);
            }
        }
        assert!(compared[0] > 0 && compared[1] > 0, "compared {compared:?}");
    }
}

#[test]
fn vlkno_by_hand_random_playouts_draw_among_every_legal_ply() {
    // A playout draws an index below the count of legal plies at every ply: replaying its
    // draws from the same seed through the listing gives the same game and result.
    for seed in 0..50u64 {
        let put_back = seed % 2 == 1;
        let mut fast = Vlkno::start(put_back);
        let result = fast.random_playout(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut listed = Vlkno::start(put_back);
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
