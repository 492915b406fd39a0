//! The interpreter's Bounce (`games/bounce.toml`) against the hand-written reference
//! (`reference/bounce.rs`) on random positions of every size from 4x4 to 12x12.
//!
//! The trace and perft tests in `traces.rs` only reach positions that self-play from the
//! start reaches on 4x4 to 8x8 boards. These properties go further in two ways: random
//! games on larger boards too, compared at every ply, and random arrangements (any mix of
//! red, blue and empty cells, either side to act), which reach what play rarely does:
//! sparse boards where removals are forced, boards where a side is already one group, or
//! is down to two checkers (never fewer: play cannot reach that with the game on, and
//! there the rules are silent, see [`top_up`]). Each compares the sorted ply texts, then
//! plays one ply in both and compares whether, and by whom, the game was won.
//!
//! Short runs here (a few seconds in the suite, some four thousand positions); a longer
//! run is the same tests with more cases:
//! `PROPTEST_CASES=2000 cargo test --release --test main bounce_reference::`.

use std::sync::OnceLock;

use proptest::prelude::*;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rulebook::engine::game::{Game, Ply};
use rulebook::engine::state::{Piece, State};

use crate::common;
use crate::reference::bounce::{Bounce, Colour};
use crate::reference::{GameResult, Reference, cell_name};
use crate::traces::list_diff;

/// The board sizes compared: the smallest, the default and larger ones, all even.
const SIZES: [usize; 5] = [4, 6, 8, 10, 12];

/// The largest board's cell count: arrangements are drawn this long and cut to the size.
const MAX_CELLS: usize = 12 * 12;

/// The interpreter's Bounce at each of [`SIZES`], compiled once for all cases (compiling
/// per case would cost more than the comparison itself).
fn game(size_index: usize) -> &'static Game {
    static GAMES: OnceLock<Vec<Game>> = OnceLock::new();
    &GAMES.get_or_init(|| {
        SIZES
            .iter()
            .map(|size| common::game("bounce", &[("size", &size.to_string())]))
            .collect()
    })[size_index]
}

/// The interpreter's cell id of the reference's cell index `rank * size + file`, through
/// the cell's name so that neither side's numbering is assumed.
fn cell_id(game: &Game, size: usize, index: usize) -> u16 {
    let name = cell_name(index % size, index / size);
    game.board
        .find(&name)
        .unwrap_or_else(|| panic!("the interpreter has no cell {name}"))
}

/// The interpreter's legal plies, sorted by text as [`Reference::legal`] sorts.
fn engine_legal(game: &Game, state: &State) -> Vec<(String, Ply)> {
    let mut legal = game.legal_with_notation(state);
    legal.sort_by(|a, b| a.0.cmp(&b.0));
    legal
}

/// The winner's name, if the game is over, as each side reports it.
fn engine_winner(game: &Game, state: &State) -> Option<Vec<String>> {
    state.outcome.as_ref().map(|o| {
        o.winners
            .iter()
            .map(|&p| game.players[p as usize].clone())
            .collect()
    })
}

fn reference_winner(pos: &Bounce) -> Option<Vec<String>> {
    pos.result().as_ref().map(GameResult::winners)
}

/// Compares the two positions' legal ply texts and side to act, then plays the ply
/// `choice` picks (modulo their number) in both and compares the outcome. Returns false
/// when there was nothing to play (the game was over, or no ply), so a caller walking a
/// game knows to stop. (Once a game is over only the lists are compared: the interpreter
/// leaves `to_move` on the winner, the reference moves it on; neither is a rule.)
fn compare_and_play(
    game: &Game,
    state: &mut State,
    pos: &mut Bounce,
    choice: u32,
    what: &str,
) -> Result<bool, TestCaseError> {
    let engine = engine_legal(game, state);
    let texts: Vec<String> = engine.iter().map(|(t, _)| t.clone()).collect();
    let expected = pos.legal();
    prop_assert!(
        texts == expected,
        "{what}: legal lists differ\n  {}\n{}",
        list_diff(&texts, &expected),
        pos.render()
    );
    if state.outcome.is_some() {
        return Ok(false);
    }
    prop_assert_eq!(
        game.players[state.to_move as usize].as_str(),
        pos.to_move(),
        "{}: side to act\n{}",
        what,
        pos.render()
    );
    if engine.is_empty() {
        return Ok(false);
    }
    let (text, ply) = &engine[choice as usize % engine.len()];
    let before = pos.render();
    game.play(state, ply);
    pos.play(text)
        .map_err(|e| TestCaseError::fail(format!("{what}: {e}\n{before}")))?;
    prop_assert_eq!(
        engine_winner(game, state),
        reference_winner(pos),
        "{}: outcomes differ after {}\n{}",
        what,
        text,
        before
    );
    Ok(true)
}

