//! Long random play, every game and player count: pieces are neither created nor destroyed
//! except as the rules say (25 stones in VLKNO, four pieces a player in STAQS, four rocks
//! in Splut!), checked after every ply.

use rulebook::bots::Bot;
use rulebook::bots::random::RandomBot;
use rulebook::engine::game::Game;
use rulebook::engine::state::{NEUTRAL, State};

use crate::common::game;

/// Pieces of kind `kind` owned by `owner` (or neutral), over the whole board.
fn count(g: &Game, s: &State, kind: &str, owner: Option<u8>) -> usize {
    let k = g.kinds.iter().position(|x| x.name == kind).expect("a kind") as u8;
    let o = owner.unwrap_or(NEUTRAL);
    s.stacks()
        .iter()
        .flatten()
        .filter(|p| p.kind == k && p.owner == o)
        .count()
}

/// Plays `games` seeded random games and calls `check(previous, next)` after every ply.
fn walk(g: &Game, games: u64, mut check: impl FnMut(&State, &State, &str)) -> usize {
    let mut plies = 0;
    for seed in 0..games {
        let mut bot = RandomBot::new(seed);
        let mut s = g.start();
        check(&s, &s, &format!("seed {seed}, start"));
        while let Some(ply) = bot.choose(g, &s) {
            let before = s.clone();
            let text = g.notation(&s, &ply);
            g.play(&mut s, &ply);
            plies += 1;
            check(&before, &s, &format!("seed {seed}, ply {} {text}", s.plies));
        }
        assert!(s.outcome.is_some(), "seed {seed}: no ply yet no result");
    }
    plies
}

#[test]
fn vlkno_always_has_25_stones_and_two_pawns_a_player() {
    for put_back in ["false", "true"] {
        let g = game("vlkno", &[("put_back", put_back)]);
        let plies = walk(&g, 40, |_, s, at| {
            assert_eq!(count(&g, s, "stone", None), 25, "{at}");
            assert_eq!(count(&g, s, "pawn", Some(0)), 2, "{at}");
            assert_eq!(count(&g, s, "pawn", Some(1)), 2, "{at}");
        });
        assert!(plies > 400, "{plies}");
    }
}

#[test]
fn staqs_players_place_four_pieces_each_and_keep_them() {
    for diagonal in ["false", "true"] {
        let g = game("staqs", &[("diagonal_steps", diagonal)]);
        let neutrals = count(&g, &g.start(), "neutral", None);
        let plies = walk(&g, 200, |before, s, at| {
            assert_eq!(count(&g, s, "neutral", None), neutrals, "{at}");
            for p in 0..2 {
                let (was, now) = (
                    count(&g, before, "piece", Some(p)),
                    count(&g, s, "piece", Some(p)),
                );
                assert!(
                    now <= 4 && now >= was,
                    "{at}: player {p} had {was}, has {now}"
                );
            }
            let movement = g.current_phase(s).map(|i| g.phases[i].name.as_str());
            if s.outcome.is_none() && movement == Some("movement") {
                assert_eq!(count(&g, s, "piece", Some(s.to_move)), 4, "{at}");
            }
        });
        assert!(plies > 2000, "{plies}");
    }
}

#[test]
fn splut_keeps_four_rocks_and_only_loses_pieces() {
    for players in ["2", "3", "4"] {
        let g = game("splut", &[("players", players)]);
        let n = g.players.len() as u8;
        let plies = walk(&g, 30, |before, s, at| {
            assert_eq!(count(&g, s, "rock", None), 4, "{players} players, {at}");
            for p in 0..n {
                let pieces = |st: &State| {
                    ["sorcerer", "troll", "dwarf"]
                        .iter()
                        .map(|k| count(&g, st, k, Some(p)))
                        .sum::<usize>()
                };
                assert!(
                    pieces(s) <= pieces(before),
                    "{players} players, {at}: player {p} gained"
                );
                if !s.is_alive(p) {
                    assert_eq!(pieces(s), 0, "{players} players, {at}: player {p} is out");
                }
                assert!(count(&g, s, "sorcerer", Some(p)) <= 1, "{at}");
            }
        });
        assert!(plies > 1000, "{players} players: {plies}");
    }
}
