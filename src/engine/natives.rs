//! The one table of native functions, collections and effects that game files call by name.
//!
//! Every entry is generic: it speaks of cells, stacks, owners, kinds and directions, never
//! of a particular game. Hooks for mechanics that are awkward to write in the language
//! (group sizes, ...) live in `hooks/` and are registered here like any other entry.

use super::board::{Board, CellId, DIRECTIONS};
pub use super::hooks::Elems;
use super::hooks::{Edit, View, groups, line_of_sight, push};
use super::state::{EMPTY_TOP, Journal, NEUTRAL, NONE, Piece, State};
use crate::lang::types::Type;

/// What a native function sees: the board (with the direction each seat calls
/// forward), the position (which knows how many players and kinds the game has) and the
/// player `me`. Natives, hooks and compiled expressions see this, never the whole game, so
/// that nothing below `engine::game` depends on it.
pub struct Ctx<'a> {
    pub board: &'a Board,
    pub state: &'a State,
    pub me: u8,
}

impl Ctx<'_> {
    /// What a hook may read of it ([`View`]).
    #[inline]
    pub fn view(&self) -> View<'_> {
        View {
            board: self.board,
            state: self.state,
        }
    }
}

/// What an effect sees: the same, with the position open for change through a journal.
pub struct Mut<'a> {
    pub board: &'a Board,
    pub state: &'a mut State,
    pub journal: &'a mut Journal,
    pub me: u8,
}

impl Mut<'_> {
    /// What a hook may change of it ([`Edit`]).
    pub fn edit(&mut self) -> Edit<'_> {
        Edit {
            board: self.board,
            state: self.state,
            journal: self.journal,
        }
    }

    /// What an expression evaluated amid the effect reads: the position as it is now.
    #[inline(always)]
    pub fn ctx(&self) -> Ctx<'_> {
        Ctx {
            board: self.board,
            state: self.state,
            me: self.me,
        }
    }
}

// The commonest reads of a cell, which compiled expressions call straight.

/// `owner(cell)`: the top piece's owner, `none` for an empty cell, a neutral top or no cell.
#[inline]
pub fn owner_of(c: &Ctx, cell: i64) -> i64 {
    if cell < 0 {
        return NONE;
    }
    match c.state.top_code(cell as CellId) {
        EMPTY_TOP => NONE,
        code if code as u8 == NEUTRAL => NONE,
        code => (code & 0xff) as i64,
    }
}

/// `top(cell)`: the top piece's kind.
#[inline]
pub fn top_of(c: &Ctx, cell: i64) -> i64 {
    if cell < 0 {
        return NONE;
    }
    match c.state.top_code(cell as CellId) {
        EMPTY_TOP => NONE,
        code => (code >> 8) as i64,
    }
}

/// `height(cell)`: the pieces in its stack (0 for no cell).
#[inline]
pub fn height_of(c: &Ctx, cell: i64) -> i64 {
    if cell < 0 {
        0
    } else {
        c.state.stack(cell as CellId).len() as i64
    }
}

/// `empty(cell)` (false for no cell).
#[inline]
pub fn empty_of(c: &Ctx, cell: i64) -> i64 {
    (cell >= 0 && c.state.top_code(cell as CellId) == EMPTY_TOP) as i64
}

/// How many pieces of kind `kind` the stack on `cell` holds (0 for none).
pub fn count_kind(c: &Ctx, cell: i64, kind: i64) -> i64 {
    if cell < 0 {
        return 0;
    }
    c.state
        .stack(cell as CellId)
        .iter()
        .filter(|p| p.kind as i64 == kind)
        .count() as i64
}

/// A native function: arguments in, one value out.
pub type NativeFn = fn(&Ctx, &[i64]) -> i64;
/// A native collection: arguments in, elements appended.
pub type SetFn = fn(&Ctx, &[i64], &mut Elems);
/// A native effect: changes the position.
pub type EffectFn = fn(&mut Mut, &[i64]);

/// The behaviour behind a table entry.
#[derive(Clone, Copy)]
pub enum Entry {
    Value(NativeFn),
    Set(SetFn),
    Effect(EffectFn),
}

/// One entry of the table: a name, a signature, a one-line description and the code.
pub struct Native {
    pub name: &'static str,
    pub params: &'static [Type],
    /// The result type (`Bool` for effects, which return nothing).
    pub ret: Type,
    pub doc: &'static str,
    pub entry: Entry,
}

