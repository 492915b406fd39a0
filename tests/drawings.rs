//! Boards drawn as `moves --board` draws them, read back by `--position` unchanged (rank
//! numbers, file letters, `SEAT to move`, the links of a board of points, a numbered
//! board's numbers, star points, heights), for every shipped game at its start and at
//! positions reached by random plies; diagrams written out whole ([`diagram::write`]); a
//! `@` that starts a diagram; `--after` on every command that takes `--position`.

use rulebook::bots::Bot;
use rulebook::bots::random::RandomBot;
use rulebook::engine::game::Game;
use rulebook::engine::state::State;
use rulebook::load::position_file;
use rulebook::record::{diagram, position_text};
use rulebook::render::board::render;

use crate::common::{
    Scratch, game, rulebook, rulebook_in, shipped_games, stderr, stdout, test_game,
};

/// What `moves --board` prints of a position, from its first line to its `to move` line.
fn drawing(g: &Game, s: &State) -> String {
    render(g, s)
}

/// Each cell's pieces as (kind, owner), bottom first: what a drawing shows of a stack.
fn pieces(s: &State) -> Vec<Vec<(u8, u8)>> {
    s.stacks()
        .iter()
        .map(|stack| stack.iter().map(|p| (p.kind, p.owner)).collect())
        .collect()
}

/// Reads `drawn` back as `--position` does and checks it is `s` as far as a drawing says.
fn reads_back(g: &Game, s: &State, at: &str) {
    let drawn = drawing(g, s);
    let (read, line) = position_text::read_any(g, &drawn)
        .unwrap_or_else(|e| panic!("{}: {at}: {e}\n{drawn}", g.name));
    assert_eq!(pieces(&read), pieces(s), "{}: {at}\n{drawn}", g.name);
    assert_eq!(read.to_move, s.to_move, "{}: {at}", g.name);
    assert_eq!(read.ply_in_turn, s.ply_in_turn, "{}: {at}", g.name);
    // The drawing again, but for its status line, whose phase and number of steps
    // follow the variables and the turn (a hand of men to place, Splut!'s first turns),
    // which a drawing does not show.
    let board = |text: &str| {
        let lines: Vec<&str> = text.lines().collect();
        lines[..lines.len() - 1].join("\n")
    };
    assert_eq!(board(&drawing(g, &read)), board(&drawn), "{}: {at}", g.name);
    // What a transcript records reads back the same.
    let (again, _) = position_text::read_any(g, &line)
        .unwrap_or_else(|e| panic!("{}: {at}: the recorded line `{line}`: {e}", g.name));
    assert_eq!(pieces(&again), pieces(s), "{}: {at}: {line}", g.name);
}

#[test]
fn every_games_drawn_board_reads_back_at_the_start_and_after_random_plies() {
    for name in shipped_games() {
        let g = game(name, &[]);
        reads_back(&g, &g.start(), "the start");
        let mut checked = 0;
        for seed in 0..3 {
            let mut bot = RandomBot::new(seed);
            let mut s = g.start();
            while s.plies < 120 {
                let Some(ply) = bot.choose(&g, &s) else { break };
                g.play(&mut s, &ply);
                if s.outcome.is_none() && s.plies.is_multiple_of(5) {
                    reads_back(&g, &s, &format!("seed {seed}, ply {}", s.plies));
                    checked += 1;
                }
            }
        }
        assert!(checked >= 3, "{name}: {checked} positions");
    }
}

#[test]
fn a_drawing_takes_assignments_after_its_to_move_line() {
    let g = test_game("minidrop");
    let drawn = drawing(&g, &g.start());
    let text = format!("{drawn}hand(black, pawn) = 1\n");
    let (s, line) = position_text::read_any(&g, &text).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        line.ends_with("to_move = black / hand(black, pawn) = 1"),
        "{line}"
    );
    let (slot, _) = g.var_slot("hand(black, pawn)").expect("a variable");
    assert_eq!(s.vars[slot], 1);
}

