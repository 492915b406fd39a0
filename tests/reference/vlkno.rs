//! VLKNO (Ryan Moylan, 2024), from docs/rules/vlkno.md (rule numbers are that file's).
//!
//! - 5x5 grid, one stone on every space; a space with no stone is lava (rule 1).
//! - Black pawns on a5 and e1, white on a1 and e5; black first (rules 2-3).
//! - A turn is one ply of three compulsory steps (rules 4-6, 8):
//!   - move a pawn one space in any of 8 directions onto a stone-bearing, pawn-free space
//!     whose height differs by at most 1 from the space it leaves;
//!   - take one stone from a shortest pawn-free stack, the space just left removed from the
//!     candidates before the minimum is found;
//!   - place it on a stone-bearing, pawn-free space other than the space just left, and
//!     (default reading) other than the stack it was taken from; `put_back` allows that.
//! - The player to act with no complete turn loses (rule 8). No draw rule (rule 9).
//! - Notation: `a5-b4 c3 d1` (pawn a5 to b4, take from c3, place on d1).

use super::{GameResult, Reference, cell_name};

/// The side of the board.
pub const SIZE: usize = 5;
/// Turn order (rule 3: black plays first).
pub const PLAYERS: [&str; 2] = ["black", "white"];

/// The 8 directions of rule 4, as (file, rank) steps.
const DIRECTIONS: [(isize, isize); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// One whole turn: cells are indices `rank * 5 + file` (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub from: usize,
    pub to: usize,
    pub take: usize,
    pub place: usize,
}

/// A VLKNO position.
#[derive(Clone, Debug)]
pub struct Vlkno {
    /// Rule 6 variant switch: the stone may go back on the stack it was taken from.
    pub put_back: bool,
    /// Stones per space, index `rank * 5 + file`; 0 is lava.
    pub heights: Vec<usize>,
    /// The pawn on each space, as an index into [`PLAYERS`].
    pub pawns: Vec<Option<usize>>,
    /// Index into [`PLAYERS`].
    pub to_move: usize,
    pub plies: usize,
    pub result: Option<GameResult>,
}

/// The 0-based index of a cell named like `a1`.
pub fn at(name: &str) -> usize {
    let (file, rank) = super::parse_cell(name, SIZE, SIZE).expect("a VLKNO cell");
    rank * SIZE + file
}

impl Vlkno {
    /// The initial position (rules 1-3).
    pub fn new(put_back: bool) -> Vlkno {
        let mut pawns = vec![None; SIZE * SIZE];
        pawns[at("a1")] = Some(1);
        pawns[at("e5")] = Some(1);
        pawns[at("a5")] = Some(0);
        pawns[at("e1")] = Some(0);
        Vlkno {
            put_back,
            heights: vec![1; SIZE * SIZE],
            pawns,
            to_move: 0,
            plies: 0,
            result: None,
        }
    }

    /// The spaces one step away in the 8 directions.
    fn neighbours(index: usize) -> Vec<usize> {
        let (file, rank) = ((index % SIZE) as isize, (index / SIZE) as isize);
        let mut out = Vec::new();
        for (df, dr) in DIRECTIONS {
            let (f, r) = (file + df, rank + dr);
            if (0..SIZE as isize).contains(&f) && (0..SIZE as isize).contains(&r) {
                out.push(r as usize * SIZE + f as usize);
            }
        }
        out
    }

    /// Every complete turn of the player to act (rule 8: a turn is legal only as a whole).
    fn turns(&self) -> Vec<Move> {
        let me = self.to_move;
        let mut out = Vec::new();
        for from in 0..SIZE * SIZE {
            if self.pawns[from] != Some(me) {
                continue;
            }
            for to in Self::neighbours(from) {
                // Rule 4: onto stones, no pawn, height within one of the space left.
                if self.heights[to] == 0 || self.pawns[to].is_some() {
                    continue;
                }
                if self.heights[to].abs_diff(self.heights[from]) > 1 {
                    continue;
                }
                // Who stands where after the move.
                let mut pawns = self.pawns.clone();
                pawns[from] = None;
                pawns[to] = Some(me);
                // Rule 5: candidates are pawn-free stacks of 1+ stones other than `from`;
                // the shortest of them (ties: any).
                let candidates: Vec<usize> = (0..SIZE * SIZE)
                    .filter(|&c| c != from && self.heights[c] >= 1 && pawns[c].is_none())
                    .collect();
                let Some(shortest) = candidates.iter().map(|&c| self.heights[c]).min() else {
                    continue;
                };
                for &take in candidates.iter().filter(|&&c| self.heights[c] == shortest) {
                    let mut heights = self.heights.clone();
                    heights[take] -= 1;
                    // Rule 6: onto stones, no pawn, not the space left, and (default) not
                    // the stack the stone came from.
                    for place in 0..SIZE * SIZE {
                        if place == from || heights[place] == 0 || pawns[place].is_some() {
                            continue;
                        }
                        if place == take && !self.put_back {
                            continue;
                        }
                        out.push(Move {
                            from,
                            to,
                            take,
                            place,
                        });
                    }
                }
            }
        }
        out
    }

    /// The total number of stones (rule 7: always 25).
    pub fn stones(&self) -> usize {
        self.heights.iter().sum()
    }
}

