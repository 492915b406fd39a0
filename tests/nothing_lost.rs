//! Nothing the user has is lost: outputs written as what their path is (a FIFO, a device,
//! a symbolic link, a file), never onto another output or an input of the same command,
//! and a game in `play` never lost to a keystroke or a piped line.

use std::io::Read;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::{Scratch, Session, rulebook, run_with_stdin, stderr, stdout};

/// The path of a shipped game file, for commands run in a scratch folder.
fn game(name: &str) -> String {
    format!("{}/games/{name}.toml", env!("CARGO_MANIFEST_DIR"))
}

fn bounce() -> String {
    game("bounce")
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

/// Reads a FIFO to its end on a thread of its own (a writer blocks until one opens it).
fn drain(path: &Path) -> std::thread::JoinHandle<String> {
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        let mut text = String::new();
        std::fs::File::open(path)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        text
    })
}

#[test]
fn an_output_on_a_fifo_is_written_into_it_not_replaced() {
    let dir = Scratch::new("output-fifo");
    let (trace, json) = (dir.join("trace"), dir.join("json"));
    mkfifo(&trace);
    mkfifo(&json);
    let reader = drain(&trace);
    let out = rulebook()
        .args(["selfplay", &bounce(), "--seed", "3", "--trace"])
        .arg(&trace)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = reader.join().unwrap();
    assert!(text.starts_with("{\"game\":\"Bounce\""), "{text}");
    assert!(text.contains("{\"end\":"), "{text}");
    assert!(std::fs::metadata(&trace).unwrap().file_type().is_fifo());
    // The same for the JSON of `bench`, and no file left beside the FIFO.
    let reader = drain(&json);
    let out = rulebook()
        .args(["bench", &bounce(), "--playouts", "2", "--json"])
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(reader.join().unwrap().contains("\"playouts_per_second\""));
    assert!(std::fs::metadata(&json).unwrap().file_type().is_fifo());
    let names: Vec<_> = std::fs::read_dir(&*dir).unwrap().collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn an_output_on_a_symlink_writes_the_file_it_points_to_and_keeps_the_link() {
    let dir = Scratch::new("output-symlink");
    let (real, link) = (dir.join("real.txt"), dir.join("link.txt"));
    std::fs::write(&real, "old text\n").unwrap();
    std::os::unix::fs::symlink("real.txt", &link).unwrap();
    // A link to a file that does not exist yet makes that file.
    let (later, dangling) = (dir.join("later.txt"), dir.join("dangling.txt"));
    std::os::unix::fs::symlink(&later, &dangling).unwrap();
    let out = rulebook()
        .args(["selfplay", &bounce(), "--seed", "3", "--transcript"])
        .arg(&link)
        .arg("--trace")
        .arg(&dangling)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let text = std::fs::read_to_string(&real).unwrap();
    assert!(text.starts_with("# rulebook transcript\n"), "{text}");
    assert!(
        std::fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&later)
            .unwrap()
            .contains("{\"end\":")
    );
}

#[test]
fn an_output_on_a_device_node_is_written_in_place() {
    // A private null device made in the scratch folder (never a real one under /dev);
    // only root may make one.
    let dir = Scratch::new("output-device");
    let null = dir.join("null");
    let made = Command::new("mknod")
        .arg(&null)
        .args(["c", "1", "3"])
        .stderr(Stdio::null())
        .status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("not root: no device node can be made, the test checks nothing");
        return;
    }
    for args in [
        vec!["selfplay", "--seed", "3", "--trace"],
        vec!["selfplay", "--seed", "3", "--transcript"],
        vec!["bench", "--playouts", "2", "--json"],
        vec!["match", "--bots", "random,random", "--games", "2", "--json"],
    ] {
        let out = rulebook()
            .arg(args[0])
            .arg(bounce())
            .args(&args[1..])
            .arg(&null)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let kind = std::fs::symlink_metadata(&null).unwrap().file_type();
        assert!(kind.is_char_device(), "{args:?} replaced the device");
    }
}

