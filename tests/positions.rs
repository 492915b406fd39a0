//! Every construct the checker accepts, in every place a game file may write an expression:
//! either the game plays (random games to the end, with scores, the heuristic and the board
//! drawn in every position) or the loader refuses it with a located error. Regression for a
//! crash: an aggregate in a phase condition or in `[turns].plies` was evaluated with no
//! local slots and panicked once a ply had been played.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rulebook::engine::game::Game;
use rulebook::render::board::render;
use rulebook::{compile, spec};

/// Numbers built from each construct that binds local slots: aggregates of every kind,
/// nested aggregates, a collection from a native, and `first`/`last`, which give cells;
/// and variables per kind and per player and kind, over `kinds` and read for `none`.
const NUMBERS: [&str; 10] = [
    "count(c in cells where owner(c) == me)",
    "sum(c in cells where !empty(c): count(d in adjacent(c) where empty(d)))",
    "max(c in cells: if owner(c) == me then height(c) else 0)",
    "min(c in cells where empty(c): count(d in adjacent(c)))",
    "if first(c in cells where empty(c)) == none then 0 else 1",
    "if last(c in cells where owner(c) == me) == none then 2 else 3",
    "count(c in cells where any(d in adjacent(c): owner(d) == me) && all(d in adjacent(c): height(d) < 5))",
    "max(c in cells where owner(c) == me: group_size(c))",
    "sum(k in kinds: held(me, k) + seen(k))",
    "held(owner(first(c in cells where empty(c))), top(a1)) + seen(top(last(c in cells)))",
];

/// Conditions: each number compared, so every construct also stands where a condition must.
fn conditions() -> Vec<String> {
    NUMBERS.iter().map(|n| format!("({n}) >= 0")).collect()
}

/// A small placement-then-step game on a 3x3 board, with `slot` filled in one place.
fn game_text(place: Place, expr: &str) -> String {
    let fill = |p: Place, default: &str| {
        if p == place {
            expr.to_string()
        } else {
            default.to_string()
        }
    };
    let phase = fill(Place::Phase, "count(c in cells where owner(c) == me) < 2");
    let plies = fill(Place::Plies, "1");
    let check = fill(Place::Check, "true");
    let filter = fill(Place::Where, "true");
    let var = fill(Place::Effect, "0");
    let end = fill(Place::EndWhen, "false");
    let winner = fill(Place::Winner, "true");
    let score = fill(Place::Score, "count(c in cells where owner(c) == me)");
    let eval = fill(Place::Eval, "0");
    let shown = fill(Place::ShownHeight, "height(here)");
    format!(
        r#"
[game]
name = "positions"

[[players]]
name = "a"

[[players]]
name = "b"

[board]
files = 3
ranks = 3
shown_height = '{shown}'

[pieces.p]
owned = true
symbol = {{ a = "A", b = "B" }}

[vars.global]
tally = 0
seen = {{ init = 0, per = "kind" }}

[vars.player]
held = {{ init = {{ a = 1, b = 2 }}, per = "kind" }}

[turns]
plies = '{plies}'

[[phases]]
name = "placing"
when = '{phase}'

[[phases]]
name = "moving"
when = 'true'

[[actions]]
name = "place"
phase = "placing"
choose = ['at in cells where empty(at)', 'where {filter}']
effect = 'place(at, p, me); tally = {var}; held(me, p) = held(me, p) + 1; seen(top(at)) = seen(top(at)) + 1'
check = '{check}'
notation = '{{at}}'

[[actions]]
name = "step"
phase = "moving"
choose = ['from in cells where owner(from) == me', 'to in adjacent(from) where empty(to)']
effect = 'move(from, to)'
notation = '{{from}}-{{to}}'

[[end]]
when = '{end}'
result = "draw"

[[end]]
when = 'plies == 11'
winner = 'if {winner} then me else me'

[[end]]
when = 'plies == 12'
result = "score"

[scoring]
score = '{score}'

[eval]
score = '{eval}'
"#
    )
}

