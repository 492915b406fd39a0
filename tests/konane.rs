//! Konane (`games/konane.toml`): perft and seeded random games replayed in the
//! independent reference (`reference/konane.rs`, written from `docs/rules/konane.md`
//! only), on the 8x8 board and a 6x6 one, and positions that pin the opening removals
//! and the multiple jump.

use rulebook::engine::game::Game;
use serde_json::json;

use crate::common::{game, legal, play};
use crate::reference::konane::Konane;
use crate::traces::{check_seeds, compare_perft, compare_perft_midgame};

fn konane(size: usize) -> Game {
    game("konane", &[("size", &size.to_string())])
}

#[test]
fn perft_matches_the_reference() {
    // 4 first removals (two corners, two centre points), 12 second ones (2 beside a
    // corner, 4 beside a centre point), then jumps.
    let counts = compare_perft("konane", &konane(8), &Konane::new(8), 5);
    assert_eq!(counts, [4, 12, 28, 172, 892]);
    compare_perft("konane 6x6", &konane(6), &Konane::new(6), 5);
}

#[test]
fn midgame_perft_matches_the_reference() {
    let n = compare_perft_midgame(
        "konane",
        &konane(8),
        || Konane::new(8),
        0..20,
        &[6, 12, 20, 30],
        3,
    );
    assert!(n >= 40, "too few positions: {n}");
}

#[test]
fn random_games_match_the_reference() {
    check_seeds(
        "konane",
        "konane",
        &konane(8),
        0..100,
        || Konane::new(8),
        json!({"size": 8}),
    );
}

#[test]
fn the_opening_removes_a_corner_or_centre_stone_then_a_neighbour() {
    let g = konane(8);
    let mut s = g.start();
    assert_eq!(legal(&g, &s), ["xa1", "xd4", "xe5", "xh8"]);
    play(&g, &mut s, "xa1");
    assert_eq!(legal(&g, &s), ["xa2", "xb1"]);
    let mut s = g.start();
    play(&g, &mut s, "xe5");
    assert_eq!(legal(&g, &s), ["xd5", "xe4", "xe6", "xf5"]);
}

#[test]
fn a_multiple_jump_goes_straight_and_may_stop_anywhere() {
    let g = konane(8);
    // Black's a1 can jump a2, then a4, then a6, stopping after any of them; the white
    // stone b3 beside a3 cannot be taken on the way (a jump never turns).
    let diagram = ". . . . . . . . / . . . . . . . . / O . . . . . . . / . . . . . . . . / \
                   O . . . . . . . / . O . . . . . . / O . . . . . . . / X . . . . . . . / \
                   to_move = black";
    let mut s = rulebook::record::diagram::read(&g, diagram).expect("a diagram");
    assert_eq!(legal(&g, &s), ["a1-a3", "a1-a3-a5", "a1-a3-a5-a7"]);
    // Each jumped stone is removed: stopping on a5 leaves white's a6 a jump back to a4.
    let mut stop = s.clone();
    play(&g, &mut stop, "a1-a3-a5");
    assert_eq!(legal(&g, &stop), ["a6-a4"]);
    // Going on to a7 takes all three: white's b3 has no jump, and white loses.
    play(&g, &mut s, "a1-a3-a5-a7");
    let outcome = s.outcome.as_ref().expect("white cannot move");
    assert_eq!(outcome.winners, [0], "black wins");
}
