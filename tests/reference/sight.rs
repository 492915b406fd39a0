//! Sight (Kanare Abstract), from docs/rules/sight.md (rule numbers are that file's).
//!
//! - 5x5 Alquerque board: orthogonal lines everywhere, diagonal lines through the points
//!   whose file + rank is even (rule 1). Empty at the start; white first (rule 5).
//! - Line of sight: the first piece along each line direction of a point, either colour
//!   blocking (rule 4). A stack is 2+ pieces of one colour on a point (rule 3).
//! - No stack: place a singleton on any empty point; every friendly piece it sees grows by
//!   one (rule 6).
//! - A stack: move the top piece of one of them to an adjacent empty point; every friendly
//!   piece the moved piece sees grows by one, except the origin, which shrinks by one
//!   (rule 7). Only the highest stacks may move: by default the highest of those that can
//!   step; with `strict_priority` the highest of all, blocked or not (rule 8).
//! - No legal action: the player to act loses. No draws (rule 10).
//! - Notation: `c3` (placement), `c3-d4` (move).

use super::{GameResult, Reference, cell_name};

/// The side of the board.
pub const SIZE: usize = 5;
/// Turn order (rule 5: white plays first).
pub const PLAYERS: [&str; 2] = ["white", "black"];

/// A ply: cells are indices `rank * 5 + file` (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Place(usize),
    Step { from: usize, to: usize },
}

/// A Sight position.
#[derive(Clone, Debug)]
pub struct Sight {
    /// Rule 8 variant switch: only the highest stacks may move, even when all are blocked.
    pub strict_priority: bool,
    /// The owner of the pieces on each point (index into [`PLAYERS`]), index
    /// `rank * 5 + file`.
    pub owner: Vec<Option<usize>>,
    /// Pieces on each point (0 where empty).
    pub height: Vec<usize>,
    /// Index into [`PLAYERS`].
    pub to_move: usize,
    pub plies: usize,
    pub result: Option<GameResult>,
}

/// The 0-based index of a point named like `a1`.
pub fn at(name: &str) -> usize {
    let (file, rank) = super::parse_cell(name, SIZE, SIZE).expect("a Sight point");
    rank * SIZE + file
}

/// The line directions through a point (rule 1): 4 orthogonal ones, plus the 4 diagonal ones
/// when 1-based file + rank is even (the same parity as 0-based file + rank).
fn directions(index: usize) -> Vec<(isize, isize)> {
    let mut out = vec![(0, 1), (1, 0), (0, -1), (-1, 0)];
    if (index % SIZE + index / SIZE).is_multiple_of(2) {
        out.extend([(1, 1), (1, -1), (-1, -1), (-1, 1)]);
    }
    out
}

/// The points along one direction from `index`, nearest first, to the edge.
fn ray(index: usize, (df, dr): (isize, isize)) -> Vec<usize> {
    let (mut f, mut r) = ((index % SIZE) as isize, (index / SIZE) as isize);
    let mut out = Vec::new();
    loop {
        f += df;
        r += dr;
        if !(0..SIZE as isize).contains(&f) || !(0..SIZE as isize).contains(&r) {
            return out;
        }
        out.push(r as usize * SIZE + f as usize);
    }
}

impl Sight {
    /// The empty initial position.
    pub fn new(strict_priority: bool) -> Sight {
        Sight {
            strict_priority,
            owner: vec![None; SIZE * SIZE],
            height: vec![0; SIZE * SIZE],
            to_move: 0,
            plies: 0,
            result: None,
        }
    }

    /// The points adjacent to `index` (rule 2: one line segment away).
    fn adjacent(index: usize) -> Vec<usize> {
        directions(index)
            .into_iter()
            .filter_map(|d| ray(index, d).first().copied())
            .collect()
    }

    /// The occupied points seen from `index` (rule 4): the first piece on each line.
    fn seen(&self, index: usize) -> Vec<usize> {
        directions(index)
            .into_iter()
            .filter_map(|d| ray(index, d).into_iter().find(|&p| self.owner[p].is_some()))
            .collect()
    }

    /// The stacks (2+ pieces, rule 3) of a player.
    fn stacks(&self, player: usize) -> Vec<usize> {
        (0..SIZE * SIZE)
            .filter(|&p| self.owner[p] == Some(player) && self.height[p] >= 2)
            .collect()
    }

    fn actions(&self) -> Vec<Move> {
        let me = self.to_move;
        let stacks = self.stacks(me);
        if stacks.is_empty() {
            // Rule 6: place on any empty point.
            return (0..SIZE * SIZE)
                .filter(|&p| self.owner[p].is_none())
                .map(Move::Place)
                .collect();
        }
        // Rules 7-8.
        let empty_neighbours = |p: usize| -> Vec<usize> {
            Self::adjacent(p)
                .into_iter()
                .filter(|&q| self.owner[q].is_none())
                .collect()
        };
        let movable: Vec<usize> = stacks
            .iter()
            .copied()
            .filter(|&p| !empty_neighbours(p).is_empty())
            .collect();
        let pool = if self.strict_priority {
            &stacks
        } else {
            &movable
        };
        let Some(highest) = pool.iter().map(|&p| self.height[p]).max() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for &from in movable.iter().filter(|&&p| self.height[p] == highest) {
            for to in empty_neighbours(from) {
                out.push(Move::Step { from, to });
            }
        }
        out
    }

