//! The format features that classic games need, each on a small hand-made game: functions,
//! repeated parts (chains of any length as one ply), `[[stuck]]` rules and
//! `all_passed`, notation cases, per-seat forward directions, leapers, direction sets as
//! collections, named initial values of variables, and perft counted exactly.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rulebook::cli;
use rulebook::engine::state::State;

use crate::common::{game_of as game, legal as texts, play, refused};

/// Two players on a board of `files` x `ranks` with one owned kind `man`; `rest` adds
/// the rest of the file.
fn board(files: u32, ranks: u32, rest: &str) -> String {
    format!(
        r#"
[game]
name = "small"

[[players]]
name = "a"
forward = "e"

[[players]]
name = "b"
forward = "w"

[board]
files = {files}
ranks = {ranks}

[pieces.man]
owned = true
symbol = {{ a = "A", b = "B" }}
{rest}
"#
    )
}

/// A line of eight where `a` jumps `b`'s men, a chain repeated with `repeat`.
fn chain(repeat: &str) -> String {
    board(
        8,
        1,
        &format!(
            r#"
[[setup]]
put = "man"
owner = "a"
at = ["a1"]

[[setup]]
put = "man"
owner = "b"
at = ["b1", "d1", "f1"]

[vars.turn]
at = "cell"

[functions.over]
params = ["c: cell", "d: direction"]
value = 'owner(step(c, d)) == next(me) && empty(step(step(c, d), d))'

[[actions]]
name = "jump"
choose = ['from in cells where owner(from) == me', 'd in orthogonal', 'where over(from, d)', 'to = step(step(from, d), d)']
effect = 'remove(step(from, d)); move(from, to); at = to'
notation = '{{from}}x{{to}}'

[[actions.then]]
repeat = "{repeat}"
choose = ['t in orthogonal', 'where over(at, t)', 'landing = step(step(at, t), t)']
effect = 'remove(step(at, t)); move(at, landing); at = landing'
notation = [{{ when = 'landing == g1', text = 'x{{landing}}!' }}, {{ text = 'x{{landing}}' }}]

[[actions]]
name = "step"
choose = ['from in cells where owner(from) == me', 'to = step(from, forward(me))', 'where empty(to)']
effect = 'move(from, to)'
notation = '{{from}}-{{to}}'
"#
        ),
    )
}

#[test]
fn a_part_that_must_repeat_makes_the_whole_chain_one_ply() {
    let g = game(&chain("must"));
    let s = g.start();
    // Three men in a row to jump: the chain goes to the end (no stopping half way, and
    // no step while b1 is taken), and the last jump is written by the notation case that
    // holds there.
    assert_eq!(texts(&g, &s), ["a1xc1xe1xg1!"]);
    let mut after = s.clone();
    play(&g, &mut after, "a1xc1xe1xg1!");
    assert!((0..8).all(|c| after.stack(c).iter().all(|p| p.owner == 0)));
    // The drawn plies are the listed ones, with the same texts.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for _ in 0..40 {
        let ply = g.random_ply(&mut s.clone(), &mut rng).expect("a ply");
        assert!(texts(&g, &s).contains(&g.notation(&s, &ply)));
    }
}

#[test]
fn a_part_that_may_repeat_lets_the_chain_stop_anywhere() {
    let g = game(&chain("may"));
    assert_eq!(texts(&g, &g.start()), ["a1xc1", "a1xc1xe1", "a1xc1xe1xg1!"]);
}

/// A slide of one hop, its direction and its cell chosen in a part that must repeat: after
/// a hop the part cannot be played again (`hops < 1`), but trying it binds `way` to each
/// direction in turn.
const ONE_HOP: &str = r#"
[game]
name = "repeat"
[[players]]
name = "red"
[[players]]
name = "blue"
[board]
files = 5
ranks = 5
[pieces.p]
owned = true
symbol = { red = "R", blue = "B" }
[[setup]]
put = "p"
owner = "red"
at = ["c3"]
[vars.global]
hops = 0
[[actions]]
name = "go"
choose = ['from in cells where owner(from) == me']
effect = 'hops = 0'
notation = '{from}'
[[actions.then]]
repeat = "must"
choose = ['way in orthogonal', 'where hops < 1', 'to in ray(from, way)']
effect = 'move(from, to); hops = hops + 1'
notation = ' {way} {to}'
"#;

