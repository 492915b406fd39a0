//! The game file: its schema as serde structs, loading, and located diagnostics.
//!
//! Values that later stages check (expressions, names) keep their byte spans in the file so
//! every error can point at the place to fix.

pub mod diag;
pub mod schema;

use diag::Diagnostic;
pub use schema::GameFile;

/// A game file as read from disk: its path as given, its text and its parsed tables.
#[derive(Debug)]
pub struct Source {
    pub path: String,
    pub text: String,
    pub file: GameFile,
}

/// The largest game file read, in bytes: real ones are a few kilobytes, and the bound
/// keeps a wrong path (`/dev/zero`, a video) from being read until memory runs out.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// Reads and parses a game file; TOML and schema errors come back located.
pub fn load(path: &str) -> Result<Source, Box<Diagnostic>> {
    let text = crate::record::file::read_text(path, MAX_FILE_BYTES, "game file").map_err(|e| {
        Box::new(Diagnostic::plain(
            path,
            format!("cannot read the game file: {e}"),
        ))
    })?;
    parse(path, text)
}

/// Parses game-file text that came from `path`.
pub fn parse(path: &str, text: String) -> Result<Source, Box<Diagnostic>> {
    match toml::from_str::<GameFile>(&text) {
        Ok(file) => Ok(Source {
            path: path.to_string(),
            text,
            file,
        }),
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            let message = e.message().trim_end().to_string();
            Err(Box::new(Diagnostic::at(
                path,
                &text,
                span,
                "invalid game file",
                message,
            )))
        }
    }
}
