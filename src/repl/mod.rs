//! The interactive loop behind `rulebook play`: the board, the legal plies, a ply read
//! from a person or chosen by a bot, and the commands around them (undo, hints, saving...).
//!
//! Input comes from a line editor on a terminal and from plain lines on a pipe, so a
//! piped script drives a session exactly as a person does, without prompts or colours.
//! No input ends a session by accident: a bad line gets a message, and leaving an unsaved
//! game asks first.

pub mod commands;
pub(crate) mod explain;
mod input;
mod interrupt;
pub(crate) mod report;
pub(crate) mod variant;

use std::cell::RefCell;
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::rc::Rc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::bots::mcts::{Budget, Cutoff, MctsBot, Settings};
use crate::bots::{self, Bot};
use crate::engine::game::Ply;
use crate::engine::game::{Game, normalize};
use crate::engine::state::State;
use crate::load::{Failure, GameArgsRef, load_game};
use crate::record::file::{Named, check_paths, write_output};
use crate::record::transcript::{Entry, Transcript, closest_plies};
use crate::record::{pgn, position_text};
use crate::render::board::{legend, render_marked, use_colour};
use crate::render::order::sort_natural;
use crate::render::picture;
use crate::render::text::{echo, printable, printable_lines};
use explain::typed_ply;
use input::{Input, Line};
use variant::Variant;

/// How a session starts.
pub struct Options {
    /// The game file as the user gave it (written into saved transcripts).
    pub file: String,
    /// `NAME=human|SPEC` for the seats the user chose.
    pub seats: Vec<String>,
    /// `NAME=TEXT` names for seats.
    pub names: Vec<String>,
    pub seed: u64,
    /// A transcript to resume.
    pub load: Option<String>,
    /// The file the starting position was read from (`--position @FILE`), which `save`
    /// must not overwrite.
    pub position_file: Option<String>,
}

/// How many playouts `hint` asks of the MCTS bot.
const HINT_PLAYOUTS: u64 = 1000;

/// What the person reads after Ctrl-C stopped a bot, when a bot is to move next.
const PAUSE_NOTE: &str = "The bots wait: type a ply for whoever is to move, a command, or an \
                          empty line to let the bots play on.";

/// Below this many playouts through the ply it suggests, `hint` says it is not sure.
const HINT_SURE: u64 = 50;

/// Above this many legal plies, `moves` groups them by where they start.
const GROUP_ABOVE: usize = 24;

/// A game being played: the positions so far, who sits where, and what can be redone.
struct Session {
    game: Game,
    file: String,
    seed: u64,
    /// `human` or a bot spec, per seat.
    seats: Vec<String>,
    bots: Vec<Option<Box<dyn Bot>>>,
    names: Vec<Option<String>>,
    /// The position before each ply, then the current one: never empty.
    states: Vec<State>,
    plies: Vec<Entry>,
    /// Plies taken back by `undo`, the next to redo last.
    redo: Vec<Entry>,
    /// The player who resigned, if one did.
    resigned: Option<u8>,
    /// Whether the game has changed since it was started, loaded or saved.
    dirty: bool,
    /// The file the game was last saved to or loaded from: what saving offers first.
    saved_to: Option<String>,
    /// The `--position` file, which saving must not overwrite (nor the game file).
    position_file: Option<String>,
    /// Whether the bots wait for the person (after Ctrl-C stopped one): they play on
    /// once a line is entered.
    paused: bool,
    /// The game file, to explain an illegal ply and the end of a game (None if it cannot
    /// be read again).
    variant: Option<Variant>,
}

/// What a bot's turn gave.
enum Thought {
    /// The ply it chose; with how long it had thought when Ctrl-C stopped it early.
    Chose(Ply, Option<Duration>),
    /// Ctrl-C stopped it before it had a ply: how long it had thought.
    Stopped(Duration),
}

