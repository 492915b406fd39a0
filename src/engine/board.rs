//! Board topology: which cells exist, their names, and the links between them.
//!
//! Everything here is computed once when a game is compiled: the neighbour table answers
//! "the cell one step from `c` in direction `d`" with one array read.

use super::cellset;
use super::piece::NONE;
use super::track::Track;
use std::sync::atomic::{AtomicU64, Ordering};

/// The eight compass directions, in the order used for bit sets and tables.
pub const DIRECTIONS: [(&str, i32, i32); 8] = [
    ("n", 0, 1),
    ("ne", 1, 1),
    ("e", 1, 0),
    ("se", 1, -1),
    ("s", 0, -1),
    ("sw", -1, -1),
    ("w", -1, 0),
    ("nw", -1, 1),
];

/// No direction, as a value of the language (`none`).
pub const NONE_DIRECTION: i64 = -1;

/// Bit set of the four orthogonal directions.
pub const ORTHOGONAL: u8 = 0b0101_0101;
/// Bit set of the four diagonal directions.
pub const DIAGONAL: u8 = 0b1010_1010;
/// Bit set of all eight directions.
pub const ALL_DIRECTIONS: u8 = 0xff;
/// Bit set of the six directions of a hexagonal board: a hex grid drawn as a square grid
/// sheared so that each cell's six neighbours are n, ne, e, s, sw and w (its nw and se
/// squares are not next to it on the hexagon).
pub const HEXAGONAL: u8 = 0b0111_0111;

/// The named direction sets, as the language spells them.
pub const DIRECTION_SETS: [(&str, u8); 3] = [
    ("orthogonal", ORTHOGONAL),
    ("diagonal", DIAGONAL),
    ("all_directions", ALL_DIRECTIONS),
];

/// The largest board side the format accepts (cells are named `a`..`z`).
pub const MAX_SIDE: i64 = 26;

/// A cell index, dense over the cells that exist.
pub type CellId = u16;

/// A board: a grid of `files` × `ranks` with some cells present and links between them.
#[derive(Clone, Debug)]
pub struct Board {
    pub files: u8,
    pub ranks: u8,
    /// Whether the grid stands for hexagons (see [`HEXAGONAL`]): only the renderer reads
    /// it, to shift each rank by half a cell; the links already say who is next to whom.
    pub hexagonal: bool,
    /// For each cell, the number a picture writes in it (`numbers` in `[board]`), if the
    /// file gives one: only pictures read it, for games whose notation numbers cells.
    pub numbers: Option<Vec<i64>>,
    /// For each cell, whether the board is marked there (`marks` in `[board]`: star
    /// points), if the file marks any: only drawings read it.
    pub marks: Option<Vec<bool>>,
    /// For each cell: (file, rank), both counted from 1.
    pub coords: Vec<(u8, u8)>,
    /// For each cell: its name, such as `c3`.
    pub names: Vec<String>,
    /// The letters that name the files, first to last: `a` to `z` unless the file names
    /// others (a board whose files skip `i`, see [`Board::name_files`]).
    pub file_letters: Vec<char>,
    /// For each cell and direction: the linked neighbour, if any.
    pub links: Vec<[Option<CellId>; 8]>,
    /// For each cell: the directions in which it has a link, a bit each.
    link_dirs: Vec<u8>,
    /// Grid position (file-1, rank-1), row-major by rank, to cell.
    grid: Vec<Option<CellId>>,
    /// For each direction, `words` words: the set of cells that have a link that way.
    link_sets: Vec<u64>,
    /// 64-bit words in a set of cells.
    words: usize,
    /// At least the number of links of any cell.
    most_links: usize,
    /// Whether some link joins cells that are not grid neighbours (see [`Board::link`]).
    jumps: bool,
    /// Every cell, as the words of a cell set.
    all: Vec<u64>,
    /// See [`Board::one_word_steps`].
    steps: [(u64, u32); 8],
    /// Per direction set a game's filters use: that set, and per cell the words of the
    /// cells linked to it through those directions.
    neighbours: Vec<(u8, Vec<u64>)>,
    /// Per `(a, b)` a leaper's moves, per cell the words of the cells it reaches.
    leap_tables: Vec<((i64, i64), Vec<u64>)>,
    /// Sets of cells fixed by the board alone (see [`Board::add_mask`]), `words` each.
    masks: Vec<u64>,
    /// Per cell and direction, the words of the cells its ray meets (see [`Board::ray`]);
    /// worked out only for games whose filters use rays.
    rays: Vec<u64>,
    /// A number no board with other links has (see [`Board::id`]).
    id: u64,
    /// The directions whose every link has a link back in the opposite direction.
    two_way: u8,
    /// Per player, the direction their seat calls forward (or `NONE`): how each seat
    /// faces the board (`forward` in `[[players]]`); empty until the seats are known.
    pub forward: Vec<i64>,
    /// The tracks declared with the board (`[[board.tracks]]`), in the file's order: a
    /// track's name is its index here.
    pub tracks: Vec<Track>,
    /// The number of cells: the places below it are cells, those from it on the edges and
    /// points of a board with `edges = true` (see [`Board::add_places`]).
    cells: usize,
    /// Every place by its position on the grid of half steps (the cell of file `f` and
    /// rank `r` at `(2f - 1, 2r - 1)`, the edges and points between and around), row by
    /// row from `(0, 0)`, the point at the bottom left corner; empty without places.
    half: Vec<Option<CellId>>,
    /// The first point: places from [`Board::cell_count`] up to it are edges.
    first_point: usize,
    /// Per place of a board with places, the place half a step away in each direction
    /// (see [`Board::side`]).
    sides: Vec<[Option<CellId>; 8]>,
}

