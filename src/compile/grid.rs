//! `[board]`: the grid, its shape and its links (grid directions, explicit `join` lines,
//! a hexagonal board's six).

use super::*;
use crate::engine::track::{Track, TrackError};

impl Compiler<'_> {
    pub(super) fn board(&self, params: &[ParamValue]) -> Result<Board, Box<Diagnostic>> {
        let spec = &self.src.file.board;
        let env = ConstEnv { params, cell: None };
        let files = self.number(&spec.files, &env, "`files`")?;
        let ranks = self.number(&spec.ranks, &env, "`ranks`")?;
        for (v, span) in [(files, spec.files.span()), (ranks, spec.ranks.span())] {
            if !(1..=MAX_SIDE).contains(&v) {
                return Err(self.at(
                    span,
                    format!("a board side must be from 1 to {MAX_SIDE}, not {v}"),
                    "out of range",
                ));
            }
        }
        let shape = spec
            .shape
            .as_ref()
            .map(|c| self.parse_expr(c).map(|e| (c, e)))
            .transpose()?;
        let mut error = None;
        let mut board = Board::new(files as u8, ranks as u8, |file, rank| {
            let Some((code, e)) = &shape else { return true };
            let env = ConstEnv {
                params,
                cell: Some((file as i64, rank as i64)),
            };
            match constant::eval(e, &env) {
                Ok(Const::Bool(b)) => b,
                Ok(Const::Int(_)) => {
                    error.get_or_insert_with(|| {
                        self.at(
                            code.span(),
                            "the board shape must be a condition",
                            "this is a number",
                        )
                    });
                    false
                }
                Err(err) => {
                    error.get_or_insert_with(|| self.lang(code, err));
                    false
                }
            }
        });
        if let Some(e) = error {
            return Err(e);
        }
        if board.is_empty() {
            let span = spec.shape.as_ref().map_or(spec.files.span(), |s| s.span());
            return Err(self.at(span, "the board has no cells", "no cell passes this shape"));
        }
        if let Some(letters) = &spec.file_letters {
            board.name_files(self.file_letters(letters, files)?);
        }
        board.hexagonal = spec.hexagonal;
        if let Some(edges) = spec.edges.as_ref().filter(|e| *e.get_ref()) {
            let clash = [
                (spec.hexagonal, "`hexagonal`"),
                (spec.lines, "`lines`"),
                (
                    (spec.links.iter().flatten()).any(|l| l.get_ref().join.is_some()),
                    "`join` links",
                ),
            ];
            if let Some((_, what)) = clash.iter().find(|(on, _)| *on) {
                return Err(self
                    .at(
                        edges.span(),
                        format!("a board with edges cannot also have {what}"),
                        "places on edges need a board of squares",
                    )
                    .with_help_box(
                        "edges and points lie between the squares of a grid: leave out `edges`, or draw the board as squares",
                    ));
            }
            board.add_places();
            let most = crate::engine::cellset::WORDS * 64;
            if board.len() > most {
                return Err(self.at(
                    edges.span(),
                    format!(
                        "this board has {} cells, edges and points in all, more than the {most} places a board may have",
                        board.len()
                    ),
                    "about 12 by 12 cells with their edges and points at most",
                ));
            }
        }
        if let Some(code) = &spec.numbers {
            board.numbers = Some(self.cell_numbers(&board, code, params, "numbers", false)?);
        }
        if let Some(code) = &spec.marks {
            let marks = self.cell_numbers(&board, code, params, "marks", true)?;
            board.marks = Some(marks.into_iter().map(|m| m != 0).collect());
        }
        let allowed = if spec.hexagonal {
            board::HEXAGONAL
        } else {
            board::ALL_DIRECTIONS
        };
        let Some(links) = &spec.links else {
            for cell in 0..board.cell_count() as board::CellId {
                for d in (0..DIRECTIONS.len()).filter(|d| allowed & (1 << d) != 0) {
                    if let Some(to) = board.neighbour(cell, d) {
                        // A cell has no link yet, so this cannot clash.
                        let _ = board.link(cell, d, to);
                    }
                }
            }
            return Ok(board);
        };
        for entry in links {
            let link = entry.get_ref();
            match (&link.dirs, &link.join) {
                (Some(dirs), None) => {
                    self.grid_links(&mut board, dirs, link.where_.as_ref(), params, allowed)?
                }
                (None, Some(join)) => {
                    if let Some(code) = &link.where_ {
                        return Err(self.at(
                            code.span(),
                            "a `join` entry takes no `where`",
                            "the lines of `join` name their cells",
                        ));
                    }
                    self.join(&mut board, join, allowed)?;
                }
                (dirs, _) => {
                    return Err(self
                        .at(
                            entry.span(),
                            "every entry of `links` has either `dirs` or `join`",
                            if dirs.is_some() {
                                "both here"
                            } else {
                                "neither here"
                            },
                        )
                        .with_help_box(
                            "`{ dirs = \"orthogonal\" }` links grid neighbours; \
                             `{ join = [\"a1 d1 g1\"] }` links the cells of a line",
                        ));
                }
            }
        }
        Ok(board)
    }

    /// `numbers` (or, with `condition`, `marks`): the constant number (or condition, 1
    /// for true) over `file` and `rank` of every cell, in cell order.
    fn cell_numbers(
        &self,
        board: &Board,
        code: &Code,
        params: &[ParamValue],
        key: &str,
        condition: bool,
    ) -> Result<Vec<i64>, Box<Diagnostic>> {
        let e = self.parse_expr(code)?;
        board
            .coords
            .iter()
            .take(board.cell_count())
            .map(|&(file, rank)| {
                let env = ConstEnv {
                    params,
                    cell: Some((file as i64, rank as i64)),
                };
                match (constant::eval(&e, &env), condition) {
                    (Ok(Const::Int(n)), false) => Ok(n),
                    (Ok(Const::Bool(b)), true) => Ok(i64::from(b)),
                    (Ok(Const::Bool(_)), false) => Err(self.at(
                        code.span(),
                        format!("`{key}` must be a number over `file` and `rank`"),
                        "this is a condition",
                    )),
                    (Ok(Const::Int(_)), true) => Err(self.at(
                        code.span(),
                        format!("`{key}` must be a condition over `file` and `rank`"),
                        "this is a number",
                    )),
                    (Err(err), _) => Err(self.lang(code, err)),
                }
            })
            .collect()
    }

    /// Adds the links of a `{ dirs, where }` entry: from each cell for which `where` holds,
    /// in each of the directions, to its grid neighbour.
    /// The letters of `[board] file_letters`, checked: a lower-case letter per file at
    /// least, none twice.
    fn file_letters(
        &self,
        letters: &Spanned<String>,
        files: i64,
    ) -> Result<Vec<char>, Box<Diagnostic>> {
        let chars: Vec<char> = letters.get_ref().chars().collect();
        let problem = if let Some(c) = chars.iter().find(|c| !c.is_ascii_lowercase()) {
            Some(format!(
                "`{}` is not a lower-case letter from a to z",
                c.escape_debug()
            ))
        } else if let Some((i, c)) =
            (chars.iter().enumerate()).find(|(i, c)| chars[..*i].contains(c))
        {
            Some(format!(
                "`{c}` names two files (the {}th letter repeats one)",
                i + 1
            ))
        } else if (chars.len() as i64) < files {
            Some(format!(
                "{} letters for {files} files: each file needs one",
                chars.len()
            ))
        } else {
            None
        };
        match problem {
            Some(problem) => Err(self.at(
                letters.span(),
                problem,
                "the letters that name the files, first to last",
            )),
            None => Ok(chars),
        }
    }

    pub(super) fn grid_links(
        &self,
        board: &mut Board,
        dirs: &Code,
        where_: Option<&Code>,
        params: &[ParamValue],
        allowed: u8,
    ) -> Result<(), Box<Diagnostic>> {
        let name = dirs.get_ref().trim();
        let mask = match DIRECTION_SETS.iter().find(|(n, _)| *n == name) {
            // On a hexagonal board the sets mean the directions it has.
            Some((_, set)) => set & allowed,
            None => {
                let d = board::direction_index(name).ok_or_else(|| {
                    self.at(dirs.span(), format!("unknown direction or set `{name}`"), "not a direction")
                        .with_help_box("directions: n, ne, e, se, s, sw, w, nw; sets: orthogonal, diagonal, all_directions")
                })?;
                if allowed & (1 << d) == 0 {
                    return Err(self
                        .at(
                            dirs.span(),
                            format!("a hexagonal board has no direction `{name}`"),
                            "not one of its six directions",
                        )
                        .with_help_box(
                            "the six directions of a hexagonal board: n, ne, e, s, sw, w",
                        ));
                }
                1 << d
            }
        };
        let cond = where_
            .map(|c| self.parse_expr(c).map(|e| (c, e)))
            .transpose()?;
        for cell in 0..board.cell_count() as board::CellId {
            let (file, rank) = board.coords[cell as usize];
            if let Some((code, e)) = &cond {
                let env = ConstEnv {
                    params,
                    cell: Some((file as i64, rank as i64)),
                };
                match constant::eval(e, &env).map_err(|err| self.lang(code, err))? {
                    Const::Bool(true) => {}
                    Const::Bool(false) => continue,
                    Const::Int(_) => {
                        return Err(self.at(
                            code.span(),
                            "a link condition must be a condition",
                            "this is a number",
                        ));
                    }
                }
            }
            for d in (0..DIRECTIONS.len()).filter(|d| mask & (1 << d) != 0) {
                if let Some(to) = board.neighbour(cell, d) {
                    board
                        .link(cell, d, to)
                        .map_err(|other| self.two_links(dirs.span(), board, cell, d, other, to))?;
                }
            }
        }
        Ok(())
    }

    /// Adds the links of a `{ join }` entry: in each line, each cell is linked to the next
    /// one and back, in the direction in which it lies.
    pub(super) fn join(
        &self,
        board: &mut Board,
        lines: &Spanned<Vec<Spanned<String>>>,
        allowed: u8,
    ) -> Result<(), Box<Diagnostic>> {
        if lines.get_ref().is_empty() {
            return Err(self.at(
                lines.span(),
                "`join` lists no line",
                "give lines of cells, such as [\"a1 d1 g1\"]",
            ));
        }
        for line in lines.get_ref() {
            let text = line.get_ref();
            // Each cell named, with where its name stands in the file.
            let mut cells = Vec::new();
            for (offset, name) in words(text) {
                let span = self.inside(line, offset..offset + name.len());
                let cell = board.find(name).ok_or_else(|| {
                    self.at(
                        span.clone(),
                        format!("no cell `{name}` on this board"),
                        "not a cell of the board",
                    )
                })?;
                cells.push((cell, span));
            }
            if cells.len() < 2 {
                return Err(self.at(
                    line.span(),
                    "a line of `join` names at least two cells",
                    "such as \"a1 d1 g1\"",
                ));
            }
            for pair in cells.windows(2) {
                let ((from, first), (to, second)) = (pair[0].clone(), pair[1].clone());
                let both = first.start..second.end;
                let name = |c: board::CellId| board.names[c as usize].clone();
                if from == to {
                    return Err(self.at(
                        second,
                        format!("`{}` is joined to itself", name(from)),
                        "the same cell twice in a row",
                    ));
                }
                let Some(dir) = board.direction_between(from, to) else {
                    return Err(self
                        .at(
                            both,
                            format!(
                                "`{}` and `{}` are not on one file, rank or diagonal",
                                name(from),
                                name(to)
                            ),
                            "no direction leads from one to the other",
                        )
                        .with_help_box(
                            "a link goes in one of the eight directions, so that `step`, \
                             `ray` and the drawing can follow it",
                        ));
                };
                let back = (dir + 4) % 8;
                if allowed & (1 << dir) == 0 {
                    return Err(self
                        .at(
                            both,
                            format!(
                                "`{}` lies to the {} of `{}`: not a direction of a hexagonal board",
                                name(to),
                                DIRECTIONS[dir].0,
                                name(from)
                            ),
                            "no link can join these two",
                        )
                        .with_help_box(
                            "the six directions of a hexagonal board: n, ne, e, s, sw, w",
                        ));
                }
                for (a, d, b) in [(from, dir, to), (to, back, from)] {
                    board
                        .link(a, d, b)
                        .map_err(|other| self.two_links(both.clone(), board, a, d, other, b))?;
                }
            }
        }
        Ok(())
    }

    /// A second link from `cell` in direction `dir` (to `new`, where `old` already is).
    pub(super) fn two_links(
        &self,
        span: Range<usize>,
        board: &Board,
        cell: board::CellId,
        dir: usize,
        old: board::CellId,
        new: board::CellId,
    ) -> Box<Diagnostic> {
        let name = |c: board::CellId| &board.names[c as usize];
        self.at(
            span,
            format!(
                "`{}` would have two links to the {}: to `{}` and to `{}`",
                name(cell),
                DIRECTIONS[dir].0,
                name(old),
                name(new)
            ),
            "a cell has at most one link in each direction",
        )
        .with_help_box(
            "`step` gives one cell per direction: join the cells of a line in order \
             (\"a1 d1 g1\"), and keep grid links off joined cells with `where`",
        )
    }

    /// Where the bytes `range` of a string value stand in the file: exactly, when the
    /// string holds them unescaped, else the whole string.
    pub(super) fn inside(&self, value: &Spanned<String>, range: Range<usize>) -> Range<usize> {
        let start = self.content_start(value) + range.start;
        let end = start + range.len();
        let same = self.src.text.get(start..end) == value.get_ref().get(range);
        if same { start..end } else { value.span() }
    }
}