/// Regression: trying a repeated part once more bound its names again in the slots the
/// play before it was still walking, so that play went on with the last direction tried
/// (`c3 w c5`, `c3 w e3`, ...) instead of its own. Listing, counting, drawing and playing
/// must all give the eight slides.
#[test]
fn trying_a_repeated_part_again_does_not_overwrite_the_names_of_the_play_before() {
    let g = game(ONE_HOP);
    let s = g.start();
    let mut slides = [
        "c3 n c4", "c3 n c5", "c3 e d3", "c3 e e3", "c3 s c2", "c3 s c1", "c3 w b3", "c3 w a3",
    ];
    slides.sort_unstable();
    assert_eq!(texts(&g, &s), slides);
    assert_eq!(g.count_plies(&s), 8);
    assert_eq!(cli::perft(&g, &s, 1), 8);
    // Each text, typed, plays its slide: the piece ends on the cell the text names.
    for text in slides {
        let mut after = s.clone();
        play(&g, &mut after, text);
        let to = &text[text.len() - 2..];
        assert_eq!(crate::common::height(&g, &after, to), 1, "{text}");
        assert_eq!(crate::common::height(&g, &after, "c3"), 0, "{text}");
    }
    // Random draws (listed whole, as every action whose part repeats) give only those,
    // each of them, and play them as the text says.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..400 {
        let ply = g.random_ply(&mut s.clone(), &mut rng).expect("a ply");
        let text = g.notation(&s, &ply);
        assert!(slides.contains(&text.as_str()), "drew {text}");
        seen.insert(text);
        let (mut drawn, mut typed) = (s.clone(), s.clone());
        let played = g.play_random(&mut drawn, &mut rng).expect("a ply");
        let text = g.notation(&s, &played);
        assert!(slides.contains(&text.as_str()), "played {text}");
        play(&g, &mut typed, &text);
        assert_eq!(
            drawn, typed,
            "{text} drawn and played differs from {text} typed"
        );
    }
    assert_eq!(seen.len(), 8, "{seen:?}");
}

#[test]
fn repeated_parts_are_checked_where_they_are_written() {
    // A part after the repeated part, choosing nothing, is what happens when the chain
    // ends; a second repeated part is refused.
    let after = chain("must").replace(
        "[[actions]]\nname = \"step\"",
        "[[actions.then]]\nnotation = ''\n\n[[actions]]\nname = \"step\"",
    );
    game(&after);
    let twice = chain("must").replace(
        "[[actions]]\nname = \"step\"",
        "[[actions.then]]\nrepeat = \"may\"\nchoose = ['u in orthogonal']\nnotation = ''\n\n[[actions]]\nname = \"step\"",
    );
    assert!(refused(&twice).contains("an action has at most one repeated part"));
    let optional = chain("must").replace("repeat = \"must\"", "repeat = \"must\"\noptional = true");
    assert!(refused(&optional).contains("drop `optional`"));
    let unknown = chain("often");
    assert!(refused(&unknown).contains("unknown repeat `often`"));
}