/// The next [`Board::id`] to hand out.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

impl Board {
    /// Builds a board of the given size with the cells for which `present(file, rank)`
    /// holds. Links are added later with [`Board::link`].
    pub fn new(files: u8, ranks: u8, mut present: impl FnMut(u8, u8) -> bool) -> Board {
        let mut coords = Vec::new();
        let mut names = Vec::new();
        let mut grid = vec![None; files as usize * ranks as usize];
        for rank in 1..=ranks {
            for file in 1..=files {
                if present(file, rank) {
                    grid[(rank as usize - 1) * files as usize + file as usize - 1] =
                        Some(coords.len() as CellId);
                    coords.push((file, rank));
                    names.push(cell_name(file, rank));
                }
            }
        }
        let links = vec![[None; 8]; coords.len()];
        let link_dirs = vec![0; coords.len()];
        let coords_len = coords.len();
        let words = coords.len().div_ceil(64).max(1);
        Board {
            files,
            ranks,
            hexagonal: false,
            numbers: None,
            marks: None,
            coords,
            names,
            file_letters: ('a'..='z').collect(),
            links,
            link_dirs,
            grid,
            link_sets: vec![0; 8 * words],
            words,
            most_links: 0,
            jumps: false,
            all: cellset::below(coords_len, words),
            steps: [(0, 0); 8],
            neighbours: Vec::new(),
            leap_tables: Vec::new(),
            masks: Vec::new(),
            rays: Vec::new(),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            two_way: 0,
            forward: Vec::new(),
            tracks: Vec::new(),
            cells: coords_len,
            half: Vec::new(),
            first_point: coords_len,
            sides: Vec::new(),
        }
    }

