//! VLKNO against the facts and readings of `docs/rules/vlkno.md` (rule numbers are
//! that file's), on the start position and on positions built by hand.

use std::collections::BTreeSet;

use rulebook::engine::game::Game;
use rulebook::engine::state::State;

use crate::common::{game, legal, play, set_stack};

/// `n` stones with nothing on top.
fn stones(n: usize) -> Vec<(&'static str, &'static str)> {
    vec![("stone", ""); n]
}

/// `n` stones under a pawn of `owner`.
fn pawn_on(n: usize, owner: &'static str) -> Vec<(&'static str, &'static str)> {
    let mut v = stones(n);
    v.push(("pawn", owner));
    v
}

/// Every cell at `n` stones, pawns where they start (on `n` stones too).
fn level(g: &Game, n: usize) -> State {
    let mut s = g.start();
    for c in g.board.names.clone() {
        let owner = match c.as_str() {
            "a1" | "e5" => "white",
            "a5" | "e1" => "black",
            _ => "",
        };
        if owner.is_empty() {
            set_stack(g, &mut s, &c, &stones(n));
        } else {
            set_stack(g, &mut s, &c, &pawn_on(n, owner));
        }
    }
    s
}

/// A ply's three parts: (from-to, take, place).
fn parts(text: &str) -> (String, String, String) {
    let v: Vec<&str> = text.split(' ').collect();
    assert_eq!(v.len(), 3, "a turn is written `a5-b4 c3 d1`: {text}");
    (v[0].into(), v[1].into(), v[2].into())
}

#[test]
fn the_start_has_2280_turns_six_moves_times_twenty_takes_times_nineteen_places() {
    let g = game("vlkno", &[]);
    let s = g.start();
    assert_eq!(
        g.players[s.to_move as usize], "black",
        "rule 3: black first"
    );
    let all = legal(&g, &s);
    assert_eq!(all.len(), 2280);
    let moves: BTreeSet<String> = all.iter().map(|t| parts(t).0).collect();
    assert_eq!(
        moves.into_iter().collect::<Vec<_>>(),
        ["a5-a4", "a5-b4", "a5-b5", "e1-d1", "e1-d2", "e1-e2"]
    );
    for m in ["a5-b4", "e1-e2"] {
        let with: Vec<_> = all.iter().filter(|t| t.starts_with(m)).collect();
        let takes: BTreeSet<String> = with.iter().map(|t| parts(t).1).collect();
        assert_eq!(takes.len(), 20, "{m}");
        for take in &takes {
            let places = with.iter().filter(|t| &parts(t).1 == take).count();
            assert_eq!(places, 19, "{m} {take}");
        }
    }
    // Rules 5, 6: never the space just left; never a pawn's space.
    for t in &all {
        let (mv, take, put) = parts(t);
        let from = &mv[..2];
        assert!(take != from && put != from, "{t}");
        for pawn in ["a1", "e5", "a5", "e1", &mv[3..]] {
            if pawn != from {
                assert!(take != pawn && put != pawn, "{t}");
            }
        }
        assert_ne!(take, put, "{t}: the stone goes back where it came from");
    }
}

#[test]
fn heights_count_stones_only_and_lava_takes_nothing() {
    // Rule 4: the black pawn on a5 stands on 1 stone; a4 has 2 (ok), b4 has 3 (too high),
    // b5 is lava.
    let g = game("vlkno", &[]);
    let mut s = g.start();
    set_stack(&g, &mut s, "a4", &stones(2));
    set_stack(&g, &mut s, "b4", &stones(3));
    set_stack(&g, &mut s, "b5", &[]);
    let moves: BTreeSet<String> = legal(&g, &s)
        .iter()
        .map(|t| parts(t).0)
        .filter(|m| m.starts_with("a5"))
        .collect();
    assert_eq!(moves.into_iter().collect::<Vec<_>>(), ["a5-a4"]);
}

#[test]
fn the_space_just_left_is_excluded_before_the_shortest_is_found() {
    // Rule 5: every stack holds 2 stones except a5, which black's pawn leaves. a5 (1 stone)
    // would be the shortest, but it is excluded first: the take is from a 2-stack.
    let g = game("vlkno", &[]);
    let mut s = level(&g, 2);
    set_stack(&g, &mut s, "a5", &pawn_on(1, "black"));
    let after_a5: Vec<String> = legal(&g, &s)
        .into_iter()
        .filter(|t| t.starts_with("a5-a4 "))
        .collect();
    assert!(!after_a5.is_empty());
    let takes: BTreeSet<String> = after_a5.iter().map(|t| parts(t).1).collect();
    assert_eq!(takes.len(), 20, "{takes:?}");
    assert!(!takes.contains("a5"));
    // From e1 the space left is e1 (2 stones) and a5 holds a pawn: a 1-stone stack that is
    // occupied does not count either, so the takes are the same 20 cells but e1 and the
    // pawn's destination.
    let from_e1: BTreeSet<String> = legal(&g, &s)
        .into_iter()
        .filter(|t| t.starts_with("e1-e2"))
        .map(|t| parts(&t).1)
        .collect();
    assert_eq!(from_e1.len(), 20);
    assert!(!from_e1.contains("a5") && !from_e1.contains("e1"));
}

