//! Havannah, from docs/rules/havannah.md (rule numbers are that file's).
//!
//! - A hexagon of `base` cells a side; white first; a stone on an empty cell (rules 1, 2).
//! - The swap: black's first move may take white's stone instead (rule 3).
//! - A chain wins: two corners (bridge), three sides (fork; corners are on no side), or a
//!   loop around at least one cell, whatever stands there (ring) (rules 4, 5). A full
//!   board without one is a draw (rule 6).
//!
//! Cells are (file, rank) pairs, 0-based, on the sheared grid of the rules' picture: the
//! six neighbours of (f, r) are (f, r+1), (f+1, r+1), (f+1, r), (f, r-1), (f-1, r-1),
//! (f-1, r). Chains are found by flood fill over the whole board after every move; a ring
//! is looked for cell by cell: a cell is surrounded when no way from it over cells outside
//! the chain (the cell itself allowed) reaches a cell on the board's border.

use super::{GameResult, Reference, cell_name};

/// Turn order (rule 2: white plays first).
pub const PLAYERS: [&str; 2] = ["white", "black"];

const NEIGHBOURS: [(i32, i32); 6] = [(0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0)];

/// A ply: a stone on (file, rank), or the swap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Place(usize, usize),
    Swap,
}

/// A Havannah position.
#[derive(Clone, Debug)]
pub struct Havannah {
    pub base: usize,
    pub swap: bool,
    /// `board[file][rank]`: the colour of the stone there; cells off the hexagon are never
    /// used.
    pub board: Vec<Vec<Option<usize>>>,
    pub to_move: usize,
    pub plies: usize,
    pub result: Option<GameResult>,
    first: Option<(usize, usize)>,
}

impl Havannah {
    /// The empty board (rule 1).
    pub fn new(base: usize, swap: bool) -> Havannah {
        let width = 2 * base - 1;
        Havannah {
            base,
            swap,
            board: vec![vec![None; width]; width],
            to_move: 0,
            plies: 0,
            result: None,
            first: None,
        }
    }

    fn width(&self) -> i32 {
        2 * self.base as i32 - 1
    }

    /// Whether (f, r) is a cell of the hexagon.
    pub fn is_cell(&self, f: i32, r: i32) -> bool {
        (0..self.width()).contains(&f)
            && (0..self.width()).contains(&r)
            && (f - r).abs() < self.base as i32
    }

    fn cells(&self) -> Vec<(usize, usize)> {
        let w = self.width();
        (0..w)
            .flat_map(|r| (0..w).map(move |f| (f, r)))
            .filter(|&(f, r)| self.is_cell(f, r))
            .map(|(f, r)| (f as usize, r as usize))
            .collect()
    }

    fn neighbours(&self, (f, r): (usize, usize)) -> Vec<(usize, usize)> {
        NEIGHBOURS
            .iter()
            .map(|&(df, dr)| (f as i32 + df, r as i32 + dr))
            .filter(|&(x, y)| self.is_cell(x, y))
            .map(|(x, y)| (x as usize, y as usize))
            .collect()
    }

    /// The six corners (rule 4).
    fn is_corner(&self, (f, r): (usize, usize)) -> bool {
        let (b, top) = (self.base - 1, 2 * self.base - 2);
        [(0, 0), (b, 0), (top, b), (top, top), (b, top), (0, b)].contains(&(f, r))
    }

    /// Which of the six sides a cell lies on, 0 to 5, corners excluded (rule 4).
    fn side(&self, (f, r): (usize, usize)) -> Option<usize> {
        if self.is_corner((f, r)) {
            return None;
        }
        let (b, top) = (self.base - 1, 2 * self.base - 2);
        [r == 0, f == 0, r == f + b, r == top, f == top, f == r + b]
            .iter()
            .position(|&on| on)
    }

    fn on_border(&self, cell: (usize, usize)) -> bool {
        self.neighbours(cell).len() < 6
    }

    /// The chain of `cell`'s colour through it.
    fn chain(&self, cell: (usize, usize)) -> Vec<(usize, usize)> {
        let colour = self.board[cell.0][cell.1];
        let mut seen = vec![cell];
        let mut todo = vec![cell];
        while let Some(c) = todo.pop() {
            for n in self.neighbours(c) {
                if self.board[n.0][n.1] == colour && !seen.contains(&n) {
                    seen.push(n);
                    todo.push(n);
                }
            }
        }
        seen
    }

    /// Whether `chain` goes around some cell (rule 5's ring).
    fn is_ring(&self, chain: &[(usize, usize)]) -> bool {
        self.cells().into_iter().any(|inside| {
            let mut seen = vec![inside];
            let mut todo = vec![inside];
            while let Some(c) = todo.pop() {
                if self.on_border(c) {
                    return false;
                }
                for n in self.neighbours(c) {
                    if !chain.contains(&n) && !seen.contains(&n) {
                        seen.push(n);
                        todo.push(n);
                    }
                }
            }
            true
        })
    }

    /// Whether `player` has a winning chain anywhere (rule 5).
    pub fn wins(&self, player: usize) -> bool {
        let mut done: Vec<(usize, usize)> = Vec::new();
        for cell in self.cells() {
            if self.board[cell.0][cell.1] != Some(player) || done.contains(&cell) {
                continue;
            }
            let chain = self.chain(cell);
            done.extend(&chain);
            let corners = chain.iter().filter(|&&c| self.is_corner(c)).count();
            let mut sides: Vec<usize> = chain.iter().filter_map(|&c| self.side(c)).collect();
            sides.sort();
            sides.dedup();
            if corners >= 2 || sides.len() >= 3 || self.is_ring(&chain) {
                return true;
            }
        }
        false
    }
}

impl Reference for Havannah {
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
        let mut out: Vec<Move> = self
            .cells()
            .into_iter()
            .filter(|&(f, r)| self.board[f][r].is_none())
            .map(|(f, r)| Move::Place(f, r))
            .collect();
        if self.swap && self.plies == 1 {
            out.push(Move::Swap);
        }
        out
    }

    fn notation(&self, ply: &Move) -> String {
        match ply {
            Move::Place(f, r) => cell_name(*f, *r),
            Move::Swap => "swap".to_string(),
        }
    }

    fn apply(&mut self, ply: &Move) {
        let me = self.to_move;
        match *ply {
            Move::Place(f, r) => {
                self.board[f][r] = Some(me);
                self.first = self.first.or(Some((f, r)));
            }
            Move::Swap => {
                let (f, r) = self.first.expect("a first stone");
                self.board[f][r] = Some(me);
            }
        }
        self.plies += 1;
        self.to_move = 1 - me;
        if self.wins(me) {
            self.result = Some(GameResult::Win(PLAYERS[me]));
        } else if self
            .cells()
            .iter()
            .all(|&(f, r)| self.board[f][r].is_some())
        {
            self.result = Some(GameResult::Draw);
        }
    }

    fn result(&self) -> Option<GameResult> {
        self.result.clone()
    }

    fn plies(&self) -> usize {
        self.plies
    }

    fn render(&self) -> String {
        let w = self.width();
        let mut out = Vec::new();
        for r in (0..w).rev() {
            let row: String = (0..w)
                .map(|f| {
                    if !self.is_cell(f, r) {
                        ' '
                    } else {
                        match self.board[f as usize][r as usize] {
                            Some(0) => 'W',
                            Some(_) => 'B',
                            None => '.',
                        }
                    }
                })
                .collect();
            out.push(format!("{:2} {row}", r + 1));
        }
        out.push(format!("{} to move", PLAYERS[self.to_move]));
        out.join("\n")
    }
}
