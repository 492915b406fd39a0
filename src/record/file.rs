//! Writing the files the program produces (transcripts, traces, reports) without ever
//! losing the one already there.

use std::fs;
use std::io::{self, Write};
use std::path::Path;

/// Writes `contents` to `path` atomically: into a temporary file in the same folder,
/// flushed to disk, then renamed over `path`. A write that fails part-way (a full disk, a
/// file-size limit) leaves the earlier file at `path` as it was, and removes the temporary.
pub fn write_atomic(path: impl AsRef<Path>, contents: impl AsRef<[u8]>) -> io::Result<()> {
    let path = path.as_ref();
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(name);
    temp_name.push(format!(".{}.tmp", std::process::id()));
    let temp = path.with_file_name(temp_name);
    let written = (|| {
        let mut file = fs::File::create(&temp)?;
        file.write_all(contents.as_ref())?;
        file.sync_all()?;
        fs::rename(&temp, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written
}
