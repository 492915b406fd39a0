//! How fast the interpreter lists plies and plays random games, game file by game file, and
//! how its Bounce compares with a plain hand-written Bounce (the test suite's reference).
//!
//! `cargo bench --bench playouts` runs it all in about three minutes; criterion's usual
//! arguments pick benchmarks (`cargo bench --bench playouts -- bounce_8x8`) or change the
//! sampling (`-- --measurement-time 10`). The figures are wall-clock times on one thread.
//!
//! - `legal_plies_from_start/<game>`: [`Game::legal_plies`] in the start position, the
//!   move generation every bot and playout starts from.
//! - `random_playout_from_start/<game>`: one random game from the start, as
//!   `rulebook bench` and the MCTS bot play them: [`Game::playout`]
//!   until the game has an outcome. One seeded generator runs on across iterations, so each
//!   iteration is a different game and a rerun replays the same sequence of games.
//! - `bounce_8x8_playout/{interpreter,interpreter_listing,reference}`: a random 8x8 Bounce
//!   game played by the interpreter (drawing plies, as `rulebook bench` does), by the
//!   interpreter listing every legal ply and picking one, and by `tests/reference/bounce.rs`,
//!   which lists every legal ply and picks one uniformly. All three draw from the same
//!   distribution of games (a uniformly random legal ply each turn). The two lines
//!   `bounce interpreter/reference speed ratio (...)` printed after the group are the
//!   reference's median time over each interpreter way's (above 1: the interpreter is
//!   faster); the listing one compares the move generators like for like.
//! - `<game>_playout/{interpreter,hand_written}`: random games by the interpreter and by the
//!   hand-written engine of `tests/fast/` (STAQS, Sight, VLKNO, Bounce 8x8, and Splut! for 2, 3 and 4 players:
//!   `splut_playout`, `splut_players_3_playout`, `splut_players_4_playout`), each followed
//!   by the line `<game> interpreter/hand-written speed ratio`: the hand-written median time
//!   over the interpreter's (1 would be as fast), then by the same ratio measured in
//!   pairs, `..., paired`: 21 rounds in which both play for a tenth of a second each, in
//!   turn, the median round's ratio and the middle half of the rounds' (steadier on a
//!   machine whose speed drifts while criterion measures one side and then the other).

use std::cell::Cell;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rulebook::engine::game::Game;
use rulebook::engine::state::State;
use rulebook::{compile, spec};

// The test suite's independent reference implementations, compiled into the benchmark as
// they are: only Bounce is used here, the rest (and the test helpers) stay unused.
#[allow(dead_code)]
#[path = "../tests/reference/mod.rs"]
mod reference;

use reference::bounce::Bounce;

// The hand-written engines written for speed (`tests/fast/`), checked against the
// interpreter by the test suite; only their playouts are used here.
#[allow(dead_code)]
#[path = "../tests/fast/mod.rs"]
mod fast;

use fast::sight::Sight;
use fast::splut::Splut;
use fast::staqs::Staqs;
use fast::vlkno::Vlkno;

/// The hand-written Bounce on boards of up to 8x8.
type Bounce8 = fast::bounce::Bounce<u64>;

/// A game file's `NAME=VALUE` parameters.
type Params = &'static [(&'static str, &'static str)];

/// Every game file, and Splut! once per player count (`players`, 2 by default): a label
/// for the benchmark id, the file under `games/` and its parameters.
const GAMES: [(&str, &str, Params); 17] = [
    ("amazons", "amazons", &[]),
    ("bounce", "bounce", &[]),
    ("breakthrough", "breakthrough", &[]),
    ("clobber", "clobber", &[]),
    ("connect4", "connect4", &[]),
    ("hex", "hex", &[]),
    ("tictactoe", "tictactoe", &[]),
    ("morris", "morris", &[]),
    ("staqs", "staqs", &[]),
    ("sight", "sight", &[]),
    ("vlkno", "vlkno", &[]),
    ("splut", "splut", &[]),
    ("splut_players_3", "splut", &[("players", "3")]),
    ("splut_players_4", "splut", &[("players", "4")]),
    ("xiangqi", "xiangqi", &[]),
    ("gomoku", "gomoku", &[]),
    ("konane", "konane", &[]),
];

/// The seed of every benchmark's generator: fixed, so runs play the same games.
const SEED: u64 = 2024;

/// The group comparing the two Bounce implementations, and its two benchmark ids.
const BOUNCE_GROUP: &str = "bounce_8x8_playout";
const INTERPRETER: &str = "interpreter";
const LISTING: &str = "interpreter_listing";
const REFERENCE: &str = "reference";
const HAND_WRITTEN: &str = "hand_written";