use Type::*;

macro_rules! native {
    ($name:literal, [$($p:expr),*], $ret:expr, $doc:literal, $kind:ident($f:expr)) => {
        Native { name: $name, params: &[$($p),*], ret: $ret, doc: $doc, entry: Entry::$kind($f) }
    };
}

/// Every native function, collection and effect, in the order the reference lists them.
pub static NATIVES: &[Native] = &[
    // --- the turn ---
    native!(
        "me",
        [],
        Player,
        "The player to move (in end rules: the player who just played; in scores: the player scored).",
        Value(|c, _| c.me as i64)
    ),
    native!(
        "turn",
        [],
        Int,
        "The turn number, from 1.",
        Value(|c, _| c.state.turn as i64)
    ),
    native!(
        "ply_in_turn",
        [],
        Int,
        "Which ply of the current turn this is, from 1.",
        Value(|c, _| c.state.ply_in_turn as i64)
    ),
    native!(
        "plies",
        [],
        Int,
        "Plies played since the start.",
        Value(|c, _| c.state.plies as i64)
    ),
    native!(
        "repetitions",
        [],
        Int,
        "How many times the position (board, variables and who just played, as `me` leaves it) occurred before, from the start; 0 the first time. In end rules: the position the ply just made.",
        Value(|c, _| c.state.repetitions(c.me))
    ),
    native!(
        "board_repeated",
        [],
        Bool,
        "Whether the board (the stacks alone) is one that occurred after an earlier ply or at the start: in a check, the board the ply makes (positional superko).",
        Value(|c, _| c.state.board_repeated() as i64)
    ),
    native!(
        "alive",
        [Player],
        Bool,
        "Whether the player is still in the game.",
        Value(|c, a| (a[0] >= 0 && c.state.is_alive(a[0] as u8)) as i64)
    ),
    native!(
        "forward",
        [Player],
        Dir,
        "The direction the player's seat calls forward (`forward` in `[[players]]`), or none.",
        Value(|c, a| c
            .board
            .forward
            .get(a[0].max(0) as usize)
            .copied()
            .filter(|_| a[0] >= 0)
            .unwrap_or(NONE))
    ),
    native!(
        "next",
        [Player],
        Player,
        "The next player still in the game after this one, in turn order.",
        Value(next_player)
    ),
    // --- cells and stacks ---
    native!(
        "empty",
        [Cell],
        Bool,
        "Whether a cell holds no piece (false for none).",
        Value(|c, a| (a[0] >= 0 && c.state.top_code(a[0] as CellId) == EMPTY_TOP) as i64)
    ),
    native!(
        "height",
        [Cell],
        Int,
        "The number of pieces on a cell (0 for none).",
        Value(|c, a| if a[0] < 0 {
            0
        } else {
            c.state.stack(a[0] as CellId).len() as i64
        })
    ),
    native!(
        "top",
        [Cell],
        Kind,
        "The kind of the top piece of a cell, or none.",
        Value(|c, a| top_code(c, a[0]).map_or(NONE, |code| (code >> 8) as i64))
    ),
    native!(
        "owner",
        [Cell],
        Player,
        "The owner of the top piece of a cell; none if empty or neutral.",
        Value(|c, a| top_code(c, a[0]).map_or(NONE, |code| owner_value(code as u8)))
    ),
    native!(
        "has",
        [Cell, Kind],
        Bool,
        "Whether a cell's stack holds a piece of this kind.",
        Value(|c, a| (count_kind(c, a[0], a[1]) > 0) as i64)
    ),
    native!(
        "pieces",
        [Cell, Kind],
        Int,
        "How many pieces of this kind a cell's stack holds.",
        Value(|c, a| count_kind(c, a[0], a[1]))
    ),
    native!(
        "moved_turn",
        [Cell],
        Int,
        "The turn in which the top piece of a cell last moved or was placed (0: never; 0 for an empty cell).",
        Value(|c, a| top(c, a[0]).map_or(0, |p| p.moved as i64))
    ),
    native!(
        "moved_in",
        [Cell, Int],
        Bool,
        "Whether the top piece of a cell moved or was placed during the given turn (`turn` for this one, `turn - 1` for the one before; exact for the two latest turns in which it moved; false for an empty cell and for turn 0, the setup).",
        Value(|c, a| top(c, a[0]).is_some_and(|p| p.moved_in(a[1])) as i64)
    ),
    // --- geometry ---
    native!(
        "file",
        [Cell],
        Int,
        "The file of a cell, from 1 (a = 1).",
        Value(|c, a| if a[0] < 0 {
            0
        } else {
            c.board.coords[a[0] as usize].0 as i64
        })
    ),
    native!(
        "rank",
        [Cell],
        Int,
        "The rank of a cell, from 1.",
        Value(|c, a| if a[0] < 0 {
            0
        } else {
            c.board.coords[a[0] as usize].1 as i64
        })
    ),
    native!(
        "cell",
        [Int, Int],
        Cell,
        "The cell at (file, rank), or none.",
        Value(|c, a| c.board.at(a[0], a[1]).map_or(NONE, |x| x as i64))
    ),
    native!(
        "step",
        [Cell, Dir],
        Cell,
        "The cell linked to this one in a direction, or none.",
        Value(|c, a| step(c, a[0], a[1]))
    ),
    native!(
        "beside",
        [Cell, Dir],
        Cell,
        "On a board with edges, the place half a step away in a direction: from a cell, the edge on its side (orthogonal) or the point at its corner (diagonal); from an edge or point, the place next to it; none elsewhere.",
        Value(|c, a| beside(c, a[0], a[1]))
    ),
    native!(
        "first_empty",
        [Cell, Dir],
        Cell,
        "The first empty cell going from a cell (itself included) in a direction, following links; `none` if the edge comes first. Where `push(cell, dir)` would make room.",
        Value(|c, a| push::first_empty(c.board, c.state, a))
    ),
    native!(
        "opposite",
        [Dir],
        Dir,
        "The opposite direction (n <-> s, ne <-> sw, ...).",
        Value(|_, a| if a[0] < 0 { NONE } else { (a[0] + 4) % 8 })
    ),
    native!(
        "abs",
        [Int],
        Int,
        "The absolute value.",
        Value(|_, a| a[0].saturating_abs())
    ),
    native!(
        "min",
        [Int, Int],
        Int,
        "The smaller of two numbers.",
        Value(|_, a| a[0].min(a[1]))
    ),
    native!(
        "max",
        [Int, Int],
        Int,
        "The larger of two numbers.",
        Value(|_, a| a[0].max(a[1]))
    ),
    // --- hooks ---
    native!(
        "group_size",
        [Cell],
        Int,
        "Hook: the size of the orthogonally connected group of cells whose top pieces have the same kind and owner as this cell's (0 for an empty cell).",
        Value(|c, a| groups::group_size(&c.view(), a[0], super::board::ORTHOGONAL as i64))
    ),
    native!(
        "group_size",
        [Cell, DirSet],
        Int,
        "Hook: as above, connected through the given directions.",
        Value(|c, a| groups::group_size(&c.view(), a[0], a[1]))
    ),
    native!(
        "groups",
        [Player],
        Int,
        "Hook: the number of orthogonally connected groups of the player's pieces (by top piece).",
        Value(|c, a| groups::group_count(
            &c.view(),
            a[0],
            super::board::ORTHOGONAL as i64,
            u32::MAX
        ))
    ),
    native!(
        "groups",
        [Player, DirSet],
        Int,
        "Hook: as above, connected through the given directions.",
        Value(|c, a| groups::group_count(&c.view(), a[0], a[1], u32::MAX))
    ),
    native!(
        "liberties",
        [Cell],
        Int,
        "Hook: how many empty cells are orthogonally linked to the group of a cell (0 for an empty cell).",
        Value(|c, a| groups::liberties(&c.view(), a[0], super::board::ORTHOGONAL as i64))
    ),
    native!(
        "liberties",
        [Cell, DirSet],
        Int,
        "Hook: as above, through the given directions.",
        Value(|c, a| groups::liberties(&c.view(), a[0], a[1]))
    ),
    native!(
        "encloses",
        [Cell],
        Bool,
        "Hook: whether the orthogonally connected group of a cell goes around some cell (of the group or not) that its other cells cut off from the rim of the board.",
        Value(|c, a| groups::encloses(&c.view(), a[0], super::board::ORTHOGONAL as i64) as i64)
    ),
    native!(
        "encloses",
        [Cell, DirSet],
        Bool,
        "Hook: as above, connected (and cut off) through the given directions.",
        Value(|c, a| groups::encloses(&c.view(), a[0], a[1]) as i64)
    ),
    native!(
        "run",
        [Cell, Dir],
        Int,
        "Hook: how many cells in a row from a cell (itself excluded) in a direction have a top piece of the same kind and owner as its own.",
        Value(|c, a| groups::run(&c.view(), a[0], a[1]))
    ),
    native!(
        "first_seen",
        [Cell, Dir],
        Cell,
        "Hook: the first occupied cell seen from a cell along a direction, following links; none at the edge.",
        Value(|c, a| line_of_sight::first_seen(&c.view(), a[0], a[1]))
    ),
    // --- collections ---
    native!(
        "cells",
        [],
        Cells,
        "Every cell of the board, in order a1, b1, ..., then a2, ...",
        Set(|c, _, out| out.extend((0..c.board.cell_count()).map(|i| i as i64)))
    ),
    native!(
        "edges",
        [],
        Cells,
        "The edges of a board with `edges = true`: each side between two cells and on the border, a row of them at a time from the bottom left; none on other boards.",
        Set(|c, _, out| out.extend(c.board.edges().map(|i| i as i64)))
    ),
    native!(
        "points",
        [],
        Cells,
        "The points of a board with `edges = true`: each corner of a cell, a row at a time from the bottom left; none on other boards.",
        Set(|c, _, out| out.extend(c.board.points().map(|i| i as i64)))
    ),
    native!(
        "all_players",
        [],
        Players,
        "Every player of this game, in turn order (eliminated ones too).",
        Set(|c, _, out| out.extend((0..c.state.players()).map(|i| i as i64)))
    ),
    native!(
        "kinds",
        [],
        Kinds,
        "Every piece kind of this game, in the order of their names (as [pieces] sorts them).",
        Set(|c, _, out| out.extend((0..c.state.kinds()).map(|i| i as i64)))
    ),
    native!(
        "adjacent",
        [Cell],
        Cells,
        "The cells linked to a cell, in direction order n, ne, e, ... nw.",
        Set(|c, a, out| adjacent(c, a[0], 0xff, out))
    ),
    native!(
        "adjacent",
        [Cell, DirSet],
        Cells,
        "The cells linked to a cell through the given directions.",
        Set(|c, a, out| adjacent(c, a[0], a[1], out))
    ),
    native!(
        "directions",
        [Cell],
        Dirs,
        "The directions in which a cell has a link.",
        Set(|c, a, out| directions(c, a[0], 0xff, out))
    ),
    native!(
        "directions",
        [Cell, DirSet],
        Dirs,
        "The directions of the given set in which a cell has a link.",
        Set(|c, a, out| directions(c, a[0], a[1], out))
    ),
    native!(
        "slide",
        [Cell, Dir],
        Cells,
        "The cells met going from a cell in a direction, nearest first, up to the first occupied cell (itself and the cell excluded): where a sliding piece may stop.",
        Set(slide)
    ),
    native!(
        "ray",
        [Cell, Dir],
        Cells,
        "The cells met going from a cell in a direction, nearest first, the cell itself excluded.",
        Set(ray)
    ),
    native!(
        "range",
        [Int, Int],
        Numbers,
        "The numbers from a up to b, b excluded, in increasing order (none if b <= a); at most 65,536 of them.",
        Set(range)
    ),
    native!(
        "group",
        [Cell],
        Cells,
        "Hook: the cells of the group of a cell (connected orthogonally, same kind and owner on top), in cell order; none for an empty cell.",
        Set(|c, a, out| group(c, a[0], super::board::ORTHOGONAL as i64, out))
    ),
    native!(
        "group",
        [Cell, DirSet],
        Cells,
        "Hook: as above, connected through the given directions.",
        Set(|c, a, out| group(c, a[0], a[1], out))
    ),
    native!(
        "empty_region",
        [Cell],
        Cells,
        "Hook: the empty cells connected orthogonally to an empty cell through empty cells, itself included, in cell order; none for an occupied cell.",
        Set(|c, a, out| empty_region(c, a[0], super::board::ORTHOGONAL as i64, out))
    ),
    native!(
        "empty_region",
        [Cell, DirSet],
        Cells,
        "Hook: as above, connected through the given directions.",
        Set(|c, a, out| empty_region(c, a[0], a[1], out))
    ),
    native!(
        "reachable",
        [Cell],
        Cells,
        "Hook: the cells reached from a cell (itself included) by orthogonal steps that cross no occupied edge, in cell order; pieces on cells do not block. Without edges, the cells linked to it.",
        Set(|c, a, out| reachable(c, a[0], super::board::ORTHOGONAL as i64, out))
    ),
    native!(
        "reachable",
        [Cell, DirSet],
        Cells,
        "Hook: as above, through the given directions (a diagonal step is blocked by a piece on the point it crosses).",
        Set(|c, a, out| reachable(c, a[0], a[1], out))
    ),
    native!(
        "leaps",
        [Cell, Int, Int],
        Cells,
        "The cells a leaper reaches from a cell: `a` files and `b` ranks away, or `b` files and `a` ranks, every way round (`leaps(c, 1, 2)`: one file and two ranks, or two and one), each once.",
        Set(leaps)
    ),
    native!(
        "visible",
        [Cell],
        Cells,
        "Hook: the occupied cells in line of sight of a cell, the first along each linked direction.",
        Set(|c, a, out| line_of_sight::visible(&c.view(), a[0], 0xff, out))
    ),
    native!(
        "visible",
        [Cell, DirSet],
        Cells,
        "Hook: as above, looking only along the given directions.",
        Set(|c, a, out| line_of_sight::visible(&c.view(), a[0], a[1], out))
    ),
    // --- tracks ---
    native!(
        "tracks",
        [],
        Tracks,
        "Every track of the board, in the order the file declares them.",
        Set(|c, _, out| out.extend((0..c.board.tracks.len()).map(|i| i as i64)))
    ),
    native!(
        "track_ways",
        [Track, Cell],
        Dirs,
        "The ways a walk along a track can leave a cell (each the direction of its first step, or of the run it jumps from), in direction order; none off the track.",
        Set(track_ways)
    ),
    native!(
        "track_step",
        [Track, Cell, Dir],
        Cell,
        "The cell a walk along a track from a cell, the given way, reaches first; none at an open track's end or for a way the cell has not.",
        Value(|c, a| walk(c, a)
            .and_then(|mut w| w.next())
            .map_or(NONE, |(x, _)| x as i64))
    ),
    native!(
        "track_ray",
        [Track, Cell, Dir],
        Cells,
        "The cells a walk along a track from a cell, the given way, meets, each once where first met, nearest first, the cell itself excluded; once round a closed track at most.",
        Set(track_ray)
    ),
    native!(
        "track_slide",
        [Track, Cell, Dir],
        Cells,
        "The cells of `track_ray` before the first occupied cell the walk meets, the cell it starts from counting as empty: where a piece walking the track may stop.",
        Set(track_slide)
    ),
    native!(
        "track_first",
        [Track, Cell, Dir],
        Cell,
        "The first occupied cell a walk along a track from a cell, the given way, meets, the cell it starts from counting as empty; none if it meets none.",
        Value(|c, a| track_first(c, a).map_or(NONE, |(x, _)| x as i64))
    ),
    native!(
        "track_jumps",
        [Track, Cell, Dir, Cell],
        Int,
        "How many jumps (from a run's last cell to the next run's first) a walk along a track from a cell, the given way, passes before it first meets the last cell; -1 if it never meets it.",
        Value(|c, a| walk(c, a)
            .and_then(|mut w| w.find(|&(x, _)| x as i64 == a[3]))
            .map_or(-1, |(_, j)| j as i64))
    ),
    // --- effects ---
    native!(
        "move",
        [Cell, Cell],
        Bool,
        "Effect: move the whole stack of the first cell on top of the second.",
        Effect(|m, a| move_pieces(m, a[0], a[1], usize::MAX))
    ),
    native!(
        "move_top",
        [Cell, Cell],
        Bool,
        "Effect: move the top piece of the first cell on top of the second.",
        Effect(|m, a| move_pieces(m, a[0], a[1], 1))
    ),
    native!(
        "push",
        [Cell, Dir],
        Bool,
        "Effect: shift the unbroken line of occupied cells that starts at a cell one step in a direction, farthest stack first, into the first empty cell beyond it; does nothing if the edge comes first (nothing is pushed off the board): test with `first_empty`.",
        Effect(|m, a| push::push(&mut m.edit(), a))
    ),
    native!(
        "push_off",
        [Cell, Dir],
        Bool,
        "Effect: as `push`, but where the edge comes before an empty cell, the stack at the edge leaves the board and the rest of the line shifts one step after it.",
        Effect(|m, a| push::push_off(&mut m.edit(), a))
    ),
    native!(
        "place",
        [Cell, Kind],
        Bool,
        "Effect: put a new neutral piece of this kind on top of a cell.",
        Effect(|m, a| place(m, a[0], a[1], NONE))
    ),
    native!(
        "place",
        [Cell, Kind, Player],
        Bool,
        "Effect: put a new piece of this kind owned by the player on top of a cell.",
        Effect(|m, a| place(m, a[0], a[1], a[2]))
    ),
    native!(
        "remove",
        [Cell],
        Bool,
        "Effect: remove every piece from a cell.",
        Effect(|m, a| remove(m, a[0], usize::MAX))
    ),
    native!(
        "remove_top",
        [Cell],
        Bool,
        "Effect: remove the top piece of a cell.",
        Effect(|m, a| remove(m, a[0], 1))
    ),
    native!(
        "eliminate",
        [Player],
        Bool,
        "Effect: the player leaves the game; every piece they own leaves the board and their turns are skipped.",
        Effect(eliminate)
    ),
    native!(
        "end_turn",
        [],
        Bool,
        "Effect: the current turn ends after this ply, whatever plies it had left.",
        Effect(|m, _| m.journal.end_turn(m.state))
    ),
];

