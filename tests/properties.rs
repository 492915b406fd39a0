//! Invariants over random play: generated plies are legal and round-trip through their
//! text, replaying the texts reproduces the position, and no game is stuck without an end.

use proptest::prelude::*;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rulebook::engine::game::{Draw, Game, normalize};

use crate::common::game;

/// At most this many texts of each position are parsed back.
const PARSED_PER_POSITION: usize = 8;

/// Walks a random game of at most `max` plies, checking every position on the way.
fn walk(g: &Game, seed: u64, max: usize) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut state = g.start();
    let mut played: Vec<String> = Vec::new();
    for _ in 0..max {
        let legal = g.legal_with_notation(&state);
        if state.outcome.is_some() {
            assert!(legal.is_empty(), "a finished game has no legal ply");
            break;
        }
        assert!(
            !legal.is_empty(),
            "seed {seed}: no ply and no end after {played:?}"
        );
        assert_eq!(g.has_legal(&state), !legal.is_empty());
        // A drawn ply is one of the legal ones, and drawing leaves the position alone.
        let mut scratch = state.clone();
        let rng_before = rng.clone();
        let drawn = g.random_ply(&mut scratch, &mut rng);
        assert_eq!(
            scratch, state,
            "seed {seed}: drawing a ply changed the position"
        );
        let drawn = drawn.expect("a ply is drawn when one is legal");
        assert!(
            legal.iter().any(|(_, p)| *p == drawn),
            "seed {seed}: drew an illegal ply {drawn:?}"
        );
        // Drawing and playing at once keeps the drawn candidate as it was tried: the same
        // ply, and the same position as playing it again from the start.
        let (mut kept, mut replayed) = (state.clone(), state.clone());
        let kept_ply = g.play_random(&mut kept, &mut rng_before.clone());
        g.play(&mut replayed, &drawn);
        assert_eq!(
            kept_ply.as_ref(),
            Some(&drawn),
            "seed {seed}: play_random drew another ply"
        );
        assert_eq!(
            kept, replayed,
            "seed {seed}: a kept candidate differs from the ply replayed"
        );
        let mut texts: Vec<String> = legal.iter().map(|(t, _)| normalize(t)).collect();
        texts.sort_unstable();
        texts.dedup();
        assert_eq!(
            texts.len(),
            legal.len(),
            "seed {seed}: two plies share a text"
        );
        // Every text parses back to its ply (a sample where the list is long: parsing
        // one text builds the whole list).
        let step = legal.len().div_ceil(PARSED_PER_POSITION);
        for (text, ply) in legal
            .iter()
            .skip(rng.random_range(0..step as u64) as usize)
            .step_by(step)
        {
            let parsed = g.parse_ply(&state, &format!("  {}  ", text.to_uppercase()));
            assert_eq!(
                parsed.as_ref(),
                Ok(ply),
                "seed {seed}: `{text}` does not parse back"
            );
        }
        let (text, ply) = &legal[rng.random_range(0..legal.len() as u64) as usize];
        g.play(&mut state, ply);
        played.push(text.clone());
    }
    // Replaying the texts from the start reaches the very same position.
    let mut again = g.start();
    for text in &played {
        let ply = g.parse_ply(&again, text).expect("replayed ply is legal");
        g.play(&mut again, &ply);
    }
    assert_eq!(again, state, "seed {seed}: replay differs");
}

proptest! {
    #![proptest_config(crate::common::config(24))]

    #[test]
    fn bounce_plies_are_legal_and_replay(seed in any::<u64>(), size in prop::sample::select(vec![4u8, 6, 8])) {
        let g = game("bounce", &[("size", &size.to_string())]);
        walk(&g, seed, 60);
    }

    #[test]
    fn staqs_plies_are_legal_and_replay(seed in any::<u64>(), diagonal in any::<bool>()) {
        let g = game("staqs", &[("diagonal_steps", &diagonal.to_string())]);
        walk(&g, seed, 80);
    }

    #[test]
    fn sight_plies_are_legal_and_replay(seed in any::<u64>(), strict in any::<bool>()) {
        let g = game("sight", &[("strict_priority", &strict.to_string())]);
        walk(&g, seed, 80);
    }
}

proptest! {
    // Over 2000 plies a position: fewer games.
    #![proptest_config(crate::common::config(6))]

    #[test]
    fn splut_plies_are_legal_and_replay(seed in any::<u64>(), players in 2usize..=4) {
        let g = game("splut", &[("players", &players.to_string())]);
        walk(&g, seed, 150);
    }

    #[test]
    fn vlkno_plies_are_legal_and_replay(seed in any::<u64>(), put_back in any::<bool>()) {
        let g = game("vlkno", &[("put_back", &put_back.to_string())]);
        walk(&g, seed, 40);
    }

    #[test]
    fn chess_plies_are_legal_and_replay(seed in any::<u64>()) {
        let g = game("chess", &[]);
        walk(&g, seed, 40);
    }
}

proptest! {
    // The classic games (tests/classics), each to its end or a few dozen plies.
    #![proptest_config(crate::common::config(12))]

    #[test]
    fn tictactoe_and_connect4_plies_are_legal_and_replay(seed in any::<u64>()) {
        walk(&game("tictactoe", &[]), seed, 9);
        walk(&game("connect4", &[]), seed, 42);
    }

    #[test]
    fn breakthrough_plies_are_legal_and_replay(seed in any::<u64>()) {
        walk(&game("breakthrough", &[]), seed, 80);
    }

    #[test]
    fn clobber_plies_are_legal_and_replay(seed in any::<u64>(), columns in 2u8..=6, rows in 2u8..=6) {
        let g = game("clobber", &[("columns", &columns.to_string()), ("rows", &rows.to_string())]);
        walk(&g, seed, 36);
    }

    #[test]
    fn hex_plies_are_legal_and_replay(seed in any::<u64>(), size in prop::sample::select(vec![3u8, 5, 11]), swap in any::<bool>()) {
        let g = game("hex", &[("size", &size.to_string()), ("swap", &swap.to_string())]);
        walk(&g, seed, 40);
    }
}

proptest! {
    // Some 2,000 plies a position early on, each text parsed back from the whole list.
    #![proptest_config(crate::common::config(4))]

    #[test]
    fn amazons_plies_are_legal_and_replay(seed in any::<u64>()) {
        walk(&game("amazons", &[]), seed, 16);
    }
}

proptest! {
    // Pushes and pushes off the edge come late: the walk goes on long enough to meet them.
    #![proptest_config(crate::common::config(4))]

    #[test]
    fn abalone_plies_are_legal_and_replay(seed in any::<u64>(), to_win in 1u8..=6) {
        walk(&game("abalone", &[("to_win", &to_win.to_string())]), seed, 400);
    }
}

proptest! {
    // Whole games: Reversi's forced passes and its end, draughts' capture sequences and
    // kings, Go's captures, superko and passes.
    #![proptest_config(crate::common::config(8))]

    #[test]
    fn reversi_plies_are_legal_and_replay(seed in any::<u64>()) {
        walk(&game("reversi", &[]), seed, 70);
    }

    #[test]
    fn draughts_plies_are_legal_and_replay(seed in any::<u64>()) {
        walk(&game("draughts", &[]), seed, 120);
    }

    #[test]
    fn go_plies_are_legal_and_replay(seed in any::<u64>(), size in prop::sample::select(vec![5u8, 9])) {
        walk(&game("go", &[("size", &size.to_string())]), seed, 150);
    }
}