impl Reference for Vlkno {
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
        self.turns()
    }

    fn notation(&self, ply: &Move) -> String {
        let name = |i: usize| cell_name(i % SIZE, i / SIZE);
        format!(
            "{}-{} {} {}",
            name(ply.from),
            name(ply.to),
            name(ply.take),
            name(ply.place)
        )
    }

    fn apply(&mut self, ply: &Move) {
        let me = self.to_move;
        assert_eq!(self.pawns[ply.from], Some(me));
        assert_eq!(self.pawns[ply.to], None);
        self.pawns[ply.from] = None;
        self.pawns[ply.to] = Some(me);
        assert!(self.heights[ply.take] >= 1);
        self.heights[ply.take] -= 1;
        assert!(self.heights[ply.place] >= 1);
        self.heights[ply.place] += 1;
        self.plies += 1;
        self.to_move = 1 - me;
        // Rule 8: the next player loses if they have no complete turn.
        if self.turns().is_empty() {
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
                let i = rank * SIZE + file;
                let pawn = match self.pawns[i] {
                    Some(0) => 'B',
                    Some(_) => 'W',
                    None => ' ',
                };
                out.push_str(&format!(" {}{pawn}", self.heights[i]));
            }
            out.push('\n');
        }
        out.push_str("   a  b  c  d  e\n");
        out.push_str(&format!(
            "heights with pawns (B black, W white); {} to act, ply {}, put_back {}\n",
            self.to_move(),
            self.plies,
            self.put_back
        ));
        out
    }
}

#[test]
fn vlkno_reference_start_facts() {
    // "Facts to test against": 6 pawn moves x 20 take cells x 19 place cells.
    for put_back in [false, true] {
        let v = Vlkno::new(put_back);
        assert_eq!(v.to_move(), "black");
        assert_eq!(v.stones(), 25);
        let legal = v.legal();
        assert_eq!(legal.len(), 2280, "put_back {put_back}");
        assert!(legal.contains(&"a5-b4 c3 d1".to_string()));
        // Not onto the space left, not from it, not back onto the taken (now lava) stack.
        assert!(!legal.contains(&"a5-b4 a5 d1".to_string()));
        assert!(!legal.contains(&"a5-b4 c3 a5".to_string()));
        assert!(!legal.contains(&"a5-b4 c3 c3".to_string()));
        // Never taken from or placed on a pawn's space, the moved pawn's included.
        for m in &legal {
            let (step, rest) = m.split_once(' ').unwrap();
            let to = step.split_once('-').unwrap().1;
            for cell in rest.split(' ') {
                assert!(
                    cell != to && !["a1", "e5", "a5", "e1"].contains(&cell),
                    "{m}"
                );
            }
        }
    }
}

#[test]
fn vlkno_reference_put_back_and_heights() {
    // After black a5-b4 c3 d1, c3 is lava and d1 two high.
    let mut v = Vlkno::new(false);
    v.play("a5-b4 c3 d1").unwrap();
    assert_eq!(v.heights[at("c3")], 0);
    assert_eq!(v.heights[at("d1")], 2);
    assert_eq!(v.stones(), 25);
    assert_eq!(v.to_move(), "white");
    let legal = v.legal();
    // Lava is neither a destination, nor taken from, nor placed on.
    assert!(!legal.iter().any(|m| m.contains("-c3") || m.contains(" c3")));
    // d1 (2) is not among the shortest (1).
    assert!(!legal.iter().any(|m| m.split(' ').nth(1) == Some("d1")));

    // Hand-made: every stack two high, except d3 (1) and black's e1 (3).
    let mut w = Vlkno::new(false);
    w.heights = vec![2; 25];
    w.heights[at("d3")] = 1;
    w.heights[at("e1")] = 3;
    let legal = w.legal();
    // Rule 5: d3 is the only shortest free stack, for either pawn.
    assert!(!legal.is_empty());
    assert!(legal.iter().all(|m| m.split(' ').nth(1) == Some("d3")));
    // Rule 4: e1 (3) may step down to 2; rule 6: not back onto the space left.
    // a1 holds a white pawn.
    assert!(!legal.contains(&"e1-d2 d3 a1".to_string()));
    assert!(legal.contains(&"e1-d2 d3 b1".to_string()));
    assert!(!legal.contains(&"e1-d2 d3 e1".to_string()));
    // d3 with one stone becomes lava: no put-back either way.
    assert!(!legal.iter().any(|m| m.ends_with("d3 d3")));

    // A two-stone stack taken from may get its stone back only with `put_back`.
    let mut x = Vlkno::new(true);
    x.heights = vec![2; 25];
    assert!(x.legal().contains(&"a5-b4 c3 c3".to_string()));
    x.put_back = false;
    assert!(!x.legal().contains(&"a5-b4 c3 c3".to_string()));
}

#[test]
fn vlkno_reference_loss_when_stuck() {
    // Black's pawns ringed by lava: black to act has no turn and loses at once.
    let mut v = Vlkno::new(false);
    for name in ["a4", "b4", "b5", "d1", "d2", "e2"] {
        v.heights[at(name)] = 0;
    }
    v.heights[at("c3")] = 7;
    assert!(v.turns().is_empty());
    // White plays a turn that leaves that position to black: white wins.
    v.to_move = 1;
    v.heights[at("c3")] = 6;
    v.heights[at("b2")] = 2;
    v.play("a1-a2 c4 c3").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v.result(), Some(GameResult::Win("white")));
    assert!(v.legal().is_empty());
}
