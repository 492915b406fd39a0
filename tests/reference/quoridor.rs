//! Quoridor, from docs/rules/quoridor.md (rule numbers are that file's).
//!
//! - A square board of odd side (9 by default); white's pawn on the middle file of rank 1,
//!   black's on the middle file of the last rank; each player has walls in hand (10 by
//!   default); white first (rules 1, 2).
//! - A ply moves the pawn (rules 4 to 6) or places a wall (rules 7 to 9).
//! - A pawn steps to an orthogonal neighbour not walled off; onto the other pawn it jumps
//!   straight over it if nothing stops it behind, else goes to either side of it
//!   (rules 5, 6).
//! - A wall lies on the lines between cells, two cells long, centred on a point where four
//!   cells meet, across or along; it may not overlap or cross a placed wall, nor leave a
//!   pawn without a way to its goal rank (rules 7 to 9).
//! - Reaching the goal rank wins; after `max_plies` plies without a winner the game is a
//!   draw (rules 10, 11).
//!
//! Walls are kept as two grids of booleans indexed by their centre point, the point north
//! east of the cell that names them (its file and rank, 0-based). Whether a pawn still
//! reaches its goal is a flood fill over the cells from its own cell, pawns ignored.
//! Listing the walls tries every one of them; to keep that affordable, each pawn's one
//! known way to its goal is found once per listing, and a wall that cuts none of its steps
//! is known to leave the pawn a way without a new fill (that way is still there).

use std::collections::VecDeque;

use super::{GameResult, Reference, cell_name, parse_cell};

/// Turn order (rule 2: white plays first).
pub const PLAYERS: [&str; 2] = ["white", "black"];

/// A cell: (file, rank), 0-based from a1.
pub type Cell = (usize, usize);

/// How a wall lies: across the files (between two ranks) or along them (between two files).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lie {
    /// `h`: between ranks r and r+1, along files f and f+1.
    Horizontal,
    /// `v`: between files f and f+1, along ranks r and r+1.
    Vertical,
}

/// A ply: the pawn to a cell, or a wall whose centre is north-east of a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Pawn(Cell),
    Wall(Cell, Lie),
}

/// A Quoridor position.
#[derive(Clone, Debug)]
pub struct Quoridor {
    pub size: usize,
    /// Each player's pawn, by seat (0 white, 1 black).
    pub pawns: [Cell; 2],
    /// Walls each player still has to place.
    pub in_hand: [usize; 2],
    /// `horizontal[r * (size - 1) + f]`: a horizontal wall centred north-east of (f, r).
    pub horizontal: Vec<bool>,
    /// `vertical[r * (size - 1) + f]`: a vertical wall centred north-east of (f, r).
    pub vertical: Vec<bool>,
    pub to_move: usize,
    pub plies: usize,
    /// Rule 11: the draw after this many plies (`usize::MAX`: never).
    pub max_plies: usize,
    pub result: Option<GameResult>,
}

impl Quoridor {
    /// The start (rules 1, 2): pawns on the middle file of the first and last ranks,
    /// `walls` in each hand, no wall placed, white to move.
    pub fn new(size: usize, walls: usize, max_plies: usize) -> Quoridor {
        assert!(size % 2 == 1 && size >= 3, "an odd side of 3 or more");
        let points = (size - 1) * (size - 1);
        Quoridor {
            size,
            pawns: [(size / 2, 0), (size / 2, size - 1)],
            in_hand: [walls, walls],
            horizontal: vec![false; points],
            vertical: vec![false; points],
            to_move: 0,
            plies: 0,
            max_plies,
            result: None,
        }
    }

    /// The seat of a player by name.
    pub fn seat(name: &str) -> usize {
        PLAYERS
            .iter()
            .position(|&p| p == name)
            .unwrap_or_else(|| panic!("no player {name}"))
    }

    /// Puts `player`'s pawn on the cell named `cell`, for positions built by hand.
    pub fn set_pawn(&mut self, player: &str, cell: &str) {
        let at = parse_cell(cell, self.size, self.size).unwrap_or_else(|| panic!("cell {cell}"));
        self.pawns[Self::seat(player)] = at;
    }

    /// Places the wall written `text` (`e3h`) with none of rule 9's checks and no wall
    /// taken from a hand, for positions built by hand.
    pub fn put_wall(&mut self, text: &str) {
        let (cell, lie) = self
            .parse_wall(text)
            .unwrap_or_else(|| panic!("wall {text}"));
        self.place((cell, lie));
    }

    /// The wall written `text`: a cell whose north-east corner is a centre point, then
    /// `h` or `v` (the Notation section).
    pub fn parse_wall(&self, text: &str) -> Option<(Cell, Lie)> {
        let text = text.trim().to_ascii_lowercase();
        let lie = match text.chars().last()? {
            'h' => Lie::Horizontal,
            'v' => Lie::Vertical,
            _ => return None,
        };
        let n = self.size - 1;
        let cell = parse_cell(&text[..text.len() - 1], n, n)?;
        Some((cell, lie))
    }

