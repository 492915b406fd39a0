//! Fanorona, from docs/rules/fanorona.md (rule numbers are that file's).
//!
//! - 9x5 points; lines along rows and columns everywhere, diagonals through the points
//!   whose coordinates add up to an even number (rule 1). White on the two bottom rows,
//!   black on the two top ones, the middle row alternating from black on the left, its
//!   centre empty; white first (rule 2).
//! - A step along a line to an empty neighbour (rule 3) captures by approach or by
//!   withdrawal the unbroken line of opposing pieces that starts there, the player
//!   choosing when both are possible (rules 4, 5). The piece may go on capturing, never
//!   in the direction of its last step and never onto a point it stood on this turn,
//!   stopping when the player likes (rule 6). Without any capture, a plain step (rule 7).
//! - A player without pieces, or without a move, loses (rule 8).
//!
//! A plain array of points; every chain is walked depth first and each of its prefixes
//! is a move.

use super::{GameResult, Reference, cell_name};

/// Turn order (rule 2: white plays first).
pub const PLAYERS: [&str; 2] = ["white", "black"];

const FILES: i32 = 9;
const RANKS: i32 = 5;

/// The eight directions as (file, rank) steps; the odd ones are diagonal.
const STEPS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// A move: the points the piece stands on, start first, and for each step whether it
/// captured by approach (`Some(true)`), by withdrawal (`Some(false)`) or not at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub path: Vec<(i32, i32)>,
    pub how: Vec<Option<bool>>,
}

/// A Fanorona position.
#[derive(Clone, Debug)]
pub struct Fanorona {
    /// `board[file][rank]`: the colour of the piece there.
    pub board: [[Option<usize>; 5]; 9],
    pub to_move: usize,
    pub plies: usize,
    pub result: Option<GameResult>,
}

impl Default for Fanorona {
    fn default() -> Self {
        Fanorona::new()
    }
}

fn inside((f, r): (i32, i32)) -> bool {
    (0..FILES).contains(&f) && (0..RANKS).contains(&r)
}

/// Whether a line leaves `p` in direction `k` (rule 1).
fn has_line(p: (i32, i32), k: usize) -> bool {
    let (df, dr) = STEPS[k];
    let q = (p.0 + df, p.1 + dr);
    inside(q) && (k.is_multiple_of(2) || (p.0 + p.1).rem_euclid(2) == 0)
}

fn plus(p: (i32, i32), k: usize, n: i32) -> (i32, i32) {
    (p.0 + n * STEPS[k].0, p.1 + n * STEPS[k].1)
}

impl Fanorona {
    /// The start (rule 2).
    pub fn new() -> Fanorona {
        let mut board = [[None; 5]; 9];
        for (f, column) in board.iter_mut().enumerate() {
            column[0] = Some(0);
            column[1] = Some(0);
            column[3] = Some(1);
            column[4] = Some(1);
            column[2] = match f {
                4 => None,
                0 | 2 | 5 | 7 => Some(1),
                _ => Some(0),
            };
        }
        Fanorona {
            board,
            to_move: 0,
            plies: 0,
            result: None,
        }
    }

    fn at(&self, (f, r): (i32, i32)) -> Option<usize> {
        if inside((f, r)) {
            self.board[f as usize][r as usize]
        } else {
            None
        }
    }

    fn set(&mut self, (f, r): (i32, i32), v: Option<usize>) {
        self.board[f as usize][r as usize] = v;
    }

    /// The captures a step from `p` in direction `k` can make for `me`: approach and/or
    /// withdrawal (rules 4, 5); the step must lead along a line to an empty point.
    fn captures_of(&self, me: usize, p: (i32, i32), k: usize) -> Vec<bool> {
        let to = plus(p, k, 1);
        if !has_line(p, k) || self.at(to).is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        if self.at(plus(to, k, 1)) == Some(1 - me) {
            out.push(true);
        }
        if self.at(plus(p, k, -1)) == Some(1 - me) {
            out.push(false);
        }
        out
    }

    /// Takes the line of opposing pieces the step from `p` in direction `k` captures.
    fn take(&mut self, me: usize, p: (i32, i32), k: usize, approach: bool) {
        let (mut q, sign) = if approach {
            (plus(p, k, 2), 1)
        } else {
            (plus(p, k, -1), -1)
        };
        while self.at(q) == Some(1 - me) {
            self.set(q, None);
            q = plus(q, k, sign);
        }
    }

