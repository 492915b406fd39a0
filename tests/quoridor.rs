//! Quoridor: the independent reference (`reference/quoridor.rs`, written from
//! `docs/rules/quoridor.md` only) against the rules file's facts: perft from the start
//! on 9x9 and 5x5, the jump, the diagonal moves beside a wall and at the board's edge,
//! the walls a pawn's way, overlapping and crossing refuse, the win and the ply cap.
//!
//! Positions are written as a [`Setup`] (pawns, walls placed, hands, who moves), so that
//! each one can be built in the reference and, the same way, in the game file.

use rulebook::engine::game::Game;
use rulebook::engine::state::State;
use rulebook::record::diagram;
use serde_json::json;

use crate::common::{game, legal};
use crate::reference::quoridor::{Cell, Lie, Quoridor};
use crate::reference::{self, GameResult, Reference};
use crate::traces::{check_seeds, compare_perft, compare_perft_midgame};

/// The game file with these parameters.
fn quoridor(size: usize, walls: usize, max_plies: usize) -> Game {
    game(
        "quoridor",
        &[
            ("size", &size.to_string()),
            ("walls", &walls.to_string()),
            ("max_plies", &max_plies.to_string()),
        ],
    )
}

/// A position as the tests write it: the two pawns' cells, the walls placed (in the
/// rules' notation, `e3h`), the walls left in each hand and the player to move.
#[derive(Clone, Debug)]
pub(crate) struct Setup {
    pub(crate) size: usize,
    pub(crate) white: &'static str,
    pub(crate) black: &'static str,
    pub(crate) walls: Vec<&'static str>,
    pub(crate) in_hand: [usize; 2],
    pub(crate) to_move: &'static str,
}

impl Setup {
    /// The pawns at `white` and `black` on the 9x9 board, no wall placed, 10 in each
    /// hand, white to move.
    pub(crate) fn new(white: &'static str, black: &'static str) -> Setup {
        Setup {
            size: 9,
            white,
            black,
            walls: Vec::new(),
            in_hand: [10, 10],
            to_move: "white",
        }
    }

