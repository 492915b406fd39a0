//! Splut! written by hand for speed: the baseline the interpreter's playouts are measured
//! against (`benches/playouts.rs`), checked against the interpreter by `tests/fast_engines.rs`.
//! It follows `docs/rules/splut.md` as `games/splut.toml` reads it, for 2, 3 and 4 players
//! and both readings of rule 10 (`lev_into_vacated`).
//!
//! The 41 squares of the diamond are numbered rank by rank from e1 (0) to e9 (40), so a set
//! of squares is a `u64`; a table gives each square's neighbour in each direction, with
//! [`OFF`] (bit 63, in no set) past the edge, so that "one step that way is empty" is a
//! table read and a bit test with no bounds check. The position keeps both a mailbox (what
//! stands on each square, for pushes and throws, which must know who they move or hit) and
//! the sets of occupied squares and of rocks (for the quick "can this piece step at all"
//! tests), plus each seat's three pieces and each rock's square, so that listing a player's
//! steps looks at three pieces and four rocks, never at the whole board.
//!
//! Rule 11 follows rocks by identity: the rocks moved (any way) during the current turn
//! and during the one before are two 4-bit masks, shifted at every turn, a silent pass
//! included. Levitation continuity (rule 12) is one more mask: the rocks the next step
//! may levitate (all four until a levitation, then the one rock for the very next step
//! only, then none for the rest of the turn).
//!
//! A random playout lists the mover's steps into a fixed array on the stack (at most 40:
//! the sorcerer's 4 directions with up to 4 levitations each, the troll's 4 with up to 4
//! throws each, the dwarf's 4) and draws one index uniformly, so nothing is allocated per
//! ply and the draw is the same as picking from [`Splut::moves`].

use rand::{Rng, RngExt};

/// Squares of the diamond.
const CELLS: usize = 41;
/// "No square": past the edge, or a piece that has left the board. Bit 63 is in no set.
const OFF: u8 = 63;
/// Every square of the board.
const BOARD: u64 = (1 << CELLS) - 1;
/// The ply cap of the game file (`max_plies`): the game is a draw after that many plies.
const MAX_PLIES: u32 = 3000;
/// The most plies a position can have: 4 sorcerer steps with 4 levitations each, 4 troll
/// steps onto a rock with 4 throws each (or a step and a pull), 4 dwarf steps.
const MAX_MOVES: usize = 40;

/// Directions in notation order of `games/splut.toml`'s board: north, east, south, west;
/// the opposite of `d` is `d ^ 2`.
const DIR_NAMES: [char; 4] = ['n', 'e', 's', 'w'];

/// The kinds of team pieces, as indices into a seat's pieces.
const SORCERER: usize = 0;
const DWARF: usize = 1;
const TROLL: usize = 2;
const KIND_LETTERS: [char; 3] = ['S', 'D', 'T'];

/// Mailbox codes: 0 is an empty square, `ROCK + k` rock `k` (0..4), and `PIECE | seat << 2
/// | kind` a team piece.
const EMPTY: u8 = 0;
const ROCK: u8 = 1;
const PIECE: u8 = 16;

/// Every rock, as a mask of rock identities.
const ALL_ROCKS: u8 = 0b1111;

/// Seats in turn order (rule 5), with their starting squares (rule 4): troll, dwarf,
/// sorcerer. Two players take south and north, three south, west and north.
const TEAMS: [[&str; 3]; 4] = [
    ["f2", "e2", "d2"],
    ["b4", "b5", "b6"],
    ["d8", "e8", "f8"],
    ["h6", "h5", "h4"],
];
/// The rocks on the four tips (rule 3).
const ROCKS: [&str; 4] = ["e1", "a5", "e9", "i5"];

/// The board's geometry, built once at compile time.
struct Tables {
    /// Per square and direction: the neighbour, or [`OFF`] (also for [`OFF`] itself).
    step: [[u8; 4]; 64],
    /// Per square: the set of its neighbours.
    neighbours: [u64; 64],
    /// Per square: file and rank, from 0.
    coords: [(u8, u8); CELLS],
}

const TABLES: Tables = tables();

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < 9 && rank >= 0 && rank < 9 && (file - 4).abs() + (rank - 4).abs() <= 4
}

