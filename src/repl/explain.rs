//! Why a typed ply is not legal: the first condition of the game file that refuses it.
//!
//! When the text is written like a ply of an action (its notation template, with a cell,
//! player, kind, direction or number where each `{name}` is), the action's conditions
//! are taken in the order the generator tests them: for each `choose` binding of a name
//! the text gives, the collection (`to in adjacent(from)`) and its filter (`where
//! empty(to)`); a `where`; a computed name the text gives (`to = step(from, d)`); then the
//! part's `check`. Variant
//! `k` of the game keeps the first `k` of them and pins every name the text gives to its
//! value; the others are dropped. The typed ply is legal in variant 0 (nothing is
//! required of it) and not in the real game, so there is a first variant where it stops
//! being legal: the condition that variant added is the one that refused it. Everything
//! is asked through the public game API ([`super::variant`]); nothing names a game.

use toml::Spanned;

use super::variant::{Variant, flat};
use crate::engine::board::DIRECTIONS;
use crate::engine::game::{Game, Ply};
use crate::engine::state::State;
use crate::lang::ast::{BinOp, Binding, Expr, ExprKind};
use crate::lang::parser;
use crate::spec::schema::{ActionSpec, Code, Why};

/// What kind of value a `{name}` of a notation stands for, told by the text it matched.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Class {
    Cell,
    Player,
    Kind,
    Dir,
    /// A number, a condition or `none`: never the element of a collection.
    Other,
}

/// One piece of a notation template, lower-cased and without spaces.
enum Piece {
    Text(String),
    Slot(String),
}

/// A name the typed text gives a value to.
#[derive(Clone)]
struct Pinned {
    name: String,
    value: String,
    class: Class,
}

/// A condition the generator tests, and where it is: part, binding, and for a condition
/// the term of its top-level `&&` (each term is a condition of its own, so that the one
/// that refuses a ply is named alone, never a whole conjunction cut to a readable length).
#[derive(Clone, Copy, PartialEq)]
enum Gate {
    /// The element is in the binding's collection.
    Member(usize, usize),
    /// A term of the binding's `where` filter holds for it.
    Filter(usize, usize, usize),
    /// A term of a `where COND` binding holds.
    Where(usize, usize, usize),
    /// A computed name (`x = EXPR`) has the value the text gives it.
    Equal(usize, usize),
    /// A term of the part's `check` holds after its effect.
    Check(usize, usize),
}

