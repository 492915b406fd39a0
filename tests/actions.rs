//! Whole actions generated at random, on small boards: several parts, optional parts,
//! a last part repeated (`repeat = "may"` or `"must"`) with several choices a play,
//! `where`s between choices, `let`s in choices and in effects, checks, names bound
//! again from one play to the next and shadowed from one part to the next, fallback
//! actions, and phases that switch actions on and off. The engine's
//! legal plies are compared with a plain enumeration written here from
//! docs/game-format.md ("How a ply is generated and played", "Repeated parts"): the same
//! texts, and every ply, played, gives the position the enumeration gives. Along the way
//! drawn plies are listed ones and played as drawn, and texts parse back to their plies.
//!
//! `positions.rs` generates well-typed expressions as text, for the checker and the
//! evaluator to take or refuse; here the generator builds a small typed tree instead
//! ([`E`], [`Coll`], [`St`], [`Ch`]) that is both written into the game file and
//! evaluated by the enumeration, so that it can say which plies are legal.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rulebook::engine::game::{Draw, Game, normalize};
use rulebook::engine::state::State;

/// `none`, as every value that may be one is written at run time.
const NONE: i64 = -1;

/// Direction names in their order (n = 0 ... nw = 7) and their steps (files, ranks).
const DIRS: [(&str, i64, i64); 8] = [
    ("n", 0, 1),
    ("ne", 1, 1),
    ("e", 1, 0),
    ("se", 1, -1),
    ("s", 0, -1),
    ("sw", -1, -1),
    ("w", -1, 0),
    ("nw", -1, 1),
];

/// The most plays of a repeated part in one ply (`MOST_REPEATS` in the engine).
const MOST_REPEATS: usize = 64;

/// The enumeration gives up on positions with more plies than this: a case's game stops
/// there.
const MOST_PLIES: usize = 3000;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Ty {
    Cell,
    Dir,
    Num,
}

/// An expression, typed by construction.
#[derive(Clone, Debug)]
enum E {
    /// A name bound by a choice, an effect's `let` or an aggregate.
    Local(String),
    /// A cell by file and rank, from 1.
    Cell(i64, i64),
    NoneCell,
    Dir(usize),
    Num(i64),
    Hops,
    Mark,
    Step(Box<E>, Box<E>),
    Height(Box<E>),
    File(Box<E>),
    Rank(Box<E>),
    Add(Box<E>, Box<E>),
    Sub(Box<E>, Box<E>),
    /// `count(v in C where COND)`.
    Count(String, Box<Coll>, Box<E>),
    True,
    Empty(Box<E>),
    /// `owner(c) == me`.
    Mine(Box<E>),
    /// `owner(c) == next(me)`.
    Theirs(Box<E>),
    Eq(Box<E>, Box<E>),
    Ne(Box<E>, Box<E>),
    Lt(Box<E>, Box<E>),
    And(Box<E>, Box<E>),
    Or(Box<E>, Box<E>),
    Not(Box<E>),
}

