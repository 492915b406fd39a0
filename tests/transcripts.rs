//! Snapshot tests written without Rust: every transcript (`*.txt`) and scripted `play`
//! session (`*.play`) in `tests/transcripts/` is run and its output kept as an insta
//! snapshot (`tests/snapshots/main__transcripts__*`). The README says how to add one and
//! how to review and accept its snapshot.
//!
//! - A transcript is replayed with `rulebook replay FILE --board`: every position is drawn,
//!   and a ply that does not fit is an error naming its line. Its `file:` line is looked
//!   for beside the transcript first, then from the repository root.
//! - A scripted session's first line is `# rulebook play ARGS...` (arguments split at
//!   spaces, run from the repository root); every other line is typed into the session.

use std::path::Path;
use std::process::Output;

/// The path of a file of this folder as the repository root sees it (`tests/transcripts/x`).
fn relative(path: &Path) -> String {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .expect("inside the repository")
        .to_string_lossy()
        .trim_start_matches('/')
        .to_string()
}

/// Runs `args` from the repository root with `input` on standard input.
fn run(args: &[String], input: &str) -> Output {
    crate::common::run_with_stdin(crate::common::rulebook().args(args), input)
}

/// What a snapshot keeps of a run: the command, its exit code and both outputs.
fn shown(args: &[String], out: &Output) -> String {
    let mut s = format!(
        "$ rulebook {}\nexit code: {}\n",
        args.join(" "),
        out.status
            .code()
            .map_or("none".to_string(), |c| c.to_string())
    );
    s.push_str("----- stdout -----\n");
    s.push_str(&String::from_utf8_lossy(&out.stdout));
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !stderr.is_empty() {
        s.push_str("----- stderr -----\n");
        s.push_str(&stderr);
    }
    s
}

#[test]
fn every_transcript_in_tests_transcripts_replays_as_its_snapshot() {
    crate::common::snapshot_each("transcripts", "txt", |path| {
        let args = vec!["replay".to_string(), relative(path), "--board".to_string()];
        let out = run(&args, "");
        insta::assert_snapshot!(shown(&args, &out));
    });
}

#[test]
fn every_scripted_session_in_tests_transcripts_plays_as_its_snapshot() {
    crate::common::snapshot_each("transcripts", "play", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let (first, typed) = text.split_once('\n').unwrap_or((&text, ""));
        let args: Vec<String> = first
            .strip_prefix("# rulebook ")
            .unwrap_or_else(|| {
                panic!(
                    "{}: the first line must be `# rulebook play ARGS...`",
                    relative(path)
                )
            })
            .split_whitespace()
            .map(str::to_string)
            .collect();
        assert_eq!(
            args.first().map(String::as_str),
            Some("play"),
            "{}",
            relative(path)
        );
        let out = run(&args, typed);
        insta::assert_snapshot!(shown(&args, &out));
    });
}
