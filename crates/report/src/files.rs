//! Files pq-sat writes: each one atomically, so that a path holds the old file or the
//! complete new one, never a half-written one; and never over a link or a special file
//! (see [`pq_io::output`], the one path for every output of the tool).

use std::io::{self, Write};
use std::path::Path;

use crate::Result;
use pq_io::output::{self, WritePolicy};
use pq_solve::error::SolveError;

/// Writes through a temporary file in the same directory and renames it into place (only
/// over a missing path, or a regular file when `policy` allows). Errors name `path`, once.
pub fn write_atomically(
    path: &Path,
    policy: WritePolicy,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    let mut tmp = output::temp_file(path, "out")?;
    write(tmp.as_file_mut())
        .and_then(|()| tmp.as_file_mut().sync_all())
        .map_err(SolveError::io(path))?;
    output::persist(tmp, path, policy)?;
    Ok(())
}

/// Writes an SVG picture to `path` atomically.
pub fn write_svg(path: &Path, svg: &str, policy: WritePolicy) -> Result<()> {
    write_atomically(path, policy, |w| w.write_all(svg.as_bytes()))
}