    /// Adds the places between cells: an edge between each two cells next to each other
    /// along a file or rank and on the board's border (a cell's side), and a point at each
    /// corner of a cell. They come after the cells, edges first, then points, each in grid
    /// order; they have no links, file and rank 0, and a name made of a cell next to them
    /// and the way to them from it (`e3n`, the edge above e3; `e3ne`, the point at its top
    /// right): the first such cell of the cell below (or left, or below left), the one
    /// above, and so on, so that a name is unique. Called before the links, on a board
    /// of squares whose files are named.
    pub fn add_places(&mut self) {
        let (w, h) = (2 * self.files as usize + 1, 2 * self.ranks as usize + 1);
        let cells = self.cells;
        let mut half = vec![None; w * h];
        for c in 0..cells {
            let (f, r) = self.coords[c];
            half[(2 * r as usize - 1) * w + 2 * f as usize - 1] = Some(c as CellId);
        }
        // (x, y) both odd: the cell ((x + 1) / 2, (y + 1) / 2).
        let cell_at = |half: &[Option<CellId>], x: i64, y: i64| -> Option<CellId> {
            let inside = (0..w as i64).contains(&x) && (0..h as i64).contains(&y);
            if !inside || x % 2 == 0 || y % 2 == 0 {
                return None;
            }
            half[y as usize * w + x as usize]
        };
        for points in [false, true] {
            let mut added = Vec::new();
            for y in 0..h {
                for x in 0..w {
                    let (even_x, even_y) = (x % 2 == 0, y % 2 == 0);
                    if (even_x && even_y) != points || !(even_x || even_y) {
                        continue;
                    }
                    // The cells around: (dx, dy) half steps to them, and the way back.
                    let around: &[(i64, i64, &str)] = match (even_x, even_y) {
                        (false, true) => &[(0, -1, "n"), (0, 1, "s")],
                        (true, false) => &[(-1, 0, "e"), (1, 0, "w")],
                        _ => &[(-1, -1, "ne"), (1, -1, "nw"), (-1, 1, "se"), (1, 1, "sw")],
                    };
                    let named = around.iter().find_map(|&(dx, dy, way)| {
                        cell_at(&half, x as i64 + dx, y as i64 + dy).map(|c| (c, way))
                    });
                    if let Some((cell, way)) = named {
                        added.push((y * w + x, format!("{}{way}", self.names[cell as usize])));
                    }
                }
            }
            if points {
                self.first_point = self.coords.len();
            }
            for (at, name) in added {
                half[at] = Some(self.coords.len() as CellId);
                self.coords.push((0, 0));
                self.names.push(name);
            }
        }
        let places = self.coords.len();
        self.links = vec![[None; 8]; places];
        self.link_dirs = vec![0; places];
        self.words = places.div_ceil(64).max(1);
        self.link_sets = vec![0; 8 * self.words];
        self.all = cellset::below(cells, self.words);
        let mut sides = vec![[None; 8]; places];
        for (at, place) in half.iter().enumerate() {
            let Some(place) = place else { continue };
            let (x, y) = ((at % w) as i64, (at / w) as i64);
            for (d, &(_, dx, dy)) in DIRECTIONS.iter().enumerate() {
                let (x, y) = (x + dx as i64, y + dy as i64);
                if (0..w as i64).contains(&x) && (0..h as i64).contains(&y) {
                    sides[*place as usize][d] = half[y as usize * w + x as usize];
                }
            }
        }
        self.sides = sides;
        self.half = half;
    }

    /// The number of cells (without the places of a board with edges: see
    /// [`Board::len`]).
    #[inline]
    pub fn cell_count(&self) -> usize {
        self.cells
    }

    /// Whether the board has places on its edges and points ([`Board::add_places`]).
    #[inline]
    pub fn has_places(&self) -> bool {
        self.cells < self.coords.len()
    }

    /// The edges of a board with places, as a range of place numbers.
    pub fn edges(&self) -> std::ops::Range<usize> {
        self.cells..self.first_point
    }

    /// The points of a board with places, as a range of place numbers.
    pub fn points(&self) -> std::ops::Range<usize> {
        self.first_point..self.coords.len()
    }

