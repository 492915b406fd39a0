//! Tic-tac-toe: the complete game tree, and a win, a draw and the end of play.

use super::{perft_from_start, random_games_end, winners};
use crate::common::{game, legal, play};

#[test]
fn perft_matches_the_complete_game_tree() {
    // Positions at each depth; 255,168 games in all.
    let g = game("tictactoe", &[]);
    perft_from_start(
        &g,
        &[9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872],
    );
}

#[test]
fn three_in_a_row_wins_and_ends_play() {
    let g = game("tictactoe", &[]);
    let mut s = g.start();
    play(&g, &mut s, "b2; a1; c1; a3; a2; c3");
    assert!(s.outcome.is_none(), "o has two on the top row, not three");
    assert_eq!(legal(&g, &s), ["b1", "b3", "c2"]);
    play(&g, &mut s, "c2");
    assert_eq!(winners(&g, &s), ["x"], "a2 b2 c2 across");
    assert!(legal(&g, &s).is_empty());
    // A diagonal for noughts, completed by the mark in the middle of it.
    let mut s = g.start();
    play(&g, &mut s, "a1; c1; a2; a3; b1; b2");
    assert_eq!(winners(&g, &s), ["o"], "c1 b2 a3");
}

#[test]
fn a_full_board_without_a_row_is_a_draw() {
    let g = game("tictactoe", &[]);
    let mut s = g.start();
    play(&g, &mut s, "a1; b2; a2; a3; c1; b1; b3; c2");
    assert!(s.outcome.is_none());
    assert_eq!(legal(&g, &s), ["c3"]);
    play(&g, &mut s, "c3");
    assert_eq!(winners(&g, &s), Vec::<String>::new());
}

#[test]
fn random_games_end_within_nine_plies() {
    let g = game("tictactoe", &[]);
    random_games_end(&g, 200, 9);
}
