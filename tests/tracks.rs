//! Tracks (`[[board.tracks]]`): the ways out of a cell, walks along open and closed
//! tracks (jumps counted, a cell met twice, the start counting as empty), on small
//! hand-made games; and the located refusals of a track that cannot be walked.

use crate::common::{game_of as game, legal, refused};

/// Two players on a 4x3 board with the tracks `tracks` and one piece kind; `rest` adds
/// setup and actions.
fn with_tracks(tracks: &str, rest: &str) -> String {
    format!(
        r#"
[game]
name = "tracks"

[[players]]
name = "a"

[[players]]
name = "b"

[board]
files = 4
ranks = 3
{tracks}

[pieces.p]
owned = true
symbol = {{ a = "A", b = "B" }}
{rest}
"#
    )
}

/// An open track that runs east along rank 1, jumps to d3 and runs back west.
const HOOK: &str = r#"
[[board.tracks]]
name = "hook"
runs = ["a1 b1 c1 d1", "d3 c3 b3"]
"#;

/// A closed track that crosses itself at b2: east along rank 2, a jump to b3, south down
/// file b, a jump back to a2.
const FIGURE: &str = r#"
[[board.tracks]]
name = "figure"
closed = true
runs = ["a2 b2 c2 d2", "b3 b2 b1"]
"#;

/// An action that puts a piece of `a` on each cell for which `cond` holds.
fn mark(cond: &str) -> String {
    format!(
        "[[actions]]\nname = \"mark\"\nchoose = ['x in cells where {cond}']\neffect = 'place(x, p, me)'\nnotation = '{{x}}'\n"
    )
}

/// The cells `cond` picks on the board that `setup` sets, for the tracks `tracks`.
fn picked(tracks: &str, setup: &str, cond: &str) -> Vec<String> {
    let g = game(&with_tracks(tracks, &format!("{setup}\n{}", mark(cond))));
    let mut v = legal(&g, &g.start());
    v.sort();
    v
}

