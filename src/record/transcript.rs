//! Transcripts: a game as plain text that people read and programs replay exactly.
//!
//! ```text
//! # rulebook transcript
//! game: Example
//! file: games/example.toml
//! param size: 6
//! seat red: human
//! seat blue: greedy
//! name red: Ada
//! seed: 7
//! result: blue won
//!
//! 1. red b1-a1  # human
//! 2. blue c2-a2  # greedy
//! 3. red xc3  # human
//! ```
//!
//! The header holds what is needed to play the same game again (the game file as it was
//! given, every parameter, who sat where when it was saved, the seed) and the result; then
//! one ply per line, numbered by turn, with the player who made it and, after ` # `, who
//! chose it (`human` or a bot spec): seats change hands during a game, and a person may
//! let a bot play one ply. Nothing in it depends on the time or the machine, so a
//! transcript of a seeded bot game is a stable snapshot.

use std::fmt::Write as _;

use super::file;
use crate::engine::game::{Game, decimal_text, scale_decimals};
use crate::engine::state::State;
use crate::render::text::{echo, printable};

/// The first line of every transcript.
pub const MAGIC: &str = "# rulebook transcript";

/// What separates a ply from who chose it, on a ply line.
const BY: &str = "  # ";

impl Entry {
    /// The ply written `text` about to be played in `state`, chosen `by` someone.
    pub fn new(game: &Game, state: &State, text: &str, by: &str) -> Entry {
        Entry {
            turn: state.turn,
            player: game.players[state.to_move as usize].clone(),
            ply: text.to_string(),
            by: by.to_string(),
            line: 0,
        }
    }
}

/// The largest transcript read, in bytes: a game at the default ply cap is well under a
/// megabyte, and the bound keeps a wrong path from being read until memory runs out.
pub const MAX_BYTES: u64 = 8 << 20;

/// One recorded ply: the turn it was played in, who played it and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub turn: u32,
    pub player: String,
    pub ply: String,
    /// Who chose the ply: `human` or a bot spec; empty when not known (a transcript
    /// written before plies recorded it).
    pub by: String,
    /// The line of the transcript it was read from (0 when not read from a file).
    pub line: usize,
}

/// A transcript in memory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Transcript {
    pub game: String,
    /// The game file's path as the user gave it.
    pub file: String,
    /// Every parameter of the game, `(name, value)`, in the game's order.
    pub params: Vec<(String, String)>,
    /// The diagram the game started from, if not its own start (one line).
    pub position: Option<String>,
    /// Who plays each seat: `human` or a bot spec.
    pub seats: Vec<(String, String)>,
    /// Names given to seats.
    pub names: Vec<(String, String)>,
    pub seed: u64,
    /// `red won`, `draw`, `unfinished`, `blue resigned`...
    pub result: String,
    pub plies: Vec<Entry>,
}

