//! A command's outputs and inputs checked together before it runs: no output is an input,
//! none is named twice; and how paths and recorded strings are shown.

use std::fs;
use std::path::Path;

use super::{check_dir, check_file, parent_dir, Marker};
use crate::error::IoError;

/// True when `a` and `b` name the same file: the same path once their directories are
/// resolved (links, `..`), or one existing file reached by both (a hard link).
pub fn same_target(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    if a == b {
        return true;
    }
    if let (Ok(x), Ok(y)) = (fs::metadata(a), fs::metadata(b)) {
        if (x.dev(), x.ino()) == (y.dev(), y.ino()) {
            return true;
        }
    }
    let resolved = |p: &Path| {
        let dir = fs::canonicalize(parent_dir(p)).ok()?;
        Some(dir.join(p.file_name()?))
    };
    matches!((resolved(a), resolved(b)), (Some(x), Some(y)) if x == y)
}

/// A value from a file on one line: JSON-quoted (so a newline in hostile text cannot
/// break the line), at most 100 characters, from its `skip`th character on (a string).
pub fn shown_json_from(v: &serde_json::Value, skip: usize) -> String {
    const MAX: usize = 100;
    let text = match v {
        serde_json::Value::Null => return "nothing".into(),
        serde_json::Value::String(s) if skip > 0 => {
            format!(
                "\"…{}",
                &serde_json::Value::from(s.chars().skip(skip).collect::<String>()).to_string()[1..]
            )
        }
        v => v.to_string(),
    };
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// A string from a file on one line (see [`shown_json_from`]).
pub fn shown(s: &str) -> String {
    shown_json_from(&serde_json::Value::from(s), 0)
}

/// An output path of a command, as the user gave it.
pub struct Output<'a> {
    /// The option that names it (`--proof`).
    pub flag: &'static str,
    /// The path given.
    pub path: &'a Path,
    /// `Some(marker)` for a directory pq-sat fills (its manifest's name), `None` for a file.
    pub dir: Option<Marker>,
}

/// What a command reads and writes, checked together before it runs.
pub struct Paths<'a> {
    /// The files and directories it writes.
    pub outputs: Vec<Output<'a>>,
    /// The files it reads (with the option naming each), which no output may overwrite.
    pub inputs: Vec<(&'static str, &'a Path)>,
    /// The directories it reads, in which no output may replace a file.
    pub input_dirs: Vec<&'a Path>,
    /// `--force`: existing outputs pq-sat wrote may be replaced.
    pub force: bool,
}

impl Paths<'_> {
    /// Two outputs that are one file, an output that is an input or replaces one in an
    /// input directory, or an output directory holding an input.
    ///
    /// # Errors
    /// [`IoError::Refused`], naming both options and what to do.
    pub fn check_distinct(&self) -> Result<(), IoError> {
        for a in &self.outputs {
            for dir in self.input_dirs.iter().copied() {
                // A new file inside the input directory is fine (a Slurm script beside the
                // cubes); an existing one is something pq-sat reads.
                let exists = std::fs::symlink_metadata(a.path).is_ok();
                if (exists && within(a.path, dir)) || same_target(a.path, dir) {
                    return Err(IoError::Refused(format!(
                        "{} {} would replace a file of the input directory {}; give a path outside it, or a new name",
                        a.flag,
                        a.path.display(),
                        dir.display()
                    )));
                }
            }
            if a.dir.is_some() {
                for (flag, input) in self.inputs.iter().copied() {
                    if input.as_os_str() != "-" && within(input, a.path) {
                        return Err(IoError::Refused(format!(
                            "{} {} would replace the directory that holds the input {flag} {}; give another directory",
                            a.flag,
                            a.path.display(),
                            input.display()
                        )));
                    }
                }
            }
        }
        for (i, a) in self.outputs.iter().enumerate() {
            for b in &self.outputs[i + 1..] {
                if same_target(a.path, b.path) {
                    return Err(IoError::Refused(format!(
                        "{} and {} name the same file ({}): each output needs its own path",
                        a.flag,
                        b.flag,
                        b.path.display()
                    )));
                }
            }
            for (flag, input) in self.inputs.iter().copied() {
                if input.as_os_str() != "-" && same_target(a.path, input) {
                    return Err(IoError::Refused(format!(
                        "{} {} would overwrite the input {flag} {}; give another path",
                        a.flag,
                        a.path.display(),
                        input.display()
                    )));
                }
            }
        }
        Ok(())
    }

    /// Checks every output path before any work starts: its directory exists and takes new
    /// files; an existing output is refused unless `--force`; a link, a special file or a
    /// user's non-empty directory is never replaced. Leftovers of killed runs beside the
    /// outputs are removed.
    ///
    /// # Errors
    /// The first output refused, its message led by the option that names it.
    pub fn prepare(&self) -> Result<(), String> {
        for o in &self.outputs {
            let checked = match o.dir {
                None => check_file(o.path, self.force),
                Some(marker) => check_dir(o.path, marker, self.force),
            };
            checked.map_err(|e| format!("{}: {e}", o.flag))?;
        }
        Ok(())
    }
}

/// Whether `path` is `dir` or lies under it, links and `..` resolved (a path that does not
/// resolve is under nothing).
pub fn within(path: &Path, dir: &Path) -> bool {
    let Ok(dir) = std::fs::canonicalize(dir) else {
        return false;
    };
    let resolved = std::fs::canonicalize(path).ok().or_else(|| {
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        Some(std::fs::canonicalize(parent).ok()?.join(path.file_name()?))
    });
    resolved.is_some_and(|p| p.starts_with(&dir))
}