impl Compiler<'_> {
    /// `[[board.tracks]]`: each track's runs checked (cells of the board, each a step from
    /// the one before within a run, at least two a run) and its ways out of each cell
    /// told apart, the tracks stored on the board in the file's order.
    pub(super) fn tracks(&self, board: &mut Board) -> Result<(), Box<Diagnostic>> {
        let Some(specs) = &self.src.file.board.tracks else {
            return Ok(());
        };
        let allowed = if board.hexagonal {
            board::HEXAGONAL
        } else {
            board::ALL_DIRECTIONS
        };
        let mut tracks = Vec::new();
        for spec in specs {
            let spec = spec.get_ref();
            let name = spec.name.get_ref();
            if spec.runs.get_ref().is_empty() {
                return Err(self.at(
                    spec.runs.span(),
                    format!("track `{name}` lists no run"),
                    "give runs of cells, such as [\"a2 b2 c2\", \"c1 b1 a1\"]",
                ));
            }
            let (mut runs, mut steps, mut where_) = (Vec::new(), Vec::new(), Vec::new());
            for run in spec.runs.get_ref() {
                let mut cells = Vec::new();
                for (offset, word) in words(run.get_ref()) {
                    let span = self.inside(run, offset..offset + word.len());
                    // A track runs over cells, not over the edges and points between.
                    let cell = (board.find(word))
                        .filter(|&c| usize::from(c) < board.cell_count())
                        .ok_or_else(|| {
                            self.at(
                                span.clone(),
                                format!("no cell `{word}` on this board"),
                                "not a cell of the board",
                            )
                        })?;
                    cells.push(cell);
                    where_.push(span);
                }
                if cells.len() < 2 {
                    return Err(self
                        .at(
                            run.span(),
                            "a run of a track names at least two cells",
                            "one cell has no direction to go on in",
                        )
                        .with_help_box(
                            "a walk leaves a run's last cell the way the run goes, so a \
                             run needs a direction: \"a2 b2 c2\"",
                        ));
                }
                let mut dirs = Vec::new();
                let first = where_.len() - cells.len();
                for (i, pair) in cells.windows(2).enumerate() {
                    let (from, to) = (pair[0], pair[1]);
                    let linked = (0..DIRECTIONS.len()).find(|&d| board.step(from, d) == Some(to));
                    let grid = (0..DIRECTIONS.len())
                        .filter(|&d| allowed & (1 << d) != 0)
                        .find(|&d| board.neighbour(from, d) == Some(to));
                    let Some(dir) = linked.or(grid) else {
                        let both = where_[first + i].start..where_[first + i + 1].end;
                        return Err(self
                            .at(
                                both,
                                format!(
                                    "`{}` does not follow `{}` on the board",
                                    board.names[to as usize], board.names[from as usize]
                                ),
                                "not linked, nor grid neighbours",
                            )
                            .with_help_box(
                                "within a run each cell is one step from the one before \
                                 (a link of the board, or a grid neighbour); start a new \
                                 run where the track jumps (a loop off the grid)",
                            ));
                    };
                    dirs.push(dir as u8);
                }
                runs.push(cells);
                steps.push(dirs);
            }
            let track = Track::new(name.clone(), &runs, &steps, spec.closed, board.len()).map_err(
                |TrackError::SameWay { first, second, dir }| {
                    self.at(
                        where_[second as usize].clone(),
                        format!(
                            "track `{name}` leaves `{}` twice to the {}",
                            board.names[track_cell(&runs, first) as usize],
                            DIRECTIONS[dir as usize].0
                        ),
                        "the same way out as an earlier visit of this cell",
                    )
                    .with_help_box(
                        "a walk starts from a cell and the direction of its first step, so \
                         two ways out of one cell need two directions",
                    )
                },
            )?;
            tracks.push(track);
        }
        board.tracks = tracks;
        Ok(())
    }
}

/// The cell at place `place` of a track given as runs.
fn track_cell(runs: &[Vec<board::CellId>], place: u16) -> board::CellId {
    runs.iter()
        .flatten()
        .nth(place as usize)
        .copied()
        .unwrap_or(0)
}