    /// Every friendly piece seen from `index` grows by one, except `skip` (rules 6-7).
    fn grow_seen(&mut self, index: usize, skip: Option<usize>) {
        let me = self.owner[index];
        for p in self.seen(index) {
            if self.owner[p] == me && Some(p) != skip {
                self.height[p] += 1;
            }
        }
    }
}

impl Reference for Sight {
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
        self.actions()
    }

    fn notation(&self, ply: &Move) -> String {
        let name = |i: usize| cell_name(i % SIZE, i / SIZE);
        match *ply {
            Move::Place(p) => name(p),
            Move::Step { from, to } => format!("{}-{}", name(from), name(to)),
        }
    }

    fn apply(&mut self, ply: &Move) {
        let me = self.to_move;
        match *ply {
            Move::Place(p) => {
                assert!(self.owner[p].is_none());
                assert!(self.stacks(me).is_empty());
                self.owner[p] = Some(me);
                self.height[p] = 1;
                self.grow_seen(p, None);
            }
            Move::Step { from, to } => {
                assert_eq!(self.owner[from], Some(me));
                assert!(self.height[from] >= 2);
                assert!(self.owner[to].is_none());
                self.height[from] -= 1;
                self.owner[to] = Some(me);
                self.height[to] = 1;
                self.grow_seen(to, Some(from));
            }
        }
        self.plies += 1;
        self.to_move = 1 - me;
        // Rule 10: the next player loses if they have no legal action.
        if self.actions().is_empty() {
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
        let mut out = String::new();
        for rank in (0..SIZE).rev() {
            out.push_str(&format!("{} ", rank + 1));
            for file in 0..SIZE {
                let p = rank * SIZE + file;
                out.push_str(&match self.owner[p] {
                    None => "  .".to_string(),
                    Some(o) => format!(" {}{}", if o == 0 { 'W' } else { 'B' }, self.height[p]),
                });
            }
            out.push('\n');
        }
        out.push_str("    a  b  c  d  e\n");
        out.push_str(&format!(
            "{} to act, ply {}, strict_priority {}\n",
            self.to_move(),
            self.plies,
            self.strict_priority
        ));
        out
    }
}

#[test]
fn sight_reference_facts() {
    // "Facts to test against".
    let mut s = Sight::new(false);
    assert_eq!(s.to_move(), "white");
    assert_eq!(s.legal().len(), 25);
    assert_eq!(directions(at("c3")).len(), 8);
    assert_eq!(directions(at("b3")).len(), 4);
    assert_eq!(Sight::adjacent(at("c3")).len(), 8);
    assert_eq!(Sight::adjacent(at("b3")).len(), 4);
    assert_eq!(Sight::adjacent(at("a1")).len(), 3);
    assert_eq!(Sight::adjacent(at("b1")).len(), 3);
    s.play("c3").unwrap();
    s.play("a1").unwrap();
    // Black a1 sees white c3 only (diagonal): nothing black grows; no stacks.
    assert_eq!(s.height[at("a1")], 1);
    assert_eq!(s.height[at("c3")], 1);
    assert_eq!(s.legal().len(), 23);
    s.play("e5").unwrap();
    assert_eq!(s.height[at("c3")], 2);
    assert_eq!(s.height[at("e5")], 1);
    // Black has no stack: places.
    assert_eq!(s.legal().len(), 22);
    s.play("b1").unwrap();
    // b1 is odd: it sees a1 (west) but not c2 or a2 diagonally. a1 grows.
    assert_eq!(s.height[at("a1")], 2);
    // White owns a stack: it must move the top of c3, to any of its 8 (empty) neighbours.
    let legal = s.legal();
    assert_eq!(legal.len(), 8, "{legal:?}");
    assert!(legal.iter().all(|m| m.starts_with("c3-")));
    s.play("c3-d4").unwrap();
    // c3 shrinks to 1 and is not regrown though d4 sees it; e5 grows.
    assert_eq!(s.height[at("c3")], 1);
    assert_eq!(s.height[at("d4")], 1);
    assert_eq!(s.height[at("e5")], 2);
}

#[test]
fn sight_reference_priority_variants() {
    // White: a 3-stack on a1 boxed in by black singles, a 2-stack free on e5.
    let mut s = Sight::new(false);
    let mut put = |name: &str, owner: usize, height: usize| {
        s.owner[at(name)] = Some(owner);
        s.height[at(name)] = height;
    };
    put("a1", 0, 3);
    put("a2", 1, 1);
    put("b1", 1, 1);
    put("b2", 1, 1);
    put("e5", 0, 2);
    // Default: the highest *movable* stacks, here e5.
    let legal = s.legal();
    assert_eq!(legal, vec!["e5-d4", "e5-d5", "e5-e4"]);
    // Strict: the highest stack is blocked, so white has no action.
    s.strict_priority = true;
    assert!(s.legal().is_empty());
    // A single piece never moves; a player with a stack never places.
    s.strict_priority = false;
    assert!(!s.legal().iter().any(|m| !m.contains('-')));
}
