//! The answer to one step, whichever engine gave it: its status, the validated placement
//! and what the answer is about. Every placement an engine reports goes through
//! [`validated`], the independent validator ([`pq_board::rules::check_placement`]), trimmed
//! once to the demanded counts.

use pq_board::placement::Placement;
use pq_board::rules::{check_placement, RuleViolation};
use pq_encode::spec::Problem;
use pq_solve::error::SolveError;

/// `sat`, `unsat` or `unknown`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A model was found (and, for pq-sat formulas, decoded and validated).
    Sat,
    /// The solver proved that no model exists.
    Unsat,
    /// No answer: a limit was reached or the solver gave up.
    Unknown,
}

impl Status {
    /// The lower-case name used in JSON and logs.
    pub fn name(self) -> &'static str {
        match self {
            Status::Sat => "sat",
            Status::Unsat => "unsat",
            Status::Unknown => "unknown",
        }
    }
}

/// The answer for one formula.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// SAT, UNSAT or unknown.
    pub status: Status,
    /// The validated placement, with exactly the demanded number of pieces per group.
    pub placement: Option<Placement>,
    /// The solver's placement before trimming (validated for peace too).
    pub raw: Option<Placement>,
    /// For SAT: the smallest maximised group's size in the solver's placement (≥ `n`).
    pub witness_n: Option<usize>,
    /// Wall-clock seconds spent in the backend.
    pub seconds: f64,
    /// The solver that answered (a portfolio's winner), or the backend's name.
    pub solver: String,
    /// Why the answer is `unknown`.
    pub reason: Option<String>,
    /// The formula's number of variables.
    pub variables: u32,
    /// The formula's number of clauses.
    pub clauses: usize,
    /// For UNSAT: true when a proof of it was verified by the independent checker
    /// (`--check-unsat`), false when the solver's word is all there is. `None` otherwise.
    pub verified: Option<bool>,
    /// For SAT: the model, checked against every clause of the formula solved (none when
    /// no formula was: the line engine's answers).
    pub model: Option<pq_solve::answer::Assignment>,
}

impl Outcome {
    /// No answer yet from `solver` after `seconds`, for a formula of no size: the start
    /// that each way of answering fills in.
    pub fn unknown(solver: String, seconds: f64) -> Outcome {
        Outcome {
            status: Status::Unknown,
            placement: None,
            raw: None,
            witness_n: None,
            seconds,
            solver,
            reason: None,
            variables: 0,
            clauses: 0,
            verified: None,
            model: None,
        }
    }
}

/// Trims `raw` to the demanded counts and runs the independent validator on it; a failure
/// is an internal error, never a solution. Returns the trimmed placement and the smallest
/// maximised group's size in `raw`.
pub fn validated(
    problem: &Problem,
    n: usize,
    raw: &Placement,
    solver: &str,
) -> Result<(Placement, Option<usize>), SolveError> {
    let demands = problem.demands(n);
    let tied = problem.maximised();
    let witness_n = tied.iter().map(|&g| raw.count(g)).min();
    let mut p = raw.clone();
    for (g, &k) in demands.iter().enumerate() {
        p.keep_first(g, k);
    }
    let counts: Vec<Option<usize>> = demands.iter().map(|&k| Some(k)).collect();
    // The untrimmed placement must already be peaceful; the trimmed one must also have the
    // demanded counts.
    for (what, placement, counts) in [("", raw, &[][..]), (" (trimmed)", &p, &counts[..])] {
        check_placement(&problem.rules, placement, counts).map_err(|violations| {
            SolveError::InvalidBoard {
                backend: solver.to_string(),
                details: format!("{}{what}", findings(&violations)),
            }
        })?;
    }
    Ok((p, witness_n))
}

/// The independent validator's findings, in one line.
pub(crate) fn findings(violations: &[RuleViolation]) -> String {
    let texts: Vec<String> = violations
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    texts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placement_that_breaks_the_rules_is_an_error_never_an_answer() {
        let queens = Problem::peaceable_queens(3);
        let mut bad = Placement::empty(&queens.rules.layout);
        bad.set(0, 0, Some(0));
        bad.set(1, 1, Some(1));
        let err = validated(&queens, 1, &bad, "liar").unwrap_err().to_string();
        assert!(
            err.contains("liar") && err.contains("fails validation"),
            "{err}"
        );
        let mut short = Placement::empty(&queens.rules.layout);
        short.set(0, 0, Some(0));
        assert!(validated(&queens, 1, &short, "short").is_err());
    }
}