/// Plays games on stdin/stdout until the user leaves or the input ends. By default the
/// first seat is a person and the others are [`bots::DEFAULT_OPPONENT`].
pub fn run(game: Game, options: &Options, out: &mut impl Write) -> Result<(), Failure> {
    let mut session = Session::new(game, options)?;
    if let Some(path) = &options.load {
        let text = session.load(path).map_err(Failure)?;
        writeln!(out, "{text}")?;
    }
    let plies = Rc::new(RefCell::new(Vec::new()));
    let mut input = Input::open(Rc::clone(&plies));
    let colour = input.interactive() && use_colour();
    // The thinking line rewrites itself with `\r`: only for a person watching.
    let live = input.interactive() && std::io::stdout().is_terminal();
    interrupt::install();
    writeln!(
        out,
        "{} (seed {}). Type a ply, `moves`, `help` or `quit`.\nPieces:\n{}",
        session.game.name,
        session.seed,
        legend(&session.game).trim_end()
    )?;
    let mut show_board = true;
    let mut announced_end = false;
    let mut runaway_said = false;
    loop {
        interrupt::keep_unsaved(
            session
                .dirty
                .then(|| (session.transcript().to_text(), session.stem())),
        );
        if !session.over() {
            announced_end = false;
            let me = session.state().to_move as usize;
            if session.bots[me].is_some() && !session.paused {
                // A person's ply is shown before the bots answer it.
                if show_board && !session.plies.is_empty() && !session.last_by_bot() {
                    write!(out, "\n{}", session.render(colour))?;
                }
                let said = match session.think(me, out, live)? {
                    Thought::Chose(ply, stopped) => {
                        let by = session.seats[me].clone();
                        let text = session.game.notation(session.state(), &ply);
                        session.redo.clear();
                        let did = session.play_text(&text, &by).map_err(Failure)?;
                        let mut line = format!("{} plays {}", session.who(me), did.text);
                        if let Some(after) = stopped {
                            session.paused = true;
                            let _ = write!(
                                line,
                                ", its best when Ctrl-C stopped it after {:.1} s",
                                after.as_secs_f64()
                            );
                        }
                        line + &did.effects
                    }
                    Thought::Stopped(after) => {
                        session.paused = true;
                        format!(
                            "Ctrl-C stopped {} after {:.1} s, before it chose a ply: the turn \
                             is yours",
                            session.who(me),
                            after.as_secs_f64()
                        )
                    }
                };
                writeln!(out, "{said}")?;
                let next = session.state().to_move as usize;
                if session.paused && !session.over() && session.bots[next].is_some() {
                    writeln!(out, "{PAUSE_NOTE}")?;
                }
                show_board = true;
                continue;
            }
        }
        if show_board || (session.over() && !announced_end) {
            write!(out, "\n{}", session.render(colour))?;
            if session.resigned.is_some() {
                writeln!(out, "game over: {}", session.transcript().result)?;
            } else if session.over() && !announced_end {
                writeln!(out, "{}", printable_lines(&session.ending()))?;
            }
            show_board = false;
            announced_end = session.over();
        }
        *plies.borrow_mut() = session.legal_texts();
        if let Some(d) = session.game.runaway().filter(|_| !runaway_said) {
            // The plies listed here are cut short: said once, and the game can still be
            // saved, taken back or left.
            writeln!(out, "{}", printable_lines(&d.to_string()))?;
            runaway_said = true;
        }
        let prompt = session.prompt();
        let line = match input.read(&prompt) {
            Line::Text(line) => line,
            // Ctrl-C at the prompt leaves as `quit` does, never losing the game.
            Line::Interrupted => {
                if session.dirty && input.interactive() {
                    writeln!(out)?;
                    if !offer_to_save(&mut session, &mut input, out, "leave")? {
                        continue;
                    }
                } else if session.dirty {
                    // Nobody can answer on a pipe: the game goes to a new file.
                    match interrupt::rescue() {
                        Some(Ok(path)) => writeln!(out, "\nCtrl-C: the game was saved to {path}")?,
                        Some(Err(e)) => {
                            return Err(Failure(format!(
                                "Ctrl-C: the game could not be saved: {e}"
                            )));
                        }
                        None => {}
                    }
                }
                return Ok(());
            }
            Line::End => {
                if at_end(&mut session, &mut input, out)? {
                    return Ok(());
                }
                continue;
            }
            Line::Refused(why) => {
                writeln!(out, "{why}")?;
                continue;
            }
            Line::Failed(why) => return Err(Failure(unsaved(&session, why))),
        };
        let (word, rest) = split_command(&line);
        match word {
            "" => session.paused = false,
            "hint" => {
                let hint = session.hint(out, live)?;
                writeln!(out, "{}", printable_lines(&hint))?;
            }
            "resign" => match confirm_resign(&mut session, &mut input, out)? {
                Some(resigned) => show_board |= resigned,
                None if at_end(&mut session, &mut input, out)? => return Ok(()),
                None => {}
            },
            "quit" | "exit" => {
                if session.dirty && !offer_to_save(&mut session, &mut input, out, "leave")? {
                    continue;
                }
                return Ok(());
            }
            _ => {
                // Both throw the game away: like leaving, they offer to save it first.
                let discards = word == "new" || (word == "load" && !rest.is_empty());
                if discards && session.dirty && !offer_to_save(&mut session, &mut input, out, word)?
                {
                    writeln!(out, "the game goes on")?;
                    continue;
                }
                let reply = session.command(word, rest, &line);
                // Replies quote what was typed and read from files: escaped as a whole.
                write!(out, "{}", printable_lines(&reply.text))?;
                show_board |= reply.show_board;
            }
        }
    }
}

/// The input ended: on a terminal (Ctrl-D) an unsaved game is offered to be saved, and
/// true unless the person went back to the game; on a pipe, says what was not saved.
/// True when the session ends.
fn at_end(session: &mut Session, input: &mut Input, out: &mut impl Write) -> Result<bool, Failure> {
    if input.interactive() && session.dirty {
        writeln!(out)?;
        return offer_to_save(session, input, out, "leave");
    }
    if session.dirty && session.over() {
        writeln!(out, "\nend of input; the game was not saved")?;
    } else if session.dirty {
        writeln!(out, "\nend of input: game left unfinished, not saved")?;
    }
    Ok(true)
}

/// `resign`, asked first, on a terminal and on a pipe alike (a scripted session says
/// `y` too), since it ends the game: whether the player to move resigned, or `None`
/// when the input ended before an answer.
fn confirm_resign(
    session: &mut Session,
    input: &mut Input,
    out: &mut impl Write,
) -> Result<Option<bool>, Failure> {
    if session.over() {
        writeln!(out, "the game is already over")?;
        return Ok(Some(false));
    }
    let me = session.state().to_move;
    writeln!(
        out,
        "Resign as {}? The game ends and the others win. (y/n)",
        session.who(me as usize)
    )?;
    loop {
        match input.read("y/n> ") {
            Line::Text(answer) if matches!(answer.trim(), "y" | "yes") => {
                session.resigned = Some(me);
                session.dirty = true;
                writeln!(out, "{} resigns", session.who(me as usize))?;
                return Ok(Some(true));
            }
            Line::Text(_) | Line::Interrupted => {
                writeln!(out, "not resigned: the game goes on")?;
                return Ok(Some(false));
            }
            Line::End => return Ok(None),
            Line::Refused(why) => writeln!(out, "{why}")?,
            Line::Failed(why) => return Err(Failure(unsaved(session, why))),
        }
    }
}