/// Text without spaces, lower-cased: how a typed ply is compared with a template.
pub fn squash(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Why the ply written `text` (squashed) is not legal, when the actions find it but
/// `[turns] most` (the file's `most`) keeps others: what it makes, and what they make.
fn fewer(most: Option<&Code>, game: &Game, state: &State, text: &str) -> Option<String> {
    let most = most?;
    let found = game.found_plies(state);
    let ply = (found.iter()).find(|p| squash(&game.notation(state, p)) == text)?;
    let value = game.most_value(state, ply)?;
    let kept = game.legal_plies(state);
    let first = kept.first()?;
    let best = game.most_value(state, first)?;
    (value < best).then(|| {
        format!(
            "`[turns] most` keeps the plies that make `{}` greatest: {best}, as `{}` does; \
             this one makes {value}",
            most.get_ref(),
            game.notation(state, first)
        )
    })
}

/// Why `typed` is not a legal ply of `state`, if it is written like a ply of one of the
/// game's actions; the message starts with the ply.
pub fn why_illegal(variant: &Variant, game: &Game, state: &State, typed: &str) -> Option<String> {
    let source = variant.source()?;
    let vocabulary = vocabulary(game);
    let text = squash(typed);
    if let Some(why) = fewer(source.file.turns.most.as_ref(), game, state, &text) {
        return Some(why);
    }
    let phase = game
        .current_phase(state)
        .map(|p| game.phases[p].name.clone());
    for (index, action) in source.file.actions.iter().enumerate() {
        let Some(pinned) = shape(action, &text, &vocabulary) else {
            continue;
        };
        let name = action.name.get_ref();
        if let Some(wanted) = &action.phase
            && phase.as_deref() != Some(wanted.get_ref().as_str())
        {
            return Some(format!(
                "a `{name}` ply is played only in the {} phase, and this is {}",
                wanted.get_ref(),
                match &phase {
                    Some(p) => format!("the {p} phase"),
                    None => "no phase".to_string(),
                }
            ));
        }
        let others = game
            .legal_plies(state)
            .iter()
            .any(|ply| !source.file.actions[ply.action as usize].fallback);
        if action.fallback && others {
            return Some(format!(
                "a `{name}` ply is allowed only when no other ply is, and there are others"
            ));
        }
        if let Some(why) = first_refusal(variant, game, state, index, &pinned, typed) {
            return Some(format!("as a `{name}` ply, {why}"));
        }
    }
    off_board(game, typed)
}

/// A word of the typed text written like the board's cell names (letters then digits, or
/// digits alone, as the board names them) that names no cell: the ply aims off the board.
fn off_board(game: &Game, typed: &str) -> Option<String> {
    // A name's shape: whether it starts with a letter, and that it ends in digits.
    let shape = |w: &str| -> Option<bool> {
        let letters = w.len()
            - w.trim_start_matches(|c: char| c.is_ascii_alphabetic())
                .len();
        let digits = &w[letters..];
        (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then_some(letters > 0)
    };
    let names = &game.board.names;
    let lettered = shape(names.first()?)?;
    if names.iter().any(|n| shape(n) != Some(lettered)) {
        return None;
    }
    let is_cell = |w: &str| names.iter().any(|n| n.eq_ignore_ascii_case(w));
    for word in typed.split(|c: char| !c.is_ascii_alphanumeric()) {
        // `Sd2`: a symbol before the cell. The cell is the shortest ending of the word
        // shaped like a name; any ending that names a cell means the word is fine.
        let endings: Vec<&str> = (0..word.len())
            .rev()
            .map(|i| &word[i..])
            .filter(|e| shape(e) == Some(lettered))
            .collect();
        if endings.iter().any(|e| is_cell(e)) {
            continue;
        }
        if let Some(first) = endings.first() {
            return Some(format!(
                "{first} is off the board ({})",
                extent(game, lettered)
            ));
        }
    }
    None
}

/// How the board's cells are named, for a name that is not one: `files a to i, ranks 1
/// to 9` (and that some squares of that grid are not cells), or `cells 1 to 32`.
fn extent(game: &Game, lettered: bool) -> String {
    let board = &game.board;
    let number = |n: &String| -> u64 {
        n.trim_start_matches(|c: char| c.is_ascii_alphabetic())
            .parse()
            .unwrap_or(0)
    };
    let low = board.names.iter().map(number).min().unwrap_or(0);
    let high = board.names.iter().map(number).max().unwrap_or(0);
    if !lettered {
        return format!("its cells are numbered {low} to {high}");
    }
    let file = |n: &String| n.trim_end_matches(|c: char| c.is_ascii_digit()).to_string();
    let by_length = |a: &String, b: &String| a.len().cmp(&b.len()).then(a.cmp(b));
    let first = board
        .names
        .iter()
        .map(file)
        .min_by(by_length)
        .unwrap_or_default();
    let last = board
        .names
        .iter()
        .map(file)
        .max_by(by_length)
        .unwrap_or_default();
    let holes = if board.is_rectangle() {
        ""
    } else {
        ", not every square of them a cell"
    };
    format!("files {first} to {last}, ranks {low} to {high}{holes}")
}

/// Every value a notation can print, lower-cased, with its class and its spelling.
fn vocabulary(game: &Game) -> Vec<(String, Class, String)> {
    let mut words = Vec::new();
    let mut add = |name: &str, class: Class| {
        words.push((name.to_lowercase(), class, name.to_string()));
    };
    game.board.names.iter().for_each(|n| add(n, Class::Cell));
    game.players.iter().for_each(|n| add(n, Class::Player));
    game.kinds.iter().for_each(|k| add(&k.name, Class::Kind));
    DIRECTIONS.iter().for_each(|d| add(d.0, Class::Dir));
    ["none", "true", "false"]
        .iter()
        .for_each(|w| add(w, Class::Other));
    // Longest first: `ne` before `n`, `a10` before `a1`.
    words.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(&b.0)));
    words
}