#[test]
fn an_output_that_replaces_a_file_keeps_its_permissions() {
    let dir = Scratch::new("output-permissions");
    let path = dir.join("private.json");
    std::fs::write(&path, "{}").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    let out = rulebook()
        .args(["bench", &bounce(), "--playouts", "2", "--json"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let meta = std::fs::metadata(&path).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    assert!(std::fs::read_to_string(&path).unwrap().contains("playouts"));
}

#[test]
fn two_outputs_of_one_command_on_one_file_are_refused_before_playing() {
    let dir = Scratch::new("output-twice");
    let path = dir.join("out.txt");
    let out = rulebook()
        .current_dir(&*dir)
        .args(["selfplay", &bounce(), "--trace", "out.txt", "--transcript"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(&format!(
            "--trace out.txt and --transcript {} are one file: one would overwrite the other; \
             give each its own file",
            path.display()
        )),
        "{}",
        stderr(&out)
    );
    assert!(!path.exists(), "nothing is written");
    // Two outputs on a device are no clash.
    let out = rulebook()
        .args(["selfplay", &bounce(), "--trace", "/dev/stdout"])
        .args(["--transcript", "/dev/stdout"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn an_output_on_the_game_file_or_the_position_file_is_refused() {
    let dir = Scratch::new("output-input");
    let game = dir.join("bounce.toml");
    std::fs::copy(bounce(), &game).unwrap();
    let original = std::fs::read_to_string(&game).unwrap();
    let game = game.to_str().unwrap();
    for args in [
        vec!["selfplay", game, "--trace", game],
        vec!["bench", game, "--playouts", "1", "--json", game],
        vec![
            "match",
            game,
            "--bots",
            "random,random",
            "--games",
            "1",
            "--json",
            game,
        ],
    ] {
        let out = rulebook().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            stderr(&out).contains("which is the game file: writing there would destroy it"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    // A transcript of `match --transcripts` that would be the JSON, or the position file.
    let position = dir.join("game-001.txt");
    std::fs::write(
        &position,
        "to_move = blue\n. . . .\n. . . .\n. . . .\n. . . .\n",
    )
    .unwrap();
    let out = rulebook()
        .current_dir(&*dir)
        .args(["match", game, "--bots", "random,random", "--games", "2"])
        .args(["--json", "game-002.txt", "--transcripts", "."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("--json game-002.txt and --transcripts ./game-002.txt are one file"),
        "{}",
        stderr(&out)
    );
    let out = rulebook()
        .current_dir(&*dir)
        .args([
            "selfplay",
            game,
            "--param",
            "size=4",
            "--position",
            "@game-001.txt",
        ])
        .args(["--transcript", "game-001.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("--transcript names game-001.txt, which is the --position file"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(game).unwrap(), original);
    // `save` in `play` onto the game file is refused, and the game is still there.
    let out = run_with_stdin(
        rulebook()
            .current_dir(&*dir)
            .args(["play", game, "--seed", "1"]),
        "b1-a1\nsave bounce.toml\nsave kept.txt\n",
    );
    let text = stdout(&out);
    assert!(
        text.contains(
            "save names bounce.toml, which is the game file: writing there would destroy it; \
             give another file; the game is still here"
        ),
        "{text}"
    );
    assert!(text.contains("saved to kept.txt"), "{text}");
    assert_eq!(std::fs::read_to_string(game).unwrap(), original);
}

#[test]
fn an_output_on_a_folder_is_refused() {
    let dir = Scratch::new("output-folder");
    let out = rulebook()
        .args(["selfplay", &bounce(), "--trace"])
        .arg(&*dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(": it is a folder"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_piped_answer_to_save_first_is_never_a_command_taken_for_a_file_name() {
    let dir = Scratch::new("save-first-piped");
    std::fs::write(dir.join("board"), "keep me\n").unwrap();
    let saved = rulebook()
        .current_dir(&*dir)
        .args([
            "selfplay",
            &bounce(),
            "--seed",
            "1",
            "--transcript",
            "a.txt",
        ])
        .output()
        .unwrap();
    assert!(saved.status.success(), "{}", stderr(&saved));
    // `load` offers to save the game first; the script's next line, `board`, is a command
    // and a file that exists: it is confirmed first, and `moves` is no confirmation.
    let out = run_with_stdin(
        rulebook()
            .current_dir(&*dir)
            .args(["play", &bounce(), "--seed", "1"]),
        "b1-a1\nload a.txt\nboard\nmoves\n",
    );
    let text = stdout(&out);
    assert!(
        text.contains(
            "`board` exists: replace it with this game? (y/n)\nnot saved\nthe game goes on"
        ),
        "{text}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("board")).unwrap(),
        "keep me\n"
    );
    // A new name on a pipe is confirmed too; `y` saves to the name offered.
    let out = run_with_stdin(
        rulebook()
            .current_dir(&*dir)
            .args(["play", &bounce(), "--seed", "1"]),
        "b1-a1\nquit\nnew.txt\ny\n",
    );
    assert!(stdout(&out).contains("Save the game to `new.txt`? (y/n)\nsaved to new.txt"));
    let out = run_with_stdin(
        rulebook()
            .current_dir(&*dir)
            .args(["play", &bounce(), "--seed", "1"]),
        "b1-a1\nquit\ny\n",
    );
    let text = stdout(&out);
    assert!(
        text.contains("Type `y` to save it to bounce-1.txt, another file name")
            && text.contains("saved to bounce-1.txt"),
        "{text}"
    );
    assert!(
        std::fs::read_to_string(dir.join("bounce-1.txt"))
            .unwrap()
            .contains("1. red b1-a1")
    );
}

#[test]
fn ctrl_c_twice_while_a_bot_thinks_stops_the_bot_and_loses_nothing() {
    // The second press comes after the bot has stopped: it used to end the program, and
    // the game with it.
    let dir = Scratch::new("ctrl-c-twice");
    let mut play = Session::start(
        &dir,
        &[
            &game("staqs"),
            "--seed",
            "1",
            "--seat",
            "blue=mcts:ms=60000",
            "--seat",
            "white=human",
        ],
    );
    play.wait_for("Pieces:", 1);
    std::thread::sleep(Duration::from_millis(500));
    play.interrupt();
    play.wait_for("its best when Ctrl-C stopped it", 1);
    play.interrupt();
    std::thread::sleep(Duration::from_millis(300));
    play.send("history\nquit\nn\n");
    let (code, text) = play.finish();
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("\n1. blue "), "{text}");
    assert!(text.contains("The game has not been saved."), "{text}");
}

#[test]
fn ctrl_c_at_a_piped_prompt_saves_the_unsaved_game_to_a_new_file() {
    let dir = Scratch::new("ctrl-c-piped");
    std::fs::write(dir.join("bounce-5-unsaved.txt"), "an earlier file\n").unwrap();
    let mut play = Session::start(&dir, &[&bounce(), "--seed", "5", "--seat", "blue=human"]);
    play.send("b1-a1\n");
    play.wait_for("blue to move", 1);
    play.interrupt();
    let (code, text) = play.finish();
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("Ctrl-C: the game was saved to bounce-5-unsaved-2.txt"),
        "{text}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("bounce-5-unsaved.txt")).unwrap(),
        "an earlier file\n"
    );
    let saved = std::fs::read_to_string(dir.join("bounce-5-unsaved-2.txt")).unwrap();
    assert!(saved.contains("1. red b1-a1  # human"), "{saved}");
}

#[test]
fn ctrl_c_at_the_terminal_prompt_offers_to_save_as_quit_does() {
    // With the line editor (xterm) Ctrl-C is a key; on a terminal it cannot drive (dumb)
    // it is a signal: both offer to save, and Ctrl-C at that question goes back to the
    // game, so no press loses it.
    for term in ["xterm", "dumb"] {
        let dir = Scratch::new(&format!("ctrl-c-terminal-{term}"));
        let args = format!("'{}' --seed 1 --seat white=human", game("staqs"));
        let mut play = Session::on_a_terminal(&dir, term, &args);
        play.wait_for("blue> ", 1);
        play.send("c3\r");
        play.wait_for("white> ", 1);
        play.send("\x03");
        play.wait_for("The game has not been saved.", 1);
        play.wait_for("save> ", 1);
        play.send("\x03");
        play.wait_for("white> ", 2);
        play.send("\x03");
        play.wait_for("save> ", 2);
        play.send("y\r");
        play.wait_for("saved to staqs-1.txt", 1);
        let (code, text) = play.finish();
        assert_eq!(code, Some(0), "{term}: {text}");
        let saved = std::fs::read_to_string(dir.join("staqs-1.txt")).unwrap();
        assert!(saved.contains("1. blue c3  # human"), "{term}: {saved}");
    }
}