#[test]
fn functions_are_expanded_where_they_are_called_and_checked_in_their_body() {
    let g = game(&board(
        3,
        3,
        r#"
[functions.mine]
params = ["c: cell", "p: player"]
value = 'owner(c) == p'

[functions.free]
params = ["c: cell"]
value = 'empty(c) && !mine(c, next(me))'

[functions.placed]
value = 'count(c in cells where mine(c, me))'

[[actions]]
name = "place"
choose = ['at in cells where free(at) && placed < 2']
effect = 'place(at, man, me)'
notation = '{at}'
"#,
    ));
    let mut s = g.start();
    assert_eq!(texts(&g, &s).len(), 9);
    play(&g, &mut s, "b2");
    play(&g, &mut s, "a1");
    play(&g, &mut s, "c3");
    // `a` has placed two: `placed < 2` reads `me` where it is called.
    play(&g, &mut s, "a3");
    assert!(texts(&g, &s).is_empty() || s.outcome.is_some());

    let recursive = board(
        3,
        1,
        r#"
[functions.loop]
params = ["c: cell"]
value = 'loop(c)'

[[actions]]
name = "x"
choose = ['at in cells where loop(at)']
notation = '{at}'
"#,
    );
    let msg = refused(&recursive);
    assert!(
        msg.contains(
            "`loop` calls itself, directly or through other functions, and does not say how deep"
        ),
        "{msg}"
    );
    assert!(
        msg.contains("value = 'loop(c)'"),
        "placed in the body: {msg}"
    );

    let unused_error = board(
        3,
        1,
        r#"
[functions.wrong]
params = ["c: cell"]
value = 'height(c) + empty(c)'

[[actions]]
name = "x"
choose = ['at in cells']
notation = '{at}'
"#,
    );
    let msg = refused(&unused_error);
    assert!(msg.contains("value = 'height(c) + empty(c)'"), "{msg}");

    let bad_argument = board(
        3,
        1,
        r#"
[functions.high]
params = ["c: cell"]
value = 'height(c) > 1'

[[actions]]
name = "x"
choose = ['at in cells where high(me)']
notation = '{at}'
"#,
    );
    let msg = refused(&bad_argument);
    assert!(msg.contains("expected a cell, found a player"), "{msg}");

    let clash = board(
        3,
        1,
        r#"
[functions.high]
params = ["man: cell"]
value = 'height(man) > 1'

[[actions]]
name = "x"
choose = ['at in cells']
notation = '{at}'
"#,
    );
    assert!(refused(&clash).contains("`man` is already the name of something"));
}

#[test]
fn stuck_rules_decide_before_the_stuck_setting_and_all_passed_can_score() {
    // Nobody can ever move. Stuck rules: `a` stuck loses, anyone else stuck draws.
    let frozen = |rules: &str| {
        board(
            2,
            1,
            &format!(
                r#"
[[setup]]
put = "man"
owner = "b"
at = ["b1"]

[[actions]]
name = "never"
choose = ['at in cells where false']
notation = '{{at}}'
{rules}
"#
            ),
        )
    };
    let g = game(&frozen(
        r#"
[[stuck]]
when = 'me == a'
loser = 'me'
"#,
    ));
    let outcome = g.start().outcome.expect("over before the first ply");
    assert_eq!(outcome.winners, [1]);

    let g = game(&frozen(
        r#"
[turns]
stuck = "pass"
all_passed = "score"

[scoring]
score = 'count(c in cells where owner(c) == me)'
"#,
    ));
    assert_eq!(g.start().outcome.expect("both passed").winners, [1]);

    let g = game(&frozen("[turns]\nstuck = \"pass\"\n"));
    assert!(g.start().outcome.expect("a draw").winners.is_empty());

    let msg = refused(&frozen("[turns]\nall_passed = \"score\"\n"));
    assert!(msg.contains("needs `stuck = \"pass\"`"), "{msg}");
}

#[test]
fn forward_leaps_direction_sets_and_named_initial_values() {
    let g = game(&board(
        5,
        5,
        r#"
[vars.global]
home = "cell c3"
way = "direction ne"

[[actions]]
name = "knight"
choose = ['to in leaps(home, 1, 2)']
notation = 'N{to}'

[[actions]]
name = "look"
choose = ['d in orthogonal', 'to = step(home, d)']
notation = '{d}'

[[actions]]
name = "ahead"
choose = ['to = step(home, forward(me))', 'where to != none', 'toward = way']
notation = 'ahead {to} {toward}'
"#,
    ));
    let s = g.start();
    let all = texts(&g, &s);
    let knights: Vec<&String> = all.iter().filter(|t| t.starts_with('N')).collect();
    assert_eq!(
        knights,
        ["Na2", "Na4", "Nb1", "Nb5", "Nd1", "Nd5", "Ne2", "Ne4"]
    );
    for d in ["n", "e", "s", "w"] {
        assert!(all.contains(&d.to_string()), "{d} in {all:?}");
    }
    assert!(!all.contains(&"ne".to_string()));
    // `a` calls e forward.
    assert!(all.contains(&"ahead d3 ne".to_string()));
}

