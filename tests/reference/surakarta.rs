//! Surakarta, from docs/rules/surakarta.md (rule numbers are that file's).
//!
//! - A 6x6 board of points; white on rows 1 and 2, black on rows 5 and 6; white first
//!   (rules 1, 2).
//! - A move goes one point in any of eight directions onto an empty point (rule 3).
//! - A capture travels a circuit over empty points (the piece's own point counting as
//!   empty), round at least one corner loop, onto the first opposing piece met (rules 4-6).
//! - Capturing the last opposing piece wins; a player who cannot move loses; 100 plies in
//!   a row without a capture draw (rules 7, 8).
//!
//! Each circuit is built from the number of its lines from the edge: along that row going
//! east, up the column as far from the east edge, back west along the row as far from the
//! top, down the column as far from the west edge; a loop lies between each of these four
//! lines and the next. A walk goes point by point round the 24 points of a circuit,
//! counting the loops it goes round.

use super::{GameResult, Reference, cell_name};

/// Turn order (rule 2: white first).
pub const PLAYERS: [&str; 2] = ["white", "black"];

/// Plies in a row without a capture that draw the game (rule 8).
const QUIET_DRAW: usize = 100;

/// A ply: from a point to a point (0-based file, rank), and whether it captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub from: (usize, usize),
    pub to: (usize, usize),
    pub capture: bool,
}

/// A Surakarta position.
#[derive(Clone, Debug)]
pub struct Surakarta {
    /// `board[file][rank]`: whose piece is there (index into [`PLAYERS`]).
    pub board: [[Option<usize>; 6]; 6],
    pub to_move: usize,
    pub plies: usize,
    /// Plies in a row without a capture.
    pub quiet: usize,
    pub result: Option<GameResult>,
}

impl Default for Surakarta {
    fn default() -> Self {
        Surakarta::new()
    }
}

/// The 24 points of the circuit that runs along the lines `k` points from the edge
/// (1: the small circuit, 2: the large one), in order; a loop follows every sixth.
fn circuit(k: usize) -> Vec<(usize, usize)> {
    let mut points = Vec::new();
    points.extend((0..6).map(|x| (x, k)));
    points.extend((0..6).map(|y| (5 - k, y)));
    points.extend((0..6).rev().map(|x| (x, 5 - k)));
    points.extend((0..6).rev().map(|y| (k, y)));
    points
}

impl Surakarta {
    /// The start (rules 1, 2).
    pub fn new() -> Surakarta {
        let mut board = [[None; 6]; 6];
        for column in board.iter_mut() {
            column[0] = Some(0);
            column[1] = Some(0);
            column[4] = Some(1);
            column[5] = Some(1);
        }
        Surakarta {
            board,
            to_move: 0,
            plies: 0,
            quiet: 0,
            result: None,
        }
    }

    /// Every move and capture, each (from, to) once.
    fn generate(&self) -> Vec<Move> {
        let me = self.to_move;
        let mut out: Vec<Move> = Vec::new();
        for x in 0..6 {
            for y in 0..6 {
                if self.board[x][y] != Some(me) {
                    continue;
                }
                for dx in -1i32..=1 {
                    for dy in -1i32..=1 {
                        let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                        if (dx, dy) == (0, 0) || !(0..6).contains(&nx) || !(0..6).contains(&ny) {
                            continue;
                        }
                        if self.board[nx as usize][ny as usize].is_none() {
                            out.push(Move {
                                from: (x, y),
                                to: (nx as usize, ny as usize),
                                capture: false,
                            });
                        }
                    }
                }
                for k in [1, 2] {
                    let points = circuit(k);
                    let n = points.len();
                    for start in (0..n).filter(|&i| points[i] == (x, y)) {
                        for forward in [true, false] {
                            let (mut at, mut loops) = (start, 0);
                            for _ in 0..n {
                                let next = if forward {
                                    (at + 1) % n
                                } else {
                                    (at + n - 1) % n
                                };
                                // A loop lies between the sixth point of a line and the
                                // first of the next.
                                let edge = if forward { at } else { next };
                                if edge % 6 == 5 {
                                    loops += 1;
                                }
                                at = next;
                                let p = points[at];
                                if p == (x, y) {
                                    continue;
                                }
                                match self.board[p.0][p.1] {
                                    None => continue,
                                    Some(owner) => {
                                        let m = Move {
                                            from: (x, y),
                                            to: p,
                                            capture: true,
                                        };
                                        if owner != me && loops > 0 && !out.contains(&m) {
                                            out.push(m);
                                        }
                                        break;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

impl Reference for Surakarta {
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
        self.generate()
    }

    fn notation(&self, ply: &Move) -> String {
        let sep = if ply.capture { "x" } else { "-" };
        format!(
            "{}{sep}{}",
            cell_name(ply.from.0, ply.from.1),
            cell_name(ply.to.0, ply.to.1)
        )
    }

    fn apply(&mut self, ply: &Move) {
        let me = self.to_move;
        self.board[ply.to.0][ply.to.1] = self.board[ply.from.0][ply.from.1].take();
        self.plies += 1;
        self.quiet = if ply.capture { 0 } else { self.quiet + 1 };
        let other = 1 - me;
        let left = self.board.iter().flatten().any(|&p| p == Some(other));
        self.to_move = other;
        if !left {
            self.result = Some(GameResult::Win(PLAYERS[me]));
        } else if self.quiet >= QUIET_DRAW {
            self.result = Some(GameResult::Draw);
        } else if self.generate().is_empty() {
            // Rule 7: a player who cannot move loses.
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
        let mut s = String::new();
        for y in (0..6).rev() {
            s.push_str(&format!("{} ", y + 1));
            for x in 0..6 {
                s.push(match self.board[x][y] {
                    Some(0) => 'W',
                    Some(_) => 'B',
                    None => '.',
                });
            }
            s.push('\n');
        }
        s.push_str(&format!("{} to move\n", PLAYERS[self.to_move]));
        s
    }
}
