//! Hex: perft with and without the swap rule, the six links of a cell in a winning
//! chain, the swap's mirror, and games that always end with a winner.

use super::{perft_from_start, random_games_end, winners};
use crate::common::{game, legal, play};

#[test]
fn perft_fills_cells_one_by_one_without_the_swap_rule() {
    // 121, 121 x 120, 121 x 120 x 119: no game ends before 11 stones of one colour.
    let g = game("hex", &[]);
    perft_from_start(&g, &[121, 14520, 1727880]);
}

#[test]
fn perft_with_the_swap_rule_adds_one_second_ply_per_first() {
    // Ply 2: 120 placements or the swap; after a swap, red has the 120 empty cells.
    let g = game("hex", &[("swap", "true")]);
    perft_from_start(&g, &[121, 121 * 121, 121 * 120 * 119 + 121 * 120]);
}

#[test]
fn the_swap_mirrors_the_first_stone_in_the_long_diagonal_and_red_moves_next() {
    let g = game("hex", &[("swap", "true")]);
    let mut s = g.start();
    play(&g, &mut s, "b1");
    assert!(legal(&g, &s).contains(&"swap".into()));
    play(&g, &mut s, "swap");
    // (file, rank) = (2, 1) goes to (12 - 1, 12 - 2) = (11, 10): k10, now blue.
    let at = |cell: &str| s.stacks()[g.board.find(cell).unwrap() as usize].to_vec();
    assert!(at("b1").is_empty());
    assert_eq!(at("k10").len(), 1);
    assert_eq!(at("k10")[0].owner, super::seat(&g, "blue"));
    assert_eq!(g.players[s.to_move as usize], "red");
    // A stone on the long diagonal stays where it is and changes colour.
    let mut s = g.start();
    play(&g, &mut s, "f6; swap");
    let f6 = &s.stacks()[g.board.find("f6").unwrap() as usize];
    assert_eq!(f6[0].owner, super::seat(&g, "blue"));
    // Only on the second ply, and only with the switch on.
    let mut s = g.start();
    play(&g, &mut s, "a1; b1");
    assert!(!legal(&g, &s).contains(&"swap".into()));
    let g = game("hex", &[]);
    let mut s = g.start();
    play(&g, &mut s, "a1");
    assert!(!legal(&g, &s).contains(&"swap".into()));
}

#[test]
fn red_joins_bottom_and_top_and_blue_left_and_right_through_six_links() {
    let g = game("hex", &[("size", "3")]);
    // Red up the a-file (n links).
    let mut s = g.start();
    play(&g, &mut s, "a1; b1; a2; b2");
    assert!(s.outcome.is_none());
    play(&g, &mut s, "a3");
    assert_eq!(winners(&g, &s), ["red"]);
    // Blue along the a1-c3 diagonal: ne links join a1 to b2 to c3.
    let mut s = g.start();
    play(&g, &mut s, "c1; a1; a3; b2; b3");
    assert!(s.outcome.is_none());
    play(&g, &mut s, "c3");
    assert_eq!(winners(&g, &s), ["blue"]);
    // The other diagonal is no chain: a3 and b2 (and b2 and c1) are not neighbours.
    let mut s = g.start();
    play(&g, &mut s, "a1; a3; c3; b2; b1; c1");
    assert!(
        s.outcome.is_none(),
        "blue's a3 b2 c1 touch no two sides as one group"
    );
}

#[test]
fn random_games_end_with_a_winner_with_and_without_swap() {
    for swap in ["false", "true"] {
        let g = game("hex", &[("swap", swap)]);
        assert_eq!(random_games_end(&g, 30, 121), 0, "Hex has no draws");
    }
    let g = game("hex", &[("size", "5")]);
    assert_eq!(random_games_end(&g, 50, 25), 0);
}
