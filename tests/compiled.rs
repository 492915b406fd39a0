//! Expressions compiled to closures (`engine::code`) give what the tree-walking evaluator
//! gives: every game file is played both ways from the same seeds, and every position on
//! the way has the same legal plies, the same heuristic for every player, the same drawn
//! ply (where the two number their candidates alike; elsewhere the reference plays the
//! compiled game's draws, see [`same_numbering`]) and the same result.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rulebook::compile;
use rulebook::engine::game::Game;
use rulebook::spec;

/// Every game of the library and of the tests, with parameters that switch variants on.
const GAMES: &[(&str, &[(&str, &str)])] = &[
    ("games/abalone.toml", &[]),
    ("games/abalone.toml", &[("to_win", "1")]),
    ("games/amazons.toml", &[]),
    ("games/bounce.toml", &[]),
    ("games/bounce.toml", &[("size", "6")]),
    ("games/breakthrough.toml", &[]),
    ("games/chess.toml", &[]),
    ("games/clobber.toml", &[]),
    ("games/connect4.toml", &[]),
    ("games/draughts.toml", &[]),
    ("games/fanorona.toml", &[]),
    ("games/go.toml", &[("size", "5")]),
    ("games/hex.toml", &[]),
    ("games/havannah.toml", &[]),
    ("games/havannah.toml", &[("base", "5"), ("swap", "false")]),
    ("games/lines_of_action.toml", &[]),
    (
        "games/lines_of_action.toml",
        &[("simultaneous_draw", "true")],
    ),
    ("games/morris.toml", &[]),
    ("games/oware.toml", &[]),
    ("games/oware.toml", &[("grand_slam", "1")]),
    ("games/oware.toml", &[("grand_slam", "2")]),
    ("games/reversi.toml", &[]),
    ("games/shogi.toml", &[]),
    ("games/sight.toml", &[]),
    ("games/sight.toml", &[("strict_priority", "true")]),
    ("games/splut.toml", &[]),
    ("games/splut.toml", &[("players", "3")]),
    ("games/splut.toml", &[("players", "4")]),
    ("games/splut.toml", &[("lev_into_vacated", "false")]),
    ("games/staqs.toml", &[]),
    ("games/staqs.toml", &[("diagonal_steps", "true")]),
    ("games/surakarta.toml", &[]),
    ("games/quoridor.toml", &[]),
    ("games/quoridor.toml", &[("size", "5"), ("walls", "3")]),
    ("games/tictactoe.toml", &[]),
    ("games/vlkno.toml", &[]),
    ("games/vlkno.toml", &[("put_back", "true")]),
    ("games/xiangqi.toml", &[]),
    ("games/gomoku.toml", &[]),
    ("games/gomoku.toml", &[("exact_five", "true")]),
    ("games/konane.toml", &[]),
    ("games/konane.toml", &[("size", "6")]),
    ("tests/games/minidrop.toml", &[]),
    ("tests/games/group_moves.toml", &[]),
    ("tests/games/group_moves.toml", &[("holes", "true")]),
    ("tests/games/group_moves.toml", &[("files", "8")]),
    ("games/international_draughts.toml", &[]),
    ("games/bounce.toml", &[("size", "10")]),
];

/// The game compiled both ways: with closures, and as trees.
fn both(path: &str, params: &[(&str, &str)]) -> (Game, Game) {
    let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    let source = spec::load(&path).unwrap_or_else(|d| panic!("{d}"));
    let params: Vec<(String, String)> = params
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    let compiled = compile::compile(&source, &params).unwrap_or_else(|d| panic!("{d}"));
    let walked = crate::walk::compile(&source, &params).unwrap_or_else(|d| panic!("{d}"));
    (compiled, walked)
}

/// Whether the two builds number a position's candidates alike. A `where` after a step
/// that the compiled game folds into the step's set is counted exactly, whereas the
/// reference keeps it a `where`, which the draw tests on the candidate it drew (a pair
/// head's, `engine::sample`): each draw is uniform, but from candidates numbered apart.
fn same_numbering(compiled: &Game, walked: &Game) -> bool {
    let tested = |g: &Game| -> Vec<Option<bool>> {
        let actions = g.actions.iter();
        actions.map(|a| a.shape.pair.map(|p| p.tested)).collect()
    };
    tested(compiled) == tested(walked)
}