const fn tables() -> Tables {
    let mut t = Tables {
        step: [[OFF; 4]; 64],
        neighbours: [0; 64],
        coords: [(0, 0); CELLS],
    };
    // Square numbers on the 9x9 grid, rank by rank.
    let mut grid = [OFF; 81];
    let mut n = 0;
    let mut rank = 0;
    while rank < 9 {
        let mut file = 0;
        while file < 9 {
            if on_board(file, rank) {
                grid[(rank * 9 + file) as usize] = n as u8;
                t.coords[n] = (file as u8, rank as u8);
                n += 1;
            }
            file += 1;
        }
        rank += 1;
    }
    let deltas: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let mut cell = 0;
    while cell < CELLS {
        let (file, rank) = (t.coords[cell].0 as i32, t.coords[cell].1 as i32);
        let mut d = 0;
        while d < 4 {
            let (f, r) = (file + deltas[d].0, rank + deltas[d].1);
            if on_board(f, r) {
                let to = grid[(r * 9 + f) as usize];
                t.step[cell][d] = to;
                t.neighbours[cell] |= 1 << to;
            }
            d += 1;
        }
        cell += 1;
    }
    t
}

#[inline(always)]
fn step(cell: u8, dir: usize) -> u8 {
    TABLES.step[cell as usize][dir]
}

#[inline(always)]
fn bit(cell: u8) -> u64 {
    1 << cell
}

/// The square named `e5`.
fn parse(name: &str) -> u8 {
    let b = name.as_bytes();
    let (file, rank) = (b[0] - b'a', b[1] - b'1');
    TABLES
        .coords
        .iter()
        .position(|&c| c == (file, rank))
        .expect("a square of the diamond") as u8
}

/// The name of a square, `e5`.
fn name(cell: u8) -> String {
    let (file, rank) = TABLES.coords[cell as usize];
    format!("{}{}", (b'a' + file) as char, rank + 1)
}

/// What goes with a step besides the piece's own move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Extra {
    None,
    /// A sorcerer's step levitating the rock on this square (before the step).
    Lev(u8),
    /// A troll's step dragging the rock right behind it.
    Pull,
    /// A troll's step onto a rock, thrown in this direction.
    Throw(u8),
}

/// A ply: the piece on `from` steps in direction `dir`; the piece is whatever stands on
/// `from` in the position the ply is played in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    from: u8,
    dir: u8,
    extra: Extra,
}

const NO_MOVE: Move = Move {
    from: OFF,
    dir: 0,
    extra: Extra::None,
};

/// A position, with the state of the turn in progress.
#[derive(Clone, Copy, Debug)]
pub struct Splut {
    /// Per square: [`EMPTY`], a rock or a team piece (the mailbox codes).
    board: [u8; 64],
    /// Squares holding anything.
    occupied: u64,
    /// Squares holding a rock.
    rocks: u64,
    /// Per rock: its square.
    rock_at: [u8; 4],
    /// Per seat and kind: the piece's square, or [`OFF`] once it left the board.
    pieces: [[u8; 3]; 4],
    /// Seats in the game, and seats whose sorcerer lives.
    seats: u8,
    alive: u8,
    /// The seat to move.
    to_move: u8,
    /// The game turn, from 1, silent passes included (rules 7 and 11).
    turn: u32,
    /// The step of the turn about to be played, from 1.
    ply_in_turn: u32,
    /// Rocks the next step may levitate as far as rule 12 goes: all until a levitation,
    /// then the levitated one for the very next step only, then none.
    lev: u8,
    /// Rocks moved during this turn and during the turn before (rule 11).
    moved_now: u8,
    moved_before: u8,
    /// Rule 10's reading: the square the sorcerer leaves counts as empty for its levitation.
    lev_into_vacated: bool,
    plies: u32,
    /// Set once the game is over: `Some(winner)` (a player index of the game file, in turn
    /// order among the seats in play) or `None` for a draw.
    result: Option<Option<u8>>,
}