#[test]
fn staqs_stacks_never_merge_nor_vanish() {
    let g = game("staqs", &[]);
    for seed in 0..100 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut s = g.start();
        let mut plies = 0;
        while s.outcome.is_none() {
            let legal = g.legal_plies(&s);
            let ply = &legal[rng.random_range(0..legal.len() as u64) as usize];
            g.play(&mut s, ply);
            plies += 1;
            let stacks = |p: u8| {
                s.stacks()
                    .iter()
                    .filter(|st| st.last().is_some_and(|x| x.owner == p))
                    .count()
            };
            if plies >= 8 {
                assert_eq!((stacks(0), stacks(1)), (4, 4), "seed {seed} ply {plies}");
            }
            let pieces: usize = s.stacks().iter().map(|st| st.len()).sum();
            assert_eq!(
                pieces,
                25 + plies.min(8),
                "neutral pieces are never lost, seed {seed}"
            );
        }
    }
}

/// Draws `n` plies from `state` and returns how often each legal ply came up, in the order
/// of the legal list.
fn draw_counts(g: &Game, state: &rulebook::engine::state::State, n: usize) -> Vec<usize> {
    let legal = g.legal_plies(state);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut counts = vec![0; legal.len()];
    let mut scratch = state.clone();
    for _ in 0..n {
        let ply = g.random_ply(&mut scratch, &mut rng).expect("a legal ply");
        let i = legal
            .iter()
            .position(|p| *p == ply)
            .expect("drawn ply is legal");
        counts[i] += 1;
    }
    counts
}

#[test]
fn drawn_plies_are_uniform_when_a_later_part_leaves_out_a_cell_its_ply_edited() {
    // A later part's set of cells with a piece (a stack test, not a set of tops) leaves out
    // the cell named `a`: the pieces put on `a` cannot join it, those put on `b` can. Its slots are the occupied cells now
    // plus what the first part can add: two edits, one of them of the cell left out
    // (`pair`), or one of two cells, only one of which is left out (`one`: the bound
    // counts an edit of a name only where both branches make it). One slot fewer and
    // some plies would have no candidate, which debug builds stop at.
    // Two empty cells `a` and `b` chosen, something put down, then a piece taken.
    let action = |name: &str, effect: &str, first: &str, then: &str| {
        format!(
            r#"
[[actions]]
name = "{name}"
choose = ['a in cells where empty(a)', 'b in cells where empty(b) && b != a']
effect = '{effect}'
notation = '{first}'

[[actions.then]]
choose = ['x in cells where height(x) >= 1 && x != a']
effect = 'remove(x)'
notation = '{then}'
"#
        )
    };
    let pair = action(
        "pair",
        "place(a, p, me); place(b, p, me)",
        "{a}{b}",
        " x{x}",
    );
    let one = action(
        "one",
        "if a == b1 { place(a, p, me) } else { place(b, p, me) }",
        "{a}/{b}",
        " y{x}",
    );
    let setup = "[[setup]]\nput = \"p\"\nowner = \"one\"\nat = [\"a1\"]\n";
    let g = small_game("names", 4, 1, &format!("{setup}{pair}{one}"));
    // `pair`: 6 ordered pairs of the three empty cells, then a1 or b: 12. `one`: a = b1
    // puts a piece on b1 and leaves a1 alone to take (2 plies); a = c1 or d1 puts one on
    // b, then a1 or b (8 plies).
    let texts = crate::common::legal(&g, &g.start());
    assert_eq!(texts.len(), 22, "{texts:?}");
    assert!(texts.contains(&"c1/d1 yd1".to_string()));
    assert!(!texts.contains(&"b1/c1 yc1".to_string()));
    assert_uniform(
        &g,
        &g.start(),
        "later parts that leave out a cell the ply edited",
    );
}

#[test]
fn drawn_plies_are_uniform_when_the_last_part_gets_slots_per_listed_head() {
    // A step, a piece taken, a piece put down: the draw lists each step with the pieces it
    // may take (counted, not walked), and gives the put slots for each step, worked out
    // where the step left the board: the empty cells but the one stepped from (a name the
    // listing knows), plus what the take can add. In `keep` the taken cell is left out
    // too, and it was not empty when listed, so it takes no slot away; in `back` it may
    // be put back on, so the take adds a slot. A slot fewer in either and some plies
    // would have no candidate, which debug builds stop at.
    let action = |name: &str, put: &str, mark: &str| {
        format!(
            r#"
[[actions]]
name = "{name}"
choose = ['from in cells where owner(from) == me', 'to in adjacent(from) where empty(to)']
effect = 'move(from, to)'
notation = '{{from}}-{{to}}'

[[actions.then]]
choose = ['take in cells where !empty(take) && take != to']
effect = 'remove(take)'
notation = ' x{{take}}'

[[actions.then]]
choose = ['put in cells where {put}']
effect = 'place(put, p, me)'
notation = ' {mark}{{put}}'
"#
        )
    };
    let keep = action("keep", "empty(put) && put != from && put != take", "+");
    let back = action("back", "empty(put) && put != from", "*");
    let setup = r#"
[[setup]]
put = "p"
owner = "one"
at = ["c1"]

[[setup]]
put = "p"
owner = "two"
at = ["a1", "e1", "f1"]
"#;
    let g = small_game("tails", 6, 1, &format!("{setup}{keep}{back}"));
    // Two steps (to b1 or d1), three takes (a1, e1, f1), then in `keep` the one empty cell
    // left (d1 or b1), in `back` that one or the cell taken from.
    let texts = crate::common::legal(&g, &g.start());
    assert_eq!(texts.len(), 2 * 3 + 2 * 3 * 2, "{texts:?}");
    assert!(texts.contains(&"c1-b1 xe1 +d1".to_string()));
    assert!(texts.contains(&"c1-b1 xe1 *e1".to_string()));
    assert!(!texts.contains(&"c1-b1 xe1 +e1".to_string()));
    assert_uniform(&g, &g.start(), "a last part given slots per listed head");
}

#[test]
fn drawn_plies_are_uniform_when_the_listing_carries_a_move_from_cell_to_cell() {
    // A piece moves onto a neighbour, then a stone is taken from the lowest free stack and
    // put on a free one. The draw lists each move with the takes it leaves, and lists a
    // piece's moves by carrying the piece on from one destination to the next
    // (`Journal::retarget`) rather than taking each move back: from a tower onto a tower,
    // from a tower onto a bare cell, and a lone piece onto a bare cell (a shift, carried
    // on to the next bare cell, played again onto a tower). `move_top` moves the piece,
    // `move` the piece with its stones. A listing that left one record or set wrong
    // would count the wrong takes for some moves: the draws would not be uniform (and
    // debug builds check every cache after every carried move). As the take reads only
    // each cell's own stack, the listing works it out without playing the move at all
    // (`engine::overlay`), unless the take also asks about the cell moved onto by name
    // (`pieces(to, stone)`): then the move is carried.
    for (effect, overlaid, ask) in [
        ("move_top", true, ""),
        ("move", true, ""),
        ("move_top", false, ", 'where pieces(to, stone) >= 0'"),
        ("move", false, ", 'where pieces(to, stone) >= 0'"),
    ] {
        let take = format!(
            "'low = min(c in cells where c != from && height(c) >= 1 && !has(c, p): height(c))'{ask}, 'take in cells where take != from && !has(take, p) && height(take) == low && low >= 1'"
        );
        let g = towers("carried", effect, &take);
        assert_eq!(g.actions[0].overlay.is_some(), overlaid, "{effect}{ask}");
        let texts = crate::common::legal(&g, &g.start());
        // c2's lone piece goes onto the bare b3, c1 and d1 (shifts) or the one stone of
        // d2; the lowest free stacks are a2 and d2, but for a piece on d2.
        assert!(texts.contains(&"c2-c1 xd2 +a2".to_string()), "{texts:?}");
        assert!(texts.contains(&"c2-d2 xa2 +b1".to_string()), "{texts:?}");
        assert!(!texts.contains(&"c2-d2 xd2 +b1".to_string()), "{texts:?}");
        assert!(!texts.iter().any(|t| t.starts_with("c2-b1")), "{texts:?}");
        assert_uniform(&g, &g.start(), effect);
        for s in sample_positions(&g, 2, 300, 4, |_| true) {
            assert_uniform(&g, &s, effect);
        }
    }
}

