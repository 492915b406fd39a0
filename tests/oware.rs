//! Oware in its Abapa rules (`games/oware.toml`, its pits one closed track): perft and
//! seeded random games against the independent reference (`reference/oware.rs`, written
//! from `docs/rules/oware.md` only, its pits counted round a circuit), with each value of
//! the grand slam switch, and hand-made positions that pin the sowing, the capture run,
//! the feeding rule, the grand slam and the ends.

use rulebook::cli::perft;
use rulebook::engine::game::Game;
use rulebook::engine::state::State;
use serde_json::json;

use crate::common::{game, height, legal, play, seat};
use crate::reference::oware::{Oware, Rules};
use crate::reference::{self, Reference};
use crate::traces::{check_seeds, compare_perft, compare_perft_midgame};

fn oware(params: &[(&str, &str)]) -> Game {
    game("oware", params)
}

/// The reference's rules for the same parameters.
fn rules(grand_slam: u32, seeds: u32) -> Rules {
    Rules {
        seeds,
        grand_slam,
        ..Rules::default()
    }
}

/// A position from a diagram: north's row (`a2` to `f2`) first, then south's.
fn at(g: &Game, diagram: &str) -> State {
    rulebook::record::diagram::read(g, diagram).expect("a diagram")
}

/// The seeds in a player's store.
fn store(g: &Game, s: &State, player: &str) -> i64 {
    let v = g.vars.iter().find(|v| v.name == "store").expect("store");
    s.vars[v.slot as usize + seat(g, player) as usize]
}

/// The seeds in each pit, as `pits` names them.
fn seeds(g: &Game, s: &State, pits: &str) -> Vec<usize> {
    pits.split_whitespace().map(|c| height(g, s, c)).collect()
}

/// The winners by name; empty for a draw; panics while the game goes on.
fn winners(g: &Game, s: &State) -> Vec<String> {
    let outcome = s.outcome.as_ref().expect("the game is over");
    outcome
        .winners
        .iter()
        .map(|&p| g.players[p as usize].clone())
        .collect()
}

/// Leaf plies from the start at depths 1 to 7.
const FROM_THE_START: [u64; 7] = [6, 36, 190, 1_014, 5_219, 27_332, 139_157];

#[test]
fn perft_matches_the_reference() {
    let start = Oware::new(Rules::default());
    let counts = compare_perft("oware", &oware(&[]), &start, 7);
    assert_eq!(counts, FROM_THE_START);
    // Deeper, the reference alone: the counts `rulebook perft --depth 8` and `9` give with
    // the release build (docs/rules/oware.md).
    assert_eq!(reference::perft(&start, 8), 711_414);
    assert_eq!(reference::perft(&start, 9), 3_592_872);
    for (value, switch) in [(1, "1"), (2, "2")] {
        compare_perft(
            &format!("oware grand_slam={value}"),
            &oware(&[("grand_slam", switch)]),
            &Oware::new(rules(value, 4)),
            6,
        );
    }
    compare_perft(
        "oware 3 seeds",
        &oware(&[("seeds", "3")]),
        &Oware::new(rules(0, 3)),
        6,
    );
}

#[test]
fn midgame_perft_matches_the_reference() {
    let n = compare_perft_midgame(
        "oware",
        &oware(&[]),
        || Oware::new(Rules::default()),
        0..20,
        &[10, 30, 60, 90, 120],
        4,
    );
    assert!(n >= 60, "too few positions: {n}");
}

/// Random games replayed in the reference: every legal list, the player to move, and how
/// each game ended (a store past half, a player who cannot move, the ply cap).
#[test]
fn random_games_match_the_reference() {
    check_seeds(
        "oware",
        "oware",
        &oware(&[]),
        0..150,
        || Oware::new(Rules::default()),
        json!({"grand_slam": 0, "seeds": 4, "ply_cap": 200}),
    );
    for value in [1, 2] {
        check_seeds(
            &format!("oware grand_slam={value}"),
            "oware",
            &oware(&[("grand_slam", &value.to_string())]),
            0..60,
            || Oware::new(rules(value, 4)),
            json!({ "grand_slam": value }),
        );
    }
    // A short cap: most games end by it, each side's seeds going to its owner.
    check_seeds(
        "oware capped at 40",
        "oware",
        &oware(&[("ply_cap", "40")]),
        0..40,
        || {
            Oware::new(Rules {
                ply_cap: 40,
                ..Rules::default()
            })
        },
        json!({"ply_cap": 40}),
    );
}