/// Loads and compiles `games/<file>.toml` with `NAME=VALUE` parameters.
fn load(file: &str, params: &[(&str, &str)]) -> Game {
    let path = format!("{}/games/{file}.toml", env!("CARGO_MANIFEST_DIR"));
    let source = spec::load(&path).unwrap_or_else(|d| panic!("{d}"));
    let params: Vec<(String, String)> = params
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    compile::compile(&source, &params).unwrap_or_else(|d| panic!("{d}"))
}

/// Plays one random game from `start` with the interpreter; returns its length in plies.
/// Stops early only if a player has no legal ply and the rules set no outcome, which
/// none of the game files allows (their `stuck` rules decide), so that the loop cannot spin.
fn interpreter_playout(game: &Game, start: &State, rng: &mut Xoshiro256PlusPlus) -> u32 {
    let mut state = start.clone();
    game.playout(&mut state, rng, u32::MAX);
    state.plies
}

/// [`interpreter_playout`] the way the reference plays: every legal ply listed
/// ([`Game::legal_plies`]) and one picked uniformly, for a like-for-like comparison of
/// the two move generators.
fn interpreter_listing_playout(game: &Game, start: &State, rng: &mut Xoshiro256PlusPlus) -> u32 {
    let mut state = start.clone();
    while state.outcome.is_none() {
        let mut legal = game.legal_plies(&state);
        if legal.is_empty() {
            break;
        }
        let i = rng.random_range(0..legal.len() as u64) as usize;
        game.play(&mut state, &legal.swap_remove(i));
    }
    state.plies
}

/// Part (a): the interpreter alone on every game file.
fn interpreter_games(c: &mut Criterion) {
    let games: Vec<(&str, Game)> = GAMES
        .iter()
        .map(|&(label, file, params)| (label, load(file, params)))
        .collect();

    let mut group = c.benchmark_group("legal_plies_from_start");
    for (label, game) in &games {
        let start = game.start();
        group.bench_function(*label, |b| b.iter(|| game.legal_plies(black_box(&start))));
    }
    group.finish();

    let mut group = c.benchmark_group("random_playout_from_start");
    // Playouts take up to milliseconds and vary from game to game: flat sampling (the same
    // number of games in every sample) rather than criterion's linear ramp, whose first
    // samples would hold one or two games each and whose plan overruns the time.
    group.sampling_mode(SamplingMode::Flat);
    for (label, game) in &games {
        let start = game.start();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
        group.bench_function(*label, |b| {
            b.iter(|| interpreter_playout(game, black_box(&start), &mut rng))
        });
    }
    group.finish();
}

/// Part (b): random 8x8 Bounce games by the interpreter and by the reference, in one
/// group, then the ratio of their medians from this run's estimates, and the mean game
/// lengths as a check that both played the same kind of games.
fn bounce_interpreter_against_reference(c: &mut Criterion) {
    let game = load("bounce", &[("size", "8")]);
    let start = game.start();
    let began = SystemTime::now();
    // (playouts, plies) per implementation, over warm-up and measurement alike.
    let interpreter_games = Cell::new((0u64, 0u64));
    let reference_games = Cell::new((0u64, 0u64));

    let mut group = c.benchmark_group(BOUNCE_GROUP);
    // Single games vary in length (some 40 plies on average, up to a few times that):
    // more measuring time than the other groups get, for a steadier median, and flat
    // sampling as for the other playouts.
    group.measurement_time(Duration::from_secs(6));
    group.sampling_mode(SamplingMode::Flat);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    group.bench_function(INTERPRETER, |b| {
        b.iter(|| {
            let plies = interpreter_playout(&game, black_box(&start), &mut rng);
            let (n, total) = interpreter_games.get();
            interpreter_games.set((n + 1, total + u64::from(plies)));
            plies
        })
    });
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    group.bench_function(LISTING, |b| {
        b.iter(|| interpreter_listing_playout(&game, black_box(&start), &mut rng))
    });
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    group.bench_function(REFERENCE, |b| {
        b.iter(|| {
            let mut pos = Bounce::new(black_box(8));
            let plies = pos.random_playout(&mut rng);
            let (n, total) = reference_games.get();
            reference_games.set((n + 1, total + plies as u64));
            plies
        })
    });
    group.finish();

    for (name, games) in [
        (INTERPRETER, interpreter_games.get()),
        (REFERENCE, reference_games.get()),
    ] {
        if games.0 > 0 {
            println!(
                "bounce 8x8 {name}: {} random games, {:.1} plies per game",
                games.0,
                games.1 as f64 / games.0 as f64
            );
        }
    }
    let reference = median_since(BOUNCE_GROUP, REFERENCE, began);
    for (id, how) in [
        (INTERPRETER, "drawing plies as `rulebook bench` does"),
        (LISTING, "listing every ply, as the reference does"),
    ] {
        match (median_since(BOUNCE_GROUP, id, began), reference.clone()) {
            (Ok(interpreter), Ok(reference)) => {
                println!(
                    "bounce interpreter/reference speed ratio ({how}): {:.2}",
                    reference / interpreter
                );
                println!(
                    "  (median playout: interpreter {}, reference {}; above 1: the interpreter is \
                     faster)",
                    micros(interpreter),
                    micros(reference)
                );
            }
            (Err(e), _) | (_, Err(e)) => {
                println!("bounce interpreter/reference speed ratio ({how}): n/a ({e})")
            }
        }
    }
}

