//! Pictures of positions (`moves --svg`, the REPL's `svg`) and replay pages (`replay
//! --html`, `selfplay --html`): well-formed documents that draw every cell and every
//! piece of the position, the last ply marked; and, in a real headless browser
//! (Chromium), a replay page that shows exactly the position of the ply it is asked for.

use std::collections::{BTreeMap, BTreeSet};

use rulebook::engine::game::Game;
use rulebook::engine::state::{NEUTRAL, State};
use rulebook::record::transcript::Transcript;
use rulebook::render::picture::svg;

use crate::common::browser::{attributes, dump_dom, tags_of_class};
use crate::common::{
    Scratch, game, game_of, play, rulebook, rulebook_in, run_with_stdin, set_stack, shipped_games,
    stderr, stdout,
};

/// What a picture shows on a cell: the symbol, owner (`none` if neutral) and kind of its
/// top piece, and how many pieces the stack holds.
type Shown = BTreeMap<String, (String, String, String, usize)>;

/// What a picture of `state` must show, worked out from the position and the game's
/// kinds.
fn expected(g: &Game, state: &State) -> Shown {
    let mut shown = Shown::new();
    for cell in 0..g.board.len() {
        let stack = &state.stacks()[cell];
        let Some(top) = stack.last() else { continue };
        let kind = &g.kinds[top.kind as usize];
        let (symbol, owner) = if top.owner == NEUTRAL {
            (kind.symbols[0].clone(), "none".to_string())
        } else {
            (
                kind.symbols[top.owner as usize].clone(),
                g.players[top.owner as usize].clone(),
            )
        };
        shown.insert(
            g.board.names[cell].clone(),
            (symbol, owner, kind.name.clone(), stack.len()),
        );
    }
    shown
}

/// The cells whose stacks differ between two positions, by name.
fn changed(g: &Game, before: &State, after: &State) -> BTreeSet<String> {
    (0..g.board.len())
        .filter(|&c| before.stacks()[c] != after.stacks()[c])
        .map(|c| g.board.names[c].clone())
        .collect()
}

/// What an SVG picture draws, read from its elements: the cells (by `data-cell`), the
/// pieces and the marked cells. Panics if it is not well-formed XML, or if a piece uses
/// a definition the picture lacks.
struct Picture {
    cells: Vec<String>,
    pieces: Shown,
    marked: BTreeSet<String>,
    heights: BTreeMap<String, String>,
    numbers: BTreeMap<String, String>,
}

