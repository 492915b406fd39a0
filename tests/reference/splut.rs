//! Splut! (Tommy De Coninck, 2009), from docs/rules/splut.md, for 2, 3 and 4 players.
//!
//! - A 9x9 grid masked to the 41-square diamond |file - e| + |rank - 5| <= 4; a rock on each
//!   tip. Seats south, west, north, east; 2 players = south, north; 3 = south, west, north.
//! - A turn is 1 step (first turn of the game), 2 (second), then 3; a throw ends it; a
//!   player with steps owed but none legal ends it; a player with no step at the start of a
//!   turn passes it silently (it still counts as a turn); nobody able to step: a draw.
//! - Sorcerer: steps onto an empty square, may levitate one rock one square the same way
//!   (not a rock moved during the previous player's turn; continuity within a turn).
//! - Troll: steps onto an empty square (optionally pulling the rock right behind it) or onto
//!   a rock, which it then throws in a direction where the rock can move at least one square.
//! - Dwarf: steps, pushing the unbroken line in front of it if the square beyond is empty.
//! - A thrown rock stopping on a sorcerer kills it and its whole team; one stopping on a dwarf
//!   before an obstacle crushes it. The last living sorcerer wins.
//! - Notation: `Sd2-d3`, `Sd2-d3 lev e5`, `Tf2-f3`, `Tf2-f3 pull`, `Tf2-f3 throw n`,
//!   `De2-e3`.
//!
//! The game file's variant switch `lev_into_vacated` (rule 10's reading: the square the
//! sorcerer has just left counts as empty for its levitation) is [`Splut::lev_into_vacated`].
//!
//! Rules-file readings this reference had to choose (beyond those the file marks):
//! - "The previous player's turn" (rule 11) is the turn played just before the current one,
//!   whoever played it: a passed turn moved no rock, so after a pass every rock may be
//!   levitated again; a turn ended by a throw counts like any other.
//! - Eliminated seats take no turns and so do not advance the 1-2-3 schedule.
//! - A turn never ends early by choice: steps are compulsory (rule 8).

use super::{GameResult, Reference, cell_name};

/// The side of the bounding grid.
pub const SIZE: usize = 9;
/// Seats in table (and turn) order.
pub const SEATS: [&str; 4] = ["south", "west", "north", "east"];

/// The four orthogonal directions with their notation letters: (file step, rank step).
const DIRS: [(i64, i64, char); 4] = [(0, 1, 'n'), (1, 0, 'e'), (0, -1, 's'), (-1, 0, 'w')];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Sorcerer,
    Dwarf,
    Troll,
}

