//! Every file and directory pq-sat writes goes through here: checked before any work
//! starts ([`check_file`], [`check_dir`]), written to a temporary beside the target
//! ([`temp_file`], [`temp_dir`]) and renamed into place only over a missing path, a regular
//! file, an empty directory or pq-sat's own earlier output ([`persist`], [`place_dir`]). A
//! symbolic link, a FIFO, a device or a socket at an output path is never replaced (a
//! rename would turn `/dev/full` into a regular file). Whether an existing output may be
//! replaced at all (`--force`) is decided up front, before any solving, and stays the
//! policy of the writes ([`WritePolicy`], passed to each): an output that appears while pq-sat works is
//! not replaced without it either.
//!
//! Temporaries are named `.pq-KIND-PID-START-XXXXXX`, after the process that owns them (its
//! id and start time), so that [`remove_leftovers`] can remove those of a run that was
//! killed without touching those of a pq-sat that is still running.

use std::fs;
use std::io;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::error::{os_message, IoError};

mod paths;
mod read;
mod temp;

pub use paths::{same_target, shown, shown_json_from, within, Output, Paths};
pub use read::{read_input, read_input_text, read_regular, widen_stdout_pipe, MAX_TEXT_INPUT};
use temp::{prefix, temp_in};
pub use temp::{remove_leftovers, scratch_dir, scratch_file, temp_dir, temp_file};

/// The directory a path's file goes into (`.` for a bare name).
pub fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

fn refuse(message: String) -> IoError {
    IoError::Refused(message)
}

/// The refusal "PATH REST": what stands at `path`, and what to do instead.
fn refuse_at(path: &Path, rest: impl std::fmt::Display) -> IoError {
    refuse(format!("{} {rest}", path.display()))
}

/// What stands at a path, in words, if it is not something pq-sat may write over.
fn special(kind: fs::FileType) -> Option<&'static str> {
    if kind.is_symlink() {
        Some("a symbolic link")
    } else if kind.is_fifo() {
        Some("a FIFO (named pipe)")
    } else if kind.is_char_device() {
        Some("a character device")
    } else if kind.is_block_device() {
        Some("a block device")
    } else if kind.is_socket() {
        Some("a socket")
    } else {
        None
    }
}

/// The refusal for a special file at `path`.
fn special_refusal(path: &Path, what: &str) -> IoError {
    refuse_at(path, format_args!("is {what}; pq-sat writes only regular files and never replaces a link or a special file: give another path"))
}

/// `mode` less this process's umask: the permissions a file created normally would get
/// (temporaries are created private and are given these before they are placed). The
/// umask is read from `/proc/self/status`, which does not change it (`umask(2)` would,
/// for every thread); 022 without `/proc`.
pub fn masked(mode: u32) -> u32 {
    static UMASK: OnceLock<u32> = OnceLock::new();
    let umask = *UMASK.get_or_init(|| {
        (fs::read_to_string("/proc/self/status").ok())
            .and_then(|s| {
                let line = s.lines().find(|l| l.starts_with("Umask:"))?;
                u32::from_str_radix(line["Umask:".len()..].trim(), 8).ok()
            })
            .unwrap_or(0o022)
    });
    mode & !umask
}

/// What stands at `path` (not following a link): nothing (`None`), or its metadata; any
/// other failure to look is the refusal "cannot write".
fn standing_at(path: &Path) -> Result<Option<fs::Metadata>, IoError> {
    match fs::symlink_metadata(path) {
        Ok(m) => Ok(Some(m)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(refuse(format!(
            "cannot write {}: {}",
            path.display(),
            os_message(&e)
        ))),
    }
}

/// Checks that the directory `path` goes into exists, and that pq-sat can create files in
/// it; removes what killed runs left there ([`remove_leftovers`]).
fn check_parent(path: &Path) -> Result<(), IoError> {
    let dir = parent_dir(path);
    match fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            return Err(refuse(format!(
                "cannot create {}: {} is not a directory",
                path.display(),
                dir.display()
            )))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(refuse(format!(
                "cannot create {}: the directory {} does not exist; create it first or give another path",
                path.display(),
                dir.display()
            )))
        }
        Err(e) => {
            return Err(refuse(format!(
                "cannot create {}: {}: {}",
                path.display(),
                dir.display(),
                os_message(&e)
            )))
        }
    }
    remove_leftovers(dir);
    // The only sure test of permission (and of a read-only file system) is to try.
    temp_in(dir, "probe").map_err(|e| {
        refuse(format!(
            "cannot create {}: pq-sat cannot create files in {} ({}); give another path",
            path.display(),
            dir.display(),
            match e {
                IoError::Io { error, .. } => os_message(&error),
                other => other.to_string(),
            }
        ))
    })?;
    Ok(())
}

