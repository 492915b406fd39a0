//! The interpreter's rules on small hand-made games: optional parts, the stuck rule,
//! plies written alike, statement separators, where sorted lists may stand.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rulebook::engine::game::Game;
use rulebook::{compile, spec};

use crate::common::{game_of as game, legal as texts, refused};

/// Two players, a 3x1 board, one owned piece kind; `rest` adds setup and actions.
fn two_players(rest: &str) -> String {
    two_players_on("files = 3\nranks = 1", rest)
}

/// Two players on the board `board` describes, one owned piece kind; `rest` adds setup
/// and actions.
fn two_players_on(board: &str, rest: &str) -> String {
    format!(
        r#"
[game]
name = "small"

[[players]]
name = "a"

[[players]]
name = "b"

[board]
{board}

[pieces.p]
owned = true
symbol = {{ a = "A", b = "B" }}
{rest}
"#
    )
}

#[test]
fn a_skipped_optional_part_leaves_its_names_none_for_the_parts_after_it() {
    // Part 2 (optional) picks `x`; part 3 must see `x` as none when part 2 is skipped,
    // whatever value an earlier branch of the generator left behind.
    let g = game(&two_players(
        r#"
[[actions]]
name = "go"
choose = ['at in cells where empty(at)']
notation = '{at}'

[[actions.then]]
optional = true
choose = ['x in cells where x != at']
notation = ' +{x}'

[[actions.then]]
choose = ['where x == none']
effect = 'place(at, p, me)'
notation = ' plain'
"#,
    ));
    // With the bug, a branch that chose x first left it set, and the skip branch was
    // filtered by the stale value. Every cell must give exactly its plain ply.
    assert_eq!(texts(&g, &g.start()), ["a1 plain", "b1 plain", "c1 plain"]);
}

#[test]
fn a_skipped_optional_part_leaves_the_lets_of_its_effect_none_too() {
    // Part 2 (optional) names `y` in its effect; part 3 must see `y` as none when part 2
    // is skipped. It read the slot as an earlier branch, or the fresh frame (a1), left it.
    let g = game(&two_players(
        r#"
[[actions]]
name = "go"
choose = ['at in cells where empty(at)']
notation = '{at}'

[[actions.then]]
optional = true
choose = ['x in cells where x != at']
effect = 'let y = x'
notation = ' +{x}'

[[actions.then]]
choose = ['where y == none']
effect = 'place(at, p, me)'
notation = ' plain {y}'
"#,
    ));
    let s = g.start();
    let plain = ["a1 plain none", "b1 plain none", "c1 plain none"];
    assert_eq!(texts(&g, &s), plain);
    // Drawn and played, the same.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    for _ in 0..30 {
        let ply = g.random_ply(&mut s.clone(), &mut rng).expect("a ply");
        assert!(plain.contains(&g.notation(&s, &ply).as_str()));
    }
}

#[test]
fn an_optional_part_gives_plies_with_and_without_it() {
    let g = game(&two_players(
        r#"
[[actions]]
name = "go"
choose = ['at in cells where empty(at)']
effect = 'place(at, p, me)'
notation = '{at}'

[[actions.then]]
optional = true
choose = ['x in cells where empty(x) && x != at']
effect = 'place(x, p, me)'
notation = ' {x}'
"#,
    ));
    let start = g.start();
    assert_eq!(
        texts(&g, &start),
        [
            "a1", "a1 b1", "a1 c1", "b1", "b1 a1", "b1 c1", "c1", "c1 a1", "c1 b1"
        ]
    );
    // Replaying a ply with a skipped part plays only the first part.
    let ply = g.parse_ply(&start, "b1").unwrap();
    let mut after = start.clone();
    g.play(&mut after, &ply);
    assert_eq!(texts(&g, &after), ["a1", "a1 c1", "c1", "c1 a1"]);
}

#[test]
fn the_stuck_rule_applies_to_the_first_player_too() {
    // Nobody can place on a full board: the first player is stuck at once and loses.
    let g = game(&two_players(
        r#"
[[setup]]
put = "p"
owner = "b"

[[actions]]
name = "put"
choose = ['at in cells where empty(at)']
effect = 'place(at, p, me)'
notation = '{at}'
"#,
    ));
    let outcome = g
        .start()
        .outcome
        .expect("the game is over before it starts");
    assert_eq!(outcome.winners, [1]);
}

#[test]
fn the_stuck_rule_passes_the_first_player_when_the_file_says_pass() {
    // Only b can play (a's pieces cover nothing b needs; `put` is b's alone).
    let g = game(&two_players(
        r#"
[turns]
stuck = "pass"

[[actions]]
name = "put"
choose = ['where me == b', 'at in cells where empty(at)']
effect = 'place(at, p, me)'
notation = '{at}'
"#,
    ));
    let start = g.start();
    assert!(start.outcome.is_none());
    assert_eq!(g.players[start.to_move as usize], "b");
    assert_eq!(texts(&g, &start), ["a1", "b1", "c1"]);
}

#[test]
fn a_player_who_loses_by_the_stuck_rule_leaves_their_pieces_on_the_board() {
    // Three players; c has a piece but never any ply: c drops out at its first turn and
    // its piece stays where it stands.
    let g = game(
        r#"
[game]
name = "three"

[[players]]
name = "a"

[[players]]
name = "b"

[[players]]
name = "c"

[board]
files = 4
ranks = 1

[pieces.p]
owned = true
symbol = { a = "A", b = "B", c = "C" }

[[setup]]
put = "p"
owner = "c"
at = ["d1"]

[[actions]]
name = "put"
choose = ['where me != c', 'at in cells where empty(at)']
effect = 'place(at, p, me)'
notation = '{at}'
"#,
    );
    let mut state = g.start();
    let ply = g.parse_ply(&state, "a1").unwrap();
    g.play(&mut state, &ply);
    let ply = g.parse_ply(&state, "b1").unwrap();
    g.play(&mut state, &ply);
    // c was skipped: a is to move again, c is out, and c's piece is still on d1.
    assert_eq!(g.players[state.to_move as usize], "a");
    assert!(!state.is_alive(2));
    assert_eq!(texts(&g, &state), ["c1"]);
    let d1 = g.board.names.iter().position(|n| n == "d1").unwrap();
    assert_eq!(state.stacks()[d1].len(), 1);
    assert_eq!(state.stacks()[d1][0].owner, 2);
}

