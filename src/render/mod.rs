//! Drawing positions as text, and printing text from outside the program safely.

pub mod board;
pub mod text;
