//! The one integration-test binary: every suite is a module here.

mod cli;
mod common;
mod diagnostics;
mod facts;
mod properties;
mod reference;
mod traces;
