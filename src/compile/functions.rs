//! `[functions]`: each function declared, with its parameters, and its body checked on
//! its own (calls are expanded where they are made: see `check::Scope::expand`).

use super::*;

impl Compiler<'_> {
    /// Declares the file's functions (`[functions.NAME]`) and checks each body on its own.
    pub(super) fn functions(&self, names: &mut Names) -> Result<(), Box<Diagnostic>> {
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
                            "types: number, condition, cell, player, kind, direction, directions, track",
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
}