impl Splut {
    /// The start for 2, 3 or 4 players (rules 3 to 5).
    pub fn start(players: u8, lev_into_vacated: bool) -> Splut {
        let seats = match players {
            2 => 0b0101,
            3 => 0b0111,
            4 => 0b1111,
            _ => panic!("Splut! is for 2, 3 or 4 players, not {players}"),
        };
        let mut pos = Splut {
            board: [EMPTY; 64],
            occupied: 0,
            rocks: 0,
            rock_at: [OFF; 4],
            pieces: [[OFF; 3]; 4],
            seats,
            alive: seats,
            to_move: 0,
            turn: 1,
            ply_in_turn: 1,
            lev: ALL_ROCKS,
            moved_now: 0,
            moved_before: 0,
            lev_into_vacated,
            plies: 0,
            result: None,
        };
        for (k, rock) in ROCKS.iter().enumerate() {
            pos.put(parse(rock), ROCK + k as u8);
        }
        for (seat, team) in TEAMS.iter().enumerate() {
            if seats & (1 << seat) != 0 {
                for (square, kind) in team.iter().zip([TROLL, DWARF, SORCERER]) {
                    pos.put(parse(square), PIECE | (seat as u8) << 2 | kind as u8);
                }
            }
        }
        pos
    }

    /// Puts `code` on the empty square `cell`.
    fn put(&mut self, cell: u8, code: u8) {
        self.board[cell as usize] = code;
        self.occupied |= bit(cell);
        if code >= PIECE {
            self.pieces[((code >> 2) & 3) as usize][(code & 3) as usize] = cell;
        } else {
            self.rocks |= bit(cell);
            self.rock_at[(code - ROCK) as usize] = cell;
        }
    }

    /// Empties `cell`, returning what stood there.
    fn take(&mut self, cell: u8) -> u8 {
        let code = self.board[cell as usize];
        self.board[cell as usize] = EMPTY;
        self.occupied &= !bit(cell);
        self.rocks &= !bit(cell);
        code
    }

    /// Moves what stands on `from` to the empty square `to`.
    #[inline(always)]
    fn relocate(&mut self, from: u8, to: u8) {
        let code = self.take(from);
        self.put(to, code);
    }

    #[inline(always)]
    fn empty(&self) -> u64 {
        BOARD & !self.occupied
    }

    /// Whether a thrown rock stops before `code` (a troll or a rock): it flies over empty
    /// squares and dwarves, and lands on a sorcerer.
    #[inline(always)]
    fn blocks(code: u8) -> bool {
        (code != EMPTY && code < PIECE) || (code >= PIECE && (code & 3) as usize == TROLL)
    }

    /// Whether the dwarf on `from` can step `dir`: the line of pieces from the square
    /// there on ends at an empty square of the board (rule 18).
    #[inline(always)]
    fn can_push(&self, from: u8, dir: usize) -> bool {
        let empty = self.empty();
        let mut at = step(from, dir);
        while at != OFF {
            if empty & bit(at) != 0 {
                return true;
            }
            at = step(at, dir);
        }
        false
    }

    /// Whether `seat` has a legal step (its sorcerer lives).
    fn can_play(&self, seat: u8) -> bool {
        let [sorcerer, dwarf, troll] = self.pieces[seat as usize];
        let empty = self.empty();
        // A sorcerer's plain step needs only an empty neighbour; a troll next to a rock
        // can always step onto it and throw it back over the square it left.
        if TABLES.neighbours[sorcerer as usize] & empty != 0
            || (troll != OFF && TABLES.neighbours[troll as usize] & (empty | self.rocks) != 0)
        {
            return true;
        }
        dwarf != OFF && (0..4).any(|d| self.can_push(dwarf, d))
    }

