//! Go: the interpreter against the independent reference (`reference/go.rs`, written
//! from `docs/rules/go.md` only). Seeded self-play traces are replayed ply by ply (legal
//! lists, players, results), perft counts are compared from the start and from positions
//! reached in play, and hand-played positions pin captures, suicide, superko and the
//! score with its komi.

use rulebook::engine::game::Game;
use serde_json::json;

use crate::common;
use crate::reference::go::{Go, Move};
use crate::reference::{GameResult, Reference};
use crate::traces::{check_seeds, compare_perft, compare_perft_midgame};

/// Go on a `size` board with a komi of `komi` tenths of a point (what the score
/// expressions see); the parameter is typed in points.
fn go(size: usize, komi: i64) -> Game {
    common::game(
        "go",
        &[
            ("size", &size.to_string()),
            ("komi", &format!("{}.{}", komi / 10, komi % 10)),
        ],
    )
}

/// Fifty games on the default board: every legal list, every player to move and every
/// result agree with the reference (random games end by two passes, rule 8).
#[test]
fn go_9x9_traces_match_reference() {
    check_seeds(
        "go 9x9",
        "go",
        &go(9, 75),
        0..50,
        || Go::new(9, 75),
        json!({"size": 9, "komi": 7.5}),
    );
}

/// On a small board captures, suicide refusals and superko come up far more often per
/// ply; a whole-point komi of 0 lets games be drawn.
#[test]
fn go_5x5_traces_match_reference() {
    check_seeds(
        "go 5x5",
        "go",
        &go(5, 0),
        0..100,
        || Go::new(5, 0),
        json!({"size": 5, "komi": 0.0}),
    );
}

/// Perft from the empty board: 82 plies (81 points and the pass); then 80 points and the
/// pass after a placement, 81 and the pass after a pass; at depth 3, 80 plies after two
/// placements, 81 after a placement and a pass either way round, and the game that two
/// passes ended counts once (a leaf).
#[test]
fn go_perft_matches_reference() {
    let counts = compare_perft("go 9x9", &go(9, 75), &Go::new(9, 75), 3);
    assert_eq!(counts, [82, 81 * 81 + 82, 81 * 80 * 80 + 2 * 81 * 81 + 1]);
    compare_perft("go 5x5", &go(5, 0), &Go::new(5, 0), 4);
}

/// Perft to depth 3 from positions reached in self-play, on 5x5 (where they are full of
/// captures and points forbidden by suicide or superko) and on 9x9.
#[test]
fn go_midgame_perft_matches_reference() {
    let small = compare_perft_midgame(
        "go 5x5",
        &go(5, 0),
        || Go::new(5, 0),
        0..20,
        &[10, 20, 30, 40, 60],
        3,
    );
    assert!(small >= 50, "too few 5x5 positions: {small}");
    let large = compare_perft_midgame("go 9x9", &go(9, 75), || Go::new(9, 75), 0..3, &[60, 100], 3);
    assert!(large >= 4, "too few 9x9 positions: {large}");
}

/// The games replayed above exercise the rules: captures, placements refused as suicide
/// and as a repeated board, and both results.
#[test]
fn self_play_exercises_every_rule() {
    let game = go(5, 0);
    let (mut captures, mut suicides, mut superko, mut draws) = (0, 0, 0, 0);
    for seed in 0..100 {
        let mut pos = Go::new(5, 0);
        for text in crate::common::trace_moves(&game, "go", seed) {
            let me = pos.to_move;
            for p in 0..25 {
                if pos.board[p].is_some() {
                    continue;
                }
                let mut board = pos.board.clone();
                board[p] = Some(me);
                let takes = pos
                    .neighbours(p)
                    .into_iter()
                    .any(|n| board[n] == Some(1 - me) && pos.liberties(&board, n) == 0);
                if !takes && pos.liberties(&board, p) == 0 {
                    suicides += 1;
                } else if takes && !pos.legal().contains(&pos.notation(&Move::Place(p))) {
                    superko += 1;
                }
            }
            let stones = pos.board.iter().filter(|s| s.is_some()).count();
            pos.play(&text)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            if pos.board.iter().filter(|s| s.is_some()).count() < stones {
                captures += 1;
            }
        }
        draws += usize::from(pos.result == Some(GameResult::Draw));
    }
    eprintln!(
        "go 5x5 self-play: {captures} captures, {suicides} suicide points, {superko} superko points, {draws} draws"
    );
    assert!(captures > 0 && suicides > 0 && superko > 0 && draws > 0);
}

