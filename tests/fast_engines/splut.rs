//! The hand-written splut of `tests/fast/splut.rs` agrees with the interpreter.

use crate::common::play;
use crate::fast::splut::{Move as SplutMove, Splut};
use crate::traces_splut::splut;
use rand::RngExt;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// Plays the seeded games `seeds` of Splut! with both, the hand-written engine choosing
/// each ply with `choose` (an index into its listing), and compares the sorted ply texts at
/// every position and the winners at the end; returns the hand-written final positions.
/// The interpreter's texts are listed once a position ([`legal`] and [`play`] would list
/// them twice), so that the debug suite stays quick.
fn splut_agrees(
    players: u8,
    lev_into_vacated: bool,
    seeds: impl IntoIterator<Item = u64>,
    choose: impl Fn(&Splut, &[SplutMove], &mut Xoshiro256PlusPlus) -> usize,
) -> Vec<Splut> {
    let g = splut(usize::from(players), lev_into_vacated);
    let mut ends = Vec::new();
    for seed in seeds {
        let setting =
            format!("{players} players, lev_into_vacated {lev_into_vacated}, seed {seed}");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut fast = Splut::start(players, lev_into_vacated);
        let mut s = g.start();
        loop {
            let moves = fast.moves();
            let mut texts: Vec<String> = moves.iter().map(|&m| fast.notation(m)).collect();
            texts.sort();
            let interpreter = g.legal_with_notation(&s);
            assert!(
                texts.iter().eq(interpreter.iter().map(|(t, _)| t)),
                "{setting}, ply {}: {texts:?} by hand, {:?} by the interpreter",
                fast.plies(),
                interpreter.iter().map(|(t, _)| t).collect::<Vec<_>>()
            );
            let Some(result) = fast.result() else {
                let m = moves[choose(&fast, &moves, &mut rng)];
                let text = fast.notation(m);
                let i = interpreter
                    .binary_search_by(|(t, _)| t.cmp(&text))
                    .expect("listed");
                g.play(&mut s, &interpreter[i].1);
                fast.play(m);
                continue;
            };
            let winners = s.outcome.as_ref().expect("over").winners.clone();
            assert_eq!(
                winners,
                result.into_iter().collect::<Vec<u8>>(),
                "{setting}"
            );
            ends.push(fast);
            break;
        }
    }
    ends
}

/// A uniformly random ply, as a playout draws them.
fn uniform(_: &Splut, moves: &[SplutMove], rng: &mut Xoshiro256PlusPlus) -> usize {
    rng.random_range(0..moves.len())
}

/// 100 random games of each setting, and a few more (found by searching seeds) in which a
/// seat passes a turn silently or a turn is cut short because the mover has no step left:
/// random games seldom come to either.
#[test]
fn splut_by_hand_agrees_with_the_interpreter_on_random_2_player_games() {
    splut_agrees(2, true, (0..100).chain([4839, 8413, 14233]), uniform);
    splut_agrees(2, false, (0..100).chain([4011, 4368]), uniform);
}

#[test]
fn splut_by_hand_agrees_with_the_interpreter_on_random_3_player_games() {
    splut_agrees(3, true, (0..100).chain([4034, 4795, 7116]), uniform);
    splut_agrees(3, false, (0..100).chain([2554]), uniform);
}

#[test]
fn splut_by_hand_agrees_with_the_interpreter_on_random_4_player_games() {
    splut_agrees(4, true, (0..100).chain([596, 1641, 5630, 13570]), uniform);
    splut_agrees(4, false, (0..100).chain([3204, 7851]), uniform);
}

#[test]
fn splut_by_hand_draws_at_the_ply_cap_as_the_interpreter_does() {
    // Only a throw kills: games that throw only when nothing else is legal run into the
    // game file's cap of 3000 plies, a draw.
    let calm = |fast: &Splut, moves: &[SplutMove], rng: &mut Xoshiro256PlusPlus| {
        let calm: Vec<usize> = (0..moves.len())
            .filter(|&i| !fast.notation(moves[i]).contains("throw"))
            .collect();
        if calm.is_empty() {
            rng.random_range(0..moves.len())
        } else {
            calm[rng.random_range(0..calm.len())]
        }
    };
    for (players, lev_into_vacated) in [(2, true), (4, false)] {
        for end in splut_agrees(players, lev_into_vacated, [0], calm) {
            assert_eq!((end.result(), end.plies()), (Some(None), 3000));
        }
    }
}

#[test]
fn splut_by_hand_has_the_interpreters_perft_counts() {
    for players in 2..=4 {
        // The rules' fact: three plies at the start, whatever the number of players.
        assert_eq!(Splut::start(players, true).perft(1), 3);
        for lev_into_vacated in [true, false] {
            let setting = format!("{players} players, lev_into_vacated {lev_into_vacated}");
            let g = splut(usize::from(players), lev_into_vacated);
            let mut s = g.start();
            let mut fast = Splut::start(players, lev_into_vacated);
            // The first turns: 1 step, 2 steps, then 3.
            assert_eq!(fast.perft(6), rulebook::cli::perft(&g, &s, 6), "{setting}");
            // Positions reached in play, at different steps of a turn.
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(u64::from(players));
            for stop in [31, 62, 93] {
                while fast.plies() < stop && fast.result().is_none() {
                    let moves = fast.moves();
                    let m = moves[rng.random_range(0..moves.len())];
                    play(&g, &mut s, &fast.notation(m));
                    fast.play(m);
                }
                assert_eq!(
                    fast.perft(4),
                    rulebook::cli::perft(&g, &s, 4),
                    "{setting}, ply {stop}"
                );
            }
        }
    }
}

#[test]
fn splut_by_hand_random_playouts_draw_among_every_legal_ply() {
    // As for STAQS: the playout's draws, replayed from the same seed through the listing,
    // give the same game and result.
    for seed in 0..60u64 {
        let (players, lev_into_vacated) = (2 + (seed % 3) as u8, seed % 2 == 0);
        let mut fast = Splut::start(players, lev_into_vacated);
        let result = fast.random_playout(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut listed = Splut::start(players, lev_into_vacated);
        while listed.result().is_none() {
            let moves = listed.moves();
            listed.play(moves[rng.random_range(0..moves.len() as u32) as usize]);
        }
        assert_eq!(
            (listed.result(), listed.plies()),
            (Some(result), fast.plies()),
            "seed {seed}"
        );
        // The whole position, not only the result and length: the same game was played.
        assert_eq!(format!("{listed:?}"), format!("{fast:?}"), "seed {seed}");
    }
}