/// The places an expression may stand in that are evaluated against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Phase,
    Plies,
    Check,
    Where,
    Effect,
    EndWhen,
    Winner,
    Score,
    Eval,
    ShownHeight,
}

impl Place {
    const ALL: [Place; 10] = [
        Place::Phase,
        Place::Plies,
        Place::Check,
        Place::Where,
        Place::Effect,
        Place::EndWhen,
        Place::Winner,
        Place::Score,
        Place::Eval,
        Place::ShownHeight,
    ];

    /// Whether the place takes a condition (else a number).
    fn wants_condition(self) -> bool {
        matches!(
            self,
            Place::Phase | Place::Check | Place::Where | Place::EndWhen | Place::Winner
        )
    }
}

/// Plays seeded random games to the end, touching every evaluated place in every position.
fn play_out(g: &Game, what: &str) {
    play_out_with(g, None, what)
}

/// Plays the game compiled with closures and as trees side by side (see
/// `tests/compiled.rs`): the same renders, scores, heuristics, legal plies, draws and
/// positions, and every game ends.
fn play_out_both(source: &spec::Source, what: &str) {
    let g = compile::compile(source, &[]).unwrap_or_else(|d| panic!("{what}: refused\n{d}"));
    let walked =
        crate::walk::compile(source, &[]).unwrap_or_else(|d| panic!("{what}: refused\n{d}"));
    play_out_with(&g, Some(&walked), what)
}

fn play_out_with(g: &Game, walked: Option<&Game>, what: &str) {
    for seed in 0..6 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut s = g.start();
        let mut twin = walked.map(|w| (w, w.start(), Xoshiro256PlusPlus::seed_from_u64(seed)));
        for _ in 0..40 {
            let facts = (
                render(g, &s),
                g.scores(&s),
                g.evaluate(&s, 0),
                g.legal_with_notation(&s),
            );
            let ply = g.random_ply(&mut s, &mut rng);
            if let Some((w, ws, wrng)) = &mut twin {
                let walked_facts = (
                    render(w, ws),
                    w.scores(ws),
                    w.evaluate(ws, 0),
                    w.legal_with_notation(ws),
                );
                assert_eq!(
                    facts, walked_facts,
                    "{what}, seed {seed}: closures and trees differ"
                );
                assert_eq!(
                    ply,
                    w.random_ply(ws, wrng),
                    "{what}, seed {seed}: draws differ"
                );
            }
            let Some(ply) = ply else {
                break;
            };
            g.play(&mut s, &ply);
            if let Some((w, ws, _)) = &mut twin {
                w.play(ws, &ply);
                assert_eq!(&s, ws, "{what}, seed {seed}: positions differ");
            }
        }
        assert!(
            s.outcome.is_some(),
            "{what}, seed {seed}: the game did not end"
        );
    }
}

#[test]
fn every_construct_evaluates_in_every_position_the_checker_accepts() {
    let conditions = conditions();
    for place in Place::ALL {
        let exprs: Vec<&str> = if place.wants_condition() {
            conditions.iter().map(String::as_str).collect()
        } else {
            NUMBERS.to_vec()
        };
        for expr in exprs {
            let what = format!("{place:?} = {expr}");
            let text = game_text(place, expr);
            let source = spec::parse("positions.toml", text).unwrap_or_else(|d| panic!("{d}"));
            play_out_both(&source, &what);
        }
    }
}

#[test]
fn the_smallest_crashing_file_compiles_plays_and_perfts() {
    // The issue's case: an aggregate in the first phase's condition.
    let text = game_text(Place::Phase, "count(c in cells where owner(c) == me) < 2");
    let g = compile::compile(&spec::parse("p.toml", text).unwrap(), &[]).unwrap();
    play_out(&g, "phase");
    let mut s = g.start();
    assert_eq!(g.legal_plies(&s).len(), 9);
    let ply = g.legal_plies(&s)[0].clone();
    g.play(&mut s, &ply);
    assert_eq!(g.legal_plies(&s).len(), 8);
    // Nothing ends a game of three plies on nine cells: 9 * 8 * 7 leaves.
    assert_eq!(rulebook::cli::perft(&g, &g.start(), 3), 504);
}

