//! Ctrl-C in `play`: it never ends the program with a game unsaved.
//!
//! While a bot thinks, Ctrl-C stops the bot (it plays its best so far). Any other press,
//! while the program waits for a line or on its way to the next one, comes back from the
//! read as `Line::Interrupted`, and the loop treats it as `quit` does: it offers to save
//! an unsaved game (on a pipe, where nobody can answer, it saves the game to a new file).
//! A press soon after one stopped a bot is that press repeated, and is ignored
//! ([`just_stopped`]). Three presses while the program stays busy (not reading) leave it,
//! and then the game is saved first ([`rescue`]).
//!
//! The handler only touches atomics and writes a byte to a pipe ([`wait_readable`] wakes
//! on it, so a press that comes just before a read begins is not lost); a watcher thread
//! does what a handler may not (write a file, print).

use std::sync::Mutex;
#[cfg(unix)]
use std::sync::atomic::AtomicI32;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Set while a bot thinks.
static THINKING: AtomicBool = AtomicBool::new(false);

/// Set by Ctrl-C while a bot thinks; the bot stops when it sees it.
static STOP: AtomicBool = AtomicBool::new(false);

/// Ctrl-C presses not yet taken by the reader ([`take_press`]).
static PRESSES: AtomicUsize = AtomicUsize::new(0);

/// Every press that came while the program was busy (neither thinking nor reading), for
/// the watcher to count. Told apart in the handler, at the press, not when the watcher
/// looks: a watcher that sampled the reading flag took presses answered by the reader for
/// busy ones whenever it looked between two reads, and left a game that was not stuck.
static BUSY: AtomicUsize = AtomicUsize::new(0);

/// Set while the program waits for a line: a press then belongs to the reader.
static READING: AtomicBool = AtomicBool::new(false);

/// How many reads have started: busy presses with a read between them are not a program
/// that stays busy.
static READS: AtomicUsize = AtomicUsize::new(0);

/// The pipe a press writes a byte to (read end, write end; -1 before [`install`]): a
/// reader that polls it with its input wakes on a press whenever it came, where a read
/// interrupted by the signal misses the press that comes after its check and before the
/// read blocks.
#[cfg(unix)]
static WAKE: [AtomicI32; 2] = [AtomicI32::new(-1), AtomicI32::new(-1)];

/// Set when the handler has written to [`WAKE`] and the reader has not drained it: the
/// pipe holds at most one byte, so the handler's write never fails (nor changes `errno`
/// under the call it interrupted).
#[cfg(unix)]
static WOKEN: AtomicBool = AtomicBool::new(false);

/// When Ctrl-C last stopped a bot: a press soon after is part of that one
/// ([`GRACE`]).
static STOPPED_AT: Mutex<Option<Instant>> = Mutex::new(None);

/// How long after Ctrl-C stopped a bot another press is taken as part of the same one (a
/// double press), not as a request to leave.
const GRACE: Duration = Duration::from_millis(1500);

/// The game as a transcript, while it has not been saved, and where it was played.
static UNSAVED: Mutex<Option<Unsaved>> = Mutex::new(None);

/// How many presses within [`BUSY_WINDOW`] leave a program that stays busy.
const BUSY_PRESSES: usize = 3;
const BUSY_WINDOW: Duration = Duration::from_secs(5);

/// A game not saved yet: its transcript, and the name [`rescue`] starts from.
struct Unsaved {
    text: String,
    stem: String,
}

/// The flag a thinking bot watches.
pub fn stop_flag() -> &'static AtomicBool {
    &STOP
}

/// Routes Ctrl-C (SIGINT) through [`on_interrupt`] for the rest of the process, and
/// starts the watcher. A read blocked on a pipe is interrupted by it (no `SA_RESTART`), so
/// the reader sees the press; one that waits in [`wait_readable`] sees it whenever it came.
pub fn install() {
    #[cfg(unix)]
    {
        open_wake();
        // SAFETY: `sigaction` is given a zeroed, then filled, struct that lives through the
        // call; the handler only touches atomics, which is async-signal-safe.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            let handler: extern "C" fn(libc::c_int) = on_interrupt;
            action.sa_sigaction = handler as libc::sighandler_t;
            libc::sigemptyset(&mut action.sa_mask);
            action.sa_flags = 0;
            libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut());
        }
    }
    std::thread::spawn(watch);
}

