//! A journal of one line-engine step (`solve --n N --journal FILE`), so that a search
//! longer than a session goes on where it stopped.
//!
//! The engine's search of a step is a loop over independent units (row sets of two armies,
//! row colourings of three or more: [`crate::lines::estimate`]); the step is UNSAT once every
//! unit has been searched to its end without a solution. The journal records those units,
//! one line each, as they finish; a later run with the same journal skips them. Its header
//! names the step and the SHA-256 of the engine's unit list, so a journal is refused by any
//! other step, and by a pq-sat whose units differ (a unit number means nothing there).
//!
//! The journal is bound to its claim: the header names every field that decides what a
//! unit's search means (the problem's rules, the board, each army's demand, the engine's
//! unit list), and each record carries a tag that hashes the whole header with the unit's
//! number. A journal of another step is refused naming the field that differs, and records
//! under an edited header (say n = 14's records under a header that says 13) are refused,
//! since their tags no longer match: a record can only answer the claim it was written for.
//!
//! Lines are appended and flushed one at a time; a run killed mid-line leaves a partial
//! last line, which the next run drops (that unit is searched again).

use crate::error::EngineError;
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use pq_io::hashing::sha256_hex;
use pq_solve::error::SolveError;

/// The first line of every journal.
const MAGIC: &str = "pq-sat journal 2";

/// The largest journal read (a unit a line, at most a few million units).
const MAX_BYTES: u64 = 1 << 30;

/// An open journal: the units already done, and the file new ones go to.
pub(crate) struct Journal {
    path: PathBuf,
    done: BTreeSet<usize>,
    /// The SHA-256 of the header, which every record's tag hashes.
    claim: String,
    file: Mutex<File>,
    /// The first write error, reported by [`Journal::finish`].
    failed: Mutex<Option<std::io::Error>>,
}

/// The tag of unit `k` (1-based) under the header hashed as `claim`.
fn tag(claim: &str, k: usize) -> String {
    sha256_hex(format!("{claim} done {k}").as_bytes())[..16].to_string()
}

impl Journal {
    /// Opens the journal at `path` for the claim `fields` (`(name, value)` pairs: the step,
    /// the rules, the demands, the unit list; the caller's order is the header's), whose
    /// search has `units` units, creating it if it does not exist.
    ///
    /// # Errors
    /// A file that cannot be read or written, that is not a regular file or not a journal,
    /// that is the journal of another claim (the field that differs is named), or whose
    /// records were written under another header.
    pub(crate) fn open(
        path: &Path,
        fields: &[(&str, String)],
        units: usize,
    ) -> Result<Journal, SolveError> {
        let mut header = format!("{MAGIC}\n");
        for (name, value) in fields {
            header.push_str(&format!("{name}: {value}\n"));
        }
        let claim = sha256_hex(header.as_bytes());
        let io = |e| SolveError::io(path)(e);
        // A FIFO or a device would block the open or never end: only regular files.
        if let Ok(meta) = std::fs::metadata(path) {
            if !meta.is_file() {
                return Err(SolveError::from(EngineError::Journal(format!(
                    "{}: a journal must be a regular file",
                    path.display()
                ))));
            }
            if meta.len() > MAX_BYTES {
                return Err(SolveError::from(EngineError::Journal(format!(
                    "{}: {} bytes is more than a journal holds (at most {MAX_BYTES})",
                    path.display(),
                    meta.len()
                ))));
            }
        }
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(io)?;
        let text = std::io::read_to_string(&mut file).map_err(io)?;
        let mut done = BTreeSet::new();
        let refuse = |why: String| {
            SolveError::from(EngineError::Journal(format!("{}: {why}", path.display())))
        };
        if text.is_empty() {
            file.write_all(header.as_bytes()).map_err(io)?;
            file.flush().map_err(io)?;
        } else {
            let Some(body) = text.strip_prefix(&header) else {
                return Err(refuse(differs(&text, &header)));
            };
            // Only whole lines count: a partial last line is cut off before appending.
            let whole = body.rfind('\n').map_or(0, |i| i + 1);
            for line in body[..whole].lines() {
                let (k, t) = line
                    .strip_prefix("done ")
                    .and_then(|rest| rest.split_once(' '))
                    .and_then(|(k, t)| Some((k.parse::<usize>().ok()?, t)))
                    .filter(|&(k, _)| (1..=units).contains(&k))
                    .ok_or_else(|| {
                        refuse(format!(
                            "\"{line}\" is not a line of a journal of {units} units"
                        ))
                    })?;
                if t != tag(&claim, k) {
                    return Err(refuse(format!(
                        "\"{line}\" was recorded for another claim than this header's (was the header edited?); start a new journal"
                    )));
                }
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
            claim,
            file: Mutex::new(file),
            failed: Mutex::new(None),
        })
    }

