//! Where a picture puts things: each cell's centre (squares, hexagons, or points joined
//! by lines), the coordinates on the edges, the box around it all, and the board drawn
//! under the pieces.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::xml::{escape, num};
use crate::engine::board::{Board, DIAGONAL};
use crate::engine::game::Game;

/// The side of a square cell, the width of a hexagon, the distance between two points.
pub const CELL: f64 = 48.0;

/// How the cells are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Squares: `checkered` when pieces move along diagonals (they keep to one colour of
    /// the squares), plain otherwise. `gaps`: every cell is of one colour, as on a board
    /// played on its dark squares, and the squares between them are drawn light.
    Squares { checkered: bool, gaps: bool },
    /// Pointy-topped hexagons, each rank half a cell left of the one below.
    Hexagons,
    /// Points joined by the board's links (`lines = true`).
    Points,
}

/// Where everything of one game's pictures goes.
pub struct Layout {
    pub form: Form,
    /// Each cell's centre, by cell index.
    pub centres: Vec<(f64, f64)>,
    /// The drawing's box: left, top, width and height, the status line included.
    pub view: (f64, f64, f64, f64),
    /// Where the status line starts (its left end, on its middle).
    pub status_at: (f64, f64),
    /// The labels on the edges: each file's letter and each rank's number, with the
    /// middle of where it goes.
    labels: Vec<(String, (f64, f64))>,
}

/// The circumradius of a hexagon [`CELL`] wide.
fn hex_radius() -> f64 {
    CELL / 3f64.sqrt()
}

/// The centre of the square at (file, rank), counted from 1 (0 is the square before the
/// first, where labels go).
fn centre(board: &Board, file: f64, rank: f64) -> (f64, f64) {
    let down = board.ranks as f64 - rank;
    if board.hexagonal {
        (
            (file - 1.0) * CELL + down * CELL / 2.0,
            down * 1.5 * hex_radius(),
        )
    } else {
        ((file - 1.0) * CELL, down * CELL)
    }
}

/// Three quarters of the way from `a` to `b`: a label's place, between the edge of the
/// board and the square beyond it.
fn toward(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    (a.0 + 0.75 * (b.0 - a.0), a.1 + 0.75 * (b.1 - a.1))
}

/// How wide a status line of `chars` characters is drawn, about.
fn text_width(chars: usize) -> f64 {
    chars as f64 * 7.5
}

impl Layout {
    /// The layout of `game`'s board, with room for a status line of `status_chars`
    /// characters under it.
    pub fn of(game: &Game, status_chars: usize) -> Layout {
        let board = &game.board;
        let form = if game.draw_lines {
            Form::Points
        } else if board.hexagonal {
            Form::Hexagons
        } else {
            let diagonal = (0..board.len())
                .any(|c| (0..8).any(|d| DIAGONAL & (1 << d) != 0 && board.links[c][d].is_some()));
            let parity = |c: usize| (board.coords[c].0 + board.coords[c].1) % 2;
            let cells = board.cell_count();
            let one_colour = cells > 1 && (1..cells).all(|c| parity(c) == parity(0));
            Form::Squares {
                checkered: diagonal,
                gaps: one_colour,
            }
        };
        let mut centres: Vec<(f64, f64)> = board
            .coords
            .iter()
            .map(|&(f, r)| centre(board, f as f64, r as f64))
            .collect();
        // An edge or point half way between the cells around it.
        for y in 0..2 * usize::from(board.ranks) + 1 {
            for x in 0..2 * usize::from(board.files) + 1 {
                if let Some(place) = board.half_at(x, y) {
                    let (f, r) = ((x as f64 + 1.0) / 2.0, (y as f64 + 1.0) / 2.0);
                    centres[usize::from(place)] = centre(board, f, r);
                }
            }
        }
        let mut labels = Vec::new();
        for file in 1..=board.files {
            let at = toward(
                centre(board, file as f64, 1.0),
                centre(board, file as f64, 0.0),
            );
            labels.push((board.file_letter(file).to_string(), at));
        }
        for rank in 1..=board.ranks {
            let at = toward(
                centre(board, 1.0, rank as f64),
                centre(board, 0.0, rank as f64),
            );
            labels.push((rank.to_string(), at));
        }
        let half_height = if form == Form::Hexagons {
            hex_radius()
        } else {
            CELL / 2.0
        };
        let (mut left, mut top, mut right, mut bottom) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for &(x, y) in &centres[..board.cell_count()] {
            left = left.min(x - CELL / 2.0);
            right = right.max(x + CELL / 2.0);
            top = top.min(y - half_height);
            bottom = bottom.max(y + half_height);
        }
        for (_, (x, y)) in &labels {
            left = left.min(x - 10.0);
            right = right.max(x + 10.0);
            top = top.min(y - 10.0);
            bottom = bottom.max(y + 10.0);
        }
        let (left, top) = (left - 6.0, top - 6.0);
        let status_at = (left + 6.0, bottom + 16.0);
        let width = (right + 6.0 - left).max(text_width(status_chars) + 12.0);
        let height = bottom + 30.0 - top;
        Layout {
            form,
            centres,
            view: (left, top, width, height),
            status_at,
            labels,
        }
    }

    /// `translate(X Y)` to a cell's centre, as pieces and marks are placed.
    pub fn at(&self, cell: usize) -> String {
        let (x, y) = self.centres[cell];
        format!("{} {}", num(x), num(y))
    }

