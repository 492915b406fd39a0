//! Drawing positions as text and as pictures (SVG, and HTML pages that step through a
//! game), printing text from outside the program safely, lists of plies in natural
//! order, and progress on a terminal.

pub mod board;
pub mod order;
pub mod picture;
pub mod progress;
pub mod text;