/// The places evaluated once, before any position exists: only parameters (and `file`,
/// `rank` for shapes and setup) may be read there, and anything else is refused with the
/// line it stands on.
#[test]
fn constant_positions_refuse_position_constructs_with_their_line() {
    let aggregate = "count(c in cells where empty(c)) > 0";
    let cases = [
        (
            "a parameter check",
            format!("[params.k]\ndefault = 1\ncheck = '{aggregate}'\n"),
            String::new(),
            "true",
        ),
        (
            "a seat's presence",
            String::new(),
            format!("present = '{aggregate}'"),
            "true",
        ),
        ("a board shape", String::new(), String::new(), aggregate),
    ];
    for (what, params, seat, shape) in cases {
        let text = format!(
            "[game]\nname = \"c\"\n{params}\n[[players]]\nname = \"a\"\n{seat}\n\n[[players]]\nname = \"b\"\n\n[board]\nfiles = 3\nranks = 3\nshape = '{shape}'\n\n[pieces.p]\nowned = true\nsymbol = {{ a = \"A\", b = \"B\" }}\n\n[[actions]]\nname = \"x\"\nchoose = ['at in cells where empty(at)']\neffect = 'place(at, p, me)'\nnotation = '{{at}}'\n"
        );
        let line = text
            .lines()
            .position(|l| l.contains(aggregate))
            .expect("the aggregate's line")
            + 1;
        let err = spec::parse("c.toml", text)
            .and_then(|s| compile::compile(&s, &[]))
            .err()
            .unwrap_or_else(|| panic!("{what}: accepted"))
            .to_string();
        assert!(err.contains(&format!("c.toml:{line}:")), "{what}: {err}");
        assert!(err.contains("can be used here"), "{what}: {err}");
    }
}

/// Random well-typed expressions: numbers, conditions and cells built from every construct
/// of the language, with names bound by aggregates used inside them.
struct ExprGen {
    rng: Xoshiro256PlusPlus,
    /// Cell names in scope (the place's own, then aggregate variables).
    cells: Vec<String>,
    fresh: usize,
}

impl ExprGen {
    fn pick(&mut self, n: usize) -> usize {
        use rand::RngExt;
        self.rng.random_range(0..n)
    }

    fn bound<T>(&mut self, body: impl FnOnce(&mut Self, &str) -> T) -> (String, T) {
        self.fresh += 1;
        let name = format!("v{}", self.fresh);
        self.cells.push(name.clone());
        let out = body(self, &name);
        self.cells.pop();
        (name, out)
    }

    fn domain(&mut self, depth: u32) -> String {
        if self.pick(2) == 0 {
            "cells".to_string()
        } else {
            format!("adjacent({})", self.cell(depth))
        }
    }

    fn cell(&mut self, depth: u32) -> String {
        let options = self.cells.len() + usize::from(depth > 0);
        let i = self.pick(options.max(1));
        if i < self.cells.len() {
            return self.cells[i].clone();
        }
        if depth == 0 {
            return "none".to_string();
        }
        let op = if self.pick(2) == 0 { "first" } else { "last" };
        let domain = self.domain(depth - 1);
        let (v, cond) = self.bound(|g, _| g.condition(depth - 1));
        format!("{op}({v} in {domain} where {cond})")
    }

