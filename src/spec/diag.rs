//! Diagnostics: an error message tied to a place in a file, drawn with a caret under it.
//!
//! The rendering is plain text (no colour codes) so it reads the same on a terminal, in a
//! pipe and in a snapshot test.

use std::fmt;
use std::ops::Range;

use crate::render::text::printable;

/// An error in a game file, with where it is and what would be right.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub path: String,
    pub message: String,
    /// The place in the file: line and column (from 1), the line's text and the width of
    /// the underlined part.
    pub location: Option<Location>,
    /// The short note printed beside the caret.
    pub label: String,
    /// Extra lines: what exists, what was expected.
    pub help: Vec<String>,
}

/// A position in a file, ready to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Location {
    pub line: usize,
    pub column: usize,
    pub line_text: String,
    pub width: usize,
}

impl Diagnostic {
    /// A diagnostic with no location (the file could not be read at all).
    pub fn plain(path: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            path: path.to_string(),
            message: message.into(),
            location: None,
            label: String::new(),
            help: Vec::new(),
        }
    }

    /// A diagnostic pointing at the byte range `span` of `text`.
    pub fn at(
        path: &str,
        text: &str,
        span: Range<usize>,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            path: path.to_string(),
            message: message.into(),
            location: Some(locate(text, span)),
            label: label.into(),
            help: Vec::new(),
        }
    }

    /// Adds a help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help.push(help.into());
        self
    }
}

/// Line, column and underline width of a byte range (columns count characters).
fn locate(text: &str, span: Range<usize>) -> Location {
    let start = floor_char(text, span.start.min(text.len()));
    let end = floor_char(text, span.end.clamp(start, text.len()));
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let line = text[..start].matches('\n').count() + 1;
    let column = text[line_start..start].chars().count() + 1;
    let width = text[start..end.min(line_end)].chars().count().max(1);
    Location {
        line,
        column,
        line_text: text[line_start..line_end]
            .trim_end_matches('\r')
            .to_string(),
        width,
    }
}

fn floor_char(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Every text a diagnostic prints comes from a file or a command line, so control
/// characters in it are escaped (the drawn line keeps one character for each, so the
/// caret stays under its place).
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = printable(&self.path);
        writeln!(f, "error: {}", printable(&self.message))?;
        match &self.location {
            None => writeln!(f, "  --> {path}")?,
            Some(loc) => {
                let gutter = loc.line.to_string().len();
                let pad = " ".repeat(gutter);
                writeln!(f, "{pad}--> {path}:{}:{}", loc.line, loc.column)?;
                writeln!(f, "{pad} |")?;
                let drawn: String = loc
                    .line_text
                    .chars()
                    .map(|c| match c {
                        '\t' => ' ',
                        c if c.is_control() => '\u{fffd}',
                        c => c,
                    })
                    .collect();
                writeln!(f, "{} | {drawn}", loc.line)?;
                let lead = " ".repeat(loc.column - 1);
                let carets = "^".repeat(loc.width);
                if self.label.is_empty() {
                    writeln!(f, "{pad} | {lead}{carets}")?;
                } else {
                    writeln!(f, "{pad} | {lead}{carets} {}", printable(&self.label))?;
                }
            }
        }
        for h in &self.help {
            writeln!(f, "  = help: {}", printable(h))?;
        }
        Ok(())
    }
}
