//! Where the REPL's lines come from: a line editor on a terminal (history, tab completion
//! of plies, commands and file names; Ctrl-C is read as a key), or plain lines from a pipe,
//! so scripted sessions behave the same without prompts (or from a terminal the editor
//! cannot drive, with prompts).

use std::borrow::Cow;
use std::cell::RefCell;
use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::rc::Rc;

use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{CompletionType, Config, Context, Editor, Helper};

use super::commands::COMMANDS;
use super::interrupt;

/// What reading a line gave.
pub enum Line {
    Text(String),
    /// Ctrl-C at the prompt (or, on a pipe, while waiting for a line).
    Interrupted,
    /// Ctrl-D or the end of the piped input.
    End,
    /// A line that cannot be a command (longer than [`MAX_LINE`], or not UTF-8 text): it
    /// is skipped, and the message says why, so that no later line is lost with it.
    Refused(String),
    /// Standard input could not be read at all.
    Failed(String),
}

/// The longest line read as a command, in bytes. Commands and plies are short; a longer
/// line is refused without being kept (a pasted file, a runaway script), so that neither
/// memory nor the messages that quote it grow with it.
pub const MAX_LINE: usize = 4096;

/// A source of input lines.
pub enum Input {
    Terminal(Box<Editor<Completion, DefaultHistory>>),
    /// Plain lines, and how many were read: from a pipe or file, or (`person`) from a
    /// terminal the line editor cannot drive (`TERM=dumb`), where the prompt is printed
    /// and Ctrl-C, a signal there, comes back as [`Line::Interrupted`] as on a pipe.
    Lines {
        stdin: Stdin,
        count: usize,
        person: bool,
    },
}

/// The terminals the line editor reads as plain lines, where Ctrl-C stays a signal that
/// it does not report (rustyline's list).
const PLAIN_TERMS: [&str; 3] = ["dumb", "cons25", "emacs"];

/// The words tab completion offers: the legal plies of the position, refreshed by the
/// REPL before each prompt, and the commands; file names after `save` and `load`.
pub struct Completion {
    pub plies: Rc<RefCell<Vec<String>>>,
    files: FilenameCompleter,
}

impl Input {
    /// A line editor when stdin is a terminal, plain lines otherwise. The completion list
    /// is shared with the caller, who keeps it current.
    pub fn open(plies: Rc<RefCell<Vec<String>>>) -> Input {
        // Like a shell: Tab completes what all candidates share, a second Tab lists them.
        let config = Config::builder()
            .completion_type(CompletionType::List)
            .auto_add_history(false)
            .build();
        let person = io::stdin().is_terminal();
        let plain = std::env::var("TERM").is_ok_and(|t| PLAIN_TERMS.contains(&t.as_str()));
        if person
            && !plain
            && let Ok(mut editor) = Editor::with_config(config)
        {
            editor.set_helper(Some(Completion {
                plies,
                files: FilenameCompleter::new(),
            }));
            return Input::Terminal(Box::new(editor));
        }
        Input::Lines {
            stdin: Stdin::default(),
            count: 0,
            person,
        }
    }

    /// Whether prompts should be shown (a person is typing).
    pub fn interactive(&self) -> bool {
        match self {
            Input::Terminal(_) => true,
            Input::Lines { person, .. } => *person,
        }
    }

    /// Reads one line; the prompt is shown on a terminal only. A Ctrl-C pressed since
    /// the last line (the program busy) is read first, as if pressed at the prompt; one
    /// just after a press stopped a bot is ignored ([`interrupt::just_stopped`]). The end
    /// of the input that comes with a press (Ctrl-C in a pipeline ends the program
    /// writing it too) is the press.
    pub fn read(&mut self, prompt: &str) -> Line {
        loop {
            let line = if interrupt::take_press() {
                Line::Interrupted
            } else {
                match self.read_once(prompt) {
                    Line::End if interrupt::take_press() => Line::Interrupted,
                    line => line,
                }
            };
            match line {
                Line::Interrupted if interrupt::just_stopped() => continue,
                line => return line,
            }
        }
    }