fn owner_value(owner: u8) -> i64 {
    if owner == NEUTRAL { NONE } else { owner as i64 }
}

fn top_code(c: &Ctx, cell: i64) -> Option<u16> {
    if cell < 0 {
        return None;
    }
    Some(c.state.top_code(cell as CellId)).filter(|&code| code != EMPTY_TOP)
}

fn top<'a>(c: &'a Ctx, cell: i64) -> Option<&'a Piece> {
    if cell < 0 {
        None
    } else {
        c.state.top(cell as CellId)
    }
}

/// `step(cell, dir)`: see [`Board::step_value`].
#[inline]
pub fn step(c: &Ctx, cell: i64, dir: i64) -> i64 {
    c.board.step_value(cell, dir)
}

fn next_player(c: &Ctx, a: &[i64]) -> i64 {
    if a[0] < 0 {
        return NONE;
    }
    let n = c.state.players() as i64;
    (1..=n)
        .map(|k| (a[0] + k) % n)
        .find(|&p| c.state.is_alive(p as u8))
        .unwrap_or(NONE)
}

fn adjacent(c: &Ctx, cell: i64, set: i64, out: &mut Elems) {
    if cell < 0 {
        return;
    }
    for d in 0..DIRECTIONS.len() {
        if set & (1 << d) != 0
            && let Some(n) = c.board.step(cell as CellId, d)
        {
            out.push(n as i64);
        }
    }
}

