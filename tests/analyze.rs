//! `rulebook analyze` on games whose answers are known: tic-tac-toe, drawn under perfect
//! play, is drawn most of the time between MCTS bots; a file whose action can never be
//! played lists it (and its end rule that never holds, and its kind never used) as dead;
//! a variant giving the first player an extra ply shows a first-player edge whose
//! interval excludes one half, marked as a significant difference; the same seed gives
//! the same JSON with one and two jobs, and a time budget plays the first games a number
//! of games would; the table of a small seeded run is a snapshot; the HTML page shows
//! its plots in headless Chromium; bad arguments are refused with a message.

use rulebook::engine::flow::EndCause;
use serde_json::Value;

use crate::common::browser::{dump_dom, tags_of_class};
use crate::common::{Scratch, game, play, rulebook, stderr, stdout, terminal};

/// Runs `rulebook analyze ARGS --json FILE` from the repository root; the table and the
/// JSON.
fn analyze(args: &[&str]) -> (String, Value) {
    let dir = Scratch::new("analyze");
    let json = dir.join("analysis.json");
    let out = rulebook()
        .arg("analyze")
        .args(args)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&json).unwrap();
    (stdout(&out), serde_json::from_str(&text).unwrap())
}

/// A number of the JSON.
fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("a number, got {v}"))
}

#[test]
fn tictactoe_between_mcts_bots_is_mostly_drawn() {
    let (_, json) = analyze(&[
        "games/tictactoe.toml",
        "--bots",
        "mcts:iters=300",
        "--games",
        "20",
        "--seed",
        "3",
    ]);
    let draws = &json["columns"][0]["draws"];
    assert!(num(&draws["rate"]) >= 0.8, "{draws}");
    assert!(num(&draws["low"]) > 0.5, "{draws}");
    // Random play, by contrast, is mostly decisive (the first player wins about 58%).
    let (_, random) = analyze(&["games/tictactoe.toml", "--games", "100", "--seed", "3"]);
    assert!(num(&random["columns"][0]["draws"]["high"]) < 0.5);
}

#[test]
fn an_action_that_can_never_be_played_is_listed_dead() {
    let (table, json) = analyze(&["tests/fixtures/dead_rules.toml", "--games", "20"]);
    let column = &json["columns"][0];
    let dead: Vec<&str> = (column["dead"].as_array().unwrap().iter())
        .map(|d| d.as_str().unwrap())
        .collect();
    assert_eq!(
        dead,
        [
            "action never",
            "end at line 47: count(c in cells where owner(c) == me) > 4"
        ]
    );
    assert_eq!(column["unused_pieces"], serde_json::json!(["ghost"]));
    let place = &column["coverage"][0];
    assert_eq!(
        (&place["name"], num(&place["count"])),
        (&"place".into(), 80.0)
    );
    assert!(
        table.contains("action never") && table.contains("DEAD"),
        "{table}"
    );
    assert!(
        table.contains("dead rules (tests/fixtures/dead_rules.toml): action never; end at line 47")
    );
}

#[test]
fn a_variant_with_an_extra_first_ply_shows_a_first_player_edge() {
    let dir = Scratch::new("analyze-variant");
    let variant = dir.join("extra_ply.toml");
    let base = std::fs::read_to_string("games/tictactoe.toml").unwrap();
    let extra = "\n[turns]\nplies = 'if turn == 1 then 2 else 1'\n";
    std::fs::write(&variant, base + extra).unwrap();
    let (table, json) = analyze(&[
        "games/tictactoe.toml",
        "--variant",
        variant.to_str().unwrap(),
        "--games",
        "200",
    ]);
    let edge = |c: usize| num(&json["columns"][c]["first_player"]["rate"]);
    let low = num(&json["columns"][1]["first_player"]["low"]);
    assert!(low > 0.5, "{}", json["columns"][1]["first_player"]);
    assert!(edge(1) > edge(0) + 0.1, "{} {}", edge(0), edge(1));
    let first_player = (json["differences"].as_array().unwrap().iter())
        .find(|d| d["metric"] == "first_player")
        .unwrap();
    assert_eq!(first_player["significant"], true, "{first_player}");
    let row = table
        .lines()
        .find(|l| l.starts_with("first player"))
        .unwrap();
    assert!(row.ends_with(" *"), "{row}");
}

