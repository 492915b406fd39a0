//! Nothing stuck: what a game file can make endless or huge is bounded and said. Chains
//! of a repeated part with several choices a play, long histories of repetitions, ply
//! caps, and `check` on a file whose move generation is very slow. (MCTS threads beyond
//! the cores, and its playouts where random games do not end: `bots::`.)

use crate::common::{Scratch, game_of, rulebook, stderr, stdout};

/// A piece whose repeated part has two choices a play and nothing that bounds them: 16
/// chains after one play, 16^64 after the most a part may repeat.
pub(crate) const CHAINS: &str = r#"
[game]
name = "chains"
[[players]]
name = "red"
[[players]]
name = "blue"
[board]
files = 5
ranks = 5
[pieces.p]
owned = true
symbol = { red = "R", blue = "B" }
[[setup]]
put = "p"
owner = "red"
at = ["c3"]
[vars.global]
plays = 0
[[actions]]
name = "go"
choose = ['from in cells where owner(from) == me']
notation = '{from}'
[[actions.then]]
repeat = "must"
choose = ['a in orthogonal', 'b in orthogonal']
effect = 'plays = plays + 1'
notation = ' {a}{b}'
"#;

#[test]
fn a_chain_of_several_choices_a_play_is_cut_short_with_a_located_error() {
    // Issue 49: `moves`, `check` and `selfplay` never returned and grew to 6-8 GB.
    let dir = Scratch::new("runaway-chains");
    let file = dir.join("chains.toml");
    std::fs::write(&file, CHAINS).unwrap();
    for args in [
        vec!["moves"],
        vec!["check"],
        vec!["selfplay"],
        vec!["perft", "--depth", "1"],
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
            err.starts_with(
                "error: action `go` makes more plies in one position than can be listed"
            ),
            "{args:?}: {err}"
        );
        // Located at the part that repeats, with what to do about it.
        assert!(err.contains("chains.toml:25:10"), "{args:?}: {err}");
        assert!(err.contains("repeat = \"must\""), "{args:?}: {err}");
        assert!(err.contains("bound them with a `where`"), "{args:?}: {err}");
    }
    // In `play` it is said, and the game can still be left (or saved).
    let out = crate::common::run_with_stdin(
        rulebook().arg("play").arg(&file).args(["--seed", "1"]),
        "quit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("error: action `go` makes more plies in one position"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_chain_bounded_by_a_where_lists_every_ply() {
    // The same chain, bounded to three plays: 16 + 256 + 4096 chains end there, all listed.
    let g = game_of(&CHAINS.replace(
        "choose = ['a in orthogonal', 'b in orthogonal']",
        "choose = ['where plays < 3', 'a in orthogonal', 'b in orthogonal']",
    ));
    let plies = g.legal_plies(&g.start());
    assert_eq!(plies.len(), 16 * 16 * 16);
    assert!(g.runaway().is_none());
}

#[test]
fn repetitions_are_counted_right_over_a_long_game() {
    // Issue 49: with `repetitions` in an end rule each ply cost time proportional to the
    // game so far (80,000 plies: 29 s); they are counted by hash now. Two tokens step back
    // and forth: every fourth ply the start comes back, and it is counted each time.
    let g = game_of(
        r#"
[game]
name = "shuffle"
max_plies = 100000
[[players]]
name = "a"
[[players]]
name = "b"
[board]
files = 2
ranks = 2
[pieces.t]
owned = true
symbol = { a = "A", b = "B" }
[[setup]]
put = "t"
owner = "a"
at = ["a1"]
[[setup]]
put = "t"
owner = "b"
at = ["a2"]
[[actions]]
name = "step"
choose = ['from in cells where owner(from) == me', 'to in adjacent(from) where empty(to)']
effect = 'move(from, to)'
notation = '{from}-{to}'
[[end]]
when = 'repetitions() >= 12000'
result = "draw"
"#,
    );
    let mut s = g.start();
    let cycle = ["a1-b1", "a2-b2", "b1-a1", "b2-a2"];
    for round in 1..12_000 {
        for ply in cycle {
            crate::common::play(&g, &mut s, ply);
        }
        // Recorded: the start and each return to it.
        assert_eq!(s.repetitions(s.to_move.wrapping_sub(1) % 2), round + 1);
        assert!(s.outcome.is_none(), "round {round}");
    }
    for ply in cycle {
        crate::common::play(&g, &mut s, ply);
    }
    let outcome = s.outcome.expect("the 12,000th repetition draws");
    assert!(outcome.winners.is_empty() && outcome.reason.is_none());
    assert_eq!(s.plies, 48_000);
}

