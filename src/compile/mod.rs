//! The compiler: from a parsed game file and parameter values to a [`Game`] ready to play.
//!
//! Parameters are fixed first, so board sizes, seat lists and setups are computed once;
//! then every expression is parsed, name-resolved and type-checked. Any mistake becomes a
//! [`Diagnostic`] pointing into the file.

mod actions;
mod check;
mod closures;
mod constant;
mod functions;
mod grid;
mod params;
mod rules;
mod sets;
mod setup;

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::OnceLock;

use smallvec::SmallVec;
use toml::Spanned;

use crate::engine::action::{Action, PartCode};
use crate::engine::board::{self, Board, DIRECTION_SETS, DIRECTIONS, MAX_SIDE};
use crate::engine::check_before::CheckBefore;
use crate::engine::game::{
    Draw, Game, KindInfo, ParamValue, Per, PieceShape, PositionText, TextField, TextVar, VarInfo,
};
use crate::engine::lowering::Lowering;
use crate::engine::natives;
use crate::engine::overlay::Overlay;
use crate::engine::precheck::Precheck;
use crate::engine::program::{
    Choice, EndResult, EndRule, Node, NotationCase, NotationPiece, Part, Phase, Repeat, Standalone,
    Stuck,
};
use crate::engine::shape::HeadShape;
use crate::engine::state::{NEUTRAL, NONE, Piece, State};
use crate::lang::ast::{Binding, Expr, Name, Span};
use crate::lang::parser;
use crate::lang::types::Type;
use crate::render::text::{printable, printable_lines};
use crate::spec::diag::Diagnostic;
use crate::spec::schema::{Code, VarInit, VarSpec};
use crate::spec::{Source, schema};
use check::{Named, Names, Scope};
use constant::{Const, Env};
pub use functions::{CALL_LEVELS, MOST_DEPTH, RECURSION_LEVELS};

/// The `[vars]` table a variable is declared in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum VarTable {
    Global,
    Player,
    Turn,
}
/// An error inside one expression string, before it is placed in the file.
#[derive(Clone, Debug, PartialEq)]
pub struct LangError {
    pub span: Span,
    pub message: String,
    pub label: String,
    pub help: Vec<String>,
    /// The function of the file whose body `span` points into, if not the expression
    /// being compiled (an error met while expanding a call).
    pub within: Option<String>,
}

impl LangError {
    pub fn new(span: Span, message: impl Into<String>) -> LangError {
        LangError {
            span,
            message: message.into(),
            label: String::new(),
            help: Vec::new(),
            within: None,
        }
    }

    pub fn label(mut self, label: impl Into<String>) -> LangError {
        self.label = label.into();
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> LangError {
        self.help.push(help.into());
        self
    }

    /// "unknown name" with the nearest existing name and the full list.
    pub fn unknown(span: Span, name: &str, existing: Vec<String>) -> LangError {
        let mut e = LangError::new(span, format!("unknown name `{name}`")).label("not defined");
        if let Some(near) = nearest(name, &existing) {
            e = e.help(format!("did you mean `{near}`?"));
        }
        if existing.is_empty() {
            // Where only numbers and parameters count (a board size), in a game with none.
            return e.help("no name can be used here: the game declares no parameters");
        }
        e.help(format!("names that exist here: {}", existing.join(", ")))
    }
}

/// The existing name closest to `name`, if it is close enough to be a likely typo.
pub(crate) fn nearest<'a>(name: &str, existing: &'a [String]) -> Option<&'a String> {
    existing
        .iter()
        .map(|n| (crate::engine::game::edit_distance(n, name), n))
        .filter(|(d, n)| *d <= 2.max(name.len() / 3) && *d < n.len().max(name.len()))
        .min()
        .map(|(_, n)| n)
}

/// The ply cap of a game whose file sets no `max_plies`. Every game has a cap, so a game
/// whose end rules can never be met (a mistake no check can rule out) ends as a draw
/// instead of running bots, `selfplay` and `match` forever. It is far above the length
/// of any real game (the shipped games last tens to hundreds of plies), so it never cuts
/// a real one short; a file that needs more sets `max_plies` itself.
pub const DEFAULT_MAX_PLIES: u32 = 10_000;