fn directions(c: &Ctx, cell: i64, set: i64, out: &mut Elems) {
    if cell < 0 {
        return;
    }
    for d in 0..DIRECTIONS.len() {
        if set & (1 << d) != 0 && c.board.step(cell as CellId, d).is_some() {
            out.push(d as i64);
        }
    }
}

fn group(c: &Ctx, cell: i64, dirs: i64, out: &mut Elems) {
    let mut set = [0u64; super::cellset::WORDS];
    groups::group_cells(&c.view(), cell, dirs, &mut set);
    out.extend(super::cellset::members(&set[..c.state.words()]).map(|x| x as i64));
}

fn empty_region(c: &Ctx, cell: i64, dirs: i64, out: &mut Elems) {
    let mut set = [0u64; super::cellset::WORDS];
    groups::empty_region(&c.view(), cell, dirs, &mut set);
    out.extend(super::cellset::members(&set[..c.state.words()]).map(|x| x as i64));
}

fn reachable(c: &Ctx, cell: i64, dirs: i64, out: &mut Elems) {
    let mut set = [0u64; super::cellset::WORDS];
    groups::reachable(&c.view(), cell, dirs, &mut set);
    out.extend(super::cellset::members(&set[..c.state.words()]).map(|x| x as i64));
}

/// `beside(place, dir)`: see [`Board::side`].
fn beside(c: &Ctx, place: i64, dir: i64) -> i64 {
    if place < 0 || !(0..DIRECTIONS.len() as i64).contains(&dir) {
        return NONE;
    }
    c.board
        .side(place as CellId, dir as usize)
        .map_or(NONE, i64::from)
}

