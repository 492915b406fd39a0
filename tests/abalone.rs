//! Abalone (`games/abalone.toml`): perft from the start (44 at depth 1, the published
//! count; deeper, the independent reference `reference/abalone.rs`, written from
//! `docs/rules/abalone.md` only), seeded random games replayed in the reference (every
//! game ends with marbles pushed off), perft from positions in play, and hand-made
//! positions that pin the push and the push off the edge.

use rulebook::cli::perft_exact;
use rulebook::engine::game::Game;
use rulebook::engine::state::State;
use serde_json::json;

use crate::common::{self, clear_board, legal, play, seat, set_stack};
use crate::reference::abalone::Abalone;
use crate::reference::{GameResult, Reference, perft};
use crate::traces::{check_seeds, compare_perft_midgame};

fn abalone(params: &[(&str, &str)]) -> Game {
    common::game("abalone", params)
}

#[test]
fn abalone_perft_matches_the_published_count_and_the_reference() {
    let g = abalone(&[]);
    let s = g.start();
    assert_eq!(perft_exact(&g, &s, 1), 44, "the published count");
    let reference = Abalone::new(6);
    for depth in 1..=3 {
        assert_eq!(
            perft_exact(&g, &s, depth),
            perft(&reference, depth),
            "depth {depth}"
        );
    }
    // No ply of the first two reaches the other side: 44 x 44.
    assert_eq!(perft_exact(&g, &s, 2), 1_936);
    assert_eq!(perft_exact(&g, &s, 3), 98_912);
}

/// Depth 4, 5,045,110 (some seconds):
/// `cargo test --release --test main abalone_deep_perft -- --ignored`.
#[test]
#[ignore]
fn abalone_deep_perft_matches_the_reference() {
    let g = abalone(&[]);
    let reference = Abalone::new(6);
    assert_eq!(perft(&reference, 4), 5_045_110);
    assert_eq!(perft_exact(&g, &g.start(), 4), 5_045_110);
}

/// Random games replayed in the reference: every legal list, the player to move, and
/// the winner; each game ends with six marbles pushed off, so every trace holds pushes
/// off the edge.
#[test]
fn abalone_traces_match_reference() {
    check_seeds(
        "abalone",
        "abalone",
        &abalone(&[]),
        0..6,
        || Abalone::new(6),
        json!({"to_win": 6}),
    );
}

/// With `to_win = 1` the first marble pushed off ends the game: many short games.
#[test]
fn abalone_traces_with_one_marble_to_win_match_reference() {
    let g = abalone(&[("to_win", "1")]);
    check_seeds(
        "abalone to_win=1",
        "abalone",
        &g,
        0..20,
        || Abalone::new(1),
        json!({"to_win": 1}),
    );
}

/// Perft to depth 2 from positions in play, late ones included (marbles already off).
#[test]
fn abalone_midgame_perft_matches_reference() {
    let n = compare_perft_midgame(
        "abalone",
        &abalone(&[]),
        || Abalone::new(6),
        0..3,
        &[10, 100, 400, 800, 1200],
        2,
    );
    assert!(n >= 10, "too few positions: {n}");
}

