//! Variables per piece kind, per player and kind, and initial values per seat: declared,
//! read, set, reset, iterated with `kinds`, written in diagrams, told apart by position
//! equality and hashing, and refused with located errors when misused.

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rulebook::cli;
use rulebook::engine::game::Per;
use rulebook::engine::state::State;
use rulebook::lang::types::Type;
use rulebook::record::diagram;

use crate::common::{game_of as game, legal as texts, play, refused};

/// Two seats, a 3x1 board, two kinds; `vars` and `actions` complete the file.
fn small(vars: &str, actions: &str) -> String {
    format!(
        r#"
[game]
name = "hands"

[[players]]
name = "black"

[[players]]
name = "white"

[board]
files = 3
ranks = 1

[pieces.pawn]
owned = true
symbol = {{ black = "P", white = "p" }}

[pieces.rook]
owned = true
symbol = {{ black = "R", white = "r" }}

{vars}

{actions}
"#
    )
}

/// Drops from a hand per player and kind, counted per kind for the game.
const DROPS: &str = r#"
[[actions]]
name = "drop"
choose = ['k in kinds where hand(me, k) > 0', 'at in cells where empty(at)']
effect = 'place(at, k, me); hand(me, k) = hand(me, k) - 1; dropped(k) = dropped(k) + 1'
notation = '{k}@{at}'

[[actions]]
name = "pass"
fallback = true
effect = 'passes(me) = passes(me) + 1'
notation = 'pass'
"#;

/// A placement, for files whose mistake is in `[vars]`.
const PUT: &str = r#"
[[actions]]
name = "put"
choose = ['at in cells where empty(at)']
effect = 'place(at, pawn, me)'
notation = '{at}'
"#;

const HANDS: &str = r#"
[vars.player]
hand = { init = { black = 1, white = 2 }, per = "kind" }
passes = { init = { black = 0, white = 10 } }

[vars.global]
dropped = { init = 0, per = "kind" }
"#;

#[test]
fn a_hand_per_player_and_kind_starts_per_seat_and_is_read_and_set_by_kind() {
    let g = game(&small(HANDS, DROPS));
    let mut s = g.start();
    // Black holds one of each kind; kinds range in the order of their names.
    assert_eq!(
        texts(&g, &s),
        [
            "pawn@a1", "pawn@b1", "pawn@c1", "rook@a1", "rook@b1", "rook@c1"
        ]
    );
    play(&g, &mut s, "rook@b1");
    // White holds two of each.
    assert_eq!(texts(&g, &s).len(), 4);
    play(&g, &mut s, "rook@a1");
    play(&g, &mut s, "pawn@c1");
    // The board is full: a pass, counted per seat from the seat's own start.
    play(&g, &mut s, "pass");
    let var = |name: &str| g.vars.iter().find(|v| v.name == name).unwrap();
    let (hand, dropped, passes) = (var("hand"), var("dropped"), var("passes"));
    let kinds = g.kinds.len();
    let at = |v: &rulebook::engine::game::VarInfo, i: usize| s.vars[v.slot as usize + i];
    // hand: black pawn 0, black rook 0, white pawn 2, white rook 1.
    assert_eq!(
        (0..2 * kinds).map(|i| at(hand, i)).collect::<Vec<_>>(),
        [0, 0, 2, 1]
    );
    assert_eq!((at(dropped, 0), at(dropped, 1)), (1, 2));
    assert_eq!((at(passes, 0), at(passes, 1)), (0, 11));
}

#[test]
fn a_variable_per_kind_may_start_per_kind_and_kinds_left_out_start_at_zero_or_none() {
    let vars = r#"
[vars.global]
worth = { init = { rook = 5 }, per = "kind" }
marks = { init = 0, per = "cell" }
promotes = { init = { pawn = "kind rook" }, per = "kind" }

[vars.player]
hand = { init = { pawn = 2 }, per = "kind" }
"#;
    let g = game(&small(vars, PUT));
    let s = g.start();
    let values = |name: &str| {
        let v = g.vars.iter().find(|v| v.name == name).unwrap();
        let n = v.per.slots(g.players.len(), g.kinds.len(), g.board.len());
        s.vars[v.slot as usize..v.slot as usize + n].to_vec()
    };
    // Kinds in the order of their names: pawn, rook.
    assert_eq!(values("worth"), [0, 5]);
    assert_eq!(values("promotes"), [1, -1]);
    assert_eq!(values("hand"), [2, 0, 2, 0]);
}

