//! Helpers shared by the suites: loading the real game files.

pub mod browser;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use proptest::test_runner::{FailurePersistence, FileFailurePersistence, PersistedSeed};
use rulebook::compile;
use rulebook::engine::game::Game;
use rulebook::engine::state::{NEUTRAL, Piece, State};
use rulebook::spec;

/// A game file's `NAME=VALUE` parameters.
pub type Params<'a> = &'a [(&'a str, &'a str)];

/// The path of a game file of this repository.
pub fn game_path(name: &str) -> String {
    format!("{}/games/{name}.toml", env!("CARGO_MANIFEST_DIR"))
}

/// The names of the game files the repository ships (`games/NAME.toml`), sorted: the
/// suites that cover every game read them here, so a new file is covered at once.
pub fn shipped_games() -> &'static [String] {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let dir = format!("{}/games", env!("CARGO_MANIFEST_DIR"));
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("the games folder")
            .filter_map(|e| {
                let path = e.expect("a folder entry").path();
                let name = path.file_name()?.to_str()?;
                name.strip_suffix(".toml").map(str::to_string)
            })
            .collect();
        names.sort();
        names
    })
}

/// Loads and compiles `games/<name>.toml` with `NAME=VALUE` parameters.
pub fn game(name: &str, params: &[(&str, &str)]) -> Game {
    let source = spec::load(&game_path(name)).unwrap_or_else(|d| panic!("{d}"));
    compiled(&source, params)
}

/// Loads and compiles `tests/games/<name>.toml`, a game the tests keep (not one of the
/// library's), without parameters.
pub fn test_game(name: &str) -> Game {
    let path = format!("{}/tests/games/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let source = spec::load(&path).unwrap_or_else(|d| panic!("{d}"));
    compiled(&source, &[])
}

/// Compiles a game file's text (a shipped file edited by a test), named `path` in
/// diagnostics, with `NAME=VALUE` parameters.
pub fn game_from_text(path: &str, text: String, params: &[(&str, &str)]) -> Game {
    let source = spec::parse(path, text).unwrap_or_else(|d| panic!("{d}"));
    compiled(&source, params)
}

/// Compiles a hand-made game's text (named `test.toml` in diagnostics), without
/// parameters; panics with the rendered diagnostic if it is refused.
pub fn game_of(text: &str) -> Game {
    game_from_text("test.toml", text.to_string(), &[])
}

/// The rendered diagnostic of a hand-made game's text (named `test.toml`) that the loader
/// must refuse.
pub fn refused(text: &str) -> String {
    match spec::parse("test.toml", text.to_string()).and_then(|s| compile::compile(&s, &[])) {
        Ok(_) => panic!("the game should be refused"),
        Err(d) => d.to_string(),
    }
}

fn compiled(source: &spec::Source, params: &[(&str, &str)]) -> Game {
    let params: Vec<(String, String)> = params
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    compile::compile(source, &params).unwrap_or_else(|d| panic!("{d}"))
}

/// Replaces the stack on `cell` with `pieces`, bottom first: `(kind, owner)` with `""` for
/// a neutral piece. For building positions by hand.
pub fn set_stack(g: &Game, state: &mut State, cell: &str, pieces: &[(&str, &str)]) {
    let c = g
        .board
        .find(cell)
        .unwrap_or_else(|| panic!("no cell {cell}")) as usize;
    state.edit_stack(c as u16, |st| st.clear());
    for &(kind, owner) in pieces {
        let kind = g
            .kinds
            .iter()
            .position(|k| k.name == kind)
            .unwrap_or_else(|| panic!("no kind {kind}")) as u8;
        let owner = if owner.is_empty() {
            NEUTRAL
        } else {
            g.players
                .iter()
                .position(|p| p == owner)
                .unwrap_or_else(|| panic!("no player {owner}")) as u8
        };
        state.edit_stack(c as u16, |st| st.push(Piece::new(kind, owner, 0)));
    }
}

/// The plies of a seed's self-play game of `game` (the file `games/<name>.toml`, as its
/// trace names it), in order.
pub fn trace_moves(game: &Game, name: &str, seed: u64) -> Vec<String> {
    let record =
        rulebook::cli::selfplay(game, &game_path(name), seed).unwrap_or_else(|e| panic!("{}", e.0));
    record.trace[1..]
        .iter()
        .filter_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("trace line is JSON");
            v["move"].as_str().map(str::to_string)
        })
        .collect()
}

/// Empties every cell: the start of a position built by hand.
pub fn clear_board(state: &mut State) {
    for c in 0..state.stacks().len() as u16 {
        state.edit_stack(c, |st| st.clear());
    }
}