/// The names `text` gives values to, if it is written like a ply of `action` (with any
/// of its optional parts left out).
/// The template a part's notation falls back to: the text itself, or the last case of a
/// list of cases (the one that holds when no other does).
fn default_text(notation: &toml::Value) -> &str {
    match notation {
        toml::Value::String(s) => s,
        toml::Value::Array(cases) => cases
            .last()
            .and_then(|case| case.get("text"))
            .and_then(toml::Value::as_str)
            .unwrap_or(""),
        _ => "",
    }
}

fn shape(
    action: &ActionSpec,
    text: &str,
    vocabulary: &[(String, Class, String)],
) -> Option<Vec<Pinned>> {
    let mut parts = vec![(false, action.notation.as_ref()?)];
    parts.extend(action.parts().iter().map(|p| (p.optional, &p.notation)));
    let optional: Vec<usize> = (0..parts.len()).filter(|&i| parts[i].0).collect();
    for skipped in 0..(1u32 << optional.len().min(8)) {
        let mut pieces = Vec::new();
        for (i, (_, notation)) in parts.iter().enumerate() {
            let left_out = optional
                .iter()
                .position(|&o| o == i)
                .is_some_and(|k| skipped & (1 << k) != 0);
            if !left_out {
                pieces.extend(template(default_text(notation.get_ref())));
            }
        }
        let mut pinned = Vec::new();
        if fits(&pieces, text, vocabulary, &mut pinned) {
            return Some(pinned);
        }
    }
    None
}

/// A notation template as pieces (`{{` and `}}` are braces).
fn template(notation: &str) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut literal = String::new();
    let mut rest = notation;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("{{") {
            literal.push('{');
            rest = after;
        } else if let Some(after) = rest.strip_prefix("}}") {
            literal.push('}');
            rest = after;
        } else if c == '{'
            && let Some(close) = rest.find('}')
        {
            pieces.push(Piece::Text(squash(&std::mem::take(&mut literal))));
            pieces.push(Piece::Slot(rest[1..close].trim().to_string()));
            rest = &rest[close + 1..];
        } else {
            literal.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    pieces.push(Piece::Text(squash(&literal)));
    pieces
}

/// Whether `text` reads as `pieces`, collecting the values of the slots.
fn fits(
    pieces: &[Piece],
    text: &str,
    vocabulary: &[(String, Class, String)],
    pinned: &mut Vec<Pinned>,
) -> bool {
    let Some((first, rest)) = pieces.split_first() else {
        return text.is_empty();
    };
    match first {
        Piece::Text(t) => text
            .strip_prefix(t.as_str())
            .is_some_and(|after| fits(rest, after, vocabulary, pinned)),
        // A template's computed piece (`{letter(rank(to))}`, `{rank(x) + 1}`) prints no
        // name's value as it is: a text written with one is not taken apart.
        Piece::Slot(name) if !(name.chars()).all(|c| c.is_alphanumeric() || "_()?".contains(c)) => {
            false
        }
        Piece::Slot(name) => {
            let sign = usize::from(text.starts_with('-'));
            let digits = text[sign..].bytes().take_while(u8::is_ascii_digit).count();
            let numbers = (1..=digits)
                .rev()
                .map(|n| (text[..sign + n].to_string(), Class::Other));
            let words = vocabulary
                .iter()
                .filter(|(w, _, _)| text.starts_with(w.as_str()))
                .map(|(w, class, spelled)| (spelled.clone(), *class, w.len()));
            let candidates: Vec<(String, Class, usize)> = numbers
                .map(|(n, c)| {
                    let len = n.len();
                    (n, c, len)
                })
                .chain(words)
                .collect();
            for (value, class, len) in candidates {
                pinned.push(Pinned {
                    name: name.clone(),
                    value,
                    class,
                });
                if fits(rest, &text[len..], vocabulary, pinned) {
                    return true;
                }
                pinned.pop();
            }
            false
        }
    }
}

