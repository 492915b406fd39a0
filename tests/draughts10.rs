//! International draughts on a 10x10 board (`tests/games/draughts10.toml`), a test game
//! whose capture sequences are a repeated part with several choices a play: the published
//! perft counts from the start (Aart Bik's BikDam, duplicate captures removed, which no
//! sequence within these depths has), hand-made positions that pin flying kings, men
//! capturing backwards and crowning, and random games that never leave two pieces on a
//! square or a jumped piece behind.
//!
//! The file cannot say the majority rule (a sequence that takes the most pieces must be
//! played: it compares sequences with each other). From the start it first matters at
//! five plies: the engine counts 27,132 there, the 27,117 published plus 15 sequences
//! that take fewer pieces than another one of their position. Applied by the test to the
//! engine's lists, it gives the published counts.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rulebook::cli::perft_exact;
use rulebook::engine::game::Game;
use rulebook::engine::state::State;

use crate::common;

fn draughts10() -> Game {
    common::test_game("draughts10")
}

/// Positions exactly n plies from the start (BikDam, "perft(1) = 9 ... perft(6) =
/// 167140"), under every rule of the game, the majority rule included.
const PUBLISHED: [u64; 6] = [9, 81, 658, 4_265, 27_117, 167_140];

/// Depths 1 to 4 do not depend on the majority rule: the file's own perft is the
/// published count. At 5 plies it is the count without that rule.
#[test]
fn draughts10_perft_matches_the_published_counts_up_to_the_majority_rule() {
    let g = draughts10();
    let s = g.start();
    for (depth, &expected) in (1..=4).zip(&PUBLISHED) {
        assert_eq!(perft_exact(&g, &s, depth), expected, "depth {depth}");
    }
    assert_eq!(perft_exact(&g, &s, 5), 27_132, "depth 5, no majority rule");
}

/// How many pieces the ply written `text` takes: one per `x`.
fn taken(text: &str) -> usize {
    text.matches('x').count()
}

/// Perft with the majority rule applied to the engine's lists: of the captures of a
/// position, only those that take the most pieces.
fn perft_majority(g: &Game, s: &State, depth: u32) -> u64 {
    if s.outcome.is_some() {
        return 0;
    }
    let legal = g.legal_with_notation(s);
    let most = legal.iter().map(|(t, _)| taken(t)).max().unwrap_or(0);
    let kept = legal.iter().filter(|(t, _)| taken(t) == most);
    if depth == 1 {
        return kept.count() as u64;
    }
    kept.map(|(_, ply)| {
        let mut next = s.clone();
        g.play(&mut next, ply);
        perft_majority(g, &next, depth - 1)
    })
    .sum()
}

/// With the majority rule applied by the test to the engine's lists, the published
/// counts to six plies (under a second in a debug build).
#[test]
fn draughts10_perft_with_the_majority_rule_is_the_published_count() {
    let g = draughts10();
    let s = g.start();
    for (depth, &expected) in (1..=6).zip(&PUBLISHED) {
        assert_eq!(perft_majority(&g, &s, depth), expected, "depth {depth}");
    }
}

/// The cell of square `n`: `5 * (10 - rank) + (file + 1) / 2`.
fn cell(n: usize) -> String {
    let row = (n - 1) / 5;
    let rank = 10 - row;
    let file = 2 * ((n - 1) % 5) + if rank.is_multiple_of(2) { 2 } else { 1 };
    format!("{}{rank}", (b'a' + file as u8 - 1) as char)
}

/// A position with only these pieces, by square number (`w`, `b` men, `W`, `B` kings),
/// white to move, recorded as the first of its kind.
fn position(g: &Game, pieces: &[(usize, &str)]) -> State {
    let mut s = g.start();
    common::clear_board(&mut s);
    for &(n, what) in pieces {
        let owner = if what.eq_ignore_ascii_case("w") {
            "white"
        } else {
            "black"
        };
        let kind = if what.chars().all(|c| c.is_ascii_uppercase()) {
            "king"
        } else {
            "man"
        };
        common::set_stack(g, &mut s, &cell(n), &[(kind, owner)]);
    }
    s.to_move = common::seat(g, "white");
    s.record(common::seat(g, "black"));
    s
}

/// What stands on square `n`: `w`, `b`, `W`, `B`, `.` for nothing, `?` otherwise.
fn on(g: &Game, s: &State, n: usize) -> char {
    let stack = s.stack(g.board.find(&cell(n)).expect("a cell"));
    match stack {
        [] => '.',
        [piece] => {
            let kind = g.kinds[piece.kind as usize].name.as_str();
            let owner = g.players.get(piece.owner as usize).map(String::as_str);
            match (kind, owner) {
                ("man", Some("white")) => 'w',
                ("man", Some("black")) => 'b',
                ("king", Some("white")) => 'W',
                ("king", Some("black")) => 'B',
                _ => '?',
            }
        }
        _ => '?',
    }
}

