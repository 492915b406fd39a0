//! Fanorona (`games/fanorona.toml`): perft and seeded games against the independent
//! reference (`reference/fanorona.rs`, written from `docs/rules/fanorona.md` only), and
//! positions that pin the captures, their choice and paika.

use rulebook::engine::game::Game;
use rulebook::engine::state::State;
use rulebook::record::diagram;
use serde_json::json;

use crate::common::{game, height, legal, play};
use crate::reference::fanorona::Fanorona;
use crate::traces::{check_seeds, compare_perft, compare_perft_midgame};

fn fanorona() -> Game {
    game("fanorona", &[])
}

fn at(g: &Game, text: &str) -> State {
    diagram::read(g, text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn fanorona_perft_matches_reference() {
    let counts = compare_perft("fanorona", &fanorona(), &Fanorona::new(), 3);
    assert_eq!(counts[0], 5, "white's five opening captures");
}

#[test]
fn fanorona_traces_match_reference() {
    check_seeds(
        "fanorona",
        "fanorona",
        &fanorona(),
        0..60,
        Fanorona::new,
        json!({}),
    );
}

#[test]
fn fanorona_midgame_perft_matches_reference() {
    let n = compare_perft_midgame(
        "fanorona",
        &fanorona(),
        Fanorona::new,
        0..8,
        &[4, 10, 20, 40],
        2,
    );
    assert!(n >= 16, "too few positions: {n}");
}

/// Rules 4 and 5: the opening moves all go to the centre; d3 may take by approach (f3)
/// or by withdrawal (c3); an approach takes the whole line (e4 and e5).
#[test]
fn the_opening_captures_approach_or_withdraw_a_whole_line() {
    let g = fanorona();
    let s = g.start();
    assert_eq!(
        legal(&g, &s),
        ["d2-e3A", "d3-e3A", "d3-e3W", "e2-e3A", "f2-e3A"]
    );
    let mut s = g.start();
    play(&g, &mut s, "e2-e3A");
    assert_eq!(height(&g, &s, "e4"), 0);
    assert_eq!(height(&g, &s, "e5"), 0);
    let mut s = g.start();
    play(&g, &mut s, "d3-e3W");
    assert_eq!(height(&g, &s, "c3"), 0);
    assert_eq!(height(&g, &s, "b3"), 1, "the line stops at white's b3");
    assert_eq!(height(&g, &s, "f3"), 1, "a withdrawal leaves f3");
}

/// Rule 7: paika only when no capture exists; a diagonal only from an even point.
#[test]
fn paika_only_without_a_capture() {
    let g = fanorona();
    let empty = ". . . . . . . . . / . . . . . . . . . / . . . . . . . . . / \
                 . . . . . . . . . / . . . . . . . . .";
    let lone = |cells: &[(usize, usize, &str)]| {
        let mut rows: Vec<Vec<&str>> = empty
            .split('/')
            .map(|r| r.split_whitespace().collect())
            .collect();
        for &(f, r, p) in cells {
            rows[5 - r][f - 1] = p;
        }
        let text: Vec<String> = rows.iter().map(|r| r.join(" ")).collect();
        at(&g, &text.join(" / "))
    };
    let s = lone(&[(1, 1, "W"), (9, 5, "B")]);
    assert_eq!(legal(&g, &s), ["a1-a2", "a1-b1", "a1-b2"]);
    let s = lone(&[(2, 1, "W"), (9, 5, "B")]);
    assert_eq!(legal(&g, &s), ["b1-a1", "b1-b2", "b1-c1"]);
    let s = lone(&[(1, 1, "W"), (3, 3, "B"), (9, 5, "B")]);
    assert_eq!(legal(&g, &s), ["a1-b2A"]);
}

/// Rule 6: a chain never repeats its last direction nor comes back to a point; the
/// player may stop after any capture.
#[test]
fn a_chain_turns_and_never_comes_back() {
    let g = fanorona();
    // White c1; black e1, e3 and c4. c1-d1 takes e1 by approach, and d1 (no diagonals)
    // can go on neither east again nor back west to c1. c1-d2 takes e3 by approach; from
    // d2, the step north-west to c3 takes e1 by withdrawal, and from c3 the step south to
    // c2 takes c4 by withdrawal; from c2, north and east lead back to points it stood on.
    let s = at(
        &g,
        ". . . . . . . . . / . . B . . . . . . / . . . . B . . . . / \
         . . . . . . . . . / . . W . B . . . .",
    );
    assert_eq!(
        legal(&g, &s),
        ["c1-d1A", "c1-d2A", "c1-d2A-c3W", "c1-d2A-c3W-c2W"]
    );
    // White c2; black e2 and f4: c2-d2 takes e2 by approach, then d2-e3 (north-east)
    // takes f4 by approach.
    let s = at(
        &g,
        ". . . . . . . . . / . . . . . B . . . / . . . . . . . . . / \
         . . W . B . . . . / . . . . . . . . .",
    );
    assert_eq!(legal(&g, &s), ["c2-d2A", "c2-d2A-e3A"]);
}
