//! A compiled game and the rules that run it: legal plies, playing a ply, turn order, ends.

use std::sync::OnceLock;

use smallvec::SmallVec;

use super::board::{Board, DIRECTIONS};
use super::eval::eval;
use super::generate::{Any, Count};
use super::natives::{Ctx, Mut};
use super::program::{
    Action, Choice, EndResult, EndRule, NotationPiece, Part, Phase, Repeat, Standalone, Stuck,
    frame,
};
use super::state::{Journal, NONE, Outcome, State};
use crate::lang::types::Type;
use crate::spec::diag::Diagnostic;

/// A piece kind: its name and how it is drawn.
#[derive(Clone, Debug)]
pub struct KindInfo {
    pub name: String,
    /// Whether pieces of this kind belong to a player.
    pub owned: bool,
    /// The symbol per player for owned kinds, or one symbol for neutral kinds.
    pub symbols: Vec<String>,
}

/// A variable of the game file.
#[derive(Clone, Debug)]
pub struct VarInfo {
    pub name: String,
    pub slot: u16,
    pub per: Per,
    pub ty: Type,
}

/// What a variable holds one value for: its slots in `State::vars` follow its first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Per {
    /// One value (`[vars.global]`, `[vars.turn]`): one slot.
    Game,
    /// One per player: player p's value in slot + p.
    Player,
    /// One per piece kind: kind k's in slot + k.
    Kind,
    /// One per player and kind: in slot + p × the number of kinds + k.
    PlayerKind,
}

impl Per {
    /// What a reference to such a variable is indexed by, in order.
    pub fn indices(self) -> &'static [Type] {
        match self {
            Per::Game => &[],
            Per::Player => &[Type::Player],
            Per::Kind => &[Type::Kind],
            Per::PlayerKind => &[Type::Player, Type::Kind],
        }
    }

    /// How many slots such a variable takes.
    pub fn slots(self, players: usize, kinds: usize) -> usize {
        match self {
            Per::Game => 1,
            Per::Player => players,
            Per::Kind => kinds,
            Per::PlayerKind => players * kinds,
        }
    }

    /// The offset from the variable's first slot of the value for these indices (players
    /// and kinds by number, as [`Per::indices`] orders them).
    pub fn offset(self, indices: &[usize], kinds: usize) -> usize {
        match (self, indices) {
            (Per::PlayerKind, [p, k]) => p * kinds + k,
            (_, [i]) => *i,
            _ => 0,
        }
    }
}

/// A declared parameter and the value this game was compiled with.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamValue {
    pub name: String,
    pub value: i64,
    pub is_bool: bool,
}

impl ParamValue {
    /// The value as the user writes it (`8`, `true`).
    pub fn text(&self) -> String {
        if self.is_bool {
            (self.value != 0).to_string()
        } else {
            self.value.to_string()
        }
    }
}

/// A game ready to play: a game file compiled with one set of parameter values.
#[derive(Clone, Debug)]
pub struct Game {
    pub name: String,
    pub rules: String,
    /// Every declared parameter with its value, in name order.
    pub params: Vec<ParamValue>,
    /// The players taking part, in turn order.
    pub players: Vec<String>,
    /// Per player, the direction its seat calls forward (or `NONE`).
    pub forward: Vec<i64>,
    pub board: Board,
    /// Whether the board is drawn as points joined by lines (its links).
    pub draw_lines: bool,
    /// What the number after a cell's symbol counts (slot 0 holds the cell), if the file
    /// says; otherwise every piece of the stack.
    pub shown_height: Option<Standalone>,
    pub kinds: Vec<KindInfo>,
    pub phases: Vec<Phase>,
    pub plies_per_turn: Standalone,
    pub stuck: Stuck,
    pub actions: Vec<Action>,
    pub ends: Vec<EndRule>,
    /// `[[stuck]]`: tested when a player has no legal ply at the start of a turn, with
    /// `me` that player, before the stuck rule applies.
    pub stuck_rules: Vec<EndRule>,
    /// The score expression, if the game scores; `me` is the player scored.
    pub score: Option<Standalone>,
    /// The bots' heuristic, if the game declares one; `me` is the player evaluated.
    pub eval: Option<Standalone>,
    /// With an `[eval]`, the plies after which MCTS stops a playout and scores it by the
    /// heuristic (`None`: it plays every playout to the end), as the file's `[eval]
    /// cutoff` says: how far a heuristic can be trusted is the game's to say.
    pub eval_cutoff: Option<u32>,
    /// A ply cap declared by the file (an interpreter setting, not a rule).
    pub max_plies: Option<u32>,
    /// Every variable by name: its first slot in `State::vars`, whether it has one slot
    /// per player, and its type (for positions written by hand: see `record::diagram`).
    pub vars: Vec<VarInfo>,
    /// The first slot of the turn variables in `State::vars` and their initial values.
    pub turn_vars: (usize, Vec<i64>),
    /// The position before the first ply.
    pub initial: State,
    /// The diagram the game starts from instead of its own start, if any (one line: see
    /// `record::diagram`), so that a transcript can say where it started.
    pub start_position: Option<String>,
    /// The first action whose walk in some position ran past `program::MOST_STEPS`, its
    /// plies there cut short: see [`Game::runaway`].
    pub(crate) ran_away: OnceLock<u16>,
    /// How random plies are drawn (`engine::draw`): the same plies with the same chances
    /// whichever, at different costs.
    pub draw: Draw,
    /// The actions [`Draw::Auto`] lists (by index), measured at the first draw.
    pub(crate) routes: OnceLock<Box<[bool]>>,
}