/// A collection an `in` choice or an aggregate ranges over.
#[derive(Clone, Debug)]
enum Coll {
    Cells,
    Adjacent(E),
    Ray(E, E),
    Slide(E, E),
    /// `orthogonal`, `diagonal` or `all_directions`: its name and its directions.
    Dirs(&'static str, u8),
    Directions(E),
}

/// A statement of an effect.
#[derive(Clone, Debug)]
enum St {
    Move(E, E),
    Place(E),
    Remove(E),
    SetHops(E),
    CountHop,
    SetMark(E),
    Let(String, E),
    If(E, Vec<St>),
}

/// One entry of a `choose` list.
#[derive(Clone, Debug)]
enum Ch {
    In(String, Coll, Option<E>),
    Let(String, E),
    Where(E),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Repeat {
    Once,
    Must,
    May,
}

#[derive(Clone, Debug)]
struct Part {
    choices: Vec<Ch>,
    effect: Vec<St>,
    check: Option<E>,
    optional: bool,
    repeat: Repeat,
    /// The text that starts this part's notation (and names it).
    marker: String,
}

impl Part {
    /// The names the part binds, in order: its choices', then its effect's `let`s.
    fn names(&self) -> Vec<String> {
        let chosen = self.choices.iter().filter_map(|c| match c {
            Ch::In(n, ..) | Ch::Let(n, _) => Some(n.clone()),
            Ch::Where(_) => None,
        });
        let lets = self.effect.iter().filter_map(|s| match s {
            St::Let(n, _) => Some(n.clone()),
            _ => None,
        });
        chosen.chain(lets).collect()
    }
}

#[derive(Clone, Debug)]
struct Action {
    parts: Vec<Part>,
    /// Tried only where no other action gives a ply.
    fallback: bool,
    /// The phase (an index into [`Spec::phases`]) the action exists in; every phase when
    /// none.
    phase: Option<usize>,
}

/// A generated game: the board, who stands where, the actions.
#[derive(Clone, Debug)]
struct Spec {
    files: i64,
    ranks: i64,
    /// The cells of each seat's pieces, by (file, rank).
    pieces: [Vec<(i64, i64)>; 2],
    /// Each phase's `when` (named `ph0`, `ph1`, ...): the first that holds is the phase.
    phases: Vec<E>,
    actions: Vec<Action>,
}

fn cell_name(f: i64, r: i64) -> String {
    format!("{}{r}", (b'a' + f as u8 - 1) as char)
}

// --- writing the game file ---

fn expr(e: &E) -> String {
    let b = |x: &E| expr(x);
    match e {
        E::Local(n) => n.clone(),
        E::Cell(f, r) => cell_name(*f, *r),
        E::NoneCell => "none".into(),
        E::Dir(d) => DIRS[*d].0.into(),
        E::Num(k) => k.to_string(),
        E::Hops => "hops".into(),
        E::Mark => "mark".into(),
        E::Step(c, d) => format!("step({}, {})", b(c), b(d)),
        E::Height(c) => format!("height({})", b(c)),
        E::File(c) => format!("file({})", b(c)),
        E::Rank(c) => format!("rank({})", b(c)),
        E::Add(x, y) => format!("({} + {})", b(x), b(y)),
        E::Sub(x, y) => format!("({} - {})", b(x), b(y)),
        E::Count(v, c, f) => format!("count({v} in {} where {})", coll(c), b(f)),
        E::True => "true".into(),
        E::Empty(c) => format!("empty({})", b(c)),
        E::Mine(c) => format!("(owner({}) == me)", b(c)),
        E::Theirs(c) => format!("(owner({}) == next(me))", b(c)),
        E::Eq(x, y) => format!("({} == {})", b(x), b(y)),
        E::Ne(x, y) => format!("({} != {})", b(x), b(y)),
        E::Lt(x, y) => format!("({} < {})", b(x), b(y)),
        E::And(x, y) => format!("({} && {})", b(x), b(y)),
        E::Or(x, y) => format!("({} || {})", b(x), b(y)),
        E::Not(x) => format!("!{}", b(x)),
    }
}

fn coll(c: &Coll) -> String {
    match c {
        Coll::Cells => "cells".into(),
        Coll::Adjacent(c) => format!("adjacent({})", expr(c)),
        Coll::Ray(c, d) => format!("ray({}, {})", expr(c), expr(d)),
        Coll::Slide(c, d) => format!("slide({}, {})", expr(c), expr(d)),
        Coll::Dirs(name, _) => (*name).into(),
        Coll::Directions(c) => format!("directions({})", expr(c)),
    }
}

fn statements(sts: &[St]) -> String {
    let one = |s: &St| match s {
        St::Move(a, b) => format!("move({}, {})", expr(a), expr(b)),
        St::Place(c) => format!("place({}, p, me)", expr(c)),
        St::Remove(c) => format!("remove({})", expr(c)),
        St::SetHops(n) => format!("hops = {}", expr(n)),
        St::CountHop => "hops = hops + 1".into(),
        St::SetMark(c) => format!("mark = {}", expr(c)),
        St::Let(n, e) => format!("let {n} = {}", expr(e)),
        St::If(c, body) => format!("if {} {{ {} }}", expr(c), statements(body)),
    };
    sts.iter().map(one).collect::<Vec<_>>().join("; ")
}

fn choice(c: &Ch) -> String {
    match c {
        Ch::In(n, c, None) => format!("{n} in {}", coll(c)),
        Ch::In(n, c, Some(f)) => format!("{n} in {} where {}", coll(c), expr(f)),
        Ch::Let(n, e) => format!("{n} = {}", expr(e)),
        Ch::Where(e) => format!("where {}", expr(e)),
    }
}

/// The notation of a part: its marker, then every name it binds, so that a ply's text
/// names its values alone.
fn notation(part: &Part) -> String {
    let mut t = part.marker.clone();
    for n in part.names() {
        t.push_str(&format!(" {{{n}}}"));
    }
    t
}

impl Spec {
    fn text(&self) -> String {
        let mut t = format!(
            "[game]\nname = \"generated\"\n\n[[players]]\nname = \"one\"\n\n[[players]]\nname = \"two\"\n\n\
             [board]\nfiles = {}\nranks = {}\n\n[pieces.p]\nowned = true\nsymbol = {{ one = \"o\", two = \"t\" }}\n\n",
            self.files, self.ranks
        );
        for (seat, cells) in ["one", "two"].iter().zip(&self.pieces) {
            let at: Vec<String> = cells
                .iter()
                .map(|&(f, r)| format!("\"{}\"", cell_name(f, r)))
                .collect();
            t += &format!(
                "[[setup]]\nput = \"p\"\nowner = \"{seat}\"\nat = [{}]\n\n",
                at.join(", ")
            );
        }
        t += "[vars.global]\nhops = 0\nmark = \"cell\"\n";
        for (i, when) in self.phases.iter().enumerate() {
            t += &format!("\n[[phases]]\nname = \"ph{i}\"\nwhen = '{}'\n", expr(when));
        }
        for (i, action) in self.actions.iter().enumerate() {
            for (p, part) in action.parts.iter().enumerate() {
                if p == 0 {
                    t += &format!("\n[[actions]]\nname = \"a{i}\"\n");
                    if action.fallback {
                        t += "fallback = true\n";
                    }
                    if let Some(phase) = action.phase {
                        t += &format!("phase = \"ph{phase}\"\n");
                    }
                } else {
                    t += "\n[[actions.then]]\n";
                }
                if part.optional {
                    t += "optional = true\n";
                }
                match part.repeat {
                    Repeat::Once => {}
                    Repeat::Must => t += "repeat = \"must\"\n",
                    Repeat::May => t += "repeat = \"may\"\n",
                }
                let chosen: Vec<String> = part
                    .choices
                    .iter()
                    .map(|c| format!("'{}'", choice(c)))
                    .collect();
                t += &format!("choose = [{}]\n", chosen.join(", "));
                if !part.effect.is_empty() {
                    t += &format!("effect = '{}'\n", statements(&part.effect));
                }
                if let Some(c) = &part.check {
                    t += &format!("check = '{}'\n", expr(c));
                }
                t += &format!("notation = '{}'\n", notation(part));
            }
        }
        // A player without a ply passes, so that every position of a game is compared.
        t += "\n[[actions]]\nname = \"pass\"\nfallback = true\nnotation = 'pass'\n";
        t
    }
}

// --- the generator ---

/// Builds random typed actions; names in scope are kept with their types.
struct Gen {
    rng: Xoshiro256PlusPlus,
    scope: Vec<(String, Ty)>,
    /// Whether an aggregate is being built (none is nested in another).
    in_aggregate: bool,
    files: i64,
    ranks: i64,
}

const CELL_NAMES: [&str; 5] = ["x", "y", "z", "to", "at"];
const DIR_NAMES: [&str; 2] = ["d", "way"];
const NUM_NAMES: [&str; 2] = ["k", "m"];

impl Gen {
    fn pick(&mut self, n: usize) -> usize {
        self.rng.random_range(0..n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.pick(100) < percent
    }

    /// A name of type `ty` in scope, the latest ones likelier.
    fn local(&mut self, ty: Ty) -> Option<E> {
        let names: Vec<String> = (self.scope.iter().rev())
            .filter(|(_, t)| *t == ty)
            .map(|(n, _)| n.clone())
            .collect();
        if names.is_empty() {
            return None;
        }
        let i = if self.chance(60) {
            0
        } else {
            self.pick(names.len())
        };
        Some(E::Local(names[i].clone()))
    }

    /// A new name of type `ty` that no name of the part (`taken`) has: it may shadow a
    /// name of an earlier part.
    fn fresh(&mut self, ty: Ty, taken: &[String]) -> Option<String> {
        let pool: &[&str] = match ty {
            Ty::Cell => &CELL_NAMES,
            Ty::Dir => &DIR_NAMES,
            Ty::Num => &NUM_NAMES,
        };
        let free: Vec<&str> = pool
            .iter()
            .copied()
            .filter(|n| !taken.iter().any(|t| t == n))
            .collect();
        if free.is_empty() {
            return None;
        }
        Some(free[self.pick(free.len())].to_string())
    }

    fn cell(&mut self, depth: u32) -> E {
        match self.pick(if depth > 0 { 8 } else { 6 }) {
            0..=3 => self.local(Ty::Cell).unwrap_or_else(|| self.cell_const()),
            4 => self.cell_const(),
            5 => E::Mark,
            _ => E::Step(Box::new(self.cell(depth - 1)), Box::new(self.dir())),
        }
    }

    fn cell_const(&mut self) -> E {
        let f = 1 + self.pick(self.files as usize) as i64;
        let r = 1 + self.pick(self.ranks as usize) as i64;
        E::Cell(f, r)
    }

    fn dir(&mut self) -> E {
        if self.chance(70)
            && let Some(d) = self.local(Ty::Dir)
        {
            return d;
        }
        E::Dir(self.pick(8))
    }

    fn num(&mut self, depth: u32) -> E {
        match self.pick(if depth > 0 { 9 } else { 6 }) {
            0 => E::Num(self.pick(4) as i64),
            1 => E::Hops,
            2 => E::Height(Box::new(self.cell(depth.saturating_sub(1)))),
            3 => E::File(Box::new(self.cell(depth.saturating_sub(1)))),
            4 => E::Rank(Box::new(self.cell(depth.saturating_sub(1)))),
            5 => self.local(Ty::Num).unwrap_or(E::Num(1)),
            6 => E::Add(Box::new(self.num(depth - 1)), Box::new(self.num(depth - 1))),
            7 => E::Sub(Box::new(self.num(depth - 1)), Box::new(self.num(depth - 1))),
            _ if self.in_aggregate => E::Num(2),
            _ => {
                let over = if self.chance(50) {
                    Coll::Cells
                } else {
                    Coll::Adjacent(self.cell(depth - 1))
                };
                self.in_aggregate = true;
                self.scope.push(("v".into(), Ty::Cell));
                let cond = self.cond(depth - 1);
                self.scope.pop();
                self.in_aggregate = false;
                E::Count("v".into(), Box::new(over), Box::new(cond))
            }
        }
    }

    fn cond(&mut self, depth: u32) -> E {
        let b = |e: E| Box::new(e);
        match self.pick(if depth > 0 { 12 } else { 9 }) {
            0 => E::True,
            1 | 2 => E::Empty(b(self.cell(depth.saturating_sub(1)))),
            3 => E::Mine(b(self.cell(depth.saturating_sub(1)))),
            4 => E::Theirs(b(self.cell(depth.saturating_sub(1)))),
            5 => {
                let (x, y) = (self.cell(depth.saturating_sub(1)), self.cell(0));
                if self.chance(50) {
                    E::Ne(b(x), b(y))
                } else {
                    E::Eq(b(x), b(y))
                }
            }
            6 => {
                let x = self.cell(depth.saturating_sub(1));
                if self.chance(50) {
                    E::Ne(b(x), b(E::NoneCell))
                } else {
                    E::Eq(b(x), b(E::NoneCell))
                }
            }
            7 => E::Lt(
                b(self.num(depth.saturating_sub(1))),
                b(self.num(depth.saturating_sub(1))),
            ),
            8 => E::Ne(b(self.dir()), b(self.dir())),
            9 => E::And(b(self.cond(depth - 1)), b(self.cond(depth - 1))),
            10 => E::Or(b(self.cond(depth - 1)), b(self.cond(depth - 1))),
            _ => E::Not(b(self.cond(depth - 1))),
        }
    }

    /// A condition on the name just bound (`x`, of type `ty`): mostly about its stack.
    fn filter(&mut self, x: &str, ty: Ty) -> E {
        let v = || Box::new(E::Local(x.to_string()));
        let near = match ty {
            Ty::Cell => match self.pick(5) {
                0 => E::Empty(v()),
                1 => E::Mine(v()),
                2 => E::Not(Box::new(E::Mine(v()))),
                3 => E::Ne(v(), Box::new(self.cell(1))),
                _ => E::Lt(Box::new(E::Height(v())), Box::new(E::Num(2))),
            },
            Ty::Dir => {
                let other = self.dir();
                E::Ne(v(), Box::new(other))
            }
            Ty::Num => E::Lt(v(), Box::new(self.num(1))),
        };
        if self.chance(30) {
            let other = self.cond(1);
            E::And(Box::new(near), Box::new(other))
        } else {
            near
        }
    }

    /// Binds `name` of type `ty` for what comes after.
    fn bind(&mut self, name: &str, ty: Ty, taken: &mut Vec<String>) {
        self.scope.push((name.to_string(), ty));
        taken.push(name.to_string());
    }

    /// One `in` choice over cells or directions; None when no name is free.
    fn choice_in(&mut self, taken: &mut Vec<String>) -> Option<Ch> {
        let ty = if self.chance(60) { Ty::Cell } else { Ty::Dir };
        let (ty, name) = match self.fresh(ty, taken) {
            Some(name) => (ty, name),
            None => (Ty::Cell, self.fresh(Ty::Cell, taken)?),
        };
        let (c, filtered) = match ty {
            Ty::Cell => match self.pick(4) {
                0 => (Coll::Cells, 90),
                1 => (Coll::Adjacent(self.cell(1)), 40),
                2 => {
                    let (c, d) = (self.cell(1), self.dir());
                    (Coll::Ray(c, d), 30)
                }
                _ => {
                    let (c, d) = (self.cell(1), self.dir());
                    (Coll::Slide(c, d), 30)
                }
            },
            _ => match self.pick(4) {
                0 => (Coll::Dirs("orthogonal", 0b0101_0101), 30),
                1 => (Coll::Dirs("diagonal", 0b1010_1010), 30),
                2 => (Coll::Dirs("all_directions", 0xff), 60),
                _ => (Coll::Directions(self.cell(1)), 40),
            },
        };
        self.scope.push((name.clone(), ty));
        let filter = self.chance(filtered).then(|| self.filter(&name, ty));
        self.scope.pop();
        self.bind(&name, ty, taken);
        Some(Ch::In(name, c, filter))
    }

    /// A `let` choice; None when no name is free.
    fn choice_let(&mut self, taken: &mut Vec<String>) -> Option<Ch> {
        let ty = [Ty::Cell, Ty::Cell, Ty::Num, Ty::Dir][self.pick(4)];
        let name = self.fresh(ty, taken)?;
        let value = match ty {
            Ty::Cell => match self.local(Ty::Cell) {
                Some(c) if self.chance(70) => E::Step(Box::new(c), Box::new(self.dir())),
                _ => self.cell(1),
            },
            Ty::Num => self.num(2),
            Ty::Dir => self.dir(),
        };
        self.bind(&name, ty, taken);
        Some(Ch::Let(name, value))
    }

    /// The idiom of a step: a direction from a cell, the cell it leads to, a condition
    /// on it (what the optimiser folds into one choice over directions).
    fn steps(&mut self, taken: &mut Vec<String>) -> Vec<Ch> {
        let (Some(dir), Some(to), Some(E::Local(from))) = (
            self.fresh(Ty::Dir, taken),
            self.fresh(Ty::Cell, taken),
            self.local(Ty::Cell),
        ) else {
            return Vec::new();
        };
        self.bind(&dir, Ty::Dir, taken);
        let domain = if self.chance(50) {
            Coll::Directions(E::Local(from.clone()))
        } else {
            Coll::Dirs("orthogonal", 0b0101_0101)
        };
        let step = E::Step(Box::new(E::Local(from)), Box::new(E::Local(dir.clone())));
        self.bind(&to, Ty::Cell, taken);
        let cond = self.filter(&to, Ty::Cell);
        vec![
            Ch::In(dir, domain, None),
            Ch::Let(to, step),
            Ch::Where(cond),
        ]
    }

    /// Effect statements: `lets` whether `let`s may be among them, `hops` whether the
    /// variable `hops` may be set (not in a repeated part, whose plays it counts).
    fn effect(&mut self, taken: &mut Vec<String>, lets: bool, hops: bool) -> Vec<St> {
        let mut out = Vec::new();
        for _ in 0..self.pick(4) {
            let st = match self.pick(if lets { 8 } else { 7 }) {
                0 | 1 => St::Move(self.cell(0), self.cell(1)),
                2 => St::Place(self.cell(1)),
                3 => St::Remove(self.cell(1)),
                4 => St::SetMark(self.cell(1)),
                5 => {
                    let cond = self.cond(1);
                    let body = self.effect(&mut Vec::new(), false, hops);
                    if body.is_empty() {
                        continue;
                    }
                    St::If(cond, body)
                }
                6 if hops => St::SetHops(self.num(1)),
                6 => continue,
                _ => {
                    let ty = if self.chance(60) { Ty::Cell } else { Ty::Num };
                    let Some(name) = self.fresh(ty, taken) else {
                        continue;
                    };
                    let value = if ty == Ty::Cell {
                        self.cell(1)
                    } else {
                        self.num(1)
                    };
                    self.bind(&name, ty, taken);
                    St::Let(name, value)
                }
            };
            out.push(st);
        }
        out
    }

    /// A part; `first` for an action's first part, `repeat` for its last.
    fn part(&mut self, marker: String, first: bool, repeat: Repeat, optional: bool) -> Part {
        let mut taken = Vec::new();
        let mut choices = Vec::new();
        // The bound of a repeated part's plays: at most `hops` plays once `hops` is 0.
        let most = 1 + self.pick(2) as i64;
        let bound = E::Lt(Box::new(E::Hops), Box::new(E::Num(most)));
        if first {
            // One of the mover's pieces, as most actions start.
            let name = if self.chance(50) { "x" } else { "at" };
            self.bind(name, Ty::Cell, &mut taken);
            choices.push(Ch::In(
                name.to_string(),
                Coll::Cells,
                Some(E::Mine(Box::new(E::Local(name.into())))),
            ));
        }
        let n = if repeat == Repeat::Once {
            self.pick(3)
        } else {
            1 + self.pick(3)
        };
        let mut ins = 0;
        for _ in 0..n {
            match self.pick(10) {
                0..=4 => {
                    if let Some(c) = self.choice_in(&mut taken) {
                        choices.push(c);
                        ins += 1;
                    }
                }
                5 | 6 => choices.extend(self.choice_let(&mut taken)),
                7 | 8 => choices.push(Ch::Where(self.cond(2))),
                _ => {
                    let steps = self.steps(&mut taken);
                    ins += usize::from(!steps.is_empty());
                    choices.extend(steps);
                }
            }
        }
        if repeat != Repeat::Once {
            if ins == 0 {
                let c = self.choice_in(&mut taken).expect("a free name");
                choices.push(c);
            }
            let at = self.pick(choices.len() + 1);
            choices.insert(at, Ch::Where(bound));
        }
        let mut effect = if first && self.chance(70) {
            vec![St::SetHops(E::Num(0))]
        } else {
            Vec::new()
        };
        if self.chance(50)
            && let (Some(a), Some(b)) = (self.local(Ty::Cell), self.local(Ty::Cell))
        {
            effect.push(St::Move(a, b));
        }
        let more = self.effect(&mut taken, true, repeat == Repeat::Once);
        effect.extend(more);
        if repeat != Repeat::Once {
            let at = self.pick(effect.len() + 1);
            effect.insert(at, St::CountHop);
        }
        let check = self.chance(25).then(|| self.cond(2));
        Part {
            choices,
            effect,
            check,
            optional,
            repeat,
            marker,
        }
    }

    fn action(&mut self, i: usize, phases: usize) -> Action {
        let fallback = self.chance(25);
        let phase = (phases > 0 && self.chance(40)).then(|| self.pick(phases));
        let n = 1 + self.pick(3);
        let repeats = self.chance(75);
        let mut parts = Vec::new();
        let depth = self.scope.len();
        for p in 0..=n {
            if p == n && !repeats {
                break;
            }
            let repeat = match (p == n, self.chance(50)) {
                (false, _) => Repeat::Once,
                (true, true) => Repeat::Must,
                (true, false) => Repeat::May,
            };
            let optional = p > 0 && repeat == Repeat::Once && self.chance(35);
            let marker = if p == 0 {
                format!("a{i}|0")
            } else {
                format!(" |{p}")
            };
            let part = self.part(marker, p == 0, repeat, optional);
            parts.push(part);
        }
        self.scope.truncate(depth);
        Action {
            parts,
            fallback,
            phase,
        }
    }

    fn spec(&mut self) -> Spec {
        let mut cells: Vec<(i64, i64)> = (1..=self.files)
            .flat_map(|f| (1..=self.ranks).map(move |r| (f, r)))
            .collect();
        let mut pieces: [Vec<(i64, i64)>; 2] = [Vec::new(), Vec::new()];
        for seat in &mut pieces {
            for _ in 0..1 + self.pick(3) {
                let c = cells.remove(self.pick(cells.len()));
                seat.push(c);
            }
        }
        // Phases read the position and the player to move, no name: the scope is empty.
        let phases: Vec<E> = (0..self.pick(3)).map(|_| self.cond(2)).collect();
        let actions = (0..1 + self.pick(3))
            .map(|i| self.action(i, phases.len()))
            .collect();
        Spec {
            files: self.files,
            ranks: self.ranks,
            pieces,
            phases,
            actions,
        }
    }
}

// --- the plain enumeration ---

/// A position as the enumeration keeps it: each cell's stack of owners, bottom first,
/// cells by (rank - 1) * files + (file - 1); and the two variables.
#[derive(Clone, Debug, PartialEq)]
struct Pos {
    stacks: Vec<Vec<u8>>,
    hops: i64,
    mark: i64,
}

/// What an expression is evaluated with.
struct Cx<'a> {
    spec: &'a Spec,
    pos: &'a Pos,
    me: i64,
}

/// Names bound so far, the latest last: a name reads its latest binding.
type Env = Vec<(String, i64)>;

fn lookup(env: &Env, name: &str) -> i64 {
    env.iter()
        .rev()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("`{name}` is not bound"))
        .1
}

impl Cx<'_> {
    fn step(&self, c: i64, d: i64) -> i64 {
        if c < 0 || !(0..8).contains(&d) {
            return NONE;
        }
        let files = self.spec.files;
        let (f, r) = (
            c % files + DIRS[d as usize].1,
            c / files + DIRS[d as usize].2,
        );
        if f < 0 || f >= files || r < 0 || r >= self.spec.ranks {
            NONE
        } else {
            r * files + f
        }
    }

