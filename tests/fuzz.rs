//! Bad input never crashes: mutated copies of the real game files, mutated transcripts and
//! random lines typed into the REPL must each end in a message, never a panic.
//!
//! These are short proptest runs (they run with the suite, in CI); a longer run is the same
//! tests with more cases: `PROPTEST_CASES=20000 cargo test --release --test main fuzz::`
//! (docs/performance.md has the last run).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::Command;

use proptest::prelude::*;
use rulebook::bots::Bot;
use rulebook::bots::random::RandomBot;
use rulebook::compile;
use rulebook::record::transcript::Transcript;
use rulebook::spec;

use crate::common;

/// Test game files mutated with the shipped ones, for what those do not use (variables per
/// kind and their tables of initial values).
const TEST_GAMES: [&str; 1] = ["tests/games/minidrop.toml"];

/// The path of the `i`th file to mutate: every shipped game, then the test games.
fn mutated_path(i: usize) -> String {
    let shipped = common::shipped_games();
    match shipped.get(i) {
        Some(name) => common::game_path(name),
        None => format!(
            "{}/{}",
            env!("CARGO_MANIFEST_DIR"),
            TEST_GAMES[i - shipped.len()]
        ),
    }
}

/// Characters that matter to TOML and to the expression language.
const ALPHABET: &[char] = &[
    '(', ')', '[', ']', '{', '}', '\'', '"', '=', ',', '.', ';', ':', '+', '-', '*', '/', '%', '<',
    '>', '!', '&', '|', '0', '1', '9', ' ', '\n', 'a', 'z', '_', '#', 'é',
];

/// One edit of a text: what to do, where (taken modulo the length) and with what.
#[derive(Clone, Debug)]
enum Edit {
    DeleteChar(usize),
    InsertChar(usize, char),
    ReplaceChar(usize, char),
    DeleteLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let ch = prop::sample::select(ALPHABET);
    prop_oneof![
        any::<usize>().prop_map(Edit::DeleteChar),
        (any::<usize>(), ch.clone()).prop_map(|(i, c)| Edit::InsertChar(i, c)),
        (any::<usize>(), ch).prop_map(|(i, c)| Edit::ReplaceChar(i, c)),
        any::<usize>().prop_map(Edit::DeleteLine),
        any::<usize>().prop_map(Edit::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapLines(a, b)),
    ]
}

/// Applies the edits in turn (characters, not bytes, so the text stays UTF-8).
fn apply(text: &str, edits: &[Edit]) -> String {
    let mut text = text.to_string();
    for e in edits {
        let mut chars: Vec<char> = text.chars().collect();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let n = chars.len().max(1);
        let l = lines.len().max(1);
        match e {
            Edit::DeleteChar(i) if !chars.is_empty() => {
                chars.remove(i % n);
            }
            Edit::InsertChar(i, c) => chars.insert(i % (chars.len() + 1), *c),
            Edit::ReplaceChar(i, c) if !chars.is_empty() => chars[i % n] = *c,
            Edit::DeleteLine(i) if !lines.is_empty() => {
                lines.remove(i % l);
                text = lines.join("\n");
                continue;
            }
            Edit::DuplicateLine(i) if !lines.is_empty() => {
                let line = lines[i % l].clone();
                lines.insert(i % l, line);
                text = lines.join("\n");
                continue;
            }
            Edit::SwapLines(a, b) if !lines.is_empty() => {
                lines.swap(a % l, b % l);
                text = lines.join("\n");
                continue;
            }
            _ => {}
        }
        text = chars.into_iter().collect();
    }
    text
}

