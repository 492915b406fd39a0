//! Bots: deterministic for a seed, and the greedy bot takes a win it can see.

use rulebook::bots::{self, Bot};

use crate::common::game;

#[test]
fn greedy_takes_an_immediate_win() {
    let g = game("bounce", &[("size", "4")]);
    let mut s = g.start();
    for text in ["d3-d4", "c3-d3", "b1-c3", "d3-d1"] {
        let ply = g.parse_ply(&s, text).unwrap();
        g.play(&mut s, &ply);
    }
    for seed in 0..5 {
        let mut bot = bots::from_spec("greedy", seed).unwrap();
        let ply = bot.choose(&g, &s).unwrap();
        let mut next = s.clone();
        g.play(&mut next, &ply);
        let winners = next.outcome.map(|o| o.winners);
        assert_eq!(
            winners,
            Some(vec![0]),
            "seed {seed}: greedy played {}",
            g.notation(&s, &ply)
        );
    }
}

#[test]
fn bots_are_deterministic_for_a_seed() {
    let g = game("staqs", &[]);
    for spec in ["random", "greedy"] {
        let game_with = |seed: u64| {
            let mut players: Vec<Box<dyn Bot>> = (0..2)
                .map(|i| bots::from_spec(spec, seed * 2 + i).unwrap())
                .collect();
            let mut s = g.start();
            let mut texts = Vec::new();
            while s.outcome.is_none() {
                let ply = players[s.to_move as usize].choose(&g, &s).unwrap();
                texts.push(g.notation(&s, &ply));
                g.play(&mut s, &ply);
            }
            texts
        };
        assert_eq!(game_with(3), game_with(3), "{spec}");
        assert_ne!(
            game_with(3),
            game_with(4),
            "{spec}: different seeds, different games"
        );
    }
}

#[test]
fn an_unknown_bot_lists_the_bots() {
    let err = bots::from_spec("minimax", 0).err().unwrap();
    assert!(err.contains("random, greedy"), "{err}");
}
