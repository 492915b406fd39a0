//! Minidrop, the shogi-like test game of `tests/games/minidrop.toml`, written from the rules
//! in that file's header alone: minishogi's board, set-up and pieces; the king captured
//! (or a player with no legal ply) loses; captured pieces go to the captor's hand demoted
//! and are dropped back on empty squares (no pawn on the far rank, nor on a file holding
//! an unpromoted pawn of the dropper); optional promotion for a move starting or ending
//! on the far rank, compulsory for a pawn reaching it.

use super::{GameResult, Reference, cell_name};

pub const PLAYERS: [&str; 2] = ["black", "white"];
const SIZE: i32 = 5;

/// The piece kinds, promoted ones last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    King,
    Rook,
    Bishop,
    Gold,
    Silver,
    Pawn,
    Dragon,
    Horse,
    PromotedSilver,
    Tokin,
}

pub const KINDS: [Kind; 10] = [
    Kind::King,
    Kind::Rook,
    Kind::Bishop,
    Kind::Gold,
    Kind::Silver,
    Kind::Pawn,
    Kind::Dragon,
    Kind::Horse,
    Kind::PromotedSilver,
    Kind::Tokin,
];

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::King => "king",
            Kind::Rook => "rook",
            Kind::Bishop => "bishop",
            Kind::Gold => "gold",
            Kind::Silver => "silver",
            Kind::Pawn => "pawn",
            Kind::Dragon => "dragon",
            Kind::Horse => "horse",
            Kind::PromotedSilver => "psilver",
            Kind::Tokin => "tokin",
        }
    }

    fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Rook => 'R',
            Kind::Bishop => 'B',
            Kind::Gold => 'G',
            Kind::Silver => 'S',
            Kind::Pawn => 'P',
            Kind::Dragon => 'D',
            Kind::Horse => 'H',
            Kind::PromotedSilver => 'N',
            Kind::Tokin => 'T',
        }
    }

    pub fn promoted(self) -> Option<Kind> {
        match self {
            Kind::Rook => Some(Kind::Dragon),
            Kind::Bishop => Some(Kind::Horse),
            Kind::Silver => Some(Kind::PromotedSilver),
            Kind::Pawn => Some(Kind::Tokin),
            _ => None,
        }
    }

    pub fn demoted(self) -> Kind {
        match self {
            Kind::Dragon => Kind::Rook,
            Kind::Horse => Kind::Bishop,
            Kind::PromotedSilver => Kind::Silver,
            Kind::Tokin => Kind::Pawn,
            k => k,
        }
    }

    fn index(self) -> usize {
        KINDS.iter().position(|&k| k == self).expect("a kind")
    }
}

/// A ply: a move (promoting or not) or a drop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Move {
    Step {
        from: usize,
        to: usize,
        promote: bool,
    },
    Drop {
        kind: Kind,
        to: usize,
    },
}

#[derive(Clone, Debug)]
pub struct Minidrop {
    /// Cells indexed file + 5 × rank (0-based), a1 first.
    pub board: [Option<(Kind, usize)>; 25],
    /// Pieces in hand per player, by kind.
    pub hand: [[u32; 10]; 2],
    pub to_move: usize,
    pub plies: usize,
    pub result: Option<GameResult>,
}

fn at(file: i32, rank: i32) -> Option<usize> {
    ((0..SIZE).contains(&file) && (0..SIZE).contains(&rank)).then(|| (file + SIZE * rank) as usize)
}

fn coords(cell: usize) -> (i32, i32) {
    (cell as i32 % SIZE, cell as i32 / SIZE)
}

fn name(cell: usize) -> String {
    let (f, r) = coords(cell);
    cell_name(f as usize, r as usize)
}

const KING: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];
/// (files aside, ranks ahead) as the mover sees them.
const GOLD: [(i32, i32); 6] = [(0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0), (0, -1)];
const SILVER: [(i32, i32); 5] = [(0, 1), (1, 1), (-1, 1), (1, -1), (-1, -1)];
const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

impl Minidrop {
    pub fn new() -> Minidrop {
        let mut board = [None; 25];
        let back = [
            Kind::King,
            Kind::Gold,
            Kind::Silver,
            Kind::Bishop,
            Kind::Rook,
        ];
        for (i, &k) in back.iter().enumerate() {
            board[i] = Some((k, 0));
            // White's set-up is black's turned half a circle.
            board[24 - i] = Some((k, 1));
        }
        board[5] = Some((Kind::Pawn, 0));
        board[19] = Some((Kind::Pawn, 1));
        Minidrop {
            board,
            hand: [[0; 10]; 2],
            to_move: 0,
            plies: 0,
            result: None,
        }
    }

    fn far(cell: usize, player: usize) -> bool {
        coords(cell).1 == if player == 0 { SIZE - 1 } else { 0 }
    }