/// Checks, before any work, that a new file can be written at `path`: its directory exists
/// and is writable, and nothing is there, or a regular file that `force` allows replacing.
/// A directory, a symbolic link or a special file is refused even with `force`.
pub fn check_file(path: &Path, force: bool) -> Result<(), IoError> {
    if path.file_name().is_none() || path.as_os_str().to_string_lossy().ends_with('/') {
        return Err(refuse_at(
            path,
            "is not a file name; give the path of a file",
        ));
    }
    match standing_at(path)? {
        None => {}
        Some(m) if m.is_dir() => {
            return Err(refuse_at(path, "is a directory; give the path of a file"))
        }
        Some(m) => {
            if let Some(what) = special(m.file_type()) {
                return Err(special_refusal(path, what));
            }
            if !force {
                return Err(refuse_at(
                    path,
                    "already exists; give --force to replace it, or another path",
                ));
            }
        }
    }
    check_parent(path)
}

/// How pq-sat recognises a directory of one kind that it wrote: its manifest file `file` is
/// a JSON object whose `generator` is pq-sat's and which has the field `key` (what tells
/// the kinds apart: a family's manifest and a cube directory's have the same file name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Marker {
    /// The manifest's file name.
    pub file: &'static str,
    /// A field only this kind's manifest has.
    pub key: &'static str,
}

impl std::fmt::Display for Marker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.file)
    }
}

/// Checks, before any work, that an output directory can be made at `dir`: nothing is there
/// or an empty directory, or, with `force`, a directory of the same kind pq-sat wrote before
/// ([`Marker`]) that holds nothing else: only names its manifest mentions, pq-sat's own
/// companions (`README.md`, `manifest.csv`, `results/`, `proofs/`, `slurm/`) and pq-sat's
/// temporaries. Any other directory is never replaced: `--force` does not delete a user's
/// files.
pub fn check_dir(dir: &Path, marker: Marker, force: bool) -> Result<(), IoError> {
    match standing_at(dir)? {
        None => {}
        Some(m) if m.is_dir() => match dir_state(dir, marker)? {
            DirState::Empty => {}
            DirState::Ours if force => {}
            DirState::Ours => {
                return Err(refuse_at(dir, format_args!("exists and is not empty (an earlier {marker} is there); give --force to replace it, or a new directory")))
            }
            DirState::Other => {
                return Err(refuse_at(dir, format_args!("exists and is not empty; give a new directory (--force replaces only a directory pq-sat wrote, one with its {marker})")))
            }
        },
        Some(m) => {
            if let Some(what) = special(m.file_type()) {
                return Err(special_refusal(dir, what));
            }
            return Err(refuse_at(dir, "is a file, not a directory; give a new directory"));
        }
    }
    check_parent(dir)
}

/// What an existing directory holds.
#[derive(Debug, PartialEq, Eq)]
enum DirState {
    Empty,
    /// pq-sat's own earlier output: a regular `marker` file is there.
    Ours,
    Other,
}

/// The names pq-sat writes beside a manifest that it does not list: a family's README and
/// CSV manifest, a cube directory's results, proofs and Slurm logs.
const COMPANIONS: [&str; 5] = ["README.md", "manifest.csv", "results", "proofs", "slurm"];

/// The largest manifest read to recognise a directory (a family of thousands of instances
/// is a few MB).
const MAX_MARKER: u64 = 256 << 20;