fn leaps(c: &Ctx, a: &[i64], out: &mut Elems) {
    // A place between cells has no file and rank to leap from.
    let Some(&(file, rank)) = usize::try_from(a[0])
        .ok()
        .filter(|&x| x < c.board.cell_count())
        .and_then(|x| c.board.coords.get(x))
    else {
        return;
    };
    let (p, q) = (a[1], a[2]);
    for (df, dr) in [(p, q), (q, p)] {
        for (sf, sr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let (f, r) = (file as i64 + sf * df, rank as i64 + sr * dr);
            if let Some(x) = c.board.at(f, r).map(i64::from)
                && x != a[0]
                && !out.contains(&x)
            {
                out.push(x);
            }
        }
    }
}

/// The directions of a set, in direction order: what `d in orthogonal` ranges over.
pub fn each_direction(_: &Ctx, a: &[i64], out: &mut Elems) {
    out.extend((0..8).filter(|d| a[0] & (1 << d) != 0));
}

fn slide(c: &Ctx, a: &[i64], out: &mut Elems) {
    let mut cur = step(c, a[0], a[1]);
    while cur >= 0 && out.len() <= c.board.len() && c.state.top_code(cur as CellId) == EMPTY_TOP {
        out.push(cur);
        cur = step(c, cur, a[1]);
    }
}

