//! Bounce (Mark Steere, 2023), from ../shared/rules/bounce.md.
//!
//! - n x n board, n even; every cell holds a checker except the four corners.
//! - file + rank (1-based) odd: red; even: blue. Red moves first.
//! - A move takes an own checker to any empty cell; legal only if the size of its group at
//!   the origin before the move is smaller than the size of its group at the destination
//!   after the move.
//! - No legal move: remove one own checker instead.
//! - After a player's ply, if all of that player's checkers form one orthogonal group, that
//!   player wins. Only the player who just acted is tested. No draw rule.
//! - Notation: `b1-a1` (move), `xb1` (removal).

use super::{GameResult, Reference, cell_name};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    Red,
    Blue,
}

impl Colour {
    pub fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Blue => "blue",
        }
    }

    pub fn other(self) -> Colour {
        match self {
            Colour::Red => Colour::Blue,
            Colour::Blue => Colour::Red,
        }
    }
}

/// A ply: cells are indices `rank * size + file` (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Step { from: usize, to: usize },
    Remove(usize),
}

#[derive(Clone, Debug)]
pub struct Bounce {
    pub size: usize,
    /// Index `rank * size + file`, both 0-based; `None` is an empty cell.
    pub cells: Vec<Option<Colour>>,
    pub to_move: Colour,
    pub plies: usize,
    pub result: Option<GameResult>,
}

impl Bounce {
    /// The initial position on a `size` x `size` board (`size` even, at least 4).
    pub fn new(size: usize) -> Bounce {
        assert!(
            size >= 4 && size.is_multiple_of(2),
            "Bounce needs an even size"
        );
        let mut cells = Vec::with_capacity(size * size);
        for rank in 0..size {
            for file in 0..size {
                let corner = (file == 0 || file == size - 1) && (rank == 0 || rank == size - 1);
                // 1-based file + rank odd <=> 0-based file + rank odd.
                let cell = if corner {
                    None
                } else if (file + 1 + rank + 1) % 2 == 1 {
                    Some(Colour::Red)
                } else {
                    Some(Colour::Blue)
                };
                cells.push(cell);
            }
        }
        Bounce {
            size,
            cells,
            to_move: Colour::Red,
            plies: 0,
            result: None,
        }
    }

    fn name(&self, index: usize) -> String {
        cell_name(index % self.size, index / self.size)
    }

    /// The orthogonal neighbours of a cell.
    fn neighbours(&self, index: usize) -> Vec<usize> {
        let n = self.size;
        let (file, rank) = (index % n, index / n);
        let mut out = Vec::with_capacity(4);
        if rank + 1 < n {
            out.push(index + n);
        }
        if file + 1 < n {
            out.push(index + 1);
        }
        if rank > 0 {
            out.push(index - n);
        }
        if file > 0 {
            out.push(index - 1);
        }
        out
    }

    /// The number of checkers of a colour.
    pub fn count(&self, colour: Colour) -> usize {
        self.cells.iter().filter(|c| **c == Some(colour)).count()
    }

    /// Labels the orthogonal groups of `colour`, treating cell `skip` as empty.
    /// Returns a label per cell (`usize::MAX` where there is no such checker) and the size
    /// of each label's group.
    fn groups(&self, colour: Colour, skip: Option<usize>) -> (Vec<usize>, Vec<usize>) {
        let mut label = vec![usize::MAX; self.cells.len()];
        let mut sizes = Vec::new();
        for start in 0..self.cells.len() {
            if self.cells[start] != Some(colour)
                || Some(start) == skip
                || label[start] != usize::MAX
            {
                continue;
            }
            let id = sizes.len();
            let mut size = 0;
            let mut stack = vec![start];
            label[start] = id;
            while let Some(cell) = stack.pop() {
                size += 1;
                for next in self.neighbours(cell) {
                    if self.cells[next] == Some(colour)
                        && Some(next) != skip
                        && label[next] == usize::MAX
                    {
                        label[next] = id;
                        stack.push(next);
                    }
                }
            }
            sizes.push(size);
        }
        (label, sizes)
    }

    /// Whether all checkers of `colour` form one group (at least one checker).
    pub fn one_group(&self, colour: Colour) -> bool {
        self.groups(colour, None).1.len() == 1
    }

    /// The moves (not removals) of the player to act.
    fn steps(&self) -> Vec<Move> {
        let me = self.to_move;
        let (label, sizes) = self.groups(me, None);
        let empties: Vec<usize> = (0..self.cells.len())
            .filter(|&i| self.cells[i].is_none())
            .collect();
        let mut out = Vec::new();
        for from in 0..self.cells.len() {
            if self.cells[from] != Some(me) {
                continue;
            }
            let before = sizes[label[from]];
            // The board with the checker lifted off its origin.
            let (lab, sz) = self.groups(me, Some(from));
            for &to in &empties {
                let mut joined: Vec<usize> = self
                    .neighbours(to)
                    .into_iter()
                    .filter(|&c| lab[c] != usize::MAX)
                    .map(|c| lab[c])
                    .collect();
                joined.sort();
                joined.dedup();
                let after = 1 + joined.iter().map(|&l| sz[l]).sum::<usize>();
                if before < after {
                    out.push(Move::Step { from, to });
                }
            }
        }
        out
    }
}

impl Reference for Bounce {
    type Move = Move;

