//! Finding a(d), the largest army size that fits, with a witness and a solver's proof that one
//! more does not fit.
//!
//! Every strategy starts from a greedy lower bound. A SAT answer at `n` often places more than
//! `n` queens of each colour; the search then continues above the smaller army of that board,
//! so steps a witness already settles are skipped. An UNSAT answer at `n` with a witness for
//! `n − 1` proves `a(d) = n − 1`.
//! - [`Strategy::Up`]: a fresh formula and solver for each `n`, raising `n` until UNSAT;
//! - [`Strategy::Incremental`]: one CaDiCaL instance and one formula for every `n` up to the
//!   upper bound `⌊d²/4⌋ + 1`, each step a solve under assumptions (learnt clauses are kept);
//! - [`Strategy::Bisect`]: binary search between the greedy bound and `⌊d²/4⌋` (a theorem
//!   for this problem), then a solver check of the step above the result if none was made.

use std::time::{Duration, Instant};

use pq_board::{Board, Cell};
use pq_encode::{encode_incremental, Instance, InstanceError, Options};
use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::{TernaryVal, Var};

use pq_solve::answer::Assignment;

use crate::greedy::greedy_placement;
use crate::pipeline::{check, trimmed, validate, Status};
use pq_solve::backend::{attach_limits, Backend};
use pq_solve::control::Limits;
use pq_solve::error::SolveError;

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
    /// The solver that answered (a portfolio's winner); `None` for steps without a solver.
    pub solver: Option<String>,
}

/// What the optimiser reports while it runs.
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a> {
    /// A solver step for army size `n` has started.
    Trying(usize),
    /// A step has finished.
    Done(&'a Step),
}

/// Limits of an optimisation run.
#[derive(Clone, Debug, Default)]
pub struct RunLimits {
    /// For the whole run (its deadline, Ctrl-C).
    pub run: Limits,
    /// For each solver step.
    pub step: Option<Duration>,
}

impl RunLimits {
    /// The limits for a step starting now, or `Err(reason)` when the run must stop.
    fn for_step(&self) -> Result<Limits, String> {
        match self.run.stop_reason() {
            Some(reason) => Err(reason),
            None => Ok(self.run.with_timeout(self.step)),
        }
    }
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

/// How the optimiser moves between army sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Strategy {
    #[default]
    Up,
    Incremental,
    Bisect,
}

impl Strategy {
    /// The names accepted by `--strategy`.
    pub const NAMES: &'static [&'static str] = &["up", "incremental", "bisect"];

    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Up => "up",
            Strategy::Incremental => "incremental",
            Strategy::Bisect => "bisect",
        }
    }
}

impl std::str::FromStr for Strategy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "up" => Ok(Strategy::Up),
            "incremental" => Ok(Strategy::Incremental),
            "bisect" => Ok(Strategy::Bisect),
            _ => Err(format!(
                "unknown strategy '{s}' (expected one of: {})",
                Strategy::NAMES.join(", ")
            )),
        }
    }
}

/// Finds a(d) with `strategy` under `limits`; `on_progress` sees each step start and finish
/// (for progress output). The incremental strategy always solves with the in-process CaDiCaL
/// (`backend` is used by the others). A run that stops early (time limit, Ctrl-C) returns
/// the best witness found, never a claimed optimum.
pub fn optimise(
    dim: usize,
    options: &Options,
    strategy: Strategy,
    backend: &dyn Backend,
    limits: &RunLimits,
    on_progress: &mut dyn FnMut(Progress),
) -> Result<OptimiseOutcome, SolveError> {
    match strategy {
        Strategy::Up => optimise_up(dim, options, backend, limits, on_progress),
        Strategy::Bisect => optimise_bisect(dim, options, backend, limits, on_progress),
        Strategy::Incremental => optimise_incremental(dim, options, limits, on_progress),
    }
}

fn optimise_up(
    dim: usize,
    options: &Options,
    backend: &dyn Backend,
    limits: &RunLimits,
    on_progress: &mut dyn FnMut(Progress),
) -> Result<OptimiseOutcome, SolveError> {
    let start = Instant::now();
    let mut steps = Vec::new();
    let mut best = greedy_start(dim, &backend.name(), start, on_progress, &mut steps)?;
    let mut n = best.0 + 1;
    loop {
        match fresh_step(dim, n, options, backend, limits, on_progress, &mut steps)? {
            Decided::Sat(witness) => {
                n = witness.0 + 1;
                best = witness;
            }
            Decided::Unsat => return Ok(finish(dim, Some(n - 1), best, steps, None, start)),
            Decided::Stopped(reason) => {
                return Ok(finish(dim, None, best, steps, Some(reason), start))
            }
        }
    }
}

