//! A compiled game: its board, players, pieces, variables, actions, phases and end
//! rules, and what reads them without generating a ply (the phase in force, scores, the
//! heuristic, values as text). Playing it is `engine::flow`'s, on top of the generator.

use std::sync::OnceLock;

use smallvec::SmallVec;

use super::action::Action;
use super::board::{Board, DIRECTIONS};
use super::natives::Ctx;
use super::program::{EndRule, Phase, Recursive, Standalone, Stuck};
use super::state::State;
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
    /// The outline pictures draw the pieces with, so that kinds tell apart at a glance.
    pub shape: PieceShape,
}

/// The outline a picture draws a piece with (`shape` in `[pieces.NAME]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PieceShape {
    #[default]
    Circle,
    Square,
    Triangle,
    /// A circle drawn as its outline only.
    Ring,
    Cross,
}

impl PieceShape {
    /// Every shape with the name a game file gives it.
    pub const NAMES: [(&'static str, PieceShape); 5] = [
        ("circle", PieceShape::Circle),
        ("square", PieceShape::Square),
        ("triangle", PieceShape::Triangle),
        ("ring", PieceShape::Ring),
        ("cross", PieceShape::Cross),
    ];
}

/// A variable of the game file.
#[derive(Clone, Debug)]
pub struct VarInfo {
    pub name: String,
    pub slot: u16,
    pub per: Per,
    pub ty: Type,
}

/// A position written on one line (`[position_text]`): the board's ranks, top first,
/// of single-character symbols with runs of empty cells as numbers, separated by `/`,
/// then the fields, separated by spaces.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionText {
    pub fields: Vec<TextField>,
}

/// One field of a [`PositionText`] after the board. A variable is kept by the name a
/// diagram gives it (`short(white)`), which reading sets, and by its slot in
/// `State::vars`, which writing reads.
#[derive(Clone, Debug, PartialEq)]
pub enum TextField {
    /// The text naming each seat, when it is to move.
    Mover(Vec<String>),
    /// A letter per true/false variable, `-` for none true.
    Flags(Vec<(char, TextVar)>),
    /// A cell variable; `-` for none.
    Cell(TextVar),
    /// A variable holding a turn; the field counts the turns played since.
    Since(TextVar),
    /// The turn in rounds of the players' turns, from 1.
    Round,
}

/// A variable a [`TextField`] writes: its name as a diagram writes it, and its slot.
#[derive(Clone, Debug, PartialEq)]
pub struct TextVar {
    pub name: String,
    pub slot: usize,
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
    /// One per cell (`[vars.global]`, `[vars.turn]`): cell c's in slot + c.
    Cell,
}

impl Per {
    /// What a reference to such a variable is indexed by, in order.
    pub fn indices(self) -> &'static [Type] {
        match self {
            Per::Game => &[],
            Per::Player => &[Type::Player],
            Per::Kind => &[Type::Kind],
            Per::PlayerKind => &[Type::Player, Type::Kind],
            Per::Cell => &[Type::Cell],
        }
    }

    /// How many slots such a variable takes.
    pub fn slots(self, players: usize, kinds: usize, cells: usize) -> usize {
        match self {
            Per::Game => 1,
            Per::Player => players,
            Per::Kind => kinds,
            Per::PlayerKind => players * kinds,
            Per::Cell => cells,
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

/// How a score is shown: it counts `1 / scale` of a `unit` (`[scoring] scale` and
/// `unit`): a score kept in tenths of a point, to count half points in whole numbers, is
/// shown `74.5 points`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreUnit {
    pub scale: i64,
    pub unit: String,
}

impl Default for ScoreUnit {
    fn default() -> ScoreUnit {
        ScoreUnit {
            scale: 1,
            unit: String::new(),
        }
    }
}

impl ScoreUnit {
    /// `value` as people read it: divided by the scale with as many decimals as the scale
    /// has zeros beyond one (`745` in tenths is `74.5`), then the unit.
    pub fn show(&self, value: i64) -> String {
        let number = if self.scale <= 1 {
            value.to_string()
        } else {
            let decimals = (self.scale as f64).log10().ceil() as usize;
            format!("{:.decimals$}", value as f64 / self.scale as f64)
        };
        if self.unit.is_empty() {
            number
        } else {
            format!("{number} {}", self.unit)
        }
    }
}

/// A declared parameter and the value this game was compiled with.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamValue {
    pub name: String,
    /// What expressions see: for a scaled parameter, the whole number of `1 / scale` units.
    pub value: i64,
    pub is_bool: bool,
    /// A power of ten (`[params] scale`): the user types `value / scale`; 1 for most.
    pub scale: i64,
}

impl ParamValue {
    /// The value as the user writes it (`8`, `true`, `7.5`), which reads back to the same
    /// value: a scaled parameter always has its decimals (`7.0`), so that a transcript's
    /// whole number stays the older form (see `record::transcript`).
    pub fn text(&self) -> String {
        if self.is_bool {
            (self.value != 0).to_string()
        } else {
            decimal_text(self.value, self.scale)
        }
    }
}

/// How many decimals a scale that is a power of ten stands for (`10` → 1), or `None` for
/// a scale that is not one.
pub fn scale_decimals(scale: i64) -> Option<usize> {
    let mut decimals = 0;
    let mut s = scale;
    while s > 1 && s % 10 == 0 {
        s /= 10;
        decimals += 1;
    }
    (s == 1).then_some(decimals)
}

/// `value / scale` written with exactly the scale's decimals (`75`, 10 → `7.5`; `70` →
/// `7.0`; a scale of 1 writes the whole number). Exact: no floating point.
pub fn decimal_text(value: i64, scale: i64) -> String {
    let decimals = scale_decimals(scale).unwrap_or(0);
    if decimals == 0 {
        return value.to_string();
    }
    let sign = if value < 0 { "-" } else { "" };
    let (whole, part) = (
        value.unsigned_abs() / scale as u64,
        value.unsigned_abs() % scale as u64,
    );
    format!("{sign}{whole}.{part:0decimals$}")
}