/// A transcript that cannot be read or replayed, with the line at fault (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl Transcript {
    /// The parameters as `--param` takes them, for the game file they were saved with.
    ///
    /// A scaled parameter (`[params] scale`) is written in the unit people type, always
    /// with its decimals (`param handicap: 7.5`, `7.0`). Transcripts saved before
    /// parameters had a scale wrote the whole number expressions see (`75` for 7.5 with
    /// a scale of 10): a scaled parameter written without a decimal point is that older
    /// form, and reads as the same value, so that an old save replays the same game.
    pub fn param_overrides(&self, source: &crate::spec::Source) -> Vec<(String, String)> {
        (self.params.iter())
            .map(|(name, text)| {
                let scale = (source.file.params.get(name))
                    .and_then(|spec| spec.scale.as_ref())
                    .map_or(1, |s| *s.get_ref());
                let older = scale > 1 && scale_decimals(scale).is_some() && !text.contains('.');
                let value = match text.trim().parse::<i64>() {
                    Ok(whole) if older => decimal_text(whole, scale),
                    _ => text.clone(),
                };
                (name.clone(), value)
            })
            .collect()
    }

    /// An empty transcript of `game` loaded from `file`, with the game's parameters.
    pub fn new(game: &Game, file: &str, seed: u64) -> Transcript {
        Transcript {
            game: game.name.clone(),
            file: file.to_string(),
            params: game.param_texts(),
            position: game.start_position.clone(),
            seed,
            result: "unfinished".into(),
            ..Transcript::default()
        }
    }

    /// Records a ply about to be played in `state`, chosen `by` a person or a bot spec.
    pub fn push(&mut self, game: &Game, state: &State, text: &str, by: &str) {
        self.plies.push(Entry::new(game, state, text, by));
    }

    /// The result line for a finished game (or `unfinished`).
    pub fn result_of(game: &Game, state: &State) -> String {
        match &state.outcome {
            None => "unfinished".into(),
            Some(o) => {
                let mut s = if o.winners.is_empty() {
                    "draw".to_string()
                } else {
                    let names: Vec<&str> = o
                        .winners
                        .iter()
                        .map(|&p| game.players[p as usize].as_str())
                        .collect();
                    format!("{} won", names.join(", "))
                };
                if let Some(reason) = &o.reason {
                    let _ = write!(s, " ({reason})");
                }
                s
            }
        }
    }

    /// The transcript as text.
    pub fn to_text(&self) -> String {
        let mut s = format!("{MAGIC}\ngame: {}\nfile: {}\n", self.game, self.file);
        for (name, value) in &self.params {
            let _ = writeln!(s, "param {name}: {value}");
        }
        if let Some(position) = &self.position {
            let _ = writeln!(s, "position: {position}");
        }
        for (seat, who) in &self.seats {
            let _ = writeln!(s, "seat {seat}: {who}");
        }
        for (seat, name) in &self.names {
            let _ = writeln!(s, "name {seat}: {name}");
        }
        let _ = writeln!(s, "seed: {}\nresult: {}\n", self.seed, self.result);
        for e in &self.plies {
            let _ = write!(s, "{}. {} {}", e.turn, e.player, e.ply);
            if !e.by.is_empty() {
                let _ = write!(s, "{BY}{}", e.by);
            }
            s.push('\n');
        }
        s
    }

    /// Reads and parses the transcript at `path`; the error names the path, and the line
    /// when the file could be read.
    pub fn read(path: &str) -> Result<Transcript, String> {
        let shown = printable(path);
        let text = file::read_text(path, MAX_BYTES, "transcript")
            .map_err(|e| format!("cannot read {shown}: {e}"))?;
        Transcript::parse(&text).map_err(|e| format!("{shown}: {e}"))
    }

    /// Reads a transcript; the error names the first line that is not understood.
    pub fn parse(text: &str) -> Result<Transcript, LineError> {
        let mut t = Transcript {
            result: "unfinished".into(),
            ..Transcript::default()
        };
        // Editors on some systems start a UTF-8 file with a byte-order mark; it is not text.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
        let err = |line: usize, message: String| LineError { line, message };
        match lines.next() {
            Some((_, MAGIC)) => {}
            Some((n, other)) => {
                return Err(err(
                    n,
                    format!(
                        "expected `{MAGIC}` as the first line, found `{}`",
                        echo(other)
                    ),
                ));
            }
            None => return Err(err(1, "the file is empty".into())),
        }
        let (mut seen_game, mut seen_file) = (false, false);
        // The header keys read so far and their lines: a key given twice is refused, as
        // either value could be the one meant.
        let mut seen_keys: Vec<(String, usize)> = Vec::new();
        let mut in_plies = false;
        for (n, line) in lines {
            if line.is_empty() {
                in_plies = true;
                continue;
            }
            if line.starts_with('#') {
                continue;
            }
            if !in_plies {
                let (key, value) = line.split_once(':').ok_or_else(|| {
                    err(
                        n,
                        format!(
                            "expected `key: value` in the header (game, file, param NAME, \
                             seat NAME, name NAME, seed, result), found `{}`",
                            echo(line)
                        ),
                    )
                })?;
                let (key, value) = (key.trim(), value.trim().to_string());
                let normal = key.split_whitespace().collect::<Vec<_>>().join(" ");
                if let Some((_, first)) = seen_keys.iter().find(|(k, _)| *k == normal) {
                    return Err(err(
                        n,
                        format!(
                            "`{}` is given twice in the header (first on line {first}): \
                             keep the right one",
                            echo(&normal)
                        ),
                    ));
                }
                seen_keys.push((normal, n));
                let mut words = key.split_whitespace();
                match (words.next(), words.next(), words.next()) {
                    (Some("game"), None, _) => {
                        t.game = value;
                        seen_game = true;
                    }
                    (Some("file"), None, _) => {
                        t.file = value;
                        seen_file = true;
                    }
                    (Some("seed"), None, _) => {
                        t.seed = value.parse().map_err(|_| {
                            err(
                                n,
                                format!(
                                    "the seed must be a whole number from 0 to {}, not `{}`",
                                    u64::MAX,
                                    echo(&value)
                                ),
                            )
                        })?;
                    }
                    (Some("result"), None, _) => t.result = value,
                    (Some("position"), None, _) => t.position = Some(value),
                    (Some("param"), Some(name), None) => t.params.push((name.into(), value)),
                    (Some("seat"), Some(name), None) => t.seats.push((name.into(), value)),
                    (Some("name"), Some(name), None) => t.names.push((name.into(), value)),
                    _ => {
                        return Err(err(
                            n,
                            format!(
                                "unknown header key `{}`; keys: game, file, param NAME, \
                                 position, seat NAME, name NAME, seed, result",
                                echo(key)
                            ),
                        ));
                    }
                }
                continue;
            }
            let bad = || {
                err(
                    n,
                    format!(
                        "expected a ply as `TURN. PLAYER PLY` (e.g. `3. red b1-a1`), found `{}`",
                        echo(line)
                    ),
                )
            };
            let (line, by) = match line.rsplit_once(" # ") {
                Some((ply, by)) => (ply.trim_end(), by.trim()),
                None => (line, ""),
            };
            let (turn, rest) = line.split_once('.').ok_or_else(bad)?;
            let turn: u32 = turn.trim().parse().map_err(|_| bad())?;
            let (player, ply) = rest.trim().split_once(' ').ok_or_else(bad)?;
            t.plies.push(Entry {
                turn,
                player: player.to_string(),
                ply: ply.trim().to_string(),
                by: by.to_string(),
                line: n,
            });
        }
        if !seen_game || !seen_file {
            return Err(err(
                1,
                "the header must name the game (`game: NAME`) and its file (`file: PATH`)".into(),
            ));
        }
        Ok(t)
    }

    /// Plays the recorded plies on `game` from the start, checking each against the legal
    /// plies, its turn and its player; `each` sees every position after a ply. The
    /// error names the line of the first ply that does not fit.
    pub fn replay(
        &self,
        game: &Game,
        mut each: impl FnMut(&Entry, &State),
    ) -> Result<State, LineError> {
        if game.name != self.game {
            return Err(LineError {
                line: 2,
                message: format!(
                    "the transcript is of `{}` but the file holds `{}`",
                    echo(&self.game),
                    game.name
                ),
            });
        }
        let mut state = game.start();
        for e in &self.plies {
            let fail = |message: String| LineError {
                line: e.line,
                message,
            };
            if state.outcome.is_some() {
                return Err(fail(format!(
                    "`{}`: the game was already over ({})",
                    echo(&e.ply),
                    Transcript::result_of(game, &state)
                )));
            }
            let mover = &game.players[state.to_move as usize];
            if *mover != e.player || state.turn != e.turn {
                return Err(fail(format!(
                    "`{}. {} {}`: it is turn {} and {mover} is to move",
                    e.turn,
                    echo(&e.player),
                    echo(&e.ply),
                    state.turn
                )));
            }
            let ply = game.parse_ply(&state, &e.ply).map_err(|illegal| {
                let mut m = format!("`{}` is not legal here", echo(&e.ply));
                if !illegal.closest.is_empty() {
                    let _ = write!(m, "; {}", closest_plies(&illegal.closest));
                }
                fail(m)
            })?;
            game.play(&mut state, &ply);
            each(e, &state);
        }
        Ok(state)
    }
}

/// `closest legal ply: X` or `closest legal plies: X, Y`: the texts suggested for a ply
/// that is not legal.
pub fn closest_plies(texts: &[String]) -> String {
    format!(
        "closest legal {}: {}",
        if texts.len() == 1 { "ply" } else { "plies" },
        texts.join(", ")
    )
}