    /// The index of the centre point north-east of `cell` in the wall grids.
    fn point(&self, (f, r): Cell) -> usize {
        r * (self.size - 1) + f
    }

    /// The rank a player's pawn makes for (rule 10).
    fn goal(&self, player: usize) -> usize {
        if player == 0 { self.size - 1 } else { 0 }
    }

    /// The cell one step from `from` in direction `(df, dr)` (one of them 0, the other
    /// ±1), if it is on the board and no wall lies between them (rule 4).
    pub fn open(&self, from: Cell, (df, dr): (i32, i32)) -> Option<Cell> {
        let n = self.size as i32;
        let (f, r) = (from.0 as i32 + df, from.1 as i32 + dr);
        if !(0..n).contains(&f) || !(0..n).contains(&r) {
            return None;
        }
        let to = (f as usize, r as usize);
        if self.walled(from, to) {
            None
        } else {
            Some(to)
        }
    }

    /// Whether a wall lies between two orthogonally adjacent cells: a horizontal wall
    /// centred on either end of the line between them (ranks), a vertical one likewise
    /// (files).
    fn walled(&self, a: Cell, b: Cell) -> bool {
        let m = self.size - 1;
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        if lo.0 == hi.0 {
            // One above the other: the line between ranks lo.1 and lo.1 + 1, which the
            // horizontal walls centred at files lo.0 - 1 and lo.0 cover.
            let (f, r) = lo;
            (f < m && self.horizontal[self.point((f, r))])
                || (f > 0 && self.horizontal[self.point((f - 1, r))])
        } else {
            // Side by side (lo is the western one): the line between files, which the
            // vertical walls centred at ranks lo.1 - 1 and lo.1 cover.
            let (f, r) = lo;
            (r < m && self.vertical[self.point((f, r))])
                || (r > 0 && self.vertical[self.point((f, r - 1))])
        }
    }

    /// Where the pawn of the player to move may go (rules 4 to 6).
    pub fn pawn_moves(&self) -> Vec<Cell> {
        let me = self.pawns[self.to_move];
        let other = self.pawns[1 - self.to_move];
        let mut out = Vec::new();
        for d in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
            let Some(next) = self.open(me, d) else {
                continue;
            };
            if next != other {
                out.push(next);
            } else if let Some(behind) = self.open(other, d) {
                out.push(behind);
            } else {
                // The two directions across the step, from the other pawn.
                for side in [(d.1, d.0), (-d.1, -d.0)] {
                    if let Some(beside) = self.open(other, side) {
                        out.push(beside);
                    }
                }
            }
        }
        out
    }

    /// The steps between cells a wall cuts, each as an ordered pair (the smaller first).
    fn cuts(((f, r), lie): (Cell, Lie)) -> [(Cell, Cell); 2] {
        match lie {
            Lie::Horizontal => [((f, r), (f, r + 1)), ((f + 1, r), (f + 1, r + 1))],
            Lie::Vertical => [((f, r), (f + 1, r)), ((f, r + 1), (f + 1, r + 1))],
        }
    }

    /// Whether the wall may be placed as far as the other walls go (rule 8): not on the
    /// same centre as a placed wall (the same wall, or crossing it), and not sharing a
    /// half with a placed wall of its own lie (centred one cell further along it).
    pub fn fits(&self, (cell, lie): (Cell, Lie)) -> bool {
        let m = self.size - 1;
        let (f, r) = cell;
        let i = self.point(cell);
        if self.horizontal[i] || self.vertical[i] {
            return false;
        }
        match lie {
            Lie::Horizontal => {
                let west = f > 0 && self.horizontal[self.point((f - 1, r))];
                let east = f + 1 < m && self.horizontal[self.point((f + 1, r))];
                !west && !east
            }
            Lie::Vertical => {
                let south = r > 0 && self.vertical[self.point((f, r - 1))];
                let north = r + 1 < m && self.vertical[self.point((f, r + 1))];
                !south && !north
            }
        }
    }

    /// A way (the cells in order) from a player's pawn to its goal rank, pawns ignored,
    /// by breadth-first search; `None` when the walls shut it in.
    pub fn way(&self, player: usize) -> Option<Vec<Cell>> {
        let n = self.size;
        let start = self.pawns[player];
        let goal = self.goal(player);
        let mut from: Vec<Option<Cell>> = vec![None; n * n];
        let mut seen = vec![false; n * n];
        let mut queue = VecDeque::from([start]);
        seen[start.1 * n + start.0] = true;
        while let Some(cell) = queue.pop_front() {
            if cell.1 == goal {
                let mut way = vec![cell];
                let mut at = cell;
                while let Some(prev) = from[at.1 * n + at.0] {
                    way.push(prev);
                    at = prev;
                }
                way.reverse();
                return Some(way);
            }
            for d in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                if let Some(next) = self.open(cell, d)
                    && !seen[next.1 * n + next.0]
                {
                    seen[next.1 * n + next.0] = true;
                    from[next.1 * n + next.0] = Some(cell);
                    queue.push_back(next);
                }
            }
        }
        None
    }

    /// Whether the wall may be placed by the player to move (rules 7 to 9), checking each
    /// pawn's way to its goal by a fresh flood fill with the wall in place.
    pub fn wall_legal_plain(&self, wall: (Cell, Lie)) -> bool {
        if self.in_hand[self.to_move] == 0 || !self.fits(wall) {
            return false;
        }
        let mut after = self.clone();
        after.place(wall);
        after.way(0).is_some() && after.way(1).is_some()
    }

    /// The same answer as [`Quoridor::wall_legal_plain`], given each pawn's way before
    /// the wall: a wall that cuts no step of a way leaves that way open, so only a wall
    /// that cuts one needs a fill.
    fn wall_legal(&self, wall: (Cell, Lie), ways: &[Vec<Cell>; 2]) -> bool {
        if self.in_hand[self.to_move] == 0 || !self.fits(wall) {
            return false;
        }
        let cuts = Self::cuts(wall);
        let cut = |way: &Vec<Cell>| {
            way.windows(2).any(|w| {
                let step = if w[0] < w[1] {
                    (w[0], w[1])
                } else {
                    (w[1], w[0])
                };
                cuts.contains(&step)
            })
        };
        if !cut(&ways[0]) && !cut(&ways[1]) {
            return true;
        }
        let mut after = self.clone();
        after.place(wall);
        after.way(0).is_some() && after.way(1).is_some()
    }

    fn place(&mut self, (cell, lie): (Cell, Lie)) {
        let i = self.point(cell);
        match lie {
            Lie::Horizontal => self.horizontal[i] = true,
            Lie::Vertical => self.vertical[i] = true,
        }
    }

    /// Every wall placement the player to move may make (rules 7 to 9).
    pub fn wall_moves(&self) -> Vec<(Cell, Lie)> {
        if self.in_hand[self.to_move] == 0 {
            return Vec::new();
        }
        let ways = [0, 1].map(|p| self.way(p).expect("every pawn has a way (rule 9)"));
        let m = self.size - 1;
        let mut out = Vec::new();
        for r in 0..m {
            for f in 0..m {
                for lie in [Lie::Horizontal, Lie::Vertical] {
                    if self.wall_legal(((f, r), lie), &ways) {
                        out.push(((f, r), lie));
                    }
                }
            }
        }
        out
    }

    fn legal_moves(&self) -> Vec<Move> {
        let mut out: Vec<Move> = self.pawn_moves().into_iter().map(Move::Pawn).collect();
        out.extend(
            self.wall_moves()
                .into_iter()
                .map(|(c, lie)| Move::Wall(c, lie)),
        );
        out
    }
}

