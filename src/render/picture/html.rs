//! A game as one HTML page: the board drawn once, every position's pieces as data, and a
//! small script that draws the one asked for. Buttons and the keyboard step through the
//! plies, the list of plies jumps to one, and the URL's fragment (`#ply=12`) says which
//! position to show, so a link (or a test in a headless browser) opens any of them.
//! Nothing is fetched: the style, the script and the data are all in the page.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde_json::json;

use super::layout::Layout;
use super::xml::{escape, num};
use super::{HEIGHT_AT, Look, bar, changed, drawn, fill, header, piece_of, status_line};
use crate::engine::game::Game;
use crate::engine::state::State;
use crate::record::transcript::Transcript;
use crate::render::board::{status, symbol};

/// The page's script: it reads the data and draws the position asked for.
const SCRIPT: &str = include_str!("replay.js");

/// The page's style sheet.
const STYLE: &str = "\
body{font-family:sans-serif;margin:1.5em;color:#222;background:#faf6ee}\
h1{font-size:1.4em;margin:0 0 .3em}\
.seats{margin:0 0 1em;color:#555}\
main{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}\
#position svg{max-width:min(92vw,720px);height:auto}\
.controls{margin:.6em 0;display:flex;gap:.4em;align-items:center}\
.controls button{font-size:1em;padding:.3em .8em}\
#counter{margin-left:.6em;color:#555}\
#plies{list-style:none;margin:0;padding:0;max-height:75vh;overflow-y:auto;min-width:14em;\
border:1px solid #d8cbb0;background:#fff}\
#plies li{padding:.15em .6em;cursor:pointer;font-family:monospace}\
#plies li:hover{background:#f3ead8}\
#plies li.current{background:#ffd54f}\
#result{font-weight:bold}";

/// The replay page of a game: `transcript`'s plies and `positions`, the start followed by
/// the position after each ply.
pub fn page(game: &Game, transcript: &Transcript, positions: &[State]) -> String {
    let statuses: Vec<String> = positions.iter().map(|s| status(game, s)).collect();
    let widest = statuses
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(0);
    let layout = Layout::of(game, widest);
    let mut looks = BTreeSet::new();
    let mut frames = Vec::with_capacity(positions.len());
    for (i, state) in positions.iter().enumerate() {
        let pieces = drawn(game, state);
        looks.extend(pieces.iter().map(|p| p.look));
        frames.push((
            pieces,
            changed(state, i.checked_sub(1).map(|b| &positions[b])),
        ));
    }
    let looks: Vec<Look> = looks.into_iter().collect();
    let look_index = |look: Look| looks.iter().position(|l| *l == look).unwrap_or(0);
    let data = json!({
        "cells": game.board.names,
        "at": (0..game.board.len()).map(|c| layout.at(c)).collect::<Vec<_>>(),
        "height": [num(HEIGHT_AT.0), num(HEIGHT_AT.1)],
        "looks": looks.iter().map(|look| json!({
            "id": look.id(),
            "symbol": symbol(game, &piece_of(*look)),
            "owner": look.owner_name(game),
            "kind": game.kinds[look.kind as usize].name,
        })).collect::<Vec<_>>(),
        "positions": frames.iter().zip(&statuses).map(|((pieces, changed), status)| json!({
            "pieces": pieces.iter().map(|p| json!([p.cell, look_index(p.look), p.pieces, p.height.map(|h| h.to_string())])).collect::<Vec<_>>(),
            "changed": changed,
            "status": status,
        })).collect::<Vec<_>>(),
    });
    let mut data = data;
    if game.board.has_places() {
        // Pieces on edges and points are drawn as bars in their looks' colours.
        data["bars"] = json!(
            (0..game.board.len())
                .map(|c| bar(game, c).map(|(w, h)| [w, h]))
                .collect::<Vec<_>>()
        );
        data["fills"] = json!(looks.iter().map(|look| fill(*look)).collect::<Vec<_>>());
    }
    // In a script element only `</script` and `<!--` could end it early: every `<` of the
    // data (inside its strings) is written as an escape instead.
    let data = data.to_string().replace('<', "\\u003c");

    let title = escape(&game.name);
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}: replay</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>{title}</h1>\n"
    );
    let seats: Vec<String> = transcript
        .seats
        .iter()
        .map(|(seat, who)| {
            let name = transcript
                .names
                .iter()
                .find(|(s, _)| s == seat)
                .map_or(String::new(), |(_, n)| format!("{} ", escape(n)));
            format!("{name}{} ({})", escape(seat), escape(who))
        })
        .collect();
    if !seats.is_empty() {
        let _ = writeln!(out, "<p class=\"seats\">{}</p>", seats.join(", "));
    }
    out.push_str("<main>\n<div>\n<div id=\"position\" data-ply=\"\">");
    out.push_str(&header(
        game,
        &layout,
        &game.name,
        &looks.iter().copied().collect(),
    ));
    out.push_str(&layout.board(game));
    out.push_str("<g class=\"marks\"></g>\n<g class=\"pieces\"></g>\n");
    out.push_str(&status_line(&layout, ""));
    out.push_str("</svg>\n</div>\n");
    let _ = writeln!(
        out,
        "<noscript><p>This replay draws its positions with a script: allow scripts to see \
         them.</p></noscript>\n<div class=\"controls\">\
         <button id=\"first\" title=\"the start (Home)\">First</button>\
         <button id=\"back\" title=\"one ply back (left key)\">Back</button>\
         <button id=\"next\" title=\"one ply on (right key)\">Next</button>\
         <button id=\"last\" title=\"the end (End)\">Last</button>\
         <span id=\"counter\"></span></div>\n</div>"
    );
    out.push_str("<div>\n<ul id=\"plies\">\n<li data-ply=\"0\">start</li>\n");
    for (i, entry) in transcript
        .plies
        .iter()
        .enumerate()
        .take(positions.len().saturating_sub(1))
    {
        let _ = writeln!(
            out,
            "<li data-ply=\"{}\">{}. {} {}</li>",
            i + 1,
            entry.turn,
            escape(&entry.player),
            escape(&entry.ply)
        );
    }
    let _ = writeln!(
        out,
        "</ul>\n<p id=\"result\">Result: {}</p>\n</div>\n</main>",
        escape(&transcript.result)
    );
    let _ = writeln!(
        out,
        "<script id=\"replay-data\" type=\"application/json\">{data}</script>\n\
         <script>\n{SCRIPT}</script>\n</body>\n</html>"
    );
    out
}
