//! The tables and keys of a game file, as serde reads them.
//!
//! `docs/game-format.md` documents each key; unknown keys are errors, so a misspelt key is
//! reported rather than silently ignored.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

/// A string holding an expression, with its place in the file.
pub type Code = Spanned<String>;

/// A whole game file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    pub game: Meta,
    #[serde(default)]
    pub params: BTreeMap<String, ParamSpec>,
    pub players: Vec<PlayerSpec>,
    pub board: BoardSpec,
    pub pieces: BTreeMap<String, PieceSpec>,
    #[serde(default)]
    pub vars: VarsSpec,
    #[serde(default)]
    pub functions: BTreeMap<String, FunctionSpec>,
    #[serde(default)]
    pub setup: Vec<SetupSpec>,
    #[serde(default)]
    pub phases: Vec<PhaseSpec>,
    #[serde(default)]
    pub turns: TurnSpec,
    pub actions: Vec<ActionSpec>,
    #[serde(default)]
    pub end: Vec<EndSpec>,
    /// Rules for a player with no legal ply at the start of a turn (`me`), tried before
    /// `[turns].stuck`: the same keys as `[[end]]`.
    #[serde(default)]
    pub stuck: Vec<EndSpec>,
    pub scoring: Option<ScoringSpec>,
    pub eval: Option<EvalSpec>,
    pub position_text: Option<PositionTextSpec>,
}

/// `[position_text]`: a position written on one line, the pieces' symbols rank by rank
/// and then the fields listed, for `--position`, `fen` in `play` and
/// game records.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionTextSpec {
    pub fields: Vec<Spanned<TextFieldSpec>>,
}

/// One field after the board of a `[position_text]`: exactly one of its keys.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextFieldSpec {
    /// The text per seat that names the player to move.
    pub mover: Option<BTreeMap<String, String>>,
    /// A letter per true/false variable (`["K", "short(white)"]`), those true written in
    /// order, `-` when none is.
    pub flags: Option<Vec<(String, String)>>,
    /// A cell variable by name, `-` for none.
    pub cell: Option<String>,
    /// A variable holding a turn: the field is the number of turns played since.
    pub since: Option<String>,
    /// The turn counted in rounds of every player's turn, from 1.
    #[serde(default)]
    pub round: bool,
}

/// `[game]`: the name, the rules text and interpreter settings.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Meta {
    pub name: String,
    #[serde(default)]
    pub rules: String,
    /// A ply cap after which the game is a draw: an interpreter setting, not a rule
    /// (`compile::DEFAULT_MAX_PLIES` when the file gives none).
    pub max_plies: Option<Spanned<i64>>,
}

/// `[params.NAME]`: a number or switch the user may set with `--param NAME=VALUE`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamSpec {
    pub default: Spanned<toml::Value>,
    /// The allowed range, in the unit the user types (a decimal when `scale` is given).
    pub min: Option<Spanned<toml::Value>>,
    pub max: Option<Spanned<toml::Value>>,
    /// A power of ten: the parameter is typed with that many decimals' worth of precision
    /// (`7.5` with `scale = 10`), and expressions see the whole number of `1 / scale` units
    /// (75), since the language counts in whole numbers. Default 1.
    pub scale: Option<Spanned<i64>>,
    /// A condition over the parameters that a value must meet.
    pub check: Option<Code>,
    #[serde(default)]
    pub doc: String,
}

/// `[[players]]`: one seat, in turn order.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerSpec {
    pub name: Spanned<String>,
    /// A condition over the parameters: whether this seat takes part (default: always).
    pub present: Option<Code>,
    /// The direction this seat calls forward (`forward(player)` in expressions).
    pub forward: Option<Spanned<String>>,
}

