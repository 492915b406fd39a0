//! The game file: its schema as serde structs, loading, and located diagnostics.
//!
//! Values that later stages check (expressions, names) keep their byte spans in the file so
//! every error can point at the place to fix.

pub mod diag;
pub mod schema;

use diag::Diagnostic;
pub use schema::GameFile;

/// A game file as read from disk: its path as given, its text and its parsed tables.
#[derive(Debug)]
pub struct Source {
    pub path: String,
    pub text: String,
    pub file: GameFile,
}

/// The largest game file read, in bytes: real ones are a few kilobytes, and the bound
/// keeps a wrong path (`/dev/zero`, a video) from being read until memory runs out.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// Reads and parses a game file; TOML and schema errors come back located.
pub fn load(path: &str) -> Result<Source, Box<Diagnostic>> {
    let text = crate::record::file::read_text(path, MAX_FILE_BYTES, "game file").map_err(|e| {
        Box::new(Diagnostic::plain(
            path,
            format!("cannot read the game file: {e}"),
        ))
    })?;
    parse(path, text)
}

/// Parses game-file text that came from `path`.
pub fn parse(path: &str, text: String) -> Result<Source, Box<Diagnostic>> {
    // One byte-order mark is read past; more would be an invisible character under the
    // caret of a TOML error.
    let marks = text.chars().take_while(|&c| c == '\u{feff}').count();
    if marks > 1 {
        let mut d = Diagnostic::plain(
            path,
            format!(
                "the file starts with {marks} byte-order marks (invisible U+FEFF characters), \
                 where one at most may stand"
            ),
        );
        d.help
            .push("save the file as UTF-8 without a byte-order mark, or delete them".into());
        return Err(Box::new(d));
    }
    match toml::from_str::<GameFile>(&text) {
        Ok(mut file) => {
            inherit(&mut file.actions).map_err(|(span, message, label)| {
                Box::new(Diagnostic::at(path, &text, span, message, label))
            })?;
            Ok(Source {
                path: path.to_string(),
                text,
                file,
            })
        }
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            // Serde speaks of the Rust types it expected ("invalid length 1, expected struct
            // BoardSpec with 6 elements"); the shape of the document says what was meant.
            let (span, message) = match misshapen(&text, &span) {
                Some(found) => found,
                None => (span, e.message().trim_end().to_string()),
            };
            Err(Box::new(Diagnostic::at(
                path,
                &text,
                span,
                "invalid game file",
                message,
            )))
        }
    }
}

/// The tables a game file has once (`[board]`) and those it lists (`[[actions]]`).
const SINGLE_TABLES: &[&str] = &["game", "board", "turns", "vars", "scoring", "eval"];
const LIST_TABLES: &[&str] = &["players", "setup", "phases", "actions", "end"];

