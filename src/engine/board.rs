//! Board topology: which cells exist, their names, and the links between them.
//!
//! Everything here is computed once when a game is compiled: the neighbour table answers
//! "the cell one step from `c` in direction `d`" with one array read.

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

/// Bit set of the four orthogonal directions.
pub const ORTHOGONAL: u8 = 0b0101_0101;
/// Bit set of the four diagonal directions.
pub const DIAGONAL: u8 = 0b1010_1010;
/// Bit set of all eight directions.
pub const ALL_DIRECTIONS: u8 = 0xff;

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
    /// For each cell: (file, rank), both counted from 1.
    pub coords: Vec<(u8, u8)>,
    /// For each cell: its name, such as `c3`.
    pub names: Vec<String>,
    /// For each cell and direction: the linked neighbour, if any.
    pub links: Vec<[Option<CellId>; 8]>,
    /// Grid position (file-1, rank-1), row-major by rank, to cell.
    grid: Vec<Option<CellId>>,
    /// For each direction, `words` words: the set of cells that have a link that way.
    link_sets: Vec<u64>,
    /// 64-bit words in a set of cells.
    words: usize,
    /// At least the number of links of any cell.
    most_links: usize,
    /// Whether some link joins cells that are not grid neighbours (see [`Board::join`]).
    jumps: bool,
}

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
        let words = coords.len().div_ceil(64).max(1);
        Board {
            files,
            ranks,
            coords,
            names,
            links,
            grid,
            link_sets: vec![0; 8 * words],
            words,
            most_links: 0,
            jumps: false,
        }
    }

    /// Whether every cell of the grid exists and every link is a grid step, so that a
    /// cell's index is its grid position and a step in a direction is a fixed offset of
    /// the index (see [`Board::offset`]).
    pub fn is_rectangle(&self) -> bool {
        self.len() == self.files as usize * self.ranks as usize && !self.jumps
    }

    /// How a step in direction `dir` changes a cell's index on a rectangle board.
    pub fn offset(&self, dir: usize) -> isize {
        let (_, df, dr) = DIRECTIONS[dir];
        df as isize + dr as isize * self.files as isize
    }

    /// The cells that have a link in direction `dir`, as a bit set by cell index.
    #[inline]
    pub fn linked_that_way(&self, dir: usize) -> &[u64] {
        &self.link_sets[dir * self.words..(dir + 1) * self.words]
    }

    /// The number of cells.
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

    /// Adds the links of direction `dir` from `cell` to the grid neighbour, if it exists.
    pub fn link(&mut self, cell: CellId, dir: usize) {
        let (file, rank) = self.coords[cell as usize];
        let (_, df, dr) = DIRECTIONS[dir];
        let target = self.at(file as i64 + df as i64, rank as i64 + dr as i64);
        self.set_link(cell, dir, target);
    }

    /// Links `from` to `to` both ways, whatever their distance: the direction of each way
    /// is the one whose signs match the step between them (`a1` to `d1` is `e`, back is
    /// `w`). Returns the direction from `from`, or `None` when the two are the same cell.
    pub fn join(&mut self, from: CellId, to: CellId) -> Option<usize> {
        let dir = self.direction_between(from, to)?;
        let back = self.direction_between(to, from)?;
        let (a, b) = (self.coords[from as usize], self.coords[to as usize]);
        let (df, dr) = (a.0.abs_diff(b.0), a.1.abs_diff(b.1));
        if df > 1 || dr > 1 {
            self.jumps = true;
        }
        self.set_link(from, dir, Some(to));
        self.set_link(to, back, Some(from));
        Some(dir)
    }

    /// The direction whose signs match the step from `from` to `to`, or `None` for a cell
    /// and itself.
    pub fn direction_between(&self, from: CellId, to: CellId) -> Option<usize> {
        let (a, b) = (self.coords[from as usize], self.coords[to as usize]);
        let df = (b.0 as i32 - a.0 as i32).signum();
        let dr = (b.1 as i32 - a.1 as i32).signum();
        DIRECTIONS
            .iter()
            .position(|&(_, f, r)| (f, r) == (df, dr))
    }

    fn set_link(&mut self, cell: CellId, dir: usize, target: Option<CellId>) {
        self.links[cell as usize][dir] = target;
        let word = &mut self.link_sets[dir * self.words + cell as usize / 64];
        let bit = 1u64 << (cell % 64);
        if target.is_some() {
            *word |= bit;
        } else {
            *word &= !bit;
        }
        let links = self.links[cell as usize].iter().flatten().count();
        self.most_links = self.most_links.max(links);
    }

    /// An upper bound on the number of links of a cell (exact unless links were removed).
    pub fn most_links(&self) -> usize {
        self.most_links
    }

    /// The neighbour of `cell` in direction `dir`, if linked.
    #[inline]
    pub fn step(&self, cell: CellId, dir: usize) -> Option<CellId> {
        self.links[cell as usize][dir]
    }
}

/// The name of the cell at (file, rank), counted from 1: `a1`, `c3`.
pub fn cell_name(file: u8, rank: u8) -> String {
    format!("{}{}", (b'a' + file - 1) as char, rank)
}

/// The index of a direction name (`n`, `ne`, ...).
pub fn direction_index(name: &str) -> Option<usize> {
    DIRECTIONS.iter().position(|(n, _, _)| *n == name)
}