/// `[board]`: the grid, its shape and its links.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardSpec {
    /// A number or an expression over the parameters.
    pub files: Spanned<toml::Value>,
    pub ranks: Spanned<toml::Value>,
    /// A condition over `file` and `rank` (from 1) that picks the cells that exist.
    pub shape: Option<Code>,
    /// The links between cells; default: all eight directions everywhere.
    pub links: Option<Vec<Spanned<LinkSpec>>>,
    /// Draw the links as lines between points (for boards played on the lines).
    #[serde(default)]
    pub lines: bool,
    /// The grid stands for hexagons: six links per cell (n, ne, e, s, sw, w), each rank
    /// drawn half a cell to the left of the one below.
    #[serde(default)]
    pub hexagonal: bool,
    /// What the number drawn after a cell's top symbol counts: a number expression over
    /// the cell `here` (default: every piece of the stack).
    pub shown_height: Option<Code>,
    /// The letters that name the files, first to last (default `abc...z`): for a board
    /// whose players' files skip a letter (`i`, say).
    pub file_letters: Option<Spanned<String>>,
    /// A number over `file` and `rank` written in each cell of a picture, for a game
    /// whose notation numbers its cells (default: none).
    pub numbers: Option<Code>,
    /// A condition over `file` and `rank`: the cells marked on the board as players'
    /// boards mark them (star points), drawn on an empty cell (default: none).
    pub marks: Option<Code>,
    /// Named paths of cells along which the `track_*` natives walk (circuits, paths that
    /// bend), in the order their names number them.
    pub tracks: Option<Vec<Spanned<TrackSpec>>>,
    /// Places on the cells' sides and corners as well as the cells, for pieces that stand
    /// between cells (a barrier on a side, a line drawn between two dots): `edges` and
    /// `points`, reached with `beside`.
    pub edges: Option<Spanned<bool>>,
}

/// One entry of `[[board.tracks]]`: a named path of cells, in runs.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrackSpec {
    /// The name expressions call it by.
    pub name: Spanned<String>,
    /// Runs of cells (`"a2 b2 c2"`): within a run each cell is a step from the one
    /// before; from a run's last cell to the next run's first the track jumps.
    pub runs: Spanned<Vec<Spanned<String>>>,
    /// Whether the last run leads back to the first (a circuit).
    #[serde(default)]
    pub closed: bool,
}

/// One entry of `board.links`: grid links (`dirs`, `where`) or explicit lines (`join`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// A direction-set name (`orthogonal`, `diagonal`, `all_directions`) or a direction.
    pub dirs: Option<Code>,
    /// A condition over `file` and `rank` of the cell the link leaves.
    #[serde(rename = "where")]
    pub where_: Option<Code>,
    /// Lines of cells (`"a1 d1 g1"`): each cell is linked both ways to the next one, for
    /// boards whose lines are not grid steps (a graph board).
    pub join: Option<Spanned<Vec<Spanned<String>>>>,
}

/// `[pieces.NAME]`: a piece kind.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceSpec {
    /// Whether pieces of this kind belong to a player.
    #[serde(default)]
    pub owned: bool,
    /// One symbol, or a table from player name to symbol.
    pub symbol: Spanned<toml::Value>,
    /// How pictures draw the pieces: `circle` (the default), `square`, `triangle`,
    /// `ring` or `cross`.
    pub shape: Option<Spanned<String>>,
}

/// `[vars]`: state the game keeps besides the board.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VarsSpec {
    #[serde(default)]
    pub global: BTreeMap<String, Spanned<VarSpec>>,
    #[serde(default)]
    pub player: BTreeMap<String, Spanned<VarSpec>>,
    #[serde(default)]
    pub turn: BTreeMap<String, Spanned<VarSpec>>,
}

/// One variable of `[vars]`: its initial value alone (`supply = 4`), or a table
/// `{ init = ..., per = "kind" }` for a variable per piece kind or a start per seat.
#[derive(Debug)]
pub enum VarSpec {
    Value(toml::Value),
    Table {
        init: Spanned<VarInit>,
        per: Option<Spanned<String>>,
    },
}

/// A variable's `init`: one value for every seat and kind, or a table by seat
/// (`{ black = 3, white = 0 }`) or, for a variable per kind, by kind.
#[derive(Debug)]
pub enum VarInit {
    Value(toml::Value),
    Table(BTreeMap<String, Spanned<toml::Value>>),
}

/// Reads a TOML value that is either a plain value or a table, keeping the spans of the
/// table's entries (serde's untagged enums would lose them, and with them the place of a
/// mistake inside the table).
struct ValueOrTable<T>(std::marker::PhantomData<T>);

/// What a [`ValueOrTable`] makes of a plain value, or of a table's entries.
trait FromTable: Sized {
    fn from_value(value: toml::Value) -> Self;
    fn from_table<'de, A: serde::de::MapAccess<'de>>(table: A) -> Result<Self, A::Error>;
}

