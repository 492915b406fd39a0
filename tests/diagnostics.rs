//! Broken game files: each must be refused with a located, readable diagnostic.
//!
//! The rendered diagnostics are snapshots (`tests/snapshots/`); each file in
//! `tests/broken/` holds exactly one mistake.

use rulebook::{compile, spec};

/// Loads and compiles a file, returning its rendered diagnostic.
fn diagnose(path: &str) -> String {
    match spec::load(path).and_then(|s| compile::compile(&s, &[])) {
        Ok(_) => panic!("{path} should be refused"),
        Err(d) => d.to_string(),
    }
}

#[test]
fn every_broken_file_is_refused_with_a_located_diagnostic() {
    crate::common::snapshot_each("broken", "toml", |path| {
        let rel = path
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .expect("inside the crate")
            .to_string_lossy()
            .trim_start_matches('/')
            .to_string();
        let rendered = diagnose(&rel);
        let located = format!("--> {rel}:");
        assert!(
            rendered.contains(&located),
            "{rel}: no location in\n{rendered}"
        );
        assert!(rendered.contains('^'), "{rel}: no caret in\n{rendered}");
        insta::assert_snapshot!(rendered);
    });
}

#[test]
fn a_missing_file_is_an_error_not_a_panic() {
    let err = spec::load("tests/broken/no-such-file.toml").unwrap_err();
    assert!(err.to_string().contains("cannot read the game file"));
}

#[test]
fn bad_parameter_values_are_refused_with_the_names_that_exist() {
    let source = spec::load("games/bounce.toml").unwrap();
    let cases = [
        ("sise", "8", "unknown parameter `sise`"),
        ("size", "7", "parameter `size` = 7 fails its check"),
        ("size", "2", "out of range"),
        ("size", "big", "must be a whole number"),
    ];
    for (name, value, expected) in cases {
        let err = compile::compile(&source, &[(name.into(), value.into())]).unwrap_err();
        let text = err.to_string();
        assert!(text.contains(expected), "{name}={value}: {text}");
    }
    let err = compile::compile(&source, &[("sise".into(), "8".into())]).unwrap_err();
    assert!(err.to_string().contains("parameters of this game: size"));
}
