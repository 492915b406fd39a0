//! Nine Men's Morris: the interpreter against the independent reference
//! (`reference/morris.rs`, written from `docs/rules/morris.md` only). Seeded self-play
//! traces are replayed ply by ply (legal lists, players, results), perft counts are
//! compared from the start and from positions reached in self-play, and those games are
//! checked to exercise every rule (flights, removals, mills in either phase, both ways
//! of losing).

use std::collections::BTreeMap;

use rulebook::engine::game::Game;
use serde_json::json;

use crate::common;
use crate::common::trace_moves;
use crate::reference::morris::{LINES, Morris, PLAYERS, adjacent, at};
use crate::reference::{GameResult, Reference};
use crate::traces::{check_seeds, compare_perft, compare_perft_midgame, list_diff};

/// The seeds whose self-play games are replayed in the reference.
const SEEDS: std::ops::Range<u64> = 0..120;

fn morris() -> Game {
    common::game("morris", &[])
}

#[test]
fn morris_traces_match_reference() {
    check_seeds("morris", "morris", &morris(), SEEDS, Morris::new, json!({}));
}

/// morris.md, "Facts": no mill can be formed before white's third man, so the first four
/// plies are every way to fill four points; at depth 5 the first mills remove a man.
#[test]
fn morris_perft_matches_reference() {
    let counts = compare_perft("morris", &morris(), &Morris::new(), 5);
    let quiet = [24, 24 * 23, 24 * 23 * 22, 24 * 23 * 22 * 21];
    assert_eq!(counts[..4], quiet);
    assert_eq!(counts[4], 5_140_800);
}

/// Perft from positions reached in self-play: late in the placement, at its end (the
/// 18th ply), and in the movement, where flights and removals from mills occur.
#[test]
fn morris_midgame_perft_matches_reference() {
    let n = compare_perft_midgame(
        "morris",
        &morris(),
        Morris::new,
        0..24,
        &[12, 17, 18, 24, 40, 60, 90],
        2,
    );
    assert!(n >= 100, "too few morris positions: {n}");
}

/// The games replayed above are not all alike: along them, the reference sees flights,
/// removals from a mill (every opposing man in one), two mills formed by one man, mills
/// formed while placing and while moving, and games lost with two men (rules 6-10). A
/// blocked player (rule 11) is rare in random play: see the next test.
#[test]
fn self_play_exercises_every_rule() {
    let game = morris();
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for seed in SEEDS {
        let mut pos = Morris::new();
        for text in trace_moves(&game, "morris", seed) {
            let ply = pos
                .moves()
                .into_iter()
                .find(|m| pos.notation(m) == text)
                .unwrap_or_else(|| panic!("seed {seed}: {text} is not legal in the reference"));
            if let Some(from) = ply.from
                && !adjacent(from).contains(&ply.to)
            {
                *seen.entry("flight").or_default() += 1;
            }
            if let Some(r) = ply.remove {
                let phase = if ply.from.is_some() {
                    "mill moving"
                } else {
                    "mill placing"
                };
                *seen.entry(phase).or_default() += 1;
                if pos.in_mill(r) {
                    *seen.entry("removal from a mill").or_default() += 1;
                }
            }
            let mover = pos.to_move;
            pos.apply(&ply);
            let mills = LINES
                .iter()
                .filter(|l| l.iter().all(|p| pos.board[at(p)] == Some(mover)))
                .filter(|l| l.iter().any(|p| at(p) == ply.to))
                .count();
            if mills == 2 {
                *seen.entry("two mills at once").or_default() += 1;
            }
        }
        if let Some(GameResult::Win(winner)) = &pos.result {
            let loser = usize::from(*winner == PLAYERS[0]);
            let ending = if pos.hand[loser] == 0 && pos.men(loser) < 3 {
                "lost with two men"
            } else {
                "lost without a move"
            };
            *seen.entry(ending).or_default() += 1;
        }
    }
    eprintln!("morris self-play: {seen:?}");
    for what in [
        "flight",
        "mill placing",
        "mill moving",
        "removal from a mill",
        "two mills at once",
        "lost with two men",
    ] {
        assert!(
            seen.contains_key(what),
            "no {what} in {} games: {seen:?}",
            SEEDS.end
        );
    }
}

/// morris.md, "Facts", in the interpreter: a mill while placing removes either of the
/// two black men, neither of which stands in a mill.
#[test]
fn a_placed_mill_removes_a_man_in_the_same_ply() {
    let g = morris();
    let mut state = g.start();
    common::play(&g, &mut state, "a1; a4; d1; b4");
    let legal = common::legal(&g, &state);
    assert!(legal.contains(&"g1xa4".to_string()) && legal.contains(&"g1xb4".to_string()));
    assert!(!legal.contains(&"g1".to_string()), "a mill must remove");
    assert_eq!(
        legal.len(),
        19 + 2,
        "19 quiet placements and the mill's two"
    );
    common::play(&g, &mut state, "g1xb4");
    assert_eq!(common::height(&g, &state, "b4"), 0);
    assert_eq!(state.to_move, 1, "one ply: black to move");
}

/// Random games end by a reduction to two men; these two end with a player blocked
/// (rule 11), found by a search in which white played to leave black the fewest steps
/// (the second blocked white instead). Every ply's legal list and the result are compared
/// with the reference.
#[test]
fn blocked_players_lose_as_in_the_reference() {
    let games = [
        // Black blocked by white's first move.
        (
            "black",
            "d3; c4; b4; e4; e3; b2; c3xe4; c5; d2; d5; d6; d7; d1xd7; b6; e5; e4; f4; f2; d1-a1",
        ),
        // White blocked as the placement ends, before moving at all.
        (
            "white",
            "a7; g1; g4; d6; b6; f4; f6; b4; b2; g7; d7; f2; d2; a1; a4; c5; d1; d3",
        ),
    ];
    let g = morris();
    for (loser, plies) in games {
        let mut state = g.start();
        let mut pos = Morris::new();
        for text in plies.split("; ") {
            let (engine, reference) = (common::legal(&g, &state), pos.legal());
            assert_eq!(
                engine,
                reference,
                "before {text}: {}",
                list_diff(&engine, &reference)
            );
            common::play(&g, &mut state, text);
            pos.play(text).unwrap_or_else(|e| panic!("{e}"));
        }
        let winner = if loser == "white" { "black" } else { "white" };
        assert_eq!(
            pos.result,
            Some(GameResult::Win(winner)),
            "{}",
            pos.render()
        );
        let outcome = state.outcome.as_ref().expect("the game is over");
        assert_eq!(
            outcome.winners,
            [g.players.iter().position(|p| p == winner).unwrap() as u8]
        );
        let blocked = usize::from(loser == "black");
        assert!(
            pos.men(blocked) >= 3,
            "{loser} lost by being blocked, not reduced"
        );
        assert!(common::legal(&g, &state).is_empty());
    }
}
