//! Errors raised while running a backend.

use std::path::PathBuf;

/// Why a backend failed to give an answer (as opposed to answering `unknown`).
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The external solver program is not on the PATH.
    #[error("solver '{program}' is not installed (not found on PATH); {hint}")]
    NotInstalled { program: String, hint: String },
    /// The `--solver-cmd` string could not be split into a program and arguments.
    #[error("bad solver command '{0}': {1}")]
    BadCommand(String, String),
    /// Starting the process or talking to it failed.
    #[error("could not run solver '{program}': {source}")]
    Spawn {
        program: String,
        #[source]
        source: std::io::Error,
    },
    /// The solver died from a signal, exited with an unexpected code, or printed nonsense.
    #[error("solver '{program}' failed: {reason}{}", stderr_suffix(.stderr))]
    SolverFailed {
        program: String,
        reason: String,
        stderr: String,
    },
    /// The solver answered SAT but its model does not satisfy the formula.
    #[error(
        "solver '{program}' returned a model that violates clause {clause_index} of the formula"
    )]
    BadModel {
        program: String,
        clause_index: usize,
    },
    /// Two solvers of a portfolio gave opposite answers on one formula. The SAT model was
    /// checked against every clause, so the UNSAT claim is the wrong one.
    #[error("solvers disagree: '{sat}' found a model that satisfies every clause, but '{unsat}' answered UNSAT (a solver bug)")]
    Disagreement { sat: String, unsat: String },
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The model decodes to a board the independent validator rejects: an encoder or
    /// solver bug. Never printed as a solution.
    #[error("internal error: {backend} returned a model whose board fails validation: {details}")]
    InvalidBoard { backend: String, details: String },
    /// An in-process solver reported an internal error.
    #[error("in-process solver {backend} failed: {message}")]
    InProcess { backend: String, message: String },
}

fn stderr_suffix(stderr: &str) -> String {
    let trimmed = stderr.trim();
    if trimmed.is_empty() {
        String::new()
    } else {
        // The tail is where solvers print the reason they stopped.
        let tail: Vec<&str> = trimmed.lines().rev().take(20).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        format!("; its stderr ends with:\n{}", tail.join("\n"))
    }
}
