//! Reading the files the program is given and writing the files it produces: every read
//! is bounded, and no write ever loses the file already there.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

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
/// The new file keeps the permissions of the one it replaces. Only for a regular file or
/// a new one: [`write_output`] decides.
fn write_atomic(path: impl AsRef<Path>, contents: impl AsRef<[u8]>) -> io::Result<()> {
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
        if let Ok(meta) = fs::metadata(path) {
            file.set_permissions(meta.permissions())?;
        }
        file.write_all(contents.as_ref())?;
        file.sync_all()?;
        fs::rename(&temp, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written
}

/// Writes `contents` to a new file at `path`, never replacing one: an existing file is an
/// error of kind `AlreadyExists`, so a caller can try the next name.
pub fn write_new(path: impl AsRef<Path>, contents: impl AsRef<[u8]>) -> io::Result<()> {
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    file.write_all(contents.as_ref())?;
    file.sync_all()
}

/// Writes an output of a command to `path` as what the path is. A regular file, or a path
/// where there is none yet, gets `write_atomic`; anything else (a FIFO, a terminal, a
/// device such as `/dev/null`, the streams under `/dev/fd`) is opened and written in
/// place, since replacing it would destroy it (as root, `/dev/null` itself) and leave a
/// reader waiting on a FIFO with nothing. A symbolic link is followed: the file it points
/// to gets the text, and the link stays a link. A folder is refused.
pub fn write_output(path: impl AsRef<Path>, contents: impl AsRef<[u8]>) -> io::Result<()> {
    let path = path.as_ref();
    match target(path)? {
        Target::Replace(file) => write_atomic(file, contents),
        Target::InPlace { path, truncate } => {
            let mut file = fs::OpenOptions::new()
                .write(true)
                .truncate(truncate)
                .open(path)?;
            file.write_all(contents.as_ref())?;
            file.flush()
        }
    }
}

/// How an output path is written.
enum Target {
    /// A regular file, or none yet: the file a chain of symbolic links ends at.
    Replace(PathBuf),
    /// Not a file that can be replaced: opened as given, emptied first if it is a
    /// regular file reached through the system's streams (`/dev/stdout` sent to a file).
    InPlace { path: PathBuf, truncate: bool },
}

/// How many symbolic links are followed before a path is refused as a loop.
const MOST_LINKS: usize = 40;

/// Where an output path leads ([`Target`]).
fn target(given: &Path) -> io::Result<Target> {
    let mut path = given.to_path_buf();
    for _ in 0..MOST_LINKS {
        // A path through `/proc` (where `/dev/stdout` and `/dev/fd/N` lead) names an
        // open stream of this process: what its link reads is no path to replace.
        if in_proc(&path) {
            let truncate = fs::metadata(given).is_ok_and(|m| m.is_file());
            return Ok(Target::InPlace {
                path: given.to_path_buf(),
                truncate,
            });
        }
        let meta = match fs::symlink_metadata(&path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Target::Replace(path)),
            meta => meta?,
        };
        if meta.file_type().is_symlink() {
            let link = fs::read_link(&path)?;
            path = match path.parent() {
                Some(folder) if link.is_relative() => folder.join(link),
                _ => link,
            };
        } else if meta.is_dir() {
            return Err(io::Error::other("it is a folder"));
        } else if meta.is_file() {
            return Ok(Target::Replace(path));
        } else {
            return Ok(Target::InPlace {
                path,
                truncate: false,
            });
        }
    }
    Err(io::Error::other(format!(
        "more than {MOST_LINKS} symbolic links lead from it: a loop?"
    )))
}

/// Whether a path lies under `/proc`, once its folder's links are resolved.
fn in_proc(path: &Path) -> bool {
    let folder = match path.parent() {
        Some(f) if !f.as_os_str().is_empty() => f,
        _ => Path::new("."),
    };
    path.starts_with("/proc") || fs::canonicalize(folder).is_ok_and(|f| f.starts_with("/proc"))
}

/// A path a command reads or writes, as the user gave it, for [`check_paths`].
pub struct Named<'a> {
    /// How the user gave it: `--trace`, `the game file`, `save`.
    pub what: &'a str,
    pub path: &'a Path,
    /// Whether the command writes it (else it only reads it).
    pub written: bool,
}

/// Refuses, before anything is written, two outputs of one command that are one file
/// (the second would overwrite the first) and an output that is one of the command's
/// inputs (the game file, a position): a message says which and why. Two outputs to a
/// device or a FIFO (`/dev/null` twice) are no clash.
pub fn check_paths(paths: &[Named]) -> Result<(), String> {
    let keys: Vec<Option<FileKey>> = paths.iter().map(|n| FileKey::of(n.path)).collect();
    for (j, b) in paths.iter().enumerate().filter(|(_, b)| b.written) {
        for (i, a) in paths[..j].iter().enumerate() {
            if keys[i].is_none() || keys[i] != keys[j] {
                continue;
            }
            let shown = |n: &Named| crate::render::text::echo(&n.path.to_string_lossy());
            return Err(if a.written {
                let both = if a.path == b.path {
                    format!("{} and {} both name {}", a.what, b.what, shown(b))
                } else {
                    format!(
                        "{} {} and {} {} are one file",
                        a.what,
                        shown(a),
                        b.what,
                        shown(b)
                    )
                };
                format!("{both}: one would overwrite the other; give each its own file")
            } else {
                format!(
                    "{} names {}, which is {}: writing there would destroy it; give another file",
                    b.what,
                    shown(b),
                    a.what
                )
            });
        }
    }
    Ok(())
}

/// What tells two paths apart as files: a file that exists by its device and inode, one
/// that does not yet by its folder's real path and its name. Paths that are no regular
/// file (devices, FIFOs, folders) and paths that cannot be resolved have none.
#[derive(PartialEq)]
enum FileKey {
    Existing(u64, u64),
    New(PathBuf),
}

impl FileKey {
    fn of(path: &Path) -> Option<FileKey> {
        match fs::metadata(path) {
            Ok(meta) if meta.is_file() => Self::existing(path, &meta),
            Ok(_) => None,
            Err(_) => {
                let Ok(Target::Replace(file)) = target(path) else {
                    return None;
                };
                let folder = match file.parent() {
                    Some(f) if !f.as_os_str().is_empty() => f,
                    _ => Path::new("."),
                };
                Some(FileKey::New(
                    fs::canonicalize(folder).ok()?.join(file.file_name()?),
                ))
            }
        }
    }

    #[cfg(unix)]
    fn existing(_: &Path, meta: &fs::Metadata) -> Option<FileKey> {
        use std::os::unix::fs::MetadataExt;
        Some(FileKey::Existing(meta.dev(), meta.ino()))
    }

    #[cfg(not(unix))]
    fn existing(path: &Path, _: &fs::Metadata) -> Option<FileKey> {
        fs::canonicalize(path).ok().map(FileKey::New)
    }
}
