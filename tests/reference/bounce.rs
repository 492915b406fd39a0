//! Bounce (Mark Steere, 2023), from docs/rules/bounce.md.
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
//!
//! The move generator is the rules read literally: for each own checker, lift it off, flood
//! fill the mover's groups on the board without it, and try every empty cell. It allocates
//! nothing per origin or per destination: the flood fills write into buffers ([`Scratch`])
//! that one listing, or a whole [`Bounce::random_playout`], reuses, so the reference is
//! fast enough to serve as a baseline in `benches/playouts.rs` without becoming a second,
//! cleverer implementation.

use rand::RngExt;

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

    /// The orthogonal neighbours of a cell (up, right, down, left; off-board ones left
    /// out). A fixed array rather than a `Vec`: the flood fills and the destination test
    /// ask for neighbours in their innermost loops.
    fn neighbours(&self, index: usize) -> impl Iterator<Item = usize> {
        let n = self.size;
        let (file, rank) = (index % n, index / n);
        [
            (rank + 1 < n).then(|| index + n),
            (file + 1 < n).then(|| index + 1),
            (rank > 0).then(|| index - n),
            (file > 0).then(|| index - 1),
        ]
        .into_iter()
        .flatten()
    }

    /// The number of checkers of a colour.
    pub fn count(&self, colour: Colour) -> usize {
        self.cells.iter().filter(|c| **c == Some(colour)).count()
    }

    /// Labels the orthogonal groups of `colour` into `groups`, treating cell `skip` as
    /// empty (the board with a checker lifted off its origin). Whatever `groups` held
    /// before is overwritten; its buffers are reused, which is the point of passing it in.
    fn label_groups(&self, colour: Colour, skip: Option<usize>, groups: &mut Groups) {
        let Groups {
            label,
            sizes,
            stack,
        } = groups;
        label.clear();
        label.resize(self.cells.len(), NO_GROUP);
        sizes.clear();
        for start in 0..self.cells.len() {
            if self.cells[start] != Some(colour) || Some(start) == skip || label[start] != NO_GROUP
            {
                continue;
            }
            let id = sizes.len();
            let mut size = 0;
            stack.clear();
            stack.push(start);
            label[start] = id;
            while let Some(cell) = stack.pop() {
                size += 1;
                for next in self.neighbours(cell) {
                    if self.cells[next] == Some(colour)
                        && Some(next) != skip
                        && label[next] == NO_GROUP
                    {
                        label[next] = id;
                        stack.push(next);
                    }
                }
            }
            sizes.push(size);
        }
    }

    /// Whether all checkers of `colour` form one group (at least one checker).
    pub fn one_group(&self, colour: Colour) -> bool {
        self.one_group_with(colour, &mut Groups::default())
    }

    /// [`Bounce::one_group`] labelling into caller-owned buffers (the end test after
    /// every ply of a playout).
    fn one_group_with(&self, colour: Colour, groups: &mut Groups) -> bool {
        self.label_groups(colour, None, groups);
        groups.sizes.len() == 1
    }

    /// Appends the moves (not removals) of the player to act to `out`.
    ///
    /// Rule 6 as written: the size of the checker's group before the move, in the position
    /// before it, against the size of the group it ends in, on the board with the checker
    /// lifted off its origin: 1 plus the distinct groups next to the destination.
    fn steps_into(&self, scratch: &mut Scratch, out: &mut Vec<Move>) {
        let me = self.to_move;
        let Scratch {
            before,
            lifted,
            empties,
        } = scratch;
        self.label_groups(me, None, before);
        empties.clear();
        empties.extend((0..self.cells.len()).filter(|&i| self.cells[i].is_none()));
        for from in 0..self.cells.len() {
            if self.cells[from] != Some(me) {
                continue;
            }
            let size_before = before.sizes[before.label[from]];
            // The board with the checker lifted off its origin.
            self.label_groups(me, Some(from), lifted);
            for &to in empties.iter() {
                // The groups next to `to`, each counted once: at most four neighbours, so
                // a fixed array and a look back over it stand in for sort and dedup.
                let mut joined = [NO_GROUP; 4];
                let mut after = 1;
                for (k, cell) in self.neighbours(to).enumerate() {
                    let group = lifted.label[cell];
                    if group != NO_GROUP && !joined[..k].contains(&group) {
                        after += lifted.sizes[group];
                    }
                    joined[k] = group;
                }
                if size_before < after {
                    out.push(Move::Step { from, to });
                }
            }
        }
    }

    /// Every legal ply (what [`Reference::moves`] returns), written into `out` (cleared
    /// first) with `scratch` as working space: a caller that lists moves again and again
    /// (a playout, a benchmark) keeps both and allocates nothing once they have grown.
    pub fn moves_into(&self, scratch: &mut Scratch, out: &mut Vec<Move>) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        self.steps_into(scratch, out);
        if !out.is_empty() {
            return;
        }
        // Rule 7: no legal move, so remove one own checker.
        out.extend(
            (0..self.cells.len())
                .filter(|&i| self.cells[i] == Some(self.to_move))
                .map(Move::Remove),
        );
    }

    /// [`Reference::apply`] with the end test labelling into `groups`, so a playout's
    /// plies allocate nothing either.
    fn apply_with(&mut self, ply: &Move, groups: &mut Groups) {
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
        if self.one_group_with(me, groups) {
            self.result = Some(GameResult::Win(me.name()));
        }
        self.to_move = me.other();
    }

    /// Plays uniformly random legal plies until the game ends; returns how many were
    /// played. Each ply lists every legal ply and picks one with `random_range`, the
    /// plain way, so this is the baseline the interpreter's playouts are timed against
    /// (`benches/playouts.rs`). Bounce has no draw rule; random games end on their own
    /// (8x8 ones last some 40 plies), so there is no cap.
    pub fn random_playout(&mut self, rng: &mut impl rand::Rng) -> usize {
        let mut scratch = Scratch::default();
        let mut moves = Vec::new();
        let start = self.plies;
        while self.result.is_none() {
            self.moves_into(&mut scratch, &mut moves);
            // A position with no checker of the side to act has no ply at all; it cannot
            // arise from the start (that side would have won with its last checker).
            if moves.is_empty() {
                break;
            }
            let pick = rng.random_range(0..moves.len() as u64) as usize;
            // The end test borrows the listing's `before` buffers: the next listing
            // labels them afresh anyway.
            self.apply_with(&moves[pick], &mut scratch.before);
        }
        self.plies - start
    }
}

