//! Recursive functions (`[functions.NAME]` with `depth` and `returns`): called for real,
//! each call in a frame of its own, directly or through other functions; in choices,
//! checks, `where`s over cells, end rules and notation templates; the closures against
//! the test suite's tree walk; a call past the limit reported by every command as the
//! file's error, located at its `depth`; the stack bounded at load.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rulebook::engine::game::Game;
use rulebook::spec;

use crate::common::{Scratch, game_of, legal, play, refused, rulebook, set_stack, stderr};

/// A 5x5 board where two players drop pieces; `row` counts a player's pieces in a row
/// from a cell along a direction (the cell itself first). Each `{}` is filled in order:
/// `row`'s depth, then what completes the file (actions, ends).
const RUNS: &str = r#"
[game]
name = "runs"

[[players]]
name = "a"

[[players]]
name = "b"

[board]
files = 5
ranks = 5

[pieces.man]
owned = true
symbol = { a = "A", b = "B" }

[functions.row]
doc = "how many of p's pieces stand in a row from c going d"
params = ["c: cell", "d: direction", "p: player"]
returns = "number"
depth = DEPTH
value = 'if c == none then 0 else if owner(c) != p then 0 else 1 + row(step(c, d), d, p)'

[functions.longest]
doc = "the longest of p's rows through c, counted both ways"
params = ["c: cell", "p: player"]
value = 'max(d in [e, n, ne, se]: row(c, d, p) + row(c, opposite(d), p) - 1)'
"#;

/// The drop game: a ply must not make a row of four across (a check after its move,
/// through a non-recursive function that calls the recursive one), its text gives the
/// row it makes along the file (a notation template), rows of three win (an end rule
/// whose `where` over cells calls the function for each cell the sets leave).
const DROP: &str = r#"
[[actions]]
name = "drop"
choose = ['at in cells where empty(at)']
effect = 'place(at, man, me)'
check = 'row(at, e, me) + row(at, w, me) < 5'
notation = '{at}/{row(at, n, me) + row(at, s, me) - 1}'

[[end]]
when = 'any(c in cells where owner(c) == me && longest(c, me) >= 3)'
winner = 'me'
"#;

/// The drop game, whose every ply calls the recursive function dozens of times.
pub(crate) fn drop_game() -> String {
    runs(6, DROP)
}

fn runs(depth: u32, rest: &str) -> String {
    format!("{}{rest}", RUNS.replace("DEPTH", &depth.to_string()))
}

/// The game compiled both ways: to closures, and as the test suite's tree walk.
fn both(text: &str) -> (Game, Game) {
    let source = spec::parse("test.toml", text.to_string()).unwrap_or_else(|d| panic!("{d}"));
    let compiled = rulebook::compile::compile(&source, &[]).unwrap_or_else(|d| panic!("{d}"));
    let walked = crate::walk::compile(&source, &[]).unwrap_or_else(|d| panic!("{d}"));
    (compiled, walked)
}

#[test]
fn a_recursive_function_counts_a_row_in_choices_checks_ends_and_notation() {
    let g = game_of(&runs(6, DROP));
    let mut s = g.start();
    // a: a1 b1 c1 d1 would be four across: d1 is then refused by the check.
    play(&g, &mut s, "a1/1; a5/1; b1/1; b5/1; c2/1; c5/1");
    // b has three across on row 5: the end rule gave the game to b.
    assert!(s.outcome.is_some(), "b's row of three ends the game");
    let mut s = g.start();
    play(&g, &mut s, "a1/1; e5/1; a2/2; e4/2");
    // The text counts a's pieces in the file through the cell once it is played on.
    assert!(legal(&g, &s).contains(&"a3/3".to_string()));
    assert!(legal(&g, &s).contains(&"a4/1".to_string()));

    // Hand-made rows: the check refuses a fourth piece across, and only that.
    let g = game_of(&runs(
        6,
        DROP.replace(
            "when = 'any(c in cells where owner(c) == me && longest(c, me) >= 3)'",
            "when = 'false'",
        )
        .as_str(),
    ));
    let mut s = g.start();
    for cell in ["a3", "b3", "d3"] {
        set_stack(&g, &mut s, cell, &[("man", "a")]);
    }
    let texts = legal(&g, &s);
    assert!(!texts.iter().any(|t| t.starts_with("c3/")), "{texts:?}");
    assert!(texts.contains(&"e3/1".to_string()), "{texts:?}");
    assert_eq!(texts.len(), 25 - 3 - 1);
    assert!(g.runaway().is_none());
}

