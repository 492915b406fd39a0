//! English draughts (`games/draughts.toml`): the published perft counts, seeded games
//! replayed in the independent reference (`reference/draughts.rs`, written from
//! `docs/rules/draughts.md` only), which also reaches kings, crownings and the draw
//! rules that perft from the start never sees, and hand-made positions that pin them.

use rulebook::cli::perft_exact;
use rulebook::engine::game::Game;
use rulebook::engine::state::State;
use serde_json::json;

use crate::common;
use crate::common::trace_moves;
use crate::reference::draughts::Draughts;
use crate::reference::{GameResult, Reference};
use crate::traces::{check_seeds, compare_perft_midgame, list_diff};

fn draughts() -> Game {
    common::game("draughts", &[])
}

/// Positions exactly n plies from the start, a capture sequence one ply.
const PUBLISHED: [u64; 9] = [
    7, 49, 302, 1_469, 7_361, 36_768, 179_740, 845_931, 3_963_680,
];

#[test]
fn draughts_perft_matches_the_published_counts() {
    let g = draughts();
    let s = g.start();
    for (depth, &expected) in (1..=6).zip(&PUBLISHED) {
        assert_eq!(perft_exact(&g, &s, depth), expected, "depth {depth}");
    }
}

/// Depths 7 to 9 (under a minute in release):
/// `cargo test --release --test main draughts_deep_perft -- --ignored --nocapture`.
#[test]
#[ignore]
fn draughts_deep_perft_matches_the_published_counts() {
    let g = draughts();
    let s = g.start();
    for (depth, &expected) in (7..=9).zip(&PUBLISHED[6..]) {
        assert_eq!(perft_exact(&g, &s, depth), expected, "depth {depth}");
    }
}

/// Three hundred random games replayed in the reference: every legal list (captures
/// compulsory, whole sequences, crownings), the player to move, and the result: a player
/// left without a move, or a draw by repetition or by the forty-move rule.
#[test]
fn draughts_traces_match_reference() {
    check_seeds(
        "draughts",
        "draughts",
        &draughts(),
        0..300,
        Draughts::new,
        json!({}),
    );
}

/// Perft to depth 2 from positions in play, where kings roam.
#[test]
fn draughts_midgame_perft_matches_reference() {
    let n = compare_perft_midgame(
        "draughts",
        &draughts(),
        Draughts::new,
        0..20,
        &[20, 40, 60, 90, 120, 160],
        2,
    );
    assert!(n >= 60, "too few positions: {n}");
}

/// The games replayed above reach what perft from the start does not: kings, kings
/// capturing backwards, sequences of several jumps, crownings that end a sequence, and
/// every way of ending.
#[test]
fn self_play_exercises_every_rule() {
    let g = draughts();
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for seed in 0..300 {
        let mut pos = Draughts::new();
        for text in trace_moves(&g, "draughts", seed) {
            let ply = pos
                .moves()
                .into_iter()
                .find(|m| pos.notation(m) == text)
                .expect("a legal ply");
            let piece = pos.board[ply.path[0]].expect("a piece");
            if ply.path.len() > 2 {
                *seen.entry("multiple jump").or_default() += 1;
            }
            if ply.capture && piece.king {
                *seen.entry("king captures").or_default() += 1;
            }
            let last = *ply.path.last().unwrap();
            if ply.capture && !piece.king && (last <= 4 || last >= 29) {
                *seen.entry("a capture crowns").or_default() += 1;
            }
            pos.apply(&ply);
        }
        let ending = match (&pos.result, pos.quiet >= 80) {
            (Some(GameResult::Win(_)), _) => "a player blocked or taken",
            (Some(GameResult::Draw), true) => "forty-move draw",
            (Some(GameResult::Draw), false) => "repetition draw",
            (None, _) => panic!("seed {seed}: the game did not end"),
        };
        *seen.entry(ending).or_default() += 1;
    }
    eprintln!("draughts self-play: {seen:?}");
    for what in [
        "multiple jump",
        "king captures",
        "a capture crowns",
        "a player blocked or taken",
        "forty-move draw",
    ] {
        assert!(seen.contains_key(what), "no {what}: {seen:?}");
    }
}

/// Rules 3 and 6: black's seven first moves; once black's 15 faces white's 18 with 22
/// empty behind it, the capture is the only ply.
#[test]
fn captures_are_compulsory() {
    let g = draughts();
    let mut s = g.start();
    assert_eq!(
        common::legal(&g, &s),
        ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]
    );
    common::play(&g, &mut s, "11-15; 22-18");
    assert_eq!(common::legal(&g, &s), ["15x22"]);
    common::play(&g, &mut s, "15x22");
    assert_eq!(common::height(&g, &s, "d4"), 0, "18 (d4) was jumped");
    // White must take back (the man on 22 stands between 25 and 26 and empty squares).
    assert_eq!(common::legal(&g, &s), ["25x18", "26x17"]);
}

/// A position with only these pieces, by square number (`b`, `w` men, `B`, `W` kings),
/// in the interpreter and in the reference, recorded as the first of its kind (for the
/// repetition rule).
fn position(g: &Game, pieces: &[(usize, &str)], white_to_move: bool) -> (State, Draughts) {
    let cell = |n: usize| {
        let (row, col) = crate::reference::draughts::row_col(n);
        crate::reference::cell_name(col as usize, 7 - row as usize)
    };
    let mut s = g.start();
    let mut pos = Draughts::new();
    for n in 1..=32 {
        common::set_stack(g, &mut s, &cell(n), &[]);
        pos.board[n] = None;
    }
    for &(n, what) in pieces {
        let owner = if what.eq_ignore_ascii_case("b") {
            "black"
        } else {
            "white"
        };
        let king = what.chars().all(|c| c.is_ascii_uppercase());
        let kind = if king { "king" } else { "man" };
        common::set_stack(g, &mut s, &cell(n), &[(kind, owner)]);
        pos.board[n] = Some(crate::reference::draughts::Piece {
            owner: usize::from(owner == "white"),
            king,
        });
    }
    s.to_move = u8::from(white_to_move);
    pos.to_move = usize::from(white_to_move);
    s.record(1 - s.to_move);
    pos.seen.clear();
    pos.seen.insert((pos.board, pos.to_move), 1);
    (s, pos)
}