impl<'de, T: FromTable> serde::de::Visitor<'de> for ValueOrTable<T> {
    type Value = T;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a value or a table")
    }
    fn visit_bool<E>(self, v: bool) -> Result<T, E> {
        Ok(T::from_value(toml::Value::Boolean(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<T, E> {
        Ok(T::from_value(toml::Value::Integer(v)))
    }
    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<T, E> {
        i64::try_from(v)
            .map(|v| T::from_value(toml::Value::Integer(v)))
            .map_err(|_| E::custom(format!("`{v}` is too large for a whole number")))
    }
    fn visit_f64<E>(self, v: f64) -> Result<T, E> {
        Ok(T::from_value(toml::Value::Float(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<T, E> {
        Ok(T::from_value(toml::Value::String(v.to_string())))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<T, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(T::from_value(toml::Value::Array(items)))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, table: A) -> Result<T, A::Error> {
        T::from_table(table)
    }
}

impl FromTable for VarSpec {
    fn from_value(value: toml::Value) -> Self {
        VarSpec::Value(value)
    }
    fn from_table<'de, A: serde::de::MapAccess<'de>>(mut table: A) -> Result<Self, A::Error> {
        use serde::de::Error;
        let (mut init, mut per) = (None, None);
        while let Some(key) = table.next_key::<String>()? {
            match key.as_str() {
                "init" => init = Some(table.next_value()?),
                "per" => per = Some(table.next_value()?),
                _ => return Err(A::Error::unknown_field(&key, &["init", "per"])),
            }
        }
        let init = init.ok_or_else(|| A::Error::missing_field("init"))?;
        Ok(VarSpec::Table { init, per })
    }
}

impl<'de> Deserialize<'de> for VarSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ValueOrTable(std::marker::PhantomData))
    }
}

impl FromTable for VarInit {
    fn from_value(value: toml::Value) -> Self {
        VarInit::Value(value)
    }
    fn from_table<'de, A: serde::de::MapAccess<'de>>(mut table: A) -> Result<Self, A::Error> {
        let mut entries = BTreeMap::new();
        while let Some((name, value)) = table.next_entry()? {
            entries.insert(name, value);
        }
        Ok(VarInit::Table(entries))
    }
}

impl<'de> Deserialize<'de> for VarInit {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ValueOrTable(std::marker::PhantomData))
    }
}

/// `[functions.NAME]`: an expression with parameters that the file's other expressions
/// call by name, like a built-in.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FunctionSpec {
    /// `NAME: TYPE` for each parameter, in order (`"c: cell"`).
    #[serde(default)]
    pub params: Vec<Spanned<String>>,
    /// The expression; its type is the function's result.
    pub value: Code,
    /// The type of the result (`"number"`, `"cell"`...), checked against the body;
    /// required of a recursive function, whose calls are checked before its body is.
    pub returns: Option<Spanned<String>>,
    /// For a function that calls itself, directly or through others: how deep its calls
    /// may nest (required of such a function, refused of others).
    pub depth: Option<Spanned<i64>>,
    #[serde(default)]
    pub doc: String,
}

/// `[[setup]]`: pieces on the board before the first ply.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupSpec {
    pub put: Spanned<String>,
    pub owner: Option<Spanned<String>>,
    /// Explicit cells.
    pub at: Option<Vec<Spanned<String>>>,
    /// A condition over `file` and `rank` (from 1) and the parameters.
    #[serde(rename = "where")]
    pub where_: Option<Code>,
    /// How many pieces to stack on each cell (default 1).
    pub count: Option<Spanned<toml::Value>>,
}

/// `[[phases]]`: a named phase, current while its condition holds.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PhaseSpec {
    pub name: Spanned<String>,
    pub when: Code,
}

/// `[turns]`: how many plies a turn has and what a player with none does.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnSpec {
    pub plies: Option<Spanned<toml::Value>>,
    pub stuck: Option<Spanned<String>>,
    /// With `stuck = "pass"`: how the game ends when every player passed in a row,
    /// `"draw"` (the default) or `"score"`.
    pub all_passed: Option<Spanned<String>>,
    /// A number read after each legal ply's effects: only the plies that make it
    /// greatest are legal (a majority capture: "take the most pieces").
    pub most: Option<Code>,
}