/// The highest ply cap a file or `--max-plies` may set. Far above any real game, yet a
/// game that long still fits in a transcript (`replay` and `play --load` read up to
/// 8 MiB, some 30 bytes a ply) and keeps `play`'s undo history within memory.
pub const MOST_PLIES: u32 = 100_000;

/// The plies after which MCTS stops a playout and scores it by the game's `[eval]`, when
/// the file's `[eval]` does not say (`cutoff`). Against greedy at 200 ms a move, 10 did
/// at least as well as 20 in every game where both were measured (docs/bots.md,
/// "Cut-off playouts by default").
pub const DEFAULT_EVAL_CUTOFF: u32 = 10;

/// The most plies `[eval] cutoff` may ask for.
pub const MOST_EVAL_CUTOFF: u32 = 1_000_000;

/// Compiles a loaded file with `--param NAME=VALUE` overrides.
pub fn compile(src: &Source, overrides: &[(String, String)]) -> Result<Game, Box<Diagnostic>> {
    Compiler {
        src,
        reference: None,
    }
    .run(overrides)
}

/// Makes the code of a game's expressions, sets and statements in a reference build
/// (see [`compile_reference`]).
pub type MakeLowering = dyn Fn(&Game) -> Box<dyn Lowering>;

/// Compiles a game file as [`compile`] does, but with every expression, set and
/// statement made into code by `lowering` (the test suite's tree walk) instead of the
/// closures of `engine::code`, and with no strategy that reads an expression's shape to
/// skip work (steps kept as written, every check asked after its move, no head read
/// from the position's sets): the reference the product is proved equal to.
pub fn compile_reference(
    src: &Source,
    overrides: &[(String, String)],
    lowering: &MakeLowering,
) -> Result<Game, Box<Diagnostic>> {
    Compiler {
        src,
        reference: Some(lowering),
    }
    .run(overrides)
}

struct Compiler<'s> {
    src: &'s Source,
    /// The reference's code, where this is the reference build (see
    /// [`compile_reference`]); the closures of `engine::code` otherwise.
    reference: Option<&'s MakeLowering>,
}

/// Constant names: parameters, and `file`/`rank` where a cell is being described.
struct ConstEnv<'a> {
    params: &'a [ParamValue],
    cell: Option<(i64, i64)>,
}

impl Env for ConstEnv<'_> {
    fn get(&self, name: &str) -> Option<Const> {
        if let Some((file, rank)) = self.cell {
            match name {
                "file" => return Some(Const::Int(file)),
                "rank" => return Some(Const::Int(rank)),
                _ => {}
            }
        }
        self.params.iter().find(|p| p.name == name).map(|p| {
            if p.is_bool {
                Const::Bool(p.value != 0)
            } else {
                Const::Int(p.value)
            }
        })
    }

    fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.params.iter().map(|p| p.name.clone()).collect();
        if self.cell.is_some() {
            v.extend(["file".to_string(), "rank".to_string()]);
        }
        v.sort();
        v
    }
}

fn span_range<T>(s: &Spanned<T>) -> Range<usize> {
    s.span()
}