fn cells(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn a_way_is_the_direction_of_the_first_step_or_of_the_run_a_jump_leaves() {
    // a1 starts the open track: only east. d1 ends its run: west back, east into the jump
    // (the run's direction continued). d3 starts the second run: west along it, and east
    // (the run's direction reversed) back over the jump. b3 ends the track: east only.
    let ways = |cell: &str| {
        let g = game(&with_tracks(
            HOOK,
            &format!(
                "[[actions]]\nname = \"w\"\nchoose = ['d in track_ways(hook, {cell})']\neffect = 'place({cell}, p, me)'\nnotation = '{{d}}'\n"
            ),
        ));
        let mut v = legal(&g, &g.start());
        v.sort();
        v
    };
    assert_eq!(ways("a1"), cells(&["e"]));
    assert_eq!(ways("d1"), cells(&["e", "w"]));
    assert_eq!(ways("d3"), cells(&["e", "w"]));
    assert_eq!(ways("b3"), cells(&["e"]));
    assert_eq!(ways("a3"), Vec::<String>::new());
    // A cell met twice on a closed track has a way per direction of each visit.
    let g = game(&with_tracks(
        FIGURE,
        "[[actions]]\nname = \"w\"\nchoose = ['d in track_ways(figure, b2)']\neffect = 'place(b2, p, me)'\nnotation = '{d}'\n",
    ));
    let mut v = legal(&g, &g.start());
    v.sort();
    assert_eq!(v, cells(&["e", "n", "s", "w"]));
}

#[test]
fn walks_follow_the_track_and_count_its_jumps() {
    // From a1 east: b1 c1 d1, the jump, d3 c3 b3; the end of an open track ends the walk.
    assert_eq!(
        picked(HOOK, "", "any(y in track_ray(hook, a1, e) where y == x)"),
        cells(&["b1", "c1", "d1", "d3", "c3", "b3"])
    );
    assert_eq!(
        picked(HOOK, "", "track_jumps(hook, a1, e, x) == 1"),
        cells(&["d3", "c3", "b3"])
    );
    assert_eq!(
        picked(HOOK, "", "track_jumps(hook, a1, e, x) == 0"),
        cells(&["b1", "c1", "d1"])
    );
    // Back from d3 over the jump (way e): d1 first, then west to a1.
    assert_eq!(
        picked(HOOK, "", "x == track_step(hook, d3, e)"),
        cells(&["d1"])
    );
    assert_eq!(
        picked(HOOK, "", "x == track_step(hook, d3, s)"),
        Vec::<String>::new()
    );
    // Round a closed track once: from b2 going south, b1, the jump, a2, b2 again (the
    // start, not listed), c2, d2, the jump, b3, and back to b2 at the end.
    assert_eq!(
        picked(
            FIGURE,
            "",
            "any(y in track_ray(figure, b2, s) where y == x)"
        ),
        cells(&["b1", "a2", "c2", "d2", "b3"])
    );
    assert_eq!(
        picked(FIGURE, "", "track_jumps(figure, b2, s, x) == 2"),
        cells(&["b3"])
    );
    // A cell never met: -1.
    assert_eq!(
        picked(FIGURE, "", "track_jumps(figure, b2, s, x) == -1"),
        cells(&["a1", "c1", "d1", "a3", "c3", "d3"])
    );
}

#[test]
fn a_walk_stops_at_the_first_piece_and_its_start_counts_as_empty() {
    let setup = "[[setup]]\nput = \"p\"\nowner = \"a\"\nat = [\"b2\"]\n\n[[setup]]\nput = \"p\"\nowner = \"b\"\nat = [\"d2\"]\n";
    // From b2 going south the walk crosses b2 itself and stops at d2.
    assert_eq!(
        picked(FIGURE, setup, "x == track_first(figure, b2, s)"),
        cells(&["d2"])
    );
    assert_eq!(
        picked(
            FIGURE,
            setup,
            "any(y in track_slide(figure, b2, s) where y == x)"
        ),
        cells(&["b1", "a2", "c2"])
    );
    // Going east it meets d2 after c2, with no jump.
    assert_eq!(
        picked(
            FIGURE,
            setup,
            "x == track_first(figure, b2, e) && track_jumps(figure, b2, e, x) == 0"
        ),
        cells(&["d2"])
    );
    // Off the track, or by a way the cell has not, a walk meets nothing.
    assert_eq!(
        picked(FIGURE, setup, "x == track_first(figure, a1, n)"),
        Vec::<String>::new()
    );
    assert_eq!(
        picked(FIGURE, setup, "x == track_first(figure, b2, ne)"),
        Vec::<String>::new()
    );
}

#[test]
fn tracks_are_values_of_their_own_type() {
    let both = format!("{HOOK}{FIGURE}");
    // `tracks` lists them in the file's order; `first` and `==` take them.
    assert_eq!(
        picked(
            &both,
            "",
            "first(t in tracks where any(d in track_ways(t, x))) == figure"
        ),
        cells(&["a2", "b2", "c2", "d2"])
    );
    assert!(
        refused(&with_tracks(
            HOOK,
            &mark("track_first(hook, a1, e) == hook")
        ))
        .contains("track")
    );
}

#[test]
fn tracks_that_cannot_be_walked_are_refused_where_they_are_written() {
    let bad = |runs: &str| {
        refused(&with_tracks(
            &format!("[[board.tracks]]\nname = \"t\"\nruns = [{runs}]\n"),
            &mark("empty(x)"),
        ))
    };
    let e = bad(r#""a1 b1 z9""#);
    assert!(
        e.contains("no cell `z9` on this board") && e.contains(":16:"),
        "{e}"
    );
    let e = bad(r#""a1 c1""#);
    assert!(e.contains("`c1` does not follow `a1` on the board"), "{e}");
    let e = bad(r#""a1 b1", "c3""#);
    assert!(
        e.contains("a run of a track names at least two cells"),
        "{e}"
    );
    let e = bad(r#""a1 b1 c1", "a2 b2 c2 c1 b1""#);
    assert!(e.contains("track `t` leaves `c1` twice to the w"), "{e}");
    let e = bad("");
    assert!(e.contains("track `t` lists no run"), "{e}");
    // A track's name is a name like any other.
    let e = refused(&with_tracks(
        "[[board.tracks]]\nname = \"a\"\nruns = [\"a1 b1\"]\n",
        &mark("empty(x)"),
    ));
    assert!(e.contains("the name `a` is used twice"), "{e}");
}
