//! Tracks: named paths of cells declared with the board (`[[board.tracks]]`), along which
//! the `track_*` natives walk, so that circuits and paths that bend are data rather than
//! coordinate arithmetic.
//!
//! A track is a list of places, each a cell; a cell may be a place more than once (a
//! circuit that crosses itself). Its places come in runs: within a run each place is a
//! step from the one before (a link or a grid neighbour, so the step has a direction);
//! from the last place of a run to the first of the next the track jumps (a loop drawn
//! off the grid, a bridge), and a closed track jumps from its last run back to its first.
//!
//! A walk starts from a cell and a **way**, a direction: the direction of its first step
//! when that step is within a run, or, when it is a jump, the direction of the run it
//! leaves, continued. The ways of a cell are different directions (checked at load), so a
//! way names one place of the cell and one sense of travel. Nothing here reads a position:
//! the walks take what they ask of it (is a cell occupied) as a closure.

/// A cell, as `board::CellId` numbers it (this module sits below the board).
type Cell = u16;

/// One way a walk may leave a cell: the place it starts from and the sense it goes in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Way {
    /// The direction that names it (see the module's documentation).
    pub dir: u8,
    /// The place of the track it starts from.
    pub place: u16,
    /// Whether it goes towards the track's later places.
    pub forward: bool,
}

/// A compiled track: its places, where it jumps, and the ways out of each of its cells.
#[derive(Clone, Debug)]
pub struct Track {
    /// Its name in the game file.
    pub name: String,
    /// Its places in order, each a cell.
    pub places: Vec<Cell>,
    /// Whether the last place leads back to the first (by a jump).
    pub closed: bool,
    /// For each place: whether the track jumps from it to the next place (the last place
    /// of a run; the very last of an open track jumps nowhere, and is `false`).
    pub jumps: Vec<bool>,
    /// For each place: the way out of it going forward, and going backward (`None` at the
    /// ends of an open track).
    outs: Vec<[Option<u8>; 2]>,
    /// For each cell of the board (by index): the ways out of it along this track, in
    /// direction order.
    ways: Vec<Vec<Way>>,
}

/// What is wrong with a track, for the loader to say where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrackError {
    /// Two ways out of one cell have the same direction: the places of the cell (by
    /// index) and the direction.
    SameWay { first: u16, second: u16, dir: u8 },
}

impl Track {
    /// A track from its runs of places with the direction of each step within a run
    /// (`steps[r][i]` from place `i` to `i + 1` of run `r`), on a board of `cells` cells.
    /// Every run has at least two places, so that each jump continues a direction.
    pub fn new(
        name: String,
        runs: &[Vec<Cell>],
        steps: &[Vec<u8>],
        closed: bool,
        cells: usize,
    ) -> Result<Track, TrackError> {
        let mut places = Vec::new();
        let mut jumps = Vec::new();
        let mut outs = Vec::new();
        let last_run = runs.len().saturating_sub(1);
        for (r, (run, dirs)) in runs.iter().zip(steps).enumerate() {
            for (i, &cell) in run.iter().enumerate() {
                places.push(cell);
                let end = i + 1 == run.len();
                jumps.push(end && (closed || r < last_run));
                // Forward: the step within the run, or the run's direction continued into
                // a jump (none at the end of an open track).
                let forward = if !end {
                    Some(dirs[i])
                } else if closed || r < last_run {
                    Some(dirs[i - 1])
                } else {
                    None
                };
                // Backward: the step before, reversed; from a run's first place, the
                // run's direction reversed into the jump back (none at an open start).
                let backward = if i > 0 {
                    Some((dirs[i - 1] + 4) % 8)
                } else if closed || r > 0 {
                    Some((dirs[0] + 4) % 8)
                } else {
                    None
                };
                outs.push([forward, backward]);
            }
        }
        let mut ways: Vec<Vec<Way>> = vec![Vec::new(); cells];
        for (place, (&cell, out)) in places.iter().zip(&outs).enumerate() {
            for (dir, forward) in [(out[0], true), (out[1], false)] {
                let Some(dir) = dir else { continue };
                let list = &mut ways[cell as usize];
                if let Some(other) = list.iter().find(|w| w.dir == dir) {
                    return Err(TrackError::SameWay {
                        first: other.place,
                        second: place as u16,
                        dir,
                    });
                }
                list.push(Way {
                    dir,
                    place: place as u16,
                    forward,
                });
            }
        }
        for list in &mut ways {
            list.sort_by_key(|w| w.dir);
        }
        Ok(Track {
            name,
            places,
            closed,
            jumps,
            outs,
            ways,
        })
    }

    /// The ways out of a cell along this track, in direction order (none off the track).
    pub fn ways(&self, cell: i64) -> &[Way] {
        usize::try_from(cell)
            .ok()
            .and_then(|c| self.ways.get(c))
            .map_or(&[], Vec::as_slice)
    }

    /// The way out of `cell` named `dir`, if the track has one.
    pub fn way(&self, cell: i64, dir: i64) -> Option<Way> {
        self.ways(cell)
            .iter()
            .find(|w| w.dir as i64 == dir)
            .copied()
    }

    /// The walk from a way: each place it reaches, in order, with the number of jumps
    /// passed to reach it, going at most once round (on a closed track the last place is
    /// the one it started from; on an open one, the end).
    pub fn walk(&self, way: Way) -> impl Iterator<Item = (Cell, u32)> + '_ {
        let n = self.places.len();
        let mut place = way.place as usize;
        let mut jumps = 0u32;
        let mut left = if self.closed { n } else { usize::MAX };
        std::iter::from_fn(move || {
            if left == 0 {
                return None;
            }
            left -= 1;
            let next = if way.forward {
                // None at the end of an open track.
                self.outs[place][0]?;
                jumps += self.jumps[place] as u32;
                (place + 1) % n
            } else {
                // None at the start of an open track.
                self.outs[place][1]?;
                let before = (place + n - 1) % n;
                jumps += self.jumps[before] as u32;
                before
            };
            place = next;
            Some((self.places[place], jumps))
        })
    }
}