/// Asks whether to save the game before `action` (`leave`, `load`, `new`) throws it
/// away; false when the user changed their mind. `y` saves to the file offered (the one
/// last saved or loaded, else a new name), a file name saves there, `n` throws the game
/// away, `back`, an empty line or Ctrl-C go on playing. A file name is confirmed first
/// when it would replace a file, when it is also a command or a ply, and whenever the
/// answers come from a pipe: so a script's next command (`board`) is never taken for a
/// file to overwrite.
fn offer_to_save(
    session: &mut Session,
    input: &mut Input,
    out: &mut impl Write,
    action: &str,
) -> Result<bool, Failure> {
    let without = match action {
        "leave" => "leave without saving",
        "load" => "load the other game without saving this one",
        _ => "start a new game without saving this one",
    };
    let offered = session.offered_file();
    loop {
        writeln!(
            out,
            "The game has not been saved. Type `y` to save it to {}, another file name to save \
             it there, `n` to {without}, or `back` to go on playing.",
            echo(&offered)
        )?;
        let answer = match read_answer(session, input, out, "save> ")? {
            Answer::Text(answer) => answer,
            Answer::Back => return Ok(false),
            Answer::End => return Ok(true),
        };
        let path = match answer.trim() {
            "n" | "no" => return Ok(true),
            "back" | "" => return Ok(false),
            "y" | "yes" => offered.clone(),
            name => {
                let question = if std::path::Path::new(name).exists() {
                    Some(format!(
                        "`{}` exists: replace it with this game?",
                        echo(name)
                    ))
                } else if session.is_command_or_ply(name) {
                    Some(format!(
                        "`{}` is a command or a ply: save the game to a file of that name?",
                        echo(name)
                    ))
                } else if !input.interactive() {
                    Some(format!("Save the game to `{}`?", echo(name)))
                } else {
                    None
                };
                if let Some(question) = question {
                    writeln!(out, "{question} (y/n)")?;
                    let confirmed = match read_answer(session, input, out, "y/n> ")? {
                        Answer::Text(a) => matches!(a.trim(), "y" | "yes"),
                        Answer::Back => false,
                        Answer::End => return Ok(true),
                    };
                    if !confirmed {
                        writeln!(out, "not saved")?;
                        return Ok(false);
                    }
                }
                name.to_string()
            }
        };
        match session.save(&path) {
            Ok(msg) => {
                writeln!(out, "{}", printable_lines(&msg))?;
                return Ok(true);
            }
            Err(msg) => writeln!(out, "{}", printable_lines(&msg))?,
        }
    }
}

/// An answer to a question about saving.
enum Answer {
    Text(String),
    /// Ctrl-C: back to the game.
    Back,
    /// The input ended (said): leave without saving.
    End,
}

/// Reads the answer to a question about saving; a refused line is said and read again.
fn read_answer(
    session: &Session,
    input: &mut Input,
    out: &mut impl Write,
    prompt: &str,
) -> Result<Answer, Failure> {
    loop {
        match input.read(prompt) {
            Line::Text(answer) => return Ok(Answer::Text(answer)),
            Line::Interrupted => return Ok(Answer::Back),
            Line::End => {
                // On a terminal the cursor is still after the prompt.
                let lead = if input.interactive() { "\n" } else { "" };
                writeln!(out, "{lead}end of input: left without saving")?;
                return Ok(Answer::End);
            }
            Line::Refused(why) => writeln!(out, "{why}")?,
            Line::Failed(why) => return Err(Failure(unsaved(session, why))),
        }
    }
}

/// An input error, and that the game was lost with it if it had not been saved.
fn unsaved(session: &Session, why: String) -> String {
    if session.dirty {
        format!("{why}; the game was not saved")
    } else {
        why
    }
}

/// The first word of a line and the rest.
fn split_command(line: &str) -> (&str, &str) {
    let line = line.trim();
    match line.split_once(char::is_whitespace) {
        Some((w, rest)) => (w, rest.trim()),
        None => (line, ""),
    }
}

/// What a command printed, and whether the board should be drawn again.
struct Reply {
    text: String,
    show_board: bool,
}

impl Reply {
    fn say(text: impl Into<String>) -> Reply {
        let mut text = text.into();
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        Reply {
            text,
            show_board: false,
        }
    }

    fn board(text: impl Into<String>) -> Reply {
        Reply {
            show_board: true,
            ..Reply::say(text)
        }
    }
}

impl Session {
    fn new(game: Game, options: &Options) -> Result<Session, Failure> {
        let n = game.players.len();
        let mut seats: Vec<String> = (0..n)
            .map(|i| {
                if i == 0 {
                    "human".to_string()
                } else {
                    bots::DEFAULT_OPPONENT.to_string()
                }
            })
            .collect();
        for s in &options.seats {
            let (name, spec) = s
                .split_once('=')
                .ok_or_else(|| Failure(format!("--seat expects NAME=human|SPEC, got `{s}`")))?;
            let index = seat_index(&game, name).map_err(Failure)?;
            seats[index] = spec.trim().to_string();
        }
        let mut names = vec![None; n];
        for s in &options.names {
            let (name, text) = s
                .split_once('=')
                .ok_or_else(|| Failure(format!("--name expects NAME=TEXT, got `{s}`")))?;
            let text = text.trim();
            if text.is_empty() || text.chars().any(char::is_control) {
                return Err(Failure(format!(
                    "--name {name}=...: a name must be printable text on one line, got {text:?}"
                )));
            }
            names[seat_index(&game, name).map_err(Failure)?] = Some(text.to_string());
        }
        let mut session = Session {
            states: vec![game.start()],
            game,
            file: options.file.clone(),
            seed: options.seed,
            bots: Vec::new(),
            seats: Vec::new(),
            names,
            plies: Vec::new(),
            redo: Vec::new(),
            resigned: None,
            dirty: false,
            saved_to: None,
            position_file: options.position_file.clone(),
            paused: false,
            variant: None,
        };
        session.variant = Variant::of(&session.file, &session.game);
        for (i, spec) in seats.iter().enumerate() {
            session.set_seat(i, spec).map_err(Failure)?;
        }
        Ok(session)
    }

