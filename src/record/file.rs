//! Reading the files the program is given and writing the files it produces: every read
//! is bounded, and no write ever loses the file already there.

use std::fs;
use std::io::{self, Read, Write};
use std::path::Path;

/// Reads a whole text file of at most `limit` bytes; `what` names it in errors ("game
/// file", "transcript"), which say why the file cannot be read, for the caller to put
/// after its path. At most `limit` + 1 bytes are ever read, so a wrong path (a video,
/// `/dev/zero`, which never ends) is refused at once instead of filling memory; text that
/// is not UTF-8 is refused with the line and column of the first bad byte.
pub fn read_text(path: impl AsRef<Path>, limit: u64, what: &str) -> Result<String, String> {
    let file = fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "it is larger than {}, more than any {what}: is it the right file?",
            size(limit)
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&good[line_start..]).chars().count() + 1;
        format!("it is not UTF-8 text (line {line}, column {column}), and a {what} is text")
    })
}

/// A size in bytes as people read it: `1 MiB`, `8 MiB`, `4096 bytes`.
fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

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