    fn number(&mut self, depth: u32) -> String {
        let leaves = 4;
        let k = if depth == 0 {
            self.pick(leaves)
        } else {
            self.pick(leaves + 7)
        };
        match k {
            0 => self.pick(5).to_string(),
            1 => "plies".to_string(),
            2 => "tally".to_string(),
            3 => {
                let cell = self.cell(depth.saturating_sub(1));
                match self.pick(3) {
                    0 => format!("height({cell})"),
                    1 => format!("held(owner({cell}), top({cell}))"),
                    _ => format!("seen(top({cell}))"),
                }
            }
            4 => {
                let ops = ["+", "-", "*", "/", "%"];
                let op = ops[self.pick(ops.len())];
                format!(
                    "({} {op} {})",
                    self.number(depth - 1),
                    self.number(depth - 1)
                )
            }
            5 => format!("-({})", self.number(depth - 1)),
            6 => format!(
                "(if {} then {} else {})",
                self.condition(depth - 1),
                self.number(depth - 1),
                self.number(depth - 1)
            ),
            7 => format!("group_size({})", self.cell(depth - 1)),
            _ => {
                let ops = ["count", "sum", "min", "max"];
                let op = ops[self.pick(ops.len())];
                let domain = self.domain(depth - 1);
                let (v, (filter, body)) = self.bound(|g, _| {
                    let filter = (g.pick(2) == 0).then(|| g.condition(depth - 1));
                    let body = (op != "count" || g.pick(2) == 0).then(|| {
                        if op == "count" {
                            g.condition(depth - 1)
                        } else {
                            g.number(depth - 1)
                        }
                    });
                    (filter, body)
                });
                let filter = filter.map_or(String::new(), |f| format!(" where {f}"));
                let body = body.map_or(String::new(), |b| format!(": {b}"));
                format!("{op}({v} in {domain}{filter}{body})")
            }
        }
    }

    fn condition(&mut self, depth: u32) -> String {
        let k = if depth == 0 {
            self.pick(3)
        } else {
            self.pick(9)
        };
        match k {
            0 => ["true", "false"][self.pick(2)].to_string(),
            1 => format!("empty({})", self.cell(depth.saturating_sub(1))),
            2 => format!("owner({}) == me", self.cell(depth.saturating_sub(1))),
            3 => {
                let ops = ["<", "<=", "==", "!=", ">", ">="];
                let op = ops[self.pick(ops.len())];
                format!(
                    "({} {op} {})",
                    self.number(depth - 1),
                    self.number(depth - 1)
                )
            }
            4 => {
                let op = if self.pick(2) == 0 { "&&" } else { "||" };
                format!(
                    "({} {op} {})",
                    self.condition(depth - 1),
                    self.condition(depth - 1)
                )
            }
            5 => format!("!({})", self.condition(depth - 1)),
            6 => format!("({} == {})", self.cell(depth - 1), self.cell(depth - 1)),
            _ => {
                let op = if self.pick(2) == 0 { "any" } else { "all" };
                let domain = self.domain(depth - 1);
                let (v, body) = self.bound(|g, _| g.condition(depth - 1));
                format!("{op}({v} in {domain}: {body})")
            }
        }
    }
}

/// The cell names a place binds before its expression is read.
fn cells_in_scope(place: Place) -> Vec<String> {
    match place {
        Place::Check | Place::Where | Place::Effect => vec!["at".to_string()],
        Place::ShownHeight => vec!["here".to_string()],
        _ => Vec::new(),
    }
}

proptest::proptest! {
    #![proptest_config(crate::common::config(64))]

    /// Generated well-typed expressions in every place: the checker accepts them (they are
    /// well-typed by construction) and random games with them run to the end without a panic.
    #[test]
    fn generated_expressions_run_in_every_place(seed: u64, place in 0..Place::ALL.len()) {
        let place = Place::ALL[place];
        let mut generator = ExprGen {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            cells: cells_in_scope(place),
            fresh: 0,
        };
        let expr = if place.wants_condition() {
            generator.condition(3)
        } else {
            generator.number(3)
        };
        let what = format!("{place:?} = {expr}");
        let source = spec::parse("generated.toml", game_text(place, &expr))
            .unwrap_or_else(|d| panic!("{d}"));
        play_out_both(&source, &what);
    }
}
