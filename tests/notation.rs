//! Plies and positions as players write them, from the generic mechanisms a game file
//! switches on: the short notation (`short`, with `{x?}` telling a ply apart only as far
//! as needed: SAN for chess) listed, typed and replayed, and the position text
//! (`[position_text]`: FEN for chess) read and written back.

use rulebook::cli::{perft_exact, play_sequence};
use rulebook::engine::game::Game;
use rulebook::engine::state::State;
use rulebook::record::position_text;

use crate::common::{game, refused};

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