/// An endgame position: seeds on the side of the player to move, a few on the other, the
/// stores sharing the rest of the 48 evenly. Written for the engine as a diagram, built in the reference field by field.
fn endgame(seed: u64, rules: Rules) -> (String, Oware) {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = |n: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % n
    };
    // The player to move has seeds to sow; the opponent has a few, ones and twos in a
    // row of one to three pits, as a grand slam needs. Pits are counted round the
    // circuit, south's a1 to f1 then north's f2 to a2.
    let to_move = next(2) as usize;
    let mut pits = [0u32; 12];
    for pit in &mut pits[6 * to_move..6 * to_move + 6] {
        *pit = next(7) as u32;
    }
    let (len, first) = (1 + next(3) as usize, next(4) as usize);
    let theirs = 6 * (1 - to_move);
    for pit in &mut pits[theirs + first..theirs + (first + len).min(6)] {
        *pit = 1 + next(2) as u32;
    }
    let on_board: u32 = pits.iter().sum();
    let store = [(48 - on_board) / 2, 48 - on_board - (48 - on_board) / 2];
    let token = |n: u32| match n {
        0 => ".".to_string(),
        1 => "o".to_string(),
        n => format!("o*{n}"),
    };
    let north: Vec<String> = (6..12).rev().map(|i| token(pits[i])).collect();
    let south: Vec<String> = (0..6).map(|i| token(pits[i])).collect();
    let players = ["south", "north"];
    let diagram = format!(
        "{} / {} / to_move = {} / store(south) = {} / store(north) = {}",
        north.join(" "),
        south.join(" "),
        players[to_move],
        store[0],
        store[1]
    );
    let pos = Oware {
        rules,
        pits,
        store,
        to_move,
        plies: 0,
        result: None,
    };
    (diagram, pos)
}

/// Grand slams hardly happen in random games from the start (a few positions in tens of
/// thousands), so each value of the switch is compared where seeds are few.
#[test]
fn endgames_match_the_reference_with_every_grand_slam_rule() {
    let mut slams = 0;
    for value in 0..3u32 {
        let g = oware(&[("grand_slam", &value.to_string())]);
        for seed in 0..150 {
            let (diagram, pos) = endgame(seed, rules(value, 4));
            let s = at(&g, &diagram);
            for depth in 1..=4 {
                assert_eq!(
                    perft(&g, &s, depth),
                    reference::perft(&pos, depth),
                    "grand_slam={value}, perft({depth}) from {diagram}"
                );
            }
            if value == 1 {
                let (_, plain) = endgame(seed, rules(0, 4));
                slams += usize::from(plain.legal() != pos.legal());
            }
        }
    }
    assert!(slams >= 15, "too few positions with a grand slam: {slams}");
}

#[test]
fn a_pit_of_twelve_or_more_skips_the_pit_it_was_sown_from() {
    let g = oware(&[]);
    let mut s = at(&g, "o o . . . . / o*12 . . . . . / to_move = south");
    play(&g, &mut s, "a1");
    // One seed in each of the 11 other pits, the twelfth in b1: a1 stays empty.
    assert_eq!(seeds(&g, &s, "a1 b1 c1 d1 e1 f1"), [0, 2, 1, 1, 1, 1]);
    assert_eq!(seeds(&g, &s, "a2 b2 c2 d2 e2 f2"), [2, 2, 1, 1, 1, 1]);
    // 23 seeds pass it twice: two in each other pit, the 23rd in b1.
    let mut s = at(&g, "o . . . . . / o*23 . . . . . / to_move = south");
    play(&g, &mut s, "a1");
    assert_eq!(seeds(&g, &s, "a1 b1 c1 d1 e1 f1"), [0, 3, 2, 2, 2, 2]);
    assert_eq!(seeds(&g, &s, "a2 b2 c2 d2 e2 f2"), [3, 2, 2, 2, 2, 2]);
    assert_eq!(
        store(&g, &s, "south"),
        0,
        "the last seed fell in south's own b1"
    );
}