#[test]
fn first_along_a_ray_keeps_the_ray_order_inside_an_any_body() {
    // b's man on a1, a's on c1: only b1 sees b's man first looking west. (The body of an
    // `any` is passed twice by the set pass; a `first` along a ray in it once lost its
    // order and took the lowest cell, a1, from every square.)
    let g = game(&board(
        8,
        1,
        r#"
[[setup]]
put = "man"
owner = "b"
at = ["a1"]

[[setup]]
put = "man"
owner = "a"
at = ["c1"]

[[actions]]
name = "look"
choose = ['c in cells where empty(c) && any(d in [w]: owner(first(x in ray(c, d) where !empty(x))) == b)']
notation = '{c}'
"#,
    ));
    assert_eq!(texts(&g, &g.start()), ["b1"]);
}

#[test]
fn a_functions_arguments_keep_their_bindings_apart_from_its_parameters() {
    // Men on a1 and d1. Each argument binds a name of its own; neither may share a slot
    // with a parameter: `one` must survive the second argument being worked out, and the
    // `x` of the second call's argument is not the parameter `one` (given b1).
    let g = game(&board(
        8,
        1,
        r#"
[[setup]]
put = "man"
owner = "a"
at = ["a1", "d1"]

[functions.diff]
params = ["one: number", "two: number"]
value = 'one - two'

[functions.span]
params = ["one: cell", "two: cell"]
value = 'file(two) - file(one)'

[[actions]]
name = "look"
choose = [
  'v1 = diff(count(x in cells where !empty(x)), count(y in cells where height(y) == file(y)))',
  'v2 = span(b1, first(x in ray(b1, e) where !empty(x)))',
]
notation = '{v1} {v2}'

[functions.both]
value = 'count(x in cells where height(x) == file(x)) + count(y in cells where height(y) == file(y))'

[[actions]]
name = "man"
choose = ['c in cells where !empty(c)', 'v3 = both']
notation = '{c}: {v3}'
"#,
    ));
    // Two men, one of them (a1) as high as its file; d1 is two files east of b1. A
    // function without parameters leaves its caller's `c` alone.
    assert_eq!(texts(&g, &g.start()), ["1 2", "a1: 2", "d1: 2"]);
}

#[test]
fn perft_exact_counts_only_positions_at_the_depth() {
    // The first to place two wins; every game ends at ply 3.
    let g = game(&board(
        3,
        1,
        r#"
[[actions]]
name = "place"
choose = ['at in cells where empty(at)']
effect = 'place(at, man, me)'
notation = '{at}'

[[end]]
when = 'count(c in cells where owner(c) == me) == 2'
winner = 'me'
"#,
    ));
    let s = g.start();
    assert_eq!(cli::perft(&g, &s, 3), 6);
    assert_eq!(cli::perft_exact(&g, &s, 3), 6);
    // Past the end, leaves still count once each, positions at the depth not at all.
    assert_eq!(cli::perft(&g, &s, 4), 6);
    assert_eq!(cli::perft_exact(&g, &s, 4), 0);
}

/// A small Go: place a stone, take adjacent groups left with no liberty, no suicide, no
/// board seen before (positional superko), and a pass.
fn small_go(size: u32) -> String {
    board(
        size,
        size,
        r#"
[vars.global]
passes = 0

[[actions]]
name = "place"
choose = ['at in cells where empty(at)']
effect = '''
place(at, man, me);
for x in adjacent(at) where owner(x) == next(me) && liberties(x) == 0 { for y in group(x) { remove(y) } };
passes = 0
'''
check = 'liberties(at) > 0 && !board_repeated'
notation = '{at}'

[[actions]]
name = "pass"
effect = 'passes = passes + 1'
notation = 'pass'

[[end]]
when = 'passes == 2'
result = "draw"
"#,
    )
}