/// How a random ply is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Draw {
    /// Each action the way that costs it less, as measured at the first draw.
    #[default]
    Auto,
    /// Candidates drawn and tried until one is legal, for every action but those whose
    /// last part repeats (always listed).
    Sample,
    /// Every legal ply listed, and one picked.
    List,
}

/// One legal decision: which action, the values it chose, which optional parts it skipped.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ply {
    pub action: u16,
    pub values: SmallVec<[i64; 6]>,
    pub skipped: u8,
}

/// A ply that is not legal in the position, with the nearest legal texts.
#[derive(Clone, Debug, PartialEq)]
pub struct IllegalPly {
    pub text: String,
    pub closest: Vec<String>,
}

impl Game {
    /// Why the plies listed, counted or drawn so far may be cut short: the located error
    /// of the first action whose walk in some position ran past `program::MOST_STEPS`
    /// (a repeated part with several choices a play, most often). The commands that list
    /// plies report it instead of what they would print.
    pub fn runaway(&self) -> Option<&Diagnostic> {
        let &action = self.ran_away.get()?;
        Some(&self.actions[action as usize].runaway)
    }

    /// A fresh position.
    pub fn start(&self) -> State {
        self.initial.clone()
    }

    fn ctx<'a>(&'a self, state: &'a State, me: u8) -> Ctx<'a> {
        Ctx {
            game: self,
            state,
            me,
        }
    }

    /// The phase in force: the first whose condition holds for the player to move.
    pub fn current_phase(&self, state: &State) -> Option<usize> {
        let c = self.ctx(state, state.to_move);
        self.phases.iter().position(|ph| ph.when.eval(&c, 0) != 0)
    }

    /// How many plies the current turn has.
    pub fn plies_this_turn(&self, state: &State) -> u32 {
        let c = self.ctx(state, state.to_move);
        self.plies_per_turn.eval(&c, 0).clamp(1, u32::MAX as i64) as u32
    }

    /// Every legal ply of the position, in generation order (none once the game is over).
    pub fn legal_plies(&self, state: &State) -> Vec<Ply> {
        let mut out = Vec::new();
        self.walk(&mut state.clone(), &mut out);
        out
    }

    /// How many legal plies the position has, without listing them.
    pub fn count_plies(&self, state: &State) -> u64 {
        let mut count = Count(0);
        self.walk(&mut state.clone(), &mut count);
        count.0
    }

    /// Whether the player to move has at least one legal ply.
    pub fn has_legal(&self, state: &State) -> bool {
        self.can_play(&mut state.clone())
    }

    /// [`Game::has_legal`] on a position it may use as scratch (and leaves as it was), so
    /// that nothing is copied.
    pub(crate) fn can_play(&self, state: &mut State) -> bool {
        let mut any = Any(false);
        self.walk(state, &mut any);
        any.0
    }

    /// Plays a ply that [`Game::legal_plies`] produced for this position.
    pub fn play(&self, state: &mut State, ply: &Ply) {
        let me = state.to_move;
        let action = &self.actions[ply.action as usize];
        let mut locals = frame(action.frame);
        self.replay(state, ply, &mut locals, None);
        self.finish_ply(state, me);
    }

    /// What follows the effects of a ply `me` played: the ply count, ends and turns.
    pub(super) fn finish_ply(&self, state: &mut State, me: u8) {
        self.finish_ply_with(state, me, &mut Walking);
    }

