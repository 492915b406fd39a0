//! Notation templates that compute what they print (`docs/game-format.md`, "`notation`"):
//! a number written as a letter (`{letter(E)}`, `{LETTER(E)}`) or padded
//! (`{pad(E, WIDTH)}`), any expression of the bound names (`{E}`), and the texts they make
//! read back as typed plies; a list of cases that can all fail refused at load.

use rulebook::cli::play_sequence;
use rulebook::engine::program::Shown;

use crate::common::{game_of, legal, refused};

/// A game of one action whose notation is `notation` (a TOML value), on a board of
/// `files` x `ranks`.
fn with_notation(files: u32, ranks: u32, notation: &str) -> String {
    format!(
        r#"
[game]
name = "Templates"

[[players]]
name = "red"

[[players]]
name = "blue"

[board]
files = {files}
ranks = {ranks}

[pieces.stone]
owned = true
symbol = {{ red = "r", blue = "b" }}

[[actions]]
name = "drop"
choose = ['to in cells where empty(to)']
effect = 'place(to, stone, me)'
notation = {notation}

[[end]]
when = 'count(c in cells where empty(c)) == 0'
result = "draw"
"#
    )
}

#[test]
fn numbers_print_as_letters_and_padded() {
    let shown = |s: Shown, v: i64| s.number(v, |v| format!("plain {v}"));
    let lower = Shown::Letter { upper: false };
    let upper = Shown::Letter { upper: true };
    assert_eq!(shown(lower, 1), "a");
    assert_eq!(shown(lower, 26), "z");
    assert_eq!(shown(lower, 27), "aa");
    assert_eq!(shown(lower, 52), "az");
    assert_eq!(shown(lower, 53), "ba");
    assert_eq!(shown(upper, 3), "C");
    assert_eq!(shown(lower, 0), "0");
    assert_eq!(shown(lower, -2), "-2");
    assert_eq!(shown(Shown::Pad(3), 7), "007");
    assert_eq!(shown(Shown::Pad(2), 123), "123");
    assert_eq!(shown(Shown::Pad(3), -7), "-007");
    assert_eq!(shown(Shown::Plain, 5), "plain 5");
}

#[test]
fn a_cell_written_with_its_rank_as_a_letter_and_its_file_as_a_number() {
    // USI-like: files counted from the right, ranks as letters from the top.
    let g = game_of(&with_notation(
        3,
        2,
        "'{4 - file(to)}{letter(3 - rank(to))}'",
    ));
    let s = g.start();
    let mut texts = legal(&g, &s);
    texts.sort();
    assert_eq!(texts, ["1a", "1b", "2a", "2b", "3a", "3b"]);
    // Each text reads back as the ply it names, typed or in a sequence.
    for (text, ply) in g.legal_with_notation(&s) {
        assert_eq!(g.parse_ply(&s, &text).expect("legal"), ply, "{text}");
    }
    let after = play_sequence(&g, "3b; 1a").unwrap_or_else(|e| panic!("{}", e.0));
    let a1 = g.board.find("a1").unwrap() as usize;
    let c2 = g.board.find("c2").unwrap() as usize;
    assert_eq!(after.stacks()[a1].len(), 1);
    assert_eq!(after.stacks()[c2].len(), 1);
}

#[test]
fn padded_and_upper_case_letters_and_plain_expressions() {
    let g = game_of(&with_notation(
        2,
        10,
        "'{LETTER(file(to))}{pad(rank(to), 2)}:{rank(to) * 10}'",
    ));
    let texts = legal(&g, &g.start());
    assert!(texts.contains(&"A01:10".to_string()), "{texts:?}");
    assert!(texts.contains(&"B10:100".to_string()), "{texts:?}");
    // A computed piece beside the older forms, in cases.
    let g = game_of(&with_notation(
        2,
        2,
        "[{ when = 'rank(to) == 1', text = '{file(to)}-{letter(rank(to))}' }, { text = '{to}' }]",
    ));
    let mut texts = legal(&g, &g.start());
    texts.sort();
    assert_eq!(texts, ["a-a", "a2", "b-a", "b2"]);
}

#[test]
fn computed_pieces_are_checked_where_they_stand() {
    let err = refused(&with_notation(2, 2, "'{letter(to)}'"));
    assert!(err.contains("test.toml:23:21"), "{err}");
    assert!(err.contains("expected a number, found a cell"), "{err}");
    let err = refused(&with_notation(2, 2, "'x{pad(rank(to), 0)}'"));
    assert!(err.contains("a width from 1 to 18"), "{err}");
    let err = refused(&with_notation(2, 2, "'{letter(rank(to), 2)}'"));
    assert!(err.contains("`letter` takes one number"), "{err}");
    let err = refused(&with_notation(2, 2, "'{rank(to) +}'"));
    assert!(err.contains("syntax error in notation"), "{err}");
    let err = refused(&with_notation(2, 2, "'{rank(from)}'"));
    assert!(err.contains("from"), "{err}");
}

#[test]
fn a_case_list_that_can_fail_is_refused_and_one_with_a_last_case_loads() {
    let err = refused(&with_notation(
        2,
        2,
        "[{ when = 'rank(to) == 1', text = 'low {to}' }, { when = 'rank(to) == 2', text = '{to}' }]",
    ));
    assert!(err.contains("a notation's cases can all fail"), "{err}");
    assert!(err.contains("test.toml:23:69"), "{err}");
    assert!(
        err.contains("help: end the list with a case without `when`"),
        "{err}"
    );
    game_of(&with_notation(
        2,
        2,
        "[{ when = 'rank(to) == 1', text = 'low {to}' }, { text = '{to}' }]",
    ));
}
