//! Amazons: perft, queen lines that stop at the first piece or arrow, the arrow from the
//! landing square, and the player who cannot move losing.

use super::{perft_from_start, random_games_end, winners};
use crate::common::{game, legal, play, set_stack};

#[test]
fn perft_matches_the_published_counts_to_depth_two() {
    let g = game("amazons", &[]);
    perft_from_start(&g, &[2176, 4307152]);
}

#[test]
fn moves_and_arrows_go_along_queen_lines_up_to_the_first_obstacle() {
    let g = game("amazons", &[]);
    let mut s = g.start();
    let first = legal(&g, &s);
    // d1 up the d-file as far as d9 (d10 is black's), then an arrow from the landing square.
    assert!(first.contains(&"d1-d9/g9".into()) && first.contains(&"d1-d9/d1".into()));
    assert!(!first.iter().any(|t| t.starts_with("d1-d10")));
    // a4 up the a-file stops below a7; no move passes over it.
    assert!(first.contains(&"a4-a6/a5".into()));
    assert!(
        !first
            .iter()
            .any(|t| t.starts_with("a4-a7") || t.starts_with("a4-a8"))
    );
    // An arrow flies over the square just left but not over a piece: from d7, not past a7.
    assert!(first.contains(&"d1-d7/d1".into()));
    assert!(
        !first
            .iter()
            .any(|t| t.starts_with("d1-d7/") && t.ends_with("/a7"))
    );
    assert!(first.contains(&"d1-d7/b7".into()));
    // Each arrow blocks: after d1-d7/g7, g1 cannot go up past g6.
    play(&g, &mut s, "d1-d7/g7; a7-b8/c8");
    let white = legal(&g, &s);
    assert!(white.iter().any(|t| t.starts_with("g1-g6/")));
    assert!(
        !white
            .iter()
            .any(|t| t.starts_with("g1-g7/") || t.starts_with("g1-g8/"))
    );
}

#[test]
fn the_player_who_cannot_move_loses() {
    // White's last amazon on a1, walled in by black's arrow on b1.
    let g = game("amazons", &[]);
    let mut s = g.start();
    play(&g, &mut s, "j4-j5/j6");
    crate::common::clear_board(&mut s);
    set_stack(&g, &mut s, "a1", &[("amazon", "white")]);
    set_stack(&g, &mut s, "a2", &[("arrow", "")]);
    set_stack(&g, &mut s, "b2", &[("arrow", "")]);
    set_stack(&g, &mut s, "c1", &[("amazon", "black")]);
    play(&g, &mut s, "c1-c2/b1");
    assert_eq!(winners(&g, &s), ["black"]);
}

#[test]
fn random_games_end_with_a_winner() {
    // Each ply blocks a square: at most 92 plies.
    let g = game("amazons", &[]);
    assert_eq!(random_games_end(&g, 20, 92), 0, "Amazons has no draws");
}