/// The index of the seat called `name`.
pub fn seat(g: &Game, name: &str) -> u8 {
    g.players.iter().position(|p| p == name).expect("a seat") as u8
}

/// The height of the stack on `cell`.
pub fn height(g: &Game, state: &State, cell: &str) -> usize {
    state.stacks()[g.board.find(cell).expect("a cell") as usize].len()
}

/// The sorted texts of the legal plies.
pub fn legal(g: &Game, state: &State) -> Vec<String> {
    g.legal_with_notation(state)
        .into_iter()
        .map(|(t, _)| t)
        .collect()
}

/// Plays `;`-separated plies; panics on an illegal one.
pub fn play(g: &Game, state: &mut State, plies: &str) {
    for text in plies.split(';').map(str::trim).filter(|t| !t.is_empty()) {
        let ply = g
            .parse_ply(state, text)
            .unwrap_or_else(|e| panic!("{text} is not legal; closest {:?}", e.closest));
        g.play(state, &ply);
    }
}

/// A property test's number of cases: `PROPTEST_CASES` when set (for long runs), else the
/// short default that runs with the suite. A `cases` written in a test's config would
/// override the variable, so the tests that set one read it through here.
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The configuration of every property test: [`cases`] cases, and failures remembered in
/// `proptest-regressions/` on a developer's machine but only read, never written, when the
/// `CI` variable is set, so that a failing run in CI leaves the checkout as it was.
pub fn config(default: u32) -> proptest::test_runner::Config {
    let persistence: Box<dyn FailurePersistence> = if std::env::var_os("CI").is_some() {
        Box::new(ReadOnly(FileFailurePersistence::default()))
    } else {
        Box::new(FileFailurePersistence::default())
    };
    proptest::test_runner::Config {
        cases: cases(default),
        failure_persistence: Some(persistence),
        ..Default::default()
    }
}

/// Regression seeds read from the checked-in files and never written back.
#[derive(Debug, PartialEq)]
struct ReadOnly(FileFailurePersistence);

impl FailurePersistence for ReadOnly {
    fn load_persisted_failures2(&self, source_file: Option<&'static str>) -> Vec<PersistedSeed> {
        self.0.load_persisted_failures2(source_file)
    }

    fn save_persisted_failure2(
        &mut self,
        _source_file: Option<&'static str>,
        _seed: PersistedSeed,
        _shrunken_value: &dyn std::fmt::Debug,
    ) {
    }

    fn box_clone(&self) -> Box<dyn FailurePersistence> {
        Box::new(ReadOnly(self.0))
    }

