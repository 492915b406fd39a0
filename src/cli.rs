//! The command line: argument parsing and the commands `check`, `moves`, `perft`,
//! `selfplay`, `match`, `merge`, `analyze`, `bench`, `replay` and `play`.
//!
//! Each command returns a `Result`; `main` turns errors into a message on stderr and exit
//! code 1, and treats a closed output pipe as success.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use crate::analyze;
use crate::bench;
use crate::bots::mcts::MAX_THREADS;
use crate::bots::{self, Bot};
use crate::compile;
use crate::engine::game::{Draw, Game, IllegalPly};
use crate::engine::state::State;
use crate::load::{Failure, GameArgsRef, game_file, load_game, position_file};
use crate::record::file::{Named, check_paths, write_output};
use crate::record::trace;
use crate::record::transcript::{Transcript, closest_plies};
use crate::record::{diagram, pgn, position_text};
use crate::render::board::render;
use crate::render::order::sort_natural;
use crate::render::picture::{self, html};
use crate::render::progress::progress;
use crate::render::text::{echo, printable, printable_lines};
use crate::repl;
use crate::repl::explain::typed_ply;
use crate::repl::variant::Variant;
use crate::repl::{explain, report};
use crate::spec;
use crate::tournament;
use crate::tournament::shard::Shard;

#[derive(Parser)]
#[command(
    name = "rulebook",
    version,
    about = "Plays any board game described in a text file."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Options shared by every command that loads one game.