#[test]
fn a_capture_runs_back_along_the_row_and_stops_at_the_players_own_side() {
    let g = oware(&[]);
    // South sows e1's 4 seeds into f1, f2, e2, d2: d2, e2 and f2 end with 2, 3 and 2, all
    // captured; south's own f1, which now holds 2, is not.
    let diagram = "o*5 . . o o*2 o / . . . . o*4 o / to_move = south";
    let mut s = at(&g, diagram);
    play(&g, &mut s, "e1");
    assert_eq!(seeds(&g, &s, "a2 b2 c2 d2 e2 f2"), [5, 0, 0, 0, 0, 0]);
    assert_eq!(seeds(&g, &s, "e1 f1"), [0, 2]);
    assert_eq!(store(&g, &s, "south"), 7);
    // With 4 in e2 (5 once sown) the run stops there: d2 alone is taken.
    let mut s = at(&g, &diagram.replacen("o*2", "o*4", 1));
    play(&g, &mut s, "e1");
    assert_eq!(seeds(&g, &s, "d2 e2 f2"), [0, 5, 2]);
    assert_eq!(store(&g, &s, "south"), 2);
    // North's run goes back along south's row to a1 and not on into north's a2.
    let mut s = at(&g, "o o*4 . . . . / o o*2 o . . o*5 / to_move = north");
    play(&g, &mut s, "b2");
    assert_eq!(seeds(&g, &s, "a1 b1 c1 f1"), [0, 0, 0, 5]);
    assert_eq!(seeds(&g, &s, "a2 b2"), [2, 0]);
    assert_eq!(store(&g, &s, "north"), 7);
}

#[test]
fn a_player_must_feed_an_opponent_with_no_seeds() {
    let g = oware(&[]);
    // Only d1 reaches north's row.
    let s = at(&g, ". . . . . . / o*3 . o o*5 o . / to_move = south");
    assert_eq!(legal(&g, &s), ["d1"]);
    assert_eq!(
        g.legal_with_short(&s)
            .into_iter()
            .map(|(t, _)| t)
            .collect::<Vec<_>>(),
        ["D"]
    );
    // North sows its last seed into a1; no sowing of south's reaches north's row, so the
    // game ends and south takes the two seeds left: 25 against 23.
    let mut s = at(
        &g,
        "o . . . . . / . o . . . . / to_move = north / store(south) = 23 / store(north) = 23",
    );
    play(&g, &mut s, "a2");
    assert_eq!(winners(&g, &s), ["south"]);
}

#[test]
fn a_grand_slam_captures_nothing_is_refused_or_takes_everything() {
    // f1's 3 seeds make 2 in each of north's three pits: every seed north has.
    let diagram = ". . . o o o / o*14 . . . . o*3 / to_move = south / store(south) = 10 / \
                   store(north) = 18";
    let g = oware(&[]);
    let mut s = at(&g, diagram);
    assert_eq!(legal(&g, &s), ["a1", "f1"]);
    play(&g, &mut s, "f1");
    assert_eq!(seeds(&g, &s, "d2 e2 f2"), [2, 2, 2]);
    assert_eq!(store(&g, &s, "south"), 10);
    assert!(s.outcome.is_none());

    let g = oware(&[("grand_slam", "1")]);
    assert_eq!(legal(&g, &at(&g, diagram)), ["a1"]);

    let g = oware(&[("grand_slam", "2")]);
    let mut s = at(&g, diagram);
    play(&g, &mut s, "f1");
    assert_eq!(seeds(&g, &s, "d2 e2 f2"), [0, 0, 0]);
    assert_eq!(store(&g, &s, "south"), 16);
    // North has nothing to sow: the game ends, south's 14 seeds going to south.
    assert_eq!(winners(&g, &s), ["south"]);
}

#[test]
fn more_than_half_the_seeds_wins() {
    let g = oware(&[]);
    let mut s = at(
        &g,
        "o*5 . . . . o / . . . . . o / to_move = south / store(south) = 23 / store(north) = 18",
    );
    play(&g, &mut s, "f1");
    assert_eq!(store(&g, &s, "south"), 25);
    assert_eq!(winners(&g, &s), ["south"]);
}

#[test]
fn at_the_ply_cap_the_seeds_on_each_side_go_to_its_owner() {
    let g = oware(&[]);
    let diagram = "o*4 . . . . . / . . . o . o*3 / to_move = south / plies = 199 / \
                   store(south) = 20 / store(north) = 20";
    // d1 keeps its seed on south's side: 24 each, a draw.
    let mut s = at(&g, diagram);
    play(&g, &mut s, "d1");
    assert_eq!(winners(&g, &s), Vec::<String>::new());
    // f1 sows its 3 seeds into north's pits: 21 against 27.
    let mut s = at(&g, diagram);
    play(&g, &mut s, "f1");
    assert_eq!(winners(&g, &s), ["north"]);
    // One ply earlier the game goes on.
    let mut s = at(&g, &diagram.replace("199", "198"));
    play(&g, &mut s, "f1");
    assert!(s.outcome.is_none());
}
