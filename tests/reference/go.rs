//! Go, from docs/rules/go.md (rule numbers are that file's).
//!
//! - A `size` x `size` grid; points are adjacent along the lines (rule 1). Empty at the
//!   start, black first (rule 2).
//! - A turn places a stone on an empty point or passes (rule 3). Opposing chains left
//!   without a liberty are captured (rules 4, 5); a placement whose own chain then has
//!   no liberty is illegal (rule 6), and so is one that makes a board seen before, the
//!   empty start included (rule 7).
//! - Two passes in a row end the game (rule 8). Area: stones, and empty points whose
//!   empty region touches stones of one colour only (rule 9); white adds the komi, in
//!   tenths of a point (rule 10); equal scores draw.
//! - Notation: `e5`, `pass`.
//!
//! Chains and regions are found by flood fill over a plain vector of points.

use std::collections::HashSet;

use super::{GameResult, Reference};

/// Turn order (rule 2: black plays first).
pub const PLAYERS: [&str; 2] = ["black", "white"];

/// A ply: a placement on a point (index `rank * size + file`, 0-based), or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Place(usize),
    Pass,
}

/// A Go position and the boards seen so far.
#[derive(Clone, Debug)]
pub struct Go {
    pub size: usize,
    /// White's komi in tenths of a point.
    pub komi: i64,
    /// The colour on each point (index into [`PLAYERS`]), `None` when empty.
    pub board: Vec<Option<usize>>,
    pub to_move: usize,
    /// Passes in a row.
    pub passes: usize,
    /// Every board that has stood on the table, the empty start included (rule 7).
    pub seen: HashSet<Vec<Option<usize>>>,
    pub plies: usize,
    pub result: Option<GameResult>,
}

impl Go {
    /// The empty board, black to move.
    pub fn new(size: usize, komi: i64) -> Go {
        let board = vec![None; size * size];
        Go {
            size,
            komi,
            seen: HashSet::from([board.clone()]),
            board,
            to_move: 0,
            passes: 0,
            plies: 0,
            result: None,
        }
    }

    /// The points adjacent to `point` (rule 1).
    pub fn neighbours(&self, point: usize) -> Vec<usize> {
        let (file, rank, n) = (point % self.size, point / self.size, self.size);
        let mut out = Vec::with_capacity(4);
        if rank + 1 < n {
            out.push(point + n);
        }
        if file + 1 < n {
            out.push(point + 1);
        }
        if rank > 0 {
            out.push(point - n);
        }
        if file > 0 {
            out.push(point - 1);
        }
        out
    }

    /// The points connected to `point` through adjacent points holding what `point`
    /// holds (a chain of stones, or an empty region) on `board`.
    pub fn connected(&self, board: &[Option<usize>], point: usize) -> Vec<usize> {
        let like = board[point];
        let mut found = vec![point];
        let mut seen = vec![false; board.len()];
        seen[point] = true;
        let mut i = 0;
        while i < found.len() {
            for n in self.neighbours(found[i]) {
                if !seen[n] && board[n] == like {
                    seen[n] = true;
                    found.push(n);
                }
            }
            i += 1;
        }
        found
    }

    /// How many empty points touch the chain of the stone on `point` (rule 4).
    pub fn liberties(&self, board: &[Option<usize>], point: usize) -> usize {
        let mut libs: Vec<usize> = self
            .connected(board, point)
            .into_iter()
            .flat_map(|s| self.neighbours(s))
            .filter(|&n| board[n].is_none())
            .collect();
        libs.sort_unstable();
        libs.dedup();
        libs.len()
    }

    /// The board after the player to move places on the empty `point`, with captures
    /// (rule 5); `None` when the placement is suicide (rule 6) or repeats a board (rule 7).
    fn after_placing(&self, point: usize) -> Option<Vec<Option<usize>>> {
        let me = self.to_move;
        let mut board = self.board.clone();
        board[point] = Some(me);
        for n in self.neighbours(point) {
            if board[n] == Some(1 - me) && self.liberties(&board, n) == 0 {
                for s in self.connected(&board, n) {
                    board[s] = None;
                }
            }
        }
        if self.liberties(&board, point) == 0 || self.seen.contains(&board) {
            return None;
        }
        Some(board)
    }

    /// A player's area (rule 9): stones, and empty points reaching that colour only.
    pub fn area(&self, player: usize) -> usize {
        let mut total = self.board.iter().filter(|&&p| p == Some(player)).count();
        let mut done = vec![false; self.board.len()];
        for point in 0..self.board.len() {
            if self.board[point].is_some() || done[point] {
                continue;
            }
            let region = self.connected(&self.board, point);
            let mut touches = [false; 2];
            for &r in &region {
                done[r] = true;
                for n in self.neighbours(r) {
                    if let Some(c) = self.board[n] {
                        touches[c] = true;
                    }
                }
            }
            if touches[player] && !touches[1 - player] {
                total += region.len();
            }
        }
        total
    }

    /// The scores compared at the end, in tenths of a point (rule 10).
    pub fn scores(&self) -> [i64; 2] {
        [
            10 * self.area(0) as i64,
            10 * self.area(1) as i64 + self.komi,
        ]
    }
}

impl Reference for Go {
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
        let mut out: Vec<Move> = (0..self.board.len())
            .filter(|&p| self.board[p].is_none() && self.after_placing(p).is_some())
            .map(Move::Place)
            .collect();
        out.push(Move::Pass);
        out
    }

    fn notation(&self, ply: &Move) -> String {
        match ply {
            // Rule 1: the file letters skip `i`.
            Move::Place(p) => format!(
                "{}{}",
                "abcdefghjklmnopqrstuvwxyz".as_bytes()[p % self.size] as char,
                p / self.size + 1
            ),
            Move::Pass => "pass".to_string(),
        }
    }

    fn apply(&mut self, ply: &Move) {
        match ply {
            Move::Place(p) => {
                self.board = self.after_placing(*p).expect("a legal placement");
                self.seen.insert(self.board.clone());
                self.passes = 0;
            }
            Move::Pass => self.passes += 1,
        }
        self.plies += 1;
        self.to_move = 1 - self.to_move;
        if self.passes == 2 {
            let [black, white] = self.scores();
            self.result = Some(match black.cmp(&white) {
                std::cmp::Ordering::Greater => GameResult::Win(PLAYERS[0]),
                std::cmp::Ordering::Less => GameResult::Win(PLAYERS[1]),
                std::cmp::Ordering::Equal => GameResult::Draw,
            });
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
        for rank in (0..self.size).rev() {
            let row: String = (0..self.size)
                .map(|file| match self.board[rank * self.size + file] {
                    Some(0) => 'X',
                    Some(_) => 'O',
                    None => '.',
                })
                .collect();
            out.push(row);
        }
        out.push(format!(
            "{} to move, {} passes in a row",
            PLAYERS[self.to_move], self.passes
        ));
        out.join("\n")
    }
}

#[test]
fn areas_count_stones_and_regions_reaching_one_colour() {
    // 3x3: black's wall on file b; a1-a3 reach black only, c1-c3 black only too.
    let mut go = Go::new(3, 75);
    for p in [1, 4, 7] {
        go.board[p] = Some(0);
    }
    assert_eq!(go.area(0), 9);
    assert_eq!(go.area(1), 0);
    // A white stone on c2: the c file region splits; c1 and c3 reach both colours.
    go.board[5] = Some(1);
    assert_eq!((go.area(0), go.area(1)), (6, 1));
}