#[test]
fn two_plies_written_alike_are_reported() {
    // Both actions write only the cell: `a1` would name two different plies.
    let g = game(&two_players(
        r#"
[[actions]]
name = "put"
choose = ['at in cells where empty(at)']
effect = 'place(at, p, me)'
notation = '{at}'

[[actions]]
name = "mark"
choose = ['at in cells where at == a1']
effect = 'place(at, p, me); place(at, p, me)'
notation = '{at}'
"#,
    ));
    let legal = g.legal_with_notation(&g.start());
    let err = g.check_notation(&legal).unwrap_err();
    assert!(err.contains("both written `a1`"), "{err}");
    assert!(
        err.contains("`put` and `mark`") || err.contains("`mark` and `put`"),
        "{err}"
    );
    let probe = rulebook::cli::probe(&g, "test.toml").expect_err("probe fails");
    assert!(probe.0.contains("both written `a1`"), "{}", probe.0);
}

#[test]
fn a_statement_ending_in_a_block_needs_no_semicolon() {
    let g = game(&two_players(
        r#"
[[actions]]
name = "put"
choose = ['at in cells where empty(at)']
effect = 'for x in cells where x == at { place(x, p, me) } if at == a1 { place(a1, p, me) } place(at, p, me)'
notation = '{at}'
"#,
    ));
    let mut state = g.start();
    let ply = g.parse_ply(&state, "a1").unwrap();
    g.play(&mut state, &ply);
    assert_eq!(state.stacks()[0].len(), 3);
}

#[test]
fn a_missing_semicolon_between_statements_is_named() {
    let shown = refused(&two_players(
        r#"
[[actions]]
name = "put"
choose = ['at in cells where empty(at)']
effect = 'place(at, p, me) place(at, p, me)'
notation = '{at}'
"#,
    ));
    assert!(shown.contains("expected `;` between statements"), "{shown}");
}

#[test]
fn a_sorted_list_is_refused_anywhere_but_the_whole_score() {
    let shown = refused(&two_players(
        r#"
[scoring]
score = 'max(x in cells: 1) + count(c in cells where sort_desc(y in cells: 1) == 1)'

[[actions]]
name = "put"
choose = ['at in cells where empty(at)']
effect = 'place(at, p, me)'
notation = '{at}'

[[end]]
when = 'count(c in cells where empty(c)) == 0'
result = "score"
"#,
    ));
    assert!(
        shown.contains("can only be the whole of a `[scoring] score`"),
        "{shown}"
    );
    // As the whole score it is accepted.
    game(&two_players(
        r#"
[scoring]
score = 'sort_desc(c in cells where owner(c) == me: height(c))'

[[actions]]
name = "put"
choose = ['at in cells where empty(at)']
effect = 'place(at, p, me)'
notation = '{at}'

[[end]]
when = 'count(c in cells where empty(c)) == 0'
result = "score"
"#,
    ));
}

#[test]
fn filters_on_owners_and_empty_cells_keep_their_meaning_when_read_from_cell_sets() {
    // `cells where owner(x) == P`, `empty(x)` and `!empty(x)` are answered from the
    // state's cell sets; `none` as the owner means empty or neutral, as `owner` says.
    let g = game(
        &two_players(
            r#"
[pieces.rock]
symbol = "R"

[[setup]]
put = "rock"
at = ["a1"]

[[setup]]
put = "p"
owner = "a"
at = ["b1"]

[[setup]]
put = "p"
owner = "b"
at = ["d1"]

[[actions]]
name = "none"
choose = ['x in cells where owner(x) == none']
notation = 'none {x}'

[[actions]]
name = "later"
choose = ['x in cells where x != a1 && none == owner(x)']
notation = 'later {x}'

[[actions]]
name = "mine"
choose = ['x in cells where me == owner(x)']
notation = 'mine {x}'

[[actions]]
name = "theirs"
choose = ['x in cells where owner(x) == next(me) && !empty(x)']
notation = 'theirs {x}'

[[actions]]
name = "full"
choose = ['x in cells where !empty(x)', 'k = count(y in cells where empty(y))']
notation = 'full {x} {k}'
"#,
        )
        .replace("files = 3", "files = 4"),
    );
    let mut all = texts(&g, &g.start());
    all.sort();
    assert_eq!(
        all,
        [
            "full a1 1",
            "full b1 1",
            "full d1 1",
            "later c1",
            "mine b1",
            "none a1",
            "none c1",
            "theirs d1"
        ]
    );
}

/// Whether a condition holds, evaluated as the `where` of a one-ply game.
fn holds(condition: &str) -> bool {
    let g = game(&two_players(&format!(
        "[[actions]]\nname = \"t\"\nchoose = ['where {condition}']\nnotation = 't'\n"
    )));
    !g.legal_plies(&g.start()).is_empty()
}