#[test]
fn drawn_plies_are_uniform_when_the_listing_overlays_a_move() {
    // A piece moves onto a neighbour, then takes a stone by a rule that reads each
    // cell's own stack, then puts one down. The listing works the take and the put's
    // slots out from the position before the move, with the two cells it edits patched
    // (`engine::overlay`): the tallest stack, which the cell moved from may stop being
    // and the cell moved onto may become (and then be taken from); a count of stacks, a
    // `where` on it and a cell left out by name; the cells topped by a stone, which the
    // cell moved from joins when the piece leaves a tower.
    // Debug builds play every move the listing overlays and stop where the take or the
    // put's slots differ; a wrong count would also make the draws uneven.
    let takes = [
        "'high = max(c in cells where height(c) >= 1: height(c))', 'take in cells where take != from && height(take) == high'",
        "'tall = count(c in cells where !has(c, p) && height(c) >= 2)', 'where tall >= 1', 'take in cells where take != to && height(take) >= 1 && (tall >= 3 || owner(take) == none)'",
        "'take in cells where top(take) == stone'",
    ];
    // On boards whose sets take one word, two, and more (the listing copies sets of one
    // or two words as such, others as the widest). On the larger boards a stone is put
    // on a stone, so that the plies stay few enough to count (as many as on the small
    // board), and a game stops after 300 plies.
    let boards = [(6, 4, TOWER_PUT), (10, 8, ON_A_STONE), (13, 11, ON_A_STONE)];
    for (files, ranks, put) in boards {
        for take in takes {
            for effect in ["move_top", "move"] {
                let mut g = towers_on("overlaid", (files, ranks), effect, take, put);
                if files > 6 {
                    g.max_plies = Some(300);
                }
                assert!(g.actions[0].overlay.is_some(), "{effect}: {take}");
                assert_uniform(&g, &g.start(), take);
                for s in sample_positions(&g, 2, 300, 4, |_| true) {
                    assert_uniform(&g, &s, take);
                }
            }
        }
    }
    // Not where the position keeps no cells by height (no set compares a height with a
    // value that varies) and the take needs the tallest stack: the move is carried.
    let take = "'high = max(c in cells where height(c) >= 1: height(c))', 'take in cells where take != from && height(take) >= 2 && high >= 2'";
    assert!(
        towers("unkept", "move_top", take).actions[0]
            .overlay
            .is_none()
    );
    // VLKNO's turn is listed this way; a take read from the cells next to another's
    // stack, or along a line, is not.
    assert!(game("vlkno", &[]).actions[0].overlay.is_some());
    for take in [
        "'take in cells where any(y in adjacent(take) where has(y, p))'",
        "'d in directions(to)', 'take in slide(to, d)'",
    ] {
        let rest = format!(
            r#"
[[setup]]
put = "p"
owner = "one"
at = ["a1"]

[[actions]]
name = "go"
choose = ['from in cells where owner(from) == me', 'to in adjacent(from) where empty(to)']
effect = 'move(from, to)'
notation = '{{from}}-{{to}}'

[[actions.then]]
choose = [{take}]
effect = 'remove(take)'
notation = ' x{{take}}'
"#
        );
        let g = small_game("plain", 4, 4, &rest);
        assert!(g.actions[0].overlay.is_none(), "{take}");
    }
    for name in ["splut", "chess", "amazons"] {
        assert!(
            game(name, &[]).actions.iter().all(|a| a.overlay.is_none()),
            "{name}"
        );
    }
}

#[test]
fn an_overlaid_listing_draws_what_a_carried_one_draws_on_boards_of_many_words() {
    // `engine::overlay` copies sets of one word or two as such and others as the widest
    // the engine keeps: the games of `drawn_plies_are_uniform_when_the_listing_overlays_a_move`
    // on boards of one word (the reference for the others), two and three, each against
    // the same game with the move carried from cell to cell and played. (Debug builds
    // also play every move overlaid and stop where the take or the put's slots differ.)
    let takes = [
        "'high = max(c in cells where height(c) >= 1: height(c))', 'take in cells where take != from && height(take) == high'",
        "'tall = count(c in cells where !has(c, p) && height(c) >= 2)', 'where tall >= 1', 'take in cells where take != to && height(take) >= 1 && (tall >= 3 || owner(take) == none)'",
        "'take in cells where top(take) == stone'",
    ];
    for (files, ranks, put) in [(6, 4, TOWER_PUT), (10, 8, ON_A_STONE), (13, 11, ON_A_STONE)] {
        for take in takes {
            for effect in ["move_top", "move"] {
                let g = towers_on("overlaid", (files, ranks), effect, take, put);
                assert!(g.actions[0].overlay.is_some(), "{effect}: {take}");
                let mut carried = g.clone();
                carried.actions[0].overlay = None;
                let words = g.start().words();
                let what = format!("{files}x{ranks}, {words} words, {effect}: {take}");
                same_draws(&g, &carried, &what, 12, 100);
            }
        }
    }
}

#[test]
fn drawn_plies_are_uniform_when_a_second_part_is_tried_before_the_first_is_played() {
    // A piece steps onto a free cell; then a rock may follow it the same way, onto a free
    // cell, unless it moved this turn already (a step, then a rock taken along). The draw
    // tries the rock's part before it plays the step wherever the step cannot change what
    // that part reads: not for the rock right behind the piece (whose way is free only
    // once the piece has left), nor, with `move_top`, where the piece steps off a rock
    // (which then tops the cell it left, and may follow: the part's set has a cell more
    // after the step than before). A candidate refused when it could have been a ply
    // would never be drawn; debug builds also play every candidate refused early and
    // stop if it is a ply.
    for effect in ["move", "move_top"] {
        let rest = format!(
            r#"
[pieces.r]
symbol = "r"

[[setup]]
put = "r"
at = ["b1", "a2", "c3", "d1", "b3"]

[[setup]]
put = "p"
owner = "one"
at = ["b2", "d1"]

[[setup]]
put = "p"
owner = "two"
at = ["c1", "a4"]

[[actions]]
name = "step"
choose = ['from in cells where owner(from) == me', 'd in directions(from)', 'to = step(from, d)', 'where empty(to)']
effect = '{effect}(from, to)'
notation = '{{from}}-{{to}}'

[[actions.then]]
optional = true
choose = ['x in cells where top(x) == r && !moved_in(x, turn)', 'dest = step(x, d)', 'where empty(dest)']
effect = 'move_top(x, dest)'
notation = ' r{{x}}'
"#
        );
        let g = small_game("follow", 4, 4, &rest);
        assert!(
            g.actions[0].precheck.is_some(),
            "{effect}: the rock's part is tried before the step"
        );
        let texts = crate::common::legal(&g, &g.start());
        // b2's piece steps right to c2; the rock of a2 may follow it into b2, which the
        // piece has just left (so that part is tried only once the step is played).
        assert!(texts.contains(&"b2-c2 ra2".to_string()), "{texts:?}");
        assert!(texts.contains(&"b2-c2".to_string()), "{texts:?}");
        assert_uniform(&g, &g.start(), effect);
        for s in sample_positions(&g, 1, 300, 6, |t| t.iter().any(|t| t.contains(" r"))) {
            assert_uniform(&g, &s, effect);
        }
    }
    // In Splut!, the sorcerer's levitation and the troll's pull are tried before the
    // step; a throw (a rock removed, then the troll moved: two edits) and the dwarf's
    // push (one part) are not.
    let g = game("splut", &[]);
    let tried: Vec<(&str, bool)> = g
        .actions
        .iter()
        .map(|a| (a.name.as_str(), a.precheck.is_some()))
        .collect();
    assert_eq!(
        tried,
        [
            ("sorcerer", true),
            ("troll step", true),
            ("troll throw", false),
            ("dwarf", false)
        ]
    );
}

