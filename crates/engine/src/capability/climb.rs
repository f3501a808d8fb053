//! The climb to the largest size of a problem's maximised groups (all tied to one size
//! `n`): a(d) for the peaceable queens, the most knights for Dudeney's puzzle, whichever
//! engine decides each step. The answer comes with a validated witness at `n` and an UNSAT
//! at `n + 1`.
//!
//! An answer at `n` often places more than `n` pieces in each maximised group; the climb
//! then continues above the smallest of them, so steps a witness already settles are
//! skipped. Sizes beyond [`Problem::upper_bound`] are UNSAT by counting, recorded without a
//! solver. The peaceable queens start from a [greedy](pq_board::greedy) witness; other
//! problems from nothing, and a problem whose fixed counts cannot be met at all is reported
//! as infeasible. The SAT strategies are [`crate::sat::optimise`]'s, the line engine's climb
//! [`crate::lines`]'s.

use std::time::{Duration, Instant};

use pq_board::greedy::greedy_placement;
use pq_board::placement::Placement;
use pq_encode::general::specialised;
use pq_encode::spec::Problem;
use pq_encode::Options;
use pq_solve::backend::Backend;
use pq_solve::control::Limits;
use pq_solve::error::SolveError;

use super::{validated, Outcome, Status};

/// How a step was decided (named in JSON as by [`Method::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// The greedy placement (a lower bound with a witness).
    Greedy,
    /// A SAT solver call.
    Solver,
    /// No solver needed: the pieces do not fit (see [`Problem::upper_bound`]).
    #[serde(rename = "counting")]
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

/// One finished step of the search, as reports show it (`steps` in `solve`'s JSON).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Step {
    /// The size tried.
    pub n: usize,
    /// Its answer.
    pub status: Status,
    /// How it was decided.
    pub method: Method,
    /// The solver that answered (a portfolio's winner); `None` for steps without a solver.
    pub solver: Option<String>,
    /// Wall-clock seconds it took.
    pub seconds: f64,
    /// For SAT steps: the smallest maximised group of the witness (≥ `n`).
    #[serde(skip)]
    pub witness_n: Option<usize>,
    /// For a solver's UNSAT: true when its proof was verified by the independent checker
    /// (`--check-unsat`), false when the solver's word is all there is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
}

/// What the optimiser reports while it runs.
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a> {
    /// A solver step for size `n` has started.
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

/// The result of an optimisation run.
#[derive(Clone, Debug, Default)]
pub struct OptimiseOutcome {
    /// `Some(n)` only when proven: a witness at `n` and UNSAT at `n + 1`.
    pub optimum: Option<usize>,
    /// The largest size with a validated witness, and that witness (exactly that many
    /// pieces in each maximised group); `None` when nothing was found.
    pub best: Option<(usize, Placement)>,
    /// True when the fixed counts alone cannot be met (not even size 0 fits).
    pub infeasible: bool,
    /// Every step, in order.
    pub steps: Vec<Step>,
    /// Why the run stopped without proof (time limit, Ctrl-C), if it did.
    pub reason: Option<String>,
    /// Wall-clock seconds of the whole run.
    pub seconds: f64,
}

/// How the optimiser moves between sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Strategy {
    /// Raise `n` until UNSAT, a fresh solver per step.
    #[default]
    Up,
    /// One in-process CaDiCaL, each step a solve under assumptions.
    Incremental,
    /// Binary search up to the upper bound.
    Bisect,
}

pq_encode::option_names!(Strategy, "strategy", Strategy::Up => "up", Strategy::Incremental => "incremental", Strategy::Bisect => "bisect");

/// How a search ended.
pub(crate) enum End {
    /// UNSAT at `n + 1` with a witness at `n` (or, for `n = 0`, a witness to be found).
    Optimum(usize),
    /// Even size 0 is impossible: the fixed counts cannot be met.
    Infeasible,
    /// Stopped without proof.
    Stopped(String),
}

/// How a step ended.
pub(crate) enum StepEnd {
    /// A validated witness: the smallest maximised group `m ≥ n` and the placement trimmed
    /// to `m`.
    Sat((usize, Placement)),
    Unsat,
    /// The run must stop: its limits ran out before the step, or the step gave no answer.
    Stopped(String),
}

/// The state of one optimisation run.
pub(crate) struct Run<'a> {
    pub(crate) problem: &'a Problem,
    pub(crate) options: &'a Options,
    /// The SAT backend of the up and bisect strategies; `None` for the line engine.
    pub(crate) backend: Option<&'a dyn Backend>,
    pub(crate) limits: &'a RunLimits,
    pub(crate) on_progress: &'a mut dyn FnMut(Progress<'_>),
    pub(crate) start: Instant,
    pub(crate) steps: Vec<Step>,
    pub(crate) best: Option<(usize, Placement)>,
}

