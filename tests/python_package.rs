//! The Python package (python/): built into a virtual environment of its own the way a user
//! installs it (`pip install ./python`, which runs maturin), and its pytest suite run there
//! against this build of the program (python/tests). Needs `python3` with `venv` and `pip`,
//! and the package index for maturin, pytest and NumPy.

use std::path::Path;
use std::process::Command;

/// Runs `command`, and fails the test with everything it printed if it fails.
fn run(what: &str, command: &mut Command) {
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start {command:?}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_python_package_installs_and_passes_its_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let venv = scratch.join("python-venv");
    let bin = venv.join("bin");
    if !bin.join("python").exists() {
        run(
            "making a virtual environment",
            Command::new("python3").arg("-m").arg("venv").arg(&venv),
        );
    }
    run(
        "installing the build and test tools",
        Command::new(bin.join("pip")).args([
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "maturin>=1.9,<2",
            "pytest>=7",
            "numpy>=1.21",
        ]),
    );
    // The package's own build folder: the cargo running this test may still hold the
    // workspace's.
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    run(
        "building and installing the package",
        Command::new(bin.join("pip"))
            .args(["install", "--quiet", "--disable-pip-version-check"])
            .arg("--no-build-isolation")
            .arg(root.join("python"))
            .env("PATH", &path)
            .env("CARGO_TARGET_DIR", scratch.join("python-build")),
    );
    run(
        "the package's pytest suite",
        Command::new(bin.join("python"))
            .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
            .arg(root.join("python").join("tests"))
            .current_dir(root)
            .env("RULEBOOK_ROOT", root)
            .env("RULEBOOK_BIN", env!("CARGO_BIN_EXE_rulebook")),
    );
}