/// The first condition of action `index` that refuses the typed ply, as a sentence.
fn first_refusal(
    variant: &Variant,
    game: &Game,
    state: &State,
    index: usize,
    pinned: &[Pinned],
    typed: &str,
) -> Option<String> {
    let source = variant.source()?;
    let action = source.file.actions.get(index)?;
    let parts = parts(action);
    let mut gates = Vec::new();
    for (p, part) in parts.iter().enumerate() {
        for (b, code) in part.choose.iter().enumerate() {
            match parser::parse_binding(code.get_ref()).ok()? {
                // A name the text does not give keeps its filter in every variant: dropped,
                // it could let the generator range over every cell for it, and over every
                // cell again for the next such name.
                ref binding @ Binding::In { ref var, .. } => {
                    if value_of(pinned, &var.text).is_some_and(|v| v.class != Class::Other) {
                        gates.push(Gate::Member(p, b));
                        let filter = pieces(code.get_ref(), binding).condition;
                        let terms = filter.map_or(0, |f| conjuncts(f).len());
                        gates.extend((0..terms).map(|t| Gate::Filter(p, b, t)));
                    }
                }
                Binding::Let { var, .. } => {
                    if value_of(pinned, &var.text).is_some() {
                        gates.push(Gate::Equal(p, b));
                    }
                }
                ref binding @ Binding::Where(_) => {
                    let condition = pieces(code.get_ref(), binding).condition.unwrap_or("");
                    let terms = conjuncts(condition).len();
                    gates.extend((0..terms).map(|t| Gate::Where(p, b, t)));
                }
            }
        }
        if let Some(check) = part.check {
            let terms = conjuncts(check.get_ref()).len();
            gates.extend((0..terms).map(|t| Gate::Check(p, t)));
        }
    }
    let target = squash(typed);
    let kinds: Vec<String> = game.kinds.iter().map(|k| k.name.clone()).collect();
    let legal_with = |kept: usize| -> Option<bool> {
        let source = variant.source()?;
        let game = variant.compile(source, |file| {
            let mut action = file.actions.swap_remove(index);
            rewrite(&mut action, &gates[..kept], pinned, &kinds);
            file.actions = vec![action];
        })?;
        Some(
            game.legal_with_notation(state)
                .iter()
                .any(|(t, _)| squash(t) == target),
        )
    };
    if !legal_with(0)? {
        return None;
    }
    for k in 1..=gates.len() {
        if !legal_with(k)? {
            return Some(describe(variant, &parts, gates[k - 1], pinned));
        }
    }
    None
}

/// What explaining reads of one part of an action.
struct PartRef<'a> {
    choose: &'a [Code],
    check: Option<&'a Code>,
    why: Option<&'a Why>,
}

/// The `choose` bindings, `check` and `why` of each part of an action, in order.
fn parts(action: &ActionSpec) -> Vec<PartRef<'_>> {
    let mut parts = vec![PartRef {
        choose: &action.choose,
        check: action.check.as_ref(),
        why: action.why.as_ref(),
    }];
    parts.extend(action.parts().iter().map(|p| PartRef {
        choose: &p.choose,
        check: p.check.as_ref(),
        why: p.why.as_ref(),
    }));
    parts
}

/// The terms of a condition's top-level `&&`, in order, each as written: one term when it
/// is no conjunction (or does not parse). A term's span leaves out the brackets around a
/// bracketed expression inside it at its end (`b || (c && d)` ends before its `)`), so
/// the brackets a term opens and does not close are closed from the text after it.
fn conjuncts(condition: &str) -> Vec<String> {
    fn leaves<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
        match &e.kind {
            ExprKind::Binary(BinOp::And, a, b) => {
                leaves(a, out);
                leaves(b, out);
            }
            _ => out.push(e),
        }
    }
    let Ok(expr) = parser::parse_expression(condition) else {
        return vec![condition.trim().to_string()];
    };
    let mut terms = Vec::new();
    leaves(&expr, &mut terms);
    terms
        .iter()
        .map(|t| {
            let mut end = t.span.end.min(condition.len());
            let start = t.span.start.min(end);
            let open = |s: &str| s.matches('(').count() as i64 - s.matches(')').count() as i64;
            let mut unclosed = open(&condition[start..end]);
            while unclosed > 0 {
                match condition[end..].find(')') {
                    Some(i) => {
                        end += i + 1;
                        unclosed -= 1;
                    }
                    None => break,
                }
            }
            condition[start..end].trim().to_string()
        })
        .collect()
}

/// The terms of `condition` that `keep` keeps, as one condition (None for none).
fn kept_terms(condition: &str, keep: impl Fn(usize) -> bool) -> Option<String> {
    let kept: Vec<String> = (conjuncts(condition).into_iter().enumerate())
        .filter(|(t, _)| keep(*t))
        .map(|(_, term)| format!("({term}\n)"))
        .collect();
    (!kept.is_empty()).then(|| kept.join(" && "))
}