impl Reference for Quoridor {
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
            Move::Pawn((f, r)) => cell_name(f, r),
            Move::Wall((f, r), lie) => {
                let letter = if lie == Lie::Horizontal { 'h' } else { 'v' };
                format!("{}{letter}", cell_name(f, r))
            }
        }
    }

    fn apply(&mut self, m: &Move) {
        let me = self.to_move;
        match *m {
            Move::Pawn(to) => self.pawns[me] = to,
            Move::Wall(cell, lie) => {
                self.place((cell, lie));
                self.in_hand[me] -= 1;
            }
        }
        self.plies += 1;
        self.to_move = 1 - me;
        if self.pawns[me].1 == self.goal(me) {
            self.result = Some(GameResult::Win(PLAYERS[me]));
        } else if self.plies >= self.max_plies {
            self.result = Some(GameResult::Draw);
        }
    }

    fn result(&self) -> Option<GameResult> {
        self.result.clone()
    }

    fn plies(&self) -> usize {
        self.plies
    }

    /// Ranks from the top, `W` and `B` the pawns, `|` a vertical wall between two cells,
    /// `-` under a cell a horizontal wall between it and the cell below; then the hands.
    fn render(&self) -> String {
        let n = self.size;
        let mut s = String::new();
        for r in (0..n).rev() {
            s.push_str(&format!("{:2} ", r + 1));
            for f in 0..n {
                s.push(if self.pawns[0] == (f, r) {
                    'W'
                } else if self.pawns[1] == (f, r) {
                    'B'
                } else {
                    '.'
                });
                if f + 1 < n {
                    s.push(if self.walled((f, r), (f + 1, r)) {
                        '|'
                    } else {
                        ' '
                    });
                }
            }
            s.push('\n');
            if r > 0 {
                s.push_str("   ");
                for f in 0..n {
                    s.push(if self.walled((f, r), (f, r - 1)) {
                        '-'
                    } else {
                        ' '
                    });
                    s.push(' ');
                }
                s.push('\n');
            }
        }
        s.push_str("   ");
        for f in 0..n {
            s.push((b'a' + f as u8) as char);
            s.push(' ');
        }
        s.push_str(&format!(
            "\nwalls in hand: white {}, black {}; {} to move\n",
            self.in_hand[0], self.in_hand[1], PLAYERS[self.to_move]
        ));
        s
    }
}
