//! STAQS (Rey Alicea, 2024), from docs/rules/staqs.md.
//!
//! - 5x5 grid, every cell a lone neutral. Blue and white, 4 pieces each; blue first.
//! - Placement (8 plies, alternating): put a piece on a lone neutral: a stack of height 2.
//! - Movement: step a stack one cell (orthogonally; diagonally too with the variant) onto a
//!   lone neutral; height + 1; the cell left becomes empty for good.
//! - No legal step: `pass` (forced). The game ends after two consecutive passes.
//! - Winner: heights sorted tallest first, compared element by element; identical: draw.
//! - Notation: `c3` (placement), `c3-c4` (step), `pass`.

use super::{GameResult, Reference, cell_name};

pub const SIZE: usize = 5;
pub const PLAYERS: [&str; 2] = ["blue", "white"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// A lone neutral piece.
    Neutral,
    /// Nothing: a stack left it.
    Empty,
    /// A player's stack (player index, height counting every piece in it).
    Stack { owner: usize, height: usize },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Place(usize),
    Step { from: usize, to: usize },
    Pass,
}

#[derive(Clone, Debug)]
pub struct Staqs {
    pub diagonal_steps: bool,
    /// Index `rank * 5 + file`, both 0-based.
    pub cells: Vec<Cell>,
    /// Index into [`PLAYERS`].
    pub to_move: usize,
    pub plies: usize,
    /// Whether the previous ply was a pass.
    pub last_passed: bool,
    pub result: Option<GameResult>,
}

/// The winner by the rules: heights sorted tallest first, compared element by element.
pub fn compare_heights(blue: &[usize], white: &[usize]) -> GameResult {
    let mut b = blue.to_vec();
    let mut w = white.to_vec();
    b.sort_by(|x, y| y.cmp(x));
    w.sort_by(|x, y| y.cmp(x));
    for (x, y) in b.iter().zip(w.iter()) {
        if x > y {
            return GameResult::Win(PLAYERS[0]);
        }
        if y > x {
            return GameResult::Win(PLAYERS[1]);
        }
    }
    // Equal lists (the rules give each player 4 stacks, so lengths match).
    match b.len().cmp(&w.len()) {
        std::cmp::Ordering::Greater => GameResult::Win(PLAYERS[0]),
        std::cmp::Ordering::Less => GameResult::Win(PLAYERS[1]),
        std::cmp::Ordering::Equal => GameResult::Draw,
    }
}

impl Staqs {
    pub fn new(diagonal_steps: bool) -> Staqs {
        Staqs {
            diagonal_steps,
            cells: vec![Cell::Neutral; SIZE * SIZE],
            to_move: 0,
            plies: 0,
            last_passed: false,
            result: None,
        }
    }

    fn name(index: usize) -> String {
        cell_name(index % SIZE, index / SIZE)
    }

    /// The cells one step away (orthogonal, plus diagonal with the variant).
    fn neighbours(&self, index: usize) -> Vec<usize> {
        let (file, rank) = ((index % SIZE) as i64, (index / SIZE) as i64);
        let mut dirs = vec![(0, 1), (1, 0), (0, -1), (-1, 0)];
        if self.diagonal_steps {
            dirs.extend([(1, 1), (1, -1), (-1, -1), (-1, 1)]);
        }
        dirs.into_iter()
            .map(|(df, dr)| (file + df, rank + dr))
            .filter(|&(f, r)| (0..SIZE as i64).contains(&f) && (0..SIZE as i64).contains(&r))
            .map(|(f, r)| r as usize * SIZE + f as usize)
            .collect()
    }

    /// The stack heights of a player.
    pub fn heights(&self, player: usize) -> Vec<usize> {
        self.cells
            .iter()
            .filter_map(|c| match *c {
                Cell::Stack { owner, height } if owner == player => Some(height),
                _ => None,
            })
            .collect()
    }
}

impl Reference for Staqs {
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
        if self.plies < 8 {
            return (0..self.cells.len())
                .filter(|&i| self.cells[i] == Cell::Neutral)
                .map(Move::Place)
                .collect();
        }
        let mut out = Vec::new();
        for from in 0..self.cells.len() {
            if let Cell::Stack { owner, .. } = self.cells[from]
                && owner == self.to_move
            {
                for to in self.neighbours(from) {
                    if self.cells[to] == Cell::Neutral {
                        out.push(Move::Step { from, to });
                    }
                }
            }
        }
        if out.is_empty() {
            out.push(Move::Pass);
        }
        out
    }

    fn notation(&self, ply: &Move) -> String {
        match *ply {
            Move::Place(cell) => Staqs::name(cell),
            Move::Step { from, to } => format!("{}-{}", Staqs::name(from), Staqs::name(to)),
            Move::Pass => "pass".to_string(),
        }
    }

    fn apply(&mut self, ply: &Move) {
        let me = self.to_move;
        let mut passed = false;
        match *ply {
            Move::Place(cell) => {
                assert_eq!(self.cells[cell], Cell::Neutral);
                self.cells[cell] = Cell::Stack {
                    owner: me,
                    height: 2,
                };
            }
            Move::Step { from, to } => {
                let Cell::Stack { owner, height } = self.cells[from] else {
                    panic!("no stack on {}", Staqs::name(from));
                };
                assert_eq!(owner, me);
                assert_eq!(self.cells[to], Cell::Neutral);
                self.cells[to] = Cell::Stack {
                    owner,
                    height: height + 1,
                };
                self.cells[from] = Cell::Empty;
            }
            Move::Pass => passed = true,
        }
        self.plies += 1;
        if passed && self.last_passed {
            self.result = Some(compare_heights(&self.heights(0), &self.heights(1)));
        }
        self.last_passed = passed;
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
        for rank in (0..SIZE).rev() {
            out.push_str(&format!("{} ", rank + 1));
            for file in 0..SIZE {
                out.push_str(&match self.cells[rank * SIZE + file] {
                    Cell::Neutral => " n".to_string(),
                    Cell::Empty => " .".to_string(),
                    Cell::Stack { owner, height } => {
                        format!(" {}{height}", if owner == 0 { 'B' } else { 'W' })
                    }
                });
            }
            out.push('\n');
        }
        out.push_str("   a b c d e\n");
        out.push_str(&format!(
            "{} to act, ply {}, previous ply a pass: {}\n",
            self.to_move(),
            self.plies,
            self.last_passed
        ));
        out
    }
}