/// The most numbers a `range` holds: a loop over numbers is bounded, whatever its bounds
/// say, as a chain of plays is.
pub const MOST_RANGE: i64 = 65_536;

/// `range(a, b)`: a, a + 1, ... up to b excluded, at most [`MOST_RANGE`] of them.
fn range(_: &Ctx, a: &[i64], out: &mut Elems) {
    let end = a[1].min(a[0].saturating_add(MOST_RANGE));
    if a[0] < end {
        out.extend(a[0]..end);
    }
}

fn ray(c: &Ctx, a: &[i64], out: &mut Elems) {
    let mut cur = step(c, a[0], a[1]);
    while cur >= 0 && out.len() <= c.board.len() {
        out.push(cur);
        cur = step(c, cur, a[1]);
    }
}

/// The walk of `track_*(track, cell, way)`, if the cell has that way out.
fn walk<'a>(c: &Ctx<'a>, a: &[i64]) -> Option<impl Iterator<Item = (CellId, u32)> + 'a> {
    let track = c.board.tracks.get(usize::try_from(a[0]).ok()?)?;
    let way = track.way(a[1], a[2])?;
    Some(track.walk(way))
}

fn track_ways(c: &Ctx, a: &[i64], out: &mut Elems) {
    if let Some(track) = usize::try_from(a[0])
        .ok()
        .and_then(|t| c.board.tracks.get(t))
    {
        out.extend(track.ways(a[1]).iter().map(|w| w.dir as i64));
    }
}