#[test]
fn and_binds_tighter_than_or_on_either_side() {
    // With equal precedence each of these would be false: the first and third read left
    // to right, the second right to left.
    assert!(holds("true || false && false"));
    assert!(holds("false && false || true"));
    assert!(holds("true or false and false"));
    assert!(!holds("(true || false) && false"));
    // Comparisons bind tighter than `&&`, arithmetic tighter than comparisons.
    assert!(holds("1 + 2 * 3 == 7 && 2 < 3"));
    assert!(holds("10 - 4 - 3 == 3"));
    assert!(holds("12 / 3 / 2 == 2"));
}

#[test]
fn division_and_remainder_of_negative_numbers_and_overflow_are_as_documented() {
    // `/` truncates toward zero, `%` takes the sign of the left side, by zero gives 0.
    assert!(holds("(0 - 7) / 2 == 0 - 3"));
    assert!(holds("(0 - 7) % 3 == 0 - 1"));
    assert!(holds("7 % (0 - 3) == 1"));
    assert!(holds("(0 - 7) % (0 - 3) == 0 - 1"));
    assert!(holds("7 / (0 - 2) == 0 - 3"));
    assert!(holds("5 / 0 == 0 && 5 % 0 == 0"));
    // Arithmetic wraps: the largest number plus one is the smallest.
    assert!(holds(
        "9223372036854775807 + 1 == 0 - 9223372036854775807 - 1"
    ));
    assert!(holds(
        "(0 - 9223372036854775807 - 1) / (0 - 1) == 0 - 9223372036854775807 - 1"
    ));
    assert!(holds("(0 - 9223372036854775807 - 1) % (0 - 1) == 0"));
}

/// A game where `a`'s first ply puts a piece and, by `effect`, may do more; the file's end
/// rules and cap are `ends`.
fn first_ply_game(effect: &str, ends: &str) -> Game {
    game(&two_players(&format!(
        "{ends}\n[[actions]]\nname = \"put\"\nchoose = ['at in cells where empty(at)']\neffect = 'place(at, p, me); {effect}'\nnotation = '{{at}}'\n"
    )))
}

fn after_first_ply(g: &Game) -> rulebook::engine::state::State {
    let mut s = g.start();
    let ply = g.legal_plies(&s)[0].clone();
    g.play(&mut s, &ply);
    s
}

#[test]
fn at_the_end_of_a_ply_end_rules_come_before_last_player_standing_and_the_ply_cap() {
    // The winning ply is also the capped ply: the end rule decides, not the cap.
    let text = two_players(
        "[[end]]\nwhen = 'plies == 1'\nwinner = 'b'\n\n[[actions]]\nname = \"put\"\nchoose = ['at in cells where empty(at)']\neffect = 'place(at, p, me)'\nnotation = '{at}'\n",
    )
    .replace("[game]\nname = \"small\"", "[game]\nname = \"small\"\nmax_plies = 1");
    let g = game(&text);
    assert_eq!(g.max_plies, Some(1));
    let outcome = after_first_ply(&g).outcome.expect("over");
    assert_eq!((outcome.winners, outcome.reason), (vec![1], None));

    // An end rule and last player standing on the same ply: the end rule decides.
    let g = first_ply_game(
        "eliminate(b)",
        "[[end]]\nwhen = 'plies == 1'\nresult = \"draw\"\n",
    );
    let outcome = after_first_ply(&g).outcome.expect("over");
    assert_eq!((outcome.winners, outcome.reason), (vec![], None));

    // Last player standing on the capped ply: the player left wins, no cap.
    let text = two_players(
        "[[actions]]\nname = \"put\"\nchoose = ['at in cells where empty(at)']\neffect = 'place(at, p, me); eliminate(b)'\nnotation = '{at}'\n",
    )
    .replace("[game]\nname = \"small\"", "[game]\nname = \"small\"\nmax_plies = 1");
    let outcome = after_first_ply(&game(&text)).outcome.expect("over");
    assert_eq!((outcome.winners, outcome.reason), (vec![0], None));

    // The cap alone: a draw, reported as the cap.
    let text = two_players(
        "[[actions]]\nname = \"put\"\nchoose = ['at in cells where empty(at)']\neffect = 'place(at, p, me)'\nnotation = '{at}'\n",
    )
    .replace("[game]\nname = \"small\"", "[game]\nname = \"small\"\nmax_plies = 1");
    let outcome = after_first_ply(&game(&text)).outcome.expect("over");
    assert_eq!(outcome.winners, Vec::<u8>::new());
    assert!(outcome.reason.is_some_and(|r| r.contains("cap")));
}

#[test]
fn after_a_silent_pass_the_turn_and_the_player_move_on_and_two_passes_in_a_row_draw() {
    // Only `a` may place, on an empty cell: a plays, b is stuck and passes silently, a
    // plays again at turn 3; once the board is full both pass in a row: a draw.
    let g = game(&two_players(
        "[turns]\nstuck = \"pass\"\n\n[[actions]]\nname = \"put\"\nchoose = ['where me == a', 'at in cells where empty(at)']\neffect = 'place(at, p, me)'\nnotation = '{at}'\n",
    ));
    let mut s = g.start();
    assert_eq!((s.turn, s.to_move, s.plies), (1, 0, 0));
    for (played, turn) in [(1, 3), (2, 5)] {
        let ply = g.legal_plies(&s)[0].clone();
        g.play(&mut s, &ply);
        assert!(s.outcome.is_none());
        assert_eq!((s.turn, s.to_move, s.plies), (turn, 0, played), "b passed");
        assert_eq!(s.ply_in_turn, 1);
    }
    let ply = g.legal_plies(&s)[0].clone();
    g.play(&mut s, &ply);
    let outcome = s.outcome.clone().expect("both players passed: a draw");
    assert_eq!((outcome.winners, outcome.reason), (vec![], None));
    assert_eq!(s.plies, 3);
}

