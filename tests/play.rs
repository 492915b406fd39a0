//! `rulebook play` as a person uses it (issue 16, "play polish"): what a ply did, why a
//! game ended, why a typed ply is refused, a bot thinking and Ctrl-C, saving before a game
//! is thrown away, honest hints, who played each ply. Each test is named after the
//! behaviour it pins, and failed before it was built.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{Scratch, rulebook, rulebook_in, run_with_stdin, stdout};

/// `rulebook play ARGS` with `script` on its standard input.
fn play(args: &[&str], script: &str) -> Output {
    run_with_stdin(rulebook().arg("play").args(args), script)
}

/// [`play`] run from `dir` (a [`Scratch::with_games`] folder), for a script that saves.
fn play_in(dir: &Scratch, args: &[&str], script: &str) -> Output {
    run_with_stdin(rulebook_in(dir).arg("play").args(args), script)
}

#[test]
fn each_ply_is_reported_with_the_pieces_it_removed_and_the_players_it_put_out() {
    // Three bots play Splut! to the end: rocks thrown crush dwarves and kill sorcerers,
    // whose whole team leaves the board.
    let out = play(
        &[
            "games/splut.toml",
            "--param",
            "players=3",
            "--seed",
            "3",
            "--seat",
            "south=random",
            "--seat",
            "west=random",
            "--seat",
            "north=random",
        ],
        "",
    );
    let text = stdout(&out);
    assert!(
        text.contains("south plays Td7-e7 throw s: removes south's dwarf, south's sorcerer, south's troll; south is out of the game"),
        "{text}"
    );
    assert!(
        text.contains("north plays Te8-e9 throw s: removes north's dwarf\n"),
        "{text}"
    );
    // A ply that removes nothing is reported as before: the ply alone.
    assert!(text.contains("\nsouth plays Sd2-d3\n"), "{text}");
}

#[test]
fn a_phase_change_is_reported() {
    // STAQS: eight placements, then the movement phase.
    let out = play(
        &[
            "games/staqs.toml",
            "--seed",
            "1",
            "--seat",
            "blue=random",
            "--seat",
            "white=random",
        ],
        "",
    );
    let text = stdout(&out);
    assert_eq!(
        text.matches("the movement phase begins").count(),
        1,
        "{text}"
    );
}

