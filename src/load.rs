//! Loading a game for a command: the file compiled with its `--param` values and, when
//! one is given, a `--position` diagram as its start; and the error every command reports.
//!
//! It sits below the command line and the REPL, which both load games (the REPL's `load`
//! and `variant` commands too).

use crate::compile;
use crate::engine::game::Game;
use crate::record::diagram;
use crate::spec;

/// An error for the user: printed on stderr, exit code 1.
pub struct Failure(pub String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Failure {
        Failure(e.to_string())
    }
}

/// Splits `NAME=VALUE` arguments.
fn parse_params(raw: &[String]) -> Result<Vec<(String, String)>, Failure> {
    raw.iter()
        .map(|p| {
            p.split_once('=')
                .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| Failure(format!("--param expects NAME=VALUE, got `{p}`")))
        })
        .collect()
}

/// Loads and compiles a game with its parameters.
pub fn load_game(args: &GameArgsRef) -> Result<Game, Failure> {
    let source = spec::load(args.game).map_err(|d| Failure(d.to_string()))?;
    let params = parse_params(args.params)?;
    let mut game = compile::compile(&source, &params).map_err(|d| Failure(d.to_string()))?;
    if let Some(position) = args.position {
        let (text, from) = match position.strip_prefix('@') {
            Some(path) => (
                read_limited(path).map_err(|e| Failure(format!("--position {position}: {e}")))?,
                path.to_string(),
            ),
            None => (position.to_string(), "--position".to_string()),
        };
        game.initial = diagram::read(&game, &text).map_err(|e| Failure(format!("{from}: {e}")))?;
        game.start_position = Some(diagram::one_line(&text));
    }
    Ok(game)
}

/// The text of a file of at most a megabyte (a position, not a stream).
fn read_limited(path: &str) -> Result<String, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut text = String::new();
    file.take(1 << 20)
        .read_to_string(&mut text)
        .map_err(|e| e.to_string())?;
    if text.len() >= 1 << 20 {
        return Err("larger than a megabyte: not a position".into());
    }
    Ok(text)
}

/// The game file, `--param` values and starting position of a command.
pub struct GameArgsRef<'a> {
    pub game: &'a str,
    pub params: &'a [String],
    pub position: Option<&'a str>,
}