#[test]
fn the_same_seed_gives_the_same_json_with_one_and_two_jobs() {
    let run = |jobs: &str| {
        analyze(&[
            "games/bounce.toml",
            "--sweep",
            "size=4,6",
            "--bots",
            "greedy,mcts:iters=20",
            "--games",
            "12",
            "--seed",
            "7",
            "--jobs",
            jobs,
        ])
    };
    let (table1, one) = run("1");
    let (table2, two) = run("2");
    assert_eq!(one, two);
    assert_eq!(table1, table2);
    assert_eq!(one["columns"].as_array().unwrap().len(), 2);
}

#[test]
fn a_time_budget_plays_the_first_games_of_the_seed() {
    let (_, timed) = analyze(&["games/tictactoe.toml", "--seconds", "0.2", "--jobs", "2"]);
    let games = num(&timed["columns"][0]["games"]) as u64;
    assert!(games > 0);
    let (_, counted) = analyze(&["games/tictactoe.toml", "--games", &games.to_string()]);
    assert_eq!(timed, counted);
}

#[test]
fn the_table_of_a_small_seeded_run() {
    let (table, _) = analyze(&[
        "games/bounce.toml",
        "--sweep",
        "size=4,6",
        "--games",
        "30",
        "--seed",
        "1",
    ]);
    insta::assert_snapshot!(table);
}

#[test]
fn the_page_shows_its_plots_in_a_headless_browser() {
    let dir = Scratch::new("analyze-page");
    let page = dir.join("analysis.html");
    let page_arg = page.to_str().unwrap();
    let (_, json) = analyze(&[
        "games/bounce.toml",
        "--sweep",
        "size=4,6",
        "--games",
        "30",
        "--html",
        page_arg,
    ]);
    // Self-contained: nothing is loaded from anywhere.
    let html = std::fs::read_to_string(&page).unwrap();
    for fetch in ["src=", "href=", "url(", "@import"] {
        assert!(!html.contains(fetch), "the page fetches something: {fetch}");
    }
    let dom = dump_dom(&page, "");
    let plots = tags_of_class(&dom, "plot");
    let kinds: Vec<&str> = plots.iter().map(|p| p["data-plot"].as_str()).collect();
    assert_eq!(kinds, ["length", "length", "branching", "edge"]);
    assert!(
        plots
            .iter()
            .all(|p| p.get("data-drawn").map(String::as_str) == Some("yes")),
        "{plots:?}"
    );
    // Every game in a bar; a line per column; the edge of each column with its interval.
    let bars = tags_of_class(&dom, "bar");
    let games: u64 = bars
        .iter()
        .map(|b| b["data-games"].parse::<u64>().unwrap())
        .sum();
    assert_eq!(games, 60);
    let lines = tags_of_class(&dom, "line");
    assert_eq!(lines.len(), 2);
    for (line, column) in lines.iter().zip(json["columns"].as_array().unwrap()) {
        let plies = column["branching_by_ply"].as_array().unwrap().len();
        assert_eq!(line["data-points"], plies.to_string());
    }
    let marks = tags_of_class(&dom, "mark");
    let labels: Vec<&str> = marks.iter().map(|m| m["data-column"].as_str()).collect();
    assert_eq!(labels, ["size=4", "size=6"]);
    for (mark, column) in marks.iter().zip(json["columns"].as_array().unwrap()) {
        let edge = &column["first_player"];
        assert_eq!(
            mark["data-rate"].parse::<f64>().unwrap(),
            num(&edge["rate"])
        );
        assert_eq!(mark["data-low"].parse::<f64>().unwrap(), num(&edge["low"]));
    }
}