    fn state(&self) -> &State {
        self.states.last().expect("a session always has a position")
    }

    fn over(&self) -> bool {
        self.state().outcome.is_some() || self.resigned.is_some()
    }

    /// A seat's name for messages: `Ada (red)` or `red`.
    fn who(&self, seat: usize) -> String {
        let player = &self.game.players[seat];
        match &self.names[seat] {
            Some(name) => format!("{name} ({player})"),
            None => player.clone(),
        }
    }

    /// The board, with what the last ply changed underlined in colour.
    fn render(&self, colour: bool) -> String {
        let before = self.states.len().checked_sub(2).map(|i| &self.states[i]);
        render_marked(&self.game, self.state(), colour, before)
    }

    /// Whether the last ply was a bot's.
    fn last_by_bot(&self) -> bool {
        let Some(before) = self.states.len().checked_sub(2) else {
            return false;
        };
        self.bots[self.states[before].to_move as usize].is_some()
    }

    fn prompt(&self) -> String {
        if self.over() {
            return "game over> ".into();
        }
        let state = self.state();
        let mut p = self.who(state.to_move as usize);
        if self.paused && self.bots[state.to_move as usize].is_some() {
            p.push_str(" (paused)");
        }
        let steps = self.game.plies_this_turn(state);
        if steps > 1 {
            let _ = write!(p, ", step {} of {steps}", state.ply_in_turn);
        }
        p + "> "
    }

    /// The legal plies' texts in natural order (`a2` before `a10`): what `moves` numbers
    /// and Tab completes.
    fn legal_texts(&self) -> Vec<String> {
        if self.over() {
            return Vec::new();
        }
        let mut legal = self.game.legal_with_notation(self.state());
        sort_natural(&mut legal);
        legal.into_iter().map(|(t, _)| t).collect()
    }

    /// Gives seat `i` to a person (`human`) or a bot spec.
    fn set_seat(&mut self, i: usize, spec: &str) -> Result<(), String> {
        let bot = match spec {
            "human" => None,
            spec => Some(bots::from_spec(spec, self.seed.wrapping_add(i as u64))?),
        };
        if self.seats.len() <= i {
            self.seats.resize(i + 1, String::new());
            self.bots.resize_with(i + 1, || None);
        }
        self.seats[i] = spec.to_string();
        self.bots[i] = bot;
        Ok(())
    }

    /// Plays the ply written `text`, chosen `by` a person (`human`) or a bot spec, and
    /// records it; an illegal text is an error saying why, as far as can be told.
    fn play_text(&mut self, text: &str, by: &str) -> Result<Played, String> {
        let state = self.state().clone();
        let ply = match typed_ply(&self.game, &state, text) {
            Ok(ply) => ply,
            Err(closest) => return Err(self.illegal(&state, text, &closest)),
        };
        let canonical = self.game.notation(&state, &ply);
        let mut next = state.clone();
        self.game.play(&mut next, &ply);
        let effects = report::effects(&self.game, &state, &next);
        self.plies
            .push(Entry::new(&self.game, &state, &canonical, by));
        self.states.push(next);
        self.dirty = true;
        Ok(Played {
            text: canonical,
            effects: if effects.is_empty() {
                String::new()
            } else {
                format!(": {}", effects.join("; "))
            },
        })
    }

    /// Lets the bot in seat `me` choose a ply, on a thread of its own: this one shows how
    /// long it has been thinking (when `live`, on a terminal) and Ctrl-C stops it
    /// ([`interrupt`]) rather than the program.
    fn think(&mut self, me: usize, out: &mut impl Write, live: bool) -> Result<Thought, Failure> {
        let state = self.state().clone();
        let label = format!("{} ({}) is thinking", self.who(me), self.seats[me]);
        let budget = budget_seconds(&self.seats[me]);
        let game = &self.game;
        let bot = self.bots[me].as_mut().expect("a bot seat");
        let thinking = interrupt::Thinking::start();
        let clock = Instant::now();
        let chosen = with_thinking_line(out, live, &label, budget, move || {
            bot.choose_or_stop(game, &state, interrupt::stop_flag())
        })?;
        let stopped = thinking.stopped().then(|| clock.elapsed());
        Ok(match (chosen, stopped) {
            (Some(ply), stopped) => Thought::Chose(ply, stopped),
            (None, Some(after)) => Thought::Stopped(after),
            (None, None) => return Err(Failure("the bot found no legal ply".into())),
        })
    }

    /// Why the game ended (not for a resignation): the rule, and the scores.
    fn ending(&self) -> String {
        let n = self.states.len();
        if n < 2 {
            return report::ending(&self.game, None, self.state(), self.state());
        }
        report::ending(
            &self.game,
            self.variant.as_ref(),
            &self.states[n - 2],
            &self.states[n - 1],
        )
    }