    /// The units (0-based) searched to their end by earlier runs.
    pub(crate) fn done(&self) -> &BTreeSet<usize> {
        &self.done
    }

    /// Records that unit `i` (0-based) was searched to its end without a solution.
    pub(crate) fn record(&self, i: usize) {
        let mut file = self
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let line = format!("done {} {}", i + 1, tag(&self.claim, i + 1));
        if let Err(e) = writeln!(file, "{line}").and_then(|()| file.flush()) {
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
    pub(crate) fn finish(self) -> Result<(), SolveError> {
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

/// Why a journal's text does not begin with `header`: the first field that differs, by name.
fn differs(text: &str, header: &str) -> String {
    let mut theirs = text.lines();
    if theirs.next() != Some(MAGIC) {
        let first = text.lines().next().unwrap_or("");
        return if first.starts_with("pq-sat journal") {
            format!("written by another pq-sat (\"{first}\", this one writes \"{MAGIC}\"); start a new journal")
        } else {
            format!("not a pq-sat journal: it begins \"{first}\"")
        };
    }
    for mine in header.lines().skip(1) {
        let name = mine.split(": ").next().unwrap_or(mine);
        let their = theirs.next().unwrap_or("");
        if their != mine {
            let value = |line: &str| line.split_once(": ").map_or(line, |(_, v)| v).to_string();
            return if their.starts_with(&format!("{name}: ")) {
                format!(
                    "the journal of another claim: its {name} is \"{}\", this run's \"{}\"",
                    value(their),
                    value(mine)
                )
            } else {
                format!("the journal of another claim: \"{their}\" where \"{mine}\" was expected")
            };
        }
    }
    "its header does not end where this run's does".into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(n: usize, units: &str) -> Vec<(&'static str, String)> {
        vec![
            ("step", format!("queens, 8x8, n = {n}")),
            ("demands", format!("{n} {n}")),
            ("units", units.to_string()),
        ]
    }

    #[test]
    fn a_journal_resumes_refuses_another_step_and_drops_a_partial_line() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("j");
        let open = |n, units| Journal::open(&path, &fields(n, "5 row sets, sha256 abc"), units);
        let j = open(14, 5).unwrap();
        assert!(j.done().is_empty());
        j.record(0);
        j.record(3);
        j.finish().unwrap();
        let j = open(14, 5).unwrap();
        assert_eq!(j.done().iter().copied().collect::<Vec<_>>(), [0, 3]);
        drop(j);
        // Another step is refused, naming the field that differs.
        let e = open(13, 5).err().unwrap().to_string();
        assert!(e.contains("its step is \"queens, 8x8, n = 14\""), "{e}");
        let e = Journal::open(&path, &fields(14, "6 row sets, sha256 abd"), 6)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("its units is"), "{e}");
        // A run killed mid-line: the partial line is dropped, then appended after.
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("done 2");
        std::fs::write(&path, &text).unwrap();
        let j = open(14, 5).unwrap();
        assert_eq!(j.done().len(), 2);
        j.record(4);
        j.finish().unwrap();
        let j = open(14, 5).unwrap();
        assert_eq!(j.done().iter().copied().collect::<Vec<_>>(), [0, 3, 4]);
        drop(j);
        // A line that is not a unit of this step.
        std::fs::write(&path, text.replace("done 2", "done 9 0\n")).unwrap();
        assert!(open(14, 5).is_err());
    }

    #[test]
    fn records_under_an_edited_header_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("j");
        let j = Journal::open(&path, &fields(14, "5 row sets"), 5).unwrap();
        j.record(1);
        j.finish().unwrap();
        // The header edited to claim n = 13, the records kept.
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("14", "13")).unwrap();
        let e = Journal::open(&path, &fields(13, "5 row sets"), 5)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("recorded for another claim"), "{e}");
        // A record copied from another journal, the same.
        let other = tmp.path().join("k");
        Journal::open(&other, &fields(13, "5 row sets"), 5)
            .unwrap()
            .finish()
            .unwrap();
        let mut text = std::fs::read_to_string(&other).unwrap();
        text.push_str("done 2 0123456789abcdef\n");
        std::fs::write(&other, text).unwrap();
        assert!(Journal::open(&other, &fields(13, "5 row sets"), 5).is_err());
    }

    #[test]
    fn an_older_journal_and_special_files_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("j");
        std::fs::write(&path, "pq-sat journal 1\nstep: x\n").unwrap();
        let e = Journal::open(&path, &fields(3, "1"), 1)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("another pq-sat"), "{e}");
        let e = Journal::open(tmp.path(), &fields(3, "1"), 1)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("regular file"), "{e}");
    }
}