    fn owner(&self, c: i64) -> i64 {
        if c < 0 {
            return NONE;
        }
        self.pos.stacks[c as usize]
            .last()
            .map_or(NONE, |&o| o as i64)
    }

    fn empty(&self, c: i64) -> bool {
        c >= 0 && self.pos.stacks[c as usize].is_empty()
    }

    fn elements(&self, c: &Coll, env: &Env) -> Vec<i64> {
        match c {
            Coll::Cells => (0..self.spec.files * self.spec.ranks).collect(),
            Coll::Adjacent(x) => {
                let x = self.eval(x, env);
                (0..8)
                    .map(|d| self.step(x, d))
                    .filter(|&y| y >= 0)
                    .collect()
            }
            Coll::Ray(x, d) | Coll::Slide(x, d) => {
                let (mut x, d) = (self.eval(x, env), self.eval(d, env));
                let mut out = Vec::new();
                loop {
                    x = self.step(x, d);
                    if x < 0 || (matches!(c, Coll::Slide(..)) && !self.empty(x)) {
                        return out;
                    }
                    out.push(x);
                }
            }
            Coll::Dirs(_, mask) => (0..8).filter(|d| mask & (1 << d) != 0).collect(),
            Coll::Directions(x) => {
                let x = self.eval(x, env);
                (0..8).filter(|&d| self.step(x, d) >= 0).collect()
            }
        }
    }