impl Kind {
    fn letter(self) -> char {
        match self {
            Kind::Sorcerer => 'S',
            Kind::Dwarf => 'D',
            Kind::Troll => 'T',
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Not part of the diamond.
    Off,
    Empty,
    /// A rock, by identity (0..4), so rule 11 can follow it as it moves.
    Rock(usize),
    /// A team piece of a seat (index into [`SEATS`]).
    Piece(Kind, usize),
}

/// What a step does besides moving its piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extra {
    None,
    /// Sorcerer: levitate the rock on this square (before the step).
    Lev(usize),
    /// Troll: drag the rock right behind it.
    Pull,
    /// Troll onto a rock: throw it in this direction (index into `DIRS`).
    Throw(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub kind: Kind,
    pub from: usize,
    pub to: usize,
    /// Index into `DIRS` of the step's direction.
    pub dir: usize,
    pub extra: Extra,
}

/// Where levitation stands within the current turn (rule 12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lev {
    /// No rock levitated yet this turn: any sorcerer step may start one.
    Fresh,
    /// The previous step levitated this rock: only the very next step may continue it.
    Active(usize),
    /// A levitation was interrupted: no more this turn.
    Done,
}

#[derive(Clone, Debug)]
pub struct Splut {
    pub lev_into_vacated: bool,
    /// Index `rank * 9 + file`, both 0-based.
    pub cells: Vec<Cell>,
    /// Seats in play, in turn order.
    pub seats: Vec<usize>,
    /// Per seat: its sorcerer still lives (unused seats: false).
    pub alive: [bool; 4],
    /// The seat to act.
    pub current: usize,
    /// The game turn in progress, from 1 (passed turns included).
    pub turn: usize,
    /// Steps still owed in this turn.
    pub steps_left: usize,
    pub lev: Lev,
    /// Rocks moved (any way) during this turn.
    pub moved_now: [bool; 4],
    /// Rocks moved during the previous turn: not levitable (rule 11).
    pub moved_before: [bool; 4],
    pub plies: usize,
    pub result: Option<GameResult>,
}

fn on_board(file: i64, rank: i64) -> bool {
    (0..SIZE as i64).contains(&file)
        && (0..SIZE as i64).contains(&rank)
        && (file - 4).abs() + (rank - 4).abs() <= 4
}

/// The steps in a game turn (rule 7).
fn steps_for(turn: usize) -> usize {
    turn.min(3)
}

impl Splut {
    pub fn new(players: usize, lev_into_vacated: bool) -> Splut {
        let seats = match players {
            2 => vec![0, 2],
            3 => vec![0, 1, 2],
            4 => vec![0, 1, 2, 3],
            _ => panic!("Splut! is for 2, 3 or 4 players, not {players}"),
        };
        let mut cells = vec![Cell::Off; SIZE * SIZE];
        for rank in 0..SIZE {
            for file in 0..SIZE {
                if on_board(file as i64, rank as i64) {
                    cells[rank * SIZE + file] = Cell::Empty;
                }
            }
        }
        let mut pos = Splut {
            lev_into_vacated,
            cells,
            seats: seats.clone(),
            alive: [false; 4],
            current: 0,
            turn: 1,
            steps_left: 1,
            lev: Lev::Fresh,
            moved_now: [false; 4],
            moved_before: [false; 4],
            plies: 0,
            result: None,
        };
        // Rule 3: rocks on e1, a5, e9, i5 whatever the number of players.
        for (id, rock) in ["e1", "a5", "e9", "i5"].iter().enumerate() {
            let c = Splut::parse(rock);
            pos.cells[c] = Cell::Rock(id);
        }
        // Rule 4: troll, dwarf, sorcerer per seat.
        let teams = [
            ["f2", "e2", "d2"],
            ["b4", "b5", "b6"],
            ["d8", "e8", "f8"],
            ["h6", "h5", "h4"],
        ];
        for &seat in &seats {
            let [troll, dwarf, sorcerer] = teams[seat];
            pos.cells[Splut::parse(troll)] = Cell::Piece(Kind::Troll, seat);
            pos.cells[Splut::parse(dwarf)] = Cell::Piece(Kind::Dwarf, seat);
            pos.cells[Splut::parse(sorcerer)] = Cell::Piece(Kind::Sorcerer, seat);
            pos.alive[seat] = true;
        }
        pos
    }

    pub fn parse(name: &str) -> usize {
        let (file, rank) = super::parse_cell(name, SIZE, SIZE).expect("a cell name");
        assert!(
            on_board(file as i64, rank as i64),
            "{name} is off the diamond"
        );
        rank * SIZE + file
    }

    pub fn name(index: usize) -> String {
        cell_name(index % SIZE, index / SIZE)
    }

    /// The square one step from `index` in direction `dir`, if on the diamond.
    fn step(index: usize, dir: usize) -> Option<usize> {
        let (df, dr, _) = DIRS[dir];
        let (f, r) = ((index % SIZE) as i64 + df, (index / SIZE) as i64 + dr);
        on_board(f, r).then(|| r as usize * SIZE + f as usize)
    }

    fn opposite(dir: usize) -> usize {
        (dir + 2) % 4
    }

    /// The number of team pieces of `seat` on the board.
    pub fn pieces_of(&self, seat: usize) -> usize {
        self.cells
            .iter()
            .filter(|c| matches!(c, Cell::Piece(_, s) if *s == seat))
            .count()
    }

    /// Where a rock thrown from `start` in `dir` lands: `None` if it cannot move at all.
    fn flight(&self, start: usize, dir: usize) -> Option<usize> {
        let mut at = start;
        loop {
            match Splut::step(at, dir).map(|c| (c, self.cells[c])) {
                Some((next, Cell::Empty | Cell::Piece(Kind::Dwarf, _))) => at = next,
                Some((next, Cell::Piece(Kind::Sorcerer, _))) => return Some(next),
                // The edge, a troll or a rock: the square before it.
                _ => return (at != start).then_some(at),
            }
        }
    }

