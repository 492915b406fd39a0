//! The command line as users and other tools see it: output, exit codes, errors.

use insta_cmd::assert_cmd_snapshot;

use crate::common::{Scratch, rulebook, rulebook_in, run_with_stdin, stderr, stdout};

#[test]
fn check_summarises_valid_games() {
    assert_cmd_snapshot!(rulebook().args([
        "check",
        "games/bounce.toml",
        "games/staqs.toml",
        "games/vlkno.toml",
        "games/sight.toml"
    ]));
}

#[test]
fn check_exits_1_on_every_broken_file_without_panicking() {
    let broken = std::fs::read_dir("tests/broken").unwrap();
    for entry in broken {
        let path = entry.unwrap().path();
        let out = rulebook().arg("check").arg(&path).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{}: {stderr}", path.display());
        assert!(!stderr.contains("panicked"), "{}: {stderr}", path.display());
        assert!(
            stderr.starts_with("error: "),
            "{}: {stderr}",
            path.display()
        );
    }
}

#[test]
fn moves_lists_sorted_plies() {
    assert_cmd_snapshot!(rulebook().args(["moves", "games/bounce.toml", "--param", "size=4"]));
}

#[test]
fn moves_after_plies_with_board() {
    assert_cmd_snapshot!(rulebook().args([
        "moves",
        "games/staqs.toml",
        "--after",
        "c3; C4 ;b2;d4; a1 ; e5; a5; e1",
        "--board"
    ]));
}

