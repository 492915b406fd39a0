//! Variants of the game being played, compiled from its file with some tables rewritten,
//! to ask the engine questions it has no function for: which end rule holds in a
//! position, which condition refuses a typed ply.
//!
//! The engine evaluates conditions only while it lists plies, so a question becomes an
//! action: a variant whose only action is "the condition holds" has a legal ply exactly
//! when the condition holds. Every question is asked through the public game API, in the
//! position being played (the variants have the same board, pieces and variables, so a
//! position of one is a position of the other), and nothing here depends on how the
//! engine evaluates.

use toml::Spanned;

use crate::compile;
use crate::engine::game::Game;
use crate::engine::state::State;
use crate::spec::schema::{ActionSpec, GameFile};
use crate::spec::{self, Source};

/// The game file being played, as text, with its parameter values: what a variant is
/// compiled from.
pub struct Variant {
    path: String,
    text: String,
    params: Vec<(String, String)>,
}

/// A condition of the game file: its text and where it is (`games/x.toml:75`).
pub struct Rule {
    pub text: String,
    pub place: String,
}

impl Variant {
    /// The variants of the game `game`, compiled from the file at `path` with the same
    /// parameter values. None when the file cannot be read again.
    pub fn of(path: &str, game: &Game) -> Option<Variant> {
        let source = spec::load(path).ok()?;
        Some(Variant {
            path: path.to_string(),
            text: source.text,
            params: game.param_texts(),
        })
    }

    /// The game file parsed afresh (its tables are not `Clone`).
    pub fn source(&self) -> Option<Source> {
        spec::parse(&self.path, self.text.clone()).ok()
    }

    /// Compiles `source` after `edit` changed its tables; None if the result does not
    /// compile (a variant the question could not be put as).
    pub fn compile(&self, mut source: Source, edit: impl FnOnce(&mut GameFile)) -> Option<Game> {
        edit(&mut source.file);
        compile::compile(&source, &self.params).ok()
    }

    /// Where `span` of the file is, as `path:line`.
    pub fn place(&self, span: &std::ops::Range<usize>) -> String {
        let start = span.start.min(self.text.len());
        let line = self.text.as_bytes()[..start]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        format!("{}:{line}", self.path)
    }

    /// The first end rule, in file order, whose condition holds in `state` with `me` =
    /// `mover` (the player who played last): the rule that ended the game, if one did.
    pub fn end_rule_that_holds(&self, state: &State, mover: u8) -> Option<Rule> {
        let source = self.source()?;
        let rules: Vec<Rule> = source
            .file
            .end
            .iter()
            .map(|e| Rule {
                text: e.when.get_ref().clone(),
                place: self.place(&e.when.span()),
            })
            .collect();
        let probe = self.compile(source, |file| {
            file.actions = file
                .end
                .iter()
                .enumerate()
                .map(|(i, rule)| {
                    let at = rule.when.span();
                    action(
                        &format!("end rule {i}"),
                        vec![Spanned::new(
                            at.clone(),
                            // On its own line: a `#` comment would swallow the `)`.
                            format!("where ({}\n)", rule.when.get_ref()),
                        )],
                        Spanned::new(at, i.to_string()),
                    )
                })
                .collect();
        })?;
        let mut position = state.clone();
        position.outcome = None;
        position.to_move = mover;
        let first = probe
            .legal_plies(&position)
            .iter()
            .map(|p| p.action as usize)
            .min()?;
        rules.into_iter().nth(first)
    }
}

/// An action with these `choose` bindings and notation, and nothing else.
pub fn action(name: &str, choose: Vec<Spanned<String>>, notation: Spanned<String>) -> ActionSpec {
    let at = notation.span();
    ActionSpec {
        name: Spanned::new(at.clone(), name.to_string()),
        phase: None,
        fallback: false,
        choose,
        effect: None,
        check: None,
        notation: Spanned::new(at.clone(), toml::Value::String(notation.into_inner())),
        short: None,
        why: None,
        then: Vec::new(),
    }
}

/// An expression written over several lines on one line, without its comments, whole.
pub fn flat(text: &str) -> String {
    (text.lines())
        .map(|l| l.split('#').next().unwrap_or(""))
        .flat_map(str::split_whitespace)
        .collect::<Vec<_>>()
        .join(" ")
}

/// An expression written over several lines, on one line, without its comments, cut to
/// a readable length.
pub fn one_line(text: &str) -> String {
    let joined = flat(text);
    if joined.chars().count() > 100 {
        let cut: String = joined.chars().take(100).collect();
        format!("{cut}...")
    } else {
        joined
    }
}
