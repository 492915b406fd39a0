//! The compiler: from a parsed game file and parameter values to a [`Game`] ready to play.
//!
//! Parameters are fixed first, so board sizes, seat lists and setups are computed once;
//! then every expression is parsed, name-resolved and type-checked. Any mistake becomes a
//! [`Diagnostic`] pointing into the file.

mod check;
mod constant;
mod sets;

use std::ops::Range;

use smallvec::SmallVec;
use toml::Spanned;

use crate::engine::board::{self, Board, DIRECTION_SETS, DIRECTIONS, MAX_SIDE};
use crate::engine::game::{Game, KindInfo, ParamValue, VarInfo};
use crate::engine::natives;
use crate::engine::program::{
    Action, Choice, EndResult, EndRule, Node, NotationCase, NotationPiece, Part, Phase, Repeat,
    Standalone, Stuck,
};
use crate::engine::state::{NEUTRAL, Piece, State};
use crate::lang::ast::{Binding, Expr, Name, Span};
use crate::lang::parser;
use crate::lang::types::Type;
use crate::render::text::{printable, printable_lines};
use crate::spec::diag::Diagnostic;
use crate::spec::schema::Code;
use crate::spec::{Source, schema};
use check::{Named, Names, Scope};
use constant::{Const, Env};

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
        e.help(format!("names that exist here: {}", existing.join(", ")))
    }
}

/// The existing name closest to `name`, if it is close enough to be a likely typo.
fn nearest<'a>(name: &str, existing: &'a [String]) -> Option<&'a String> {
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

/// Compiles a loaded file with `--param NAME=VALUE` overrides.
pub fn compile(src: &Source, overrides: &[(String, String)]) -> Result<Game, Box<Diagnostic>> {
    Compiler { src }.run(overrides)
}

