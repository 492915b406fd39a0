//! The native hooks on small hand-made boards: line of sight follows links and stops at
//! the first piece; groups connect like pieces through the given directions.

use proptest::prelude::*;
use rulebook::engine::cellset::WORDS;
use rulebook::engine::game::Game;
use rulebook::engine::hooks::groups;
use rulebook::engine::natives::Ctx;
use rulebook::engine::state::{NEUTRAL, Piece, State};
use rulebook::{compile, spec};

/// A 5x5 board with alquerque links (diagonals only where file + rank is even), stones on
/// the given cells, and one action listing the cells the expression `list` ranges over.
fn board_game(stones: &[&str], list: &str) -> Game {
    let text = format!(
        r#"
[game]
name = "probe"

[[players]]
name = "one"

[board]
files = 5
ranks = 5
links = [{{ dirs = "orthogonal" }}, {{ dirs = "diagonal", where = '(file + rank) % 2 == 0' }}]

[pieces.stone]
symbol = "o"

[[setup]]
put = "stone"
at = [{}]

[[actions]]
name = "probe"
choose = ['x in {list}']
notation = '{{x}}'
"#,
        stones
            .iter()
            .map(|s| format!("\"{s}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let source = spec::parse("probe.toml", text).unwrap_or_else(|d| panic!("{d}"));
    compile::compile(&source, &[]).unwrap_or_else(|d| panic!("{d}"))
}

/// The texts of the plies from the start.
fn listed(g: &Game) -> Vec<String> {
    crate::common::legal(g, &g.start())
}

#[test]
fn visible_sees_the_first_piece_along_each_line_and_is_blocked() {
    // From c3 (even: 8 lines): d4 blocks e5; a1 seen on the diagonal, c5 up, e3 right.
    let g = board_game(&["d4", "e5", "a1", "c5", "e3", "b3", "a3"], "visible(c3)");
    assert_eq!(listed(&g), ["a1", "b3", "c5", "d4", "e3"]);
}

#[test]
fn visible_from_an_odd_point_looks_only_orthogonally() {
    // b3 is odd: its diagonal neighbours a2/c2/a4/c4 hold stones but are not on its lines.
    let g = board_game(&["a2", "c2", "a4", "c4", "b5", "e3"], "visible(b3)");
    assert_eq!(listed(&g), ["b5", "e3"]);
}

#[test]
fn visible_with_a_direction_set() {
    let g = board_game(&["a1", "c5", "e5"], "visible(c3, diagonal)");
    assert_eq!(listed(&g), ["a1", "e5"]);
}

#[test]
fn first_seen_is_none_at_the_edge() {
    let g = board_game(
        &["c5"],
        "cells where first_seen(c3, n) == x || (first_seen(c3, s) == none && x == a1)",
    );
    assert_eq!(listed(&g), ["a1", "c5"]);
}

#[test]
fn ray_follows_links_only() {
    let g = board_game(&[], "ray(b1, ne)");
    assert!(
        listed(&g).is_empty(),
        "b1 is odd: no diagonal line leaves it"
    );
    let g = board_game(&[], "ray(a1, ne)");
    assert_eq!(listed(&g), ["b2", "c3", "d4", "e5"]);
}

#[test]
fn group_size_connects_through_the_given_directions() {
    let g = board_game(
        &["a1", "b2", "c3", "c2"],
        "cells where x == a1 && group_size(a1) == 1 && group_size(a1, all_directions) == 4 && groups(none) == 0",
    );
    assert_eq!(listed(&g), ["a1"]);
}

/// A full 5x5 grid whose only links are explicit lines that skip squares (a graph board):
/// the edges a1-c1-e1, a5-c5-e5, a1-a3-a5, e1-e3-e5, the middle file c1-c3-c5 and the
/// diagonal a1-c3-e5. Every square is a cell, so a hook that stepped on the grid instead
/// of along the links would reach b1, b2, ... Stones on `stones`; the action lists `list`.
fn joined_game(stones: &[&str], list: &str) -> Game {
    let text = format!(
        r#"
[game]
name = "probe"

[[players]]
name = "one"

[board]
files = 5
ranks = 5
links = [{{ join = ["a1 c1 e1", "a5 c5 e5", "a1 a3 a5", "e1 e3 e5", "c1 c3 c5", "a1 c3 e5"] }}]

[pieces.stone]
symbol = "o"

[[setup]]
put = "stone"
at = [{}]

[[actions]]
name = "probe"
choose = ['x in {list}']
notation = '{{x}}'
"#,
        stones
            .iter()
            .map(|s| format!("\"{s}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let source = spec::parse("joined.toml", text).unwrap_or_else(|d| panic!("{d}"));
    compile::compile(&source, &[]).unwrap_or_else(|d| panic!("{d}"))
}

#[test]
fn steps_and_rays_follow_joined_links_across_the_squares_they_skip() {
    // a1 is joined to a3 (n), c3 (ne) and c1 (e), each two squares away.
    assert_eq!(
        listed(&joined_game(&[], "adjacent(a1)")),
        ["a3", "c1", "c3"]
    );
    assert_eq!(listed(&joined_game(&[], "ray(a1, e)")), ["c1", "e1"]);
    assert_eq!(listed(&joined_game(&[], "ray(a1, ne)")), ["c3", "e5"]);
    assert_eq!(listed(&joined_game(&[], "ray(e5, sw)")), ["a1", "c3"]);
    // b1 is a cell on no line: it has no neighbour at all.
    assert!(listed(&joined_game(&[], "adjacent(b1)")).is_empty());
    let g = joined_game(&[], "cells where step(c1, w) == x || step(c3, s) == x");
    assert_eq!(listed(&g), ["a1", "c1"]);
}

#[test]
fn line_of_sight_follows_joined_links() {
    // From a1: c1 blocks e1 along the bottom; a3 is empty, so a5 is seen; nothing on the
    // diagonal. b1 and b2 hold stones but lie on no line through a1.
    let g = joined_game(&["c1", "e1", "a5", "b1", "b2"], "visible(a1)");
    assert_eq!(listed(&g), ["a5", "c1"]);
    let g = joined_game(&["e5"], "cells where first_seen(a1, ne) == x");
    assert_eq!(listed(&g), ["e5"]);
}

#[test]
fn groups_connect_through_joined_links_only() {
    // a1, c1, e1 are one line; b1 and b2 lie on none. On this full grid the group hooks
    // must follow the links, not shift along the grid (which would stop at empty b1 and
    // take in b2 from a1's diagonal).
    let g = joined_game(
        &["a1", "c1", "e1", "b2"],
        "cells where x == a1 && group_size(a1) == 3 && group_size(e1, all_directions) == 3 \
         && group_size(b2, all_directions) == 1",
    );
    assert_eq!(listed(&g), ["a1"]);
}

/// A board of `files` x `ranks` with the given shape and links, two owned kinds and a
/// neutral one, and pieces put by `cells`: for each cell index, 0 for empty, else 1 + a
/// (kind, owner) class out of six. `None` when the shape leaves no cell, which the loader
/// refuses (`tests/broken/board_without_cells.toml`).
fn group_board(
    files: u8,
    ranks: u8,
    shape: &str,
    links: &str,
    cells: &[u8],
) -> Option<(Game, State)> {
    board_with_actions(files, ranks, shape, links, cells, PASS, compile::compile)
}

/// How a test compiles a game: with closures ([`compile::compile`]) or as trees
/// (`crate::walk::compile`, the tree walk).
type Compile = fn(&spec::Source, &[(String, String)]) -> Result<Game, Box<spec::diag::Diagnostic>>;

/// An action that any cell satisfies: what the group tests need to compile a game.
const PASS: &str = r#"
[[actions]]
name = "pass"
choose = ['x in cells']
notation = '{x}'
"#;

/// [`group_board`] with the actions `actions` instead of a pass.
fn board_with_actions(
    files: u8,
    ranks: u8,
    shape: &str,
    links: &str,
    cells: &[u8],
    actions: &str,
    compile: Compile,
) -> Option<(Game, State)> {
    let text = format!(
        r#"
[game]
name = "groups"

[[players]]
name = "one"

[[players]]
name = "two"

[board]
files = {files}
ranks = {ranks}
shape = '{shape}'
links = [{links}]

[pieces.pa]
owned = true
symbol = {{ one = "a", two = "A" }}

[pieces.pb]
owned = true
symbol = {{ one = "b", two = "B" }}

[pieces.pn]
symbol = "n"
{actions}
"#
    );
    let source = spec::parse("groups.toml", text).unwrap_or_else(|d| panic!("{d}"));
    let g = match compile(&source, &[]) {
        Ok(g) => g,
        Err(d) if d.to_string().contains("the board has no cells") => return None,
        Err(d) => panic!("{d}"),
    };
    let mut s = g.start();
    for cell in 0..g.board.len() {
        let class = cells[cell % cells.len()];
        let piece = match class {
            0 => None,
            1..=4 => Some(Piece::new((class - 1) / 2, (class - 1) % 2, 0)),
            _ => Some(Piece::new(2, NEUTRAL, 0)),
        };
        s.edit_stack(cell as u16, |st| {
            st.clear();
            st.extend(piece);
        });
    }
    Some((g, s))
}

/// The group of `start` by a plain flood over the board's links, for comparison.
fn plain_group(g: &Game, s: &State, start: usize, dirs: u8) -> Vec<bool> {
    let like = |c: usize| s.stacks()[c].last().map(|p| (p.kind, p.owner));
    plain_flood(g, start, dirs, |c| {
        like(c).is_some() && like(c) == like(start)
    })
}

/// The cells a plain flood over the board's links through `dirs` reaches from `start` by
/// way of cells `inside` takes in (`start` too, and nothing where it is not in), for
/// comparison.
fn plain_flood(g: &Game, start: usize, dirs: u8, inside: impl Fn(usize) -> bool) -> Vec<bool> {
    let mut seen = vec![false; g.board.len()];
    if !inside(start) {
        return seen;
    }
    let mut todo = vec![start];
    seen[start] = true;
    while let Some(c) = todo.pop() {
        for d in 0..8 {
            if dirs & (1 << d) != 0
                && let Some(n) = g.board.step(c as u16, d)
                && !seen[n as usize]
                && inside(n as usize)
            {
                seen[n as usize] = true;
                todo.push(n as usize);
            }
        }
    }
    seen
}

/// A set of cells as the hooks write one: a bit per cell, in as many words as the
/// largest board takes.
fn as_words(cells: &[bool]) -> [u64; WORDS] {
    let mut words = [0u64; WORDS];
    for (cell, _) in cells.iter().enumerate().filter(|(_, x)| **x) {
        words[cell / 64] |= 1 << (cell % 64);
    }
    words
}

/// Board shapes for the property tests (`files` and `ranks` stand for the board's size):
/// a full rectangle, a diamond, and a rectangle with holes.
fn board_shapes() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "true",
        "abs(2 * file - files - 1) + abs(2 * rank - ranks - 1) <= files",
        "(file * 7 + rank * 3) % 5 != 0",
    ])
}

/// Link patterns for the property tests: grids, alternating diagonals, and one-way links.
fn link_patterns() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        r#"{ dirs = "orthogonal" }"#,
        r#"{ dirs = "all_directions" }"#,
        r#"{ dirs = "orthogonal" }, { dirs = "diagonal", where = '(file + rank) % 2 == 0' }"#,
        r#"{ dirs = "n" }, { dirs = "e", where = 'rank % 3 != 1' }"#,
    ])
}

