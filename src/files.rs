//! Files pq-sat writes: each one atomically, so that a path holds the old file or the
//! complete new one, never a half-written one.

use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use anyhow::{Context, Result};

/// Writes through a temporary file in the same directory and renames it into place.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("cannot create a file in {}", dir.display()))?;
    let write_and_rename = || -> io::Result<()> {
        write(tmp.as_file_mut())?;
        tmp.as_file_mut().sync_all()?;
        // Temporary files are created private (0600); the result is an ordinary file.
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))?;
        tmp.persist(path)?;
        Ok(())
    };
    write_and_rename().with_context(|| format!("cannot write {}", path.display()))
}

/// Writes an SVG picture to `path` atomically.
pub fn write_svg(path: &Path, svg: &str) -> Result<()> {
    write_atomically(path, |w| w.write_all(svg.as_bytes()))
}