#[test]
fn groups_liberties_captures_and_superko() {
    let g = game(&small_go(3));
    let mut s = g.start();
    for ply in ["b1", "a1", "c2", "pass"] {
        play(&g, &mut s, ply);
    }
    // a1 (b's) has one liberty left, a2: a takes it by playing there.
    play(&g, &mut s, "a2");
    assert!(s.stack(0).is_empty(), "a1 was taken");
    // b may not play a1 now: no liberty (a2 and b1 are a's).
    assert!(!texts(&g, &s).contains(&"a1".to_string()));
    // Liberties through the hook: a's group {a2} has a1, a3 and b2 free.
    let c = rulebook::engine::natives::Ctx {
        board: &g.board,
        state: &s,
        me: 0,
    };
    let a2 = g.board.find("a2").unwrap() as i64;
    assert_eq!(
        rulebook::engine::hooks::groups::liberties(&c.view(), a2, 0b0101_0101),
        3
    );

    // Superko: in a ko shape a stone taken back at once would repeat the board.
    let g = game(&small_go(4));
    let mut s = g.start();
    for ply in ["b1", "c1", "a2", "d2", "b3", "c3", "pass", "b2"] {
        play(&g, &mut s, ply);
    }
    // a (to move) takes b2's stone by playing c2; b could retake at b2 only by bringing
    // the board back, which superko forbids.
    play(&g, &mut s, "c2");
    assert!(s.stack(g.board.find("b2").unwrap()).is_empty());
    assert!(
        !texts(&g, &s).contains(&"b2".to_string()),
        "{:?}",
        texts(&g, &s)
    );
}

#[test]
fn repetitions_count_earlier_positions_from_the_start() {
    let g = game(&board(
        4,
        1,
        r#"
[[setup]]
put = "man"
owner = "a"
at = ["a1"]

[[setup]]
put = "man"
owner = "b"
at = ["d1"]

[[actions]]
name = "shuffle"
choose = ['from in cells where owner(from) == me', 'to in adjacent(from) where empty(to)']
effect = 'move(from, to)'
notation = '{from}-{to}'

[[end]]
when = 'repetitions >= 2'
result = "draw"
"#,
    ));
    let mut s = g.start();
    let cycle = ["a1-b1", "d1-c1", "b1-a1", "c1-d1"];
    // Back at the start after four plies: seen once before, the game goes on.
    for ply in cycle {
        play(&g, &mut s, ply);
    }
    assert!(s.outcome.is_none());
    // The third time: a draw, at exactly the ply that repeats it.
    for (i, ply) in cycle.iter().enumerate() {
        assert!(s.outcome.is_none(), "over early, before ply {i}");
        play(&g, &mut s, ply);
    }
    assert_eq!(s.outcome.expect("threefold").winners, Vec::<u8>::new());
}

#[test]
fn run_measures_a_line_of_like_pieces() {
    let g = game(&board(
        5,
        1,
        r#"
[[setup]]
put = "man"
owner = "a"
at = ["a1", "b1", "c1", "e1"]

[[actions]]
name = "look"
choose = ['c in cells where owner(c) == me', 'east = run(c, e)', 'west = run(c, w)']
notation = '{c}:{east}/{west}'
"#,
    ));
    assert_eq!(
        texts(&g, &g.start()),
        ["a1:2/0", "b1:1/1", "c1:0/2", "e1:0/0"]
    );
}

#[test]
fn a_diagram_gives_the_position_it_draws() {
    let g = crate::common::game("staqs", &[]);
    let mut played = g.start();
    for ply in ["c3", "c4"] {
        play(&g, &mut played, ply);
    }
    let text = "o o o o o / o o o+W o o / o o o+B o o / o o o o o / o o o o o \
                / to_move = blue / turn = 3 / plies = 2 / supply(blue) = 3 / supply(white) = 3";
    let read = rulebook::record::diagram::read(&g, text).expect("a valid diagram");
    // The same position but for when the pieces moved, which a diagram does not say.
    let pieces = |s: &State| -> Vec<Vec<(u8, u8)>> {
        s.stacks()
            .iter()
            .map(|st| st.iter().map(|p| (p.kind, p.owner)).collect())
            .collect()
    };
    assert_eq!(pieces(&read), pieces(&played));
    assert_eq!(
        (read.vars.clone(), read.to_move, read.turn, read.plies),
        (
            played.vars.clone(),
            played.to_move,
            played.turn,
            played.plies
        )
    );
    assert_eq!(cli::perft(&g, &read, 2), cli::perft(&g, &played, 2));

    // Splut!'s diamond: ranks list only their cells; symbols of two letters.
    let splut = crate::common::game("splut", &[]);
    let rows = [
        "R",
        ". Sn Dn",
        ". . Tn . .",
        ". . . . . . .",
        "R . . . . . . . R",
        ". . . . . . .",
        ". . . . .",
        "Ss Ds Ts",
        "R",
    ];
    let diamond = rulebook::record::diagram::read(&splut, &rows.join(" / ")).expect("valid");
    assert_eq!(diamond.stack(splut.board.find("d8").unwrap()).len(), 0);
    // Each rank's symbols land on its own cells: north's sorcerer and dwarf on e8 and
    // f8, its troll on e7, south's pieces where the start has them.
    let board = rulebook::render::board::render(&splut, &diamond);
    assert!(
        board.contains("\n8            . Sn Dn\n7         .  . Tn  .  .\n"),
        "{board}"
    );
    assert!(board.contains("\n2           Ss Ds Ts\n"), "{board}");
    assert_eq!(
        texts(&splut, &diamond).len(),
        texts(&splut, &splut.start()).len()
    );
}

