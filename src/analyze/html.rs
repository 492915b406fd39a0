//! An analysis as one self-contained HTML page: the table, and the plots a designer looks
//! at, drawn as inline SVG (nothing is fetched): the length histogram of each column,
//! the legal plies by ply with a line per column, and the first player's score per
//! column with its interval against the fair share. Each plot is an `svg` of class
//! `plot` whose data attributes say what it draws; a short script marks each one
//! `data-drawn="yes"` once the browser has laid it out with a size, which the browser
//! test reads.

use std::fmt::Write as _;

use super::Analysis;
use super::metrics::Metrics;
use crate::render::picture::xml::{escape, num};

/// The page's style sheet.
const STYLE: &str = "\
body{font-family:sans-serif;margin:1.5em;color:#222;background:#faf6ee}\
h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.5em}\
pre{background:#fff;border:1px solid #d8cbb0;padding:.6em;overflow-x:auto}\
.plots{display:flex;flex-wrap:wrap;gap:1em}\
svg.plot{background:#fff;border:1px solid #d8cbb0}\
svg text{font-size:11px}";

/// Marks each plot drawn once the browser gave it a size.
const SCRIPT: &str = "\
document.querySelectorAll('svg.plot').forEach(function(s){\
var r=s.getBoundingClientRect();if(r.width>0&&r.height>0){s.dataset.drawn='yes';}});";

/// The colours of the columns' lines, in turn.
const COLOURS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
];

/// A plot's size and its margins (left for the axis labels, bottom for the ticks).
const W: f64 = 420.0;
const H: f64 = 240.0;
const LEFT: f64 = 44.0;
const BOTTOM: f64 = 28.0;
const TOP: f64 = 20.0;
const RIGHT: f64 = 12.0;

impl Analysis {
    /// The page.
    pub fn html(&self) -> String {
        let mut page = String::new();
        let title = format!("{}: analysis", self.game);
        let _ = write!(
            page,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <title>{}</title><style>{STYLE}</style></head><body>\n<h1>{}</h1>\n",
            escape(&title),
            escape(&title)
        );
        let _ = writeln!(
            page,
            "<p>{} games a column, bots {}, seed {}.</p>",
            self.columns.first().map_or(0, |c| c.games),
            escape(&self.bots.join(" against ")),
            self.seed
        );
        page.push_str("<h2>Game length</h2>\n<div class=\"plots\">\n");
        for (i, c) in self.columns.iter().enumerate() {
            page.push_str(&length_histogram(c, COLOURS[i % COLOURS.len()]));
        }
        page.push_str("</div>\n<h2>Legal plies by ply</h2>\n<div class=\"plots\">\n");
        page.push_str(&branching(&self.columns));
        page.push_str("</div>\n<h2>First-player edge</h2>\n<div class=\"plots\">\n");
        page.push_str(&edge(&self.columns));
        let _ = write!(
            page,
            "</div>\n<h2>Table</h2>\n<pre>{}</pre>\n<script>{SCRIPT}</script>\n</body></html>\n",
            escape(&self.table())
        );
        page
    }
}

/// The opening of a plot's `svg`, its frame and its title.
fn open(kind: &str, data: &str, title: &str) -> String {
    format!(
        "<svg class=\"plot\" data-plot=\"{kind}\" {data} xmlns=\"http://www.w3.org/2000/svg\" \
         width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">\
         <text x=\"{}\" y=\"14\">{}</text>\
         <line x1=\"{LEFT}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#888\"/>\
         <line x1=\"{LEFT}\" y1=\"{TOP}\" x2=\"{LEFT}\" y2=\"{}\" stroke=\"#888\"/>",
        num(W),
        num(H),
        num(W),
        num(H),
        num(LEFT),
        escape(title),
        num(H - BOTTOM),
        num(W - RIGHT),
        num(H - BOTTOM),
        num(H - BOTTOM)
    )
}

/// A label at the left of the y axis and at the bottom of the x axis.
fn axis_labels(y_top: &str, x_left: &str, x_right: &str) -> String {
    format!(
        "<text x=\"2\" y=\"{}\">{}</text><text x=\"2\" y=\"{}\">0</text>\
         <text x=\"{}\" y=\"{}\">{}</text><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
        num(TOP + 10.0),
        escape(y_top),
        num(H - BOTTOM),
        num(LEFT),
        num(H - 8.0),
        escape(x_left),
        num(W - RIGHT),
        num(H - 8.0),
        escape(x_right)
    )
}