fn dir_state(dir: &Path, marker: Marker) -> Result<DirState, IoError> {
    let entries: Vec<String> = fs::read_dir(dir)
        .map_err(IoError::io(dir))?
        .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect::<Result<_, _>>()
        .map_err(IoError::io(dir))?;
    if entries.is_empty() {
        return Ok(DirState::Empty);
    }
    let path = dir.join(marker.file);
    let manifest = fs::symlink_metadata(&path)
        .ok()
        .filter(|m| m.is_file() && m.len() <= MAX_MARKER)
        .and_then(|_| fs::read(&path).ok())
        .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok());
    let ours = manifest.as_ref().is_some_and(|m| {
        let by_pq_sat =
            (m.get("generator").and_then(|g| g.as_str())).is_some_and(|g| g.starts_with("pq-sat "));
        by_pq_sat && m.get(marker.key).is_some()
    });
    let Some(manifest) = manifest.filter(|_| ours) else {
        return Ok(DirState::Other);
    };
    let mut named = std::collections::HashSet::new();
    strings(&manifest, &mut named);
    let known = |name: &String| {
        name == marker.file
            || COMPANIONS.contains(&name.as_str())
            || name.starts_with(".pq-")
            || named.contains(name.as_str())
    };
    Ok(if entries.iter().all(known) {
        DirState::Ours
    } else {
        DirState::Other
    })
}

/// Every string in a JSON value (the file names a manifest mentions among them).
fn strings<'a>(v: &'a serde_json::Value, out: &mut std::collections::HashSet<&'a str>) {
    match v {
        serde_json::Value::String(s) => {
            out.insert(s);
        }
        serde_json::Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
        serde_json::Value::Object(o) => o.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// For `map_err` on writes to a temporary of `target`: the error names `target`, which the
/// user gave, not the temporary.
pub fn naming(target: &Path) -> impl FnOnce(IoError) -> IoError + '_ {
    move |e| write_error(target, e)
}

/// The one-line error of failing to write `target`, naming it and not the temporary.
fn write_error(target: &Path, e: IoError) -> IoError {
    match e {
        IoError::Io { error, .. } => IoError::Io {
            path: target.to_path_buf(),
            error,
        },
        other => other,
    }
}

/// Checks that [`persist`] may put a file at `path`: nothing is there, or a regular file.
/// Returns whether something is there. For writers of several files, to check them all
/// before renaming the first.
pub fn replaceable(path: &Path) -> Result<bool, IoError> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(IoError::io(path)(e)),
        Ok(m) if m.is_dir() => Err(refuse_at(path, "is a directory; give the path of a file")),
        Ok(m) => match special(m.file_type()) {
            Some(what) => Err(special_refusal(path, what)),
            None => Ok(true),
        },
    }
}

/// Whether an output that exists may be replaced (`--force`). The command line decides it
/// once, when it checks the outputs before any work, and every write of the job is given
/// it: without it an output that appears while pq-sat works (a second run writing the same
/// path) is not replaced, because the check before the work could not see it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WritePolicy {
    /// Write only over a missing path (or an empty directory).
    #[default]
    Keep,
    /// Also replace a regular file, or pq-sat's own earlier output directory.
    Replace,
}

impl WritePolicy {
    /// The policy `--force` asks for.
    pub fn from_force(force: bool) -> WritePolicy {
        if force {
            WritePolicy::Replace
        } else {
            WritePolicy::Keep
        }
    }

    /// True when an existing output may be replaced.
    pub fn replaces(self) -> bool {
        self == WritePolicy::Replace
    }
}

/// Moves a finished temporary file to `path`: made readable by others (temporaries are
/// private), then renamed, but only over a missing path or, when `policy` allows
/// replacing, a regular file; anything else at `path` (a link, a FIFO, a
/// device, a directory) is left alone and the temporary removed.
pub fn persist(
    tmp: tempfile::NamedTempFile,
    path: &Path,
    policy: WritePolicy,
) -> Result<(), IoError> {
    persist_with(tmp, path, policy.replaces())
}

/// [`persist`] that always replaces an earlier regular file at `path`, whatever
/// `--force` says: for files pq-sat rewrites as part of its own state (a cube's result,
/// written again when the cube is solved again).
pub fn persist_over(tmp: tempfile::NamedTempFile, path: &Path) -> Result<(), IoError> {
    persist_with(tmp, path, true)
}

fn persist_with(tmp: tempfile::NamedTempFile, path: &Path, replace: bool) -> Result<(), IoError> {
    tmp.as_file()
        .set_permissions(fs::Permissions::from_mode(masked(0o666)))
        .map_err(IoError::io(path))?;
    if replaceable(path)? && replace {
        return tmp
            .persist(path)
            .map(drop)
            .map_err(|e| IoError::io(path)(e.error));
    }
    // Nothing there (or nothing to replace), and nothing may have appeared since: a link
    // made meanwhile would otherwise be replaced.
    tmp.persist_noclobber(path).map(drop).map_err(|e| {
        if e.error.kind() == io::ErrorKind::AlreadyExists {
            refuse_at(path, "exists (it appeared while pq-sat was working); nothing was written there: give --force to replace it, or another path")
        } else {
            IoError::io(path)(e.error)
        }
    })
}

