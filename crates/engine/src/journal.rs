//! A journal of one line-engine step (`solve --n N --journal FILE`), so that a search
//! longer than a session goes on where it stopped.
//!
//! The engine's search of a step is a loop over independent units (row sets of two armies,
//! row colourings of three or more: [`crate::estimate_lines`]); the step is UNSAT once every
//! unit has been searched to its end without a solution. The journal records those units,
//! one line each, as they finish; a later run with the same journal skips them. Its header
//! names the step and the SHA-256 of the engine's unit list, so a journal is refused by any
//! other step, and by a pq-sat whose units differ (a unit number means nothing there).
//!
//! Lines are appended and flushed one at a time; a run killed mid-line leaves a partial
//! last line, which the next run drops (that unit is searched again).

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use pq_solve::error::SolveError;

/// The first line of every journal.
const MAGIC: &str = "pq-sat journal 1";

/// An open journal: the units already done, and the file new ones go to.
pub struct Journal {
    path: PathBuf,
    done: BTreeSet<usize>,
    file: Mutex<File>,
    /// The first write error, reported by [`Journal::finish`].
    failed: Mutex<Option<std::io::Error>>,
}

impl Journal {
    /// Opens the journal at `path` for the step `step` with `units` units of kind `unit`
    /// whose list hashes to `sha256`, creating it if it does not exist.
    ///
    /// # Errors
    /// A file that cannot be read or written, that is not a journal, or that is the
    /// journal of another step or unit list.
    pub fn open(
        path: &Path,
        step: &str,
        units: usize,
        unit: &str,
        sha256: &str,
    ) -> Result<Journal, SolveError> {
        let header = format!("{MAGIC}\nstep: {step}\nunits: {units} {unit}s, sha256 {sha256}\n");
        let io = |e| SolveError::io(path)(e);
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(io)?;
        let text = std::io::read_to_string(&mut file).map_err(io)?;
        let mut done = BTreeSet::new();
        if text.is_empty() {
            file.write_all(header.as_bytes()).map_err(io)?;
            file.flush().map_err(io)?;
        } else {
            let Some(body) = text.strip_prefix(&header) else {
                let first = text.lines().take(3).collect::<Vec<_>>().join(" / ");
                return Err(SolveError::Invalid(format!(
                    "{}: not the journal of this step ({step}; {units} {unit}s, sha256 {sha256}): it begins \"{first}\"",
                    path.display()
                )));
            };
            // Only whole lines count: a partial last line is cut off before appending.
            let whole = body.rfind('\n').map_or(0, |i| i + 1);
            for line in body[..whole].lines() {
                let k = line
                    .strip_prefix("done ")
                    .and_then(|k| k.parse::<usize>().ok())
                    .filter(|&k| (1..=units).contains(&k))
                    .ok_or_else(|| {
                        SolveError::Invalid(format!(
                            "{}: \"{line}\" is not a line of a journal of {units} units",
                            path.display()
                        ))
                    })?;
                done.insert(k - 1);
            }
            if whole < body.len() {
                file.set_len((header.len() + whole) as u64).map_err(io)?;
                file.seek(SeekFrom::End(0)).map_err(io)?;
            }
        }
        Ok(Journal {
            path: path.to_path_buf(),
            done,
            file: Mutex::new(file),
            failed: Mutex::new(None),
        })
    }

    /// The units (0-based) searched to their end by earlier runs.
    pub fn done(&self) -> &BTreeSet<usize> {
        &self.done
    }

    /// Records that unit `i` (0-based) was searched to its end without a solution.
    pub fn record(&self, i: usize) {
        let mut file = self
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Err(e) = writeln!(file, "done {}", i + 1).and_then(|()| file.flush()) {
            self.failed
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .get_or_insert(e);
        }
    }

    /// The first error of any [`Journal::record`].
    ///
    /// # Errors
    /// That error: the units it lost will be searched again by the next run.
    pub fn finish(self) -> Result<(), SolveError> {
        match self
            .failed
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
        {
            Some(e) => Err(SolveError::io(&self.path)(e)),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_resumes_refuses_another_step_and_drops_a_partial_line() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("j");
        let open = |step: &str, units| Journal::open(&path, step, units, "row set", "abc");
        let j = open("a step", 5).unwrap();
        assert!(j.done().is_empty());
        j.record(0);
        j.record(3);
        j.finish().unwrap();
        let j = open("a step", 5).unwrap();
        assert_eq!(j.done().iter().copied().collect::<Vec<_>>(), [0, 3]);
        drop(j);
        // Another step, or another unit list, is refused.
        assert!(open("another step", 5).is_err());
        assert!(open("a step", 6).is_err());
        // A run killed mid-line: the partial line is dropped, then appended after.
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("done 2");
        std::fs::write(&path, &text).unwrap();
        let j = open("a step", 5).unwrap();
        assert_eq!(j.done().len(), 2);
        j.record(4);
        j.finish().unwrap();
        let j = open("a step", 5).unwrap();
        assert_eq!(j.done().iter().copied().collect::<Vec<_>>(), [0, 3, 4]);
        drop(j);
        // A line that is not a unit of this step.
        std::fs::write(&path, text.replace("done 2", "done 9\n")).unwrap();
        assert!(open("a step", 5).is_err());
    }
}
