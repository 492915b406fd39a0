//! `rulebook` for Python: any game file, loaded and played through the program's own engine,
//! with the names OpenSpiel gives the same things (`legal_actions`, `apply_action`,
//! `returns`, `current_player`, `observation_tensor`), so that code written for it ports.
//!
//! The engine stays a plain Rust library; this crate only converts. Searches and playouts
//! release the GIL, so that Python threads run beside them.

mod observe;

use std::sync::Arc;

use num_bigint::BigUint;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use rulebook::bots::{self, Bot};
use rulebook::engine::game::{Game, Ply};
use rulebook::engine::state::State;
use rulebook::load::{GameArgsRef, load_game as load};
use rulebook::record::ids::Radices;
use rulebook::record::transcript::{Entry, Transcript};
use rulebook::render::board::render;

use observe::Layout;

/// The player number `current_player()` gives once the game is over (OpenSpiel's).
const TERMINAL_PLAYER: i64 = -4;

/// A game, what its states share: the compiled file and how its ids and observations
/// are laid out.
struct Shared {
    game: Game,
    file: String,
    radices: Radices,
    layout: Layout,
}

/// A loaded game file: `rulebook.load_game(path, **params)`.
#[pyclass(module = "rulebook", name = "Game", frozen)]
struct PyGame {
    shared: Arc<Shared>,
}

/// One ply played on a state: enough to take it back, list it and write it down.
#[derive(Clone)]
struct Step {
    before: State,
    id: BigUint,
    text: String,
}

/// A position of a game and the plies that led to it.
#[pyclass(module = "rulebook", name = "State")]
#[derive(Clone)]
struct PyState {
    shared: Arc<Shared>,
    state: State,
    history: Vec<Step>,
    /// The legal plies of `state` and their ids, once asked for.
    legal: Option<Arc<Vec<(BigUint, Ply)>>>,
}

/// A built-in bot (`random`, `greedy`, `alphabeta:depth=3`, `mcts:iters=500`...).
#[pyclass(module = "rulebook", name = "Bot")]
struct PyBot {
    /// Behind a lock: Python may share a bot between threads, and a bot thinks alone.
    bot: std::sync::Mutex<Box<dyn Bot>>,
    spec: String,
}

/// A parameter's value as the command line writes it (`--param size=6`).
fn param_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(b.is_true().to_string());
    }
    if value.is_instance_of::<PyInt>() {
        return Ok(value.extract::<i64>()?.to_string());
    }
    if value.is_instance_of::<PyFloat>() {
        // Python writes a float the shortest way that reads back (6.5, not 6.4999...).
        return Ok(value.repr()?.to_string());
    }
    if let Ok(s) = value.extract::<String>() {
        return Ok(s);
    }
    Err(PyTypeError::new_err(format!(
        "a parameter is an int, a float, a bool or a str, not {}",
        value.get_type().name()?
    )))
}

