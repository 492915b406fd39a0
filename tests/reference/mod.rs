//! Independent reference implementations of the games, written directly from the rules
//! files in `docs/rules/` (README.md and one file per game) and nothing else.
//!
//! They are deliberately plain: boards are vectors of cells, groups are found by flood
//! fill, legal plies are produced as the canonical strings of each rules file's "Notation"
//! section. Splut! (2, 3 or 4 players, a turn of up to three one-step plies) keeps its
//! whole turn bookkeeping in the position, so one ply is still one `apply`. The
//! trace-replay and perft tests in `traces.rs`, `traces_vlkno_sight.rs`,
//! `traces_splut.rs`, `traces_morris.rs` and `go.rs` compare the interpreter against them.

pub mod abalone;
pub mod bounce;
pub mod draughts;
pub mod fanorona;
pub mod go;
pub mod gomoku;
pub mod havannah;
pub mod konane;
pub mod lines_of_action;
pub mod minidrop;
pub mod morris;
pub mod oware;
pub mod quoridor;
pub mod reversi;
pub mod sight;
pub mod splut;
pub mod staqs;
pub mod surakarta;
pub mod vlkno;
pub mod xiangqi;

/// How a finished game ended, by the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// This player (by name) won.
    Win(&'static str),
    /// Nobody won.
    Draw,
}

impl GameResult {
    /// The winners as the trace writes them: one name, or none for a draw.
    pub fn winners(&self) -> Vec<String> {
        match self {
            GameResult::Win(name) => vec![name.to_string()],
            GameResult::Draw => Vec::new(),
        }
    }
}

/// A position of a reference game.
pub trait Reference: Clone {
    /// A ply in the implementation's own form.
    type Move: Clone;

    /// The player names in turn order.
    fn players(&self) -> Vec<&'static str>;
    /// The name of the player to act.
    fn to_move(&self) -> &'static str;
    /// Every legal ply in this position; empty once the game is over.
    fn moves(&self) -> Vec<Self::Move>;
    /// The canonical text of a ply (the rules file's "Notation" section).
    fn notation(&self, ply: &Self::Move) -> String;
    /// Plays a ply produced by [`Reference::moves`] for this position.
    fn apply(&mut self, ply: &Self::Move);
    /// The result, once the game is over.
    fn result(&self) -> Option<GameResult>;
    /// Plies played since the start.
    fn plies(&self) -> usize;
    /// A text picture of the position, for failure messages.
    fn render(&self) -> String;

    /// The canonical texts of the legal plies, sorted.
    fn legal(&self) -> Vec<String> {
        let mut all: Vec<String> = self.moves().iter().map(|m| self.notation(m)).collect();
        all.sort();
        all
    }

    /// Plays the ply written `text` (case and spaces ignored), if it is legal.
    fn play(&mut self, text: &str) -> Result<(), String> {
        let wanted = normalize(text);
        let found = self
            .moves()
            .into_iter()
            .find(|m| normalize(&self.notation(m)) == wanted);
        match found {
            Some(m) => {
                self.apply(&m);
                Ok(())
            }
            None => Err(format!("`{text}` is not legal; legal: {:?}", self.legal())),
        }
    }
}

/// Lower case, no whitespace.
fn normalize(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Leaf plies at `depth`; a ply that ends the game is a leaf (counts 1).
pub fn perft<R: Reference>(pos: &R, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut next = pos.clone();
            next.apply(m);
            if next.result().is_some() {
                1
            } else {
                perft(&next, depth - 1)
            }
        })
        .sum()
}

/// The name of a cell: file letter from `a`, then rank number from 1 (0-based inputs).
pub fn cell_name(file: usize, rank: usize) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

/// Parses a cell name on a `width` x `height` grid into 0-based (file, rank).
pub fn parse_cell(text: &str, width: usize, height: usize) -> Option<(usize, usize)> {
    let mut chars = text.chars();
    let letter = chars.next()?.to_ascii_lowercase();
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let file = (letter as u8 - b'a') as usize;
    let digits = chars.as_str();
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let rank: usize = digits.parse().ok()?;
    if file >= width || rank == 0 || rank > height {
        return None;
    }
    Some((file, rank - 1))
}

#[test]
fn cell_names_round_trip() {
    assert_eq!(cell_name(0, 0), "a1");
    assert_eq!(cell_name(7, 7), "h8");
    assert_eq!(cell_name(25, 25), "z26");
    assert_eq!(parse_cell("b1", 8, 8), Some((1, 0)));
    assert_eq!(parse_cell("H8", 8, 8), Some((7, 7)));
    assert_eq!(parse_cell("a10", 10, 10), Some((0, 9)));
    assert_eq!(parse_cell("i1", 8, 8), None);
    assert_eq!(parse_cell("a0", 8, 8), None);
    assert_eq!(parse_cell("a9", 8, 8), None);
    assert_eq!(normalize(" B1 - A1 "), "b1-a1");
}
