//! Native hooks: generic mechanics that are awkward or slow to write in the language.
//!
//! Each file holds one family of hooks; each is registered by name in `natives.rs` and
//! documented in `docs/game-format.md`.

pub mod groups;
pub mod line_of_sight;
pub mod push;