/// Loads the game file at `path` with parameters (`size=6`, `players=4`); a file that does
/// not load raises ValueError with its file, line, column and what was expected.
#[pyfunction]
#[pyo3(signature = (path, **params))]
fn load_game(path: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<PyGame> {
    let mut texts = Vec::new();
    if let Some(params) = params {
        for (name, value) in params.iter() {
            texts.push(format!(
                "{}={}",
                name.extract::<String>()?,
                param_text(&value)?
            ));
        }
    }
    let args = GameArgsRef {
        game: path,
        params: &texts,
        position: None,
    };
    let game = load(&args).map_err(|f| PyValueError::new_err(f.0))?;
    Ok(PyGame {
        shared: Arc::new(Shared {
            radices: Radices::of(&game),
            layout: Layout::of(&game),
            file: path.to_string(),
            game,
        }),
    })
}

#[pymethods]
impl PyGame {
    /// The game's name, from its file.
    #[getter]
    fn name(&self) -> String {
        self.shared.game.name.clone()
    }

    /// The players' names, by player number.
    #[getter]
    fn players(&self) -> Vec<String> {
        self.shared.game.players.clone()
    }

    fn num_players(&self) -> usize {
        self.shared.game.players.len()
    }

    /// Every parameter of the game and the value it was loaded with.
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for p in &self.shared.game.params {
            if p.is_bool {
                dict.set_item(&p.name, p.value != 0)?;
            } else if p.scale > 1 {
                // A scaled parameter in the unit people type: 7.5, not 75.
                dict.set_item(&p.name, p.text().parse::<f64>().unwrap_or(f64::NAN))?;
            } else {
                dict.set_item(&p.name, p.value)?;
            }
        }
        Ok(dict)
    }

    /// The rules as the game file tells them.
    #[getter]
    fn rules(&self) -> String {
        self.shared.game.rules.clone()
    }

    /// The ply cap of the game file (plies, not turns), or None.
    fn max_game_length(&self) -> Option<u32> {
        self.shared.game.max_plies
    }

    fn new_initial_state(&self) -> PyState {
        PyState {
            shared: Arc::clone(&self.shared),
            state: self.shared.game.start(),
            history: Vec::new(),
            legal: None,
        }
    }

    /// The state a `State.serialize()` text describes (a transcript, as `play` saves):
    /// its plies replayed and checked; ValueError names the first line that does not fit.
    fn deserialize_state(&self, text: &str) -> PyResult<PyState> {
        let transcript =
            Transcript::parse(text).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let mut state = self.new_initial_state();
        // Replayed first for its messages (the line at fault), then played here for ids.
        transcript
            .replay(&self.shared.game, |_, _| ())
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        for entry in &transcript.plies {
            state.apply_text(&entry.ply)?;
        }
        Ok(state)
    }

    /// The shape of `State.observation_tensor()`: planes, ranks, files.
    fn observation_tensor_shape(&self) -> [usize; 3] {
        self.shared.layout.shape()
    }

    /// What each plane of `State.observation_tensor()` holds, in order.
    fn observation_planes(&self) -> Vec<String> {
        self.shared.layout.names.clone()
    }

    fn __repr__(&self) -> String {
        let params: Vec<String> = (self.shared.game.params.iter())
            .map(|p| format!("{}={}", p.name, p.text()))
            .collect();
        format!(
            "rulebook.load_game({:?}{}{})",
            self.shared.file,
            if params.is_empty() { "" } else { ", " },
            params.join(", ")
        )
    }
}

impl PyState {
    fn game(&self) -> &Game {
        &self.shared.game
    }

    /// The legal plies and their ids, listed once per position.
    fn legal(&mut self) -> Arc<Vec<(BigUint, Ply)>> {
        if let Some(legal) = &self.legal {
            return Arc::clone(legal);
        }
        let listed: Vec<(BigUint, Ply)> = (self.game().legal_plies(&self.state).into_iter())
            .map(|ply| (self.shared.radices.id(&ply), ply))
            .collect();
        let listed = Arc::new(listed);
        self.legal = Some(Arc::clone(&listed));
        listed
    }

    /// The legal ply of this id, or ValueError.
    fn ply_of(&mut self, id: &BigUint) -> PyResult<Ply> {
        let legal = self.legal();
        match legal.iter().find(|(i, _)| i == id) {
            Some((_, ply)) => Ok(ply.clone()),
            None if self.state.outcome.is_some() => Err(PyValueError::new_err(format!(
                "action {id}: the game is over"
            ))),
            None => Err(PyValueError::new_err(format!(
                "action {id} is not legal in this position ({} legal actions)",
                legal.len()
            ))),
        }
    }

    fn play(&mut self, id: BigUint, ply: &Ply) {
        let text = self.game().notation(&self.state, ply);
        let before = self.state.clone();
        self.shared.game.play(&mut self.state, ply);
        self.history.push(Step { before, id, text });
        self.legal = None;
    }

    fn apply_text(&mut self, text: &str) -> PyResult<()> {
        let id = self.string_to_action(text)?;
        let ply = self.ply_of(&id)?;
        self.play(id, &ply);
        Ok(())
    }
}

#[pymethods]
impl PyState {
    /// The player to move, by number; -4 once the game is over.
    fn current_player(&self) -> i64 {
        match self.state.outcome {
            Some(_) => TERMINAL_PLAYER,
            None => i64::from(self.state.to_move),
        }
    }