    /// The place half a step from `place` in direction `dir` on a board with places: from
    /// a cell, the edge on its side that way (orthogonal) or the point at its corner
    /// (diagonal); from an edge or a point, the cell, edge or point next to it that way.
    pub fn side(&self, place: CellId, dir: usize) -> Option<CellId> {
        self.sides.get(place as usize)?[dir]
    }

    /// The place at `(x, y)` of the grid of half steps (see [`Board::add_places`]): what
    /// a drawing of the board puts there.
    pub fn half_at(&self, x: usize, y: usize) -> Option<CellId> {
        let w = 2 * self.files as usize + 1;
        if x >= w {
            return None;
        }
        self.half.get(y * w + x).copied().flatten()
    }

    /// The letter of file `file` (counted from 1).
    pub fn file_letter(&self, file: u8) -> char {
        let i = usize::from(file).saturating_sub(1);
        self.file_letters.get(i).copied().unwrap_or('?')
    }

    /// Names the files with `letters`, one per file from the first, and every cell after
    /// them (`k10`): before links name cells.
    pub fn name_files(&mut self, letters: Vec<char>) {
        self.file_letters = letters;
        self.names = (self.coords.iter())
            .map(|&(file, rank)| format!("{}{rank}", self.file_letter(file)))
            .collect();
    }

    /// Whether every link in `dirs` has a link back in `dirs`: then two cells are joined
    /// through `dirs` both ways or neither, and the cells joined to one cell are a group
    /// every member of which is joined to the same cells.
    #[inline]
    pub fn links_both_ways(&self, dirs: u8) -> bool {
        dirs & !self.two_way == 0 && dirs.rotate_left(4) == dirs
    }

    /// A number that tells this board's links from those of every other board of the
    /// process (a copy keeps it): what results worked out from the links alone, such as
    /// the groups the group hooks remember, are filed under.
    #[inline]
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Whether every cell of the grid exists and every link is a grid step, so that a
    /// cell's index is its grid position and a step in a direction is a fixed offset of
    /// the index (see [`Board::offset`]).
    pub fn is_rectangle(&self) -> bool {
        self.len() == self.files as usize * self.ranks as usize && !self.jumps
    }

    /// Whether the cells, whatever places follow them, are every square of the grid in
    /// order and every link a grid step: then a set of cells steps along a direction by
    /// the direction's index offset ([`Board::step_set`]), as on a rectangle board.
    pub fn cells_on_grid(&self) -> bool {
        self.cells == self.files as usize * self.ranks as usize && !self.jumps
    }

    /// How a step in direction `dir` changes a cell's index on a rectangle board.
    pub fn offset(&self, dir: usize) -> isize {
        let (_, df, dr) = DIRECTIONS[dir];
        df as isize + dr as isize * self.files as isize
    }

    /// On a rectangle board of at most 64 cells, per direction: the cells linked that way
    /// and the rotation (to the left, by the direction's index offset modulo 64) that
    /// moves a set of those cells one step that way. A rotation is one instruction where
    /// a shift whose sign is known only at run time takes two; no cell linked that way
    /// wraps around, since its neighbour is on the board. What the group hooks grow
    /// groups with; worked out here, not at every step.
    #[inline]
    pub fn one_word_steps(&self) -> &[(u64, u32); 8] {
        &self.steps
    }

    /// Works out what [`Board::one_word_steps`] reads. Called once the links are final.
    pub fn settle_links(&mut self) {
        self.id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        self.two_way = (0..8)
            .filter(|&d| {
                self.links.iter().enumerate().all(|(cell, links)| {
                    links[d].is_none_or(|to| {
                        self.links[to as usize][(d + 4) % 8] == Some(cell as CellId)
                    })
                })
            })
            .fold(0, |set, d| set | 1 << d);
        self.steps = std::array::from_fn(|d| {
            let rotation = self.offset(d).rem_euclid(64) as u32;
            (self.link_sets[d * self.words], rotation)
        });
    }

    /// The cells that have a link in direction `dir`, as a bit set by cell index.
    #[inline]
    pub fn linked_that_way(&self, dir: usize) -> &[u64] {
        &self.link_sets[dir * self.words..(dir + 1) * self.words]
    }

