//! Konane, from docs/rules/konane.md (rule numbers are that file's).
//!
//! - A square board of even side (8 by default) full of stones, black on a1 and on every
//!   point of even file + rank (rules 1, 2); black first.
//! - Black removes one of its stones from a corner or the four centre points; white then
//!   one of its stones orthogonally next to the empty point (rules 3, 4).
//! - Then a ply is a jump over an adjacent opposing stone onto the empty point beyond,
//!   and as many more jumps the same way as the player wants (rules 5, 6), written with
//!   every landing point: `d4-d6-d8`.
//! - The player to move with no ply loses (rule 7).
//!
//! A vector of points; the opening is told apart by the turn number, not by the empty
//! points.

use super::{GameResult, Reference, cell_name};

/// Turn order (rule 2: black plays first).
pub const PLAYERS: [&str; 2] = ["black", "white"];

/// A ply: a removal at a point, or a jump from a point along a direction, `hops` times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Remove(usize, usize),
    Jump((usize, usize), (i32, i32), usize),
}

/// A Konane position.
#[derive(Clone, Debug)]
pub struct Konane {
    pub size: usize,
    /// `board[rank * size + file]`: the side of the stone there.
    pub board: Vec<Option<usize>>,
    pub to_move: usize,
    pub plies: usize,
    pub result: Option<GameResult>,
}

impl Konane {
    /// The full board (rule 2).
    pub fn new(size: usize) -> Konane {
        let board = (0..size * size)
            .map(|i| Some((i % size + i / size) % 2))
            .collect();
        Konane {
            size,
            board,
            to_move: 0,
            plies: 0,
            result: None,
        }
    }

    fn at(&self, f: i32, r: i32) -> Option<Option<usize>> {
        let n = self.size as i32;
        if (0..n).contains(&f) && (0..n).contains(&r) {
            Some(self.board[(r * n + f) as usize])
        } else {
            None
        }
    }

    fn legal_moves(&self) -> Vec<Move> {
        let n = self.size;
        let me = self.to_move;
        let mut out = Vec::new();
        match self.plies {
            0 => {
                let (lo, hi) = (n / 2 - 1, n / 2);
                for r in 0..n {
                    for f in 0..n {
                        let corner = (f == 0 || f == n - 1) && (r == 0 || r == n - 1);
                        let centre = (f == lo || f == hi) && (r == lo || r == hi);
                        if (corner || centre) && self.board[r * n + f] == Some(me) {
                            out.push(Move::Remove(f, r));
                        }
                    }
                }
            }
            1 => {
                let hole = self
                    .board
                    .iter()
                    .position(Option::is_none)
                    .expect("one hole");
                let (hf, hr) = ((hole % n) as i32, (hole / n) as i32);
                for (df, dr) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                    if self.at(hf + df, hr + dr) == Some(Some(me)) {
                        out.push(Move::Remove((hf + df) as usize, (hr + dr) as usize));
                    }
                }
            }
            _ => {
                for r in 0..n {
                    for f in 0..n {
                        if self.board[r * n + f] != Some(me) {
                            continue;
                        }
                        for (df, dr) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                            let (mut x, mut y) = (f as i32, r as i32);
                            let mut hops = 0;
                            while self.at(x + df, y + dr) == Some(Some(1 - me))
                                && self.at(x + 2 * df, y + 2 * dr) == Some(None)
                            {
                                hops += 1;
                                out.push(Move::Jump((f, r), (df, dr), hops));
                                x += 2 * df;
                                y += 2 * dr;
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

impl Reference for Konane {
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
        self.legal_moves()
    }

    fn notation(&self, m: &Move) -> String {
        match *m {
            Move::Remove(f, r) => format!("x{}", cell_name(f, r)),
            Move::Jump((f, r), (df, dr), hops) => {
                let mut s = cell_name(f, r);
                for k in 1..=hops as i32 {
                    let (x, y) = (f as i32 + 2 * k * df, r as i32 + 2 * k * dr);
                    s.push('-');
                    s.push_str(&cell_name(x as usize, y as usize));
                }
                s
            }
        }
    }

    fn apply(&mut self, m: &Move) {
        let n = self.size as i32;
        match *m {
            Move::Remove(f, r) => self.board[r * self.size + f] = None,
            Move::Jump((f, r), (df, dr), hops) => {
                let (mut x, mut y) = (f as i32, r as i32);
                let stone = self.board[(y * n + x) as usize].take();
                for _ in 0..hops {
                    self.board[((y + dr) * n + x + df) as usize] = None;
                    x += 2 * df;
                    y += 2 * dr;
                }
                self.board[(y * n + x) as usize] = stone;
            }
        }
        self.plies += 1;
        self.to_move = 1 - self.to_move;
        if self.legal_moves().is_empty() {
            self.result = Some(GameResult::Win(PLAYERS[1 - self.to_move]));
        }
    }

    fn result(&self) -> Option<GameResult> {
        self.result.clone()
    }

    fn plies(&self) -> usize {
        self.plies
    }

    fn render(&self) -> String {
        let n = self.size;
        let mut s = String::new();
        for r in (0..n).rev() {
            s.push_str(&format!("{:2} ", r + 1));
            for f in 0..n {
                s.push(match self.board[r * n + f] {
                    Some(0) => 'X',
                    Some(_) => 'O',
                    None => '.',
                });
                s.push(' ');
            }
            s.push('\n');
        }
        s
    }
}