#[test]
fn a_recursive_row_counts_what_the_built_in_run_counts() {
    // The drop game written with the built-in `run` hook (a row of like pieces from a
    // cell, itself left out) instead of the recursive function: the same plies in every
    // position of random games, and the same perft.
    let hooked = drop_game()
        .replace(
            "value = 'max(d in [e, n, ne, se]: row(c, d, p) + row(c, opposite(d), p) - 1)'",
            "value = 'max(d in [e, n, ne, se]: 1 + run(c, d) + run(c, opposite(d)))'",
        )
        .replace(
            "check = 'row(at, e, me) + row(at, w, me) < 5'",
            "check = '2 + run(at, e) + run(at, w) < 5'",
        )
        .replace(
            "notation = '{at}/{row(at, n, me) + row(at, s, me) - 1}'",
            "notation = '{at}/{1 + run(at, n) + run(at, s)}'",
        );
    assert!(!hooked.contains("row(at"));
    let (g, h) = (game_of(&drop_game()), game_of(&hooked));
    assert_eq!(
        rulebook::cli::perft(&g, &g.start(), 3),
        rulebook::cli::perft(&h, &h.start(), 3)
    );
    for seed in 0..50 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let (mut s, mut t) = (g.start(), h.start());
        loop {
            assert_eq!(legal(&g, &s), legal(&h, &t), "seed {seed}");
            let Some(ply) = g.play_random(&mut s, &mut rng) else {
                break;
            };
            h.play(&mut t, &ply);
            assert_eq!(s, t, "seed {seed}");
        }
        assert_eq!(s.outcome, t.outcome, "seed {seed}");
    }
    assert!(g.runaway().is_none());
}

#[test]
fn recursive_calls_in_frames_of_their_own_keep_the_callers_names() {
    // A body with an aggregate over cells (its own names) and an argument that is an
    // aggregate: each call's names are its own, and the caller's survive it.
    let text = runs(
        6,
        r#"
[[setup]]
put = "man"
owner = "a"
at = ["a1", "a2", "b1", "c1", "c3", "e1"]

[functions.chain]
doc = "p's pieces in a row from c going east, each cell's column added"
params = ["c: cell", "p: player"]
returns = "number"
depth = 6
value = 'if c == none || owner(c) != p then 0 else count(x in cells where file(x) == file(c) && owner(x) == p) + chain(step(c, e), p)'

[[actions]]
name = "t"
choose = ['at in cells where owner(at) == me', 'k = chain(at, me)', 'where k == chain(first(y in cells where y == at), me)']
notation = '{at}={k}'
"#,
    );
    let (g, w) = both(&text);
    for g in [&g, &w] {
        let s = g.start();
        // From a1: columns a (2), b (1), c (2) then d1 is empty.
        assert_eq!(
            legal(g, &s),
            ["a1=5", "a2=2", "b1=3", "c1=2", "c3=2", "e1=1"]
        );
    }
}

/// Functions that call each other: whether a number is even.
const PARITY: &str = r#"
[functions.even]
params = ["k: number"]
returns = "condition"
depth = 40
value = 'if k <= 0 then true else odd(k - 1)'

[functions.odd]
params = ["k: number"]
returns = "condition"
depth = 40
value = 'if k <= 0 then false else even(k - 1)'
"#;

/// A game of one action whose `where` is `condition`, with `functions`.
fn where_game(functions: &str, condition: &str) -> String {
    runs(
        6,
        &format!(
            "{functions}\n[[actions]]\nname = \"t\"\nchoose = ['where {condition}']\nnotation = 't'\n"
        ),
    )
}