    fn is_terminal(&self) -> bool {
        self.state.outcome.is_some()
    }

    /// The legal actions' ids, in the engine's order (empty once the game is over, or for
    /// a player not to move).
    #[pyo3(signature = (player = None))]
    fn legal_actions(&mut self, player: Option<i64>) -> Vec<BigUint> {
        if player.is_some_and(|p| p != self.current_player()) {
            return Vec::new();
        }
        self.legal().iter().map(|(id, _)| id.clone()).collect()
    }

    /// The legal actions with their texts as players write them (`b1-a1`).
    fn legal_actions_with_text(&mut self) -> Vec<(BigUint, String)> {
        let legal = self.legal();
        (legal.iter())
            .map(|(id, ply)| (id.clone(), self.game().notation(&self.state, ply)))
            .collect()
    }

    /// The text of a legal action (`action_to_string(action)` or OpenSpiel's
    /// `action_to_string(player, action)`).
    #[pyo3(signature = (first, second = None))]
    fn action_to_string(&mut self, first: BigUint, second: Option<BigUint>) -> PyResult<String> {
        let id = second.unwrap_or(first);
        let ply = self.ply_of(&id)?;
        Ok(self.game().notation(&self.state, &ply))
    }

    /// The id of the legal ply written `text` (spaces and case do not matter); ValueError
    /// with the closest legal plies when there is none.
    fn string_to_action(&mut self, text: &str) -> PyResult<BigUint> {
        match self.game().parse_ply(&self.state, text) {
            Ok(ply) => Ok(self.shared.radices.id(&ply)),
            Err(illegal) => {
                let mut message = format!("`{text}` is not legal here");
                if !illegal.closest.is_empty() {
                    message += &format!("; closest: {}", illegal.closest.join(", "));
                }
                Err(PyValueError::new_err(message))
            }
        }
    }

    /// Plays a legal action.
    fn apply_action(&mut self, action: BigUint) -> PyResult<()> {
        let ply = self.ply_of(&action)?;
        self.play(action, &ply);
        Ok(())
    }

    /// Takes the last action back (with OpenSpiel's arguments, checks they name it).
    #[pyo3(signature = (player = None, action = None))]
    fn undo_action(&mut self, player: Option<i64>, action: Option<BigUint>) -> PyResult<()> {
        let Some(last) = self.history.last() else {
            return Err(PyValueError::new_err("no action to undo"));
        };
        if player.is_some_and(|p| p != i64::from(last.before.to_move))
            || action.is_some_and(|a| a != last.id)
        {
            return Err(PyValueError::new_err(format!(
                "the last action is {} (`{}`) by player {}",
                last.id, last.text, last.before.to_move
            )));
        }
        let last = self.history.pop().expect("looked at above");
        self.state = last.before;
        self.legal = None;
        Ok(())
    }

    /// The actions played from the start, by id.
    fn history(&self) -> Vec<BigUint> {
        self.history.iter().map(|s| s.id.clone()).collect()
    }

    /// The actions played from the start, as text.
    fn history_texts(&self) -> Vec<String> {
        self.history.iter().map(|s| s.text.clone()).collect()
    }

    /// Plies played from the start.
    fn move_number(&self) -> u32 {
        self.state.plies
    }

    /// Per player: 1 for a winner, -1 for a loser, 0 for all at a draw or before the end.
    fn returns(&self) -> Vec<f64> {
        returns(&self.shared.game, &self.state)
    }

    fn player_return(&self, player: usize) -> PyResult<f64> {
        self.returns()
            .get(player)
            .copied()
            .ok_or_else(|| PyValueError::new_err(format!("no player {player}")))
    }

    /// The winners' names (empty before the end and at a draw).
    fn winners(&self) -> Vec<String> {
        (self.state.outcome.iter())
            .flat_map(|o| o.winners.iter())
            .map(|&p| self.game().players[p as usize].clone())
            .collect()
    }

