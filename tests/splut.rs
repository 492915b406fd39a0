//! Splut! against the facts and readings of `docs/rules/splut.md` (rule numbers are
//! that file's): the start for 2, 3 and 4 players, then each power and each edge case on
//! hand-built positions.

use std::collections::BTreeSet;

use rulebook::engine::game::Game;
use rulebook::engine::state::State;

use crate::common::{game, legal, play, seat, set_stack};

fn splut(players: usize) -> Game {
    game("splut", &[("players", &players.to_string())])
}

/// The position of `g`'s start with every piece taken off, `to_move` to play the first
/// step of game turn `turn` (3 steps from turn 3 on).
fn bare(g: &Game, to_move: &str, turn: u32) -> State {
    let mut s = g.start();
    crate::common::clear_board(&mut s);
    s.to_move = seat(g, to_move);
    s.turn = turn;
    s
}

/// Puts one piece: `kind` is rock, sorcerer, dwarf or troll; `owner` is "" for a rock.
fn put(g: &Game, s: &mut State, cell: &str, kind: &str, owner: &str) {
    set_stack(g, s, cell, &[(kind, owner)]);
}

/// What stands on a cell: "" when empty, else the kind's name and its owner.
fn on(g: &Game, s: &State, cell: &str) -> String {
    let c = g.board.find(cell).expect("a cell") as usize;
    s.stacks()[c]
        .iter()
        .map(|p| {
            let kind = &g.kinds[p.kind as usize].name;
            match g.players.get(p.owner as usize) {
                Some(owner) => format!("{kind} {owner}"),
                None => kind.clone(),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn pieces_of(g: &Game, s: &State, owner: &str) -> usize {
    let o = seat(g, owner);
    s.stacks().iter().flatten().filter(|p| p.owner == o).count()
}

#[test]
fn the_start_has_exactly_three_steps_for_every_player_count() {
    for n in [2, 3, 4] {
        let g = splut(n);
        let s = g.start();
        assert_eq!(
            g.players[s.to_move as usize], "south",
            "rule 5: south first"
        );
        assert_eq!(legal(&g, &s), ["De2-e3", "Sd2-d3", "Tf2-f3"], "{n} players");
        assert_eq!(g.board.len(), 41, "rule 1: 41 squares");
    }
}

#[test]
fn seats_turn_order_and_the_one_two_three_schedule() {
    // Rule 5 and 7: south 1 step; the next seat 2; every later turn 3.
    for (n, order) in [
        (2, vec!["south", "north", "south"]),
        (3, vec!["south", "west", "north", "south"]),
        (4, vec!["south", "west", "north", "east", "south"]),
    ] {
        let g = splut(n);
        assert_eq!(g.players.len(), n);
        let mut s = g.start();
        let mut bot = rulebook::bots::random::RandomBot::new(5);
        use rulebook::bots::Bot;
        for (turn, who) in order.iter().enumerate() {
            assert_eq!(
                g.players[s.to_move as usize], *who,
                "{n} players, turn {turn}"
            );
            let steps = [1, 2, 3][turn.min(2)];
            assert_eq!(g.plies_this_turn(&s), steps);
            let before = s.turn;
            while s.turn == before && s.outcome.is_none() {
                let ply = bot.choose(&g, &s).unwrap();
                g.play(&mut s, &ply);
            }
        }
    }
}

#[test]
fn a_thrown_rock_kills_the_sorcerer_it_hits_and_its_whole_team_leaves() {
    // Rule 16: from e4 north, over the north dwarf on e5 and the empty e6, onto the north
    // sorcerer on e7. Rule 19-20: north's team leaves; in 2 players south wins at once.
    let g = splut(2);
    let mut s = bare(&g, "south", 4);
    put(&g, &mut s, "e3", "troll", "south");
    put(&g, &mut s, "e4", "rock", "");
    put(&g, &mut s, "e5", "dwarf", "north");
    put(&g, &mut s, "e7", "sorcerer", "north");
    put(&g, &mut s, "c3", "troll", "north");
    put(&g, &mut s, "b5", "sorcerer", "south");
    assert!(legal(&g, &s).contains(&"Te3-e4 throw n".to_string()));
    play(&g, &mut s, "Te3-e4 throw n");
    assert_eq!(on(&g, &s, "e7"), "rock");
    assert_eq!(
        on(&g, &s, "e4"),
        "troll south",
        "the troll stays where it picked up"
    );
    assert_eq!(
        pieces_of(&g, &s, "north"),
        0,
        "dwarf and troll leave with the sorcerer"
    );
    assert_eq!(s.outcome.as_ref().unwrap().winners, [seat(&g, "south")]);
}

#[test]
fn a_rock_landing_on_a_dwarf_crushes_it_and_dwarves_flown_over_are_unharmed() {
    // From e4 north: over south's dwarf on e6, stops before the rock on e9: lands on e8,
    // where north's dwarf is crushed. North plays on; the throw ended south's turn.
    let g = splut(2);
    let mut s = bare(&g, "south", 4);
    put(&g, &mut s, "e3", "troll", "south");
    put(&g, &mut s, "e4", "rock", "");
    put(&g, &mut s, "e6", "dwarf", "south");
    put(&g, &mut s, "e8", "dwarf", "north");
    put(&g, &mut s, "e9", "rock", "");
    put(&g, &mut s, "c7", "sorcerer", "north");
    put(&g, &mut s, "c3", "sorcerer", "south");
    play(&g, &mut s, "Te3-e4 throw n");
    assert_eq!(on(&g, &s, "e8"), "rock");
    assert_eq!(on(&g, &s, "e6"), "dwarf south");
    assert_eq!(pieces_of(&g, &s, "north"), 1, "only the dwarf died");
    assert!(s.outcome.is_none());
    assert_eq!(
        g.players[s.to_move as usize], "north",
        "a throw ends the turn"
    );
    assert_eq!(s.ply_in_turn, 1);
}

#[test]
fn a_throw_direction_in_which_the_rock_cannot_move_is_not_legal() {
    // Rock on e4: a troll on e5, a rock on d4 and on f4 block n, w and e; only the way
    // back (e3, which the troll has just left) is open.
    let g = splut(2);
    let mut s = bare(&g, "south", 4);
    put(&g, &mut s, "e3", "troll", "south");
    put(&g, &mut s, "e4", "rock", "");
    put(&g, &mut s, "e5", "troll", "north");
    put(&g, &mut s, "d4", "rock", "");
    put(&g, &mut s, "f4", "rock", "");
    put(&g, &mut s, "a5", "sorcerer", "north");
    put(&g, &mut s, "i5", "sorcerer", "south");
    let throws: Vec<String> = legal(&g, &s)
        .into_iter()
        .filter(|t| t.starts_with("Te3-e4"))
        .collect();
    assert_eq!(throws, ["Te3-e4 throw s"]);
    // Thrown back, it flies over the vacated e3 and e2 to the tip e1 (the edge).
    play(&g, &mut s, "Te3-e4 throw s");
    assert_eq!(on(&g, &s, "e1"), "rock");
    // A sorcerer right next to the rock is a legal target: the rock moves onto it.
    let mut s = bare(&g, "south", 4);
    put(&g, &mut s, "e3", "troll", "south");
    put(&g, &mut s, "e4", "rock", "");
    put(&g, &mut s, "e5", "sorcerer", "north");
    put(&g, &mut s, "i5", "sorcerer", "south");
    assert!(legal(&g, &s).contains(&"Te3-e4 throw n".to_string()));
}

#[test]
fn the_troll_pulls_only_the_rock_directly_behind_it() {
    // Rule 15: moving north from e3, the rock on e2 is behind (pullable); the rock on d3
    // is beside. Moving east to f3, d3 is behind.
    let g = splut(2);
    let mut s = bare(&g, "south", 4);
    put(&g, &mut s, "e3", "troll", "south");
    put(&g, &mut s, "e2", "rock", "");
    put(&g, &mut s, "d3", "rock", "");
    put(&g, &mut s, "a5", "sorcerer", "north");
    put(&g, &mut s, "i5", "sorcerer", "south");
    let pulls: BTreeSet<String> = legal(&g, &s)
        .into_iter()
        .filter(|t| t.ends_with(" pull"))
        .collect();
    assert_eq!(
        pulls.into_iter().collect::<Vec<_>>(),
        ["Te3-e4 pull", "Te3-f3 pull"]
    );
    play(&g, &mut s, "Te3-e4 pull");
    assert_eq!(on(&g, &s, "e3"), "rock");
    assert_eq!(on(&g, &s, "e2"), "");
    assert_eq!(on(&g, &s, "d3"), "rock", "the rock beside stays");
}

#[test]
fn the_dwarf_pushes_a_whole_line_but_never_off_the_board() {
    // Rule 18: c5 pushes d5 and e5 (any kind, any team) into f5.
    let g = splut(2);
    let mut s = bare(&g, "south", 4);
    put(&g, &mut s, "c5", "dwarf", "south");
    put(&g, &mut s, "d5", "rock", "");
    put(&g, &mut s, "e5", "sorcerer", "north");
    put(&g, &mut s, "e3", "sorcerer", "south");
    play(&g, &mut s, "Dc5-d5");
    assert_eq!(on(&g, &s, "d5"), "dwarf south");
    assert_eq!(on(&g, &s, "e5"), "rock");
    assert_eq!(on(&g, &s, "f5"), "sorcerer north", "pushing never kills");
    // e6 pushing north: e7, e8, e9 full up to the tip: nothing leaves the board.
    let mut s = bare(&g, "south", 4);
    put(&g, &mut s, "e6", "dwarf", "south");
    put(&g, &mut s, "e7", "sorcerer", "north");
    put(&g, &mut s, "e8", "dwarf", "north");
    put(&g, &mut s, "e9", "rock", "");
    put(&g, &mut s, "e3", "sorcerer", "south");
    let steps = legal(&g, &s);
    assert!(!steps.contains(&"De6-e7".to_string()), "{steps:?}");
    assert!(steps.contains(&"De6-d6".to_string()));
}

#[test]
fn levitation_moves_one_rock_in_step_and_the_square_just_left_counts_as_empty() {
    // Rule 10: e3 north to e4; the rock on e2 (right behind) follows into e3; the rock on
    // b5 moves to b6. The switch `lev_into_vacated=false` refuses the first.
    let g = splut(2);
    let mut s = bare(&g, "south", 4);
    put(&g, &mut s, "e3", "sorcerer", "south");
    put(&g, &mut s, "e2", "rock", "");
    put(&g, &mut s, "b5", "rock", "");
    put(&g, &mut s, "c6", "rock", "");
    put(&g, &mut s, "c7", "troll", "north");
    put(&g, &mut s, "a5", "sorcerer", "north");
    let from_e3: Vec<String> = legal(&g, &s)
        .into_iter()
        .filter(|t| t.starts_with("Se3-e4"))
        .collect();
    // c6 cannot go north: c7 holds a troll.
    assert_eq!(from_e3, ["Se3-e4", "Se3-e4 lev b5", "Se3-e4 lev e2"]);
    let mut after = s.clone();
    play(&g, &mut after, "Se3-e4 lev e2");
    assert_eq!(on(&g, &after, "e3"), "rock");
    let strict = game("splut", &[("lev_into_vacated", "false")]);
    let from_e3: Vec<String> = legal(&strict, &s)
        .into_iter()
        .filter(|t| t.starts_with("Se3-e4"))
        .collect();
    assert_eq!(from_e3, ["Se3-e4", "Se3-e4 lev b5"]);
}

#[test]
fn a_rock_moved_during_the_previous_turn_cannot_be_levitated() {
    // Rule 11, on turn 6: b5 moved in turn 5 (no); c5 in turn 4 (yes); d5 in turns 5 and
    // 6 (no: it moved during the previous turn, whatever it did since).
    let g = splut(2);
    let mut s = bare(&g, "south", 6);
    put(&g, &mut s, "e3", "sorcerer", "south");
    put(&g, &mut s, "a5", "sorcerer", "north");
    for cell in ["b5", "c5", "d5"] {
        put(&g, &mut s, cell, "rock", "");
    }
    let stamp = |s: &mut State, cell: &str, moved: u32, before: u32| {
        let c = g.board.find(cell).unwrap() as usize;
        s.edit_stack(c as u16, |st| st[0].moved = moved);
        s.edit_stack(c as u16, |st| st[0].moved_before = before);
    };
    stamp(&mut s, "b5", 5, 0);
    stamp(&mut s, "c5", 4, 0);
    stamp(&mut s, "d5", 6, 5);
    let levs: Vec<String> = legal(&g, &s)
        .into_iter()
        .filter(|t| t.starts_with("Se3-e4 lev"))
        .collect();
    assert_eq!(levs, ["Se3-e4 lev c5"]);
}

#[test]
fn levitation_continues_only_on_the_very_next_step_with_the_same_rock() {
    // Rule 12 on a 3-step turn (turn 3).
    let g = splut(2);
    let mut s = bare(&g, "south", 3);
    put(&g, &mut s, "e3", "sorcerer", "south");
    put(&g, &mut s, "g5", "troll", "south");
    put(&g, &mut s, "b5", "rock", "");
    put(&g, &mut s, "c4", "rock", "");
    put(&g, &mut s, "a5", "sorcerer", "north");
    play(&g, &mut s, "Se3-e4 lev b5");
    assert_eq!(on(&g, &s, "b6"), "rock");
    // Step 2: only the same rock may go on levitating (now on b6), not c4.
    let levs: Vec<String> = legal(&g, &s)
        .into_iter()
        .filter(|t| t.contains(" lev "))
        .collect();
    assert!(!levs.is_empty());
    assert!(levs.iter().all(|t| t.ends_with("lev b6")), "{levs:?}");
    // A troll step does not continue it: no levitation on step 3.
    let mut broken = s.clone();
    play(&g, &mut broken, "Tg5-g4");
    assert!(legal(&g, &broken).iter().all(|t| !t.contains(" lev ")));
    // A sorcerer step without levitation breaks it too.
    let mut plain = s.clone();
    play(&g, &mut plain, "Se4-e5");
    assert!(legal(&g, &plain).iter().all(|t| !t.contains(" lev ")));
    // Continued on step 2 (b6 east to c6), it may go on on step 3 (c6 north to c7).
    play(&g, &mut s, "Se4-f4 lev b6");
    assert_eq!(on(&g, &s, "c6"), "rock");
    assert!(legal(&g, &s).contains(&"Sf4-f5 lev c6".to_string()));
}

#[test]
fn a_player_who_kills_their_own_sorcerer_loses() {
    let g = splut(2);
    let mut s = bare(&g, "south", 4);
    put(&g, &mut s, "e3", "troll", "south");
    put(&g, &mut s, "e4", "rock", "");
    put(&g, &mut s, "e6", "sorcerer", "south");
    put(&g, &mut s, "a5", "sorcerer", "north");
    play(&g, &mut s, "Te3-e4 throw n");
    assert_eq!(pieces_of(&g, &s, "south"), 0);
    assert_eq!(s.outcome.as_ref().unwrap().winners, [seat(&g, "north")]);
}

#[test]
fn an_eliminated_seat_is_skipped_with_three_and_four_players() {
    for n in [3, 4] {
        let g = splut(n);
        let mut s = bare(&g, "south", 4);
        put(&g, &mut s, "e3", "troll", "south");
        put(&g, &mut s, "e4", "rock", "");
        put(&g, &mut s, "e6", "sorcerer", "west");
        put(&g, &mut s, "b4", "troll", "west");
        put(&g, &mut s, "c3", "sorcerer", "south");
        put(&g, &mut s, "e8", "sorcerer", "north");
        if n == 4 {
            put(&g, &mut s, "h5", "sorcerer", "east");
        }
        play(&g, &mut s, "Te3-e4 throw n");
        assert!(s.outcome.is_none(), "{n} players: the others play on");
        assert_eq!(pieces_of(&g, &s, "west"), 0);
        assert!(!s.is_alive(seat(&g, "west")));
        assert_eq!(
            g.players[s.to_move as usize], "north",
            "{n} players: west skipped"
        );
        // North's turn, then east (4 players) or south: west never plays again.
        let mut bot = rulebook::bots::random::RandomBot::new(1);
        use rulebook::bots::Bot;
        let mut seen = Vec::new();
        for _ in 0..12 {
            let Some(ply) = bot.choose(&g, &s) else { break };
            seen.push(g.players[s.to_move as usize].clone());
            g.play(&mut s, &ply);
        }
        assert!(!seen.contains(&"west".to_string()));
    }
}

#[test]
fn the_last_living_sorcerer_wins_with_three_players() {
    // West already out; south kills north: south wins.
    let g = splut(3);
    let mut s = bare(&g, "south", 7);
    s.alive &= !(1 << seat(&g, "west"));
    put(&g, &mut s, "e3", "troll", "south");
    put(&g, &mut s, "e4", "rock", "");
    put(&g, &mut s, "e7", "sorcerer", "north");
    put(&g, &mut s, "c3", "sorcerer", "south");
    play(&g, &mut s, "Te3-e4 throw n");
    assert_eq!(s.outcome.as_ref().unwrap().winners, [seat(&g, "south")]);
}