#[test]
fn a_heads_depth_is_decided_at_load_where_the_board_decides_it() {
    // A piece steps in one of eight directions, then drops a marker next to where it
    // landed: in one of eight directions (slots the board fixes, no more than the step's,
    // so the head is the step alone in every position), or on any free cell (slots the
    // position decides: weighed at every draw). Either way the draw is uniform.
    for (then, shallow) in [
        (
            "'t in directions(to)', 'at = step(to, t)', 'where at != none && empty(at)'",
            true,
        ),
        ("'at in cells where empty(at) && at != to'", false),
    ] {
        let rest = format!(
            r#"
[pieces.m]
symbol = "m"

[[setup]]
put = "p"
owner = "one"
at = ["b2", "d1"]

[[setup]]
put = "p"
owner = "two"
at = ["c3", "a4"]

[[actions]]
name = "step"
choose = ['from in cells where owner(from) == me', 'd in directions(from)', 'to = step(from, d)', 'where empty(to)']
effect = 'move(from, to)'
notation = '{{from}}-{{to}}'

[[actions.then]]
choose = [{then}]
effect = 'place(at, m)'
notation = ' m{{at}}'
"#
        );
        let g = small_game("drop", 4, 4, &rest);
        assert_eq!(g.actions[0].shape.shallow, shallow, "{then}");
        assert_uniform(&g, &g.start(), then);
        for s in sample_positions(&g, 1, 200, 4, |_| true) {
            assert_uniform(&g, &s, then);
        }
    }
    // In Splut!, a throw's direction (eight at most) follows a step in one of eight: the
    // head is the step alone. A pull or a levitation may be skipped; the dwarf has one part.
    let g = game("splut", &[]);
    assert!(g.actions.iter().all(|a| a.shape.shallow));
    // The levitation's rock is the one levitated on the ply before, or any: a variable
    // the step before it does not set bounds its slots (one, or none, after a first one).
    assert!(matches!(
        &g.actions[0].parts[1].choices[0],
        rulebook::engine::program::Choice::In { bound, .. } if bound.within.is_some()
    ));
    // Chess: a piece, then where it goes, a set of cells the position decides.
    let g = game("chess", &[]);
    assert!(!g.actions[0].shape.shallow);
}

#[test]
fn a_listed_candidate_skips_the_lets_only_its_own_choices_read() {
    // A piece steps; then a marker goes on a free cell, not the one it left nor, unless no
    // neighbour of where it landed is taken, the next one its way (`near`, read by that
    // choice alone), and the next one gets a marker too if free (`spot`, read by the
    // effect). One piece a side: the step has 8 slots and the marker's cell more, so the
    // head lists both parts, and a candidate made from the listing works out `spot`
    // again but not `near`. Playing a drawn candidate and replaying its ply (which works
    // every `let` out) must leave the same position.
    let rest = r#"
[pieces.m]
symbol = "m"

[[setup]]
put = "p"
owner = "one"
at = ["b2"]

[[setup]]
put = "p"
owner = "two"
at = ["c4"]

[[actions]]
name = "go"
choose = ['from in cells where owner(from) == me', 'd in directions(from)', 'to = step(from, d)', 'where empty(to)']
effect = 'move(from, to)'
notation = '{from}-{to}'

[[actions.then]]
choose = [
  'spot = step(to, d)',
  'near = count(c in adjacent(to) where !empty(c))',
  'at in cells where empty(at) && at != from && (near == 0 || at != spot)',
]
effect = 'place(at, m); if spot != none && empty(spot) { place(spot, m) }'
notation = ' m{at}'
"#;
    let g = small_game("mark", 5, 5, rest);
    assert_eq!(g.actions[0].shape.unread_lets, [0, 0b10]);
    for seed in 0..40 {
        walk(&g, seed, 20);
    }
    assert_uniform(&g, &g.start(), "mark");
    // VLKNO: the lowest height, which only the take's set reads.
    let g = game("vlkno", &[]);
    assert_eq!(g.actions[0].shape.unread_lets, [0, 0b1]);
}

/// The towers of the listing's tests: stones in stacks of one and two, two pieces a side
/// on some of them; a piece moves onto a neighbour no more than a stone taller than where
/// it stands (by `effect`: `move_top`, the piece alone, or `move`, with its stones), takes
/// by the choices `take` (which bind `take`), and puts a stone on a free stack of two or
/// fewer.
fn towers(name: &str, effect: &str, take: &str) -> Game {
    towers_on(name, (6, 4), effect, take, TOWER_PUT)
}

/// Where [`towers`] puts its stone: a free stack of two or fewer.
const TOWER_PUT: &str = "height(put) <= 2";

/// A free stack of one or two stones.
const ON_A_STONE: &str = "height(put) >= 1 && height(put) <= 2";

/// [`towers`] on a board of `(files, ranks)` (at least 4 x 3), the stone put where `put`
/// says (besides a cell left, taken from or with a piece). On a board of more than one
/// word (64 cells) the towers stand on the three top ranks, where they straddle a word's
/// end.
fn towers_on(name: &str, (files, ranks): (u8, u8), effect: &str, take: &str, put: &str) -> Game {
    let up = if u32::from(files) * u32::from(ranks) > 64 {
        ranks - 3
    } else {
        0
    };
    let at = |cells: &[&str]| {
        let cells: Vec<String> = cells
            .iter()
            .map(|c| {
                let rank: u8 = c[1..].parse().expect("a rank");
                format!("\"{}{}\"", &c[..1], rank + up)
            })
            .collect();
        cells.join(", ")
    };
    let (stones, towers) = (
        at(&["a1", "b1", "a2", "b2", "c3", "d2", "d3"]),
        at(&["b1", "b2", "d3"]),
    );
    let (one, two) = (at(&["a1", "c2"]), at(&["c3", "a3"]));
    let rest = format!(
        r#"
[pieces.stone]
symbol = "s"

[[setup]]
put = "stone"
at = [{stones}]

[[setup]]
put = "stone"
at = [{towers}]

[[setup]]
put = "p"
owner = "one"
at = [{one}]

[[setup]]
put = "p"
owner = "two"
at = [{two}]

[[actions]]
name = "go"
choose = ['from in cells where owner(from) == me', 'to in adjacent(from) where !has(to, p) && pieces(to, stone) <= pieces(from, stone) + 1']
effect = '{effect}(from, to)'
notation = '{{from}}-{{to}}'

[[actions.then]]
choose = [{take}]
effect = 'remove_top(take)'
notation = ' x{{take}}'

[[actions.then]]
choose = ['put in cells where put != from && put != take && !has(put, p) && {put}']
effect = 'place(put, stone)'
notation = ' +{{put}}'
"#
    );
    small_game(name, files, ranks, &rest)
}

