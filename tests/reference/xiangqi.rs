//! Xiangqi, from docs/rules/xiangqi.md (rule numbers are that file's).
//!
//! - A 9x10 board, red at the bottom and first (rules 1, 2); palaces and river (rule 3).
//! - Each piece's moves as rules 4-11 say them, walked point by point.
//! - A move is legal if, once made, no opposing move could land on the mover's general
//!   and the generals do not face each other on an open file (rules 12, 13): the
//!   opponent's moves are generated and looked at, rather than any attack test.
//! - No legal move loses (rule 14); the third occurrence of a position draws (rule 15);
//!   120 plies without a capture draw unless the player to move is in check (rule 16).
//!
//! A plain array of points; nothing is shared with the interpreter.

use super::{GameResult, Reference};

/// Turn order (rule 2: red first).
pub const PLAYERS: [&str; 2] = ["red", "black"];

/// The kinds of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    General,
    Advisor,
    Elephant,
    Horse,
    Chariot,
    Cannon,
    Soldier,
}

/// A ply: from (file, rank) to (file, rank), 0-based, rank 0 on red's side.
pub type Move = ((i32, i32), (i32, i32));

type Board = [[Option<(Kind, usize)>; 10]; 9];

/// A Xiangqi position.
#[derive(Clone, Debug)]
pub struct Xiangqi {
    /// `board[file][rank]`: the kind and side (index into [`PLAYERS`]) of the piece there.
    pub board: Board,
    pub to_move: usize,
    pub plies: usize,
    /// Plies since the last capture (rule 16).
    pub quiet: usize,
    /// Every position so far, with the player to move, the start included (rule 15).
    pub history: Vec<(Board, usize)>,
    pub result: Option<GameResult>,
    /// The occurrence that draws (rule 15: 3).
    pub repeats: usize,
    /// Plies without a capture that draw (rule 16: 120).
    pub quiet_limit: usize,
}

impl Default for Xiangqi {
    fn default() -> Self {
        Xiangqi::new()
    }
}

fn on_board(f: i32, r: i32) -> bool {
    (0..9).contains(&f) && (0..10).contains(&r)
}

fn in_palace(f: i32, r: i32, side: usize) -> bool {
    (3..=5).contains(&f) && if side == 0 { r <= 2 } else { r >= 7 }
}

fn own_half(r: i32, side: usize) -> bool {
    if side == 0 { r <= 4 } else { r >= 5 }
}

impl Xiangqi {
    /// The start (rule 2).
    pub fn new() -> Xiangqi {
        use Kind::*;
        let mut board: Board = [[None; 10]; 9];
        let back = [
            Chariot, Horse, Elephant, Advisor, General, Advisor, Elephant, Horse, Chariot,
        ];
        for (f, &k) in back.iter().enumerate() {
            board[f][0] = Some((k, 0));
            board[f][9] = Some((k, 1));
        }
        for f in [1, 7] {
            board[f][2] = Some((Cannon, 0));
            board[f][7] = Some((Cannon, 1));
        }
        for f in [0, 2, 4, 6, 8] {
            board[f][3] = Some((Soldier, 0));
            board[f][6] = Some((Soldier, 1));
        }
        Xiangqi::from_board(board, 0)
    }

    /// A position with this board and this side to move, as if it had just come about.
    pub fn from_board(board: Board, to_move: usize) -> Xiangqi {
        Xiangqi {
            board,
            to_move,
            plies: 0,
            quiet: 0,
            history: vec![(board, to_move)],
            result: None,
            repeats: 3,
            quiet_limit: 120,
        }
    }

    fn at(&self, f: i32, r: i32) -> Option<(Kind, usize)> {
        if on_board(f, r) {
            self.board[f as usize][r as usize]
        } else {
            None
        }
    }