    /// [`Game::finish_ply`], asking `probe` whether a player can play.
    pub(super) fn finish_ply_with(&self, state: &mut State, me: u8, probe: &mut impl Probe) {
        state.plies += 1;
        self.after_ply(state, me, probe);
        debug_assert!(
            state.caches_agree(),
            "the cell caches no longer match the stacks"
        );
    }

    /// Runs a ply's parts on `state` and leaves the chosen values in `locals`; with
    /// `text`, writes each part's notation there as it is played.
    pub(super) fn replay(
        &self,
        state: &mut State,
        ply: &Ply,
        locals: &mut [i64],
        mut text: Option<&mut String>,
    ) {
        let me = state.to_move;
        let action = &self.actions[ply.action as usize];
        let mut values = ply.values.iter();
        let mut journal = Journal::off();
        for (p, part) in action.parts.iter().enumerate() {
            if ply.skipped & (1 << p) != 0 || part.repeat != Repeat::Once {
                part.clear_slots(locals);
            }
            if ply.skipped & (1 << p) != 0 {
                continue;
            }
            // A repeated part (the last) is played as long as values are left.
            while part.repeat == Repeat::Once || values.len() > 0 {
                for choice in &part.choices {
                    match choice {
                        Choice::In { slot, .. } => {
                            locals[*slot as usize] = values.next().copied().unwrap_or(NONE)
                        }
                        Choice::Let(slot, node) => {
                            locals[*slot as usize] = eval(node, &self.ctx(state, me), locals)
                        }
                        Choice::Where(_) => {}
                    }
                }
                let mut m = Mut {
                    game: self,
                    state,
                    journal: &mut journal,
                    me,
                };
                part.play.run(&mut m, locals);
                if let Some(text) = text.as_deref_mut() {
                    self.write_part(state, me, part, locals, text);
                }
                if part.repeat == Repeat::Once {
                    break;
                }
            }
        }
    }

    /// Appends the text of one part just played: its first notation case whose `when`
    /// holds.
    fn write_part(
        &self,
        state: &State,
        me: u8,
        part: &Part,
        locals: &mut [i64],
        text: &mut String,
    ) {
        let c = self.ctx(state, me);
        let case = part
            .notation
            .iter()
            .find(|case| case.when.as_ref().is_none_or(|w| eval(w, &c, locals) != 0));
        for piece in case.map_or(&[][..], |case| &case.pieces) {
            match piece {
                NotationPiece::Text(t) => text.push_str(t),
                NotationPiece::Value(slot, ty) => {
                    text.push_str(&self.show(*ty, locals[*slot as usize]))
                }
            }
        }
    }

    /// Ends, turn order and forced passes after `me` played a ply.
    fn after_ply(&self, state: &mut State, me: u8, probe: &mut impl Probe) {
        for rule in &self.ends {
            let mut locals = frame(rule.frame);
            if eval(&rule.when, &self.ctx(state, me), &mut locals) != 0 {
                let winners = self.resolve(state, me, &rule.result, &mut locals);
                state.outcome = Some(Outcome {
                    winners,
                    reason: None,
                });
                return;
            }
        }
        if self.last_standing(state) {
            return;
        }
        state.record(me);
        if self.max_plies.is_some_and(|cap| state.plies >= cap) {
            state.outcome = Some(Outcome {
                winners: Vec::new(),
                reason: Some("ply cap".into()),
            });
            return;
        }
        let turn_done = state.turn_over
            || !state.is_alive(me)
            || state.ply_in_turn >= self.plies_this_turn(state);
        if turn_done {
            self.next_turn(state, probe);
        } else {
            state.ply_in_turn += 1;
            if !probe.can_play(self, state) {
                self.next_turn(state, probe);
            }
        }
    }

    /// Sets the outcome when at most one player is left; says whether it did.
    fn last_standing(&self, state: &mut State) -> bool {
        if self.players.len() > 1 && state.alive.count_ones() <= 1 {
            let winners = (0..self.players.len() as u8)
                .filter(|&p| state.is_alive(p))
                .collect();
            state.outcome = Some(Outcome {
                winners,
                reason: None,
            });
            return true;
        }
        false
    }

    /// Hands the move to the next player in the game, then settles the new turn.
    fn next_turn(&self, state: &mut State, probe: &mut impl Probe) {
        if self.advance(state) {
            self.settle_with(state, probe);
        }
    }

