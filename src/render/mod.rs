//! Drawing positions as text and as pictures (SVG, and HTML pages that step through a
//! game), and printing text from outside the program safely.

pub mod board;
pub mod picture;
pub mod text;