/// Gives each side at least two checkers, turning cells from `start` on (empty ones, or
/// the other side's while it has more than two). Play never reaches a position with a side
/// below two with the game still on: a side's own removal is the only way it loses a
/// checker, and a removal down to one checker wins. Below that the rules are silent and
/// the two implementations rightly differ: a side with no checker has no ply at all, and
/// the interpreter then applies its `stuck` rule (the side loses) while the reference
/// simply lists nothing.
fn top_up(cells: &mut [Option<Colour>], start: usize) {
    let count =
        |cells: &[Option<Colour>], colour| cells.iter().filter(|c| **c == Some(colour)).count();
    for colour in [Colour::Red, Colour::Blue] {
        let mut index = start;
        while count(cells, colour) < 2 {
            let spare = match cells[index] {
                None => true,
                Some(other) => other != colour && count(cells, other) > 2,
            };
            if spare {
                cells[index] = Some(colour);
            }
            index = (index + 1) % cells.len();
        }
    }
}

/// A random arrangement: a size, the share of empty cells in percent, one draw per cell
/// (below the share: empty; else even: red, odd: blue), whether blue acts, and which ply
/// to play afterwards. The empty share varies from full boards to bare ones so that both
/// crowded positions (many moves) and sparse ones (removals, early wins) come up; each
/// side is then topped up to two checkers ([`top_up`]).
fn arrangement() -> impl Strategy<Value = (usize, u8, Vec<u8>, bool, u32)> {
    (
        0..SIZES.len(),
        0u8..=100,
        prop::collection::vec(0u8..100, MAX_CELLS),
        any::<bool>(),
        any::<u32>(),
    )
}

proptest! {
    // Each case is one position, two when the ply played does not end the game: these
    // 1000 cases compare some 1,700 positions, in under two seconds in release builds
    // (crowded 12x12 boards have thousands of plies each).
    #![proptest_config(crate::common::config(1000))]

    /// Random arrangements agree: legal plies, then the outcome of one ply and the legal
    /// plies of the position it leads to.
    #[test]
    fn random_arrangements_agree((size_index, empty, draws, blue, choice) in arrangement()) {
        let size = SIZES[size_index];
        let game = game(size_index);
        let mut pos = Bounce::new(size);
        for (cell, &draw) in pos.cells.iter_mut().zip(&draws) {
            *cell = if draw < empty {
                None
            } else if draw % 2 == 0 {
                Some(Colour::Red)
            } else {
                Some(Colour::Blue)
            };
        }
        top_up(&mut pos.cells, choice as usize % (size * size));
        let mut state = game.start();
        for (index, cell) in pos.cells.iter().enumerate() {
            let owner = cell.map(|c| if c == Colour::Red { 0 } else { 1 });
            state.edit_stack(cell_id(game, size, index), |stack| {
                stack.clear();
                stack.extend(owner.map(|o| Piece::new(0, o, 0)));
            });
        }
        pos.to_move = if blue { Colour::Blue } else { Colour::Red };
        state.to_move = u8::from(blue);
        let what = format!("{size}x{size} arrangement");
        if compare_and_play(game, &mut state, &mut pos, choice, &what)? {
            compare_and_play(game, &mut state, &mut pos, 0, &format!("{what}, one ply on"))?;
        }
    }
}

proptest! {
    // Each case is a whole random game, compared at every ply: 4x4 games last some 7
    // plies, 8x8 ones some 40, larger ones longer, so these 60 cases compare over 2,000
    // positions, in about a second in release builds.
    #![proptest_config(crate::common::config(60))]

    /// Random games from the start agree at every ply, and end alike. The choices pick
    /// among the sorted legal plies; a game stops when it ends or the choices run out, so
    /// shrinking shortens the game to the first disagreement.
    #[test]
    fn random_games_agree(
        size_index in 0..SIZES.len(),
        choices in prop::collection::vec(any::<u32>(), 0..400),
    ) {
        let size = SIZES[size_index];
        let game = game(size_index);
        let mut state = game.start();
        let mut pos = Bounce::new(size);
        for (ply, &choice) in choices.iter().enumerate() {
            let what = format!("{size}x{size} random game, ply {ply}");
            if !compare_and_play(game, &mut state, &mut pos, choice, &what)? {
                break;
            }
        }
    }
}

/// [`Bounce::random_playout`], the baseline `benches/playouts.rs` times the interpreter
/// against, is what it says: the same plies as listing [`Reference::moves`] and picking
/// one with `random_range` over their number, from the same seed, to a won game.
#[test]
fn reference_random_playouts_list_and_pick_uniformly_to_the_end() {
    for size in SIZES {
        for seed in 0..10 {
            let mut playout = Bounce::new(size);
            let plies = playout.random_playout(&mut Xoshiro256PlusPlus::seed_from_u64(seed));

            let mut by_hand = Bounce::new(size);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            while by_hand.result().is_none() {
                let moves = by_hand.moves();
                let pick = rng.random_range(0..moves.len() as u64) as usize;
                by_hand.apply(&moves[pick]);
            }

            let label = format!("{size}x{size} seed {seed}");
            assert_eq!(plies, by_hand.plies(), "{label}");
            assert_eq!(playout.plies(), plies, "{label}");
            assert_eq!(playout.cells, by_hand.cells, "{label}");
            let Some(GameResult::Win(winner)) = playout.result() else {
                panic!("{label}: the playout stopped without a winner");
            };
            let colour = [Colour::Red, Colour::Blue]
                .into_iter()
                .find(|c| c.name() == winner)
                .expect("a colour's name");
            assert!(playout.one_group(colour), "{label}\n{}", playout.render());
        }
    }
}
