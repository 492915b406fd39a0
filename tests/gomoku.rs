//! Gomoku (`games/gomoku.toml`): perft, seeded random games and mid-game perft replayed
//! in the independent bitboard reference (`reference/gomoku.rs`, written from
//! `docs/rules/gomoku.md` only), with and without the `exact_five` switch, and positions
//! that pin one rule each.

use rulebook::cli::perft_exact;
use rulebook::engine::game::Game;
use rulebook::engine::state::State;
use serde_json::json;

use crate::common::{game, legal, play};
use crate::reference::gomoku::Gomoku;
use crate::traces::{check_seeds, compare_perft, compare_perft_midgame};

fn gomoku(exact_five: bool) -> Game {
    game(
        "gomoku",
        &[("exact_five", if exact_five { "true" } else { "false" })],
    )
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
fn perft_fills_the_points_one_by_one() {
    // No row of five before the ninth ply: 225, 225 x 224, 225 x 224 x 223.
    let g = gomoku(false);
    for (depth, count) in [(1, 225), (2, 225 * 224), (3, 225 * 224 * 223)] {
        assert_eq!(perft_exact(&g, &g.start(), depth), count, "depth {depth}");
    }
    compare_perft("gomoku", &g, &Gomoku::new(false), 2);
}

/// Positions late in random games, where rows of four stand on the board: perft to depth
/// 2 agrees with the reference, so every five is seen when made, and only then.
#[test]
fn midgame_perft_matches_the_reference() {
    for exact in [false, true] {
        let n = compare_perft_midgame(
            "gomoku",
            &gomoku(exact),
            || Gomoku::new(exact),
            0..6,
            &[20, 40, 60, 80, 100],
            2,
        );
        assert!(n >= 15, "too few positions: {n}");
    }
}

#[test]
fn random_games_match_the_reference() {
    check_seeds(
        "gomoku",
        "gomoku",
        &gomoku(false),
        0..40,
        || Gomoku::new(false),
        json!({"exact_five": false}),
    );
}

#[test]
fn random_games_with_exact_five_match_the_reference() {
    let g = gomoku(true);
    let file = crate::common::game_path("gomoku");
    for seed in 0..40 {
        let record = rulebook::cli::selfplay(&g, &file, seed).unwrap_or_else(|e| panic!("{}", e.0));
        crate::traces::replay(
            "gomoku exact five",
            seed,
            &record.trace,
            Gomoku::new(true),
            &json!({"exact_five": true}),
            g.max_plies,
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn five_in_a_row_wins_along_every_line() {
    let g = gomoku(false);
    // Across, black h8-l8 against white's scattered stones.
    let mut s = g.start();
    play(&g, &mut s, "h8; a1; i8; a3; j8; a5; k8; a7");
    assert!(s.outcome.is_none(), "four are not enough");
    play(&g, &mut s, "l8");
    assert_eq!(winners(&g, &s), ["black"]);
    // Up a diagonal for white, a1-e5, completed in its middle.
    let mut s = g.start();
    play(&g, &mut s, "o15; a1; o13; b2; o11; d4; o9; e5; n1");
    assert!(s.outcome.is_none());
    play(&g, &mut s, "c3");
    assert_eq!(winners(&g, &s), ["white"]);
}

#[test]
fn an_overline_wins_only_in_freestyle() {
    // Black makes six, c8-h8, by filling e8 between c8 d8 and f8 g8 h8.
    let plies = "c8; a1; d8; a3; f8; a5; g8; a7; h8; a9";
    for (exact, won) in [(false, true), (true, false)] {
        let g = gomoku(exact);
        let mut s = g.start();
        play(&g, &mut s, plies);
        assert!(s.outcome.is_none());
        play(&g, &mut s, "e8");
        assert_eq!(s.outcome.is_some(), won, "exact_five = {exact}");
        if won {
            assert_eq!(winners(&g, &s), ["black"]);
        }
    }
    // With exact_five, a stone that makes six one way and exactly five another wins.
    let g = gomoku(true);
    let mut s = g.start();
    play(
        &g,
        &mut s,
        &format!("{plies}; e4; o15; e5; o13; e6; o11; e7; o9"),
    );
    assert!(s.outcome.is_none());
    play(&g, &mut s, "e8");
    assert_eq!(winners(&g, &s), ["black"]);
}

#[test]
fn a_full_board_without_five_is_a_draw() {
    // Stripes two points wide, shifted by one on each rank: no five anywhere. Black's
    // h8 is the last empty point.
    let g = gomoku(false);
    let mut lines = Vec::new();
    for rank in (0..15).rev() {
        let row: Vec<&str> = (0..15)
            .map(|file| {
                if (file, rank) == (7, 7) {
                    "."
                } else if (file / 2 + rank) % 2 == 0 {
                    "X"
                } else {
                    "O"
                }
            })
            .collect();
        lines.push(row.join(" "));
    }
    lines.push("to_move = black".into());
    let mut s = rulebook::record::diagram::read(&g, &lines.join(" / ")).expect("a diagram");
    assert_eq!(legal(&g, &s), ["h8"]);
    play(&g, &mut s, "h8");
    assert_eq!(winners(&g, &s), Vec::<String>::new(), "a draw");
}
