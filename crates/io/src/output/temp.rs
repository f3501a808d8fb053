//! Temporaries named after the process that owns them, and the sweep of those a killed run
//! left behind.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::{parent_dir, write_error};
use crate::error::IoError;

/// The owner tag of this process's temporaries: its id and start time (clock ticks since
/// boot, from `/proc`), so that a recycled process id is not mistaken for the owner.
/// `None` without `/proc`: then leftovers are never removed.
pub(super) fn owner() -> Option<&'static str> {
    static OWNER: OnceLock<Option<String>> = OnceLock::new();
    OWNER
        .get_or_init(|| {
            let pid = std::process::id();
            start_time(pid).map(|start| format!("{pid}-{start}"))
        })
        .as_deref()
}

/// The start time of process `pid` (field 22 of `/proc/PID/stat`), if it is running: a
/// zombie (killed, not yet reaped by its parent) is not, and can write nothing more.
pub(super) fn start_time(pid: u32) -> Option<u64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    let mut rest = stat[stat.rfind(')')? + 1..].split_whitespace();
    if matches!(rest.next(), Some("Z" | "X" | "x")) {
        return None;
    }
    rest.nth(18)?.parse().ok()
}

pub(super) fn prefix(kind: &str) -> String {
    format!(".pq-{kind}-{}-", owner().unwrap_or("0-0"))
}

pub(super) fn temp_in(dir: &Path, kind: &str) -> Result<tempfile::NamedTempFile, IoError> {
    tempfile::Builder::new()
        .prefix(&prefix(kind))
        .tempfile_in(dir)
        .map_err(IoError::io(dir))
}

/// A temporary file beside `target` (same directory, so the rename is atomic), named after
/// this process; removed when dropped.
pub fn temp_file(target: &Path, kind: &str) -> Result<tempfile::NamedTempFile, IoError> {
    let dir = parent_dir(target);
    temp_in(dir, kind).map_err(|e| write_error(target, e))
}

/// A temporary directory beside `target`, named after this process, to fill before
/// [`super::place_dir`]; removed when dropped.
pub fn temp_dir(target: &Path, kind: &str) -> Result<tempfile::TempDir, IoError> {
    let dir = parent_dir(target);
    tempfile::Builder::new()
        .prefix(&prefix(kind))
        .tempdir_in(dir)
        .map_err(|e| write_error(target, IoError::io(dir)(e)))
}

/// A private working directory in the system's temporary directory (`$TMPDIR`), named so
/// that the sweep knows it (`.pq-scratch-PID-START-…`): what a killed run leaves there is
/// removed by the next run ([`remove_leftovers`], once per process).
pub fn scratch_dir() -> Result<tempfile::TempDir, IoError> {
    let tmp = sweep_temp_dir();
    tempfile::Builder::new()
        .prefix(&prefix("scratch"))
        .tempdir_in(&tmp)
        .map_err(IoError::io(&tmp))
}

/// A private file in `$TMPDIR` ending in `suffix` (an extension some programs read), named
/// and swept like [`scratch_dir`].
pub fn scratch_file(suffix: &str) -> Result<tempfile::NamedTempFile, IoError> {
    let tmp = sweep_temp_dir();
    tempfile::Builder::new()
        .prefix(&prefix("scratch"))
        .suffix(suffix)
        .tempfile_in(&tmp)
        .map_err(IoError::io(&tmp))
}

/// `$TMPDIR`, its leftovers of dead runs removed on the first call.
fn sweep_temp_dir() -> PathBuf {
    static SWEPT: OnceLock<()> = OnceLock::new();
    let tmp = std::env::temp_dir();
    SWEPT.get_or_init(|| remove_leftovers(&tmp));
    tmp
}

/// Removes from `dir` the temporaries ([`temp_file`], [`temp_dir`]) of pq-sat runs that
/// are gone: their owner's process id no longer runs, or runs a process started at another
/// time. Those of a running pq-sat, and any other name, are left alone; failures are
/// ignored (it is housekeeping).
pub fn remove_leftovers(dir: &Path) {
    if owner().is_none() {
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some((pid, start)) = name.to_str().and_then(owner_of) else {
            continue;
        };
        if start_time(pid) == Some(start) {
            continue;
        }
        let path = entry.path();
        match entry.file_type() {
            Ok(t) if t.is_dir() => {
                let _ = fs::remove_dir_all(&path);
            }
            Ok(t) if t.is_file() => {
                let _ = fs::remove_file(&path);
            }
            _ => {}
        }
    }
}

/// The kinds of temporaries pq-sat makes.
const KINDS: [&str; 8] = [
    "out",
    "probe",
    "family",
    "certificate",
    "old",
    "cube",
    "result",
    "scratch",
];

/// The owner (process id, start time) of a temporary's name `.pq-KIND-PID-START-XXXXXX`.
fn owner_of(name: &str) -> Option<(u32, u64)> {
    let rest = name.strip_prefix(".pq-")?;
    let mut parts = rest.splitn(4, '-');
    let (kind, pid, start, random) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    // A scratch file keeps a name and an extension after the random part (`…-q5.cnf`).
    let random = random.split(['.', '-']).next().unwrap_or_default();
    if !KINDS.contains(&kind)
        || random.is_empty()
        || !random.chars().all(|c| c.is_ascii_alphanumeric())
    {
        return None;
    }
    Some((pid.parse().ok()?, start.parse().ok()?))
}
