//! The static types of the expression language.
//!
//! Every expression is checked before a game is played, so evaluation never meets a value
//! of the wrong kind and can carry all scalars as plain integers.

use std::fmt;

/// The type of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    Int,
    Bool,
    /// A board cell, or `none`.
    Cell,
    /// A player, or `none`.
    Player,
    /// A piece kind, or `none`.
    Kind,
    /// One of the eight compass directions, or `none`.
    Dir,
    /// A set of directions (`orthogonal`, `diagonal`, `all_directions`).
    DirSet,
    /// A track declared with the board (`[[board.tracks]]`), by its name, or `none`.
    Track,
    /// The literal `none`, which fits any of the nullable types above.
    Nothing,
    /// A list of integers, compared element by element (used for scores).
    IntList,
    /// A collection that a binding or aggregate ranges over.
    Cells,
    Players,
    Dirs,
    Kinds,
    /// A range of numbers (`range(a, b)`), ranged over by aggregates and `for`.
    Numbers,
    Tracks,
}

impl Type {
    /// The type a parameter declaration names (`number`, `condition`, `cell`, `player`,
    /// `kind`, `direction`, `directions`, `track`).
    pub fn named(name: &str) -> Option<Type> {
        Some(match name {
            "number" => Type::Int,
            "condition" => Type::Bool,
            "cell" => Type::Cell,
            "player" => Type::Player,
            "kind" => Type::Kind,
            "direction" => Type::Dir,
            "directions" => Type::DirSet,
            "track" => Type::Track,
            _ => return None,
        })
    }

    /// The element type of a collection type.
    pub fn element(self) -> Option<Type> {
        match self {
            Type::Cells => Some(Type::Cell),
            Type::Players => Some(Type::Player),
            Type::Dirs => Some(Type::Dir),
            Type::Kinds => Some(Type::Kind),
            Type::Numbers => Some(Type::Int),
            Type::Tracks => Some(Type::Track),
            _ => None,
        }
    }

    /// The collection type whose elements are of this type.
    pub fn collection(self) -> Option<Type> {
        match self {
            Type::Cell => Some(Type::Cells),
            Type::Player => Some(Type::Players),
            Type::Dir => Some(Type::Dirs),
            Type::Kind => Some(Type::Kinds),
            Type::Track => Some(Type::Tracks),
            _ => None,
        }
    }

    /// Whether `none` is a value of this type.
    pub fn nullable(self) -> bool {
        matches!(
            self,
            Type::Cell | Type::Player | Type::Kind | Type::Dir | Type::Track | Type::Nothing
        )
    }

    /// Whether a value of type `self` may stand where `wanted` is expected.
    pub fn fits(self, wanted: Type) -> bool {
        self == wanted || (self == Type::Nothing && wanted.nullable())
    }

    /// Whether values of the two types can be compared with `==`.
    pub fn comparable(a: Type, b: Type) -> bool {
        a.fits(b) || b.fits(a)
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Type::Int => "a number",
            Type::Bool => "a condition (true/false)",
            Type::Cell => "a cell",
            Type::Player => "a player",
            Type::Kind => "a piece kind",
            Type::Dir => "a direction",
            Type::DirSet => "a set of directions",
            Type::Track => "a track",
            Type::Nothing => "none",
            Type::IntList => "a list of numbers",
            Type::Cells => "a collection of cells",
            Type::Players => "a collection of players",
            Type::Dirs => "a collection of directions",
            Type::Kinds => "a collection of piece kinds",
            Type::Numbers => "a range of numbers",
            Type::Tracks => "a collection of tracks",
        })
    }
}
