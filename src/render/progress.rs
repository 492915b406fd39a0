//! Progress on standard error for the commands that run long (`perft`, `check`'s probe,
//! `match`): drawn only when standard error is a terminal, so that pipes, files and
//! tests read exactly what they read without it.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressFinish, ProgressStyle};

/// A progress bar of `len` steps (a spinner when `len` is `None`) drawn on standard
/// error with indicatif's `template`, its `{msg}` first `message`, redrawn every half second so that its clock moves
/// between steps, and cleared when dropped (on an error too); hidden, drawing nothing,
/// when standard error is not a terminal.
pub fn progress(len: Option<u64>, template: &str, message: String) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = match len {
        Some(len) => ProgressBar::new(len),
        None => ProgressBar::new_spinner(),
    }
    .with_finish(ProgressFinish::AndClear);
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar.set_message(message);
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}
