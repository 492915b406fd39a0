//! The interpreter against the independent reference implementations (`reference/`):
//! seeded self-play traces replayed ply by ply, and perft counts compared depth by depth.

use std::collections::BTreeMap;
use std::time::Instant;

use rulebook::cli::{perft, selfplay};
use rulebook::engine::game::Game;
use serde_json::{Value, json};

use crate::common;
use crate::reference::bounce::Bounce;
use crate::reference::staqs::Staqs;
use crate::reference::{self, Reference};

/// The ply cap put on Bounce self-play (an interpreter setting; Bounce has no draw rule).
const BOUNCE_CAP: u32 = 2000;

/// How one replayed game ended: the winners (or "draw", or "ply cap") and its length.
pub(crate) struct Replayed {
    pub(crate) ending: String,
    pub(crate) plies: usize,
    /// Plies whose only choices were forced ones (Bounce removals, STAQS passes).
    pub(crate) forced: usize,
}

/// What differs between two sorted lists, for failure messages.
pub(crate) fn list_diff(engine: &[String], reference: &[String]) -> String {
    let only_engine: Vec<&String> = engine.iter().filter(|m| !reference.contains(m)).collect();
    let only_reference: Vec<&String> = reference.iter().filter(|m| !engine.contains(m)).collect();
    format!(
        "only in the engine's list: {only_engine:?}\n  only in the reference's list: {only_reference:?}\n  \
         engine ({}): {engine:?}\n  reference ({}): {reference:?}",
        engine.len(),
        reference.len()
    )
}

fn strings(value: &Value) -> Option<Vec<String>> {
    value
        .as_array()?
        .iter()
        .map(|v| v.as_str().map(str::to_string))
        .collect()
}

/// Replays one trace in the reference; `Err` describes the first disagreement.
pub(crate) fn replay<R: Reference>(
    label: &str,
    seed: u64,
    trace: &[String],
    mut pos: R,
    params: &Value,
    cap: Option<u32>,
) -> Result<Replayed, String> {
    let at = |what: String| format!("{label} seed {seed}: {what}");
    let lines: Vec<Value> = trace
        .iter()
        .enumerate()
        .map(|(i, l)| {
            serde_json::from_str(l)
                .map_err(|e| at(format!("line {} is not JSON ({e}): {l}", i + 1)))
        })
        .collect::<Result<_, _>>()?;
    let Some((header, rest)) = lines.split_first() else {
        return Err(at("empty trace".into()));
    };

    // Header.
    let players: Vec<String> = pos.players().iter().map(|p| p.to_string()).collect();
    if strings(&header["players"]).as_ref() != Some(&players) {
        return Err(at(format!(
            "header players {} != reference {players:?}",
            header["players"]
        )));
    }
    if header["seed"] != json!(seed) {
        return Err(at(format!("header seed {} != {seed}", header["seed"])));
    }
    for (name, value) in params.as_object().expect("params is an object") {
        if &header["params"][name] != value {
            return Err(at(format!(
                "header param {name} = {} != {value}",
                header["params"][name]
            )));
        }
    }

    // Plies.
    let mut forced = 0;
    let Some((end, plies)) = rest.split_last() else {
        return Err(at("no end line".into()));
    };
    for (index, line) in plies.iter().enumerate() {
        let at = |what: String| {
            at(format!(
                "ply {index}: {what}\n  trace line: {line}\n  reference position:\n{}",
                pos.render()
            ))
        };
        if line["ply"] != json!(index) {
            return Err(at(format!("ply index {} != {index}", line["ply"])));
        }
        if let Some(result) = pos.result() {
            return Err(at(format!(
                "the reference game is over ({result:?}) but the trace goes on"
            )));
        }
        let player = line["player"].as_str().unwrap_or("<missing>");
        if player != pos.to_move() {
            return Err(at(format!(
                "player {player:?} != reference {:?}",
                pos.to_move()
            )));
        }
        let Some(legal) = strings(&line["legal"]) else {
            return Err(at("no legal list".into()));
        };
        let expected = pos.legal();
        if legal != expected {
            return Err(at(format!(
                "legal lists differ\n  {}",
                list_diff(&legal, &expected)
            )));
        }
        let Some(played) = line["move"].as_str() else {
            return Err(at("no move".into()));
        };
        if legal.iter().all(|m| m.starts_with('x') || m == "pass") {
            forced += 1;
        }
        if !legal.iter().any(|m| m == played) {
            return Err(at(format!("move {played:?} is not in the legal list")));
        }
        let before = pos.clone();
        if let Err(e) = pos.play(played) {
            return Err(format!(
                "{label} seed {seed}: ply {index}: the reference refuses {played:?}: {e}\n  \
                 reference position:\n{}",
                before.render()
            ));
        }
    }

    // End.
    let end_at = |what: String| {
        at(format!(
            "after {} plies: {what}\n  end line: {end}\n  reference position:\n{}",
            plies.len(),
            pos.render()
        ))
    };
    let Some(winners) = strings(&end["end"]["winners"]) else {
        return Err(end_at("the last line is not an end line".into()));
    };
    let reason = &end["end"]["reason"];
    let ending = match reason.as_str() {
        Some("ply cap") => {
            if let Some(result) = pos.result() {
                return Err(end_at(format!(
                    "ply cap reported but the reference game ended: {result:?}"
                )));
            }
            if cap.map(|c| c as usize) != Some(pos.plies()) {
                return Err(end_at(format!("ply cap reported, cap is {cap:?}")));
            }
            if !winners.is_empty() {
                return Err(end_at("ply cap with winners".into()));
            }
            "ply cap".to_string()
        }
        Some(other) => return Err(end_at(format!("unexpected end reason {other:?}"))),
        None => {
            if !reason.is_null() {
                return Err(end_at(format!("reason is not a string: {reason}")));
            }
            let Some(result) = pos.result() else {
                return Err(end_at(
                    "the trace ends but the reference game goes on".into(),
                ));
            };
            if winners != result.winners() {
                return Err(end_at(format!(
                    "winners {winners:?} != reference {:?}",
                    result.winners()
                )));
            }
            if winners.is_empty() {
                "draw".to_string()
            } else {
                winners.join("+")
            }
        }
    };
    Ok(Replayed {
        ending,
        plies: plies.len(),
        forced,
    })
}

