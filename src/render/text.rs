//! Text that comes from outside the program (a game file, a typed line, a transcript)
//! made safe to print.
//!
//! A control character printed raw is an instruction to the terminal: an escape sequence
//! in a game's name can recolour the screen, move the cursor or fake a line of output
//! (`check` printing an `ok` it never decided). Such text is shown with the characters
//! escaped as Rust writes them (`\u{1b}`, `\n`), so what is printed is what is there.

use std::borrow::Cow;

/// `text` with every control character escaped.
pub fn printable(text: &str) -> Cow<'_, str> {
    escape(text, |_| true)
}

/// `text` with every control character escaped except line breaks and tabs: for text
/// written over several lines (a game's rules).
pub fn printable_lines(text: &str) -> Cow<'_, str> {
    escape(text, |c| c != '\n' && c != '\t')
}

/// A line someone typed, to quote back in a message: escaped, and cut to its first
/// [`ECHO_CHARS`] characters, so a pasted page is not printed back whole.
pub fn echo(text: &str) -> String {
    let whole = printable(text.trim());
    let mut shown: String = whole.chars().take(ECHO_CHARS).collect();
    if shown.len() < whole.len() {
        shown.push_str("...");
    }
    shown
}

/// The most characters of a typed line a message quotes.
pub const ECHO_CHARS: usize = 60;

fn escape(text: &str, escaped: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() && escaped(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() && escaped(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(printable("Jeu é"), "Jeu é");
        assert_eq!(printable("a\u{1b}[2Jb\nc"), "a\\u{1b}[2Jb\\nc");
        assert_eq!(printable_lines("a\n\tb\u{7}"), "a\n\tb\\u{7}");
        assert_eq!(echo("  b1-a1 "), "b1-a1");
        let long = "x".repeat(1000);
        assert_eq!(echo(&long), format!("{}...", "x".repeat(ECHO_CHARS)));
    }
}
