//! Minidrop (`tests/games/minidrop.toml`), a shogi-like game whose hands are variables per
//! player and kind: the interpreter against the independent reference
//! (`reference/minidrop.rs`). Seeded self-play traces are replayed ply by ply (every legal
//! list compared), perft is compared from the start and from positions reached in
//! self-play, the games are checked to exercise every rule, and hand-made positions pin
//! the drop restrictions and the demotion of captured pieces.

use std::collections::BTreeMap;

use rulebook::engine::game::Game;
use rulebook::record::diagram;
use serde_json::json;

use crate::common;
use crate::common::trace_moves;
use crate::reference::Reference;
use crate::reference::minidrop::{Kind, Minidrop, Move};
use crate::traces::{check_seeds, compare_perft, compare_perft_midgame};

const SEEDS: std::ops::Range<u64> = 0..80;

fn minidrop() -> Game {
    common::test_game("minidrop")
}

#[test]
fn minidrop_traces_match_reference() {
    check_seeds(
        "minidrop",
        "minidrop",
        &minidrop(),
        SEEDS,
        Minidrop::new,
        json!({}),
    );
}

#[test]
fn minidrop_perft_matches_reference() {
    let counts = compare_perft("minidrop", &minidrop(), &Minidrop::new(), 4);
    assert_eq!(counts, [14, 194, 3097, 49977]);
}

/// Perft 3 from positions of self-play games, where hands are full and drops many.
#[test]
fn minidrop_midgame_perft_matches_reference() {
    let n = compare_perft_midgame(
        "minidrop",
        &minidrop(),
        Minidrop::new,
        0..16,
        &[8, 20, 35, 60],
        3,
    );
    assert!(n >= 30, "too few minidrop positions: {n}");
}

/// Along the replayed games the reference sees captures (of promoted pieces too, which
/// go to the hand demoted), drops of every unpromoted kind but the king, promotions
/// (chosen and forced), pawn drops refused by the file rule, and kings captured.
#[test]
fn self_play_exercises_every_rule() {
    let game = minidrop();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut see = |what: String| *seen.entry(what).or_default() += 1;
    for seed in SEEDS {
        let mut pos = Minidrop::new();
        for text in trace_moves(&game, "minidrop", seed) {
            let ply = pos
                .moves()
                .into_iter()
                .find(|m| pos.notation(m) == text)
                .unwrap_or_else(|| panic!("seed {seed}: {text} is not legal in the reference"));
            let me = pos.to_move;
            match &ply {
                Move::Step { from, to, promote } => {
                    if let Some((taken, _)) = pos.board[*to] {
                        see("capture".into());
                        if taken.demoted() != taken {
                            see("capture of a promoted piece".into());
                        }
                    }
                    if *promote {
                        see("promotion".into());
                        let (kind, _) = pos.board[*from].expect("a piece");
                        let other = Move::Step {
                            from: *from,
                            to: *to,
                            promote: false,
                        };
                        if kind == Kind::Pawn && !pos.moves().contains(&other) {
                            see("forced promotion".into());
                        }
                    }
                }
                Move::Drop { kind, .. } => see(format!("drop {}", kind.name())),
            }
            let pawns = pos.hand[me][5] > 0;
            let drops = |p: &Minidrop| {
                p.moves()
                    .iter()
                    .filter(|m| {
                        matches!(
                            m,
                            Move::Drop {
                                kind: Kind::Pawn,
                                ..
                            }
                        )
                    })
                    .count()
            };
            let empty = pos.board.iter().filter(|c| c.is_none()).count();
            if pawns && drops(&pos) + 5 < empty {
                see("pawn drops refused".into());
            }
            pos.apply(&ply);
        }
        if pos.result.is_some() {
            see("king captured or player stuck".into());
        }
    }
    eprintln!("minidrop self-play: {seen:?}");
    for what in [
        "capture",
        "capture of a promoted piece",
        "promotion",
        "forced promotion",
        "drop pawn",
        "drop silver",
        "drop gold",
        "drop rook",
        "drop bishop",
        "pawn drops refused",
        "king captured or player stuck",
    ] {
        assert!(seen.contains_key(what), "no {what} in the games: {seen:?}");
    }
}

/// Legal plies of a position written as a diagram (black's pieces upper case), sorted.
fn legal(game: &Game, text: &str) -> Vec<String> {
    let state = diagram::read(game, text).unwrap_or_else(|e| panic!("{e}"));
    common::legal(game, &state)
}

#[test]
fn a_pawn_is_not_dropped_beside_its_own_pawn_nor_on_the_far_rank() {
    let game = minidrop();
    // Black holds a pawn; a black pawn stands on file a, a white one on file b.
    let text = "r . . . k / . . . . . / . . . . . / P p . . . / K . . . . \
                / hand(black, pawn) = 1";
    let drops: Vec<String> = legal(&game, text)
        .into_iter()
        .filter(|t| t.starts_with("pawn*"))
        .collect();
    // Files b to e, ranks 1 to 4, empty: not file a (own pawn), not rank 5 (far).
    assert!(
        drops
            .iter()
            .all(|t| !t.starts_with("pawn*a") && !t.ends_with('5'))
    );
    assert!(drops.contains(&"pawn*b3".to_string()));
    assert_eq!(drops.len(), 4 * 4 - 1);
    // A tokin is no pawn: the file is free again.
    let promoted = text.replace("P p", "T p");
    let drops = legal(&game, &promoted);
    assert!(drops.contains(&"pawn*a3".to_string()), "{drops:?}");
}

#[test]
fn a_promoted_piece_captured_goes_to_the_hand_demoted() {
    let game = minidrop();
    // Black's king takes a white dragon, then may drop it back as a rook.
    let text = ". . . . k / . . . . . / . . . . . / . d . . . / K . . . . / to_move = black";
    let mut state = diagram::read(&game, text).unwrap();
    let ply = game.parse_ply(&state, "a1-b2").unwrap();
    game.play(&mut state, &ply);
    let ply = game.parse_ply(&state, "e5-d5").unwrap();
    game.play(&mut state, &ply);
    let after = common::legal(&game, &state);
    assert!(after.contains(&"rook*c3".to_string()), "{after:?}");
    assert!(!after.iter().any(|t| t.starts_with("dragon*")), "{after:?}");
}
