//! Plays N seeded random playouts of a game file from its start and nothing else, for
//! instruction counts (the recipe is in `docs/performance.md`):
//!
//! ```text
//! cargo build --release --example playouts
//! valgrind --tool=callgrind --toggle-collect='playouts::run' \
//!     target/release/examples/playouts games/staqs.toml 1000 [NAME=VALUE ...]
//! ```
//!
//! It prints the plies played, the time per ply, and a fingerprint of the games (their
//! lengths and winners), which two builds that draw the same plies share.

use std::error::Error;

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rulebook::engine::game::Game;

/// The playouts, seeded with 1: the plies played and the games' fingerprint.
#[inline(never)]
fn run(game: &Game, n: u64) -> (u64, u64) {
    let start = game.start();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut state = start.clone();
    let (mut plies, mut fingerprint) = (0u64, 0u64);
    for _ in 0..n {
        state.clone_from(&start);
        let played = u64::from(game.playout(&mut state, &mut rng, u32::MAX));
        plies += played;
        let winners = state.outcome.as_ref().map_or(99, |o| {
            o.winners.iter().map(|&p| u64::from(p) + 1).sum::<u64>()
        });
        fingerprint = fingerprint
            .wrapping_mul(1_000_003)
            .wrapping_add(played * 7 + winners);
    }
    (plies, fingerprint)
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path, n, params @ ..] = args.as_slice() else {
        return Err("usage: playouts GAME.toml N [NAME=VALUE ...]".into());
    };
    let n: u64 = n.parse()?;
    let params = params
        .iter()
        .map(|p| {
            p.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| format!("expected NAME=VALUE, got `{p}`"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let source = rulebook::spec::load(path).map_err(|d| d.to_string())?;
    let game = rulebook::compile::compile(&source, &params).map_err(|d| d.to_string())?;
    // The way each action is drawn is measured once, at the first draw: not counted.
    let _ = game.listed_actions();
    let clock = std::time::Instant::now();
    let (plies, fingerprint) = run(&game, n);
    let seconds = clock.elapsed().as_secs_f64();
    println!(
        "{n} playouts, {plies} plies, {:.1} ns a ply, fingerprint {fingerprint:016x}",
        seconds * 1e9 / plies.max(1) as f64
    );
    Ok(())
}