    /// The number of places: the cells, and on a board with edges its edges and points
    /// ([`Board::add_places`]). Every table indexed by place has this many entries.
    pub fn len(&self) -> usize {
        self.coords.len()
    }

    /// Whether the board has no cell at all.
    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// The cell at (file, rank), counted from 1, if it exists.
    pub fn at(&self, file: i64, rank: i64) -> Option<CellId> {
        if file < 1 || rank < 1 || file > self.files as i64 || rank > self.ranks as i64 {
            return None;
        }
        self.grid[(rank as usize - 1) * self.files as usize + file as usize - 1]
    }

    /// The cell with this name (`c3`), ignoring case.
    pub fn find(&self, name: &str) -> Option<CellId> {
        let name = name.trim().to_ascii_lowercase();
        self.names
            .iter()
            .position(|n| *n == name)
            .map(|i| i as CellId)
    }

    /// The cell next to `cell` on the grid in direction `dir`, linked or not.
    pub fn neighbour(&self, cell: CellId, dir: usize) -> Option<CellId> {
        let (file, rank) = self.coords[cell as usize];
        let (_, df, dr) = DIRECTIONS[dir];
        self.at(file as i64 + df as i64, rank as i64 + dr as i64)
    }

    /// Links `from` to `to` in direction `dir`, one way; `to` may be any distance away
    /// (see [`Board::direction_between`]). A cell has at most one link in each direction,
    /// since `step` answers with one cell: if `from` is already linked that way to another
    /// cell, nothing changes and that cell is returned, for the caller to report.
    pub fn link(&mut self, from: CellId, dir: usize, to: CellId) -> Result<(), CellId> {
        match self.step(from, dir) {
            Some(other) if other != to => return Err(other),
            Some(_) => return Ok(()),
            None => {}
        }
        // A link to any cell but the grid neighbour that way (a distant cell, or a
        // neighbour the other way) is no step of the grid: a set of cells linked that
        // way cannot then be moved by the direction's index offset.
        if self.neighbour(from, dir) != Some(to) {
            self.jumps = true;
        }
        self.set_link(from, dir, to);
        Ok(())
    }

    /// The direction in which `to` lies from `from` when the two are on one file, rank or
    /// diagonal of the grid (`a1` to `d1` is `e`, `d1` to `a1` is `w`); `None` for a cell
    /// and itself, or two cells on no common line. A link between distant cells takes
    /// this direction, so a step along it keeps going the same way.
    pub fn direction_between(&self, from: CellId, to: CellId) -> Option<usize> {
        let (a, b) = (self.coords[from as usize], self.coords[to as usize]);
        let (df, dr) = (b.0 as i32 - a.0 as i32, b.1 as i32 - a.1 as i32);
        if (df, dr) == (0, 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            return None;
        }
        DIRECTIONS
            .iter()
            .position(|&(_, f, r)| (f, r) == (df.signum(), dr.signum()))
    }

    fn set_link(&mut self, cell: CellId, dir: usize, target: CellId) {
        // Other links: what was worked out from the old ones is not theirs (a new id,
        // and no direction known to link both ways until the links are settled again).
        self.id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        self.two_way = 0;
        self.links[cell as usize][dir] = Some(target);
        self.link_dirs[cell as usize] |= 1 << dir;
        self.link_sets[dir * self.words + cell as usize / 64] |= 1u64 << (cell % 64);
        self.steps[dir].0 = self.link_sets[dir * self.words];
        let links = self.links[cell as usize].iter().flatten().count();
        self.most_links = self.most_links.max(links);
    }

    /// The largest number of links of a cell.
    pub fn most_links(&self) -> usize {
        self.most_links
    }

    /// Every cell of the board, as the words of a cell set.
    #[inline]
    pub fn all(&self) -> &[u64] {
        &self.all
    }