#[test]
fn moves_reports_the_end_of_the_game() {
    // Bounce 4x4: red wins by joining all its checkers into one group.
    let out = rulebook()
        .args([
            "moves",
            "games/bounce.toml",
            "--param",
            "size=4",
            "--after",
            "d3-d4; c3-d3; b1-c3; d3-d1; a2-d3",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout.lines().last(), Some("END red"), "{stdout}");
}

#[test]
fn an_illegal_ply_in_after_names_it_and_its_index() {
    assert_cmd_snapshot!(rulebook().args(["moves", "games/staqs.toml", "--after", "c3; c3"]));
}

#[test]
fn an_unknown_parameter_lists_the_parameters() {
    assert_cmd_snapshot!(rulebook().args([
        "perft",
        "games/bounce.toml",
        "--depth",
        "1",
        "--param",
        "sise=6"
    ]));
}

#[test]
fn perft_divide_prints_counts_per_first_ply_and_the_total_last() {
    assert_cmd_snapshot!(rulebook().args([
        "perft",
        "games/bounce.toml",
        "--depth",
        "2",
        "--param",
        "size=4",
        "--divide"
    ]));
}

#[test]
fn perft_prints_the_count_alone_on_the_last_line() {
    let out = rulebook()
        .args(["perft", "games/staqs.toml", "--depth", "2"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "600\n");
}

#[test]
fn perft_gives_up_at_its_time_limit_with_a_clear_error() {
    // VLKNO at depth 3 is about ten billion leaves: without the limit it runs for hours.
    let out = rulebook()
        .args([
            "perft",
            "games/vlkno.toml",
            "--depth",
            "3",
            "--max-seconds",
            "0.2",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    // The time it gave up after, in tenths: not rounded down to "0 s".
    let after = err
        .strip_prefix("error: perft gave up after ")
        .and_then(|rest| rest.split_once(" s ("))
        .and_then(|(seconds, _)| seconds.parse::<f64>().ok());
    assert!(after.is_some_and(|s| s >= 0.2), "{err}");
    assert!(
        err.contains("lower --depth or raise --max-seconds"),
        "{err}"
    );
}

#[test]
fn perft_stats_print_positions_per_second_on_standard_error() {
    let out = rulebook()
        .args(["perft", "games/staqs.toml", "--depth", "2", "--stats"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "600\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("perft depth 2: 600 leaves, 26 positions in "),
        "{err}"
    );
    assert!(err.trim_end().ends_with(" positions/s"), "{err}");
}

#[test]
fn perft_depth_1_of_vlkno_and_sight() {
    for (game, expected) in [("games/vlkno.toml", "2280\n"), ("games/sight.toml", "25\n")] {
        let out = rulebook()
            .args(["perft", game, "--depth", "1"])
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), expected, "{game}");
    }
}

#[test]
fn splut_perft_for_two_three_and_four_players() {
    for (players, counts) in [("2", [3, 9, 79]), ("3", [3, 9, 73]), ("4", [3, 9, 70])] {
        for (depth, expected) in counts.iter().enumerate() {
            let out = rulebook()
                .args(["perft", "games/splut.toml", "--param"])
                .arg(format!("players={players}"))
                .args(["--depth", &(depth + 1).to_string()])
                .output()
                .unwrap();
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                format!("{expected}\n"),
                "{players} players, depth {}",
                depth + 1
            );
        }
    }
}

#[test]
fn splut_start_is_drawn_as_a_diamond() {
    assert_cmd_snapshot!(rulebook().args([
        "moves",
        "games/splut.toml",
        "--param",
        "players=4",
        "--board"
    ]));
}

/// A graph board: the lines skip squares (a1-d1-g1), and the drawing runs them across.
/// White's d5 closes the mill d5-d6-d7 and removes g1 in the same ply.
#[test]
fn morris_board_is_drawn_as_its_lines_after_a_mill() {
    assert_cmd_snapshot!(rulebook().args([
        "moves",
        "games/morris.toml",
        "--after",
        "d6; a1; d7; g1; d5xg1",
        "--board"
    ]));
}

/// A hexagonal board (a test fixture): each rank half a cell left of the one below, so
/// the hexagon-shaped grid is drawn as a hexagon, and each file letter where its file
/// leaves the board.
#[test]
fn hexagonal_board_is_drawn_with_each_rank_shifted_half_a_cell() {
    assert_cmd_snapshot!(rulebook().args([
        "moves",
        "tests/fixtures/hexagon.toml",
        "--after",
        "c3; d3; b2; a2; d4",
        "--board"
    ]));
}

/// The same board drawn as points joined by its six links (`lines = true`).
#[test]
fn hexagonal_board_is_drawn_as_lines() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/hexagon.toml");
    let text = std::fs::read_to_string(path)
        .unwrap()
        .replace("hexagonal = true", "hexagonal = true\nlines = true");
    let source = rulebook::spec::parse("hexagon.toml", text).unwrap();
    let g = rulebook::compile::compile(&source, &[]).unwrap();
    let mut state = g.start();
    crate::common::play(&g, &mut state, "c3; d3; b2; a2; d4");
    insta::assert_snapshot!(rulebook::render::board::render(&g, &state));
}

#[test]
fn sight_c3_a1_e5_leaves_black_to_move_with_white_c3_at_height_2() {
    assert_cmd_snapshot!(rulebook().args([
        "moves",
        "games/sight.toml",
        "--after",
        "c3; a1; e5",
        "--board"
    ]));
}

#[test]
fn vlkno_board_shows_stones_under_pawns_and_lava() {
    // Black's pawn ends on c4's two stones (`B2`), d1 holds three, c3, b1 and a2 are lava.
    let out = rulebook()
        .args([
            "moves",
            "games/vlkno.toml",
            "--after",
            "a5-b4 c3 d1; a1-b2 b1 c4; b4-c4 a2 d1",
            "--board",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let board: String = text.lines().take(7).collect::<Vec<_>>().join("\n");
    insta::assert_snapshot!(board);
}

#[test]
fn selfplay_is_the_same_game_for_the_same_seed_and_writes_a_trace() {
    let dir = crate::common::Scratch::new("selfplay");
    let a = dir.join("a.jsonl");
    let b = dir.join("b.jsonl");
    for path in [&a, &b] {
        let status = rulebook()
            .args(["selfplay", "games/staqs.toml", "--seed", "11", "--trace"])
            .arg(path)
            .output()
            .unwrap()
            .status; // output() keeps the moves list off the test log
        assert!(status.success());
    }
    let ta = std::fs::read_to_string(&a).unwrap();
    assert_eq!(ta, std::fs::read_to_string(&b).unwrap());
    let first: serde_json::Value = serde_json::from_str(ta.lines().next().unwrap()).unwrap();
    assert_eq!(first["game"], "STAQS");
    assert_eq!(first["file"], "games/staqs.toml");
    assert_eq!(first["players"], serde_json::json!(["blue", "white"]));
    assert_eq!(
        first["params"],
        serde_json::json!({"diagonal_steps": false})
    );
    assert_eq!(first["seed"], 11);
    let last: serde_json::Value = serde_json::from_str(ta.lines().last().unwrap()).unwrap();
    assert!(last["end"]["winners"].is_array());
}

#[test]
fn selfplay_ply_cap_is_reported_as_such() {
    let dir = crate::common::Scratch::new("cap");
    let path = dir.join("t.jsonl");
    let status = rulebook()
        .args([
            "selfplay",
            "games/bounce.toml",
            "--seed",
            "3",
            "--max-plies",
            "5",
            "--trace",
        ])
        .arg(&path)
        .output()
        .unwrap()
        .status; // output() keeps the moves list off the test log
    assert!(status.success());
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 1 + 5 + 1);
    assert_eq!(
        text.lines().last(),
        Some(concat!(
            r#"{"end":{"winners":[],"reason":"ply cap","why":"the ply cap of 5 plies was "#,
            r#"reached (a limit of the program, not a rule of the game: `max_plies` in the "#,
            r#"game file)"}}"#
        ))
    );
}

#[test]
fn a_transcript_cut_by_a_ply_cap_replays_to_the_same_end() {
    // `--max-plies` is the command's cap, not the file's: the transcript says `draw (ply
    // cap)`, and replay must end the game where its plies end, not call it unfinished.
    let dir = crate::common::Scratch::new("cap-replay");
    let path = dir.join("t.txt");
    let out = rulebook()
        .args([
            "selfplay",
            "games/staqs.toml",
            "--seed",
            "3",
            "--max-plies",
            "6",
        ])
        .arg("--transcript")
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", crate::common::stderr(&out));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("result: draw (ply cap)"), "{text}");
    let out = rulebook().arg("replay").arg(&path).output().unwrap();
    assert!(out.status.success(), "{}", crate::common::stderr(&out));
    // The cap is read from the result only: the same plies headed `unfinished` replay
    // as the unfinished game they are under the file's own cap.
    let longer = text.replacen("result: draw (ply cap)", "result: unfinished", 1);
    std::fs::write(&path, longer).unwrap();
    let out = rulebook().arg("replay").arg(&path).output().unwrap();
    assert!(out.status.success(), "{}", crate::common::stderr(&out));
}

#[test]
fn seeded_selfplay_transcripts() {
    assert_cmd_snapshot!(
        "selfplay_bounce_6x6_seed_1",
        rulebook().args([
            "selfplay",
            "games/bounce.toml",
            "--param",
            "size=6",
            "--seed",
            "1"
        ])
    );
    assert_cmd_snapshot!(
        "selfplay_staqs_seed_1",
        rulebook().args(["selfplay", "games/staqs.toml", "--seed", "1"])
    );
    assert_cmd_snapshot!(
        "selfplay_vlkno_seed_1",
        rulebook().args(["selfplay", "games/vlkno.toml", "--seed", "1"])
    );
    assert_cmd_snapshot!(
        "selfplay_vlkno_put_back_seed_2",
        rulebook().args([
            "selfplay",
            "games/vlkno.toml",
            "--param",
            "put_back=true",
            "--seed",
            "2",
            "--max-plies",
            "200"
        ])
    );
    for players in ["2", "3", "4"] {
        assert_cmd_snapshot!(
            format!("selfplay_splut_{players}_players_seed_1"),
            rulebook().args([
                "selfplay",
                "games/splut.toml",
                "--param",
                &format!("players={players}"),
                "--seed",
                "1"
            ])
        );
    }
    assert_cmd_snapshot!(
        "selfplay_sight_seed_1",
        rulebook().args(["selfplay", "games/sight.toml", "--seed", "1"])
    );
    // Seed 5 reaches a position where black's highest stacks are all blocked: under the
    // strict reading black has no move and loses at ply 20; under the default one black
    // plays b4-b3 there and wins.
    assert_cmd_snapshot!(
        "selfplay_sight_strict_seed_5",
        rulebook().args([
            "selfplay",
            "games/sight.toml",
            "--param",
            "strict_priority=true",
            "--seed",
            "5"
        ])
    );
    assert_cmd_snapshot!(
        "selfplay_staqs_diagonal_seed_2",
        rulebook().args([
            "selfplay",
            "games/staqs.toml",
            "--param",
            "diagonal_steps=true",
            "--seed",
            "2"
        ])
    );
}

#[test]
fn play_reads_piped_input_and_tolerates_mistakes() {
    assert_cmd_snapshot!(
        rulebook()
            .args([
                "play",
                "games/staqs.toml",
                "--seed",
                "5",
                "--seat",
                "white=random"
            ])
            .pass_stdin("help\nzz9\n99\nmoves\nC3\nb2\nboard\nquit\n")
    );
}

#[test]
fn play_between_two_bots_ends_with_the_result() {
    assert_cmd_snapshot!(
        rulebook()
            .args([
                "play",
                "games/bounce.toml",
                "--param",
                "size=4",
                "--seed",
                "9",
                "--seat",
                "red=random"
            ])
            .pass_stdin("")
    );
}

#[test]
fn selfplay_with_bots_per_seat_is_reproducible_and_names_them_in_the_trace() {
    let dir = crate::common::Scratch::new("bots");
    let run = |name: &str| {
        let trace = dir.join(name);
        let out = rulebook()
            .args(["selfplay", "games/staqs.toml", "--seed", "4"])
            .args(["--bots", "greedy,mcts:iters=50,c=1.0", "--trace"])
            .arg(&trace)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (out.stdout, std::fs::read_to_string(trace).unwrap())
    };
    let (first, trace) = run("a.jsonl");
    let (second, _) = run("b.jsonl");
    assert_eq!(first, second, "same seed and bots, same game");
    let header: serde_json::Value = serde_json::from_str(trace.lines().next().unwrap()).unwrap();
    assert_eq!(
        header["bots"],
        serde_json::json!(["greedy", "mcts:iters=50,c=1.0"])
    );
}

#[test]
fn selfplay_bots_must_match_the_seats() {
    let out = rulebook()
        .args(["selfplay", "games/staqs.toml", "--bots", "greedy"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("one spec per seat, in seat order (blue, white); got 1"),
        "{stderr}"
    );
    let out = rulebook()
        .args(["selfplay", "games/staqs.toml", "--bots", "greedy,wizard"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("unknown bot `wizard`; bots: random, greedy, alphabeta, mcts"),
        "{stderr}"
    );
}

#[test]
fn bench_reports_every_figure_and_ends_with_playouts_per_second() {
    let scratch = crate::common::Scratch::new("bench");
    let json = scratch.join("bench.json");
    let out = rulebook()
        .args(["bench", "games/sight.toml", "--seconds", "0.2", "--json"])
        .arg(&json)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    for figure in [
        "plies/s ",
        "plies per game ",
        "endings ",
        "mcts iterations/s ",
    ] {
        assert!(text.contains(figure), "no `{figure}` in:\n{text}");
    }
    let last = text.lines().last().unwrap();
    let n: f64 = last
        .strip_prefix("playouts/s ")
        .unwrap_or_else(|| panic!("last line: {last}"))
        .parse()
        .unwrap();
    assert!(n > 0.0);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert!(report["playouts"].as_u64().unwrap() > 0);
    // Every playout ended by the rules: the shares are of black and white wins only.
    let endings = report["endings"].as_object().unwrap();
    assert!(
        endings.keys().all(|k| k == "black" || k == "white"),
        "{endings:?}"
    );
}

#[test]
fn bench_runs_its_mcts_measure_on_the_threads_asked_for() {
    let scratch = crate::common::Scratch::new("bench-threads");
    let json = scratch.join("bench.json");
    let out = rulebook()
        .args([
            "bench",
            "games/sight.toml",
            "--playouts",
            "5",
            "--threads",
            "2",
        ])
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains(" on one thread\n"), "{text}");
    assert!(text.contains(" s on 2 threads)\n"), "{text}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["mcts_threads"], 2);
    for bad in ["0", "65", "two"] {
        let out = rulebook()
            .args(["bench", "games/sight.toml", "--threads", bad])
            .output()
            .unwrap();
        assert!(!out.status.success(), "--threads {bad}");
        assert!(
            stderr(&out).contains(&format!("invalid value '{bad}' for '--threads <N>'")),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn bench_refuses_a_nonsense_duration() {
    for bad in ["0", "-1", "NaN", "inf", "3601"] {
        let out = rulebook()
            .args(["bench", "games/sight.toml", &format!("--seconds={bad}")])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "--seconds {bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with(&format!("--seconds {bad} ")), "{err}");
        assert!(
            err.ends_with(": the number of seconds must be more than 0 and at most 3600\n"),
            "{err}"
        );
    }
}

#[test]
fn perft_max_seconds_nan_is_refused_not_a_panic() {
    for bad in ["NaN", "-3", "inf", "0"] {
        let out = rulebook()
            .args([
                "perft",
                "games/sight.toml",
                "--depth",
                "1",
                &format!("--max-seconds={bad}"),
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "--max-seconds {bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(": the number of seconds must be more than 0 and at most 1000000000"),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_scripted_bounce_session_lists_refuses_plays_undoes_hints_and_saves() {
    let dir = Scratch::with_games("scripted-bounce");
    let saved = "scripted-bounce-session.txt";
    assert_cmd_snapshot!(
        rulebook_in(&dir)
            .args([
                "play",
                "games/bounce.toml",
                "--seat",
                "blue=random",
                "--seed",
                "1"
            ])
            .pass_stdin(format!(
                "moves\nzz9\nb1-a1\nundo\nhint\nsave {saved}\nquit\n"
            ))
    );
    // What was saved is the game after `undo`: nothing played, and replay accepts it.
    assert_cmd_snapshot!(rulebook_in(&dir).args(["replay", saved]));
}

#[test]
fn a_session_can_be_saved_loaded_and_resumed() {
    let dir = Scratch::with_games("resumed-staqs");
    let saved = "resumed-staqs-session.txt";
    let out = run_with_stdin(
        rulebook_in(&dir)
            .args([
                "play",
                "games/staqs.toml",
                "--seat",
                "white=greedy",
                "--seed",
                "2",
            ])
            .args(["--name", "blue=Ada"]),
        format!("c3\n1\nhistory\nsave {saved}\nquit\n"),
    );
    assert!(out.status.success());
    let text = std::fs::read_to_string(dir.join(saved)).unwrap();
    assert!(
        text.contains("seat white: greedy\nname blue: Ada\n"),
        "{text}"
    );
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with(char::is_numeric))
            .count(),
        4
    );
    // Resumed: the history goes on from the four plies, and undo reaches back into them
    // (to blue's last turn, past greedy's reply); saved again, the seats and names are
    // the loaded ones and two plies are left.
    let again = "resumed-staqs-session-again.txt";
    let out = run_with_stdin(
        rulebook_in(&dir).args(["play", "games/staqs.toml", "--seed", "2", "--load", saved]),
        format!("history\nundo\nhistory\nsave {again}\nquit\n"),
    );
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!("loaded {saved}: 4 plies")),
        "{stdout}"
    );
    assert_eq!(stdout.matches("1. blue c3\n").count(), 2, "{stdout}");
    assert_eq!(stdout.matches("4. white c2\n").count(), 1, "{stdout}");
    assert_eq!(stdout.matches("3. blue a1\n").count(), 1, "{stdout}");
    let text = std::fs::read_to_string(dir.join(again)).unwrap();
    assert!(
        text.contains("seat white: greedy\nname blue: Ada\n"),
        "{text}"
    );
    let plies: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with(char::is_numeric))
        .collect();
    assert_eq!(plies, ["1. blue c3  # human", "2. white b3  # greedy"]);
}

#[test]
fn replay_names_the_line_of_a_bad_transcript() {
    let dir = crate::common::Scratch::new("replay");
    let bad = dir.join("bad.txt");
    std::fs::write(
        &bad,
        "# rulebook transcript\ngame: STAQS\nfile: games/staqs.toml\nparam diagonal_steps: false\n\
         seed: 0\nresult: unfinished\n\n1. blue c3\n2. white c3\n",
    )
    .unwrap();
    let out = rulebook().arg("replay").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "bad.txt: line 9: `c3` is not legal: as a `place` ply, `height(at) == 1` does not \
             hold for at = c3 (games/staqs.toml:62); closest legal plies:"
        ),
        "{stderr}"
    );
    std::fs::write(
        &bad,
        "# rulebook transcript\ngame: STAQS\nfile: games/staqs.toml\nwho: me\n",
    )
    .unwrap();
    let out = rulebook().arg("replay").arg(&bad).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad.txt: line 4: unknown header key `who`"),
        "{stderr}"
    );
}

#[test]
fn seeded_bot_game_transcripts_replay_to_their_result() {
    let cases: &[(&str, &[&str], &str)] = &[
        ("bounce", &["--param", "size=6"], "greedy,random"),
        ("staqs", &[], "greedy,mcts:iters=50"),
        ("vlkno", &[], "random,greedy"),
        ("sight", &[], "alphabeta:depth=2,greedy"),
        ("splut", &[], "greedy,random"),
        ("splut", &["--param", "players=3"], "greedy,random,random"),
        (
            "splut",
            &["--param", "players=4"],
            "random,greedy,random,greedy",
        ),
    ];
    let dir = Scratch::with_games("transcripts");
    for (i, (name, params, bots)) in cases.iter().enumerate() {
        let path = format!("transcript-{name}-{i}.txt");
        let out = rulebook_in(&dir)
            .args(["selfplay", &format!("games/{name}.toml"), "--seed", "3"])
            .args(*params)
            .args(["--bots", bots, "--transcript", &path])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(dir.join(&path)).unwrap();
        insta::assert_snapshot!(format!("transcript_{name}_{i}"), text);
        let out = rulebook_in(&dir).args(["replay", &path]).output().unwrap();
        assert!(
            out.status.success(),
            "{path}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let result = text
            .lines()
            .find_map(|l| l.strip_prefix("result: "))
            .unwrap();
        assert!(
            String::from_utf8_lossy(&out.stdout).ends_with(&format!("result: {result}\n")),
            "{path}"
        );
    }
}

#[test]
fn scripted_sessions_of_vlkno_sight_and_splut() {
    // Per game: a listing, a bad ply, a ply by number, undo, redo, history, resign
    // refused at its question then confirmed, save, load of what was saved, and quit.
    for (name, params, seat) in [
        ("vlkno", vec![], "white=random"),
        ("sight", vec![], "black=greedy"),
        ("splut", vec!["--param", "players=3"], "west=random"),
    ] {
        let dir = Scratch::with_games(&format!("scripted-{name}"));
        let saved = format!("scripted-{name}.txt");
        // VLKNO's 2,280 opening plies would bury the rest: `board` instead of `moves`.
        let list = if name == "vlkno" { "board" } else { "moves" };
        let script = format!(
            "{list}\nzz9\n1\nundo\nredo\nhistory\nresign\nn\nresign\ny\nmoves\nsave {saved}\nload {saved}\nhistory\nquit\n"
        );
        insta::allow_duplicates! {
            assert_cmd_snapshot!(
                format!("scripted_session_{name}"),
                rulebook_in(&dir)
                    .args(["play", &format!("games/{name}.toml"), "--seed", "4", "--seat", seat])
                    .args(&params)
                    .pass_stdin(script)
            );
        }
        let out = rulebook_in(&dir).args(["replay", &saved]).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("resigned)"));
    }
}

#[test]
fn a_save_that_fails_part_way_leaves_the_earlier_file_intact() {
    // A file-size limit of 1 KB makes the write of a 12 KB transcript fail part-way (the
    // signal it raises is ignored, so the write returns an error). The file already at the
    // path must survive untouched, and no temporary file be left behind.
    let dir = crate::common::Scratch::new("atomic");
    let target = dir.join("game.txt");
    std::fs::write(&target, "the earlier, good save\n").unwrap();
    let script = format!(
        "trap '' XFSZ; ulimit -f 2; exec '{}' selfplay games/splut.toml --param players=4 --seed 2 --transcript '{}'",
        env!("CARGO_BIN_EXE_rulebook"),
        target.display()
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &script])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot write the transcript"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "the earlier, good save\n"
    );
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(left.len(), 1, "a temporary file was left: {left:?}");
}

