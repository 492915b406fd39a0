//! Clobber: perft, what a move does, and the player who cannot move losing.

use super::{perft_from_start, random_games_end, winners};
use rulebook::cli::perft_exact;

use crate::common::{game, height, legal, play, set_stack};

#[test]
fn perft_matches_the_published_count_to_depth_four() {
    // Depth 1: one move per pair of orthogonal neighbours, 4 x 6 + 5 x 5 (the task's "60"
    // is the 6x6 board's).
    let g = game("clobber", &[]);
    perft_from_start(&g, &[49, 2116, 80063, 2630382]);
}

#[test]
fn the_mirrored_layout_has_the_same_counts() {
    // Black on a1 instead is this layout turned upside down (six rows): the same tree.
    let g = game("clobber", &[]);
    let mut s = g.start();
    for c in g.board.names.clone() {
        let owner = s.stacks()[g.board.find(&c).unwrap() as usize][0].owner;
        let other = if owner == 0 { "black" } else { "white" };
        set_stack(&g, &mut s, &c, &[("stone", other)]);
    }
    assert_eq!(perft_exact(&g, &s, 3), 80063);
    // The task's depth-1 count, 60, is the 6x6 board's: 2 x 6 x 5 pairs.
    let g = game("clobber", &[("columns", "6"), ("rows", "6")]);
    perft_from_start(&g, &[60]);
}

#[test]
fn a_stone_takes_an_orthogonal_opposing_neighbour() {
    let g = game("clobber", &[]);
    let mut s = g.start();
    assert_eq!(height(&g, &s, "a1"), 1);
    let first = legal(&g, &s);
    assert!(first.contains(&"a1xa2".into()) && first.contains(&"a1xb1".into()));
    assert!(
        !first.iter().any(|t| t.starts_with("a1xb2")),
        "no diagonal take"
    );
    assert!(!first.iter().any(|t| t.starts_with("b1x")), "b1 is black");
    play(&g, &mut s, "b2xb3");
    assert_eq!((height(&g, &s, "b2"), height(&g, &s, "b3")), (0, 1));
    let black = legal(&g, &s);
    // Black's stones take white ones only: none moves onto the empty b2, and the white
    // stone now on b3 has white neighbours only (a3, c3, b4).
    assert!(
        !black
            .iter()
            .any(|t| t.ends_with("xb2") || t.ends_with("xb3"))
    );
    assert!(black.contains(&"a2xa3".into()) && black.contains(&"c2xc3".into()));
}

#[test]
fn the_player_who_cannot_move_loses() {
    // One row of four: W B W B. After a1xb1 and d1xc1, white's b1xc1 leaves black nothing.
    let g = game("clobber", &[("columns", "4"), ("rows", "1")]);
    let mut s = g.start();
    play(&g, &mut s, "a1xb1; d1xc1");
    assert!(s.outcome.is_none());
    assert_eq!(legal(&g, &s), ["b1xc1"]);
    play(&g, &mut s, "b1xc1");
    assert_eq!(winners(&g, &s), ["white"]);
    // W B W B W: after a1xb1 and d1xe1, white's b1 and c1 stand next to an empty d1 and
    // each other: white has stones but no move, and loses before playing.
    let g = game("clobber", &[("columns", "5"), ("rows", "1")]);
    let mut s = g.start();
    play(&g, &mut s, "a1xb1; d1xe1");
    assert_eq!(winners(&g, &s), ["black"]);
}

#[test]
fn random_games_end_with_a_winner() {
    let g = game("clobber", &[]);
    assert_eq!(random_games_end(&g, 50, 60), 0, "Clobber has no draws");
}