#[test]
fn repetitions_written_as_a_call_count_as_written_alone() {
    // `repetitions()` was accepted but left the positions without a history: always 0.
    let text = |when: &str| {
        format!(
            r#"
[game]
name = "cycle"
[[players]]
name = "a"
[[players]]
name = "b"
[board]
files = 2
ranks = 1
[pieces.t]
owned = true
symbol = {{ a = "A", b = "B" }}
[[setup]]
put = "t"
owner = "a"
at = ["a1"]
[[actions]]
name = "step"
choose = ['from in cells where owner(from) != none', 'to in adjacent(from) where empty(to)']
effect = 'move(from, to)'
notation = '{{from}}-{{to}}'
[[end]]
when = '{when}'
result = "draw"
"#
        )
    };
    for when in ["repetitions >= 2", "repetitions() >= 2"] {
        let g = game_of(&text(when));
        let mut s = g.start();
        crate::common::play(&g, &mut s, "a1-b1; b1-a1; a1-b1; b1-a1");
        assert!(s.outcome.is_some(), "{when}: the third occurrence draws");
    }
}

#[test]
fn a_ply_cap_above_100000_is_refused() {
    let msg = crate::common::refused(&CHAINS.replace(
        "[game]\nname = \"chains\"",
        "[game]\nname = \"chains\"\nmax_plies = 4294967295",
    ));
    assert!(
        msg.contains("max_plies must be a whole number from 1 to 100000"),
        "{msg}"
    );
    let out = rulebook()
        .args(["selfplay", "games/bounce.toml", "--max-plies", "100001"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("100001 is not in 1..=100000"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn check_says_a_files_move_generation_is_slow_instead_of_hanging() {
    // Issue 49: a filter of 676^3 steps, or nested `for`s in an effect: `check` did not
    // return. Its probe now stops after ten seconds and says why.
    let dir = Scratch::new("slow-probe");
    let file = dir.join("slow.toml");
    std::fs::write(
        &file,
        r#"
[game]
name = "slow"
[[players]]
name = "red"
[[players]]
name = "blue"
[board]
files = 26
ranks = 26
[pieces.p]
owned = true
symbol = { red = "R", blue = "B" }
[[setup]]
put = "p"
owner = "red"
at = ["c3"]
[[actions]]
name = "go"
choose = ['a in cells where count(b in cells where count(c in cells where empty(c) && b != c && a != c) > 0) > 0']
notation = '{a}'
"#,
    )
    .unwrap();
    let out = rulebook().arg("check").arg(&file).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(": ok: slow: 2 players"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains(
            "this file's move generation is slow: 3 random games of 60 plies did not finish in \
             10 s"
        ),
        "{}",
        stderr(&out)
    );
}

/// A game for [`a_fuzz_of_chains_histories_and_bot_budgets_ends_within_a_gigabyte`]: a
/// piece that steps, and a repeated part of `choices` choices a play, bounded to `bound`
/// plays or not at all; a draw at the `repeats`-th repetition, and a ply cap of `cap`.
fn fuzz_game(
    size: u8,
    choices: usize,
    bound: Option<u8>,
    must: bool,
    repeats: u32,
    cap: u32,
) -> String {
    let mut choose: Vec<String> = bound
        .map(|k| format!("'where hops < {k}'"))
        .into_iter()
        .collect();
    for name in ["a", "b", "c"].iter().take(choices) {
        choose.push(format!("'{name} in orthogonal'"));
    }
    let notation: String = ["a", "b", "c"]
        .iter()
        .take(choices)
        .map(|n| format!("{{{n}}}"))
        .collect();
    format!(
        r#"
[game]
name = "fuzz"
max_plies = {cap}
[[players]]
name = "red"
[[players]]
name = "blue"
[board]
files = {size}
ranks = {size}
[pieces.p]
owned = true
symbol = {{ red = "R", blue = "B" }}
[[setup]]
put = "p"
owner = "red"
at = ["a1"]
[[setup]]
put = "p"
owner = "blue"
at = ["b2"]
[vars.global]
hops = 0
[[actions]]
name = "step"
choose = ['from in cells where owner(from) == me', 'to in adjacent(from) where empty(to)']
effect = 'move(from, to); hops = 0'
notation = '{{from}}-{{to}}'
[[actions]]
name = "chain"
choose = ['from in cells where owner(from) == me']
effect = 'hops = 0'
notation = '{{from}}'
[[actions.then]]
repeat = "{repeat}"
choose = [{choose}]
effect = 'hops = hops + 1'
notation = ' {notation}'
[[end]]
when = 'repetitions >= {repeats}'
result = "draw"
"#,
        repeat = if must { "must" } else { "may" },
        choose = choose.join(", "),
    )
}

/// How a run of [`run_within`] ended.
struct Ran {
    /// The exit code, or `None` if it was still running at the limit (and killed).
    code: Option<i32>,
    stderr: String,
    /// The most memory it held, in bytes.
    peak: u64,
}

/// Runs `rulebook ARGS`, killed after `limit`, and reads its peak memory as it is reaped
/// (`wait4`: this child's own, whatever the other tests run meanwhile).
#[allow(
    clippy::zombie_processes,
    reason = "reaped by `wait4`, which `Child` cannot see"
)]
fn run_within(args: &[String], limit: std::time::Duration) -> Ran {
    use std::io::Read;
    let mut child = rulebook()
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Read as it comes, so that a full pipe never holds the child up.
    let mut pipe = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut err = String::new();
        let _ = pipe.read_to_string(&mut err);
        err
    });
    let pid = child.id() as libc::pid_t;
    let clock = std::time::Instant::now();
    let mut killed = false;
    loop {
        let mut status = 0;
        // SAFETY: `wait4` on our own child, with a zeroed struct it fills; the `Child` is
        // not waited on after this reaps it.
        let (reaped, usage) = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            let reaped = libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage);
            (reaped, usage)
        };
        if reaped == pid {
            let code = (!killed && libc::WIFEXITED(status)).then(|| libc::WEXITSTATUS(status));
            let stderr = reader.join().unwrap();
            let peak = usage.ru_maxrss as u64 * 1024;
            return Ran { code, stderr, peak };
        }
        if !killed && clock.elapsed() > limit {
            let _ = child.kill();
            killed = true;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

proptest::proptest! {
    // The suite runs the same three cases every time (a failure in CI is one anybody can
    // run again); `PROPTEST_CASES=N` draws N new ones.
    #![proptest_config(proptest::test_runner::Config {
        rng_seed: match std::env::var_os("PROPTEST_CASES") {
            Some(_) => proptest::test_runner::RngSeed::Random,
            None => proptest::test_runner::RngSeed::Fixed(49),
        },
        ..crate::common::config(3)
    })]

    /// Issue 49: chains of several choices a play (bounded or not), histories up to the
    /// longest cap, and bots of every kind and budget: every command ends, with its
    /// result or a located error, and no run takes a gigabyte. The long run recorded in
    /// docs/robustness.md sets `PROPTEST_CASES` (and `RULEBOOK_FUZZ_PEAKS=1` to print
    /// every run's peak memory).
    #[test]
    fn a_fuzz_of_chains_histories_and_bot_budgets_ends_within_a_gigabyte(
        size in 3u8..=8,
        choices in 1usize..=3,
        // A chain of at most 4^6 ways, or one without a bound, which runs away: what
        // lies between is slow to list at every ply, not stuck.
        bound in proptest::option::of(1u8..=2),
        must in proptest::bool::ANY,
        repeats in 2u32..=50,
        // Searching bots in short games, quick ones in longer games, random ones in the
        // longest a file may ask for (on a board of 3 x 3, whose positions come back
        // soon): every game keeps a history of its whole length.
        (cap, bots) in proptest::sample::select(vec![
            (50u32, "mcts:iters=30,random"),
            (50, "mcts:iters=20,threads=8,greedy"),
            (50, "alphabeta:depth=2,random"),
            (1000, "greedy,random"),
            (1000, "random,random"),
            (100_000, "random,random"),
        ]),
        seed in 0u64..1000,
    ) {
        let size = if cap == 100_000 { 3 } else { size };
        let dir = Scratch::new(&format!("fuzz-runaways-{seed}-{size}-{choices}"));
        let file = dir.join("fuzz.toml");
        std::fs::write(&file, fuzz_game(size, choices, bound, must, repeats, cap)).unwrap();
        let file = file.to_string_lossy().into_owned();
        let limit = std::time::Duration::from_secs(120);
        for args in [
            vec!["moves".to_string(), file.clone()],
            vec!["check".to_string(), file.clone()],
            vec!["selfplay".into(), file.clone(), "--seed".into(), seed.to_string(), "--bots".into(), bots.to_string()],
        ] {
            let Ran { code, stderr: err, peak } = run_within(&args, limit);
            if std::env::var_os("RULEBOOK_FUZZ_PEAKS").is_some() {
                eprintln!("peak {} MB: {args:?}", peak >> 20);
            }
            proptest::prop_assert!(code.is_some(), "{args:?} still ran after {limit:?}");
            proptest::prop_assert!(peak < 1 << 30, "{args:?} took {} MB", peak >> 20);
            let ran_away = err.contains("makes more plies in one position than can be listed");
            proptest::prop_assert!(
                code == Some(0) || (code == Some(1) && ran_away),
                "{args:?}: {code:?} {err}"
            );
            // A chain bounded by its counter never runs away; one without a bound
            // always does (four directions a choice, at every play).
            proptest::prop_assert_eq!(ran_away, bound.is_none(), "{:?}: {}", args, err);
        }
    }
}
