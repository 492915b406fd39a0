//! Xiangqi (`games/xiangqi.toml`): the published perft counts from the start, seeded
//! random games and mid-game perft replayed in the independent reference
//! (`reference/xiangqi.rs`, written from `docs/rules/xiangqi.md` only), and positions
//! that pin one rule each.

use rulebook::cli::perft_exact;
use rulebook::engine::game::Game;
use rulebook::engine::state::State;
use serde_json::json;

use crate::common::{game, legal, play};
use crate::reference::xiangqi::Xiangqi;
use crate::traces::{check_seeds, compare_perft, compare_perft_midgame};

fn xiangqi() -> Game {
    game("xiangqi", &[])
}

/// Perft from the start, depths 1 to 5 (the counts the computer Xiangqi community
/// publishes; no game ends before the fifth ply).
const PUBLISHED: [u64; 5] = [44, 1_920, 79_666, 3_290_240, 133_312_995];

/// A position written as a Xiangqi FEN board (ranks from black's side, digits for runs
/// of empty points, `RNBAKCP` red and `rnbakcp` black) and the side to move.
fn position(g: &Game, board: &str, to_move: &str) -> State {
    let mut lines: Vec<String> = board
        .split('/')
        .map(|row| {
            let mut cells = Vec::new();
            for ch in row.chars() {
                match ch.to_digit(10) {
                    Some(n) => cells.extend(std::iter::repeat_n(".".to_string(), n as usize)),
                    None => cells.push(ch.to_string()),
                }
            }
            cells.join(" ")
        })
        .collect();
    lines.push(format!("to_move = {to_move}"));
    rulebook::record::diagram::read(g, &lines.join(" / "))
        .unwrap_or_else(|e| panic!("{board}: {e}"))
}

/// The legal plies that start from the ICCS point `from`.
fn from(g: &Game, s: &State, point: &str) -> Vec<String> {
    legal(g, s)
        .into_iter()
        .filter(|m| m.starts_with(point))
        .collect()
}

#[test]
fn perft_matches_the_published_counts_to_depth_three() {
    let g = xiangqi();
    for (depth, &count) in (1..=3).zip(&PUBLISHED) {
        assert_eq!(perft_exact(&g, &g.start(), depth), count, "depth {depth}");
    }
}

/// `cargo test --release --test main xiangqi_deep_perft -- --ignored` (depth 4, a few
/// seconds). Depth 5, 133,312,995, was checked once with a release binary:
/// `rulebook perft games/xiangqi.toml --depth 5 --exact` (3,371,871 positions in 237 s on
/// the shared two-core machine under load).
#[test]
#[ignore = "deep perft: run in release"]
fn xiangqi_deep_perft_matches_the_published_count() {
    let g = xiangqi();
    assert_eq!(perft_exact(&g, &g.start(), 4), PUBLISHED[3]);
}

#[test]
fn perft_matches_the_reference_from_the_start() {
    compare_perft("xiangqi", &xiangqi(), &Xiangqi::new(), 2);
}

/// Positions in play (captures made, pieces across the river, generals in check):
/// perft to depth 2 agrees with the reference.
#[test]
fn midgame_perft_matches_the_reference() {
    let n = compare_perft_midgame(
        "xiangqi",
        &xiangqi(),
        Xiangqi::new,
        0..8,
        &[20, 60, 120, 200, 300],
        2,
    );
    assert!(n >= 30, "too few positions: {n}");
}

/// Seeded random games replayed in the reference: every legal list, the player to move
/// and how each game ended (checkmate, stalemate, repetition or the sixty-move rule).
#[test]
fn random_games_match_the_reference() {
    check_seeds(
        "xiangqi",
        "xiangqi",
        &xiangqi(),
        0..30,
        Xiangqi::new,
        json!({"repeats": 3, "quiet_moves": 60}),
    );
}

#[test]
fn the_first_moves_follow_each_pieces_rule() {
    let g = xiangqi();
    let s = g.start();
    // Rule 8: the horse on b0 has its leg b1 free (a2, c2), and d1 is blocked by c0.
    assert_eq!(from(&g, &s, "b0"), ["b0a2", "b0c2"]);
    // Rule 7: the elephant on c0 to a2 and e2.
    assert_eq!(from(&g, &s, "c0"), ["c0a2", "c0e2"]);
    // Rules 5, 6: the general to e1 only, an advisor to e1 only.
    assert_eq!(from(&g, &s, "e0"), ["e0e1"]);
    assert_eq!(from(&g, &s, "d0"), ["d0e1"]);
    // Rule 10: the cannon on b2 moves along its lines and captures the horse b9 over
    // the cannon b7.
    assert_eq!(
        from(&g, &s, "b2"),
        [
            "b2a2", "b2b1", "b2b3", "b2b4", "b2b5", "b2b6", "b2b9", "b2c2", "b2d2", "b2e2", "b2f2",
            "b2g2"
        ]
    );
    // Rule 11: a soldier before the river steps forward only.
    assert_eq!(from(&g, &s, "a3"), ["a3a4"]);
}

#[test]
fn the_elephant_stays_home_and_its_eye_blocks_it() {
    let g = xiangqi();
    // A red elephant on c4 at the river, a red soldier on b3 (its eye toward a2).
    let s = position(&g, "3k5/9/9/9/9/2B6/1P7/9/9/4K4", "red");
    assert_eq!(from(&g, &s, "c4"), ["c4e2"]);
}