/// Self-plays `seeds` games and replays each in the reference; fails with the first few
/// disagreements.
pub(crate) fn check_seeds<R: Reference>(
    label: &str,
    name: &str,
    game: &Game,
    seeds: std::ops::Range<u64>,
    start: impl Fn() -> R,
    params: Value,
) {
    let clock = Instant::now();
    let file = common::game_path(name);
    let mut errors = Vec::new();
    let mut endings: BTreeMap<String, usize> = BTreeMap::new();
    let (mut total, mut longest, mut forced) = (0, 0, 0);
    let count = seeds.end - seeds.start;
    for seed in seeds {
        let record = selfplay(game, &file, seed).unwrap_or_else(|e| panic!("{}", e.0));
        match replay(label, seed, &record.trace, start(), &params, game.max_plies) {
            Ok(r) => {
                *endings.entry(r.ending).or_default() += 1;
                total += r.plies;
                longest = longest.max(r.plies);
                forced += r.forced;
            }
            Err(e) => errors.push(e),
        }
    }
    eprintln!(
        "{label}: {count} games, {total} plies (longest {longest}, forced {forced}), \
         endings {endings:?}, {} disagreements, {:.2?}",
        errors.len(),
        clock.elapsed()
    );
    assert!(
        errors.is_empty(),
        "{} of {count} {label} traces disagree with the reference; first ones:\n\n{}",
        errors.len(),
        errors
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

fn bounce(size: usize) -> Game {
    let mut game = common::game("bounce", &[("size", &size.to_string())]);
    game.max_plies = Some(BOUNCE_CAP);
    game
}

fn staqs(diagonal: bool) -> Game {
    if diagonal {
        common::game("staqs", &[("diagonal_steps", "true")])
    } else {
        common::game("staqs", &[])
    }
}

#[test]
fn bounce_8_traces_match_reference() {
    check_seeds(
        "bounce 8x8",
        "bounce",
        &bounce(8),
        0..100,
        || Bounce::new(8),
        json!({"size": 8}),
    );
}

#[test]
fn bounce_4_and_6_traces_match_reference() {
    for size in [4, 6] {
        check_seeds(
            &format!("bounce {size}x{size}"),
            "bounce",
            &bounce(size),
            0..50,
            || Bounce::new(size),
            json!({ "size": size }),
        );
    }
}

#[test]
fn bounce_ply_cap_traces_match_reference() {
    // A small cap: most games end by it, and the end line must say so after exactly the cap.
    let mut game = bounce(8);
    game.max_plies = Some(20);
    check_seeds(
        "bounce 8x8 capped at 20",
        "bounce",
        &game,
        0..20,
        || Bounce::new(8),
        json!({"size": 8}),
    );
}

#[test]
fn staqs_traces_match_reference() {
    check_seeds(
        "staqs",
        "staqs",
        &staqs(false),
        0..300,
        || Staqs::new(false),
        json!({"diagonal_steps": false}),
    );
}

#[test]
fn staqs_diagonal_traces_match_reference() {
    check_seeds(
        "staqs diagonal",
        "staqs",
        &staqs(true),
        0..100,
        || Staqs::new(true),
        json!({"diagonal_steps": true}),
    );
}

/// Engine perft against reference perft for depths 1..=max; returns the counts.
pub(crate) fn compare_perft<R: Reference>(
    label: &str,
    game: &Game,
    start: &R,
    max: u32,
) -> Vec<u64> {
    let state = game.start();
    let mut counts = Vec::new();
    for depth in 1..=max {
        let clock = Instant::now();
        let engine = perft(game, &state, depth);
        let engine_time = clock.elapsed();
        let clock = Instant::now();
        let expected = reference::perft(start, depth);
        eprintln!(
            "{label} perft {depth}: engine {engine} ({engine_time:.2?}), reference {expected} ({:.2?})",
            clock.elapsed()
        );
        assert_eq!(
            engine, expected,
            "{label} perft({depth}): engine {engine} != reference {expected}"
        );
        counts.push(engine);
    }
    counts
}

/// Engine perft against reference perft from positions reached in self-play: the first
/// `k` plies of each seed's trace, for each `k` the game lasts past. Returns how many
/// positions were compared.
pub(crate) fn compare_perft_midgame<R: Reference>(
    label: &str,
    game: &Game,
    start: impl Fn() -> R,
    seeds: std::ops::Range<u64>,
    ks: &[usize],
    depth: u32,
) -> usize {
    let clock = Instant::now();
    let mut compared = 0;
    for seed in seeds {
        let moves = common::trace_moves(game, "x", seed);
        for &k in ks.iter().filter(|&&k| k < moves.len()) {
            let mut state = game.start();
            let mut pos = start();
            for m in &moves[..k] {
                let ply = game
                    .parse_ply(&state, m)
                    .unwrap_or_else(|e| panic!("{label} seed {seed}: engine refuses {m}: {e:?}"));
                game.play(&mut state, &ply);
                pos.play(m)
                    .unwrap_or_else(|e| panic!("{label} seed {seed}: reference: {e}"));
            }
            for d in 1..=depth {
                let engine = perft(game, &state, d);
                let expected = reference::perft(&pos, d);
                assert_eq!(
                    engine,
                    expected,
                    "{label} seed {seed}, after {k} plies {:?}: perft({d}) engine {engine} != \
                     reference {expected}\n{}",
                    &moves[..k],
                    pos.render()
                );
            }
            compared += 1;
        }
    }
    eprintln!(
        "{label}: perft 1..={depth} agrees from {compared} mid-game positions, {:.2?}",
        clock.elapsed()
    );
    compared
}

#[test]
fn midgame_perft_matches_reference() {
    let n = compare_perft_midgame(
        "bounce 8x8",
        &bounce(8),
        || Bounce::new(8),
        0..6,
        &[10, 25, 40],
        2,
    );
    assert!(n >= 10, "too few bounce 8x8 positions: {n}");
    for size in [4, 6] {
        let n = compare_perft_midgame(
            &format!("bounce {size}x{size}"),
            &bounce(size),
            || Bounce::new(size),
            0..10,
            &[3, 6, 10, 16],
            3,
        );
        assert!(n >= 10, "too few bounce {size}x{size} positions: {n}");
    }
    for diagonal in [false, true] {
        let n = compare_perft_midgame(
            if diagonal { "staqs diagonal" } else { "staqs" },
            &staqs(diagonal),
            || Staqs::new(diagonal),
            0..10,
            &[8, 12, 16, 20],
            5,
        );
        assert!(n >= 20, "too few staqs positions: {n}");
    }
}

#[test]
fn bounce_8_perft_matches_reference() {
    let counts = compare_perft("bounce 8x8", &bounce(8), &Bounce::new(8), 3);
    // bounce.md, "Facts to test against": red has exactly 60 legal moves at the start.
    assert_eq!(counts[0], 60, "bounce 8x8 perft(1)");
}

#[test]
fn bounce_4_and_6_perft_match_reference() {
    for size in [4, 6] {
        compare_perft(
            &format!("bounce {size}x{size}"),
            &bounce(size),
            &Bounce::new(size),
            3,
        );
    }
}

#[test]
fn staqs_perft_matches_reference() {
    let counts = compare_perft("staqs", &staqs(false), &Staqs::new(false), 3);
    // staqs.md: 25 placements for blue, then 24 for white.
    assert_eq!(counts[0], 25, "staqs perft(1)");
    assert_eq!(counts[1], 600, "staqs perft(2)");
    compare_perft("staqs diagonal", &staqs(true), &Staqs::new(true), 3);
}

#[test]
fn bounce_start_facts_in_engine() {
    // 8x8: each of red's 30 checkers to a1 or h8.
    let game = bounce(8);
    let state = game.start();
    let legal: Vec<String> = game
        .legal_with_notation(&state)
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    assert_eq!(legal.len(), 60, "{legal:?}");
    assert!(
        legal
            .iter()
            .all(|m| m.ends_with("-a1") || m.ends_with("-h8")),
        "{legal:?}"
    );

    // 6x6: 16 checkers each. At the start every checker of the side to act can reach one of
    // its two corners, so the distinct origins of the legal moves are all its checkers.
    let game = bounce(6);
    let reference = Bounce::new(6);
    assert_eq!(reference.count(reference::bounce::Colour::Red), 16);
    assert_eq!(reference.count(reference::bounce::Colour::Blue), 16);
    let origins = |game: &Game, state: &rulebook::engine::state::State| {
        let mut from: Vec<String> = game
            .legal_with_notation(state)
            .into_iter()
            .map(|(t, _)| t.split('-').next().unwrap().to_string())
            .collect();
        from.dedup();
        from.len()
    };
    let mut state = game.start();
    assert_eq!(game.players[state.to_move as usize], "red");
    assert_eq!(origins(&game, &state), 16, "red's checkers on 6x6");
    let ply = game.parse_ply(&state, "b1-a1").expect("b1-a1 is legal");
    game.play(&mut state, &ply);
    assert_eq!(game.players[state.to_move as usize], "blue");
    assert_eq!(origins(&game, &state), 16, "blue's checkers on 6x6");
}

#[test]
fn staqs_start_facts_in_engine() {
    let game = staqs(false);
    let mut state = game.start();
    assert_eq!(game.players, vec!["blue", "white"]);
    assert_eq!(game.legal_with_notation(&state).len(), 25);
    let ply = game.parse_ply(&state, "c3").expect("c3 is legal");
    game.play(&mut state, &ply);
    let legal: Vec<String> = game
        .legal_with_notation(&state)
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    assert_eq!(legal.len(), 24);
    assert!(!legal.contains(&"c3".to_string()), "{legal:?}");
}
