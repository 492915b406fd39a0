//! `[params]` and `[[players]]`: the parameters' values (defaults, `--param` overrides,
//! ranges, checks) and the seats taking part, with their forward directions.

use super::*;
use crate::engine::game::{decimal_text, parse_decimal, scale_decimals};

impl Compiler<'_> {
    pub(super) fn params(
        &self,
        overrides: &[(String, String)],
    ) -> Result<Vec<ParamValue>, Box<Diagnostic>> {
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
            let scale = match &spec.scale {
                None => 1,
                Some(sc) if sc.get_ref() >= &1 && scale_decimals(*sc.get_ref()).is_some() => {
                    *sc.get_ref()
                }
                Some(sc) => {
                    return Err(self.at(
                        sc.span(),
                        format!("the `scale` of parameter `{name}` must be a power of ten (1, 10, 100, ...): the value is typed to a tenth, a hundredth, ..."),
                        "not a power of ten",
                    ));
                }
            };
            // A number in the file, in the unit the user types: a whole number, or with a
            // scale a decimal that the scale keeps exactly.
            let number = |v: &Spanned<toml::Value>, what: &str| -> Result<i64, Box<Diagnostic>> {
                let text = match v.get_ref() {
                    toml::Value::Integer(i) => i.to_string(),
                    toml::Value::Float(x) if scale > 1 => x.to_string(),
                    _ => String::new(),
                };
                parse_decimal(&text, scale).ok_or_else(|| {
                    self.at(
                        v.span(),
                        if scale > 1 {
                            format!(
                                "the `{what}` of parameter `{name}` must be a number with at most {} (its scale is {scale})",
                                decimals(scale)
                            )
                        } else {
                            format!("the `{what}` of parameter `{name}` must be a whole number (give a `scale` for decimals)")
                        },
                        match v.get_ref() {
                            toml::Value::Integer(_) | toml::Value::Float(_) if scale > 1 => {
                                "more decimals than the scale keeps"
                            }
                            toml::Value::Float(_) => "not a whole number",
                            _ => "expected a number",
                        },
                    )
                })
            };
            let (default, is_bool) = match spec.default.get_ref() {
                toml::Value::Boolean(b) if scale == 1 => (*b as i64, true),
                toml::Value::Boolean(_) => {
                    return Err(self.at(
                        spec.default.span(),
                        format!("parameter `{name}` has a scale, so its default must be a number"),
                        "expected a number",
                    ));
                }
                toml::Value::Integer(_) | toml::Value::Float(_) => {
                    (number(&spec.default, "default")?, false)
                }
                _ => {
                    return Err(self.at(
                        spec.default.span(),
                        "a parameter's default must be a whole number or true/false",
                        "expected a number or a boolean",
                    ));
                }
            };
            let min = spec.min.as_ref().map(|m| number(m, "min")).transpose()?;
            let max = spec.max.as_ref().map(|m| number(m, "max")).transpose()?;
            if let (Some(lo), Some(hi), Some(lo_spec)) = (min, max, &spec.min)
                && lo > hi
            {
                return Err(self.at(
                    lo_spec.span(),
                    format!(
                        "parameter `{name}` has `min` {} above its `max` {}: no value fits",
                        decimal_text(lo, scale),
                        decimal_text(hi, scale)
                    ),
                    "greater than `max`",
                ));
            }
            let shown = |v: i64| decimal_text(v, scale);
            let range = match (min, max) {
                (Some(a), Some(b)) => format!("from {} to {}", shown(a), shown(b)),
                (Some(a), None) => format!("at least {}", shown(a)),
                (None, Some(b)) => format!("at most {}", shown(b)),
                (None, None) => String::new(),
            };
            let out_of_range = |v: i64| min.is_some_and(|m| v < m) || max.is_some_and(|m| v > m);
            if out_of_range(default) {
                return Err(self.at(
                    spec.default.span(),
                    format!(
                        "the default of parameter `{name}`, {}, is out of its range: it \
                         must be {range}",
                        shown(default)
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
                        parse_decimal(text.trim(), scale)
                    };
                    parsed.ok_or_else(|| {
                        Box::new(Diagnostic::plain(
                            self.path(),
                            format!(
                                "parameter `{name}` must be {}, not `{text}`",
                                if is_bool {
                                    "true or false".to_string()
                                } else if scale > 1 {
                                    format!("a number with at most {}", decimals(scale))
                                } else {
                                    "a whole number".to_string()
                                }
                            ),
                        ))
                    })?
                }
            };
            if out_of_range(value) {
                return Err(Box::new(Diagnostic::plain(
                    self.path(),
                    format!(
                        "parameter `{name}` = {} is out of range: it must be {range}",
                        shown(value)
                    ),
                )));
            }
            params.push(ParamValue {
                name: name.clone(),
                value,
                is_bool,
                scale,
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
    pub(super) fn players(
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
            let help = if seats.is_empty() {
                "declare players with [[players]] name = \"...\"".to_string()
            } else {
                let names: Vec<&str> = seats.iter().map(|(n, _)| n.as_str()).collect();
                format!(
                    "the file declares {}, but the `present` of each is false with these \
                     parameters",
                    names.join(", ")
                )
            };
            return Err(Box::new(
                Diagnostic::plain(self.path(), "no player takes part with these parameters")
                    .with_help(help),
            ));
        }
        Ok((present, seats))
    }

    /// Each present player's forward direction (`forward` in `[[players]]`), or none.
    pub(super) fn forwards(&self, players: &[String]) -> Result<Vec<i64>, Box<Diagnostic>> {
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
}

/// "1 decimal", "2 decimals": what a scale keeps, for messages.
fn decimals(scale: i64) -> String {
    match scale_decimals(scale).unwrap_or(0) {
        1 => "1 decimal".to_string(),
        n => format!("{n} decimals"),
    }
}
