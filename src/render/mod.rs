//! Drawing positions as text, printing text from outside the program safely, lists of
//! plies in natural order, and progress on a terminal.

pub mod board;
pub mod order;
pub mod progress;
pub mod text;
