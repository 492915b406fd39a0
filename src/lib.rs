//! rulebook: plays any board game described in a text file.
//!
//! The pipeline is visible in the modules: [`spec`] loads a game file, [`lang`] parses its
//! expressions, [`compile`] checks them and builds a [`engine::game::Game`], and the
//! [`engine`] runs it for the command line, the bots, the REPL and [`tournament`]s.

pub mod analyze;
pub mod bench;
pub mod bots;
pub mod cli;
pub mod compile;
pub mod engine;
pub mod lang;
pub mod load;
pub mod record;
pub mod render;
pub mod repl;
pub mod spec;
pub mod tournament;