    /// Every legal step of `seat` in the current position and turn state.
    fn steps_of(&self, seat: usize) -> Vec<Move> {
        let mut out = Vec::new();
        for from in 0..self.cells.len() {
            let Cell::Piece(kind, owner) = self.cells[from] else {
                continue;
            };
            if owner != seat {
                continue;
            }
            for dir in 0..4 {
                let Some(to) = Splut::step(from, dir) else {
                    continue;
                };
                let plain = Move {
                    kind,
                    from,
                    to,
                    dir,
                    extra: Extra::None,
                };
                match kind {
                    Kind::Sorcerer => {
                        if self.cells[to] != Cell::Empty {
                            continue;
                        }
                        out.push(plain);
                        for rock in self.levitable() {
                            let Cell::Rock(_) = self.cells[rock] else {
                                unreachable!()
                            };
                            let Some(dest) = Splut::step(rock, dir) else {
                                continue;
                            };
                            // Empty after the sorcerer's step: `to` is taken; `from` is free
                            // only with the rule-10 reading.
                            let free = if dest == from {
                                self.lev_into_vacated
                            } else {
                                dest != to && self.cells[dest] == Cell::Empty
                            };
                            if free {
                                out.push(Move {
                                    extra: Extra::Lev(rock),
                                    ..plain
                                });
                            }
                        }
                    }
                    Kind::Troll => match self.cells[to] {
                        Cell::Empty => {
                            out.push(plain);
                            if let Some(behind) = Splut::step(from, Splut::opposite(dir))
                                && matches!(self.cells[behind], Cell::Rock(_))
                            {
                                out.push(Move {
                                    extra: Extra::Pull,
                                    ..plain
                                });
                            }
                        }
                        Cell::Rock(_) => {
                            // The troll stands on `to` with the rock; `from` is now empty.
                            let mut after = self.clone();
                            after.cells[from] = Cell::Empty;
                            after.cells[to] = Cell::Piece(Kind::Troll, seat);
                            for throw in 0..4 {
                                if after.flight(to, throw).is_some() {
                                    out.push(Move {
                                        extra: Extra::Throw(throw),
                                        ..plain
                                    });
                                }
                            }
                        }
                        _ => {}
                    },
                    Kind::Dwarf => {
                        // The line starting on `to` and the first free square after it.
                        let mut end = to;
                        let mut ok = true;
                        while self.cells[end] != Cell::Empty {
                            match Splut::step(end, dir) {
                                Some(next) => end = next,
                                None => {
                                    ok = false;
                                    break;
                                }
                            }
                        }
                        if ok {
                            out.push(plain);
                        }
                    }
                }
            }
        }
        out
    }

    /// The squares of the rocks the sorcerer may levitate now (rules 11 and 12).
    fn levitable(&self) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&c| match self.cells[c] {
                Cell::Rock(id) => {
                    !self.moved_before[id]
                        && match self.lev {
                            Lev::Fresh => true,
                            Lev::Active(r) => r == id,
                            Lev::Done => false,
                        }
                }
                _ => false,
            })
            .collect()
    }

    fn living(&self) -> Vec<usize> {
        self.seats
            .iter()
            .copied()
            .filter(|&s| self.alive[s])
            .collect()
    }

    /// Removes a seat's whole team (rule 19).
    fn eliminate(&mut self, seat: usize) {
        self.alive[seat] = false;
        for cell in &mut self.cells {
            if matches!(cell, Cell::Piece(_, s) if *s == seat) {
                *cell = Cell::Empty;
            }
        }
    }

    /// Ends the current turn and starts the next living seat's, passing silently over
    /// seats that cannot step (rule 8).
    fn end_turn(&mut self) {
        self.moved_before = self.moved_now;
        self.moved_now = [false; 4];
        loop {
            let order = &self.seats;
            let at = order.iter().position(|&s| s == self.current).unwrap();
            let next = (1..=order.len())
                .map(|k| order[(at + k) % order.len()])
                .find(|&s| self.alive[s])
                .expect("a living seat");
            self.current = next;
            self.turn += 1;
            self.steps_left = steps_for(self.turn);
            self.lev = Lev::Fresh;
            if !self.steps_of(next).is_empty() {
                return;
            }
            // A pass: it moves no rock. Nobody able to step: a draw.
            if self.living().iter().all(|&s| self.steps_of(s).is_empty()) {
                self.result = Some(GameResult::Draw);
                return;
            }
            self.moved_before = [false; 4];
        }
    }
}

impl Reference for Splut {
    type Move = Move;