proptest! {
    #![proptest_config(crate::common::config(200))]

    /// The group hooks grow groups over bit sets (by shifts on rectangle boards, along
    /// links on others; in a register on a rectangle of one word), and find their
    /// liberties the same ways; on every board shape and size up to 26 x 26 (one to
    /// eleven words) they agree with a plain flood: a group's size and cells, its size
    /// grown afresh within its set of like pieces (what `engine::check_before` asks), its
    /// liberties, the empty region of an empty cell, and the count of groups.
    #[test]
    fn group_hooks_agree_with_a_plain_flood(
        files in 1u8..=26,
        ranks in 1u8..=26,
        shape in board_shapes(),
        links in link_patterns(),
        dirs in prop::sample::select(vec![0x55u8, 0xaa, 0xff, 0x01, 0x44]),
        cells in prop::collection::vec(0u8..=5, 1..40),
    ) {
        let shape = shape.replace("files", &files.to_string()).replace("ranks", &ranks.to_string());
        let Some((g, s)) = group_board(files, ranks, &shape, links, &cells) else {
            // Only the one shape that can leave no square, on the smallest boards.
            prop_assert_eq!((files, ranks), (1, 1), "{} leaves no cell", shape);
            return Ok(());
        };
        let c = Ctx { board: &g.board, state: &s, me: 0 };
        let mut counted = [vec![false; g.board.len()], vec![false; g.board.len()]];
        let mut groups = [0i64; 2];
        for start in 0..g.board.len() {
            let plain = plain_group(&g, &s, start, dirs);
            let size = plain.iter().filter(|&&x| x).count() as i64;
            let at = &g.board.names[start];
            prop_assert_eq!(groups::group_size(&c.view(), start as i64, dirs as i64), size, "at {}", at);
            let mut cells = [0u64; WORDS];
            groups::group_cells(&c.view(), start as i64, dirs as i64, &mut cells);
            prop_assert_eq!(cells, as_words(&plain), "the group's cells at {}", at);
            if size > 0 {
                let like = s.cells_topped_by(s.top_code(start as u16));
                let within = groups::size_within(&g.board, like, start, dirs);
                prop_assert_eq!(within, size, "the size grown afresh at {}", at);
            }
            let empty = plain_flood(&g, start, dirs, |c| s.stacks()[c].is_empty());
            let mut region = [0u64; WORDS];
            groups::empty_region(&c.view(), start as i64, dirs as i64, &mut region);
            prop_assert_eq!(region, as_words(&empty), "the empty region at {}", at);
            // Liberties: the empty cells a member links to through `dirs`.
            let mut free = vec![false; g.board.len()];
            for (member, _) in plain.iter().enumerate().filter(|(_, m)| **m) {
                for d in (0..8).filter(|d| dirs & (1 << d) != 0) {
                    if let Some(n) = g.board.step(member as u16, d)
                        && s.stacks()[n as usize].is_empty()
                    {
                        free[n as usize] = true;
                    }
                }
            }
            let liberties = free.iter().filter(|&&f| f).count() as i64;
            prop_assert_eq!(groups::liberties(&c.view(), start as i64, dirs as i64), liberties, "liberties at {}", g.board.names[start]);
            if let Some(p) = s.stacks()[start].last().filter(|p| p.owner != NEUTRAL)
                && !counted[p.owner as usize][start]
            {
                groups[p.owner as usize] += 1;
                for (cell, member) in plain.iter().enumerate() {
                    counted[p.owner as usize][cell] |= *member;
                }
            }
        }
        for player in 0..2 {
            let all = groups[player as usize];
            prop_assert_eq!(groups::group_count(&c.view(), player, dirs as i64, u32::MAX), all);
            // Counting stops at `most`: what a comparison with a constant asks for.
            for most in 1..=all as u32 + 1 {
                prop_assert_eq!(groups::group_count(&c.view(), player, dirs as i64, most), all.min(most.into()));
            }
        }
    }

    /// The groups found are remembered per set of like pieces (for the board and the
    /// directions; one word of cells or more): two boards of the same size with other
    /// links, asked in turn about the same pieces, and one board asked again after each
    /// of a run of moves (pieces taken from one cell and put on another), still agree
    /// with a plain flood every time.
    #[test]
    fn remembered_groups_answer_for_their_board_and_pieces_only(
        files in 1u8..=12,
        ranks in 1u8..=12,
        cells in prop::collection::vec(0u8..=5, 1..40),
        moves in prop::collection::vec((0usize..144, 0usize..144), 0..12),
        dirs in prop::sample::select(vec![0x55u8, 0xff, 0x05]),
    ) {
        let shape = "true";
        let boards = [r#"{ dirs = "orthogonal" }"#, r#"{ dirs = "all_directions" }"#];
        let Some((g0, mut s0)) = group_board(files, ranks, shape, boards[0], &cells) else {
            return Ok(());
        };
        let Some((g1, s1)) = group_board(files, ranks, shape, boards[1], &cells) else {
            return Ok(());
        };
        let n = g0.board.len();
        let check = |g: &Game, s: &State, cell: usize| -> Result<(), TestCaseError> {
            let size = plain_group(g, s, cell, dirs).iter().filter(|&&x| x).count() as i64;
            let c = Ctx { board: &g.board, state: s, me: 0 };
            prop_assert_eq!(groups::group_size(&c.view(), cell as i64, dirs as i64), size, "at {}", g.board.names[cell]);
            Ok(())
        };
        for cell in 0..n {
            check(&g0, &s0, cell)?;
            check(&g1, &s1, cell)?;
        }
        for (from, to) in moves {
            let (from, to) = (from % n, to % n);
            if from == to || s0.stacks()[from].is_empty() {
                continue;
            }
            let piece = s0.stacks()[from].last().copied();
            s0.edit_stack(from as u16, |st| { st.pop(); });
            s0.edit_stack(to as u16, |st| {
                st.clear();
                st.extend(piece);
            });
            for cell in 0..n {
                check(&g0, &s0, cell)?;
            }
        }
    }
}

#[test]
fn a_hexagonal_board_links_six_neighbours_and_groups_through_them() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/hexagon.toml");
    let source = spec::load(path).unwrap_or_else(|d| panic!("{d}"));
    let g = compile::compile(&source, &[]).unwrap_or_else(|d| panic!("{d}"));
    let names = |cells: Vec<u16>| -> Vec<&str> {
        let mut v: Vec<&str> = cells
            .iter()
            .map(|&c| g.board.names[c as usize].as_str())
            .collect();
        v.sort();
        v
    };
    let c3 = g.board.find("c3").unwrap();
    let around: Vec<u16> = (0..8).filter_map(|d| g.board.step(c3, d)).collect();
    // n, ne, e, s, sw, w; not b4 (nw) nor d2 (se), which are not next to c3 on a hexagon.
    assert_eq!(names(around), ["b2", "b3", "c2", "c4", "d3", "d4"]);
    // A corner of the hexagon has three neighbours.
    let a1 = g.board.find("a1").unwrap();
    let corner: Vec<u16> = (0..8).filter_map(|d| g.board.step(a1, d)).collect();
    assert_eq!(names(corner), ["a2", "b1", "b2"]);
    // Red c3, d4 (its ne) and b4 (its nw): one group of two, and b4 alone.
    let mut state = g.start();
    crate::common::play(&g, &mut state, "c3; a1; d4; e5; b4");
    let c = Ctx {
        board: &g.board,
        state: &state,
        me: 0,
    };
    let at = |name: &str| g.board.find(name).unwrap() as i64;
    assert_eq!(groups::group_size(&c.view(), at("c3"), 0xff), 2);
    assert_eq!(groups::group_size(&c.view(), at("b4"), 0xff), 1);
    assert_eq!(groups::group_count(&c.view(), 0, 0xff, u32::MAX), 2);
}

