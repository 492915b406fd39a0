//! Plies and positions as players write them, from the generic mechanisms a game file
//! switches on: the short notation (`short`, with `{x?}` telling a ply apart only as far
//! as needed: SAN for chess) listed, typed and replayed, and the position text
//! (`[position_text]`: FEN for chess) read and written back.

use rulebook::cli::{perft_exact, play_sequence};
use rulebook::engine::game::Game;
use rulebook::engine::state::State;
use rulebook::record::position_text;

use crate::common::{Scratch, game, refused, rulebook_in, run_with_stdin, stderr, stdout};

fn chess() -> Game {
    game("chess", &[])
}

/// The short texts of the legal plies, sorted.
fn short(g: &Game, s: &State) -> Vec<String> {
    g.legal_with_short(s).into_iter().map(|(t, _)| t).collect()
}

/// The position after typed plies (long or short) from `fen`.
fn after(g: &Game, fen: &str, plies: &[&str]) -> State {
    let mut s = position_text::read(g, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for p in plies {
        let ply = g.parse_ply(&s, p).unwrap_or_else(|e| panic!("{p}: {e:?}"));
        g.play(&mut s, &ply);
    }
    s
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The six positions of the Chess Programming Wiki's "Perft Results", with their counts
/// from depth 1.
const PERFT: [(&str, &[u64]); 6] = [
    (START, &[20, 400, 8902]),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        &[48, 2039],
    ),
    (
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        &[14, 191, 2812],
    ),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        &[6, 264],
    ),
    (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        &[44, 1486],
    ),
    (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        &[46, 2079],
    ),
];

