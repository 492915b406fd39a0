//! Nine Men's Morris, from docs/rules/morris.md (rule numbers are that file's).
//!
//! - 24 points named on a 7x7 grid, sixteen lines of three points; adjacent points are
//!   next to each other on a line (rules 1, 2). Empty at the start, nine men in hand
//!   each, white first (rule 3).
//! - With men in hand: place one on an empty point (rule 4). Then: move a man to an
//!   adjacent empty point (rule 5), or to any empty point with exactly three men on the
//!   board (rule 6).
//! - A man that completes a line of three of its owner's men removes one opposing man,
//!   not one in a mill unless all are; one removal even for two mills; none when the
//!   opponent has no man on the board (rules 7-9).
//! - A player who has placed all nine and has fewer than three men loses (rule 10); a
//!   player with no legal move on their turn loses (rule 11).
//! - Notation: `d6`, `a1-d1`, `d6xg7`, `a1-d1xg7`.

use std::sync::OnceLock;

use super::{GameResult, Reference};

/// Turn order (rule 3: white plays first).
pub const PLAYERS: [&str; 2] = ["white", "black"];

/// The points (rule 1): outer, middle and inner square, each from its lower left corner.
pub const POINTS: [&str; 24] = [
    "a1", "d1", "g1", "g4", "g7", "d7", "a7", "a4", //
    "b2", "d2", "f2", "f4", "f6", "d6", "b6", "b4", //
    "c3", "d3", "e3", "e4", "e5", "d5", "c5", "c4",
];

/// The sixteen lines of three points (rule 2), each in order along the line.
pub const LINES: [[&str; 3]; 16] = [
    ["a7", "d7", "g7"],
    ["b6", "d6", "f6"],
    ["c5", "d5", "e5"],
    ["a4", "b4", "c4"],
    ["e4", "f4", "g4"],
    ["c3", "d3", "e3"],
    ["b2", "d2", "f2"],
    ["a1", "d1", "g1"],
    ["a1", "a4", "a7"],
    ["b2", "b4", "b6"],
    ["c3", "c4", "c5"],
    ["d5", "d6", "d7"],
    ["d1", "d2", "d3"],
    ["e3", "e4", "e5"],
    ["f2", "f4", "f6"],
    ["g1", "g4", "g7"],
];

/// The index of a point in [`POINTS`].
pub fn at(name: &str) -> usize {
    POINTS
        .iter()
        .position(|p| *p == name)
        .unwrap_or_else(|| panic!("{name} is not a point"))
}

/// The lines as point indices, and for each point the points adjacent to it.
struct Tables {
    lines: Vec<[usize; 3]>,
    adjacent: Vec<Vec<usize>>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let lines: Vec<[usize; 3]> = LINES.iter().map(|l| l.map(at)).collect();
        let mut adjacent = vec![Vec::new(); POINTS.len()];
        for [a, b, c] in &lines {
            for (x, y) in [(a, b), (b, c)] {
                adjacent[*x].push(*y);
                adjacent[*y].push(*x);
            }
        }
        Tables { lines, adjacent }
    })
}

/// The points adjacent to `point` (rule 2).
pub fn adjacent(point: usize) -> &'static [usize] {
    &tables().adjacent[point]
}

/// A ply: a placement (`from` none) or a move, and the man it removes, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub from: Option<usize>,
    pub to: usize,
    pub remove: Option<usize>,
}

/// A Nine Men's Morris position.
#[derive(Clone, Debug)]
pub struct Morris {
    /// The owner of the man on each point (index into [`PLAYERS`]), by [`POINTS`] index.
    pub board: [Option<usize>; 24],
    /// Men not yet placed, per player.
    pub hand: [usize; 2],
    /// Index into [`PLAYERS`].
    pub to_move: usize,
    pub plies: usize,
    pub result: Option<GameResult>,
}

impl Default for Morris {
    fn default() -> Self {
        Morris::new()
    }
}

impl Morris {
    /// The empty board, nine men in each hand, white to move.
    pub fn new() -> Morris {
        Morris {
            board: [None; 24],
            hand: [9, 9],
            to_move: 0,
            plies: 0,
            result: None,
        }
    }

    /// How many men `player` has on the board.
    pub fn men(&self, player: usize) -> usize {
        self.board.iter().filter(|o| **o == Some(player)).count()
    }

    /// Whether the man on `point` stands in a mill: a line through it holds three men of
    /// its owner (rule 7).
    pub fn in_mill(&self, point: usize) -> bool {
        let Some(owner) = self.board[point] else {
            return false;
        };
        tables()
            .lines
            .iter()
            .any(|line| line.contains(&point) && line.iter().all(|&p| self.board[p] == Some(owner)))
    }

