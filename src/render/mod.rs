//! Drawing positions as text, printing text from outside the program safely, and
//! progress on a terminal.

pub mod board;
pub mod progress;
pub mod text;
