//! International draughts (`games/international_draughts.toml`), whose capture sequences
//! are a repeated part with several choices a play, the parts after it (the Turkish
//! strike: jumped pieces leave together when the sequence ends), `[turns] most` (the
//! majority rule) and `merge_routes` (a circular capture is one move): the published
//! perft counts from the start to seven plies (Aart Bik's BikDam, duplicate captures
//! removed) with the file's own rules, a circular capture counted once, hand-made
//! positions that pin flying kings, men capturing backwards, the majority rule, the
//! Turkish strike and crowning, and random games that never leave two pieces on a square
//! or a jumped piece behind.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rulebook::cli::perft_exact;
use rulebook::engine::game::Game;
use rulebook::engine::state::State;

use crate::common;

fn draughts10() -> Game {
    common::game("international_draughts", &[])
}

/// Positions exactly n plies from the start (BikDam, "perft(1) = 9 ... perft(7) =
/// 1049442"), under every rule of the game, the majority rule included.
const PUBLISHED: [u64; 7] = [9, 81, 658, 4_265, 27_117, 167_140, 1_049_442];

/// The file's own perft is the published count at every depth to seven plies (the
/// majority rule first matters at five: 27,132 sequences without it). Perft counts the
/// plies of the positions one ply short of the depth without playing them: depth 7
/// lists the plies of 167,140 positions (a few seconds in a debug build).
#[test]
fn draughts10_perft_is_the_published_count_to_seven_plies() {
    let g = draughts10();
    let s = g.start();
    for (depth, &expected) in (1..=7).zip(&PUBLISHED) {
        assert_eq!(perft_exact(&g, &s, depth as u32), expected, "depth {depth}");
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

/// Rules 3, 5, 6 and 8: a king on 46 (a1) jumps 41 (b2) from afar and lands on any
/// empty square beyond it; from 32 (d4) it must go on, over 27 (c5), and chooses again
/// where to land: from 21 (b6) it goes on over 12 (d8), from 16 (a7) it cannot. The
/// repeated part binds its names (direction, jumped piece, landing) once a play: the
/// landing after 21 is walked with the names of the play that chose it. Of the ten
/// sequences (`46x10`, `46x23x1`, `46x32x16`, ...), the majority rule keeps the two that
/// take three pieces.
#[test]
fn a_flying_king_lands_anywhere_beyond_and_captures_on_from_there() {
    let g = draughts10();
    let s = position(&g, &[(46, "W"), (41, "b"), (27, "b"), (12, "b"), (5, "b")]);
    assert_eq!(common::legal(&g, &s), ["46x32x21x3", "46x32x21x8"]);
    let mut after = s.clone();
    common::play(&g, &mut after, "46x32x21x8");
    let left: String = (1..=50).map(|n| on(&g, &after, n)).collect();
    let mut expected = ['.'; 50];
    expected[5 - 1] = 'b';
    expected[8 - 1] = 'W';
    assert_eq!(left, expected.iter().collect::<String>());
}

/// Rule 8: of a man on 32 that can take one piece and a man on 34 that can take two,
/// the second must capture; and a king counts as one piece: of a man taking a king and a
/// man taking a man, either may.
#[test]
fn the_sequence_that_takes_the_most_pieces_must_be_played() {
    let g = draughts10();
    let s = position(
        &g,
        &[
            (32, "w"),
            (27, "b"),
            (34, "w"),
            (29, "b"),
            (18, "b"),
            (5, "b"),
        ],
    );
    assert_eq!(common::legal(&g, &s), ["34x23x12"]);
    let even = position(&g, &[(32, "w"), (27, "B"), (34, "w"), (29, "b"), (5, "b")]);
    assert_eq!(common::legal(&g, &even), ["32x21", "34x23"]);
}

/// Rule 7: the pieces a king jumps stay on their squares until its sequence ends. From
/// 46 it takes 37, 33 and 43 and stands on 48; the man on 42 is in front of it, but 37
/// behind that man is still taken, not yet gone, so the sequence ends there. Then every
/// jumped piece goes at once.
#[test]
fn jumped_pieces_block_until_the_sequence_ends_then_leave_together() {
    let g = draughts10();
    let s = position(&g, &[(46, "W"), (37, "b"), (33, "b"), (43, "b"), (42, "b")]);
    assert_eq!(common::legal(&g, &s), ["46x28x39x48"]);
    let mut after = s.clone();
    common::play(&g, &mut after, "46x28x39x48");
    let left: String = (1..=50).map(|n| on(&g, &after, n)).collect();
    let mut expected = ['.'; 50];
    expected[42 - 1] = 'b';
    expected[48 - 1] = 'W';
    assert_eq!(left, expected.iter().collect::<String>());
}

/// Rule 9: a man on 37 (c3) ringed by four black men takes them all going round either
/// way and stops where it started: the two routes are one move, listed once and counted
/// once by perft at every depth; the other route's text plays that move too.
#[test]
fn a_circular_capture_is_one_move() {
    let g = draughts10();
    let ring = [
        (37, "w"),
        (32, "b"),
        (22, "b"),
        (21, "b"),
        (31, "b"),
        (5, "b"),
    ];
    let s = position(&g, &ring);
    assert_eq!(common::legal(&g, &s), ["37x28x17x26x37"]);
    assert_eq!(perft_exact(&g, &s, 1), 1);
    // Black's man on 5 then has one move, and white's man two.
    assert_eq!(perft_exact(&g, &s, 2), 1);
    assert_eq!(perft_exact(&g, &s, 3), 2);
    let (mut one, mut other) = (s.clone(), s.clone());
    common::play(&g, &mut one, "37x28x17x26x37");
    common::play(&g, &mut other, "37x26x17x28x37");
    let board = |st: &State| (1..=50).map(|n| on(&g, st, n)).collect::<String>();
    assert_eq!(board(&one), board(&other));
    assert_eq!(on(&g, &one, 37), 'w');
    assert!([32, 22, 21, 31].iter().all(|&n| on(&g, &one, n) == '.'));
}

/// Rules 4, 7 and 10: a man captures backwards too, a jumped piece is gone once the move
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

/// The game without `[turns] most` and `merge_routes`: every capture sequence, each
/// route apart, for the plain path the sifted plies are checked against.
fn unsifted() -> Game {
    let path = common::game_path("international_draughts");
    let text = std::fs::read_to_string(&path).expect("the game file");
    let text = (text.lines())
        .filter(|l| !l.starts_with("most = ") && !l.starts_with("merge_routes = "))
        .collect::<Vec<_>>()
        .join("\n");
    common::game_from_text(&path, text, &[])
}

/// The rules of `most` and `merge_routes` applied by hand to the plain game's plies, in
/// their order: those that leave the opponent the fewest pieces, and of those that leave
/// the same board, the first.
fn sifted_by_hand(g: &Game, plain: &Game, s: &State) -> Vec<String> {
    let left: Vec<(usize, String, String)> = (plain.legal_plies(s).iter())
        .map(|ply| {
            let mut after = s.clone();
            plain.play(&mut after, ply);
            let board: String = (1..=50).map(|n| on(g, &after, n)).collect();
            let theirs = board.chars().filter(|&c| c == 'b' || c == 'B').count();
            let theirs = if s.to_move == common::seat(g, "white") {
                theirs
            } else {
                board.chars().filter(|&c| c == 'w' || c == 'W').count()
            };
            (theirs, board, plain.notation(s, ply))
        })
        .collect();
    let fewest = left.iter().map(|l| l.0).min().unwrap_or(0);
    let mut boards = std::collections::HashSet::new();
    (left.into_iter())
        .filter(|(n, board, text)| {
            *n == fewest && (!text.contains('x') || boards.insert(board.clone()))
        })
        .map(|(_, _, text)| text)
        .collect()
}

/// Random games: after every ply each square holds one piece or none, of a side's man or
/// king (no jumped piece left behind, no piece landed on another), drawn plies are
/// listed ones, and the games end by the rules. In every position, the plies listed are
/// the plain game's sifted by hand, counting them gives as many, and whether there is
/// one (asked without sifting) agrees.
#[test]
fn random_games_keep_one_piece_a_square_and_end() {
    let g = draughts10();
    let plain = unsifted();
    for seed in 0..12 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut s = g.start();
        let mut plies = 0;
        while s.outcome.is_none() {
            let legal = g.legal_plies(&s);
            assert!(!legal.is_empty(), "seed {seed}: no ply and no end");
            let texts: Vec<String> = legal.iter().map(|p| g.notation(&s, p)).collect();
            assert_eq!(
                texts,
                sifted_by_hand(&g, &plain, &s),
                "seed {seed}, ply {plies}"
            );
            assert_eq!(g.count_plies(&s), legal.len() as u64);
            assert!(g.has_legal(&s));
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