    /// Starts the next turn with the next player still in the game; false (and a drawn
    /// outcome) if nobody is left.
    fn advance(&self, state: &mut State) -> bool {
        state.turn += 1;
        state.ply_in_turn = 1;
        state.turn_over = false;
        let (first, inits) = &self.turn_vars;
        for (var, init) in state.vars[*first..].iter_mut().zip(inits) {
            *var = *init;
        }
        let n = self.players.len() as u8;
        match (1..=n)
            .map(|k| (state.to_move + k) % n)
            .find(|&p| state.is_alive(p))
        {
            Some(next) => {
                state.to_move = next;
                true
            }
            None => {
                state.outcome = Some(Outcome {
                    winners: Vec::new(),
                    reason: None,
                });
                false
            }
        }
    }

    /// Applies the stuck rule at the start of a turn until a player who can play has the
    /// move or the game is over. Also run on the initial position, so a first player with
    /// nothing to do is treated like any other.
    pub(crate) fn settle(&self, state: &mut State) {
        self.settle_with(state, &mut Walking);
    }

    /// [`Game::settle`], asking `probe` whether a player can play.
    fn settle_with(&self, state: &mut State, probe: &mut impl Probe) {
        loop {
            if state.outcome.is_some() {
                return;
            }
            if probe.can_play(self, state) {
                state.silent_passes = 0;
                return;
            }
            let me = state.to_move;
            for rule in &self.stuck_rules {
                let mut locals = frame(rule.frame);
                if eval(&rule.when, &self.ctx(state, me), &mut locals) != 0 {
                    let winners = self.resolve(state, me, &rule.result, &mut locals);
                    state.outcome = Some(Outcome {
                        winners,
                        reason: None,
                    });
                    return;
                }
            }
            match self.stuck {
                Stuck::Lose => {
                    state.alive &= !(1 << state.to_move);
                    if self.players.len() == 1 {
                        state.outcome = Some(Outcome {
                            winners: Vec::new(),
                            reason: None,
                        });
                        return;
                    }
                    if self.last_standing(state) {
                        return;
                    }
                }
                Stuck::Pass { scored } => {
                    state.silent_passes += 1;
                    if state.silent_passes >= state.alive.count_ones() {
                        let winners = if scored {
                            self.score_winner(state)
                        } else {
                            Vec::new()
                        };
                        state.outcome = Some(Outcome {
                            winners,
                            reason: None,
                        });
                        return;
                    }
                }
            }
            if !self.advance(state) {
                return;
            }
        }
    }

    fn resolve(&self, state: &State, me: u8, result: &EndResult, locals: &mut [i64]) -> Vec<u8> {
        let c = self.ctx(state, me);
        match result {
            EndResult::Winner(node) => {
                let p = eval(node, &c, locals);
                if p < 0 { Vec::new() } else { vec![p as u8] }
            }
            EndResult::Loser(node) => {
                let p = eval(node, &c, locals);
                (0..self.players.len() as u8)
                    .filter(|&q| q as i64 != p && state.is_alive(q))
                    .collect()
            }
            EndResult::Draw => Vec::new(),
            EndResult::Score => self.score_winner(state),
        }
    }

    /// Every player's score, in player order (empty if the game does not score).
    pub fn scores(&self, state: &State) -> Vec<Vec<i64>> {
        let Some(score) = &self.score else {
            return Vec::new();
        };
        (0..self.players.len() as u8)
            .map(|p| score.eval_list(&self.ctx(state, p)))
            .collect()
    }

    /// The single best-scoring player, or nobody (a draw) when the best is shared.
    pub fn score_winner(&self, state: &State) -> Vec<u8> {
        let scores = self.scores(state);
        let Some(best) = scores.iter().max() else {
            return Vec::new();
        };
        let top: Vec<u8> = (0..scores.len() as u8)
            .filter(|&p| scores[p as usize] == *best)
            .collect();
        if top.len() == 1 { top } else { Vec::new() }
    }

    /// The game's heuristic value of a position for `player` (0 if it declares none).
    pub fn evaluate(&self, state: &State, player: u8) -> i64 {
        match &self.eval {
            Some(heuristic) => heuristic.eval(&self.ctx(state, player), 0),
            None => 0,
        }
    }

    /// The height drawn after a cell's top symbol: what the file's `shown_height`
    /// counts, or every piece of the stack.
    pub fn shown_height(&self, state: &State, cell: usize) -> i64 {
        match &self.shown_height {
            Some(height) => height.eval(&self.ctx(state, state.to_move), cell as i64),
            None => state.stacks()[cell].len() as i64,
        }
    }

