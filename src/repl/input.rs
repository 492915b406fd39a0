//! Where the REPL's lines come from: a line editor on a terminal (history, tab completion
//! of plies, commands and file names; Ctrl-C cancels a line), or plain lines from a pipe,
//! so scripted sessions behave the same without prompts.

use std::borrow::Cow;
use std::cell::RefCell;
use std::io::{self, BufRead, IsTerminal};
use std::rc::Rc;

use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{CompletionType, Config, Context, Editor, Helper};

use super::commands::COMMANDS;

/// What reading a line gave.
pub enum Line {
    Text(String),
    /// Ctrl-C: the line was cancelled.
    Cancelled,
    /// Ctrl-D or the end of the piped input.
    End,
}

/// A source of input lines.
pub enum Input {
    Terminal(Box<Editor<Completion, DefaultHistory>>),
    Piped(io::Lines<io::StdinLock<'static>>),
}

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
        if io::stdin().is_terminal()
            && let Ok(mut editor) = Editor::with_config(config)
        {
            editor.set_helper(Some(Completion {
                plies,
                files: FilenameCompleter::new(),
            }));
            return Input::Terminal(Box::new(editor));
        }
        Input::Piped(io::stdin().lock().lines())
    }

    /// Whether prompts should be shown (a person is typing).
    pub fn interactive(&self) -> bool {
        matches!(self, Input::Terminal(_))
    }

    /// Reads one line; the prompt is shown on a terminal only.
    pub fn read(&mut self, prompt: &str) -> Line {
        match self {
            Input::Terminal(editor) => match editor.readline(prompt) {
                Ok(line) => {
                    if !line.trim().is_empty() {
                        let _ = editor.add_history_entry(line.as_str());
                    }
                    Line::Text(line)
                }
                Err(ReadlineError::Interrupted) => Line::Cancelled,
                Err(_) => Line::End,
            },
            Input::Piped(lines) => match lines.next() {
                Some(Ok(line)) => Line::Text(line),
                _ => Line::End,
            },
        }
    }
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
