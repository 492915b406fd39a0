//! The native hooks on small hand-made boards: line of sight follows links and stops at
//! the first piece; groups connect like pieces through the given directions.

use rulebook::engine::game::Game;
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

fn listed(g: &Game) -> Vec<String> {
    g.legal_with_notation(&g.start())
        .into_iter()
        .map(|(t, _)| t)
        .collect()
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
