//! Sight against the facts and readings of `docs/rules/sight.md` (rule numbers are
//! that file's), on plies from the start and on positions built by hand.

use rulebook::engine::game::Game;
use rulebook::engine::state::State;

use crate::common::{game, height, legal, play, set_stack};

/// `n` men of `owner` on one point.
fn men(n: usize, owner: &'static str) -> Vec<(&'static str, &'static str)> {
    vec![("man", owner); n]
}

/// An empty board with white to move.
fn empty(g: &Game) -> State {
    g.start()
}

#[test]
fn the_start_has_25_placements_for_white() {
    let g = game("sight", &[]);
    let s = g.start();
    assert_eq!(
        g.players[s.to_move as usize], "white",
        "rule 5: white first"
    );
    let all = legal(&g, &s);
    assert_eq!(all.len(), 25);
    assert!(
        all.iter().all(|t| t.len() == 2),
        "placements are written `c3`"
    );
}

#[test]
fn white_c3_black_a1_white_e5_makes_c3_a_two_stack() {
    // The rules file's example: from e5 the diagonal reaches d4 (empty), then c3 (white).
    let g = game("sight", &[]);
    let mut s = g.start();
    play(&g, &mut s, "c3; a1");
    assert_eq!(height(&g, &s, "c3"), 1, "black's a1 sees nothing black");
    assert_eq!(height(&g, &s, "a1"), 1);
    play(&g, &mut s, "e5");
    assert_eq!(height(&g, &s, "c3"), 2);
    assert_eq!(
        height(&g, &s, "e5"),
        1,
        "the placed piece stays a singleton"
    );
    assert_eq!(
        height(&g, &s, "a1"),
        1,
        "c3 blocks e5's view of a1 (and a1 is black)"
    );
    assert_eq!(g.players[s.to_move as usize], "black");
}

#[test]
fn even_points_move_along_eight_lines_odd_points_along_four() {
    let g = game("sight", &[]);
    let mut s = empty(&g);
    set_stack(&g, &mut s, "c3", &men(2, "white"));
    assert_eq!(
        legal(&g, &s),
        [
            "c3-b2", "c3-b3", "c3-b4", "c3-c2", "c3-c4", "c3-d2", "c3-d3", "c3-d4"
        ]
    );
    let mut s = empty(&g);
    set_stack(&g, &mut s, "b3", &men(2, "white"));
    assert_eq!(legal(&g, &s), ["b3-a3", "b3-b2", "b3-b4", "b3-c3"]);
}

#[test]
fn a_player_with_a_stack_must_move_and_never_moves_a_singleton() {
    // Rules 7, 9: white owns a stack, so no placement; the singleton on a1 never moves.
    let g = game("sight", &[]);
    let mut s = empty(&g);
    set_stack(&g, &mut s, "e5", &men(2, "white"));
    set_stack(&g, &mut s, "a1", &men(1, "white"));
    let all = legal(&g, &s);
    assert!(!all.is_empty());
    assert!(all.iter().all(|t| t.starts_with("e5-")), "{all:?}");
}

#[test]
fn a_move_reinforces_what_the_moved_piece_sees_except_its_origin() {
    // White c3 (2) moves to d3: d3 sees c3 (its origin: no growth) and e3 (white: grows).
    // The black piece on d5 is seen but is not friendly.
    let g = game("sight", &[]);
    let mut s = empty(&g);
    set_stack(&g, &mut s, "c3", &men(2, "white"));
    set_stack(&g, &mut s, "e3", &men(1, "white"));
    set_stack(&g, &mut s, "d5", &men(1, "black"));
    play(&g, &mut s, "c3-d3");
    assert_eq!(
        height(&g, &s, "c3"),
        1,
        "the origin shrinks and is not reinforced"
    );
    assert_eq!(height(&g, &s, "d3"), 1, "the moved piece is a singleton");
    assert_eq!(height(&g, &s, "e3"), 2);
    assert_eq!(height(&g, &s, "d5"), 1);
}

