//! Drawing positions as text.

pub mod board;
