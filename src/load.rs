//! Loading a game for a command: the file a name names (a path, or a bare name found in
//! `games/`), compiled with its `--param` values and, when one is given, a `--position`
//! diagram as its start; and the error every command reports.
//!
//! It sits below the command line and the REPL, which both load games (the REPL's `load`
//! and `variant` commands too).

use std::path::Path;

use crate::compile;
use crate::engine::game::Game;
use crate::record::position_text;
use crate::render::text::printable;
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
        let (text, from) = match position_file(position) {
            Some(path) => (
                read_limited(path).map_err(|e| Failure(format!("--position {position}: {e}")))?,
                path.to_string(),
            ),
            None => (position.to_string(), "--position".to_string()),
        };
        let (state, line) =
            position_text::read_any(&game, &text).map_err(|e| Failure(format!("{from}: {e}")))?;
        game.initial = state;
        game.start_position = Some(line);
    }
    Ok(game)
}

/// The file a `--position` argument names: `@PATH`, one word (no space, newline, `=`
/// or `;`). Anything else, a diagram that starts with a symbol `@` too, is the position
/// itself: a diagram always has a space or a line between its cells, or an assignment.
pub fn position_file(argument: &str) -> Option<&str> {
    argument.strip_prefix('@').filter(|path| {
        !path.is_empty() && !path.contains(|c: char| c.is_whitespace() || c == '=' || c == ';')
    })
}

/// The folder a game named by a bare name is looked for in, from the working folder.
const GAMES_FOLDER: &str = "games";

/// The game file a command names: the path as given when something is there, or when it
/// names a folder or an extension; a bare name (`rulebook play NAME`) with no file of
/// that name in the working folder is `games/NAME.toml` when that file exists. When
/// neither does, the error lists the games in `games/`, the names that would work.
pub fn game_file(name: &str) -> Result<String, Failure> {
    let path = Path::new(name);
    let bare = !name.is_empty()
        && path.components().count() == 1
        && path.extension().is_none()
        && !name.contains(std::path::MAIN_SEPARATOR);
    if path.exists() || !bare {
        return Ok(name.to_string());
    }
    let candidate = Path::new(GAMES_FOLDER).join(format!("{name}.toml"));
    if candidate.is_file() {
        return Ok(candidate.to_string_lossy().into_owned());
    }
    Err(Failure(format!(
        "no game file `{}`: no file of that name in the working folder, nor {}; {}",
        printable(name),
        printable(&candidate.to_string_lossy()),
        shipped_games()
    )))
}

/// The games in `games/` (their names without `.toml`, sorted), for the error of a bare
/// name that names none.
fn shipped_games() -> String {
    let Ok(entries) = std::fs::read_dir(GAMES_FOLDER) else {
        return format!("there is no {GAMES_FOLDER}/ folder here: give the game file's path");
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| {
            let path = e.ok()?.path();
            let stem = path.file_stem()?.to_str()?;
            (path.extension()? == "toml").then(|| printable(stem).into_owned())
        })
        .collect();
    names.sort();
    if names.is_empty() {
        format!("{GAMES_FOLDER}/ holds no game file (NAME.toml)")
    } else {
        format!("the games in {GAMES_FOLDER}/: {}", names.join(", "))
    }
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