/// Rules 4-6: black fills white's last liberty and takes the stone; white may not play
/// back into the corner, where a stone would have no liberty and take nothing.
#[test]
fn a_chain_without_liberty_is_taken_and_suicide_is_refused() {
    let g = go(9, 75);
    let mut s = g.start();
    assert_eq!(common::legal(&g, &s).len(), 82);
    common::play(&g, &mut s, "a2; a1; b1");
    assert_eq!(common::height(&g, &s, "a1"), 0, "a1 was taken");
    let legal = common::legal(&g, &s);
    assert!(!legal.contains(&"a1".to_string()), "suicide");
    assert_eq!(legal.len(), 81 - 2 - 1 + 1, "78 points and the pass");
}

/// Rule 7: in a ko, the stone just taken cannot be retaken at once (the board would be
/// the one before the capture); after a move elsewhere by each player it can.
#[test]
fn positional_superko_forbids_retaking_a_ko_at_once() {
    let g = go(9, 75);
    let mut s = g.start();
    common::play(&g, &mut s, "b1; c1; a2; d2; b3; c3; pass; b2");
    // Black takes b2's stone by playing c2; white's b2 would take c2 back.
    common::play(&g, &mut s, "c2");
    assert_eq!(common::height(&g, &s, "b2"), 0);
    assert!(!common::legal(&g, &s).contains(&"b2".to_string()));
    common::play(&g, &mut s, "h8; h2");
    assert!(common::legal(&g, &s).contains(&"b2".to_string()));
    common::play(&g, &mut s, "b2");
    assert_eq!(common::height(&g, &s, "c2"), 0, "the ko was retaken");
}

/// Rules 8-10 on a 3x3 board: black walls off the a file and white lives on c2, so
/// black has 3 stones and 3 points (60 tenths) and white 1 stone (10) and the komi of
/// 7.5: white wins by 2.5 points. With no komi, black wins.
#[test]
fn two_passes_end_the_game_and_area_with_komi_decides() {
    for (komi, winner) in [(75, "white"), (0, "black")] {
        let g = go(3, komi);
        let mut s = g.start();
        common::play(&g, &mut s, "b1; c2; b2; pass; b3; pass");
        assert!(s.outcome.is_none(), "one pass does not end the game");
        common::play(&g, &mut s, "pass");
        let outcome = s
            .outcome
            .as_ref()
            .expect("two passes in a row end the game");
        assert_eq!(g.scores(&s), [vec![60], vec![10 + komi]]);
        let w = g.players.iter().position(|p| p == winner).unwrap() as u8;
        assert_eq!(outcome.winners, [w]);
    }
    // Two passes on the empty board: no area for anyone, the komi decides; without one
    // the scores are equal, a draw.
    for (komi, winners) in [(75, vec![1u8]), (0, vec![])] {
        let g = go(9, komi);
        let mut s = g.start();
        common::play(&g, &mut s, "pass; pass");
        assert_eq!(g.scores(&s), [vec![0], vec![komi]]);
        assert_eq!(s.outcome.as_ref().expect("over").winners, winners);
    }
}

/// Rule 1: the files skip `i`, so the centre of the 19x19 board is `k10`, and the board
/// is lettered so.
#[test]
fn the_files_skip_i_and_k10_is_the_centre_of_19x19() {
    let g = go(19, 75);
    let centre = g.board.find("k10").expect("k10 is a point");
    assert_eq!(g.board.coords[centre as usize], (10, 10));
    assert!(g.board.find("i5").is_none() && g.board.find("t19").is_some());
    let mut state = g.start();
    common::play(&g, &mut state, "k10");
    let board = rulebook::render::board::render(&g, &state);
    assert!(
        board.contains("a  b  c  d  e  f  g  h  j  k  l  m  n  o  p  q  r  s  t"),
        "{board}"
    );
    assert!(
        board.contains("10   .  .  .  +  .  .  .  .  .  X  .  .  .  .  .  +  .  .  ."),
        "{board}"
    );
}