proptest! {
    #![proptest_config(crate::common::config(200))]

    /// `any(y in adjacent(x, D) where P)` as a filter on `x` is worked out as a set (the
    /// cells with a neighbour in P: shifts on rectangle boards, neighbour masks on
    /// others, and a test per cell where a conjunction leaves few); on every board shape,
    /// size (one to eleven words) and link pattern, one-way links included, it picks
    /// exactly the cells a plain look at each cell's links picks.
    #[test]
    fn cells_next_to_a_set_agree_with_a_plain_look_at_the_links(
        files in 1u8..=26,
        ranks in 1u8..=26,
        shape in board_shapes(),
        links in link_patterns(),
        (dirs, mask) in prop::sample::select(vec![
            ("orthogonal", 0x55u8),
            ("diagonal", 0xaa),
            ("all_directions", 0xff),
        ]),
        cells in prop::collection::vec(0u8..=5, 1..40),
    ) {
        let shape = shape.replace("files", &files.to_string()).replace("ranks", &ranks.to_string());
        // Any cell next to one of mine; one of two's next to a b of mine (a
        // conjunction, which leaves few cells or many).
        // (With a pass, so that the empty start is no lost game.)
        let actions = format!(r#"{PASS}
[[actions]]
name = "near"
choose = ['x in cells where any(y in adjacent(x, {dirs}) where owner(y) == me)']
notation = 'near {{x}}'

[[actions]]
name = "theirs"
choose = ['x in cells where owner(x) == two && any(y in adjacent(x, {dirs}): owner(y) == me && top(y) == pb)']
notation = 'theirs {{x}}'
"#);
        let Some((g, s)) = board_with_actions(files, ranks, &shape, links, &cells, &actions, compile::compile) else {
            prop_assert_eq!((files, ranks), (1, 1), "{} leaves no cell", shape);
            return Ok(());
        };
        // The tree-walking reference works the same sets out its own way.
        let (walked, _) = board_with_actions(files, ranks, &shape, links, &cells, &actions, crate::walk::compile)
            .expect("the same board");
        let top = |cell: usize| s.stacks()[cell].last().copied();
        let next_to = |x: usize, want: &dyn Fn(Piece) -> bool| {
            (0..8).any(|d| {
                mask & (1 << d) != 0
                    && g.board.step(x as u16, d).is_some_and(|y| top(y as usize).is_some_and(want))
            })
        };
        let mut expected: Vec<String> = Vec::new();
        for x in 0..g.board.len() {
            let name = &g.board.names[x];
            if next_to(x, &|p| p.owner == 0) {
                expected.push(format!("near {name}"));
            }
            if top(x).is_some_and(|p| p.owner == 1) && next_to(x, &|p| p.owner == 0 && p.kind == 1) {
                expected.push(format!("theirs {name}"));
            }
        }
        expected.sort();
        for game in [&g, &walked] {
            let mut legal: Vec<String> = game
                .legal_with_notation(&s)
                .into_iter()
                .map(|(t, _)| t)
                .filter(|t| t.contains(' '))
                .collect();
            legal.sort();
            prop_assert_eq!(&legal, &expected);
        }
    }
}

#[test]
fn encloses_finds_a_group_that_goes_around_a_cell() {
    // Eight stones around the empty c3, joined orthogonally: each is in a group that
    // goes around c3.
    let ring = ["b2", "c2", "d2", "d3", "d4", "c4", "b4", "b3"];
    let g = board_game(&ring, "cells where encloses(x)");
    let mut expected: Vec<String> = ring.iter().map(|c| c.to_string()).collect();
    expected.sort();
    assert_eq!(listed(&g), expected);
    // A stone of the group on c3 is still gone around: by the eight others.
    let mut full = ring.to_vec();
    full.push("c3");
    let g = board_game(&full, "cells where encloses(x)");
    assert_eq!(listed(&g).len(), 9);
    // A gap lets c3 out; and the edge of the board closes no ring (a1 is on the rim).
    let g = board_game(&ring[..7], "cells where encloses(x)");
    assert!(listed(&g).is_empty());
    let g = board_game(&["a2", "b2", "b1"], "cells where encloses(x)");
    assert!(listed(&g).is_empty());
    // Through all eight directions the orthogonal ring is one group, and c3 is shut in
    // as well; four diagonal neighbours alone leave it ways out between them.
    let g = board_game(&ring, "cells where encloses(x, all_directions)");
    assert_eq!(listed(&g).len(), 8);
    let g = board_game(
        &["b2", "d2", "d4", "b4", "c1"],
        "cells where encloses(x, diagonal)",
    );
    assert!(listed(&g).is_empty());
}
