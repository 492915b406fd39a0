//! Records of games: the JSON Lines trace written by `selfplay --trace`, and the
//! plain-text transcripts that `play` saves and `replay` checks, and the one way files
//! are read (bounded) and written (atomically); board diagrams for starting from a
//! position; and plies as numbers ([`ids`]), for programs that store them.

pub mod diagram;
pub mod file;
pub mod ids;
pub mod pgn;
pub mod position_text;
pub mod trace;
pub mod transcript;