    fn eval(&self, e: &E, env: &Env) -> i64 {
        let v = |x: &E| self.eval(x, env);
        let files = self.spec.files;
        match e {
            E::Local(n) => lookup(env, n),
            E::Cell(f, r) => (r - 1) * files + (f - 1),
            E::NoneCell => NONE,
            E::Dir(d) => *d as i64,
            E::Num(k) => *k,
            E::Hops => self.pos.hops,
            E::Mark => self.pos.mark,
            E::Step(c, d) => self.step(v(c), v(d)),
            E::Height(c) => {
                let c = v(c);
                if c < 0 {
                    0
                } else {
                    self.pos.stacks[c as usize].len() as i64
                }
            }
            E::File(c) => {
                let c = v(c);
                if c < 0 { 0 } else { c % files + 1 }
            }
            E::Rank(c) => {
                let c = v(c);
                if c < 0 { 0 } else { c / files + 1 }
            }
            E::Add(x, y) => v(x) + v(y),
            E::Sub(x, y) => v(x) - v(y),
            E::Count(name, over, cond) => {
                let mut inner = env.clone();
                let mut n = 0;
                for x in self.elements(over, env) {
                    inner.push((name.clone(), x));
                    n += i64::from(self.eval(cond, &inner) != 0);
                    inner.pop();
                }
                n
            }
            E::True => 1,
            E::Empty(c) => i64::from(self.empty(v(c))),
            E::Mine(c) => i64::from(self.owner(v(c)) == self.me),
            E::Theirs(c) => i64::from(self.owner(v(c)) == 1 - self.me),
            E::Eq(x, y) => i64::from(v(x) == v(y)),
            E::Ne(x, y) => i64::from(v(x) != v(y)),
            E::Lt(x, y) => i64::from(v(x) < v(y)),
            E::And(x, y) => i64::from(v(x) != 0 && v(y) != 0),
            E::Or(x, y) => i64::from(v(x) != 0 || v(y) != 0),
            E::Not(x) => i64::from(v(x) == 0),
        }
    }
}