    /// The moves of `side`'s pieces by rules 4-11, ignoring rules 12 and 13.
    fn pseudo(&self, side: usize) -> Vec<Move> {
        let mut out = Vec::new();
        for f in 0..9i32 {
            for r in 0..10i32 {
                let Some((kind, s)) = self.at(f, r) else {
                    continue;
                };
                if s != side {
                    continue;
                }
                let push = |t: (i32, i32), out: &mut Vec<Move>| {
                    if on_board(t.0, t.1) && self.at(t.0, t.1).is_none_or(|(_, o)| o != side) {
                        out.push(((f, r), t));
                    }
                };
                let orth = [(0, 1), (1, 0), (0, -1), (-1, 0)];
                let diag = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
                match kind {
                    Kind::General => {
                        for (df, dr) in orth {
                            if in_palace(f + df, r + dr, side) {
                                push((f + df, r + dr), &mut out);
                            }
                        }
                    }
                    Kind::Advisor => {
                        for (df, dr) in diag {
                            if in_palace(f + df, r + dr, side) {
                                push((f + df, r + dr), &mut out);
                            }
                        }
                    }
                    Kind::Elephant => {
                        for (df, dr) in diag {
                            let (tf, tr) = (f + 2 * df, r + 2 * dr);
                            if on_board(tf, tr)
                                && own_half(tr, side)
                                && self.at(f + df, r + dr).is_none()
                            {
                                push((tf, tr), &mut out);
                            }
                        }
                    }
                    Kind::Horse => {
                        for (df, dr) in orth {
                            if !on_board(f + df, r + dr) || self.at(f + df, r + dr).is_some() {
                                continue;
                            }
                            // Then one point diagonally outward: on along (df, dr), and
                            // one to either side of it.
                            let (sf, sr) = (dr, df);
                            push((f + 2 * df + sf, r + 2 * dr + sr), &mut out);
                            push((f + 2 * df - sf, r + 2 * dr - sr), &mut out);
                        }
                    }
                    Kind::Chariot | Kind::Cannon => {
                        for (df, dr) in orth {
                            let (mut tf, mut tr) = (f + df, r + dr);
                            let mut screen = false;
                            while on_board(tf, tr) {
                                match self.at(tf, tr) {
                                    None => {
                                        if !screen {
                                            push((tf, tr), &mut out);
                                        }
                                    }
                                    Some((_, o)) => {
                                        if kind == Kind::Chariot || screen {
                                            if o != side {
                                                push((tf, tr), &mut out);
                                            }
                                            break;
                                        }
                                        screen = true;
                                    }
                                }
                                tf += df;
                                tr += dr;
                            }
                        }
                    }
                    Kind::Soldier => {
                        let fwd = if side == 0 { 1 } else { -1 };
                        push((f, r + fwd), &mut out);
                        if !own_half(r, side) {
                            push((f + 1, r), &mut out);
                            push((f - 1, r), &mut out);
                        }
                    }
                }
            }
        }
        out
    }

    fn general(&self, side: usize) -> Option<(i32, i32)> {
        (0..9i32)
            .flat_map(|f| (0..10i32).map(move |r| (f, r)))
            .find(|&(f, r)| self.at(f, r) == Some((Kind::General, side)))
    }

    /// Whether `side`'s general could be taken by a move of the other side, or faces the
    /// other general on an open file (rules 12, 13).
    pub fn in_check(&self, side: usize) -> bool {
        let Some(g) = self.general(side) else {
            return true;
        };
        if self.pseudo(1 - side).iter().any(|&(_, to)| to == g) {
            return true;
        }
        if let Some(o) = self.general(1 - side)
            && o.0 == g.0
        {
            let (lo, hi) = (g.1.min(o.1), g.1.max(o.1));
            return (lo + 1..hi).all(|r| self.at(g.0, r).is_none());
        }
        false
    }

    fn make(&self, (from, to): Move) -> Board {
        let mut b = self.board;
        b[to.0 as usize][to.1 as usize] = b[from.0 as usize][from.1 as usize].take();
        b
    }

    /// The legal moves of the player to move, ignoring whether the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.pseudo(self.to_move)
            .into_iter()
            .filter(|&m| {
                let mut next = self.clone();
                next.board = self.make(m);
                !next.in_check(self.to_move)
            })
            .collect()
    }
}

fn iccs((f, r): (i32, i32)) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r)
}

impl Reference for Xiangqi {
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

    fn notation(&self, &(from, to): &Move) -> String {
        format!("{}{}", iccs(from), iccs(to))
    }

    fn apply(&mut self, &m: &Move) {
        let took = self.at(m.1.0, m.1.1).is_some();
        self.board = self.make(m);
        self.plies += 1;
        self.quiet = if took { 0 } else { self.quiet + 1 };
        self.to_move = 1 - self.to_move;
        self.history.push((self.board, self.to_move));
        let seen = self
            .history
            .iter()
            .filter(|h| **h == (self.board, self.to_move))
            .count();
        let quiet_draw = self.quiet >= self.quiet_limit && !self.in_check(self.to_move);
        if seen >= self.repeats || quiet_draw {
            self.result = Some(GameResult::Draw);
        } else if self.legal_moves().is_empty() {
            // Rule 14: checkmate and stalemate both lose.
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
        let mut s = String::new();
        for r in (0..10).rev() {
            s.push_str(&format!("{r} "));
            for f in 0..9 {
                let ch = match self.at(f, r) {
                    None => '.',
                    Some((k, side)) => {
                        let c = match k {
                            Kind::General => 'K',
                            Kind::Advisor => 'A',
                            Kind::Elephant => 'B',
                            Kind::Horse => 'N',
                            Kind::Chariot => 'R',
                            Kind::Cannon => 'C',
                            Kind::Soldier => 'P',
                        };
                        if side == 0 { c } else { c.to_ascii_lowercase() }
                    }
                };
                s.push(' ');
                s.push(ch);
            }
            s.push('\n');
        }
        s.push_str("   a b c d e f g h i\n");
        s
    }
}