#[test]
fn staqs_reference_facts() {
    let mut s = Staqs::new(false);
    assert_eq!(s.legal().len(), 25);
    assert_eq!(s.to_move(), "blue");
    s.play("c3").unwrap();
    assert_eq!(s.to_move(), "white");
    assert_eq!(s.legal().len(), 24);
    assert!(!s.legal().contains(&"c3".to_string()));
    assert_eq!(super::perft(&Staqs::new(false), 1), 25);
    assert_eq!(super::perft(&Staqs::new(false), 2), 600);
    // The winner example: blue 5,2,2,2 against white 4,4,2,2: blue.
    assert_eq!(
        compare_heights(&[2, 5, 2, 2], &[4, 2, 4, 2]),
        GameResult::Win("blue")
    );
    assert_eq!(
        compare_heights(&[3, 3, 2, 2], &[3, 3, 3, 2]),
        GameResult::Win("white")
    );
    assert_eq!(
        compare_heights(&[4, 3, 2, 2], &[2, 4, 2, 3]),
        GameResult::Draw
    );
}

#[test]
fn staqs_reference_movement_and_end() {
    // Blue on a1, b1, a2, c1; white on e5, d5, e4, d4.
    let mut s = Staqs::new(false);
    for ply in ["a1", "e5", "b1", "d5", "a2", "e4", "c1", "d4"] {
        s.play(ply).unwrap();
    }
    assert_eq!(s.to_move(), "blue");
    let legal = s.legal();
    assert!(!legal.contains(&"a1-b1".to_string()), "{legal:?}");
    assert!(legal.contains(&"c1-d1".to_string()), "{legal:?}");
    assert!(legal.contains(&"a2-a3".to_string()), "{legal:?}");
    assert!(!legal.contains(&"c1-d2".to_string()), "{legal:?}");
    let mut diag = Staqs::new(true);
    for ply in ["a1", "e5", "b1", "d5", "a2", "e4", "c1", "d4"] {
        diag.play(ply).unwrap();
    }
    assert!(diag.legal().contains(&"c1-d2".to_string()));
    // Step then check the origin is empty for good.
    s.play("c1-d1").unwrap();
    let (f, r) = super::parse_cell("c1", 5, 5).unwrap();
    assert_eq!(s.cells[r * 5 + f], Cell::Empty);
    assert_eq!(s.heights(0).iter().max(), Some(&3));
}

#[test]
fn staqs_reference_passes_end_the_game() {
    // Movement phase, every cell empty but the stacks: nobody can step.
    let mut s = Staqs::new(false);
    s.cells = vec![Cell::Empty; 25];
    s.plies = 8;
    let stacks = [
        (0, 0, 5),
        (2, 0, 2),
        (4, 0, 2),
        (0, 2, 2),
        (4, 4, 4),
        (2, 4, 4),
        (0, 4, 2),
        (4, 2, 2),
    ];
    for (i, (f, r, h)) in stacks.into_iter().enumerate() {
        s.cells[r * 5 + f] = Cell::Stack {
            owner: i / 4,
            height: h,
        };
    }
    assert_eq!(s.legal(), vec!["pass"]);
    s.play("pass").unwrap();
    assert_eq!(s.result(), None);
    assert_eq!(s.to_move(), "white");
    assert_eq!(s.legal(), vec!["pass"]);
    s.play("pass").unwrap();
    assert_eq!(s.result(), Some(GameResult::Win("blue")));
    assert!(s.legal().is_empty());
    // A pass followed by a step does not end it.
    let mut t = Staqs::new(false);
    t.cells = vec![Cell::Empty; 25];
    t.plies = 8;
    t.cells[0] = Cell::Stack {
        owner: 0,
        height: 2,
    };
    t.cells[24] = Cell::Stack {
        owner: 1,
        height: 2,
    };
    t.cells[23] = Cell::Neutral;
    t.play("pass").unwrap();
    assert_eq!(t.legal(), vec!["e5-d5"]);
    t.play("e5-d5").unwrap();
    t.play("pass").unwrap();
    assert_eq!(t.result(), None);
    t.play("pass").unwrap();
    assert_eq!(t.result(), Some(GameResult::Win("white")));
}