    /// Why `text` is not a legal ply here: the condition that refuses it when the text is
    /// written like a ply of an action, or what the texts tell; and the closest plies.
    fn illegal(&self, state: &State, text: &str, closest: &[String]) -> String {
        let why = self
            .variant
            .as_ref()
            .and_then(|v| explain::why_illegal(v, &self.game, state, text));
        match why {
            Some(why) => {
                let mut s = format!("`{}` is not legal: {why}", echo(text));
                if !closest.is_empty() {
                    let _ = write!(s, "; {}", closest_plies(closest));
                }
                s
            }
            None => illegal(&self.game, state, text, closest),
        }
    }

    fn command(&mut self, word: &str, rest: &str, line: &str) -> Reply {
        match word {
            "help" => match rest {
                "" => Reply::say(commands::overview()),
                name => match commands::find(name) {
                    Some(c) => Reply::say(format!("{}\n  {}", c.usage, c.help)),
                    None => Reply::say(format!(
                        "no command `{}`; commands: {}",
                        echo(name),
                        commands::COMMANDS
                            .iter()
                            .map(|c| c.name)
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                },
            },
            "board" => Reply::board(""),
            "rules" => Reply::say(self.game.rules.trim_end().to_string()),
            "moves" => Reply::say(self.moves()),
            "history" => Reply::say(self.history()),
            "undo" => self.undo(),
            "redo" => self.redo(),
            "bot" => {
                if self.over() {
                    return Reply::say("the game is over: `new` starts another, `undo` goes back");
                }
                let me = self.state().to_move;
                let state = self.state().clone();
                let mut bot = match bots::from_spec(bots::DEFAULT_OPPONENT, self.seed ^ 0xB07) {
                    Ok(bot) => bot,
                    Err(e) => return Reply::say(e),
                };
                // Ctrl-C stops it too (with its best so far), not the program.
                let thinking = interrupt::Thinking::start();
                let chosen = bot.choose_or_stop(&self.game, &state, interrupt::stop_flag());
                drop(thinking);
                let Some(ply) = chosen else {
                    return Reply::say("there is no legal ply");
                };
                let text = self.game.notation(&state, &ply);
                self.redo.clear();
                match self.play_text(&text, bots::DEFAULT_OPPONENT) {
                    Ok(did) => Reply::board(format!(
                        "{} plays {} (chosen by the {} bot){}",
                        self.who(me as usize),
                        did.text,
                        bots::DEFAULT_OPPONENT,
                        did.effects
                    )),
                    Err(e) => Reply::say(e),
                }
            }
            "seat" => {
                let Some((name, spec)) = rest.split_once(char::is_whitespace) else {
                    return Reply::say(format!(
                        "usage: seat NAME human|BOTSPEC (players: {})",
                        self.game.players.join(", ")
                    ));
                };
                match seat_index(&self.game, name).and_then(|i| {
                    self.set_seat(i, spec.trim())?;
                    Ok(i)
                }) {
                    Ok(i) => {
                        Reply::say(format!("{} is now played by {}", self.who(i), spec.trim()))
                    }
                    Err(e) => Reply::say(e),
                }
            }
            "save" => match rest {
                "" => Reply::say("usage: save FILE"),
                path => Reply::say(self.save(path).unwrap_or_else(|e| e)),
            },
            "pgn" => match rest {
                "" => Reply::say("usage: pgn FILE"),
                path => Reply::say(self.record(path).unwrap_or_else(|e| e)),
            },
            "fen" => {
                Reply::say(position_text::write(&self.game, self.state()).unwrap_or_else(|e| e))
            }
            "svg" => match rest {
                "" => Reply::say("usage: svg FILE"),
                path => Reply::say(self.picture(path).unwrap_or_else(|e| e)),
            },
            "load" => match rest {
                "" => Reply::say("usage: load FILE"),
                path => match self.load(path) {
                    Ok(msg) => Reply::board(msg),
                    Err(e) => Reply::say(e),
                },
            },
            "new" => {
                self.states.truncate(1);
                self.plies.clear();
                self.redo.clear();
                self.resigned = None;
                self.dirty = false;
                self.saved_to = None;
                self.paused = false;
                Reply::board(format!(
                    "a new game, with the same seats: {} (`seat NAME human|BOTSPEC` changes one)",
                    self.seating()
                ))
            }
            _ => self.ply(line),
        }
    }

    /// A ply typed by the person to move, by text or by its number in `moves`.
    fn ply(&mut self, line: &str) -> Reply {
        if self.over() {
            return Reply::say(format!(
                "`{}`: the game is over; `new`, `undo`, `save FILE` or `quit`",
                echo(line)
            ));
        }
        let number = line.trim().parse::<usize>().ok();
        let text = match number {
            Some(n) => {
                let legal = self.legal_texts();
                match legal.get(n.wrapping_sub(1)) {
                    Some(t) => t.clone(),
                    None => {
                        return Reply::say(match legal.len() {
                            1 => format!("there is no ply number {n}; there is 1 legal ply (1)"),
                            k => {
                                format!("there is no ply number {n}; `moves` lists {k} (1 to {k})")
                            }
                        });
                    }
                }
            }
            None => line.trim().to_string(),
        };
        let me = self.state().to_move as usize;
        self.redo.clear();
        match self.play_text(&text, "human") {
            Ok(did) => {
                self.paused = false;
                // The person knows what they typed, but not always which ply a number
                // is; what it did is news.
                Reply::board(match number {
                    Some(n) => format!(
                        "{} plays {} (number {n} of `moves`){}",
                        self.who(me),
                        did.text,
                        did.effects
                    ),
                    None if did.effects.is_empty() => String::new(),
                    None => format!("{}{}", did.text, did.effects),
                })
            }
            Err(e) => Reply::say(e),
        }
    }

    fn moves(&self) -> String {
        if self.over() {
            return "the game is over".into();
        }
        let legal = self.legal_texts();
        let mut s = String::new();
        if legal.len() <= GROUP_ABOVE {
            for (i, t) in legal.iter().enumerate() {
                let _ = writeln!(s, "{:>4}. {t}", i + 1);
            }
            return s;
        }
        // Grouped by where the ply starts (the text before the first `-` or space), one
        // line a group: the list is sorted, so a group's plies are together.
        let key = |t: &str| -> String { t.split(['-', ' ']).next().unwrap_or("").to_string() };
        let groups = legal
            .iter()
            .map(|t| key(t))
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        if groups * 2 > legal.len() {
            // Grouping would not help (placements): columns, several to a line.
            let width = legal.iter().map(|t| t.chars().count()).max().unwrap_or(0);
            for (r, items) in legal.chunks(6).enumerate() {
                let line: Vec<String> = items
                    .iter()
                    .enumerate()
                    .map(|(k, t)| format!("{:>4}. {t:<width$}", r * 6 + k + 1))
                    .collect();
                let _ = writeln!(s, "{}", line.join(" ").trim_end());
            }
            let _ = writeln!(s, "{}", legal_plies(legal.len()));
            return s;
        }
        let mut i = 0;
        while i < legal.len() {
            let k = key(&legal[i]);
            let mut line = format!("{k:>5}:");
            while i < legal.len() && key(&legal[i]) == k {
                let item = format!(" {}. {}", i + 1, legal[i]);
                if line.len() + item.len() > 100 {
                    let _ = writeln!(s, "{line}");
                    line = " ".repeat(6);
                }
                line.push_str(&item);
                i += 1;
            }
            let _ = writeln!(s, "{line}");
        }
        let _ = writeln!(s, "{}", legal_plies(legal.len()));
        s
    }

    fn history(&self) -> String {
        if self.plies.is_empty() {
            return "no ply has been played".into();
        }
        self.plies
            .iter()
            .map(|e| format!("{}. {} {}\n", e.turn, e.player, e.ply))
            .collect()
    }

    /// Takes back the last ply and the bots' plies before it, until a person is to move.
    fn undo(&mut self) -> Reply {
        if self.resigned.take().is_some() {
            return Reply::board("the resignation is taken back");
        }
        if self.plies.is_empty() {
            return Reply::say("nothing to undo");
        }
        let before = self.redo.len();
        while let Some(entry) = self.plies.pop() {
            self.states.pop();
            self.redo.push(entry);
            let mover = self.state().to_move as usize;
            if self.bots[mover].is_none() || self.plies.is_empty() {
                break;
            }
        }
        self.dirty = true;
        // Taken back last first: said in the order they were played.
        let taken: Vec<&Entry> = self.redo[before..].iter().rev().collect();
        Reply::board(format!("took back {}", entries(&taken)))
    }

    /// Plays again what `undo` took back, until a person is to move.
    fn redo(&mut self) -> Reply {
        if self.redo.is_empty() {
            return Reply::say("nothing to redo");
        }
        let before = self.plies.len();
        while let Some(entry) = self.redo.pop() {
            if let Err(e) = self.play_text(&entry.ply, &entry.by) {
                self.redo.clear();
                return Reply::say(e);
            }
            let mover = self.state().to_move as usize;
            if self.over() || self.bots[mover].is_none() {
                break;
            }
        }
        let again: Vec<&Entry> = self.plies[before..].iter().collect();
        Reply::board(format!("played again {}", entries(&again)))
    }

    /// A suggested ply from the MCTS bot, which thinks with the thinking line (when
    /// `live`) and stops at Ctrl-C with what it has.
    fn hint(&self, out: &mut impl Write, live: bool) -> Result<String, Failure> {
        if self.over() {
            return Ok("the game is over".into());
        }
        let state = self.state();
        let seed = self.seed ^ (self.plies.len() as u64).wrapping_mul(0x9E37_79B9);
        let legal = self.legal_texts();
        if legal.len() == 1 {
            return Ok(format!("hint: {} (the only legal ply)", legal[0]));
        }
        // Full playouts, not the bot's default cut-off: the hint reports how often the
        // player won in the playouts through its ply, which a playout scored by `[eval]`
        // does not say.
        let settings = Settings {
            cutoff: Cutoff::Off,
            ..Settings::default()
        };
        let mut bot = MctsBot::with_settings(seed, Budget::Iterations(HINT_PLAYOUTS), settings);
        // The share of the playouts that went through the ply says how sure the search
        // is, against the number of plies it tried (widening tries a few of a wide
        // turn); its win rate alone can be 100% after a single playout, so it comes with
        // its 95% interval.
        let thinking = interrupt::Thinking::start();
        let game = &self.game;
        let advice = with_thinking_line(out, live, "hint: MCTS is thinking", None, || {
            bot.search_until(game, state, interrupt::stop_flag())
        })?;
        drop(thinking);
        Ok(match advice {
            (Some(advice), _) if advice.visits == 0 => {
                let mut after = state.clone();
                self.game.play(&mut after, &advice.ply);
                let how = if after.outcome.is_some() {
                    "it wins at once"
                } else {
                    "your next plies can win the game from it before this turn ends"
                };
                format!("hint: {} ({how})", self.game.notation(state, &advice.ply))
            }
            (Some(advice), playouts) => {
                let mut s = format!(
                    "hint: {} (MCTS: {} of {playouts} playouts went through it, {:.0}%, the \
                     most of the {} plies tried; {} won {:.0}% ± {:.0} of those",
                    self.game.notation(state, &advice.ply),
                    advice.visits,
                    100.0 * advice.share(),
                    advice.tried,
                    self.game.players[state.to_move as usize],
                    100.0 * advice.score,
                    100.0 * advice.margin()
                );
                if advice.visits < HINT_SURE {
                    s.push_str("; too few to be sure");
                }
                s + ")"
            }
            (None, _) => "no hint: there is no legal ply".into(),
        })
    }

    /// The game as a transcript.
    fn transcript(&self) -> Transcript {
        let mut t = Transcript::new(&self.game, &self.file, self.seed);
        t.seats = self
            .game
            .players
            .iter()
            .cloned()
            .zip(self.seats.iter().cloned())
            .collect();
        t.names = self
            .game
            .players
            .iter()
            .zip(&self.names)
            .filter_map(|(p, n)| n.clone().map(|n| (p.clone(), n)))
            .collect();
        t.result = match self.resigned {
            Some(r) => {
                let others: Vec<&str> = (0..self.game.players.len())
                    .filter(|&p| p != r as usize && self.state().is_alive(p as u8))
                    .map(|p| self.game.players[p].as_str())
                    .collect();
                format!(
                    "{} won ({} resigned)",
                    others.join(", "),
                    self.game.players[r as usize]
                )
            }
            None => Transcript::result_of(&self.game, self.state()),
        };
        t.plies = self.plies.clone();
        t
    }

    /// Saves the game to `path`, unless `path` is the game file or the position file.
    fn save(&mut self, path: &str) -> Result<String, String> {
        self.check_output("save", path)
            .map_err(|e| format!("{e}; the game is still here"))?;
        write_output(path, self.transcript().to_text())
            .map_err(|e| format!("cannot save to {path}: {e}; the game is still here"))?;
        self.dirty = false;
        self.saved_to = Some(path.to_string());
        Ok(format!("saved to {path}"))
    }

    /// Writes a picture of the position (SVG), the last ply marked, to `path`, unless
    /// `path` is the game file or the position file.
    fn picture(&self, path: &str) -> Result<String, String> {
        self.check_output("svg", path)?;
        let before = self.states.len().checked_sub(2).map(|i| &self.states[i]);
        write_output(path, picture::svg(&self.game, self.state(), before))
            .map_err(|e| format!("cannot write the picture to {path}: {e}"))?;
        Ok(format!("picture written to {path}"))
    }

    /// Writes the game so far as a PGN record to `path`, unless `path` is the game file
    /// or the position file.
    fn record(&self, path: &str) -> Result<String, String> {
        self.check_output("pgn", path)?;
        let text = pgn::write(&self.game, &self.transcript(), &self.states)?;
        write_output(path, text).map_err(|e| format!("cannot write the record to {path}: {e}"))?;
        Ok(format!("PGN record written to {path}"))
    }

    /// Refuses an output of the command `what` on the game file or the position file.
    fn check_output(&self, what: &str, path: &str) -> Result<(), String> {
        let mut paths = vec![Named {
            what: "the game file",
            path: Path::new(&self.file),
            written: false,
        }];
        if let Some(file) = &self.position_file {
            paths.push(Named {
                what: "the --position file",
                path: Path::new(file),
                written: false,
            });
        }
        paths.push(Named {
            what,
            path: Path::new(path),
            written: true,
        });
        check_paths(&paths)
    }

    /// The start of the name of a file this game is saved to unasked: the game's name
    /// in lower case letters and digits, and the seed (`my-game-7`).
    fn stem(&self) -> String {
        let name: String = self
            .game
            .name
            .chars()
            .map(|c| {
                if c.is_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect();
        let name = name.trim_matches('-');
        format!(
            "{}-{}",
            if name.is_empty() { "game" } else { name },
            self.seed
        )
    }

    /// The file `y` saves to when asked before leaving: the one last saved or loaded,
    /// else `STEM.txt` (or `STEM-2.txt` and on, whichever names no file yet).
    fn offered_file(&self) -> String {
        if let Some(path) = &self.saved_to {
            return path.clone();
        }
        let stem = self.stem();
        (1..)
            .map(|n| match n {
                1 => format!("{stem}.txt"),
                n => format!("{stem}-{n}.txt"),
            })
            .find(|name| !Path::new(name).exists())
            .expect("some name is free")
    }

    /// Whether `text` is a command of `play` or a legal ply here.
    fn is_command_or_ply(&self, text: &str) -> bool {
        let (word, _) = split_command(text);
        commands::find(word).is_some() || typed_ply(&self.game, self.state(), text).is_ok()
    }

    /// Replaces the game with the one a transcript holds; this game is kept on failure.
    fn load(&mut self, path: &str) -> Result<String, String> {
        let t = Transcript::read(path)?;
        if t.game != self.game.name {
            return Err(format!(
                "{path} is a game of {}, and this is {}: start `rulebook play GAMEFILE --load {path}`",
                t.game, self.game.name
            ));
        }
        let source = crate::spec::load(&self.file).map_err(|d| format!("{path}: {d}"))?;
        let params: Vec<String> = (t.param_overrides(&source).iter())
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        let game = load_game(&GameArgsRef {
            game: &self.file,
            params: &params,
            position: t.position.as_deref(),
        })
        .map_err(|e| format!("{path}: {}", e.0))?;
        let mut states = vec![game.start()];
        let last = t
            .replay(&game, |_, s| states.push(s.clone()))
            .map_err(|e| format!("{path}: {e}"))?;
        debug_assert_eq!(states.last(), Some(&last));
        self.game = game;
        self.states = states;
        self.plies = t.plies.clone();
        self.redo.clear();
        self.resigned = t
            .result
            .strip_suffix(" resigned)")
            .and_then(|r| r.rsplit_once('(').map(|(_, who)| who))
            .and_then(|who| seat_index(&self.game, who).ok())
            .map(|i| i as u8);
        for (name, who) in &t.seats {
            if let Ok(i) = seat_index(&self.game, name) {
                self.set_seat(i, who)?;
            }
        }
        for (name, text) in &t.names {
            if let Ok(i) = seat_index(&self.game, name) {
                self.names[i] = Some(printable(text).into_owned());
            }
        }
        self.dirty = false;
        self.saved_to = Some(path.to_string());
        self.variant = Variant::of(&self.file, &self.game);
        self.paused = false;
        let n = self.plies.len();
        Ok(format!(
            "loaded {path}: {n} {}; seats as saved: {}",
            if n == 1 { "ply" } else { "plies" },
            self.seating()
        ))
    }

    /// Who plays each seat: `Ada (red) human, blue greedy`.
    fn seating(&self) -> String {
        (0..self.seats.len())
            .map(|i| format!("{} {}", self.who(i), self.seats[i]))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The seat named `name`, or a message listing the seats.
fn seat_index(game: &Game, name: &str) -> Result<usize, String> {
    game.players
        .iter()
        .position(|p| p == name.trim())
        .ok_or_else(|| {
            format!(
                "no player `{}` in {}; players: {}",
                name.trim(),
                game.name,
                game.players.join(", ")
            )
        })
}

/// Why a typed ply is not legal, as far as the texts tell, and the closest legal ones.
fn illegal(game: &Game, state: &State, text: &str, closest: &[String]) -> String {
    let typed = normalize(text);
    let start = |t: &str| -> String { t.split(['-', ' ']).next().unwrap_or("").to_string() };
    let legal: Vec<String> = game
        .legal_with_notation(state)
        .into_iter()
        .map(|(t, _)| normalize(&t))
        .collect();
    let from = start(&typed);
    let same_start = legal.iter().filter(|t| start(t) == from).count();
    let mut s = if same_start > 0 {
        format!(
            "`{}` is not legal: {} start{} with `{}`, this is not one",
            echo(text),
            legal_plies(same_start),
            if same_start == 1 { "s" } else { "" },
            echo(&from)
        )
    } else if legal.iter().any(|t| t.starts_with(&from)) || from.is_empty() {
        format!("`{}` is not a legal ply here", echo(text))
    } else {
        format!(
            "`{}` is not a command, and no legal ply starts with `{}`",
            echo(text),
            echo(&from)
        )
    };
    if !closest.is_empty() {
        let _ = write!(s, "; {}", closest_plies(closest));
    }
    s.push_str(" (`moves` lists them all, `help` the commands)");
    s
}

/// Plies as `history` numbers them, each with who chose it: `2 plies: 3. white c4
/// (human), 4. blue d2 (greedy)`, or `3. white c4 (human)` alone.
fn entries(plies: &[&Entry]) -> String {
    let each: Vec<String> = plies
        .iter()
        .map(|e| {
            let by = if e.by.is_empty() { "?" } else { &e.by };
            format!("{}. {} {} ({by})", e.turn, e.player, e.ply)
        })
        .collect();
    match each.len() {
        1 => each.join(""),
        n => format!("{n} plies: {}", each.join(", ")),
    }
}

/// `1 legal ply`, `3 legal plies`.
fn legal_plies(n: usize) -> String {
    format!("{n} legal {}", if n == 1 { "ply" } else { "plies" })
}

/// A ply played: its text, and what it did (`: removes ...`, or empty).
struct Played {
    text: String,
    effects: String,
}

/// Runs `work` on a thread of its own while this one shows, when `live` (a person
/// watching a terminal), how long it has run, `LABEL: 2.5 s of 5.0 s (Ctrl-C stops it)`
/// (`of` a `budget` in seconds, when there is one): drawn from half a second on, redrawn
/// in place every tenth of a second, and blanked once the work is done. A bot's turn
/// and `hint` both think this way.
fn with_thinking_line<T: Send>(
    out: &mut impl Write,
    live: bool,
    label: &str,
    budget: Option<f64>,
    work: impl FnOnce() -> T + Send,
) -> Result<T, Failure> {
    let clock = Instant::now();
    let (sender, answer) = mpsc::channel();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let _ = sender.send(work());
        });
        let mut shown = 0;
        loop {
            match answer.recv_timeout(Duration::from_millis(100)) {
                Ok(done) => {
                    if shown > 0 {
                        // Blanks over the thinking line, then back to its start.
                        write!(out, "\r{}\r", " ".repeat(shown))?;
                    }
                    return Ok(done);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(Failure(format!("{label}: it failed")));
                }
            }
            let elapsed = clock.elapsed().as_secs_f64();
            if live && elapsed >= 0.5 {
                let mut line = format!("{label}: {elapsed:.1} s");
                if let Some(total) = budget {
                    let _ = write!(line, " of {total:.1} s");
                }
                line.push_str(" (Ctrl-C stops it)");
                shown = shown.max(line.chars().count());
                write!(out, "\r{line}")?;
                out.flush()?;
            }
        }
    })
}

/// The time budget in a bot spec (`ms=N`), in seconds, for the thinking line.
fn budget_seconds(spec: &str) -> Option<f64> {
    let (_, options) = spec.split_once(':')?;
    options
        .split(',')
        .find_map(|o| o.trim().strip_prefix("ms="))
        .and_then(|ms| ms.trim().parse::<f64>().ok())
        .map(|ms| ms / 1000.0)
}