fn value_of<'a>(pinned: &'a [Pinned], name: &str) -> Option<&'a Pinned> {
    pinned.iter().find(|p| p.name == name)
}

/// The pieces of a binding's text: its collection or value, and its condition (the
/// filter of `x in C where F`, the condition of `where P`). Taken from the keywords, not
/// from the expressions' spans, which leave out the brackets around a bracketed
/// expression: `where a && (b || c)` must keep its `)`.
struct Pieces<'a> {
    /// `C` of `x in C ...`, `E` of `x = E`.
    value: &'a str,
    /// `F` of `x in C where F`, `P` of `where P`.
    condition: Option<&'a str>,
}

fn pieces<'a>(text: &'a str, binding: &Binding) -> Pieces<'a> {
    let after = |from: usize, word: &str| -> usize {
        text.get(from..)
            .and_then(|rest| rest.find(word))
            .map_or(text.len(), |i| from + i + word.len())
    };
    match binding {
        Binding::In { var, filter, .. } => {
            let start = after(var.span.end, "in");
            match filter {
                Some(f) => {
                    let keyword = text
                        .get(..f.span.start)
                        .and_then(|before| before.rfind("where"))
                        .unwrap_or(start)
                        .max(start);
                    Pieces {
                        value: text[start..keyword].trim(),
                        condition: text.get(keyword + "where".len()..).map(str::trim),
                    }
                }
                None => Pieces {
                    value: text[start..].trim(),
                    condition: None,
                },
            }
        }
        Binding::Let { var, .. } => Pieces {
            value: text[after(var.span.end, "=")..].trim(),
            condition: None,
        },
        Binding::Where(_) => Pieces {
            value: "",
            condition: Some(text[after(0, "where")..].trim()),
        },
    }
}

/// Every element of a class, as a collection the language can range over.
fn everything(class: Class, kinds: &[String]) -> Option<String> {
    Some(match class {
        Class::Cell => "cells".to_string(),
        Class::Player => "all_players".to_string(),
        Class::Dir => {
            let all: Vec<&str> = DIRECTIONS.iter().map(|d| d.0).collect();
            format!("[{}]", all.join(", "))
        }
        Class::Kind => format!("[{}]", kinds.join(", ")),
        Class::Other => return None,
    })
}

/// Rewrites `action` to require only the `kept` conditions, with the typed values pinned;
/// it plays no other way (no phase, not a fallback).
fn rewrite(action: &mut ActionSpec, kept: &[Gate], pinned: &[Pinned], kinds: &[String]) {
    action.phase = None;
    action.fallback = false;
    // The reasons are the file's, said from it; a variant may have dropped what they name.
    action.why = None;
    action.then.iter_mut().flatten().for_each(|p| p.why = None);
    let keep = |g: Gate| kept.contains(&g);
    let part = |p: usize, choose: &mut Vec<Code>, check: &mut Option<Code>| {
        let mut out = Vec::new();
        for (b, code) in choose.iter().enumerate() {
            let at = code.span();
            let text = code.get_ref();
            let new = |s: String| Spanned::new(at.clone(), s);
            let parsed = parser::parse_binding(text);
            match parsed {
                Ok(ref binding @ Binding::In { ref var, .. }) => {
                    let x = &var.text;
                    let Pieces {
                        value: domain,
                        condition,
                    } = pieces(text, binding);
                    let pin = value_of(pinned, x).filter(|v| v.class != Class::Other);
                    let filter = condition.and_then(|f| match pin {
                        None => Some(format!("({f}\n)")),
                        Some(_) => kept_terms(f, |t| keep(Gate::Filter(p, b, t))),
                    });
                    let (domain, pin) = match pin {
                        Some(v) if !keep(Gate::Member(p, b)) => (
                            everything(v.class, kinds).unwrap_or_else(|| domain.to_string()),
                            Some(v),
                        ),
                        pin => (domain.to_string(), pin),
                    };
                    let mut conditions = Vec::new();
                    if let Some(v) = pin {
                        conditions.push(format!("{x} == {}", v.value));
                    }
                    conditions.extend(filter);
                    out.push(new(if conditions.is_empty() {
                        format!("{x} in {domain}")
                    } else {
                        format!("{x} in {domain} where {}", conditions.join(" && "))
                    }));
                }
                Ok(Binding::Let { var, .. }) => match value_of(pinned, &var.text) {
                    Some(v) if !keep(Gate::Equal(p, b)) => {
                        out.push(new(format!("{} = {}", var.text, v.value)));
                    }
                    Some(v) => {
                        out.push(code.clone());
                        out.push(new(format!("where {} == {}", var.text, v.value)));
                    }
                    None => out.push(code.clone()),
                },
                Ok(ref binding @ Binding::Where(_)) => {
                    let condition = pieces(text, binding).condition.unwrap_or("");
                    if let Some(kept) = kept_terms(condition, |t| keep(Gate::Where(p, b, t))) {
                        out.push(new(format!("where {kept}")));
                    }
                }
                _ => out.push(code.clone()),
            }
        }
        *choose = out;
        *check = check.take().and_then(|c| {
            let at = c.span();
            kept_terms(c.get_ref(), |t| keep(Gate::Check(p, t))).map(|k| Spanned::new(at, k))
        });
    };
    part(0, &mut action.choose, &mut action.check);
    for (i, then) in action.then.iter_mut().flatten().enumerate() {
        part(i + 1, &mut then.choose, &mut then.check);
    }
}

