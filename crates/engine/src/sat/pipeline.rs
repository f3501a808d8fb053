//! One problem at one size through a backend, for any [`Problem`] (the peaceable queens are
//! the preset [`Problem::peaceable_queens`]): encode, solve, check the model against every
//! clause (the backend layer does that), decode it once into a [`Placement`](pq_board::placement::Placement), validate it
//! once with the independent validator ([`pq_board::rules::check_placement`]) and trim it
//! once to the demanded counts.

use std::time::Instant;

use pq_encode::general::encode_problem;
use pq_encode::spec::Problem;
use pq_encode::{Formula, Options};
use pq_solve::answer::Answer;
use pq_solve::backend::{accept_all, Backend, Judge};
use pq_solve::control::Limits;
use pq_solve::error::SolveError;

use crate::capability::{validated, Outcome, Status};

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
}