/// What is wrong with the shape of a game file that serde refused, in the writer's
/// terms, and where: a table written as a list or a list as a table, or a number too
/// large for a whole number. `at` is where serde stopped.
fn misshapen(text: &str, at: &std::ops::Range<usize>) -> Option<(std::ops::Range<usize>, String)> {
    use toml::de::{DeTable, DeValue};
    let Ok(doc) = DeTable::parse(text) else {
        // A syntax error; one shape still reads as one: a list table written `[actions]`
        // twice is a "duplicate key".
        let start = text.get(..at.start)?.rfind('\n').map_or(0, |i| i + 1);
        let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let header = text[start..end].trim();
        let name = header.strip_prefix('[')?.strip_suffix(']')?.trim();
        return LIST_TABLES.contains(&name).then(|| {
            (
                at.clone(),
                format!(
                    "`[{name}]` is written twice, but a table can be given only once: `{name}` \
                     is a list, write `[[{name}]]` for each entry"
                ),
            )
        });
    };
    for (key, value) in doc.get_ref() {
        let name: &str = key.get_ref();
        let span = key.span();
        match value.get_ref() {
            DeValue::Array(_) if SINGLE_TABLES.contains(&name) => {
                return Some((
                    span,
                    format!(
                        "`[[{name}]]` makes a list, but a game has one `{name}` table: write `[{name}]`"
                    ),
                ));
            }
            DeValue::Table(_) if LIST_TABLES.contains(&name) => {
                return Some((
                    span,
                    format!(
                        "`[{name}]` makes one table, but `{name}` is a list: write `[[{name}]]` \
                         for each entry"
                    ),
                ));
            }
            DeValue::Table(entries) if matches!(name, "params" | "pieces") => {
                for (entry, value) in entries {
                    if matches!(value.get_ref(), DeValue::Array(_)) {
                        let entry: &str = entry.get_ref();
                        return Some((
                            span,
                            format!(
                                "`[[{name}.{entry}]]` makes a list, but each of the {name} is \
                                 one table: write `[{name}.{entry}]`"
                            ),
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    too_large(doc.get_ref().values())
}

/// The first whole number among `values` (and inside them) that does not fit in 64 bits.
fn too_large<'a, 'i: 'a>(
    values: impl Iterator<Item = &'a toml::Spanned<toml::de::DeValue<'i>>>,
) -> Option<(std::ops::Range<usize>, String)> {
    use toml::de::DeValue;
    for value in values {
        let found = match value.get_ref() {
            DeValue::Integer(i) if i64::from_str_radix(i.as_str(), i.radix()).is_err() => Some((
                value.span(),
                format!(
                    "`{i}` is too large: a whole number is from {} to {}",
                    i64::MIN,
                    i64::MAX
                ),
            )),
            DeValue::Array(items) => too_large(items.iter()),
            DeValue::Table(entries) => too_large(entries.values()),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Fills in what each action `like` another leaves out from that action: its effect,
/// check, notation, short notation, `why` and further parts, each taken whole when the
/// action does not write it. The action named must come earlier in the file and not be
/// `like` another itself, so that what an action takes is written in one place. An
/// error is where it is, what is wrong and a label.
fn inherit(
    actions: &mut [schema::ActionSpec],
) -> Result<(), (std::ops::Range<usize>, String, String)> {
    for i in 0..actions.len() {
        let Some(like) = actions[i].like.clone() else {
            continue;
        };
        let name = like.get_ref();
        if actions[i].name.get_ref() == name {
            return Err((
                like.span(),
                format!("the action `{name}` cannot be `like` itself"),
                "name another action, written above this one".into(),
            ));
        }
        let Some(from) = actions[..i].iter().position(|a| a.name.get_ref() == name) else {
            let later = actions[i..].iter().any(|a| a.name.get_ref() == name);
            return Err((
                like.span(),
                format!("no action `{name}` before this one to take parts from"),
                if later {
                    "it comes later in the file: put it first".into()
                } else {
                    "`like` names an action written above".into()
                },
            ));
        };
        if actions.iter().filter(|a| a.name.get_ref() == name).count() > 1 {
            return Err((
                like.span(),
                format!("several actions are called `{name}`"),
                "`like` must name one: rename the others".into(),
            ));
        }
        if actions[from].like.is_some() {
            return Err((
                like.span(),
                format!("`{name}` is itself `like` another action"),
                "name the action that writes the parts".into(),
            ));
        }
        let (head, tail) = actions.split_at_mut(i);
        let (model, action) = (&head[from], &mut tail[0]);
        action.effect = action.effect.take().or_else(|| model.effect.clone());
        action.check = action.check.take().or_else(|| model.check.clone());
        action.notation = action.notation.take().or_else(|| model.notation.clone());
        action.short = action.short.take().or_else(|| model.short.clone());
        action.why = action.why.take().or_else(|| model.why.clone());
        action.then = action.then.take().or_else(|| model.then.clone());
    }
    Ok(())
}