/// Part (c): random games of each game by the interpreter (as `rulebook bench` plays them)
/// and by its hand-written engine (`tests/fast/`), one group per game (and per Splut!
/// player count), then the interpreter's speed as a share of the hand-written one's.
fn interpreter_against_hand_written(c: &mut Criterion) {
    against_hand_written(c, "staqs", "staqs", &[], |rng| {
        black_box(Staqs::start(false)).random_playout(rng)
    });
    against_hand_written(c, "sight", "sight", &[], |rng| {
        black_box(Sight::start(false)).random_playout(rng)
    });
    against_hand_written(c, "vlkno", "vlkno", &[], |rng| {
        black_box(Vlkno::start(false)).random_playout(rng)
    });
    // Each game starts from a copy of the start, as the interpreter's starts from a clone.
    let bounce = Bounce8::start(8);
    against_hand_written(c, "bounce", "bounce", &[("size", "8")], |rng| {
        black_box(bounce).random_playout(rng)
    });
    for (label, players, params) in [
        ("splut", 2, &[][..]),
        ("splut_players_3", 3, &[("players", "3")][..]),
        ("splut_players_4", 4, &[("players", "4")][..]),
    ] {
        against_hand_written(c, label, "splut", params, |rng| {
            black_box(Splut::start(players, true)).random_playout(rng)
        });
    }
}

/// The group `<label>_playout`: random games of `games/<file>.toml` with `params` by the
/// interpreter and by `hand_written` (one game from the start per call, drawing from the
/// generator it is given), then the line `<label> interpreter/hand-written speed ratio`:
/// the hand-written median over the interpreter's (the ratio: 1 would be as fast).
fn against_hand_written<T>(
    c: &mut Criterion,
    label: &str,
    file: &str,
    params: Params,
    mut hand_written: impl FnMut(&mut Xoshiro256PlusPlus) -> T,
) {
    let game = load(file, params);
    let start = game.start();
    let began = SystemTime::now();
    let group_name = format!("{label}_playout");
    let mut group = c.benchmark_group(&group_name);
    group.sampling_mode(SamplingMode::Flat);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    // As `rulebook bench` (and MCTS) play them: each playout copies the start into a
    // position kept from the last one (`clone_from`, no allocation once warm).
    let mut state = start.clone();
    group.bench_function(INTERPRETER, |b| {
        b.iter(|| {
            state.clone_from(black_box(&start));
            game.playout(&mut state, &mut rng, u32::MAX);
            state.plies
        })
    });
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    group.bench_function(HAND_WRITTEN, |b| b.iter(|| hand_written(&mut rng)));
    group.finish();
    match (
        median_since(&group_name, INTERPRETER, began),
        median_since(&group_name, HAND_WRITTEN, began),
    ) {
        (Ok(interpreter), Ok(by_hand)) => {
            println!(
                "{label} interpreter/hand-written speed ratio: {:.4} (median playout: \
                 interpreter {}, hand-written {})",
                by_hand / interpreter,
                micros(interpreter),
                micros(by_hand)
            );
            // Each side with a generator of its own, as in criterion's groups above.
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED + 1);
            let mut interpreter = || {
                state.clone_from(black_box(&start));
                game.playout(&mut state, &mut rng, u32::MAX);
                black_box(state.plies);
            };
            let mut hand_rng = Xoshiro256PlusPlus::seed_from_u64(SEED + 1);
            let mut by_hand = || {
                black_box(hand_written(&mut hand_rng));
            };
            println!("{}", paired(label, &mut interpreter, &mut by_hand));
        }
        (Err(e), _) | (_, Err(e)) => {
            println!("{label} interpreter/hand-written speed ratio: n/a ({e})")
        }
    }
}