#[test]
fn the_take_is_from_the_shortest_unoccupied_stacks_only() {
    // After black's a5-b4 c3 d1, c3 is lava and d1 holds 2: white's takes are the
    // 1-stone stacks, never d1.
    let g = game("vlkno", &[]);
    let mut s = g.start();
    play(&g, &mut s, "a5-b4 c3 d1");
    let all = legal(&g, &s);
    assert!(!all.is_empty());
    assert!(all.iter().all(|t| parts(t).1 != "d1" && parts(t).1 != "c3"));
    assert!(
        all.iter().all(|t| parts(t).2 != "c3"),
        "nothing is placed on lava"
    );
}

#[test]
fn a_player_who_cannot_complete_a_turn_loses_but_one_stuck_pawn_is_not_enough() {
    let g = game("vlkno", &[]);
    let mut s = g.start();
    // Black's a5 pawn is walled in by lava; e1 can still move: black plays on.
    for c in ["a4", "b4", "b5"] {
        set_stack(&g, &mut s, c, &[]);
    }
    let black = legal(&g, &s);
    assert!(!black.is_empty() && black.iter().all(|t| t.starts_with("e1-")));
    // The game goes on through white's turn, and black has the same e1 steps again.
    let mut on = s.clone();
    on.to_move = 1;
    play(&g, &mut on, "a1-b1 c3 c4");
    assert!(on.outcome.is_none(), "one stuck pawn does not end the game");
    let black = legal(&g, &on);
    assert!(!black.is_empty() && black.iter().all(|t| t.starts_with("e1-")));
    // Wall in e1 as well, give white the move: after white's turn black has no complete
    // turn, so black loses (rule 8).
    for c in ["d1", "d2", "e2"] {
        set_stack(&g, &mut s, c, &[]);
    }
    s.to_move = 1;
    play(&g, &mut s, "a1-b1 c3 c4");
    let outcome = s
        .outcome
        .as_ref()
        .expect("black cannot move: the game is over");
    assert_eq!(outcome.winners, [1], "white wins");
    assert!(legal(&g, &s).is_empty());
}

#[test]
fn a_turn_whose_take_has_no_stack_is_not_legal() {
    // Rule 8, "a turn is legal only as a whole": every stone under the pawns and one
    // stack left. Black can move, but after the move the only stone-bearing unoccupied
    // space is the one just left, which is excluded: no complete turn.
    let g = game("vlkno", &[]);
    let mut s = g.start();
    crate::common::clear_board(&mut s);
    set_stack(&g, &mut s, "a5", &pawn_on(1, "black"));
    set_stack(&g, &mut s, "a4", &stones(1));
    set_stack(&g, &mut s, "e1", &pawn_on(1, "black"));
    set_stack(&g, &mut s, "a1", &pawn_on(1, "white"));
    set_stack(&g, &mut s, "e5", &pawn_on(1, "white"));
    // a5-a4 leaves a5 (excluded); the other stones all carry pawns.
    assert!(legal(&g, &s).is_empty());
    // With two stones on c3 there would be a whole turn if the space just left could be
    // taken from (a5-a4 a5 c3); it cannot, and taking from c3 leaves nowhere to place.
    set_stack(&g, &mut s, "c3", &stones(2));
    assert!(legal(&g, &s).is_empty());
}

#[test]
fn the_put_back_switch_allows_returning_the_stone_to_its_stack() {
    // Every stack holds 2 stones, so a take leaves one behind and the stack can take the
    // stone back only under the switch (rule 6's variant).
    let plain = game("vlkno", &[]);
    let put_back = game("vlkno", &[("put_back", "true")]);
    let a = legal(&plain, &level(&plain, 2));
    let b = legal(&put_back, &level(&put_back, 2));
    assert!(a.iter().all(|t| parts(t).1 != parts(t).2));
    let extra: Vec<&String> = b.iter().filter(|t| !a.contains(t)).collect();
    assert!(!extra.is_empty());
    assert!(extra.iter().all(|t| parts(t).1 == parts(t).2), "{extra:?}");
    // One extra turn per (move, take) pair.
    let pairs: BTreeSet<(String, String)> = a
        .iter()
        .map(|t| {
            let (m, take, _) = parts(t);
            (m, take)
        })
        .collect();
    assert_eq!(b.len(), a.len() + pairs.len());
    // At the start (1-stone stacks) the taken stack is lava: the switch changes nothing.
    assert_eq!(legal(&put_back, &put_back.start()).len(), 2280);
}

#[test]
fn stones_are_never_lost() {
    // Rule 7: 25 stones whatever is played.
    let g = game("vlkno", &[]);
    let stone = g.kinds.iter().position(|k| k.name == "stone").unwrap() as u8;
    let count = |s: &State| {
        s.stacks()
            .iter()
            .flatten()
            .filter(|p| p.kind == stone)
            .count()
    };
    let mut s = g.start();
    let mut bot = rulebook::bots::random::RandomBot::new(11);
    use rulebook::bots::Bot;
    while let Some(ply) = bot.choose(&g, &s) {
        g.play(&mut s, &ply);
        assert_eq!(count(&s), 25);
    }
    assert!(s.outcome.is_some());
}
