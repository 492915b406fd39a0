//! Connect Four: perft, columns filling up, the four lines, and a drawn full board.

use super::{perft_from_start, random_games_end, winners};
use crate::common::{game, legal, play};

#[test]
fn perft_matches_the_published_counts_to_depth_seven() {
    // 7^n to depth 6: no column fills and no line forms before the seventh ply; then the
    // seven games that filled one column have six drops left.
    let g = game("connect4", &[]);
    perft_from_start(&g, &[7, 49, 343, 2401, 16807, 117649, 823536]);
}

/// `cargo test --release --test main classics::connect4 -- --ignored` (a few seconds).
#[test]
#[ignore = "deep perft: run in release"]
fn perft_matches_the_published_counts_to_depth_eight() {
    let g = game("connect4", &[]);
    perft_from_start(&g, &[7, 49, 343, 2401, 16807, 117649, 823536, 5673234]);
}

#[test]
fn a_disc_falls_to_the_lowest_empty_cell_and_a_full_column_takes_none() {
    let g = game("connect4", &[]);
    let mut s = g.start();
    assert_eq!(legal(&g, &s), ["a", "b", "c", "d", "e", "f", "g"]);
    play(&g, &mut s, "d; d; d");
    let top = |s: &rulebook::engine::state::State, cell: &str| crate::common::height(&g, s, cell);
    assert_eq!((top(&s, "d1"), top(&s, "d3"), top(&s, "d4")), (1, 1, 0));
    play(&g, &mut s, "d; d; d");
    assert_eq!(legal(&g, &s), ["a", "b", "c", "e", "f", "g"], "d is full");
}

#[test]
fn four_in_a_row_wins_in_every_direction() {
    let g = game("connect4", &[]);
    // Up a column.
    let mut s = g.start();
    play(&g, &mut s, "a; b; a; b; a; b");
    assert!(s.outcome.is_none(), "three each");
    play(&g, &mut s, "a");
    assert_eq!(winners(&g, &s), ["red"]);
    // Across the bottom row, completed in its middle: a b _ d, then c.
    let mut s = g.start();
    play(&g, &mut s, "a; a; b; b; d; d");
    play(&g, &mut s, "c");
    assert_eq!(winners(&g, &s), ["red"]);
    // A rising diagonal for yellow, a1 b2 c3 d4.
    let mut s = g.start();
    play(&g, &mut s, "b; a; c; b; c; c; d; d; d; g; g");
    assert!(s.outcome.is_none());
    play(&g, &mut s, "d");
    assert_eq!(winners(&g, &s), ["yellow"]);
    // A falling diagonal for red, a4 b3 c2 d1.
    let mut s = g.start();
    play(&g, &mut s, "d; c; c; b; b; a; b; a; a; g");
    assert!(s.outcome.is_none());
    play(&g, &mut s, "a");
    assert_eq!(winners(&g, &s), ["red"]);
}

#[test]
fn a_full_board_without_four_is_a_draw() {
    // A random game (selfplay seed 162) that fills the board.
    let g = game("connect4", &[]);
    let mut s = g.start();
    play(
        &g,
        &mut s,
        "f;a;a;g;a;a;e;c;g;c;f;b;e;a;e;a;c;c;d;f;f;b;c;b;b;g;g;e;g;f;b;e;g;d;d;b;c;f;e;d;d",
    );
    assert!(s.outcome.is_none());
    assert_eq!(legal(&g, &s), ["d"], "one cell left");
    play(&g, &mut s, "d");
    assert_eq!(winners(&g, &s), Vec::<String>::new());
}

#[test]
fn random_games_end_by_a_line_or_a_full_board() {
    let g = game("connect4", &[]);
    random_games_end(&g, 100, 42);
}