    /// Adds to `out` the cells linked to `cell` through the directions of the bit set
    /// `dirs`.
    #[inline]
    pub fn add_adjacent(&self, cell: CellId, dirs: u8, out: &mut [u64]) {
        let links = &self.links[cell as usize];
        let mut left = dirs;
        while left != 0 {
            let d = left.trailing_zeros() as usize;
            left &= left - 1;
            if let Some(n) = links[d] {
                cellset::insert(out, n as usize);
            }
        }
    }

    /// The number of the table of neighbour masks through the direction set `dirs`
    /// (see [`Board::neighbours`]), made if it is new. Called once the links are final.
    pub fn neighbour_table(&mut self, dirs: u8) -> u16 {
        if let Some(i) = self.neighbours.iter().position(|(d, _)| *d == dirs) {
            return i as u16;
        }
        let mut masks = vec![0u64; self.len() * self.words];
        for cell in 0..self.len() {
            let w = self.words;
            self.add_adjacent(cell as CellId, dirs, &mut masks[cell * w..(cell + 1) * w]);
        }
        self.neighbours.push((dirs, masks));
        (self.neighbours.len() - 1) as u16
    }

    /// The cells linked to `cell` through the direction set of table `table`, as the words
    /// of a cell set: one read instead of a walk over the links.
    #[inline]
    pub fn neighbours(&self, table: u16, cell: CellId) -> &[u64] {
        let w = self.words;
        &self.neighbours[table as usize].1[cell as usize * w..(cell as usize + 1) * w]
    }

    /// Keeps in `among` the cells with a neighbour (through neighbour masks number
    /// `table`) in `set`. A few cells are each tested through their mask (on any board);
    /// on a rectangle board, many are kept where `set`, moved one step back along a
    /// direction of the table, lands on a cell linked that way: a few word operations a
    /// direction.
    pub fn near(&self, table: u16, set: &[u64], among: &mut [u64]) {
        let (dirs, _) = &self.neighbours[table as usize];
        let many = among.iter().map(|w| w.count_ones()).sum::<u32>() > 4;
        if many && self.is_rectangle() {
            let mut near = [0u64; cellset::WORDS];
            let near = &mut near[..among.len()];
            let mut left = *dirs;
            while left != 0 {
                let d = left.trailing_zeros() as usize;
                left &= left - 1;
                if let ([set], [near]) = (set, &mut *near) {
                    // One word: a step is a rotation (`one_word_steps`), here undone.
                    let (linked, rotation) = self.steps[d];
                    *near |= set.rotate_right(rotation) & linked;
                } else {
                    // A step that way adds `offset` to a cell's index, so the cells that
                    // step into `set` are `set` moved by `-offset`.
                    shift_into(set, -self.offset(d), self.linked_that_way(d), near);
                }
            }
            for (a, n) in among.iter_mut().zip(near) {
                *a &= *n;
            }
            return;
        }
        for (w, word) in among.iter_mut().enumerate() {
            let mut bits = *word;
            while bits != 0 {
                let bit = bits & bits.wrapping_neg();
                bits ^= bit;
                let cell = w * 64 + bit.trailing_zeros() as usize;
                let mask = self.neighbours(table, cell as CellId);
                if mask.iter().zip(set).all(|(m, s)| m & s == 0) {
                    *word &= !bit;
                }
            }
        }
    }

    /// Adds to `out` every cell one step from a cell of `set` through a direction of
    /// `dirs`, on a rectangle board (or one whose cells are on the grid before its places,
    /// [`Board::cells_on_grid`]): the set moved along each direction from its cells
    /// linked that way, a few word operations a direction (a group's liberties are its
    /// neighbours, found at once instead of member by member).
    pub fn step_set(&self, set: &[u64], dirs: u8, out: &mut [u64]) {
        debug_assert!(self.cells_on_grid());
        let mut left = dirs;
        while left != 0 {
            let d = left.trailing_zeros() as usize;
            left &= left - 1;
            if let ([set], [out]) = (set, &mut *out) {
                let (linked, rotation) = self.steps[d];
                *out |= (set & linked).rotate_left(rotation);
                continue;
            }
            let mut from = [0u64; cellset::WORDS];
            let from = &mut from[..set.len()];
            for ((f, s), l) in from.iter_mut().zip(set).zip(self.linked_that_way(d)) {
                *f = s & l;
            }
            shift_into(from, self.offset(d), &self.all, out);
        }
    }