/// The cells of a walk, each once where first met, the start excluded, up to (and not
/// including) the first occupied cell when `stop`.
fn track_cells(c: &Ctx, a: &[i64], stop: bool, out: &mut Elems) {
    let Some(walk) = walk(c, a) else { return };
    let mut seen = [0u64; super::cellset::WORDS];
    for (x, _) in walk {
        if x as i64 == a[1] {
            continue;
        }
        if stop && c.state.top_code(x) != EMPTY_TOP {
            return;
        }
        let (word, bit) = (x as usize / 64, 1u64 << (x % 64));
        if seen[word] & bit == 0 {
            seen[word] |= bit;
            out.push(x as i64);
        }
    }
}

fn track_ray(c: &Ctx, a: &[i64], out: &mut Elems) {
    track_cells(c, a, false, out);
}

fn track_slide(c: &Ctx, a: &[i64], out: &mut Elems) {
    track_cells(c, a, true, out);
}

/// The first occupied cell of a walk other than its start, with the jumps passed to it.
fn track_first(c: &Ctx, a: &[i64]) -> Option<(CellId, u32)> {
    walk(c, a)?.find(|&(x, _)| x as i64 != a[1] && c.state.top_code(x) != EMPTY_TOP)
}

pub(crate) fn move_pieces(m: &mut Mut, from: i64, to: i64, count: usize) {
    if from < 0 || to < 0 || from == to {
        return;
    }
    m.journal
        .transfer(m.state, from as CellId, to as CellId, count);
}