    /// The same with these walls placed.
    pub(crate) fn walls(mut self, walls: &[&'static str]) -> Setup {
        self.walls = walls.to_vec();
        self
    }

    /// The same with these walls in hand.
    pub(crate) fn hands(mut self, white: usize, black: usize) -> Setup {
        self.in_hand = [white, black];
        self
    }

    /// The same with `player` to move.
    pub(crate) fn moving(mut self, player: &'static str) -> Setup {
        self.to_move = player;
        self
    }

    /// The position in the game file, written as a diagram: the pawns on their cells,
    /// each wall as its three places (the point at its centre and the edges either side,
    /// `_` across the files, `:` along them), the hands and the player to move.
    pub(crate) fn engine(&self, g: &Game) -> State {
        let mut lines = Vec::new();
        for rank in (1..=self.size).rev() {
            let row: Vec<&str> = (0..self.size)
                .map(|f| {
                    let cell = format!("{}{rank}", (b'a' + f as u8) as char);
                    match cell {
                        c if c == self.white => "W",
                        c if c == self.black => "B",
                        _ => ".",
                    }
                })
                .collect();
            lines.push(row.join(" "));
        }
        for wall in &self.walls {
            // The cell south-west of the centre names it: the centre is that cell's
            // north-east corner, the edges its north and east sides and their neighbours'.
            let (cell, lie) = wall.split_at(wall.len() - 1);
            let (file, rank) = (cell.as_bytes()[0], &cell[1..]);
            let up: usize = rank.parse::<usize>().unwrap() + 1;
            let east = (file + 1) as char;
            let (symbol, ends) = if lie == "h" {
                ("_", [format!("{cell}n"), format!("{east}{rank}n")])
            } else {
                (":", [format!("{cell}e"), format!("{}{up}e", file as char)])
            };
            lines.push(format!("{cell}ne = {symbol}"));
            for end in ends {
                lines.push(format!("{end} = {symbol}"));
            }
        }
        lines.push(format!("left(white) = {}", self.in_hand[0]));
        lines.push(format!("left(black) = {}", self.in_hand[1]));
        lines.push(format!("to_move = {}", self.to_move));
        diagram::read(g, &lines.join("\n")).unwrap_or_else(|e| panic!("{e}\n{}", lines.join("\n")))
    }

    /// The position in the reference, after checking that the game file lists the same
    /// plies in it: every position the rules' facts speak of is asked of both.
    pub(crate) fn checked(&self) -> Quoridor {
        let q = self.reference();
        let g = quoridor(self.size, 10, 1000);
        let state = self.engine(&g);
        assert_eq!(legal(&g, &state), q.legal(), "{self:?}:\n{}", q.render());
        q
    }

    /// The position in the reference (its ply cap the rules' default, 1,000).
    pub(crate) fn reference(&self) -> Quoridor {
        let mut q = Quoridor::new(self.size, 10, 1000);
        q.set_pawn("white", self.white);
        q.set_pawn("black", self.black);
        for wall in &self.walls {
            q.put_wall(wall);
        }
        q.in_hand = self.in_hand;
        q.to_move = Quoridor::seat(self.to_move);
        q
    }
}

/// Whether a legal ply's text is a wall (`e3h`, `e3v`) rather than a cell.
fn is_wall(text: &str) -> bool {
    text.ends_with('h') || text.ends_with('v')
}

/// The pawn moves of the player to move, sorted.
fn pawn_moves(q: &Quoridor) -> Vec<String> {
    q.legal().into_iter().filter(|t| !is_wall(t)).collect()
}

/// Whether the wall written `text` is among the legal plies.
fn allowed(q: &Quoridor, text: &str) -> bool {
    q.legal().iter().any(|t| t == text)
}

/// The rules' figures, depth by depth from 1.
fn perft_counts(q: &Quoridor, max: u32) -> Vec<u64> {
    (1..=max).map(|depth| reference::perft(q, depth)).collect()
}

#[test]
fn perft_of_the_start_on_9x9() {
    // 3 pawn moves and 64 points x 2 lies; every wall fits and leaves both ways open.
    let q = Quoridor::new(9, 10, 1000);
    assert_eq!(perft_counts(&q, 3), [131, 16_677, 2_062_264]);
}

#[test]
fn perft_of_the_start_on_5x5() {
    // 3 pawn moves and 16 points x 2 lies.
    let q = Quoridor::new(5, 10, 1000);
    assert_eq!(perft_counts(&q, 4), [35, 1_109, 31_540, 794_442]);
    // One wall each: a player who has placed it has only pawn moves.
    let q = Quoridor::new(5, 1, 1000);
    assert_eq!(perft_counts(&q, 4), [35, 1_109, 6_122, 33_718]);
}

#[test]
fn the_start_offers_three_steps_and_every_wall() {
    let q = Quoridor::new(9, 10, 1000);
    assert_eq!(pawn_moves(&q), ["d1", "e2", "f1"]);
    // Walls are named by the cell south-west of their centre: files a to h, ranks 1 to 8.
    let mut expected = Vec::new();
    for file in 'a'..='h' {
        for rank in 1..=8 {
            for lie in ['h', 'v'] {
                expected.push(format!("{file}{rank}{lie}"));
            }
        }
    }
    expected.sort();
    let walls: Vec<String> = q.legal().into_iter().filter(|t| is_wall(t)).collect();
    assert_eq!(walls, expected);
}

#[test]
fn a_wall_separates_the_cells_its_name_says() {
    // e3h: between ranks 3 and 4 along files e and f.
    let walls = ["e3h"];
    let moves = |white| pawn_moves(&Setup::new(white, "a9").walls(&walls).checked());
    assert_eq!(moves("e3"), ["d3", "e2", "f3"]);
    assert_eq!(moves("f3"), ["e3", "f2", "g3"]);
    assert_eq!(moves("e4"), ["d4", "e5", "f4"]);
    assert_eq!(moves("g3"), ["f3", "g2", "g4", "h3"]);
    assert_eq!(moves("d3"), ["c3", "d2", "d4", "e3"]);
    // e3v: between files e and f along ranks 3 and 4.
    let walls = ["e3v"];
    let moves = |white| pawn_moves(&Setup::new(white, "a9").walls(&walls).checked());
    assert_eq!(moves("e3"), ["d3", "e2", "e4"]);
    assert_eq!(moves("e4"), ["d4", "e3", "e5"]);
    assert_eq!(moves("f4"), ["f3", "f5", "g4"]);
    assert_eq!(moves("e5"), ["d5", "e4", "e6", "f5"]);
    assert_eq!(moves("e2"), ["d2", "e1", "e3", "f2"]);
}

#[test]
fn a_pawn_jumps_straight_over_the_other() {
    let setup = Setup::new("e4", "e5");
    assert_eq!(pawn_moves(&setup.checked()), ["d4", "e3", "e6", "f4"]);
    assert_eq!(
        pawn_moves(&setup.moving("black").checked()),
        ["d5", "e3", "e6", "f5"]
    );
    // A wall between the two pawns: no step onto the other pawn, so no jump.
    let setup = Setup::new("e4", "e5").walls(&["e4h"]);
    assert_eq!(pawn_moves(&setup.checked()), ["d4", "e3", "f4"]);
}

#[test]
fn a_wall_behind_the_other_pawn_turns_the_jump_diagonal() {
    // e5h stops the jump to e6: d5 and f5 instead.
    let setup = Setup::new("e4", "e5").walls(&["e5h"]);
    assert_eq!(pawn_moves(&setup.checked()), ["d4", "d5", "e3", "f4", "f5"]);
    // d5v walls d5 off from e5 as well: only f5.
    let setup = Setup::new("e4", "e5").walls(&["e5h", "d5v"]);
    assert_eq!(pawn_moves(&setup.checked()), ["d4", "e3", "f4", "f5"]);
    // d3v walls e4 off from d4, not d5 from e5: the diagonal move goes round the other
    // pawn, so only the walls around it count.
    let setup = Setup::new("e4", "e5").walls(&["e5h", "d3v"]);
    assert_eq!(pawn_moves(&setup.checked()), ["d5", "e3", "f4", "f5"]);
}

#[test]
fn the_board_edge_behind_the_other_pawn_turns_the_jump_diagonal() {
    // Black on its own rank 9: white steps diagonally onto rank 9 either side.
    let q = Setup::new("e8", "e9").checked();
    assert_eq!(pawn_moves(&q), ["d8", "d9", "e7", "f8", "f9"]);
    // Against the side of the board.
    let q = Setup::new("b5", "a5").checked();
    assert_eq!(pawn_moves(&q), ["a4", "a6", "b4", "b6", "c5"]);
    // In a corner, one of the cells beside the other pawn is off the board.
    let q = Setup::new("a8", "a9").checked();
    assert_eq!(pawn_moves(&q), ["a7", "b8", "b9"]);
    // On the side with a wall behind: the cell beside off the board, the other open.
    let q = Setup::new("a4", "a5").walls(&["a5h"]).checked();
    assert_eq!(pawn_moves(&q), ["a3", "b4", "b5"]);
}

#[test]
fn a_wall_may_not_shut_a_pawn_in() {
    // a1v walls a1 and a2 off from file b; a2h would close them above: white on a1
    // would have no way, whoever places it.
    let setup = Setup::new("a1", "e9").walls(&["a1v"]);
    let q = setup.checked();
    assert!(!allowed(&q, "a2h"));
    assert!(allowed(&q, "b2h"));
    assert!(allowed(&q, "a3h"));
    assert!(!allowed(&setup.clone().moving("black").checked(), "a2h"));
    // With white's pawn elsewhere the same wall closes off two empty cells, which is
    // allowed.
    assert!(allowed(
        &Setup::new("c1", "e9").walls(&["a1v"]).checked(),
        "a2h"
    ));
    // Black shut in its corner the same way.
    let q = Setup::new("e1", "i9").walls(&["h8v"]).checked();
    assert!(!allowed(&q, "h7h"));
    assert!(allowed(&q, "g7h"));
}

#[test]
fn the_other_pawn_does_not_block_a_way() {
    // File a walled off from file b up to rank 8: white's only way to rank 9 runs up
    // file a through black's pawn on a3, and that is enough.
    let setup = Setup::new("a1", "a3").walls(&["a1v", "a3v", "a5v"]);
    let q = setup.checked();
    assert!(allowed(&q, "a7v"));
    // Closing the top of that corridor is refused.
    let q = setup.walls(&["a1v", "a3v", "a5v", "a7v"]).checked();
    assert!(!allowed(&q, "a8h"));
    assert!(allowed(&q, "b8h"));
}

#[test]
fn walls_may_not_overlap_or_cross() {
    let q = Setup::new("e1", "e9").walls(&["e3h"]).checked();
    for refused in ["e3h", "d3h", "f3h", "e3v"] {
        assert!(!allowed(&q, refused), "{refused} after e3h");
    }
    // End to end, or meeting in a T.
    for fine in ["c3h", "g3h", "d3v", "f3v", "e2v", "e4v", "e2h", "e4h"] {
        assert!(allowed(&q, fine), "{fine} after e3h");
    }
    let q = Setup::new("e1", "e9").walls(&["e3v"]).checked();
    for refused in ["e3v", "e2v", "e4v", "e3h"] {
        assert!(!allowed(&q, refused), "{refused} after e3v");
    }
    for fine in ["e1v", "e5v", "d3v", "f3v", "d3h", "f3h", "e2h", "e4h"] {
        assert!(allowed(&q, fine), "{fine} after e3v");
    }
}

#[test]
fn an_empty_hand_places_no_wall() {
    let q = Setup::new("e1", "e9").hands(0, 10).checked();
    assert_eq!(q.legal(), ["d1", "e2", "f1"]);
    let mut q = Setup::new("e1", "e9").hands(1, 10).checked();
    q.play("e3h").expect("a wall");
    assert_eq!(q.in_hand, [0, 10]);
    q.play("e8").expect("black steps");
    assert_eq!(q.legal(), ["d1", "e2", "f1"]);
}

#[test]
fn reaching_the_goal_rank_wins_at_once() {
    let mut q = Setup::new("e8", "a9").checked();
    q.play("e9").expect("a step");
    assert_eq!(q.result(), Some(GameResult::Win("white")));
    assert!(q.moves().is_empty());
    // A diagonal move round the other pawn onto rank 9 wins too.
    let mut q = Setup::new("e8", "e9").checked();
    q.play("f9").expect("a diagonal move");
    assert_eq!(q.result(), Some(GameResult::Win("white")));
    // Black makes for rank 1, a jump takes it there.
    let mut q = Setup::new("e1", "e2").moving("black").checked();
    assert_eq!(pawn_moves(&q), ["d1", "d2", "e3", "f1", "f2"]);
    q.play("d1").expect("a diagonal move");
    assert_eq!(q.result(), Some(GameResult::Win("black")));
    // Standing on the rank it starts on wins nothing.
    let mut q = Setup::new("e2", "e9").checked();
    q.play("e1").expect("a step back");
    assert_eq!(q.result(), None);
}

#[test]
fn the_ply_cap_draws() {
    let mut q = Quoridor::new(9, 10, 4);
    for ply in ["e2", "e8", "e3h", "e7"] {
        assert_eq!(q.result(), None);
        q.play(ply).expect("legal");
    }
    assert_eq!(q.result(), Some(GameResult::Draw));
    assert!(q.moves().is_empty());
    // A win on the last ply before the cap is a win.
    let mut q = Setup::new("e8", "a9").checked();
    q.max_plies = 1;
    q.play("e9").expect("a step");
    assert_eq!(q.result(), Some(GameResult::Win("white")));
}

/// A small deterministic generator for the random games below.
fn next(seed: &mut u64) -> u64 {
    *seed = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *seed >> 33
}

/// Along random games (walls placed twice as often as the pawn moves, so that the board
/// fills): the walls listed are those a fresh flood fill allows (the listing's shortcut
/// changes nothing), both pawns keep a way, the player to move always has a ply, and the
/// game ends by a win or the cap.
#[test]
fn random_games_keep_the_rules_invariants() {
    for (size, games) in [(5, 40), (9, 12)] {
        for game in 0..games {
            let mut seed = game;
            let mut q = Quoridor::new(size, 10, 200);
            while q.result().is_none() {
                let m = size - 1;
                let plain: Vec<(Cell, Lie)> = (0..m * m)
                    .flat_map(|i| [Lie::Horizontal, Lie::Vertical].map(|lie| ((i % m, i / m), lie)))
                    .filter(|&wall| q.wall_legal_plain(wall))
                    .collect();
                assert_eq!(q.wall_moves(), plain, "{size}x{size}:\n{}", q.render());
                assert!(q.way(0).is_some() && q.way(1).is_some());
                let moves = q.moves();
                let pawn = q.pawn_moves().len();
                assert!(pawn > 0, "no pawn move:\n{}", q.render());
                let pick = if next(&mut seed).is_multiple_of(3) || pawn == moves.len() {
                    next(&mut seed) as usize % pawn
                } else {
                    pawn + next(&mut seed) as usize % (moves.len() - pawn)
                };
                q.apply(&moves[pick]);
            }
        }
    }
}

#[test]
fn the_game_file_counts_the_plies_the_reference_counts() {
    let counts = compare_perft(
        "quoridor 9x9",
        &quoridor(9, 10, 1000),
        &Quoridor::new(9, 10, 1000),
        3,
    );
    assert_eq!(counts, [131, 16_677, 2_062_264]);
    compare_perft(
        "quoridor 5x5",
        &quoridor(5, 10, 1000),
        &Quoridor::new(5, 10, 1000),
        4,
    );
    compare_perft(
        "quoridor 5x5, one wall",
        &quoridor(5, 1, 1000),
        &Quoridor::new(5, 1, 1000),
        4,
    );
}

#[test]
fn the_game_file_counts_alike_from_positions_along_random_games() {
    let n = compare_perft_midgame(
        "quoridor 9x9",
        &quoridor(9, 10, 1000),
        || Quoridor::new(9, 10, 1000),
        0..12,
        &[6, 20, 60, 150],
        2,
    );
    let m = compare_perft_midgame(
        "quoridor 5x5",
        &quoridor(5, 4, 1000),
        || Quoridor::new(5, 4, 1000),
        0..30,
        &[3, 8, 15, 30],
        3,
    );
    assert!(n >= 40 && m >= 80, "too few positions: {n}, {m}");
}

#[test]
fn random_games_of_the_game_file_are_the_references() {
    check_seeds(
        "quoridor 9x9",
        "quoridor",
        &quoridor(9, 10, 1000),
        0..40,
        || Quoridor::new(9, 10, 1000),
        json!({"size": 9, "walls": 10, "max_plies": 1000}),
    );
    // Small boards and a low cap: games end by a win and by the cap.
    check_seeds(
        "quoridor 5x5 capped",
        "quoridor",
        &quoridor(5, 3, 40),
        0..80,
        || Quoridor::new(5, 3, 40),
        json!({"size": 5, "walls": 3, "max_plies": 40}),
    );
}
