//! Chess (`games/chess.toml`): perft counts against the published tables, from the start
//! and from the standard test positions of the chess programming community; random games
//! that end by the rules; and the rules the counts do not reach (the draws, the notation,
//! checkmate given on the fiftieth move).
//!
//! The test positions are set up square by square from their FEN (the format has no way
//! yet to start a game from a diagram): the stacks through `set_stack`, the side to move,
//! the castling rights, the en passant square and the fifty-move clock through the
//! position's variables.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rulebook::cli::perft_exact;
use rulebook::engine::game::Game;
use rulebook::engine::state::State;

use crate::common::{game, legal, play, set_stack};

/// The variables' places in a position: the global ones, then the player ones (one slot
/// per player, white first), each table in the order of its names.
const EP: usize = 0;
const IRREV: usize = 1;
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
/// square and half-move clock).
fn position(g: &Game, fen: &str) -> State {
    let mut s = g.start();
    assert_eq!(s.vars, [-1, 0, 1, 1, 1, 1], "the variables' places moved");
    let fields: Vec<&str> = fen.split_whitespace().collect();
    for (r, row) in fields[0].split('/').enumerate() {
        let rank = 8 - r;
        let mut file = 0u8;
        for ch in row.chars() {
            let mut square = || {
                file += 1;
                format!("{}{rank}", (b'a' + file - 1) as char)
            };
            if let Some(n) = ch.to_digit(10) {
                for _ in 0..n {
                    set_stack(g, &mut s, &square(), &[]);
                }
                continue;
            }
            let owner = if ch.is_ascii_uppercase() {
                "white"
            } else {
                "black"
            };
            let kind = match ch.to_ascii_lowercase() {
                'k' => "king",
                'q' => "queen",
                'r' => "rook",
                'b' => "bishop",
                'n' => "knight",
                'p' => "pawn",
                other => panic!("no piece {other}"),
            };
            set_stack(g, &mut s, &square(), &[(kind, owner)]);
        }
        assert_eq!(file, 8, "rank {rank} of {fen}");
    }
    s.to_move = u8::from(fields[1] == "b");
    let rights = fields[2];
    s.vars[SHORT] = i64::from(rights.contains('K'));
    s.vars[SHORT + 1] = i64::from(rights.contains('k'));
    s.vars[LONG] = i64::from(rights.contains('Q'));
    s.vars[LONG + 1] = i64::from(rights.contains('q'));
    s.vars[EP] = match fields[3] {
        "-" => -1,
        square => g.board.find(square).expect("a square") as i64,
    };
    // `turn - irrev` counts the quiet plies, and the next ply is played in turn 1.
    let clock: i64 = fields[4].parse().expect("a half-move clock");
    s.vars[IRREV] = -clock;
    s
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