#[test]
fn a_diagram_says_the_ply_of_the_turn_who_is_out_and_when_each_piece_moved() {
    // Issue 49: a diagram must be able to say every part of a position the rules read.
    let g = crate::common::game("splut", &[("players", "4")]);
    let rows = [
        "R",
        ". Sn Dn",
        ". . Tn . .",
        ". . . . . . .",
        "R@3 . . . . . . . R",
        ". . . . . . .",
        ". . . . .",
        "Ss Ds Ts",
        "R",
    ];
    let text = format!(
        "{} / to_move = south / turn = 4 / ply_in_turn = 2 / plies = 9 / alive(west) = false \
         / alive(east) = false / lev_ply = 1",
        rows.join(" / ")
    );
    let read = rulebook::record::diagram::read(&g, &text).expect("a valid diagram");
    assert_eq!((read.turn, read.ply_in_turn, read.plies), (4, 2, 9));
    let seat = |name: &str| crate::common::seat(&g, name);
    assert!(!read.is_alive(seat("west")) && !read.is_alive(seat("east")));
    assert!(read.is_alive(seat("south")) && read.is_alive(seat("north")));
    let a5 = read.stack(g.board.find("a5").unwrap());
    assert_eq!(a5[0].moved, 3, "R@3: last moved in turn 3");
    assert_eq!(read.stack(g.board.find("i5").unwrap())[0].moved, 0);
    // Out of range, or nobody left.
    let refused = |extra: &str| {
        rulebook::record::diagram::read(&g, &format!("{} / {extra}", rows.join(" / ")))
            .expect_err(extra)
    };
    assert!(refused("ply_in_turn = 0").contains("`ply_in_turn` is a whole number from 1"));
    assert!(
        refused("alive(south) = false / alive(north) = false / alive(west) = false / alive(east) = false")
            .contains("at least one player must stay in the game")
    );
    let far = rows.join(" / ").replace("R@3", "R@100001");
    assert!(
        rulebook::record::diagram::read(&g, &far)
            .expect_err("too late")
            .contains("the turn after `@` is a number from 0 to 100000")
    );
}

#[test]
fn a_diagram_turn_too_large_says_its_range_not_that_it_counts_from_1() {
    // Issue 49: `turn = 4294967296` wrapped and was refused as "counts from 1".
    let g = crate::common::game("staqs", &[]);
    let five = "o o o o o / o o o o o / o o o o o / o o o o o / o o o o o";
    for (line, name, least) in [
        ("turn = 4294967296", "turn", 1),
        ("turn = 0", "turn", 1),
        ("plies = -1", "plies", 0),
    ] {
        let e = rulebook::record::diagram::read(&g, &format!("{five} / {line}")).expect_err(line);
        assert!(
            e.contains(&format!(
                "`{name}` is a whole number from {least} to 100000"
            )),
            "{line}: {e}"
        );
    }
}

#[test]
fn a_wrong_diagram_names_its_line() {
    let g = crate::common::game("staqs", &[]);
    let read = |text: &str| rulebook::record::diagram::read(&g, text).expect_err("refused");
    assert!(read("o o o").contains("1 rank of cells, the board 5"));
    let five = "o o o o o / o o o o o / o o o o o / o o o o o";
    assert!(read(&format!("{five} / o o Q o o")).contains("line 5: no piece is drawn `Q`"));
    assert!(read(&format!("{five} / o o o o")).contains("line 5: 4 tokens for a rank of 5"));
    assert!(read(&format!("{five} / o o o o o / colour = blue")).contains("line 6: `colour`"));
    assert!(read(&format!("{five} / o o o o o / to_move = green")).contains("not a player"));
    assert!(read(&format!("{five} / o o o o o / supply = 3")).contains("per player"));
}

