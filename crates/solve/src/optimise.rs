//! Finding a(d), the largest army size that fits, by raising `n` until the formula is UNSAT.
//!
//! The search starts above a greedy lower bound. A SAT answer at `n` often places more than
//! `n` queens of each colour; the next `n` tried is one more than the smaller army of that
//! board, so steps that a witness already settles are skipped. The first UNSAT at `n`
//! proves `a(d) = n − 1`, and the best witness has exactly that many queens per colour.

use std::time::{Duration, Instant};

use pq_board::{Board, Cell};
use pq_encode::{Instance, InstanceError, Options};

use crate::backend::Backend;
use crate::error::SolveError;
use crate::greedy::greedy_placement;
use crate::pipeline::{check, trimmed, validate, Status};

/// How a step was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The greedy placement (a lower bound with a witness).
    Greedy,
    /// A SAT solver call.
    Solver,
    /// No solver needed: 2n queens do not fit on d² squares.
    TooManyQueens,
}

impl Method {
    /// The name used in logs and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Method::Greedy => "greedy",
            Method::Solver => "solver",
            Method::TooManyQueens => "counting",
        }
    }
}

/// One finished step of the search.
#[derive(Clone, Debug)]
pub struct Step {
    pub n: usize,
    pub status: Status,
    pub method: Method,
    pub seconds: f64,
    /// For SAT steps: the smaller army of the witness (≥ `n`).
    pub witness_n: Option<usize>,
}

/// The result of an optimisation run.
#[derive(Clone, Debug)]
pub struct OptimiseOutcome {
    pub dim: usize,
    /// `Some(a(d))` only when proven: a witness for it and UNSAT one above.
    pub optimum: Option<usize>,
    /// The largest army size with a validated witness, and that witness (exactly that many
    /// queens per colour).
    pub best: (usize, Board),
    pub steps: Vec<Step>,
    /// Why the run stopped without proof (time limit), if it did.
    pub reason: Option<String>,
    pub seconds: f64,
}

/// Raises `n` from a greedy lower bound until UNSAT. `timeout` bounds the whole run;
/// `on_step` sees each step as it finishes (for progress output).
pub fn optimise(
    dim: usize,
    options: &Options,
    backend: &dyn Backend,
    timeout: Option<Duration>,
    on_step: &mut dyn FnMut(&Step),
) -> Result<OptimiseOutcome, SolveError> {
    let start = Instant::now();
    let mut steps = Vec::new();
    let mut record = |step: Step, steps: &mut Vec<Step>| {
        on_step(&step);
        steps.push(step);
    };

    let (lb, lb_board) = greedy_placement(dim);
    validate(&lb_board, lb, backend)?;
    record(
        Step {
            n: lb,
            status: Status::Sat,
            method: Method::Greedy,
            seconds: start.elapsed().as_secs_f64(),
            witness_n: Some(lb),
        },
        &mut steps,
    );
    let mut best = (lb, lb_board);
    let mut n = lb + 1;
    loop {
        let instance = match Instance::new(dim, n) {
            Ok(instance) => instance,
            Err(InstanceError::TooManyQueens { .. }) => {
                record(
                    Step {
                        n,
                        status: Status::Unsat,
                        method: Method::TooManyQueens,
                        seconds: 0.0,
                        witness_n: None,
                    },
                    &mut steps,
                );
                return Ok(finish(dim, Some(n - 1), best, steps, None, start));
            }
            Err(e) => {
                return Err(SolveError::InProcess {
                    backend: backend.name(),
                    message: e.to_string(),
                })
            }
        };
        let remaining = match timeout {
            Some(t) => match t.checked_sub(start.elapsed()) {
                Some(r) if !r.is_zero() => Some(r),
                _ => {
                    let reason = format!("time limit of {:.1} s reached", t.as_secs_f64());
                    return Ok(finish(dim, None, best, steps, Some(reason), start));
                }
            },
            None => None,
        };
        let outcome = check(&instance, options, backend, remaining)?;
        let witness_n = outcome
            .board
            .as_ref()
            .map(|b| b.count(Cell::White).min(b.count(Cell::Black)));
        record(
            Step {
                n,
                status: outcome.status,
                method: Method::Solver,
                seconds: outcome.seconds,
                witness_n,
            },
            &mut steps,
        );
        match outcome.status {
            Status::Sat => {
                let board = outcome
                    .board
                    .expect("pq-sat formulas carry a square map, so SAT comes with a board");
                let m = witness_n.unwrap_or(n);
                best = (m, trimmed(&board, m));
                n = m + 1;
            }
            Status::Unsat => return Ok(finish(dim, Some(n - 1), best, steps, None, start)),
            Status::Unknown => {
                let reason = outcome.reason.unwrap_or_else(|| "no answer".into());
                return Ok(finish(dim, None, best, steps, Some(reason), start));
            }
        }
    }
}

fn finish(
    dim: usize,
    optimum: Option<usize>,
    best: (usize, Board),
    steps: Vec<Step>,
    reason: Option<String>,
    start: Instant,
) -> OptimiseOutcome {
    if let Some(opt) = optimum {
        debug_assert_eq!(best.0, opt, "the UNSAT step is one above the best witness");
    }
    OptimiseOutcome {
        dim,
        optimum,
        best,
        steps,
        reason,
        seconds: start.elapsed().as_secs_f64(),
    }
}