/// Runs statements on `pos`, binding their `let`s in `env`.
fn run(spec: &Spec, pos: &mut Pos, me: i64, env: &mut Env, sts: &[St]) {
    for s in sts {
        let val = |pos: &Pos, env: &Env, e: &E| Cx { spec, pos, me }.eval(e, env);
        match s {
            St::Move(a, b) => {
                let (a, b) = (val(pos, env, a), val(pos, env, b));
                if a >= 0 && b >= 0 && a != b {
                    let moved = std::mem::take(&mut pos.stacks[a as usize]);
                    pos.stacks[b as usize].extend(moved);
                }
            }
            St::Place(c) => {
                let c = val(pos, env, c);
                if c >= 0 {
                    pos.stacks[c as usize].push(me as u8);
                }
            }
            St::Remove(c) => {
                let c = val(pos, env, c);
                if c >= 0 {
                    pos.stacks[c as usize].clear();
                }
            }
            St::SetHops(n) => pos.hops = val(pos, env, n),
            St::CountHop => pos.hops += 1,
            St::SetMark(c) => pos.mark = val(pos, env, c),
            St::Let(n, e) => {
                let x = val(pos, env, e);
                env.push((n.clone(), x));
            }
            St::If(c, body) => {
                if val(pos, env, c) != 0 {
                    let depth = env.len();
                    run(spec, pos, me, env, body);
                    env.truncate(depth);
                }
            }
        }
    }
}

