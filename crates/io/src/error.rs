//! What can go wrong writing or reading pq-sat's files.

use std::path::{Path, PathBuf};

/// A failed file operation, or an output pq-sat refuses to write (a link, a special file,
/// a user's non-empty directory); the message names the path the user gave.
#[derive(Debug, thiserror::Error)]
pub enum IoError {
    /// The operating system refused an operation on `path` (the message is its own, without
    /// the path printed twice or a temporary file's name inside it).
    #[error("{path}: {}", os_message(.error))]
    Io {
        /// The file the user named (never a temporary beside it).
        path: PathBuf,
        /// What the operating system said.
        error: std::io::Error,
    },
    /// pq-sat will not write or read there; the message says why and what to do.
    #[error("{0}")]
    Refused(String),
}

impl IoError {
    /// The [`IoError::Io`] of a failed operation on `path`, for `map_err`.
    pub fn io(path: &Path) -> impl FnOnce(std::io::Error) -> IoError {
        let path = path.to_path_buf();
        move |error| IoError::Io { path, error }
    }
}

/// The operating system's message for `e`, without the path tempfile appends to its own
/// errors (the path named is the user's, printed once).
pub fn os_message(e: &std::io::Error) -> String {
    let text = e.to_string();
    // tempfile's wrapper is a custom error whose source is not the OS error: only its
    // text tells it apart.
    match text.rfind(" at path \"") {
        Some(at) if e.get_ref().is_some() => text[..at].to_string(),
        _ => text,
    }
}
