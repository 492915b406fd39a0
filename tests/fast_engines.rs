//! The hand-written engines of `tests/fast/` agree with the interpreter: at every position
//! of seeded random games the same legal plies (by their texts) and the same result, and
//! the same perft counts.

use rand::RngExt;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rulebook::engine::game::Game;

use crate::common::{game, legal, play};
use crate::fast::sight::Sight;
use crate::fast::bounce::{Bits, Bounce, Wide};
use crate::fast::splut::{Move as SplutMove, Splut};
use crate::fast::staqs::Staqs;
use crate::fast::vlkno::{self, Vlkno};

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
    }
}

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
/// The game file compiled for a Splut! setting.
fn splut_game(players: u8, lev_into_vacated: bool) -> Game {
    game(
        "splut",
        &[
            ("players", &players.to_string()),
            ("lev_into_vacated", &lev_into_vacated.to_string()),
        ],
    )
}

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
    let g = splut_game(players, lev_into_vacated);
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
            assert_eq!(winners, vec![winner], "size {size}, seed {seed}");
            break;
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
fn splut_by_hand_has_the_interpreters_perft_counts() {
    for players in 2..=4 {
        // The rules' fact: three plies at the start, whatever the number of players.
        assert_eq!(Splut::start(players, true).perft(1), 3);
        for lev_into_vacated in [true, false] {
            let setting = format!("{players} players, lev_into_vacated {lev_into_vacated}");
            let g = splut_game(players, lev_into_vacated);
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
fn vlkno_by_hand_random_playouts_draw_among_every_legal_ply() {
    // A playout draws an index below the count of legal plies at every ply: replaying its
    // draws from the same seed through the listing gives the same game and result.
    for seed in 0..50u64 {
        let put_back = seed % 2 == 1;
        let mut fast = Vlkno::start(put_back);
        let result = fast.random_playout(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut listed = Vlkno::start(put_back);
fn sight_by_hand_random_playouts_draw_among_every_legal_ply() {
    // A playout draws an index below the count of legal plies at every ply: replaying its
    // draws from the same seed through the listing gives the same game and result.
    for seed in 0..200u64 {
        let strict = seed % 2 == 1;
        let mut fast = Sight::start(strict);
        let winner = fast.random_playout(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut listed = Sight::start(strict);
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
            (Some(result), fast.plies())
            (listed, listed.result()),
            (fast, Some(winner)),
            "seed {seed}"
        );
    }
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
            (Some(result), fast.plies()),
            "seed {seed}"
        );
    }
}