#[derive(clap::Args)]
struct GameArgs {
    /// The game file, such as games/NAME.toml; a bare name (NAME) with no file of that
    /// name here is looked for as games/NAME.toml.
    game: String,
    /// Sets a parameter declared by the game file (repeatable), e.g. --param size=6.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
    /// Starts from this position instead of the game's start: a board diagram (ranks top
    /// first, `/` between lines, `NAME = VALUE` for the player to move and variables),
    /// a board as `moves --board` draws it, the game's position text
    /// (`[position_text]`), or @FILE (one word) to read one from a file. See
    /// docs/game-format.md, "Starting positions".
    #[arg(long, value_name = "DIAGRAM|TEXT|@FILE")]
    position: Option<String>,
    /// Plies to play first, from the start (or the --position), separated by `;`: the
    /// command starts from the position they reach.
    #[arg(long, value_name = "PLY; PLY; ...")]
    after: Option<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Loads and validates game files; prints one summary line per valid game.
    Check {
        /// The game files to check (exit code 1 if any is invalid).
        #[arg(required = true, value_name = "GAME")]
        games: Vec<String>,
        /// Sets a parameter declared by the game files (repeatable), e.g. --param size=6:
        /// each file is checked with these values.
        #[arg(long = "param", value_name = "NAME=VALUE")]
        params: Vec<String>,
    },
    /// Lists the legal plies of a position, sorted, one a line.
    Moves {
        #[command(flatten)]
        game: GameArgs,
        /// Also draws the position before the list.
        #[arg(long)]
        board: bool,
        /// Writes a picture of the position (SVG) to this file, the last ply of
        /// `--after` marked.
        #[arg(long, value_name = "FILE")]
        svg: Option<String>,
        /// Lists the plies in the game's short notation (its `short` templates), the
        /// form `play` and `replay` also accept.
        #[arg(long)]
        short: bool,
    },
    /// Counts the leaf plies at a depth from the start.
    Perft {
        #[command(flatten)]
        game: GameArgs,
        /// How many plies deep to count, from 1 to 64.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: u32,
        /// Prints the count under each first ply.
        #[arg(long)]
        divide: bool,
        /// Gives up with an error after this many seconds instead of running for hours
        /// (each extra ply of depth multiplies the time by the branching factor).
        #[arg(long, default_value_t = 600.0)]
        max_seconds: f64,
        /// Also prints, on standard error, the time taken and positions visited per second.
        #[arg(long)]
        stats: bool,
        /// Counts positions at exactly `--depth` plies, as published perft tables do: a
        /// game that ended earlier counts nothing (by default it counts as a leaf).
        #[arg(long)]
        exact: bool,
    },
    /// Plays one game between bots (by default uniformly random plies for every seat).
    Selfplay {
        #[command(flatten)]
        game: GameArgs,
        /// Seeds the random plies and the bots: the same seed plays the same game.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// One bot spec per seat, in seat order, e.g. --bots greedy,mcts:iters=500.
        #[arg(long, value_name = "SPEC,SPEC,...")]
        bots: Option<String>,
        /// Ends the game as a draw after this many plies (overrides the file's cap), from 1
        /// to 100,000.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=compile::MOST_PLIES as i64))]
        max_plies: Option<u32>,
        /// Writes a JSON Lines trace of the game to this file.
        #[arg(long, value_name = "FILE")]
        trace: Option<String>,
        /// Writes the game as a transcript (the format `play` saves) to this file.
        #[arg(long, value_name = "FILE")]
        transcript: Option<String>,
        /// Writes the game as one HTML page that steps through its positions.
        #[arg(long, value_name = "FILE")]
        html: Option<String>,
    },
    /// Plays many games between bots, seats rotated, and prints a table of results.
    Match {
        #[command(flatten)]
        game: GameArgs,
        /// Bot specs, comma-separated, e.g. mcts:iters=500,random (options after `:`
        /// are separated by commas too: mcts:ms=200,c=1.4,greedy).
        #[arg(long, value_name = "SPEC,SPEC,...")]
        bots: String,
        /// How many games to play, from 1 to 1,000,000,000 (seats rotate from game to game).
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=tournament::MOST_GAMES as u64))]
        games: u64,
        /// Seeds every game (each gets its own seed from it): the same seed gives the same
        /// table.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Worker threads, from 1 to 256 (default: one per core).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=tournament::MOST_JOBS as u64))]
        jobs: Option<u64>,
        /// Also writes the results as JSON to this file.
        #[arg(long, value_name = "FILE")]
        json: Option<String>,
        /// Writes one transcript per game into this folder (game-001.txt, ...).
        #[arg(long, value_name = "DIR")]
        transcripts: Option<String>,
        /// Plays only shard K of N (1 <= K <= N): the K-th of N even blocks of games, each
        /// game with the seed, seats and transcript name it has in the whole match, so
        /// that `merge` adds the shards' JSON up to the whole match's.
        #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
        shard: Option<Shard>,
    },
    /// Measures a game over many seeded bot games, as a designer asks: fairness by seat,
    /// draws, length, branching, forced plies, lead changes, stalls, rules never used;
    /// one column per value of --sweep or per --variant, significant differences marked.
    Analyze {
        #[command(flatten)]
        game: GameArgs,
        /// One column per value of a parameter, e.g. --sweep size=4,6,8,10.
        #[arg(long, value_name = "NAME=V1,V2,...", conflicts_with = "variants")]
        sweep: Option<String>,
        /// An edited copy of the game file, analysed as a column after GAME's (repeatable).
        #[arg(long = "variant", value_name = "FILE")]
        variants: Vec<String>,
        /// Bot specs, comma-separated, seats rotated from game to game as in `match`
        /// (one spec plays every seat).
        #[arg(long, value_name = "SPEC,SPEC,...", default_value = "random")]
        bots: String,
        /// Games per column, from 1 to 100,000 (with --seconds, the most).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=analyze::MOST_GAMES as u64))]
        games: Option<u64>,
        /// Plays each column for about this many seconds instead of a number of games
        /// (more than 0, at most 86,400): the first N games of the seed, N as the time allows.
        #[arg(long)]
        seconds: Option<f64>,
        /// Seeds every game (each gets its own seed from it): the same seed gives the same
        /// numbers, whatever --jobs.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Worker threads, from 1 to 256 (default: one per core).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=tournament::MOST_JOBS as u64))]
        jobs: Option<u64>,
        /// Ends a game as a draw after this many plies (overrides the file's cap), from 1
        /// to 100,000: such games count as ended by the cap, not decisive.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=compile::MOST_PLIES as i64))]
        max_plies: Option<u32>,
        /// Measures skill depth too, with this many games on each rung of the ladder
        /// random < greedy < mcts:iters=100 < mcts:iters=1000 (0 to 10,000; costly).
        #[arg(long, value_name = "GAMES", default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=10_000))]
        skill: u64,
        /// Also writes the analysis as JSON to this file.
        #[arg(long, value_name = "FILE")]
        json: Option<String>,
        /// Also writes a self-contained HTML page of the plots to this file.
        #[arg(long, value_name = "FILE")]
        html: Option<String>,
    },
    /// Adds up the JSON of a match's shards (`match --shard K/N --json FILE`) and prints
    /// the table the whole match prints.
    Merge {
        /// The shards' JSON files, every shard of one match once, in any order.
        #[arg(required = true, value_name = "JSON")]
        files: Vec<String>,
        /// Also writes the whole match's JSON to this file.
        #[arg(long, value_name = "FILE")]
        json: Option<String>,
    },
    /// Measures random playouts and MCTS iterations per second on one thread (MCTS on more
    /// with --threads).
    Bench {
        #[command(flatten)]
        game: GameArgs,
        /// How long to play random playouts, more than 0 and at most 3600 (MCTS is then
        /// measured for a fifth of it, at least half a second).
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// Plays exactly this many playouts (then as many MCTS iterations) instead of
        /// playing for a time: the same work every run, for profilers and instruction
        /// counts.
        #[arg(long, value_name = "N", conflicts_with = "seconds")]
        playouts: Option<u64>,
        /// Seeds the random playouts and MCTS.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Runs the MCTS measure on this many threads, from 1 to 64, as `mcts:threads=N`
        /// does (the random playouts stay on one).
        #[arg(long, default_value_t = 1, value_name = "N",
              value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
        threads: u16,
        /// How random plies are drawn: `sample` numbers candidates and tries them until
        /// one is legal, `list` lists every legal ply and picks one, `auto` takes for each
        /// action the way that costs less, as measured on the game before the clock
        /// starts. The same plies with the same chances either way; only speed differs
        /// (and the random stream, where an action is listed).
        #[arg(long, value_enum, default_value_t = DrawArg::Auto)]
        draw: DrawArg,
        /// Also writes the figures as JSON to this file.
        #[arg(long, value_name = "FILE")]
        json: Option<String>,
    },
    /// Checks a transcript ply by ply and prints the positions it went through.
    Replay {
        /// A transcript written by `play` (`save`), `selfplay --transcript` or `match
        /// --transcripts`.
        file: String,
        /// The game file to replay it on, instead of the one its `file:` line names
        /// (which is looked for beside the transcript, then from the working folder).
        #[arg(long, value_name = "GAME")]
        game: Option<String>,
        /// Draws the board after every ply, not only at the end.
        #[arg(long)]
        board: bool,
        /// Writes the game as one HTML page that steps through its positions (no
        /// network needed to view it).
        #[arg(long, value_name = "FILE")]
        html: Option<String>,
        /// Writes the game as a PGN record (the tags, the plies in the game's short
        /// notation, the result), for a game of two whose file gives a short notation.
        #[arg(long, value_name = "FILE")]
        pgn: Option<String>,
    },
    /// Plays a game in the terminal, against people or bots.
    Play {
        #[command(flatten)]
        game: GameArgs,
        /// Names a seat's player, e.g. --name red=Ada.
        #[arg(long = "name", value_name = "NAME=TEXT")]
        names: Vec<String>,
        /// Resumes the game saved in a transcript.
        #[arg(long, value_name = "FILE")]
        load: Option<String>,
        /// Who plays a seat: human or a bot spec, e.g. --seat blue=mcts:ms=1000 (by
        /// default the first seat is a person and the others the greedy bot).
        #[arg(long = "seat", value_name = "NAME=human|SPEC")]
        seats: Vec<String>,
        /// Seeds the bots (default: a random seed, printed at the start).
        #[arg(long)]
        seed: Option<u64>,
    },
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    // Clap refuses an argument that is not UTF-8 without saying which: say it here.
    if let Some((i, arg)) = std::env::args_os()
        .enumerate()
        .skip(1)
        .find(|(_, a)| a.to_str().is_none())
    {
        eprintln!(
            "error: argument {i}, `{}`, is not UTF-8 text (shown with � for the bytes that are \
             not); file names and options must be",
            printable(&arg.to_string_lossy())
        );
        return ExitCode::from(2);
    }
    let cli = Cli::parse();
    let mut out = io::stdout().lock();
    match run(cli.command, &mut out) {
        Ok(code) => code,
        Err(Failure(msg)) => {
            let _ = out.flush();
            if msg.contains("Broken pipe") {
                return ExitCode::SUCCESS;
            }
            // Errors quote files and arguments: escaped, so they cannot drive the terminal.
            let msg = printable_lines(&msg);
            eprint!("{msg}");
            if !msg.ends_with('\n') {
                eprintln!();
            }
            ExitCode::FAILURE
        }
    }
}

impl GameArgs {
    /// Refuses outputs (`(option, path)`) that are one file, or that are the game file or
    /// the position file the command reads, before anything is played.
    fn check_outputs(&self, outputs: &[(&str, &str)]) -> Result<(), Failure> {
        let mut paths = vec![Named {
            what: "the game file",
            path: Path::new(&self.game),
            written: false,
        }];
        if let Some(file) = self.position.as_deref().and_then(position_file) {
            paths.push(Named {
                what: "the --position file",
                path: Path::new(file),
                written: false,
            });
        }
        paths.extend(outputs.iter().map(|&(what, path)| Named {
            what,
            path: Path::new(path),
            written: true,
        }));
        check_paths(&paths).map_err(Failure)
    }

