//! The one integration-test binary: every suite is a module here.

mod allocations;
mod bots;
mod bounce_reference;
mod cli;
mod common;
mod diagnostics;
mod docs;
mod facts;
mod fast;
mod fast_engines;
mod format;
mod fuzz;
mod go;
mod hooks;
mod invariants;
mod positions;
mod properties;
mod reference;
mod semantics;
mod sight;
mod splut;
mod traces;
mod traces_morris;
mod traces_splut;
mod traces_vlkno_sight;
mod vlkno;