    fn players(&self) -> Vec<&'static str> {
        self.seats.iter().map(|&s| SEATS[s]).collect()
    }

    fn to_move(&self) -> &'static str {
        SEATS[self.current]
    }

    fn moves(&self) -> Vec<Move> {
        if self.result.is_some() {
            return Vec::new();
        }
        self.steps_of(self.current)
    }

    fn notation(&self, ply: &Move) -> String {
        let base = format!(
            "{}{}-{}",
            ply.kind.letter(),
            Splut::name(ply.from),
            Splut::name(ply.to)
        );
        match ply.extra {
            Extra::None => base,
            Extra::Lev(rock) => format!("{base} lev {}", Splut::name(rock)),
            Extra::Pull => format!("{base} pull"),
            Extra::Throw(dir) => format!("{base} throw {}", DIRS[dir].2),
        }
    }

    fn apply(&mut self, ply: &Move) {
        assert!(self.result.is_none(), "the game is over");
        let me = self.current;
        assert_eq!(self.cells[ply.from], Cell::Piece(ply.kind, me));
        let mut thrown = false;
        let mut levitated = None;
        match ply.kind {
            Kind::Sorcerer => {
                self.cells[ply.from] = Cell::Empty;
                self.cells[ply.to] = Cell::Piece(Kind::Sorcerer, me);
                if let Extra::Lev(rock) = ply.extra {
                    let Cell::Rock(id) = self.cells[rock] else {
                        panic!("no rock on {}", Splut::name(rock));
                    };
                    let dest = Splut::step(rock, ply.dir).expect("on the board");
                    assert_eq!(self.cells[dest], Cell::Empty);
                    self.cells[rock] = Cell::Empty;
                    self.cells[dest] = Cell::Rock(id);
                    self.moved_now[id] = true;
                    levitated = Some(id);
                }
            }
            Kind::Troll => match ply.extra {
                Extra::Throw(dir) => {
                    let Cell::Rock(id) = self.cells[ply.to] else {
                        panic!("no rock to throw on {}", Splut::name(ply.to));
                    };
                    self.cells[ply.from] = Cell::Empty;
                    self.cells[ply.to] = Cell::Piece(Kind::Troll, me);
                    let land = self.flight(ply.to, dir).expect("a legal throw");
                    match self.cells[land] {
                        Cell::Piece(Kind::Sorcerer, victim) => self.eliminate(victim),
                        Cell::Piece(Kind::Dwarf, _) | Cell::Empty => {}
                        other => panic!("a rock landing on {other:?}"),
                    }
                    // A crushed dwarf is simply replaced.
                    self.cells[land] = Cell::Rock(id);
                    self.moved_now[id] = true;
                    thrown = true;
                }
                _ => {
                    self.cells[ply.from] = Cell::Empty;
                    self.cells[ply.to] = Cell::Piece(Kind::Troll, me);
                    if ply.extra == Extra::Pull {
                        let behind = Splut::step(ply.from, Splut::opposite(ply.dir)).unwrap();
                        let Cell::Rock(id) = self.cells[behind] else {
                            panic!("no rock to pull on {}", Splut::name(behind));
                        };
                        self.cells[behind] = Cell::Empty;
                        self.cells[ply.from] = Cell::Rock(id);
                        self.moved_now[id] = true;
                    }
                }
            },
            Kind::Dwarf => {
                // Shift the line from its far end back to the dwarf.
                let mut line = vec![ply.from];
                let mut at = ply.to;
                while self.cells[at] != Cell::Empty {
                    line.push(at);
                    at = Splut::step(at, ply.dir).expect("a legal push");
                }
                for &c in line.iter().rev() {
                    let dest = Splut::step(c, ply.dir).unwrap();
                    if let Cell::Rock(id) = self.cells[c] {
                        self.moved_now[id] = true;
                    }
                    self.cells[dest] = self.cells[c];
                }
                self.cells[ply.from] = Cell::Empty;
            }
        }
        self.plies += 1;
        self.steps_left -= 1;
        // Rule 12: a levitation continues only on the very next step.
        self.lev = match (self.lev, levitated) {
            (_, Some(id)) => Lev::Active(id),
            (Lev::Fresh, None) => Lev::Fresh,
            (_, None) => Lev::Done,
        };
        // Rule 20: the last living sorcerer wins.
        let living = self.living();
        if living.len() == 1 {
            self.result = Some(GameResult::Win(SEATS[living[0]]));
            return;
        }
        if !self.alive[me] {
            // Killed by its own throw: the turn is over anyway.
            debug_assert!(thrown);
        }
        if thrown || self.steps_left == 0 || self.steps_of(me).is_empty() {
            self.end_turn();
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
                out.push_str(&match self.cells[rank * SIZE + file] {
                    Cell::Off => "   ".to_string(),
                    Cell::Empty => "  .".to_string(),
                    Cell::Rock(_) => "  R".to_string(),
                    Cell::Piece(kind, seat) => {
                        format!(" {}{}", kind.letter(), &SEATS[seat][..1])
                    }
                });
            }
            out.push('\n');
        }
        out.push_str("    a  b  c  d  e  f  g  h  i\n");
        out.push_str(&format!(
            "{} to act, turn {}, {} step(s) left, levitation {:?}, rocks moved this turn {:?}, \
             during the previous turn {:?}, ply {}, result {:?}\n",
            self.to_move(),
            self.turn,
            self.steps_left,
            self.lev,
            self.moved_now,
            self.moved_before,
            self.plies,
            self.result
        ));
        out
    }
}

