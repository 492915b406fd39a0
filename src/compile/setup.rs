//! `[pieces]`, `[vars]` initial values and `[[setup]]`: the piece kinds and their
//! symbols, and the stacks before the first ply.

use super::*;

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
        kinds: usize,
    ) -> Result<(Vec<i64>, Type, Per), Box<Diagnostic>> {
        let (init, init_span, per) = match spec.get_ref() {
            VarSpec::Value(v) => (&VarInit::Value(v.clone()), spec.span(), None),
            VarSpec::Table { init, per } => (init.get_ref(), init.span(), per.as_ref()),
        };
        let by_kind = match per {
            None => false,
            Some(p) if p.get_ref() == "kind" => true,
            Some(p) => {
                return Err(self.at(
                    p.span(),
                    format!("a variable cannot be per `{}`", printable(p.get_ref())),
                    "expected \"kind\": one value per piece kind (per player and kind under [vars.player])",
                ));
            }
        };
        let per = match (table, by_kind) {
            (VarTable::Player, false) => Per::Player,
            (VarTable::Player, true) => Per::PlayerKind,
            (_, false) => Per::Game,
            (_, true) => Per::Kind,
        };
        // The value of each present seat, in seat order; one value for every seat but
        // for a table by seat.
        let (values, ty) = match init {
            VarInit::Value(v) => {
                let (value, ty) = self.var_init(v, init_span, env, names)?;
                (vec![value; players.len()], ty)
            }
            VarInit::BySeat(by_seat) => {
                if table != VarTable::Player {
                    return Err(self.at(
                        init_span,
                        "only a variable of [vars.player] can start with a value per seat",
                        "expected one initial value",
                    ));
                }
                let mut ty = None;
                let mut typed = BTreeMap::new();
                for (seat, value) in by_seat {
                    if !seats.iter().any(|(s, _)| s == seat) {
                        let all: Vec<&str> = seats.iter().map(|(s, _)| s.as_str()).collect();
                        return Err(self
                            .at(
                                value.span(),
                                format!("`{}` is not a seat of this game", printable(seat)),
                                "an initial value per seat is given for each seat's name",
                            )
                            .with_help_box(&format!("seats: {}", all.join(", "))));
                    }
                    let (v, t) = self.var_init(value.get_ref(), value.span(), env, names)?;
                    match ty {
                        Some(first) if first != t => {
                            return Err(self.at(
                                value.span(),
                                format!("expected {first}, as for the seats before, found {t}"),
                                "every seat's initial value has one type",
                            ));
                        }
                        _ => ty = Some(t),
                    }
                    typed.insert(seat.as_str(), v);
                }
                let missing: Vec<&str> = seats
                    .iter()
                    .map(|(s, _)| s.as_str())
                    .filter(|s| !typed.contains_key(s))
                    .collect();
                let Some(ty) = ty.filter(|_| missing.is_empty()) else {
                    return Err(self.at(
                        init_span,
                        format!("no initial value for {}", missing.join(", ")),
                        "a table by seat gives every seat of the file a value",
                    ));
                };
                (players.iter().map(|p| typed[p.as_str()]).collect(), ty)
            }
        };
        let inits = match per {
            Per::Game => vec![values.first().copied().unwrap_or_default()],
            Per::Kind => vec![values.first().copied().unwrap_or_default(); kinds],
            Per::Player => values,
            Per::PlayerKind => values
                .iter()
                .flat_map(|&v| std::iter::repeat_n(v, kinds))
                .collect(),
        };
        Ok((inits, ty, per))
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
                    let c = self.constant(&code, env)?;
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
}
