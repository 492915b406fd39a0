//! Shogi (`games/shogi.toml`, rules in `docs/rules/shogi.md`): the published perft
//! counts from the start, the USI notation written with `{letter(...)}` and read back,
//! and hand-made positions that pin the rules of drops and promotion.

use rulebook::bots::Bot;
use rulebook::bots::random::RandomBot;
use rulebook::cli::{perft_exact, play_sequence};
use rulebook::engine::game::Game;
use rulebook::engine::state::State;
use rulebook::record::position_text;

use crate::common::{game, legal};

fn shogi() -> Game {
    game("shogi", &[])
}

/// The position a diagram sets up.
fn at(g: &Game, diagram: &str) -> State {
    position_text::read_any(g, diagram)
        .unwrap_or_else(|e| panic!("{e}"))
        .0
}

/// An empty rank, for diagrams.
const EMPTY: &str = ". . . . . . . . .";

#[test]
fn perft_from_the_start_matches_the_published_counts() {
    // Depth 5 (19,861,490) was checked by hand with the release build
    // (docs/rules/shogi.md).
    let g = shogi();
    for (depth, count) in [(1, 30), (2, 900), (3, 25_470), (4, 719_731)] {
        assert_eq!(perft_exact(&g, &g.start(), depth), count, "depth {depth}");
    }
}

#[test]
fn plies_are_written_in_usi_and_read_back() {
    let g = shogi();
    let start = g.start();
    let texts = legal(&g, &start);
    for t in ["7g7f", "2g2f", "2h1h", "5i4h", "1i1h"] {
        assert!(texts.contains(&t.to_string()), "{t}: {texts:?}");
    }
    // The bishop exchange: a capture that promotes, then a drop from the hand.
    let s =
        play_sequence(&g, "7g7f; 3c3d; 8h2b+; 3a2b; B*4e").unwrap_or_else(|e| panic!("{}", e.0));
    let b2 = g.board.find("h8").unwrap() as usize;
    assert_eq!(g.kinds[s.stacks()[b2][0].kind as usize].name, "silver");
    // 4e is f5: files count from the right, ranks are lettered from the top.
    let f5 = g.board.find("f5").unwrap() as usize;
    assert_eq!(g.kinds[s.stacks()[f5][0].kind as usize].name, "bishop");
    // White holds the bishop its silver took, demoted from a horse.
    assert!(legal(&g, &s).iter().any(|t| t.starts_with("B*")));
}

#[test]
fn a_pawn_dropped_to_mate_is_refused_and_one_that_checks_is_not() {
    let g = shogi();
    // White's king in the corner (9a), hemmed in by its own lance and knight; a pawn
    // dropped on 9b mates when black's gold on 8c guards it.
    let guarded = format!(
        "k l . . . . . . . / . n . . . . . . . / . G . . . . . . . / {EMPTY} / {EMPTY} / {EMPTY} / {EMPTY} / {EMPTY} / . . . . K . . . . / to_move = black / hand(black, pawn) = 1"
    );
    let texts = legal(&g, &at(&g, &guarded));
    assert!(!texts.contains(&"P*9b".to_string()), "pawn-drop mate");
    assert!(texts.contains(&"P*9c".to_string()));
    // Without the gold the king takes the pawn: a check, not a mate, and legal.
    let unguarded = guarded.replacen(". G . . . . . . .", ". . . . G . . . .", 1);
    assert!(legal(&g, &at(&g, &unguarded)).contains(&"P*9b".to_string()));
}

#[test]
fn drops_never_land_where_the_piece_could_not_move_nor_a_second_pawn_on_a_file() {
    let g = shogi();
    let diagram = format!(
        "k . . . . . . . . / . . P . . . . . . / {EMPTY} / {EMPTY} / . . . . P . . . . / {EMPTY} / {EMPTY} / {EMPTY} / . . . . K . . . . / to_move = black / hand(black, pawn) = 1 / hand(black, knight) = 1"
    );
    let texts = legal(&g, &at(&g, &diagram));
    let drops = |p: &str| texts.iter().filter(|t| t.starts_with(p)).count();
    // 77 empty squares, less rank a (8), file 5's (6 more) and file 7's (7 more).
    assert_eq!(drops("P*"), 56);
    assert!(
        texts
            .iter()
            .all(|t| !t.starts_with("P*5") && !t.starts_with("P*7"))
    );
    // A knight may not be dropped on the last two ranks: 77 less their 16 empty squares.
    assert_eq!(drops("N*"), 61);
    assert!(
        texts
            .iter()
            .all(|t| !(t.starts_with("N*") && (t.ends_with('a') || t.ends_with('b'))))
    );
    // A pawn reaching the last rank must promote; on the way it may.
    assert!(texts.contains(&"7b7a+".to_string()));
    assert!(!texts.contains(&"7b7a".to_string()));
    assert!(texts.contains(&"5e5d".to_string()));
    let one_short = diagram.replacen(". . P . . . . . .", EMPTY, 1).replacen(
        &format!("{EMPTY} / {EMPTY} / . . . . P"),
        &format!(". . P . . . . . . / {EMPTY} / . . . . P"),
        1,
    );
    let texts = legal(&g, &at(&g, &one_short));
    assert!(texts.contains(&"7c7b".to_string()) && texts.contains(&"7c7b+".to_string()));
}

#[test]
fn random_games_end() {
    let g = shogi();
    for seed in 0..2 {
        let mut bot = RandomBot::new(seed);
        let mut s = g.start();
        while let Some(ply) = bot.choose(&g, &s) {
            g.play(&mut s, &ply);
        }
        assert!(s.outcome.is_some(), "seed {seed}");
        assert!(s.plies <= 320, "seed {seed}: {}", s.plies);
    }
}
