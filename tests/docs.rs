//! The reference in `docs/game-format.md` keeps up with the engine: every built-in has a
//! row in its tables, and every game file in `games/` uses only keys the reference names.

use rulebook::engine::natives::NATIVES;

fn reference() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/game-format.md"))
        .expect("docs/game-format.md exists")
}

#[test]
fn every_builtin_has_a_row_in_the_reference() {
    let docs = reference();
    let missing: Vec<&str> = NATIVES
        .iter()
        .map(|n| n.name)
        .filter(|name| !docs.contains(&format!("| `{name}` |")))
        .collect();
    assert!(missing.is_empty(), "undocumented built-ins: {missing:?}");
}

#[test]
fn every_key_of_the_shipped_games_is_in_the_reference() {
    let docs = reference();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/games");
    for entry in std::fs::read_dir(dir).expect("games/ exists") {
        let path = entry.expect("readable").path();
        let text = std::fs::read_to_string(&path).expect("readable game file");
        let value: toml::Table = toml::from_str(&text).expect("valid TOML");
        let mut keys = Vec::new();
        collect_keys(&toml::Value::Table(value), &mut keys);
        for key in keys {
            assert!(
                docs.contains(&format!("`{key}`")) || docs.contains(&format!("[{key}]")),
                "{}: key `{key}` is not in docs/game-format.md",
                path.display()
            );
        }
    }
}

/// Table keys, leaving out the names a file chooses itself (parameters, pieces,
/// functions, vars).
fn collect_keys(value: &toml::Value, out: &mut Vec<String>) {
    match value {
        toml::Value::Table(t) => {
            for (k, v) in t {
                if matches!(k.as_str(), "params" | "pieces" | "functions") {
                    if let toml::Value::Table(named) = v {
                        out.push(k.clone());
                        for inner in named.values() {
                            collect_keys(inner, out);
                        }
                    }
                    continue;
                }
                if k == "vars" {
                    // `[vars.global]`, `[vars.player]`, `[vars.turn]`: names chosen by the file.
                    if let toml::Value::Table(scopes) = v {
                        out.push(k.clone());
                        out.extend(scopes.keys().map(|scope| format!("vars.{scope}")));
                    }
                    continue;
                }
                // Keyed by the file's own names (seats, bound names).
                if k == "symbol" || k == "why" || k == "mover" {
                    out.push(k.clone());
                    continue;
                }
                out.push(k.clone());
                collect_keys(v, out);
            }
        }
        toml::Value::Array(items) => items.iter().for_each(|i| collect_keys(i, out)),
        _ => {}
    }
}