#[test]
fn a_drawing_that_does_not_fit_says_which_line() {
    let g = game("tictactoe", &[]);
    let cases = [
        (
            "3   .  .  .\n2   .  X\n1   .  .  .\n    a  b  c\nx to move\n",
            "line 2: 2 cells drawn for rank 2, which has 3",
        ),
        (
            "3   .  .  .\n2   .  .  .\n1   .  .  .\n    a  b  d\nx to move\n",
            "line 4: the line above `x to move` holds the file letters: `a b c`",
        ),
        (
            "3   .  .  .\n1   .  .  .\n    a  b  c\nx to move\n",
            "the drawing has no rank 2",
        ),
        (
            "3   .  .  .\n.  .  .\n1   .  .  .\n    a  b  c\nx to move\n",
            "line 2: a rank of the drawing starts with its number",
        ),
        (
            "3   .  .  .\n2   .  X1  .\n1   .  .  .\n    a  b  c\nx to move\n",
            "line 2: `X1`: a height drawn after a symbol is 0, or 2 to 1000",
        ),
        (
            "3   O  O  X\n2   .  X  .\n1   X  .  .\n    a  b  c\ngame over: x won\n",
            "line 5: the drawing is of a finished game",
        ),
    ];
    for (text, want) in cases {
        let err = position_text::read_any(&g, text).expect_err(text);
        assert!(err.contains(want), "{text}: {err}");
    }
    let draughts = game("draughts", &[]);
    let mut text = drawing(&draughts, &draughts.start());
    text = text.replacen("13", "12", 1);
    let err = position_text::read_any(&draughts, &text).expect_err("a wrong number");
    assert!(
        err.contains("`12` drawn on a5, whose number is not 12"),
        "{err}"
    );
}

#[test]
fn a_diagram_written_whole_reads_back_whole() {
    for name in ["chess", "staqs", "vlkno", "morris"] {
        let g = game(name, &[]);
        let mut bot = RandomBot::new(7);
        let mut s = g.start();
        while s.plies < 30 && s.outcome.is_none() {
            let Some(ply) = bot.choose(&g, &s) else { break };
            g.play(&mut s, &ply);
        }
        if s.outcome.is_some() {
            continue;
        }
        let text = diagram::write(&g, &s);
        let read = diagram::read(&g, &text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        let moved = |s: &State| -> Vec<Vec<(u8, u8, u32)>> {
            (s.stacks().iter())
                .map(|stack| stack.iter().map(|p| (p.kind, p.owner, p.moved)).collect())
                .collect()
        };
        assert_eq!(moved(&read), moved(&s), "{name}: {text}");
        assert_eq!(read.vars, s.vars, "{name}: {text}");
        assert_eq!(
            (
                read.to_move,
                read.turn,
                read.ply_in_turn,
                read.plies,
                read.alive
            ),
            (s.to_move, s.turn, s.ply_in_turn, s.plies, s.alive),
            "{name}: {text}"
        );
        assert_eq!(
            g.legal_with_notation(&read),
            g.legal_with_notation(&s),
            "{name}"
        );
    }
}

#[test]
fn an_at_sign_names_a_file_only_as_one_word() {
    assert_eq!(position_file("@puzzle.txt"), Some("puzzle.txt"));
    assert_eq!(position_file("@positions/a b.txt"), None);
    assert_eq!(position_file("@ . . / . . ."), None);
    assert_eq!(position_file("@\n. ."), None);
    assert_eq!(position_file("@=1"), None);
    assert_eq!(position_file("@"), None);
    assert_eq!(position_file(". @"), None);
    // A piece may not be drawn `@` (diagram syntax, refused at load), so a diagram
    // that starts with `@` is a mistake, reported as the diagram's, not as a missing file.
    let out = rulebook()
        .args([
            "moves",
            "games/tictactoe.toml",
            "--position",
            "@ . . / . . . / . . .",
        ])
        .output()
        .expect("runs");
    assert!(!out.status.success());
    assert!(
        stderr(&out).starts_with("--position: line 1:"),
        "{}",
        stderr(&out)
    );
    let text = std::fs::read_to_string(crate::common::game_path("tictactoe"))
        .expect("tictactoe")
        .replace("\"X\"", "\"@\"");
    let err = crate::common::refused(&text);
    assert!(
        err.contains("a piece symbol is one or two printable characters"),
        "{err}"
    );
    // One word after `@` is a file.
    let dir = Scratch::new("at-sign");
    let file = dir.join("position.txt");
    std::fs::write(&file, ". . . / . X . / . . .\nto_move = o\n").expect("written");
    let out = rulebook()
        .args([
            "moves",
            "games/tictactoe.toml",
            "--position",
            &format!("@{}", file.display()),
        ])
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 8);
}