    /// Lists the legal plies into `out`; returns how many (0 once the game is over).
    pub fn fill(&self, out: &mut [Move; MAX_MOVES]) -> usize {
        if self.result.is_some() {
            return 0;
        }
        let mut n = 0;
        let [sorcerer, dwarf, troll] = self.pieces[self.to_move as usize];
        let empty = self.empty();
        // Rules 9-13: the sorcerer, with the rocks it may levitate (rules 11 and 12).
        let levitable = self.lev & !self.moved_before;
        for dir in 0..4 {
            let to = step(sorcerer, dir);
            if empty & bit(to) == 0 {
                continue;
            }
            let m = Move {
                from: sorcerer,
                dir: dir as u8,
                extra: Extra::None,
            };
            out[n] = m;
            n += 1;
            // Empty once the sorcerer has stepped: `to` is taken, `from` free with rule
            // 10's reading.
            let after = (empty & !bit(to))
                | if self.lev_into_vacated {
                    bit(sorcerer)
                } else {
                    0
                };
            let mut rocks = levitable;
            while rocks != 0 {
                let rock = self.rock_at[rocks.trailing_zeros() as usize];
                rocks &= rocks - 1;
                if after & bit(step(rock, dir)) != 0 {
                    out[n] = Move {
                        extra: Extra::Lev(rock),
                        ..m
                    };
                    n += 1;
                }
            }
        }
        // Rules 14-17: the troll steps (and may pull), or steps onto a rock and throws it.
        if troll != OFF {
            for dir in 0..4 {
                let to = step(troll, dir);
                let m = Move {
                    from: troll,
                    dir: dir as u8,
                    extra: Extra::None,
                };
                if empty & bit(to) != 0 {
                    out[n] = m;
                    n += 1;
                    if self.rocks & bit(step(troll, dir ^ 2)) != 0 {
                        out[n] = Move {
                            extra: Extra::Pull,
                            ..m
                        };
                        n += 1;
                    }
                } else if self.rocks & bit(to) != 0 {
                    // The rock must move at least one square: the next one is on the board
                    // and neither a troll nor a rock (the troll's own square is vacated).
                    for throw in 0..4 {
                        let next = step(to, throw);
                        if next != OFF
                            && (next == troll || !Self::blocks(self.board[next as usize]))
                        {
                            out[n] = Move {
                                extra: Extra::Throw(throw as u8),
                                ..m
                            };
                            n += 1;
                        }
                    }
                }
            }
        }
        // Rule 18: the dwarf steps, pushing the line in front of it.
        if dwarf != OFF {
            for dir in 0..4 {
                if self.can_push(dwarf, dir) {
                    out[n] = Move {
                        from: dwarf,
                        dir: dir as u8,
                        extra: Extra::None,
                    };
                    n += 1;
                }
            }
        }
        n
    }

    /// Every legal ply, in the order of [`Splut::fill`].
    pub fn moves(&self) -> Vec<Move> {
        let mut out = [NO_MOVE; MAX_MOVES];
        let n = self.fill(&mut out);
        out[..n].to_vec()
    }

    /// Plays a legal ply, then ends the turn or the game as the rules say.
    pub fn play(&mut self, m: Move) {
        let me = self.to_move;
        let dir = m.dir as usize;
        let to = step(m.from, dir);
        // Rule 12: a step that does not levitate ends a levitation begun this turn.
        let mut lev = if self.lev == ALL_ROCKS { ALL_ROCKS } else { 0 };
        let mut thrown = false;
        match m.extra {
            Extra::None => {
                if self.board[m.from as usize] & 3 == DWARF as u8 {
                    self.push(to, dir);
                }
                self.relocate(m.from, to);
            }
            Extra::Lev(rock) => {
                self.relocate(m.from, to);
                let k = self.board[rock as usize] - ROCK;
                self.relocate(rock, step(rock, dir));
                self.moved_now |= 1 << k;
                lev = 1 << k;
            }
            Extra::Pull => {
                self.relocate(m.from, to);
                let behind = step(m.from, dir ^ 2);
                self.moved_now |= 1 << (self.board[behind as usize] - ROCK);
                self.relocate(behind, m.from);
            }
            Extra::Throw(throw) => {
                let rock = self.take(to);
                self.relocate(m.from, to);
                let land = self.flight(to, throw as usize);
                let hit = self.board[land as usize];
                if hit >= PIECE {
                    let seat = (hit >> 2) & 3;
                    if (hit & 3) as usize == SORCERER {
                        // Rule 19: the sorcerer dies with its whole team.
                        self.eliminate(seat);
                    } else {
                        // Only a dwarf can be where a rock lands short of an obstacle.
                        self.take(land);
                        self.pieces[seat as usize][DWARF] = OFF;
                    }
                }
                self.put(land, rock);
                self.moved_now |= 1 << (rock - ROCK);
                thrown = true;
            }
        }
        self.lev = lev;
        self.plies += 1;
        self.after_ply(me, thrown);
    }

    /// Shifts the unbroken line of pieces that starts on `at` one square along `dir`,
    /// farthest first (the dwarf's push; its legality was checked).
    fn push(&mut self, at: u8, dir: usize) {
        if self.occupied & bit(at) == 0 {
            return;
        }
        let mut line = [OFF; 8];
        let mut len = 0;
        let mut cur = at;
        while self.occupied & bit(cur) != 0 {
            line[len] = cur;
            len += 1;
            cur = step(cur, dir);
        }
        for &cell in line[..len].iter().rev() {
            let code = self.board[cell as usize];
            if code < PIECE {
                self.moved_now |= 1 << (code - ROCK);
            }
            self.relocate(cell, step(cell, dir));
        }
    }

