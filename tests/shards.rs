//! `match --shard K/N` and `merge`: the shards of a match add up to exactly the whole
//! match (its table, its JSON and its transcripts; thinking time, which no two runs share,
//! aside), whatever the split and the threads; shards that are not one match, or not each
//! there once, are refused with a message; and the Slurm and Kubernetes examples in
//! `docs/examples/` play and merge a match as the whole match plays it.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::common::{Scratch, rulebook, stderr, stdout};

const GAME: &str = "games/tictactoe.toml";
const BOTS: &str = "random,greedy";

/// `rulebook ARGS`, which must fail with `code`; its message.
fn refused(args: &[&str], code: i32) -> String {
    let out = rulebook().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stdout(&out));
    stderr(&out)
}

/// A match's table without its last line, the thinking time per ply (which varies from
/// run to run), checked to be that line.
fn untimed_table(table: &str) -> String {
    let (results, timing) = table.trim_end().rsplit_once('\n').unwrap();
    assert!(timing.starts_with("thinking time per ply: "), "{table}");
    format!("{results}\n")
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A match's JSON without `timing`, the one field that varies from run to run.
fn untimed_json(path: &Path) -> Value {
    let mut json = read_json(path);
    let timing = json.as_object_mut().unwrap().remove("timing");
    assert!(timing.is_some_and(|t| t.is_array()), "{}", path.display());
    json
}

/// Every file of a folder by name, with its text.
fn folder(dir: &Path) -> BTreeMap<String, String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect()
}

/// The JSON's `timing` entries' thinking time in nanoseconds, bot by bot.
fn think_ns(json: &Value) -> Vec<u64> {
    json["timing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["think_ns"].as_u64().unwrap())
        .collect()
}

/// Checks that what `merge` printed and wrote (`merged`, a JSON file), and the transcript
/// folder the shards shared, are the whole match's of [`whole_match`] in `dir`.
fn same_as_whole(dir: &Path, merge_table: &str, merged: &Path, transcripts: &Path) {
    let whole_table = std::fs::read_to_string(dir.join("whole-table.txt")).unwrap();
    assert_eq!(untimed_table(merge_table), untimed_table(&whole_table));
    assert_eq!(untimed_json(merged), untimed_json(&dir.join("whole.json")));
    assert_eq!(folder(transcripts), folder(&dir.join("whole")));
}

/// Plays a whole match (no `--shard`) into `dir`: its table in `whole-table.txt`, its
/// JSON in `whole.json`, its transcripts in `whole/`.
fn play_whole(dir: &Path, bots: &str, games: &str, seed: &str) {
    let out = rulebook()
        .args([
            "match", GAME, "--bots", bots, "--games", games, "--seed", seed,
        ])
        .arg("--json")
        .arg(dir.join("whole.json"))
        .arg("--transcripts")
        .arg(dir.join("whole"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::write(dir.join("whole-table.txt"), stdout(&out)).unwrap();
}

#[test]
fn four_shards_of_a_match_merge_into_exactly_the_whole_match() {
    let dir = Scratch::new("shards-four");
    play_whole(&dir, BOTS, "200", "5");
    let transcripts = dir.join("shards");
    let mut shard_jsons = Vec::new();
    // Each shard on its own number of threads: the totals do not depend on them.
    for (k, first, last) in [(1, 1, 50), (2, 51, 100), (3, 101, 150), (4, 151, 200)] {
        let json = dir.join(format!("shard-{k}.json"));
        let out = rulebook()
            .args([
                "match", GAME, "--bots", BOTS, "--games", "200", "--seed", "5",
            ])
            .args(["--shard", &format!("{k}/4"), "--jobs", &k.to_string()])
            .arg("--json")
            .arg(&json)
            .arg("--transcripts")
            .arg(&transcripts)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            stdout(&out).starts_with(&format!(
                "Tic-tac-toe: shard {k}/4 of a match of 200 games (games {first} to {last}), \
                 seed 5\n"
            )),
            "{}",
            stdout(&out)
        );
        let written = read_json(&json);
        assert_eq!(written["shard"], serde_json::json!({"index": k, "of": 4}));
        assert_eq!(written["games"], 200);
        let played: u64 = written["bots"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["games"].as_u64().unwrap())
            .max()
            .unwrap();
        assert_eq!(played, 50, "both bots play every game of the shard");
        shard_jsons.push(json);
    }
    // In any order.
    let merged = dir.join("merged.json");
    let out = rulebook()
        .arg("merge")
        .args([
            &shard_jsons[3],
            &shard_jsons[1],
            &shard_jsons[0],
            &shard_jsons[2],
        ])
        .arg("--json")
        .arg(&merged)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    same_as_whole(&dir, &stdout(&out), &merged, &transcripts);
    let merged_json = read_json(&merged);
    assert!(merged_json.get("shard").is_none(), "a whole match's JSON");
    // Thinking time is summed: the merged nanoseconds are the shards'.
    let mut summed = vec![0; 2];
    for json in &shard_jsons {
        for (sum, ns) in summed.iter_mut().zip(think_ns(&read_json(json))) {
            *sum += ns;
        }
    }
    assert_eq!(think_ns(&merged_json), summed);
    let whole = read_json(&dir.join("whole.json"));
    assert_eq!(whole["timing"][1]["bot"], merged_json["timing"][1]["bot"]);
}

#[test]
fn an_uneven_split_of_three_bots_and_a_whole_match_merged_alone_give_the_whole_match() {
    let dir = Scratch::new("shards-uneven");
    let bots = "random,greedy,random";
    play_whole(&dir, bots, "7", "11");
    let transcripts = dir.join("shards");
    let mut jsons = Vec::new();
    for (k, first, last) in [(1, 1, 2), (2, 3, 4), (3, 5, 7)] {
        let json = dir.join(format!("s{k}.json"));
        let out = rulebook()
            .args([
                "match", GAME, "--bots", bots, "--games", "7", "--seed", "11",
            ])
            .args(["--shard", &format!("{k}/3")])
            .arg("--json")
            .arg(&json)
            .arg("--transcripts")
            .arg(&transcripts)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stdout(&out).contains(&format!("(games {first} to {last})")));
        jsons.push(json);
    }
    let merged = dir.join("merged.json");
    let out = rulebook()
        .arg("merge")
        .args(&jsons)
        .arg("--json")
        .arg(&merged)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("random #2"), "{}", stdout(&out));
    same_as_whole(&dir, &stdout(&out), &merged, &transcripts);

    // A whole match merges alone into itself, timing and all.
    let again = dir.join("again.json");
    let out = rulebook()
        .arg("merge")
        .arg(dir.join("whole.json"))
        .arg("--json")
        .arg(&again)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let whole_table = std::fs::read_to_string(dir.join("whole-table.txt")).unwrap();
    assert_eq!(stdout(&out), whole_table);
    assert_eq!(
        std::fs::read_to_string(&again).unwrap(),
        std::fs::read_to_string(dir.join("whole.json")).unwrap()
    );

    // `--shard 1/1` is the whole match.
    let one = dir.join("one.json");
    let out = rulebook()
        .args([
            "match", GAME, "--bots", bots, "--games", "7", "--seed", "11",
        ])
        .args(["--shard", "1/1", "--json"])
        .arg(&one)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(untimed_table(&stdout(&out)), untimed_table(&whole_table));
    assert_eq!(untimed_json(&one), untimed_json(&dir.join("whole.json")));
}