    /// The position as planes over the board (`Game.observation_planes()` says which):
    /// a float32 array of shape `Game.observation_tensor_shape()`. The same for every
    /// player: the games are of perfect information.
    #[pyo3(signature = (player = None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, numpy::PyArray3<f32>>> {
        let _ = player;
        let layout = &self.shared.layout;
        let flat = PyArray1::from_vec(py, layout.observe(self.game(), &self.state));
        flat.reshape(layout.shape())
    }

    /// The board as the command line shows it.
    #[pyo3(signature = (player = None))]
    fn observation_string(&self, player: Option<i64>) -> String {
        let _ = player;
        render(self.game(), &self.state)
    }

    /// Plays random plies from a copy of this state to the end of the game (or for
    /// `max_plies`), at the engine's speed and without the GIL, and gives its returns; the
    /// state itself does not change. The same seed gives the same playout.
    #[pyo3(signature = (seed = 0, max_plies = None))]
    fn random_playout(&self, py: Python<'_>, seed: u64, max_plies: Option<u32>) -> Vec<f64> {
        let game = &self.shared.game;
        let mut state = self.state.clone();
        py.detach(|| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut left = max_plies.unwrap_or(u32::MAX);
            while state.outcome.is_none() && left > 0 {
                let step = left.min(1 << 16);
                let played = game.playout(&mut state, &mut rng, step);
                left -= played;
                if played < step {
                    break;
                }
            }
            returns(game, &state)
        })
    }

    /// The state as text: a transcript of its plies, which `Game.deserialize_state` reads
    /// (and `rulebook play`'s `load`).
    fn serialize(&self) -> String {
        let game = self.game();
        let mut transcript = Transcript::new(game, &self.shared.file, 0);
        transcript.plies = (self.history.iter())
            .map(|s| Entry::new(game, &s.before, &s.text, ""))
            .collect();
        transcript.result = Transcript::result_of(game, &self.state);
        transcript.to_text()
    }

    fn clone(&self) -> PyState {
        Clone::clone(self)
    }

    fn __copy__(&self) -> PyState {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        Clone::clone(self)
    }

    fn __str__(&self) -> String {
        render(self.game(), &self.state)
    }

    fn __repr__(&self) -> String {
        format!(
            "<rulebook.State of {} after {} plies>",
            self.game().name,
            self.history.len()
        )
    }
}

/// Per player: 1 for a winner, -1 for a loser, 0 for all at a draw or before the end.
fn returns(game: &Game, state: &State) -> Vec<f64> {
    let n = game.players.len();
    match &state.outcome {
        None => vec![0.0; n],
        Some(o) if o.winners.is_empty() => vec![0.0; n],
        Some(o) => (0..n)
            .map(|p| {
                if o.winners.contains(&(p as u8)) {
                    1.0
                } else {
                    -1.0
                }
            })
            .collect(),
    }
}

#[pymethods]
impl PyBot {
    /// A bot from its spec, as `rulebook play --seat` takes it, seeded: the same seed and
    /// state give the same choice (for bots with a time budget, the same budget used).
    #[new]
    #[pyo3(signature = (spec, seed = 0))]
    fn new(spec: &str, seed: u64) -> PyResult<PyBot> {
        let bot = bots::from_spec(spec, seed).map_err(PyValueError::new_err)?;
        Ok(PyBot {
            bot: std::sync::Mutex::new(bot),
            spec: spec.to_string(),
        })
    }

    #[getter]
    fn spec(&self) -> String {
        self.spec.clone()
    }

    /// The action this bot chooses in `state` (without the GIL while it thinks);
    /// ValueError once the game is over.
    fn step(&self, py: Python<'_>, state: &PyState) -> PyResult<BigUint> {
        let game = &state.shared.game;
        let position = &state.state;
        let bot = &self.bot;
        let ply = py
            .detach(|| {
                let mut bot = bot.lock().unwrap_or_else(|e| e.into_inner());
                bot.choose(game, position)
            })
            .ok_or_else(|| PyValueError::new_err("the game is over: no action to choose"))?;
        Ok(state.shared.radices.id(&ply))
    }

    fn __repr__(&self) -> String {
        format!("rulebook.Bot({:?})", self.spec)
    }
}

/// The native module; the package `rulebook` re-exports it.
#[pymodule]
fn _rulebook(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyState>()?;
    m.add_class::<PyBot>()?;
    m.add("TERMINAL_PLAYER", TERMINAL_PLAYER)?;
    Ok(())
}