    /// Where a rock thrown from `from` along `dir` lands (rule 16): the first sorcerer's
    /// square, else the last square before the edge, a troll or a rock.
    fn flight(&self, from: u8, dir: usize) -> u8 {
        let mut at = from;
        loop {
            let next = step(at, dir);
            if next == OFF {
                return at;
            }
            let code = self.board[next as usize];
            if code >= PIECE && (code & 3) as usize == SORCERER {
                return next;
            }
            if Self::blocks(code) {
                return at;
            }
            at = next;
        }
    }

    /// Removes a seat's team from the board and the game (rule 19).
    fn eliminate(&mut self, seat: u8) {
        for cell in self.pieces[seat as usize] {
            if cell != OFF {
                self.take(cell);
            }
        }
        self.pieces[seat as usize] = [OFF; 3];
        self.alive &= !(1 << seat);
    }

    /// The game file's player index of a seat: its rank among the seats in play.
    fn player(&self, seat: u8) -> u8 {
        (self.seats & ((1 << seat) - 1)).count_ones() as u8
    }

    /// What follows a ply by `me`: the end of the game (rule 20, then the ply cap), the end
    /// of the turn (a throw, the steps all taken, or no step left), or the next step.
    fn after_ply(&mut self, me: u8, thrown: bool) {
        if self.alive.count_ones() <= 1 {
            self.result =
                Some((self.alive != 0).then(|| self.player(self.alive.trailing_zeros() as u8)));
            return;
        }
        if self.plies >= MAX_PLIES {
            self.result = Some(None);
            return;
        }
        if thrown || self.alive & (1 << me) == 0 || self.ply_in_turn >= self.turn.min(3) {
            self.next_turn();
        } else {
            self.ply_in_turn += 1;
            if !self.can_play(me) {
                self.next_turn();
            }
        }
    }

    /// Hands the move on to the next living seat that can step; each seat that cannot
    /// passes its turn silently, and the game is a draw once every living seat has passed
    /// in a row (rule 8's reading).
    fn next_turn(&mut self) {
        let mut passes = 0;
        loop {
            self.turn += 1;
            self.ply_in_turn = 1;
            self.lev = ALL_ROCKS;
            self.moved_before = self.moved_now;
            self.moved_now = 0;
            let mut seat = self.to_move;
            loop {
                seat = (seat + 1) & 3;
                if self.alive & (1 << seat) != 0 {
                    break;
                }
            }
            self.to_move = seat;
            if self.can_play(seat) {
                return;
            }
            passes += 1;
            if passes >= self.alive.count_ones() {
                self.result = Some(None);
                return;
            }
        }
    }

    /// `None` while the game goes on; then `Some(winner)` (a player index of the game
    /// file), `Some(None)` for a draw.
    pub fn result(&self) -> Option<Option<u8>> {
        self.result
    }

    /// Plies played since the start.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The game file's text of a ply.
    pub fn notation(&self, m: Move) -> String {
        let letter = KIND_LETTERS[(self.board[m.from as usize] & 3) as usize];
        let to = step(m.from, m.dir as usize);
        let base = format!("{letter}{}-{}", name(m.from), name(to));
        match m.extra {
            Extra::None => base,
            Extra::Lev(rock) => format!("{base} lev {}", name(rock)),
            Extra::Pull => format!("{base} pull"),
            Extra::Throw(dir) => format!("{base} throw {}", DIR_NAMES[dir as usize]),
        }
    }

    /// Plays uniformly random plies to the end; returns the result.
    pub fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Option<u8> {
        let mut moves = [NO_MOVE; MAX_MOVES];
        loop {
            if let Some(result) = self.result {
                return result;
            }
            let n = self.fill(&mut moves);
            self.play(moves[rng.random_range(0..n as u32) as usize]);
        }
    }

    /// Leaf plies `depth` plies deep, counted as the interpreter's perft does: a ply that
    /// ends the game is a leaf.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = [NO_MOVE; MAX_MOVES];
        let n = self.fill(&mut moves);
        if depth == 1 {
            return n as u64;
        }
        moves[..n]
            .iter()
            .map(|&m| {
                let mut next = *self;
                next.play(m);
                if next.result.is_some() {
                    1
                } else {
                    next.perft(depth - 1)
                }
            })
            .sum()
    }
}
