//! `[pieces]`, `[vars]` initial values and `[[setup]]`: the piece kinds and their
//! symbols, and the stacks before the first ply.

use super::*;

/// How a variable starts: one value, or a value per seat or per kind.
enum Start<'t> {
    Same(i64),
    BySeat(BTreeMap<&'t str, i64>),
    ByKind(BTreeMap<&'t str, i64>),
}

impl Compiler<'_> {
    pub(super) fn kinds(&self, players: &[String]) -> Result<Vec<KindInfo>, Box<Diagnostic>> {
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
            // Digits would read as the stack height drawn after the symbol, a control
            // character would be an instruction to the terminal, and the others are the
            // syntax of a diagram (`o*3+W@4`, `/`, `#`, `=`) or the links of a drawn board.
            if symbols.iter().any(|s| {
                !(1..=2).contains(&s.chars().count())
                    || s.chars().any(|c| {
                        c.is_ascii_digit()
                            || c.is_control()
                            || c.is_whitespace()
                            || DIAGRAM_SYNTAX.contains(c)
                    })
            }) {
                return Err(self.at(
                    spec.symbol.span(),
                    "a piece symbol is one or two printable characters, not digits",
                    format!(
                        "too long, empty, or with a digit, a space, a control character or one of {}, which diagrams read otherwise",
                        DIAGRAM_SYNTAX.chars().map(String::from).collect::<Vec<_>>().join(" ")
                    ),
                ));
            }
            let shape = match &spec.shape {
                None => PieceShape::default(),
                Some(given) => PieceShape::NAMES
                    .iter()
                    .find(|(n, _)| n == given.get_ref())
                    .map(|&(_, shape)| shape)
                    .ok_or_else(|| {
                        let names: Vec<&str> = PieceShape::NAMES.iter().map(|(n, _)| *n).collect();
                        self.at(
                            given.span(),
                            format!(
                                "the shape of piece `{name}` must be one of {}",
                                names.join(", ")
                            ),
                            "unknown shape",
                        )
                    })?,
            };
            kinds.push(KindInfo {
                name: name.clone(),
                owned: spec.owned,
                symbols,
                shape,
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

    /// A variable of `[vars]`: its initial values, one per slot (see [`Per`]), its type,
    /// and what it holds a value for.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn variable(
        &self,
        table: VarTable,
        spec: &Spanned<VarSpec>,
        env: &ConstEnv,
        names: &Names,
        seats: &[(String, Range<usize>)],
        players: &[String],
        kinds: &[KindInfo],
        cells: usize,
    ) -> Result<(Vec<i64>, Type, Per), Box<Diagnostic>> {
        let (init, init_span, per) = match spec.get_ref() {
            VarSpec::Value(v) => (&VarInit::Value(v.clone()), spec.span(), None),
            VarSpec::Table { init, per } => (init.get_ref(), init.span(), per.as_ref()),
        };
        let per = match (table, per.map(|p| (p.get_ref().as_str(), p))) {
            (VarTable::Player, None) => Per::Player,
            (VarTable::Player, Some(("kind", _))) => Per::PlayerKind,
            (_, None) => Per::Game,
            (_, Some(("kind", _))) => Per::Kind,
            (VarTable::Player, Some(("cell", p))) => {
                return Err(self.at(
                    p.span(),
                    "a player variable cannot be per `cell`",
                    "a variable per cell goes under [vars.global] or [vars.turn]",
                ));
            }
            (_, Some(("cell", _))) => Per::Cell,
            (_, Some((other, p))) => {
                return Err(self.at(
                    p.span(),
                    format!("a variable cannot be per `{}`", printable(other)),
                    "expected \"kind\" (one value per piece kind; per player and kind under [vars.player]) or \"cell\" (one value per cell)",
                ));
            }
        };
        let (value, ty) = match init {
            VarInit::Value(v) => {
                let (value, ty) = self.var_init(v, init_span, env, names)?;
                (Start::Same(value), ty)
            }
            VarInit::Table(table) => self.start_table(table, init_span, per, env, names, seats)?,
        };
        let at = |p: usize, k: usize| match &value {
            Start::Same(v) => *v,
            Start::BySeat(by_seat) => by_seat[players[p].as_str()],
            Start::ByKind(by_kind) => {
                let default = if ty.nullable() { NONE } else { 0 };
                by_kind
                    .get(kinds[k].name.as_str())
                    .copied()
                    .unwrap_or(default)
            }
        };
        let (p_count, k_count) = match per {
            Per::Game => (1, 1),
            Per::Player => (players.len(), 1),
            Per::Kind => (1, kinds.len()),
            Per::PlayerKind => (players.len(), kinds.len()),
            Per::Cell => (1, cells),
        };
        let inits = (0..p_count)
            .flat_map(|p| (0..k_count).map(move |k| (p, k)))
            .map(|(p, k)| at(p, k))
            .collect();
        Ok((inits, ty, per))
    }

    /// An `init` table: by seat for a player variable, by kind for a variable per kind
    /// (a kind left out starts at 0, or none), each value of one type.
    fn start_table<'t>(
        &self,
        table: &'t BTreeMap<String, Spanned<toml::Value>>,
        span: Range<usize>,
        per: Per,
        env: &ConstEnv,
        names: &Names,
        seats: &[(String, Range<usize>)],
    ) -> Result<(Start<'t>, Type), Box<Diagnostic>> {
        let is_seat = |n: &str| seats.iter().any(|(s, _)| s == n);
        let is_kind = |n: &str| matches!(names.map.get(n), Some(Named::Const(_, Type::Kind)));
        let by_seat = matches!(per, Per::Player | Per::PlayerKind);
        let by_kind = matches!(per, Per::Kind | Per::PlayerKind);
        let seat_table = table.keys().next().is_some_and(|n| is_seat(n));
        let mut ty = None;
        let mut values = BTreeMap::new();
        for (name, value) in table {
            let fits = if seat_table {
                is_seat(name)
            } else {
                is_kind(name)
            };
            if !fits || (seat_table && !by_seat) || (!seat_table && !by_kind) {
                let what = match (by_seat, by_kind) {
                    (true, true) => "the seats, or the piece kinds,",
                    (true, false) => "the seats",
                    (false, true) => "the piece kinds",
                    (false, false) => {
                        return Err(self.at(
                            span,
                            "only a variable per player or per kind can start with a table of values",
                            "expected one initial value",
                        ));
                    }
                };
                let all: Vec<&str> = if seat_table || !by_kind {
                    seats.iter().map(|(s, _)| s.as_str()).collect()
                } else {
                    names
                        .map
                        .iter()
                        .filter(|(n, _)| is_kind(n))
                        .map(|(n, _)| n.as_str())
                        .collect()
                };
                return Err(self
                    .at(
                        value.span(),
                        format!("`{}` is not one of {what} of this game", printable(name)),
                        "an initial value table names the seats, or the kinds, it gives values for",
                    )
                    .with_help_box(&format!("expected one of: {}", all.join(", "))));
            }
            let (v, t) = self.var_init(value.get_ref(), value.span(), env, names)?;
            match ty {
                Some(first) if first != t => {
                    return Err(self.at(
                        value.span(),
                        format!("expected {first}, as for the entries before, found {t}"),
                        "every entry's initial value has one type",
                    ));
                }
                _ => ty = Some(t),
            }
            values.insert(name.as_str(), v);
        }
        let Some(ty) = ty else {
            return Err(self.at(
                span,
                "an empty table gives no initial value",
                "expected values",
            ));
        };
        if !seat_table {
            return Ok((Start::ByKind(values), ty));
        }
        let missing: Vec<&str> = seats
            .iter()
            .map(|(s, _)| s.as_str())
            .filter(|s| !values.contains_key(s))
            .collect();
        if !missing.is_empty() {
            return Err(self.at(
                span,
                format!("no initial value for {}", missing.join(", ")),
                "a table by seat gives every seat of the file a value",
            ));
        }
        Ok((Start::BySeat(values), ty))
    }

    pub(super) fn var_init(
        &self,
        v: &toml::Value,
        span: Range<usize>,
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
        match v {
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
                            span.clone(),
                            format!("`{value}` is not {want} of this game"),
                            format!("expected `{ty} NAME`"),
                        )),
                    }
                }
                _ => {
                    let code = Spanned::new(span.clone(), s.clone());
                    let c = self.constant(&code, env).map_err(|mut d| {
                        // A lone word that names nothing is most likely a misspelt type.
                        let word = s.trim();
                        if word.chars().all(|c| c.is_alphanumeric() || c == '_')
                            && d.message.starts_with("unknown name")
                        {
                            d.message = format!(
                                "`{word}` is neither a type (cell, player, kind, direction) \
                                 nor a parameter"
                            );
                            let types = ["cell", "player", "kind", "direction"].map(String::from);
                            d.help = crate::compile::nearest(word, &types)
                                .map(|t| format!("did you mean `{t}`?"))
                                .into_iter()
                                .chain(std::iter::once(
                                    "a variable starts as a number, true/false, an expression \
                                     over the parameters, or a type (starting as none)"
                                        .to_string(),
                                ))
                                .collect();
                        }
                        d
                    })?;
                    Ok((c.raw(), if matches!(c, Const::Int(_)) { Type::Int } else { Type::Bool }))
                }
            },
            _ => Err(self.at(span.clone(), "a variable starts as a number, true/false, an expression over the parameters, one of \"cell\", \"player\", \"kind\", \"direction\" (starting as none), or one of them with a name (\"cell e1\")", "unexpected value")),
        }
    }

    pub(super) fn setup(
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
                for cell in 0..board.cell_count() {
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
                cells.extend((0..board.cell_count()).map(|c| c as board::CellId));
            }
            for cell in cells {
                for _ in 0..count {
                    stacks[cell as usize].push(Piece::new(kind as u8, owner, 0));
                }
            }
        }
        Ok(stacks)
    }
}

/// The characters a board diagram (and a board drawn with its links) reads as its own
/// syntax, which no piece symbol may hold.
const DIAGRAM_SYNTAX: &str = "/.+*@=#;-|\\";