#[test]
fn functions_may_call_each_other_and_count_their_depth_together() {
    for (n, even) in [(0, true), (1, false), (7, false), (12, true), (39, false)] {
        let (g, w) = both(&where_game(PARITY, &format!("even({n})")));
        for g in [&g, &w] {
            assert_eq!(g.legal_plies(&g.start()).len() == 1, even, "even({n})");
            assert!(g.runaway().is_none(), "even({n})");
        }
    }
    // even(40) is 41 calls of the two nested: past the depth of 40, and said.
    let (g, w) = both(&where_game(PARITY, "even(40)"));
    for g in [&g, &w] {
        let _ = g.legal_plies(&g.start());
        let error = g.runaway().expect("past the depth").to_string();
        assert!(
            error.starts_with("error: function `even` was called deeper than its `depth` of 40"),
            "{error}"
        );
    }
}

#[test]
fn compiled_recursive_calls_play_as_the_tree_walk_does() {
    // The drop game, with a heuristic that calls the function too: random games both
    // ways, position by position.
    let text = runs(
        6,
        &format!(
            "{DROP}\n[eval]\nscore = 'sum(c in cells where owner(c) == me: longest(c, me))'\n"
        ),
    );
    let (compiled, walked) = both(&text);
    for seed in 0..20 {
        let mut rng_c = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut rng_w = Xoshiro256PlusPlus::seed_from_u64(seed);
        let (mut c, mut w) = (compiled.start(), walked.start());
        for ply in 0..30 {
            assert_eq!(
                compiled.legal_plies(&c),
                walked.legal_plies(&w),
                "seed {seed}, ply {ply}"
            );
            for p in 0..2 {
                assert_eq!(compiled.evaluate(&c, p), walked.evaluate(&w, p));
            }
            let drawn = compiled.play_random(&mut c, &mut rng_c);
            assert_eq!(drawn, walked.play_random(&mut w, &mut rng_w));
            assert_eq!(c, w);
            if drawn.is_none() {
                break;
            }
        }
        assert_eq!(c.outcome, w.outcome);
    }
    assert!(compiled.runaway().is_none() && walked.runaway().is_none());
}

