//! Helpers shared by the suites: loading the real game files.

use rulebook::compile;
use rulebook::engine::game::Game;
use rulebook::spec;

/// The path of a game file of this repository.
pub fn game_path(name: &str) -> String {
    format!("{}/games/{name}.toml", env!("CARGO_MANIFEST_DIR"))
}

/// Loads and compiles `games/<name>.toml` with `NAME=VALUE` parameters.
pub fn game(name: &str, params: &[(&str, &str)]) -> Game {
    let source = spec::load(&game_path(name)).unwrap_or_else(|d| panic!("{d}"));
    let params: Vec<(String, String)> = params
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    compile::compile(&source, &params).unwrap_or_else(|d| panic!("{d}"))
}