#[test]
fn squares_are_numbered_from_black_s_side() {
    assert_eq!(cell(1), "b10");
    assert_eq!(cell(5), "j10");
    assert_eq!(cell(6), "a9");
    assert_eq!(cell(46), "a1");
    assert_eq!(cell(50), "i1");
    let g = draughts10();
    let s = g.start();
    assert!((1..=20).all(|n| on(&g, &s, n) == 'b'));
    assert!((21..=30).all(|n| on(&g, &s, n) == '.'));
    assert!((31..=50).all(|n| on(&g, &s, n) == 'w'));
    assert_eq!(
        common::legal(&g, &s),
        [
            "31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"
        ]
    );
}

/// Rules 2 to 4: a king on 46 (a1) jumps 41 (b2) from afar and lands on any empty square
/// beyond it; from 32 (d4) it must go on, over 27 (c5), and chooses again where to land:
/// from 21 (b6) it goes on over 12 (d8), from 16 (a7) it cannot. The repeated part binds
/// its names (direction, jumped piece, landing) once a play: the landing after 21 is
/// walked with the names of the play that chose it, not those of the plays after 21.
#[test]
fn a_flying_king_lands_anywhere_beyond_and_captures_on_from_there() {
    let g = draughts10();
    let s = position(&g, &[(46, "W"), (41, "b"), (27, "b"), (12, "b"), (5, "b")]);
    assert_eq!(
        common::legal(&g, &s),
        [
            "46x10",
            "46x14",
            "46x19",
            "46x23x1",
            "46x23x7",
            "46x28",
            "46x32x16",
            "46x32x21x3",
            "46x32x21x8",
            "46x37",
        ]
    );
    let mut after = s.clone();
    common::play(&g, &mut after, "46x32x21x8");
    let left: String = (1..=50).map(|n| on(&g, &after, n)).collect();
    let mut expected = ['.'; 50];
    expected[5 - 1] = 'b';
    expected[8 - 1] = 'W';
    assert_eq!(left, expected.iter().collect::<String>());
}

/// Rules 3, 4 and 7: a man captures backwards too, a jumped piece is gone once the move
/// ends, and a man is crowned only where its move ends: jumping onto the far row and on
/// off it leaves it a man.
#[test]
fn men_capture_both_ways_and_are_crowned_only_where_they_stop() {
    let g = draughts10();
    let s = position(&g, &[(28, "w"), (32, "b"), (22, "b"), (46, "w"), (5, "b")]);
    assert_eq!(common::legal(&g, &s), ["28x17", "28x37"]);
    let through = position(&g, &[(11, "w"), (7, "b"), (8, "b"), (46, "b")]);
    assert_eq!(common::legal(&g, &through), ["11x2x13"]);
    let mut after = through.clone();
    common::play(&g, &mut after, "11x2x13");
    assert_eq!(
        [2, 7, 8, 11, 13].map(|n| on(&g, &after, n)),
        ['.', '.', '.', '.', 'w']
    );
    let stops = position(&g, &[(11, "w"), (7, "b"), (46, "b")]);
    let mut after = stops.clone();
    common::play(&g, &mut after, "11x2");
    assert_eq!(on(&g, &after, 2), 'W');
}

/// Random games: after every ply each square holds one piece or none, of a side's man or
/// king (no jumped piece left behind, no piece landed on another), drawn plies are
/// listed ones, and the games end by the rules.
#[test]
fn random_games_keep_one_piece_a_square_and_end() {
    let g = draughts10();
    for seed in 0..12 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut s = g.start();
        let mut plies = 0;
        while s.outcome.is_none() {
            let legal = g.legal_plies(&s);
            assert!(!legal.is_empty(), "seed {seed}: no ply and no end");
            let drawn = g.random_ply(&mut s.clone(), &mut rng).expect("a ply");
            assert!(legal.contains(&drawn), "seed {seed}: drew an illegal ply");
            let ply = &legal[rng.random_range(0..legal.len() as u64) as usize];
            g.play(&mut s, ply);
            plies += 1;
            for n in 1..=50 {
                assert_ne!(on(&g, &s, n), '?', "seed {seed}, ply {plies}, square {n}");
            }
        }
        assert!(plies < 2000, "seed {seed}: {plies} plies");
    }
}
