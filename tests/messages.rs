//! Messages that name the real problem (issue 49's list; the game-file ones that point at
//! a place are snapshots of `tests/broken/`: an unknown name in a game without
//! parameters, a misspelt type, arithmetic that overflows, `if` without `else`).

use std::os::unix::ffi::OsStrExt;

use crate::common::{Scratch, rulebook, stderr, stdout};

#[test]
fn two_byte_order_marks_are_named_not_pointed_at() {
    let text = std::fs::read_to_string(crate::common::game_path("tictactoe")).unwrap();
    let marked = format!("\u{feff}\u{feff}{text}");
    let msg = rulebook::spec::parse("two.toml", marked)
        .map(|_| ())
        .expect_err("refused")
        .to_string();
    assert!(
        msg.starts_with(
            "error: the file starts with 2 byte-order marks (invisible U+FEFF characters)"
        ),
        "{msg}"
    );
    assert!(
        !msg.contains('^'),
        "no caret under an invisible character: {msg}"
    );
    // One is read past, as before.
    assert!(rulebook::spec::parse("one.toml", format!("\u{feff}{text}")).is_ok());
}

#[test]
fn players_declared_but_none_present_are_not_told_to_be_declared() {
    let text = std::fs::read_to_string(crate::common::game_path("tictactoe")).unwrap();
    assert!(text.contains("name = \"o\"\n"));
    let absent = text
        .replace("name = \"x\"\n", "name = \"x\"\npresent = 'false'\n")
        .replace("name = \"o\"\n", "name = \"o\"\npresent = 'false'\n");
    let msg = crate::common::refused(&absent);
    assert!(
        msg.contains("no player takes part with these parameters"),
        "{msg}"
    );
    assert!(
        msg.contains("the file declares x, o, but the `present` of each is false"),
        "{msg}"
    );
    assert!(!msg.contains("declare players with"), "{msg}");
}

#[test]
fn a_ply_whose_text_holds_a_semicolon_can_be_given_to_after() {
    let g = crate::common::game_of(
        r#"
[game]
name = "semicolons"
[[players]]
name = "a"
[[players]]
name = "b"
[board]
files = 3
ranks = 1
[pieces.p]
owned = true
symbol = { a = "A", b = "B" }
[[actions]]
name = "put"
choose = ['c in cells where empty(c)']
effect = 'place(c, p, me)'
notation = '{c};'
"#,
    );
    for after in ["a1;; b1;", "a1; b1;", "a1;b1"] {
        let s =
            rulebook::cli::play_sequence(&g, after).unwrap_or_else(|e| panic!("{after}: {}", e.0));
        assert_eq!(s.plies, 2, "{after}");
        assert_eq!(crate::common::legal(&g, &s), ["c1;"], "{after}");
    }
    let e = rulebook::cli::play_sequence(&g, "a1; z9").expect_err("z9 is no cell");
    assert!(
        e.0.starts_with("ply 2 `z9` is not legal here; closest legal plies: "),
        "{}",
        e.0
    );
}

#[test]
fn replay_says_the_game_file_beside_it_is_no_regular_file() {
    let dir = Scratch::new("replay-fifo");
    let transcript = dir.join("t.txt");
    let out = rulebook()
        .args([
            "selfplay",
            "games/bounce.toml",
            "--seed",
            "1",
            "--transcript",
        ])
        .arg(&transcript)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&transcript).unwrap();
    let text = text.replace("file: games/bounce.toml", "file: g.toml");
    std::fs::write(&transcript, text).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(dir.join("g.toml"))
        .status()
        .unwrap();
    assert!(made.success());
    let out = rulebook().arg("replay").arg(&transcript).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("the game file `g.toml` is at ")
            && stderr(&out).contains("g.toml, but that is not a regular file"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_closest_plies_to_a_move_without_its_capture_are_its_captures() {
    let out = rulebook()
        .args([
            "moves",
            "games/morris.toml",
            "--after",
            "d6; a1; d7; g1; d5",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("ply 5 `d5` is not legal here; closest legal plies: d5xa1, d5xg1,"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_argument_that_is_not_utf8_is_named() {
    let out = rulebook()
        .arg("check")
        .arg(std::ffi::OsStr::from_bytes(b"bad-\xff.toml"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: argument 2, `bad-\u{fffd}.toml`, is not UTF-8 text (shown with \u{fffd} for \
         the bytes that are not); file names and options must be\n"
    );
    assert!(stdout(&out).is_empty());
}