fn read_svg(text: &str) -> Picture {
    let doc = roxmltree::Document::parse(text).unwrap_or_else(|e| panic!("not XML: {e}\n{text}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let ids: BTreeSet<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("id"))
        .collect();
    let class = |n: &roxmltree::Node, c: &str| {
        n.attribute("class")
            .is_some_and(|a| a.split(' ').any(|w| w == c))
    };
    let mut picture = Picture {
        cells: Vec::new(),
        pieces: Shown::new(),
        marked: BTreeSet::new(),
        heights: BTreeMap::new(),
        numbers: BTreeMap::new(),
    };
    for node in doc.descendants().filter(|n| n.is_element()) {
        if let Some(href) = node.attribute("href") {
            let id = href
                .strip_prefix('#')
                .expect("a reference inside the picture");
            assert!(ids.contains(id), "no definition {href}");
        }
        let cell = node.attribute("data-cell").map(str::to_string);
        if class(&node, "cell") {
            let cell = cell.clone().expect("a cell names itself");
            if let Some(n) = node.attribute("data-number") {
                picture.numbers.insert(cell.clone(), n.to_string());
            }
            picture.cells.push(cell);
        } else if class(&node, "mark") {
            assert!(picture.marked.insert(cell.expect("a mark names its cell")));
        } else if class(&node, "piece") {
            let cell = cell.expect("a piece names its cell");
            let attr = |a: &str| {
                node.attribute(a)
                    .unwrap_or_else(|| panic!("{a}"))
                    .to_string()
            };
            let pieces = attr("data-pieces").parse().expect("a count");
            let before = picture.pieces.insert(
                cell.clone(),
                (
                    attr("data-piece"),
                    attr("data-owner"),
                    attr("data-kind"),
                    pieces,
                ),
            );
            assert!(before.is_none(), "two pieces drawn on {cell}");
            if let Some(height) = node.children().find(|c| class(c, "height")) {
                picture
                    .heights
                    .insert(cell, height.text().unwrap_or_default().to_string());
            }
        }
    }
    picture
}

/// Checks that a picture of `after` (with `before` the position before its last ply)
/// draws every cell once, every stack's top piece with its stack's size, the heights
/// the text board draws, and marks the cells the ply changed.
fn check_picture(g: &Game, text: &str, after: &State, before: Option<&State>, what: &str) {
    let picture = read_svg(text);
    let mut cells = picture.cells.clone();
    cells.sort();
    // The cells, not the edges and points of a board with edges (drawn by its grid).
    let mut names = g.board.names[..g.board.cell_count()].to_vec();
    names.sort();
    assert_eq!(cells, names, "{what}: one cell element per cell");
    assert_eq!(picture.pieces, expected(g, after), "{what}: the pieces");
    let marked = before.map_or_else(BTreeSet::new, |b| changed(g, b, after));
    assert_eq!(
        picture.marked, marked,
        "{what}: the cells the last ply changed"
    );
    for c in 0..g.board.len() {
        let name = &g.board.names[c];
        let height = g.shown_height(after, c);
        let drawn = picture.heights.get(name);
        if after.stacks()[c].is_empty() || height == 1 {
            assert_eq!(drawn, None, "{what}: no height on {name}");
        } else {
            assert_eq!(
                drawn,
                Some(&height.to_string()),
                "{what}: the height on {name}"
            );
        }
    }
}

/// A few plies of `g` from the start, chosen by their place in the sorted list (the
/// same every run), with the positions before and after the last.
fn some_plies(g: &Game, count: usize) -> (Vec<String>, State, Option<State>) {
    let mut state = g.start();
    let mut before = None;
    let mut texts = Vec::new();
    for k in 0..count {
        let legal = g.legal_with_notation(&state);
        if state.outcome.is_some() || legal.is_empty() {
            break;
        }
        let (text, ply) = &legal[(k * 7 + 3) % legal.len()];
        texts.push(text.clone());
        before = Some(state.clone());
        g.play(&mut state, ply);
    }
    (texts, state, before)
}

#[test]
fn moves_svg_draws_every_cell_and_piece_of_every_game() {
    let scratch = Scratch::new("svg-every-game");
    for name in shipped_games() {
        let g = game(name, &[]);
        let (texts, after, before) = some_plies(&g, 4);
        let file = scratch.join(format!("{name}.svg"));
        let out = rulebook()
            .args(["moves", &format!("games/{name}.toml"), "--after"])
            .arg(texts.join("; "))
            .arg("--svg")
            .arg(&file)
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let text = std::fs::read_to_string(&file).unwrap();
        check_picture(&g, &text, &after, before.as_ref(), name);
        // The start too, where nothing is marked.
        check_picture(&g, &svg(&g, &g.start(), None), &g.start(), None, name);
        assert_eq!(
            svg(&g, &after, before.as_ref()),
            text,
            "{name}: the same bytes"
        );
    }
}

#[test]
fn tall_stacks_show_the_height_the_text_board_shows() {
    // STAQS counts every piece; VLKNO counts only the neutral pieces under the top.
    for name in ["staqs", "vlkno"] {
        let g = game(name, &[]);
        let mut state = g.start();
        let neutral = g.kinds.iter().find(|k| !k.owned).unwrap().name.clone();
        let owned = g.kinds.iter().find(|k| k.owned).unwrap().name.clone();
        let first = g.players[0].clone();
        set_stack(
            &g,
            &mut state,
            "c3",
            &[(&neutral, ""), (&neutral, ""), (&owned, &first)],
        );
        set_stack(&g, &mut state, "a1", &[(&neutral, ""), (&neutral, "")]);
        check_picture(&g, &svg(&g, &state, None), &state, None, name);
        let picture = read_svg(&svg(&g, &state, None));
        assert_eq!(picture.pieces["c3"].3, 3, "{name}");
        assert!(picture.heights.contains_key("c3"), "{name}");
    }
}

#[test]
fn a_game_that_numbers_its_cells_shows_the_numbers() {
    let g = game("draughts", &[]);
    let picture = read_svg(&svg(&g, &g.start(), None));
    assert_eq!(picture.numbers.len(), 32);
    assert_eq!(picture.numbers["b8"], "1");
    assert_eq!(picture.numbers["h8"], "4");
    assert_eq!(picture.numbers["a1"], "29");
    assert_eq!(picture.numbers["g1"], "32");
    // The light squares, no cells, are drawn between the dark ones.
    assert_eq!(
        svg(&g, &g.start(), None).matches("class=\"gap\"").count(),
        32
    );
}

/// A tiny game for the pictures' own tests: `{pieces}` are its piece tables.
fn tiny(name: &str, pieces: &str) -> Game {
    game_of(&format!(
        r#"
[game]
name = {name:?}

[[players]]
name = "red"

[[players]]
name = "blue"

[board]
files = 3
ranks = 2

{pieces}

[[actions]]
name = "drop"
choose = ['to in cells where empty(to)']
effect = 'place(to, token, me)'
notation = '{{to}}'
"#
    ))
}

#[test]
fn text_from_the_game_file_is_escaped() {
    let g = tiny(
        "A <b> & \"c\" 'd'",
        "[pieces.token]\nowned = true\nsymbol = { red = \"<\", blue = \"&'\" }",
    );
    let mut state = g.start();
    play(&g, &mut state, "a1; b2");
    let text = svg(&g, &state, None);
    let picture = read_svg(&text);
    assert_eq!(picture.pieces["a1"].0, "<");
    assert_eq!(picture.pieces["b2"].0, "&'");
    let doc = roxmltree::Document::parse(&text).unwrap();
    let title = doc
        .descendants()
        .find(|n| n.has_tag_name("title"))
        .and_then(|n| n.text())
        .unwrap();
    assert_eq!(title, "A <b> & \"c\" 'd': red to move");
}

#[test]
fn each_kind_is_drawn_in_the_shape_its_file_names() {
    let mut pieces =
        String::from("[pieces.token]\nowned = true\nsymbol = { red = \"r\", blue = \"b\" }\n");
    for (i, shape) in ["circle", "square", "triangle", "ring", "cross"]
        .iter()
        .enumerate()
    {
        pieces.push_str(&format!(
            "[pieces.k{i}]\nowned = true\nsymbol = {{ red = \"{c}\", blue = \"{c}{c}\" }}\nshape = \"{shape}\"\n",
            c = (b'A' + i as u8) as char
        ));
    }
    let g = tiny("Shapes", &pieces);
    let mut state = g.start();
    for (i, cell) in ["a1", "b1", "c1", "a2", "b2"].iter().enumerate() {
        set_stack(&g, &mut state, cell, &[(&format!("k{i}"), "blue")]);
    }
    let text = svg(&g, &state, None);
    check_picture(&g, &text, &state, None, "shapes");
    let doc = roxmltree::Document::parse(&text).unwrap();
    let definition = |name: &str| {
        let kind = g.kinds.iter().position(|k| k.name == name).unwrap();
        let node = doc
            .descendants()
            .find(|n| n.attribute("id") == Some(&format!("p{kind}-1")))
            .unwrap_or_else(|| panic!("kind {name} is defined"));
        let outline = node.first_element_child().unwrap();
        (
            outline.tag_name().name().to_string(),
            outline.attribute("fill").map(str::to_string),
        )
    };
    assert_eq!(definition("k0").0, "circle");
    assert_eq!(definition("k1").0, "rect");
    assert_eq!(definition("k2").0, "polygon");
    assert_eq!(
        definition("k3"),
        ("circle".to_string(), Some("#ffffff".to_string()))
    );
    assert_eq!(definition("k4").0, "polygon");
}

#[test]
fn a_small_board_snapshot() {
    // X in the centre, O in a corner, X in the opposite corner: three pieces in the
    // seats' colours, c3 (the last ply) marked, a1 to c3 labelled, o to move.
    let g = game("tictactoe", &[]);
    let mut state = g.start();
    play(&g, &mut state, "b2; a1");
    let before = state.clone();
    play(&g, &mut state, "c3");
    insta::assert_snapshot!(svg(&g, &state, Some(&before)));
}

#[test]
fn a_hexagonal_board_snapshot() {
    // The 19 hexagons of tests/fixtures/hexagon.toml, each rank half a cell left of the
    // one below, a red and a blue piece, the blue one (b2) just placed.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/hexagon.toml");
    let source = rulebook::spec::load(path).unwrap();
    let g = rulebook::compile::compile(&source, &[]).unwrap();
    let mut state = g.start();
    play(&g, &mut state, "c3");
    let before = state.clone();
    play(&g, &mut state, "b2");
    let text = svg(&g, &state, Some(&before));
    check_picture(&g, &text, &state, Some(&before), "hexagon");
    insta::assert_snapshot!(text);
}

#[test]
fn pictures_and_pages_never_overwrite_what_the_command_reads() {
    let dir = Scratch::with_games("svg-refused");
    let out = rulebook_in(&dir)
        .args([
            "moves",
            "games/tictactoe.toml",
            "--svg",
            "games/tictactoe.toml",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("--svg names games/tictactoe.toml, which is the game file"),
        "{}",
        stderr(&out)
    );
    let out = rulebook_in(&dir)
        .args([
            "selfplay",
            "games/tictactoe.toml",
            "--transcript",
            "t.txt",
            "--html",
            "t.txt",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("one would overwrite the other"),
        "{}",
        stderr(&out)
    );
    let out = rulebook_in(&dir)
        .args(["selfplay", "games/tictactoe.toml", "--transcript", "t.txt"])
        .output()
        .unwrap();
    assert!(out.status.success());
    for (target, what) in [
        ("t.txt", "the transcript"),
        ("games/tictactoe.toml", "the game file"),
    ] {
        let out = rulebook_in(&dir)
            .args(["replay", "t.txt", "--html", target])
            .output()
            .unwrap();
        assert!(!out.status.success(), "{target}");
        assert!(
            stderr(&out).contains(&format!("which is {what}")),
            "{}",
            stderr(&out)
        );
    }
    let game = std::fs::read_to_string(dir.join("games/tictactoe.toml")).unwrap();
    assert!(game.contains("[[players]]"), "the game file is intact");
}

#[test]
fn the_repl_writes_a_picture_with_the_last_ply_marked() {
    let dir = Scratch::with_games("repl-svg");
    let out = run_with_stdin(
        rulebook_in(&dir).args(["play", "games/tictactoe.toml", "--seat", "o=human"]),
        "b2\na1\nsvg pos.svg\nsvg games/tictactoe.toml\nhelp\nquit\nn\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let printed = stdout(&out);
    assert!(printed.contains("picture written to pos.svg"), "{printed}");
    assert!(
        printed.contains("svg names games/tictactoe.toml, which is the game file"),
        "{printed}"
    );
    assert!(printed.contains("svg FILE"), "help lists it: {printed}");
    let g = game("tictactoe", &[]);
    let mut before = g.start();
    play(&g, &mut before, "b2");
    let mut after = before.clone();
    play(&g, &mut after, "a1");
    let text = std::fs::read_to_string(dir.join("pos.svg")).unwrap();
    check_picture(&g, &text, &after, Some(&before), "repl");
}

/// What the page shows, read from its DOM: the ply, the pieces, the marked cells, the
/// highlighted ply in the list, and the status line.
fn page_shows(dom: &str) -> (String, Shown, BTreeSet<String>, String, String) {
    let at = dom.find("<div id=\"position\"").expect("the position");
    let position = attributes(dom[at..].split('>').next().unwrap());
    let pieces = tags_of_class(dom, "piece")
        .into_iter()
        .map(|a| {
            (
                a["data-cell"].clone(),
                (
                    a["data-piece"].clone(),
                    a["data-owner"].clone(),
                    a["data-kind"].clone(),
                    a["data-pieces"].parse().unwrap(),
                ),
            )
        })
        .collect();
    let marked = tags_of_class(dom, "mark")
        .into_iter()
        .map(|a| a["data-cell"].clone())
        .collect();
    let current = tags_of_class(dom, "current");
    assert_eq!(current.len(), 1, "one ply highlighted");
    let status_at = dom.find("class=\"status\"").expect("a status line");
    let status = dom[status_at..]
        .split_once('>')
        .unwrap()
        .1
        .split('<')
        .next()
        .unwrap()
        .to_string();
    (
        position["data-ply"].clone(),
        pieces,
        marked,
        current[0]["data-ply"].clone(),
        status,
    )
}

#[test]
fn a_replay_page_in_a_headless_browser_shows_the_position_of_the_ply_asked_for() {
    let dir = Scratch::with_games("replay-page");
    let out = rulebook_in(&dir)
        .args([
            "selfplay",
            "games/splut.toml",
            "--seed",
            "3",
            "--transcript",
            "t.txt",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = rulebook_in(&dir)
        .args(["replay", "t.txt", "--html", "replay.html"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let page = std::fs::read_to_string(dir.join("replay.html")).unwrap();
    // Nothing to fetch: no address but the SVG namespace's, which names no file.
    let addresses = page.replace("\"http://www.w3.org/2000/svg\"", "");
    for external in ["http:", "https:", "src=", "<link", "url("] {
        assert!(
            !addresses.contains(external),
            "the page fetches nothing: {external}"
        );
    }

    // The engine's positions, replayed in-process.
    let transcript = Transcript::read(dir.join("t.txt").to_str().unwrap()).unwrap();
    let params: Vec<(&str, &str)> = transcript
        .params
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    let g = game("splut", &params);
    let mut positions = vec![g.start()];
    transcript
        .replay(&g, |_, s| positions.push(s.clone()))
        .unwrap();
    let last = positions.len() - 1;
    assert!(last >= 12, "the game has 12 plies to show: {last}");

    let html = dir.join("replay.html");
    for (fragment, ply) in [
        ("ply=12", 12),
        ("ply=0", 0),
        ("ply=1", 1),
        ("ply=9999", last),
    ] {
        let dom = dump_dom(&html, fragment);
        let (shown_ply, pieces, marked, current, status) = page_shows(&dom);
        assert_eq!(shown_ply, ply.to_string(), "#{fragment}");
        assert_eq!(current, ply.to_string(), "#{fragment}: the ply list");
        assert_eq!(
            pieces,
            expected(&g, &positions[ply]),
            "#{fragment}: the pieces"
        );
        let changed = match ply {
            0 => BTreeSet::new(),
            _ => changed(&g, &positions[ply - 1], &positions[ply]),
        };
        assert_eq!(marked, changed, "#{fragment}: the last ply's cells");
        assert_eq!(
            status,
            rulebook::render::board::status(&g, &positions[ply]),
            "#{fragment}"
        );
    }
    // The end says how the game ended.
    assert!(page.contains(&format!("Result: {}", transcript.result)));
}

#[test]
fn selfplay_writes_the_page_replay_writes() {
    let dir = Scratch::with_games("selfplay-page");
    let out = rulebook_in(&dir)
        .args([
            "selfplay",
            "games/tictactoe.toml",
            "--seed",
            "5",
            "--transcript",
            "t.txt",
            "--html",
            "self.html",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = rulebook_in(&dir)
        .args(["replay", "t.txt", "--html", "replay.html"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    assert_eq!(read("self.html"), read("replay.html"));
    let plies = read("t.txt")
        .lines()
        .filter(|l| l.starts_with(char::is_numeric))
        .count();
    assert_eq!(
        read("self.html").matches("<li data-ply=").count(),
        plies + 1
    );
}
