//! VLKNO and Sight: the interpreter against the independent references
//! (`reference/vlkno.rs`, `reference/sight.rs`, written from `docs/rules/` only).
//! Seeded self-play traces are replayed ply by ply (legal lists, players, results), and
//! perft counts are compared from the start and from positions reached in self-play, with
//! each game's variant switch both ways.

use rulebook::engine::game::Game;
use serde_json::json;

use crate::common::{self, trace_moves};
use crate::reference::Reference;
use crate::reference::sight::Sight;
use crate::reference::vlkno::Vlkno;
use crate::traces::{check_seeds, compare_perft, compare_perft_midgame};

/// VLKNO as the game file compiles it, with the rule 6 variant switch set.
fn vlkno(put_back: bool) -> Game {
    common::game(
        "vlkno",
        &[("put_back", if put_back { "true" } else { "false" })],
    )
}

/// Sight as the game file compiles it, with the rule 8 variant switch set.
fn sight(strict: bool) -> Game {
    common::game(
        "sight",
        &[("strict_priority", if strict { "true" } else { "false" })],
    )
}

/// The default reading (rule 6: no put-back): random games end on their own.
#[test]
fn vlkno_traces_match_reference() {
    check_seeds(
        "vlkno",
        "vlkno",
        &vlkno(false),
        0..50,
        || Vlkno::new(false),
        json!({"put_back": false}),
    );
}

/// The put-back variant: games may shuffle forever, so the file's ply cap (if any) ends
/// some of them, and the replay checks the cap is reported at exactly that ply.
#[test]
fn vlkno_put_back_traces_match_reference() {
    check_seeds(
        "vlkno put_back",
        "vlkno",
        &vlkno(true),
        0..16,
        || Vlkno::new(true),
        json!({"put_back": true}),
    );
}

/// Default reading of rule 8: fall through to the highest stacks that can move.
#[test]
fn sight_traces_match_reference() {
    check_seeds(
        "sight",
        "sight",
        &sight(false),
        0..600,
        || Sight::new(false),
        json!({"strict_priority": false}),
    );
}

/// Strict rule 8: a player whose highest stacks are all blocked has no action and loses.
#[test]
fn sight_strict_traces_match_reference() {
    check_seeds(
        "sight strict",
        "sight",
        &sight(true),
        0..600,
        || Sight::new(true),
        json!({"strict_priority": true}),
    );
}

/// Perft from the start. vlkno.md, "Facts": 2280 turns at the start, 4,223,016 at depth 2.
#[test]
fn vlkno_perft_matches_reference() {
    for put_back in [false, true] {
        let label = if put_back { "vlkno put_back" } else { "vlkno" };
        // Depth 2 (4 s of engine time) for the default reading only: put_back cannot matter
        // in the first two turns, as every stack taken from is a shortest one, of height 1.
        let depth = if put_back { 1 } else { 2 };
        let counts = compare_perft(label, &vlkno(put_back), &Vlkno::new(put_back), depth);
        assert_eq!(counts[0], 2280, "{label} perft(1)");
        if !put_back {
            // vlkno.md, "More facts".
            assert_eq!(counts[1], 4_223_016, "{label} perft(2)");
        }
    }
}

/// Perft from the start. sight.md, "Facts": 25 placements for white at the start.
#[test]
fn sight_perft_matches_reference() {
    for strict in [false, true] {
        let label = if strict { "sight strict" } else { "sight" };
        let counts = compare_perft(label, &sight(strict), &Sight::new(strict), 4);
        assert_eq!(counts[0], 25, "{label} perft(1)");
        // No stack can exist after one placement: 24 answers to each.
        assert_eq!(counts[1], 25 * 24, "{label} perft(2)");
    }
}

/// Perft from positions reached in self-play, where stacks, lava and blocked pawns occur.
#[test]
fn vlkno_sight_midgame_perft_matches_reference() {
    for put_back in [false, true] {
        let label = if put_back { "vlkno put_back" } else { "vlkno" };
        // Depth 1 early on (about 2000 turns a position), depth 2 once lava has spread.
        let early = compare_perft_midgame(
            label,
            &vlkno(put_back),
            || Vlkno::new(put_back),
            0..4,
            &[6, 14],
            1,
        );
        let late = compare_perft_midgame(
            label,
            &vlkno(put_back),
            || Vlkno::new(put_back),
            0..5,
            &[22, 30, 38],
            2,
        );
        assert!(
            early + late >= 8,
            "too few {label} positions: {early} + {late}"
        );
    }
    for strict in [false, true] {
        let n = compare_perft_midgame(
            if strict { "sight strict" } else { "sight" },
            &sight(strict),
            || Sight::new(strict),
            0..20,
            &[4, 8, 12, 16, 20],
            3,
        );
        assert!(n >= 40, "too few sight positions: {n}");
    }
}

/// The variant switches are exercised: along self-play traces of each variant, positions
/// occur where the reference's legal lists under the two readings differ (so the replays
/// above would catch an interpreter that ignored the switch).
#[test]
fn variant_switches_matter_in_self_play() {
    for put_back in [false, true] {
        let game = vlkno(put_back);
        let mut differ = 0;
        for seed in 0..20 {
            let mut pos = Vlkno::new(put_back);
            for m in trace_moves(&game, "vlkno", seed) {
                let mut other = pos.clone();
                other.put_back = !put_back;
                if other.legal() != pos.legal() {
                    differ += 1;
                }
                pos.play(&m)
                    .unwrap_or_else(|e| panic!("vlkno seed {seed}: {e}"));
            }
            // The final position too: a game can end because of the switch.
            let mut other = pos.clone();
            other.put_back = !put_back;
            other.result = None;
            if other.legal() != pos.legal() {
                differ += 1;
            }
        }
        eprintln!("vlkno put_back={put_back}: {differ} positions where put_back matters");
        assert!(
            differ > 0,
            "vlkno put_back={put_back}: the switch never matters"
        );
    }
    for strict in [false, true] {
        let game = sight(strict);
        let mut differ = 0;
        for seed in 0..200 {
            let mut pos = Sight::new(strict);
            for m in trace_moves(&game, "sight", seed) {
                let mut other = pos.clone();
                other.strict_priority = !strict;
                if other.legal() != pos.legal() {
                    differ += 1;
                }
                pos.play(&m)
                    .unwrap_or_else(|e| panic!("sight seed {seed}: {e}"));
            }
            // The final position too: under the strict reading a game ends when the
            // highest stacks are blocked and a lower one could still move.
            let mut other = pos.clone();
            other.strict_priority = !strict;
            other.result = None;
            if other.legal() != pos.legal() {
                differ += 1;
            }
        }
        eprintln!("sight strict={strict}: {differ} positions where strict_priority matters");
        assert!(
            differ > 0,
            "sight strict={strict}: the switch never matters"
        );
    }
}