    /// The cells the piece on `from` attacks (own pieces included as blockers, not as
    /// targets).
    fn targets(&self, from: usize) -> Vec<usize> {
        let Some((kind, owner)) = self.board[from] else {
            return Vec::new();
        };
        let forward = if owner == 0 { 1 } else { -1 };
        let (f, r) = coords(from);
        let mut out = Vec::new();
        let steps: &[(i32, i32)] = match kind {
            Kind::King | Kind::Dragon | Kind::Horse => &KING,
            Kind::Gold | Kind::Tokin | Kind::PromotedSilver => &GOLD,
            Kind::Silver => &SILVER,
            Kind::Pawn => &[(0, 1)],
            Kind::Rook | Kind::Bishop => &[],
        };
        for &(df, dr) in steps {
            if let Some(c) = at(f + df, r + dr * forward) {
                out.push(c);
            }
        }
        let slides: &[(i32, i32)] = match kind {
            Kind::Rook | Kind::Dragon => &ORTHOGONAL,
            Kind::Bishop | Kind::Horse => &DIAGONAL,
            _ => &[],
        };
        for &(df, dr) in slides {
            let (mut x, mut y) = (f + df, r + dr);
            while let Some(c) = at(x, y) {
                out.push(c);
                if self.board[c].is_some() {
                    break;
                }
                x += df;
                y += dr;
            }
        }
        out.sort_unstable();
        out.dedup();
        out.retain(|&c| self.board[c].is_none_or(|(_, o)| o != owner));
        out
    }

    fn plies_of(&self, player: usize) -> Vec<Move> {
        let mut out = Vec::new();
        for from in 0..25 {
            let Some((kind, owner)) = self.board[from] else {
                continue;
            };
            if owner != player {
                continue;
            }
            for to in self.targets(from) {
                let zone = Self::far(from, player) || Self::far(to, player);
                let pawn_on_far = kind == Kind::Pawn && Self::far(to, player);
                if !pawn_on_far {
                    out.push(Move::Step {
                        from,
                        to,
                        promote: false,
                    });
                }
                if zone && kind.promoted().is_some() {
                    out.push(Move::Step {
                        from,
                        to,
                        promote: true,
                    });
                }
            }
        }
        for kind in KINDS {
            if self.hand[player][kind.index()] == 0 {
                continue;
            }
            for to in 0..25 {
                if self.board[to].is_some() {
                    continue;
                }
                if kind == Kind::Pawn {
                    let file = coords(to).0;
                    let doubled = (0..SIZE).any(|rank| {
                        at(file, rank).and_then(|c| self.board[c]) == Some((Kind::Pawn, player))
                    });
                    if doubled || Self::far(to, player) {
                        continue;
                    }
                }
                out.push(Move::Drop { kind, to });
            }
        }
        out
    }

    fn has_king(&self, player: usize) -> bool {
        self.board.contains(&Some((Kind::King, player)))
    }
}

impl Default for Minidrop {
    fn default() -> Self {
        Minidrop::new()
    }
}

impl Reference for Minidrop {
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
        self.plies_of(self.to_move)
    }

    fn notation(&self, ply: &Move) -> String {
        match ply {
            Move::Step { from, to, promote } => {
                format!(
                    "{}-{}{}",
                    name(*from),
                    name(*to),
                    if *promote { "+" } else { "" }
                )
            }
            Move::Drop { kind, to } => format!("{}*{}", kind.name(), name(*to)),
        }
    }

    fn apply(&mut self, ply: &Move) {
        let me = self.to_move;
        match *ply {
            Move::Step { from, to, promote } => {
                if let Some((taken, _)) = self.board[to] {
                    self.hand[me][taken.demoted().index()] += 1;
                }
                let (kind, owner) = self.board[from].take().expect("a piece to move");
                let kind = if promote {
                    kind.promoted().expect("a promotable piece")
                } else {
                    kind
                };
                self.board[to] = Some((kind, owner));
            }
            Move::Drop { kind, to } => {
                self.hand[me][kind.index()] -= 1;
                self.board[to] = Some((kind, me));
            }
        }
        self.plies += 1;
        let other = 1 - me;
        if !self.has_king(other) || self.plies_of(other).is_empty() {
            self.result = Some(GameResult::Win(PLAYERS[me]));
        }
        self.to_move = other;
    }

    fn result(&self) -> Option<GameResult> {
        self.result.clone()
    }

    fn plies(&self) -> usize {
        self.plies
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for rank in (0..SIZE).rev() {
            out.push_str(&format!("{} ", rank + 1));
            for file in 0..SIZE {
                let c = at(file, rank).expect("on the board");
                out.push(match self.board[c] {
                    None => '.',
                    Some((k, 0)) => k.letter(),
                    Some((k, _)) => k.letter().to_ascii_lowercase(),
                });
            }
            out.push('\n');
        }
        for (p, hand) in self.hand.iter().enumerate() {
            let held: Vec<String> = KINDS
                .iter()
                .filter(|k| hand[k.index()] > 0)
                .map(|k| format!("{}x{}", k.name(), hand[k.index()]))
                .collect();
            out.push_str(&format!("{} hand: {}\n", PLAYERS[p], held.join(" ")));
        }
        out.push_str(&format!("{} to move\n", PLAYERS[self.to_move]));
        out
    }
}