    /// The game loaded, started from the position `--after`'s plies reach when given
    /// (recorded as a diagram, so that transcripts replay from it).
    fn load(&self) -> Result<Game, Failure> {
        let game = load_game(&self.as_ref())?;
        after(game, self.after.as_deref())
    }

    fn as_ref(&self) -> GameArgsRef<'_> {
        GameArgsRef {
            game: &self.game,
            params: &self.params,
            position: self.position.as_deref(),
        }
    }
}

/// `game` started from the position the plies of `--after` reach from its start (the
/// game as it is without them).
fn after(mut game: Game, plies: Option<&str>) -> Result<Game, Failure> {
    if let Some(plies) = plies {
        let state =
            play_sequence(&game, plies).map_err(|e| Failure(format!("--after: {}", e.0)))?;
        if state.outcome.is_some() {
            return Err(Failure(
                "--after: the game is over after these plies".into(),
            ));
        }
        game.start_position = Some(diagram::write(&game, &state));
        game.initial = state;
    }
    Ok(game)
}

/// Plays `;`-separated plies from the start; an illegal one is an error naming it. A ply
/// whose text holds `;` itself is found by joining pieces again: the first of `a`, `a;`,
/// `a;b`, `a;b;`... that is a legal ply is played.
pub fn play_sequence(game: &Game, plies: &str) -> Result<State, Failure> {
    play_sequence_marked(game, plies).map(|(state, _)| state)
}

/// [`play_sequence`], with the position before the last ply played (none if no ply
/// was): what a picture marks the last ply by.
fn play_sequence_marked(game: &Game, plies: &str) -> Result<(State, Option<State>), Failure> {
    let mut state = game.start();
    let mut before = None;
    let pieces: Vec<&str> = plies.split(';').collect();
    let (mut at, mut index) = (0, 0);
    while at < pieces.len() {
        if pieces[at].trim().is_empty() {
            at += 1;
            continue;
        }
        index += 1;
        let text = pieces[at].trim();
        if state.outcome.is_some() {
            return Err(Failure(format!(
                "ply {index} `{}`: the game is already over",
                echo(text)
            )));
        }
        let joined = (at..pieces.len()).find_map(|last| {
            let joined = pieces[at..=last].join(";");
            [joined.clone(), joined + ";"].into_iter().find_map(|t| {
                let ply = typed_ply(game, &state, t.trim()).ok()?;
                Some((ply, last))
            })
        });
        let Some((ply, last)) = joined else {
            let closest = typed_ply(game, &state, text).err().unwrap_or_default();
            return Err(Failure(illegal_message(
                index,
                &IllegalPly {
                    text: text.to_string(),
                    closest,
                },
            )));
        };
        before = Some(state.clone());
        game.play(&mut state, &ply);
        at = last + 1;
    }
    Ok((state, before))
}

fn illegal_message(index: usize, e: &IllegalPly) -> String {
    let mut s = format!("ply {index} `{}` is not legal here", echo(&e.text));
    if !e.closest.is_empty() {
        s.push_str(&format!("; {}", closest_plies(&e.closest)));
    }
    s
}

impl Command {
    /// The game a command loads, for [`game_file`] to find: every command's but
    /// `check`'s, `merge`'s and `replay`'s (which name files of their own).
    fn game_args(&mut self) -> Option<&mut GameArgs> {
        match self {
            Command::Moves { game, .. }
            | Command::Perft { game, .. }
            | Command::Selfplay { game, .. }
            | Command::Match { game, .. }
            | Command::Analyze { game, .. }
            | Command::Bench { game, .. }
            | Command::Play { game, .. } => Some(game),
            Command::Check { .. } | Command::Merge { .. } | Command::Replay { .. } => None,
        }
    }
}