#[test]
fn filters_on_the_top_kind_keep_their_meaning_when_read_from_cell_sets() {
    // `cells where top(x) == K` is answered from the state's cell sets (every owner of the
    // kind); `none` as the kind means empty cells, as `top` says; the rest of the filter
    // still applies, and the cells come in board order.
    let g = game(
        &two_players(
            r#"
[pieces.rock]
symbol = "R"

[[setup]]
put = "rock"
at = ["a1", "c1"]

[[setup]]
put = "p"
owner = "a"
at = ["b1", "c1"]

[[setup]]
put = "p"
owner = "b"
at = ["d1"]

[[actions]]
name = "p"
choose = ['x in cells where top(x) == p']
notation = 'p {x}'

[[actions]]
name = "rock"
choose = ['x in cells where height(x) == 1 && rock == top(x)']
notation = 'rock {x}'

[[actions]]
name = "none"
choose = ['x in cells where top(x) == none']
notation = 'none {x}'
"#,
        )
        .replace("files = 3", "files = 5"),
    );
    let mut all = texts(&g, &g.start());
    all.sort();
    assert_eq!(all, ["none e1", "p b1", "p c1", "p d1", "rock a1"]);
}

#[test]
fn leaps_and_membership_keep_their_meaning_when_read_from_cell_sets() {
    // `leaps(c, 1, 2)` in a filter is a board mask, and `any(y in S where y == x)` is read
    // as the set S when S does not read x: both give the cells they give walked one by one
    // (a1 is not on its own ray; a ray from the element itself is walked, never a set).
    let g = game(
        &two_players(
            r#"
[[setup]]
put = "p"
owner = "a"
at = ["c3", "b1"]

[[setup]]
put = "p"
owner = "b"
at = ["d5", "c4"]

[[actions]]
name = "leap"
choose = ['to in leaps(c3, 1, 2) where owner(to) != me']
notation = 'leap {to}'

[[actions]]
name = "leap as a set"
choose = ['to in cells where owner(to) != me && any(y in leaps(c3, 1, 2) where y == to)']
notation = 'in leaps {to}'

[[actions]]
name = "slide or the blocker"
choose = ['to in cells where any(y in slide(c3, n) where y == to) || to == first(x in ray(c3, n) where !empty(x))']
notation = 'north {to}'

[[actions]]
name = "not on the diagonal"
choose = ['to in cells where empty(to) && rank(to) == 1 && !any(y in ray(a1, ne) where y == to)']
notation = 'off {to}'

[[actions]]
name = "a set that reads the element"
choose = ['to in cells where any(y in ray(to, n) where y == to)']
notation = 'never {to}'
"#,
        )
        .replace("files = 3\nranks = 1", "files = 5\nranks = 5"),
    );
    let mut all = texts(&g, &g.start());
    all.sort();
    let expected: Vec<String> = [
        "in leaps a2",
        "in leaps a4",
        "in leaps b5",
        "in leaps d1",
        "in leaps d5",
        "in leaps e2",
        "in leaps e4",
        "leap a2",
        "leap a4",
        "leap b5",
        "leap d1",
        "leap d5",
        "leap e2",
        "leap e4",
        "north c4",
        "off a1",
        "off c1",
        "off d1",
        "off e1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(all, expected);
}

/// One piece of `a` in the middle of a 3x3 board with all eight directions, one of `b`
/// in a corner; `a`'s piece steps through `directions`, `step` and a `where` (the shape
/// the compiler folds into a set of directions).
fn steps_game(condition: &str) -> Game {
    game(&two_players_on(
        "files = 3\nranks = 3\nlinks = [{ dirs = \"all_directions\" }]",
        &format!(
            r#"
[[setup]]
put = "p"
owner = "a"
at = ["b2"]

[[setup]]
put = "p"
owner = "b"
at = ["a1"]

[[actions]]
name = "step"
choose = ['from in cells where owner(from) == me', 'd in directions(from)', 'to = step(from, d)', 'where {condition}']
effect = 'move(from, to)'
notation = '{{from}}-{{to}}'
"#
        ),
    ))
}

#[test]
fn a_step_condition_that_reads_the_direction_is_tested_for_each_direction() {
    // Regression: folding the `where` into a set of directions worked the set out once,
    // before a direction was chosen, so `d != n` read a stale direction (no ply at all).
    let g = steps_game("empty(to) && d != n");
    assert_eq!(
        texts(&g, &g.start()),
        ["b2-a2", "b2-a3", "b2-b1", "b2-c1", "b2-c2", "b2-c3"]
    );
    // Without the direction, b2-b3 as well, and every ply can be drawn.
    let g = steps_game("empty(to)");
    assert_eq!(
        texts(&g, &g.start()),
        [
            "b2-a2", "b2-a3", "b2-b1", "b2-b3", "b2-c1", "b2-c2", "b2-c3"
        ]
    );
    let mut rng = <rand::rngs::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(5);
    let mut drawn = std::collections::BTreeSet::new();
    for _ in 0..300 {
        let mut s = g.start();
        let ply = g.random_ply(&mut s, &mut rng).expect("a ply");
        drawn.insert(g.notation(&s, &ply));
    }
    assert_eq!(drawn.len(), 7, "{drawn:?}");
}

#[test]
fn a_count_of_groups_compared_with_a_constant_is_exact_whatever_the_constant() {
    // Player a has three groups (a1, c1-c2, e1); each `mark` action is legal exactly when
    // its comparison holds. The closures count at most one group more than the constant
    // (`groups(me) == 1` stops at the second); the answers must be those of the full count.
    let checks = [
        ("eq3", "groups(me) == 3", true),
        ("eq1", "groups(me) == 1", false),
        ("ne2", "groups(me) != 2", true),
        ("ne3", "groups(me) != 3", false),
        ("gt1", "groups(me) > 1", true),
        ("gt3", "groups(me) > 3", false),
        ("ge3", "groups(me) >= 3", true),
        ("ge4", "groups(me) >= 4", false),
        ("lt4", "groups(me) < 4", true),
        ("lt3", "groups(me) < 3", false),
        ("le3", "groups(me) <= 3", true),
        ("le0", "groups(me) <= 0", false),
        ("gtneg", "groups(me) > -1", true),
        ("eqneg", "groups(me) == -1", false),
    ];
    let mut rest = String::from(
        "[[setup]]\nput = \"p\"\nowner = \"a\"\nat = [\"a1\", \"c1\", \"c2\", \"e1\"]\n",
    );
    for (name, cond, _) in checks {
        rest.push_str(&format!(
            "[[actions]]\nname = \"{name}\"\nchoose = ['where {cond}']\neffect = 'place(e3, p, me)'\nnotation = '{name}'\n"
        ));
    }
    let g = game(&two_players_on("files = 5\nranks = 3", &rest));
    let legal = texts(&g, &g.start());
    let expected: Vec<&str> = {
        let mut v: Vec<&str> = checks.iter().filter(|c| c.2).map(|c| c.0).collect();
        v.sort();
        v
    };
    assert_eq!(legal, expected);
}

/// The game of `text`, compiled and walked, each with its start's stacks on the cells
/// named in `heights` made that many pieces tall (of the first kind): the height tests
/// compare both ways of evaluating the sets by height.
fn both_ways_with_heights(
    text: &str,
    heights: &[(&str, usize)],
) -> Vec<(Game, rulebook::engine::state::State)> {
    let source = spec::parse("test.toml", text.to_string()).unwrap_or_else(|d| panic!("{d}"));
    [
        compile::compile(&source, &[]).unwrap_or_else(|d| panic!("{d}")),
        crate::walk::compile(&source, &[]).unwrap_or_else(|d| panic!("{d}")),
    ]
    .into_iter()
    .map(|g| {
        let mut s = g.start();
        let piece = rulebook::engine::state::Piece::new(0, 0, 0);
        for &(name, h) in heights {
            let cell = g.board.find(name).unwrap();
            s.edit_stack(cell, |st| st.extend(std::iter::repeat_n(piece, h)));
        }
        (g, s)
    })
    .collect()
}

/// The cells named by the legal plies of the action written `name {x}`, sorted.
fn cells_named(g: &Game, s: &rulebook::engine::state::State, name: &str) -> Vec<String> {
    let mut cells: Vec<String> = texts(g, s)
        .into_iter()
        .filter_map(|t| t.strip_prefix(&format!("{name} ")).map(str::to_string))
        .collect();
    cells.sort();
    cells
}

#[test]
fn heights_beyond_what_a_kept_height_says_are_read_from_the_stacks() {
    // The position keeps cells by height up to 65,535 pieces; a stack of 70,000 must not
    // be read as 65,535 by the sets by height, compiled or walked, filtered or not.
    let rest = r#"
[[actions]]
name = "same"
choose = ['y in cells where height(y) == height(b2)']
notation = 'same {y}'

[[actions]]
name = "filtered"
choose = ['where max(c in cells where group_size(c) >= 1: height(c)) == 70000']
notation = 'filtered'

[[actions]]
name = "plain"
choose = ['where max(c in cells where !empty(c): height(c)) == 70000']
notation = 'plain'

[[actions]]
name = "exactly"
choose = ['x in cells where height(x) == 70000']
notation = 'exactly {x}'
"#;
    let text = two_players_on("files = 3\nranks = 3", rest);
    // b2 holds exactly the most a kept height says: a1 read as 65,535 would match it.
    for (g, s) in both_ways_with_heights(&text, &[("a1", 70_000), ("b2", 65_535)]) {
        let legal = texts(&g, &s);
        assert!(legal.contains(&"filtered".to_string()), "{legal:?}");
        assert!(legal.contains(&"plain".to_string()), "{legal:?}");
        assert!(legal.contains(&"exactly a1".to_string()), "{legal:?}");
        assert!(!legal.iter().any(|t| t == "same a1"), "{legal:?}");
        assert!(legal.iter().any(|t| t == "same b2"), "{legal:?}");
    }
}

#[test]
fn a_height_within_reach_of_another_is_a_set_that_says_what_the_expression_says() {
    // `abs(height(x) - E) <= k` and its other spellings become a union of the cells kept
    // by height; each action must list exactly the cells the expression admits, compiled
    // or walked, including where E is so far out that `abs` saturates (every cell then
    // passes: 0 - i64::MIN wraps to i64::MIN, whose `abs` saturates to i64::MAX).
    let rest = r#"
[[actions]]
name = "le"
choose = ['x in cells where abs(height(x) - height(b2)) <= 1']
notation = 'le {x}'

[[actions]]
name = "lt"
choose = ['x in cells where abs(height(b2) - height(x)) < 2']
notation = 'lt {x}'

[[actions]]
name = "ge"
choose = ['x in cells where 0 >= abs(height(x) - height(b2))']
notation = 'ge {x}'

[[actions]]
name = "gt"
choose = ['x in cells where 1 > abs(height(x) - (height(b2) + 2)) && !empty(x)']
notation = 'gt {x}'

[[actions]]
name = "none"
choose = ['x in cells where abs(height(x) - height(b2)) <= -1']
notation = 'none {x}'

[[actions]]
name = "far"
choose = ['x in cells where abs(height(x) - height(b2) * 4611686018427387904) <= 9223372036854775807']
notation = 'far {x}'
"#;
    let text = two_players_on("files = 3\nranks = 2", rest);
    // b2 is 2 tall.
    let heights = [("b1", 1), ("c1", 2), ("a2", 3), ("b2", 2), ("c2", 4)];
    for (g, s) in both_ways_with_heights(&text, &heights) {
        let of = |name: &str| cells_named(&g, &s, name);
        assert_eq!(of("le"), ["a2", "b1", "b2", "c1"]);
        assert_eq!(of("lt"), ["a2", "b1", "b2", "c1"]);
        assert_eq!(of("ge"), ["b2", "c1"]);
        assert_eq!(of("gt"), ["c2"]);
        assert!(of("none").is_empty());
        assert_eq!(of("far"), ["a1", "a2", "b1", "b2", "c1", "c2"]);
    }
}

#[test]
fn heights_within_reach_on_a_board_of_two_words_and_far_off_values() {
    // The same sets on a board of 72 cells (two words a set): a union of several kept
    // heights, a value below every height, and values at the edge of the language's
    // numbers, where working out where a kept height lies must not overflow.
    let rest = r#"
[[actions]]
name = "near"
choose = ['x in cells where abs(height(x) - height(i8)) <= 1']
notation = 'near {x}'

[[actions]]
name = "below"
choose = ['x in cells where abs(height(x) - (height(i8) - 6)) <= 2']
notation = 'below {x}'

[[actions]]
name = "low"
choose = ['x in cells where abs(height(x) - (height(i8) - 6)) <= 4 && x != a1']
notation = 'low {x}'

[[actions]]
name = "top"
choose = ['x in cells where height(x) == height(i8) + 9223372036854775804']
notation = 'top {x}'
"#;
    let text = two_players_on("files = 9\nranks = 8", rest);
    // a1 1, i1 2, a8 4, i8 3 pieces tall; every other cell is empty.
    let heights = [("a1", 1), ("i1", 2), ("a8", 4), ("i8", 3)];
    for (g, s) in both_ways_with_heights(&text, &heights) {
        let of = |name: &str| cells_named(&g, &s, name);
        assert_eq!(of("near"), ["a8", "i1", "i8"]);
        assert!(of("below").is_empty());
        // Within 4 of -3: heights 0 and 1, the 68 empty cells (a1, 1 tall, left out).
        let low = of("low");
        assert_eq!(low.len(), 68, "{low:?}");
        assert!(
            !low.iter()
                .any(|c| ["a1", "i1", "a8", "i8"].contains(&c.as_str()))
        );
        assert!(of("top").is_empty());
    }
}

#[test]
fn a_tower_alike_but_for_its_top_passes_the_tests_its_pieces_pass() {
    // The stack tests of a stack of one kind with another piece on top are looked up in a
    // table made at load rather than evaluated: a1 holds two stones under a's piece, so
    // it has two stones and a piece `p` (the table read the other way round, two pieces
    // `p` under a stone, would have one stone). Random games then build towers of up to
    // eight pieces with either kind on top, which debug builds check against the stacks
    // after every ply.
    let rest = r#"
[pieces.stone]
symbol = "o"

[[setup]]
put = "stone"

[[setup]]
put = "stone"

[[setup]]
put = "p"
owner = "a"
at = ["a1"]

[[setup]]
put = "p"
owner = "b"
at = ["d4"]

[[actions]]
name = "climb"
choose = ['from in cells where owner(from) == me', 'to in adjacent(from) where pieces(to, stone) == 2 && !has(to, p)']
effect = 'move_top(from, to)'
notation = '{from}-{to}'

[[actions]]
name = "mark"
choose = ['x in cells where pieces(x, stone) == 2 && has(x, p) && owner(x) == me']
effect = 'place(x, stone)'
notation = '+{x}'

[[actions]]
name = "grow"
choose = ['x in cells where pieces(x, stone) <= 6 && !has(x, p)']
effect = 'place(x, stone)'
notation = 'o{x}'
"#;
    let g = game(&two_players_on("files = 4\nranks = 4", rest));
    // Marking a1, three climbs, and a stone on any of the 14 cells without a piece `p`.
    let start = texts(&g, &g.start());
    assert_eq!(start.len(), 18, "{start:?}");
    assert!(start.contains(&"+a1".to_string()), "{start:?}");
    let plies: u32 = (0..40)
        .map(|seed| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            g.playout(&mut g.start(), &mut rng, 100)
        })
        .sum();
    assert!(plies > 400, "{plies} plies");
}

