//! Edges and points (`[board] edges = true`): the places' names and `beside`, the
//! collections `edges` and `points`, filters over `cells` that never yield a place even
//! where places hold the same pieces, `reachable` blocked by pieces on edges and points,
//! diagrams and drawings of places read back, pictures, and the located refusals.

use rulebook::engine::game::Game;
use rulebook::record::diagram;
use rulebook::render::board::render;

use crate::common::{game_of as game, legal, play, refused, set_stack};

/// Two players on a 3x2 board of squares with edges, one piece kind each can place
/// anywhere; `rest` adds actions.
fn with_edges(board: &str, rest: &str) -> String {
    format!(
        r#"
[game]
name = "edges"

[[players]]
name = "a"

[[players]]
name = "b"

[board]
files = 3
ranks = 2
edges = true
{board}

[pieces.p]
owned = true
symbol = {{ a = "A", b = "B" }}

[pieces.x]
symbol = "x"
{rest}
"#
    )
}

/// The names an action's `choose` gives, one ply per element, written `{v}`.
fn listed(board: &str, choose: &str) -> Vec<String> {
    let g = game(&with_edges(
        board,
        &format!("[[actions]]\nname = \"list\"\nchoose = ['{choose}']\nnotation = '{{v}}'\n"),
    ));
    let mut v = legal(&g, &g.start());
    v.sort();
    v
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn every_side_and_corner_is_a_place_named_after_a_cell_beside_it() {
    // 3 files x 3 rows of edges across, 4 x 2 along; 4 x 3 points.
    assert_eq!(
        listed("", "v in edges"),
        sorted(&[
            "a1s", "b1s", "c1s", "a1n", "b1n", "c1n", "a2n", "b2n", "c2n", // across
            "a1w", "a1e", "b1e", "c1e", "a2w", "a2e", "b2e", "c2e", // along
        ])
    );
    assert_eq!(
        listed("", "v in points"),
        sorted(&[
            "a1sw", "a1se", "b1se", "c1se", "a1nw", "a1ne", "b1ne", "c1ne", "a2nw", "a2ne", "b2ne",
            "c2ne",
        ])
    );
    // `cells` is still the cells alone.
    assert_eq!(
        listed("", "v in cells"),
        sorted(&["a1", "b1", "c1", "a2", "b2", "c2"])
    );
}

#[test]
fn beside_goes_half_a_step_from_any_place() {
    let one = |expr: &str| {
        let v = listed("", &format!("v in cells where v == {expr}"));
        v.first().cloned().unwrap_or_else(|| "none".into())
    };
    let place = |expr: &str| {
        let mut v = listed("", &format!("v in edges where v == {expr}"));
        v.extend(listed("", &format!("v in points where v == {expr}")));
        v.first().cloned().unwrap_or_else(|| "none".into())
    };
    assert_eq!(place("beside(a1, n)"), "a1n");
    assert_eq!(
        place("beside(a2, s)"),
        "a1n",
        "one edge, two names of cells"
    );
    assert_eq!(place("beside(b1, w)"), "a1e");
    assert_eq!(place("beside(b2, sw)"), "a1ne");
    assert_eq!(place("beside(a1, sw)"), "a1sw");
    assert_eq!(
        place("beside(a1n, e)"),
        "a1ne",
        "from an edge, the point at its end"
    );
    assert_eq!(
        place("beside(a1ne, n)"),
        "a2e",
        "the edge above a point runs along the files"
    );
    assert_eq!(place("beside(a1ne, s)"), "a1e");
    assert_eq!(one("beside(a1n, n)"), "a2", "from an edge, the cell beyond");
    assert_eq!(
        one("beside(a1ne, ne)"),
        "b2",
        "from a point, the cell at its corner"
    );
    assert_eq!(place("beside(c2, ne)"), "c2ne");
    assert_eq!(place("beside(c2ne, ne)"), "none", "off the board");
    assert_eq!(
        listed(
            "",
            "v in cells where step(a1n, n) == none && file(a1n) == 0 && rank(b1ne) == 0"
        )
        .len(),
        6,
        "a place has no links, and file and rank 0"
    );
}

#[test]
fn filters_over_cells_never_yield_places_that_hold_the_same_pieces() {
    // Pieces of `a` and neutral ones on cells and on places alike: every filter over
    // cells counts the cells only, whether it is read from the position's sets or walked.
    let text = with_edges(
        "",
        r#"
[[setup]]
put = "p"
owner = "a"
at = ["a1", "a1n", "b1e", "b2ne"]

[[setup]]
put = "x"
at = ["c2", "c1n", "a2w"]

[[actions]]
name = "count"
choose = ['v in cells where owner(v) == me || !empty(v) && top(v) == x || empty(v) && height(v) == 0']
notation = '{v}'
"#,
    );
    let g = game(&text);
    let s = g.start();
    let mut v = legal(&g, &s);
    v.sort();
    assert_eq!(v, sorted(&["a1", "a2", "b1", "b2", "c1", "c2"]));
    let count = |cond: &str| {
        let g = game(&with_edges(
            "",
            &format!(
                "[[setup]]\nput = \"p\"\nowner = \"a\"\nat = [\"a1\", \"a1n\", \"b1e\", \"b2ne\"]\n\
                 [[setup]]\nput = \"x\"\nat = [\"c2\", \"c1n\", \"a2w\"]\n\
                 [[actions]]\nname = \"n\"\nchoose = ['where {cond}']\nnotation = 'n'\n"
            ),
        ));
        legal(&g, &g.start()).len()
    };
    assert_eq!(count("count(v in cells where owner(v) == a) == 1"), 1);
    assert_eq!(count("count(v in cells where !empty(v)) == 2"), 1);
    assert_eq!(count("count(v in cells where empty(v)) == 4"), 1);
    assert_eq!(count("count(v in edges where !empty(v)) == 4"), 1);
    assert_eq!(count("count(v in points where owner(v) == a) == 1"), 1);
    // A region of empty cells starts at a cell only.
    assert_eq!(
        count("count(v in empty_region(a1s) where empty(v)) == 0"),
        1
    );
    assert_eq!(count("count(v in empty_region(b2) where empty(v)) == 4"), 1);
}

/// A game on a 4x4 board with edges whose one action lists the cells `reachable` gives
/// from a1 through `dirs`, with neutral pieces on `blocked`.
fn reached(dirs: &str, blocked: &[&str]) -> Vec<String> {
    let at: Vec<String> = blocked.iter().map(|b| format!("\"{b}\"")).collect();
    let g = game(&with_edges(
        "",
        &format!(
            "[[setup]]\nput = \"x\"\nat = [{}]\n[[actions]]\nname = \"r\"\nchoose = ['v in reachable(a1{dirs})']\nnotation = '{{v}}'\n",
            at.join(", ")
        ),
    ).replace("files = 3\nranks = 2", "files = 4\nranks = 4"));
    let mut v = legal(&g, &g.start());
    v.sort();
    v
}

#[test]
fn reachable_walks_the_cells_without_crossing_a_place_that_holds_a_piece() {
    assert_eq!(reached("", &[]).len(), 16);
    // A fence across files a and b above rank 1, and along from rank 1 to 2 right of b:
    // a1 and b1 are shut in.
    assert_eq!(reached("", &["a1n", "b1n", "b1e"]), sorted(&["a1", "b1"]));
    // Pieces on cells do not block.
    assert_eq!(reached("", &["b1", "a2"]).len(), 16);
    // A piece on a point blocks a diagonal step only: a1 to b2 through a1ne.
    assert_eq!(
        reached(", diagonal", &[]),
        sorted(&["a1", "b2", "c1", "c3", "d2", "d4", "a3", "b4"])
    );
    assert_eq!(reached(", diagonal", &["a1ne"]), sorted(&["a1"]));
    // A piece on the edge a1n blocks a1 to a2 but not a1 to b1 to b2 to a2.
    assert_eq!(reached("", &["a1n"]).len(), 16);
}

/// The game of `rest` with the position reached by `plies`.
fn placed() -> (Game, rulebook::engine::state::State) {
    let g = game(&with_edges(
        "",
        r#"
[[actions]]
name = "put"
choose = ['v in edges where empty(v)']
effect = 'place(v, p, me)'
notation = '{v}'

[[actions]]
name = "post"
choose = ['v in points where empty(v)']
effect = 'place(v, x)'
notation = '{v}'
"#,
    ));
    let mut s = g.start();
    play(&g, &mut s, "a1n; b1e; a1ne; c2ne");
    set_stack(&g, &mut s, "b2", &[("p", "a"), ("p", "b")]);
    (g, s)
}

#[test]
fn a_drawing_shows_the_pieces_on_places_and_is_read_back() {
    let (g, s) = placed();
    let drawn = render(&g, &s);
    insta::assert_snapshot!(drawn, @r"
                      x
    2     .   B2    .
          A x
    1     .    . B  .
          a    b    c
    a to move
    ");
    // Read back, it draws the same (a drawing shows no turn a piece moved in).
    let read = diagram::read(&g, &drawn).unwrap_or_else(|e| panic!("{e}\n{drawn}"));
    assert_eq!(render(&g, &read), drawn);
    // A diagram written out says each place with a piece by name, and reads back.
    let text = diagram::write(&g, &s);
    assert!(
        text.contains("b1e = B@2 / a1n = A@1 / a1ne = x@3 / c2ne = x@4 / to_move = a"),
        "{text}"
    );
    assert_eq!(diagram::read(&g, &text).unwrap().stacks(), s.stacks());
    // A place not given in a hand-written diagram is empty; one given by name holds it.
    let by_hand = diagram::read(&g, ". . . / . . . / b1n = B").unwrap();
    let b1n = g.board.find("b1n").unwrap();
    assert_eq!(by_hand.stacks()[usize::from(b1n)].len(), 1);
    assert!(
        (g.board.cell_count()..g.board.len())
            .filter(|&p| p != usize::from(b1n))
            .all(|p| by_hand.stacks()[p].is_empty())
    );
    // A tall stack on an edge under a cell widens the cells' columns, and reads back.
    let mut tall = s.clone();
    set_stack(&g, &mut tall, "b1n", &[("x", ""); 10]);
    let drawn_tall = render(&g, &tall);
    let read = diagram::read(&g, &drawn_tall).unwrap_or_else(|e| panic!("{e}\n{drawn_tall}"));
    assert_eq!(render(&g, &read), drawn_tall);
    assert!(drawn_tall.contains("x10"), "{drawn_tall}");
    // Two lines between the same two ranks are refused, with the line.
    let bad = drawn.replacen("A x\n", "A x\n    x\n", 1);
    let err = diagram::read(&g, &bad).unwrap_err();
    assert!(
        err.starts_with("line 4: one line of edges and points"),
        "{err}"
    );
}

#[test]
fn pictures_draw_a_piece_on_an_edge_as_a_bar_and_on_a_point_as_a_post() {
    let (g, s) = placed();
    let svg = rulebook::render::picture::svg(&g, &s, None);
    let piece = |cell: &str| {
        let at = svg
            .find(&format!("data-cell=\"{cell}\" data-piece"))
            .unwrap_or_else(|| panic!("no piece on {cell}"));
        svg[at..].split("</g>").next().unwrap().to_string()
    };
    // Across the files: wide and flat; along them: narrow and tall; a point: small.
    assert!(
        piece("a1n").contains("width=\"42\" height=\"8\""),
        "{}",
        piece("a1n")
    );
    assert!(
        piece("b1e").contains("width=\"8\" height=\"42\""),
        "{}",
        piece("b1e")
    );
    assert!(
        piece("a1ne").contains("width=\"10\" height=\"10\""),
        "{}",
        piece("a1ne")
    );
    assert!(
        piece("b2").contains("<use href="),
        "a cell's piece is drawn as usual"
    );
}

#[test]
fn edges_need_a_board_of_squares_and_a_bounded_size() {
    // A track runs over cells only.
    let track = "[[board.tracks]]\nname = \"t\"\nruns = [\"a1 a1ne b2\"]";
    let err = refused(&with_edges(
        track,
        "[[actions]]\nname = \"n\"\nnotation = 'n'\n",
    ));
    assert!(err.contains("no cell `a1ne` on this board"), "{err}");
    let action = "[[actions]]\nname = \"put\"\nchoose = ['v in edges']\neffect = 'place(v, x)'\nnotation = '{v}'\n";
    insta::assert_snapshot!(refused(&with_edges("hexagonal = true", action)), @r"
    error: a board with edges cannot also have `hexagonal`
      --> test.toml:14:9
       |
    14 | edges = true
       |         ^^^^ places on edges need a board of squares
      = help: edges and points lie between the squares of a grid: leave out `edges`, or draw the board as squares
    ");
    insta::assert_snapshot!(
        refused(&with_edges("", action).replace("files = 3\nranks = 2", "files = 13\nranks = 13")),
        @r"
    error: this board has 729 cells, edges and points in all, more than the 704 places a board may have
      --> test.toml:14:9
       |
    14 | edges = true
       |         ^^^^ about 12 by 12 cells with their edges and points at most
    "
    );
}

/// `reachable` on generated boards and pieces: grown as a set where the cells lie on the
/// grid (`hooks::groups::reachable`'s fast way), walked over the links elsewhere (a
/// shaped board), it gives the cells a plain search written here from the format's
/// words gives: from the cell, a step along a link through the directions asked is taken
/// when the place `beside` the cell that way is empty (or there is none).
#[test]
fn reachable_grows_as_a_walk_visits() {
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};
    use rulebook::engine::hooks::{View, groups};

    let mut rng = Xoshiro256PlusPlus::seed_from_u64(48);
    let (mut grown, mut walked) = (0, 0);
    for case in 0..120 {
        let (files, ranks) = (rng.random_range(1..=7), rng.random_range(1..=7));
        let edges = rng.random_range(0..4) != 0;
        let shape = if rng.random_range(0..3) == 0 {
            "shape = '(file + rank) % 5 != 0'\n"
        } else {
            ""
        };
        let links = ["orthogonal", "all_directions", "diagonal"][rng.random_range(0..3)];
        let text = with_edges("", "")
            .replace(
                "files = 3\nranks = 2\nedges = true",
                &format!(
                    "files = {files}\nranks = {ranks}\nedges = {edges}\n{shape}links = [{{ dirs = \"{links}\" }}]"
                ),
            )
            + "[[actions]]\nname = \"put\"\nchoose = ['v in cells']\neffect = 'place(v, x)'\nnotation = '{v}'\n";
        let Ok(source) = rulebook::spec::parse("test.toml", text.clone()) else {
            panic!("{text}")
        };
        let Ok(g) = rulebook::compile::compile(&source, &[]) else {
            continue; // a shape that leaves no cell
        };
        let board = &g.board;
        let mut s = g.start();
        // Pieces on a third of the places (and some cells, which block nothing).
        for p in 0..board.len() {
            if rng.random_range(0..3) == 0 {
                let name = board.names[p].clone();
                set_stack(&g, &mut s, &name, &[("x", "")]);
            }
        }
        // Both ways of growing are tried.
        if board.cells_on_grid() {
            grown += 1;
        } else {
            walked += 1;
        }
        for dirs in [0b0101_0101u8, 0xff, 0b1010_1010] {
            for start in 0..board.cell_count() {
                let mut set = [0u64; rulebook::engine::cellset::WORDS];
                groups::reachable(
                    &View { board, state: &s },
                    start as i64,
                    dirs.into(),
                    &mut set,
                );
                let got: Vec<usize> = rulebook::engine::cellset::members(&set).collect();
                // The plain search.
                let mut seen = vec![false; board.len()];
                let mut todo = vec![start];
                seen[start] = true;
                while let Some(at) = todo.pop() {
                    for d in (0..8).filter(|d| dirs & (1 << d) != 0) {
                        let Some(to) = board.step(at as u16, d) else {
                            continue;
                        };
                        let open = board
                            .side(at as u16, d)
                            .is_none_or(|p| s.stack(p).is_empty());
                        if open && !seen[usize::from(to)] {
                            seen[usize::from(to)] = true;
                            todo.push(usize::from(to));
                        }
                    }
                }
                let expected: Vec<usize> = (0..board.len()).filter(|&c| seen[c]).collect();
                assert_eq!(
                    got, expected,
                    "case {case}: {files}x{ranks}, edges {edges}, {shape}{links}, from {}",
                    board.names[start]
                );
            }
        }
    }
    assert!(
        grown > 40 && walked > 20,
        "{grown} boards grown, {walked} walked"
    );
}