fn place(m: &mut Mut, cell: i64, kind: i64, owner: i64) {
    if cell < 0 || kind < 0 {
        return;
    }
    let owner = if owner < 0 { NEUTRAL } else { owner as u8 };
    let piece = Piece::new(kind as u8, owner, m.state.turn);
    m.journal.edit(m.state, cell as CellId, |s| s.push(piece));
}

fn remove(m: &mut Mut, cell: i64, count: usize) {
    if cell < 0 {
        return;
    }
    m.journal.edit(m.state, cell as CellId, |stack| {
        let keep = stack.len().saturating_sub(count);
        stack.truncate(keep);
    });
}

fn eliminate(m: &mut Mut, a: &[i64]) {
    if a[0] < 0 || !m.state.is_alive(a[0] as u8) {
        return;
    }
    let who = a[0] as u8;
    for cell in 0..m.state.stacks().len() as CellId {
        if m.state.stack(cell).iter().any(|p| p.owner == who) {
            m.journal
                .edit(m.state, cell, |s| s.retain(|p| p.owner != who));
        }
    }
    let alive = m.state.alive & !(1 << who);
    m.journal.set_alive(m.state, alive);
}

/// What the effect `name` can change at most, if that is bounded (a push moves a whole
/// line, eliminating a player clears every cell they hold): see [`Edits`].
pub fn cells_edited(name: &str) -> Option<Edits> {
    let (cells, tops) = match name {
        "move" => (2, 0),
        "move_top" => (2, 1),
        "place" | "remove_top" => (1, 1),
        "remove" => (1, 0),
        "end_turn" => (0, 0),
        _ => return None,
    };
    Some(Edits {
        cells,
        tops,
        named: 0,
    })
}

/// Which arguments of the effect `name` are the cells it edits, when they are all named
/// by its arguments (see [`cells_edited`]).
pub fn edited_cell_args(name: &str) -> &'static [usize] {
    match name {
        "move" | "move_top" => &[0, 1],
        "place" | "remove_top" | "remove" => &[0],
        _ => &[],
    }
}

/// The entries with this name (several when a function has optional arguments).
pub fn lookup(name: &str) -> impl Iterator<Item = &'static Native> + '_ {
    NATIVES.iter().filter(move |n| n.name == name)
}

/// What an effect can do to the sets of a later part, where that is bounded: change the
/// stacks of at most `cells` cells, and add at most `tops` cells to a set of tops
/// ([`SetExpr::of_tops`](super::program::SetExpr::of_tops)): none for a whole stack moved or removed, one for a piece put
/// down or a top piece moved or removed (which shows the piece under it). `named` has a
/// bit per local slot (below 64) holding a cell that one of the `cells` edits names, a
/// name chosen by the action before the effect and kept to its end: a later set that
/// leaves that name's cell out ([`SetBound::excluded`](super::program::SetBound::excluded)) cannot gain it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Edits {
    pub cells: u32,
    pub tops: u32,
    pub named: u64,
}

impl Edits {
    /// One effect's, then another's.
    pub fn then(self, next: Edits) -> Edits {
        Edits {
            cells: self.cells + next.cells,
            tops: self.tops + next.tops,
            named: self.named | next.named,
        }
    }

    /// One effect's or another's, whichever is played (a name counts only where both
    /// edit its cell: the larger count of cells less the names both share still bounds
    /// either).
    pub fn either(self, other: Edits) -> Edits {
        Edits {
            cells: self.cells.max(other.cells),
            tops: self.tops.max(other.tops),
            named: self.named & other.named,
        }
    }

    /// How many cells these edits can add to a set of cells that depends on each cell's
    /// own stack (a set of tops when `tops`) and leaves out the cells of the names in
    /// `excluded`: each excluded name that an edit names accounts for one edit that adds
    /// nothing.
    pub fn gained(self, tops: bool, excluded: u64) -> u32 {
        if tops {
            self.tops
        } else {
            self.cells
                .saturating_sub((self.named & excluded).count_ones())
        }
    }
}