#[test]
fn bad_shards_are_refused_with_what_was_expected() {
    let expected = "(K/N, shard K of N with 1 <= K <= N, e.g. 2/4)";
    for (shard, why) in [
        (
            "0/4",
            "0/4: shards are numbered from 1, so K must be at least 1",
        ),
        ("5/4", "5/4: there is no shard 5 of 4, K must be at most N"),
        (
            "4/0",
            "4/0 splits the match into no shards: N must be at least 1",
        ),
        ("a/b", "`a/b`: K must be a whole number, got `a`"),
        ("1/b", "`1/b`: N must be a whole number, got `b`"),
        ("1/2/3", "`1/2/3`: N must be a whole number, got `2/3`"),
        ("+1/4", "`+1/4`: K must be a whole number, got `+1`"),
        ("/4", "`/4`: K must be a whole number, got ``"),
        (
            "99999999999999999999999/4",
            "`99999999999999999999999/4`: K is too large",
        ),
    ] {
        let message = refused(&["match", GAME, "--bots", BOTS, "--shard", shard], 2);
        assert!(
            message.contains(&format!(
                "error: invalid value '{shard}' for '--shard <K/N>': {why}"
            )) && message.contains(expected),
            "{shard}: {message}"
        );
    }
    let message = refused(&["match", GAME, "--bots", BOTS, "--shard", "2"], 2);
    assert!(message.contains("`2` is not K/N, shard K of N with 1 <= K <= N, e.g. 2/4"));
    // More shards than games would leave a shard with nothing to play.
    let args = [
        "match", GAME, "--bots", BOTS, "--games", "3", "--shard", "1/4",
    ];
    assert_eq!(
        refused(&args, 1),
        "--shard 1/4: 4 shards of a match of 3 games would leave some with no game; N must \
         be at most the number of games\n"
    );
}

