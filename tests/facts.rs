//! The "facts to test against" of the rules files, and positions built by hand.

use rulebook::engine::state::{NEUTRAL, Piece, State};

use crate::common::game;

fn count_owned(state: &State, owner: u8) -> usize {
    state
        .stacks()
        .iter()
        .filter(|s| s.last().is_some_and(|p| p.owner == owner))
        .count()
}

#[test]
fn bounce_8x8_start_has_60_moves_all_into_a1_or_h8() {
    let g = game("bounce", &[]);
    let s = g.start();
    assert_eq!(count_owned(&s, 0), 30);
    assert_eq!(count_owned(&s, 1), 30);
    let legal = g.legal_with_notation(&s);
    assert_eq!(legal.len(), 60);
    for (text, _) in &legal {
        assert!(text.ends_with("-a1") || text.ends_with("-h8"), "{text}");
    }
    for corner in ["a1", "h1", "a8", "h8"] {
        let c = g.board.find(corner).unwrap();
        assert!(s.stacks()[c as usize].is_empty(), "{corner} starts empty");
    }
    // b1 and a2 are red, c1 and b2 blue.
    for (cell, owner) in [("b1", 0), ("a2", 0), ("c1", 1), ("b2", 1)] {
        let c = g.board.find(cell).unwrap();
        assert_eq!(s.stacks()[c as usize][0].owner, owner, "{cell}");
    }
}

#[test]
fn bounce_blue_in_the_mirror_position_uses_a8_and_h1() {
    let g = game("bounce", &[]);
    let mut s = g.start();
    s.to_move = 1;
    let legal = g.legal_with_notation(&s);
    assert_eq!(legal.len(), 60);
    for (text, _) in &legal {
        assert!(text.ends_with("-a8") || text.ends_with("-h1"), "{text}");
    }
}

#[test]
fn bounce_6x6_gives_each_side_16_checkers() {
    let g = game("bounce", &[("size", "6")]);
    let s = g.start();
    assert_eq!(count_owned(&s, 0), 16);
    assert_eq!(count_owned(&s, 1), 16);
}

#[test]
fn bounce_with_no_legal_move_must_remove_and_one_group_left_wins() {
    // 4x4: red holds a 2x2 block (one group of 4), blue three checkers. A red checker that
    // leaves the block ends in a group of at most 4 (itself plus the 3 it left): never
    // strictly larger, so red has no move and must remove.
    let g = game("bounce", &[("size", "4")]);
    let mut s = g.start();
    crate::common::clear_board(&mut s);
    let put = |s: &mut State, cell: &str, owner: u8| {
        let c = g.board.find(cell).unwrap() as usize;
        s.edit_stack(c as u16, |st| st.push(Piece::new(0, owner, 0)));
    };
    for cell in ["a1", "b1", "a2", "b2"] {
        put(&mut s, cell, 0);
    }
    for cell in ["d4", "c4", "d3"] {
        put(&mut s, cell, 1);
    }
    let legal: Vec<String> = g
        .legal_with_notation(&s)
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    assert_eq!(legal, ["xa1", "xa2", "xb1", "xb2"]);
    let ply = g.parse_ply(&s, "xa1").unwrap();
    g.play(&mut s, &ply);
    // The three red checkers left still form one group: red wins at the end of its turn.
    assert_eq!(s.outcome.as_ref().map(|o| o.winners.clone()), Some(vec![0]));
}

#[test]
fn staqs_25_placements_then_24() {
    let g = game("staqs", &[]);
    let mut s = g.start();
    assert_eq!(g.legal_plies(&s).len(), 25);
    let ply = g.parse_ply(&s, "c3").unwrap();
    g.play(&mut s, &ply);
    let legal: Vec<String> = g
        .legal_with_notation(&s)
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    assert_eq!(legal.len(), 24);
    assert!(!legal.contains(&"c3".to_string()));
}

/// A STAQS position whose only pieces are the given stacks: (cell, owner, height).
fn staqs_position(stacks: &[(&str, u8, usize)]) -> (rulebook::engine::game::Game, State) {
    let g = game("staqs", &[]);
    let mut s = g.start();
    let neutral = g.kinds.iter().position(|k| k.name == "neutral").unwrap() as u8;
    let piece = g.kinds.iter().position(|k| k.name == "piece").unwrap() as u8;
    for &(cell, owner, height) in stacks {
        let c = g.board.find(cell).unwrap() as usize;
        s.edit_stack(c as u16, |st| st.clear());
        for _ in 1..height {
            s.edit_stack(c as u16, |st| st.push(Piece::new(neutral, NEUTRAL, 0)));
        }
        s.edit_stack(c as u16, |st| st.push(Piece::new(piece, owner, 0)));
    }
    (g, s)
}