#[test]
fn splut_reference_start_facts() {
    // splut.md, "Facts to test against": 3 steps at the 2-player start; same for 3 and 4.
    for players in 2..=4 {
        let s = Splut::new(players, true);
        assert_eq!(s.legal(), vec!["De2-e3", "Sd2-d3", "Tf2-f3"], "{players}");
        assert_eq!(s.cells.iter().filter(|c| **c != Cell::Off).count(), 41);
    }
    let s = Splut::new(3, true);
    assert_eq!(s.players(), vec!["south", "west", "north"]);
}

#[test]
fn splut_reference_schedule_and_powers() {
    // 1 step for south, 2 for north, then 3 each (rule 7).
    let mut s = Splut::new(2, true);
    s.play("De2-e3").unwrap();
    assert_eq!(s.to_move(), "north");
    s.play("De8-e7").unwrap();
    assert_eq!(s.to_move(), "north");
    // Any rock, anywhere, one square the sorcerer's way: e9 south onto e8.
    s.play("Sf8-f7 lev e9").unwrap();
    assert_eq!(s.to_move(), "south");
    // Rule 11: not e8 (moved during north's turn); e1 may go north to e2; a5 and i5 cannot
    // (a6 and i6 are off the diamond).
    let legal = s.legal();
    assert!(!legal.iter().any(|m| m.ends_with("lev e8")), "{legal:?}");
    assert!(legal.contains(&"Sd2-d3 lev e1".to_string()), "{legal:?}");
    assert!(
        !legal.iter().any(|m| m.starts_with("Sd2-d3 lev a5")),
        "{legal:?}"
    );
    // Nothing behind the troll stepping f2-f3: no pull.
    assert!(!legal.contains(&"Tf2-f3 pull".to_string()));
    s.play("Tf2-e2").unwrap();
    s.play("De3-e4").unwrap();
    // e1 is right behind the troll stepping e2-e3: it may be pulled.
    let legal = s.legal();
    assert!(legal.contains(&"Te2-e3 pull".to_string()), "{legal:?}");
    s.play("Te2-e3 pull").unwrap();
    assert_eq!(s.to_move(), "north");
    assert_eq!(s.cells[Splut::parse("e2")], Cell::Rock(0));
}

#[test]
fn splut_reference_throws() {
    let mut s = Splut::new(2, true);
    for m in [
        "Sd2-d3",
        "De8-e7",
        "Sf8-f7 lev e9",
        "Tf2-f3",
        "Tf3-f4",
        "Tf4-f5",
    ] {
        s.play(m).unwrap();
    }
    assert_eq!(s.to_move(), "north");
    // North's troll d8 steps onto the e8 rock; every direction lets the rock move: s (far),
    // w onto d8 (just vacated; c8 is off the diamond), n onto e9, e onto f8.
    let legal = s.legal();
    for dir in ["n", "e", "s", "w"] {
        assert!(legal.contains(&format!("Td8-e8 throw {dir}")), "{legal:?}");
    }
    s.play("Td8-e8 throw s").unwrap();
    // Over north's dwarf on e7 and on to e2, before the e1 rock: south's dwarf is crushed.
    assert_eq!(s.cells[Splut::parse("e2")], Cell::Rock(2));
    assert_eq!(s.cells[Splut::parse("e7")], Cell::Piece(Kind::Dwarf, 2));
    assert_eq!(s.pieces_of(0), 2);
    // The throw ended north's turn after one of its three steps.
    assert_eq!(s.to_move(), "south");
    assert!(s.result().is_none());
}