    /// The canonical text of a legal ply in this position.
    pub fn notation(&self, state: &State, ply: &Ply) -> String {
        let action = &self.actions[ply.action as usize];
        let mut scratch = state.clone();
        let mut locals = frame(action.frame);
        let mut text = String::new();
        self.replay(&mut scratch, ply, &mut locals, Some(&mut text));
        text
    }

    /// A value as text: cells, players, kinds and directions by name.
    pub fn show(&self, ty: Type, v: i64) -> String {
        if v < 0 && ty.nullable() {
            return "none".into();
        }
        let name = |names: &[String]| names.get(v as usize).cloned().unwrap_or_default();
        match ty {
            Type::Cell => name(&self.board.names),
            Type::Player => name(&self.players),
            Type::Kind => self
                .kinds
                .get(v as usize)
                .map(|k| k.name.clone())
                .unwrap_or_default(),
            Type::Dir => DIRECTIONS
                .get(v as usize)
                .map(|d| d.0.to_string())
                .unwrap_or_default(),
            Type::Bool => (v != 0).to_string(),
            _ => v.to_string(),
        }
    }

    /// The legal plies with their texts, sorted by text.
    pub fn legal_with_notation(&self, state: &State) -> Vec<(String, Ply)> {
        let mut all: Vec<(String, Ply)> = self
            .legal_plies(state)
            .into_iter()
            .map(|p| (self.notation(state, &p), p))
            .collect();
        all.sort();
        all
    }

    /// Fails when two different legal plies share one text (case and spaces ignored): a
    /// fault of the game file's notation templates, which would make a ply impossible to
    /// name and a count of plies wrong.
    pub fn check_notation(&self, legal: &[(String, Ply)]) -> Result<(), String> {
        let mut seen: std::collections::HashMap<String, &Ply> = Default::default();
        for (text, ply) in legal {
            if let Some(other) = seen.insert(normalize(text), ply) {
                return Err(format!(
                    "two different plies are both written `{text}` (actions `{}` and `{}`): \
                     the game file's notation must tell them apart",
                    self.actions[other.action as usize].name,
                    self.actions[ply.action as usize].name
                ));
            }
        }
        Ok(())
    }

    /// Finds the legal ply written `text` (case and extra spaces ignored).
    pub fn parse_ply(&self, state: &State, text: &str) -> Result<Ply, IllegalPly> {
        let wanted = normalize(text);
        let legal = self.legal_with_notation(state);
        if let Some((_, ply)) = legal.iter().find(|(t, _)| normalize(t) == wanted) {
            return Ok(ply.clone());
        }
        // Plies that begin with what was typed come first (`d5` for `d5xa1`: a move
        // given without the capture it makes), then by how few letters differ.
        let mut ranked: Vec<(bool, usize, &String)> = legal
            .iter()
            .map(|(t, _)| {
                let t_norm = normalize(t);
                (
                    !t_norm.starts_with(&wanted),
                    edit_distance(&t_norm, &wanted),
                    t,
                )
            })
            .collect();
        ranked.sort();
        Err(IllegalPly {
            text: text.trim().to_string(),
            closest: ranked
                .into_iter()
                .take(5)
                .map(|(_, _, t)| t.clone())
                .collect(),
        })
    }
}

/// How the rules ask whether the player to move has a legal ply (after every ply, and
/// for each player in turn while players are stuck). The answer decides passes and
/// losses; a probe may also keep what it found (a random playout draws the next ply).
pub(crate) trait Probe {
    fn can_play(&mut self, game: &Game, state: &mut State) -> bool;
}

/// Asks by walking the plies until the first.
pub(crate) struct Walking;

impl Probe for Walking {
    fn can_play(&mut self, game: &Game, state: &mut State) -> bool {
        game.can_play(state)
    }
}

/// Lower case with runs of spaces collapsed: how plies typed by people are compared.
pub fn normalize(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Edit distance counting insertions, deletions, substitutions and swaps of two adjacent
/// characters (optimal string alignment), for suggesting the nearest legal plies and names.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            d[i * w + j] = if i == 0 || j == 0 {
                i + j
            } else {
                let sub = d[(i - 1) * w + j - 1] + (a[i - 1] != b[j - 1]) as usize;
                let mut best = sub.min(d[(i - 1) * w + j] + 1).min(d[i * w + j - 1] + 1);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    best = best.min(d[(i - 2) * w + j - 2] + 1);
                }
                best
            };
        }
    }
    d[a.len() * w + b.len()]
}
