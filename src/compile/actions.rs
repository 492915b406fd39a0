//! `[[actions]]` and their parts: choices, effects, checks, repeats and notation
//! templates (with their cases).

use std::sync::Arc;

use super::*;
use crate::engine::chain::Chain;
use crate::engine::program::{MOST_STEPS, Shown};
use crate::lang::ast::ExprKind;

impl Compiler<'_> {
    pub(super) fn action(
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
        self.check_why(spec.why.as_ref(), &spec.choose, spec.check.as_ref())?;
        for p in spec.parts() {
            self.check_why(p.why.as_ref(), &p.choose, p.check.as_ref())?;
        }
        let notation = spec.notation.as_ref().ok_or_else(|| {
            self.at(
                spec.name.span(),
                format!("the action `{}` has no `notation`", spec.name.get_ref()),
                "every action writes its plies: add `notation = '...'`, or `like` an action that has one",
            )
        })?;
        let mut scope = Scope::new(names);
        let mut parts = vec![self.part(
            &mut scope,
            &spec.choose,
            spec.effect.as_ref(),
            spec.check.as_ref(),
            (notation, spec.short.as_ref()),
            false,
        )?];
        for (i, p) in spec.parts().iter().enumerate() {
            let mut part = self.part(
                &mut scope,
                &p.choose,
                p.effect.as_ref(),
                p.check.as_ref(),
                (&p.notation, p.short.as_ref()),
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
                let problem = if spec.parts()[..i].iter().any(|q| q.repeat.is_some()) {
                    Some("an action has at most one repeated part")
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
            // A part after the repeated part is what happens once when the chain ends:
            // it chooses nothing, so a ply's values are the chain's alone.
            if p.repeat.is_none() && spec.parts()[..i].iter().any(|q| q.repeat.is_some()) {
                let chooses = (part.choices.iter()).position(|c| matches!(c, Choice::In { .. }));
                if let Some(at) = chooses {
                    return Err(self.at(
                        p.choose[at].span(),
                        "a part after a repeated part cannot make an `in` choice: it is what \
                         happens once when the chain ends",
                        "a choice after the repeated part",
                    ));
                }
                if p.optional {
                    return Err(self.at(
                        p.notation.span(),
                        "a part after a repeated part is played once when the chain ends: it \
                         cannot be `optional`",
                        "the part after the repeated part",
                    ));
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
        // Said if the action's walk in a position runs away: located at its repeated
        // part when it has one (which is what runs away, most often), else at its name.
        let (span, label) = match spec.parts().iter().find_map(|p| p.repeat.as_ref()) {
            Some(repeat) => (repeat.span(), "this part repeats"),
            None => (spec.name.span(), "this action"),
        };
        let mut runaway = *self.at(
            span,
            format!(
                "action `{}` makes more plies in one position than can be listed (over \
                 {MOST_STEPS} steps: its plies, the choices they hold and the plays of its \
                 repeated part); its plies there were cut short",
                spec.name.get_ref()
            ),
            label,
        );
        runaway.help.push(
            "a repeated part with several choices a play makes exponentially many chains: \
             bound them with a `where` (on a counter, or on the cells already visited)"
                .into(),
        );
        Ok(Action {
            name: spec.name.get_ref().clone(),
            phase,
            fallback: spec.fallback,
            merge_routes: spec.merge_routes,
            parts,
            frame: scope.frame,
            shape: HeadShape::default(),
            precheck: None,
            overlay: None,
            kept_head: None,
            head: Arc::new(Chain::new(&[], 0, false, false)),
            compiled: Vec::new(),
            runaway: Arc::new(runaway),
        })
    }

    /// Checks that a part's `why` table names only what the part has: a name its `choose`
    /// binds, `where` where it has a `where` binding, `check` where it has a check.
    fn check_why(
        &self,
        why: Option<&schema::Why>,
        choose: &[Code],
        check: Option<&Code>,
    ) -> Result<(), Box<Diagnostic>> {
        let Some(why) = why else {
            return Ok(());
        };
        let mut known: Vec<String> = Vec::new();
        for code in choose {
            match parser::parse_binding(code.get_ref()).map_err(|e| self.syntax(code, e))? {
                Binding::In { var, .. } | Binding::Let { var, .. } => known.push(var.text),
                Binding::Where(_) => known.push("where".into()),
            }
        }
        if check.is_some() {
            known.push("check".into());
        }
        known.dedup();
        for (key, reason) in why.get_ref() {
            if !known.contains(key) {
                return Err(self
                    .at(
                        why.span(),
                        format!("`why` gives a reason for `{key}`, which this part does not have"),
                        "in this `why` table",
                    )
                    .with_help_box(&if known.is_empty() {
                        "this part has no condition to give a reason for".to_string()
                    } else {
                        format!("it may give reasons for: {}", known.join(", "))
                    }));
            }
            if reason.get_ref().trim().is_empty() {
                return Err(self.at(reason.span(), "an empty reason", "say why, or leave it out"));
            }
        }
        Ok(())
    }

    pub(super) fn part(
        &self,
        scope: &mut Scope,
        choose: &[Code],
        effect: Option<&Code>,
        check: Option<&Code>,
        (notation, short): (&schema::NotationSpec, Option<&schema::NotationSpec>),
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
                    if elem == Type::Int {
                        return Err(self.at(
                            code.span(),
                            "a number cannot be chosen from a range: ranges are for aggregates \
                             and `for`",
                            "a choice over numbers",
                        ));
                    }
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
        let notation = self.cases(scope, notation, false)?;
        let short = short
            .map(|spec| self.cases(scope, spec, true))
            .transpose()?;
        Ok(Part {
            choices,
            effect,
            check,
            notation,
            short,
            optional,
            repeat: Repeat::Once,
            ins: Box::new([]),
        })
    }

    /// A part's `notation` (or `short`, which may tell a cell apart by `{x?}`) compiled:
    /// its cases' conditions checked and templates parsed.
    fn cases(
        &self,
        scope: &mut Scope,
        spec: &schema::NotationSpec,
        short: bool,
    ) -> Result<Vec<NotationCase>, Box<Diagnostic>> {
        let cases = self.notation_cases(spec)?;
        // A ply whose every `when` fails would have no text: the list must end with a
        // case that always holds.
        if let Some((Some(when), _)) = cases.last() {
            let mut d = self.at(
                when.span(),
                "a notation's cases can all fail",
                "the last case has a `when`: a ply for which no `when` holds would have no text",
            );
            d.help.push(
                "end the list with a case without `when`, which holds when no other does: \
                 { text = '...' }"
                    .into(),
            );
            return Err(d);
        }
        cases
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
                    pieces: self.notation(scope, &text, short)?,
                })
            })
            .collect()
    }

    /// A part's `notation` as (condition, template) cases: a string is one case that
    /// always holds; a list holds `{ when = COND, text = TEMPLATE }` tables. Each string
    /// keeps its place in the file, found in the text of the list.
    pub(super) fn notation_cases(
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
    pub(super) fn find_key(&self, key: &str, fallback: Range<usize>) -> Range<usize> {
        let header = format!("[{key}]");
        self.src
            .text
            .find(&header)
            .map_or(fallback, |i| i + 1..i + 1 + key.len())
    }

    /// Where the string literal holding `content` is, searching the file's text within
    /// `within` from `from` (the whole range if it cannot be found).
    pub(super) fn find_string(
        &self,
        within: Range<usize>,
        from: usize,
        content: &str,
    ) -> Range<usize> {
        let text = &self.src.text;
        let end = within.end.min(text.len());
        let start = from.clamp(within.start, end);
        text[start..end]
            .find(content)
            .map(|i| start + i)
            .filter(|&i| i > 0 && matches!(text.as_bytes()[i - 1], b'\'' | b'"'))
            .map_or(within, |i| i - 1..i + content.len() + 1)
    }

    /// Parses a notation template: literal text with `{name}` for bound values,
    /// `{file(name)}` and `{rank(name)}` for a cell's file letter and rank, and in a
    /// `short` template `{name?}` for as much of a cell as tells the ply apart.
    pub(super) fn notation(
        &self,
        scope: &mut Scope,
        code: &Code,
        short: bool,
    ) -> Result<Vec<NotationPiece>, Box<Diagnostic>> {
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
                    let inside = text[i + 1..close].trim();
                    let at = Span::new(i, close + 1);
                    let bound = |n: &str| {
                        !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_')
                    };
                    let (name, form) = if let Some(n) = inside.strip_suffix('?') {
                        (n.trim(), Form::Unique)
                    } else if let Some(n) = inside
                        .strip_prefix("file(")
                        .and_then(|n| n.strip_suffix(')'))
                        .filter(|n| bound(n.trim()))
                    {
                        (n.trim(), Form::File)
                    } else if let Some(n) = inside
                        .strip_prefix("rank(")
                        .and_then(|n| n.strip_suffix(')'))
                        .filter(|n| bound(n.trim()))
                    {
                        (n.trim(), Form::Rank)
                    } else if bound(inside) {
                        (inside, Form::Value)
                    } else {
                        // Anything else is an expression, perhaps written as a letter or
                        // padded: parsed where it stands in the template.
                        let offset = i
                            + 1
                            + (text[i + 1..close].len() - text[i + 1..close].trim_start().len());
                        let piece = self.computed(scope, inside).map_err(|mut e| {
                            if e.within.is_none() {
                                e.span = Span::new(e.span.start + offset, e.span.end + offset);
                            }
                            self.lang(code, e)
                        })?;
                        if !literal.is_empty() {
                            pieces.push(NotationPiece::Text(std::mem::take(&mut literal)));
                        }
                        pieces.push(piece);
                        while chars.peek().is_some_and(|c| c.0 <= close) {
                            chars.next();
                        }
                        continue;
                    };
                    let (ty, slot) = scope.local(name).ok_or_else(|| {
                        self.lang(
                            code,
                            LangError::new(at, format!("`{name}` is not bound in this action"))
                                .label("a notation prints names bound by `choose`"),
                        )
                    })?;
                    if form != Form::Value && ty != Type::Cell {
                        return Err(self.lang(
                            code,
                            LangError::new(at, format!("`{name}` is not a cell"))
                                .label("`{x?}`, `{file(x)}` and `{rank(x)}` print part of a cell"),
                        ));
                    }
                    if form == Form::Unique && !short {
                        return Err(self.lang(
                            code,
                            LangError::new(at, format!("`{{{name}?}}` in a `notation`"))
                                .label("`{x?}` is written in a `short` notation only"),
                        ));
                    }
                    if !literal.is_empty() {
                        pieces.push(NotationPiece::Text(std::mem::take(&mut literal)));
                    }
                    pieces.push(match form {
                        Form::Value => NotationPiece::Value(slot, ty),
                        Form::File => NotationPiece::File(slot),
                        Form::Rank => NotationPiece::Rank(slot),
                        Form::Unique => NotationPiece::Unique(slot),
                    });
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

    /// A template's `{...}` that is not a bound name: `letter(E)` or `LETTER(E)` (a
    /// number as a letter), `pad(E, WIDTH)` (a number zero-padded), or any expression
    /// of the language over the bound names, printed as `{x}` prints its type. Spans in
    /// an error are within `inside`.
    fn computed(&self, scope: &mut Scope, inside: &str) -> Result<NotationPiece, LangError> {
        let e = parser::parse_expression(inside)
            .map_err(|e| LangError::new(e.span, "syntax error in notation").label(e.message))?;
        let ExprKind::Call(name, args) = &e.kind else {
            let (node, ty) = scope.expr(&e)?;
            return Ok(NotationPiece::Computed(node, ty, Shown::Plain));
        };
        let shown = match (name.text.as_str(), args.len()) {
            ("letter", 1) => Shown::Letter { upper: false },
            ("LETTER", 1) => Shown::Letter { upper: true },
            ("pad", 2) => {
                let width = match &args[1].kind {
                    ExprKind::Int(w) if (1..=18).contains(w) => *w as u8,
                    _ => {
                        return Err(LangError::new(args[1].span, "a width from 1 to 18")
                            .label("`pad(E, WIDTH)`: WIDTH is a number written out"));
                    }
                };
                Shown::Pad(width)
            }
            ("letter" | "LETTER", _) | ("pad", _) => {
                return Err(LangError::new(
                    e.span,
                    format!(
                        "`{}` takes {}",
                        name.text,
                        if name.text == "pad" {
                            "a number and a width: `pad(E, 2)`"
                        } else {
                            "one number: `letter(E)`"
                        }
                    ),
                )
                .label("a notation's way to print a number"));
            }
            _ => {
                let (node, ty) = scope.expr(&e)?;
                return Ok(NotationPiece::Computed(node, ty, Shown::Plain));
            }
        };
        let node = scope.expect(&args[0], Type::Int)?;
        Ok(NotationPiece::Computed(node, Type::Int, shown))
    }
}

/// What a template's `{...}` prints of a bound value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// `{x}`: the whole value.
    Value,
    /// `{file(x)}`: a cell's file letter.
    File,
    /// `{rank(x)}`: a cell's rank.
    Rank,
    /// `{x?}`: as much of a cell as tells the ply apart.
    Unique,
}