fn run(mut command: Command, out: &mut impl Write) -> Result<ExitCode, Failure> {
    // Found once, here: what is played, recorded and read again is the file found.
    if let Some(args) = command.game_args() {
        args.game = game_file(&args.game)?;
    }
    match command {
        Command::Check { games, params } => {
            let mut ok = true;
            for name in &games {
                let path = &match game_file(name) {
                    Ok(path) => path,
                    Err(Failure(msg)) => {
                        out.flush()?;
                        eprintln!("error: {msg}");
                        ok = false;
                        continue;
                    }
                };
                let args = GameArgsRef {
                    game: path,
                    params: &params,
                    position: None,
                };
                let result = load_game(&args);
                match result {
                    Ok(game) => match probe_in_time(&game, path) {
                        Ok(warnings) => {
                            let path = printable(path);
                            writeln!(out, "{path}: ok: {}", compile::summary(&game))?;
                            out.flush()?;
                            for w in warnings {
                                eprintln!("warning: {path}: {w}");
                            }
                        }
                        Err(Failure(msg)) => {
                            out.flush()?;
                            // A located diagnostic says `error:` itself.
                            let lead = if msg.starts_with("error: ") {
                                ""
                            } else {
                                "error: "
                            };
                            eprintln!("{lead}{msg}");
                            ok = false;
                        }
                    },
                    Err(Failure(msg)) => {
                        out.flush()?;
                        eprint!("{msg}");
                        if !msg.ends_with('\n') {
                            eprintln!();
                        }
                        ok = false;
                    }
                }
            }
            Ok(if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Command::Moves {
            game,
            board,
            svg,
            short,
        } => {
            if let Some(path) = &svg {
                game.check_outputs(&[("--svg", path)])?;
            }
            let g = load_game(&game.as_ref())?;
            let (state, before) = play_sequence_marked(&g, game.after.as_deref().unwrap_or(""))?;
            if board {
                write!(out, "{}", render(&g, &state))?;
            }
            if let Some(path) = svg {
                write_output(&path, picture::svg(&g, &state, before.as_ref()))
                    .map_err(|e| Failure(format!("cannot write the picture {path}: {e}")))?;
            }
            let mut legal = g.legal_with_notation(&state);
            no_runaway(&g)?;
            g.check_notation(&legal).map_err(Failure)?;
            if short {
                if !g.has_short() {
                    return Err(Failure(format!(
                        "{}: the game gives no short notation (`short` in its actions)",
                        game.game
                    )));
                }
                g.check_short(&state).map_err(Failure)?;
                legal = g.legal_with_short(&state);
            }
            sort_natural(&mut legal);
            for (text, _) in legal {
                writeln!(out, "{text}")?;
            }
            if let Some(outcome) = &state.outcome {
                if outcome.winners.is_empty() {
                    writeln!(out, "END draw")?;
                } else {
                    let names: Vec<&str> = outcome
                        .winners
                        .iter()
                        .map(|&p| g.players[p as usize].as_str())
                        .collect();
                    writeln!(out, "END {}", names.join(","))?;
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Perft {
            game,
            depth,
            divide,
            max_seconds,
            stats,
            exact,
        } => {
            let limit = seconds_option("--max-seconds", max_seconds, 1e9)?;
            let g = game.load()?;
            let state = g.start();
            let clock = Instant::now();
            let mut run = Perft::with_limit(limit);
            run.exact = exact;
            let total = if divide || depth > 1 {
                perft_by_first_ply(&mut run, &g, &state, depth, divide.then_some(out))?
            } else {
                run.count(&g, &state, depth)?
            };
            no_runaway(&g)?;
            writeln!(out, "{total}")?;
            if stats {
                let seconds = clock.elapsed().as_secs_f64();
                eprintln!(
                    "perft depth {depth}: {total} leaves, {} positions in {seconds:.2} s, {:.0} positions/s",
                    run.positions,
                    run.positions as f64 / seconds.max(1e-9)
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Selfplay {
            game,
            seed,
            bots: specs,
            max_plies,
            trace: trace_path,
            transcript,
            html,
        } => {
            let outputs: Vec<(&str, &str)> = [
                ("--trace", &trace_path),
                ("--transcript", &transcript),
                ("--html", &html),
            ]
            .into_iter()
            .filter_map(|(what, path)| Some((what, path.as_deref()?)))
            .collect();
            game.check_outputs(&outputs)?;
            let mut g = game.load()?;
            if max_plies.is_some() {
                g.max_plies = max_plies;
            }
            let lines = match specs {
                None => selfplay(&g, &game.game, seed)?,
                Some(text) => {
                    let specs = split_bot_specs(&text);
                    if specs.len() != g.players.len() {
                        return Err(Failure(format!(
                            "--bots needs one spec per seat, in seat order ({}); got {}",
                            g.players.join(", "),
                            specs.len()
                        )));
                    }
                    let mut seats = specs
                        .iter()
                        .enumerate()
                        .map(|(i, spec)| bots::from_spec(spec, seat_seed(seed, i)))
                        .collect::<Result<Vec<_>, _>>()?;
                    selfplay_with(&g, &game.game, seed, &mut seats, Some(&specs))?
                }
            };
            if let Some(path) = trace_path {
                write_output(&path, lines.trace.join("\n") + "\n")
                    .map_err(|e| Failure(format!("cannot write the trace {path}: {e}")))?;
            }
            if let Some(path) = transcript {
                write_output(&path, lines.transcript.to_text())
                    .map_err(|e| Failure(format!("cannot write the transcript {path}: {e}")))?;
            }
            if let Some(path) = html {
                let positions = positions(&g, &lines.transcript)?;
                write_output(&path, html::page(&g, &lines.transcript, &positions))
                    .map_err(|e| Failure(format!("cannot write the replay page {path}: {e}")))?;
            }
            for l in &lines.moves {
                writeln!(out, "{l}")?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Match {
            game,
            bots,
            games,
            seed,
            jobs,
            json,
            transcripts,
            shard,
        } => {
            let settings = tournament::MatchSettings {
                bots: split_bot_specs(&bots),
                games: games as usize,
                seed,
                jobs: jobs.map_or(0, |j| j as usize),
                file: game.game.clone(),
                transcripts,
                shard,
            };
            let played = settings.played().map_err(Failure)?;
            let outputs = match_outputs(&game, json.as_deref(), &settings, played);
            let outputs: Vec<(&str, &str)> =
                outputs.iter().map(|(w, p)| (*w, p.as_str())).collect();
            game.check_outputs(&outputs)?;
            let g = game.load()?;
            let report = tournament::run(&g, &settings).map_err(Failure)?;
            no_runaway(&g)?;
            write!(out, "{}", report.table())?;
            if let Some(path) = json {
                write_output(&path, report.json())
                    .map_err(|e| Failure(format!("cannot write {path}: {e}")))?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Analyze {
            game,
            sweep,
            variants,
            bots,
            games,
            seconds,
            seed,
            jobs,
            max_plies,
            skill,
            json,
            html,
        } => {
            let seconds = seconds
                .map(|s| seconds_option("--seconds", s, 86_400.0))
                .transpose()?;
            let variants = (variants.iter())
                .map(|v| game_file(v))
                .collect::<Result<Vec<_>, _>>()?;
            analyze_outputs(&game, &variants, json.as_deref(), html.as_deref())?;
            let columns = analyze_columns(&game, sweep.as_deref(), &variants, max_plies)?;
            let settings = analyze::Settings {
                bots: split_bot_specs(&bots),
                games: games.map_or(
                    if seconds.is_some() {
                        analyze::MOST_GAMES
                    } else {
                        100
                    },
                    |g| g as usize,
                ),
                seconds,
                seed,
                jobs: jobs.map_or(0, |j| j as usize),
                skill: skill as usize,
            };
            let analysis = analyze::run(&game.game, &columns, &settings).map_err(Failure)?;
            write!(out, "{}", analysis.table())?;
            if let Some(path) = json {
                write_output(&path, analysis.json())
                    .map_err(|e| Failure(format!("cannot write {path}: {e}")))?;
            }
            if let Some(path) = html {
                write_output(&path, analysis.html())
                    .map_err(|e| Failure(format!("cannot write {path}: {e}")))?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Merge { files, json } => {
            merge(&files, json.as_deref(), out)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Bench {
            game,
            seconds,
            playouts,
            seed,
            threads,
            draw,
            json,
        } => {
            seconds_option("--seconds", seconds, 3600.0)?;
            if let Some(path) = &json {
                game.check_outputs(&[("--json", path)])?;
            }
            let amount = match playouts {
                Some(0) => return Err(Failure("--playouts must be at least 1".into())),
                Some(n) => bench::Amount::Playouts(n),
                None => bench::Amount::Seconds(seconds),
            };
            let mut g = game.load()?;
            g.draw = match draw {
                DrawArg::Auto => Draw::Auto,
                DrawArg::Sample => Draw::Sample,
                DrawArg::List => Draw::List,
            };
            let report = bench::run(&g, amount, seed, usize::from(threads));
            no_runaway(&g)?;
            write!(out, "{}", report.text())?;
            if let Some(path) = json {
                let text = serde_json::to_string_pretty(&report.json())? + "\n";
                write_output(&path, text)
                    .map_err(|e| Failure(format!("cannot write {path}: {e}")))?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Play {
            game,
            names,
            load,
            seats,
            seed,
        } => {
            let g = game.load()?;
            let options = repl::Options {
                file: game.game.clone(),
                seats,
                names,
                seed: seed.unwrap_or_else(rand::random),
                load,
                position_file: game
                    .position
                    .as_deref()
                    .and_then(position_file)
                    .map(String::from),
            };
            repl::run(g, &options, out)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Replay {
            file,
            game,
            board,
            html,
            pgn,
        } => {
            let game = game.map(|g| game_file(&g)).transpose()?;
            let outputs = Outputs {
                html: html.as_deref(),
                pgn: pgn.as_deref(),
            };
            replay(&file, game.as_deref(), board, outputs, out)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `merge`: the shards' JSON files read and added up, the whole match's table printed and
/// its JSON written to `json`, which may be none of the files read.
fn merge(files: &[String], json: Option<&str>, out: &mut impl Write) -> Result<(), Failure> {
    let inputs = files.iter().map(|f| Named {
        what: "a shard's JSON",
        path: Path::new(f),
        written: false,
    });
    let output = json.map(|j| Named {
        what: "--json",
        path: Path::new(j),
        written: true,
    });
    check_paths(&inputs.chain(output).collect::<Vec<_>>()).map_err(Failure)?;
    let parts = files
        .iter()
        .map(|f| Ok((f.clone(), tournament::merge::read(f)?)))
        .collect::<Result<Vec<_>, String>>()
        .map_err(Failure)?;
    let report = tournament::merge::merge(&parts).map_err(Failure)?;
    write!(out, "{}", report.table())?;
    if let Some(path) = json {
        write_output(path, report.json())
            .map_err(|e| Failure(format!("cannot write {path}: {e}")))?;
    }
    Ok(())
}

/// `analyze`'s files checked before anything is played: the game file, its position and
/// the variants are read, the JSON and the page written, and no two may be one file.
fn analyze_outputs(
    game: &GameArgs,
    variants: &[String],
    json: Option<&str>,
    html: Option<&str>,
) -> Result<(), Failure> {
    let mut paths = vec![Named {
        what: "the game file",
        path: Path::new(&game.game),
        written: false,
    }];
    if let Some(file) = game.position.as_deref().and_then(position_file) {
        paths.push(Named {
            what: "the --position file",
            path: Path::new(file),
            written: false,
        });
    }
    paths.extend(variants.iter().map(|v| Named {
        what: "a --variant file",
        path: Path::new(v),
        written: false,
    }));
    let outputs = [("--json", json), ("--html", html)];
    paths.extend(outputs.iter().filter_map(|&(what, path)| {
        Some(Named {
            what,
            path: Path::new(path?),
            written: true,
        })
    }));
    check_paths(&paths).map_err(Failure)
}

/// The most columns `analyze` compares.
const MOST_COLUMNS: usize = 32;

/// `analyze`'s columns: GAME once, or once per value of `--sweep`, or GAME and then each
/// variant; `max_plies`, when given, replaces each one's ply cap.
fn analyze_columns(
    game: &GameArgs,
    sweep: Option<&str>,
    variants: &[String],
    max_plies: Option<u32>,
) -> Result<Vec<analyze::Column>, Failure> {
    let column = |label: String, file: &str, params: &[String]| {
        let args = GameArgsRef {
            game: file,
            params,
            position: game.position.as_deref(),
        };
        let mut g = after(load_game(&args)?, game.after.as_deref())?;
        if max_plies.is_some() {
            g.max_plies = max_plies;
        }
        let source = spec::load(file).map_err(|d| Failure(d.to_string()))?;
        Ok::<_, Failure>(analyze::Column {
            label,
            game: g,
            names: analyze::metrics::RuleNames::of(&source),
        })
    };
    let mut columns = Vec::new();
    match sweep {
        Some(sweep) => {
            let (name, values) = sweep.split_once('=').ok_or_else(|| {
                Failure(format!(
                    "--sweep expects NAME=V1,V2,..., got `{}`",
                    printable(sweep)
                ))
            })?;
            let name = name.trim();
            if game
                .params
                .iter()
                .any(|p| p.split_once('=').is_some_and(|(n, _)| n.trim() == name))
            {
                return Err(Failure(format!(
                    "--sweep {} and --param {} both set `{}`: give its values to --sweep alone",
                    printable(name),
                    printable(name),
                    printable(name)
                )));
            }
            let values: Vec<&str> = values.split(',').map(str::trim).collect();
            if name.is_empty() || values.iter().any(|v| v.is_empty()) {
                return Err(Failure(format!(
                    "--sweep expects NAME=V1,V2,... with no empty name or value, got `{}`",
                    printable(sweep)
                )));
            }
            for (i, v) in values.iter().enumerate() {
                if values[..i].contains(v) {
                    return Err(Failure(format!(
                        "--sweep gives the value `{}` twice",
                        printable(v)
                    )));
                }
            }
            if values.len() > MOST_COLUMNS {
                return Err(Failure(format!(
                    "--sweep takes at most {MOST_COLUMNS} values, got {}",
                    values.len()
                )));
            }
            for v in values {
                let mut params = game.params.clone();
                params.push(format!("{name}={v}"));
                let label = printable(&format!("{name}={v}")).into_owned();
                columns.push(column(label, &game.game, &params).map_err(|Failure(e)| {
                    Failure(format!("--sweep {}={}: {e}", printable(name), printable(v)))
                })?);
            }
        }
        None => {
            if variants.len() + 1 > MOST_COLUMNS {
                return Err(Failure(format!(
                    "analyze compares at most {MOST_COLUMNS} columns: GAME and {} variants",
                    MOST_COLUMNS - 1
                )));
            }
            for file in std::iter::once(&game.game).chain(variants) {
                let label = printable(file).into_owned();
                if columns.iter().any(|c: &analyze::Column| c.label == label) {
                    return Err(Failure(format!("{label} is analysed twice")));
                }
                columns.push(column(label, file, &game.params)?);
            }
        }
    }
    Ok(columns)
}

/// The outputs of `match` for [`GameArgs::check_outputs`]: the JSON, and the transcripts
/// it will write whose names are also the name of the game file, a position or the JSON
/// (which they may be, once the folders are compared).
fn match_outputs(
    game: &GameArgs,
    json: Option<&str>,
    settings: &tournament::MatchSettings,
    played: std::ops::Range<usize>,
) -> Vec<(&'static str, String)> {
    let mut outputs: Vec<(&str, String)> = json.iter().map(|p| ("--json", p.to_string())).collect();
    let Some(dir) = &settings.transcripts else {
        return outputs;
    };
    let others = [Some(game.game.as_str()), json, game.position.as_deref()];
    for name in others.into_iter().flatten().filter_map(|p| {
        let name = Path::new(p.trim_start_matches('@')).file_name()?.to_str()?;
        let i: usize = name
            .strip_prefix("game-")?
            .strip_suffix(".txt")?
            .parse()
            .ok()?;
        (played.start < i && i <= played.end)
            .then(|| tournament::transcript_name(i - 1, settings.games))
            .filter(|t| t == name)
    }) {
        let path = Path::new(dir).join(name).to_string_lossy().into_owned();
        outputs.push(("--transcripts", path));
    }
    outputs
}

/// `bench --draw`: how random plies are drawn ([`Draw`]).
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum DrawArg {
    Auto,
    Sample,
    List,
}

/// `perft` counted one first ply at a time: each one's count printed when `divide`
/// holds the output, and on a terminal a bar of the first plies done, with the one being
/// counted and an estimate of the time left (a count deep in a large game runs for
/// minutes; nothing is drawn when standard error is not a terminal).
fn perft_by_first_ply(
    run: &mut Perft,
    game: &Game,
    state: &State,
    depth: u32,
    mut divide: Option<&mut impl Write>,
) -> Result<u64, Failure> {
    let mut plies = game.legal_with_notation(state);
    sort_natural(&mut plies);
    run.positions += 1;
    let bar = progress(
        Some(plies.len() as u64),
        &format!(
            "perft depth {depth}: {{bar:16}} {{pos}}/{{len}} first plies {{elapsed}} (about \
             {{eta}} left) {{msg}}"
        ),
        String::new(),
    );
    let mut total = 0;
    let mut next = state.clone();
    for (text, ply) in plies {
        bar.set_message(printable(&text).into_owned());
        next.clone_from(state);
        game.play(&mut next, &ply);
        let n = run.count_after(game, &next, depth)?;
        if let Some(out) = divide.as_mut() {
            writeln!(out, "{text}: {n}")?;
        }
        total += n;
        bar.inc(1);
    }
    Ok(total)
}

/// The game's runaway as an error: plies listed, counted or drawn since it ran away are
/// cut short ([`Game::runaway`]), so nothing printed from them would be true.
pub fn no_runaway(game: &Game) -> Result<(), Failure> {
    match game.runaway() {
        Some(d) => Err(Failure(d.to_string())),
        None => Ok(()),
    }
}

/// Splits `--bots` into specs: a comma starts a new spec unless what follows is an option
/// (`KEY=VALUE`) of the spec before, so `mcts:iters=500,c=2,random` is two specs.
pub fn split_bot_specs(text: &str) -> Vec<String> {
    let mut specs: Vec<String> = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match specs.last_mut() {
            Some(last) if part.contains('=') && !part.contains(':') && last.contains(':') => {
                last.push(',');
                last.push_str(part);
            }
            _ => specs.push(part.to_string()),
        }
    }
    specs
}

/// A duration option, checked: a number of seconds more than 0 and at most `most` (NaN
/// and infinities refused, which a `Duration` cannot hold). The message says which bound
/// was missed: "between 0 and N, got 0" reads as if 0 were allowed.
fn seconds_option(name: &str, seconds: f64, most: f64) -> Result<Duration, Failure> {
    let why = if seconds.is_nan() || seconds.is_infinite() {
        "is not a number"
    } else if seconds <= 0.0 {
        "leaves no time"
    } else if seconds > most {
        "is too long"
    } else {
        return Ok(Duration::from_secs_f64(seconds));
    };
    Err(Failure(format!(
        "{name} {seconds} {why}: the number of seconds must be more than 0 and at most {most}"
    )))
}

/// Leaf plies at `depth` from `state`; a ply that ends the game is a leaf.
pub fn perft(game: &Game, state: &State, depth: u32) -> u64 {
    let mut run = Perft {
        deadline: None,
        started: Instant::now(),
        positions: 0,
        exact: false,
    };
    run.count(game, state, depth)
        .unwrap_or_else(|_| unreachable!("no deadline"))
}

/// The positions exactly `depth` plies from `state`, as published perft tables count
/// them: a game that ended earlier counts nothing.
pub fn perft_exact(game: &Game, state: &State, depth: u32) -> u64 {
    let mut run = Perft {
        deadline: None,
        started: Instant::now(),
        positions: 0,
        exact: true,
    };
    run.count(game, state, depth)
        .unwrap_or_else(|_| unreachable!("no deadline"))
}

/// A perft count that gives up at a deadline, and counts the positions it generated plies
/// for (its speed measure).
pub struct Perft {
    deadline: Option<Instant>,
    started: Instant,
    /// Positions whose legal plies were listed so far.
    pub positions: u64,
    /// Count positions at exactly the depth (a game that ended earlier counts nothing),
    /// rather than leaves (where such a game counts once).
    pub exact: bool,
}

impl Perft {
    /// A count that fails once `limit` has passed.
    pub fn with_limit(limit: Duration) -> Perft {
        let started = Instant::now();
        Perft {
            deadline: started.checked_add(limit),
            started,
            positions: 0,
            exact: false,
        }
    }

    /// What a position one ply into a count of `depth` plies adds: itself if it is the
    /// last ply or (counting leaves) the game ended there, else its own count.
    pub fn count_after(&mut self, game: &Game, next: &State, depth: u32) -> Result<u64, String> {
        Ok(match (depth, next.outcome.is_some()) {
            (0 | 1, _) => 1,
            (_, true) => u64::from(!self.exact),
            _ => self.count(game, next, depth - 1)?,
        })
    }

    /// Leaf plies at `depth` from `state`, or an error naming the limit once it passed.
    pub fn count(&mut self, game: &Game, state: &State, depth: u32) -> Result<u64, String> {
        if depth == 0 {
            return Ok(1);
        }
        if self.deadline.is_some_and(|d| Instant::now() > d) {
            let seconds = self.started.elapsed().as_secs_f64();
            return Err(format!(
                "error: perft gave up after {seconds:.1} s ({} positions, {:.0} a second): each ply of \
                 depth multiplies the time by the number of legal plies; lower --depth or \
                 raise --max-seconds",
                self.positions,
                self.positions as f64 / seconds.max(1e-9)
            ));
        }
        self.positions += 1;
        if depth == 1 {
            return Ok(game.count_plies(state));
        }
        let plies = game.legal_plies(state);
        let mut total = 0;
        let mut next = state.clone();
        for ply in &plies {
            next.clone_from(state);
            game.play(&mut next, ply);
            total += self.count_after(game, &next, depth)?;
        }
        Ok(total)
    }
}

/// What a self-played game produced: trace lines, and a human move list ending with the
/// final board.
pub struct SelfplayRecord {
    pub trace: Vec<String>,
    pub moves: Vec<String>,
    pub transcript: Transcript,
}

/// Plays one seeded random game and records it; fails if the game file writes two
/// plies of a position alike.
pub fn selfplay(game: &Game, file: &str, seed: u64) -> Result<SelfplayRecord, Failure> {
    let bot: Box<dyn Bot> = Box::new(bots::random::RandomBot::new(seed));
    selfplay_with(game, file, seed, &mut [bot], None)
}

/// The seed of the bot in seat `seat` when a game is played from `seed`.
pub fn seat_seed(seed: u64, seat: usize) -> u64 {
    seed.wrapping_add((seat as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Plays one game with a bot per seat (or one bot for every seat, when `seats` holds
/// one) and records it; `specs` are the bots' specs for the trace's header.
pub fn selfplay_with(
    game: &Game,
    file: &str,
    seed: u64,
    seats: &mut [Box<dyn Bot>],
    specs: Option<&[String]>,
) -> Result<SelfplayRecord, Failure> {
    if seats.is_empty() {
        return Err(Failure("a game needs at least one bot to play it".into()));
    }
    let mut state = game.start();
    let mut transcript = Transcript::new(game, file, seed);
    transcript.seats = game
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let spec = match specs {
                Some(specs) => specs[i.min(specs.len() - 1)].clone(),
                None => "random".to_string(),
            };
            (p.clone(), spec)
        })
        .collect();
    let mut record = SelfplayRecord {
        trace: vec![trace::header(game, file, seed, specs)],
        moves: Vec::new(),
        transcript,
    };
    let mut index = 0;
    // The position before the last ply: what says which end rule it met.
    let mut before = state.clone();
    loop {
        // Listed before a bot thinks: a position whose plies run past their bound is
        // reported before a search lists it again and again.
        let legal = game.legal_with_notation(&state);
        no_runaway(game)?;
        let seat = (state.to_move as usize).min(seats.len() - 1);
        let Some(ply) = seats[seat].choose(game, &state) else {
            break;
        };
        no_runaway(game)?;
        game.check_notation(&legal)
            .map_err(|e| Failure(format!("{file}: after {index} plies: {e}")))?;
        let legal: Vec<String> = legal.into_iter().map(|(t, _)| t).collect();
        let text = game.notation(&state, &ply);
        let player = &game.players[state.to_move as usize];
        record.trace.push(trace::ply(index, player, &legal, &text));
        record
            .moves
            .push(format!("{:>4}. {player} {text}", index + 1));
        let by = record.transcript.seats[state.to_move as usize].1.clone();
        record.transcript.push(game, &state, &text, &by);
        before.clone_from(&state);
        game.play(&mut state, &ply);
        index += 1;
    }
    record.transcript.result = Transcript::result_of(game, &state);
    record
        .moves
        .push(render(game, &state).trim_end().to_string());
    if let Some(outcome) = &state.outcome {
        // Why it ended, as `play` says it: the end rule that holds, read from the file.
        let ending = report::ending(game, Variant::of(file, game).as_ref(), &before, &state);
        let why = ending.lines().next().unwrap_or_default();
        record.trace.push(trace::end(
            game,
            outcome,
            why.strip_prefix("why: ").unwrap_or(why),
        ));
        record.moves.push(printable_lines(&ending).into_owned());
    }
    Ok(record)
}

/// The files `replay` writes besides its report: an HTML page, a PGN record.
#[derive(Clone, Copy, Default)]
pub struct Outputs<'a> {
    /// `--html`: the page that steps through the positions.
    pub html: Option<&'a str>,
    /// `--pgn`: the game record in the short notation.
    pub pgn: Option<&'a str>,
}

/// Checks a transcript against its game file and prints the positions: the final one, or
/// every one with `board`; with `outputs`, writes the replay page and the PGN record
/// there. A line that does not fit is an error naming it.
pub fn replay(
    path: &str,
    game_file: Option<&str>,
    board: bool,
    outputs: Outputs,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let Outputs { html, pgn } = outputs;
    let t = Transcript::read(path).map_err(Failure)?;
    let shown = printable(path);
    let file = match game_file {
        Some(file) => file.to_string(),
        None => transcript_game_file(path, &t.file).map_err(Failure)?,
    };
    let named = |what, file, written| Named {
        what,
        path: Path::new(file),
        written,
    };
    let mut paths = vec![
        named("the transcript", path, false),
        named("the game file", &file, false),
    ];
    paths.extend(html.map(|page| named("--html", page, true)));
    paths.extend(pgn.map(|record| named("--pgn", record, true)));
    if paths.len() > 2 {
        check_paths(&paths).map_err(Failure)?;
    }
    let source = spec::load(&file).map_err(|d| {
        Failure(format!(
            "{shown}: the game file `{}`: {d}",
            printable(&file)
        ))
    })?;
    // Before its parameters are applied: another game's would be "unknown parameters".
    let name = printable(&source.file.game.name);
    if name != t.game {
        return Err(Failure(format!(
            "{shown}: this transcript is of game `{}`, but {} holds `{name}`{}",
            echo(&t.game),
            printable(&file),
            if game_file.is_some() {
                ""
            } else {
                "; give the right game file with --game FILE"
            }
        )));
    }
    let params = t.param_overrides(&source);
    let mut game = compile::compile(&source, &params).map_err(|d| {
        Failure(format!(
            "{shown}: the game file `{}`: {d}",
            printable(&file)
        ))
    })?;
    if let Some(position) = &t.position {
        game.initial = position_text::read_any(&game, position)
            .map_err(|e| Failure(format!("{shown}: its position: {e}")))?
            .0;
        game.start_position = Some(position.clone());
    }
    // A game a ply cap cut (`selfplay --max-plies`, say) ends where its plies do: it was
    // played with a cap of that many plies, which the file need not have.
    if t.result.ends_with("(ply cap)") {
        let plies = u32::try_from(t.plies.len()).unwrap_or(u32::MAX);
        game.max_plies = Some(game.initial.plies.saturating_add(plies));
    }
    // The game file read again, to say what refuses a ply and why the game ended.
    let variant = Variant::of(&file, &game);
    let mut drawn = String::new();
    // The positions before and after the last ply replayed, and every one for a page.
    let (mut before, mut after) = (game.start(), game.start());
    let mut positions = vec![game.start()];
    let replayed = t.replay(&game, |entry, state| {
        before = std::mem::replace(&mut after, state.clone());
        if html.is_some() || pgn.is_some() {
            positions.push(state.clone());
        }
        if board {
            let by = if entry.by.is_empty() {
                String::new()
            } else {
                format!("  # {}", entry.by)
            };
            let did = report::effects(&game, &before, state);
            let did = if did.is_empty() {
                String::new()
            } else {
                format!(": {}", did.join("; "))
            };
            drawn.push_str(&format!(
                "{}. {} {}{did}{by}\n{}\n",
                entry.turn,
                entry.player,
                entry.ply,
                render(&game, state)
            ));
        }
    });
    no_runaway(&game)?;
    let state = replayed.map_err(|e| {
        let mut message = format!("{shown}: {e}");
        let failing = t.plies.iter().find(|p| p.line == e.line);
        if let (Some(entry), Some(variant)) = (failing, &variant)
            && let Some(why) = explain::why_illegal(variant, &game, &after, &entry.ply)
        {
            message = message.replacen(" is not legal here", &format!(" is not legal: {why}"), 1);
        }
        Failure(message)
    })?;
    out.write_all(printable_lines(&drawn).as_bytes())?;
    let result = Transcript::result_of(&game, &state);
    let resigned = t.result.ends_with(" resigned)") && state.outcome.is_none();
    if !resigned && result != t.result {
        return Err(Failure(format!(
            "{path}: the header says `result: {}`, but the plies lead to `{result}`",
            t.result
        )));
    }
    if let Some(page) = html {
        write_output(page, html::page(&game, &t, &positions))
            .map_err(|e| Failure(format!("cannot write the replay page {page}: {e}")))?;
    }
    if let Some(record) = pgn {
        let text = pgn::write(&game, &t, &positions).map_err(|e| Failure(format!("--pgn: {e}")))?;
        write_output(record, text)
            .map_err(|e| Failure(format!("cannot write the PGN record {record}: {e}")))?;
    }
    if !board {
        write!(out, "{}", render(&game, &state))?;
    }
    if state.outcome.is_some() {
        writeln!(
            out,
            "{}",
            report::ending(&game, variant.as_ref(), &before, &state)
        )?;
    }
    let n = t.plies.len();
    writeln!(
        out,
        "{}: {n} {} replayed, result: {}",
        printable(path),
        if n == 1 { "ply" } else { "plies" },
        printable(&t.result)
    )?;
    Ok(())
}

/// The positions of a game recorded in `transcript`: the start, then the position after
/// each ply.
fn positions(game: &Game, transcript: &Transcript) -> Result<Vec<State>, Failure> {
    let mut positions = vec![game.start()];
    transcript
        .replay(game, |_, state| positions.push(state.clone()))
        .map_err(|e| Failure(format!("the game played does not replay: {e}")))?;
    Ok(positions)
}

/// Where the game file a transcript names is: beside the transcript first (a folder of
/// transcripts can travel with its games), then from the working folder (where `play`
/// and `selfplay` were run when they wrote it).
fn transcript_game_file(transcript: &str, named: &str) -> Result<String, String> {
    let named_path = std::path::Path::new(named);
    if named_path.is_absolute() {
        return Ok(named.to_string());
    }
    let folder = std::path::Path::new(transcript)
        .parent()
        .unwrap_or(std::path::Path::new(""));
    let beside = folder.join(named_path);
    if beside.is_file() {
        return Ok(beside.to_string_lossy().into_owned());
    }
    if named_path.is_file() {
        return Ok(named.to_string());
    }
    // There, but no file to read a game from (a FIFO, a folder, a device).
    if let Some(there) = [&beside, &named_path.to_path_buf()]
        .into_iter()
        .find(|p| p.exists())
    {
        return Err(format!(
            "{}: the game file `{}` is at {}, but that is not a regular file; give the game \
             file with --game FILE",
            printable(transcript),
            printable(named),
            printable(&there.to_string_lossy())
        ));
    }
    Err(format!(
        "{}: the game file `{}` is neither beside it ({}) nor in the working folder; give \
         it with --game FILE",
        printable(transcript),
        printable(named),
        printable(&beside.to_string_lossy())
    ))
}

/// Plays a few seeded random games to catch what loading cannot: two plies written alike
/// (the texts of every position of their first plies are compared), and end rules that are
/// never met (each game is then played on, up to the ply cap). Run by `check`; returns
/// the warnings to print.
pub fn probe(game: &Game, file: &str) -> Result<Vec<String>, Failure> {
    let mut short = game.clone();
    short.max_plies = Some(PROBE_PLIES);
    for seed in 0..PROBE_GAMES {
        selfplay(&short, file, seed)?;
    }
    if game.has_short() {
        // The short texts of the same positions, told apart as the long ones are.
        for seed in 0..PROBE_GAMES {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut state = game.start();
            for index in 0..PROBE_PLIES {
                game.check_short(&state)
                    .map_err(|e| Failure(format!("{file}: after {index} plies: {e}")))?;
                if state.outcome.is_some() || game.play_random(&mut state, &mut rng).is_none() {
                    break;
                }
            }
        }
    }
    let clock = Instant::now();
    let mut state = game.start();
    let (mut ended, mut capped) = (0, 0);
    for seed in 0..PROBE_GAMES {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        state.clone_from(&game.initial);
        while state.outcome.is_none() && clock.elapsed() < PROBE_TIME {
            let played = game.play_random(&mut state, &mut rng);
            no_runaway(game)?;
            if played.is_none() {
                break;
            }
        }
        match &state.outcome {
            Some(o) if o.reason.is_some() => capped += 1,
            Some(_) => ended += 1,
            None => {}
        }
    }
    if ended > 0 {
        return Ok(Vec::new());
    }
    let cap = game.max_plies.map_or("no".to_string(), |c| c.to_string());
    Ok(vec![if capped == PROBE_GAMES {
        format!(
            "none of {PROBE_GAMES} random games ended by the rules: each reached the ply \
             cap ({cap} plies) and was called a draw. Can the end rules be met?"
        )
    } else {
        format!(
            "none of {PROBE_GAMES} random games ended by the rules within {} s ({capped} \
             reached the ply cap of {cap} plies). Can the end rules be met?",
            PROBE_TIME.as_secs()
        )
    }])
}

/// `check`'s [`probe`] on a thread of its own, given [`PROBE_LIMIT`]: a file whose
/// move generation is so slow (a filter over every triple of cells, nested `for`s in an
/// effect) that the probe does not finish gets a warning saying so, not a check that
/// never returns. The probe's thread is left to run until the process ends.
/// On a terminal, a spinner says which file is probed and for how long, as the probe
/// can take those seconds.
fn probe_in_time(game: &Game, file: &str) -> Result<Vec<String>, Failure> {
    let spinner = progress(
        None,
        &format!(
            "{{spinner}} {{msg}}: playing random games to probe it, {{elapsed}} (at most {} s)",
            PROBE_LIMIT.as_secs()
        ),
        printable(file).into_owned(),
    );
    let result = wait_for_probe(game, file);
    spinner.finish_and_clear();
    result
}

/// [`probe`] on a thread of its own, waited for [`PROBE_LIMIT`] at most.
fn wait_for_probe(game: &Game, file: &str) -> Result<Vec<String>, Failure> {
    let (send, receive) = std::sync::mpsc::channel();
    let (game, file) = (game.clone(), file.to_string());
    std::thread::spawn(move || {
        let _ = send.send(probe(&game, &file).map_err(|Failure(msg)| msg));
    });
    match receive.recv_timeout(PROBE_LIMIT) {
        Ok(result) => result.map_err(Failure),
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Ok(vec![format!(
            "this file's move generation is slow: {PROBE_GAMES} random games of {PROBE_PLIES} \
             plies did not finish in {} s, so the probe stopped (what it checks is untested). \
             A filter over several cells at once, or nested `for`s over cells in an effect, \
             is worked out for every combination",
            PROBE_LIMIT.as_secs()
        )]),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Err(Failure(
            "the probe of this file failed (a bug: please report it)".into(),
        )),
    }
}

/// How long [`probe_in_time`] waits for the probe.
const PROBE_LIMIT: Duration = Duration::from_secs(10);

/// How many games `check` plays to probe a game file, and how many plies of each it
/// compares the texts of.
const PROBE_GAMES: u64 = 3;
const PROBE_PLIES: u32 = 60;

/// How long `check` plays its probe games on, in all, to see whether they end.
const PROBE_TIME: Duration = Duration::from_secs(3);
