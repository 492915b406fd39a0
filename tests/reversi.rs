//! Reversi (`games/reversi.toml`): the published perft counts, seeded games replayed in
//! the independent reference (`reference/reversi.rs`, written from
//! `docs/rules/reversi.md` only), and hand-played positions that pin flips, a forced
//! pass and the end.

use rulebook::cli::{perft, perft_exact};
use rulebook::engine::game::Game;
use serde_json::json;

use crate::common;
use crate::common::trace_moves;
use crate::reference::reversi::Reversi;
use crate::reference::{GameResult, Reference};
use crate::traces::{check_seeds, compare_perft_midgame};

fn reversi() -> Game {
    common::game("reversi", &[])
}

/// Positions exactly n plies from the start, a forced pass counted as a ply (the
/// published table; the first passes come at ply 9).
const PUBLISHED: [u64; 10] = [
    4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216, 3_005_288, 24_571_056,
];

#[test]
fn reversi_perft_matches_the_published_counts() {
    let g = reversi();
    let s = g.start();
    for (depth, &expected) in (1..=8).zip(&PUBLISHED) {
        assert_eq!(perft_exact(&g, &s, depth), expected, "depth {depth}");
    }
}

/// Depths 9 and 10 (about two minutes in release):
/// `cargo test --release --test main reversi_deep_perft -- --ignored --nocapture`.
/// At depth 10 the 228 games that ended at ply 9 (every disc of one colour turned) count
/// as leaves in the other published table: 24,571,284.
#[test]
#[ignore]
fn reversi_deep_perft_matches_the_published_counts() {
    let g = reversi();
    let s = g.start();
    for (depth, &expected) in (9..=10).zip(&PUBLISHED[8..]) {
        assert_eq!(perft_exact(&g, &s, depth), expected, "depth {depth}");
    }
    assert_eq!(perft(&g, &s, 10), 24_571_284);
}

/// Two hundred random games replayed in the reference: every legal list (forced passes
/// included), the player to move, and how the game ended.
#[test]
fn reversi_traces_match_reference() {
    check_seeds(
        "reversi",
        "reversi",
        &reversi(),
        0..200,
        Reversi::new,
        json!({"size": 8}),
    );
}

/// Perft to depth 2 from positions in play, late ones included (near a full board,
/// where passes and the end come).
#[test]
fn reversi_midgame_perft_matches_reference() {
    let n = compare_perft_midgame(
        "reversi",
        &reversi(),
        Reversi::new,
        0..10,
        &[10, 20, 30, 40, 50, 55, 58],
        2,
    );
    assert!(n >= 60, "too few positions: {n}");
}

/// Random games end by the rules, with a result: the board full, or neither player able
/// to move; the winner has more discs (rules 6, 7). Some games have forced passes.
#[test]
fn random_games_end_when_neither_can_move() {
    let g = reversi();
    let (mut passes, mut short) = (0, 0);
    for seed in 0..50 {
        let mut pos = Reversi::new();
        for text in trace_moves(&g, "reversi", seed) {
            passes += usize::from(text == "pass");
            pos.play(&text)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
        assert!(pos.placements(0).is_empty() && pos.placements(1).is_empty());
        short += usize::from(pos.discs(0) + pos.discs(1) < 64);
        let expected = match pos.discs(0).cmp(&pos.discs(1)) {
            std::cmp::Ordering::Greater => GameResult::Win("black"),
            std::cmp::Ordering::Less => GameResult::Win("white"),
            std::cmp::Ordering::Equal => GameResult::Draw,
        };
        assert_eq!(pos.result, Some(expected), "seed {seed}");
    }
    eprintln!("reversi: {passes} passes, {short} games ended before the board was full");
    assert!(passes > 0);
}

/// Rule 3: black's first moves, and white's answers to d3.
#[test]
fn the_first_moves_flank_the_centre() {
    let g = reversi();
    let mut s = g.start();
    assert_eq!(common::legal(&g, &s), ["c4", "d3", "e6", "f5"]);
    common::play(&g, &mut s, "d3");
    assert_eq!(common::legal(&g, &s), ["c3", "c5", "e3"]);
}

/// Rule 4: a disc turns every line it flanks, in several directions at once, and only
/// up to the flanking disc. Black's g5 here flanks f5-e5 (west, up to d5), f4 (south-west,
/// up to e3) and g4 (south, up to g3); f6 (north-west) has no black disc behind it.
#[test]
fn every_flanked_line_turns() {
    let g = reversi();
    let mut s = g.start();
    common::play(&g, &mut s, "f5; f4; g3; g4; e3; d2; e2; f6");
    let owner = |s: &rulebook::engine::state::State, cell: &str| {
        let at = g.board.find(cell).expect("a cell");
        g.players[s.stack(at).last().expect("a disc").owner as usize].clone()
    };
    for cell in ["e5", "f5", "f4", "g4", "f6", "d4", "d2"] {
        assert_eq!(owner(&s, cell), "white", "{cell} before g5");
    }
    common::play(&g, &mut s, "g5");
    for cell in ["g5", "e5", "f5", "f4", "g4", "d5", "e3", "g3"] {
        assert_eq!(owner(&s, cell), "black", "{cell} after g5");
    }
    for cell in ["f6", "d4", "d2"] {
        assert_eq!(owner(&s, cell), "white", "{cell} after g5");
    }
}

/// Rule 5: black has no move after these eight plies (found by a search) but white has:
/// black's only ply is the written pass, and white plays on.
#[test]
fn a_player_without_a_move_passes() {
    let g = reversi();
    let mut s = g.start();
    common::play(&g, &mut s, "c4; c3; c2; b2; e6; c1; a1; a3");
    assert_eq!(common::legal(&g, &s), ["pass"]);
    common::play(&g, &mut s, "pass");
    assert!(s.outcome.is_none());
    assert!(!common::legal(&g, &s).is_empty());
    assert_eq!(g.players[s.to_move as usize], "white");
}

/// Rules 6 and 7: the shortest games end at ply 9 with one colour gone; nothing is
/// written after the ply that leaves neither player a move.
#[test]
fn a_wiped_out_colour_ends_the_game_at_once() {
    let g = reversi();
    let mut s = g.start();
    common::play(&g, &mut s, "c4; c3; c2; b4; a5; f4; g4; c5; d6");
    let outcome = s.outcome.as_ref().expect("over at ply 9");
    assert_eq!(outcome.winners, [0], "black has every disc");
    assert_eq!(g.scores(&s), [vec![13], vec![0]]);
    assert!(common::legal(&g, &s).is_empty());
}