/// Opens the [`WAKE`] pipe (once; without it a read is woken by the signal alone).
#[cfg(unix)]
fn open_wake() {
    if WAKE[0].load(Ordering::SeqCst) >= 0 {
        return;
    }
    let mut fds = [-1; 2];
    // SAFETY: `pipe2` writes two descriptors into the array it is given.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_NONBLOCK | libc::O_CLOEXEC) } == 0 {
        WAKE[0].store(fds[0], Ordering::SeqCst);
        WAKE[1].store(fds[1], Ordering::SeqCst);
    }
}

#[cfg(unix)]
extern "C" fn on_interrupt(_: libc::c_int) {
    if THINKING.load(Ordering::SeqCst) {
        STOP.store(true, Ordering::SeqCst);
    } else {
        PRESSES.fetch_add(1, Ordering::SeqCst);
        if !READING.load(Ordering::SeqCst) {
            BUSY.fetch_add(1, Ordering::SeqCst);
        }
        let wake = WAKE[1].load(Ordering::SeqCst);
        if wake >= 0 && !WOKEN.swap(true, Ordering::SeqCst) {
            // SAFETY: `write` is async-signal-safe; the byte lives through the call.
            unsafe { libc::write(wake, [1u8].as_ptr().cast(), 1) };
        }
    }
}

/// Waits until the descriptor `fd` has input (or its end), or a Ctrl-C press is pending:
/// then `Err(Interrupted)`, and [`take_press`] takes the press. Without the pipe of
/// [`install`] it returns at once and the read that follows is interrupted as it may be.
#[cfg(unix)]
pub fn wait_readable(fd: std::os::fd::RawFd) -> std::io::Result<()> {
    let wake = WAKE[0].load(Ordering::SeqCst);
    if wake < 0 {
        return Ok(());
    }
    loop {
        // Drained before the presses are looked at: a press after the look writes anew.
        WOKEN.store(false, Ordering::SeqCst);
        let mut sink = [0u8; 64];
        // SAFETY: reads into a buffer of the length given; the pipe does not block.
        while unsafe { libc::read(wake, sink.as_mut_ptr().cast(), sink.len()) } > 0 {}
        if PRESSES.load(Ordering::SeqCst) > 0 {
            return Err(std::io::ErrorKind::Interrupted.into());
        }
        let mut fds = [
            libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: wake,
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        // SAFETY: polls the two entries of the array it is given, with no time limit.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) };
        if ready < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() != std::io::ErrorKind::Interrupted {
                return Err(e);
            }
        } else if fds[0].revents != 0 {
            return Ok(());
        }
    }
}

/// Counts the presses that come while the program is busy (neither thinking nor reading);
/// after [`BUSY_PRESSES`] of them within [`BUSY_WINDOW`], with no read between them, it
/// saves the game and leaves.
fn watch() {
    let mut busy: Vec<Instant> = Vec::new();
    let mut seen = 0;
    let mut reads = 0;
    loop {
        std::thread::sleep(Duration::from_millis(50));
        let now_reads = READS.load(Ordering::SeqCst);
        if now_reads != reads {
            reads = now_reads;
            busy.clear();
        }
        let total = BUSY.load(Ordering::SeqCst);
        let n = total - seen;
        seen = total;
        if n == 0 {
            continue;
        }
        let now = Instant::now();
        busy.retain(|&t| now.duration_since(t) < BUSY_WINDOW);
        busy.extend(std::iter::repeat_n(now, n));
        if busy.len() >= BUSY_PRESSES {
            match rescue() {
                Some(Ok(path)) => eprintln!("\nCtrl-C: the game was saved to {path}; leaving"),
                Some(Err(e)) => eprintln!("\nCtrl-C: leaving; the game could not be saved: {e}"),
                None => eprintln!("\nCtrl-C: leaving"),
            }
            std::process::exit(130);
        }
        if busy.len() == 1 {
            // Taken at the next prompt, where it offers to leave; said only if it lasts.
            continue;
        }
        eprintln!(
            "\n(busy: Ctrl-C {} more time{} within {} s leaves, saving the game first)",
            BUSY_PRESSES - busy.len(),
            if BUSY_PRESSES - busy.len() == 1 {
                ""
            } else {
                "s"
            },
            BUSY_WINDOW.as_secs()
        );
    }
}

