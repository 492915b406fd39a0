//! The interactive loop behind `rulebook play`: the board, the legal plies, a ply read
//! from the user or chosen by a bot, until the game ends.
//!
//! Input is read line by line, so a piped script drives it the same as a person does.

use std::io::{self, BufRead, IsTerminal, Write};

use crate::bots::{self, Bot};
use crate::cli::Failure;
use crate::engine::game::Game;
use crate::render::board::{render_styled, use_colour};

/// Who plays a seat.
enum Seat {
    Human,
    Bot(Box<dyn Bot>),
}

/// Plays one game on stdin/stdout. `seats` are `NAME=human|BOT` settings; by default the
/// first player is a person and the others are [`bots::DEFAULT_OPPONENT`].
pub fn run(game: &Game, seats: &[String], seed: u64, out: &mut impl Write) -> Result<(), Failure> {
    let mut players: Vec<Seat> = Vec::new();
    for (i, _) in game.players.iter().enumerate() {
        players.push(if i == 0 {
            Seat::Human
        } else {
            Seat::Bot(bots::from_spec(
                bots::DEFAULT_OPPONENT,
                seed.wrapping_add(i as u64),
            )?)
        });
    }
    for s in seats {
        let (name, spec) = s
            .split_once('=')
            .ok_or_else(|| Failure(format!("--seat expects NAME=human|BOT, got `{s}`")))?;
        let index = game
            .players
            .iter()
            .position(|p| p == name.trim())
            .ok_or_else(|| {
                Failure(format!(
                    "no player `{}` in {}; players: {}",
                    name.trim(),
                    game.name,
                    game.players.join(", ")
                ))
            })?;
        players[index] = match spec.trim() {
            "human" => Seat::Human,
            bot => Seat::Bot(bots::from_spec(bot, seed.wrapping_add(index as u64))?),
        };
    }
    writeln!(
        out,
        "{} (seed {seed}). Type a ply, `moves`, `board`, `help` or `quit`.",
        game.name
    )?;
    let mut state = game.start();
    let stdin = io::stdin();
    // Prompts are for people: a piped script gets the answers only.
    let prompt = stdin.is_terminal();
    let mut lines = stdin.lock().lines();
    let mut show_board = true;
    let colour = use_colour();
    let render = |state: &_| render_styled(game, state, colour);
    while state.outcome.is_none() {
        let me = state.to_move as usize;
        if let Seat::Bot(bot) = &mut players[me] {
            let Some(ply) = bot.choose(game, &state) else {
                break;
            };
            writeln!(
                out,
                "{} plays {}",
                game.players[me],
                game.notation(&state, &ply)
            )?;
            game.play(&mut state, &ply);
            show_board = true;
            continue;
        }
        if show_board {
            write!(out, "\n{}", render(&state))?;
            show_board = false;
        }
        if prompt {
            write!(out, "{}> ", game.players[me])?;
            out.flush()?;
        }
        let Some(line) = lines.next() else {
            writeln!(out, "\nend of input: game left unfinished")?;
            return Ok(());
        };
        let line = line?;
        let input = line.trim();
        let legal = game.legal_with_notation(&state);
        match input {
            "" => {}
            "quit" | "exit" => {
                writeln!(out, "game left unfinished")?;
                return Ok(());
            }
            "help" => writeln!(
                out,
                "Type a ply as listed by `moves` (or its number). Commands: moves, board, rules, quit."
            )?,
            "board" => show_board = true,
            "rules" => writeln!(out, "{}", game.rules.trim_end())?,
            "moves" => {
                for (i, (text, _)) in legal.iter().enumerate() {
                    writeln!(out, "{:>4}. {text}", i + 1)?;
                }
            }
            _ => {
                let chosen = match input.parse::<usize>() {
                    Ok(n) if (1..=legal.len()).contains(&n) => Ok(legal[n - 1].1.clone()),
                    Ok(n) => Err(format!(
                        "there is no ply number {n}; `moves` lists {}",
                        legal.len()
                    )),
                    Err(_) => game.parse_ply(&state, input).map_err(|e| {
                        format!(
                            "`{}` is not a legal ply here; closest: {}",
                            e.text,
                            e.closest.join(", ")
                        )
                    }),
                };
                match chosen {
                    Ok(ply) => {
                        game.play(&mut state, &ply);
                        show_board = true;
                    }
                    Err(msg) => writeln!(out, "{msg}")?,
                }
            }
        }
    }
    write!(out, "\n{}", render(&state))?;
    Ok(())
}