    fn eq(&self, other: &dyn FailurePersistence) -> bool {
        other.as_any().downcast_ref::<Self>() == Some(self)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A folder of its own for one test in the system's temporary folder: emptied when made
/// and removed when dropped, so that test runs leave nothing behind. Every file a test
/// writes goes into one (never into the repository, whose build folder may be anywhere:
/// `CARGO_TARGET_DIR`). Named after the test, the process and a count of the folders it
/// made, so that no two tests share one, even two running at once under one name.
pub struct Scratch(std::path::PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        static MADE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("rulebook-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        Scratch(dir)
    }

    /// A scratch folder holding a copy of the repository's `games/`, for the program run
    /// from it ([`rulebook_in`]): a command names its game `games/NAME.toml` as from the
    /// repository root, so what it prints and records (and the snapshots of that) names
    /// no random folder, and a file it saves by a bare name lands in the scratch folder.
    pub fn with_games(name: &str) -> Scratch {
        let scratch = Scratch::new(name);
        let games = scratch.join("games");
        std::fs::create_dir(&games).expect("a games folder");
        for name in shipped_games() {
            let file = format!("{name}.toml");
            std::fs::copy(game_path(name), games.join(&file)).expect("a game file copied");
        }
        scratch
    }
}

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What a finished run printed on its standard output, as text.
pub fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What a finished run printed on its standard error, as text.
pub fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The program, run from the repository root.
pub fn rulebook() -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_rulebook"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

/// The program, run from `dir` (a [`Scratch::with_games`] folder, where the files it
/// saves by a bare name go).
pub fn rulebook_in(dir: &std::path::Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_rulebook"));
    cmd.current_dir(dir);
    cmd
}

/// `rulebook play ARGS` on a terminal ([`terminal`]).
pub fn on_a_terminal(dir: &std::path::Path, term: &str, args: &str) -> std::process::Command {
    terminal(dir, term, &format!("play {args}"))
}

/// `rulebook ARGS` on a terminal: a pseudo-terminal made by `script` (util-linux,
/// which `.ci/run` installs where it is missing), with `TERM` set, run from `dir`.
///
/// `script` starts the command through a shell; the shell `exec`s the program, so that no
/// shell waits between them. One that waits (dash, `/bin/sh` on Debian, where `SHELL` is
/// unset) gets every Ctrl-C typed on the terminal too, and when the program has handled
/// them and left with 0, kills itself with SIGINT: `script` then says 130.
pub fn terminal(dir: &std::path::Path, term: &str, args: &str) -> std::process::Command {
    let command = format!(
        "exec env TERM={term} '{}' {args}",
        env!("CARGO_BIN_EXE_rulebook")
    );
    let mut cmd = std::process::Command::new("script");
    cmd.args(["-qec", &command, "/dev/null"])
        .env("SHELL", "/bin/sh")
        .current_dir(dir);
    cmd
}

/// Runs `check` on every file of `tests/FOLDER` whose name ends in `.EXT`, in sorted order,
/// each with an insta snapshot of its own, named after the test and the file
/// (`main__MODULE__TEST@FILE.snap`, the names `insta::glob!` gives).
///
/// Not `insta::glob!`: it counts failures on one stack for the whole process, so a
/// snapshot that fails while another test's glob runs is counted there, and reported
/// under that test, its diff in the output of a test that passed. Here every assertion
/// panics in its own test; the panic is caught so that every file is checked, and the
/// test fails at the end naming each file whose snapshot failed.
pub fn snapshot_each(folder: &str, ext: &str, check: impl Fn(&std::path::Path)) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(folder);
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no *.{ext} file in tests/{folder}");
    let failed: Vec<String> = files
        .iter()
        .filter_map(|path| {
            let name = path.file_name()?.to_string_lossy().into_owned();
            let mut settings = insta::Settings::clone_current();
            settings.set_input_file(path);
            settings.set_snapshot_suffix(&name);
            let run = std::panic::AssertUnwindSafe(|| settings.bind(|| check(path)));
            std::panic::catch_unwind(run).is_err().then_some(name)
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} files in tests/{folder} failed: {}",
        failed.len(),
        files.len(),
        failed.join(", ")
    );
}

/// A `play` session on a pipe that stays open: lines are sent one at a time, and what it
/// printed is collected as it comes, to wait for.
pub struct Session {
    child: std::process::Child,
    input: Option<std::process::ChildStdin>,
    seen: Arc<Mutex<String>>,
}

impl Session {
    pub fn start(dir: &Path, args: &[&str]) -> Session {
        Self::spawn(rulebook().current_dir(dir).arg("play").args(args))
    }

    /// `rulebook play ARGS` on a terminal ([`on_a_terminal`]).
    pub fn on_a_terminal(dir: &Path, term: &str, args: &str) -> Session {
        Self::spawn(&mut on_a_terminal(dir, term, args))
    }

    pub fn spawn(command: &mut Command) -> Session {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let seen = Arc::new(Mutex::new(String::new()));
        let mut stdout = child.stdout.take().unwrap();
        let into = Arc::clone(&seen);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 {
                    break;
                }
                into.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        let input = child.stdin.take();
        Session { child, input, seen }
    }

    pub fn send(&mut self, keys: &str) {
        let input = self.input.as_mut().unwrap();
        input.write_all(keys.as_bytes()).unwrap();
        input.flush().unwrap();
    }

    /// Waits until the output holds `text` `times` times (at most a minute).
    pub fn wait_for(&self, text: &str, times: usize) {
        let clock = Instant::now();
        while self.seen.lock().unwrap().matches(text).count() < times {
            assert!(
                clock.elapsed() < Duration::from_secs(60),
                "no {text:?} in {:?}",
                self.seen.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn interrupt(&self) {
        let pid = self.child.id().to_string();
        let killed = Command::new("kill").args(["-INT", &pid]).status().unwrap();
        assert!(killed.success());
    }

    /// Closes the input and waits for the end; the exit code and everything printed.
    pub fn finish(mut self) -> (Option<i32>, String) {
        drop(self.input.take());
        let clock = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if clock.elapsed() > Duration::from_secs(60) {
                let _ = self.child.kill();
                panic!("still running: {:?}", self.seen.lock().unwrap());
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        std::thread::sleep(Duration::from_millis(100));
        let text = self.seen.lock().unwrap().clone();
        (status.code(), text)
    }
}

/// Runs a command with `input` on its standard input and collects its output.
pub fn run_with_stdin(
    cmd: &mut std::process::Command,
    input: impl AsRef<[u8]>,
) -> std::process::Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.as_ref().to_vec();
    // Written from another thread: a long input must not block against a full stdout.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}