    /// The number of the table of cells a leaper reaches (`leaps(c, a, b)`: `a` files and
    /// `b` ranks away, or `b` files and `a` ranks), made if it is new.
    pub fn leap_table(&mut self, a: i64, b: i64) -> u16 {
        if let Some(i) = self.leap_tables.iter().position(|(k, _)| *k == (a, b)) {
            return i as u16;
        }
        let w = self.words;
        let mut masks = vec![0u64; self.len() * w];
        for (cell, &(file, rank)) in self.coords.iter().enumerate().take(self.cells) {
            for (df, dr) in [(a, b), (b, a)] {
                for (sf, sr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    let (f, r) = (file as i64 + sf * df, rank as i64 + sr * dr);
                    if let Some(x) = self.at(f, r)
                        && x as usize != cell
                    {
                        cellset::insert(&mut masks[cell * w..(cell + 1) * w], x as usize);
                    }
                }
            }
        }
        self.leap_tables.push(((a, b), masks));
        (self.leap_tables.len() - 1) as u16
    }

    /// The cells a leaper reaches from `cell`, from the table [`Board::leap_table`] made.
    pub fn leaps(&self, table: u16, cell: CellId) -> &[u64] {
        let w = self.words;
        &self.leap_tables[table as usize].1[cell as usize * w..(cell as usize + 1) * w]
    }

    /// Keeps the cells for which `holds(file, rank)` as a mask and returns its number (the
    /// same number for the same cells).
    pub fn add_mask(&mut self, mut holds: impl FnMut(u8, u8) -> bool) -> u16 {
        let mut set = vec![0u64; self.words];
        for (cell, &(file, rank)) in self.coords.iter().enumerate().take(self.cells) {
            if holds(file, rank) {
                cellset::insert(&mut set, cell);
            }
        }
        let w = self.words;
        if let Some(i) = self.masks.chunks(w).position(|m| *m == set[..]) {
            return i as u16;
        }
        self.masks.extend_from_slice(&set);
        (self.masks.len() / w - 1) as u16
    }

    /// The mask number `i` (see [`Board::add_mask`]).
    #[inline]
    pub fn mask(&self, i: u16) -> &[u64] {
        let w = self.words;
        &self.masks[i as usize * w..(i as usize + 1) * w]
    }

    /// Works out the ray masks [`Board::ray`] reads. Called once the links are final.
    pub fn make_rays(&mut self) {
        if !self.rays.is_empty() {
            return;
        }
        let w = self.words;
        let mut rays = vec![0u64; self.len() * 8 * w];
        for cell in 0..self.len() {
            for dir in 0..8 {
                let at = (cell * 8 + dir) * w;
                let mut cur = self.step(cell as CellId, dir);
                // A ray never meets a cell twice: each step moves the same way on the grid.
                while let Some(next) = cur {
                    if cellset::contains(&rays[at..at + w], next as usize) {
                        break;
                    }
                    cellset::insert(&mut rays[at..at + w], next as usize);
                    cur = self.step(next, dir);
                }
            }
        }
        self.rays = rays;
    }

    /// Whether [`Board::make_rays`] has run.
    #[inline]
    pub fn has_rays(&self) -> bool {
        !self.rays.is_empty()
    }