/// Reads a number typed in units with at most the scale's decimals (`7.5`, `7`, `-0.5`)
/// as the whole number of `1 / scale` units (75, 70, -5); `None` for any other text or
/// more decimals than the scale keeps. Exact: no floating point.
pub fn parse_decimal(text: &str, scale: i64) -> Option<i64> {
    let decimals = scale_decimals(scale)?;
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (whole, part) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && part.is_empty()
        || !all_digits(whole)
        || !all_digits(part)
        || part.len() > decimals
        || digits.ends_with('.')
    {
        return None;
    }
    let whole: i64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let part: i64 = if part.is_empty() {
        0
    } else {
        part.parse::<i64>().ok()? * 10i64.pow((decimals - part.len()) as u32)
    };
    let units = whole.checked_mul(scale)?.checked_add(part)?;
    Some(if negative { -units } else { units })
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
    /// `[turns] most`: read after each legal ply's effects (with `me` the player who
    /// plays it); only the plies that make it greatest are legal.
    pub most: Option<Standalone>,
    /// Whether the legal plies are sifted (`engine::sift`): the file has `[turns] most`,
    /// or an action with `merge_routes`.
    pub sifted: bool,
    pub actions: Vec<Action>,
    pub ends: Vec<EndRule>,
    /// `[[stuck]]`: tested when a player has no legal ply at the start of a turn, with
    /// `me` that player, before the stuck rule applies.
    pub stuck_rules: Vec<EndRule>,
    /// The score expression, if the game scores; `me` is the player scored.
    pub score: Option<Standalone>,
    /// How scores are shown to people.
    pub score_unit: ScoreUnit,
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
    /// How a position is written on one line, if the file says (`[position_text]`).
    pub position_text: Option<PositionText>,
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
    /// The file's recursive functions (those that declare `depth`): the strong hold on
    /// their code, which calls reach through weak references, and whether a call went
    /// past its limit (see [`Game::runaway`]).
    pub recursive: Vec<Recursive>,
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
    /// Every parameter and its value as the user writes it (`("size", "8")`), in the
    /// file's order: what transcripts, match reports and recompiled variants record.
    pub fn param_texts(&self) -> Vec<(String, String)> {
        (self.params.iter())
            .map(|p| (p.name.clone(), p.text()))
            .collect()
    }

    /// Why the plies listed, counted or drawn so far may be cut short: the located error
    /// of the first action whose walk in some position ran past `program::MOST_STEPS`
    /// (a repeated part with several choices a play, most often). The commands that list
    /// plies report it instead of what they would print.
    ///
    /// The same for a recursive function called deeper than its `depth`: what was
    /// worked out from that call is wrong, so it is reported the same way.
    pub fn runaway(&self) -> Option<&Diagnostic> {
        if let Some(&action) = self.ran_away.get() {
            return Some(&self.actions[action as usize].runaway);
        }
        let deep = self.recursive.iter().find(|f| f.callee.exceeded())?;
        Some(&deep.callee.error)
    }

    /// A fresh position.
    pub fn start(&self) -> State {
        self.initial.clone()
    }

    /// What an expression of the game reads in `state`, with `me` the player it asks for.
    pub(super) fn ctx<'a>(&'a self, state: &'a State, me: u8) -> Ctx<'a> {
        Ctx {
            board: &self.board,
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

    /// The slot in `State::vars` and the type of a variable named as a diagram and a
    /// `[position_text]` name it: `NAME`, `NAME(SEAT)`, `NAME(KIND)` or
    /// `NAME(SEAT, KIND)`.
    pub fn var_slot(&self, target: &str) -> Result<(usize, Type), String> {
        let (name, args) = match target.split_once('(') {
            Some((name, rest)) => {
                let args = rest.trim().strip_suffix(')').ok_or_else(|| {
                    format!("`{target}`: expected NAME(SEAT), NAME(KIND) or NAME(SEAT, KIND)")
                })?;
                (name.trim(), args.split(',').map(str::trim).collect())
            }
            None => (target.trim(), Vec::new()),
        };
        let var = self.vars.iter().find(|v| v.name == name).ok_or_else(|| {
            let names: Vec<&str> = self.vars.iter().map(|v| v.name.as_str()).collect();
            format!(
                "`{name}` is not a variable of this game; variables: {}",
                names.join(", ")
            )
        })?;
        let want = var.per.indices();
        if args.len() != want.len() {
            let form = match var.per {
                Per::Game => format!("one variable: `{name}`"),
                Per::Player => format!("a variable per player: `{name}(SEAT)`"),
                Per::Kind => format!("a variable per piece kind: `{name}(KIND)`"),
                Per::PlayerKind => {
                    format!("a variable per player and piece kind: `{name}(SEAT, KIND)`")
                }
                Per::Cell => format!("a variable per cell: `{name}(CELL)`"),
            };
            return Err(format!("`{name}` is {form}"));
        }
        let mut indices = Vec::with_capacity(args.len());
        for (arg, ty) in args.iter().zip(want) {
            let found = match ty {
                Type::Player => self.players.iter().position(|p| p == arg),
                Type::Cell => self.board.find(arg).map(usize::from),
                _ => self.kinds.iter().position(|k| k.name == *arg),
            };
            indices.push(found.ok_or_else(|| format!("`{arg}` is not {ty}"))?);
        }
        Ok((
            var.slot as usize + var.per.offset(&indices, self.kinds.len()),
            var.ty,
        ))
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
