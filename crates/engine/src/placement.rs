//! Placement problems ([`Problem`]) through the SAT pipeline: encode, solve, decode, trim to
//! the demanded counts and check with the independent validator
//! ([`pq_board::rules::check_placement`]); and maximising the tied groups by raising their
//! size until UNSAT.

use std::time::Instant;

use pq_board::placement::Placement;
use pq_board::rules::check_placement;
use pq_encode::general::encode_problem;
use pq_encode::spec::Problem;
use pq_encode::{Formula, Options};

use crate::optimise::{Method, Progress, RunLimits, Step};
use crate::pipeline::Status;
use pq_solve::answer::Answer;
use pq_solve::backend::{solve_checked, Backend};
use pq_solve::control::Limits;
use pq_solve::error::SolveError;

/// The answer for one problem at one size.
#[derive(Clone, Debug)]
pub struct PlacementOutcome {
    pub status: Status,
    /// The validated placement, with exactly the demanded number of pieces per group.
    pub placement: Option<Placement>,
    /// The solver's placement before trimming (validated for peace too).
    pub raw: Option<Placement>,
    /// For SAT: the smallest maximised group's size in the solver's placement (≥ `n`).
    pub witness_n: Option<usize>,
    pub seconds: f64,
    pub solver: String,
    pub reason: Option<String>,
    pub variables: u32,
    pub clauses: usize,
}

/// Solves `problem` with the maximised groups at `n` pieces each.
pub fn check_problem(
    problem: &Problem,
    n: usize,
    options: &Options,
    backend: &dyn Backend,
    limits: &Limits,
) -> Result<PlacementOutcome, SolveError> {
    let formula = encode_problem(problem, n, options);
    solve_problem_formula(problem, n, &formula, backend, limits)
}

/// Solves a formula made by [`encode_problem`] for `problem` at size `n`.
pub fn solve_problem_formula(
    problem: &Problem,
    n: usize,
    formula: &Formula,
    backend: &dyn Backend,
    limits: &Limits,
) -> Result<PlacementOutcome, SolveError> {
    let start = Instant::now();
    let (answer, solver) = solve_checked(backend, formula, limits)?;
    let seconds = start.elapsed().as_secs_f64();
    decoded(problem, n, formula, answer, solver, seconds)
}

/// The outcome of `answer` (already checked against every clause of `formula`): a SAT
/// model is decoded into a placement and validated.
pub fn decoded(
    problem: &Problem,
    n: usize,
    formula: &Formula,
    answer: Answer,
    solver: String,
    seconds: f64,
) -> Result<PlacementOutcome, SolveError> {
    let mut out = PlacementOutcome {
        status: Status::Unknown,
        placement: None,
        raw: None,
        witness_n: None,
        seconds,
        solver,
        reason: None,
        variables: formula.n_vars,
        clauses: formula.n_clauses(),
    };
    match answer {
        Answer::Unsat => out.status = Status::Unsat,
        Answer::Unknown(reason) => out.reason = Some(reason),
        Answer::Sat(model) => {
            let map = formula
                .pieces
                .as_ref()
                .expect("problem formulas carry a piece map");
            let raw = map.decode(|v| model.value(v as usize)).map_err(|(r, c)| {
                SolveError::InvalidBoard {
                    backend: out.solver.clone(),
                    details: format!("two pieces on row {}, column {}", r + 1, c + 1),
                }
            })?;
            let (placement, witness_n) = validated(problem, n, &raw, &out.solver)?;
            out.status = Status::Sat;
            out.placement = Some(placement);
            out.raw = Some(raw);
            out.witness_n = witness_n;
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
                details: format!(
                    "{}{what}",
                    violations
                        .iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
            }
        })?;
    }
    Ok((p, witness_n))
}

/// The result of maximising a problem's tied groups.
#[derive(Clone, Debug)]
pub struct ProblemOptimum {
    /// `Some(n)` only when proven: a witness at `n` and UNSAT at `n + 1`.
    pub optimum: Option<usize>,
    /// The largest size with a validated witness, and that witness; `None` when even size
    /// 0 is impossible (the fixed counts cannot be met) or nothing was found yet.
    pub best: Option<(usize, Placement)>,
    /// True when the fixed counts alone are impossible.
    pub infeasible: bool,
    pub steps: Vec<Step>,
    pub reason: Option<String>,
    pub seconds: f64,
}

/// Finds the largest size of the maximised groups (all tied to one size), raising it from 1
/// and jumping past sizes a witness already settles, as the queens optimiser does.
pub fn maximise_problem(
    problem: &Problem,
    options: &Options,
    backend: &dyn Backend,
    limits: &RunLimits,
    on_progress: &mut dyn FnMut(Progress),
) -> Result<ProblemOptimum, SolveError> {
    let start = Instant::now();
    let mut result = ProblemOptimum {
        optimum: None,
        best: None,
        infeasible: false,
        steps: Vec::new(),
        reason: None,
        seconds: 0.0,
    };
    let squares = problem.rules.layout.squares();
    let mut n = 1;
    loop {
        let step_limits = match limits.run.stop_reason() {
            Some(reason) => {
                result.reason = Some(reason);
                break;
            }
            None => limits.run.with_timeout(limits.step),
        };
        if n * problem.maximised().len() > squares {
            // More pieces than squares: impossible without asking a solver.
            let step = Step {
                n,
                status: Status::Unsat,
                method: Method::TooManyQueens,
                seconds: 0.0,
                witness_n: None,
                solver: None,
            };
            on_progress(Progress::Done(&step));
            result.steps.push(step);
            result.optimum = Some(n - 1);
            break;
        }
        on_progress(Progress::Trying(n));
        let outcome = check_problem(problem, n, options, backend, &step_limits)?;
        let step = Step {
            n,
            status: outcome.status,
            method: Method::Solver,
            seconds: outcome.seconds,
            witness_n: outcome.witness_n,
            solver: Some(outcome.solver.clone()),
        };
        on_progress(Progress::Done(&step));
        result.steps.push(step);
        match outcome.status {
            Status::Sat => {
                // The solver's placement may hold more than n of each tied group: it is a
                // witness for its smallest tied group, m.
                let m = outcome.witness_n.unwrap_or(n).max(n);
                let raw = outcome.raw.expect("SAT comes with a placement");
                let (at_m, _) = validated(problem, m, &raw, &outcome.solver)?;
                result.best = Some((m, at_m));
                n = m + 1;
            }
            Status::Unsat if n == 1 && result.best.is_none() => {
                // Size 0 decides between "optimum 0" and "the fixed counts are impossible".
                let zero = check_problem(problem, 0, options, backend, &step_limits)?;
                let step = Step {
                    n: 0,
                    status: zero.status,
                    method: Method::Solver,
                    seconds: zero.seconds,
                    witness_n: zero.witness_n,
                    solver: Some(zero.solver.clone()),
                };
                on_progress(Progress::Done(&step));
                result.steps.push(step);
                match zero.status {
                    Status::Sat => {
                        result.best = zero.placement.map(|p| (0, p));
                        result.optimum = Some(0);
                    }
                    Status::Unsat => result.infeasible = true,
                    Status::Unknown => result.reason = zero.reason,
                }
                break;
            }
            Status::Unsat => {
                result.optimum = Some(n - 1);
                break;
            }
            Status::Unknown => {
                result.reason = Some(format!(
                    "n = {n}: {}",
                    outcome.reason.unwrap_or_else(|| "no answer".into())
                ));
                break;
            }
        }
    }
    result.seconds = start.elapsed().as_secs_f64();
    Ok(result)
}
