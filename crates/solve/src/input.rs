//! The one reader of DIMACS files (`solve --cnf`, `cube --cnf`): plain or compressed (known
//! by their first bytes), from a file or standard input, stopped by a time limit or Ctrl-C.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::control::Limits;
use pq_encode::dimacs::{self, ParseError};
use pq_encode::Formula;

/// Why a formula could not be read; the cause follows as the error's source.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be opened.
    #[error("cannot open {}", .path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// Its bytes could not be read or decompressed (or a limit stopped the read).
    #[error("cannot read {what}")]
    Read {
        /// The file's path, or "standard input".
        what: String,
        /// Why.
        source: io::Error,
    },
    /// It is not DIMACS CNF.
    #[error("cannot read {what}")]
    Parse {
        /// The file's path, or "standard input".
        what: String,
        /// Where and why.
        source: ParseError,
    },
}

/// Parses the DIMACS formula at `path` (standard input when `None`); a read that `limits`
/// stop (time limit, Ctrl-C) is an error.
pub fn read_formula(path: Option<&Path>, limits: &Limits) -> Result<Formula, ReadError> {
    if let Some(p) = path {
        let file = File::open(p).map_err(|source| ReadError::Open {
            path: p.to_path_buf(),
            source,
        })?;
        parse(
            Watched {
                inner: file,
                limits,
            },
            p.display().to_string(),
        )
    } else {
        let stdin = io::stdin();
        let input = Watched {
            inner: stdin.lock(),
            limits,
        };
        parse(input, "standard input".to_string())
    }
}

fn parse(input: impl Read, what: String) -> Result<Formula, ReadError> {
    let input = match pq_io::compress::decompressed(input) {
        Ok(input) => input,
        Err(source) => return Err(ReadError::Read { what, source }),
    };
    dimacs::parse(input).map_err(|source| ReadError::Parse { what, source })
}

/// A reader that fails once its limits say stop: reading a big formula takes seconds, and
/// neither a time limit nor Ctrl-C may wait for it.
struct Watched<'a, R> {
    inner: R,
    limits: &'a Limits,
}

impl<R: Read> Read for Watched<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.limits.stop_reason() {
            Some(reason) => Err(io::Error::other(format!(
                "{reason} before the formula was read; nothing was solved"
            ))),
            None => self.inner.read(buf),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each failure names the file and keeps its cause, as `{:#}` shows it to the user.
    #[test]
    fn a_missing_a_cut_and_a_broken_file_each_say_which_and_why() {
        let dir = tempfile::tempdir().unwrap();
        let limits = Limits::none();
        let missing = dir.path().join("missing.cnf");
        let e = read_formula(Some(&missing), &limits).unwrap_err();
        assert!(matches!(e, ReadError::Open { .. }), "{e}");
        assert!(e.to_string().starts_with("cannot open "), "{e}");
        let bad = dir.path().join("bad.cnf");
        std::fs::write(&bad, "p cnf 2 1\n1 x 0\n").unwrap();
        let e = read_formula(Some(&bad), &limits).unwrap_err();
        assert!(matches!(e, ReadError::Parse { .. }), "{e}");
        let cause = std::error::Error::source(&e).unwrap().to_string();
        assert!(cause.contains("'x' is not a literal"), "{cause}");
        let cut = dir.path().join("cut.cnf.xz");
        let xz =
            pq_io::compress::compressed(pq_io::compress::Compression::Xz, b"p cnf 2 1\n1 2 0\n")
                .unwrap();
        std::fs::write(&cut, &xz[..xz.len() / 2]).unwrap();
        assert!(read_formula(Some(&cut), &limits).is_err());
        let good = dir.path().join("good.cnf");
        std::fs::write(&good, "c hello\np cnf 2 1\n1 2 0\n").unwrap();
        let f = read_formula(Some(&good), &limits).unwrap();
        assert_eq!((f.n_vars, f.n_clauses()), (2, 1));
    }
}