#[test]
fn after_works_on_every_command_that_takes_a_position() {
    let dir = Scratch::with_games("after-everywhere");
    let run = |args: &[&str]| {
        let out = rulebook_in(&dir).args(args).output().expect("runs");
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        stdout(&out)
    };
    // perft: the count from the position the plies reach.
    let moved = run(&[
        "perft",
        "games/chess.toml",
        "--depth",
        "2",
        "--after",
        "e2e4; e7e5",
    ]);
    let diagram = "r n b q k b n r / p p p p . p p p / . . . . . . . . / . . . . p . . . / . . . . P . . . / . . . . . . . . / P P P P . P P P / R N B Q K B N R / to_move = white";
    let set_up = run(&[
        "perft",
        "games/chess.toml",
        "--depth",
        "2",
        "--position",
        diagram,
    ]);
    assert_eq!(moved, set_up);
    // From a --position too, and as `moves` reads it.
    let both = run(&[
        "moves",
        "games/tictactoe.toml",
        "--position",
        ". . . / . X . / . . . / to_move = o",
        "--after",
        "a1",
    ]);
    assert_eq!(both.lines().count(), 7, "{both}");
    let perft = run(&[
        "perft",
        "games/tictactoe.toml",
        "--depth",
        "1",
        "--position",
        ". . . / . X . / . . . / to_move = o",
        "--after",
        "a1",
    ]);
    assert!(perft.contains("7"), "{perft}");
    // selfplay: its transcript starts from the position reached and replays.
    run(&[
        "selfplay",
        "games/connect4.toml",
        "--after",
        "d; d; c",
        "--seed",
        "3",
        "--transcript",
        "t.txt",
    ]);
    let transcript = std::fs::read_to_string(dir.join("t.txt")).expect("a transcript");
    assert!(transcript.contains("position: "), "{transcript}");
    let replayed = run(&["replay", "t.txt"]);
    assert!(
        replayed.contains("won") || replayed.contains("draw"),
        "{replayed}"
    );
    // bench, match and analyze start there too.
    run(&[
        "bench",
        "games/tictactoe.toml",
        "--after",
        "b2",
        "--playouts",
        "20",
    ]);
    let table = run(&[
        "match",
        "games/tictactoe.toml",
        "--after",
        "b2; a1",
        "--bots",
        "random,random",
        "--games",
        "4",
    ]);
    assert!(table.contains("random"), "{table}");
    run(&[
        "analyze",
        "games/tictactoe.toml",
        "--after",
        "b2",
        "--games",
        "4",
    ]);
    // An illegal ply says so, on any command.
    let out = rulebook_in(&dir)
        .args([
            "bench",
            "games/tictactoe.toml",
            "--after",
            "b2; b2",
            "--playouts",
            "5",
        ])
        .output()
        .expect("runs");
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("--after: ply 2 `b2` is not legal here"),
        "{}",
        stderr(&out)
    );
}
