//! Splut! written by hand for speed: the baseline the interpreter's playouts are measured
//! against (`benches/playouts.rs`), checked against the interpreter by `tests/fast_engines/splut.rs`.
//! It follows `docs/rules/splut.md` as `games/splut.toml` reads it, for 2, 3 and 4 players
//! and both readings of rule 10 (`lev_into_vacated`).
//!
//! The 41 squares of the diamond are numbered rank by rank from e1 (0) to e9 (40), so a set
//! of squares is a `u64`; tables built at compile time give each square's neighbour in each
//! direction, with [`OFF`] (bit 63, in no set) past the edge, and the ray of squares beyond
//! it, so that "one step that way is empty" is a table read and a bit test, and so is "this
//! dwarf can push that way" (an empty square anywhere on the ray). The position keeps a
//! mailbox (what stands on each square, for pushes and throws, which must know what they
//! move or hit), the sets of occupied squares and of rocks, and where each rock and piece
//! stands, so that listing a player's steps looks at three pieces and four rocks, never at
//! the whole board.
//!
//! Rule 11 follows rocks by identity: the rocks moved (any way) during the current turn
//! and during the one before are two 4-bit masks, shifted at every turn, a silent pass
//! included. Levitation continuity (rule 12) is one more mask: the rocks the next step
//! may levitate (all four until a levitation, then the one rock for the very next step
//! only, then none for the rest of the turn).
//!
//! A random playout lists the mover's steps into a fixed array on the stack and draws one
//! index uniformly, so nothing is allocated per ply and the draw is the same as picking
//! from [`Splut::moves`]. Listing is branch-free where the outcome is unpredictable: each
//! candidate ply (16 bits) is stored, and kept by adding its legality to the count.

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
/// steps onto a rock with 4 throws each (or a step and a pull), 4 dwarf steps. A candidate
/// is stored at the count of plies kept before it, so the stores stay within it too.
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
    /// Per square and direction: the squares met going that way, the square excluded. The
    /// dwarf's push (rule 18) needs an empty square past the unbroken line in front of it,
    /// that is an empty square anywhere on this ray.
    rays: [[u64; 4]; 64],
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
        rays: [[0; 4]; 64],
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
    let mut cell = 0;
    while cell < CELLS {
        let mut d = 0;
        while d < 4 {
            let mut at = t.step[cell][d];
            while at != OFF {
                t.rays[cell][d] |= 1 << at;
                at = t.step[at as usize][d];
            }
            d += 1;
        }
        cell += 1;
    }
    t
}

