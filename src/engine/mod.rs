//! The interpreter: board topology, positions, compiled programs, natives, the rules
//! that generate and play plies, and the random draws of plies that playouts use.

pub mod action;
pub mod board;
pub mod cellset;
pub mod chain;
pub mod check_before;
pub mod code;
pub mod draw;
pub mod effect;
pub mod eval;
pub mod flow;
pub mod fold;
pub mod game;
pub mod generate;
pub mod hooks;
pub mod kept;
pub mod lowering;
pub mod natives;
pub mod overlay;
pub mod piece;
pub mod precheck;
pub mod program;
pub mod radix;
pub mod sample;
pub mod shape;
pub mod sift;
pub mod stack_test;
pub mod stacks;
pub mod state;
pub mod track;