/// The star points: the 3-3 points and the centre of 9x9, the 4-4 points and the centre
/// of 13x13, nine on 19x19; `+` on the text board where no stone covers one, a dot in
/// pictures.
#[test]
fn star_points_are_drawn() {
    let stars = |size: usize| -> Vec<String> {
        let g = go(size, 75);
        let marks = g.board.marks.clone().expect("go marks its star points");
        (0..g.board.len())
            .filter(|&c| marks[c])
            .map(|c| g.board.names[c].clone())
            .collect()
    };
    let mut nine = stars(9);
    nine.sort();
    assert_eq!(nine, ["c3", "c7", "e5", "g3", "g7"]);
    assert_eq!(stars(13).len(), 5);
    let mut nineteen = stars(19);
    nineteen.sort();
    assert_eq!(
        nineteen,
        ["d10", "d16", "d4", "k10", "k16", "k4", "q10", "q16", "q4"]
    );
    let g = go(9, 75);
    let mut state = g.start();
    common::play(&g, &mut state, "e5");
    let board = rulebook::render::board::render(&g, &state);
    assert!(board.contains("7   .  .  +  .  .  .  +  .  ."), "{board}");
    assert!(board.contains("5   .  .  .  .  X  .  .  .  ."), "{board}");
    let svg = rulebook::render::picture::svg(&g, &state, None);
    assert_eq!(svg.matches("class=\"point star\"").count(), 5);
}

/// The score counts tenths of a point (so that komi can be 7.5); the end of a game shows
/// it in points.
#[test]
fn scores_are_shown_in_points() {
    let out = crate::common::run_with_stdin(
        crate::common::rulebook().args([
            "play",
            "games/go.toml",
            "--seed",
            "1",
            "--seat",
            "black=human",
            "--seat",
            "white=human",
        ]),
        "pass\npass\nquit\nn\n",
    );
    let text = crate::common::stdout(&out);
    assert!(
        text.contains("scores: black 0.0 points; white 7.5 points"),
        "{text}"
    );
}

/// Komi is typed in points, to a tenth (`[params] scale = 10`): `--param komi=6.5` gives
/// white 6.5 points on an empty board, a whole number is whole points, and a hundredth is
/// refused with what the parameter takes. Transcripts write it in points too.
#[test]
fn komi_is_typed_in_points() {
    for (typed, shown) in [("6.5", "6.5"), ("6", "6.0"), ("0.5", "0.5"), ("0", "0.0")] {
        let out = common::run_with_stdin(
            common::rulebook().args([
                "play",
                "games/go.toml",
                "--seed",
                "1",
                "--param",
                &format!("komi={typed}"),
                "--seat",
                "black=human",
                "--seat",
                "white=human",
            ]),
            "pass\npass\nsave target/tmp/komi.txt\nquit\nn\n",
        );
        let text = common::stdout(&out);
        assert!(
            text.contains(&format!("scores: black 0.0 points; white {shown} points")),
            "komi={typed}: {text}"
        );
        let saved = std::fs::read_to_string("target/tmp/komi.txt").unwrap();
        assert!(saved.contains(&format!("param komi: {shown}\n")), "{saved}");
    }
    for bad in ["6.55", "7.", "seven", "-1", "100.5"] {
        let out = common::rulebook()
            .args(["perft", "games/go.toml", "--depth", "1", "--param"])
            .arg(format!("komi={bad}"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "komi={bad} was taken");
        assert!(
            err.contains("a number with at most 1 decimal") || err.contains("from 0.0 to 100.0"),
            "komi={bad}: {err}"
        );
    }
}

/// A transcript saved before parameters had a scale wrote komi in tenths (`param komi:
/// 75`): it still replays as the game it was, 7.5 points, and so does the new form.
#[test]
fn a_transcript_with_komi_in_tenths_replays_as_before() {
    for (header, white) in [("75", "7.5"), ("7.5", "7.5"), ("60", "6.0"), ("6.0", "6.0")] {
        let path = format!("target/tmp/komi-{header}.txt");
        std::fs::create_dir_all("target/tmp").unwrap();
        std::fs::write(
            &path,
            format!(
                "# rulebook transcript\ngame: Go\nfile: games/go.toml\nparam komi: {header}\n\
                 param size: 9\nseat black: human\nseat white: human\nseed: 1\n\
                 result: white won\n\n1. black pass  # human\n2. white pass  # human\n"
            ),
        )
        .unwrap();
        let out = common::rulebook().args(["replay", &path]).output().unwrap();
        let text = common::stdout(&out);
        assert!(
            out.status.success(),
            "{header}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            text.contains(&format!("white {white} points")),
            "komi {header}: {text}"
        );
    }
}