#[test]
fn a_player_name_with_a_newline_is_refused_so_no_unloadable_transcript_is_written() {
    for bad in ["a\nb", "x\u{1b}[31m", ""] {
        let out = rulebook()
            .args(["play", "games/staqs.toml", "--name", &format!("blue={bad}")])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("a name must be printable text on one line"),
            "{err}"
        );
    }
}

#[test]
fn check_takes_parameters_as_the_other_commands_do() {
    let out = rulebook()
        .args(["check", "games/bounce.toml", "--param", "size=6"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("games/bounce.toml: ok: Bounce: 2 players (red, blue), 36 cells,"),
        "{}",
        stdout(&out)
    );
    let out = rulebook()
        .args(["check", "games/bounce.toml", "--param", "size=7"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with("error: parameter `size` = 7 fails its check"),
        "{}",
        stderr(&out)
    );
    let out = rulebook()
        .args(["check", "games/bounce.toml", "--param", "size"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--param expects NAME=VALUE, got `size`"));
}

#[test]
fn a_bare_game_name_is_the_file_in_games_unless_the_working_folder_has_that_file() {
    let by_path = rulebook()
        .args(["moves", "games/tictactoe.toml"])
        .output()
        .unwrap();
    let by_name = rulebook().args(["moves", "tictactoe"]).output().unwrap();
    assert!(by_name.status.success(), "{}", stderr(&by_name));
    assert_eq!(stdout(&by_name), stdout(&by_path));
    let out = rulebook().args(["check", "tictactoe"]).output().unwrap();
    assert!(
        stdout(&out).starts_with("games/tictactoe.toml: ok: "),
        "{}",
        stdout(&out)
    );
    // A file of that name in the working folder is the one meant.
    let dir = Scratch::with_games("bare-names");
    std::fs::copy("games/connect4.toml", dir.join("tictactoe")).unwrap();
    let here = rulebook_in(&dir)
        .args(["check", "tictactoe"])
        .output()
        .unwrap();
    assert!(
        stdout(&here).starts_with("tictactoe: ok: Connect Four"),
        "{}",
        stdout(&here)
    );
    // Neither: the error lists the names that would work.
    let out = rulebook().args(["moves", "tictac"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.starts_with(
            "no game file `tictac`: no file of that name in the working folder, nor \
             games/tictac.toml; the games in games/: abalone, amazons, bounce, "
        ) && err.contains(", tictactoe, "),
        "{err}"
    );
    // A path or a name with an extension is taken as given.
    let out = rulebook().args(["moves", "tictac.toml"]).output().unwrap();
    assert!(
        stderr(&out).contains("cannot read the game file"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn move_lists_are_in_natural_order() {
    // Hex on 11x11: a1 to a11, then b1; code-point order put a10 and a11 before a2.
    let out = rulebook()
        .args(["moves", "games/hex.toml", "--param", "size=11"])
        .output()
        .unwrap();
    let first: Vec<String> = stdout(&out).lines().take(12).map(String::from).collect();
    let expected: Vec<String> = (1..=11)
        .map(|n| format!("a{n}"))
        .chain(["b1".to_string()])
        .collect();
    assert_eq!(first, expected);
    // `play` numbers them in that order: number 10 is a10.
    let out = run_with_stdin(
        rulebook().args([
            "play",
            "games/hex.toml",
            "--param",
            "size=11",
            "--seed",
            "1",
        ]),
        "10\nquit\nn\n",
    );
    assert!(
        stdout(&out).contains("red plays a10 (number 10 of `moves`)"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_selfplay_trace_ends_with_why_the_game_ended() {
    let dir = Scratch::new("trace-why");
    let path = dir.join("t.jsonl");
    let out = rulebook()
        .args(["selfplay", "games/staqs.toml", "--seed", "1", "--trace"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        text.lines().last(),
        Some(
            r#"{"end":{"winners":["blue"],"why":"the end rule `passes == 2` holds, with me = blue (games/staqs.toml:87)"}}"#
        )
    );
    // The moves list ends as `play` ends a game: the result, why, the scores.
    assert!(
        stdout(&out).ends_with(
            "game over: blue won\nwhy: the end rule `passes == 2` holds, with me = blue \
             (games/staqs.toml:87)\nscores: blue 5 5 4 3; white 5 4 4 3\n"
        ),
        "{}",
        stdout(&out)
    );
}
