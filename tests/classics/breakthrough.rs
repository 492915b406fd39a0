//! Breakthrough: perft, forward moves and diagonal captures, and both ways to win.

use super::{perft_from_start, random_games_end, winners};
use crate::common::{game, legal, play, set_stack};

#[test]
fn perft_matches_the_published_counts_to_depth_four() {
    let g = game("breakthrough", &[]);
    perft_from_start(&g, &[22, 484, 11132, 256036]);
}

/// `cargo test --release --test main classics::breakthrough -- --ignored` (a few seconds).
#[test]
#[ignore = "deep perft: run in release"]
fn perft_matches_the_published_counts_to_depth_five() {
    let g = game("breakthrough", &[]);
    perft_from_start(&g, &[22, 484, 11132, 256036, 6182818]);
}

#[test]
fn pieces_go_forward_and_capture_diagonally_only() {
    let g = game("breakthrough", &[]);
    let mut s = g.start();
    // From the start only the front row moves: straight or diagonally, never sideways or
    // back, and never onto a piece of one's own.
    let first = legal(&g, &s);
    assert_eq!(first.len(), 22);
    assert!(
        first
            .iter()
            .all(|t| t.as_bytes()[1] == b'2' && t.ends_with('3'))
    );
    assert!(first.contains(&"a2-a3".into()) && first.contains(&"a2-b3".into()));
    // Black goes down the board.
    play(&g, &mut s, "a2-a3");
    let second = legal(&g, &s);
    assert!(
        !second.is_empty()
            && second
                .iter()
                .all(|t| t.as_bytes()[1] == b'7' && t.ends_with('6'))
    );
    // Head to head on the a-file: no straight capture; b5 can be taken diagonally.
    play(
        &g,
        &mut s,
        "a7-a6; a3-a4; b7-b6; h2-h3; a6-a5; h3-h4; b6-b5",
    );
    let white = legal(&g, &s);
    assert!(
        !white
            .iter()
            .any(|t| t.starts_with("a4-a5") || t.starts_with("a4xa5"))
    );
    assert!(white.contains(&"a4xb5".into()), "{white:?}");
    assert!(
        !white.contains(&"a4-b5".into()),
        "a capture is written with x"
    );
    play(&g, &mut s, "a4xb5");
    let black = s
        .stacks()
        .iter()
        .filter(|st| st.last().is_some_and(|p| p.owner == 1))
        .count();
    assert_eq!(black, 15, "the captured piece leaves the board");
}

#[test]
fn reaching_the_far_row_wins() {
    // A white piece runs up the b-file and captures its way through the two black rows.
    let g = game("breakthrough", &[]);
    let mut s = g.start();
    play(
        &g,
        &mut s,
        "b2-b3; h7-h6; b3-b4; h6-h5; b4-b5; h5-h4; b5-b6; h4-h3; b6xc7; h3xg2",
    );
    assert!(s.outcome.is_none(), "on row 7 white has not won yet");
    let white = legal(&g, &s);
    assert!(white.contains(&"c7xb8".into()) && white.contains(&"c7xd8".into()));
    assert!(
        !white.contains(&"c7-c8".into()),
        "c8 is taken: no straight capture"
    );
    play(&g, &mut s, "c7xd8");
    assert_eq!(winners(&g, &s), ["white"]);
}

#[test]
fn capturing_the_last_opposing_piece_wins() {
    // Black down to one piece, on e5 in front of white's d4.
    let g = game("breakthrough", &[]);
    let mut s = g.start();
    play(&g, &mut s, "d2-d3; e7-e6");
    for c in g.board.names.clone() {
        if s.stacks()[g.board.find(&c).unwrap() as usize]
            .last()
            .is_some_and(|p| p.owner == 1)
        {
            set_stack(&g, &mut s, &c, &[]);
        }
    }
    set_stack(&g, &mut s, "d3", &[]);
    set_stack(&g, &mut s, "d4", &[("pawn", "white")]);
    set_stack(&g, &mut s, "e5", &[("pawn", "black")]);
    play(&g, &mut s, "d4xe5");
    assert_eq!(winners(&g, &s), ["white"]);
}

#[test]
fn random_games_end_with_a_winner() {
    let g = game("breakthrough", &[]);
    assert_eq!(
        random_games_end(&g, 50, 500),
        0,
        "Breakthrough has no draws"
    );
}