    /// The men of `player` that a mill may remove (rule 8): those in no mill, or all of
    /// them when every one stands in a mill.
    fn removable(&self, player: usize) -> Vec<usize> {
        let men: Vec<usize> = (0..24).filter(|&p| self.board[p] == Some(player)).collect();
        let free: Vec<usize> = men.iter().copied().filter(|&p| !self.in_mill(p)).collect();
        if free.is_empty() { men } else { free }
    }

    /// The plies of the player to move, ignoring whether the game is over.
    fn plies_of_player(&self) -> Vec<Move> {
        let me = self.to_move;
        let mut steps = Vec::new();
        if self.hand[me] > 0 {
            // Rule 4.
            steps.extend(
                (0..24)
                    .filter(|&p| self.board[p].is_none())
                    .map(|to| (None, to)),
            );
        } else {
            // Rules 5 and 6.
            let flying = self.men(me) == 3;
            for from in (0..24).filter(|&p| self.board[p] == Some(me)) {
                for to in (0..24).filter(|&p| self.board[p].is_none()) {
                    if flying || adjacent(from).contains(&to) {
                        steps.push((Some(from), to));
                    }
                }
            }
        }
        let mut out = Vec::new();
        for (from, to) in steps {
            let mut after = self.clone();
            if let Some(from) = from {
                after.board[from] = None;
            }
            after.board[to] = Some(me);
            // Rules 7-9: a mill removes one man, if the opponent has any on the board.
            let taken = if after.in_mill(to) {
                after.removable(1 - me)
            } else {
                Vec::new()
            };
            if taken.is_empty() {
                out.push(Move {
                    from,
                    to,
                    remove: None,
                });
            }
            for remove in taken {
                out.push(Move {
                    from,
                    to,
                    remove: Some(remove),
                });
            }
        }
        out
    }
}

impl Reference for Morris {
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
        self.plies_of_player()
    }

    fn notation(&self, ply: &Move) -> String {
        let mut text = match ply.from {
            Some(from) => format!("{}-{}", POINTS[from], POINTS[ply.to]),
            None => POINTS[ply.to].to_string(),
        };
        if let Some(r) = ply.remove {
            text.push('x');
            text.push_str(POINTS[r]);
        }
        text
    }

    fn apply(&mut self, ply: &Move) {
        let me = self.to_move;
        let other = 1 - me;
        match ply.from {
            Some(from) => self.board[from] = None,
            None => self.hand[me] -= 1,
        }
        self.board[ply.to] = Some(me);
        if let Some(r) = ply.remove {
            self.board[r] = None;
        }
        self.plies += 1;
        // Rule 10, for the opponent (reduced by the removal) and for the player (who may
        // have placed their last man with fewer than three on the board).
        if self.hand[other] == 0 && self.men(other) < 3 {
            self.result = Some(GameResult::Win(PLAYERS[me]));
            return;
        }
        if self.hand[me] == 0 && self.men(me) < 3 {
            self.result = Some(GameResult::Win(PLAYERS[other]));
            return;
        }
        // Rule 11.
        self.to_move = other;
        if self.plies_of_player().is_empty() {
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
        let mut grid = vec![vec!['.'; 7]; 7];
        for (p, name) in POINTS.iter().enumerate() {
            let (file, rank) = super::parse_cell(name, 7, 7).expect("a point");
            grid[6 - rank][file] = match self.board[p] {
                Some(0) => 'W',
                Some(_) => 'B',
                None => '+',
            };
        }
        let mut out: Vec<String> = grid.iter().map(|row| row.iter().collect()).collect();
        out.push(format!(
            "{} to move, in hand: white {}, black {}",
            PLAYERS[self.to_move], self.hand[0], self.hand[1]
        ));
        out.join("\n")
    }
}

#[test]
fn the_board_has_sixteen_lines_and_each_point_is_on_two() {
    for (p, name) in POINTS.iter().enumerate() {
        let lines = tables().lines.iter().filter(|l| l.contains(&p)).count();
        assert_eq!(lines, 2, "{name}");
    }
    let degree = |name: &str| adjacent(at(name)).len();
    assert_eq!((degree("a1"), degree("d2"), degree("b4")), (2, 4, 4));
    assert_eq!(degree("d3"), 3);
    assert!(
        !adjacent(at("d3")).contains(&at("d5")),
        "the centre is no point"
    );
}