/// `[[actions]]`: something a player may do. Its first part is written inline (the same
/// keys as a [`PartSpec`]); further parts follow in `then`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionSpec {
    pub name: Spanned<String>,
    /// Another action (by name) whose effect, check, notation (long and short), `why`
    /// and further parts this one takes for each of them it does not write: actions
    /// that choose differently and play alike (one action per kind of piece, each with
    /// the same move, check and notation) write those once. Filled in when the file is
    /// read (`spec::parse`), so nothing after it sees `like`.
    pub like: Option<Spanned<String>>,
    pub phase: Option<Spanned<String>>,
    #[serde(default)]
    pub fallback: bool,
    /// Whether plies of this action that leave the same position are one move (two
    /// routes of a capture with the same start, end and pieces taken): the first listed
    /// is kept.
    #[serde(default)]
    pub merge_routes: bool,
    #[serde(default)]
    pub choose: Vec<Code>,
    pub effect: Option<Code>,
    pub check: Option<Code>,
    /// Required, unless the action is `like` another that has one.
    pub notation: Option<NotationSpec>,
    /// The part's short notation, as players write a ply with the fewest characters
    /// (the same form as `notation`; a part without one writes its `notation` there).
    pub short: Option<NotationSpec>,
    /// Why a ply breaks a condition, said when `play` explains a refused ply: a sentence
    /// per name the part's `choose` binds (its collection and filter), `where` (its `where`
    /// bindings) or `check`.
    pub why: Option<Why>,
    pub then: Option<Vec<PartSpec>>,
}

impl ActionSpec {
    /// The further parts (`[[actions.then]]`), none when it has none.
    pub fn parts(&self) -> &[PartSpec] {
        self.then.as_deref().unwrap_or_default()
    }
}

/// An action part's `why` table: a reason per name bound, `where` or `check`.
pub type Why = Spanned<std::collections::BTreeMap<String, Spanned<String>>>;

/// A part's `notation`: one template (a string), or a list of `{ when = COND, text =
/// TEMPLATE }` tables, the first whose `when` holds giving the text (a case without `when`
/// always holds), for a text that depends on the ply. Read as a plain value and checked
/// by the compiler, which reports what is wrong with it where it is.
pub type NotationSpec = Spanned<toml::Value>;

/// `[[actions.then]]`: a further part of a compound ply.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartSpec {
    #[serde(default)]
    pub optional: bool,
    /// `"must"` or `"may"`: the part is played again and again, as long as it can be
    /// (must) or as long as the player wants (may). Only the parts after it, which choose
    /// nothing, follow it: what happens once when the chain ends.
    pub repeat: Option<Spanned<String>>,
    #[serde(default)]
    pub choose: Vec<Code>,
    pub effect: Option<Code>,
    pub check: Option<Code>,
    pub notation: NotationSpec,
    /// The part's short notation, as players write a ply with the fewest characters
    /// (the same form as `notation`; a part without one writes its `notation` there).
    pub short: Option<NotationSpec>,
    /// Why a ply breaks a condition, said when `play` explains a refused ply: a sentence
    /// per name the part's `choose` binds (its collection and filter), `where` (its `where`
    /// bindings) or `check`.
    pub why: Option<Why>,
}

/// `[[end]]`: a rule that ends the game.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndSpec {
    pub when: Code,
    pub winner: Option<Code>,
    pub loser: Option<Code>,
    pub result: Option<Spanned<String>>,
}

/// `[scoring]`: the score compared by `result = "score"`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoringSpec {
    pub score: Code,
    /// How many score points make one `unit` when scores are shown (10: the score counts
    /// tenths); default 1.
    pub scale: Option<Spanned<i64>>,
    /// What a shown score counts (`points`); default nothing.
    pub unit: Option<Spanned<String>>,
}

/// `[eval]`: a heuristic for bots, from the point of view of `me` (higher is better).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvalSpec {
    pub score: Code,
    #[serde(default)]
    pub doc: String,
    /// How many plies MCTS plays before it scores a playout by this heuristic (0: every
    /// playout to the end); `compile::DEFAULT_EVAL_CUTOFF` when the file gives none.
    #[serde(default)]
    pub cutoff: Option<Spanned<i64>>,
}