#[test]
fn a_parameter_may_share_a_name_with_a_function_but_not_with_a_name_written_alone() {
    let with = |name: &str| {
        board(
            3,
            1,
            &format!(
                r#"
[params.{name}]
default = 2

[[actions]]
name = "x"
choose = ['at in cells where height(at) < {name}']
notation = '{{at}}'
"#
            ),
        )
    };
    // `height` alone is the parameter; `height(at)` is still the built-in.
    assert_eq!(
        texts(&game(&with("height")), &game(&with("height")).start()).len(),
        3
    );
    let msg = refused(&with("turn"));
    assert!(msg.contains("the name `turn` is taken"), "{msg}");
    assert!(msg.contains("[params.turn]"), "points at the table: {msg}");
}

#[test]
fn slide_stops_before_the_first_piece_whichever_way_it_goes() {
    let g = game(&board(
        8,
        1,
        r#"
[[setup]]
put = "man"
owner = "a"
at = ["b1", "d1", "g1"]

[[actions]]
name = "slide"
choose = ['from = d1', 'd in [e, w]', 'to in slide(from, d)']
notation = '{d} {to}'

[[actions]]
name = "first"
choose = ['from = d1', 'd in [e, w]', 'stop = last(x in slide(from, d))', 'where stop != none']
notation = 'last {d} {stop}'
"#,
    ));
    // East: e1 and f1 before g1; west: c1 before b1. The last cell taken nearest first.
    assert_eq!(
        texts(&g, &g.start()),
        ["e e1", "e f1", "last e f1", "last w c1", "w c1"]
    );
}

/// `first` along a ray takes the nearest cell whichever way the ray runs, also inside an
/// aggregate's body (a body becomes a filter, which the optimiser visits a second time:
/// it once took the lowest cell index there, the farthest cell going west or south).
#[test]
fn first_along_a_ray_is_the_nearest_inside_an_aggregate_body() {
    let g = game(&board(
        5,
        1,
        r#"
[[setup]]
put = "man"
owner = "a"
at = ["a1", "b1"]

[[setup]]
put = "man"
owner = "b"
at = ["d1", "e1"]

[[actions]]
name = "look"
choose = [
  'c in [c1]',
  'west = first(x in ray(c, w) where !empty(x))',
  'east = first(x in ray(c, e) where !empty(x))',
  'nested = any(d in [w]: first(x in ray(c, d) where !empty(x)) == b1)',
  'counted = count(d in [w, e]: first(x in ray(c, d) where !empty(x)) == step(c, d))',
]
notation = '{west} {east} {nested} {counted}'
"#,
    ));
    assert_eq!(texts(&g, &g.start()), ["b1 d1 true 2"]);
}

/// `empty_region(c)`: the empty cells reached from an empty cell through empty cells
/// (orthogonally, or through the directions given); nothing from an occupied cell.
#[test]
fn empty_region_gathers_the_empty_cells_an_area_holds() {
    let g = game(&board(
        3,
        3,
        r#"
[[setup]]
put = "man"
owner = "a"
at = ["a2", "b1"]

[[setup]]
put = "man"
owner = "b"
at = ["c3"]

[[actions]]
name = "look"
choose = [
  'c in [a1, b2, a2]',
  'across = count(x in empty_region(c))',
  'around = count(x in empty_region(c, all_directions))',
  'first_cell = first(x in empty_region(c))',
  'walled = all(x in empty_region(c): all(y in adjacent(x, orthogonal) where !empty(y): owner(y) == a))',
]
notation = '{c}: {across} {around} {first_cell} {walled}'
"#,
    ));
    // a1 is shut in by a2 and b1 (a's), orthogonally; diagonally it reaches b2 and the
    // five other empty cells. b2's area borders c3 (b's) too. a2 holds a man.
    assert_eq!(
        texts(&g, &g.start()),
        ["a1: 1 6 a1 true", "a2: 0 0 none true", "b2: 5 6 c1 false"]
    );
}