/// Loads a game from text; if it compiles, plays a few random plies and writes their
/// notation, so faults that only show at run time surface too.
fn load_and_play(text: String, seed: u64) {
    match spec::parse("mutated.toml", text).and_then(|s| compile::compile(&s, &[])) {
        Ok(game) => {
            let mut state = game.start();
            let mut before = None;
            let mut bot = RandomBot::new(seed);
            for _ in 0..12 {
                let Some(ply) = bot.choose(&game, &state) else {
                    break;
                };
                let _ = game.notation(&state, &ply);
                before = Some(state.clone());
                game.play(&mut state, &ply);
            }
            let _ = rulebook::render::board::render(&game, &state);
            let _ = rulebook::render::picture::svg(&game, &state, before.as_ref());
        }
        Err(diagnostic) => {
            let shown = diagnostic.to_string();
            assert!(shown.starts_with("error"), "a diagnostic: {shown}");
        }
    }
}

proptest! {
    #![proptest_config(crate::common::config(96))]

    #[test]
    fn mutated_game_files_give_a_diagnostic_or_a_game_never_a_panic(
        game in 0..common::shipped_games().len() + TEST_GAMES.len(),
        edits in prop::collection::vec(edit(), 1..6),
        seed in any::<u64>(),
    ) {
        let path = mutated_path(game);
        let original = std::fs::read_to_string(&path).unwrap();
        let text = apply(&original, &edits);
        let outcome = catch_unwind(AssertUnwindSafe(|| load_and_play(text.clone(), seed)));
        prop_assert!(outcome.is_ok(), "panicked on {path} after {edits:?}:\n{text}");
    }

    #[test]
    fn random_bytes_are_refused_with_a_diagnostic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let outcome = catch_unwind(AssertUnwindSafe(|| load_and_play(text.clone(), 0)));
        prop_assert!(outcome.is_ok(), "panicked on {text:?}");
    }

    #[test]
    fn mutated_transcripts_are_read_or_refused_by_line_never_a_panic(
        edits in prop::collection::vec(edit(), 1..5),
    ) {
        let game = common::game("staqs", &[]);
        let record = rulebook::cli::selfplay(&game, "games/staqs.toml", 5)
            .unwrap_or_else(|e| panic!("{}", e.0));
        let text = apply(&record.transcript.to_text(), &edits);
        let outcome = catch_unwind(AssertUnwindSafe(|| match Transcript::parse(&text) {
            Ok(t) => {
                if let Err(e) = t.replay(&game, |_, _| {}) {
                    assert!(e.line >= 1, "a line number: {e}");
                }
            }
            Err(e) => assert!(e.line >= 1 && e.line <= text.lines().count().max(1), "{e}"),
        }));
        prop_assert!(outcome.is_ok(), "panicked on:\n{text}");
    }
}

/// Lines a person might type, right and wrong.
fn repl_line() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "moves",
            "board",
            "undo",
            "redo",
            "history",
            "rules",
            "help",
            "help undo",
            "help nothing",
            "new",
            "resign",
            "bot",
            "seat",
            "seat blue",
            "seat blue mcts:iters=5",
            "seat red wizard",
            "seat nobody human",
            "save",
            "load",
            "load /nonexistent/x.txt",
            "load /dev/zero",
            "back",
            "no",
            "hint",
            "save /nonexistent/dir/x.txt",
            "1",
            "0",
            "99999999999999999999",
            "-3",
            "b1-a1",
            "B1 - A1",
            "xb1",
            "  ",
            "",
        ])
        .prop_map(str::to_string),
        "[ -~]{0,12}",
        "[0-9]{1,3}",
        // Written like plies, legal or not: the refusal is explained from the game file.
        "[STDx]?[a-i][0-9] ?- ?[a-i][0-9]( lev [a-i][0-9]| throw [nesw]| pull)?",
    ]
}

