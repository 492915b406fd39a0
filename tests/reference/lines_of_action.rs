//! Lines of Action, from docs/rules/lines_of_action.md (rule numbers are that file's).
//!
//! - An 8x8 board; black on b1-g1 and b8-g8, white on a2-a7 and h2-h7; black first
//!   (rules 1, 2).
//! - A piece moves along one of its eight lines exactly as many squares as that line
//!   holds pieces, itself included; over its own pieces but no opposing one; onto an
//!   empty square or an opposing piece, which it captures (rules 3 to 5).
//! - One group of all of a player's pieces (eight neighbours touching) wins; when a move
//!   connects both, the mover wins, or it is a draw with the switch (rules 6, 7). A
//!   player who cannot move passes (rule 8).
//!
//! A plain 8x8 array, lines counted square by square, groups found by flood fill.

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

/// A move: from (file, rank) to (file, rank), 0-based.
pub type Move = ((usize, usize), (usize, usize));

/// A Lines of Action position.
#[derive(Clone, Debug)]
pub struct LinesOfAction {
    /// `board[file][rank]`: the colour of the piece there (index into [`PLAYERS`]).
    pub board: [[Option<usize>; 8]; 8],
    pub to_move: usize,
    pub plies: usize,
    pub result: Option<GameResult>,
    /// Rule 7's switch: a move connecting both players is a draw.
    pub simultaneous_draw: bool,
}

fn inside(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

impl LinesOfAction {
    /// The start (rules 1, 2).
    pub fn new(simultaneous_draw: bool) -> LinesOfAction {
        let mut board = [[None; 8]; 8];
        for (f, r) in (1..7).flat_map(|i| [(i, 0), (i, 7)]) {
            board[f][r] = Some(0);
        }
        for (f, r) in (1..7).flat_map(|i| [(0, i), (7, i)]) {
            board[f][r] = Some(1);
        }
        LinesOfAction {
            board,
            to_move: 0,
            plies: 0,
            result: None,
            simultaneous_draw,
        }
    }

    /// The moves of `player` (rules 3 to 5).
    pub fn moves_of(&self, player: usize) -> Vec<Move> {
        let mut out = Vec::new();
        for f in 0..8 {
            for r in 0..8 {
                if self.board[f][r] != Some(player) {
                    continue;
                }
                for (df, dr) in DIRECTIONS {
                    // Every piece on the whole line, both ways, the mover included.
                    let mut count = 1;
                    for sign in [1, -1] {
                        let (mut x, mut y) = (f as i32 + sign * df, r as i32 + sign * dr);
                        while inside(x, y) {
                            count += usize::from(self.board[x as usize][y as usize].is_some());
                            x += sign * df;
                            y += sign * dr;
                        }
                    }
                    let (tf, tr) = (f as i32 + count as i32 * df, r as i32 + count as i32 * dr);
                    if !inside(tf, tr) || self.board[tf as usize][tr as usize] == Some(player) {
                        continue;
                    }
                    let blocked = (1..count as i32).any(|k| {
                        let at =
                            self.board[(f as i32 + k * df) as usize][(r as i32 + k * dr) as usize];
                        at == Some(1 - player)
                    });
                    if !blocked {
                        out.push(((f, r), (tf as usize, tr as usize)));
                    }
                }
            }
        }
        out
    }

    /// Whether all of `player`'s pieces touch one another, square or corner (rule 6).
    pub fn connected(&self, player: usize) -> bool {
        let mine: Vec<(usize, usize)> = (0..8)
            .flat_map(|f| (0..8).map(move |r| (f, r)))
            .filter(|&(f, r)| self.board[f][r] == Some(player))
            .collect();
        let Some(&first) = mine.first() else {
            return false;
        };
        let mut seen = vec![first];
        let mut todo = vec![first];
        while let Some((f, r)) = todo.pop() {
            for (df, dr) in DIRECTIONS {
                let (x, y) = (f as i32 + df, r as i32 + dr);
                if inside(x, y) {
                    let at = (x as usize, y as usize);
                    if self.board[at.0][at.1] == Some(player) && !seen.contains(&at) {
                        seen.push(at);
                        todo.push(at);
                    }
                }
            }
        }
        seen.len() == mine.len()
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

impl Reference for LinesOfAction {
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

    fn notation(&self, &((f, r), (tf, tr)): &Move) -> String {
        let sep = if self.board[tf][tr].is_some() {
            "x"
        } else {
            "-"
        };
        format!("{}{sep}{}", cell_name(f, r), cell_name(tf, tr))
    }

    fn apply(&mut self, &((f, r), (tf, tr)): &Move) {
        let me = self.to_move;
        self.board[tf][tr] = self.board[f][r].take();
        self.plies += 1;
        let (mine, theirs) = (self.connected(me), self.connected(1 - me));
        self.result = match (mine, theirs) {
            (true, true) if self.simultaneous_draw => Some(GameResult::Draw),
            (true, _) => Some(GameResult::Win(PLAYERS[me])),
            (false, true) => Some(GameResult::Win(PLAYERS[1 - me])),
            (false, false) => None,
        };
        if self.result.is_some() {
            return;
        }
        // Rule 8: a player who cannot move passes; neither able to move is a draw.
        self.to_move = 1 - me;
        if self.moves_of(1 - me).is_empty() {
            if self.moves_of(me).is_empty() {
                self.result = Some(GameResult::Draw);
            } else {
                self.to_move = me;
            }
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