/// How a fresh step ended.
enum Decided {
    /// A validated witness: the smaller army `m ≥ n` and the board with `m` of each.
    Sat((usize, Board)),
    Unsat,
    /// The run must stop: its limits ran out before the step, or the step gave no answer.
    Stopped(String),
}

/// One step on a fresh formula for army size `n` under the run's limits, reported and
/// recorded in `steps`. Sizes with `2n > d²` are UNSAT by counting, no solver.
fn fresh_step(
    dim: usize,
    n: usize,
    options: &Options,
    backend: &dyn Backend,
    limits: &RunLimits,
    on_progress: &mut dyn FnMut(Progress),
    steps: &mut Vec<Step>,
) -> Result<Decided, SolveError> {
    let step_limits = match limits.for_step() {
        Ok(l) => l,
        Err(reason) => return Ok(Decided::Stopped(reason)),
    };
    fn record(step: Step, on_progress: &mut dyn FnMut(Progress), steps: &mut Vec<Step>) {
        on_progress(Progress::Done(&step));
        steps.push(step);
    }
    let instance = match Instance::new(dim, n) {
        Ok(instance) => instance,
        Err(InstanceError::TooManyQueens { .. }) => {
            let step = Step {
                n,
                status: Status::Unsat,
                method: Method::TooManyQueens,
                seconds: 0.0,
                witness_n: None,
                solver: None,
            };
            record(step, on_progress, steps);
            return Ok(Decided::Unsat);
        }
        Err(e) => {
            return Err(SolveError::InProcess {
                backend: backend.name(),
                message: e.to_string(),
            })
        }
    };
    on_progress(Progress::Trying(n));
    let outcome = check(&instance, options, backend, &step_limits)?;
    let witness_n = outcome
        .board
        .as_ref()
        .map(|b| b.count(Cell::White).min(b.count(Cell::Black)));
    let step = Step {
        n,
        status: outcome.status,
        method: Method::Solver,
        seconds: outcome.seconds,
        witness_n,
        solver: Some(outcome.solver),
    };
    record(step, on_progress, steps);
    Ok(match outcome.status {
        Status::Sat => {
            let board = outcome
                .board
                .expect("pq-sat formulas carry a square map, so SAT comes with a board");
            let m = witness_n.unwrap_or(n);
            Decided::Sat((m, trimmed(&board, m)))
        }
        Status::Unsat => Decided::Unsat,
        Status::Unknown => Decided::Stopped(format!(
            "n = {n}: {}",
            outcome.reason.unwrap_or_else(|| "no answer".into())
        )),
    })
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

/// The largest army size worth encoding: one above the bound `⌊d²/4⌋`, within `⌊d²/2⌋`.
fn upper_bound(dim: usize) -> usize {
    (dim * dim / 4 + 1).min(dim * dim / 2)
}

/// The greedy witness, validated and recorded as the first step.
fn greedy_start(
    dim: usize,
    backend_name: &str,
    start: Instant,
    on_progress: &mut dyn FnMut(Progress),
    steps: &mut Vec<Step>,
) -> Result<(usize, Board), SolveError> {
    let (lb, board) = greedy_placement(dim);
    validate(&board, lb, backend_name)?;
    let step = Step {
        n: lb,
        status: Status::Sat,
        method: Method::Greedy,
        seconds: start.elapsed().as_secs_f64(),
        witness_n: Some(lb),
        solver: None,
    };
    on_progress(Progress::Done(&step));
    steps.push(step);
    Ok((lb, board))
}

fn optimise_bisect(
    dim: usize,
    options: &Options,
    backend: &dyn Backend,
    limits: &RunLimits,
    on_progress: &mut dyn FnMut(Progress),
) -> Result<OptimiseOutcome, SolveError> {
    let start = Instant::now();
    let mut steps = Vec::new();
    let mut best = greedy_start(dim, &backend.name(), start, on_progress, &mut steps)?;
    // Invariant: a witness for `best.0`; every n > hi is impossible (by theorem at first,
    // by a solver's UNSAT once one is found).
    let mut hi = (dim * dim / 4).max(best.0);
    let mut proven_above = false;
    loop {
        let lo = best.0;
        // Once the range is closed, the step above it still needs a solver's UNSAT.
        let n = if lo < hi {
            lo + (hi - lo).div_ceil(2)
        } else if proven_above {
            break;
        } else {
            lo + 1
        };
        match fresh_step(dim, n, options, backend, limits, on_progress, &mut steps)? {
            Decided::Sat(witness) => {
                if witness.0 > hi {
                    hi = witness.0;
                    proven_above = false;
                }
                best = witness;
            }
            Decided::Unsat => {
                // Infeasibility is monotone in n: everything above n − 1 is now proven.
                hi = n - 1;
                proven_above = true;
            }
            Decided::Stopped(reason) => {
                return Ok(finish(dim, None, best, steps, Some(reason), start))
            }
        }
    }
    let optimum = best.0;
    Ok(finish(dim, Some(optimum), best, steps, None, start))
}

fn optimise_incremental(
    dim: usize,
    options: &Options,
    limits: &RunLimits,
    on_progress: &mut dyn FnMut(Progress),
) -> Result<OptimiseOutcome, SolveError> {
    let start = Instant::now();
    let name = "cadical (incremental)".to_string();
    let err = |e: &dyn std::fmt::Display| SolveError::InProcess {
        backend: "cadical".into(),
        message: e.to_string(),
    };
    let mut steps = Vec::new();
    let mut best = greedy_start(dim, &name, start, on_progress, &mut steps)?;
    let hi = upper_bound(dim);
    if best.0 >= hi {
        // Nothing left for a solver: 2n > d² for the next size.
        let step = Step {
            n: best.0 + 1,
            status: Status::Unsat,
            method: Method::TooManyQueens,
            seconds: 0.0,
            witness_n: None,
            solver: None,
        };
        on_progress(Progress::Done(&step));
        steps.push(step);
        let optimum = best.0;
        return Ok(finish(dim, Some(optimum), best, steps, None, start));
    }
    let options = Options {
        card: pq_encode::Card::Totalizer,
        ..*options
    };
    let inc = encode_incremental(dim, &options, best.0 + 1, hi).map_err(|e| err(&e))?;
    let formula = &inc.formula;
    let map = formula
        .squares
        .as_ref()
        .expect("board formulas carry a square map");
    let mut solver = rustsat_cadical::CaDiCaL::default();
    for clause in formula.cnf.iter() {
        solver.add_clause_ref(clause).map_err(|e| err(&e))?;
    }
    loop {
        let n = best.0 + 1;
        let step_limits = match limits.for_step() {
            Ok(l) => l,
            Err(reason) => return Ok(finish(dim, None, best, steps, Some(reason), start)),
        };
        // Each step gets its own deadline; attaching replaces the previous terminator.
        attach_limits(&mut solver, &step_limits);
        on_progress(Progress::Trying(n));
        let assumptions = inc.assumptions(n).expect("n is within the encoded range");
        let t = Instant::now();
        let result = solver.solve_assumps(assumptions).map_err(|e| err(&e))?;
        let seconds = t.elapsed().as_secs_f64();
        match result {
            SolverResult::Sat => {
                let mut model = Assignment::all_false(formula.n_vars as usize);
                for v in 0..formula.n_vars {
                    let value = solver.lit_val(Var::new(v).pos_lit()).map_err(|e| err(&e))?;
                    model.set(v as usize + 1, value == TernaryVal::True);
                }
                let board = map.decode(|v| model.value(v as usize)).map_err(|(r, c)| {
                    SolveError::InvalidBoard {
                        backend: name.clone(),
                        details: format!("row {}, column {} holds both colours", r + 1, c + 1),
                    }
                })?;
                let m = board.count(Cell::White).min(board.count(Cell::Black));
                validate(&board, n, &name)?;
                let step = Step {
                    n,
                    status: Status::Sat,
                    method: Method::Solver,
                    seconds,
                    witness_n: Some(m),
                    solver: Some(name.clone()),
                };
                on_progress(Progress::Done(&step));
                steps.push(step);
                best = (m, trimmed(&board, m));
                if best.0 >= hi {
                    // Cannot happen for d ≥ 2 (a(d) ≤ ⌊d²/4⌋); kept so that the loop ends.
                    return Ok(finish(
                        dim,
                        None,
                        best,
                        steps,
                        Some("reached the encoded range".into()),
                        start,
                    ));
                }
            }
            SolverResult::Unsat => {
                let step = Step {
                    n,
                    status: Status::Unsat,
                    method: Method::Solver,
                    seconds,
                    witness_n: None,
                    solver: Some(name.clone()),
                };
                on_progress(Progress::Done(&step));
                steps.push(step);
                let optimum = best.0;
                return Ok(finish(dim, Some(optimum), best, steps, None, start));
            }
            SolverResult::Interrupted => {
                let step = Step {
                    n,
                    status: Status::Unknown,
                    method: Method::Solver,
                    seconds,
                    witness_n: None,
                    solver: Some(name.clone()),
                };
                on_progress(Progress::Done(&step));
                steps.push(step);
                let reason = format!("n = {n}: {}", step_limits.unknown_reason());
                return Ok(finish(dim, None, best, steps, Some(reason), start));
            }
        }
    }
}
