//! Surakarta (`games/surakarta.toml`, its circuits as tracks): perft and seeded random
//! games against the independent reference (`reference/surakarta.rs`, written from
//! `docs/rules/surakarta.md` only, its circuits built from coordinates), and hand-made
//! positions with captures round one and several loops and through the piece's own point.

use rulebook::cli::perft;
use rulebook::engine::game::Game;
use serde_json::json;

use crate::common;
use crate::reference::surakarta::Surakarta;
use crate::reference::{self, Reference};
use crate::traces::{check_seeds, compare_perft_midgame};

fn surakarta() -> Game {
    common::game("surakarta", &[])
}

/// Leaf plies from the start at depths 1 to 4, as the reference counts them.
const FROM_THE_START: [u64; 4] = [16, 256, 5_382, 111_122];

#[test]
fn surakarta_perft_matches_the_reference() {
    let g = surakarta();
    let s = g.start();
    let pos = Surakarta::new();
    let counts: Vec<u64> = (1..=4).map(|depth| reference::perft(&pos, depth)).collect();
    assert_eq!(counts, FROM_THE_START);
    for (depth, &expected) in (1..=4).zip(&counts) {
        assert_eq!(perft(&g, &s, depth), expected, "depth {depth}");
    }
}

/// Random games replayed in the reference: every legal list, the player to move, and how
/// each game ended (the last piece taken, or 100 plies without a capture).
#[test]
fn surakarta_traces_match_reference() {
    check_seeds(
        "surakarta",
        "surakarta",
        &surakarta(),
        0..60,
        Surakarta::new,
        json!({}),
    );
}

/// Perft to depth 3 from positions in play, when the circuits have opened.
#[test]
fn surakarta_midgame_perft_matches_reference() {
    let n = compare_perft_midgame(
        "surakarta",
        &surakarta(),
        Surakarta::new,
        0..8,
        &[10, 30, 60, 100, 150],
        3,
    );
    assert!(n >= 30, "too few positions: {n}");
}

/// A position with white's pieces on `white` and black's on `black`, white to move.
fn position(g: &Game, white: &[&str], black: &[&str]) -> rulebook::engine::state::State {
    let mut s = g.start();
    common::clear_board(&mut s);
    for &c in white {
        common::set_stack(g, &mut s, c, &[("man", "white")]);
    }
    for &c in black {
        common::set_stack(g, &mut s, c, &[("man", "black")]);
    }
    s
}

fn captures(g: &Game, s: &rulebook::engine::state::State) -> Vec<String> {
    common::legal(g, s)
        .into_iter()
        .filter(|t| t.contains('x'))
        .collect()
}

#[test]
fn a_capture_goes_round_at_least_one_loop() {
    let g = surakarta();
    // a2 and c2 share the second row, but a capture along it goes round no loop: a2 takes
    // c2 the long way, down file b, round three loops and back along the row.
    let s = position(&g, &["a2"], &["c2", "f6"]);
    assert_eq!(captures(&g, &s), ["a2xc2"]);
    // One loop: from a2 east, round the loop at f1, up file e to e3. The same capture
    // the other way round (three loops) is the same ply, listed once.
    let s = position(&g, &["a2"], &["e3"]);
    assert_eq!(captures(&g, &s), ["a2xe3"]);
    // The large circuit: c1 round the loop at a1 onto a3's row, to the first piece, d3.
    let s = position(&g, &["c1"], &["d3"]);
    assert!(captures(&g, &s).contains(&"c1xd3".to_string()));
    // No circuit reaches the corners.
    let s = position(&g, &["a1"], &["f6", "c2"]);
    assert_eq!(captures(&g, &s), Vec::<String>::new());
}

#[test]
fn the_capturing_piece_does_not_block_its_own_route() {
    let g = surakarta();
    // b2 takes b3 only by going west, round the loop at a1, up file b through b2 itself:
    // north is one step with no loop, and c2 (white) blocks the other routes.
    let s = position(&g, &["b2", "c2"], &["b3"]);
    assert!(captures(&g, &s).contains(&"b2xb3".to_string()));
    let mut r = Surakarta::new();
    r.board = [[None; 6]; 6];
    r.board[1][1] = Some(0);
    r.board[2][1] = Some(0);
    r.board[1][2] = Some(1);
    assert!(r.legal().contains(&"b2xb3".to_string()));
}

#[test]
fn taking_the_last_piece_wins() {
    let g = surakarta();
    let mut s = position(&g, &["a2"], &["e3"]);
    common::play(&g, &mut s, "a2xe3");
    let outcome = s.outcome.as_ref().expect("the game is over");
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(outcome.reason, None);
}