/// A sentence saying what `gate` requires, why (where the part's `why` says), and where
/// the file says so.
fn describe(variant: &Variant, parts: &[PartRef], gate: Gate, pinned: &[Pinned]) -> String {
    let binding = |p: usize, b: usize| -> (&Code, Option<Binding>) {
        let code = &parts[p].choose[b];
        (code, parser::parse_binding(code.get_ref()).ok())
    };
    // The reason the part's `why` gives for `key` (a name, `where` or `check`).
    let reason = |p: usize, key: &str| -> String {
        (parts[p].why)
            .and_then(|why| why.get_ref().get(key))
            .map_or(String::new(), |r| format!(": {}", flat(r.get_ref())))
    };
    let said = |code: &Code, what: String, why: String| {
        format!("{what}{why} ({})", variant.place(&code.span()))
    };
    let whole = |code: &Code| {
        said(
            code,
            format!("`{}` refuses it", flat(code.get_ref())),
            String::new(),
        )
    };
    let term = |condition: &str, t: usize| {
        conjuncts(condition)
            .into_iter()
            .nth(t)
            .unwrap_or_else(|| condition.to_string())
    };
    match gate {
        Gate::Member(p, b) | Gate::Filter(p, b, _) => {
            let (code, parsed) = binding(p, b);
            let Some(binding @ Binding::In { var, .. }) = &parsed else {
                return whole(code);
            };
            let piece = pieces(code.get_ref(), binding);
            let Some(v) = value_of(pinned, &var.text).map(|v| &v.value) else {
                return whole(code);
            };
            let why = reason(p, &var.text);
            match (gate, piece.condition) {
                (Gate::Member(..), _) => said(
                    code,
                    format!("{} = {v} is not one of `{}`", var.text, flat(piece.value)),
                    why,
                ),
                (Gate::Filter(.., t), Some(f)) => said(
                    code,
                    format!(
                        "`{}` does not hold for {} = {v}",
                        flat(&term(f, t)),
                        var.text
                    ),
                    why,
                ),
                _ => whole(code),
            }
        }
        Gate::Where(p, b, t) => {
            let (code, parsed) = binding(p, b);
            match parsed
                .as_ref()
                .and_then(|w| pieces(code.get_ref(), w).condition)
            {
                Some(condition) => said(
                    code,
                    format!("`{}` does not hold", flat(&term(condition, t))),
                    reason(p, "where"),
                ),
                None => whole(code),
            }
        }
        Gate::Equal(p, b) => {
            let (code, parsed) = binding(p, b);
            match &parsed {
                Some(binding @ Binding::Let { var, .. }) => {
                    let wanted = value_of(pinned, &var.text).map_or("it", |v| v.value.as_str());
                    said(
                        code,
                        format!(
                            "`{} = {}` is not {wanted} here",
                            var.text,
                            flat(pieces(code.get_ref(), binding).value)
                        ),
                        reason(p, &var.text),
                    )
                }
                _ => whole(code),
            }
        }
        Gate::Check(p, t) => match parts[p].check {
            Some(code) => said(
                code,
                format!(
                    "the check `{}` does not hold after the ply",
                    flat(&term(code.get_ref(), t))
                ),
                reason(p, "check"),
            ),
            None => String::new(),
        },
    }
}