#[test]
fn sight_is_blocked_by_any_piece_and_runs_only_along_lines() {
    // White has no stack and places on d2 (even: 8 lines). Along d2-c3-b4 the black
    // piece on c3 hides the white one on b4; up the d file d5 is seen; e4 lies on no line
    // through d2.
    let g = game("sight", &[]);
    let mut s = empty(&g);
    set_stack(&g, &mut s, "c3", &men(1, "black"));
    set_stack(&g, &mut s, "b4", &men(1, "white"));
    set_stack(&g, &mut s, "d5", &men(1, "white"));
    set_stack(&g, &mut s, "e4", &men(1, "white"));
    play(&g, &mut s, "d2");
    assert_eq!(height(&g, &s, "b4"), 1, "hidden behind black c3");
    assert_eq!(
        height(&g, &s, "d5"),
        2,
        "straight up the d file: d3, d4 empty"
    );
    assert_eq!(height(&g, &s, "e4"), 1);
    // From an odd point only the orthogonal lines: d3 does not see its diagonal
    // neighbours c4 and e4.
    let mut s = empty(&g);
    set_stack(&g, &mut s, "c4", &men(1, "white"));
    set_stack(&g, &mut s, "e4", &men(1, "white"));
    set_stack(&g, &mut s, "a3", &men(1, "white"));
    play(&g, &mut s, "d3");
    assert_eq!(height(&g, &s, "c4"), 1, "d3 is odd: no diagonal to c4");
    assert_eq!(height(&g, &s, "e4"), 1, "nor to e4");
    assert_eq!(height(&g, &s, "a3"), 2, "along the rank: c3, b3 empty");
}

/// White: a 3-stack on c3 walled in by black singletons, a 2-stack on a5 that can move.
/// Black to move, with a placement on e1 that changes nothing for white.
fn blocked_highest(g: &Game) -> State {
    let mut s = empty(g);
    set_stack(g, &mut s, "c3", &men(3, "white"));
    for c in ["b2", "b3", "b4", "c2", "c4", "d2", "d3", "d4"] {
        set_stack(g, &mut s, c, &men(1, "black"));
    }
    set_stack(g, &mut s, "a5", &men(2, "white"));
    s.to_move = 1;
    s
}

#[test]
fn the_highest_movable_stacks_move_when_the_highest_are_blocked() {
    // Rule 8, default reading: c3 (3) cannot step, so the next highest (a5) must.
    let g = game("sight", &[]);
    let mut s = blocked_highest(&g);
    play(&g, &mut s, "e1");
    assert_eq!(legal(&g, &s), ["a5-a4", "a5-b5"]);
    // With a free 3-stack as well, only the 3-stacks may move.
    let mut s = blocked_highest(&g);
    set_stack(&g, &mut s, "e5", &men(3, "white"));
    play(&g, &mut s, "e1");
    assert_eq!(legal(&g, &s), ["e5-d5", "e5-e4"], "d4 is black");
}

#[test]
fn the_strict_switch_leaves_a_player_whose_highest_stacks_are_blocked_without_a_move() {
    // Rule 8's variant: only the highest stacks may move; all blocked, white has no legal
    // action and loses (rule 10).
    let g = game("sight", &[("strict_priority", "true")]);
    let mut s = blocked_highest(&g);
    play(&g, &mut s, "e1");
    let outcome = s.outcome.as_ref().expect("white has no action");
    assert_eq!(outcome.winners, [1], "black wins");
}

#[test]
fn a_player_without_stacks_loses_when_the_board_is_full() {
    // Rule 10: black has no stack and no empty point is left after white's last move.
    let g = game("sight", &[]);
    let mut s = empty(&g);
    let names = g.board.names.clone();
    for (i, c) in names.iter().enumerate() {
        let owner = if i % 2 == 0 { "black" } else { "white" };
        set_stack(&g, &mut s, c, &men(1, owner));
    }
    // White places on the last empty point, e5.
    set_stack(&g, &mut s, "e5", &[]);
    assert_eq!(legal(&g, &s), ["e5"]);
    play(&g, &mut s, "e5");
    // White's placement reinforced its pieces in sight, so white now has stacks, but it
    // is black's turn, and black has neither a stack nor an empty point.
    let outcome = s.outcome.as_ref().expect("black has no action");
    assert_eq!(outcome.winners, [0], "white wins");
}