/// The owners of a row of cells, `A`/`B` for a piece of player a/b, `.` for none.
fn row(g: &Game, state: &rulebook::engine::state::State, cells: &[&str]) -> String {
    cells
        .iter()
        .map(|&cell| {
            let stack = &state.stacks()[g.board.find(cell).expect("a cell") as usize];
            match stack.last().map(|p| p.owner) {
                None => '.',
                Some(0) => 'A',
                Some(_) => 'B',
            }
        })
        .collect()
}

#[test]
fn push_off_takes_the_stack_at_the_edge_off_the_board_and_push_never_does() {
    // A row of five cells; the piece on `from` shoves the line that starts east of it
    // one step east, then moves in. With no empty cell before the edge, `push_off`
    // takes the last stack off the board and `push` leaves the line as it is (so `move`
    // stacks the piece on it); with an empty cell, both fill it alike.
    let cases = [
        // (a's pieces, b's pieces, effect, the shove, row after, pieces left, height of d1)
        ("c1", "d1 e1", "push_off", "c1>", "...AB", 2, 1),
        ("c1", "d1 e1", "push", "c1>", "...AB", 3, 2),
        ("a1", "b1 d1", "push_off", "a1>", ".ABB.", 3, 1),
        ("a1", "b1 d1", "push", "a1>", ".ABB.", 3, 1),
    ];
    for (a, b, effect, shove, after, left, d1) in cases {
        let quoted = |cells: &str| {
            let cells: Vec<String> = cells.split(' ').map(|c| format!("{c:?}")).collect();
            cells.join(", ")
        };
        let g = game(&two_players_on(
            "files = 5\nranks = 1",
            &format!(
                r#"
[[setup]]
put = "p"
owner = "a"
at = [{}]
[[setup]]
put = "p"
owner = "b"
at = [{}]
[[actions]]
name = "shove"
choose = ['from in cells where owner(from) == me', 'to = step(from, e)', 'where to != none && !empty(to)']
effect = '{effect}(to, e); move(from, to)'
notation = '{{from}}>'
"#,
                quoted(a),
                quoted(b)
            ),
        ));
        let cells = ["a1", "b1", "c1", "d1", "e1"];
        let mut s = g.start();
        crate::common::play(&g, &mut s, shove);
        let case = format!("{effect} from {a} against {b}");
        assert_eq!(row(&g, &s, &cells), after, "{case}");
        let pieces: usize = s.stacks().iter().map(|st| st.len()).sum();
        assert_eq!(pieces, left, "{case}");
        assert_eq!(crate::common::height(&g, &s, "d1"), d1, "{case}");
    }
}