/// The value of a name as a ply's text writes it.
fn show(spec: &Spec, ty: Ty, v: i64) -> String {
    if v < 0 && ty != Ty::Num {
        return "none".into();
    }
    match ty {
        Ty::Cell => cell_name(v % spec.files + 1, v / spec.files + 1),
        Ty::Dir => DIRS[v as usize].0.into(),
        Ty::Num => v.to_string(),
    }
}

/// The legal plies of one action, by the rules of the format: each ply's text and the
/// position it leaves.
struct Walk<'a> {
    spec: &'a Spec,
    action: &'a Action,
    me: i64,
    /// The type of each name of the action.
    types: Vec<(String, Ty)>,
    /// How many names were bound when the repeated part began.
    base: usize,
    out: Vec<(String, Pos)>,
}

impl Walk<'_> {
    fn ty(&self, name: &str) -> Ty {
        self.types
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| *t)
            .expect("a typed name")
    }

    fn done(&mut self, text: &str, pos: &Pos) {
        if self.out.len() < MOST_PLIES {
            self.out.push((text.to_string(), pos.clone()));
        }
    }

    /// Goes on from part `p`.
    fn part(&mut self, p: usize, pos: &Pos, env: &mut Env, text: &str) {
        let Some(part) = self.action.parts.get(p) else {
            return self.done(text, pos);
        };
        let depth = env.len();
        if part.repeat != Repeat::Once {
            // Each play reads the names bound before the part, not those of the play
            // before it: a name is read where it is written, and in the part it is
            // written only after it is bound again.
            self.base = depth;
            self.repeat(p, pos, env, text, 0);
        } else {
            if part.optional {
                // Skipped: the names it binds are none for the parts after it.
                env.extend(part.names().into_iter().map(|n| (n, NONE)));
                self.part(p + 1, pos, env, text);
                env.truncate(depth);
            }
            self.choices(p, 0, pos, env, text, 0);
        }
        env.truncate(depth);
    }

    /// The repeated part `p` after `plays` plays: once more, or the ply ends here.
    fn repeat(&mut self, p: usize, pos: &Pos, env: &mut Env, text: &str, plays: usize) {
        if plays >= MOST_REPEATS {
            return self.done(text, pos);
        }
        let must = self.action.parts[p].repeat == Repeat::Must;
        if !must {
            self.done(text, pos);
        }
        let went_on = self.choices(p, 0, pos, env, text, plays);
        if must && went_on == 0 {
            self.done(text, pos);
        }
    }

    /// Walks part `p`'s choices from the `i`-th; returns how many combinations passed
    /// them and the part's check.
    fn choices(
        &mut self,
        p: usize,
        i: usize,
        pos: &Pos,
        env: &mut Env,
        text: &str,
        plays: usize,
    ) -> usize {
        let part = &self.action.parts[p];
        let cx = Cx {
            spec: self.spec,
            pos,
            me: self.me,
        };
        if self.out.len() >= MOST_PLIES {
            return 0;
        }
        let Some(choice) = part.choices.get(i) else {
            return self.played(p, pos, env, text, plays);
        };
        match choice {
            Ch::In(name, c, filter) => {
                let mut n = 0;
                for x in cx.elements(c, env) {
                    env.push((name.clone(), x));
                    let cx = Cx {
                        spec: self.spec,
                        pos,
                        me: self.me,
                    };
                    if filter.as_ref().is_none_or(|f| cx.eval(f, env) != 0) {
                        n += self.choices(p, i + 1, pos, env, text, plays);
                    }
                    env.pop();
                }
                n
            }
            Ch::Let(name, e) => {
                let x = cx.eval(e, env);
                env.push((name.clone(), x));
                let n = self.choices(p, i + 1, pos, env, text, plays);
                env.pop();
                n
            }
            Ch::Where(c) => {
                if cx.eval(c, env) != 0 {
                    self.choices(p, i + 1, pos, env, text, plays)
                } else {
                    0
                }
            }
        }
    }

    /// A combination of part `p`'s choices: its effect, its check, its text, and on.
    fn played(&mut self, p: usize, pos: &Pos, env: &mut Env, text: &str, plays: usize) -> usize {
        let part = &self.action.parts[p];
        let depth = env.len();
        let mut after = pos.clone();
        run(self.spec, &mut after, self.me, env, &part.effect);
        let cx = Cx {
            spec: self.spec,
            pos: &after,
            me: self.me,
        };
        if part.check.as_ref().is_some_and(|c| cx.eval(c, env) == 0) {
            env.truncate(depth);
            return 0;
        }
        let mut text = format!("{text}{}", part.marker);
        for n in part.names() {
            let shown = show(self.spec, self.ty(&n), lookup(env, &n));
            text.push_str(&format!(" {shown}"));
        }
        if part.repeat == Repeat::Once {
            self.part(p + 1, &after, env, &text);
        } else {
            let mut before = env[..self.base].to_vec();
            self.repeat(p, &after, &mut before, &text, plays + 1);
        }
        env.truncate(depth);
        1
    }
}

