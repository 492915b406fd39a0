//! Ctrl-C in `play`: while a bot thinks, it stops the bot, not the program.
//!
//! The handler only sets a flag the thinking bot reads ([`crate::bots::Bot::choose_or_stop`]);
//! at any other moment it does what Ctrl-C always does, so a session waiting on a pipe
//! can still be interrupted. On a terminal the line editor reads Ctrl-C at the prompt as
//! a key (it cancels the line), so the signal only comes while the program is busy.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set while a bot thinks.
static THINKING: AtomicBool = AtomicBool::new(false);

/// Set by Ctrl-C while a bot thinks; the bot stops when it sees it.
static STOP: AtomicBool = AtomicBool::new(false);

/// The flag a thinking bot watches.
pub fn stop_flag() -> &'static AtomicBool {
    &STOP
}

/// Routes Ctrl-C (SIGINT) through [`on_interrupt`] for the rest of the process.
pub fn install() {
    #[cfg(unix)]
    {
        let handler: extern "C" fn(libc::c_int) = on_interrupt;
        // SAFETY: the handler only touches atomics and calls `signal` and `raise`, both
        // async-signal-safe.
        unsafe {
            libc::signal(libc::SIGINT, handler as libc::sighandler_t);
        }
    }
}

/// Stops the thinking bot; when none thinks, puts Ctrl-C back to its default (ending the
/// program) and raises it again.
#[cfg(unix)]
extern "C" fn on_interrupt(_: libc::c_int) {
    if THINKING.load(Ordering::SeqCst) {
        STOP.store(true, Ordering::SeqCst);
    } else {
        // SAFETY: both calls are async-signal-safe.
        unsafe {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            libc::raise(libc::SIGINT);
        }
    }
}

/// A bot thinking: Ctrl-C stops it until this is dropped.
pub struct Thinking(());

impl Thinking {
    pub fn start() -> Thinking {
        STOP.store(false, Ordering::SeqCst);
        THINKING.store(true, Ordering::SeqCst);
        Thinking(())
    }

    /// Whether Ctrl-C came while the bot thought.
    pub fn stopped(&self) -> bool {
        STOP.load(Ordering::SeqCst)
    }
}

impl Drop for Thinking {
    fn drop(&mut self) {
        THINKING.store(false, Ordering::SeqCst);
    }
}
