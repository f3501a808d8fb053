//! Errors raised while running a backend.

use std::path::{Path, PathBuf};

/// Why a backend failed to give an answer (as opposed to answering `unknown`).
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The external solver program is not on the PATH.
    #[error("solver '{program}' is not installed (not found on PATH); {hint}")]
    NotInstalled {
        /// The program looked for.
        program: String,
        /// How to install it, or why the path given does not work.
        hint: String,
    },
    /// The `--solver-cmd` string could not be split into a program and arguments.
    #[error("bad solver command '{0}': {1}")]
    BadCommand(String, String),
    /// Starting the process or talking to it failed.
    /// The OS error is in the message and deliberately not a source, which `{:#}` would
    /// print a second time.
    #[error("could not run solver '{program}': {}", os_message(.error))]
    Spawn {
        /// The program's name.
        program: String,
        /// What the operating system said.
        error: std::io::Error,
    },
    /// The solver died from a signal, exited with an unexpected code, or printed nonsense.
    #[error("solver '{program}' failed: {reason}{}", stderr_suffix(.stderr))]
    SolverFailed {
        /// The program's name.
        program: String,
        /// What went wrong (signal, exit code, unreadable output).
        reason: String,
        /// What it printed on stderr, possibly empty; the message quotes its last 20 lines.
        stderr: String,
    },
    /// The solver answered SAT but its model does not satisfy the formula.
    #[error(
        "solver '{program}' returned a model that violates clause {clause_index} of the formula"
    )]
    BadModel {
        /// The solver that answered.
        program: String,
        /// The first clause the model falsifies, 1-based in file order.
        clause_index: usize,
    },
    /// Two solvers of a portfolio gave opposite answers on one formula. The SAT model was
    /// checked against every clause, so the UNSAT claim is the wrong one.
    #[error("solvers disagree: '{sat}' found a model that satisfies every clause, but '{unsat}' answered UNSAT (a solver bug)")]
    Disagreement {
        /// The solver that found the model.
        sat: String,
        /// The solver that answered UNSAT.
        unsat: String,
    },
    /// The solver's answer contradicts something pq-sat knows for sure: an UNSAT where the
    /// table of proven values says the pieces fit, or an UNSAT whose proof the independent
    /// checker rejects. Never a result; a portfolio waits for its other members.
    #[error("solver '{program}' {reason}: its answer is rejected (a solver error)")]
    Rejected {
        /// The solver that answered.
        program: String,
        /// What it answered and what refutes it, e.g. "answered UNSAT, but ...".
        reason: String,
    },
    /// Reading or writing a file failed. The message is one line: the path and what the
    /// operating system said, once (the error is not also given as a source, which would
    /// print it twice, and a temporary file's name inside it is left out).
    #[error("{path}: {}", os_message(.error))]
    Io {
        /// The file the user named (never a temporary beside it).
        path: PathBuf,
        /// What the operating system said.
        error: std::io::Error,
    },
    /// The model decodes to a board the independent validator rejects: an encoder or
    /// solver bug. Never printed as a solution.
    #[error("internal error: {backend} returned a model whose board fails validation: {details}")]
    InvalidBoard {
        /// The backend whose model it was.
        backend: String,
        /// What is wrong with the board, or why the model does not decode to one.
        details: String,
    },
    /// A request or a file does not hold up: a certificate directory that is not empty, a
    /// witness with the wrong counts, an optimum the proof run contradicts, a proof the
    /// checker rejects, a manifest that cannot be read. The message says which.
    #[error("{0}")]
    Invalid(String),
    /// A failure of an engine above the backends, in that engine's own error type
    /// (pq-engine's `EngineError`: a problem the engine cannot answer, a journal, proof
    /// file or certificate that does not hold up, ...); the message is its own.
    #[error(transparent)]
    Engine(Box<dyn std::error::Error + Send + Sync>),
    /// pq-sat was interrupted (Ctrl-C, SIGTERM) before the job finished; nothing it had not
    /// finished was written.
    #[error("interrupted")]
    Interrupted,
    /// An in-process solver reported an internal error.
    #[error("in-process solver {backend} failed: {message}")]
    InProcess {
        /// The in-process solver.
        backend: String,
        /// What went wrong, in words.
        message: String,
    },
}

impl SolveError {
    /// For `map_err` on writes to a temporary of `target`: an I/O error names `target`,
    /// which the user gave, not the temporary.
    pub fn naming(target: &Path) -> impl FnOnce(SolveError) -> SolveError + '_ {
        move |e| match e {
            SolveError::Io { error, .. } => SolveError::Io {
                path: target.to_path_buf(),
                error,
            },
            other => other,
        }
    }

    /// The [`SolveError::Io`] of a failed operation on `path`, for `map_err`.
    pub fn io(path: &Path) -> impl FnOnce(std::io::Error) -> SolveError {
        let path = path.to_path_buf();
        move |error| SolveError::Io { path, error }
    }

    /// The [`SolveError::InProcess`] of `backend` failing with `message`.
    pub fn in_process(backend: &str, message: impl std::fmt::Display) -> SolveError {
        SolveError::InProcess {
            backend: backend.into(),
            message: message.to_string(),
        }
    }
}

pub use pq_io::os_message;

impl From<pq_io::IoError> for SolveError {
    fn from(e: pq_io::IoError) -> SolveError {
        match e {
            pq_io::IoError::Io { path, error } => SolveError::Io { path, error },
            pq_io::IoError::Refused(message) => SolveError::Invalid(message),
        }
    }
}

fn stderr_suffix(stderr: &str) -> String {
    let lines: Vec<&str> = stderr.trim().lines().collect();
    if lines.is_empty() {
        return String::new();
    }
    // The tail is where solvers print the reason they stopped.
    let tail = &lines[lines.len().saturating_sub(20)..];
    format!("; its stderr ends with:\n{}", tail.join("\n"))
}
