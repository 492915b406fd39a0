//! The expression language: its syntax tree, its parser and its types.
//!
//! Game files hold short expressions (conditions, effects, bindings). They are parsed here
//! into an AST that owns no pest types, so the checker and the compiler never depend on the
//! parser library.

pub mod ast;
pub mod parser;
pub mod types;