#[test]
fn a_variable_per_kind_can_be_a_turn_variable_reset_every_turn() {
    let vars = r#"
[vars.turn]
placed = { init = 0, per = "kind" }
"#;
    let actions = r#"
[turns]
plies = 2

[[actions]]
name = "drop"
choose = ['k in kinds where placed(k) == 0', 'at in cells where empty(at)']
effect = 'place(at, k, me); placed(k) = 1'
notation = '{k}@{at}'
"#;
    let g = game(&small(vars, actions));
    let mut s = g.start();
    play(&g, &mut s, "pawn@a1");
    // The second ply of the turn: a pawn was placed, a rook may come.
    assert_eq!(texts(&g, &s), ["rook@b1", "rook@c1"]);
    play(&g, &mut s, "rook@b1");
    // A new turn: both kinds again.
    assert_eq!(texts(&g, &s), ["pawn@c1", "rook@c1"]);
}

#[test]
fn positions_differing_only_in_a_hand_differ_in_equality_and_hash() {
    // A game that asks about repetitions keeps position hashes.
    let repeats = "[[end]]\nwhen = 'repetitions >= 2'\nresult = \"draw\"";
    let g = game(&small(HANDS, &format!("{DROPS}\n{repeats}")));
    let a = g.start();
    let b = diagram::read(&g, ". . . / hand(white, rook) = 3").expect("a diagram");
    assert_ne!(a, b);
    assert_ne!(a.position_hash(0), b.position_hash(0));
    let c = diagram::read(&g, ". . . / hand(white, rook) = 2").expect("a diagram");
    assert_eq!(a, c);
    assert_eq!(a.position_hash(0), c.position_hash(0));
    let d = diagram::read(&g, ". . . / dropped(rook) = 1 / passes(white) = 3").expect("valid");
    assert_ne!(a, d);
    // The hand a diagram gives is the hand the game plays from.
    let e = diagram::read(&g, ". . . / hand(black, pawn) = 0 / hand(black, rook) = 0")
        .expect("a diagram");
    assert_eq!(texts(&g, &e), ["pass"]);
    assert_eq!(cli::perft(&g, &e, 1), 1);
}

#[test]
fn a_diagram_names_what_a_variable_is_indexed_by() {
    let g = game(&small(HANDS, DROPS));
    let read = |text: &str| diagram::read(&g, &format!(". . . / {text}")).expect_err("refused");
    assert!(read("hand(white) = 1").contains("per player and piece kind: `hand(SEAT, KIND)"));
    assert!(read("dropped = 1").contains("per piece kind: `dropped(KIND)"));
    assert!(read("hand(white, queen) = 1").contains("`queen` is not a piece kind"));
    assert!(read("hand(pawn, white) = 1").contains("`pawn` is not a player"));
    assert!(read("hand(white, none) = 1").contains("of none"));
}

#[test]
fn misused_variables_per_kind_and_per_seat_are_refused_where_they_are_written() {
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "[vars.player]\nhand = { init = 0, per = \"square\" }",
            DROPS.to_string(),
            "a variable cannot be per `square`",
        ),
        (
            "[vars.player]\nhand = { init = 0, per = \"cell\" }",
            DROPS.to_string(),
            "a player variable cannot be per `cell`",
        ),
        (
            "[vars.turn]\nseen = { init = { b1 = true }, per = \"cell\" }",
            PUT.to_string(),
            "only a variable per player or per kind can start with a table of values",
        ),
        (
            "[vars.global]\ndropped = { init = { black = 1, white = 0 } }",
            PUT.to_string(),
            "only a variable per player or per kind can start with a table of values",
        ),
        (
            "[vars.player]\nhand = { init = { black = 1, whit = 0 } }",
            PUT.to_string(),
            "`whit` is not one of the seats of this game",
        ),
        (
            "[vars.player]\nsupply = { init = { pawn = 1 } }",
            PUT.to_string(),
            "`pawn` is not one of the seats of this game",
        ),
        (
            "[vars.global]\nworth = { init = { black = 1 }, per = \"kind\" }",
            PUT.to_string(),
            "`black` is not one of the piece kinds of this game",
        ),
        (
            "[vars.player]\nhand = { init = { black = 1 } }",
            PUT.to_string(),
            "no initial value for white",
        ),
        (
            "[vars.player]\nhand = { init = { black = 1, white = true } }",
            PUT.to_string(),
            "expected a number, as for the entries before, found a condition",
        ),
        (
            "[vars.player]\nhand = { init = 0, per = \"kind\", reset = true }",
            PUT.to_string(),
            "unknown field `reset`",
        ),
        (
            HANDS,
            DROPS.replace("hand(me, k) > 0", "hand(k) > 0"),
            "`hand` is a variable per player and piece kind: it takes 2 arguments (a player, a piece kind), not 1",
        ),
        (
            HANDS,
            DROPS.replace("hand(me, k) > 0", "hand(k, me) > 0"),
            "expected a player",
        ),
        (
            HANDS,
            DROPS.replace("dropped(k) = dropped(k) + 1", "dropped = 1"),
            "`dropped` is a variable per piece kind: it takes 1 argument (a piece kind), not 0",
        ),
        (
            HANDS,
            DROPS.replace("hand(me, k) > 0", "dropped > 0"),
            "`dropped` is a variable per piece kind: write `dropped(KIND)`",
        ),
        (
            "[vars.global]\ndropped = 0",
            DROPS
                .replace("hand(me, k) > 0', 'at", "true', 'at")
                .replace(
                    "hand(me, k) = hand(me, k) - 1; dropped(k) = dropped(k) + 1",
                    "dropped(k) = 1",
                )
                .replace("passes(me) = passes(me) + 1", "dropped = 1"),
            "`dropped` is one variable, not one per player or kind",
        ),
    ];
    for (vars, actions, expected) in cases {
        let error = refused(&small(vars, &actions));
        assert!(error.contains(expected), "{expected}:\n{error}");
        assert!(error.contains("--> test.toml:"), "{error}");
    }
}

