//! Abalone, from docs/rules/abalone.md (rule numbers are that file's).
//!
//! - A hexagon of 61 cells, side 5: rows `a` to `i`, diagonals 1 to 9; a cell exists
//!   when its row and diagonal differ by at most 4 (rule 1). Black's 14 marbles fill rows
//!   a and b and c3-c5, white's rows h and i and g5-g7; black first (rule 2).
//! - A move shifts one, two or three of one's marbles in a line one step: in line (may
//!   push fewer opposing marbles, followed by an empty cell or the edge; a marble pushed
//!   past the edge is off) or broadside, two or three marbles each into an empty cell
//!   (rules 3 to 6).
//! - The first to push `to_win` opposing marbles off wins (rule 7).
//!
//! A 9x9 array indexed by (row, diagonal), 0-based; each line is walked cell by cell.

use super::{GameResult, Reference};

/// Turn order (rule 2: black moves first).
pub const PLAYERS: [&str; 2] = ["black", "white"];

/// The six neighbours as (row, diagonal) steps: along a row, along a diagonal, and the
/// third line, on which row and diagonal change together (rule 1).
const STEPS: [(i32, i32); 6] = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)];

/// A ply: the marbles that move (in line: from the back; broadside: from the lower end)
/// and the step they all take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// The cells of the mover's marbles.
    pub marbles: Vec<(i32, i32)>,
    /// The step every marble takes.
    pub step: (i32, i32),
    /// Whether it is an in-line move (written with two cells) or broadside (three).
    pub inline: bool,
}

/// An Abalone position.
#[derive(Clone, Debug)]
pub struct Abalone {
    /// `board[row][diagonal]`: the colour of the marble there (index into [`PLAYERS`]).
    pub board: [[Option<usize>; 9]; 9],
    /// Opposing marbles each player has pushed off.
    pub taken: [usize; 2],
    pub to_win: usize,
    pub to_move: usize,
    pub plies: usize,
    pub result: Option<GameResult>,
}

/// Whether (row, diagonal) is a cell of the board (rule 1).
fn on_board(row: i32, diagonal: i32) -> bool {
    (0..9).contains(&row) && (0..9).contains(&diagonal) && (row - diagonal).abs() <= 4
}

/// A cell's name: the row letter, then the diagonal number.
fn name((row, diagonal): (i32, i32)) -> String {
    format!("{}{}", (b'a' + row as u8) as char, diagonal + 1)
}

impl Abalone {
    /// The standard start (rule 2), won at `to_win` marbles pushed off.
    pub fn new(to_win: usize) -> Abalone {
        let mut pos = Abalone::empty(to_win);
        for row in 0..9 {
            for diagonal in 0..9 {
                if !on_board(row, diagonal) {
                    continue;
                }
                let at = &mut pos.board[row as usize][diagonal as usize];
                if row <= 1 || (row == 2 && (2..=4).contains(&diagonal)) {
                    *at = Some(0);
                } else if row >= 7 || (row == 6 && (4..=6).contains(&diagonal)) {
                    *at = Some(1);
                }
            }
        }
        pos
    }

    /// An empty board, black to move: positions built by hand start here.
    pub fn empty(to_win: usize) -> Abalone {
        Abalone {
            board: [[None; 9]; 9],
            taken: [0, 0],
            to_win,
            to_move: 0,
            plies: 0,
            result: None,
        }
    }

    /// Puts a marble of `player` (0 black, 1 white) on the cell written `text` (`e5`).
    pub fn put(&mut self, text: &str, player: usize) {
        let bytes = text.as_bytes();
        let row = i32::from(bytes[0] - b'a');
        let diagonal = i32::from(bytes[1] - b'1');
        assert!(on_board(row, diagonal), "{text} is not a cell");
        self.board[row as usize][diagonal as usize] = Some(player);
    }

    /// The marble on a cell; `None` off the board too.
    fn at(&self, (row, diagonal): (i32, i32)) -> Option<usize> {
        if on_board(row, diagonal) {
            self.board[row as usize][diagonal as usize]
        } else {
            None
        }
    }

    /// The marbles `player` has on the board.
    pub fn marbles(&self, player: usize) -> usize {
        self.board
            .iter()
            .flatten()
            .filter(|&&m| m == Some(player))
            .count()
    }