    fn players(&self) -> Vec<&'static str> {
        vec!["red", "blue"]
    }

    fn to_move(&self) -> &'static str {
        self.to_move.name()
    }

    fn moves(&self) -> Vec<Move> {
        if self.result.is_some() {
            return Vec::new();
        }
        let steps = self.steps();
        if !steps.is_empty() {
            return steps;
        }
        (0..self.cells.len())
            .filter(|&i| self.cells[i] == Some(self.to_move))
            .map(Move::Remove)
            .collect()
    }

    fn notation(&self, ply: &Move) -> String {
        match *ply {
            Move::Step { from, to } => format!("{}-{}", self.name(from), self.name(to)),
            Move::Remove(cell) => format!("x{}", self.name(cell)),
        }
    }

    fn apply(&mut self, ply: &Move) {
        let me = self.to_move;
        match *ply {
            Move::Step { from, to } => {
                assert_eq!(self.cells[from], Some(me));
                assert_eq!(self.cells[to], None);
                self.cells[from] = None;
                self.cells[to] = Some(me);
            }
            Move::Remove(cell) => {
                assert_eq!(self.cells[cell], Some(me));
                self.cells[cell] = None;
            }
        }
        self.plies += 1;
        if self.one_group(me) {
            self.result = Some(GameResult::Win(me.name()));
        }
        self.to_move = me.other();
    }

    fn result(&self) -> Option<GameResult> {
        self.result.clone()
    }

    fn plies(&self) -> usize {
        self.plies
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for rank in (0..self.size).rev() {
            out.push_str(&format!("{:>2} ", rank + 1));
            for file in 0..self.size {
                out.push(match self.cells[rank * self.size + file] {
                    Some(Colour::Red) => 'r',
                    Some(Colour::Blue) => 'b',
                    None => '.',
                });
            }
            out.push('\n');
        }
        out.push_str("   ");
        out.extend((0..self.size).map(|f| (b'a' + f as u8) as char));
        out.push_str(&format!("\n{} to act\n", self.to_move.name()));
        out
    }
}

#[test]
fn bounce_reference_facts() {
    // 8x8: b1 and a2 red, c1 and b2 blue, corners empty, 30 checkers each.
    let b = Bounce::new(8);
    let at = |name: &str| {
        let (f, r) = super::parse_cell(name, 8, 8).unwrap();
        b.cells[r * 8 + f]
    };
    assert_eq!(at("b1"), Some(Colour::Red));
    assert_eq!(at("a2"), Some(Colour::Red));
    assert_eq!(at("c1"), Some(Colour::Blue));
    assert_eq!(at("b2"), Some(Colour::Blue));
    for corner in ["a1", "h1", "a8", "h8"] {
        assert_eq!(at(corner), None, "{corner}");
    }
    assert_eq!(b.count(Colour::Red), 30);
    assert_eq!(b.count(Colour::Blue), 30);
    // Red: 60 moves, each checker to a1 or h8.
    let legal = b.legal();
    assert_eq!(legal.len(), 60);
    assert!(
        legal
            .iter()
            .all(|m| m.ends_with("-a1") || m.ends_with("-h8")),
        "{legal:?}"
    );
    // Blue in the mirror position uses a8 and h1.
    let mut mirror = b.clone();
    mirror.to_move = Colour::Blue;
    let legal = mirror.legal();
    assert_eq!(legal.len(), 60);
    assert!(
        legal
            .iter()
            .all(|m| m.ends_with("-a8") || m.ends_with("-h1")),
        "{legal:?}"
    );
    // 6x6: 16 checkers each.
    let b6 = Bounce::new(6);
    assert_eq!(b6.count(Colour::Red), 16);
    assert_eq!(b6.count(Colour::Blue), 16);
    assert_eq!(Bounce::new(4).count(Colour::Red), 6);
}

#[test]
fn bounce_reference_removal_and_win() {
    // A hand-made 4x4 position: red b1, d3 and b3; blue c1 and d1.
    //   4 . . . .
    //   3 . r . r
    //   2 . . . .
    //   1 . r b b
    //     a b c d
    let mut b = Bounce::new(4);
    b.cells = vec![None; 16];
    let put = |b: &mut Bounce, name: &str, c: Colour| {
        let (f, r) = super::parse_cell(name, 4, 4).unwrap();
        b.cells[r * 4 + f] = Some(c);
    };
    put(&mut b, "b1", Colour::Red);
    put(&mut b, "d3", Colour::Red);
    put(&mut b, "b3", Colour::Red);
    put(&mut b, "c1", Colour::Blue);
    put(&mut b, "d1", Colour::Blue);
    // Blue's group of 2 cannot grow: it must remove a checker.
    b.to_move = Colour::Blue;
    assert_eq!(b.legal(), vec!["xc1", "xd1"]);
    // Red: a lone checker must end next to another red one.
    b.to_move = Colour::Red;
    let legal = b.legal();
    assert!(legal.contains(&"b1-b2".to_string()), "{legal:?}");
    assert!(legal.contains(&"d3-c3".to_string()), "{legal:?}");
    assert!(legal.contains(&"b1-c3".to_string()), "{legal:?}");
    assert!(!legal.contains(&"b1-a1".to_string()), "{legal:?}");
    assert!(!legal.iter().any(|m| m.starts_with('x')), "{legal:?}");
    // b1-b2 joins b3 only: red b2+b3, d3 apart: no win yet.
    b.play("b1-b2").unwrap();
    assert_eq!(b.result(), None);
    assert_eq!(b.to_move(), "blue");
    // Blue removes a checker and is left with one: one group, blue wins.
    b.play(" XC1 ").unwrap();
    assert_eq!(b.result(), Some(GameResult::Win("blue")));
    assert!(b.legal().is_empty());
}