#[inline(always)]
fn step(cell: u8, dir: usize) -> u8 {
    // Masked so that the index needs no bounds check: every square (and OFF) is below 64.
    TABLES.step[(cell & 63) as usize][dir & 3]
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

/// A ply, packed in 16 bits: the square of the piece that steps (bits 0-5; the piece is
/// whatever stands there in the position the ply is played in), its direction (6-7), what
/// goes with it (8-9: [`STEP`], [`LEV`], [`PULL`], [`THROW`]) and that extra's square or
/// direction (10-15). One store writes a candidate ply, and playing it reads it back whole:
/// a ply written field by field and read as one word would stall the processor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move(u16);

const STEP: u16 = 0;
const LEV: u16 = 1 << 8;
const PULL: u16 = 2 << 8;
const THROW: u16 = 3 << 8;

impl Move {
    /// The step of the piece on `from` towards `dir`, with nothing else.
    #[inline(always)]
    fn step(from: u8, dir: usize) -> Move {
        Move(from as u16 | (dir as u16) << 6)
    }

    /// This step with an extra and its square or direction.
    #[inline(always)]
    fn with(self, extra: u16, value: u8) -> Move {
        Move(self.0 | extra | (value as u16) << 10)
    }

    fn from(self) -> u8 {
        (self.0 & 63) as u8
    }

    fn dir(self) -> usize {
        (self.0 >> 6 & 3) as usize
    }

    fn extra(self) -> Extra {
        let value = (self.0 >> 10) as u8;
        match self.0 & THROW {
            STEP => Extra::None,
            LEV => Extra::Lev(value),
            PULL => Extra::Pull,
            _ => Extra::Throw(value),
        }
    }
}

const NO_MOVE: Move = Move(0);

/// A position, with the state of the turn in progress.
#[derive(Clone, Copy, Debug)]
pub struct Splut {
    /// Per square: [`EMPTY`], a rock or a team piece (the mailbox codes).
    board: [u8; 64],
    /// Squares holding anything.
    occupied: u64,
    /// Squares holding a rock.
    rocks: u64,
    /// Per mailbox code (a rock, or a seat's piece of a kind): where it stands, or [`OFF`]
    /// (a piece that left the board, or of a seat not in the game). One table for both,
    /// so that moving anything updates it without asking what moved.
    at: [u8; 32],
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
            at: [OFF; 32],
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

    /// What stands on `cell` (a mailbox code).
    #[inline(always)]
    fn code(&self, cell: u8) -> u8 {
        self.board[(cell & 63) as usize]
    }

    /// The square of the piece of `seat` of `kind`, or [`OFF`].
    #[inline(always)]
    fn piece(&self, seat: u8, kind: usize) -> u8 {
        self.at[(PIECE | seat << 2) as usize + kind]
    }

    /// Toggles `code` on the squares of `cells` in the sets (occupied, and rocks for a rock):
    /// both updated without a branch.
    #[inline(always)]
    fn toggle(&mut self, cells: u64, code: u8) {
        self.occupied ^= cells;
        self.rocks ^= cells & ((code < PIECE) as u64).wrapping_neg();
    }

    /// Puts `code` on the empty square `cell`.
    fn put(&mut self, cell: u8, code: u8) {
        self.board[(cell & 63) as usize] = code;
        self.at[(code & 31) as usize] = cell;
        self.toggle(bit(cell), code);
    }

    /// Empties `cell`, returning what stood there (now nowhere).
    fn take(&mut self, cell: u8) -> u8 {
        let code = self.code(cell);
        self.board[(cell & 63) as usize] = EMPTY;
        self.at[(code & 31) as usize] = OFF;
        self.toggle(bit(cell), code);
        code
    }

    /// Moves what stands on `from` to the empty square `to`.
    #[inline(always)]
    fn relocate(&mut self, from: u8, to: u8) {
        let code = self.code(from);
        self.board[(from & 63) as usize] = EMPTY;
        self.board[(to & 63) as usize] = code;
        self.at[(code & 31) as usize] = to;
        self.toggle(bit(from) | bit(to), code);
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

    /// Whether `seat` has a legal step (its sorcerer lives).
    fn can_play(&self, seat: u8) -> bool {
        let (sorcerer, dwarf, troll) = (
            self.piece(seat, SORCERER),
            self.piece(seat, DWARF),
            self.piece(seat, TROLL),
        );
        let empty = self.empty();
        // A sorcerer's plain step needs only an empty neighbour; a troll next to a rock
        // can always step onto it and throw it back over the square it left.
        if TABLES.neighbours[sorcerer as usize] & empty != 0
            || (troll != OFF && TABLES.neighbours[troll as usize] & (empty | self.rocks) != 0)
        {
            return true;
        }
        dwarf != OFF
            && TABLES.rays[dwarf as usize]
                .iter()
                .any(|&ray| ray & empty != 0)
    }

    /// Lists the legal plies into `out`; returns how many (0 once the game is over). Each
    /// candidate is written whether legal or not and kept by advancing the count by its
    /// legality: random positions make those tests unpredictable, and a mispredicted
    /// branch costs more than a store.
    pub fn fill(&self, out: &mut [Move; MAX_MOVES]) -> usize {
        if self.result.is_some() {
            return 0;
        }
        let mut n = 0;
        let seat = self.to_move;
        let (sorcerer, dwarf, troll) = (
            self.piece(seat, SORCERER),
            self.piece(seat, DWARF),
            self.piece(seat, TROLL),
        );
        let empty = self.empty();
        // Rules 9-13: the sorcerer, with the rocks it may levitate (rules 11 and 12). A
        // rock moves the sorcerer's way, so it can never be bound for the square the
        // sorcerer enters (it would have to stand where the sorcerer stands): the squares
        // free for it are the empty ones, and with rule 10's reading the one it leaves.
        let levitable = self.lev & !self.moved_before;
        let free = empty
            | if self.lev_into_vacated {
                bit(sorcerer)
            } else {
                0
            };
        for dir in 0..4 {
            let open = (empty >> step(sorcerer, dir) & 1) as usize;
            let m = Move::step(sorcerer, dir);
            out[n] = m;
            n += open;
            let mut rocks = levitable;
            while rocks != 0 {
                let rock = self.at[(ROCK + rocks.trailing_zeros() as u8) as usize];
                rocks &= rocks - 1;
                out[n] = m.with(LEV, rock);
                n += open & (free >> step(rock, dir) & 1) as usize;
            }
        }
        // Rules 14-17: the troll steps (and may pull), or steps onto a rock and throws it.
        if troll != OFF {
            for dir in 0..4 {
                let to = step(troll, dir);
                let m = Move::step(troll, dir);
                let open = (empty >> to & 1) as usize;
                out[n] = m;
                n += open;
                out[n] = m.with(PULL, 0);
                n += open & (self.rocks >> step(troll, dir ^ 2) & 1) as usize;
                if self.rocks & bit(to) != 0 {
                    // The rock must move at least one square: the next one is on the board
                    // and neither a troll nor a rock (the troll's own square is vacated).
                    for throw in 0..4 {
                        let next = step(to, throw);
                        out[n] = m.with(THROW, throw as u8);
                        n += (next != OFF && (next == troll || !Self::blocks(self.code(next))))
                            as usize;
                    }
                }
            }
        }
        // Rule 18: the dwarf steps, pushing the line in front of it.
        if dwarf != OFF {
            for dir in 0..4 {
                out[n] = Move::step(dwarf, dir);
                n += (TABLES.rays[dwarf as usize][dir] & empty != 0) as usize;
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
        let (from, dir) = (m.from(), m.dir());
        let to = step(from, dir);
        // Rule 12: a step that does not levitate ends a levitation begun this turn.
        let mut lev = if self.lev == ALL_ROCKS { ALL_ROCKS } else { 0 };
        let mut thrown = false;
        match m.extra() {
            Extra::None => {
                if self.code(from) & 3 == DWARF as u8 {
                    self.push(to, dir);
                }
                self.relocate(from, to);
            }
            Extra::Lev(rock) => {
                self.relocate(from, to);
                let k = self.code(rock) - ROCK;
                self.relocate(rock, step(rock, dir));
                self.moved_now |= 1 << k;
                lev = 1 << k;
            }
            Extra::Pull => {
                self.relocate(from, to);
                let behind = step(from, dir ^ 2);
                self.moved_now |= 1 << (self.code(behind) - ROCK);
                self.relocate(behind, from);
            }
            Extra::Throw(throw) => {
                let rock = self.take(to);
                self.relocate(from, to);
                let land = self.flight(to, throw as usize);
                let hit = self.code(land);
                if hit >= PIECE {
                    let seat = (hit >> 2) & 3;
                    if (hit & 3) as usize == SORCERER {
                        // Rule 19: the sorcerer dies with its whole team.
                        self.eliminate(seat);
                    } else {
                        // Only a dwarf can be where a rock lands short of an obstacle.
                        self.take(land);
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
            let code = self.code(cell);
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
            let code = self.code(next);
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
        for kind in [SORCERER, DWARF, TROLL] {
            let cell = self.piece(seat, kind);
            if cell != OFF {
                self.take(cell);
            }
        }
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
        let letter = KIND_LETTERS[(self.code(m.from()) & 3) as usize];
        let to = step(m.from(), m.dir());
        let base = format!("{letter}{}-{}", name(m.from()), name(to));
        match m.extra() {
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
