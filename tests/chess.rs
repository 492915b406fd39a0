//! Chess (`games/chess.toml`): perft counts against the published tables, from the start
//! and from the standard test positions of the chess programming community; random games
//! that end by the rules; and the rules the counts do not reach (the draws, the notation,
//! checkmate given on the fiftieth move).
//!
//! The test positions are read from their FEN turned into the board diagram that
//! `--position` takes: the ranks, the side to move, and the castling rights, en passant
//! square and fifty-move clock as the game file's variables.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rulebook::cli::perft_exact;
use rulebook::engine::game::Game;
use rulebook::engine::state::State;

use crate::common::{game, legal, play};

/// The castling rights' places in a position: the global variables (`ep`, `irrev`), then
/// the player ones (one slot per player, white first), each table in the order of its names.
const LONG: usize = 2;
const SHORT: usize = 4;

/// The positions of the published perft tables, with their counts from depth 1 (Chess
/// Programming Wiki, "Perft Results": the start, "Kiwipete", positions 3, 4 (and its
/// mirror, Black to move) and 5).
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POSITION_4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POSITION_4_MIRRORED: &str =
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
const POSITION_5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";

fn chess() -> Game {
    game("chess", &[])
}

/// The position a FEN describes (its board, side to move, castling rights, en passant
/// square and half-move clock), read as the board diagram `--position` takes.
fn position(g: &Game, fen: &str) -> State {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let mut lines: Vec<String> = fields[0]
        .split('/')
        .map(|row| {
            let mut cells = Vec::new();
            for ch in row.chars() {
                match ch.to_digit(10) {
                    Some(n) => cells.extend(std::iter::repeat_n(".".to_string(), n as usize)),
                    None => cells.push(ch.to_string()),
                }
            }
            cells.join(" ")
        })
        .collect();
    let rights = fields[2];
    let side = if fields[1] == "b" { "black" } else { "white" };
    lines.push(format!("to_move = {side}"));
    for (var, white, black) in [("short", 'K', 'k'), ("long", 'Q', 'q')] {
        lines.push(format!("{var}(white) = {}", rights.contains(white)));
        lines.push(format!("{var}(black) = {}", rights.contains(black)));
    }
    lines.push(format!("ep = {}", fields[3].replace('-', "none")));
    // `turn - irrev` counts the quiet plies, and the next ply is played in turn 1.
    lines.push(format!("irrev = -{}", fields[4]));
    rulebook::record::diagram::read(g, &lines.join(" / ")).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn perfts(g: &Game, fen: &str, counts: &[u64]) {
    let s = position(g, fen);
    for (depth, &count) in (1..).zip(counts) {
        assert_eq!(perft_exact(g, &s, depth), count, "{fen} at depth {depth}");
    }
}

#[test]
fn the_start_read_from_its_fen_is_the_start() {
    let g = chess();
    assert_eq!(position(&g, START), g.start());
}

#[test]
fn perft_from_the_start() {
    perfts(&chess(), START, &[20, 400, 8902]);
}

#[test]
fn perft_from_kiwipete() {
    // Castling both ways for both sides, en passant, promotions, pins: 48 and 2039.
    perfts(&chess(), KIWIPETE, &[48, 2039, 97_862]);
}

#[test]
fn perft_from_position_3() {
    // The en passant capture that would leave a king in check along the rank.
    perfts(&chess(), POSITION_3, &[14, 191, 2812, 43_238]);
}

#[test]
fn perft_from_position_4_and_its_mirror() {
    // Promotions with and without capture, castling rights lost to captures, checks.
    let g = chess();
    perfts(&g, POSITION_4, &[6, 264, 9467]);
    perfts(&g, POSITION_4_MIRRORED, &[6, 264, 9467]);
}

#[test]
fn perft_from_position_5() {
    perfts(&chess(), POSITION_5, &[44, 1486, 62_379]);
}

/// The published counts deeper than the debug build can afford (some minutes in all):
/// `cargo test --release --test main chess::perft_deep -- --ignored`.
#[test]
#[ignore]
fn perft_deep() {
    let g = chess();
    perfts(&g, START, &[20, 400, 8902, 197_281, 4_865_609]);
    perfts(&g, KIWIPETE, &[48, 2039, 97_862, 4_085_603]);
    perfts(&g, POSITION_3, &[14, 191, 2812, 43_238, 674_624]);
    perfts(&g, POSITION_4, &[6, 264, 9467, 422_333]);
    perfts(&g, POSITION_4_MIRRORED, &[6, 264, 9467, 422_333]);
    perfts(&g, POSITION_5, &[44, 1486, 62_379, 2_103_487]);
}

/// The legal texts after `plies` from `fen`.
fn after(g: &Game, fen: &str, plies: &str) -> (State, Vec<String>) {
    let mut s = position(g, fen);
    play(g, &mut s, plies);
    let texts = legal(g, &s);
    (s, texts)
}

fn has(texts: &[String], text: &str) -> bool {
    texts.iter().any(|t| t == text)
}

#[test]
fn the_first_plies_are_written_in_long_algebraic_notation() {
    let g = chess();
    let texts = legal(&g, &g.start());
    assert_eq!(texts.len(), 20);
    for text in ["e2-e4", "a2-a3", "h2-h4", "Nb1-c3", "Ng1-f3"] {
        assert!(has(&texts, text), "{text} in {texts:?}");
    }
}

#[test]
fn checkmate_wins_and_is_marked() {
    // The fool's mate: 1. f3 e5 2. g4 Qh4#.
    let g = chess();
    let (s, texts) = after(&g, START, "f2-f3; e7-e5; g2-g4");
    assert!(has(&texts, "Qd8-h4#"), "{texts:?}");
    assert!(has(&texts, "Bf8-b4"), "not a check: {texts:?}");
    let mut s = s;
    play(&g, &mut s, "Qd8-h4#");
    let outcome = s.outcome.expect("the game is over");
    assert_eq!(outcome.winners, [1], "black wins");
}

#[test]
fn stalemate_is_a_draw() {
    // Sam Loyd's stalemate in ten moves: 1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6
    // 5. Qxc7 f6 6. Qxd7+ Kf7 7. Qxb7 Qd3 8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6.
    let g = chess();
    let mut s = g.start();
    play(
        &g,
        &mut s,
        "e2-e3; a7-a5; Qd1-h5; Ra8-a6; Qh5xa5; h7-h5; h2-h4; Ra6-h6; Qa5xc7; f7-f6; \
         Qc7xd7+; Ke8-f7; Qd7xb7; Qd8-d3; Qb7xb8; Qd3-h7; Qb8xc8; Kf7-g6",
    );
    assert!(s.outcome.is_none());
    play(&g, &mut s, "Qc8-e6");
    let outcome = s.outcome.expect("black has no move");
    assert!(outcome.winners.is_empty(), "a draw, not a loss");
}

#[test]
fn the_third_occurrence_of_a_position_draws() {
    let g = chess();
    let dance = "Ng1-f3; Ng8-f6; Nf3-g1; Nf6-g8";
    let mut s = g.start();
    play(&g, &mut s, dance);
    assert!(s.outcome.is_none(), "the start a second time");
    play(&g, &mut s, dance);
    assert!(s.outcome.expect("a third time").winners.is_empty());
    // With the fivefold rule (FIDE 9.6.1) the game goes on.
    let g = game("chess", &[("repeats", "5")]);
    let mut s = g.start();
    play(&g, &mut s, &format!("{dance}; {dance}; {dance}"));
    assert!(s.outcome.is_none());
    play(&g, &mut s, dance);
    assert!(s.outcome.is_some());
}

#[test]
fn castling_needs_its_rights_empty_squares_and_no_attacked_square() {
    let g = chess();
    // Both may castle short in the Italian game...
    let italian = "e2-e4; e7-e5; Ng1-f3; Nb8-c6; Bf1-c4; Ng8-f6";
    let (_, texts) = after(&g, START, italian);
    assert!(has(&texts, "O-O"), "{texts:?}");
    // ...but not once the king has moved, even back to its square.
    let (s, texts) = after(
        &g,
        START,
        &format!("{italian}; Ke1-e2; Bf8-c5; Ke2-e1; O-O"),
    );
    assert!(!has(&texts, "O-O"), "{texts:?}");
    assert_eq!(crate::common::height(&g, &s, "g8"), 1, "black's king on g8");
    assert_eq!(s.vars[SHORT + 1], 0, "black castled: no rights left");
    // Not through an attacked square (f1), but past one on the far side (b1).
    let (_, texts) = after(&g, "1r2kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1", "");
    assert!(!has(&texts, "O-O") && has(&texts, "O-O-O"), "{texts:?}");
    // Not out of check.
    let (_, texts) = after(&g, "4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "");
    assert!(!has(&texts, "O-O") && !has(&texts, "O-O-O"), "{texts:?}");
    // A rook captured on its square takes its right with it.
    let (s, texts) = after(&g, "r3k2r/8/8/8/8/5B2/8/4K3 w kq - 0 1", "Bf3xa8");
    assert!(has(&texts, "O-O") && !has(&texts, "O-O-O"), "{texts:?}");
    assert_eq!((s.vars[SHORT + 1], s.vars[LONG + 1]), (1, 0));
}

#[test]
fn a_right_granted_by_a_diagram_needs_its_pieces_in_place() {
    // Issue 49: a position given by hand kept the start's castling rights, and a king on
    // a8 with no rook had `O-O`, which moved nothing. The rights are the diagram's to say,
    // and a right whose king or rook is not on its square gives no ply.
    let g = chess();
    let lone = "k7/8/8/8/8/8/8/4K3 b KQkq - 0 1";
    let (_, texts) = after(&g, lone, "");
    assert_eq!(texts, ["Ka8-a7", "Ka8-b7", "Ka8-b8"]);
    let (_, texts) = after(&g, "k7/8/8/8/8/8/8/4K3 w KQkq - 0 1", "");
    assert!(!texts.iter().any(|t| t.starts_with("O-O")), "{texts:?}");
    // A knight where the a-file's rook should stand gives that right no ply.
    let (_, texts) = after(&g, "k7/8/8/8/8/8/8/N3K2R w KQ - 0 1", "");
    assert!(has(&texts, "O-O") && !has(&texts, "O-O-O"), "{texts:?}");
    // An en passant square named with no pawn beyond it, or not empty, takes nothing.
    let (_, texts) = after(&g, "k7/8/8/1P6/8/8/8/4K3 w - c6 0 1", "");
    assert!(!texts.iter().any(|t| t.contains('x')), "{texts:?}");
    let (_, texts) = after(&g, "k7/8/2N5/1Pp5/8/8/8/4K3 w - c6 0 1", "");
    assert!(!has(&texts, "b5xc6"), "{texts:?}");
    // With the pawn there, it is taken.
    let (_, texts) = after(&g, "k7/8/8/1Pp5/8/8/8/4K3 w - c6 0 1", "");
    assert!(has(&texts, "b5xc6"), "{texts:?}");
}

#[test]
fn en_passant_is_possible_only_at_once_and_not_into_check() {
    let g = chess();
    let (s, texts) = after(&g, START, "e2-e4; a7-a6; e4-e5; d7-d5");
    assert!(has(&texts, "e5xd6"), "{texts:?}");
    let mut s = s;
    play(&g, &mut s, "e5xd6");
    assert!(
        crate::common::height(&g, &s, "d5") == 0,
        "the pawn passed is taken"
    );
    let (_, texts) = after(&g, START, "e2-e4; a7-a6; e4-e5; d7-d5; a2-a3; a6-a5");
    assert!(!has(&texts, "e5xd6"), "{texts:?}");
    // Both pawns leave the fifth rank: the rook on h5 would give check.
    let (_, texts) = after(&g, "8/8/8/KPp4r/8/8/8/7k w - c6 0 1", "");
    assert!(!has(&texts, "b5xc6"), "{texts:?}");
    let (_, texts) = after(&g, "8/8/8/KPp5/8/8/8/7k w - c6 0 1", "");
    assert!(has(&texts, "b5xc6"), "{texts:?}");
}

#[test]
fn a_pawn_promotes_to_any_of_four_pieces() {
    let g = chess();
    let (_, texts) = after(&g, "3r4/4P3/8/8/k7/8/8/4K3 w - - 0 1", "");
    let promotions: Vec<&String> = texts.iter().filter(|t| t.contains('=')).collect();
    assert_eq!(
        promotions,
        [
            "e7-e8=B+", "e7-e8=N", "e7-e8=Q+", "e7-e8=R", "e7xd8=B", "e7xd8=N", "e7xd8=Q",
            "e7xd8=R"
        ]
    );
    let (s, _) = after(&g, "3r4/4P3/8/8/k7/8/8/4K3 w - - 0 1", "e7xd8=N");
    let d8 = g.board.find("d8").expect("d8") as usize;
    let knight = g
        .kinds
        .iter()
        .position(|k| k.name == "knight")
        .expect("knight");
    assert_eq!(s.stacks()[d8][0].kind as usize, knight);
}

#[test]
fn fifty_quiet_moves_draw_unless_the_last_one_mates() {
    let g = chess();
    // Ninety-nine quiet plies so far: the hundredth draws...
    let (s, _) = after(&g, "7k/8/6K1/8/8/8/8/R7 w - - 99 80", "Ra1-b1");
    assert!(s.outcome.expect("drawn").winners.is_empty());
    // ...unless it mates (FIDE 9.6.2: checkmate takes precedence)...
    let (s, _) = after(&g, "7k/8/6K1/8/8/8/8/R7 w - - 99 80", "Ra1-a8#");
    assert_eq!(s.outcome.expect("mate").winners, [0]);
    // ...and a check that can be answered draws at once.
    let (s, _) = after(&g, "7k/8/8/6K1/8/8/8/R7 w - - 99 80", "Ra1-a8+");
    assert!(s.outcome.expect("drawn").winners.is_empty());
    // A capture or a pawn move starts the count again.
    let (s, _) = after(&g, "7k/8/6K1/8/8/8/P7/1R6 w - - 99 80", "a2-a3");
    assert!(s.outcome.is_none());
}

#[test]
fn a_position_where_nobody_can_mate_is_a_draw() {
    let g = chess();
    // King and knight against king.
    let (s, _) = after(&g, "4k3/8/8/8/8/p7/8/1N2K3 w - - 0 1", "Nb1xa3");
    assert!(s.outcome.expect("dead").winners.is_empty());
    // Kings and bishops on squares of one colour (d2 and e3)...
    let (s, _) = after(&g, "4k3/8/8/8/8/4b3/3p4/2B1K3 w - - 0 1", "Bc1xd2");
    assert!(s.outcome.expect("dead").winners.is_empty());
    // ...but not of both colours (d2 and e4).
    let (s, _) = after(&g, "4k3/8/8/8/4b3/8/3p4/2B1K3 w - - 0 1", "Bc1xd2");
    assert!(s.outcome.is_none());
}

#[test]
fn random_games_end_by_the_rules() {
    // Every game ends (no ply cap), and a ply marked # is the last, won by its player.
    let g = chess();
    let mut endings = [0usize; 3];
    for seed in 0..50u64 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut s = g.start();
        g.playout(&mut s, &mut rng, u32::MAX);
        let outcome = s.outcome.unwrap_or_else(|| panic!("seed {seed}: no end"));
        match outcome.winners[..] {
            [] => endings[2] += 1,
            [w] => endings[w as usize] += 1,
            _ => panic!("seed {seed}: two winners"),
        }
    }
    assert!(
        endings[0] + endings[1] > 0,
        "some game is mated: {endings:?}"
    );
    for seed in 0..3u64 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut s = g.start();
        while s.outcome.is_none() {
            let me = s.to_move;
            for (text, ply) in g.legal_with_notation(&s) {
                let mut next = s.clone();
                g.play(&mut next, &ply);
                let mated = next.outcome.as_ref().is_some_and(|o| o.winners == [me]);
                assert_eq!(text.ends_with('#'), mated, "seed {seed}: {text}");
            }
            g.play_random(&mut s, &mut rng);
        }
    }
}