/// Random games end by the rules, the winner having pushed six marbles off.
#[test]
fn random_games_end_with_six_marbles_off() {
    let g = abalone(&[]);
    for seed in 0..3 {
        let mut pos = Abalone::new(6);
        for text in common::trace_moves(&g, "abalone", seed) {
            pos.play(&text)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
        let Some(GameResult::Win(winner)) = pos.result else {
            panic!("seed {seed}: no winner\n{}", pos.render());
        };
        let (w, l) = if winner == "black" { (0, 1) } else { (1, 0) };
        assert_eq!(pos.taken[w], 6, "seed {seed}");
        assert_eq!(pos.marbles(l), 8, "seed {seed}");
    }
}

/// A position built on an empty board in both the engine and the reference, black to
/// move.
fn position(g: &Game, black: &[&str], white: &[&str]) -> (State, Abalone) {
    let mut s = g.start();
    clear_board(&mut s);
    let mut pos = Abalone::empty(6);
    for (cells, player) in [(black, "black"), (white, "white")] {
        for &cell in cells {
            set_stack(g, &mut s, cell, &[("marble", player)]);
            pos.put(cell, usize::from(player == "white"));
        }
    }
    (s, pos)
}

/// The owner of each cell's marble, by name ("" for an empty cell).
fn owner(g: &Game, s: &State, cell: &str) -> String {
    let stack = &s.stacks()[g.board.find(cell).expect("a cell") as usize];
    stack
        .last()
        .map_or(String::new(), |p| g.players[p.owner as usize].clone())
}

/// Sumito (rule 5): three push two and one, two push one, one pushes nothing, and a
/// push needs an empty cell or the edge behind the opposing marbles.
#[test]
fn more_marbles_push_fewer_and_the_edge_takes_the_front_one() {
    let g = abalone(&[]);
    // Along row e: black e1-e3, white e4-e5, then e6 empty: three push two.
    // Along row c: black c1-c2, white c3, then black c4: blocked by my own marble.
    // Along diagonal 9: black g9 h9 (h9 is the row h end), white i9 at the edge: two
    // push it off.
    let (mut s, mut pos) = position(
        &g,
        &["e1", "e2", "e3", "c1", "c2", "c4", "g9", "h9"],
        &["e4", "e5", "c3", "i9", "a5"],
    );
    assert_eq!(legal(&g, &s), pos.legal());
    assert!(pos.legal().contains(&"e1e2".into()), "three push two");
    assert!(!pos.legal().contains(&"c1c2".into()), "blocked behind");
    assert!(pos.legal().contains(&"g9h9".into()), "two push one off");
    play(&g, &mut s, "e1e2");
    pos.play("e1e2").unwrap();
    for (cell, who) in [
        ("e1", ""),
        ("e2", "black"),
        ("e4", "black"),
        ("e5", "white"),
    ] {
        assert_eq!(owner(&g, &s, cell), who, "{cell}");
    }
    assert_eq!(owner(&g, &s, "e6"), "white");
    assert_eq!(legal(&g, &s), pos.legal());
    play(&g, &mut s, "a5b5");
    pos.play("a5b5").unwrap();
    // Two push the white i9 past the edge: it is gone, black has one.
    let occupied = s.stacks().iter().filter(|st| !st.is_empty()).count();
    play(&g, &mut s, "g9h9");
    pos.play("g9h9").unwrap();
    assert_eq!(owner(&g, &s, "i9"), "black");
    assert_eq!(owner(&g, &s, "h9"), "black");
    assert_eq!(owner(&g, &s, "g9"), "");
    assert_eq!(
        s.stacks().iter().filter(|st| !st.is_empty()).count(),
        occupied - 1
    );
    assert_eq!(pos.taken, [1, 0]);
    assert_eq!(legal(&g, &s), pos.legal());
    assert!(s.outcome.is_none());
}

/// Rule 7 with `to_win = 1`: the push off the edge ends the game at once.
#[test]
fn pushing_the_last_needed_marble_off_wins() {
    let g = abalone(&[("to_win", "1")]);
    let (mut s, _) = position(&g, &["g9", "h9"], &["i9", "a1"]);
    play(&g, &mut s, "g9h9");
    let outcome = s.outcome.as_ref().expect("over");
    assert_eq!(outcome.winners, [seat(&g, "black")]);
}

/// Rule 6: a broadside move needs every cell ahead empty; rule 4: one marble alone, or
/// a line of four, pushes nothing; my own line cannot leave the board.
#[test]
fn broadside_moves_push_nothing_and_four_do_not_move_in_line() {
    let g = abalone(&[]);
    let (s, pos) = position(
        &g,
        &["e2", "e3", "e4", "e5", "a1", "b1"],
        &["f3", "d5", "b2"],
    );
    let list = legal(&g, &s);
    assert_eq!(list, pos.legal());
    assert!(!list.contains(&"e2e3".into()), "four in line do not move");
    assert!(list.contains(&"e3e4".into()), "the front three do");
    assert!(!list.contains(&"e2e4f2".into()), "f3 is in the way");
    assert!(list.contains(&"e2e4d2".into()));
    assert!(list.contains(&"a1b1".into()), "two in line move together");
    assert!(!list.contains(&"b1a1".into()), "a1 is mine");
    assert!(!list.contains(&"b1b2".into()), "one does not push one");
}
