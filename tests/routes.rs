//! The way random plies are drawn (`engine::draw`): `auto` lists an action's plies where
//! drawing its candidates would mostly refuse them, and draws the rest; `bench --draw`
//! shows each way. That the plies and their chances are the same whichever way is
//! `properties::drawn_plies_are_uniform_whatever_the_route_of_each_action`'s and the
//! generated files' of `actions`.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rulebook::cli::perft;
use rulebook::engine::game::{Draw, Game};

use crate::common::{self, game, rulebook, shipped_games, stdout, test_game};

/// English draughts with its capture chain as six optional parts and a test
/// (`tests/games/draughts_optional.toml`): the shape of file no fast path knows.
const OPTIONAL: &str = "draughts_optional";

/// The names of the actions `auto` lists in `g`.
fn listed(g: &Game) -> Vec<String> {
    g.actions
        .iter()
        .zip(g.listed_actions())
        .filter(|(_, listed)| **listed)
        .map(|(a, _)| a.name.clone())
        .collect()
}

#[test]
fn draughts_written_with_optional_parts_counts_what_the_repeated_part_counts() {
    // The published counts from the start (1 to 6 plies: 7, 49, 302, 1469, 7361, 36768),
    // which `draughts` checks against; the chains within them are short.
    let (optional, repeated) = (test_game(OPTIONAL), game("draughts", &[]));
    let (a, b) = (optional.start(), repeated.start());
    for depth in 1..=6 {
        assert_eq!(
            perft(&optional, &a, depth),
            perft(&repeated, &b, depth),
            "depth {depth}"
        );
    }
}

#[test]
fn auto_lists_the_actions_whose_candidates_a_draw_would_mostly_refuse() {
    // The capture of optional parts numbers a chain of six parts of four directions
    // each, a few of them possible: listed. Its simple moves, a fallback, are not.
    assert_eq!(listed(&test_game(OPTIONAL)), ["capture"]);
    // In the library, Nine Men's Morris's placements and moves, whose optional removal
    // is mostly refused (it needs a mill), are listed: 36% more random games a second
    // than drawn, 20% more than listing every ply (docs/performance.md, "2026-11-28
    // (fourth)"). Quoridor's jump, a direction from the pawn that needs the other pawn
    // next to it, is listed too. Every other game is drawn, its random games what they
    // were before.
    for name in shipped_games() {
        let expected: &[&str] = match name.as_str() {
            "morris" => &["place", "move"],
            "quoridor" => &["jump"],
            _ => &[],
        };
        assert_eq!(listed(&game(name, &[])), expected, "{name}");
    }
}

#[test]
fn a_seed_plays_the_same_game_whatever_the_draws_measured_before() {
    // `auto` measures the game with seeds of its own, once: a game cloned after it and a
    // game loaded afresh play the same seeded playouts, listed capture and all.
    let fresh = test_game(OPTIONAL);
    let measured = test_game(OPTIONAL);
    let _ = measured.listed_actions();
    let warm = measured.clone();
    for seed in 0..4 {
        let (mut a, mut b) = (fresh.start(), warm.start());
        let mut ra = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut rb = Xoshiro256PlusPlus::seed_from_u64(seed);
        assert_eq!(
            fresh.playout(&mut a, &mut ra, 400),
            warm.playout(&mut b, &mut rb, 400)
        );
        assert_eq!(a, b, "seed {seed}");
    }
    // Listing every ply is a route of its own: the same game ends alike drawn either way
    // only by chance, but it ends, and legally (`properties` checks its chances).
    let mut listing = test_game(OPTIONAL);
    listing.draw = Draw::List;
    let mut s = listing.start();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0);
    listing.playout(&mut s, &mut rng, 1000);
    assert!(s.outcome.is_some());
}

#[test]
fn bench_says_how_it_drew_and_draws_each_way_asked() {
    let path = format!("{}/tests/games/{OPTIONAL}.toml", env!("CARGO_MANIFEST_DIR"));
    // The simple moves are a fallback, walked only where no capture is legal: neither
    // drawn nor named. Draughts' own capture, a repeated part, is listed whatever the way.
    let draughts = common::game_path("draughts");
    let cases = [
        (&path, "auto", "draw auto (plies listed for `capture`)"),
        (
            &path,
            "sample",
            "draw sample (candidates drawn for every action)",
        ),
        (
            &path,
            "list",
            "draw list (every legal ply listed, one picked)",
        ),
        (
            &draughts,
            "sample",
            "draw sample (plies listed for `capture`)",
        ),
    ];
    for (path, draw, said) in cases {
        let out = rulebook()
            .args(["bench", path, "--playouts", "2", "--draw", draw])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", common::stderr(&out));
        let text = stdout(&out);
        assert!(text.lines().any(|l| l == said), "{draw}: {text}");
    }
    let dir = common::Scratch::new("bench-draw");
    let json = dir.join("bench.json");
    let out = rulebook()
        .args([
            "bench",
            &common::game_path("chess"),
            "--playouts",
            "1",
            "--json",
        ])
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    let figures: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(figures["draw"], "auto");
    assert_eq!(figures["listed_actions"], serde_json::json!([]));
}

/// `runaways::CHAINS` (a repeated part of two choices a play, nothing to bound them) with
/// a `tick` before it: the part runs away only once two ticks were played, which the
/// positions `auto` measures reach and the start does not.
fn late_runaway() -> String {
    crate::runaways::CHAINS
        .replace(
            "plays = 0\n",
            "plays = 0\nticks = 0\n[[actions]]\nname = \"tick\"\n\
             choose = ['where ticks < 100']\neffect = 'ticks = ticks + 1'\nnotation = 'tick'\n",
        )
        .replace(
            "choose = ['from in cells where owner(from) == me']",
            "choose = ['where ticks >= 2', 'from in cells where owner(from) == me']",
        )
}

#[test]
fn the_measure_before_the_first_draw_leaves_the_game_whole_where_its_games_run_away() {
    // The measure plays its games on a copy: a walk that runs away there ends the measure
    // and says nothing of the game a user plays, whose draws from the start go on.
    let g = common::game_of(&late_runaway());
    let _ = g.listed_actions();
    assert!(g.runaway().is_none());
    let mut s = g.start();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0);
    let ply = g.random_ply(&mut s, &mut rng).expect("a tick");
    assert_eq!(g.notation(&s, &ply), "tick");
    assert!(g.runaway().is_none());
    // Where the user's own game reaches it, it is said as before.
    g.play(&mut s, &ply);
    g.play(&mut s, &ply);
    let _ = g.legal_plies(&s);
    assert!(g.runaway().is_some());
}
