//! Havannah (`games/havannah.toml`): perft and seeded games against the independent
//! reference (`reference/havannah.rs`, written from `docs/rules/havannah.md` only; no
//! perft is published: with nothing to win before a player's sixth stone, the first ten
//! depths only count placements), and games that pin each way to win.

use rulebook::engine::game::Game;
use rulebook::engine::state::State;
use serde_json::json;

use crate::common::{game, legal, play};
use crate::reference::havannah::Havannah;
use crate::traces::{check_seeds, compare_perft, compare_perft_midgame};

fn havannah(base: usize, swap: bool) -> Game {
    game(
        "havannah",
        &[("base", &base.to_string()), ("swap", &swap.to_string())],
    )
}

fn winners(g: &Game, s: &State) -> Option<Vec<String>> {
    let outcome = s.outcome.as_ref()?;
    Some(
        outcome
            .winners
            .iter()
            .map(|&w| g.players[w as usize].clone())
            .collect(),
    )
}

#[test]
fn havannah_perft_matches_reference() {
    // 169 cells; black's first move is any of the 168 left or the swap.
    let counts = compare_perft("havannah", &havannah(8, true), &Havannah::new(8, true), 3);
    assert_eq!(counts, [169, 169 * 169, 169 * 168 * 168]);
    let counts = compare_perft(
        "havannah 4",
        &havannah(4, false),
        &Havannah::new(4, false),
        3,
    );
    assert_eq!(counts, [37, 37 * 36, 37 * 36 * 35]);
}

#[test]
fn havannah_traces_match_reference() {
    for (base, swap, games) in [(4, false, 80), (5, true, 60), (8, true, 20)] {
        check_seeds(
            &format!("havannah {base}"),
            "havannah",
            &havannah(base, swap),
            0..games,
            || Havannah::new(base, swap),
            json!({ "base": base, "swap": swap }),
        );
    }
}

/// Perft 1 and 2 late in games of the smallest board, where most plies end the game.
#[test]
fn havannah_midgame_perft_matches_reference() {
    let n = compare_perft_midgame(
        "havannah 4",
        &havannah(4, false),
        || Havannah::new(4, false),
        0..12,
        &[8, 12, 16, 20, 24],
        2,
    );
    assert!(n >= 20, "too few positions: {n}");
}

/// Rule 5's ring: six stones around a cell win, whether the cell is empty, holds the
/// opponent's stone or the player's own; six that leave a gap do not.
#[test]
fn a_ring_goes_around_any_cell() {
    let g = havannah(4, false);
    // Around the empty d4 (black plays on the lower left meanwhile).
    let mut s = g.start();
    play(&g, &mut s, "d5; a2; e5; a3; e4; b1; d3; c1; c3; f6");
    assert_eq!(winners(&g, &s), None);
    play(&g, &mut s, "c4");
    assert_eq!(winners(&g, &s).unwrap(), ["white"]);
    // Around black's d4.
    let mut s = g.start();
    play(&g, &mut s, "d5; d4; e5; a2; e4; a3; d3; b1; c3; c1; c4");
    assert_eq!(winners(&g, &s).unwrap(), ["white"]);
    // Around white's own d4: seven stones, no empty cell inside.
    let mut s = g.start();
    play(&g, &mut s, "d4; a2; d5; a3; e5; b1; e4; c1; d3; f6; c3; g5");
    assert_eq!(winners(&g, &s), None);
    play(&g, &mut s, "c4");
    assert_eq!(winners(&g, &s).unwrap(), ["white"]);
    // Five of the six, and a stone beyond the gap: no ring.
    let mut s = g.start();
    play(&g, &mut s, "d5; a2; e5; a3; e4; b1; d3; c1; c3; f6; b3");
    assert_eq!(winners(&g, &s), None);
}

/// Rule 5's bridge joins two corners; the fork, three sides, a corner being on none.
#[test]
fn bridges_join_corners_and_forks_join_sides_without_corners() {
    let g = havannah(4, false);
    // a1 and d1 are corners of the bottom side.
    let mut s = g.start();
    play(&g, &mut s, "a1; e5; b1; e6; c1; f5");
    assert_eq!(winners(&g, &s), None);
    play(&g, &mut s, "d1");
    assert_eq!(winners(&g, &s).unwrap(), ["white"]);
    // b1 (bottom), a2 and a3 (left), the corner a4: two sides and a corner, no fork...
    let mut s = g.start();
    play(&g, &mut s, "b1; e5; b2; e6; a2; f5; a3; f6; a4; e4");
    assert_eq!(winners(&g, &s), None);
    // ... and b5 is on the upper left side: three sides.
    play(&g, &mut s, "b5");
    assert_eq!(winners(&g, &s).unwrap(), ["white"]);
}

/// Rule 3: the swap, black's first move only, turns white's stone black; white moves.
#[test]
fn the_swap_takes_the_first_stone() {
    let g = havannah(8, true);
    let mut s = g.start();
    play(&g, &mut s, "h8");
    assert!(legal(&g, &s).contains(&"swap".to_string()));
    play(&g, &mut s, "swap");
    let h8 = &s.stacks()[g.board.find("h8").unwrap() as usize];
    assert_eq!(h8[0].owner, crate::common::seat(&g, "black"));
    assert_eq!(g.players[s.to_move as usize], "white");
    assert!(!legal(&g, &s).contains(&"swap".to_string()));
    let g = havannah(8, false);
    let mut s = g.start();
    play(&g, &mut s, "h8");
    assert!(!legal(&g, &s).contains(&"swap".to_string()));
}