impl<'a> Run<'a> {
    /// A run of `problem` from its greedy witness (the queens), with the upper bound on its
    /// maximised groups.
    pub(crate) fn start(
        problem: &'a Problem,
        options: &'a Options,
        backend: Option<&'a dyn Backend>,
        limits: &'a RunLimits,
        on_progress: &'a mut dyn FnMut(Progress<'_>),
    ) -> Result<(Run<'a>, usize), SolveError> {
        let Some(bound) = problem.upper_bound() else {
            return Err(SolveError::in_process(
                "optimiser",
                "the problem maximises no group",
            ));
        };
        let mut run = Run {
            problem,
            options,
            backend,
            limits,
            on_progress,
            start: Instant::now(),
            steps: Vec::new(),
            best: None,
        };
        run.greedy_start()?;
        Ok((run, bound))
    }

    pub(crate) fn record(&mut self, step: Step) {
        (self.on_progress)(Progress::Done(&step));
        self.steps.push(step);
    }

    /// The size the search has a witness for (0 when it has none yet).
    pub(crate) fn lo(&self) -> usize {
        self.best.as_ref().map_or(0, |b| b.0)
    }

    /// For the peaceable queens, the greedy witness, validated and recorded as the first step.
    pub(crate) fn greedy_start(&mut self) -> Result<(), SolveError> {
        // The greedy start is a placement of the peaceable queens.
        if !specialised(self.problem) {
            return Ok(());
        }
        let (lb, board) = greedy_placement(self.problem.rules.layout.rows);
        let (witness, _) = validated(self.problem, lb, &board, "greedy")?;
        self.record(Step {
            n: lb,
            status: Status::Sat,
            method: Method::Greedy,
            seconds: self.start.elapsed().as_secs_f64(),
            witness_n: Some(lb),
            solver: None,
            verified: None,
        });
        self.best = Some((lb, witness));
        Ok(())
    }

    /// Size `n` does not fit on the board: UNSAT by counting, recorded without a solver.
    pub(crate) fn counting(&mut self, n: usize) -> StepEnd {
        self.record(Step {
            n,
            status: Status::Unsat,
            method: Method::TooManyQueens,
            seconds: 0.0,
            witness_n: None,
            solver: None,
            verified: None,
        });
        StepEnd::Unsat
    }

    /// One solver step for size `n`, recorded: `solve` answers it under the step's limits.
    /// Sizes above `bound` are UNSAT by counting, no solver.
    pub(crate) fn solver_step(
        &mut self,
        n: usize,
        bound: usize,
        solve: impl FnOnce(&Self, &Limits) -> Result<Outcome, SolveError>,
    ) -> Result<StepEnd, SolveError> {
        if let Some(reason) = self.limits.run.stop_reason() {
            return Ok(StepEnd::Stopped(reason));
        }
        let step_limits = self.limits.run.with_timeout(self.limits.step);
        if n > bound {
            return Ok(self.counting(n));
        }
        (self.on_progress)(Progress::Trying(n));
        let outcome = solve(self, &step_limits)?;
        self.record(Step {
            n,
            status: outcome.status,
            method: Method::Solver,
            seconds: outcome.seconds,
            witness_n: outcome.witness_n,
            solver: Some(outcome.solver.clone()),
            verified: outcome.verified,
        });
        Ok(match outcome.status {
            Status::Sat => {
                // The solver's placement may hold more than n of each maximised group: it is
                // a witness for its smallest one, m.
                let m = outcome.witness_n.unwrap_or(n).max(n);
                let raw = outcome.raw.expect("SAT comes with a placement");
                let (at_m, _) = validated(self.problem, m, &raw, &outcome.solver)?;
                StepEnd::Sat((m, at_m))
            }
            Status::Unsat => StepEnd::Unsat,
            Status::Unknown => StepEnd::Stopped(format!(
                "n = {n}: {}",
                outcome.reason.unwrap_or_else(|| "no answer".into())
            )),
        })
    }

    /// The search every strategy runs, each size decided by `step`: one above the best
    /// witness each time (up, incremental), or the middle of the open range with `bisect`,
    /// until the size above the best witness is UNSAT. Without any witness by then, size 0
    /// tells "optimum 0" from "the fixed counts are impossible".
    pub(crate) fn search(
        &mut self,
        bound: usize,
        bisect: bool,
        mut step: impl FnMut(&mut Self, usize) -> Result<StepEnd, SolveError>,
    ) -> Result<End, SolveError> {
        // Invariant: a witness for `lo` (or none yet, lo = 0); every n > hi is impossible
        // (by the bound at first, by a solver's UNSAT once one is found).
        let mut hi = bound.max(self.lo());
        let mut proven_above = false;
        loop {
            let lo = self.lo();
            // Once the range is closed, the step above it still needs a solver's UNSAT.
            let n = if bisect && lo < hi {
                lo + (hi - lo).div_ceil(2)
            } else if lo >= hi && proven_above {
                break;
            } else {
                lo + 1
            };
            match step(self, n)? {
                StepEnd::Sat(witness) => {
                    if witness.0 > hi {
                        hi = witness.0;
                        proven_above = false;
                    }
                    self.best = Some(witness);
                }
                StepEnd::Unsat => {
                    // Infeasibility is monotone in n: everything above n − 1 is now proven.
                    hi = n - 1;
                    proven_above = true;
                }
                StepEnd::Stopped(reason) => return Ok(End::Stopped(reason)),
            }
        }
        if self.best.is_some() {
            return Ok(End::Optimum(self.lo()));
        }
        Ok(match step(self, 0)? {
            StepEnd::Sat(witness) => {
                self.best = Some(witness);
                End::Optimum(0)
            }
            StepEnd::Unsat => End::Infeasible,
            StepEnd::Stopped(reason) => End::Stopped(reason),
        })
    }

    pub(crate) fn finish(self, end: End) -> OptimiseOutcome {
        let (optimum, infeasible, reason) = match end {
            End::Optimum(n) => {
                debug_assert_eq!(self.lo(), n, "the UNSAT step is one above the best witness");
                (Some(n), false, None)
            }
            End::Infeasible => (None, true, None),
            End::Stopped(reason) => (None, false, Some(reason)),
        };
        OptimiseOutcome {
            optimum,
            best: self.best,
            infeasible,
            steps: self.steps,
            reason,
            seconds: self.start.elapsed().as_secs_f64(),
        }
    }
}
