//! Pictures of positions: a position as SVG (`moves --svg`, the REPL's `svg`), and a
//! game as one HTML page that steps through its positions (`replay --html`,
//! `selfplay --html`).
//!
//! A picture draws the board as the text board does (squares, hexagons, or points
//! joined by the board's links; file letters and rank numbers on the edges), each piece
//! as its kind's shape in its owner's colour with its symbol in it, the stack height by
//! the text board's rule, the cells the last ply changed marked, and the numbers of a
//! game that numbers its cells (`numbers` in `[board]`). Every cell and piece carries
//! data attributes (`data-cell`, `data-piece`, `data-owner`, `data-kind`,
//! `data-pieces`) that say what is drawn, for programs and tests that read pictures.
//! The same position always gives the same bytes.

pub mod html;
mod layout;
pub mod xml;

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::engine::game::{Game, PieceShape};
use crate::engine::state::{NEUTRAL, Piece, State};
use crate::render::board::{drawn_height, status, symbol};
use layout::Layout;
use xml::{escape, num};

/// Each seat's colour, in seat order (red, blue, green, yellow, magenta, cyan, as the
/// text board colours them), with the colour of a symbol written on it.
const PALETTE: [(&str, &str); 6] = [
    ("#c62828", "#ffffff"),
    ("#1e5bc6", "#ffffff"),
    ("#2e7d32", "#ffffff"),
    ("#f2c200", "#1a1a1a"),
    ("#8e24aa", "#ffffff"),
    ("#00838f", "#ffffff"),
];

/// The colour of neutral pieces, and of their symbols.
const NEUTRAL_COLOURS: (&str, &str) = ("#9e9e9e", "#1a1a1a");

/// Where a piece's height is written, from its centre.
const HEIGHT_AT: (f64, f64) = (15.0, 16.0);

/// The style sheet inside every picture: classes, not attributes on every element.
const STYLE: &str = "\
.cell{stroke:#6b4f35;stroke-width:1}\
.plain{fill:#e6c996}.light,.gap{fill:#f0dcb4}.dark{fill:#b58458}\
.hexagon{fill:#e6c996;stroke-width:1.5}\
.link{stroke:#5b4636;stroke-width:2.5;stroke-linecap:round}\
.point{fill:#5b4636}\
.coord{font-size:13px;fill:#5b4636;text-anchor:middle;dominant-baseline:central}\
.number{font-size:9px;fill:#3b2a1a}.number.on-dark{fill:#fbf0dc}\
.last{fill:#ffd54f;fill-opacity:.55;stroke:#e69500;stroke-width:3}\
.piece-outline{stroke:#1a1a1a;stroke-width:1.5}\
.symbol{font-weight:bold;text-anchor:middle;dominant-baseline:central}\
.height{font-size:12px;font-weight:bold;fill:#1a1a1a;stroke:#ffffff;stroke-width:3px;\
paint-order:stroke;text-anchor:middle;dominant-baseline:central}\
.status{font-size:14px;fill:#222222;dominant-baseline:central}";

/// How one kind of piece of one owner looks: drawn once in the picture's definitions and
/// used for every such piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Look {
    kind: u8,
    owner: u8,
}

impl Look {
    fn of(piece: &Piece) -> Look {
        Look {
            kind: piece.kind,
            owner: piece.owner,
        }
    }

    /// Its id in the picture: `p2-0` (kind 2, seat 0), `p0-n` (kind 0, neutral).
    fn id(self) -> String {
        if self.owner == NEUTRAL {
            format!("p{}-n", self.kind)
        } else {
            format!("p{}-{}", self.kind, self.owner)
        }
    }

    /// The owner's name, or `none` for a neutral piece.
    fn owner_name(self, game: &Game) -> &str {
        game.players
            .get(self.owner as usize)
            .map_or("none", String::as_str)
    }