/// Rounds of the paired measure ([`paired`]), and how long each side plays in a round.
const ROUNDS: usize = 21;
const SIDE: Duration = Duration::from_millis(100);

/// The interpreter's speed as a share of the hand-written engine's, measured in pairs:
/// in each of [`ROUNDS`] rounds both play random games for [`SIDE`] each, in turn (which
/// goes first alternates), and the round's ratio is their times per game, hand-written
/// over interpreter; the line gives the median round and the middle half. Criterion
/// measures one side for seconds and then the other, so a machine whose speed drifts
/// between the two (this project's shared one moves by a third from one minute to the
/// next) moves its ratio; a round's two sides are a tenth of a second apart.
fn paired(label: &str, interpreter: &mut dyn FnMut(), hand_written: &mut dyn FnMut()) -> String {
    // Calls per batch, so that reading the clock costs nothing beside a batch (a batch
    // of at least a millisecond), found while warming up.
    let batch = |f: &mut dyn FnMut()| {
        let mut n = 1u64;
        loop {
            let began = Instant::now();
            (0..n).for_each(|_| f());
            if began.elapsed() >= Duration::from_millis(1) {
                return n;
            }
            n *= 2;
        }
    };
    let (bi, bh) = (batch(interpreter), batch(hand_written));
    let per_game = |f: &mut dyn FnMut(), n: u64| {
        let (began, mut games) = (Instant::now(), 0u64);
        while began.elapsed() < SIDE {
            (0..n).for_each(|_| f());
            games += n;
        }
        began.elapsed().as_nanos() as f64 / games as f64
    };
    let mut rounds: Vec<(f64, f64, f64)> = (0..ROUNDS)
        .map(|round| {
            let (i, h) = if round % 2 == 0 {
                let i = per_game(interpreter, bi);
                (i, per_game(hand_written, bh))
            } else {
                let h = per_game(hand_written, bh);
                (per_game(interpreter, bi), h)
            };
            (h / i, i, h)
        })
        .collect();
    rounds.sort_by(|a, b| a.0.total_cmp(&b.0));
    let at = |q: usize| rounds[(ROUNDS - 1) * q / 4];
    let (median, interpreter, by_hand) = at(2);
    format!(
        "{label} interpreter/hand-written speed ratio, paired: {median:.4} (middle half {:.4} \
         to {:.4}; {ROUNDS} rounds of {} ms a side; median round: interpreter {}, \
         hand-written {})",
        at(1).0,
        at(3).0,
        SIDE.as_millis(),
        micros(interpreter),
        micros(by_hand)
    )
}

/// A time in nanoseconds, in microseconds for printing.
fn micros(ns: f64) -> String {
    format!("{:.1} µs", ns / 1000.0)
}

/// Where criterion writes its results, found the way criterion finds it: `CRITERION_HOME`,
/// else `criterion` in the cargo target directory (`CARGO_TARGET_DIR`, else what
/// `cargo metadata` says), else `target/criterion`.
fn criterion_home() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(target).join("criterion");
    }
    let metadata = std::env::var_os("CARGO").and_then(|cargo| {
        std::process::Command::new(cargo)
            .args(["metadata", "--format-version", "1", "--no-deps"])
            .output()
            .ok()
    });
    metadata
        .and_then(|out| serde_json::from_slice::<serde_json::Value>(&out.stdout).ok())
        .and_then(|v| v["target_directory"].as_str().map(PathBuf::from))
        .map_or_else(
            || PathBuf::from("target/criterion"),
            |t| t.join("criterion"),
        )
}

/// The median time per iteration, in nanoseconds, that criterion estimated for
/// `<group>/<id>`, provided it wrote the estimate after `since`: a benchmark left out by
/// a filter, or run in `--test` mode, leaves an older file or none, and a ratio mixing
/// runs would mislead.
fn median_since(group: &str, id: &str, since: SystemTime) -> Result<f64, String> {
    let path = criterion_home()
        .join(group)
        .join(id)
        .join("new")
        .join("estimates.json");
    let shown = path.display();
    let modified = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .map_err(|e| format!("no estimates at {shown}: {e}"))?;
    if modified < since {
        return Err(format!("{group}/{id} was not measured in this run"));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{shown}: {e}"))?;
    let estimates: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{shown}: {e}"))?;
    estimates["median"]["point_estimate"]
        .as_f64()
        .ok_or_else(|| format!("{shown} has no median.point_estimate"))
}

criterion_group! {
    name = playouts;
    // Modest sampling: the whole file runs in about three minutes on two cores.
    config = Criterion::default()
        .sample_size(50)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = interpreter_games, bounce_interpreter_against_reference,
        interpreter_against_hand_written
}
criterion_main!(playouts);
