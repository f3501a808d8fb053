//! Python's arguments made into the command line's values: numbers through the same
//! parsers (`pq_ops::values`), so that every refusal carries the command line's message,
//! and names of options through their own `FromStr`.

use std::str::FromStr;
use std::time::Duration;

use pq_encode::spec::Problem;
use pq_encode::Instance;
use pq_engine::plan::request::EncodingRequest;
use pq_ops::values::{parse_dim, parse_jobs, parse_n, parse_timeout};
use pyo3::prelude::*;

use crate::problem::PyProblem;
use crate::usage;

/// A board side, 1 to 64.
pub(crate) fn side(d: i64) -> PyResult<usize> {
    parse_dim(&d.to_string()).map_err(usage)
}

/// The size of the maximised groups (an army), 0 to 4096.
pub(crate) fn size(n: i64) -> PyResult<usize> {
    parse_n(&n.to_string()).map_err(usage)
}

/// A number of threads or solvers, 1 to 64.
pub(crate) fn jobs(j: i64) -> PyResult<usize> {
    parse_jobs(&j.to_string()).map_err(usage)
}

/// A time limit in seconds.
pub(crate) fn seconds(t: f64) -> PyResult<Duration> {
    parse_timeout(&t.to_string()).map_err(usage)
}

/// An option's value by its name (`"lex-leader"`, `"totalizer"`, ...).
pub(crate) fn named<T: FromStr<Err = String>>(value: Option<&str>) -> PyResult<Option<T>> {
    value.map(str::parse).transpose().map_err(usage)
}

/// The encoding options given by name (`model`, `card`, `symmetry`, `bounds`).
pub(crate) fn encoding(
    model: Option<&str>,
    card: Option<&str>,
    symmetry: Option<&str>,
    bounds: Option<&str>,
) -> PyResult<EncodingRequest> {
    Ok(EncodingRequest {
        model: named(model)?,
        card: named(card)?,
        symmetry: named(symmetry)?,
        bounds: named(bounds)?,
    })
}

/// What a call is about: the queens on `dim × dim`, or a problem (a `Problem`, a built-in
/// name or a TOML file).
pub(crate) enum Subject {
    /// `dim=D`.
    Queens(usize),
    /// A problem.
    Problem(Box<PyProblem>),
}

impl Subject {
    /// Exactly one of `problem` and `dim`; with `dim` and `n`, the size is checked as a
    /// queens instance (for its message: "too many queens"), as the command line does.
    pub(crate) fn of(
        problem: Option<&Bound<'_, PyAny>>,
        dim: Option<i64>,
        n: Option<usize>,
    ) -> PyResult<Subject> {
        match (problem, dim) {
            (Some(_), Some(_)) => Err(usage(
                "give a problem or dim=D, not both (dim=D is the peaceable queens on D x D)",
            )),
            (None, None) => Err(usage(
                "give dim=D (the peaceable queens on D x D) or a problem (a pqsat.Problem, a built-in name or a TOML file)",
            )),
            (Some(p), None) => {
                let p = PyProblem::from_arg(p)?;
                match (p.queens, p.settings.is_empty()) {
                    (Some(d), true) => Subject::of(None, Some(d as i64), n),
                    _ => Ok(Subject::Problem(Box::new(p))),
                }
            }
            (None, Some(d)) => {
                let d = side(d)?;
                if let Some(n) = n {
                    Instance::new(d, n).map_err(|e| usage(e.to_string()))?;
                }
                Ok(Subject::Queens(d))
            }
        }
    }

    /// The problem as `encode` and `enumerate` read it: the settings applied.
    pub(crate) fn problem(&self) -> Problem {
        match self {
            Subject::Queens(d) => Problem::peaceable_queens(*d),
            Subject::Problem(p) => p.problem.clone(),
        }
    }

    /// The problem as a `pqsat.Problem`.
    pub(crate) fn into_problem(self) -> PyProblem {
        match self {
            Subject::Queens(d) => PyProblem::of(
                Problem::peaceable_queens(d),
                Some(d),
                format!("the peaceable queens on {d}x{d}"),
            ),
            Subject::Problem(p) => *p,
        }
    }

    /// Whether it is the queens on a square board given by its side (`--dim`).
    pub(crate) fn is_dim(&self) -> bool {
        matches!(self, Subject::Queens(_))
    }
}