impl Compiler<'_> {
    fn path(&self) -> &str {
        &self.src.path
    }

    /// A diagnostic at a TOML value.
    fn at(
        &self,
        span: Range<usize>,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> Box<Diagnostic> {
        Box::new(Diagnostic::at(
            self.path(),
            &self.src.text,
            span,
            message,
            label,
        ))
    }

    /// Where the text of a string value starts inside the file (past its quotes).
    fn content_start(&self, code: &Code) -> usize {
        let start = code.span().start;
        let rest = &self.src.text[start.min(self.src.text.len())..];
        let skip = if rest.starts_with("'''") || rest.starts_with("\"\"\"") {
            let after = &rest[3..];
            3 + if after.starts_with("\r\n") {
                2
            } else if after.starts_with('\n') {
                1
            } else {
                0
            }
        } else if rest.starts_with('\'') || rest.starts_with('"') {
            1
        } else {
            0
        };
        start + skip
    }

    /// Places an expression-level error in the file (in the body of the function it
    /// names, if it names one).
    fn lang(&self, code: &Code, e: LangError) -> Box<Diagnostic> {
        let code = match e
            .within
            .as_ref()
            .and_then(|f| self.src.file.functions.get(f))
        {
            Some(function) => &function.value,
            None => code,
        };
        let base = self.content_start(code);
        let end = code.span().end;
        let span = (base + e.span.start).min(end)..(base + e.span.end).min(end);
        let mut d = Diagnostic::at(self.path(), &self.src.text, span, e.message, e.label);
        d.help = e.help;
        Box::new(d)
    }

    fn parse_expr(&self, code: &Code) -> Result<Expr, Box<Diagnostic>> {
        parser::parse_expression(code.get_ref()).map_err(|e| self.syntax(code, e))
    }

    fn syntax(&self, code: &Code, e: parser::SyntaxError) -> Box<Diagnostic> {
        self.lang(
            code,
            LangError::new(e.span, "syntax error in expression").label(e.message),
        )
    }

    /// Evaluates a constant expression (parameters only, or with `file`/`rank`).
    fn constant(&self, code: &Code, env: &ConstEnv) -> Result<Const, Box<Diagnostic>> {
        let e = self.parse_expr(code)?;
        constant::eval(&e, env).map_err(|err| self.lang(code, err))
    }

    /// A number given as a TOML integer or as a constant expression string.
    fn number(
        &self,
        v: &Spanned<toml::Value>,
        env: &ConstEnv,
        what: &str,
    ) -> Result<i64, Box<Diagnostic>> {
        match v.get_ref() {
            toml::Value::Integer(i) => Ok(*i),
            toml::Value::String(s) => {
                let code = Spanned::new(v.span(), s.clone());
                match self.constant(&code, env)? {
                    Const::Int(i) => Ok(i),
                    Const::Bool(_) => Err(self.at(
                        v.span(),
                        format!("{what} must be a number"),
                        "this is a condition",
                    )),
                }
            }
            _ => Err(self.at(
                v.span(),
                format!("{what} must be a number or an expression in quotes"),
                "expected a number",
            )),
        }
    }

    fn run(&self, overrides: &[(String, String)]) -> Result<Game, Box<Diagnostic>> {
        let f = &self.src.file;
        let params = self.params(overrides)?;
        let env = ConstEnv {
            params: &params,
            cell: None,
        };
        let (players, seat_names) = self.players(&env)?;
        let mut board = self.board(&params)?;
        self.tracks(&mut board)?;
        let kinds = self.kinds(&players)?;

        // Every game-level name, checked for clashes.
        let mut names = Names::default();
        for (i, (name, _, _)) in DIRECTIONS.iter().enumerate() {
            names
                .map
                .insert(name.to_string(), Named::Const(i as i64, Type::Dir));
        }
        for (name, mask) in DIRECTION_SETS {
            names
                .map
                .insert(name.to_string(), Named::Const(mask as i64, Type::DirSet));
        }
        for (i, name) in board.names.iter().enumerate() {
            names
                .map
                .insert(name.clone(), Named::Const(i as i64, Type::Cell));
        }
        let mut declare =
            |name: &str, value: Named, span: Range<usize>| -> Result<(), Box<Diagnostic>> {
                // A built-in called with arguments (`height(c)`) does not clash with a
                // name used without them: only names written alone are taken.
                let reserved = natives::lookup(name).any(|n| n.params.is_empty())
                    || matches!(name, "file" | "rank")
                    || board::direction_index(name).is_some()
                    || DIRECTION_SETS.iter().any(|(n, _)| *n == name);
                if reserved {
                    return Err(self.at(
                        span,
                        format!("the name `{name}` is taken"),
                        "already a built-in name of the language",
                    ));
                }
                if let Some(Named::Const(_, ty)) = names.map.get(name) {
                    return Err(self.at(
                        span,
                        format!("the name `{name}` is used twice"),
                        format!("already the name of {ty} in this file"),
                    ));
                }
                names.map.insert(name.to_string(), value);
                Ok(())
            };
        for (name, spec) in &f.params {
            let p = params
                .iter()
                .find(|p| &p.name == name)
                .expect("param compiled");
            let ty = if p.is_bool { Type::Bool } else { Type::Int };
            let key = self.find_key(&format!("params.{name}"), span_range(&spec.default));
            declare(name, Named::Const(p.value, ty), key)?;
        }
        for (seat, span) in &seat_names {
            let id = players
                .iter()
                .position(|p| p == seat)
                .map_or(-1, |i| i as i64);
            declare(seat, Named::Const(id, Type::Player), span.clone())?;
        }
        for (i, (name, spec)) in f.pieces.iter().enumerate() {
            let key = self.find_key(&format!("pieces.{name}"), span_range(&spec.symbol));
            declare(name, Named::Const(i as i64, Type::Kind), key)?;
        }
        for (i, spec) in f.board.tracks.iter().flatten().enumerate() {
            let name = spec.get_ref().name.get_ref();
            declare(
                name,
                Named::Const(i as i64, Type::Track),
                spec.get_ref().name.span(),
            )?;
        }
        let declare = |names: &mut Names,
                       name: &str,
                       value: Named,
                       span: Range<usize>|
         -> Result<(), Box<Diagnostic>> {
            if natives::lookup(name).next().is_some() || names.map.contains_key(name) {
                return Err(self.at(
                    span,
                    format!("the name `{name}` is used twice"),
                    "already a name in this game or the language",
                ));
            }
            names.map.insert(name.to_string(), value);
            Ok(())
        };
        names.kinds = kinds.len() as u16;
        let mut vars = Vec::new();
        let mut turn_first = 0;
        for (table, specs) in [
            (VarTable::Global, &f.vars.global),
            (VarTable::Player, &f.vars.player),
            (VarTable::Turn, &f.vars.turn),
        ] {
            if table == VarTable::Turn {
                turn_first = vars.len();
            }
            for (name, v) in specs {
                let (inits, ty, per) = self.variable(
                    table,
                    v,
                    &env,
                    &names,
                    &seat_names,
                    &players,
                    &kinds,
                    board.len(),
                )?;
                let slot = u16::try_from(vars.len())
                    .ok()
                    .filter(|s| usize::from(*s) + inits.len() <= usize::from(u16::MAX))
                    .ok_or_else(|| {
                        self.at(
                            v.span(),
                            "too many variables: more than 65,535 values in all",
                            "a variable per player and kind takes players × kinds values",
                        )
                    })?;
                let named = match per {
                    Per::Game => Named::Var(slot, ty),
                    per => Named::VarAt(slot, ty, per),
                };
                declare(&mut names, name, named, v.span())?;
                vars.extend(inits);
            }
        }
        let turn_inits = vars[turn_first..].to_vec();
        let var_info = names
            .map
            .iter()
            .filter_map(|(name, named)| match named {
                Named::Var(slot, ty) => Some(VarInfo {
                    name: name.clone(),
                    slot: *slot,
                    per: Per::Game,
                    ty: *ty,
                }),
                Named::VarAt(slot, ty, per) => Some(VarInfo {
                    name: name.clone(),
                    slot: *slot,
                    per: *per,
                    ty: *ty,
                }),
                _ => None,
            })
            .collect();
        let recursive = self.functions(&mut names)?;

        let stacks = self.setup(&board, &kinds, &players, &params)?;
        let phases = self.phases(&names)?;
        let (plies_per_turn, stuck, most) = self.turns(&names)?;
        let actions = f
            .actions
            .iter()
            .map(|a| self.action(a, &names, &phases))
            .collect::<Result<Vec<_>, _>>()?;
        let score = f
            .scoring
            .as_ref()
            .map(|s| self.score(&s.score, &names))
            .transpose()?;
        let eval = f
            .eval
            .as_ref()
            .map(|e| self.typed(&e.score, &names, Type::Int))
            .transpose()?;
        let shown_height = f
            .board
            .shown_height
            .as_ref()
            .map(|code| self.cell_number(code, &names, "here"))
            .transpose()?;
        let ends = f
            .end
            .iter()
            .map(|e| self.end_rule(e, &names, score.is_some()))
            .collect::<Result<Vec<_>, _>>()?;
        let stuck_rules = f
            .stuck
            .iter()
            .map(|e| self.end_rule(e, &names, score.is_some()))
            .collect::<Result<Vec<_>, _>>()?;
        let eval_cutoff = match f.eval.as_ref().and_then(|e| e.cutoff.as_ref()) {
            None => Some(DEFAULT_EVAL_CUTOFF),
            Some(n) if *n.get_ref() == 0 => None,
            Some(n) if (1..=MOST_EVAL_CUTOFF as i64).contains(n.get_ref()) => {
                Some(*n.get_ref() as u32)
            }
            Some(n) => {
                return Err(self.at(
                    n.span(),
                    format!(
                        "cutoff must be a whole number from 0 (full playouts) to {MOST_EVAL_CUTOFF}"
                    ),
                    "out of range",
                ));
            }
        };
        let max_plies = match &f.game.max_plies {
            None => Some(DEFAULT_MAX_PLIES),
            Some(m) if (1..=i64::from(MOST_PLIES)).contains(m.get_ref()) => {
                Some(*m.get_ref() as u32)
            }
            Some(m) => {
                return Err(self.at(
                    m.span(),
                    format!("max_plies must be a whole number from 1 to {MOST_PLIES}"),
                    "out of range",
                ));
            }
        };
        if players.len() > 32 {
            return Err(self.at(
                seat_names[32].1.clone(),
                "a game has at most 32 players",
                "one too many",
            ));
        }
        board.forward = self.forwards(&players)?;
        let initial = State::new(stacks, vars, players.len(), kinds.len());
        let sifted = most.is_some() || actions.iter().any(|a| a.merge_routes);
        let mut game = Game {
            // Printed by every command: escaped once here, so no control character of the
            // file reaches the terminal.
            name: printable(&f.game.name).into_owned(),
            rules: printable_lines(&f.game.rules).into_owned(),
            params,
            players,
            board,
            draw_lines: f.board.lines,
            shown_height,
            kinds,
            phases: phases.into_iter().map(|(_, p)| p).collect(),
            plies_per_turn,
            stuck,
            most,
            sifted,
            actions,
            ends,
            stuck_rules,
            score,
            score_unit: self.score_unit()?,
            eval,
            eval_cutoff,
            max_plies,
            vars: var_info,
            position_text: None,
            turn_vars: (turn_first, turn_inits),
            initial,
            start_position: None,
            ran_away: OnceLock::new(),
            recursive,
            draw: Draw::Auto,
            routes: OnceLock::new(),
        };
        // The reference keeps steps as the file writes them.
        let closures = self.reference.is_none();
        sets::optimise(&mut game, closures);
        let shapes: Vec<HeadShape> = (game.actions.iter())
            .map(|action| HeadShape::of(&action.parts, |d| game.fixed_slots(d)))
            .collect();
        let heights = game.initial.of_height(0).is_some();
        for (action, shape) in game.actions.iter_mut().zip(shapes) {
            action.shape = shape;
            action.precheck = Precheck::of(&action.parts);
            action.overlay = Overlay::of(&action.parts, action.tail_bound(2), heights);
            // The reference asks every check after its move, as written.
            let frame = &mut action.frame;
            action.compiled = (action.parts.iter())
                .map(|part| PartCode {
                    before: closures.then(|| CheckBefore::of(part, frame)).flatten(),
                    ..PartCode::default()
                })
                .collect();
        }
        match self.reference {
            None => closures::compile_game(&mut game),
            Some(make) => {
                let lowering = make(&game);
                closures::lower_game(&mut game, &*lowering);
                for action in &mut game.actions {
                    action.compile_chains(false, &*lowering);
                }
            }
        }
        game.position_text = (f.position_text.as_ref())
            .map(|spec| self.position_text(spec, &game))
            .transpose()?;
        // The first player is subject to the stuck rule like any other.
        let mut initial = game.initial.clone();
        game.settle(&mut initial);
        game.initial = initial;
        Ok(game)
    }
}