struct Compiler<'s> {
    src: &'s Source,
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
        let board = self.board(&params)?;
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
            declare(
                name,
                Named::Const(i as i64, Type::Kind),
                span_range(&spec.symbol),
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
        let mut vars = Vec::new();
        for (name, v) in &f.vars.global {
            let (init, ty) = self.var_init(v, &env, &names)?;
            declare(
                &mut names,
                name,
                Named::Var(vars.len() as u16, ty),
                v.span(),
            )?;
            vars.push(init);
        }
        for (name, v) in &f.vars.player {
            let (init, ty) = self.var_init(v, &env, &names)?;
            let slot = vars.len() as u16;
            declare(&mut names, name, Named::PlayerVar(slot, ty), v.span())?;
            vars.extend(std::iter::repeat_n(init, players.len()));
        }
        let turn_first = vars.len();
        for (name, v) in &f.vars.turn {
            let (init, ty) = self.var_init(v, &env, &names)?;
            declare(
                &mut names,
                name,
                Named::Var(vars.len() as u16, ty),
                v.span(),
            )?;
            vars.push(init);
        }
        let turn_inits = vars[turn_first..].to_vec();
        let var_info = names
            .map
            .iter()
            .filter_map(|(name, named)| match named {
                Named::Var(slot, ty) => Some(VarInfo {
                    name: name.clone(),
                    slot: *slot,
                    per_player: false,
                    ty: *ty,
                }),
                Named::PlayerVar(slot, ty) => Some(VarInfo {
                    name: name.clone(),
                    slot: *slot,
                    per_player: true,
                    ty: *ty,
                }),
                _ => None,
            })
            .collect();
        self.functions(&mut names)?;

        let stacks = self.setup(&board, &kinds, &players, &params)?;
        let phases = self.phases(&names)?;
        let (plies_per_turn, stuck) = self.turns(&names)?;
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
        let max_plies = match &f.game.max_plies {
            None => Some(DEFAULT_MAX_PLIES),
            Some(m) if (1..=u32::MAX as i64).contains(m.get_ref()) => Some(*m.get_ref() as u32),
            Some(m) => {
                return Err(self.at(
                    m.span(),
                    format!("max_plies must be a whole number from 1 to {}", u32::MAX),
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
        let forward = self.forwards(&players)?;
        let initial = State::new(stacks, vars, players.len(), kinds.len());
        let mut game = Game {
            // Printed by every command: escaped once here, so no control character of the
            // file reaches the terminal.
            name: printable(&f.game.name).into_owned(),
            rules: printable_lines(&f.game.rules).into_owned(),
            params,
            players,
            forward,
            board,
            draw_lines: f.board.lines,
            shown_height,
            kinds,
            phases: phases.into_iter().map(|(_, p)| p).collect(),
            plies_per_turn,
            stuck,
            actions,
            ends,
            stuck_rules,
            score,
            eval,
            max_plies,
            vars: var_info,
            turn_vars: (turn_first, turn_inits),
            initial,
            start_position: None,
        };
        sets::optimise(&mut game);
        // The first player is subject to the stuck rule like any other.
        let mut initial = game.initial.clone();
        game.settle(&mut initial);
        game.initial = initial;
        Ok(game)
    }

    fn params(&self, overrides: &[(String, String)]) -> Result<Vec<ParamValue>, Box<Diagnostic>> {
        let f = &self.src.file;
        for (name, _) in overrides {
            if !f.params.contains_key(name) {
                let known: Vec<&str> = f.params.keys().map(String::as_str).collect();
                return Err(Box::new(
                    Diagnostic::plain(self.path(), format!("unknown parameter `{name}`"))
                        .with_help(if known.is_empty() {
                            "this game has no parameters".to_string()
                        } else {
                            format!("parameters of this game: {}", known.join(", "))
                        }),
                ));
            }
        }
        let mut params = Vec::new();
        for (name, spec) in &f.params {
            let (default, is_bool) = match spec.default.get_ref() {
                toml::Value::Integer(i) => (*i, false),
                toml::Value::Boolean(b) => (*b as i64, true),
                _ => {
                    return Err(self.at(
                        spec.default.span(),
                        "a parameter's default must be a whole number or true/false",
                        "expected a number or a boolean",
                    ));
                }
            };
            let (min, max) = (
                spec.min.as_ref().map(|m| *m.get_ref()),
                spec.max.as_ref().map(|m| *m.get_ref()),
            );
            if let (Some(lo), Some(hi)) = (&spec.min, &spec.max)
                && lo.get_ref() > hi.get_ref()
            {
                return Err(self.at(
                    lo.span(),
                    format!(
                        "parameter `{name}` has `min` {} above its `max` {}: no value fits",
                        lo.get_ref(),
                        hi.get_ref()
                    ),
                    "greater than `max`",
                ));
            }
            let range = match (min, max) {
                (Some(a), Some(b)) => format!("from {a} to {b}"),
                (Some(a), None) => format!("at least {a}"),
                (None, Some(b)) => format!("at most {b}"),
                (None, None) => String::new(),
            };
            let out_of_range = |v: i64| min.is_some_and(|m| v < m) || max.is_some_and(|m| v > m);
            if out_of_range(default) {
                return Err(self.at(
                    spec.default.span(),
                    format!(
                        "the default of parameter `{name}`, {default}, is out of its range: it \
                         must be {range}"
                    ),
                    "outside `min` and `max`",
                ));
            }
            let given = overrides.iter().rev().find(|(n, _)| n == name);
            let value = match given {
                None => default,
                Some((_, text)) => {
                    let parsed = if is_bool {
                        match text.trim() {
                            "true" | "on" | "yes" | "1" => Some(1),
                            "false" | "off" | "no" | "0" => Some(0),
                            _ => None,
                        }
                    } else {
                        text.trim().parse::<i64>().ok()
                    };
                    parsed.ok_or_else(|| {
                        Box::new(Diagnostic::plain(
                            self.path(),
                            format!(
                                "parameter `{name}` must be {}, not `{text}`",
                                if is_bool {
                                    "true or false"
                                } else {
                                    "a whole number"
                                }
                            ),
                        ))
                    })?
                }
            };
            if out_of_range(value) {
                return Err(Box::new(Diagnostic::plain(
                    self.path(),
                    format!("parameter `{name}` = {value} is out of range: it must be {range}"),
                )));
            }
            params.push(ParamValue {
                name: name.clone(),
                value,
                is_bool,
            });
        }
        for (name, spec) in &f.params {
            if let Some(check) = &spec.check {
                let env = ConstEnv {
                    params: &params,
                    cell: None,
                };
                match self.constant(check, &env)? {
                    Const::Bool(true) => {}
                    Const::Bool(false) => {
                        let p = params.iter().find(|p| &p.name == name).expect("param");
                        let mut d = Diagnostic::at(
                            self.path(),
                            &self.src.text,
                            check.span(),
                            format!("parameter `{name}` = {} fails its check", p.text()),
                            "this condition is false",
                        );
                        if !spec.doc.is_empty() {
                            d = d.with_help(format!("{name}: {}", spec.doc));
                        }
                        return Err(Box::new(d));
                    }
                    Const::Int(_) => {
                        return Err(self.at(
                            check.span(),
                            "a parameter check must be a condition",
                            "this is a number",
                        ));
                    }
                }
            }
        }
        Ok(params)
    }

    #[allow(clippy::type_complexity)]
    fn players(
        &self,
        env: &ConstEnv,
    ) -> Result<(Vec<String>, Vec<(String, Range<usize>)>), Box<Diagnostic>> {
        let mut present = Vec::new();
        let mut seats = Vec::new();
        for p in &self.src.file.players {
            let name = p.name.get_ref().clone();
            if !is_name(&name) {
                return Err(self.at(
                    p.name.span(),
                    format!("`{name}` is not a valid player name"),
                    "use lower-case letters, digits and _",
                ));
            }
            if seats.iter().any(|(n, _)| *n == name) {
                return Err(self.at(
                    p.name.span(),
                    format!("player `{name}` is declared twice"),
                    "second declaration",
                ));
            }
            let here = match &p.present {
                None => true,
                Some(code) => match self.constant(code, env)? {
                    Const::Bool(b) => b,
                    Const::Int(_) => {
                        return Err(self.at(
                            code.span(),
                            "`present` must be a condition",
                            "this is a number",
                        ));
                    }
                },
            };
            if here {
                present.push(name.clone());
            }
            seats.push((name, p.name.span()));
        }
        if present.is_empty() {
            return Err(Box::new(
                Diagnostic::plain(self.path(), "no player takes part with these parameters")
                    .with_help("declare players with [[players]] name = \"...\""),
            ));
        }
        Ok((present, seats))
    }

    /// Each present player's forward direction (`forward` in `[[players]]`), or none.
    fn forwards(&self, players: &[String]) -> Result<Vec<i64>, Box<Diagnostic>> {
        players
            .iter()
            .map(|name| {
                let spec = self
                    .src
                    .file
                    .players
                    .iter()
                    .find(|p| p.name.get_ref() == name);
                match spec.and_then(|p| p.forward.as_ref()) {
                    None => Ok(board::NONE_DIRECTION),
                    Some(dir) => board::direction_index(dir.get_ref().trim())
                        .map(|d| d as i64)
                        .ok_or_else(|| {
                            self.at(
                                dir.span(),
                                format!("`{}` is not a direction", dir.get_ref()),
                                "not a direction",
                            )
                            .with_help_box("directions: n, ne, e, se, s, sw, w, nw")
                        }),
                }
            })
            .collect()
    }

    fn board(&self, params: &[ParamValue]) -> Result<Board, Box<Diagnostic>> {
        let spec = &self.src.file.board;
        let env = ConstEnv { params, cell: None };
        let files = self.number(&spec.files, &env, "`files`")?;
        let ranks = self.number(&spec.ranks, &env, "`ranks`")?;
        for (v, span) in [(files, spec.files.span()), (ranks, spec.ranks.span())] {
            if !(1..=MAX_SIDE).contains(&v) {
                return Err(self.at(
                    span,
                    format!("a board side must be from 1 to {MAX_SIDE}, not {v}"),
                    "out of range",
                ));
            }
        }
        let shape = spec
            .shape
            .as_ref()
            .map(|c| self.parse_expr(c).map(|e| (c, e)))
            .transpose()?;
        let mut error = None;
        let mut board = Board::new(files as u8, ranks as u8, |file, rank| {
            let Some((code, e)) = &shape else { return true };
            let env = ConstEnv {
                params,
                cell: Some((file as i64, rank as i64)),
            };
            match constant::eval(e, &env) {
                Ok(Const::Bool(b)) => b,
                Ok(Const::Int(_)) => {
                    error.get_or_insert_with(|| {
                        self.at(
                            code.span(),
                            "the board shape must be a condition",
                            "this is a number",
                        )
                    });
                    false
                }
                Err(err) => {
                    error.get_or_insert_with(|| self.lang(code, err));
                    false
                }
            }
        });
        if let Some(e) = error {
            return Err(e);
        }
        if board.is_empty() {
            let span = spec.shape.as_ref().map_or(spec.files.span(), |s| s.span());
            return Err(self.at(span, "the board has no cells", "no cell passes this shape"));
        }
        board.hexagonal = spec.hexagonal;
        let allowed = if spec.hexagonal {
            board::HEXAGONAL
        } else {
            board::ALL_DIRECTIONS
        };
        let Some(links) = &spec.links else {
            for cell in 0..board.len() as board::CellId {
                for d in (0..DIRECTIONS.len()).filter(|d| allowed & (1 << d) != 0) {
                    if let Some(to) = board.neighbour(cell, d) {
                        // A cell has no link yet, so this cannot clash.
                        let _ = board.link(cell, d, to);
                    }
                }
            }
            return Ok(board);
        };
        for entry in links {
            let link = entry.get_ref();
            match (&link.dirs, &link.join) {
                (Some(dirs), None) => {
                    self.grid_links(&mut board, dirs, link.where_.as_ref(), params, allowed)?
                }
                (None, Some(join)) => {
                    if let Some(code) = &link.where_ {
                        return Err(self.at(
                            code.span(),
                            "a `join` entry takes no `where`",
                            "the lines of `join` name their cells",
                        ));
                    }
                    self.join(&mut board, join, allowed)?;
                }
                (dirs, _) => {
                    return Err(self
                        .at(
                            entry.span(),
                            "every entry of `links` has either `dirs` or `join`",
                            if dirs.is_some() {
                                "both here"
                            } else {
                                "neither here"
                            },
                        )
                        .with_help_box(
                            "`{ dirs = \"orthogonal\" }` links grid neighbours; \
                             `{ join = [\"a1 d1 g1\"] }` links the cells of a line",
                        ));
                }
            }
        }
        Ok(board)
    }

    /// Adds the links of a `{ dirs, where }` entry: from each cell for which `where` holds,
    /// in each of the directions, to its grid neighbour.
    fn grid_links(
        &self,
        board: &mut Board,
        dirs: &Code,
        where_: Option<&Code>,
        params: &[ParamValue],
        allowed: u8,
    ) -> Result<(), Box<Diagnostic>> {
        let name = dirs.get_ref().trim();
        let mask = match DIRECTION_SETS.iter().find(|(n, _)| *n == name) {
            // On a hexagonal board the sets mean the directions it has.
            Some((_, set)) => set & allowed,
            None => {
                let d = board::direction_index(name).ok_or_else(|| {
                    self.at(dirs.span(), format!("unknown direction or set `{name}`"), "not a direction")
                        .with_help_box("directions: n, ne, e, se, s, sw, w, nw; sets: orthogonal, diagonal, all_directions")
                })?;
                if allowed & (1 << d) == 0 {
                    return Err(self
                        .at(
                            dirs.span(),
                            format!("a hexagonal board has no direction `{name}`"),
                            "not one of its six directions",
                        )
                        .with_help_box(
                            "the six directions of a hexagonal board: n, ne, e, s, sw, w",
                        ));
                }
                1 << d
            }
        };
        let cond = where_
            .map(|c| self.parse_expr(c).map(|e| (c, e)))
            .transpose()?;
        for cell in 0..board.len() as board::CellId {
            let (file, rank) = board.coords[cell as usize];
            if let Some((code, e)) = &cond {
                let env = ConstEnv {
                    params,
                    cell: Some((file as i64, rank as i64)),
                };
                match constant::eval(e, &env).map_err(|err| self.lang(code, err))? {
                    Const::Bool(true) => {}
                    Const::Bool(false) => continue,
                    Const::Int(_) => {
                        return Err(self.at(
                            code.span(),
                            "a link condition must be a condition",
                            "this is a number",
                        ));
                    }
                }
            }
            for d in (0..DIRECTIONS.len()).filter(|d| mask & (1 << d) != 0) {
                if let Some(to) = board.neighbour(cell, d) {
                    board
                        .link(cell, d, to)
                        .map_err(|other| self.two_links(dirs.span(), board, cell, d, other, to))?;
                }
            }
        }
        Ok(())
    }

    /// Adds the links of a `{ join }` entry: in each line, each cell is linked to the next
    /// one and back, in the direction in which it lies.
    fn join(
        &self,
        board: &mut Board,
        lines: &Spanned<Vec<Spanned<String>>>,
        allowed: u8,
    ) -> Result<(), Box<Diagnostic>> {
        if lines.get_ref().is_empty() {
            return Err(self.at(
                lines.span(),
                "`join` lists no line",
                "give lines of cells, such as [\"a1 d1 g1\"]",
            ));
        }
        for line in lines.get_ref() {
            let text = line.get_ref();
            // Each cell named, with where its name stands in the file.
            let mut cells = Vec::new();
            for (offset, name) in words(text) {
                let span = self.inside(line, offset..offset + name.len());
                let cell = board.find(name).ok_or_else(|| {
                    self.at(
                        span.clone(),
                        format!("no cell `{name}` on this board"),
                        "not a cell of the board",
                    )
                })?;
                cells.push((cell, span));
            }
            if cells.len() < 2 {
                return Err(self.at(
                    line.span(),
                    "a line of `join` names at least two cells",
                    "such as \"a1 d1 g1\"",
                ));
            }
            for pair in cells.windows(2) {
                let ((from, first), (to, second)) = (pair[0].clone(), pair[1].clone());
                let both = first.start..second.end;
                let name = |c: board::CellId| board.names[c as usize].clone();
                if from == to {
                    return Err(self.at(
                        second,
                        format!("`{}` is joined to itself", name(from)),
                        "the same cell twice in a row",
                    ));
                }
                let Some(dir) = board.direction_between(from, to) else {
                    return Err(self
                        .at(
                            both,
                            format!(
                                "`{}` and `{}` are not on one file, rank or diagonal",
                                name(from),
                                name(to)
                            ),
                            "no direction leads from one to the other",
                        )
                        .with_help_box(
                            "a link goes in one of the eight directions, so that `step`, \
                             `ray` and the drawing can follow it",
                        ));
                };
                let back = (dir + 4) % 8;
                if allowed & (1 << dir) == 0 {
                    return Err(self
                        .at(
                            both,
                            format!(
                                "`{}` lies to the {} of `{}`: not a direction of a hexagonal board",
                                name(to),
                                DIRECTIONS[dir].0,
                                name(from)
                            ),
                            "no link can join these two",
                        )
                        .with_help_box(
                            "the six directions of a hexagonal board: n, ne, e, s, sw, w",
                        ));
                }
                for (a, d, b) in [(from, dir, to), (to, back, from)] {
                    board
                        .link(a, d, b)
                        .map_err(|other| self.two_links(both.clone(), board, a, d, other, b))?;
                }
            }
        }
        Ok(())
    }

    /// A second link from `cell` in direction `dir` (to `new`, where `old` already is).
    fn two_links(
        &self,
        span: Range<usize>,
        board: &Board,
        cell: board::CellId,
        dir: usize,
        old: board::CellId,
        new: board::CellId,
    ) -> Box<Diagnostic> {
        let name = |c: board::CellId| &board.names[c as usize];
        self.at(
            span,
            format!(
                "`{}` would have two links to the {}: to `{}` and to `{}`",
                name(cell),
                DIRECTIONS[dir].0,
                name(old),
                name(new)
            ),
            "a cell has at most one link in each direction",
        )
        .with_help_box(
            "`step` gives one cell per direction: join the cells of a line in order \
             (\"a1 d1 g1\"), and keep grid links off joined cells with `where`",
        )
    }

    /// Where the bytes `range` of a string value stand in the file: exactly, when the
    /// string holds them unescaped, else the whole string.
    fn inside(&self, value: &Spanned<String>, range: Range<usize>) -> Range<usize> {
        let start = self.content_start(value) + range.start;
        let end = start + range.len();
        let same = self.src.text.get(start..end) == value.get_ref().get(range);
        if same { start..end } else { value.span() }
    }

    /// Declares the file's functions (`[functions.NAME]`) and checks each body on its own.
    fn functions(&self, names: &mut Names) -> Result<(), Box<Diagnostic>> {
        let specs = &self.src.file.functions;
        for (name, spec) in specs {
            let span = spec.value.span();
            let reserved = natives::lookup(name).next().is_some()
                || matches!(name.as_str(), "file" | "rank")
                || names.map.contains_key(name);
            if reserved || !is_name(name) {
                return Err(self.at(
                    span,
                    format!("`{name}` cannot name a function"),
                    if reserved {
                        "already a name in this game or the language"
                    } else {
                        "a function's name is a word (letters, digits, _)"
                    },
                ));
            }
            let mut params: Vec<(Name, Type)> = Vec::new();
            for p in &spec.params {
                let text = p.get_ref();
                let (pname, ty) = text
                    .split_once(':')
                    .map_or((text.as_str(), ""), |(a, b)| (a.trim(), b.trim()));
                let Some(ty) = Type::named(ty) else {
                    return Err(self
                        .at(
                            p.span(),
                            format!("`{text}` is not a parameter"),
                            "expected `NAME: TYPE`",
                        )
                        .with_help_box(
                            "types: number, condition, cell, player, kind, direction, directions",
                        ));
                };
                if !is_name(pname) || params.iter().any(|(n, _)| n.text == pname) {
                    return Err(self.at(
                        p.span(),
                        format!("`{pname}` cannot name a parameter here"),
                        "a word, once per function",
                    ));
                }
                params.push((
                    Name {
                        text: pname.to_string(),
                        span: Span::new(0, 0),
                    },
                    ty,
                ));
            }
            let body = self.parse_expr(&spec.value)?;
            let function = check::Function {
                name: name.clone(),
                params,
                body,
            };
            names
                .map
                .insert(name.clone(), Named::Function(std::sync::Arc::new(function)));
        }
        // Each body on its own, so that a mistake in one is shown in it even if unused.
        for (name, spec) in specs {
            let Some(Named::Function(f)) = names.map.get(name) else {
                continue;
            };
            let f = f.clone();
            for ((pname, _), p) in f.params.iter().zip(&spec.params) {
                if names.map.contains_key(&pname.text)
                    || natives::lookup(&pname.text).next().is_some()
                {
                    return Err(self.at(
                        p.span(),
                        format!(
                            "`{}` is already the name of something in this game",
                            pname.text
                        ),
                        "choose another name for this parameter",
                    ));
                }
            }
            let mut scope = Scope::new(names);
            scope.function(&f).map_err(|e| self.lang(&spec.value, e))?;
        }
        Ok(())
    }

    fn kinds(&self, players: &[String]) -> Result<Vec<KindInfo>, Box<Diagnostic>> {
        let mut kinds = Vec::new();
        for (name, spec) in &self.src.file.pieces {
            if !is_name(name) {
                return Err(self.at(
                    spec.symbol.span(),
                    format!("`{name}` is not a valid piece name"),
                    "use lower-case letters, digits and _",
                ));
            }
            let symbols = match (spec.symbol.get_ref(), spec.owned) {
                (toml::Value::String(s), false) => vec![s.clone()],
                (toml::Value::Table(t), true) => {
                    let mut v = Vec::new();
                    for p in players {
                        match t.get(p) {
                            Some(toml::Value::String(s)) => v.push(s.clone()),
                            _ => {
                                return Err(self.at(
                                    spec.symbol.span(),
                                    format!("piece `{name}` has no symbol for player `{p}`"),
                                    "add an entry for every player",
                                ));
                            }
                        }
                    }
                    v
                }
                (_, true) => {
                    return Err(self.at(
                        spec.symbol.span(),
                        format!("piece `{name}` is owned: give one symbol per player"),
                        "expected a table such as { red = \"r\", blue = \"b\" }",
                    ));
                }
                (_, false) => {
                    return Err(self.at(
                        spec.symbol.span(),
                        format!("piece `{name}` is neutral: give one symbol"),
                        "expected a string such as \"o\"",
                    ));
                }
            };
            // Digits would read as the stack height drawn after the symbol, and a control
            // character would be an instruction to the terminal.
            if symbols.iter().any(|s| {
                !(1..=2).contains(&s.chars().count())
                    || s.chars().any(|c| c.is_ascii_digit() || c.is_control())
            }) {
                return Err(self.at(
                    spec.symbol.span(),
                    "a piece symbol is one or two printable characters, not digits",
                    "too long, empty, or with a digit or a control character",
                ));
            }
            kinds.push(KindInfo {
                name: name.clone(),
                owned: spec.owned,
                symbols,
            });
        }
        if kinds.is_empty() {
            return Err(Box::new(
                Diagnostic::plain(self.path(), "the game declares no piece kinds")
                    .with_help("declare one with [pieces.NAME]"),
            ));
        }
        Ok(kinds)
    }

    fn var_init(
        &self,
        v: &Spanned<toml::Value>,
        env: &ConstEnv,
        names: &Names,
    ) -> Result<(i64, Type), Box<Diagnostic>> {
        let typed = |ty: &str| match ty {
            "cell" => Some(Type::Cell),
            "player" => Some(Type::Player),
            "kind" => Some(Type::Kind),
            "direction" => Some(Type::Dir),
            _ => None,
        };
        match v.get_ref() {
            toml::Value::Integer(i) => Ok((*i, Type::Int)),
            toml::Value::Boolean(b) => Ok((*b as i64, Type::Bool)),
            toml::Value::String(s) => match s.split_whitespace().collect::<Vec<_>>()[..] {
                [ty] if typed(ty).is_some() => Ok((-1, typed(ty).expect("a type"))),
                // `"cell e1"`: a cell, player, kind or direction given by name.
                [ty, value] if typed(ty).is_some() => {
                    let want = typed(ty).expect("a type");
                    match names.map.get(value) {
                        Some(Named::Const(v, t)) if *t == want => Ok((*v, want)),
                        _ => Err(self.at(
                            v.span(),
                            format!("`{value}` is not {want} of this game"),
                            format!("expected `{ty} NAME`"),
                        )),
                    }
                }
                _ => {
                    let code = Spanned::new(v.span(), s.clone());
                    let c = self.constant(&code, env)?;
                    Ok((c.raw(), if matches!(c, Const::Int(_)) { Type::Int } else { Type::Bool }))
                }
            },
            _ => Err(self.at(v.span(), "a variable starts as a number, true/false, an expression over the parameters, one of \"cell\", \"player\", \"kind\", \"direction\" (starting as none), or one of them with a name (\"cell e1\")", "unexpected value")),
        }
    }

    fn setup(
        &self,
        board: &Board,
        kinds: &[KindInfo],
        players: &[String],
        params: &[ParamValue],
    ) -> Result<Vec<crate::engine::state::Stack>, Box<Diagnostic>> {
        let f = &self.src.file;
        let mut stacks = vec![SmallVec::new(); board.len()];
        for entry in &f.setup {
            let kind = kinds
                .iter()
                .position(|k| k.name == *entry.put.get_ref())
                .ok_or_else(|| {
                    let names: Vec<&str> = kinds.iter().map(|k| k.name.as_str()).collect();
                    self.at(
                        entry.put.span(),
                        format!("unknown piece kind `{}`", entry.put.get_ref()),
                        "not declared under [pieces]",
                    )
                    .with_help_box(&format!("piece kinds: {}", names.join(", ")))
                })?;
            let owner = match (&entry.owner, kinds[kind].owned) {
                (Some(o), true) => {
                    let seats: Vec<&str> = f
                        .players
                        .iter()
                        .map(|p| p.name.get_ref().as_str())
                        .collect();
                    if !seats.contains(&o.get_ref().as_str()) {
                        return Err(self
                            .at(
                                o.span(),
                                format!("unknown player `{}`", o.get_ref()),
                                "not declared under [[players]]",
                            )
                            .with_help_box(&format!("players: {}", seats.join(", "))));
                    }
                    match players.iter().position(|p| p == o.get_ref()) {
                        Some(i) => i as u8,
                        None => continue, // a seat not taking part with these parameters
                    }
                }
                (None, false) => NEUTRAL,
                (None, true) => {
                    return Err(self.at(
                        entry.put.span(),
                        format!(
                            "`{}` pieces are owned: say whose with `owner`",
                            entry.put.get_ref()
                        ),
                        "needs an owner",
                    ));
                }
                (Some(o), false) => {
                    return Err(self.at(
                        o.span(),
                        format!(
                            "`{}` pieces are neutral and have no owner",
                            entry.put.get_ref()
                        ),
                        "remove this owner",
                    ));
                }
            };
            let env = ConstEnv { params, cell: None };
            let count = match &entry.count {
                None => 1,
                Some(c) => {
                    let n = self.number(c, &env, "`count`")?;
                    if !(0..=1000).contains(&n) {
                        return Err(self.at(
                            c.span(),
                            "`count` must be from 0 to 1000",
                            "out of range",
                        ));
                    }
                    n as usize
                }
            };
            let mut cells = Vec::new();
            if let Some(at) = &entry.at {
                for name in at {
                    let cell = board.find(name.get_ref()).ok_or_else(|| {
                        self.at(
                            name.span(),
                            format!("no cell `{}` on this board", name.get_ref()),
                            "not a cell of the board",
                        )
                    })?;
                    cells.push(cell);
                }
            }
            if let Some(code) = &entry.where_ {
                let e = self.parse_expr(code)?;
                for cell in 0..board.len() {
                    let (file, rank) = board.coords[cell];
                    let env = ConstEnv {
                        params,
                        cell: Some((file as i64, rank as i64)),
                    };
                    match constant::eval(&e, &env).map_err(|err| self.lang(code, err))? {
                        Const::Bool(true) => cells.push(cell as board::CellId),
                        Const::Bool(false) => {}
                        Const::Int(_) => {
                            return Err(self.at(
                                code.span(),
                                "`where` must be a condition",
                                "this is a number",
                            ));
                        }
                    }
                }
            }
            if entry.at.is_none() && entry.where_.is_none() {
                cells.extend((0..board.len()).map(|c| c as board::CellId));
            }
            for cell in cells {
                for _ in 0..count {
                    stacks[cell as usize].push(Piece::new(kind as u8, owner, 0));
                }
            }
        }
        Ok(stacks)
    }

    fn phases(&self, names: &Names) -> Result<Vec<(String, Phase)>, Box<Diagnostic>> {
        let mut out: Vec<(String, Phase)> = Vec::new();
        for p in &self.src.file.phases {
            let name = p.name.get_ref().clone();
            if out.iter().any(|(n, _)| *n == name) {
                return Err(self.at(
                    p.name.span(),
                    format!("phase `{name}` is declared twice"),
                    "second declaration",
                ));
            }
            let when = self.typed(&p.when, names, Type::Bool)?;
            out.push((name.clone(), Phase { name, when }));
        }
        Ok(out)
    }

    fn turns(&self, names: &Names) -> Result<(Standalone, Stuck), Box<Diagnostic>> {
        let t = &self.src.file.turns;
        let constant = |i| Standalone {
            node: Node::Const(i),
            frame: 0,
        };
        let plies = match &t.plies {
            None => constant(1),
            Some(v) => match v.get_ref() {
                toml::Value::Integer(i) if *i >= 1 => constant(*i),
                toml::Value::String(s) => {
                    self.typed(&Spanned::new(v.span(), s.clone()), names, Type::Int)?
                }
                _ => {
                    return Err(self.at(
                        v.span(),
                        "`plies` must be a positive number or an expression in quotes",
                        "expected a number",
                    ));
                }
            },
        };
        let passes = match t.stuck.as_ref().map(|s| (s.get_ref().as_str(), s.span())) {
            None | Some(("lose", _)) => false,
            Some(("pass", _)) => true,
            Some((other, span)) => {
                return Err(self.at(
                    span,
                    format!("unknown stuck rule `{other}`"),
                    "expected \"lose\" or \"pass\"",
                ));
            }
        };
        let all_passed = t.all_passed.as_ref();
        let scored = match all_passed.map(|s| (s.get_ref().as_str(), s.span())) {
            None => false,
            Some((_, span)) if !passes => {
                return Err(self.at(
                    span,
                    "`all_passed` needs `stuck = \"pass\"`",
                    "players who cannot play lose, so they never all pass",
                ));
            }
            Some(("draw", _)) => false,
            Some(("score", span)) => {
                if self.src.file.scoring.is_none() {
                    return Err(self.at(
                        span,
                        "`all_passed = \"score\"` needs a [scoring] table",
                        "nothing to score with",
                    ));
                }
                true
            }
            Some((other, span)) => {
                return Err(self.at(
                    span,
                    format!("unknown ending `{other}`"),
                    "expected \"draw\" or \"score\"",
                ));
            }
        };
        let stuck = if passes {
            Stuck::Pass { scored }
        } else {
            Stuck::Lose
        };
        Ok((plies, stuck))
    }

    /// Compiles a stand-alone expression of a given type, with the frame it needs.
    fn typed(&self, code: &Code, names: &Names, want: Type) -> Result<Standalone, Box<Diagnostic>> {
        let e = self.parse_expr(code)?;
        let mut scope = Scope::new(names);
        let node = scope.expect(&e, want).map_err(|err| self.lang(code, err))?;
        Ok(Standalone {
            node,
            frame: scope.frame,
        })
    }

    /// Compiles a number expression over one cell, bound to `name` in slot 0.
    fn cell_number(
        &self,
        code: &Code,
        names: &Names,
        name: &str,
    ) -> Result<Standalone, Box<Diagnostic>> {
        let e = self.parse_expr(code)?;
        let mut scope = Scope::new(names);
        let local = crate::lang::ast::Name {
            text: name.to_string(),
            span: e.span,
        };
        let node = scope
            .bind(&local, Type::Cell)
            .and_then(|_| scope.expect(&e, Type::Int))
            .map_err(|err| self.lang(code, err))?;
        Ok(Standalone {
            node,
            frame: scope.frame,
        })
    }

    fn score(&self, code: &Code, names: &Names) -> Result<Standalone, Box<Diagnostic>> {
        let e = self.parse_expr(code)?;
        let mut scope = Scope::new(names);
        let (node, ty) = scope.score(&e).map_err(|err| self.lang(code, err))?;
        if ty != Type::Int && ty != Type::IntList {
            return Err(self.lang(
                code,
                LangError::new(
                    e.span,
                    format!("a score must be a number or a sorted list of numbers, found {ty}"),
                ),
            ));
        }
        Ok(Standalone {
            node,
            frame: scope.frame,
        })
    }

    fn end_rule(
        &self,
        spec: &schema::EndSpec,
        names: &Names,
        scores: bool,
    ) -> Result<EndRule, Box<Diagnostic>> {
        let e = self.parse_expr(&spec.when)?;
        let mut scope = Scope::new(names);
        let when = scope
            .expect(&e, Type::Bool)
            .map_err(|err| self.lang(&spec.when, err))?;
        let given = [
            spec.winner.is_some(),
            spec.loser.is_some(),
            spec.result.is_some(),
        ];
        if given.iter().filter(|g| **g).count() != 1 {
            return Err(self.at(
                spec.when.span(),
                "an end rule needs exactly one of `winner`, `loser` or `result`",
                "for this rule",
            ));
        }
        let mut player = |code: &Code| -> Result<Node, Box<Diagnostic>> {
            let e = self.parse_expr(code)?;
            scope
                .expect(&e, Type::Player)
                .map_err(|err| self.lang(code, err))
        };
        let result = if let Some(w) = &spec.winner {
            EndResult::Winner(player(w)?)
        } else if let Some(l) = &spec.loser {
            EndResult::Loser(player(l)?)
        } else {
            let r = spec.result.as_ref().expect("checked above");
            match r.get_ref().as_str() {
                "draw" => EndResult::Draw,
                "score" if scores => EndResult::Score,
                "score" => {
                    return Err(self.at(
                        r.span(),
                        "`result = \"score\"` needs a [scoring] table",
                        "no score declared",
                    ));
                }
                other => {
                    return Err(self.at(
                        r.span(),
                        format!("unknown result `{other}`"),
                        "expected \"draw\" or \"score\"",
                    ));
                }
            }
        };
        Ok(EndRule {
            when,
            result,
            frame: scope.frame,
        })
    }

    fn action(
        &self,
        spec: &schema::ActionSpec,
        names: &Names,
        phases: &[(String, Phase)],
    ) -> Result<Action, Box<Diagnostic>> {
        let phase = match &spec.phase {
            None => None,
            Some(p) => Some(
                phases
                    .iter()
                    .position(|(n, _)| n == p.get_ref())
                    .ok_or_else(|| {
                        let known: Vec<&str> = phases.iter().map(|(n, _)| n.as_str()).collect();
                        self.at(
                            p.span(),
                            format!("unknown phase `{}`", p.get_ref()),
                            "not declared under [[phases]]",
                        )
                        .with_help_box(&if known.is_empty() {
                            "this game declares no phases".to_string()
                        } else {
                            format!("phases: {}", known.join(", "))
                        })
                    })?,
            ),
        };
        let mut scope = Scope::new(names);
        let mut parts = vec![self.part(
            &mut scope,
            &spec.choose,
            spec.effect.as_ref(),
            spec.check.as_ref(),
            &spec.notation,
            false,
        )?];
        for (i, p) in spec.then.iter().enumerate() {
            let mut part = self.part(
                &mut scope,
                &p.choose,
                p.effect.as_ref(),
                p.check.as_ref(),
                &p.notation,
                p.optional,
            )?;
            if let Some(repeat) = &p.repeat {
                part.repeat = match repeat.get_ref().as_str() {
                    "must" => Repeat::Must,
                    "may" => Repeat::May,
                    other => {
                        return Err(self.at(
                            repeat.span(),
                            format!("unknown repeat `{other}`"),
                            "expected \"must\" (again while it can) or \"may\"",
                        ));
                    }
                };
                let problem = if i + 1 != spec.then.len() {
                    Some("only an action's last part may repeat")
                } else if p.optional {
                    Some("a repeated part is already played zero or more times: drop `optional`")
                } else if !part.choices.iter().any(|c| matches!(c, Choice::In { .. })) {
                    Some("a repeated part needs an `in` choice, or it could repeat for ever")
                } else {
                    None
                };
                if let Some(problem) = problem {
                    return Err(self.at(repeat.span(), problem, "this part repeats"));
                }
            }
            parts.push(part);
        }
        if parts.len() > 8 {
            return Err(self.at(
                spec.name.span(),
                "an action has at most 8 parts",
                "too many parts",
            ));
        }
        let fixed = parts
            .first()
            .map_or(0, crate::engine::program::Part::fixed_choices);
        Ok(Action {
            name: spec.name.get_ref().clone(),
            phase,
            fallback: spec.fallback,
            parts,
            frame: scope.frame,
            fixed,
        })
    }

    fn part(
        &self,
        scope: &mut Scope,
        choose: &[Code],
        effect: Option<&Code>,
        check: Option<&Code>,
        notation: &schema::NotationSpec,
        optional: bool,
    ) -> Result<Part, Box<Diagnostic>> {
        let mut choices = Vec::new();
        // The names chosen so far in this part.
        let mut earlier: Vec<u16> = Vec::new();
        for code in choose {
            let b = parser::parse_binding(code.get_ref()).map_err(|e| self.syntax(code, e))?;
            let c = match b {
                Binding::In {
                    var,
                    domain,
                    filter,
                } => {
                    let (dom, elem) = scope.domain(&domain).map_err(|e| self.lang(code, e))?;
                    let slot = scope.bind(&var, elem).map_err(|e| self.lang(code, e))?;
                    let filter = filter
                        .map(|f| scope.expect(&f, Type::Bool))
                        .transpose()
                        .map_err(|e| self.lang(code, e))?;
                    let invariant = !dom.reads_any(&earlier)
                        && !filter.as_ref().is_some_and(|f| f.reads_any(&earlier));
                    earlier.push(slot);
                    Choice::In {
                        slot,
                        domain: dom,
                        filter,
                        invariant,
                        bound: Default::default(),
                    }
                }
                Binding::Let { var, value } => {
                    let (node, ty) = scope.expr(&value).map_err(|e| self.lang(code, e))?;
                    let slot = scope.bind(&var, ty).map_err(|e| self.lang(code, e))?;
                    earlier.push(slot);
                    Choice::Let(slot, node)
                }
                Binding::Where(cond) => Choice::Where(
                    scope
                        .expect(&cond, Type::Bool)
                        .map_err(|e| self.lang(code, e))?,
                ),
            };
            choices.push(c);
        }
        let effect = match effect {
            None => Vec::new(),
            Some(code) => {
                let stmts =
                    parser::parse_statements(code.get_ref()).map_err(|e| self.syntax(code, e))?;
                scope.statements(&stmts).map_err(|e| self.lang(code, e))?
            }
        };
        let check = check
            .map(|code| {
                let e = self.parse_expr(code)?;
                scope
                    .expect(&e, Type::Bool)
                    .map_err(|err| self.lang(code, err))
            })
            .transpose()?;
        let notation = self
            .notation_cases(notation)?
            .into_iter()
            .map(|(when, text)| {
                let when = when
                    .map(|code| {
                        let e = self.parse_expr(&code)?;
                        scope
                            .expect(&e, Type::Bool)
                            .map_err(|err| self.lang(&code, err))
                    })
                    .transpose()?;
                Ok(NotationCase {
                    when,
                    pieces: self.notation(scope, &text)?,
                })
            })
            .collect::<Result<Vec<_>, Box<Diagnostic>>>()?;
        Ok(Part {
            choices,
            effect,
            check,
            notation,
            optional,
            repeat: Repeat::Once,
            edits: None,
        })
    }

    /// A part's `notation` as (condition, template) cases: a string is one case that
    /// always holds; a list holds `{ when = COND, text = TEMPLATE }` tables. Each string
    /// keeps its place in the file, found in the text of the list.
    fn notation_cases(
        &self,
        spec: &schema::NotationSpec,
    ) -> Result<Vec<(Option<Code>, Code)>, Box<Diagnostic>> {
        let span = spec.span();
        let wrong = |label: &str| {
            self.at(
                span.clone(),
                "a notation is a template string, or a list of { when = COND, text = TEMPLATE } tables",
                label,
            )
        };
        match spec.get_ref() {
            toml::Value::String(s) => Ok(vec![(None, Spanned::new(span.clone(), s.clone()))]),
            toml::Value::Array(cases) => {
                let mut from = span.start;
                let mut out = Vec::new();
                for case in cases {
                    let toml::Value::Table(table) = case else {
                        return Err(wrong("expected a table in the list"));
                    };
                    if let Some(key) = table
                        .keys()
                        .find(|k| !matches!(k.as_str(), "when" | "text"))
                    {
                        return Err(wrong(&format!("unknown key `{key}`")));
                    }
                    let mut string = |key: &str| -> Result<Option<Code>, Box<Diagnostic>> {
                        match table.get(key) {
                            None => Ok(None),
                            Some(toml::Value::String(s)) => {
                                let at = self.find_string(span.clone(), from, s);
                                from = at.end;
                                Ok(Some(Spanned::new(at, s.clone())))
                            }
                            Some(_) => Err(wrong(&format!("`{key}` must be a string"))),
                        }
                    };
                    let when = string("when")?;
                    let Some(text) = string("text")? else {
                        return Err(wrong("a case needs a `text`"));
                    };
                    out.push((when, text));
                }
                if out.is_empty() {
                    return Err(wrong("an empty list"));
                }
                Ok(out)
            }
            _ => Err(wrong("expected a string or a list")),
        }
    }

    /// Where the table header `[KEY]` is written in the file (`fallback` if it cannot be
    /// found): what a mistake in a table's name points at.
    fn find_key(&self, key: &str, fallback: Range<usize>) -> Range<usize> {
        let header = format!("[{key}]");
        self.src
            .text
            .find(&header)
            .map_or(fallback, |i| i + 1..i + 1 + key.len())
    }

    /// Where the string literal holding `content` is, searching the file's text within
    /// `within` from `from` (the whole range if it cannot be found).
    fn find_string(&self, within: Range<usize>, from: usize, content: &str) -> Range<usize> {
        let text = &self.src.text;
        let end = within.end.min(text.len());
        let start = from.clamp(within.start, end);
        text[start..end]
            .find(content)
            .map(|i| start + i)
            .filter(|&i| i > 0 && matches!(text.as_bytes()[i - 1], b'\'' | b'"'))
            .map_or(within, |i| i - 1..i + content.len() + 1)
    }

    /// Parses a notation template: literal text with `{name}` for bound values.
    fn notation(&self, scope: &Scope, code: &Code) -> Result<Vec<NotationPiece>, Box<Diagnostic>> {
        let text = code.get_ref();
        let mut pieces = Vec::new();
        let mut literal = String::new();
        let mut chars = text.char_indices().peekable();
        while let Some((i, ch)) = chars.next() {
            match ch {
                '{' if chars.peek().map(|c| c.1) == Some('{') => {
                    chars.next();
                    literal.push('{');
                }
                '}' if chars.peek().map(|c| c.1) == Some('}') => {
                    chars.next();
                    literal.push('}');
                }
                '{' => {
                    let close = text[i..].find('}').map(|j| i + j).ok_or_else(|| {
                        self.lang(
                            code,
                            LangError::new(Span::new(i, i + 1), "unclosed `{` in notation")
                                .label("write `{{` for a literal brace"),
                        )
                    })?;
                    let name = text[i + 1..close].trim();
                    let (ty, slot) = scope.local(name).ok_or_else(|| {
                        self.lang(
                            code,
                            LangError::new(
                                Span::new(i, close + 1),
                                format!("`{name}` is not bound in this action"),
                            )
                            .label("a notation prints names bound by `choose`"),
                        )
                    })?;
                    if !literal.is_empty() {
                        pieces.push(NotationPiece::Text(std::mem::take(&mut literal)));
                    }
                    pieces.push(NotationPiece::Value(slot, ty));
                    while chars.peek().is_some_and(|c| c.0 <= close) {
                        chars.next();
                    }
                }
                '}' => {
                    return Err(self.lang(
                        code,
                        LangError::new(Span::new(i, i + 1), "unmatched `}` in notation")
                            .label("write `}}` for a literal brace"),
                    ));
                }
                c => literal.push(c),
            }
        }
        if !literal.is_empty() {
            pieces.push(NotationPiece::Text(literal));
        }
        // Ply texts are printed everywhere: a control character in the template is kept
        // escaped, as the text a person sees and types.
        for piece in &mut pieces {
            if let NotationPiece::Text(t) = piece {
                *t = printable(t).into_owned();
            }
        }
        Ok(pieces)
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
        count(game.board.len(), "cell"),
        count(game.actions.len(), "action")
    );
    if !params.is_empty() {
        s.push_str(&format!(", params {}", params.join(" ")));
    }
    s
}