    /// The colour of the symbol written on the look's shape.
    fn ink(self) -> &'static str {
        if self.owner == NEUTRAL {
            NEUTRAL_COLOURS.1
        } else {
            PALETTE[self.owner as usize % PALETTE.len()].1
        }
    }

    /// The piece drawn around the origin: its kind's shape in its owner's colour, its
    /// symbol in it.
    fn definition(self, game: &Game) -> String {
        let piece = Piece::new(self.kind, self.owner, 0);
        let (fill, ink) = (fill(self), self.ink());
        let shape = game
            .kinds
            .get(self.kind as usize)
            .map_or(PieceShape::Circle, |k| k.shape);
        let paint = format!("class=\"piece-outline\" fill=\"{fill}\"");
        let (outline, ink, text_y) = match shape {
            PieceShape::Circle => (format!("<circle {paint} r=\"19\"/>"), ink, 0.0),
            PieceShape::Square => (
                format!("<rect {paint} x=\"-17\" y=\"-17\" width=\"34\" height=\"34\" rx=\"4\"/>"),
                ink,
                0.0,
            ),
            PieceShape::Triangle => (
                format!("<polygon {paint} points=\"0,-21 20,14 -20,14\"/>"),
                ink,
                4.0,
            ),
            PieceShape::Ring => (
                format!("<circle r=\"16\" fill=\"#ffffff\" stroke=\"{fill}\" stroke-width=\"6\"/>"),
                "#1a1a1a",
                0.0,
            ),
            PieceShape::Cross => (
                format!(
                    "<polygon {paint} points=\"-8,-20 8,-20 8,-8 20,-8 20,8 8,8 8,20 -8,20 \
                     -8,8 -20,8 -20,-8 -8,-8\"/>"
                ),
                ink,
                0.0,
            ),
        };
        let text = symbol(game, &piece);
        let size = if text.chars().count() > 1 { 14 } else { 20 };
        format!(
            "<g id=\"{}\">{outline}<text class=\"symbol\" y=\"{}\" font-size=\"{size}\" \
             fill=\"{ink}\">{}</text></g>\n",
            self.id(),
            num(text_y),
            escape(&text)
        )
    }
}

/// The cells whose stacks differ between `before` and `state`: what the last ply changed.
fn changed(state: &State, before: Option<&State>) -> Vec<usize> {
    let Some(before) = before else {
        return Vec::new();
    };
    (0..state.stacks().len())
        .filter(|&c| before.stacks()[c] != state.stacks()[c])
        .collect()
}

/// A piece on the board as drawn: its cell, its look, how many pieces the stack holds
/// and the height drawn after it, if one is.
struct Drawn {
    cell: usize,
    look: Look,
    pieces: usize,
    height: Option<i64>,
}

/// The top piece of every stack of `state`, in cell order.
fn drawn(game: &Game, state: &State) -> Vec<Drawn> {
    (0..state.stacks().len())
        .filter_map(|cell| {
            let stack = &state.stacks()[cell];
            let top = stack.last()?;
            Some(Drawn {
                cell,
                look: Look::of(top),
                pieces: stack.len(),
                height: drawn_height(game, state, cell),
            })
        })
        .collect()
}

/// The opening tag of a picture with `layout`'s box, its title, its style sheet and
/// definitions (the mark of a changed cell, and `looks`).
fn header(game: &Game, layout: &Layout, title: &str, looks: &BTreeSet<Look>) -> String {
    let (left, top, width, height) = layout.view;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"{} {} {} {}\" width=\"{}\" \
         height=\"{}\" font-family=\"sans-serif\">\n<title>{}</title>\n<style>{STYLE}</style>\n<defs>\n\
         <g id=\"mark\">{}</g>\n",
        num(left),
        num(top),
        num(width),
        num(height),
        num(width),
        num(height),
        escape(title),
        layout.mark()
    );
    for look in looks {
        out.push_str(&look.definition(game));
    }
    out.push_str("</defs>\n");
    out
}

/// The status line under the board.
fn status_line(layout: &Layout, text: &str) -> String {
    let (x, y) = layout.status_at;
    format!(
        "<text class=\"status\" x=\"{}\" y=\"{}\">{}</text>\n",
        num(x),
        num(y),
        escape(text)
    )
}