/// A piece that runs east as far as it likes (`repeat = "may"`), then, once the run ends,
/// a part that chooses nothing: it leaves a piece where the run began and writes how far
/// it went. It is played after the last play of the chain, reads what the chain left, and
/// its `where` refuses a run of no step.
const RUN: &str = r#"
[vars.turn]
at = "cell"
hops = 0

[[setup]]
put = "p"
owner = "a"
at = ["a1"]

[[actions]]
name = "run"
choose = ['from in cells where owner(from) == me']
effect = 'at = from'
notation = '{from}'

[[actions.then]]
repeat = "may"
choose = ['d in [e]', 'where empty(step(at, d))']
effect = 'move(at, step(at, d)); at = step(at, d); hops = hops + 1'
notation = '>'

[[actions.then]]
choose = ['where hops >= 1']
effect = 'place(from, p, me); let h = hops'
notation = ' +{h}'
"#;

#[test]
fn a_part_after_a_repeated_part_is_played_once_when_the_chain_ends() {
    let g = game(&two_players_on("files = 4\nranks = 1", RUN));
    let s = g.start();
    assert_eq!(texts(&g, &s), ["a1> +1", "a1>> +2", "a1>>> +3"]);
    assert_eq!(g.count_plies(&s), 3);
    let mut after = s.clone();
    crate::common::play(&g, &mut after, "a1>> +2");
    let owner = |cell: &str| crate::common::height(&g, &after, cell);
    assert_eq!(
        [owner("a1"), owner("b1"), owner("c1"), owner("d1")],
        [1, 0, 1, 0]
    );
    // Drawn at random, always one of the three, each of them.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..60 {
        let ply = g.random_ply(&mut s.clone(), &mut rng).expect("a ply");
        seen.insert(g.notation(&s, &ply));
    }
    assert_eq!(seen.len(), 3);
}