    /// The board under the pieces: its cells (each with `data-cell`, its name), the
    /// lines between points, the numbers of a game that numbers its cells, and the file
    /// letters and rank numbers on the edges.
    pub fn board(&self, game: &Game) -> String {
        let board = &game.board;
        let mut out = String::from("<g class=\"board\">\n");
        let number = |c: usize| board.numbers.as_ref().and_then(|n| n.get(c)).copied();
        let cell_attributes = |c: usize| {
            let mut a = format!("data-cell=\"{}\"", escape(&board.names[c]));
            if let Some(n) = number(c) {
                let _ = write!(a, " data-number=\"{n}\"");
            }
            a
        };
        match self.form {
            Form::Squares { checkered, gaps } => {
                let half = CELL / 2.0;
                let corner = |f: u8, r: u8| {
                    let (x, y) = centre(board, f as f64, r as f64);
                    format!(
                        "x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\"",
                        num(x - half),
                        num(y - half)
                    )
                };
                let colour = |f: u8, r: u8| match (checkered, (f + r).is_multiple_of(2)) {
                    (false, _) => "plain",
                    (true, true) => "dark",
                    (true, false) => "light",
                };
                // The colour of the cells of a board played on one colour.
                let cells_parity = board.coords.first().map(|&(f, r)| (f + r) % 2);
                for r in (1..=board.ranks).rev() {
                    for f in 1..=board.files {
                        match board.at(f as i64, r as i64) {
                            Some(c) => {
                                let _ = writeln!(
                                    out,
                                    "<rect class=\"cell {}\" {} {}/>",
                                    colour(f, r),
                                    cell_attributes(c as usize),
                                    corner(f, r)
                                );
                            }
                            None if gaps && Some((f + r) % 2) != cells_parity => {
                                let _ = writeln!(out, "<rect class=\"gap\" {}/>", corner(f, r));
                            }
                            None => {}
                        }
                    }
                }
            }
            Form::Hexagons => {
                for c in 0..board.len() {
                    let _ = writeln!(
                        out,
                        "<polygon class=\"cell hexagon\" {} points=\"{}\"/>",
                        cell_attributes(c),
                        hexagon(self.centres[c], hex_radius())
                    );
                }
            }
            Form::Points => {
                let mut links = BTreeSet::new();
                for (c, targets) in board.links.iter().enumerate() {
                    for &to in targets.iter().flatten() {
                        let to = to as usize;
                        links.insert((c.min(to), c.max(to)));
                    }
                }
                for (a, b) in links {
                    let ((x1, y1), (x2, y2)) = (self.centres[a], self.centres[b]);
                    let _ = writeln!(
                        out,
                        "<line class=\"link\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
                        num(x1),
                        num(y1),
                        num(x2),
                        num(y2)
                    );
                }
                for c in 0..board.len() {
                    let (x, y) = self.centres[c];
                    let _ = writeln!(
                        out,
                        "<circle class=\"cell point\" {} cx=\"{}\" cy=\"{}\" r=\"5\"/>",
                        cell_attributes(c),
                        num(x),
                        num(y)
                    );
                }
            }
        }
        let cells = 0..board.cell_count();
        for c in cells
            .clone()
            .filter(|&c| board.marks.as_ref().is_some_and(|m| m[c]))
        {
            let (x, y) = self.centres[c];
            let _ = writeln!(
                out,
                "<circle class=\"point star\" cx=\"{}\" cy=\"{}\" r=\"8\"/>",
                num(x),
                num(y)
            );
        }
        for c in cells {
            let Some(n) = number(c) else { continue };
            let (x, y) = self.centres[c];
            let (dx, dy) = match self.form {
                Form::Points => (8.0, -9.0),
                Form::Hexagons => (-6.0, -16.0),
                Form::Squares { .. } => (-CELL / 2.0 + 2.0, -CELL / 2.0 + 9.0),
            };
            let (f, r) = board.coords[c];
            let on_dark = matches!(
                self.form,
                Form::Squares {
                    checkered: true,
                    ..
                }
            ) && (f + r).is_multiple_of(2);
            let _ = writeln!(
                out,
                "<text class=\"number{}\" x=\"{}\" y=\"{}\">{n}</text>",
                if on_dark { " on-dark" } else { "" },
                num(x + dx),
                num(y + dy)
            );
        }
        for (text, (x, y)) in &self.labels {
            let _ = writeln!(
                out,
                "<text class=\"coord\" x=\"{}\" y=\"{}\">{}</text>",
                num(*x),
                num(*y),
                escape(text)
            );
        }
        out.push_str("</g>\n");
        out
    }

    /// The mark of a cell the last ply changed, centred on the origin: the cell's own
    /// outline, a little inside it.
    pub fn mark(&self) -> String {
        match self.form {
            Form::Squares { .. } => {
                let side = CELL - 5.0;
                format!(
                    "<rect class=\"last\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
                    num(-side / 2.0),
                    num(-side / 2.0),
                    num(side),
                    num(side)
                )
            }
            Form::Hexagons => format!(
                "<polygon class=\"last\" points=\"{}\"/>",
                hexagon((0.0, 0.0), hex_radius() - 3.0)
            ),
            Form::Points => format!("<circle class=\"last\" r=\"{}\"/>", num(CELL * 0.45)),
        }
    }
}

/// The corners of a pointy-topped hexagon around `centre`.
fn hexagon((x, y): (f64, f64), radius: f64) -> String {
    (0..6)
        .map(|k| {
            let angle = (-90.0 + 60.0 * k as f64).to_radians();
            format!(
                "{},{}",
                num(x + radius * angle.cos()),
                num(y + radius * angle.sin())
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}
