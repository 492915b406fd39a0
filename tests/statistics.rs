//! The statistics of `match`'s table and JSON: Wilson's 95% interval of each bot's score
//! (never `± 0` at 0 or 1), and in a match of two the first bot's Elo difference over the
//! second with its interval, infinite where the score is 0 or 1 (`+inf` in the table,
//! `null` in the JSON, never NaN). The formulas' known values are unit tests in
//! `src/tournament/stats.rs`; here, the table and JSON that carry them.

use serde_json::Value;

use crate::common::{Scratch, rulebook, stderr, stdout};

/// `rulebook match games/tictactoe.toml --bots BOTS --games N --seed S --json FILE`: the
/// table without its last line (thinking time, measured), and the JSON.
fn tictactoe_match(bots: &str, games: &str, seed: &str) -> (String, Value) {
    let dir = Scratch::new("statistics");
    let json = dir.join("match.json");
    let out = rulebook()
        .args(["match", "games/tictactoe.toml", "--bots", bots])
        .args(["--games", games, "--seed", seed, "--jobs", "1", "--json"])
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    let (untimed, timing) = table.trim_end().rsplit_once('\n').unwrap();
    assert!(timing.starts_with("thinking time per ply: "), "{table}");
    let json = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    (format!("{untimed}\n"), json)
}

#[test]
fn a_clean_sweep_has_an_interval_below_100_percent_and_an_elo_without_an_upper_bound() {
    let (table, json) = tictactoe_match("greedy,random", "6", "1");
    // 6 of 6: Wilson's interval is [6/(6 + 1.96²), 1] = [61.0%, 100%], not 100% ± 0%.
    insta::assert_snapshot!(table, @r"
    Tic-tac-toe: 6 games, seed 1
    bot     games   wins  draws  losses   score      95% interval  plies/game
    greedy      6      6      0       0  100.0%  [ 61.0%, 100.0%]         5.8
    random      6      0      0       6    0.0%  [  0.0%,  39.0%]         5.8
    Elo of greedy against random: +inf, 95% interval [+77.5, +inf]
    games won by seat: x 3, o 3, drawn 0
    ");
    let greedy = &json["bots"][0];
    assert_eq!(greedy["score_high"], 1.0);
    let low = greedy["score_low"].as_f64().unwrap();
    assert!((low - 6.0 / (6.0 + 1.96 * 1.96)).abs() < 1e-9, "{low}");
    let elo = &json["elo"];
    assert_eq!(
        (&elo["bot"], &elo["against"]),
        (&"greedy".into(), &"random".into())
    );
    // Infinite ends are null: the JSON has no infinities, and never NaN.
    assert!(elo["diff"].is_null() && elo["high"].is_null(), "{elo}");
    let elo_low = elo["low"].as_f64().unwrap();
    assert!((elo_low - -400.0 * (1.0 / low - 1.0).log10()).abs() < 1e-9);
}

#[test]
fn a_close_match_has_a_finite_elo_whose_interval_is_the_score_interval_as_elo() {
    let (table, json) = tictactoe_match("random,random", "10", "3");
    // 3 wins and 2 draws of 10: a score of 40%, -70.4 Elo; Wilson's 4 of 10 is
    // [16.8%, 68.7%].
    insta::assert_snapshot!(table, @r"
    Tic-tac-toe: 10 games, seed 3
    bot        games   wins  draws  losses   score      95% interval  plies/game
    random #1     10      3      2       5   40.0%  [ 16.8%,  68.7%]         7.8
    random #2     10      5      2       3   60.0%  [ 31.3%,  83.2%]         7.8
    Elo of random #1 against random #2: -70.4, 95% interval [-277.7, +136.8]
    games won by seat: x 4, o 4, drawn 2
    ");
    let elo_of = |s: f64| -400.0 * (1.0 / s - 1.0).log10();
    let first = &json["bots"][0];
    let field = |v: &Value, name: &str| v[name].as_f64().unwrap();
    let elo = &json["elo"];
    for (end, score) in [
        ("diff", "score"),
        ("low", "score_low"),
        ("high", "score_high"),
    ] {
        assert!(
            (field(elo, end) - elo_of(field(first, score))).abs() < 1e-9,
            "{end}"
        );
    }
}

#[test]
fn a_match_of_three_has_intervals_but_no_elo() {
    let (table, json) = tictactoe_match("greedy,random,random", "10", "3");
    assert!(!table.contains("Elo"), "{table}");
    assert!(json.get("elo").is_none(), "{json}");
    for bot in json["bots"].as_array().unwrap() {
        let (low, high) = (bot["score_low"].as_f64(), bot["score_high"].as_f64());
        let score = bot["score"].as_f64().unwrap();
        assert!(low.unwrap() <= score && score <= high.unwrap(), "{bot}");
    }
}