/// The types of every name an action binds (the pools keep one type a name).
fn types(action: &Action) -> Vec<(String, Ty)> {
    let mut out: Vec<(String, Ty)> = Vec::new();
    let ty = |n: &str| {
        if CELL_NAMES.contains(&n) {
            Ty::Cell
        } else if DIR_NAMES.contains(&n) {
            Ty::Dir
        } else {
            Ty::Num
        }
    };
    for part in &action.parts {
        for n in part.names() {
            out.push((n.clone(), ty(&n)));
        }
    }
    out
}

/// Every legal ply of the position, sorted by text, with the position it leaves: the
/// plies of the actions of the current phase (the first whose `when` holds) and of no
/// phase, and only where they give none, those of the fallback actions and `pass`; None
/// when there are too many to enumerate.
fn reference(spec: &Spec, pos: &Pos, me: i64) -> Option<Vec<(String, Pos)>> {
    let cx = Cx { spec, pos, me };
    let phase = spec
        .phases
        .iter()
        .position(|w| cx.eval(w, &Vec::new()) != 0);
    let mut all = Vec::new();
    for fallback in [false, true] {
        if !all.is_empty() {
            break;
        }
        for action in &spec.actions {
            if action.fallback != fallback || action.phase.is_some_and(|p| Some(p) != phase) {
                continue;
            }
            all.extend(plies_of(spec, action, pos, me));
            if all.len() >= MOST_PLIES {
                return None;
            }
        }
        if fallback {
            all.push(("pass".to_string(), pos.clone()));
        }
    }
    all.sort_by(|a, b| a.0.cmp(&b.0));
    Some(all)
}

/// The plies of one action, by the rules of the format.
fn plies_of(spec: &Spec, action: &Action, pos: &Pos, me: i64) -> Vec<(String, Pos)> {
    let mut walk = Walk {
        spec,
        action,
        me,
        types: types(action),
        base: 0,
        out: Vec::new(),
    };
    walk.part(0, pos, &mut Vec::new(), "");
    walk.out
}

// --- the comparison ---

/// The enumeration's position of an engine position.
fn position(spec: &Spec, g: &Game, s: &State) -> Pos {
    let var = |name: &str| {
        let v = g.vars.iter().find(|v| v.name == name).expect("a variable");
        s.vars[v.slot as usize]
    };
    let mut stacks = Vec::new();
    for r in 1..=spec.ranks {
        for f in 1..=spec.files {
            let id = g.board.find(&cell_name(f, r)).expect("a cell");
            stacks.push(s.stack(id).iter().map(|p| p.owner).collect());
        }
    }
    let mark = var("mark");
    let mark = if mark < 0 {
        NONE
    } else {
        let name = &g.board.names[mark as usize];
        let f = i64::from(name.as_bytes()[0] - b'a') + 1;
        let r: i64 = name[1..].parse().expect("a rank");
        (r - 1) * spec.files + (f - 1)
    };
    Pos {
        stacks,
        hops: var("hops"),
        mark,
    }
}

