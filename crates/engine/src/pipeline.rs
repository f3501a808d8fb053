//! One problem at one size through a backend, for any [`Problem`] (the peaceable queens are
//! the preset [`Problem::peaceable_queens`]): encode, solve, check the model against every
//! clause (the backend layer does that), decode it once into a [`Placement`], validate it
//! once with the independent validator ([`pq_board::rules::check_placement`]) and trim it
//! once to the demanded counts.

use std::time::Instant;

use pq_board::placement::Placement;
use pq_board::rules::{check_placement, RuleViolation};
use pq_encode::general::encode_problem;
use pq_encode::spec::Problem;
use pq_encode::{Formula, Options};
use pq_solve::answer::Answer;
use pq_solve::backend::{accept_all, Backend, Judge};
use pq_solve::control::Limits;
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

/// Solves `problem` with the maximised groups at `n` pieces each.
pub fn solve(
    problem: &Problem,
    n: usize,
    options: &Options,
    backend: &dyn Backend,
    limits: &Limits,
) -> Result<Outcome, SolveError> {
    let formula = encode_problem(problem, n, options);
    solve_encoded(problem, n, &formula, backend, limits)
}

/// Solves `formula`, which pq-sat encoded for `problem` at size `n`: beyond the model check,
/// the answer must agree with what pq-sat knows for sure ([`pq_solve::known::agrees`]); one
/// that does not is a solver error ([`SolveError::Rejected`]), never an outcome.
pub(crate) fn solve_encoded(
    problem: &Problem,
    n: usize,
    formula: &Formula,
    backend: &dyn Backend,
    limits: &Limits,
) -> Result<Outcome, SolveError> {
    let judge = |answer: &Answer| pq_solve::known::agrees(problem, n, answer);
    solve_formula_judged(Some(problem), n, formula, backend, limits, &judge)
}

/// Solves a formula; when `problem` is given (the formula was made for it at size `n`, or
/// read back from a pq-sat header), a SAT model is decoded and validated against it.
pub fn solve_formula(
    problem: Option<&Problem>,
    n: usize,
    formula: &Formula,
    backend: &dyn Backend,
    limits: &Limits,
) -> Result<Outcome, SolveError> {
    solve_formula_judged(problem, n, formula, backend, limits, &accept_all)
}

/// [`solve_formula`], the answer also passed by `judge` (see [`Backend::solve_judged`]).
pub(crate) fn solve_formula_judged(
    problem: Option<&Problem>,
    n: usize,
    formula: &Formula,
    backend: &dyn Backend,
    limits: &Limits,
    judge: Judge<'_>,
) -> Result<Outcome, SolveError> {
    let start = Instant::now();
    let (answer, solver) = backend.solve_judged(formula, limits, judge)?;
    let seconds = start.elapsed().as_secs_f64();
    let mut out = decoded(problem, n, formula, answer, solver, seconds)?;
    if out.status == Status::Unsat {
        out.verified = Some(backend.checks_unsat());
    }
    Ok(out)
}

/// The outcome of `answer` (already checked against every clause of `formula`): with a
/// `problem` and a piece map, a SAT model is decoded into a placement and validated.
pub fn decoded(
    problem: Option<&Problem>,
    n: usize,
    formula: &Formula,
    answer: Answer,
    solver: String,
    seconds: f64,
) -> Result<Outcome, SolveError> {
    let mut out = Outcome::unknown(solver, seconds);
    (out.variables, out.clauses) = (formula.n_vars, formula.n_clauses());
    match answer {
        Answer::Unsat => {
            out.status = Status::Unsat;
            out.verified = Some(false);
        }
        Answer::Unknown(reason) => out.reason = Some(reason),
        Answer::Sat(model) => {
            out.status = Status::Sat;
            let (Some(problem), Some(map)) = (problem, &formula.pieces) else {
                out.model = Some(model);
                return Ok(out);
            };
            let raw = map.decode(|v| model.value(v as usize)).map_err(|(r, c)| {
                SolveError::InvalidBoard {
                    backend: out.solver.clone(),
                    details: format!("two pieces on row {}, column {}", r + 1, c + 1),
                }
            })?;
            let (placement, witness_n) = validated(problem, n, &raw, &out.solver)?;
            out.placement = Some(placement);
            out.raw = Some(raw);
            out.witness_n = witness_n;
            out.model = Some(model);
        }
    }
    Ok(out)
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

/// A session of the in-process CaDiCaL holding the clauses of `formula`: the solver pq-sat
/// keeps across calls under assumptions (incremental optimisation, enumeration,
/// `conquer --incremental`).
pub(crate) fn cadical_session(
    formula: &Formula,
) -> Result<Box<dyn pq_solve::session::Session>, SolveError> {
    pq_solve::backend::Cadical
        .session(formula)
        .expect("the in-process CaDiCaL solves under assumptions")
}

#[cfg(test)]
mod tests {
    use super::*;
    use pq_solve::backend::Cadical;

    #[test]
    fn queens_and_problems_go_through_one_pipeline() {
        let queens = Problem::peaceable_queens(5);
        let sat = solve(&queens, 4, &Options::default(), &Cadical, &Limits::none()).unwrap();
        assert_eq!(sat.status, Status::Sat);
        let p = sat.placement.unwrap();
        assert_eq!((p.count(0), p.count(1)), (4, 4), "trimmed to exactly n");
        assert!(sat.witness_n.unwrap() >= 4);
        let unsat = solve(&queens, 5, &Options::default(), &Cadical, &Limits::none()).unwrap();
        assert_eq!(unsat.status, Status::Unsat);
        assert!(unsat.placement.is_none());
    }

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
