//! The game's flow, above the generator: listing the legal plies, playing one, and what
//! follows it (the ply count, end rules, last player standing, passes and the stuck rule,
//! the next turn), and plies as text (notation, parsing with the closest legal plies).

use super::eval::eval;
use super::game::{Game, IllegalPly, Ply, edit_distance, normalize};
use super::generate::{Any, Count};
use super::natives::Mut;
use super::program::{Choice, EndResult, NotationPiece, Part, Repeat, Stuck, frame};
use super::state::{Journal, NONE, Outcome, State};
use crate::lang::types::Type;

impl Game {
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
        text: Option<&mut Text>,
    ) {
        self.replay_in(state, ply, locals, text, &mut Journal::off());
    }

    /// [`Game::replay`] through `journal` (recording, the ply can be taken back).
    pub(super) fn replay_in(
        &self,
        state: &mut State,
        ply: &Ply,
        locals: &mut [i64],
        mut text: Option<&mut Text>,
        journal: &mut Journal,
    ) {
        let me = state.to_move;
        let action = &self.actions[ply.action as usize];
        let mut values = ply.values.iter();
        for (p, part) in action.parts.iter().enumerate() {
            if ply.skipped & (1 << p) != 0 || part.repeat != Repeat::Once {
                part.clear_slots(locals);
            }
            if ply.skipped & (1 << p) != 0 {
                continue;
            }
            // A repeated part is played as long as values are left (the parts after it
            // choose nothing).
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
                    board: &self.board,
                    state,
                    journal,
                    me,
                };
                action.compiled[p].play.run(&mut m, locals);
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
    /// holds (of its short notation, if the text is short and the part has one).
    fn write_part(&self, state: &State, me: u8, part: &Part, locals: &mut [i64], text: &mut Text) {
        let c = self.ctx(state, me);
        let cases = match &part.short {
            Some(short) if text.short => short,
            _ => &part.notation,
        };
        let case =
            (cases.iter()).find(|case| case.when.as_ref().is_none_or(|w| eval(w, &c, locals) != 0));
        let coords = |v: i64| {
            usize::try_from(v)
                .ok()
                .and_then(|c| self.board.coords.get(c))
        };
        for piece in case.map_or(&[][..], |case| &case.pieces) {
            match piece {
                NotationPiece::Text(t) => text.text.push_str(t),
                NotationPiece::Value(slot, ty) => {
                    text.text.push_str(&self.show(*ty, locals[*slot as usize]))
                }
                NotationPiece::File(slot) => {
                    if let Some(&(file, _)) = coords(locals[*slot as usize]) {
                        text.text.push(self.board.file_letter(file));
                    }
                }
                NotationPiece::Rank(slot) => {
                    if let Some(&(_, rank)) = coords(locals[*slot as usize]) {
                        text.text.push_str(&rank.to_string());
                    }
                }
                NotationPiece::Unique(slot) => {
                    text.text.push(UNIQUE);
                    text.unique.push(locals[*slot as usize]);
                }
                NotationPiece::Computed(node, ty, shown) => {
                    let v = eval(node, &c, locals);
                    text.text.push_str(&shown.number(v, |v| self.show(*ty, v)));
                }
            }
        }
    }

    /// Ends, turn order and forced passes after `me` played a ply. (The loop over the end
    /// rules is written again for the stuck rules in `settle_with`: shared as a function,
    /// it cost 25 to 45 instructions a ply, measured with callgrind.)
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

    /// Which rule ended a finished game, read from its last position (`mover` played the
    /// last ply): the first end rule that holds there, else the first `[[stuck]]` rule
    /// that holds for the player to move, else the ply cap, the last player standing or
    /// every player passing. For analysis, which counts how often each rule fires: the
    /// flow itself never asks, so playing costs nothing more. `None` while the game runs.
    pub fn end_cause(&self, state: &State, mover: u8) -> Option<EndCause> {
        let outcome = state.outcome.as_ref()?;
        if outcome.reason.is_some() {
            return Some(EndCause::Cap);
        }
        let holds = |rule: &super::program::EndRule, me: u8| {
            let mut locals = frame(rule.frame);
            eval(&rule.when, &self.ctx(state, me), &mut locals) != 0
        };
        if let Some(i) = self.ends.iter().position(|r| holds(r, mover)) {
            return Some(EndCause::End(i));
        }
        if let Some(i) = self
            .stuck_rules
            .iter()
            .position(|r| holds(r, state.to_move))
        {
            return Some(EndCause::Stuck(i));
        }
        if self.players.len() > 1 && state.alive.count_ones() <= 1 {
            return Some(EndCause::LastStanding);
        }
        Some(EndCause::NoneCanPlay)
    }

    /// The canonical text of a legal ply in this position.
    pub fn notation(&self, state: &State, ply: &Ply) -> String {
        self.written(state, ply, false).text
    }

    /// A ply's text, long or short, as its parts write it (a short text with a marker
    /// where each `{x?}` goes).
    fn written(&self, state: &State, ply: &Ply, short: bool) -> Text {
        let action = &self.actions[ply.action as usize];
        let mut scratch = state.clone();
        let mut locals = frame(action.frame);
        let mut text = Text {
            short,
            ..Text::default()
        };
        self.replay(&mut scratch, ply, &mut locals, Some(&mut text));
        text
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

    /// Whether the file gives a short notation (`short` in some part): the form players
    /// write by hand and game records keep.
    pub fn has_short(&self) -> bool {
        (self.actions.iter()).any(|a| a.parts.iter().any(|p| p.short.is_some()))
    }

    /// The short texts of `plies`, legal plies of the position that are all of them (a
    /// `{x?}` tells a ply apart from the others whose short text has the same letters and
    /// digits, its marks left out): each part's `short` notation, or its `notation`
    /// where it has none.
    pub fn short_notation(&self, state: &State, plies: &[Ply]) -> Vec<String> {
        let written: Vec<Text> = (plies.iter())
            .map(|p| self.written(state, p, true))
            .collect();
        // Plies alike but for their marks (`Qa2`, `Qa2+`) are told apart, as a player
        // may type either without its marks.
        let bare =
            |t: &Text| -> String { t.text.chars().filter(|c| c.is_alphanumeric()).collect() };
        let mut alike: std::collections::HashMap<String, Vec<usize>> = Default::default();
        for (i, t) in written.iter().enumerate() {
            alike.entry(bare(t)).or_default().push(i);
        }
        let coords = |v: i64| {
            usize::try_from(v)
                .ok()
                .and_then(|c| self.board.coords.get(c))
        };
        (written.iter().enumerate())
            .map(|(i, t)| {
                let others: Vec<&Text> = (alike[&bare(t)].iter())
                    .filter(|&&j| j != i)
                    .map(|&j| &written[j])
                    .collect();
                let mut out = String::with_capacity(t.text.len());
                let mut marks = t.unique.iter().enumerate();
                for ch in t.text.chars() {
                    if ch != UNIQUE {
                        out.push(ch);
                        continue;
                    }
                    let Some((k, &cell)) = marks.next() else {
                        continue;
                    };
                    if others.is_empty() {
                        continue;
                    }
                    let theirs: Vec<Option<&(u8, u8)>> = (others.iter())
                        .map(|o| o.unique.get(k).and_then(|&c| coords(c)))
                        .collect();
                    match coords(cell) {
                        Some(&(file, _))
                            if theirs.iter().all(|o| o.is_none_or(|o| o.0 != file)) =>
                        {
                            out.push(self.board.file_letter(file))
                        }
                        Some(&(_, rank))
                            if theirs.iter().all(|o| o.is_none_or(|o| o.1 != rank)) =>
                        {
                            out.push_str(&rank.to_string())
                        }
                        _ => out.push_str(&self.show(Type::Cell, cell)),
                    }
                }
                out
            })
            .collect()
    }

    /// The legal plies with their short texts, sorted by text.
    pub fn legal_with_short(&self, state: &State) -> Vec<(String, Ply)> {
        let plies = self.legal_plies(state);
        let mut all: Vec<(String, Ply)> = (self.short_notation(state, &plies).into_iter())
            .zip(plies)
            .collect();
        all.sort();
        all
    }

    /// The short text of one legal ply of the position.
    pub fn short_text(&self, state: &State, ply: &Ply) -> String {
        let legal = self.legal_plies(state);
        match legal.iter().position(|p| p == ply) {
            Some(i) => self.short_notation(state, &legal).swap_remove(i),
            None => self.notation(state, ply),
        }
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

    /// The legal ply whose short text is `text`: with its case (`Bxc3` and `bxc3` differ
    /// where a letter names a piece and a file), or failing that without, when one ply is
    /// written so.
    fn parse_short(&self, state: &State, text: &str) -> Option<Ply> {
        let spaced = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
        let wanted = spaced(text);
        let legal = self.legal_with_short(state);
        if let Some((_, ply)) = legal.iter().find(|(t, _)| spaced(t) == wanted) {
            return Some(ply.clone());
        }
        let wanted = normalize(text);
        let mut same = legal.iter().filter(|(t, _)| normalize(t) == wanted);
        match (same.next(), same.next()) {
            (Some((_, ply)), None) => Some(ply.clone()),
            _ => None,
        }
    }

    /// Fails when two different legal plies share one short text (case kept, spaces
    /// ignored): a fault of the file's `short` templates, which would leave a ply no
    /// short name.
    pub fn check_short(&self, state: &State) -> Result<(), String> {
        let mut seen: std::collections::HashMap<String, &Ply> = Default::default();
        let legal = self.legal_with_short(state);
        for (text, ply) in &legal {
            let key = text.split_whitespace().collect::<String>();
            if let Some(other) = seen.insert(key, ply) {
                return Err(format!(
                    "two different plies are both written `{text}` in the short notation \
                     (actions `{}` and `{}`): the game file's `short` must tell them apart",
                    self.actions[other.action as usize].name,
                    self.actions[ply.action as usize].name
                ));
            }
        }
        Ok(())
    }

    /// Finds the legal ply written `text` (case and extra spaces ignored), in the long
    /// notation or, for a file that gives one, the short.
    pub fn parse_ply(&self, state: &State, text: &str) -> Result<Ply, IllegalPly> {
        let wanted = normalize(text);
        let legal = self.legal_with_notation(state);
        if let Some((_, ply)) = legal.iter().find(|(t, _)| normalize(t) == wanted) {
            return Ok(ply.clone());
        }
        if self.has_short()
            && let Some(ply) = self.parse_short(state, text)
        {
            return Ok(ply);
        }
        // Another route of a move that `merge_routes` lists once: the move listed.
        if self.actions.iter().any(|a| a.merge_routes) {
            let routes = self.routes(state);
            let typed = (routes.iter()).find(|r| normalize(&self.notation(state, r)) == wanted);
            if let Some(typed) = typed
                && let Some((_, ply)) =
                    (legal.iter()).find(|(_, p)| self.same_position(state, p, typed))
            {
                return Ok(ply.clone());
            }
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

/// Why a game ended, as [`Game::end_cause`] reads it from the last position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EndCause {
    /// The file's `[[end]]` rule of this index (from 0, in file order).
    End(usize),
    /// The file's `[[stuck]]` rule of this index.
    Stuck(usize),
    /// The ply cap (the file's, or the one a command set).
    Cap,
    /// At most one player left in the game.
    LastStanding,
    /// Nobody could play: every player passed, or the last one stuck lost.
    NoneCanPlay,
}

/// Where a short text's `{x?}` goes until the other legal plies are known.
const UNIQUE: char = '\u{0}';

/// A ply's text as its parts write it.
#[derive(Default)]
pub(super) struct Text {
    /// The text.
    pub text: String,
    /// Whether each part writes its short notation (where it has one).
    pub short: bool,
    /// The cells of the `{x?}` written so far, in order.
    pub unique: Vec<i64>,
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
