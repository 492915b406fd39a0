//! Bots: deterministic for a seed; every bot takes the one winning ply among many, the
//! search bots avoid handing over a win and beat random by a clear margin.

use std::collections::HashMap;

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rulebook::bots::greedy::GreedyBot;
use rulebook::bots::random::RandomBot;
use rulebook::bots::{self, Bot};
use rulebook::engine::game::{Game, Ply};
use rulebook::engine::state::State;

use crate::common::{game, game_from_text, set_stack};

#[test]
fn bots_are_deterministic_for_a_seed() {
    let g = game("staqs", &[]);
    for spec in [
        "random",
        "greedy",
        "alphabeta:depth=2",
        "mcts:iters=30,playout=40",
        "mcts:iters=30,playout=40,threads=2",
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

/// Every game the repository ships, with each player count, and a short name (Bounce on
/// a 6x6 board, to keep it short).
fn every_game() -> Vec<(String, rulebook::engine::game::Game)> {
    let mut all = Vec::new();
    for name in crate::common::shipped_games() {
        match name.as_str() {
            "bounce" => all.push(("bounce 6".to_string(), game(name, &[("size", "6")]))),
            "splut" => {
                for n in ["2", "3", "4"] {
                    all.push((format!("splut {n}"), game(name, &[("players", n)])));
                }
            }
            _ => all.push((name.clone(), game(name, &[]))),
        }
    }
    all
}

#[test]
fn every_bot_plays_every_game_and_player_count() {
    // Short budgets and a ply cap: this is about legality and no panics, not strength.
    for (name, g) in every_game() {
        // VLKNO and Amazons have over 2000 plies a position: one ply deep is search
        // enough here.
        let alphabeta = if name == "vlkno" || name == "amazons" {
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
        shard: None,
    };
    let a = run(&g, &settings).unwrap();
    let dir = crate::common::Scratch::new("match");
    let b = run(
        &g,
        &MatchSettings {
            transcripts: Some(dir.to_string_lossy().into_owned()),
            ..settings
        },
    )
    .unwrap();
    // One transcript per game, each replaying to the result it records; the games won
    // from each seat, counted from them, are the report's.
    let mut seat_wins = vec![0; g.players.len()];
    let mut bot_wins: HashMap<String, usize> = HashMap::new();
    let mut first_seats = Vec::new();
    let mut draws = 0;
    for i in 1..=12 {
        let path = dir.join(format!("game-{i:03}.txt"));
        let text = std::fs::read_to_string(&path).unwrap();
        let t = rulebook::record::transcript::Transcript::parse(&text).unwrap();
        let end = t.replay(&g, |_, _| {}).unwrap();
        assert_eq!(
            rulebook::record::transcript::Transcript::result_of(&g, &end),
            t.result
        );
        let mut seated: Vec<&str> = t.seats.iter().map(|(_, bot)| bot.as_str()).collect();
        first_seats.push(seated[0].to_string());
        let winners = end.outcome.map(|o| o.winners).unwrap_or_default();
        draws += usize::from(winners.is_empty());
        for w in winners {
            seat_wins[w as usize] += 1;
            *bot_wins.entry(seated[w as usize].to_string()).or_default() += 1;
        }
        seated.sort_unstable();
        assert_eq!(seated, ["greedy", "random"], "game {i}");
    }
    // Seats rotate: each bot opens every other game, and the wins the transcripts give
    // each bot are the table's.
    for (i, first) in first_seats.iter().enumerate() {
        assert_eq!(first, &first_seats[i % 2], "{first_seats:?}");
    }
    assert_ne!(first_seats[0], first_seats[1]);
    for s in &a.standings {
        assert_eq!(
            s.wins,
            bot_wins.get(&s.label).copied().unwrap_or(0),
            "{}",
            s.label
        );
    }
    let by_seat: Vec<(String, usize)> = g.players.iter().cloned().zip(seat_wins).collect();
    assert_eq!(b.seats, by_seat);
    assert_eq!((a.seats.clone(), a.draws), (by_seat, draws));
    assert!(b.table().contains(&format!(
        "games won by seat: {} {}, {} {}, drawn {draws}\n",
        b.seats[0].0, b.seats[0].1, b.seats[1].0, b.seats[1].1
    )));
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
    crate::common::clear_board(&mut s);
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

/// Whether playing `ply` ends the game with `player` among the winners... alone.
fn wins(g: &Game, s: &State, ply: &Ply, player: u8) -> bool {
    let mut next = s.clone();
    g.play(&mut next, ply);
    next.outcome.is_some_and(|o| o.winners == [player])
}

/// Whether the player to move after `ply` can win at once.
fn hands_a_win(g: &Game, s: &State, ply: &Ply) -> bool {
    let mut next = s.clone();
    g.play(&mut next, ply);
    next.outcome.is_none()
        && next.to_move != s.to_move
        && g.legal_plies(&next)
            .iter()
            .any(|reply| wins(g, &next, reply, next.to_move))
}

/// Positions of seeded random games (random plies) that pass `keep`, at most `wanted`.
fn find_positions(g: &Game, wanted: usize, keep: impl Fn(&State, &[Ply]) -> bool) -> Vec<State> {
    let mut found = Vec::new();
    for seed in 0..400u64 {
        let mut bot = RandomBot::new(seed);
        let mut s = g.start();
        while s.outcome.is_none() && found.len() < wanted {
            let legal = g.legal_plies(&s);
            if keep(&s, &legal) {
                found.push(s.clone());
                break;
            }
            let ply = bot.choose(g, &s).expect("a ply");
            g.play(&mut s, &ply);
        }
        if found.len() == wanted {
            break;
        }
    }
    assert_eq!(found.len(), wanted, "positions found");
    found
}

const BOTS: [&str; 4] = [
    "greedy",
    "alphabeta:depth=2",
    "alphabeta:ms=200",
    "mcts:iters=600",
];

#[test]
fn every_bot_finds_the_one_winning_ply_among_many() {
    // Bounce 6x6 and Sight positions with at least 12 legal plies of which exactly one wins
    // at once: a bot that picked anything else, or the first ply, or a random one, fails.
    for (name, params) in [("bounce", &[("size", "6")][..]), ("sight", &[][..])] {
        let g = game(name, params);
        let positions = find_positions(&g, 3, |s, legal| {
            legal.len() >= 12
                && legal.iter().filter(|p| wins(&g, s, p, s.to_move)).count() == 1
                && !wins(&g, s, &legal[0], s.to_move)
        });
        for (i, s) in positions.iter().enumerate() {
            for spec in BOTS {
                let ply = bots::from_spec(spec, 5).unwrap().choose(&g, s).unwrap();
                assert!(
                    wins(&g, s, &ply, s.to_move),
                    "{name} position {i}: {spec} played {}\n{}",
                    g.notation(s, &ply),
                    rulebook::render::board::render(&g, s)
                );
            }
        }
    }
}

/// Whether `me`, to move at `s`, can win alone with plies of its own before turn `turn`
/// ends (every line tried).
fn wins_this_turn(g: &Game, s: &State, me: u8, turn: u32) -> bool {
    if let Some(o) = &s.outcome {
        return o.winners == [me];
    }
    s.turn == turn
        && s.to_move == me
        && g.legal_plies(s).iter().any(|ply| {
            let mut next = s.clone();
            g.play(&mut next, ply);
            wins_this_turn(g, &next, me, turn)
        })
}

#[test]
fn mcts_plays_a_win_that_takes_the_rest_of_its_turn() {
    // Splut! positions at the first step of a three-step turn where no step wins at once
    // but two or three do (a troll walks to a rock and throws it at a sorcerer), among at
    // least 12 steps of which at most a third begin such a line: with 50 iterations,
    // random playouts would rarely find it; MCTS must play a step that begins one.
    let g = game("splut", &[]);
    let starts = |s: &State, ply: &Ply| {
        let mut next = s.clone();
        g.play(&mut next, ply);
        wins_this_turn(&g, &next, s.to_move, s.turn)
    };
    let positions = find_positions(&g, 3, |s, legal| {
        s.turn >= 3
            && s.ply_in_turn == 1
            && legal.len() >= 12
            && !legal.iter().any(|p| wins(&g, s, p, s.to_move))
            && (1..=legal.len() / 3).contains(&legal.iter().filter(|p| starts(s, p)).count())
    });
    for (i, s) in positions.iter().enumerate() {
        for seed in 0..3 {
            let ply = bots::from_spec("mcts:iters=50", seed)
                .unwrap()
                .choose(&g, s)
                .unwrap();
            assert!(
                starts(s, &ply),
                "position {i}, seed {seed}: mcts played {}, from which no win this turn\n{}",
                g.notation(s, &ply),
                rulebook::render::board::render(&g, s)
            );
        }
    }
}

#[test]
fn greedy_and_alphabeta_avoid_a_loss_in_two() {
    // Bounce 6x6 positions where no ply wins at once, at least 12 plies are legal, and at
    // most a third of them do not hand the opponent a win: alpha-beta must pick one of
    // those few, and so must greedy, which checks the replies of the plies it likes best.
    // (MCTS: `mcts_proves_a_ply_lost_once_the_reply_that_wins_is_in_its_tree`.)
    let g = game("bounce", &[("size", "6")]);
    let positions = few_safe_plies(&g, 3, 12, 3);
    for spec in ["greedy", "alphabeta:depth=2", "alphabeta:ms=200"] {
        assert_hands_no_win(&g, &positions, spec, 5..6);
    }
}

/// Positions of seeded random games where no ply wins at once, at least `least` plies
/// are legal, and at most one in `one_in` of them does not hand the opponent a win (but
/// one does), `wanted` of them.
fn few_safe_plies(g: &Game, wanted: usize, least: usize, one_in: usize) -> Vec<State> {
    find_positions(g, wanted, |s, legal| {
        if legal.len() < least || legal.iter().any(|p| wins(g, s, p, s.to_move)) {
            return false;
        }
        let safe = legal.iter().filter(|p| !hands_a_win(g, s, p)).count();
        safe >= 1 && safe * one_in <= legal.len()
    })
}

/// Asserts that the bot `spec`, with each of the `seeds`, hands the opponent no win at
/// once from any of `positions`.
fn assert_hands_no_win(g: &Game, positions: &[State], spec: &str, seeds: std::ops::Range<u64>) {
    for (i, s) in positions.iter().enumerate() {
        for seed in seeds.clone() {
            let ply = bots::from_spec(spec, seed).unwrap().choose(g, s).unwrap();
            assert!(
                !hands_a_win(g, s, &ply),
                "position {i}, seed {seed}: {spec} played {}, which hands the opponent a win\n{}",
                g.notation(s, &ply),
                rulebook::render::board::render(g, s)
            );
        }
    }
}

#[test]
fn greedy_refuses_a_ply_that_hands_a_win_in_clobber_where_its_eval_cannot_see_it() {
    // Clobber's last mover wins; positions with at least 4 plies, none winning at once,
    // where at most half do not let the opponent move last at once. The file's `[eval]`
    // names the winner of small endgames, so greedy plays a copy whose `[eval]` is flat:
    // only its look at the replies can keep it from the losing plies.
    let g = game("clobber", &[]);
    let positions = few_safe_plies(&g, 3, 4, 2);
    let text = std::fs::read_to_string(crate::common::game_path("clobber")).unwrap();
    let rules = &text[..text.find("[eval]").expect("an [eval]")];
    let blind = game_from_text(
        "clobber-blind.toml",
        format!("{rules}[eval]\nscore = '0'\n"),
        &[],
    );
    assert_hands_no_win(&blind, &positions, "greedy", 0..4);
}

#[test]
fn clobbers_eval_names_the_winner_once_every_region_is_small() {
    // The file's `[eval]` claims to know the winner (±1000) once every region with a move
    // left has at most three stones (n ups minus downs, m stars): a full search of each
    // such position of seeded random games, on three board sizes, must agree, and so must
    // the other player's view. A copy of the file whose `[eval]` reads out n and m, played
    // in step, shows that every case of the rule was met: n = 0, |n| = 1 and |n| >= 2,
    // each with m odd and even.
    let text = std::fs::read_to_string(crate::common::game_path("clobber")).unwrap();
    let rules = &text[..text.find("[eval]").expect("an [eval]")];
    let probe_text = format!("{rules}[eval]\nscore = '100 * ups + stars'\n");
    let mut cases = HashMap::new();
    for (columns, rows) in [("5", "6"), ("6", "6"), ("4", "5")] {
        let params = [("columns", columns), ("rows", rows)];
        let g = game("clobber", &params);
        let probe = game_from_text("clobber-probe.toml", probe_text.clone(), &params);
        let mut memo = HashMap::new();
        for seed in 0..100u64 {
            let mut bot = RandomBot::new(seed);
            let (mut s, mut ps) = (g.start(), probe.start());
            while s.outcome.is_none() {
                let me = s.to_move;
                let claim = bots::heuristic(&g, &s, me);
                if claim.abs() == 1000 {
                    let truth = perfect_value(&g, &s, me, &mut memo);
                    let them = bots::heuristic(&g, &s, 1 - me);
                    assert!(
                        i64::from(truth) * 1000 == claim && them == -claim,
                        "{columns}x{rows}, seed {seed}: the eval says {claim} for the player \
                         to move ({them} for the other), a full search {truth}\n{}",
                        rulebook::render::board::render(&g, &s)
                    );
                    let nm = bots::heuristic(&probe, &ps, me);
                    let (n, m) = (nm.div_euclid(100), nm.rem_euclid(100));
                    *cases.entry((n.abs().min(2), m % 2)).or_insert(0) += 1;
                }
                let ply = bot.choose(&g, &s).expect("a ply");
                let text = g.notation(&s, &ply);
                g.play(&mut s, &ply);
                let same = probe
                    .legal_plies(&ps)
                    .into_iter()
                    .find(|p| probe.notation(&ps, p) == text);
                probe.play(&mut ps, &same.expect("the same ply in the copy"));
            }
        }
    }
    for n in 0..=2 {
        for m in 0..=1 {
            let seen = cases.get(&(n, m)).copied().unwrap_or(0);
            assert!(
                seen >= 3,
                "|n| = {n} (2: or more), m % 2 = {m}: {seen} positions; {cases:?}"
            );
        }
    }
    let decided: i32 = cases.values().sum();
    assert!(decided >= 300, "only {decided} positions were decided");
}

#[test]
fn search_bots_beat_random_by_a_clear_margin() {
    use rulebook::tournament::{MatchSettings, run};
    let g = game("staqs", &[]);
    for spec in ["alphabeta:depth=2", "mcts:iters=150"] {
        let settings = MatchSettings {
            bots: vec![spec.into(), "random".into()],
            games: 16,
            seed: 11,
            jobs: 2,
            file: "games/staqs.toml".into(),
            transcripts: None,
            shard: None,
        };
        let report = run(&g, &settings).unwrap();
        let score = report.standings[0].score();
        assert!(score >= 0.8, "{spec} scored {score:.2} against random");
    }
}

#[test]
fn a_match_refuses_absurd_worker_counts_and_keeps_its_table_whatever_the_threads() {
    use rulebook::tournament::{MatchSettings, run};
    let g = game("bounce", &[("size", "4")]);
    let settings = |jobs| MatchSettings {
        bots: vec!["greedy".into(), "random".into()],
        games: 9,
        seed: 3,
        jobs,
        file: "games/bounce.toml".into(),
        transcripts: None,
        shard: None,
    };
    let err = run(&g, &settings(10_000)).expect_err("refused");
    assert!(err.contains("--jobs takes at most 256"), "{err}");
    // Games are added to per-thread totals as they end: one thread or two, same table.
    let table = |jobs| {
        run(&g, &settings(jobs))
            .unwrap()
            .standings
            .iter()
            .map(|s| (s.label.clone(), s.games, s.wins, s.draws, s.losses, s.plies))
            .collect::<Vec<_>>()
    };
    assert_eq!(table(1), table(2));
    assert_eq!(table(1).iter().map(|r| r.1).sum::<usize>(), 18);
}

#[test]
fn mcts_with_one_thread_is_the_serial_search_and_two_threads_stay_deterministic() {
    let g = game("tictactoe", &[]);
    let plies = |spec: &str| {
        let mut bot = bots::from_spec(spec, 9).unwrap();
        let mut s = g.start();
        let mut texts = Vec::new();
        while s.outcome.is_none() {
            let ply = bot.choose(&g, &s).unwrap();
            texts.push(g.notation(&s, &ply));
            g.play(&mut s, &ply);
        }
        texts
    };
    assert_eq!(plies("mcts:iters=300"), plies("mcts:iters=300,threads=1"));
    assert_eq!(
        plies("mcts:iters=300,threads=2"),
        plies("mcts:iters=300,threads=2")
    );
    // Four threads growing one tree, searched twice: the same statistics to the last
    // visit and reward, however the threads were timed.
    use rulebook::bots::mcts::{Budget, MctsBot, Settings};
    let g = game("connect4", &[]);
    let settings = Settings {
        threads: 4,
        ..Settings::default()
    };
    let advice = || {
        let mut bot = MctsBot::with_settings(3, Budget::Iterations(500), settings);
        let a = bot.search(&g, &g.start()).0.unwrap();
        (a.ply, a.visits, a.total, a.tried, a.score.to_bits())
    };
    assert_eq!(advice(), advice());
}

#[test]
fn mcts_threads_beyond_the_cores_grow_the_tree_the_threads_would() {
    // Issue 49: `threads=64` on two cores took 1.6 s for 100 iterations, the thread whose
    // turn it was waiting for a core. Workers now share the cores, taking their turns in
    // the same order: one, two or eight threads for eight workers grow one same tree.
    use rulebook::bots::mcts::{Budget, MctsBot, Settings};
    let g = game("connect4", &[]);
    let settings = Settings {
        threads: 8,
        ..Settings::default()
    };
    let advice = |cores: usize| {
        let mut bot =
            MctsBot::with_settings(11, Budget::Iterations(300), settings).with_cores(cores);
        let (a, iterations) = bot.search(&g, &g.start());
        let a = a.unwrap();
        (
            a.ply,
            a.visits,
            a.total,
            a.tried,
            a.score.to_bits(),
            iterations,
        )
    };
    let one = advice(1);
    assert_eq!(one.5, 8 * 300);
    assert_eq!(advice(2), one);
    assert_eq!(advice(3), one);
    assert_eq!(advice(8), one);
}

#[test]
fn mcts_threads_grow_one_tree_and_lose_no_visit() {
    use rulebook::bots::mcts::{Budget, MctsBot, Settings};
    let g = game("connect4", &[]);
    let start = g.start();
    for threads in [2, 4] {
        let settings = Settings {
            threads,
            ..Settings::default()
        };
        let mut bot = MctsBot::with_settings(5, Budget::Iterations(2000), settings);
        let (first, iterations) = bot.search(&g, &start);
        let first = first.unwrap();
        // Each thread ran its 2,000 iterations, and every one went through one child of
        // the root of the one tree they share.
        assert_eq!(iterations, 2000 * threads as u64);
        assert_eq!(first.total, iterations);
        assert!(g.legal_plies(&start).contains(&first.ply));
        // The next search keeps the ply's node, whose visits but the one that created it
        // went on to its children (one tree: one creating visit, whatever the threads).
        let mut next = start.clone();
        g.play(&mut next, &first.ply);
        let (second, _) = bot.search(&g, &next);
        assert_eq!(second.unwrap().total, first.visits - 1 + iterations);
    }
}

#[test]
fn mcts_threads_find_the_one_ply_that_does_not_lose() {
    // Tic-tac-toe, x to move with a1 and c3 against o's b1 and b2: any ply but b3 lets o
    // complete the b file, and x has no line to complete at once.
    let g = game("tictactoe", &[]);
    let mut s = g.start();
    crate::common::play(&g, &mut s, "a1; b1; c3; b2");
    for seed in 0..4 {
        let mut bot = bots::from_spec("mcts:iters=200,threads=2", seed).unwrap();
        let ply = bot.choose(&g, &s).unwrap();
        assert_eq!(g.notation(&s, &ply), "b3", "seed {seed}");
    }
}

#[test]
fn mcts_keeps_the_subtree_of_the_ply_played_and_only_that() {
    use rulebook::bots::mcts::{Budget, MctsBot};
    let g = game("tictactoe", &[]);
    let start = g.start();
    let mut bot = MctsBot::new(7, Budget::Iterations(500));
    let first = bot.search(&g, &start).0.unwrap();
    assert_eq!(first.total, 500);
    let mut next = start.clone();
    g.play(&mut next, &first.ply);
    // Every visit to the ply's node but the one that created it went on to one of its
    // children, which become the root's: the new search starts from those.
    let second = bot.search(&g, &next).0.unwrap();
    assert_eq!(second.total, first.visits - 1 + 500);
    // A position that does not follow the last one searched starts a fresh tree.
    let again = bot.search(&g, &start).0.unwrap();
    assert_eq!(again.total, 500);
    let fresh = MctsBot::new(7, Budget::Iterations(500)).search(&g, &next).0;
    assert_eq!(fresh.unwrap().total, 500);
}

#[test]
fn mcts_stops_at_its_time_budget_by_the_clock_readings_and_always_has_a_ply() {
    use rulebook::bots::Clock;
    use rulebook::bots::mcts::{Budget, MctsBot, Settings};
    use std::time::Duration;
    // A stepped clock moves 1 ms at each reading, so a 50 ms budget is 49 readings that
    // let an iteration run and the 50th that stops the search, per thread.
    let step = Clock::Stepped(Duration::from_millis(1));
    let g = game("tictactoe", &[]);
    for threads in [1, 2] {
        let settings = Settings {
            threads,
            ..Settings::default()
        };
        let mut bot = MctsBot::with_settings(1, Budget::Time(Duration::from_millis(50)), settings)
            .with_clock(step);
        let (advice, iterations) = bot.search(&g, &g.start());
        assert_eq!(iterations, 49 * threads as u64);
        assert_eq!(advice.unwrap().total, 49 * threads as u64);
    }
    // VLKNO's 2,280 opening plies are ordered with a reading every 64: a 10 ms budget is
    // spent before they are all judged, and the search still answers with one iteration.
    let g = game("vlkno", &[]);
    let mut bot = MctsBot::new(1, Budget::Time(Duration::from_millis(10))).with_clock(step);
    let (advice, iterations) = bot.search(&g, &g.start());
    assert_eq!(iterations, 1);
    assert!(advice.is_some());
}

#[test]
fn mcts_cuts_playouts_off_by_default_where_random_games_do_not_end() {
    // Issue 49: in a game with no `[eval]` whose random games never end, every playout
    // ran to the playout cap, at every ply of a game as long as the game's cap.
    use rulebook::bots::mcts::{Cutoff, Settings};
    use rulebook::compile::DEFAULT_EVAL_CUTOFF;
    let default = Settings::default();
    assert_eq!(default.cutoff, Cutoff::Auto);
    let never = game_from_text(
        "never_ends.toml",
        std::fs::read_to_string(format!(
            "{}/tests/games/never_ends.toml",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
        &[],
    );
    assert!(never.eval.is_none());
    assert_eq!(
        default.cutoff_in(&never, &never.start()),
        Some(DEFAULT_EVAL_CUTOFF)
    );
    // Where one of the probes ends, playouts are played out: in tic-tac-toe every one.
    let mut ttt = game("tictactoe", &[]);
    ttt.eval = None;
    assert_eq!(default.cutoff_in(&ttt, &ttt.start()), None);
    // `cutoff=0` still asks for full playouts, wherever.
    let off = Settings {
        cutoff: Cutoff::Off,
        ..default
    };
    assert_eq!(off.cutoff_in(&never, &never.start()), None);
}

#[test]
fn mcts_cuts_playouts_off_by_default_only_in_games_with_an_eval_and_cutoff_0_turns_it_off() {
    use rulebook::bots::mcts::{Cutoff, MctsBot};
    use rulebook::bots::spec::Spec;
    use rulebook::compile::DEFAULT_EVAL_CUTOFF;
    let with_eval = game("breakthrough", &[]);
    assert!(with_eval.eval.is_some());
    let mut bare = with_eval.clone();
    bare.eval = None;
    let from = |text: &str| MctsBot::from_spec(&mut Spec::parse(text).unwrap(), 1);
    let default = from("mcts:ms=200").unwrap().settings();
    assert_eq!(default.cutoff, Cutoff::Auto);
    let (start, bare_start) = (with_eval.start(), bare.start());
    assert_eq!(
        default.cutoff_in(&with_eval, &start),
        Some(DEFAULT_EVAL_CUTOFF)
    );
    assert_eq!(default.cutoff_in(&bare, &bare_start), None);
    // A game file may say how far its heuristic can be trusted: Hex keeps full playouts.
    let hex = game("hex", &[]);
    assert_eq!(default.cutoff_in(&hex, &hex.start()), None);
    let off = from("mcts:cutoff=0").unwrap().settings();
    assert_eq!(off.cutoff, Cutoff::Off);
    assert_eq!(off.cutoff_in(&with_eval, &start), None);
    let twenty = from("mcts:cutoff=20").unwrap().settings();
    assert_eq!(twenty.cutoff_in(&with_eval, &start), Some(20));
    assert_eq!(
        twenty.cutoff_in(&bare, &bare_start),
        Some(20),
        "asked for, it applies anywhere"
    );
    for nonsense in ["none", "-1", "1.5", "", "1000001"] {
        let err = bots::from_spec(&format!("mcts:cutoff={nonsense}"), 0)
            .err()
            .unwrap_or_else(|| panic!("cutoff={nonsense} was accepted"));
        assert!(err.contains("cutoff="), "{err}");
    }
    // Either way the bot plays: a search with the default cut-off and one without.
    let s = with_eval.start();
    for spec in ["mcts:iters=50", "mcts:iters=50,cutoff=0"] {
        let ply = bots::from_spec(spec, 3)
            .unwrap()
            .choose(&with_eval, &s)
            .unwrap();
        assert!(with_eval.legal_plies(&s).contains(&ply), "{spec}");
    }
}

/// Tic-tac-toe's value for `me` under perfect play from `s`: 1 a win, 0 a draw, -1 a
/// loss; memoised by the drawn board, which shows the player to move.
fn perfect_value(g: &Game, s: &State, me: u8, memo: &mut HashMap<(String, u8), i8>) -> i8 {
    if let Some(o) = &s.outcome {
        return match () {
            _ if o.winners.is_empty() => 0,
            _ if o.winners.contains(&me) => 1,
            _ => -1,
        };
    }
    let key = (rulebook::render::board::render(g, s), me);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let values = g.legal_plies(s).into_iter().map(|ply| {
        let mut next = s.clone();
        g.play(&mut next, &ply);
        perfect_value(g, &next, me, memo)
    });
    let v = if s.to_move == me {
        values.max()
    } else {
        values.min()
    }
    .expect("a legal ply");
    memo.insert(key, v);
    v
}

#[test]
fn alphabeta_and_mcts_never_lose_at_tic_tac_toe_against_a_perfect_player() {
    // The perfect player picks, by its seed, among the plies that keep its perfect-play
    // value; each bot plays both seats against eight of its seeds.
    let g = game("tictactoe", &[]);
    let mut memo = HashMap::new();
    for spec in ["alphabeta:depth=9", "mcts:iters=5000"] {
        for seed in 0..16u64 {
            let seat = (seed % 2) as u8;
            let mut bot = bots::from_spec(spec, seed).unwrap();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut s = g.start();
            let mut texts = Vec::new();
            while s.outcome.is_none() {
                let ply = if s.to_move == seat {
                    bot.choose(&g, &s).unwrap()
                } else {
                    let me = s.to_move;
                    let legal = g.legal_plies(&s);
                    let values: Vec<i8> = legal
                        .iter()
                        .map(|p| {
                            let mut next = s.clone();
                            g.play(&mut next, p);
                            perfect_value(&g, &next, me, &mut memo)
                        })
                        .collect();
                    let top = *values.iter().max().unwrap();
                    let best: Vec<&Ply> = legal
                        .iter()
                        .zip(&values)
                        .filter(|(_, v)| **v == top)
                        .map(|(p, _)| p)
                        .collect();
                    best[rng.random_range(0..best.len())].clone()
                };
                texts.push(g.notation(&s, &ply));
                g.play(&mut s, &ply);
            }
            let lost = s
                .outcome
                .as_ref()
                .is_some_and(|o| !o.winners.is_empty() && !o.winners.contains(&seat));
            assert!(
                !lost,
                "{spec} as {} lost: {}",
                g.players[seat as usize],
                texts.join(" ")
            );
        }
    }
}

#[test]
fn alphabeta_stops_deepening_when_its_clock_readings_run_out() {
    use rulebook::bots::Clock;
    use rulebook::bots::alphabeta::{AlphaBetaBot, Budget};
    use std::time::Duration;
    // The clock is read at every inner node and moves 1 ms a reading. In tic-tac-toe's
    // opening, depth 1 reads it 0 times, depth 2 nine times, depth 3 81 more: a 5 ms
    // budget runs out during depth 2 and a 20 ms one during depth 3, and the ply played
    // is the one the deepest finished iteration chose.
    let g = game("tictactoe", &[]);
    let s = g.start();
    let timed = |seed, ms| {
        AlphaBetaBot::new(seed, Budget::Time(Duration::from_millis(ms)))
            .with_clock(Clock::Stepped(Duration::from_millis(1)))
            .choose(&g, &s)
            .unwrap()
    };
    let deep = |seed, depth| {
        AlphaBetaBot::new(seed, Budget::Depth(depth))
            .choose(&g, &s)
            .unwrap()
    };
    for seed in 0..8 {
        assert_eq!(timed(seed, 5), deep(seed, 1), "seed {seed}");
        assert_eq!(timed(seed, 20), deep(seed, 2), "seed {seed}");
    }
}

#[test]
fn a_game_file_sets_how_many_plies_mcts_plays_before_scoring_by_its_eval() {
    use rulebook::bots::mcts::Settings;
    use rulebook::{compile, spec};
    let text = std::fs::read_to_string(crate::common::game_path("tictactoe")).unwrap();
    assert!(text.contains("[eval]\n"));
    let with = |key: &str| text.replace("[eval]\n", &format!("[eval]\n{key}\n"));
    let load = |text: String| {
        compile::compile(&spec::parse("t.toml", text).unwrap(), &[]).map_err(|d| d.to_string())
    };
    let auto = Settings::default();
    let cutoff = |g: Game| auto.cutoff_in(&g, &g.start());
    assert_eq!(cutoff(load(with("cutoff = 7")).unwrap()), Some(7));
    assert_eq!(cutoff(load(with("cutoff = 0")).unwrap()), None);
    assert_eq!(
        cutoff(load(text.clone()).unwrap()),
        Some(compile::DEFAULT_EVAL_CUTOFF)
    );
    for bad in ["cutoff = -1", "cutoff = 1000001"] {
        let err = load(with(bad)).expect_err(bad);
        assert!(
            err.contains("cutoff must be a whole number from 0"),
            "{err}"
        );
        assert!(err.contains("t.toml:"), "located: {err}");
    }
}

#[test]
fn mcts_proves_a_ply_lost_once_the_reply_that_wins_is_in_its_tree() {
    // The positions of `greedy_and_alphabeta_avoid_a_loss_in_two`, more of them: with
    // 1,000 iterations and three seeds each, MCTS without its solver handed the opponent
    // a win in 18 of 60 of these choices (16 of 60 with 2,000), with it in none. A reply
    // that wins ends the game in the tree; that proves the ply before it lost, and the
    // search never picks it again.
    let g = game("bounce", &[("size", "6")]);
    let positions = few_safe_plies(&g, 20, 12, 3);
    assert_hands_no_win(&g, &positions, "mcts:iters=1000", 0..3);
}

#[test]
fn mcts_proves_a_fork_won_and_stops_searching() {
    use rulebook::bots::mcts::{Budget, MctsBot};
    // Tic-tac-toe, x on a1 and c3, o on b2 and c1, x to move: a3 blocks o's diagonal and
    // threatens both a2 and b3, so every reply of o loses. Proving it takes every reply
    // of o in the tree, each proven lost by the win after it, and then the node of a3
    // proven won because all its plies are; the root follows, and the search stops long
    // before its budget.
    let g = game("tictactoe", &[]);
    let mut s = g.start();
    crate::common::play(&g, &mut s, "a1; b2; c3; c1");
    let budget = 100_000;
    let mut bot = MctsBot::new(1, Budget::Iterations(budget));
    let (advice, iterations) = bot.search(&g, &s);
    let advice = advice.expect("a ply");
    assert_eq!(g.notation(&s, &advice.ply), "a3");
    assert!(iterations < budget / 10, "{iterations} iterations");
}