#[test]
fn the_six_perft_positions_read_from_fen_count_as_published_and_write_back() {
    let g = chess();
    for (fen, counts) in PERFT {
        let s = position_text::read(&g, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(position_text::write(&g, &s).as_deref(), Ok(fen));
        for (depth, &count) in (1..).zip(counts) {
            assert_eq!(perft_exact(&g, &s, depth), count, "{fen} at depth {depth}");
        }
    }
}

#[test]
fn the_start_read_from_fen_is_the_start_and_fen_follows_the_game() {
    let g = chess();
    assert_eq!(position_text::read(&g, START), Ok(g.start()));
    let s = after(&g, START, &["e4", "c5", "Nf3"]);
    assert_eq!(
        position_text::write(&g, &s).as_deref(),
        Ok("rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")
    );
    let s = after(&g, START, &["e4", "d5"]);
    assert_eq!(
        position_text::write(&g, &s).as_deref(),
        Ok("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2")
    );
}

#[test]
fn a_wrong_fen_is_refused_with_the_field_named() {
    let g = chess();
    let wrong = |fen: &str| position_text::read(&g, fen).unwrap_err();
    assert!(
        wrong("8/8/8 w - - 0 1").contains("rank"),
        "{}",
        wrong("8/8/8 w - - 0 1")
    );
    assert!(wrong(&START.replace(" w ", " x ")).contains("`x` names no player"));
    assert!(wrong(&START.replace("KQkq", "KQz")).contains("`z` in `KQz` is no flag"));
    assert!(wrong(&START.replace(" 0 1", "")).contains("has 6 fields"));
    assert!(wrong(&START.replace("RNBQKBNR", "RNBQKBNX")).contains("no piece is drawn `X`"));
    assert!(wrong(&START.replace("- 0", "z9 0")).contains("z9"));
}

#[test]
fn a_game_without_a_position_text_says_so() {
    let g = game("go", &[]);
    let e = position_text::write(&g, &g.start()).unwrap_err();
    assert!(e.contains("no position text"), "{e}");
}

#[test]
fn short_notation_is_san() {
    let g = chess();
    let s = g.start();
    let first = short(&g, &s);
    assert_eq!(first.len(), 20);
    assert!(first.contains(&"e4".to_string()) && first.contains(&"Nf3".to_string()));
    // Two knights reach d2: the file tells them apart.
    let s = after(
        &g,
        START,
        &["e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6", "O-O", "Nxe4", "d4"],
    );
    let texts = short(&g, &s);
    for t in ["Nxd4", "exd4", "Nxf2", "Nd6", "Be7", "Bb4", "a6"] {
        assert!(texts.contains(&t.to_string()), "{t} in {texts:?}");
    }
    let s = after(
        &g,
        START,
        &[
            "d4", "e5", "d5", "e4", "Nc3", "f5", "Nb5", "a6", "Nd4", "h6",
        ],
    );
    // Two knights on d4 and g1 reach f3: the file; rooks on one file: the rank.
    let texts = short(&g, &s);
    assert!(texts.contains(&"Ndf3".to_string()) && texts.contains(&"Ngf3".to_string()));
    let rooks = "4k3/8/8/8/R7/8/R7/4K3 w - - 0 1";
    let texts = short(&g, &after(&g, rooks, &[]));
    assert!(texts.contains(&"R4a3".to_string()) && texts.contains(&"R2a3".to_string()));
    // Three queens reach d4: the file for h4's, the rank for a1's, the whole square for
    // a4's (its file is a1's, its rank h4's); a check mark does not tell plies apart.
    let queens = "4k3/8/8/8/Q6Q/8/8/Q3K3 w - - 0 1";
    let texts = short(&g, &after(&g, queens, &[]));
    for t in ["Qhd4+", "Q1d4+", "Qa4d4", "Q1a2+", "Q4a2"] {
        assert!(texts.contains(&t.to_string()), "{t} in {texts:?}");
    }
    // En passant and promotion, with their check marks.
    let s = after(&g, START, &["e4", "a6", "e5", "d5"]);
    assert!(short(&g, &s).contains(&"exd6".to_string()));
    let promote = "8/1P2k3/8/8/8/8/8/4K3 w - - 0 1";
    let texts = short(&g, &after(&g, promote, &[]));
    assert!(texts.contains(&"b8=Q".to_string()) && texts.contains(&"b8=R".to_string()));
    // Fool's mate ends with the checkmate mark.
    let s = after(&g, START, &["f3", "e5", "g4"]);
    assert!(short(&g, &s).contains(&"Qh4#".to_string()));
}

#[test]
fn short_texts_are_typed_and_tell_files_from_pieces_by_case() {
    let g = chess();
    // After 1. b4 e5 2. Bb2, `bxc3`-like clashes: `Bc3` is the bishop, `b5` the pawn.
    let s = after(&g, START, &["b4", "e5", "Bb2", "Nc6"]);
    let pawn = g.parse_ply(&s, "b5").unwrap();
    assert_eq!(g.notation(&s, &pawn), "b4-b5");
    let bishop = g.parse_ply(&s, "Bc3").unwrap();
    assert_eq!(g.notation(&s, &bishop), "Bb2-c3");
    let s = after(&g, START, &["e4", "d5"]);
    assert_eq!(g.notation(&s, &g.parse_ply(&s, "exd5").unwrap()), "e4xd5");
    // The long form is still typed as before.
    assert_eq!(g.notation(&s, &g.parse_ply(&s, "e4xd5").unwrap()), "e4xd5");
    assert_eq!(g.short_text(&s, &g.parse_ply(&s, "e4xd5").unwrap()), "exd5");
}

#[test]
fn a_short_placeholder_in_a_long_notation_is_refused() {
    let text = std::fs::read_to_string(crate::common::game_path("chess")).unwrap();
    let bad = text.replacen("text = 'Q{from}' }", "text = 'Q{from?}' }", 1);
    let e = refused(&bad);
    assert!(
        e.contains("`{x?}` is written in a `short` notation only"),
        "{e}"
    );
    let bad = text.replacen("text = 'Q{from?}' }", "text = 'Q{file(me)}' }", 1);
    let e = refused(&bad);
    assert!(
        e.contains("`me` is not bound") || e.contains("not a cell"),
        "{e}"
    );
}

#[test]
fn short_texts_are_typed_without_their_marks() {
    let g = chess();
    // As `play` and `moves --after` read them: `Qh4` is `Qh4#`, `Nf3+` is `Nf3`.
    let s = play_sequence(&g, "f3; e5; g4; qh4").unwrap_or_else(|e| panic!("{}", e.0));
    assert_eq!(s.outcome.map(|o| o.winners), Some(vec![1]));
    let s = play_sequence(&g, "Nf3+; Nc6; e4").unwrap_or_else(|e| panic!("{}", e.0));
    assert_eq!(
        position_text::write(&g, &s).as_deref(),
        Ok("r1bqkbnr/pppppppp/2n5/8/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq e3 0 2")
    );
}

/// A transcript of `plies` (as typed: short or long) from chess's start, with names.
fn transcript(plies: &[&str], result: &str, names: [&str; 2]) -> String {
    let mut text = "# rulebook transcript\ngame: Chess\nfile: games/chess.toml\n\
                    param quiet_moves: 50\nparam repeats: 3\nseat white: human\n\
                    seat black: human\n"
        .to_string();
    for (seat, name) in ["white", "black"].iter().zip(names) {
        text.push_str(&format!("name {seat}: {name}\n"));
    }
    text.push_str(&format!("seed: 1\nresult: {result}\n\n"));
    for (i, ply) in plies.iter().enumerate() {
        let player = if i % 2 == 0 { "white" } else { "black" };
        text.push_str(&format!("{}. {player} {ply}\n", i + 1));
    }
    text
}

/// `replay GAME.txt --pgn FILE` in a scratch folder: the record written.
fn pgn_of(name: &str, transcript: &str) -> String {
    let dir = Scratch::with_games(name);
    std::fs::write(dir.join("game.txt"), transcript).unwrap();
    let out = rulebook_in(&dir)
        .args(["replay", "game.txt", "--pgn", "game.pgn"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    std::fs::read_to_string(dir.join("game.pgn")).unwrap()
}

/// The Opera Game (Morphy, Paris 1858) as published, in SAN.
const OPERA: &str = "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 \
                     Nxb5 cxb5 Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#";

#[test]
fn a_transcript_in_san_replays_and_its_pgn_is_the_published_record() {
    let plies: Vec<&str> = OPERA.split_whitespace().collect();
    let record = pgn_of(
        "opera",
        &transcript(
            &plies,
            "white won",
            ["Paul Morphy", "Duke Karl / Count Isouard"],
        ),
    );
    insta::assert_snapshot!(record);
    // The movetext is the published one, with its numbers.
    let moves: String = record.lines().skip(8).collect::<Vec<_>>().join(" ");
    let numbered: Vec<String> = (plies.chunks(2).enumerate())
        .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
        .collect();
    assert_eq!(moves, format!("{} 1-0", numbered.join(" ")));
}

#[test]
fn fools_mate_as_pgn_from_the_long_notation() {
    let record = pgn_of(
        "fool",
        &transcript(
            &["f2-f3", "e7-e5", "g2-g4", "Qd8-h4#"],
            "black won",
            ["Fool", "Mate"],
        ),
    );
    insta::assert_snapshot!(record);
}

#[test]
fn moves_short_lists_san_and_a_game_without_it_says_so() {
    let dir = Scratch::with_games("moves-short");
    let out = rulebook_in(&dir)
        .args([
            "moves",
            "games/chess.toml",
            "--short",
            "--after",
            "e4; e5; Nf3; Nc6; Bb5; Nf6; O-O; Nxe4; d4",
        ])
        .output()
        .unwrap();
    let listed = stdout(&out);
    for t in ["Nxd4", "exd4", "Nxf2", "Nd6", "a6"] {
        assert!(listed.lines().any(|l| l == t), "{t} in {listed}");
    }
    let out = rulebook_in(&dir)
        .args(["moves", "games/go.toml", "--short"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("no short notation"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn position_takes_fen_and_the_transcript_replays_from_it() {
    let dir = Scratch::with_games("fen-position");
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let out = rulebook_in(&dir)
        .args([
            "perft",
            "games/chess.toml",
            "--depth",
            "2",
            "--position",
            kiwipete,
        ])
        .output()
        .unwrap();
    assert_eq!(stdout(&out), "2039\n", "{}", stderr(&out));
    // A game from it, saved by `play`: the position is recorded as it was given.
    let out = run_with_stdin(
        rulebook_in(&dir)
            .args(["play", "games/chess.toml", "--seat", "black=human"])
            .args(["--position", kiwipete]),
        "O-O\nO-O-O\nsave k.txt\nquit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let saved = std::fs::read_to_string(dir.join("k.txt")).unwrap();
    assert!(saved.contains(&format!("position: {kiwipete}")), "{saved}");
    let out = rulebook_in(&dir)
        .args(["replay", "k.txt", "--pgn", "k.pgn"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let record = std::fs::read_to_string(dir.join("k.pgn")).unwrap();
    assert!(
        record.contains(&format!("[SetUp \"1\"]\n[FEN \"{kiwipete}\"]")),
        "{record}"
    );
    assert!(record.ends_with("\n1. O-O O-O-O *\n"), "{record}");
}

#[test]
fn a_position_text_needs_symbols_it_can_write_and_variables_of_the_right_type() {
    let text = std::fs::read_to_string(crate::common::game_path("chess")).unwrap();
    let two = text.replacen(
        r#"symbol = { white = "K", black = "k" }"#,
        r#"symbol = { white = "Kw", black = "k" }"#,
        1,
    );
    let e = refused(&two);
    assert!(
        e.contains("the symbol `Kw` of `king` cannot be written in a position text"),
        "{e}"
    );
    let wrong = text.replacen(r#"{ cell = "ep" }"#, r#"{ cell = "irrev" }"#, 1);
    let e = refused(&wrong);
    assert!(e.contains("`irrev` holds"), "{e}");
    let unknown = text.replacen(r#"{ since = "irrev" }"#, r#"{ since = "clock" }"#, 1);
    let e = refused(&unknown);
    assert!(e.contains("`clock` is not a variable of this game"), "{e}");
    let two_keys = text.replacen(r#"{ round = true }"#, r#"{ round = true, cell = "ep" }"#, 1);
    let e = refused(&two_keys);
    assert!(e.contains("a field is one of"), "{e}");
}