    fn read_once(&mut self, prompt: &str) -> Line {
        let _reading = interrupt::Reading::start();
        match self {
            Input::Terminal(editor) => match editor.readline(prompt) {
                Ok(line) if line.len() > MAX_LINE => Line::Refused(format!(
                    "that line is {} bytes long, more than the {MAX_LINE} a command may \
                     hold: ignored",
                    line.len()
                )),
                Ok(line) => {
                    if !line.trim().is_empty() {
                        let _ = editor.add_history_entry(line.as_str());
                    }
                    Line::Text(line)
                }
                Err(ReadlineError::Interrupted | ReadlineError::Signal(_)) => Line::Interrupted,
                Err(ReadlineError::Eof) => Line::End,
                Err(ReadlineError::Io(e)) if e.kind() == io::ErrorKind::InvalidData => {
                    Line::Refused("that line is not UTF-8 text: ignored".into())
                }
                Err(e) => Line::Failed(format!("cannot read the terminal: {e}")),
            },
            Input::Lines {
                stdin,
                count,
                person,
            } => {
                if *person {
                    let mut out = io::stdout();
                    let _ = out.write_all(prompt.as_bytes()).and_then(|()| out.flush());
                }
                *count += 1;
                let n = *count;
                match read_line(stdin, MAX_LINE) {
                    Ok(None) => Line::End,
                    Ok(Some(Raw::Interrupted)) => Line::Interrupted,
                    Ok(Some(Raw::TooLong(len))) => Line::Refused(format!(
                        "line {n} of the input is {len} bytes long, more than the {MAX_LINE} \
                         a command may hold: ignored"
                    )),
                    Ok(Some(Raw::Bytes(bytes))) => match String::from_utf8(bytes) {
                        Ok(line) => Line::Text(line),
                        Err(_) => Line::Refused(format!(
                            "line {n} of the input is not UTF-8 text: ignored"
                        )),
                    },
                    Err(e) => Line::Failed(format!("cannot read standard input: {e}")),
                }
            }
        }
    }
}

/// Standard input through a buffer of its own, so that the reader knows when it is empty:
/// only then does it wait for more ([`interrupt::wait_readable`]), a wait that a Ctrl-C
/// press ends whenever it came, even just before the wait began.
pub struct Stdin {
    buf: Box<[u8]>,
    pos: usize,
    filled: usize,
}

impl Default for Stdin {
    fn default() -> Stdin {
        Stdin {
            buf: vec![0; 8192].into_boxed_slice(),
            pos: 0,
            filled: 0,
        }
    }
}

impl Read for Stdin {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = {
            let buf = self.fill_buf()?;
            let n = buf.len().min(out.len());
            out[..n].copy_from_slice(&buf[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Stdin {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos == self.filled {
            self.filled = read_stdin(&mut self.buf)?;
            self.pos = 0;
        }
        Ok(&self.buf[self.pos..self.filled])
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.filled);
    }
}

/// One read of standard input's descriptor, once it has input or a press ends the wait.
/// The descriptor is read directly: bytes kept in the standard library's own buffer would
/// be input the wait cannot see.
#[cfg(unix)]
fn read_stdin(buf: &mut [u8]) -> io::Result<usize> {
    use std::os::fd::{AsRawFd, FromRawFd};
    let fd = io::stdin().as_raw_fd();
    interrupt::wait_readable(fd)?;
    // SAFETY: descriptor 0 stays open for the whole process; `ManuallyDrop` never closes it.
    let mut file = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd) });
    file.read(buf)
}

#[cfg(not(unix))]
fn read_stdin(buf: &mut [u8]) -> io::Result<usize> {
    io::stdin().read(buf)
}

/// A line as read, before it is decoded.
enum Raw {
    /// Its bytes, without the line break (`\n` or `\r\n`).
    Bytes(Vec<u8>),
    /// A line longer than the limit, skipped up to its end: its length.
    TooLong(usize),
    /// Ctrl-C while waiting for the line (what had come of it is dropped).
    Interrupted,
}

/// Reads one line of at most `limit` bytes; a longer one is read through to its end but
/// not kept. `None` at the end of the input. A read that Ctrl-C interrupts
/// ([`interrupt::take_press`]) gives [`Raw::Interrupted`]; other interruptions are retried.
fn read_line(reader: &mut impl BufRead, limit: usize) -> io::Result<Option<Raw>> {
    let mut line = Vec::new();
    let (mut len, mut any) = (0usize, false);
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {
                if interrupt::take_press() {
                    return Ok(Some(Raw::Interrupted));
                }
                continue;
            }
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, used, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1, true),
            None => (buf, buf.len(), false),
        };
        len += chunk.len();
        if len <= limit {
            line.extend_from_slice(chunk);
        }
        reader.consume(used);
        if done {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if len > limit {
        return Ok(Some(Raw::TooLong(len)));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some(Raw::Bytes(line)))
}

impl Completer for Completion {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        let first = before.split_whitespace().next().unwrap_or("");
        if matches!(first, "save" | "load") && before.contains(' ') {
            return self.files.complete(line, pos, ctx);
        }
        // Plies may hold spaces (`Sd2-d3 lev e5`): complete the whole line typed so far.
        let typed = before.trim_start();
        let start = pos - typed.len();
        let lower = typed.to_lowercase();
        let mut words: Vec<Pair> = self
            .plies
            .borrow()
            .iter()
            .map(String::as_str)
            .chain(COMMANDS.iter().map(|c| c.name))
            .filter(|w| w.to_lowercase().starts_with(&lower))
            .map(|w| Pair {
                display: w.to_string(),
                replacement: w.to_string(),
            })
            .collect();
        words.dedup_by(|a, b| a.replacement == b.replacement);
        Ok((start, words))
    }
}

impl Hinter for Completion {
    type Hint = String;
}

impl Highlighter for Completion {
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        Cow::Borrowed(line)
    }
}

impl Validator for Completion {}

impl Helper for Completion {}
