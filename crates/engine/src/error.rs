//! [`EngineError`]: the engine's own failures, as opposed to a backend's
//! ([`pq_solve::error::SolveError`]). They travel up as [`SolveError::Engine`], so that every
//! engine function keeps one error type; a caller that needs the kind finds it with
//! [`EngineError::of`].

use pq_solve::error::SolveError;

/// Why the engine gave no answer, by kind. Each message says what to do, in the words of
/// the command line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The engine asked for cannot answer this problem, or cannot do what was asked of it
    /// here (a proof for a problem it writes none for).
    #[error("{0}")]
    Unsupported(String),
    /// The question itself does not hold up (a board that is too large, more pieces than
    /// squares, a symmetry the request cannot use).
    #[error("{0}")]
    Request(String),
    /// A journal of the line engine's finished units that cannot be used: another step's,
    /// not a regular file, too large, damaged.
    #[error("{0}")]
    Journal(String),
    /// A proof or formula file given to a checker that is not what it should be.
    #[error("{0}")]
    ProofFile(String),
    /// A certificate that cannot be written (the proof run contradicts the optimum, the
    /// proof is not verified) or read (not a bundle, parts outside it).
    #[error("{0}")]
    Certificate(String),
    /// The independent checker refused a certificate the engine wrote: a bug.
    #[error(
        "pq-check refused the line engine's search certificate: {0} (a bug: please report it)"
    )]
    CheckerRefused(String),
    /// A formula that cannot be split into cubes, or cubes that cannot be conquered.
    #[error("{0}")]
    Cubes(String),
    /// An external optimiser's run that gives no usable answer.
    #[error("{0}")]
    Optimiser(String),
    /// A run that ended without the answer it was for (an optimum not found).
    #[error("{0}")]
    Unfinished(String),
}

impl From<EngineError> for SolveError {
    fn from(e: EngineError) -> SolveError {
        SolveError::Engine(Box::new(e))
    }
}

impl EngineError {
    /// The engine's error inside `e`, if it is one.
    pub fn of(e: &SolveError) -> Option<&EngineError> {
        match e {
            SolveError::Engine(inner) => inner.downcast_ref(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engine_error_travels_as_a_solve_error_and_is_found_again() {
        let e: SolveError = EngineError::Journal("j: another step's journal".into()).into();
        assert_eq!(e.to_string(), "j: another step's journal");
        assert!(matches!(EngineError::of(&e), Some(EngineError::Journal(_))));
        assert_eq!(EngineError::of(&SolveError::Interrupted), None);
    }
}