/// Plays seeded random games on both and compares every position on the way (where the
/// two number their candidates apart, the reference plays the compiled game's draws).
fn agree(path: &str, params: &[(&str, &str)], seeds: u64, max_plies: usize) {
    let (compiled, walked) = both(path, params);
    let same = same_numbering(&compiled, &walked);
    for seed in 0..seeds {
        let mut rng_c = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut rng_w = Xoshiro256PlusPlus::seed_from_u64(seed);
        let (mut c, mut w) = (compiled.start(), walked.start());
        assert_eq!(c, w, "{path} {params:?}: the starts differ");
        for ply in 0..max_plies {
            let at = format!("{path} {params:?}, seed {seed}, ply {ply}");
            assert_eq!(
                compiled.legal_plies(&c),
                walked.legal_plies(&w),
                "{at}: legal plies"
            );
            for p in 0..compiled.players.len() as u8 {
                assert_eq!(
                    compiled.evaluate(&c, p),
                    walked.evaluate(&w, p),
                    "{at}: the heuristic for player {p}"
                );
            }
            let drawn_c = compiled.play_random(&mut c, &mut rng_c);
            let drawn_w = if same {
                walked.play_random(&mut w, &mut rng_w)
            } else {
                drawn_c.clone().inspect(|ply| walked.play(&mut w, ply))
            };
            assert_eq!(drawn_c, drawn_w, "{at}: the drawn ply");
            assert_eq!(c, w, "{at}: the position after the drawn ply");
            if drawn_c.is_none() {
                break;
            }
        }
        assert_eq!(
            c.outcome, w.outcome,
            "{path} {params:?}, seed {seed}: result"
        );
        if c.outcome.is_some() {
            assert_eq!(compiled.scores(&c), walked.scores(&w), "{path}: scores");
        }
    }
}

#[test]
fn compiled_expressions_play_every_game_as_the_tree_walker_does() {
    for name in crate::common::shipped_games() {
        let path = format!("games/{name}.toml");
        assert!(
            GAMES.iter().any(|(p, _)| *p == path),
            "{path} is missing from the games compared"
        );
    }
    for (path, params) in GAMES {
        agree(path, params, 3, 400);
    }
    // Only a game with a pair head's `where` that the compiled build folds and the
    // reference leaves to the draw numbers its candidates apart: every other game above
    // compared its draws too.
    let apart: Vec<&str> = GAMES
        .iter()
        .filter(|(path, params)| {
            let (compiled, walked) = both(path, params);
            !same_numbering(&compiled, &walked)
        })
        .map(|(path, _)| *path)
        .collect();
    assert_eq!(apart, ["games/splut.toml"; 4]);
}

#[test]
fn checks_on_groups_after_a_move_are_decided_before_it_where_they_can_be() {
    // `engine::check_before`: the compiled game decides `slide`'s, `climb`'s, `hop`'s and
    // `topple`'s checks before their moves (every stack they read is a group's size), not
    // `jump`'s (it reads a top too); the tree-walking reference asks every check after the
    // move. The plays above compare the two position by position.
    let (compiled, walked) = both("tests/games/group_moves.toml", &[]);
    let decided = |g: &Game| -> Vec<(String, bool)> {
        let actions = g.actions.iter();
        actions
            .map(|a| (a.name.clone(), a.compiled[0].before.is_some()))
            .collect()
    };
    let expect = |flags: [bool; 5]| -> Vec<(String, bool)> {
        let names = ["slide", "climb", "hop", "topple", "jump"].map(String::from);
        names.into_iter().zip(flags).collect()
    };
    assert_eq!(decided(&compiled), expect([true, true, true, true, false]));
    assert_eq!(
        decided(&walked),
        expect([false, false, false, false, false])
    );
    let (bounce, _) = both("games/bounce.toml", &[]);
    assert!(bounce.actions[0].compiled[0].before.is_some());
}

#[test]
fn compiled_expressions_agree_on_long_games() {
    // Whole games, to the end, where they are short enough to play many.
    for path in [
        "games/staqs.toml",
        "games/sight.toml",
        "games/tictactoe.toml",
    ] {
        agree(path, &[], 30, 10_000);
    }
}
