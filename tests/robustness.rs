//! Regression tests for issue 16: hangs, unbounded input, lost data and misleading
//! messages. Each test is named after the bug it pins, and failed before its fix.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::common::{Scratch, rulebook, run_with_stdin, stderr, stdout};

const NEVER_ENDS: &str = "tests/games/never_ends.toml";

#[test]
fn a_game_that_never_ends_stops_at_the_default_ply_cap_in_selfplay_match_and_play() {
    let cap = rulebook::compile::DEFAULT_MAX_PLIES;
    let dir = Scratch::new("never-ends");
    let trace = dir.join("t.jsonl");
    let out = rulebook()
        .args(["selfplay", NEVER_ENDS, "--trace"])
        .arg(&trace)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let trace = std::fs::read_to_string(&trace).unwrap();
    assert_eq!(trace.lines().count() as u32, 1 + cap + 1);
    assert_eq!(
        trace.lines().last(),
        Some(concat!(
            r#"{"end":{"winners":[],"reason":"ply cap","why":"the ply cap of 10000 plies was "#,
            r#"reached (a limit of the program, not a rule of the game: `max_plies` in the "#,
            r#"game file)"}}"#
        ))
    );

    let out = rulebook()
        .args([
            "match",
            NEVER_ENDS,
            "--bots",
            "greedy,random",
            "--games",
            "2",
        ])
        .args(["--jobs", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(&format!("{:>10.1}", cap as f64)),
        "{}",
        stdout(&out)
    );

    let out = run_with_stdin(
        rulebook()
            .args(["play", NEVER_ENDS, "--seed", "1"])
            .args(["--seat", "a=greedy", "--seat", "b=random"]),
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("game over: draw (ply cap)"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn bench_honours_its_seconds_inside_a_playout_that_never_ends() {
    let dir = Scratch::new("bench-forever");
    let file = dir.join("forever.toml");
    // The longest game a file may ask for (100,000 plies), each ply a walk over the 676
    // cells of the largest board: a playout far longer than the time given.
    let text = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(NEVER_ENDS))
        .unwrap()
        .replace("[game]\n", "[game]\nmax_plies = 100000\n")
        .replace("files = 2\nranks = 1", "files = 26\nranks = 26")
        .replace(
            "notation = 'pass'",
            "notation = 'pass'\neffect = 'for c in cells where empty(c) { seen = seen + 1 }'\n\
             [vars.global]\nseen = 0",
        );
    std::fs::write(&file, text).unwrap();
    let clock = Instant::now();
    let out = rulebook()
        .args(["bench", "--seconds", "0.3"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // 0.3 s of playouts and half a second of MCTS; hours without the clock in the playout.
    assert!(
        clock.elapsed() < Duration::from_secs(30),
        "{:?}",
        clock.elapsed()
    );
    assert!(
        stdout(&out).contains("endings unfinished at the time limit 100.0%"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn check_warns_when_its_probe_games_never_end() {
    let out = rulebook().args(["check", NEVER_ENDS]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with(&format!("{NEVER_ENDS}: ok: Never ends")));
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!(
            "warning: {NEVER_ENDS}: none of 3 random games ended by the rules: each reached \
             the ply cap (10000 plies) and was called a draw. Can the end rules be met?"
        )),
        "{err}"
    );
    // The shipped games end: no warning.
    let out = rulebook()
        .args(["check", "games/bounce.toml", "games/splut.toml"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(stderr(&out), "");
}

/// Runs the program under a 4 GB address-space limit, so that a regression that reads a
/// never-ending input fails fast instead of taking the machine's memory.
fn bounded(args: &[&str], input: &[u8]) -> Output {
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let script = format!(
        "ulimit -v 4194304; exec '{}' {}",
        env!("CARGO_BIN_EXE_rulebook"),
        quoted.join(" ")
    );
    run_with_stdin(
        Command::new("sh")
            .args(["-c", &script])
            .current_dir(env!("CARGO_MANIFEST_DIR")),
        input,
    )
}

#[test]
fn check_of_dev_zero_is_refused_not_read_until_memory_runs_out() {
    let out = bounded(&["check", "/dev/zero"], b"");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "error: cannot read the game file: it is larger than 1 MiB, more than any game file: \
         is it the right file?\n  --> /dev/zero\n"
    );
}

#[test]
fn replay_of_dev_zero_and_of_a_transcript_whose_file_is_dev_zero_are_refused() {
    let out = bounded(&["replay", "/dev/zero"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "cannot read /dev/zero: it is larger than 8 MiB, more than any transcript: is it the \
         right file?\n"
    );
    let dir = Scratch::new("dev-zero-transcript");
    let path = dir.join("t.txt");
    std::fs::write(
        &path,
        "# rulebook transcript\ngame: STAQS\nfile: /dev/zero\nseed: 0\nresult: unfinished\n\n",
    )
    .unwrap();
    let out = bounded(&["replay", path.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("cannot read the game file: it is larger than 1 MiB"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn load_of_dev_zero_in_play_is_refused_and_the_game_goes_on() {
    let out = bounded(
        &["play", "games/staqs.toml", "--seed", "1"],
        b"load /dev/zero\nhistory\nquit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("cannot read /dev/zero: it is larger than 8 MiB"),
        "{text}"
    );
    assert!(text.contains("no ply has been played"), "{text}");
}

#[test]
fn a_game_file_that_is_not_utf8_is_refused_with_its_line_and_column() {
    let dir = Scratch::new("not-utf8");
    let path = dir.join("latin1.toml");
    std::fs::write(&path, b"[game]\nname = \"caf\xe9\"\n").unwrap();
    let out = rulebook().arg("check").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with(
            "error: cannot read the game file: it is not UTF-8 text (line 2, column 12), and a \
             game file is text"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_ten_megabyte_repl_line_is_refused_without_being_echoed_and_the_session_goes_on() {
    let mut input = vec![b'x'; 10 << 20];
    input.extend_from_slice(b"\nc3\nhistory\nquit\nno\n");
    let out = run_with_stdin(
        rulebook().args(["play", "games/staqs.toml", "--seed", "1"]),
        input,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.len() < 10_000, "{} bytes of output", text.len());
    assert!(
        text.contains(
            "line 1 of the input is 10485760 bytes long, more than the 4096 a command may hold: \
             ignored"
        ),
        "{text}"
    );
    assert!(text.contains("1. blue c3"), "{text}");
}

#[test]
fn invalid_utf8_on_standard_input_is_reported_and_the_later_lines_are_still_read() {
    let out = run_with_stdin(
        rulebook().args(["play", "games/staqs.toml", "--seed", "1"]),
        b"c3\n\xff\xfe oops\nhistory\nquit\nno\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("line 2 of the input is not UTF-8 text: ignored"),
        "{text}"
    );
    // Before, the session ended at the bad line, silently and with exit code 0.
    assert!(text.contains("1. blue c3\n2. white "), "{text}");
}

#[test]
fn ctrl_d_at_the_save_prompt_says_the_game_was_left_unsaved() {
    let out = run_with_stdin(
        rulebook().args(["play", "games/staqs.toml", "--seed", "1"]),
        "c3\nquit\n",
    );
    assert!(out.status.success());
    assert!(
        stdout(&out).ends_with("\nend of input: left without saving\n"),
        "{}",
        stdout(&out)
    );
}

/// The game that never ends, renamed and its pieces and plies written as `name`,
/// `symbol` and `notation` say (TOML basic strings: `\u001b` is an escape character),
/// in a scratch folder that lasts as long as the value returned with it.
fn never_ends_as(name: &str, symbol: &str, notation: &str) -> (crate::common::Scratch, PathBuf) {
    let text = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(NEVER_ENDS))
        .unwrap()
        .replace("name = \"Never ends\"", &format!("name = \"{name}\""))
        .replace("a = \"A\"", &format!("a = \"{symbol}\""))
        .replace("notation = 'pass'", &format!("notation = \"{notation}\""));
    let dir = Scratch::new(&format!(
        "escapes-{}",
        name.len() + notation.len() + symbol.len()
    ));
    let path = dir.join("g.toml");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

#[test]
fn escape_sequences_in_a_game_name_a_ply_and_a_repl_line_are_escaped_on_output() {
    // A newline in the name used to print a second, fake `ok` line.
    let (_dir, path) = never_ends_as("x\\nfake.toml: ok: \\u001b[2J", "A", "pass\\u001b[31m");
    let out = rulebook().arg("check").arg(&path).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.contains(": ok: x\\nfake.toml: ok: \\u{1b}[2J"),
        "{text}"
    );
    let out = rulebook().arg("moves").arg(&path).output().unwrap();
    assert_eq!(stdout(&out), "pass\\u{1b}[31m\n");

    let out = run_with_stdin(
        rulebook()
            .arg("play")
            .arg(&path)
            .args(["--seat", "b=random"]),
        "zz\u{1b}[31m\nhelp \u{1b}]0;title\u{7}\nmoves\n1\nquit\nno\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text:?}"
    );
    assert!(text.contains("`zz\\u{1b}[31m` is not"), "{text}");
    assert!(text.contains("b plays pass\\u{1b}[31m"), "{text}");
}

#[test]
fn a_piece_symbol_with_a_control_character_is_refused() {
    let (_dir, path) = never_ends_as("Never ends", "\\u001b", "pass");
    let out = rulebook().arg("check").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.starts_with("error: a piece symbol is one or two printable characters, not digits"),
        "{err}"
    );
    assert!(!err.contains('\u{1b}'), "{err:?}");
}

#[test]
fn a_transcript_with_a_header_key_twice_is_refused_with_the_line() {
    let dir = Scratch::new("twice");
    for (key, value, line) in [
        ("seed", "1", 6),
        ("param diagonal_steps", "true", 6),
        ("file", "games/staqs.toml", 6),
    ] {
        let path = dir.join("t.txt");
        std::fs::write(
            &path,
            format!(
                "# rulebook transcript\ngame: STAQS\nfile: games/staqs.toml\n\
                 param diagonal_steps: false\nseed: 0\n{key}: {value}\nresult: unfinished\n\n"
            ),
        )
        .unwrap();
        let out = rulebook().arg("replay").arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{key}");
        let first = if key == "file" {
            3
        } else if key == "seed" {
            5
        } else {
            4
        };
        assert!(
            stderr(&out).ends_with(&format!(
                "t.txt: line {line}: `{key}` is given twice in the header (first on line \
                 {first}): keep the right one\n"
            )),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn every_numeric_option_out_of_its_range_is_refused_not_clamped_or_run() {
    // Before, `--depth 0` printed 1, `--games 0` printed an empty table, `iters=0` ran one
    // iteration and `alphabeta:ms=18446744073709551615` searched until memory ran out.
    let cases: &[(&[&str], &str)] = &[
        (
            &["perft", "games/staqs.toml", "--depth", "0"],
            "0 is not in 1..=64",
        ),
        (
            &["perft", "games/staqs.toml", "--depth", "65"],
            "65 is not in 1..=64",
        ),
        (
            &["selfplay", "games/staqs.toml", "--max-plies", "0"],
            "0 is not in 1..",
        ),
        (
            &[
                "match",
                "games/staqs.toml",
                "--bots",
                "random",
                "--games",
                "0",
            ],
            "0 is not in 1..=1000000000",
        ),
        (
            &[
                "match",
                "games/staqs.toml",
                "--bots",
                "random",
                "--jobs",
                "0",
            ],
            "0 is not in 1..=256",
        ),
        (
            &[
                "match",
                "games/staqs.toml",
                "--bots",
                "random",
                "--jobs",
                "257",
            ],
            "257 is not in 1..=256",
        ),
    ];
    for (args, expected) in cases {
        let out = rulebook().args(*args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains(expected),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    for (spec, expected) in [
        (
            "mcts:iters=0",
            "bot option `iters=0` of `mcts`: it must be from 1 to 10000000",
        ),
        ("mcts:iters=10000001", "it must be from 1 to 10000000"),
        (
            "mcts:ms=0",
            "bot option `ms=0` of `mcts`: it must be from 1 to 3600000",
        ),
        ("mcts:ms=3600001", "it must be from 1 to 3600000"),
        (
            "mcts:playout=0",
            "bot option `playout=0` of `mcts`: it must be from 1 to 1000000",
        ),
        (
            "mcts:c=101",
            "bot option `c=101` of `mcts`: it must be from 0 to 100",
        ),
        (
            "alphabeta:depth=0",
            "bot option `depth=0` of `alphabeta`: it must be from 1 to 64",
        ),
        ("alphabeta:depth=65", "it must be from 1 to 64"),
        (
            "alphabeta:ms=18446744073709551615",
            "it must be from 1 to 3600000",
        ),
    ] {
        let out = rulebook()
            .args(["selfplay", "games/staqs.toml", "--bots"])
            .arg(format!("{spec},random"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{spec}");
        assert!(stderr(&out).contains(expected), "{spec}: {}", stderr(&out));
    }
}

#[test]
fn bench_seconds_0_says_it_leaves_no_time_rather_than_a_range_that_holds_0() {
    let out = rulebook()
        .args(["bench", "games/sight.toml", "--seconds", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "--seconds 0 leaves no time: the number of seconds must be more than 0 and at most 3600\n"
    );
}

#[test]
fn every_flag_and_argument_is_documented_in_help() {
    for command in [
        "check", "moves", "perft", "selfplay", "match", "merge", "bench", "replay", "play",
    ] {
        let out = rulebook().args([command, "--help"]).output().unwrap();
        let help = stdout(&out);
        let mut entries = 0;
        for line in help.lines().filter(|l| l.starts_with("  ")) {
            let entry = line.trim_start();
            if !(entry.starts_with('-') || entry.starts_with('<')) {
                continue;
            }
            entries += 1;
            // The flag, then two spaces or more, then its help.
            let described = entry
                .split_once("  ")
                .is_some_and(|(_, text)| !text.trim().is_empty());
            assert!(
                described,
                "`rulebook {command} --help`: no text for `{entry}`"
            );
            assert!(
                !entry.contains("[default: 0]") || entry.contains("--seed"),
                "{entry}"
            );
        }
        assert!(entries >= 2, "{command}: {help}");
    }
}

#[test]
fn a_transcript_with_a_byte_order_mark_is_read_like_a_game_file() {
    let dir = Scratch::new("bom");
    let path = dir.join("t.txt");
    std::fs::write(
        &path,
        "\u{feff}# rulebook transcript\ngame: STAQS\nfile: games/staqs.toml\n\
         param diagonal_steps: false\nseed: 0\nresult: unfinished\n\n1. blue c3\n",
    )
    .unwrap();
    let out = rulebook().arg("replay").arg(&path).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).ends_with("t.txt: 1 ply replayed, result: unfinished\n"));
}

/// A STAQS transcript of one ply whose `file:` line is `file`.
fn staqs_transcript(file: &str) -> String {
    format!(
        "# rulebook transcript\ngame: STAQS\nfile: {file}\nparam diagonal_steps: false\n\
         seed: 0\nresult: unfinished\n\n1. blue c3\n"
    )
}

#[test]
fn replay_finds_the_game_file_beside_the_transcript_and_takes_game_to_name_another() {
    let dir = Scratch::new("beside");
    std::fs::copy(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games/staqs.toml"),
        dir.join("my-staqs.toml"),
    )
    .unwrap();
    let path = dir.join("t.txt");
    std::fs::write(&path, staqs_transcript("my-staqs.toml")).unwrap();
    // Run from the repository root, where there is no my-staqs.toml.
    let out = rulebook().arg("replay").arg(&path).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));

    std::fs::write(&path, staqs_transcript("gone/staqs.toml")).unwrap();
    let out = rulebook().arg("replay").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("the game file `gone/staqs.toml` is neither beside it (")
            && stderr(&out).contains("nor in the working folder; give it with --game FILE"),
        "{}",
        stderr(&out)
    );
    let out = rulebook()
        .arg("replay")
        .arg(&path)
        .args(["--game", "games/staqs.toml"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_transcript_replayed_on_another_game_file_says_which_game_it_is_of() {
    let dir = Scratch::new("other-game");
    let path = dir.join("t.txt");
    std::fs::write(&path, staqs_transcript("games/staqs.toml")).unwrap();
    // Before: "unknown parameter `diagonal_steps`", Bounce's parameters being size only.
    let out = rulebook()
        .arg("replay")
        .arg(&path)
        .args(["--game", "games/bounce.toml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).ends_with(
            "t.txt: this transcript is of game `STAQS`, but games/bounce.toml holds `Bounce`\n"
        ),
        "{}",
        stderr(&out)
    );
    std::fs::write(&path, staqs_transcript("games/bounce.toml")).unwrap();
    let out = rulebook().arg("replay").arg(&path).output().unwrap();
    assert!(
        stderr(&out).ends_with(
            "this transcript is of game `STAQS`, but games/bounce.toml holds `Bounce`; give \
             the right game file with --game FILE\n"
        ),
        "{}",
        stderr(&out)
    );
}
