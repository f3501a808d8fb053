//! The one reader of DIMACS files (`solve --cnf`, `cube --cnf`): plain or compressed (known
//! by their first bytes), from a file or standard input, stopped by a time limit or Ctrl-C.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use pq_encode::dimacs::{self, ParseError};
use pq_encode::Formula;
use pq_solve::control::Limits;

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