impl Compiler<'_> {
    /// `[position_text]` checked against the game: a single character per symbol that is
    /// not a digit, `/` or a space (the board field must read back), a text per seat,
    /// and variables of the types each field writes.
    fn position_text(
        &self,
        spec: &schema::PositionTextSpec,
        game: &Game,
    ) -> Result<PositionText, Box<Diagnostic>> {
        let header = self.find_key("position_text", 0..0);
        for kind in &game.kinds {
            if let Some(bad) = (kind.symbols.iter()).find(|s| {
                s.chars().count() != 1
                    || s.contains(|c: char| {
                        c.is_ascii_digit() || c.is_whitespace() || "/.+*@=#;-".contains(c)
                    })
            }) {
                return Err(self.at(
                    header,
                    format!(
                        "the symbol `{bad}` of `{}` cannot be written in a position text",
                        kind.name
                    ),
                    "a position text needs one character per symbol, not a digit, a space or one of / . + * @ = # ; -",
                ));
            }
        }
        let mut fields = Vec::new();
        for field in &spec.fields {
            let at = field.span();
            let f = field.get_ref();
            let fail = |message: String| self.at(at.clone(), message, "in this field");
            let var = |name: &str, ty: Type| -> Result<TextVar, Box<Diagnostic>> {
                let (slot, found) = game.var_slot(name).map_err(&fail)?;
                if found != ty {
                    return Err(fail(format!(
                        "`{name}` holds {found}, this field writes {ty}"
                    )));
                }
                Ok(TextVar {
                    name: name.trim().to_string(),
                    slot,
                })
            };
            let given = usize::from(f.mover.is_some())
                + usize::from(f.flags.is_some())
                + usize::from(f.cell.is_some())
                + usize::from(f.since.is_some())
                + usize::from(f.round);
            if given != 1 {
                return Err(fail(
                    "a field is one of `mover`, `flags`, `cell`, `since` or `round = true`".into(),
                ));
            }
            fields.push(if let Some(mover) = &f.mover {
                let texts = (game.players.iter())
                    .map(|p| {
                        (mover.get(p).cloned())
                            .filter(|t| !t.is_empty() && !t.contains(char::is_whitespace))
                            .ok_or_else(|| fail(format!("`mover` needs a word for `{p}`")))
                    })
                    .collect::<Result<_, _>>()?;
                TextField::Mover(texts)
            } else if let Some(flags) = &f.flags {
                let mut out = Vec::new();
                for (letter, name) in flags {
                    let mut chars = letter.chars();
                    let (Some(c), None) = (chars.next(), chars.next()) else {
                        return Err(fail(format!("`{letter}`: a flag is one letter")));
                    };
                    if c == '-' || c.is_whitespace() || out.iter().any(|&(o, _)| o == c) {
                        return Err(fail(format!(
                            "`{letter}`: a flag's letter is unique, not `-`"
                        )));
                    }
                    out.push((c, var(name, Type::Bool)?));
                }
                TextField::Flags(out)
            } else if let Some(name) = &f.cell {
                TextField::Cell(var(name, Type::Cell)?)
            } else if let Some(name) = &f.since {
                TextField::Since(var(name, Type::Int)?)
            } else {
                TextField::Round
            });
        }
        Ok(PositionText { fields })
    }
}