#[test]
fn a_part_after_a_repeated_part_cannot_choose() {
    let text = two_players_on("files = 4\nranks = 1", RUN).replace(
        "choose = ['where hops >= 1']",
        "choose = ['x in cells where empty(x)']",
    );
    let message = refused(&text);
    assert!(
        message.contains("a part after a repeated part cannot make an `in` choice"),
        "{message}"
    );
    assert!(message.contains("test.toml:"), "{message}");
}

/// `[turns] most`: of the plies that put a piece down, only those that make the count of
/// the mover's pieces on files c and beyond greatest; every way of listing, counting and
/// drawing keeps the same ones.
#[test]
fn most_keeps_the_plies_that_make_its_value_greatest() {
    let g = game(&two_players_on(
        "files = 5\nranks = 1",
        r#"
[turns]
most = 'count(c in cells where owner(c) == me && file(c) >= 3)'

[[actions]]
name = "put"
choose = ['at in cells where empty(at)']
effect = 'place(at, p, me)'
notation = '{at}'
"#,
    ));
    let s = g.start();
    assert_eq!(texts(&g, &s), ["c1", "d1", "e1"]);
    assert_eq!(g.count_plies(&s), 3);
    assert_eq!(rulebook::cli::perft(&g, &s, 2), 3 * 2);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..60 {
        let ply = g.random_ply(&mut s.clone(), &mut rng).expect("a ply");
        seen.insert(g.notation(&s, &ply));
    }
    assert_eq!(seen.into_iter().collect::<Vec<_>>(), ["c1", "d1", "e1"]);
    // `a1` is refused, with the legal plies as the closest.
    assert!(g.parse_ply(&s, "a1").is_err());
}

/// `merge_routes`: two plies of an action that leave the same position are one move, the
/// first found; the other's text still plays it. Without the key they are two.
#[test]
fn merged_routes_are_one_move_and_either_text_plays_it() {
    let spin = |merge: &str| {
        two_players(&format!(
            r#"
[[setup]]
put = "p"
owner = "a"
at = ["b1"]

[[actions]]
name = "spin"
{merge}
choose = ['from in cells where owner(from) == me', 'd in [e, w]']
effect = 'move(from, from)'
notation = '{{from}}{{d}}'

[[actions]]
name = "step"
choose = ['from in cells where owner(from) == me', 'to in adjacent(from) where empty(to)']
effect = 'move(from, to)'
notation = '{{from}}-{{to}}'
"#
        ))
    };
    let plain = game(&spin(""));
    let s = plain.start();
    assert_eq!(texts(&plain, &s), ["b1-a1", "b1-c1", "b1e", "b1w"]);
    let merged = game(&spin("merge_routes = true"));
    let s = merged.start();
    assert_eq!(texts(&merged, &s), ["b1-a1", "b1-c1", "b1e"]);
    assert_eq!(rulebook::cli::perft(&merged, &s, 1), 3);
    let typed = merged.parse_ply(&s, "b1w").expect("the other route");
    assert_eq!(merged.notation(&s, &typed), "b1e");
}