/// A game named `name` for players one and two on a `files` x `ranks` board with one
/// owned piece kind `p`; `rest` adds setup and actions. Panics with the diagnostic if
/// the loader refuses it.
fn small_game(name: &str, files: u8, ranks: u8, rest: &str) -> Game {
    let text = format!(
        r#"
[game]
name = "{name}"

[[players]]
name = "one"

[[players]]
name = "two"

[board]
files = {files}
ranks = {ranks}

[pieces.p]
owned = true
symbol = {{ one = "o", two = "t" }}
{rest}"#
    );
    let source =
        rulebook::spec::parse(&format!("{name}.toml"), text).unwrap_or_else(|d| panic!("{d}"));
    rulebook::compile::compile(&source, &[]).unwrap_or_else(|d| panic!("{d}"))
}

/// Pearson's chi-square statistic of counts against equal shares.
fn chi_square(counts: &[usize]) -> f64 {
    let total: usize = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

#[test]
fn drawn_plies_are_uniform_over_the_legal_plies() {
    // Bounce's start: 60 legal moves among 120 candidates (30 checkers x 4 empty cells),
    // so half the draws are rejected. 30,000 draws, 59 degrees of freedom: the statistic
    // is about 59 +- 11 for a uniform draw; 120 is far in the tail (p < 1e-6).
    let g = game("bounce", &[]);
    let counts = draw_counts(&g, &g.start(), 30_000);
    assert_eq!(counts.len(), 60);
    let chi = chi_square(&counts);
    assert!(chi < 120.0, "chi-square {chi:.1} over {counts:?}");
    // A position a few random plies in, where fewer candidates are legal.
    let mut s = g.start();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    for _ in 0..12 {
        let legal = g.legal_plies(&s);
        g.play(
            &mut s,
            &legal[rng.random_range(0..legal.len() as u64) as usize],
        );
    }
    let counts = draw_counts(&g, &s, 200 * g.legal_plies(&s).len());
    let dof = counts.len() as f64 - 1.0;
    let chi = chi_square(&counts);
    assert!(
        chi < dof + 6.0 * (2.0 * dof).sqrt(),
        "chi-square {chi:.1} for {dof} degrees of freedom over {counts:?}"
    );
}

#[test]
fn drawn_plies_are_uniform_with_parts_optional_parts_and_dependent_choices() {
    // Draws pad every choice after the first part's to the most its collection can hold
    // (here: the links of a cell, the cells of the board) and skip optional parts with
    // one extra value; a game with all of that, a `where`, a check and two actions.
    let g = small_game(
        "draws",
        3,
        3,
        r#"
[[setup]]
put = "p"
owner = "one"
at = ["a1", "b2", "c1"]

[[setup]]
put = "p"
owner = "two"
at = ["c3"]

[[actions]]
name = "go"
choose = ['from in cells where owner(from) == me', 'to in adjacent(from) where empty(to)', 'd = file(to)', 'where d != 3 || rank(to) != 3']
effect = 'move(from, to)'
check = 'file(to) + rank(to) != 4 || from != b2'
notation = '{from}-{to}'

[[actions.then]]
optional = true
choose = ['put in cells where empty(put) && put != from']
effect = 'place(put, p, me)'
notation = ' +{put}'

[[actions]]
name = "mark"
choose = ['x in [a3, b3, c2]', 'y in all_players where y != me']
effect = 'place(x, p, y)'
notation = 'mark {x} {y}'
"#,
    );
    let n = g.legal_plies(&g.start()).len();
    assert_eq!(n, 43);
    let counts = draw_counts(&g, &g.start(), 300 * n);
    let dof = n as f64 - 1.0;
    let chi = chi_square(&counts);
    assert!(
        chi < dof + 6.0 * (2.0 * dof).sqrt(),
        "chi-square {chi:.1} for {dof} degrees of freedom over {counts:?}"
    );
}

#[test]
fn drawn_plies_are_uniform_where_almost_every_candidate_is_refused() {
    // 400 candidates (any empty cell of a 20x20 board), of which the check lets 3
    // through: the draws with replacement (100 of them) miss all three about 47% of the
    // time, and the draw then goes through the candidates in a random order. Either way
    // each legal ply must come up with the same chance. The second position has no
    // legal `go` at all: every candidate is refused, and the fallback's plies are drawn.
    let g = small_game(
        "needle",
        20,
        20,
        r#"
[[setup]]
put = "p"
owner = "one"
at = ["t20"]

[[actions]]
name = "go"
choose = ['to in cells where empty(to)']
effect = 'place(to, p, me)'
check = 'file(to) == 1 && rank(to) <= 3 && count(x in cells: owner(x) == me) < 3'
notation = '{to}'

[[actions]]
name = "rest"
fallback = true
choose = ['x in [a20, b20, c20, d20]']
effect = 'place(x, p, me)'
notation = 'rest {x}'
"#,
    );
    let start = g.start();
    let texts: Vec<String> = g
        .legal_with_notation(&start)
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    assert_eq!(texts, ["a1", "a2", "a3"]);
    assert_uniform(&g, &start, "three legal plies among 400 candidates");
    // One's next piece would be its third (the check reads the position after the
    // effect): no `go` passes the check, so only `rest` is left.
    let mut s = start.clone();
    for ply in ["a1", "a2"] {
        let legal = g.legal_with_notation(&s);
        let (_, p) = legal.iter().find(|(t, _)| t == ply).expect("a legal ply");
        g.play(&mut s, p);
    }
    let texts: Vec<String> = g
        .legal_with_notation(&s)
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    assert_eq!(texts, ["rest a20", "rest b20", "rest c20", "rest d20"]);
    assert_uniform(
        &g,
        &s,
        "the fallback's plies after every candidate was refused",
    );
}

#[test]
fn drawn_plies_are_uniform_when_a_later_part_chooses_among_cells_next_to_a_set() {
    // The optional second part picks a cell next to a piece of mine on c3. Only a first
    // part that puts the piece on c3 leaves it eight cells (its neighbours), so the
    // second part must get slots enough for all eight: one piece put down adds all its
    // neighbours to the cells next to a set, not one cell per edit as for a set that
    // reads each cell's own stack. 32 legal plies: 23 placements elsewhere, and c3 with
    // each of its neighbours or alone.
    let g = small_game(
        "near",
        5,
        5,
        r#"
[[setup]]
put = "p"
owner = "two"
at = ["e5"]

[[actions]]
name = "put"
choose = ['to in cells where empty(to)']
effect = 'place(to, p, me)'
notation = '{to}'

[[actions.then]]
optional = true
choose = ['y in cells where any(z in adjacent(y) where owner(z) == me && z == c3)']
effect = 'place(y, p, me)'
notation = ' +{y}'
"#,
    );
    let legal = g.legal_with_notation(&g.start());
    assert_eq!(legal.len(), 32);
    assert_eq!(
        legal.iter().filter(|(t, _)| t.starts_with("c3 +")).count(),
        8
    );
    assert_uniform(
        &g,
        &g.start(),
        "a later part among the cells next to a piece",
    );
}

#[test]
fn drawn_plies_are_uniform_when_a_piece_and_its_way_are_listed_in_one_loop() {
    // Both actions are a piece and a direction: `push` tests each direction by a `where`
    // that reads it (so the head lists, per piece, the directions that pass), `hop` has
    // its landing folded into the directions and a `let` after them. Their plies must
    // be drawn as often as each other whatever the heads make of them.
    let g = small_game(
        "ways",
        4,
        4,
        r#"
[[setup]]
put = "p"
owner = "one"
at = ["a1", "b2", "d4"]

[[setup]]
put = "p"
owner = "two"
at = ["b3", "c2"]

[[actions]]
name = "push"
choose = ['from in cells where owner(from) == me', 'd in directions(from)', 'to = step(from, d)', 'where !empty(to) && first_empty(to, d) != none']
effect = 'push(to, d); move(from, to)'
notation = '{from}>{to}'

[[actions]]
name = "hop"
choose = ['from in cells where owner(from) == me', 'd in directions(from)', 'to = step(from, d)', 'where empty(to)', 'beyond = step(to, d)']
effect = 'move(from, to); if beyond != none && empty(beyond) { place(beyond, p, me) }'
notation = '{from}-{to}'
"#,
    );
    let texts = crate::common::legal(&g, &g.start());
    // a1 pushes b2 towards c3; b2 pushes b3 and c2 off to the empty b4 and d2, not a1
    // off the board; every step onto an empty cell is a hop.
    assert_eq!(
        texts,
        [
            "a1-a2", "a1-b1", "a1>b2", "b2-a2", "b2-a3", "b2-b1", "b2-c1", "b2-c3", "b2>b3",
            "b2>c2", "d4-c3", "d4-c4", "d4-d3"
        ]
    );
    assert_uniform(&g, &g.start(), "a piece and its way");
}

#[test]
fn a_head_of_kept_sets_lists_what_the_general_listing_lists() {
    // `engine::kept` reads a head whose pieces and targets are sets the position keeps
    // from the position's words and the board's links: the same candidates in the same
    // order as the general listing, so the same seeds draw the same plies.
    // A game, its parameters, and the actions whose heads are of kept sets.
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a [&'a str]);
    let cases: [Case; 5] = [
        (
            "splut",
            &[],
            &["sorcerer", "troll step", "troll throw", "dwarf"],
        ),
        (
            "splut",
            &[("players", "3")],
            &["sorcerer", "troll step", "troll throw", "dwarf"],
        ),
        ("staqs", &[], &["step"]),
        ("morris", &[], &["move"]),
        // The opponent's pieces (`owner(to) == next(me)`) are no set the position keeps.
        ("clobber", &[], &[]),
    ];
    for (name, params, expected) in cases {
        let g = game(name, params);
        let kept: Vec<&str> = (g.actions.iter())
            .filter(|a| a.kept_head.is_some())
            .map(|a| a.name.as_str())
            .collect();
        assert_eq!(kept, expected, "{name} {params:?}: the heads of kept sets");
        let mut general = g.clone();
        for action in &mut general.actions {
            action.kept_head = None;
        }
        same_draws(&g, &general, &format!("{name} {params:?}"), 4, 300);
    }
}

#[test]
fn a_head_of_kept_sets_lists_what_the_general_listing_lists_on_boards_of_many_words() {
    // `engine::kept` works a head's sets out in one register on a board of up to 64
    // cells and word by word on larger ones: a head of every shape it reads (a folded
    // step, the neighbours through a table, the link directions), whose pieces and
    // targets are every sort of set the position keeps (the mover's cells and their
    // complement, a seat's, the empty and the occupied cells, a kind on top, a kind held,
    // a stack test), on boards of one word (the reference for the others), two, three
    // and four, where the pieces start on every word and cross from one to the next.
    // Dropping a complement of the wider version (the mover's cells for "not mine")
    // lists other entries than the general listing, and the draws part.
    for (files, ranks) in [(8, 8), (9, 9), (12, 12), (16, 13)] {
        let g = small_game("wide", files, ranks, &wide_heads(files, ranks));
        let words = g.start().words();
        assert_eq!(
            words,
            (usize::from(files) * usize::from(ranks)).div_ceil(64)
        );
        let kept: Vec<&str> = (g.actions.iter())
            .filter(|a| a.kept_head.is_some())
            .map(|a| a.name.as_str())
            .collect();
        assert_eq!(
            kept,
            ["walk", "raid", "strike", "climb", "leap", "shove"],
            "{files}x{ranks}: the heads of kept sets"
        );
        let mut general = g.clone();
        for action in &mut general.actions {
            action.kept_head = None;
        }
        same_draws(
            &g,
            &general,
            &format!("{files}x{ranks}, {words} words"),
            4,
            200,
        );
    }
}

#[test]
fn a_check_decided_before_the_move_is_the_check_after_it_on_boards_of_many_words() {
    // `engine::check_before` grows the groups a move would leave within the position's
    // set of like pieces, patched at the two cells the move edits: in a register on a
    // board of up to 64 cells, word by word on larger ones. Bounce on boards of one word
    // (the reference for the others), two, three and four; the test game of checks on
    // groups (`tests/games/group_moves.toml`) on one word and two, and on a board that
    // is no rectangle (whose groups grow link by link, as on every such board however
    // many words it takes). Each against the same game with every check asked after its
    // move. (Debug builds also ask every check decided before the move after it, and
    // stop where the two differ.)
    let mut games: Vec<(String, Game)> = ["8", "10", "12", "16"]
        .into_iter()
        .map(|size| (format!("bounce {size}"), game("bounce", &[("size", size)])))
        .collect();
    let path = format!(
        "{}/tests/games/group_moves.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("the test game");
    for params in [&[("files", "8")][..], &[], &[("holes", "true")]] {
        let g = crate::common::game_from_text(&path, text.clone(), params);
        games.push((format!("group moves {params:?}"), g));
    }
    for (what, g) in games {
        let decided = g.actions.iter().any(|a| a.compiled[0].before.is_some());
        assert!(decided, "{what}: no check decided before its move");
        let mut general = g.clone();
        for action in &mut general.actions {
            for part in &mut action.compiled {
                part.before = None;
            }
        }
        let words = g.start().words();
        same_draws(&g, &general, &format!("{what}, {words} words"), 3, 120);
    }
}

/// The setup and actions of the game of
/// [`a_head_of_kept_sets_lists_what_the_general_listing_lists_on_boards_of_many_words`]
/// on a board of `files` x `ranks`: a second owned kind `k` and neutral rocks `r`
/// spread over every rank (so over every word of the board's sets), each side's pieces
/// on the ranks nearest it and a few in the middle, and one action per sort of kept
/// set, each written as a game would (`owner(to) != me`, not a set made for the test).
fn wide_heads(files: u8, ranks: u8) -> String {
    let mut rocks = Vec::new();
    let (mut one, mut two, mut ones, mut twos) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for rank in 1..=ranks {
        for file in 1..=files {
            let cell = format!("\"{}{rank}\"", char::from(b'a' + file - 1));
            let (f, r) = (u32::from(file), u32::from(rank));
            if (f * 5 + r * 3) % 7 == 0 {
                rocks.push(cell);
            } else if rank <= 2 && (f + r) % 2 == 0 || (f * 3 + r) % 11 == 0 {
                if f % 3 == 0 {
                    ones.push(cell)
                } else {
                    one.push(cell)
                }
            } else if rank > ranks - 2 && (f + r) % 2 == 1 || (f + r * 7) % 13 == 0 {
                if f % 3 == 1 {
                    twos.push(cell)
                } else {
                    two.push(cell)
                }
            }
        }
    }
    let [rocks, one, two, ones, twos] = [rocks, one, two, ones, twos].map(|c| c.join(", "));
    format!(
        r#"
[pieces.k]
owned = true
symbol = {{ one = "O", two = "T" }}

[pieces.r]
symbol = "r"

[[setup]]
put = "r"
at = [{rocks}]

[[setup]]
put = "p"
owner = "one"
at = [{one}]

[[setup]]
put = "k"
owner = "one"
at = [{ones}]

[[setup]]
put = "p"
owner = "two"
at = [{two}]

[[setup]]
put = "k"
owner = "two"
at = [{twos}]

# Neighbours onto the empty cells.
[[actions]]
name = "walk"
choose = ['from in cells where top(from) == p && owner(from) == me', 'to in adjacent(from) where empty(to)']
effect = 'move(from, to)'
notation = '{{from}}-{{to}}'

# A folded step onto any cell not the mover's: the complement of the mover's cells.
[[actions]]
name = "raid"
choose = ['from in cells where top(from) == k && owner(from) == me', 'd in directions(from)', 'to = step(from, d)', 'where owner(to) != me']
effect = 'remove(to); move(from, to)'
notation = '{{from}}>{{to}}'

# Neighbours onto an occupied cell neither the mover's nor topped by a rock.
[[actions]]
name = "strike"
choose = ['from in cells where owner(from) == me', 'to in adjacent(from) where owner(to) != me && !empty(to) && top(to) != r']
effect = 'remove(to); move(from, to)'
notation = '{{from}}x{{to}}'

# Diagonal neighbours topped by a rock, in stacks of at most two (a stack test).
[[actions]]
name = "climb"
choose = ['from in cells where top(from) == p && owner(from) == me', 'to in adjacent(from, diagonal) where top(to) == r && height(to) <= 2']
effect = 'move_top(from, to)'
notation = '{{from}}^{{to}}'

# From a stack holding a rock, an orthogonal step onto a cell holding none, not the
# second seat's (a seat's cells, complemented).
[[actions]]
name = "leap"
choose = ['from in cells where has(from, r) && !has(from, k) && owner(from) == me', 'd in directions(from, orthogonal)', 'to = step(from, d)', 'where !has(to, r) && owner(to) != two']
effect = 'move_top(from, to)'
notation = '{{from}}/{{to}}'

# Every link direction, what it leads to tested after the head.
[[actions]]
name = "shove"
choose = ['from in cells where top(from) == k && owner(from) == me', 'd in directions(from)', 'to = step(from, d)', 'where first_empty(to, d) != none']
effect = 'push(to, d); move(from, to)'
notation = '{{from}}={{to}}'
"#
    )
}

/// How often [`same_draws`] compares whole listings, which cost far more than a draw.
const LISTED_EVERY: usize = 16;

/// Plays seeded random games of `g` and of `general`, the same game with a fast path
/// switched off, side by side for `plies` plies from each of `seeds` seeds: each draw
/// must be the same ply and leave the same position, so the fast path lists what the
/// general one lists, entry for entry and in the same order; and every
/// [`LISTED_EVERY`]th position has the same legal plies. `what` names the game in
/// messages.
fn same_draws(g: &Game, general: &Game, what: &str, seeds: u64, plies: usize) {
    for seed in 0..seeds {
        let (mut a, mut b) = (g.start(), general.start());
        let mut rng_a = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut rng_b = Xoshiro256PlusPlus::seed_from_u64(seed);
        for ply in 0..plies {
            if ply % LISTED_EVERY == 0 {
                let at = format!("{what}, seed {seed}, ply {ply}: the legal plies");
                assert_eq!(g.legal_plies(&a), general.legal_plies(&b), "{at}");
            }
            let drawn = g.play_random(&mut a, &mut rng_a);
            let listed = general.play_random(&mut b, &mut rng_b);
            assert_eq!(
                drawn, listed,
                "{what}, seed {seed}, ply {ply}: the drawn ply"
            );
            assert_eq!(a, b, "{what}, seed {seed}, ply {ply}: the position");
            if drawn.is_none() {
                break;
            }
        }
    }
}

#[test]
fn drawn_plies_are_uniform_when_a_later_part_reads_variables() {
    // The second part's set reads `spent` and `mark`, which only later parts write: every
    // piece of mine, the one on `mark`, or none (from the fourth removal on). The third
    // part reads `last`, which the first part writes, and `spent`, which the second part
    // writes: a draw that bounded their slots with the values before the ply would miss
    // plies.
    let g = small_game(
        "marks",
        4,
        4,
        r#"
[vars.global]
last = "cell"
mark = "cell"
spent = 0

[[setup]]
put = "p"
owner = "one"
at = ["a1", "c1"]

[[setup]]
put = "p"
owner = "two"
at = ["a4", "d4"]

[[actions]]
name = "step"
choose = ['from in cells where owner(from) == me', 'to in adjacent(from) where empty(to)']
effect = 'move(from, to); last = to'
notation = '{from}-{to}'

[[actions.then]]
optional = true
choose = ['r in cells where owner(r) == me && (spent < 2 || r == mark) && spent < 4']
effect = 'remove(r); spent = spent + 1'
notation = ' x{r}'

[[actions.then]]
optional = true
choose = ['q in adjacent(last) where empty(q) && (spent == 1 || spent == 3)']
effect = 'place(q, p, me); mark = q'
notation = ' +{q}'
"#,
    );
    // The second part's slots are bounded by its terms on `spent` and `mark` worked out
    // before the ply (one cell, or none, from the second removal on); the third part's
    // terms read `spent`, which the second part writes, and bound nothing.
    let within = |part: usize| match &g.actions[0].parts[part].choices[0] {
        rulebook::engine::program::Choice::In { bound, .. } => bound.within.is_some(),
        _ => unreachable!("an `in` choice"),
    };
    assert!(within(1));
    assert!(!within(2));
    // From the start: a1 steps to a2, b1 or b2 and c1 to b1, b2, c2, d1 or d2; each step
    // alone, or removing either piece of mine and then putting one on an empty cell next
    // to where the step went, or not.
    let texts = crate::common::legal(&g, &g.start());
    assert!(texts.contains(&"a1-b2 xc1 +c3".to_string()));
    assert!(!texts.iter().any(|t| t.starts_with("a1-b2 +")));
    // Per step, 1 + (1 + the empty cells next to it once the piece on it is removed) +
    // (1 + those while it stays): a1-a2 1+6+6, a1-b1 1+6+5 (c1 still there), a1-b2
    // 1+9+8, c1-b1 1+6+5 (a1 still there), c1-b2 1+9+8, c1-c2 1+9+9, c1-d1 1+4+4,
    // c1-d2 1+6+6.
    assert_eq!(texts.len(), 13 + 12 + 18 + 12 + 18 + 19 + 9 + 13);
    assert_uniform(
        &g,
        &g.start(),
        "a later part that reads variables, at the start",
    );
    let positions = sample_positions(&g, 2, 400, 24, |_| true);
    let removing = |s: &rulebook::engine::state::State| {
        g.legal_with_notation(s)
            .iter()
            .filter(|(t, _)| t.contains(" x"))
            .count()
    };
    assert!(positions.iter().any(|s| removing(s) == 0));
    assert!(positions.iter().any(|s| removing(s) > 0));
    for s in &positions {
        assert_uniform(&g, s, "a later part that reads variables");
    }
}

/// Asserts that drawing from `state` is uniform over its legal plies: 200 draws a ply, and
/// a chi-square statistic within six standard deviations of its mean (p < 1e-8 for a fair
/// draw, so the test does not flake), or, for a biased draw, far above it.
fn assert_uniform(g: &Game, state: &rulebook::engine::state::State, what: &str) {
    let n = g.legal_plies(state).len();
    let counts = draw_counts(g, state, 200 * n);
    let dof = n as f64 - 1.0;
    let chi = chi_square(&counts);
    assert!(
        chi < dof + 6.0 * (2.0 * dof).sqrt(),
        "{what}: chi-square {chi:.1} for {dof} degrees of freedom over {counts:?}"
    );
}

/// Positions of seeded random games, every `every` plies, with 2 to `most` legal plies:
/// at most `wanted` of them, and only those whose legal texts pass `keep`.
fn sample_positions(
    g: &Game,
    every: usize,
    most: usize,
    wanted: usize,
    keep: impl Fn(&[String]) -> bool,
) -> Vec<rulebook::engine::state::State> {
    let mut found = Vec::new();
    for seed in 0..200u64 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut s = g.start();
        let mut ply = 0;
        while s.outcome.is_none() && found.len() < wanted {
            let legal = g.legal_with_notation(&s);
            let texts: Vec<String> = legal.iter().map(|(t, _)| t.clone()).collect();
            if ply % every == every - 1 && (2..=most).contains(&legal.len()) && keep(&texts) {
                found.push(s.clone());
            }
            let Some(next) = g.random_ply(&mut s, &mut rng) else {
                break;
            };
            g.play(&mut s, &next);
            ply += 1;
        }
        if found.len() >= wanted {
            break;
        }
    }
    assert_eq!(found.len(), wanted, "not enough positions found");
    found
}

#[test]
fn drawn_plies_are_uniform_in_positions_of_every_shipped_game() {
    // Each game's part shapes: Bounce's removal fallback, STAQS's placement and pass, Sight,
    // VLKNO's three decisions with a lowest-stack `let` (positions late enough to have few
    // plies), Splut!'s optional levitation and pull and its dependent throw direction, with
    // 2, 3 and 4 players, Nine Men's Morris's two actions per move (with and without
    // the removal part), chess's two-part moves of the long-range pieces beside its
    // one-part ones, Reversi's placements (few legal among the empty squares), draughts'
    // moves (a fallback behind captures) and Go's placements with their check.
    // (game, parameters, take every nth position, most legal plies)
    let games: [(&str, crate::common::Params, usize, usize); 14] = [
        ("bounce", &[("size", "4")], 3, 60),
        ("bounce", &[], 9, 60),
        ("staqs", &[], 2, 40),
        ("staqs", &[("diagonal_steps", "true")], 5, 40),
        ("sight", &[], 3, 40),
        ("sight", &[("strict_priority", "true")], 3, 40),
        ("vlkno", &[], 3, 150),
        ("splut", &[], 7, 40),
        ("splut", &[("players", "3")], 11, 40),
        ("morris", &[], 5, 80),
        ("chess", &[], 9, 60),
        ("reversi", &[], 7, 40),
        ("draughts", &[], 5, 40),
        ("go", &[("size", "5")], 5, 40),
    ];
    for (name, params, every, most) in games {
        let g = game(name, params);
        for (i, s) in sample_positions(&g, every, most, 3, |_| true)
            .iter()
            .enumerate()
        {
            assert_uniform(&g, s, &format!("{name} {params:?}, position {i}"));
        }
    }
    // Positions where the optional parts are legal both taken and skipped: a pull (and the
    // same step without it), a levitation (and the step without it), a throw.
    let g = game("splut", &[("players", "4")]);
    type Shape = (&'static str, fn(&str) -> bool);
    let shapes: [Shape; 3] = [
        ("a pull", |t| t.ends_with(" pull")),
        ("a levitation", |t| t.contains(" lev ")),
        ("a throw", |t| t.contains(" throw ")),
    ];
    for (what, shape) in shapes {
        let s = &sample_positions(&g, 1, 40, 1, |texts| texts.iter().any(|t| shape(t)))[0];
        assert_uniform(&g, s, &format!("splut, {what}"));
    }
    // A Morris position where a mill can be formed: quiet plies beside plies with a removal.
    let g = game("morris", &[]);
    let s = &sample_positions(&g, 1, 80, 1, |texts| texts.iter().any(|t| t.contains('x')))[0];
    assert_uniform(&g, s, "morris, a mill");
}

/// `g` drawn every way a draw may go: every ply listed; every action's candidates drawn;
/// some actions' plies listed beside the others' candidates, each way round.
fn every_route(g: &Game) -> Vec<(String, Game)> {
    let n = g.actions.len();
    let mut routes: Vec<(String, Game)> = Vec::new();
    for draw in [Draw::List, Draw::Sample] {
        let mut h = g.clone();
        h.draw = draw;
        routes.push((format!("{draw:?}"), h));
    }
    for parity in 0..2 {
        let listed: Vec<bool> = (0..n).map(|a| a % 2 == parity).collect();
        let mut h = g.clone();
        h.list_actions(&listed);
        routes.push((format!("listed {listed:?}"), h));
    }
    routes
}

#[test]
fn drawn_plies_are_uniform_whatever_the_route_of_each_action() {
    // Games of two-part, optional, repeated and fallback actions: Splut!'s optional
    // levitation, Konane's jumps that may stop, Morris's removal, Amazons' shot,
    // draughts' chain and its simple moves as a fallback, and draughts written with
    // optional parts, whose capture `auto` lists.
    // (game, parameters, take every nth position, most legal plies)
    let games: [(&str, crate::common::Params, usize, usize); 6] = [
        ("splut", &[], 7, 30),
        ("konane", &[], 1, 30),
        ("morris", &[], 5, 30),
        ("amazons", &[], 1, 40),
        ("draughts", &[], 5, 20),
        ("draughts_optional", &[], 3, 20),
    ];
    for (name, params, every, most) in games {
        let g = match name {
            "draughts_optional" => crate::common::test_game(name),
            _ => game(name, params),
        };
        let routes = every_route(&g);
        for (i, s) in sample_positions(&g, every, most, 2, |_| true)
            .iter()
            .enumerate()
        {
            for (route, h) in &routes {
                assert_uniform(h, s, &format!("{name}, position {i}, {route}"));
            }
        }
        // Draughts' positions with captures to choose from (written `AxB`), where the
        // capture part is what is drawn, listed or refused.
        if name.starts_with("draughts") {
            let captures = |texts: &[String]| texts.iter().filter(|t| t.contains('x')).count() >= 2;
            for (i, s) in sample_positions(&g, 1, most, 2, captures)
                .iter()
                .enumerate()
            {
                for (route, h) in &routes {
                    assert_uniform(h, s, &format!("{name}, capture position {i}, {route}"));
                }
            }
        }
    }
}

#[test]
fn drawn_plies_are_uniform_in_positions_of_the_classic_games() {
    // One-part placements and moves (with Hex's swap as a second action; Gomoku's 225
    // points, Xiangqi's moves refused by a check after the move), and Amazons'
    // two-part plies: the queen moves listed, the arrows drawn from slots (eight
    // directions times the longest line) in the position each move leaves, most of them
    // refused, in a middle game of some 400 plies and in smaller ones.
    // (game, parameters, take every nth position, most legal plies)
    let games: [(&str, crate::common::Params, usize, usize); 10] = [
        ("tictactoe", &[], 1, 9),
        ("gomoku", &[], 9, 230),
        ("xiangqi", &[], 9, 60),
        ("connect4", &[], 5, 7),
        ("breakthrough", &[], 7, 40),
        ("clobber", &[], 3, 40),
        ("hex", &[("size", "5"), ("swap", "true")], 1, 25),
        ("amazons", &[], 1, 400),
        ("amazons", &[], 1, 120),
        ("amazons", &[], 1, 40),
    ];
    for (name, params, every, most) in games {
        let g = game(name, params);
        for (i, s) in sample_positions(&g, every, most, 2, |_| true)
            .iter()
            .enumerate()
        {
            assert_uniform(&g, s, &format!("{name} {params:?}, position {i}"));
        }
    }
    // Hex's second ply with the swap beside the placements.
    let g = game("hex", &[("size", "5"), ("swap", "true")]);
    let s = &sample_positions(&g, 1, 25, 1, |texts| texts.iter().any(|t| t == "swap"))[0];
    assert_uniform(&g, s, "hex, the swap");
}
