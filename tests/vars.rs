//! Variables per piece kind, per player and kind, and initial values per seat: declared,
//! read, set, reset, iterated with `kinds`, written in diagrams, told apart by position
//! equality and hashing, and refused with located errors when misused.

use rulebook::cli;
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
promotes = { init = { pawn = "kind rook" }, per = "kind" }

[vars.player]
hand = { init = { pawn = 2 }, per = "kind" }
"#;
    let g = game(&small(vars, PUT));
    let s = g.start();
    let values = |name: &str| {
        let v = g.vars.iter().find(|v| v.name == name).unwrap();
        let n = v.per.slots(g.players.len(), g.kinds.len());
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
            "[vars.player]\nhand = { init = 0, per = \"cell\" }",
            DROPS.to_string(),
            "a variable cannot be per `cell`",
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
