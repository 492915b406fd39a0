//! The one integration-test binary: every suite is a module here.

mod common;
mod diagnostics;
