//! A directory written whole or not at all: checked before any work ([`check_target`]),
//! written into a temporary directory beside its place ([`stage`]) and renamed into place at
//! the end ([`move_into_place`]), so that a failure or an interrupt never leaves half of a
//! family, a certificate bundle or a cube directory behind.

use std::path::Path;

use crate::error::IoError;
use crate::output::{self, WritePolicy};

/// Fails unless an output directory can be placed at `dir` ([`move_into_place`]): it is
/// absent, empty, or, when `policy` allows replacing (`--force`), pq-sat's own earlier output (its `marker` file,
/// e.g. a family's `manifest.json`); and its parent takes new files. A user's non-empty directory, a
/// file, a link or a special file is always refused. Leftovers of killed runs beside it are removed.
pub fn check_target(
    dir: &Path,
    marker: output::Marker,
    policy: WritePolicy,
) -> Result<(), IoError> {
    output::check_dir(dir, marker, policy.replaces())
}

/// Checks `dir` ([`check_target`]), then makes a temporary directory beside it, named after
/// `kind` and this process ([`output::temp_dir`]), to write everything into before
/// [`move_into_place`] renames it to `dir`: a failure or an interrupt never leaves a
/// half-written directory (a family, a certificate bundle), and a killed run's staging
/// directory is removed by the next run.
pub fn stage(
    dir: &Path,
    kind: &str,
    marker: output::Marker,
    policy: WritePolicy,
) -> Result<tempfile::TempDir, IoError> {
    check_target(dir, marker, policy)?;
    output::temp_dir(dir, kind)
}

/// Renames the directory from [`stage`] to `dir`, replacing only a missing path, an empty
/// directory or pq-sat's earlier output (its `marker` file); see [`output::place_dir`].
pub fn move_into_place(
    staging: tempfile::TempDir,
    dir: &Path,
    marker: output::Marker,
    policy: WritePolicy,
) -> Result<(), IoError> {
    output::place_dir(staging, dir, marker, policy)
}

/// Refuses a file name read from a manifest (a family's or a certificate's) unless it is a
/// plain name of a file in the manifest's own directory: not empty, not `.` or `..`, no
/// path separator (so no absolute path and no way out), no control character (names are
/// printed in one-line messages).
pub fn plain_file_name(name: &str) -> Result<(), String> {
    let plain = !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\'])
        && !name.chars().any(char::is_control);
    if plain {
        Ok(())
    } else {
        Err(format!(
            "'{}' is not a plain file name (no '/', '..', absolute path or control character)",
            name.escape_debug()
        ))
    }
}

/// [`plain_file_name`] for each of `names`, and no name twice (one file cannot be two
/// instances, or two parts of a certificate).
pub fn distinct_plain_names<S: AsRef<str>>(names: &[S]) -> Result<(), String> {
    for (i, name) in names.iter().enumerate() {
        let name = name.as_ref();
        plain_file_name(name)?;
        if names[..i].iter().any(|n| n.as_ref() == name) {
            return Err(format!("'{name}' is named twice"));
        }
    }
    Ok(())
}