/// The label of a cell that holds no checker of the colour being labelled.
const NO_GROUP: usize = usize::MAX;

/// The orthogonal groups of one colour, as a flood fill leaves them. Kept between fills
/// so that labelling the board once per origin (the move generator does) reuses these
/// vectors instead of allocating new ones each time.
#[derive(Clone, Debug, Default)]
struct Groups {
    /// Per cell: the index of its group in `sizes`, or [`NO_GROUP`].
    label: Vec<usize>,
    /// Per group: how many checkers it has.
    sizes: Vec<usize>,
    /// The flood fill's cells still to visit.
    stack: Vec<usize>,
}

/// The working space of one move listing: two labellings and the empty cells. Passed in
/// rather than stored in [`Bounce`], so positions stay plain data (cheap to clone in
/// perft) and listing moves still takes `&self`.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    /// The mover's groups in the position as it is.
    before: Groups,
    /// The mover's groups with one checker lifted off its origin.
    lifted: Groups,
    /// The empty cells, in index order.
    empties: Vec<usize>,
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
        let mut out = Vec::new();
        self.moves_into(&mut Scratch::default(), &mut out);
        out
    }

    fn notation(&self, ply: &Move) -> String {
        match *ply {
            Move::Step { from, to } => format!("{}-{}", self.name(from), self.name(to)),
            Move::Remove(cell) => format!("x{}", self.name(cell)),
        }
    }

    fn apply(&mut self, ply: &Move) {
        self.apply_with(ply, &mut Groups::default());
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