/// `range(a, b)`: the numbers from a up to b excluded, in aggregates, in function bodies
/// and in `for`; empty when b <= a; refused where each element must be able to be `none`
/// (`first`) and as a choice.
#[test]
fn a_range_is_the_numbers_from_its_start_up_to_its_end_excluded() {
    let rules = r#"
[functions.triangle]
params = ["k: number"]
value = 'sum(i in range(1, k + 1): i)'

[[actions]]
name = "put"
choose = ['at in cells where empty(at) && triangle(file(at)) >= 6 && any(k in range(0, 3): k == file(at) - 3) && count(i in range(5, 2)) == 0']
effect = 'for i in range(0, 2) { place(at, p, me) }'
notation = '{at}'
"#;
    let g = game(&two_players_on("files = 6\nranks = 1", rules));
    let mut s = g.start();
    assert_eq!(texts(&g, &s), ["c1", "d1", "e1"]);
    crate::common::play(&g, &mut s, "d1");
    assert_eq!(crate::common::height(&g, &s, "d1"), 2);
    let first = two_players_on(
        "files = 6\nranks = 1",
        &rules.replace("triangle(file(at)) >= 6", "first(i in range(0, 3)) == 1"),
    );
    assert!(refused(&first).contains("`first` needs a collection of cells"));
    let chosen = two_players_on(
        "files = 6\nranks = 1",
        &rules.replace("choose = ['at in", "choose = ['q in range(1, 3)', 'at in"),
    );
    assert!(refused(&chosen).contains("a number cannot be chosen from a range"));
}

/// Two actions on a 3x1 board: `put` places a piece and writes `+CELL`, with a further
/// part that may then place one more; `drop` chooses its own cells and is `like` it.
const LIKE: &str = r#"
[[actions]]
name = "put"
choose = ['c in cells where empty(c) && file(c) == 1']
effect = 'place(c, p, me)'
notation = '+{c}'

[[actions.then]]
optional = true
choose = ['d in cells where empty(d) && file(d) == 2']
effect = 'place(d, p, me)'
notation = ' {d}'

[[actions]]
name = "drop"
choose = ['c in cells where empty(c) && file(c) == 3']
like = "put"
"#;

#[test]
fn an_action_like_another_takes_what_it_leaves_out() {
    let g = game(&two_players(LIKE));
    // `drop` chooses c3 and plays `put`'s effect, notation and optional further part.
    assert_eq!(texts(&g, &g.start()), ["+a1", "+a1 b1", "+c1", "+c1 b1"]);
    // What it writes itself is its own.
    let own = LIKE.replace(
        "like = \"put\"",
        "like = \"put\"\nnotation = '*{c}'\neffect = 'place(c, p, me); place(b1, p, me)'",
    );
    let g = game(&two_players(&own));
    // (its effect fills b1, so the further part it takes finds no cell there)
    assert_eq!(texts(&g, &g.start()), ["*c1", "+a1", "+a1 b1"]);
    let mut s = g.start();
    crate::common::play(&g, &mut s, "*c1");
    assert_eq!(crate::common::height(&g, &s, "b1"), 1, "its own effect");
}

#[test]
fn like_names_an_action_above_that_writes_its_parts() {
    let with_like = |like: &str| two_players(&LIKE.replace("like = \"put\"", like));
    insta::assert_snapshot!(refused(&with_like("like = \"drop\"")), @r#"
    error: the action `drop` cannot be `like` itself
      --> test.toml:34:8
       |
    34 | like = "drop"
       |        ^^^^^^ name another action, written above this one
    "#);
    insta::assert_snapshot!(refused(&with_like("like = \"place\"")), @r#"
    error: no action `place` before this one to take parts from
      --> test.toml:34:8
       |
    34 | like = "place"
       |        ^^^^^^^ `like` names an action written above
    "#);
    let later = LIKE.replacen("notation = '+{c}'", "notation = '+{c}'\nlike = \"drop\"", 1);
    insta::assert_snapshot!(refused(&two_players(&later)), @r#"
    error: no action `drop` before this one to take parts from
      --> test.toml:24:8
       |
    24 | like = "drop"
       |        ^^^^^^ it comes later in the file: put it first
    "#);
    let chain = format!(
        "{LIKE}\n[[actions]]\nname = \"third\"\nchoose = ['c in cells']\nlike = \"drop\"\n"
    );
    insta::assert_snapshot!(refused(&two_players(&chain)), @r#"
    error: `drop` is itself `like` another action
      --> test.toml:39:8
       |
    39 | like = "drop"
       |        ^^^^^^ name the action that writes the parts
    "#);
    let twice = format!(
        "{LIKE}\n[[actions]]\nname = \"put\"\nchoose = ['c in cells']\nnotation = '={{c}}'\n"
    );
    insta::assert_snapshot!(refused(&two_players(&twice)), @r#"
    error: several actions are called `put`
      --> test.toml:34:8
       |
    34 | like = "put"
       |        ^^^^^ `like` must name one: rename the others
    "#);
    insta::assert_snapshot!(refused(&with_like("")), @r#"
    error: the action `drop` has no `notation`
      --> test.toml:32:8
       |
    32 | name = "drop"
       |        ^^^^^^ every action writes its plies: add `notation = '...'`, or `like` an action that has one
    "#);
}