/// Variables of every sort (global, per player, per kind, per player and kind, per turn
/// and per turn and kind) and every type, for [`hashed_games`].
const EVERY_SORT: &str = r#"
[vars.global]
count = 3
flag = true
spot = "cell b1"
seat = "player white"
sort = "kind"
way = "direction n"
worth = { init = { rook = 5 }, per = "kind" }

[vars.player]
supply = { init = { black = 2, white = 0 } }
hand = { init = { pawn = 1 }, per = "kind" }
last = "cell"

[vars.turn]
steps = 0
placed = { init = false, per = "kind" }
seen = { init = false, per = "cell" }
"#;

/// A rule that asks about repetitions and never ends a game: a game that has it keeps
/// position hashes and a history, which is what [`hashed_games`] needs of every game.
const ASKS_ABOUT_REPETITIONS: &str =
    "\n[[end]]\nwhen = 'repetitions >= 1000000'\nresult = \"draw\"\n";

/// Every game of `games/` (a new file is covered at once), the test game whose hands are
/// per player and kind, and a game with [`EVERY_SORT`] of variable, each named and made
/// to keep position hashes where its rules do not ask about repetitions already (the
/// hash is worked out alike whatever the game, so such a game tests it as well as chess
/// does, and its variables are tested before a rule of a new game comes to read them).
fn hashed_games() -> Vec<(String, rulebook::engine::game::Game)> {
    let mut files: Vec<(String, String)> = crate::common::shipped_games()
        .iter()
        .map(|name| (name.clone(), crate::common::game_path(name)))
        .collect();
    let minidrop = format!("{}/tests/games/minidrop.toml", env!("CARGO_MANIFEST_DIR"));
    files.push(("minidrop".to_string(), minidrop));
    let mut games: Vec<_> = files
        .into_iter()
        .map(|(name, path)| {
            let text = std::fs::read_to_string(&path).expect("a game file");
            let g = crate::common::game_from_text(&path, text.clone(), &[]);
            if g.start().keeps_history() {
                return (name, g);
            }
            let text = text + ASKS_ABOUT_REPETITIONS;
            (name, crate::common::game_from_text(&path, text, &[]))
        })
        .collect();
    let every = small(EVERY_SORT, &format!("{PUT}{ASKS_ABOUT_REPETITIONS}"));
    games.push(("every sort".to_string(), game(&every)));
    for (name, g) in &games {
        assert!(g.start().keeps_history(), "{name} keeps no position hashes");
    }
    games
}

/// Every slot of `g`'s variables: its number in `State::vars`, its name as a diagram
/// writes it (`hand(white, rook)`) and its type. Every slot of the position is one of
/// them, so a variable this missed would fail here rather than go untested.
fn every_slot(g: &rulebook::engine::game::Game) -> Vec<(usize, String, Type)> {
    let (players, kinds) = (g.players.len(), g.kinds.len());
    let mut slots = Vec::new();
    for v in &g.vars {
        for offset in 0..v.per.slots(players, kinds, g.board.len()) {
            let (player, kind) = (&g.players, &g.kinds);
            let name = match v.per {
                Per::Game => v.name.clone(),
                Per::Player => format!("{}({})", v.name, player[offset]),
                Per::Kind => format!("{}({})", v.name, kind[offset].name),
                Per::Cell => format!("{}({})", v.name, g.board.names[offset]),
                Per::PlayerKind => format!(
                    "{}({}, {})",
                    v.name,
                    player[offset / kinds],
                    kind[offset % kinds].name
                ),
            };
            slots.push((usize::from(v.slot) + offset, name, v.ty));
        }
    }
    let mut numbers: Vec<usize> = slots.iter().map(|(slot, _, _)| *slot).collect();
    numbers.sort_unstable();
    let all: Vec<usize> = (0..g.start().vars.len()).collect();
    assert_eq!(numbers, all, "{}: the slots of its variables", g.name);
    slots
}

