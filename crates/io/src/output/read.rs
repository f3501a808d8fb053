//! Reading what the user names: regular files only, capped, and standard input.

use std::fs;
use std::path::Path;

use super::special;
use crate::error::IoError;

/// The bytes of a file pq-sat wrote and now reads back (a cube directory's manifest, formula
/// and results): it must be a regular file, not a link, a FIFO or a device (reading those
/// may block forever or never end), of at most `limit` bytes.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, IoError> {
    let meta = fs::symlink_metadata(path).map_err(IoError::io(path))?;
    if let Some(what) = special(meta.file_type()) {
        return Err(IoError::Refused(format!(
            "{} is {what}, not a file pq-sat wrote: pq-sat reads only regular files there",
            path.display()
        )));
    }
    read_capped(
        path,
        meta.len(),
        limit,
        "such a file can have: not a file pq-sat wrote",
    )
}

/// The bytes of the regular file at `path` whose size was `len` when looked at, refused
/// (`what` saying whose limit it is) when over `limit`, or when it grows past it as it is
/// read.
fn read_capped(path: &Path, len: u64, limit: u64, what: &str) -> Result<Vec<u8>, IoError> {
    use std::io::Read;
    if len > limit {
        return Err(IoError::Refused(format!(
            "{} has {len} bytes, more than the {limit} {what}",
            path.display()
        )));
    }
    let mut bytes = Vec::new();
    fs::File::open(path)
        .and_then(|f| f.take(limit + 1).read_to_end(&mut bytes))
        .map_err(IoError::io(path))?;
    if bytes.len() as u64 > limit {
        return Err(IoError::Refused(format!(
            "{} grew past {limit} bytes while it was read",
            path.display()
        )));
    }
    Ok(bytes)
}

/// The largest problem file, pool, placement or manifest pq-sat reads (text a person wrote,
/// or a directory's index): far above any real one, far below what would exhaust memory.
pub const MAX_TEXT_INPUT: u64 = 64 << 20;

/// The bytes of a file the user named (a problem, a pool, a board, a bundle's parts):
/// followed through links, since the user chose the path, but only to a regular file, so that
/// a FIFO or a device cannot block the read forever or feed it without end; and at most
/// `limit` bytes, so that a huge file is refused before it is read.
pub fn read_input(path: &Path, limit: u64) -> Result<Vec<u8>, IoError> {
    let meta = fs::metadata(path).map_err(IoError::io(path))?;
    if meta.is_dir() {
        return Err(IoError::Refused(format!(
            "{} is a directory, not a file",
            path.display()
        )));
    }
    if !meta.is_file() {
        return Err(IoError::Refused(format!(
            "{} is not a regular file (a FIFO, a device or a socket): pq-sat reads files (or standard input, where a command takes -)",
            path.display()
        )));
    }
    read_capped(path, meta.len(), limit, "pq-sat reads there")
}

/// Asks for a 1 MiB buffer on standard output when it is a pipe (Linux's default is 64 KiB):
/// a stream of gigabytes into a checker then costs far fewer switches between the writer and
/// the reader. Best effort: anything else, or a refusal, leaves it as it is.
pub fn widen_stdout_pipe() {
    // SAFETY: F_SETPIPE_SZ on descriptor 1 changes only the pipe's capacity; it fails
    // harmlessly on anything that is not a pipe.
    unsafe {
        libc::fcntl(1, libc::F_SETPIPE_SZ, 1 << 20);
    }
}

/// [`read_input`] as UTF-8 text.
pub fn read_input_text(path: &Path, limit: u64) -> Result<String, IoError> {
    String::from_utf8(read_input(path, limit)?)
        .map_err(|_| IoError::Refused(format!("{} is not UTF-8 text", path.display())))
}