#[test]
fn a_call_past_the_depth_is_an_error_of_the_file_that_every_command_reports() {
    // A row of four from a1: `row` needs five calls (the fifth on e1, empty), and may
    // make three.
    let text = runs(
        3,
        r#"
[[setup]]
put = "man"
owner = "a"
at = ["a1", "b1", "c1", "d1"]

[[actions]]
name = "drop"
choose = ['at in cells where empty(at) && row(a1, e, me) < 9']
effect = 'place(at, man, me)'
notation = '{at}'
"#,
    );
    let dir = Scratch::new("recursion-depth");
    let file = dir.join("runs.toml");
    std::fs::write(&file, &text).unwrap();
    let line = text
        .lines()
        .position(|l| l == "depth = 3")
        .expect("the depth line")
        + 1;
    for args in [
        vec!["moves"],
        vec!["check"],
        vec!["selfplay"],
        vec!["perft", "--depth", "2"],
        vec!["bench", "--playouts", "1"],
        vec!["match", "--bots", "random,random", "--games", "1"],
    ] {
        let out = rulebook()
            .arg(args[0])
            .arg(&file)
            .args(&args[1..])
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.starts_with("error: function `row` was called deeper than its `depth` of 3"),
            "{args:?}: {err}"
        );
        assert!(
            err.contains(&format!("runs.toml:{line}:9")),
            "{args:?}: {err}"
        );
        assert!(err.contains("raise `depth`"), "{args:?}: {err}");
    }
    // Deep enough, the same file plays.
    std::fs::write(dir.join("ok.toml"), text.replace("depth = 3", "depth = 5")).unwrap();
    let out = rulebook()
        .args(["perft", "--depth", "2"])
        .arg(dir.join("ok.toml"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

/// `down(n)`, counting down by calls, its body `nest` calls of `abs` around its call of
/// itself, with `depth`.
fn down(nest: usize, depth: i64) -> String {
    format!(
        "[functions.down]\nparams = [\"k: number\"]\nreturns = \"number\"\ndepth = {depth}\nvalue = 'if k <= 0 then 0 else {}1 + down(k - 1){}'\n",
        "abs(".repeat(nest),
        ")".repeat(nest)
    )
}

#[test]
fn a_recursive_call_deep_as_the_limits_allow_runs_on_a_test_thread() {
    // The deepest calls the stack bound admits, on this test thread's 2 MiB: a small
    // body at the deepest `depth` the file may have, and a body nesting 200 levels at
    // the deepest `depth` that leaves.
    for nest in [0, 200] {
        let loads = |depth: i64| {
            let text = where_game(&down(nest, depth), "true");
            spec::parse("test.toml", text)
                .and_then(|s| rulebook::compile::compile(&s, &[]))
                .is_ok()
        };
        let (mut lo, mut hi) = (1, rulebook::compile::MOST_DEPTH);
        while lo < hi {
            let mid = (lo + hi + 1) / 2;
            if loads(mid) { lo = mid } else { hi = mid - 1 }
        }
        let depth = lo;
        assert!(depth >= if nest == 0 { 800 } else { 35 }, "{nest}: {depth}");
        let text = where_game(
            &down(nest, depth),
            &format!("down({}) == {}", depth - 1, depth - 1),
        );
        let g = game_of(&text);
        assert_eq!(g.legal_plies(&g.start()).len(), 1, "{nest}: {depth}");
        assert!(g.runaway().is_none());
        // One deeper is past the limit: said, not a crash.
        let g = game_of(&where_game(
            &down(nest, depth),
            &format!("down({depth}) >= 0"),
        ));
        let _ = g.legal_plies(&g.start());
        assert!(g.runaway().is_some());
    }
}

#[test]
fn what_a_recursive_function_needs_is_refused_at_load_located() {
    let body = |extra: &str| {
        runs(
            6,
            &format!(
                "[functions.loop]\nparams = [\"c: cell\"]\n{extra}value = 'if c == none then 0 else loop(step(c, e))'\n\n[[actions]]\nname = \"t\"\nchoose = ['at in cells where loop(at) > 0']\nnotation = '{{at}}'\n"
            ),
        )
    };
    insta::assert_snapshot!("without_depth", refused(&body("")));
    insta::assert_snapshot!("without_returns", refused(&body("depth = 5\n")));
    insta::assert_snapshot!(
        "depth_out_of_range",
        refused(&body("returns = \"number\"\ndepth = 0\n"))
    );
    insta::assert_snapshot!(
        "returns_not_a_type",
        refused(&body("returns = \"integer\"\ndepth = 5\n"))
    );
    insta::assert_snapshot!(
        "returns_not_what_the_body_gives",
        refused(&body("returns = \"cell\"\ndepth = 5\n"))
    );
    // Through another function: the call that leads back is pointed at.
    let mutual = where_game(&PARITY.replace("depth = 40\n", ""), "even(3)");
    insta::assert_snapshot!("mutual_without_depth", refused(&mutual));
    // A `depth` on a function that does not call itself.
    let plain = where_game(
        "[functions.twice]\nparams = [\"k: number\"]\nreturns = \"number\"\ndepth = 3\nvalue = '2 * n'\n",
        "twice(2) == 4",
    );
    insta::assert_snapshot!("depth_not_recursive", refused(&plain));
    // Calls that could overflow the stack.
    let deep = where_game(
        &format!(
            "[functions.down]\nparams = [\"k: number\"]\nreturns = \"number\"\ndepth = 1000\nvalue = 'if k <= 0 then 0 else {}down(k - 1){}'\n",
            "abs(".repeat(20),
            ")".repeat(20)
        ),
        "down(3) == 3",
    );
    insta::assert_snapshot!("too_deep_for_the_stack", refused(&deep));
}