/// One column's histogram of game lengths: a bar per bin.
fn length_histogram(c: &Metrics, colour: &str) -> String {
    let bins = &c.length_histogram;
    let most = bins.iter().map(|b| b.games).max().unwrap_or(0).max(1) as f64;
    let mut svg = open(
        "length",
        &format!(
            "data-column=\"{}\" data-bins=\"{}\"",
            escape(&c.label),
            bins.len()
        ),
        &format!("{}: plies a game", c.label),
    );
    let width = (W - LEFT - RIGHT) / bins.len().max(1) as f64;
    for (i, b) in bins.iter().enumerate() {
        let h = (H - BOTTOM - TOP) * b.games as f64 / most;
        let _ = write!(
            svg,
            "<rect class=\"bar\" data-from=\"{}\" data-to=\"{}\" data-games=\"{}\" x=\"{}\" \
             y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{colour}\"><title>{}-{} plies: {} \
             games</title></rect>",
            b.from,
            b.to,
            b.games,
            num(LEFT + i as f64 * width + 0.5),
            num(H - BOTTOM - h),
            num((width - 1.0).max(0.5)),
            num(h),
            b.from,
            b.to,
            b.games
        );
    }
    let (first, last) = (
        bins.first().map_or(0, |b| b.from),
        bins.last().map_or(0, |b| b.to),
    );
    svg.push_str(&axis_labels(
        &format!("{most}"),
        &first.to_string(),
        &last.to_string(),
    ));
    svg.push_str("</svg>\n");
    svg
}

/// The mean legal plies at each ply: a line per column.
fn branching(cols: &[Metrics]) -> String {
    let plies = cols
        .iter()
        .map(|c| c.branching_by_ply.len())
        .max()
        .unwrap_or(0)
        .max(2);
    let most = cols
        .iter()
        .flat_map(|c| c.branching_by_ply.iter().map(|b| b.mean))
        .fold(1.0f64, f64::max);
    let mut svg = open(
        "branching",
        &format!("data-lines=\"{}\"", cols.len()),
        "mean legal plies at each ply",
    );
    let x = |ply: f64| LEFT + (W - LEFT - RIGHT) * (ply - 1.0) / (plies as f64 - 1.0);
    let y = |v: f64| H - BOTTOM - (H - BOTTOM - TOP) * v / most;
    for (i, c) in cols.iter().enumerate() {
        let points: Vec<String> = (c.branching_by_ply.iter())
            .map(|b| format!("{},{}", num(x(b.ply as f64)), num(y(b.mean))))
            .collect();
        let colour = COLOURS[i % COLOURS.len()];
        let _ = write!(
            svg,
            "<polyline class=\"line\" data-column=\"{}\" data-points=\"{}\" points=\"{}\" \
             fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.5\"/>\
             <text x=\"{}\" y=\"{}\" fill=\"{colour}\" text-anchor=\"end\">{}</text>",
            escape(&c.label),
            points.len(),
            points.join(" "),
            num(W - RIGHT),
            num(TOP + 12.0 * (i + 1) as f64),
            escape(&c.label)
        );
    }
    svg.push_str(&axis_labels(&format!("{most:.0}"), "1", &plies.to_string()));
    svg.push_str("</svg>\n");
    svg
}

/// The first player's score per column: a dot and its interval, against the fair share.
fn edge(cols: &[Metrics]) -> String {
    let seats = cols.first().map_or(2, |c| c.seats.len().max(1));
    let fair = 1.0 / seats as f64;
    let mut svg = open(
        "edge",
        &format!(
            "data-columns=\"{}\" data-fair=\"{}\"",
            cols.len(),
            num(fair * 100.0)
        ),
        "first player's score (95% interval); dashed: fair",
    );
    let y = |v: f64| H - BOTTOM - (H - BOTTOM - TOP) * v;
    let step = (W - LEFT - RIGHT) / cols.len().max(1) as f64;
    let _ = write!(
        svg,
        "<line class=\"fair\" x1=\"{LEFT}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#999\" \
         stroke-dasharray=\"4 3\"/>",
        num(y(fair)),
        num(W - RIGHT),
        num(y(fair))
    );
    for (i, c) in cols.iter().enumerate() {
        let p = &c.first_player;
        let cx = LEFT + step * (i as f64 + 0.5);
        let _ = write!(
            svg,
            "<g class=\"mark\" data-column=\"{}\" data-rate=\"{}\" data-low=\"{}\" \
             data-high=\"{}\"><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#333\" \
             stroke-width=\"2\"/><circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\"/>\
             <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text></g>",
            escape(&c.label),
            p.rate,
            p.low,
            p.high,
            num(cx),
            num(y(p.low)),
            num(cx),
            num(y(p.high)),
            num(cx),
            num(y(p.rate)),
            COLOURS[i % COLOURS.len()],
            num(cx),
            num(H - 8.0),
            escape(&c.label)
        );
    }
    svg.push_str(&axis_labels("100%", "", ""));
    svg.push_str("</svg>\n");
    svg
}
