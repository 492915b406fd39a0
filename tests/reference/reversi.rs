//! Reversi (Othello), from docs/rules/reversi.md (rule numbers are that file's).
//!
//! - An 8x8 board; white on d4 and e5, black on d5 and e4; black first (rules 1, 2).
//! - A move puts a disc where it flanks at least one line of opposing discs, in any of
//!   eight directions, and turns every flanked line (rules 3, 4). A player without a
//!   move passes, written `pass` (rule 5).
//! - The game ends when neither player can move; more discs win, equal counts draw
//!   (rules 6, 7).
//!
//! A plain 8x8 array; each direction is walked square by square.

use super::{GameResult, Reference, cell_name};

/// Turn order (rule 2: black plays first).
pub const PLAYERS: [&str; 2] = ["black", "white"];

/// The eight directions as (file, rank) steps.
const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// A ply: a disc on (file, rank), 0-based, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Place(usize, usize),
    Pass,
}

/// A Reversi position.
#[derive(Clone, Debug)]
pub struct Reversi {
    /// `board[file][rank]`: the colour of the disc there (index into [`PLAYERS`]).
    pub board: [[Option<usize>; 8]; 8],
    pub to_move: usize,
    pub plies: usize,
    pub result: Option<GameResult>,
}

impl Default for Reversi {
    fn default() -> Self {
        Reversi::new()
    }
}

impl Reversi {
    /// The start (rule 2).
    pub fn new() -> Reversi {
        let mut board = [[None; 8]; 8];
        board[3][3] = Some(1);
        board[4][4] = Some(1);
        board[3][4] = Some(0);
        board[4][3] = Some(0);
        Reversi {
            board,
            to_move: 0,
            plies: 0,
            result: None,
        }
    }

    /// The discs `player` would turn by putting one on the empty (file, rank) (rules 3, 4).
    pub fn flips(&self, file: usize, rank: usize, player: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (df, dr) in DIRECTIONS {
            let mut run = Vec::new();
            let (mut f, mut r) = (file as i32 + df, rank as i32 + dr);
            while (0..8).contains(&f) && (0..8).contains(&r) {
                match self.board[f as usize][r as usize] {
                    Some(c) if c != player => run.push((f as usize, r as usize)),
                    Some(_) => {
                        out.extend(run.iter().copied());
                        break;
                    }
                    None => break,
                }
                f += df;
                r += dr;
            }
        }
        out
    }

    /// The squares where `player` may put a disc.
    pub fn placements(&self, player: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for file in 0..8 {
            for rank in 0..8 {
                if self.board[file][rank].is_none() && !self.flips(file, rank, player).is_empty() {
                    out.push((file, rank));
                }
            }
        }
        out
    }

    /// How many discs `player` has.
    pub fn discs(&self, player: usize) -> usize {
        self.board
            .iter()
            .flatten()
            .filter(|&&c| c == Some(player))
            .count()
    }
}

impl Reference for Reversi {
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
        let placements = self.placements(self.to_move);
        if placements.is_empty() {
            return vec![Move::Pass];
        }
        placements
            .into_iter()
            .map(|(f, r)| Move::Place(f, r))
            .collect()
    }

    fn notation(&self, ply: &Move) -> String {
        match ply {
            Move::Place(f, r) => cell_name(*f, *r),
            Move::Pass => "pass".to_string(),
        }
    }

    fn apply(&mut self, ply: &Move) {
        let me = self.to_move;
        if let Move::Place(f, r) = *ply {
            for (x, y) in self.flips(f, r, me) {
                self.board[x][y] = Some(me);
            }
            self.board[f][r] = Some(me);
        }
        self.plies += 1;
        self.to_move = 1 - me;
        // Rules 6 and 7.
        if self.placements(0).is_empty() && self.placements(1).is_empty() {
            self.result = Some(match self.discs(0).cmp(&self.discs(1)) {
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
        for rank in (0..8).rev() {
            let row: String = (0..8)
                .map(|file| match self.board[file][rank] {
                    Some(0) => 'B',
                    Some(_) => 'W',
                    None => '.',
                })
                .collect();
            out.push(format!("{} {row}", rank + 1));
        }
        out.push(format!("{} to move", PLAYERS[self.to_move]));
        out.join("\n")
    }
}