/// Values a variable of type `ty` may hold besides `now`: every cell, seat, kind or
/// direction and `none`, the other truth value, or numbers near and far from `now`.
fn other_values(g: &rulebook::engine::game::Game, ty: Type, now: i64) -> Vec<i64> {
    let up_to = |n: usize| (-1..n as i64).collect::<Vec<i64>>();
    let values = match ty {
        Type::Bool => vec![0, 1],
        Type::Cell => up_to(g.board.len()),
        Type::Player => up_to(g.players.len()),
        Type::Kind => up_to(g.kinds.len()),
        Type::Dir => up_to(8),
        _ => vec![now - 1, now + 1, -now - 1, now ^ (1 << 40)],
    };
    values.into_iter().filter(|&v| v != now).collect()
}

/// Asserts that `position`, taken as the only one played so far, is a repetition of
/// itself and that each position differing from it in one variable's value is not: the
/// position hash, and the repetition count that rules read from it, take in every
/// variable.
fn every_variable_is_hashed(name: &str, g: &rulebook::engine::game::Game, position: &State) {
    let n = g.players.len();
    let mover = ((position.to_move as usize + n - 1) % n) as u8;
    let mut p = position.clone();
    p.restart_history(mover);
    assert_eq!(p.repetitions(mover), 1, "{name}: the position itself");
    for (slot, var, ty) in every_slot(g) {
        let now = p.vars[slot];
        for value in other_values(g, ty, now) {
            let at = format!("{name}: {var} = {value} instead of {now}");
            let mut q = p.clone();
            q.vars[slot] = value;
            assert_ne!(q, p, "{at}");
            assert!(q.board_repeated(), "{at}: the board is the same");
            assert_eq!(q.repetitions(mover), 0, "{at}: counted as a repetition");
            assert_ne!(q.position_hash(mover), p.position_hash(mover), "{at}");
            q.vars[slot] = now;
            assert_eq!(q, p, "{at}, set back");
            assert_eq!(q.repetitions(mover), 1, "{at}, set back");
        }
    }
}

proptest! {
    #![proptest_config(crate::common::config(8))]

    /// For every variable of every game (global, per player, per kind, per player and
    /// kind, per turn) and every value it may take: two positions that differ only there
    /// are not repetitions, and equal ones are. At the start, and after some random
    /// plies (where the variables hold what play left in them).
    #[test]
    fn positions_differing_in_any_one_variable_are_not_repetitions(
        seed in any::<u64>(),
        plies in 1usize..40,
    ) {
        for (name, g) in hashed_games() {
            let mut s = g.start();
            every_variable_is_hashed(&name, &g, &s);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            for _ in 0..plies {
                if s.outcome.is_some() || g.play_random(&mut s, &mut rng).is_none() {
                    break;
                }
            }
            every_variable_is_hashed(&format!("{name} after {} plies, seed {seed}", s.plies), &g, &s);
        }
    }
}

/// A variable per cell: one value per cell, read and set by its cell, a turn variable's
/// values reset at every turn, and written in diagrams by the cell's name.
#[test]
fn variables_per_cell_are_read_set_reset_and_written_in_diagrams() {
    let vars = r#"
[turns]
plies = 2

[vars.global]
visits = { init = 0, per = "cell" }

[vars.turn]
here = { init = false, per = "cell" }
"#;
    let actions = r#"
[[actions]]
name = "put"
choose = ['at in cells where empty(at)']
effect = 'place(at, pawn, me); visits(at) = visits(at) + 1; here(at) = true'
notation = '{at}'

[[actions]]
name = "recall"
choose = ['c in cells where here(c) && visits(c) == 1']
effect = 'here(c) = false'
notation = 'recall {c}'
"#;
    let g = game(&small(vars, actions));
    let mut s = g.start();
    assert_eq!(texts(&g, &s), ["a1", "b1", "c1"]);
    play(&g, &mut s, "a1");
    assert_eq!(texts(&g, &s), ["b1", "c1", "recall a1"]);
    play(&g, &mut s, "b1");
    // White's turn: `here` is reset, `visits` is not (a1 and b1 are taken, c1 is free).
    assert_eq!(texts(&g, &s), ["c1"]);
    let d = diagram::read(&g, ". . . / here(c1) = true / visits(c1) = 1").expect("a diagram");
    assert_eq!(texts(&g, &d), ["a1", "b1", "c1", "recall c1"]);
    let refused = diagram::read(&g, ". . . / here(z9) = true").expect_err("refused");
    assert!(refused.contains("`z9` is not"), "{refused}");
}
