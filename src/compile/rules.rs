//! `[[phases]]`, `[turns]`, `[[end]]`, `[[stuck]]`, `[scoring]` and `[eval]`: the
//! expressions that stand outside actions.

use super::*;
use crate::engine::game::ScoreUnit;

impl Compiler<'_> {
    pub(super) fn phases(&self, names: &Names) -> Result<Vec<(String, Phase)>, Box<Diagnostic>> {
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

    /// `[turns]`: the plies a turn has, the stuck rule, and `most` (the number the legal
    /// plies are sifted by), if the file says.
    #[allow(clippy::type_complexity)]
    pub(super) fn turns(
        &self,
        names: &Names,
    ) -> Result<(Standalone, Stuck, Option<Standalone>), Box<Diagnostic>> {
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
        let most = (t.most.as_ref())
            .map(|code| self.typed(code, names, Type::Int))
            .transpose()?;
        Ok((plies, stuck, most))
    }

    /// Compiles a stand-alone expression of a given type, with the frame it needs.
    pub(super) fn typed(
        &self,
        code: &Code,
        names: &Names,
        want: Type,
    ) -> Result<Standalone, Box<Diagnostic>> {
        let e = self.parse_expr(code)?;
        let mut scope = Scope::new(names);
        let node = scope.expect(&e, want).map_err(|err| self.lang(code, err))?;
        Ok(Standalone {
            node,
            frame: scope.frame,
        })
    }

    /// Compiles a number expression over one cell, bound to `name` in slot 0.
    pub(super) fn cell_number(
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

    pub(super) fn score(&self, code: &Code, names: &Names) -> Result<Standalone, Box<Diagnostic>> {
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

    pub(super) fn end_rule(
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
}

impl Compiler<'_> {
    /// How scores are shown (`[scoring] scale` and `unit`), checked: a scale from 1 to a
    /// million.
    pub(super) fn score_unit(&self) -> Result<ScoreUnit, Box<Diagnostic>> {
        let Some(scoring) = &self.src.file.scoring else {
            return Ok(ScoreUnit::default());
        };
        let scale = match &scoring.scale {
            None => 1,
            Some(s) if (1..=1_000_000).contains(s.get_ref()) => *s.get_ref(),
            Some(s) => {
                return Err(self.at(
                    s.span(),
                    format!(
                        "a score scale must be from 1 to 1000000, not {}",
                        s.get_ref()
                    ),
                    "how many score points make one unit",
                ));
            }
        };
        let unit = scoring
            .unit
            .as_ref()
            .map_or(String::new(), |u| printable(u.get_ref()).into_owned());
        Ok(ScoreUnit { scale, unit })
    }
}
