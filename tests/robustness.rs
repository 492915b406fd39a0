//! Regression tests for issue 16: hangs, unbounded input, lost data and misleading
//! messages. Each test is named after the bug it pins, and failed before its fix.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The program, run from the repository root.
fn rulebook() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rulebook"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

/// Runs a command with `input` on its standard input.
fn run_with_stdin(cmd: &mut Command, input: impl AsRef<[u8]>) -> Output {
    use std::io::Write;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.as_ref().to_vec();
    // Written from another thread: a long input must not block against a full stdout.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A scratch folder of its own for one test, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rulebook-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const NEVER_ENDS: &str = "tests/games/never_ends.toml";

#[test]
fn a_game_that_never_ends_stops_at_the_default_ply_cap_in_selfplay_match_and_play() {
    let cap = rulebook::compile::DEFAULT_MAX_PLIES;
    let dir = scratch("never-ends");
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
        Some(r#"{"end":{"winners":[],"reason":"ply cap"}}"#)
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
    let dir = scratch("bench-forever");
    let file = dir.join("forever.toml");
    let text = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(NEVER_ENDS))
        .unwrap()
        .replace("[game]\n", "[game]\nmax_plies = 4000000000\n");
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
