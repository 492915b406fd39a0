//! Oware (Abapa), from docs/rules/oware.md (rule numbers are that file's).
//!
//! - Twelve pits on a circuit, counter-clockwise: south's `a1`..`f1`, then north's
//!   `f2`..`a2` (rule 1); `seeds` in each, south first (rule 2).
//! - A move empties one of the mover's non-empty pits and sows its seeds one a pit along
//!   the circuit, skipping the emptied pit (rules 3, 4).
//! - The last seed in an opponent's pit making 2 or 3 captures it, and the pits before it
//!   while they are the opponent's and hold 2 or 3 (rules 5, 6); a capture of every seed
//!   the opponent has is cancelled, forbidden or kept by `grand_slam` 0, 1, 2 (rule 8).
//! - An opponent with no seeds must be left some (rule 7); a player with no move ends the
//!   game, each side's seeds going to its owner (rule 9), as after `ply_cap` plies
//!   (rule 11); a store over half the seeds wins, half each draws (rule 10).
//!
//! The pits are an array indexed by their place on the circuit, 0 (`a1`) to 11 (`a2`),
//! so sowing is counting modulo 12: no board geometry at all.

use super::{GameResult, Reference};

/// Turn order (rule 2: south first).
pub const PLAYERS: [&str; 2] = ["south", "north"];

/// The pits on the circuit.
const PITS: usize = 12;

/// The variant switches of the rules.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// Seeds in each pit at the start (rule 2).
    pub seeds: u32,
    /// 0: a grand slam captures nothing; 1: it may not be played; 2: it captures (rule 8).
    pub grand_slam: u32,
    /// Plies after which the game ends (rule 11).
    pub ply_cap: usize,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            seeds: 4,
            grand_slam: 0,
            ply_cap: 200,
        }
    }
}

/// An Oware position.
#[derive(Clone, Debug)]
pub struct Oware {
    pub rules: Rules,
    /// Seeds in each pit, by place on the circuit.
    pub pits: [u32; PITS],
    /// Each player's captured seeds.
    pub store: [u32; 2],
    pub to_move: usize,
    pub plies: usize,
    pub result: Option<GameResult>,
}

/// The player who owns the pit at place `i`.
fn owner(i: usize) -> usize {
    i / 6
}

/// A move played out: the pits after it and the seeds it captures.
struct Sown {
    pits: [u32; PITS],
    captured: u32,
    grand_slam: bool,
}

impl Oware {
    /// The start (rule 2).
    pub fn new(rules: Rules) -> Oware {
        Oware {
            rules,
            pits: [rules.seeds; PITS],
            store: [0, 0],
            to_move: 0,
            plies: 0,
            result: None,
        }
    }

    fn seeds_of(pits: &[u32; PITS], player: usize) -> u32 {
        (0..PITS)
            .filter(|&i| owner(i) == player)
            .map(|i| pits[i])
            .sum()
    }

    /// Sows from pit `from` and works out the capture (rules 3 to 6 and 8).
    fn sow(&self, from: usize) -> Sown {
        let me = self.to_move;
        let mut pits = self.pits;
        let mut hand = pits[from];
        pits[from] = 0;
        let mut i = from;
        while hand > 0 {
            i = (i + 1) % PITS;
            if i == from {
                continue;
            }
            pits[i] += 1;
            hand -= 1;
        }
        // Back from the last pit while the pits are the opponent's with 2 or 3 seeds.
        let mut run = Vec::new();
        let mut j = i;
        while owner(j) != me && (2..=3).contains(&pits[j]) {
            run.push(j);
            j = (j + PITS - 1) % PITS;
        }
        let captured: u32 = run.iter().map(|&j| pits[j]).sum();
        let grand_slam = captured > 0 && captured == Self::seeds_of(&pits, 1 - me);
        if !grand_slam || self.rules.grand_slam == 2 {
            for &j in &run {
                pits[j] = 0;
            }
        }
        Sown {
            pits,
            captured: if !grand_slam || self.rules.grand_slam == 2 {
                captured
            } else {
                0
            },
            grand_slam,
        }
    }

    /// The pits the player to move may sow from (rules 3, 7, 8).
    fn legal_moves(&self) -> Vec<usize> {
        let me = self.to_move;
        let hungry = Self::seeds_of(&self.pits, 1 - me) == 0;
        (0..PITS)
            .filter(|&i| owner(i) == me && self.pits[i] > 0)
            .filter(|&i| {
                let sown = self.sow(i);
                let fed = !hungry || Self::seeds_of(&sown.pits, 1 - me) > 0;
                let allowed = !(sown.grand_slam && self.rules.grand_slam == 1);
                fed && allowed
            })
            .collect()
    }

    /// Each side's seeds go to its owner, and the larger total wins (rules 9, 11).
    fn finish_by_totals(&mut self) {
        let total = |p: usize| self.store[p] + Self::seeds_of(&self.pits, p);
        let (south, north) = (total(0), total(1));
        self.result = Some(if south > north {
            GameResult::Win(PLAYERS[0])
        } else if north > south {
            GameResult::Win(PLAYERS[1])
        } else {
            GameResult::Draw
        });
    }
}

/// The name of the pit at place `i`: south's row 1 from `a`, north's row 2 back from `f`.
pub fn pit_name(i: usize) -> String {
    if i < 6 {
        format!("{}1", (b'a' + i as u8) as char)
    } else {
        format!("{}2", (b'a' + (PITS - 1 - i) as u8) as char)
    }
}

impl Reference for Oware {
    type Move = usize;

    fn players(&self) -> Vec<&'static str> {
        PLAYERS.to_vec()
    }

    fn to_move(&self) -> &'static str {
        PLAYERS[self.to_move]
    }

    fn moves(&self) -> Vec<usize> {
        if self.result.is_some() {
            return Vec::new();
        }
        self.legal_moves()
    }

    fn notation(&self, m: &usize) -> String {
        pit_name(*m)
    }

    fn apply(&mut self, m: &usize) {
        let me = self.to_move;
        let sown = self.sow(*m);
        self.pits = sown.pits;
        self.store[me] += sown.captured;
        self.plies += 1;
        let half = 6 * self.rules.seeds;
        if self.store[me] > half {
            self.result = Some(GameResult::Win(PLAYERS[me]));
        } else if self.store == [half, half] {
            self.result = Some(GameResult::Draw);
        } else if self.plies >= self.rules.ply_cap {
            self.finish_by_totals();
        } else {
            self.to_move = 1 - me;
            if self.legal_moves().is_empty() {
                self.finish_by_totals();
            }
        }
    }

    fn result(&self) -> Option<GameResult> {
        self.result.clone()
    }

    fn plies(&self) -> usize {
        self.plies
    }

    fn render(&self) -> String {
        let north: Vec<String> = (6..PITS).rev().map(|i| self.pits[i].to_string()).collect();
        let south: Vec<String> = (0..6).map(|i| self.pits[i].to_string()).collect();
        format!(
            "north (store {}): {}\nsouth (store {}): {}\n{} to move, {} plies\n",
            self.store[1],
            north.join(" "),
            self.store[0],
            south.join(" "),
            PLAYERS[self.to_move],
            self.plies
        )
    }
}