/// Texts in one list and not the other.
fn differ(engine: &[String], reference: &[String]) -> String {
    let only = |a: &[String], b: &[String]| -> Vec<String> {
        a.iter().filter(|t| !b.contains(t)).cloned().collect()
    };
    format!(
        "engine only: {:?}\nreference only: {:?}",
        only(engine, reference),
        only(reference, engine)
    )
}

/// The game drawn every way a draw may go: listing every ply, drawing every action's
/// candidates, and listing some actions' plies beside the others' candidates.
fn routes(g: &Game, seed: u64) -> Vec<(&'static str, Game)> {
    let mut out = Vec::new();
    for (route, draw) in [("list", Draw::List), ("sample", Draw::Sample)] {
        let mut h = g.clone();
        h.draw = draw;
        out.push((route, h));
    }
    let n = g.actions.len();
    for (route, listed) in [
        ("every action listed", vec![true; n]),
        (
            "some actions listed",
            (0..n)
                .map(|a| (a as u64 + seed).is_multiple_of(2))
                .collect(),
        ),
    ] {
        let mut h = g.clone();
        h.list_actions(&listed);
        out.push((route, h));
    }
    out
}

/// Generates a game from `seed`, then plays a random game of a few plies, comparing the
/// engine with the enumeration in every position.
fn check_seed(seed: u64) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let files = rng.random_range(3..=5);
    let ranks = rng.random_range(3..=5);
    // The game and the random game played with it draw from copies of one stream.
    let mut generator = Gen {
        rng: rng.clone(),
        scope: Vec::new(),
        in_aggregate: false,
        files,
        ranks,
    };
    let spec = generator.spec();
    let text = spec.text();
    let source = rulebook::spec::parse("generated.toml", text.clone())
        .unwrap_or_else(|d| panic!("{d}\n{text}"));
    let g = rulebook::compile::compile(&source, &[]).unwrap_or_else(|d| panic!("{d}\n{text}"));
    let routes = routes(&g, seed);
    let mut draws = Xoshiro256PlusPlus::seed_from_u64(!seed);
    let mut s = g.start();
    let mut history: Vec<String> = Vec::new();
    for _ in 0..8 {
        if s.outcome.is_some() {
            break;
        }
        let here = position(&spec, &g, &s);
        let me = i64::from(s.to_move);
        let Some(expected) = reference(&spec, &here, me) else {
            break;
        };
        let legal = g.legal_with_notation(&s);
        let texts: Vec<String> = legal.iter().map(|(t, _)| t.clone()).collect();
        let wanted: Vec<String> = expected.iter().map(|(t, _)| t.clone()).collect();
        assert_eq!(
            texts,
            wanted,
            "seed {seed}, after {history:?}:\n{}\n\n{text}",
            differ(&texts, &wanted)
        );
        assert_eq!(g.check_notation(&legal), Ok(()), "seed {seed}\n\n{text}");
        assert_eq!(g.count_plies(&s), legal.len() as u64, "seed {seed}");
        assert_eq!(g.has_legal(&s), !legal.is_empty(), "seed {seed}");
        if legal.is_empty() {
            break;
        }
        // Each ply, played, leaves the position the enumeration says.
        for ((t, ply), (_, after)) in legal.iter().zip(&expected) {
            let mut played = s.clone();
            g.play(&mut played, ply);
            let got = position(&spec, &g, &played);
            assert_eq!(
                &got, after,
                "seed {seed}, after {history:?}: `{t}` leaves another position\n\n{text}"
            );
        }
        // Drawn plies are listed ones, played as drawn; some texts parse back.
        let drawn = g.random_ply(&mut s.clone(), &mut rng).expect("a ply");
        assert!(
            legal.iter().any(|(_, p)| *p == drawn),
            "seed {seed}, after {history:?}: drew {}\n\n{text}",
            g.notation(&s, &drawn)
        );
        let (mut kept, mut replayed) = (s.clone(), s.clone());
        let ply = g.play_random(&mut kept, &mut rng).expect("a ply");
        assert!(
            legal.iter().any(|(_, p)| *p == ply),
            "seed {seed}: played unlisted"
        );
        g.play(&mut replayed, &ply);
        assert_eq!(kept, replayed, "seed {seed}: a drawn ply played otherwise");
        // Every route a draw may take gives listed plies too, played as drawn (their own
        // stream, so that the game played is the same whatever they draw).
        for (route, h) in &routes {
            let drawn = h.random_ply(&mut s.clone(), &mut draws).expect("a ply");
            assert!(
                legal.iter().any(|(_, p)| *p == drawn),
                "seed {seed}, {route}, after {history:?}: drew {}\n\n{text}",
                g.notation(&s, &drawn)
            );
            let (mut kept, mut replayed) = (s.clone(), s.clone());
            let ply = h.play_random(&mut kept, &mut draws).expect("a ply");
            h.play(&mut replayed, &ply);
            assert_eq!(
                kept, replayed,
                "seed {seed}, {route}: a drawn ply played otherwise"
            );
        }
        for _ in 0..2 {
            let (t, ply) = &legal[rng.random_range(0..legal.len() as u64) as usize];
            let parsed = g.parse_ply(&s, &normalize(t));
            assert_eq!(parsed.as_ref(), Ok(ply), "seed {seed}: `{t}` parses back");
        }
        let (t, ply) = &legal[rng.random_range(0..legal.len() as u64) as usize];
        g.play(&mut s, ply);
        history.push(t.clone());
    }
}

proptest::proptest! {
    #![proptest_config(crate::common::config(256))]

    /// Generated actions list, count, draw and play the plies the format's rules give.
    #[test]
    fn generated_actions_give_the_plies_the_rules_give(seed: u64) {
        check_seed(seed);
    }
}