#[test]
fn staqs_sorted_heights_decide_blue_5222_beats_white_4422() {
    let (g, s) = staqs_position(&[
        ("a1", 0, 5),
        ("a3", 0, 2),
        ("a5", 0, 2),
        ("c1", 0, 2),
        ("e1", 1, 4),
        ("e3", 1, 4),
        ("e5", 1, 2),
        ("c5", 1, 2),
    ]);
    assert_eq!(g.scores(&s), vec![vec![5, 2, 2, 2], vec![4, 4, 2, 2]]);
    assert_eq!(
        g.score_winner(&s),
        vec![0],
        "blue wins 5 > 4; a sum of squares would say white"
    );
}

#[test]
fn staqs_identical_heights_are_a_draw_and_later_elements_decide() {
    let (g, s) = staqs_position(&[
        ("a1", 0, 3),
        ("a3", 0, 2),
        ("a5", 0, 2),
        ("c1", 0, 2),
        ("e1", 1, 3),
        ("e3", 1, 2),
        ("e5", 1, 2),
        ("c5", 1, 2),
    ]);
    assert!(g.score_winner(&s).is_empty());
    let (g, s) = staqs_position(&[
        ("a1", 0, 3),
        ("a3", 0, 3),
        ("a5", 0, 2),
        ("c1", 0, 2),
        ("e1", 1, 3),
        ("e3", 1, 3),
        ("e5", 1, 3),
        ("c5", 1, 2),
    ]);
    assert_eq!(g.score_winner(&s), vec![1], "third-tallest 3 > 2");
}

#[test]
fn staqs_a_player_who_cannot_step_must_pass_and_two_passes_end_the_game() {
    // The movement phase (both supplies at 0) with four stacks each.
    let (g, mut s) = staqs_position(&[
        ("a1", 0, 2),
        ("b2", 0, 2),
        ("c3", 0, 2),
        ("d4", 0, 2),
        ("a2", 1, 2),
        ("b1", 1, 2),
        ("e5", 1, 2),
        ("e4", 1, 2),
    ]);
    // STAQS's only variables are `passes` and each player's `supply`: all 0 here.
    for v in s.vars.iter_mut() {
        *v = 0;
    }
    let legal: Vec<String> = g
        .legal_with_notation(&s)
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    assert!(
        !legal.is_empty() && legal.iter().all(|t| t.contains('-')),
        "{legal:?}"
    );
    // Empty every neutral: nobody can step, so both pass and the game ends on scores.
    for c in 0..s.stacks().len() as u16 {
        s.edit_stack(c, |st| {
            if st.len() == 1 {
                st.clear();
            }
        });
    }
    let legal: Vec<String> = g
        .legal_with_notation(&s)
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    assert_eq!(legal, ["pass"]);
    let ply = g.parse_ply(&s, "pass").unwrap();
    g.play(&mut s, &ply);
    assert!(s.outcome.is_none());
    let ply = g.parse_ply(&s, "PASS").unwrap();
    g.play(&mut s, &ply);
    assert_eq!(
        s.outcome.as_ref().map(|o| o.winners.clone()),
        Some(vec![]),
        "equal heights: draw"
    );
}

#[test]
fn staqs_diagonal_variant_changes_the_steps() {
    let plain = game("staqs", &[]);
    let diag = game("staqs", &[("diagonal_steps", "true")]);
    let placements = "c3; a1; e5; a5; e1; b5; d1; b1";
    let count = |g: &rulebook::engine::game::Game| {
        let mut s = g.start();
        for p in placements.split(';') {
            let ply = g.parse_ply(&s, p).unwrap();
            g.play(&mut s, &ply);
        }
        g.legal_with_notation(&s)
            .into_iter()
            .map(|(t, _)| t)
            .collect::<Vec<_>>()
    };
    let (p, d) = (count(&plain), count(&diag));
    // Blue's c3 stack: 4 orthogonal steps, 8 with diagonals.
    assert_eq!(p.iter().filter(|t| t.starts_with("c3-")).count(), 4);
    assert_eq!(d.iter().filter(|t| t.starts_with("c3-")).count(), 8);
}