/// Whether `s` is a valid name in the language.
fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && parser::parse_expression(s)
            .is_ok_and(|e| matches!(e.kind, crate::lang::ast::ExprKind::Name(_)))
}

/// The words of `text` split at whitespace, each with the byte offset where it starts.
fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_whitespace()
        .map(move |w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
}

/// Adds a help line to a boxed diagnostic.
trait WithHelpBox {
    fn with_help_box(self, help: &str) -> Self;
}

impl WithHelpBox for Box<Diagnostic> {
    fn with_help_box(mut self, help: &str) -> Self {
        self.help.push(help.to_string());
        self
    }
}

/// The players of a game and the parameters it was compiled with, for summaries.
pub fn summary(game: &Game) -> String {
    let params: Vec<String> = game
        .params
        .iter()
        .map(|p| format!("{}={}", p.name, p.text()))
        .collect();
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let mut s = format!(
        "{}: {} ({}), {}, {}",
        game.name,
        count(game.players.len(), "player"),
        game.players.join(", "),
        count(game.board.cell_count(), "cell"),
        count(game.actions.len(), "action")
    );
    if game.board.has_places() {
        let (edges, points) = (game.board.edges().len(), game.board.points().len());
        s.push_str(&format!(", {edges} edges, {points} points"));
    }
    if !params.is_empty() {
        s.push_str(&format!(", params {}", params.join(" ")));
    }
    s
}