/// Plays shard `shard` of a 20-game match with `args` added into `dir/NAME.json`.
fn shard_json(dir: &Path, name: &str, shard: &str, args: &[&str]) -> String {
    let json = dir.join(format!("{name}.json"));
    let out = rulebook()
        .args(["match", GAME, "--games", "20", "--shard", shard])
        .args(args)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    json.to_string_lossy().into_owned()
}

#[test]
fn merge_refuses_shards_missing_twice_or_of_another_match() {
    let dir = Scratch::new("shards-refused");
    let same = ["--bots", BOTS, "--seed", "1"];
    let [a, b, c, d] = ["1/4", "2/4", "3/4", "4/4"].map(|s| {
        let name = format!("s{}", &s[..1]);
        shard_json(&dir, &name, s, &same)
    });
    let merge = |files: &[&str]| {
        let mut args = vec!["merge"];
        args.extend(files);
        refused(&args, 1)
    };
    assert_eq!(
        merge(&[&a, &c]),
        "missing shard 2/4 (games 6 to 10), shard 4/4 (games 16 to 20): merge needs every \
         shard of the match once, to print the whole match's table\n"
    );
    assert_eq!(
        merge(&[&a, &b, &c, &b, &d]),
        format!("{b} and {b} are both shard 2/4: merge takes each shard once\n")
    );
    let agree = "shards of one match agree on the game, file, parameters, position, bots, \
                 number of games, seed and number of shards\n";
    let seed = shard_json(&dir, "seed", "3/4", &["--bots", BOTS, "--seed", "2"]);
    assert_eq!(
        merge(&[&a, &b, &seed, &d]),
        format!(
            "{seed} and {a} are not shards of one match (seed: 2 in {seed}, 1 in {a}); {agree}"
        )
    );
    let bots = shard_json(
        &dir,
        "bots",
        "3/4",
        &["--bots", "greedy,random", "--seed", "1"],
    );
    assert_eq!(
        merge(&[&a, &b, &bots, &d]),
        format!(
            "{bots} and {a} are not shards of one match (bots: `greedy,random` in {bots}, \
             `random,greedy` in {a}); {agree}"
        )
    );
    let thirds = shard_json(&dir, "thirds", "3/3", &same);
    assert!(
        merge(&[&a, &b, &thirds]).contains(&format!("(number of shards: 3 in {thirds}, 4 in {a})"))
    );
    let not_json = dir.join("table.txt");
    std::fs::write(&not_json, "Tic-tac-toe: 20 games, seed 1\n").unwrap();
    let not_json = not_json.to_string_lossy().into_owned();
    assert!(merge(&[&not_json]).starts_with(&format!(
        "{not_json}: not the JSON of `rulebook match --json`: "
    )));
    // A shard's JSON edited by hand: one more win than its games allow.
    let mut json = read_json(Path::new(&a));
    let bot = &mut json["bots"][0];
    bot["wins"] = (bot["wins"].as_u64().unwrap() + 1).into();
    let counts = ["games", "wins", "draws", "losses"].map(|k| bot[k].as_u64().unwrap());
    let edited = dir.join("edited.json").to_string_lossy().into_owned();
    std::fs::write(&edited, json.to_string()).unwrap();
    assert_eq!(
        merge(&[&edited, &b, &c, &d]),
        format!(
            "{edited}: its totals are not a match's: random has {} games, {} wins, {} draws \
             and {} losses, of 5 games played\n",
            counts[0], counts[1], counts[2], counts[3]
        )
    );
    // The merged JSON may not overwrite a shard's.
    assert_eq!(
        refused(&["merge", &a, &b, &c, &d, "--json", &a], 1),
        format!(
            "--json names {a}, which is a shard's JSON: writing there would destroy it; give \
             another file\n"
        )
    );
    assert!(refused(&["merge"], 2).contains("<JSON>..."));
}