/// Keeps the game's transcript for [`rescue`] while it is unsaved (`None` once saved).
/// `stem` starts the name of the file it would be saved to (`my-game-7`).
pub fn keep_unsaved(unsaved: Option<(String, String)>) {
    if let Ok(mut kept) = UNSAVED.lock() {
        *kept = unsaved.map(|(text, stem)| Unsaved { text, stem });
    }
}

/// Saves the unsaved game kept by [`keep_unsaved`] to a new file in the working folder
/// (`STEM-unsaved.txt`, or `STEM-unsaved-2.txt` and on: no file is ever replaced), or in
/// the temporary folder when the working one is not writable. `None` when the game was
/// saved; else the path written, or why nothing could be.
pub fn rescue() -> Option<Result<String, String>> {
    let kept = UNSAVED.lock().ok()?;
    let unsaved = kept.as_ref()?;
    let mut last = String::new();
    for folder in [std::path::PathBuf::new(), std::env::temp_dir()] {
        for n in 1..1000 {
            let name = match n {
                1 => format!("{}-unsaved.txt", unsaved.stem),
                n => format!("{}-unsaved-{n}.txt", unsaved.stem),
            };
            let path = folder.join(name);
            match crate::record::file::write_new(&path, &unsaved.text) {
                Ok(()) => return Some(Ok(path.to_string_lossy().into_owned())),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    last = e.to_string();
                    break;
                }
            }
        }
    }
    Some(Err(last))
}

/// Whether Ctrl-C was pressed since the last call (taken by the reader).
pub fn take_press() -> bool {
    PRESSES.swap(0, Ordering::SeqCst) > 0
}

/// Whether Ctrl-C stopped a bot within the last [`GRACE`]: a press at the prompt now is
/// the same press repeated, and is ignored.
pub fn just_stopped() -> bool {
    STOPPED_AT
        .lock()
        .is_ok_and(|at| at.is_some_and(|t| t.elapsed() < GRACE))
}

/// The program waiting for a line: the watcher leaves presses to the reader.
pub struct Reading(());

impl Reading {
    pub fn start() -> Reading {
        READS.fetch_add(1, Ordering::SeqCst);
        READING.store(true, Ordering::SeqCst);
        Reading(())
    }
}

impl Drop for Reading {
    fn drop(&mut self) {
        READING.store(false, Ordering::SeqCst);
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
        if STOP.load(Ordering::SeqCst)
            && let Ok(mut at) = STOPPED_AT.lock()
        {
            *at = Some(Instant::now());
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// A pipe standing for standard input, on which nothing ever comes.
    fn silent_input() -> (i32, i32) {
        let mut fds = [-1; 2];
        // SAFETY: `pipe` writes two descriptors into the array it is given.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        (fds[0], fds[1])
    }

    /// Waits on `input` in a thread of its own: what the wait gave, or `None` if it was
    /// still waiting after `press` ran and ten seconds more.
    fn wait_through(input: i32, press: impl FnOnce()) -> Option<std::io::ErrorKind> {
        let (done, finished) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = done.send(wait_readable(input).map_err(|e| e.kind()));
        });
        press();
        let woke = finished.recv_timeout(Duration::from_secs(10)).ok()?;
        Some(woke.err().unwrap_or(std::io::ErrorKind::Other))
    }

    #[test]
    fn a_press_ends_a_wait_whether_it_came_before_it_or_in_another_thread() {
        open_wake();
        let (input, _writer) = silent_input();
        // Before the wait: no read would ever see it, as no signal comes during the read.
        on_interrupt(libc::SIGINT);
        let before = wait_through(input, || ());
        assert_eq!(before, Some(std::io::ErrorKind::Interrupted));
        assert!(take_press());
        // During the wait, handled by another thread: the waiting one gets no signal, so
        // only the pipe wakes it.
        let during = wait_through(input, || {
            std::thread::sleep(Duration::from_millis(50));
            on_interrupt(libc::SIGINT);
        });
        assert_eq!(during, Some(std::io::ErrorKind::Interrupted));
        assert!(take_press());
        assert!(!take_press());
    }
}