#[test]
fn a_soldier_across_the_river_also_steps_sideways() {
    let g = xiangqi();
    let s = position(&g, "3k5/9/9/9/4P4/9/P8/9/9/5K3", "red");
    assert_eq!(from(&g, &s, "e5"), ["e5d5", "e5e6", "e5f5"]);
    assert_eq!(from(&g, &s, "a3"), ["a3a4"]);
}

#[test]
fn a_cannon_needs_exactly_one_screen_to_capture() {
    let g = xiangqi();
    // The cannon on e2 sees the red soldier e4 (the screen), then black's soldier e6, then
    // black's chariot e8: it takes the soldier, never the chariot (two screens).
    let s = position(&g, "3k5/4r4/9/4p4/9/4P4/9/4C4/9/5K3", "red");
    let cannon = from(&g, &s, "e2");
    assert!(cannon.contains(&"e2e6".to_string()), "{cannon:?}");
    assert!(!cannon.contains(&"e2e8".to_string()), "{cannon:?}");
    assert!(
        !cannon.contains(&"e2e4".to_string()),
        "no capture of its own piece"
    );
}

#[test]
fn the_generals_may_not_face_each_other() {
    let g = xiangqi();
    // Only a red horse on e4 stands between the generals: every move of it leaves the
    // file open, so it has none; the red general may step aside or up the file (rule 12).
    let s = position(&g, "4k4/9/9/9/9/4N4/9/9/9/4K4", "red");
    assert_eq!(from(&g, &s, "e4"), Vec::<String>::new());
    assert_eq!(from(&g, &s, "e0"), ["e0d0", "e0e1", "e0f0"]);
    // A black general on d9 may not step onto the open e-file, facing red's on e0.
    let s = position(&g, "3k5/9/9/9/9/9/9/9/9/4K4", "black");
    assert_eq!(from(&g, &s, "d9"), ["d9d8"]);
}

#[test]
fn checkmate_and_stalemate_both_lose() {
    let g = xiangqi();
    // Black's general on e9, red's general on f0 (it covers f9 along the open file), a
    // red chariot on d2 (covering d9), a red chariot on a8 and one on i1.
    let board = "4k4/R8/9/9/9/9/9/3R5/8R/5K3";
    // Checkmate: i1i9 checks along rank 9; e8 is covered by a8, d9 by d2, f9 by both.
    let mut s = position(&g, board, "red");
    play(&g, &mut s, "i1i9");
    let outcome = s.outcome.as_ref().expect("checkmate ends the game");
    assert_eq!(outcome.winners, [0], "red wins");
    // Stalemate: a quiet chariot move leaves black not in check but without a move.
    let mut s = position(&g, "4k4/9/R8/9/9/9/9/3R5/9/5K3", "red");
    play(&g, &mut s, "a7a8");
    let outcome = s.outcome.as_ref().expect("stalemate ends the game");
    assert_eq!(
        outcome.winners,
        [0],
        "red wins: the stalemated player loses"
    );
}

#[test]
fn the_third_occurrence_of_a_position_draws() {
    // Both horses out and back twice: the start comes round a second time after four
    // plies, and a third after eight (rule 15).
    let g = xiangqi();
    let mut s = g.start();
    play(&g, &mut s, "h0g2; h9g7; g2h0; g7h9; h0g2; h9g7; g2h0");
    assert!(s.outcome.is_none());
    play(&g, &mut s, "g7h9");
    let outcome = s.outcome.as_ref().expect("a draw by repetition");
    assert!(outcome.winners.is_empty());
}

#[test]
fn moves_without_a_capture_draw_and_a_capture_starts_the_count_again() {
    // With `quiet_moves = 2`, four plies without a capture draw (rule 16)...
    let g = game("xiangqi", &[("quiet_moves", "2")]);
    let mut s = g.start();
    play(&g, &mut s, "h0g2; h9g7; b0c2");
    assert!(s.outcome.is_none());
    play(&g, &mut s, "b9c7");
    assert!(s.outcome.as_ref().expect("a draw").winners.is_empty());
    // ...and a capture starts the count again: the cannon takes the horse on h9 over
    // the cannon h7, the chariot takes it back, and only four quiet plies after that draw.
    let mut s = g.start();
    play(&g, &mut s, "h2h9; i9h9; h0g2; h9h8; i0h0");
    assert!(s.outcome.is_none());
    play(&g, &mut s, "h8h9");
    assert!(s.outcome.as_ref().expect("a draw").winners.is_empty());
}

#[test]
fn a_check_on_the_last_quiet_move_puts_the_draw_off() {
    // With `quiet_moves = 1` two quiet plies draw, but black's second one checks along
    // rank 0: red must answer (its only move, d0d1), and that ply draws (rule 16).
    let g = game("xiangqi", &[("quiet_moves", "1")]);
    let mut s = position(&g, "4k4/8r/9/9/9/9/9/9/R8/3K5", "red");
    play(&g, &mut s, "a1a2; i8i0");
    assert!(s.outcome.is_none(), "the check puts the draw off");
    assert_eq!(legal(&g, &s), ["d0d1"]);
    play(&g, &mut s, "d0d1");
    assert!(s.outcome.as_ref().expect("a draw").winners.is_empty());
}