/// Renames the finished `staging` directory to `dir`. Only a missing path, an empty
/// directory or, when `policy` allows replacing, pq-sat's earlier output
/// (its `marker` file) is replaced; an earlier output
/// is moved aside first and removed once the new one is in place (moved back if the
/// rename fails). On failure the staging directory is removed.
pub fn place_dir(
    staging: tempfile::TempDir,
    dir: &Path,
    marker: Marker,
    policy: WritePolicy,
) -> Result<(), IoError> {
    place_dir_with(staging, dir, marker, policy.replaces())
}

fn place_dir_with(
    staging: tempfile::TempDir,
    dir: &Path,
    marker: Marker,
    replace: bool,
) -> Result<(), IoError> {
    let old = match fs::symlink_metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(IoError::io(dir)(e)),
        Ok(m) if m.is_dir() => match dir_state(dir, marker)? {
            DirState::Empty => {
                // rename(2) replaces an empty directory, but not one that fills meanwhile.
                None
            }
            DirState::Ours if replace => Some(set_aside(dir)?),
            DirState::Ours | DirState::Other => {
                return Err(refuse_at(
                    dir,
                    "is no longer empty; nothing was written: give a new directory",
                ))
            }
        },
        Ok(m) => {
            return Err(match special(m.file_type()) {
                Some(what) => special_refusal(dir, what),
                None => refuse_at(dir, "is a file, not a directory; give a new directory"),
            })
        }
    };
    // Staging directories are private (0700); what is placed follows the umask, so that
    // others sharing a cluster directory can read it as they can read everything else.
    fs::set_permissions(staging.path(), fs::Permissions::from_mode(masked(0o777)))
        .map_err(IoError::io(dir))?;
    let staged = staging.keep();
    match fs::rename(&staged, dir) {
        Ok(()) => {
            if let Some(old) = old {
                let _ = fs::remove_dir_all(old);
            }
            Ok(())
        }
        Err(e) => {
            let _ = fs::remove_dir_all(&staged);
            if let Some(old) = old {
                let _ = fs::rename(old, dir);
            }
            Err(IoError::io(dir)(e))
        }
    }
}

/// Moves `dir` aside (to a temporary name beside it, named after this process so that a
/// killed run's is removed later) and returns where.
fn set_aside(dir: &Path) -> Result<PathBuf, IoError> {
    // An empty directory of a unique name, which rename(2) may replace.
    let aside = tempfile::Builder::new()
        .prefix(&prefix("old"))
        .tempdir_in(parent_dir(dir))
        .map_err(|e| write_error(dir, IoError::io(dir)(e)))?
        .keep();
    fs::rename(dir, &aside).map_err(|e| {
        let _ = fs::remove_dir(&aside);
        IoError::io(dir)(e)
    })?;
    Ok(aside)
}

#[cfg(test)]
mod tests {
    use super::temp::{owner, start_time};
    use super::*;
    use std::io::Write;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    fn write_new(path: &Path, text: &str) -> Result<(), IoError> {
        write_with(path, text, true)
    }

    fn write_with(path: &Path, text: &str, replace: bool) -> Result<(), IoError> {
        let mut tmp = temp_file(path, "out")?;
        tmp.write_all(text.as_bytes()).unwrap();
        persist_with(tmp, path, replace)
    }