    /// The cells met going from `cell` in direction `dir` following links, the cell itself
    /// excluded, as the words of a cell set ([`Board::make_rays`] must have run).
    #[inline]
    pub fn ray(&self, cell: CellId, dir: usize) -> &[u64] {
        let at = (cell as usize * 8 + dir) * self.words;
        &self.rays[at..at + self.words]
    }

    /// The neighbour of `cell` in direction `dir`, if linked.
    #[inline]
    pub fn step(&self, cell: CellId, dir: usize) -> Option<CellId> {
        self.links[cell as usize][dir]
    }

    /// [`Board::step`] on the language's values: the cell linked to `cell` in direction
    /// `dir`, or `none` ([`NONE`]) where there is no link, or `cell` or `dir` is none.
    #[inline]
    pub fn step_value(&self, cell: i64, dir: i64) -> i64 {
        if cell < 0 || !(0..DIRECTIONS.len() as i64).contains(&dir) {
            return NONE;
        }
        self.step(cell as CellId, dir as usize)
            .map_or(NONE, i64::from)
    }

    /// The directions in which `cell` has a link, a bit each.
    #[inline]
    pub fn link_dirs(&self, cell: CellId) -> u8 {
        self.link_dirs[cell as usize]
    }
}

/// Whether a step in direction `dir` goes to a higher cell index: cells are numbered rank
/// by rank, file by file, so going n, ne, nw or e does (a link follows its direction's
/// signs on any board), and the nearest cell of a ray is its lowest.
pub fn rising(dir: usize) -> bool {
    let (_, df, dr) = DIRECTIONS[dir];
    dr > 0 || (dr == 0 && df > 0)
}

/// The name of the cell at (file, rank), counted from 1: `a1`, `c3`.
pub fn cell_name(file: u8, rank: u8) -> String {
    format!("{}{}", (b'a' + file - 1) as char, rank)
}

/// The index of a direction name (`n`, `ne`, ...).
pub fn direction_index(name: &str) -> Option<usize> {
    DIRECTIONS.iter().position(|(n, _, _)| *n == name)
}

/// Adds to `out` the cells of `set` moved by `by` cell indexes (up when positive), kept
/// where `keep` has them.
fn shift_into(set: &[u64], by: isize, keep: &[u64], out: &mut [u64]) {
    let n = set.len() as isize;
    let (words, bits) = (by.div_euclid(64), by.rem_euclid(64) as u32);
    for (j, (o, k)) in out.iter_mut().zip(keep).enumerate() {
        // Bit i of `set` lands on bit i + by: word j takes word j - words shifted up
        // by `bits`, and the top of the word below it.
        let at = |i: isize| {
            if (0..n).contains(&i) {
                set[i as usize]
            } else {
                0
            }
        };
        let src = j as isize - words;
        let mut moved = at(src) << bits;
        if bits > 0 {
            moved |= at(src - 1) >> (64 - bits);
        }
        *o |= moved & k;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board stays a rectangle (whose sets step by the directions' index offsets)
    /// only while every link goes to the grid neighbour that way: a link to a neighbour
    /// in another direction, or to itself, is no grid step, as a link to a distant
    /// cell is not.
    #[test]
    fn only_grid_steps_keep_a_board_a_rectangle() {
        let (n, e) = (0, 2);
        let linked = |links: &[(i64, i64, usize, i64, i64)]| {
            let mut board = Board::new(3, 3, |_, _| true);
            for &(f, r, dir, tf, tr) in links {
                let (from, to) = (board.at(f, r).unwrap(), board.at(tf, tr).unwrap());
                board.link(from, dir, to).unwrap();
            }
            board.settle_links();
            board.is_rectangle()
        };
        assert!(linked(&[(1, 1, e, 2, 1), (1, 1, n, 1, 2)]));
        // b1 is a neighbour of a1, but to the east, not the north.
        assert!(!linked(&[(1, 1, n, 2, 1)]));
        assert!(!linked(&[(2, 2, e, 2, 2)]));
        assert!(!linked(&[(1, 1, e, 3, 1)]));
    }
}