/// The legal ply a person typed: as the texts are compared (case and runs of spaces
/// ignored), or failing that with every space ignored, as `play`'s `help` promises
/// (`Sd2 - d3`), or failing that as players write plies by hand ([`loose`]: without the
/// marks that end a text, `+` or `#`, nor the `-` or `x` between two cells), each when
/// that names one ply alone. A piece's letter may also be typed as the board shows the
/// piece ([`as_shown`]: `Ssd2-d3` where the board draws `Ss` on d2 and the notation
/// writes `Sd2-d3`). The error holds the closest legal texts.
pub fn typed_ply(game: &Game, state: &State, text: &str) -> Result<Ply, Vec<String>> {
    game.parse_ply(state, text).or_else(|e| {
        let mut legal = game.legal_with_notation(state);
        if game.has_short() {
            legal.extend(game.legal_with_short(state));
        }
        let shown: Vec<(String, Ply)> = (legal.iter())
            .filter_map(|(t, ply)| {
                let s = as_shown(game, state, t);
                (s != *t).then(|| (s, ply.clone()))
            })
            .collect();
        legal.extend(shown);
        // One ply, however many of its texts (long and short) match.
        let only = |key: &dyn Fn(&str) -> String| -> Option<Ply> {
            let wanted = key(text);
            if wanted.is_empty() {
                return None;
            }
            let mut same = (legal.iter())
                .filter(|(t, _)| key(t) == wanted)
                .map(|(_, ply)| ply);
            let first = same.next()?;
            same.all(|ply| ply == first).then(|| first.clone())
        };
        only(&squash).or_else(|| only(&loose)).ok_or(e.closest)
    })
}

/// A ply's text with each piece letter written as the board draws the piece: where a
/// cell's name follows a proper beginning of the symbol of the piece on top of that cell
/// (`S` before `d2`, which holds a piece drawn `Ss`), the whole symbol (`Ssd2-d3`). A
/// cell's name counts only where no digit or letter of a longer name follows it.
fn as_shown(game: &Game, state: &State, text: &str) -> String {
    let board = &game.board;
    let mut out = text.to_string();
    for (cell, name) in board.names.iter().enumerate() {
        let Some(top) = state.stacks()[cell].last() else {
            continue;
        };
        let symbol = crate::render::board::symbol(game, top);
        for cut in (1..symbol.len()).filter(|&i| symbol.is_char_boundary(i)) {
            let (letter, rest) = symbol.split_at(cut);
            let written = format!("{letter}{name}");
            let mut from = 0;
            while let Some(at) = out[from..].find(&written).map(|i| i + from) {
                let end = at + written.len();
                let longer = out[end..].starts_with(|c: char| c.is_ascii_alphanumeric())
                    && name.ends_with(|c: char| c.is_ascii_digit())
                        == out[end..].starts_with(|c: char| c.is_ascii_digit());
                let inside = out[..at].ends_with(|c: char| c.is_ascii_alphanumeric());
                if longer || inside {
                    from = end;
                    continue;
                }
                out.insert_str(at + letter.len(), rest);
                from = end + rest.len();
            }
        }
    }
    out
}

/// A ply's text as a person may write it by hand: lower-cased, with only its letters and
/// digits, and without an `x` between a digit and the next letter or digit (a capture
/// mark between two cells: `e4xd5`, `11x18`). `Qd8-h4#`, `qd8h4` and `Qd8 h4` are one
/// text, and so are `e2-e4` and `e2e4`.
fn loose(text: &str) -> String {
    let kept: Vec<char> = (text.chars())
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let mut out = String::with_capacity(kept.len());
    for (i, &c) in kept.iter().enumerate() {
        let between_cells = c == 'x'
            && i > 0
            && kept[i - 1].is_ascii_digit()
            && kept.get(i + 1).is_some_and(char::is_ascii_alphanumeric);
        if !between_cells {
            out.push(c);
        }
    }
    out
}
