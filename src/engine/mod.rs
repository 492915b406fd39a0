//! The interpreter: board topology, positions, compiled programs, natives and the rules
//! that generate and play plies.

pub mod board;
pub mod eval;
pub mod game;
pub mod hooks;
pub mod natives;
pub mod program;
pub mod state;