    /// Every capture chain of `me` continuing `so_far` (rule 6), each prefix a move.
    fn chains(&self, me: usize, so_far: &Move, last: usize, out: &mut Vec<Move>) {
        let p = *so_far.path.last().expect("a point");
        for k in (0..8).filter(|&k| k != last) {
            let to = plus(p, k, 1);
            if so_far.path.contains(&to) {
                continue;
            }
            for approach in self.captures_of(me, p, k) {
                let mut next = self.clone();
                next.take(me, p, k, approach);
                next.set(to, next.at(p));
                next.set(p, None);
                let mut longer = so_far.clone();
                longer.path.push(to);
                longer.how.push(Some(approach));
                out.push(longer.clone());
                next.chains(me, &longer, k, out);
            }
        }
    }

    /// The moves of `me` (rules 3 to 7).
    pub fn moves_of(&self, me: usize) -> Vec<Move> {
        let mut out = Vec::new();
        let mine: Vec<(i32, i32)> = (0..FILES)
            .flat_map(|f| (0..RANKS).map(move |r| (f, r)))
            .filter(|&p| self.at(p) == Some(me))
            .collect();
        for &p in &mine {
            for k in 0..8 {
                for approach in self.captures_of(me, p, k) {
                    let mut next = self.clone();
                    next.take(me, p, k, approach);
                    next.set(plus(p, k, 1), Some(me));
                    next.set(p, None);
                    let first = Move {
                        path: vec![p, plus(p, k, 1)],
                        how: vec![Some(approach)],
                    };
                    out.push(first.clone());
                    next.chains(me, &first, k, &mut out);
                }
            }
        }
        if out.is_empty() {
            for &p in &mine {
                for k in (0..8).filter(|&k| has_line(p, k)) {
                    let to = plus(p, k, 1);
                    if self.at(to).is_none() {
                        out.push(Move {
                            path: vec![p, to],
                            how: vec![None],
                        });
                    }
                }
            }
        }
        out
    }

    /// How many pieces `player` has.
    pub fn pieces(&self, player: usize) -> usize {
        self.board
            .iter()
            .flatten()
            .filter(|&&c| c == Some(player))
            .count()
    }
}

fn name((f, r): (i32, i32)) -> String {
    cell_name(f as usize, r as usize)
}

fn mark(how: Option<bool>) -> &'static str {
    match how {
        Some(true) => "A",
        Some(false) => "W",
        None => "",
    }
}

impl Reference for Fanorona {
    type Move = Move;

    fn players(&self) -> Vec<&'static str> {
        PLAYERS.to_vec()
    }

    fn to_move(&self) -> &'static str {
        PLAYERS[self.to_move]
    }

    fn moves(&self) -> Vec<Move> {
        if self.result.is_some() {
            return Vec::new();
        }
        self.moves_of(self.to_move)
    }

    fn notation(&self, m: &Move) -> String {
        let mut text = format!("{}-{}{}", name(m.path[0]), name(m.path[1]), mark(m.how[0]));
        for (p, how) in m.path[2..].iter().zip(&m.how[1..]) {
            text.push_str(&format!("-{}{}", name(*p), mark(*how)));
        }
        text
    }

    fn apply(&mut self, m: &Move) {
        let me = self.to_move;
        for (i, how) in m.how.iter().enumerate() {
            let (p, q) = (m.path[i], m.path[i + 1]);
            let k = (0..8).find(|&k| plus(p, k, 1) == q).expect("a step");
            if let Some(approach) = how {
                self.take(me, p, k, *approach);
            }
            self.set(q, Some(me));
            self.set(p, None);
        }
        self.plies += 1;
        self.to_move = 1 - me;
        // Rule 8.
        if self.pieces(1 - me) == 0 || self.moves_of(1 - me).is_empty() {
            self.result = Some(GameResult::Win(PLAYERS[me]));
        }
    }

    fn result(&self) -> Option<GameResult> {
        self.result.clone()
    }

    fn plies(&self) -> usize {
        self.plies
    }

    fn render(&self) -> String {
        let mut out = Vec::new();
        for r in (0..RANKS).rev() {
            let row: String = (0..FILES)
                .map(|f| match self.at((f, r)) {
                    Some(0) => 'W',
                    Some(_) => 'B',
                    None => '.',
                })
                .collect();
            out.push(format!("{} {row}", r + 1));
        }
        out.push(format!("{} to move", PLAYERS[self.to_move]));
        out.join("\n")
    }
}