/// A picture of `state` as an SVG document: the board, the pieces, the cells that
/// differ from `before` (the position before the last ply) marked, and a line saying
/// whose turn it is or how the game ended.
pub fn svg(game: &Game, state: &State, before: Option<&State>) -> String {
    let status = status(game, state);
    let layout = Layout::of(game, status.chars().count());
    let pieces = drawn(game, state);
    let looks: BTreeSet<Look> = pieces.iter().map(|p| p.look).collect();
    let title = format!("{}: {status}", game.name);
    let mut out = header(game, &layout, &title, &looks);
    out.push_str(&layout.board(game));
    out.push_str("<g class=\"marks\">\n");
    for cell in changed(state, before) {
        let _ = writeln!(
            out,
            "<use class=\"mark\" href=\"#mark\" data-cell=\"{}\" transform=\"translate({})\"/>",
            escape(&game.board.names[cell]),
            layout.at(cell)
        );
    }
    out.push_str("</g>\n<g class=\"pieces\">\n");
    for p in &pieces {
        if let Some(bar) = bar(game, p.cell) {
            out.push_str(&on_place(game, &layout, p, bar));
            continue;
        }
        let _ = write!(
            out,
            "<g class=\"piece\" data-cell=\"{}\" data-piece=\"{}\" data-owner=\"{}\" \
             data-kind=\"{}\" data-pieces=\"{}\" transform=\"translate({})\">\
             <use href=\"#{}\"/>",
            escape(&game.board.names[p.cell]),
            escape(&symbol(game, &piece_of(p.look))),
            escape(p.look.owner_name(game)),
            escape(&game.kinds[p.look.kind as usize].name),
            p.pieces,
            layout.at(p.cell),
            p.look.id()
        );
        if let Some(height) = p.height {
            let _ = write!(
                out,
                "<text class=\"height\" x=\"{}\" y=\"{}\">{height}</text>",
                num(HEIGHT_AT.0),
                num(HEIGHT_AT.1)
            );
        }
        out.push_str("</g>\n");
    }
    out.push_str("</g>\n");
    out.push_str(&status_line(&layout, &status));
    out.push_str("</svg>\n");
    out
}

/// The bar a piece on an edge or point of a board with edges is drawn as, its width and
/// height around the place's centre: along the edge (across the files when a cell lies
/// north or south of it, along them when one lies east or west), a square post on a
/// point; `None` for a cell.
fn bar(game: &Game, place: usize) -> Option<(f64, f64)> {
    let board = &game.board;
    if place < board.cell_count() {
        return None;
    }
    let cell_that_way = |d: usize| {
        board
            .side(place as u16, d)
            .is_some_and(|c| usize::from(c) < board.cell_count())
    };
    // n = 0, e = 2, s = 4, w = 6.
    Some(if cell_that_way(0) || cell_that_way(4) {
        (layout::CELL - 6.0, 8.0)
    } else if cell_that_way(2) || cell_that_way(6) {
        (8.0, layout::CELL - 6.0)
    } else {
        (10.0, 10.0)
    })
}

/// The colour a look fills its shape (or bar) with.
fn fill(look: Look) -> &'static str {
    if look.owner == NEUTRAL {
        NEUTRAL_COLOURS.0
    } else {
        PALETTE[look.owner as usize % PALETTE.len()].0
    }
}

/// A piece on an edge or point, drawn as its [`bar`] in its owner's colour.
fn on_place(game: &Game, layout: &Layout, p: &Drawn, (width, height): (f64, f64)) -> String {
    format!(
        "<g class=\"piece place\" data-cell=\"{}\" data-piece=\"{}\" data-owner=\"{}\" \
         data-kind=\"{}\" data-pieces=\"{}\" transform=\"translate({})\">\
         <rect class=\"piece-outline\" fill=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></g>\n",
        escape(&game.board.names[p.cell]),
        escape(&symbol(game, &piece_of(p.look))),
        escape(p.look.owner_name(game)),
        escape(&game.kinds[p.look.kind as usize].name),
        p.pieces,
        layout.at(p.cell),
        fill(p.look),
        num(-width / 2.0),
        num(-height / 2.0),
        num(width),
        num(height)
    )
}

/// A piece of a look, for its symbol.
fn piece_of(look: Look) -> Piece {
    Piece::new(look.kind, look.owner, 0)
}