/// The repository's `docs/examples/NAME`.
fn example(name: &str) -> String {
    format!("{}/docs/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `bash SCRIPT` (a path, or `bash` and arguments) from the repository root, set to play
/// the test's match (`GAME`, `BOTS`, 200 games, seed 3) into `out`, with none of the
/// variables of a scheduler that the test's own environment might hold.
fn script(command: &[String], out: &Path) -> Command {
    let mut cmd = Command::new(&command[0]);
    cmd.args(&command[1..])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("OUT", out)
        .env("GAME", GAME)
        .env("BOTS", BOTS)
        .env("GAMES", "200")
        .env("SEED", "3");
    for var in [
        "SHARD",
        "SHARDS",
        "JOBS",
        "RULEBOOK",
        "JOB_COMPLETION_INDEX",
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_COUNT",
        "SLURM_CPUS_PER_TASK",
        "SLURM_SUBMIT_DIR",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

/// Starts every command at once, as a scheduler would, and waits for them all.
fn run_together(commands: Vec<Command>) {
    let children: Vec<_> = commands
        .into_iter()
        .map(|mut c| c.spawn().unwrap())
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
}

/// The value of the first line of `text` that starts (once trimmed) with `key`.
fn value_after<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.trim().strip_prefix(key))
        .unwrap_or_else(|| panic!("no `{key}` line"))
        .trim()
}

#[test]
fn the_slurm_job_array_plays_and_merges_the_whole_match() {
    let dir = Scratch::new("shards-slurm");
    play_whole(&dir, BOTS, "200", "3");
    let slurm = example("match.slurm");
    let text = std::fs::read_to_string(&slurm).unwrap();
    let array = value_after(&text, "#SBATCH --array=");
    let (first, last) = array.split_once('-').unwrap();
    assert_eq!(first, "1", "--shard numbers shards from 1");
    let tasks: usize = last.parse().unwrap();
    let out = dir.join("results");
    let binary = env!("CARGO_BIN_EXE_rulebook");
    let array_tasks = (1..=tasks)
        .map(|k| {
            let mut cmd = script(&["bash".into(), slurm.clone()], &out);
            cmd.env("RULEBOOK", binary)
                .env("SLURM_SUBMIT_DIR", env!("CARGO_MANIFEST_DIR"))
                .env("SLURM_ARRAY_TASK_ID", k.to_string())
                .env("SLURM_ARRAY_TASK_COUNT", tasks.to_string())
                .env("SLURM_CPUS_PER_TASK", "1");
            cmd
        })
        .collect();
    run_together(array_tasks);
    let shard_table = std::fs::read_to_string(out.join("shard-2.txt")).unwrap();
    assert!(shard_table.contains(&format!("shard 2/{tasks} of a match of 200 games")));
    let merged = script(&["bash".into(), example("merge.sh")], &out)
        .env("RULEBOOK", binary)
        .output()
        .unwrap();
    assert!(merged.status.success(), "{}", stderr(&merged));
    same_as_whole(
        &dir,
        &stdout(&merged),
        &out.join("match.json"),
        &out.join("transcripts"),
    );
}

#[test]
fn the_kubernetes_indexed_job_plays_and_merges_the_whole_match() {
    let dir = Scratch::new("shards-kubernetes");
    play_whole(&dir, BOTS, "200", "3");
    let manifest = std::fs::read_to_string(example("match-job.yaml")).unwrap();
    assert_eq!(value_after(&manifest, "completionMode:"), "Indexed");
    let completions: usize = value_after(&manifest, "completions:").parse().unwrap();
    let (_, after) = manifest.split_once("- name: SHARDS").unwrap();
    assert_eq!(
        value_after(after, "value:"),
        format!("\"{completions}\""),
        "SHARDS is the number of completions"
    );
    // The command each pod runs, a flow sequence of quoted strings (JSON as well as YAML).
    let command = |manifest: &str| -> Vec<String> {
        serde_json::from_str(value_after(manifest, "command:")).unwrap()
    };
    // The program on PATH, as in the image.
    let binary = Path::new(env!("CARGO_BIN_EXE_rulebook")).parent().unwrap();
    let path = std::env::join_paths(
        std::iter::once(binary.to_path_buf())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let out = dir.join("results");
    let pods = (0..completions)
        .map(|index| {
            let mut cmd = script(&command(&manifest), &out);
            cmd.env("PATH", &path)
                .env("SHARDS", completions.to_string())
                .env("JOB_COMPLETION_INDEX", index.to_string());
            cmd
        })
        .collect();
    run_together(pods);
    assert!(
        std::fs::read_to_string(out.join("shard-1.txt"))
            .unwrap()
            .contains(&format!("shard 1/{completions} of a match"))
    );
    let merge_job = std::fs::read_to_string(example("merge-job.yaml")).unwrap();
    let merged = script(&command(&merge_job), &out)
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(merged.status.success(), "{}", stderr(&merged));
    same_as_whole(
        &dir,
        &stdout(&merged),
        &out.join("match.json"),
        &out.join("transcripts"),
    );
}

/// `docs/tournaments.md` shows the examples as they are: every line of the file but its
/// comments (`#!` and `#SBATCH` lines kept), in one block.
#[test]
fn the_tournaments_page_shows_the_example_files_as_they_are() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/tournaments.md"))
        .unwrap();
    for name in ["match.slurm", "match-job.yaml"] {
        let text = std::fs::read_to_string(example(name)).unwrap();
        let shown: String = text
            .lines()
            .filter(|l| !l.starts_with('#') || l.starts_with("#!") || l.starts_with("#SBATCH"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(
            page.contains(&shown),
            "docs/tournaments.md shows another {name}"
        );
    }
}
