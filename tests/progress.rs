//! Progress for the commands that run long, on a terminal only: `perft` a bar of the
//! first plies done, `check` a spinner while it probes a file, `play`'s `hint` the
//! thinking line a bot's turn shows. On a pipe (every other test) they print nothing
//! more than before: standard error stays empty.

use std::path::Path;
use std::time::Duration;

use crate::common::{Session, rulebook, stderr, stdout, terminal};

/// What `rulebook ARGS` printed on a terminal (standard output and error mixed, with the
/// control sequences that redraw a line), once it ended.
fn on_a_terminal(args: &str) -> String {
    let out = terminal(Path::new(env!("CARGO_MANIFEST_DIR")), "xterm", args)
        .output()
        .expect("`script` (util-linux) runs the program on a terminal: install it");
    assert!(out.status.success(), "{}", stdout(&out));
    stdout(&out)
}

#[test]
fn perft_shows_the_first_plies_done_on_a_terminal_and_nothing_on_a_pipe() {
    let text = on_a_terminal("perft games/chess.toml --depth 3");
    // indicatif draws the first changes at once (a burst of twenty), then at most
    // twenty a second: the first ply counted is always drawn.
    assert!(
        text.contains("perft depth 3: ") && text.contains("/20 first plies"),
        "{text:?}"
    );
    assert!(text.contains("8902"), "{text:?}");
    let piped = rulebook()
        .args(["perft", "games/chess.toml", "--depth", "3"])
        .output()
        .unwrap();
    assert_eq!(
        (stdout(&piped), stderr(&piped)),
        ("8902\n".into(), "".into())
    );
    let divided = rulebook()
        .args(["perft", "games/chess.toml", "--depth", "2", "--divide"])
        .output()
        .unwrap();
    assert!(
        stdout(&divided).ends_with("h2-h4: 20\n400\n"),
        "{}",
        stdout(&divided)
    );
    assert_eq!(stderr(&divided), "");
}

#[test]
fn check_shows_which_file_it_probes_on_a_terminal_and_nothing_on_a_pipe() {
    let text = on_a_terminal("check games/tictactoe.toml");
    assert!(
        text.contains("games/tictactoe.toml: playing random games to probe it, "),
        "{text:?}"
    );
    assert!(text.contains("games/tictactoe.toml: ok: "), "{text:?}");
    let piped = rulebook()
        .args(["check", "games/tictactoe.toml"])
        .output()
        .unwrap();
    assert!(stdout(&piped).starts_with("games/tictactoe.toml: ok: "));
    assert_eq!(stderr(&piped), "");
}

#[test]
fn hint_shows_the_thinking_line_on_a_terminal() {
    // A thousand full playouts of chess take seconds: the line shows from half a second.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut play = Session::on_a_terminal(dir, "xterm", "games/chess.toml --seed 1");
    play.wait_for("white> ", 1);
    play.send("hint\r");
    play.wait_for("playouts went through it", 1);
    play.wait_for("white> ", 2);
    std::thread::sleep(Duration::from_millis(100));
    play.send("quit\r");
    let (code, text) = play.finish();
    assert_eq!(code, Some(0), "{text:?}");
    assert!(
        text.contains("\rhint: MCTS is thinking: ") && text.contains(" s (Ctrl-C stops it)"),
        "{text:?}"
    );
}
