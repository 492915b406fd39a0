//! English draughts, from docs/rules/draughts.md (rule numbers are that file's).
//!
//! - The 32 dark squares, numbered 1-32 from black's side, four to a row; black's men on
//!   1-12, white's on 21-32; black first (rules 1, 2).
//! - Men step diagonally forward, kings either way (rule 3). Jumps over an adjacent
//!   opposing piece to the empty square beyond, men forward only (rule 4); a piece that
//!   jumped jumps on while it can, the whole sequence one move (rule 5); capturing is
//!   compulsory, any sequence may be chosen (rule 6); a man reaching the far row is
//!   crowned and the move ends (rule 7).
//! - A player who cannot move loses (rule 8); the third occurrence of a position draws
//!   (rule 9), and so do forty moves each without a man moved or a capture (rule 10).
//! - Notation: `11-15`, `15x22`, `15x22x31`.
//!
//! Squares are kept by number; a square's row and column come from its number.

use std::collections::HashMap;

use super::{GameResult, Reference};

/// Turn order (rule 2: black moves first).
pub const PLAYERS: [&str; 2] = ["black", "white"];

/// A piece: its owner (index into [`PLAYERS`]) and whether it is a king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub owner: usize,
    pub king: bool,
}

/// A move: the squares the piece stands on, from the first to the last (numbers 1-32),
/// and whether it jumps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub path: Vec<usize>,
    pub capture: bool,
}

/// Row (0 = black's back row, the one holding 1-4) and column (0-7, left to right as
/// white sees the board) of square `n` (rule 1).
pub fn row_col(n: usize) -> (i32, i32) {
    let row = (n - 1) / 4;
    // Row 0 holds the second, fourth, ... columns; row 1 the first, third, ...
    let col = 2 * ((n - 1) % 4) + usize::from(row.is_multiple_of(2));
    (row as i32, col as i32)
}

/// The square at (row, column), if it is a dark square on the board.
pub fn square_at(row: i32, col: i32) -> Option<usize> {
    if !(0..8).contains(&row) || !(0..8).contains(&col) || (row + col) % 2 == 0 {
        return None;
    }
    Some(row as usize * 4 + col as usize / 2 + 1)
}

/// An English draughts position, with the history the draw rules need.
#[derive(Clone, Debug)]
pub struct Draughts {
    /// The piece on each square, by number (index 0 unused).
    pub board: [Option<Piece>; 33],
    pub to_move: usize,
    pub plies: usize,
    /// Plies since a man last moved or a piece was captured (rule 10).
    pub quiet: usize,
    /// How often each position (board and player to move) has occurred (rule 9).
    pub seen: HashMap<([Option<Piece>; 33], usize), usize>,
    pub result: Option<GameResult>,
}

impl Default for Draughts {
    fn default() -> Self {
        Draughts::new()
    }
}

impl Draughts {
    /// The start (rule 2).
    pub fn new() -> Draughts {
        let man = |owner| Some(Piece { owner, king: false });
        let mut board = [None; 33];
        board[1..=12].fill(man(0));
        board[21..=32].fill(man(1));
        Draughts {
            board,
            to_move: 0,
            plies: 0,
            quiet: 0,
            seen: HashMap::from([((board, 0), 1)]),
            result: None,
        }
    }