proptest! {
    #![proptest_config(crate::common::config(24))]

    #[test]
    fn random_repl_sessions_never_panic(
        game in prop::sample::select(vec![
            ("bounce", "size=4", "blue=random"),
            ("staqs", "diagonal_steps=true", "white=random"),
            ("splut", "players=3", "west=random"),
        ]),
        lines in prop::collection::vec(repl_line(), 1..25),
    ) {
        let (name, param, seat) = game;
        let mut script = lines.join("\n");
        script.push_str("\nquit\nno\n");
        // In a folder of its own: `new` and `load` offer to save first, and the next random
        // line is then taken as a file name.
        let dir = crate::common::Scratch::new("fuzz-repl");
        let out = common::run_with_stdin(
            Command::new(env!("CARGO_BIN_EXE_rulebook"))
                .current_dir(&dir)
                .arg("play")
                .arg(common::game_path(name))
                .args(["--param", param, "--seed", "1", "--seat", seat]),
            &script,
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        prop_assert!(
            out.status.success() && !stderr.contains("panicked"),
            "{name}: {script}\n{stderr}"
        );
    }
}

/// Bounce with its heuristic replaced by `score`.
fn bounce_scored(score: &str) -> String {
    let text = std::fs::read_to_string(common::game_path("bounce")).unwrap();
    let start = text.find("score = '").expect("bounce has a score");
    let end = start + text[start..].find('\n').unwrap();
    format!("{}score = '{score}'{}", &text[..start], &text[end..])
}

/// Bounce with its move's `check` and `effect` replaced.
fn bounce_move(check: &str, effect: &str) -> String {
    let text = std::fs::read_to_string(common::game_path("bounce")).unwrap();
    let text = text.replacen(
        "check = 'group_size(to) > before'",
        &format!("check = '{check}'"),
        1,
    );
    text.replacen(
        "effect = 'move(from, to)'",
        &format!("effect = '{effect}'"),
        1,
    )
}

/// Compiles a game file's text, then lists the plies and scores the start, on this test
/// thread (a 2 MiB stack): what a game file's expressions go through.
fn compile_and_play(text: String) -> Result<(), String> {
    let source = spec::parse("deep.toml", text).map_err(|d| d.to_string())?;
    let game = compile::compile(&source, &[]).map_err(|d| d.to_string())?;
    let start = game.start();
    let _ = game.legal_plies(&start);
    let _ = game.evaluate(&start, 0);
    Ok(())
}

#[test]
fn expressions_nested_as_deep_as_the_limit_load_and_evaluate_on_a_test_thread() {
    let n = rulebook::lang::parser::MAX_NESTING;
    let nested = |open: &str, inner: &str, close: &str, times: usize| {
        format!("{}{inner}{}", open.repeat(times), close.repeat(times))
    };
    for score in [
        format!("{}group_size(a1)", "-".repeat(n - 8)),
        nested("(", "groups(me)", ")", n - 8),
        nested("1 + (", "groups(me)", ")", n - 8),
        nested("abs(", "groups(me)", ")", n - 8),
        nested("if groups(me) > 1 then 1 else ", "groups(me)", "", n - 8),
        nested(
            "max(x in cells where x == a1: ",
            "groups(me)",
            ")",
            n / 2 - 8,
        ),
    ] {
        compile_and_play(bounce_scored(&score)).unwrap_or_else(|e| panic!("{e}"));
    }
    let deep_check = nested("!(", "group_size(to) > before", ")", n - 8);
    let deep_effect = nested("if !empty(from) { ", "move(from, to)", " }", n / 2 - 8);
    compile_and_play(bounce_move(&deep_check, &deep_effect)).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn long_flat_expressions_of_thousands_of_operators_are_accepted() {
    // A chain of one operator is a balanced tree: thousands of terms nest a dozen deep.
    let terms = 5_000;
    let check = (0..terms)
        .map(|i| format!("group_size(to) > before - {}", i % 3))
        .collect::<Vec<_>>()
        .join(" && ");
    compile_and_play(bounce_move(&check, "move(from, to)")).unwrap_or_else(|e| panic!("{e}"));
    let sum = vec!["group_size(a1)"; terms].join(" + ");
    compile_and_play(bounce_scored(&sum)).unwrap_or_else(|e| panic!("{e}"));
    let any = (0..terms)
        .map(|i| format!("to == {}", ["a1", "b2", "c3", "d4"][i % 4]))
        .collect::<Vec<_>>()
        .join(" || ");
    let filter = format!("to in cells where empty(to) && !({any})");
    let text = bounce_move("group_size(to) > before", "move(from, to)").replacen(
        "'to in cells where empty(to)'",
        &format!("'{filter}'"),
        1,
    );
    compile_and_play(text).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn an_expression_nested_past_the_limit_is_refused_with_a_located_diagnostic() {
    let n = rulebook::lang::parser::MAX_NESTING;
    let deep = 20_000;
    let nested = |open: &str, inner: &str, close: &str, times: usize| {
        format!("{}{inner}{}", open.repeat(times), close.repeat(times))
    };
    let texts = [
        bounce_scored(&format!("{}1", "-".repeat(deep))),
        bounce_scored(&format!("{}1", "! ".repeat(deep))),
        bounce_scored(&nested("(", "1", ")", deep)),
        bounce_scored(&nested("[", "1", "]", deep)),
        bounce_scored(&nested("abs(", "1", ")", n + 1)),
        bounce_scored(&nested("1 + (", "1", ")", n + 1)),
        bounce_scored(&nested("if true then 1 else ", "1", "", deep)),
        bounce_scored(&format!("{}1", "1 - 2 * ".repeat(n))),
        bounce_move("true", &nested("if true { ", "move(from, to)", " }", deep)),
        bounce_move(
            "true",
            &format!("{}{{ move(from, to) }}", "if true { } else ".repeat(deep)),
        ),
    ];
    for text in texts {
        let error = compile_and_play(text).expect_err("nested too deeply");
        assert!(error.contains("deep.toml:"), "{error}");
        assert!(error.contains('^'), "{error}");
        assert!(error.contains("nests too deeply"), "{error}");
    }
}

#[test]
fn functions_calling_functions_are_bounded_once_expanded() {
    // Each body nests 100 deep and calls the next: every one is within the limit, but
    // expanded into one expression they are not.
    let chain = 10;
    let mut text = bounce_scored(&format!("deeper{}(groups(me))", chain - 1));
    for i in 0..chain {
        let inner = if i > 0 {
            format!("deeper{}(x)", i - 1)
        } else {
            "x".to_string()
        };
        text.push_str(&format!(
            "\n[functions.deeper{i}]\nparams = [\"x: number\"]\nvalue = '{}{inner}{}'\n",
            "abs(".repeat(100),
            ")".repeat(100)
        ));
    }
    let error = compile_and_play(text).expect_err("nested too deeply once expanded");
    assert!(error.contains("deep.toml:"), "{error}");
    assert!(
        error.contains("once its function calls are expanded"),
        "{error}"
    );
}

#[test]
fn a_function_of_thousands_of_parameters_is_bounded_where_it_is_called() {
    // Each parameter binds its argument around the body: a level of its own once expanded
    // (40,000 of them fit in a file of 1 MiB, and overflowed the stack evaluating them).
    let params = 40_000;
    let names: Vec<String> = (0..params).map(|i| format!("\"p{i}: number\"")).collect();
    let args = vec!["groups(me)"; params].join(", ");
    let mut text = bounce_scored(&format!("wide({args})"));
    text.push_str(&format!(
        "\n[functions.wide]\nparams = [{}]\nvalue = '{}'\n",
        names.join(", "),
        (0..params)
            .map(|i| format!("p{i}"))
            .collect::<Vec<_>>()
            .join(" + ")
    ));
    let error = compile_and_play(text).expect_err("nested too deeply once expanded");
    assert!(error.contains("deep.toml:"), "{error}");
    assert!(
        error.contains("once its function calls are expanded"),
        "{error}"
    );
}