    /// The in-line moves of the marble at `back` along `step` (rules 3 to 5): the line of
    /// the mover's marbles that starts there, one to three long, then what lies ahead.
    fn inline_move(&self, back: (i32, i32), step: (i32, i32)) -> Option<Move> {
        let me = self.to_move;
        let ahead = |(r, d): (i32, i32)| (r + step.0, d + step.1);
        let mut marbles = vec![back];
        let mut cell = ahead(back);
        while on_board(cell.0, cell.1) && self.at(cell) == Some(me) {
            marbles.push(cell);
            cell = ahead(cell);
        }
        if marbles.len() > 3 || !on_board(cell.0, cell.1) {
            return None; // more than three, or my own line would leave the board
        }
        if self.at(cell).is_some() {
            // Opposing marbles: fewer than mine, then an empty cell or the edge.
            let mut opposing = 0;
            while on_board(cell.0, cell.1) && self.at(cell) == Some(1 - me) {
                opposing += 1;
                cell = ahead(cell);
            }
            if opposing >= marbles.len() {
                return None;
            }
            if on_board(cell.0, cell.1) && self.at(cell).is_some() {
                return None; // my own marble behind theirs
            }
        }
        Some(Move {
            marbles,
            step,
            inline: true,
        })
    }

    /// A cell plus a step.
    fn add((r, d): (i32, i32), (dr, dd): (i32, i32)) -> (i32, i32) {
        (r + dr, d + dd)
    }
}

impl Reference for Abalone {
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
        let me = self.to_move;
        let mut out = Vec::new();
        for row in 0..9 {
            for diagonal in 0..9 {
                let cell = (row, diagonal);
                if self.at(cell) != Some(me) {
                    continue;
                }
                for step in STEPS {
                    out.extend(self.inline_move(cell, step));
                }
                // Broadside (rule 6): the line goes up from this, its lower end, along
                // a positive step; every marble steps sideways into an empty cell.
                for axis in [(0, 1), (1, 0), (1, 1)] {
                    let mut line = vec![cell];
                    for _ in 0..2 {
                        let next = Abalone::add(*line.last().unwrap(), axis);
                        if self.at(next) != Some(me) {
                            break;
                        }
                        line.push(next);
                        for step in STEPS {
                            if step == axis || step == (-axis.0, -axis.1) {
                                continue;
                            }
                            let free = line.iter().all(|&m| {
                                let to = Abalone::add(m, step);
                                on_board(to.0, to.1) && self.at(to).is_none()
                            });
                            if free {
                                out.push(Move {
                                    marbles: line.clone(),
                                    step,
                                    inline: false,
                                });
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn notation(&self, ply: &Move) -> String {
        let first = ply.marbles[0];
        let to = Abalone::add(first, ply.step);
        if ply.inline {
            format!("{}{}", name(first), name(to))
        } else {
            let last = *ply.marbles.last().unwrap();
            format!("{}{}{}", name(first), name(last), name(to))
        }
    }

    fn apply(&mut self, ply: &Move) {
        let me = self.to_move;
        if ply.inline {
            // The whole line ahead of the back marble, to the first empty cell or edge.
            let mut line = vec![ply.marbles[0]];
            loop {
                let next = Abalone::add(*line.last().unwrap(), ply.step);
                if !on_board(next.0, next.1) {
                    // The front marble leaves the board (rule 5).
                    let front = line.pop().unwrap();
                    self.board[front.0 as usize][front.1 as usize] = None;
                    self.taken[me] += 1;
                    break;
                }
                if self.at(next).is_none() {
                    break;
                }
                line.push(next);
            }
            for &cell in line.iter().rev() {
                let to = Abalone::add(cell, ply.step);
                self.board[to.0 as usize][to.1 as usize] = self.at(cell);
                self.board[cell.0 as usize][cell.1 as usize] = None;
            }
        } else {
            for &cell in &ply.marbles {
                let to = Abalone::add(cell, ply.step);
                self.board[to.0 as usize][to.1 as usize] = Some(me);
                self.board[cell.0 as usize][cell.1 as usize] = None;
            }
        }
        self.plies += 1;
        if self.taken[me] >= self.to_win {
            self.result = Some(GameResult::Win(PLAYERS[me]));
        }
        self.to_move = 1 - me;
    }

    fn result(&self) -> Option<GameResult> {
        self.result.clone()
    }

    fn plies(&self) -> usize {
        self.plies
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for row in (0..9).rev() {
            out.push((b'a' + row as u8) as char);
            out.push(' ');
            for _ in 0..(row - 4i32).abs() {
                out.push(' ');
            }
            for diagonal in 0..9 {
                if on_board(row, diagonal) {
                    out.push(match self.at((row, diagonal)) {
                        Some(0) => 'B',
                        Some(_) => 'W',
                        None => '.',
                    });
                    out.push(' ');
                }
            }
            out.push('\n');
        }
        out.push_str(&format!(
            "{} to move, taken {:?}\n",
            PLAYERS[self.to_move], self.taken
        ));
        out
    }
}