    /// The row steps a piece may take: a man's forward one, both for a king (rules 3, 4).
    fn rows(piece: Piece) -> &'static [i32] {
        match (piece.king, piece.owner) {
            (true, _) => &[-1, 1],
            (false, 0) => &[1],
            (false, _) => &[-1],
        }
    }

    /// Whether a man of `owner` on `square` stands on its far row (rule 7).
    fn crowns(owner: usize, square: usize) -> bool {
        if owner == 0 {
            square >= 29
        } else {
            square <= 4
        }
    }

    /// Every jump sequence of the piece on `path`'s last square, on `board` (the jumped
    /// pieces already gone), appended to `out` (rules 4, 5, 7).
    fn jumps(&self, board: &[Option<Piece>; 33], path: Vec<usize>, out: &mut Vec<Move>) {
        let at = *path.last().expect("a path");
        let piece = board[at].expect("the jumping piece");
        let (row, col) = row_col(at);
        let mut further = false;
        for &dr in Self::rows(piece) {
            for dc in [-1, 1] {
                let (Some(over), Some(to)) = (
                    square_at(row + dr, col + dc),
                    square_at(row + 2 * dr, col + 2 * dc),
                ) else {
                    continue;
                };
                if board[over].is_none_or(|p| p.owner == piece.owner) || board[to].is_some() {
                    continue;
                }
                further = true;
                let mut next = *board;
                next[over] = None;
                next[at] = None;
                let mut path = path.clone();
                path.push(to);
                if !piece.king && Self::crowns(piece.owner, to) {
                    // Rule 7: crowned, the move ends.
                    out.push(Move {
                        path,
                        capture: true,
                    });
                } else {
                    next[to] = Some(piece);
                    self.jumps(&next, path, out);
                }
            }
        }
        if !further && path.len() > 1 {
            out.push(Move {
                path,
                capture: true,
            });
        }
    }

    /// The moves of `player`, whatever the game's state (rules 3-7).
    pub fn moves_of(&self, player: usize) -> Vec<Move> {
        let mut captures = Vec::new();
        for n in 1..=32 {
            if self.board[n].is_some_and(|p| p.owner == player) {
                self.jumps(&self.board, vec![n], &mut captures);
            }
        }
        if !captures.is_empty() {
            return captures;
        }
        let mut steps = Vec::new();
        for n in 1..=32 {
            let Some(piece) = self.board[n].filter(|p| p.owner == player) else {
                continue;
            };
            let (row, col) = row_col(n);
            for &dr in Self::rows(piece) {
                for dc in [-1, 1] {
                    if let Some(to) = square_at(row + dr, col + dc)
                        && self.board[to].is_none()
                    {
                        steps.push(Move {
                            path: vec![n, to],
                            capture: false,
                        });
                    }
                }
            }
        }
        steps
    }
}

impl Reference for Draughts {
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

    fn notation(&self, ply: &Move) -> String {
        let joint = if ply.capture { "x" } else { "-" };
        ply.path
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(joint)
    }

    fn apply(&mut self, ply: &Move) {
        let me = self.to_move;
        let from = ply.path[0];
        let to = *ply.path.last().expect("a path");
        let mut piece = self.board[from].take().expect("a piece to move");
        if ply.capture {
            for leg in ply.path.windows(2) {
                let ((r0, c0), (r1, c1)) = (row_col(leg[0]), row_col(leg[1]));
                let over = square_at((r0 + r1) / 2, (c0 + c1) / 2).expect("a jumped square");
                self.board[over] = None;
            }
        }
        let man_moved = !piece.king;
        if !piece.king && Self::crowns(me, to) {
            piece.king = true;
        }
        self.board[to] = Some(piece);
        self.plies += 1;
        self.to_move = 1 - me;
        self.quiet = if ply.capture || man_moved {
            0
        } else {
            self.quiet + 1
        };
        let times = self.seen.entry((self.board, self.to_move)).or_insert(0);
        *times += 1;
        let repeated = *times >= 3;
        // Rule 8 first: a blocked player has lost, whatever the draw rules would say.
        self.result = if self.moves_of(self.to_move).is_empty() {
            Some(GameResult::Win(PLAYERS[me]))
        } else if repeated || self.quiet >= 80 {
            Some(GameResult::Draw)
        } else {
            None
        };
    }

    fn result(&self) -> Option<GameResult> {
        self.result.clone()
    }

    fn plies(&self) -> usize {
        self.plies
    }

    fn render(&self) -> String {
        let mut out = Vec::new();
        for row in 0..8 {
            let line: String = (0..8)
                .map(|col| match square_at(row, col).map(|n| self.board[n]) {
                    None => ' ',
                    Some(None) => '.',
                    Some(Some(p)) => match (p.owner, p.king) {
                        (0, false) => 'b',
                        (0, true) => 'B',
                        (_, false) => 'w',
                        (_, true) => 'W',
                    },
                })
                .collect();
            out.push(line);
        }
        out.push(format!(
            "{} to move, {} quiet plies",
            PLAYERS[self.to_move], self.quiet
        ));
        out.join("\n")
    }
}

#[test]
fn squares_are_numbered_from_blacks_side() {
    assert_eq!(row_col(1), (0, 1));
    assert_eq!(row_col(4), (0, 7));
    assert_eq!(row_col(5), (1, 0));
    assert_eq!(row_col(29), (7, 0));
    assert_eq!(row_col(32), (7, 6));
    for n in 1..=32 {
        let (r, c) = row_col(n);
        assert_eq!(square_at(r, c), Some(n));
    }
    assert_eq!(square_at(0, 0), None);
}