#[test]
fn bad_arguments_are_refused_with_a_message() {
    let refused = |args: &[&str], wanted: &str| {
        let out = rulebook().arg("analyze").args(args).output().unwrap();
        assert!(!out.status.success(), "{args:?} was accepted");
        let err = stderr(&out);
        assert!(err.contains(wanted), "{args:?}: {err}");
    };
    refused(
        &["games/bounce.toml", "--sweep", "size"],
        "--sweep expects NAME=V1,V2",
    );
    refused(
        &["games/bounce.toml", "--sweep", "size=4,,6"],
        "no empty name or value",
    );
    refused(
        &["games/bounce.toml", "--sweep", "size=4,4"],
        "the value `4` twice",
    );
    refused(
        &["games/bounce.toml", "--sweep", "size=5"],
        "--sweep size=5",
    );
    refused(&["games/bounce.toml", "--sweep", "sides=4"], "sides");
    refused(
        &[
            "games/bounce.toml",
            "--param",
            "size=6",
            "--sweep",
            "size=4,6",
        ],
        "both set `size`",
    );
    refused(
        &["games/bounce.toml", "--bots", "wizard"],
        "unknown bot `wizard`",
    );
    refused(&["games/bounce.toml", "--seconds", "0"], "leaves no time");
    refused(&["games/bounce.toml", "--games", "100001"], "100001");
    let sizes: Vec<String> = (0..33).map(|i| (4 + 2 * i).to_string()).collect();
    let sweep = format!("size={}", sizes.join(","));
    refused(
        &["games/bounce.toml", "--sweep", &sweep],
        "at most 32 values",
    );
    refused(
        &["games/bounce.toml", "--variant", "games/bounce.toml"],
        "analysed twice",
    );
    refused(
        &["games/bounce.toml", "--json", "games/bounce.toml"],
        "games/bounce.toml",
    );
}

#[test]
fn games_cut_by_the_ply_cap_are_draws_not_decisive() {
    let (table, json) = analyze(&[
        "games/bounce.toml",
        "--param",
        "size=10",
        "--max-plies",
        "10",
        "--games",
        "20",
    ]);
    let column = &json["columns"][0];
    assert_eq!(num(&column["capped"]), 20.0);
    assert_eq!(num(&column["decisive"]["rate"]), 0.0);
    assert_eq!(num(&column["draws"]["rate"]), 1.0);
    assert_eq!(num(&column["length_max"]), 10.0);
    assert!(
        table.contains("end at line 76: groups(me) == 1         DEAD"),
        "{table}"
    );
}

#[test]
fn a_bar_of_games_shows_on_a_terminal_and_nothing_on_a_pipe() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = terminal(
        dir,
        "xterm",
        "analyze games/bounce.toml --sweep size=4,6 --games 40",
    )
    .output()
    .expect("`script` (util-linux) runs the program on a terminal: install it");
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("/80 games"), "{text:?}");
    let piped = rulebook()
        .args(["analyze", "games/bounce.toml", "--games", "10"])
        .output()
        .unwrap();
    assert!(piped.status.success());
    assert_eq!(stderr(&piped), "");
}

#[test]
fn the_rule_that_ended_a_game_is_read_from_its_last_position() {
    let g = game("tictactoe", &[]);
    let mut won = g.start();
    play(&g, &mut won, "a1; b1; a2; b2; a3");
    assert_eq!(g.end_cause(&won, 0), Some(EndCause::End(0)));
    let mut drawn = g.start();
    play(&g, &mut drawn, "b2; a1; c1; a3; a2; c2; b1; b3; c3");
    assert_eq!(g.end_cause(&drawn, 0), Some(EndCause::End(1)));
    assert_eq!(g.end_cause(&g.start(), 0), None);
    // Chess: a mate is the first stuck rule, a stalemate the second.
    let chess = game("chess", &[]);
    let mut mate = chess.start();
    play(&chess, &mut mate, "f2-f3; e7-e5; g2-g4; Qd8-h4#");
    assert_eq!(chess.end_cause(&mate, 1), Some(EndCause::Stuck(0)));
    let mut capped = game("bounce", &[]);
    capped.max_plies = Some(3);
    let mut state = capped.start();
    for _ in 0..3 {
        let ply = capped.legal_plies(&state)[0].clone();
        capped.play(&mut state, &ply);
    }
    assert_eq!(capped.end_cause(&state, 0), Some(EndCause::Cap));
}