    #[test]
    fn a_new_file_appears_whole_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        check_file(&path, false).unwrap();
        write_new(&path, "one").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "one");
        assert_eq!(names(dir.path()), ["a.txt"]);
        // An existing regular file: refused without force, replaced with it.
        let e = check_file(&path, false).unwrap_err().to_string();
        assert!(e.contains("already exists") && e.contains("--force"), "{e}");
        check_file(&path, true).unwrap();
        write_new(&path, "two").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "two");
        assert_eq!(names(dir.path()), ["a.txt"]);
        // Without --force, a file that appears after the check (a second run writing the
        // same path) is not replaced either, and the temporary goes.
        let later = dir.path().join("b.txt");
        check_file(&later, false).unwrap();
        fs::write(&later, "theirs").unwrap();
        let e = write_with(&later, "mine", false).unwrap_err().to_string();
        assert!(e.contains("exists") && e.contains("--force"), "{e}");
        assert_eq!(fs::read_to_string(&later).unwrap(), "theirs");
        assert_eq!(names(dir.path()), ["a.txt", "b.txt"]);
    }

    #[test]
    fn links_fifos_and_directories_are_never_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        fs::write(&target, "keep").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let sub = dir.path().join("sub");
        fs::create_dir(&sub).unwrap();
        for (path, word) in [
            (&link, "symbolic link"),
            (&fifo, "FIFO"),
            (&sub, "directory"),
        ] {
            for force in [false, true] {
                let e = check_file(path, force).unwrap_err().to_string();
                assert!(e.contains(word), "{e}");
            }
            let e = write_new(path, "x").unwrap_err().to_string();
            assert!(e.contains(word), "{e}");
        }
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep");
        assert_eq!(names(dir.path()), ["fifo", "link", "sub", "target"]);
    }

    #[test]
    fn a_missing_directory_is_named_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nodir").join("x.drat");
        let e = check_file(&path, false).unwrap_err().to_string();
        assert!(e.contains("does not exist") && e.contains("nodir"), "{e}");
        assert_eq!(e.matches("os error").count(), 0, "{e}");
        let e = temp_file(&path, "out").unwrap_err().to_string();
        assert!(!e.contains(".pq-"), "no temporary name: {e}");
        assert_eq!(e.matches("os error").count(), 1, "{e}");
    }

    const M: Marker = Marker {
        file: "m.json",
        key: "kind",
    };

    /// A manifest pq-sat would write, numbered.
    fn ours(k: u32) -> String {
        format!("{{\"generator\": \"pq-sat test\", \"kind\": {k}, \"files\": [\"a.cnf\"]}}")
    }

    #[test]
    fn directories_replace_only_empty_or_our_own() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        check_dir(&dir, M, false).unwrap();
        let fill = |text: &str| {
            let staging = temp_dir(&dir, "family").unwrap();
            fs::write(staging.path().join("m.json"), text).unwrap();
            fs::write(staging.path().join("a.cnf"), "p cnf 0 0\n").unwrap();
            staging
        };
        place_dir_with(fill(&ours(1)), &dir, M, false).unwrap();
        assert_eq!(names(tmp.path()), ["out"]);
        let e = check_dir(&dir, M, false).unwrap_err().to_string();
        assert!(e.contains("not empty") && e.contains("--force"), "{e}");
        check_dir(&dir, M, true).unwrap();
        assert!(place_dir_with(fill(&ours(2)), &dir, M, false).is_err());
        assert_eq!(fs::read_to_string(dir.join("m.json")).unwrap(), ours(1));
        place_dir_with(fill(&ours(2)), &dir, M, true).unwrap();
        assert_eq!(fs::read_to_string(dir.join("m.json")).unwrap(), ours(2));
        assert_eq!(names(tmp.path()), ["out"]);
        // A user's directory is not pq-sat's to replace, force or not.
        let mine = tmp.path().join("mine");
        fs::create_dir(&mine).unwrap();
        fs::write(mine.join("notes"), "x").unwrap();
        for force in [false, true] {
            let e = check_dir(&mine, M, force).unwrap_err().to_string();
            assert!(e.contains("not empty"), "{e}");
        }
        let staging = fill(&ours(3));
        assert!(place_dir_with(staging, &mine, M, true).is_err());
        assert_eq!(names(&mine), ["notes"]);
        assert_eq!(names(tmp.path()), ["mine", "out"]);
        // A manifest that is not pq-sat's (`{}`), one of another kind, or pq-sat's with a
        // file beside it that it does not name: none is replaced.
        let other_kind = "{\"generator\": \"pq-sat test\", \"cubes\": []}";
        for (manifest, extra) in [
            ("{}", None),
            (other_kind, None),
            (&*ours(4), Some("mine.js")),
        ] {
            let d = tmp.path().join("d");
            fs::create_dir(&d).unwrap();
            fs::write(d.join("m.json"), manifest).unwrap();
            if let Some(extra) = extra {
                fs::write(d.join(extra), "code").unwrap();
            }
            let e = check_dir(&d, M, true).unwrap_err().to_string();
            assert!(e.contains("not empty"), "{e}");
            assert!(place_dir_with(fill(&ours(5)), &d, M, true).is_err());
            fs::remove_dir_all(&d).unwrap();
        }
    }

    #[test]
    fn leftovers_of_dead_owners_go_and_live_ones_stay() {
        let tmp = tempfile::tempdir().unwrap();
        let me = owner().expect("tests run with /proc");
        let live = tmp.path().join(format!(".pq-family-{me}-abc123"));
        fs::create_dir(&live).unwrap();
        // A process id that is running but started at another time: a recycled id.
        let pid = std::process::id();
        let recycled = tmp.path().join(format!(".pq-certificate-{pid}-1-abc123"));
        fs::create_dir(&recycled).unwrap();
        fs::write(recycled.join("x"), "x").unwrap();
        // Beyond the largest process id Linux hands out (2^22).
        let dead = tmp.path().join(".pq-out-99999999-5-Zz9a0B");
        fs::write(&dead, "x").unwrap();
        let foreign = tmp.path().join(".pq-family-xyz");
        fs::create_dir(&foreign).unwrap();
        remove_leftovers(tmp.path());
        let left = names(tmp.path());
        assert_eq!(
            left,
            [
                format!(".pq-family-{me}-abc123"),
                ".pq-family-xyz".to_string()
            ]
        );
    }

    /// A killed run not yet reaped by its parent (a zombie) owns nothing any more.
    #[test]
    fn a_zombie_owner_is_gone() {
        let tmp = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new("sleep")
            .arg("60")
            .spawn()
            .unwrap();
        let pid = child.id();
        let start = start_time(pid).expect("running");
        let stale = tmp.path().join(format!(".pq-out-{pid}-{start}-a1B2c3"));
        fs::write(&stale, "x").unwrap();
        remove_leftovers(tmp.path());
        assert!(stale.exists(), "its owner still runs");
        // Killed but not waited for: a zombie until `wait` below. (Killed rather than left
        // to end by itself, so a loaded machine cannot end it before the first look.)
        child.kill().unwrap();
        let stat = format!("/proc/{pid}/stat");
        let ended = || fs::read_to_string(&stat).map_or(true, |s| s.contains(") Z"));
        let t = std::time::Instant::now();
        while !ended() {
            assert!(t.elapsed().as_secs() < 30);
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        remove_leftovers(tmp.path());
        assert!(!stale.exists());
        let _ = child.wait();
    }

    #[test]
    fn same_target_sees_through_dots_and_links() {
        let tmp = tempfile::tempdir().unwrap();
        let a = tmp.path().join("x.drat");
        let b = tmp.path().join("sub").join("..").join("x.drat");
        fs::create_dir(tmp.path().join("sub")).unwrap();
        assert!(same_target(&a, &b));
        assert!(!same_target(&a, &tmp.path().join("x.cnf")));
        fs::write(&a, "x").unwrap();
        fs::hard_link(&a, tmp.path().join("h")).unwrap();
        assert!(same_target(&a, &tmp.path().join("h")));
    }

    #[test]
    fn paths_refuse_one_file_twice_an_input_overwritten_and_a_file_in_an_input_dir() {
        let tmp = tempfile::tempdir().unwrap();
        let (a, b) = (tmp.path().join("a.cnf"), tmp.path().join("b.cnf"));
        fs::write(&b, "p cnf 0 0\n").unwrap();
        let file = |flag, path| Output {
            flag,
            path,
            dir: None,
        };
        let paths = |outputs, inputs, input_dirs| Paths {
            outputs,
            inputs,
            input_dirs,
            force: false,
        };
        let twice = paths(
            vec![file("--proof", &a), file("--cnf-out", &a)],
            vec![],
            vec![],
        );
        let e = twice.check_distinct().unwrap_err().to_string();
        assert!(
            e.contains("--proof and --cnf-out name the same file"),
            "{e}"
        );
        let over = paths(vec![file("-o", &b)], vec![("--cnf", &b)], vec![]);
        let e = over.check_distinct().unwrap_err().to_string();
        assert!(e.contains("would overwrite the input --cnf"), "{e}");
        let inside = paths(vec![file("-o", &b)], vec![], vec![tmp.path()]);
        let e = inside.check_distinct().unwrap_err().to_string();
        assert!(
            e.contains("would replace a file of the input directory"),
            "{e}"
        );
        // A new file beside the inputs is fine.
        let fine = paths(vec![file("-o", &a)], vec![("--cnf", &b)], vec![tmp.path()]);
        assert!(fine.check_distinct().is_ok());
        assert!(fine.prepare().is_ok());
    }
}
