//! Lines of Action (`games/lines_of_action.toml`): perft and seeded games against the
//! independent reference (`reference/lines_of_action.rs`, written from
//! `docs/rules/lines_of_action.md` only; no perft of the game is published that we could
//! find), and positions that pin one rule each.

use rulebook::cli::perft;
use rulebook::engine::game::Game;
use rulebook::engine::state::State;
use rulebook::record::diagram;
use serde_json::json;

use crate::common::{game, legal, play};
use crate::reference::lines_of_action::LinesOfAction;
use crate::reference::{GameResult, Reference};
use crate::traces::{check_seeds, compare_perft, compare_perft_midgame};

fn loa(draw: bool) -> Game {
    game(
        "lines_of_action",
        &[("simultaneous_draw", &draw.to_string())],
    )
}

fn at(g: &Game, text: &str) -> State {
    diagram::read(g, text).unwrap_or_else(|e| panic!("{e}"))
}

fn winners(g: &Game, s: &State) -> Vec<String> {
    let outcome = s.outcome.as_ref().expect("the game is over");
    outcome
        .winners
        .iter()
        .map(|&w| g.players[w as usize].clone())
        .collect()
}

#[test]
fn lines_of_action_perft_matches_reference() {
    // 36 moves from the start, the count every description of the game gives.
    let counts = compare_perft(
        "lines of action",
        &loa(false),
        &LinesOfAction::new(false),
        3,
    );
    assert_eq!(counts, [36, 1244, 44952]);
}

/// Depths 4 and 5 (the reference in release takes a minute):
/// `cargo test --release --test main lines_of_action_deep_perft -- --ignored --nocapture`.
#[test]
#[ignore]
fn lines_of_action_deep_perft_matches_reference() {
    let g = loa(false);
    let start = LinesOfAction::new(false);
    for (depth, expected) in [(4, 1_563_208), (5, 55_963_132)] {
        assert_eq!(crate::reference::perft(&start, depth), expected);
        assert_eq!(perft(&g, &g.start(), depth), expected);
    }
}

#[test]
fn lines_of_action_traces_match_reference() {
    for draw in [false, true] {
        check_seeds(
            "lines of action",
            "lines_of_action",
            &loa(draw),
            0..60,
            || LinesOfAction::new(draw),
            json!({ "simultaneous_draw": draw }),
        );
    }
}

#[test]
fn lines_of_action_midgame_perft_matches_reference() {
    let n = compare_perft_midgame(
        "lines of action",
        &loa(false),
        || LinesOfAction::new(false),
        0..8,
        &[10, 30, 60, 90],
        2,
    );
    assert!(n >= 20, "too few positions: {n}");
}

/// Rules 3 to 5: the distance is the count on the whole line; own pieces are jumped,
/// opposing ones block, and a piece is taken by landing on it.
#[test]
fn a_piece_moves_as_far_as_its_line_holds_pieces() {
    let g = loa(false);
    // Black d1, d3, h1; white a8, d6, e2. The d-file holds three pieces: d1 goes three squares,
    // over its own d3, to d4. The first rank holds two: b1 or f1. The diagonal to h5
    // holds two, but white's e2 stands on the way to f3. The diagonal to a4 holds one: c2.
    let mut s = at(
        &g,
        "W . . . . . . . / . . . . . . . . / . . . W . . . . / . . . . . . . . / \
         . . . . . . . . / . . . B . . . . / . . . . W . . . / . . . B . . . B",
    );
    let d1: Vec<String> = legal(&g, &s)
        .into_iter()
        .filter(|m| m.starts_with("d1"))
        .collect();
    assert_eq!(d1, ["d1-b1", "d1-c2", "d1-d4", "d1-f1"]);
    // d3 goes three squares up the d-file and takes d6 by landing on it.
    play(&g, &mut s, "d3xd6");
    assert_eq!(crate::common::height(&g, &s, "d6"), 1);
    assert_eq!(s.to_move, crate::common::seat(&g, "white"));
    // e2's diagonal to h5 holds d1 too: two squares, to g4; the other diagonal, now
    // without d3, holds e2 alone.
    let e2: Vec<String> = legal(&g, &s)
        .into_iter()
        .filter(|m| m.starts_with("e2"))
        .collect();
    assert_eq!(
        e2,
        [
            "e2-d2", "e2-d3", "e2-e1", "e2-e3", "e2-f1", "e2-f2", "e2-g4"
        ]
    );
}

/// Rules 6 and 7: one group wins, a lone piece is a group, and a move that connects both
/// players wins for the mover, or draws with the switch.
#[test]
fn connecting_both_players_at_once_follows_the_switch() {
    // Black a1 and c2, white c1 and a3: a1 goes two squares along the first rank and
    // takes c1. Black's c1 and c2 touch, and white's a3 is alone: both are connected.
    let text = ". . . . . . . . / . . . . . . . . / . . . . . . . . / . . . . . . . . / \
                . . . . . . . . / W . . . . . . . / . . B . . . . . / B . W . . . . .";
    let g = loa(false);
    let mut s = at(&g, text);
    play(&g, &mut s, "a1xc1");
    assert_eq!(winners(&g, &s), ["black"]);
    let g = loa(true);
    let mut s = at(&g, text);
    play(&g, &mut s, "a1xc1");
    assert!(winners(&g, &s).is_empty(), "a draw with the switch");
    // With black's second piece on h2 instead, only white is connected: white wins.
    let text = ". . . . . . . . / . . . . . . . . / . . . . . . . . / . . . . . . . . / \
                . . . . . . . . / W . . . . . . . / . . . . . . . B / B . W . . . . .";
    let g = loa(false);
    let mut s = at(&g, text);
    play(&g, &mut s, "a1xc1");
    assert_eq!(winners(&g, &s), ["white"]);
}

/// Random games end by the rules, with a winner or (rarely) a draw.
#[test]
fn random_lines_of_action_games_end_by_the_rules() {
    let g = loa(false);
    let mut draws = 0;
    for seed in 0..40 {
        let mut pos = LinesOfAction::new(false);
        for text in crate::common::trace_moves(&g, "lines_of_action", seed) {
            pos.play(&text)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
        let result = pos.result().expect("ended by the rules");
        draws += usize::from(result == GameResult::Draw);
        assert!(pos.pieces(0) >= 1 && pos.pieces(1) >= 1);
    }
    assert!(draws < 40);
}