#[test]
fn the_end_of_a_game_says_which_rule_ended_it_with_the_scores_where_the_rules_score() {
    let out = play(
        &[
            "games/staqs.toml",
            "--seed",
            "3",
            "--seat",
            "blue=random",
            "--seat",
            "white=greedy",
        ],
        "",
    );
    let text = stdout(&out);
    assert!(
        text.contains(
            "game over: white won\nwhy: the end rule `passes == 2` holds, with me = white \
             (games/staqs.toml:87)\nscores: blue 5 5 3 2; white 9 3 3 3\n"
        ),
        "{text}"
    );
    let out = play(
        &[
            "games/sight.toml",
            "--seed",
            "3",
            "--seat",
            "white=random",
            "--seat",
            "black=greedy",
        ],
        "",
    );
    assert!(
        stdout(&out).contains(
            "game over: black won\nwhy: black is the last player left in the game (white had \
             no legal ply at the start of a turn)\n"
        ),
        "{}",
        stdout(&out)
    );
    // The ply cap is the program's, not the rules'.
    let out = play(
        &[
            "tests/games/never_ends.toml",
            "--seat",
            "a=random",
            "--seat",
            "b=random",
        ],
        "",
    );
    assert!(
        stdout(&out)
            .contains("game over: draw (ply cap)\nwhy: the ply cap of 10000 plies was reached"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn an_illegal_typed_ply_says_which_condition_of_the_game_file_refused_it() {
    let out = play(
        &["games/bounce.toml", "--seed", "1", "--seat", "blue=random"],
        "a1-b2\nb1-b8\nxb1\nb1-h1\nquit\nno\n",
    );
    let text = stdout(&out);
    for expected in [
        "`a1-b2` is not legal: as a `move` ply, `owner(from) == me` does not hold for from = a1: \
         you move one of your own checkers (rule 5) (games/bounce.toml:57); closest legal plies:",
        "`b1-b8` is not legal: as a `move` ply, `empty(to)` does not hold for to = b8: a checker \
         moves to an empty cell (rule 5) (games/bounce.toml:59); closest legal plies:",
        "`xb1` is not legal: a `remove` ply is allowed only when no other ply is, and there are \
         others; closest legal plies:",
        // The check, with the file's reason for it.
        "`b1-h1` is not legal: as a `move` ply, the check `group_size(to) > before` does not \
         hold after the ply: the checker's group must be larger after the move than before it \
         (rule 6) (games/bounce.toml:62)",
    ] {
        assert!(text.contains(expected), "no `{expected}` in:\n{text}");
    }
    let out = play(
        &["games/splut.toml", "--seed", "1"],
        "Sd2-d4\nSd2-d3 lev e1\nSd2-d3 lev d3\nSd2-d0\nSa1-a2\nquit\n",
    );
    let text = stdout(&out);
    for expected in [
        "`Sd2-d4` is not legal: as a `sorcerer` ply, `to = step(from, d)` is not d4 here \
         (games/splut.toml:152)",
        // The rock on e1 would be levitated onto e2, where the dwarf is: of the condition
        // `empty(dest) && (lev_into_vacated || dest != from)`, the term that refuses it.
        "`Sd2-d3 lev e1` is not legal: as a `sorcerer` ply, `empty(dest)` does not hold: the \
         rock moves one square the way the sorcerer stepped, onto an empty square (rule 10) \
         (games/splut.toml:167)",
        // The first term of a long filter whose last term ends in brackets: named whole.
        "`Sd2-d3 lev d3` is not legal: as a `sorcerer` ply, `top(r) == rock` does not hold for \
         r = d3: the sorcerer levitates a rock, not one moved in the previous player's turn, \
         and once one was levitated this turn only that one, on the very next step (rules 10 \
         to 12) (games/splut.toml:165)",
        // Cells off the board: below it, and a corner the diamond leaves out.
        "`Sd2-d0` is not legal: d0 is off the board (files a to i, ranks 1 to 9, not every \
         square of them a cell)",
        "`Sa1-a2` is not legal: a1 is off the board",
    ] {
        assert!(text.contains(expected), "no `{expected}` in:\n{text}");
    }
    let out = play(
        &["games/staqs.toml", "--seed", "1"],
        "c3\nc3\nc3-c4\nquit\nno\n",
    );
    let text = stdout(&out);
    assert!(
        text.contains(
            "`c3` is not legal: as a `place` ply, `height(at) == 1` does not hold for at = c3 \
             (games/staqs.toml:62)"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "`c3-c4` is not legal: a `step` ply is played only in the movement phase, and this \
             is the placement phase"
        ),
        "{text}"
    );
}

#[test]
fn plies_are_accepted_with_the_spacing_help_promises() {
    let out = play(
        &["games/splut.toml", "--seed", "1"],
        "Sd2 - d3\nhistory\nquit\nno\n",
    );
    let text = stdout(&out);
    assert!(text.contains("1. south Sd2-d3\n"), "{text}");
    assert!(!text.contains("is not legal"), "{text}");
    // `moves --after` reads plies the same way.
    let out = rulebook()
        .args(["moves", "games/splut.toml", "--after", "sd2 - d3"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn plies_are_read_as_players_write_them_by_hand_when_that_names_one_ply() {
    // Without the check or mate mark, in the coordinate form, without the capture mark.
    let out = play(
        &[
            "games/chess.toml",
            "--seed",
            "1",
            "--seat",
            "white=human",
            "--seat",
            "black=human",
        ],
        "f2f3\ne7-e5\ng2 g4\nQd8-h4\nhistory\nquit\nn\n",
    );
    let text = stdout(&out);
    assert!(!text.contains("is not legal"), "{text}");
    assert!(
        text.contains("1. white f2-f3\n2. black e7-e5\n3. white g2-g4\n4. black Qd8-h4#"),
        "{text}"
    );
    let out = rulebook()
        .args([
            "moves",
            "games/chess.toml",
            "--after",
            "e2e4;d7d5;E4D5",
            "--board",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout(&out).contains("5   .  .  .  P  .  .  .  ."),
        "{}",
        stdout(&out)
    );
    // Two plies that differ only by a mark are not guessed between.
    let dir = Scratch::new("loose-plies");
    let file = dir.join("marks.toml");
    std::fs::write(
        &file,
        r#"[game]
name = "Marks"
[[players]]
name = "red"
[[players]]
name = "blue"
[board]
files = 2
ranks = 1
[pieces.man]
owned = true
symbol = { red = "r", blue = "b" }
[[setup]]
put = "man"
owner = "red"
at = ["a1"]
[[actions]]
name = "step"
choose = ['from in cells where owner(from) == me', 'to in cells where empty(to)']
effect = 'move(from, to)'
notation = '{from}-{to}'
[[actions]]
name = "slide"
choose = ['from in cells where owner(from) == me', 'to in cells where empty(to)']
effect = 'move(from, to)'
notation = '{from}={to}'
[[end]]
when = 'false'
result = "draw"
"#,
    )
    .unwrap();
    let after = |plies: &str| {
        rulebook()
            .arg("moves")
            .arg(&file)
            .args(["--after", plies])
            .output()
            .unwrap()
    };
    assert!(after("a1=b1").status.success());
    let out = after("a1b1");
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("closest legal plies: a1-b1, a1=b1"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// What the board shows is what one types: Splut!'s board draws south's sorcerer `Ss`
/// (the owner's letter, so that four seats read without colour), its notation writes
/// `S`; either is taken, and a symbol that is not on that cell is not.
#[test]
fn a_piece_may_be_typed_as_the_board_shows_it() {
    let out = play(
        &[
            "games/splut.toml",
            "--seed",
            "1",
            "--seat",
            "south=human",
            "--seat",
            "north=human",
        ],
        "Ssd2-d3\nTnd8-d7\nDne8-e7\nsSd3 d4\nhistory\nquit\nn\n",
    );
    let text = stdout(&out);
    assert!(
        text.contains("8           Tn Dn Sn"),
        "the board shows the owner: {text}"
    );
    assert!(
        text.contains("1. south Sd2-d3\n2. north Td8-d7\n2. north De8-e7\n3. south Sd3-d4"),
        "{text}"
    );
    for wrong in ["Snd2-d3", "Dsd2-d3", "Sse2-e3"] {
        let out = rulebook()
            .args(["moves", "games/splut.toml", "--after", wrong])
            .output()
            .unwrap();
        assert!(!out.status.success(), "{wrong} was taken");
    }
}

#[test]
fn one_legal_ply_is_one_ply_not_one_plies() {
    let out = play(
        &["tests/games/never_ends.toml", "--seed", "1"],
        "pass-x\n2\nquit\n",
    );
    let text = stdout(&out);
    assert!(
        text.contains("`pass-x` is not legal: 1 legal ply starts with `pass`, this is not one"),
        "{text}"
    );
    assert!(
        text.contains("there is no ply number 2; there is 1 legal ply (1)"),
        "{text}"
    );
}

#[test]
fn load_and_new_ask_before_throwing_away_unsaved_plies() {
    let dir = Scratch::with_games("load-asks");
    let saved = "load-asks.txt";
    let out = play_in(
        &dir,
        &["games/staqs.toml", "--seed", "1", "--seat", "white=greedy"],
        &format!("c3\nsave {saved}\na1\nload {saved}\nback\nhistory\nnew\nno\nhistory\nquit\n"),
    );
    let text = stdout(&out);
    assert!(
        text.contains(
            "another file name to save it there, `n` to load the other game without saving \
             this one, or `back` to go on playing.\nthe game goes on\n"
        ),
        "{text}"
    );
    // `back` kept the four plies; `new` asked, and `no` threw them away.
    assert!(text.contains("3. blue a1"), "{text}");
    assert!(
        text.contains("`n` to start a new game without saving this one"),
        "{text}"
    );
    assert!(text.ends_with("no ply has been played\n"), "{text}");
}

#[test]
fn hint_reports_the_share_of_playouts_behind_its_ply_not_a_bare_win_rate() {
    let out = play(
        &["games/bounce.toml", "--seed", "1", "--seat", "blue=random"],
        "hint\nquit\n",
    );
    let text = stdout(&out);
    let hint = text.lines().find(|l| l.starts_with("hint: ")).unwrap();
    assert!(
        hint.contains(" of 1000 playouts went through it, ") && hint.contains(" of those"),
        "{hint}"
    );
    let out = play(
        &["tests/games/never_ends.toml", "--seed", "1"],
        "hint\nquit\n",
    );
    assert!(
        stdout(&out).contains("hint: pass (the only legal ply)"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn hint_names_the_first_step_of_a_win_that_takes_the_rest_of_the_turn() {
    // A seeded random Splut! game up to north's first step of a turn where no step kills
    // at once, but one of its 12 steps begins a line of north's steps that does (found
    // with the search of `bots::mcts_plays_a_win_that_takes_the_rest_of_its_turn`): the
    // dwarf's push.
    let plies = "Sd2-d3 Td8-d7 Td7-e7 Sd3-d4 Sd4-c4 Sc4-c5 De8-d8 Dd8-e8 Te7-f7 Sc5-c6 \
                 Sc6-d6_lev_a5 Sd6-d7 Tf7-g7 Sf8-f7 Sf7-f8 Sd7-d6 Sd6-c6_lev_b5 Sc6-c7 Tg7-g6 \
                 Tg6-h6 Th6-h5 Sc7-d7 Sd7-d8 Tf2-f3 Th5-g5 Tg5-h5 Sf8-f7 De2-e3 De3-d3 Sd8-d7 \
                 Sf7-g7_lev_a5 Th5-h6 Th6-h5 Dd3-d2 Dd2-d3 Sd7-e7";
    let script: String = plies
        .split_whitespace()
        .map(|p| p.replace('_', " ") + "\n")
        .chain(["hint\nquit\n".to_string()])
        .collect();
    let out = play(
        &["games/splut.toml", "--seed", "1", "--seat", "north=human"],
        &script,
    );
    let text = stdout(&out);
    assert!(
        text.contains(
            "hint: De8-e7 (your next plies can win the game from it before this turn ends)"
        ),
        "{text}"
    );
}

#[test]
fn a_transcript_records_who_played_each_ply_not_the_seats_at_save_time() {
    let dir = Scratch::with_games("who-played");
    let saved = "who-played.txt";
    // blue plays one ply by hand and one through `bot` (greedy answers both), then the
    // seats turn: white to a person, blue to the random bot.
    let out = play_in(
        &dir,
        &["games/staqs.toml", "--seed", "2", "--seat", "white=greedy"],
        &format!("c3\nbot\nseat white human\nseat blue random\n1\nsave {saved}\nquit\n"),
    );
    assert!(out.status.success());
    let transcript = std::fs::read_to_string(dir.join(saved)).unwrap();
    let plies: Vec<&str> = transcript
        .lines()
        .filter(|l| l.starts_with(char::is_numeric))
        .collect();
    assert_eq!(
        plies
            .iter()
            .map(|l| l.rsplit("  # ").next().unwrap())
            .collect::<Vec<_>>(),
        [
            "human", "greedy", "greedy", "greedy", "random", "human", "random"
        ],
        "{transcript}"
    );
    assert!(
        transcript.contains("seat blue: random\nseat white: human\n"),
        "{transcript}"
    );
    let out = rulebook_in(&dir).args(["replay", saved]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn ctrl_c_while_a_bot_thinks_stops_the_bot_and_never_the_program() {
    use std::io::{BufRead, BufReader};
    // blue thinks for a minute; Ctrl-C a second into it makes it play its best so far,
    // and the session goes on with the lines waiting on its input.
    let mut child = rulebook()
        .args(["play", "games/staqs.toml", "--seed", "1"])
        .args(["--seat", "blue=mcts:ms=60000", "--seat", "white=human"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"history\nquit\nno\n")
        .unwrap();
    // The banner is printed once Ctrl-C is handled; the bot starts thinking right after.
    let (banner, seen) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        for line in BufReader::new(stdout).lines() {
            let line = line.unwrap();
            if line == "Pieces:" {
                let _ = banner.send(());
            }
            text.push_str(&line);
            text.push('\n');
        }
        text
    });
    let clock = Instant::now();
    seen.recv_timeout(Duration::from_secs(30)).unwrap();
    std::thread::sleep(Duration::from_secs(1));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    let text = reader.join().unwrap();
    assert!(
        clock.elapsed() < Duration::from_secs(30),
        "{:?}",
        clock.elapsed()
    );
    assert_eq!(status.code(), Some(0), "{text}");
    assert!(
        text.contains(", its best when Ctrl-C stopped it after "),
        "{text}"
    );
    assert!(text.contains("\n1. blue "), "{text}");
}

/// Runs `rulebook play ARGS` on a terminal ([`crate::common::on_a_terminal`]) with
/// `TERM` set, for `time`, then hangs the
/// terminal up; what it printed. No key is typed: the line editor may drop keys typed
/// ahead.
fn on_a_terminal(term: &str, args: &str, time: Duration) -> String {
    let mut child = crate::common::on_a_terminal(Path::new(env!("CARGO_MANIFEST_DIR")), term, args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("`script` (util-linux) runs the program on a terminal: install it");
    std::thread::sleep(time);
    // Ends `script`; the program, its terminal gone, gets a hang-up and ends too.
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_thinking_bot_shows_its_elapsed_time_and_budget_on_a_terminal() {
    let text = on_a_terminal(
        "xterm",
        "games/staqs.toml --seed 1 --seat blue=mcts:ms=1500 --seat white=human",
        Duration::from_secs(4),
    );
    // The line is redrawn about every tenth of a second; which tenths show depends on
    // the machine's load, so only the latest is checked.
    let shown: Vec<f64> = text
        .split("\rblue (mcts:ms=1500) is thinking: ")
        .skip(1)
        .filter_map(|rest| rest.split_once(" s of 1.5 s (Ctrl-C stops it)"))
        .filter_map(|(elapsed, _)| elapsed.parse().ok())
        .collect();
    assert!(
        shown.last().is_some_and(|&s| s >= 1.0),
        "{shown:?} in {text:?}"
    );
    assert!(text.contains("blue plays "), "{text:?}");
}

#[test]
fn term_dumb_gets_no_colour() {
    use rulebook::render::board::colour_wanted;
    assert!(colour_wanted(true, Some("xterm".as_ref()), None));
    assert!(!colour_wanted(true, Some("dumb".as_ref()), None));
    assert!(!colour_wanted(
        true,
        Some("xterm".as_ref()),
        Some("1".as_ref())
    ));
    assert!(!colour_wanted(false, Some("xterm".as_ref()), None));
    // Bounce starts with the board full of both players' checkers.
    let args = "games/bounce.toml --param size=4 --seed 1";
    let coloured = on_a_terminal("xterm", args, Duration::from_millis(2500));
    assert!(coloured.contains("\u{1b}[1;31m"), "{coloured:?}");
    let plain = on_a_terminal("dumb", args, Duration::from_millis(2500));
    assert!(!plain.contains('\u{1b}'), "{plain:?}");
    assert!(plain.contains("red to move"), "{plain:?}");
}

#[test]
fn every_change_of_state_is_said_in_a_line() {
    // A ply by its number, undo, redo, a seat changed, a new game: each says what it did,
    // so a person reading the transcript of a session knows the position without the board.
    let out = play(
        &["games/staqs.toml", "--seed", "2", "--seat", "white=random"],
        "3\nundo\nredo\nseat white greedy\nnew\nn\nquit\n",
    );
    let text = stdout(&out);
    for said in [
        "blue plays a3 (number 3 of `moves`)\n",
        "took back 2 plies: 1. blue a3 (human), 2. white ",
        "played again 2 plies: 1. blue a3 (human), 2. white ",
        "white is now played by greedy\n",
        "a new game, with the same seats: blue human, white greedy (`seat NAME \
         human|BOTSPEC` changes one)\n",
    ] {
        assert!(text.contains(said), "no {said:?} in\n{text}");
    }
}

#[test]
fn resign_asks_first_and_an_answer_that_is_not_yes_keeps_the_game() {
    // `y` resigns; anything else, or the end of the input before an answer, does not.
    let args = ["games/staqs.toml", "--seed", "2", "--seat", "white=random"];
    let text = stdout(&play(&args, "c3\nresign\nhistory\nresign\nyes\nquit\nn\n"));
    let question = "Resign as blue? The game ends and the others win. (y/n)\n";
    assert!(
        text.contains(&format!("{question}not resigned: the game goes on\n")),
        "{text}"
    );
    assert!(
        text.contains(&format!("{question}blue resigns\n")),
        "{text}"
    );
    assert!(
        text.contains("game over: white won (blue resigned)"),
        "{text}"
    );
    let text = stdout(&play(&args, "c3\nresign\n"));
    assert!(
        text.ends_with("end of input: game left unfinished, not saved\n"),
        "{text}"
    );
    assert!(!text.contains("resigned"), "{text}");
}

#[test]
fn a_game_named_by_its_bare_name_is_found_in_games_and_saved_as_that_file() {
    let dir = Scratch::with_games("bare-name");
    let out = play_in(&dir, &["staqs", "--seed", "2"], "c3\nsave bare.txt\nquit\n");
    assert!(
        stdout(&out).contains("saved to bare.txt"),
        "{}",
        stdout(&out)
    );
    let saved = std::fs::read_to_string(dir.join("bare.txt")).unwrap();
    assert!(saved.contains("file: games/staqs.toml\n"), "{saved}");
    // The transcript names the file found, so it replays as it is.
    let out = rulebook_in(&dir)
        .args(["replay", "bare.txt"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_capture_that_takes_fewer_than_another_is_refused_by_the_majority_rule() {
    // International draughts: the man on 32 could take one piece, the man on 34 takes two.
    let out = play(
        &[
            "games/international_draughts.toml",
            "--position",
            ". . . . b / . . . . . / . . . . . / . . b . . / . . . . . / . b . b . / . w . w . / . . . . . / . . . . . / . . . . . / to_move = white",
        ],
        "32x21\nquit\nn\n",
    );
    let text = stdout(&out);
    assert!(
        text.contains(
            "`32x21` is not legal: `[turns] most` keeps the plies that make `-count(c in cells where owner(c) == next(me))` greatest: -2, as `34x23x12` does; this one makes -3"
        ),
        "{text}"
    );
}