/// The legal texts, asserted equal in the interpreter and the reference.
fn same_lists(g: &Game, s: &State, pos: &Draughts) -> Vec<String> {
    let (engine, reference) = (common::legal(g, s), pos.legal());
    assert_eq!(engine, reference, "{}", list_diff(&engine, &reference));
    engine
}

/// Rule 5: a man that has jumped jumps on, whichever way it chooses: from 1 (b8) over 6
/// to 10, then over 14 to 17 or over 15 to 19; it may not stop on 10.
#[test]
fn a_capture_goes_on_while_the_piece_can_jump() {
    let g = draughts();
    let (s, pos) = position(&g, &[(1, "b"), (6, "w"), (14, "w"), (15, "w")], false);
    assert_eq!(same_lists(&g, &s, &pos), ["1x10x17", "1x10x19"]);
}

/// Rule 7: a man jumping onto the king row (23 over 26 to 30, c1) is crowned and stops,
/// though a king there could jump on over 25 to 21; a king on 23 does go on. Rule 3: a
/// king steps backwards too.
#[test]
fn a_crowning_ends_the_move() {
    let g = draughts();
    let (mut s, mut pos) = position(&g, &[(23, "b"), (26, "w"), (25, "w")], false);
    assert_eq!(same_lists(&g, &s, &pos), ["23x30"]);
    common::play(&g, &mut s, "23x30");
    pos.play("23x30").unwrap();
    let crowned = g.board.find("c1").unwrap();
    assert_eq!(g.kinds[s.stack(crowned)[0].kind as usize].name, "king");
    let (s, pos) = position(&g, &[(23, "B"), (26, "w"), (25, "w")], false);
    assert_eq!(same_lists(&g, &s, &pos), ["23x30x21"]);
    let (s, pos) = position(&g, &[(23, "B"), (1, "w")], false);
    assert_eq!(
        same_lists(&g, &s, &pos),
        ["23-18", "23-19", "23-26", "23-27"]
    );
}

/// Rule 8: a player who cannot move loses. White's only man, on 5 (a7), could only step
/// to 1 (b8), which black's man holds, and has no square beyond it to jump to.
#[test]
fn a_blocked_player_loses() {
    let g = draughts();
    let (mut s, mut pos) = position(&g, &[(1, "b"), (5, "w"), (27, "b")], false);
    same_lists(&g, &s, &pos);
    common::play(&g, &mut s, "27-31");
    pos.play("27-31").unwrap();
    let outcome = s.outcome.as_ref().expect("white cannot move");
    assert_eq!(outcome.winners, [0]);
    assert_eq!(pos.result, Some(GameResult::Win("black")));
}

/// Rule 9: kings going back and forth bring the position back; its third occurrence is
/// a draw, at the ply that makes it.
#[test]
fn the_third_repetition_is_a_draw() {
    let g = draughts();
    let (mut s, mut pos) = position(&g, &[(1, "B"), (32, "W")], false);
    let cycle = ["1-5", "32-28", "5-1", "28-32"];
    for round in 0..2 {
        for (i, ply) in cycle.iter().enumerate() {
            assert!(s.outcome.is_none(), "over before round {round} ply {i}");
            same_lists(&g, &s, &pos);
            common::play(&g, &mut s, ply);
            pos.play(ply).unwrap();
        }
    }
    assert_eq!(
        s.outcome.as_ref().expect("a draw").winners,
        Vec::<u8>::new()
    );
    assert_eq!(pos.result, Some(GameResult::Draw));
}

/// Rule 9 when the position first came from a capture: black's king takes 6 (landing on
/// 10), then both kings go back and forth; the third time is a draw all the same.
#[test]
fn a_position_made_by_a_capture_repeats_like_any_other() {
    let g = draughts();
    let (mut s, mut pos) = position(&g, &[(1, "B"), (6, "w"), (32, "W")], false);
    let plies = [
        "1x10", "32-28", "10-15", "28-32", "15-10", "32-28", "10-15", "28-32",
    ];
    for ply in plies {
        assert!(s.outcome.is_none(), "over before {ply}");
        same_lists(&g, &s, &pos);
        common::play(&g, &mut s, ply);
        pos.play(ply).unwrap();
    }
    assert!(s.outcome.is_none(), "seen twice only");
    common::play(&g, &mut s, "15-10");
    pos.play("15-10").unwrap();
    assert_eq!(
        s.outcome.as_ref().expect("a draw").winners,
        Vec::<u8>::new()
    );
    assert_eq!(pos.result, Some(GameResult::Draw));
}

/// The text board shows the square numbers the notation uses on the empty squares, so
/// that what a player types is on the board (`11-15`: 11 empty, 15 taken).
#[test]
fn the_text_board_numbers_the_empty_squares() {
    let g = draughts();
    let mut state = g.start();
    crate::common::play(&g, &mut state, "11-15");
    let board = rulebook::render::board::render(&g, &state);
    assert!(board.contains("6      b     b    11     b"), "{board}");
    assert!(board.contains("5  13    14     b    16"), "{board}");
    assert!(board.contains("4     17    18    19    20"), "{board}");
}
