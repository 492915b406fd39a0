//! Bots: deterministic for a seed, and the greedy bot takes a win it can see.

use rulebook::bots::greedy::GreedyBot;
use rulebook::bots::{self, Bot};

use crate::common::{game, set_stack};

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
    for spec in [
        "random",
        "greedy",
        "alphabeta:depth=2",
        "mcts:iters=30,playout=40",
    ] {
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
fn an_unknown_bot_or_option_lists_what_exists() {
    let err = bots::from_spec("minimax", 0).err().unwrap();
    assert!(err.contains("random, greedy, alphabeta, mcts"), "{err}");
    let err = bots::from_spec("mcts:depth=3", 0).err().unwrap();
    assert!(err.contains("unknown option `depth`"), "{err}");
    assert!(err.contains("iters, ms, c, playout"), "{err}");
    let err = bots::from_spec("random:iters=3", 0).err().unwrap();
    assert!(err.contains("takes no options"), "{err}");
    let err = bots::from_spec("mcts:iters=3,ms=5", 0).err().unwrap();
    assert!(err.contains("not both"), "{err}");
}

/// Every game and player count the repository ships, with a short name.
fn every_game() -> Vec<(String, rulebook::engine::game::Game)> {
    let mut all = vec![
        ("bounce 6".to_string(), game("bounce", &[("size", "6")])),
        ("staqs".to_string(), game("staqs", &[])),
        ("vlkno".to_string(), game("vlkno", &[])),
        ("sight".to_string(), game("sight", &[])),
    ];
    for n in ["2", "3", "4"] {
        all.push((format!("splut {n}"), game("splut", &[("players", n)])));
    }
    all
}

#[test]
fn every_bot_plays_every_game_and_player_count() {
    // Short budgets and a ply cap: this is about legality and no panics, not strength.
    for (name, g) in every_game() {
        // VLKNO has over 2000 plies a position: one ply deep is search enough here.
        let alphabeta = if name == "vlkno" {
            "alphabeta:depth=1"
        } else {
            "alphabeta:depth=2"
        };
        for spec in ["random", "greedy", alphabeta, "mcts:iters=16,playout=20"] {
            let mut players: Vec<Box<dyn Bot>> = (0..g.players.len())
                .map(|i| bots::from_spec(spec, i as u64).unwrap())
                .collect();
            let mut s = g.start();
            for _ in 0..24 {
                if s.outcome.is_some() {
                    break;
                }
                let ply = players[s.to_move as usize]
                    .choose(&g, &s)
                    .unwrap_or_else(|| panic!("{name} {spec}: no ply in a running game"));
                assert!(
                    g.legal_plies(&s).contains(&ply),
                    "{name} {spec}: an illegal ply"
                );
                g.play(&mut s, &ply);
            }
        }
    }
}

#[test]
fn search_bots_take_an_immediate_win() {
    // The Bounce position of `greedy_takes_an_immediate_win`.
    let g = game("bounce", &[("size", "4")]);
    let mut s = g.start();
    for text in ["d3-d4", "c3-d3", "b1-c3", "d3-d1"] {
        let ply = g.parse_ply(&s, text).unwrap();
        g.play(&mut s, &ply);
    }
    for spec in ["mcts:iters=400", "alphabeta:depth=2", "alphabeta:ms=50"] {
        let mut bot = bots::from_spec(spec, 1).unwrap();
        let ply = bot.choose(&g, &s).unwrap();
        let mut next = s.clone();
        g.play(&mut next, &ply);
        assert_eq!(next.outcome.map(|o| o.winners), Some(vec![0]), "{spec}");
    }
}

#[test]
fn a_match_gives_the_same_table_for_the_same_seed_and_rotates_seats() {
    use rulebook::tournament::{MatchSettings, run};
    let g = game("bounce", &[("size", "4")]);
    let settings = MatchSettings {
        bots: vec!["greedy".into(), "random".into()],
        games: 12,
        seed: 7,
        jobs: 2,
        file: "games/bounce.toml".into(),
        transcripts: None,
    };
    let a = run(&g, &settings).unwrap();
    let dir = std::env::temp_dir().join(format!("rulebook-match-{}", std::process::id()));
    let b = run(
        &g,
        &MatchSettings {
            transcripts: Some(dir.to_string_lossy().into_owned()),
            ..settings
        },
    )
    .unwrap();
    // One transcript per game, each replaying to the result it records.
    for i in 1..=12 {
        let path = dir.join(format!("game-{i:03}.txt"));
        let text = std::fs::read_to_string(&path).unwrap();
        let t = rulebook::record::transcript::Transcript::parse(&text).unwrap();
        let end = t.replay(&g, |_, _| {}).unwrap();
        assert_eq!(
            rulebook::record::transcript::Transcript::result_of(&g, &end),
            t.result
        );
    }
    let results = |r: &rulebook::tournament::Report| {
        r.standings
            .iter()
            .map(|s| (s.label.clone(), s.wins, s.draws, s.losses, s.plies))
            .collect::<Vec<_>>()
    };
    assert_eq!(results(&a), results(&b));
    for s in &a.standings {
        assert_eq!(s.games, 12);
        assert_eq!(s.wins + s.draws + s.losses, 12);
    }
    assert_eq!(a.standings[0].wins, a.standings[1].losses);
    assert!(
        a.standings[0].score() > 0.5,
        "greedy beats random on Bounce 4x4"
    );
}

#[test]
fn bot_lists_split_on_commas_but_keep_options_together() {
    use rulebook::cli::split_bot_specs;
    assert_eq!(
        split_bot_specs("mcts:iters=500,c=2,random, greedy"),
        ["mcts:iters=500,c=2", "random", "greedy"]
    );
    assert_eq!(split_bot_specs("random,random"), ["random", "random"]);
}

#[test]
fn greedy_searches_its_own_turn_only_when_the_opponent_must_pass() {
    // Splut!, south's first turn (one step). North has only a sorcerer, boxed in on its
    // tip by a rock: it has no step, so its turn passes and south moves again. Greedy must
    // still look at south's one-step turn alone, not at the turns after the pass.
    let g = game("splut", &[]);
    let mut s = g.start();
    for c in 0..s.stacks().len() as u16 {
        s.edit_stack(c, |st| st.clear());
    }
    set_stack(&g, &mut s, "c3", &[("sorcerer", "south")]);
    set_stack(&g, &mut s, "e5", &[("troll", "south")]);
    set_stack(&g, &mut s, "e9", &[("sorcerer", "north")]);
    set_stack(&g, &mut s, "e8", &[("rock", "")]);
    let turn_plies = g.legal_plies(&s).len();
    assert!(turn_plies > 4, "south has a real choice: {turn_plies}");
    let mut bot = GreedyBot::new(1);
    let ply = bot.choose(&g, &s).expect("south can move");
    assert_eq!(
        bot.positions_seen(),
        turn_plies,
        "one step, one position per ply"
    );
    let mut next = s.clone();
    g.play(&mut next, &ply);
    assert_eq!(g.players[next.to_move as usize], "south", "north passed");
    assert_eq!(next.turn, 3, "south's second turn");
}
