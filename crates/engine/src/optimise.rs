//! The largest size of a problem's maximised groups (all tied to one size `n`): a(d) for the
//! peaceable queens, the most knights for Dudeney's puzzle. The answer comes with a validated
//! witness at `n` and a solver's UNSAT at `n + 1`.
//!
//! A SAT answer at `n` often places more than `n` pieces in each maximised group; the search
//! then continues above the smallest of them, so steps a witness already settles are
//! skipped. Sizes beyond [`Problem::upper_bound`] are UNSAT by counting: up and bisect
//! record them without a solver; incremental still asks its solver about the size just
//! above the bound when its formula can state it.
//! - [`Strategy::Up`]: a fresh formula and solver for each `n`, raising `n` until UNSAT;
//! - [`Strategy::Incremental`]: one CaDiCaL instance and one formula for every `n` up to one
//!   above the upper bound (the specialised encoder for the peaceable queens, the general
//!   one for any other problem), each step a solve under assumptions (learnt clauses are
//!   kept; Martins, Joshi, Manquinho & Lynce, CP 2014);
//! - [`Strategy::Bisect`]: binary search up to the upper bound, then a solver check of the
//!   step above the result if none was made.
//!
//! The peaceable queens start from a [greedy](pq_board::greedy) witness; other problems from
//! nothing, and a problem whose fixed counts cannot be met at all is reported as infeasible.

use std::time::{Duration, Instant};

use pq_board::placement::Placement;
use pq_encode::general::{encode_problem_incremental, specialised};
use pq_encode::spec::Problem;
use pq_encode::{encode_incremental, IncrementalFormula, Options};

use pq_solve::answer::Answer;
use pq_solve::backend::Backend;
use pq_solve::control::Limits;
use pq_solve::error::SolveError;

use crate::lines::LineEngine;
use crate::pipeline::{cadical_session, decoded, solve, validated, Outcome, Status};
use pq_board::greedy::greedy_placement;
use pq_solve::session::{Reply, Session};

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

/// Maximises `problem` with `strategy` under `limits`; `on_progress` sees each step start and
/// finish. The incremental strategy always solves with the in-process CaDiCaL (`backend` is
/// used by the others). A run that stops early (time limit, Ctrl-C) returns the best witness
/// found, never a claimed optimum.
///
/// # Errors
/// A backend failure, a witness the independent validator rejects, or a problem that
/// maximises nothing.
pub fn optimise(
    problem: &Problem,
    options: &Options,
    strategy: Strategy,
    backend: &dyn Backend,
    limits: &RunLimits,
    on_progress: &mut dyn FnMut(Progress),
) -> Result<OptimiseOutcome, SolveError> {
    let (mut run, bound) = Run::start(problem, options, Some(backend), limits, on_progress)?;
    let end = match strategy {
        Strategy::Up | Strategy::Bisect => {
            let bisect = strategy == Strategy::Bisect;
            // A fresh formula for each size, through the backend.
            run.search(bound, bisect, |run, n| {
                run.solver_step(n, bound, |run, limits| {
                    let backend = run.backend.expect("the SAT strategies have a backend");
                    solve(run.problem, n, run.options, backend, limits)
                })
            })?
        }
        Strategy::Incremental => run.incremental(bound)?,
    };
    Ok(run.finish(end))
}

/// [`optimise`] with every step decided by the native line engine ([`LineEngine`]),
/// raising `n` above each witness until UNSAT (a witness often holds more than `n` of each
/// army, and the next step starts above it). The node counts of every step are added into
/// `stats`.
///
/// # Errors
/// As [`optimise`], and a problem the line engine does not answer
/// ([`crate::lines::unsupported`]).
pub(crate) fn optimise_lines(
    problem: &Problem,
    engine: &LineEngine,
    limits: &RunLimits,
    on_progress: &mut dyn FnMut(Progress),
    stats: &mut pq_lines::Stats,
) -> Result<OptimiseOutcome, SolveError> {
    let options = Options::default();
    let (mut run, bound) = Run::start(problem, &options, None, limits, on_progress)?;
    let end = run.search(bound, false, |run, n| {
        run.solver_step(n, bound, |run, limits| {
            let (outcome, step) = engine.decide(run.problem, n, limits)?;
            stats.nodes += step.nodes;
            stats.pairs += step.pairs;
            stats.jobs = step.jobs;
            Ok(outcome)
        })
    })?;
    Ok(run.finish(end))
}

/// How a search ended.
enum End {
    /// UNSAT at `n + 1` with a witness at `n` (or, for `n = 0`, a witness to be found).
    Optimum(usize),
    /// Even size 0 is impossible: the fixed counts cannot be met.
    Infeasible,
    /// Stopped without proof.
    Stopped(String),
}

/// How a step ended.
enum Decided {
    /// A validated witness: the smallest maximised group `m ≥ n` and the placement trimmed
    /// to `m`.
    Sat((usize, Placement)),
    Unsat,
    /// The run must stop: its limits ran out before the step, or the step gave no answer.
    Stopped(String),
}

/// The state of one optimisation run.
struct Run<'a> {
    problem: &'a Problem,
    options: &'a Options,
    /// The SAT backend of the up and bisect strategies; `None` for the line engine.
    backend: Option<&'a dyn Backend>,
    limits: &'a RunLimits,
    on_progress: &'a mut dyn FnMut(Progress<'_>),
    start: Instant,
    steps: Vec<Step>,
    best: Option<(usize, Placement)>,
}

impl<'a> Run<'a> {
    /// A run of `problem` from its greedy witness (the queens), with the upper bound on its
    /// maximised groups.
    fn start(
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

    fn record(&mut self, step: Step) {
        (self.on_progress)(Progress::Done(&step));
        self.steps.push(step);
    }

    /// The size the search has a witness for (0 when it has none yet).
    fn lo(&self) -> usize {
        self.best.as_ref().map_or(0, |b| b.0)
    }

    /// For the peaceable queens, the greedy witness, validated and recorded as the first step.
    fn greedy_start(&mut self) -> Result<(), SolveError> {
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
    fn counting(&mut self, n: usize) -> Decided {
        self.record(Step {
            n,
            status: Status::Unsat,
            method: Method::TooManyQueens,
            seconds: 0.0,
            witness_n: None,
            solver: None,
            verified: None,
        });
        Decided::Unsat
    }

    /// One solver step for size `n`, recorded: `solve` answers it under the step's limits.
    /// Sizes above `bound` are UNSAT by counting, no solver.
    fn solver_step(
        &mut self,
        n: usize,
        bound: usize,
        solve: impl FnOnce(&Self, &Limits) -> Result<Outcome, SolveError>,
    ) -> Result<Decided, SolveError> {
        if let Some(reason) = self.limits.run.stop_reason() {
            return Ok(Decided::Stopped(reason));
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
                Decided::Sat((m, at_m))
            }
            Status::Unsat => Decided::Unsat,
            Status::Unknown => Decided::Stopped(format!(
                "n = {n}: {}",
                outcome.reason.unwrap_or_else(|| "no answer".into())
            )),
        })
    }

    /// The search every strategy runs, each size decided by `step`: one above the best
    /// witness each time (up, incremental), or the middle of the open range with `bisect`,
    /// until the size above the best witness is UNSAT. Without any witness by then, size 0
    /// tells "optimum 0" from "the fixed counts are impossible".
    fn search(
        &mut self,
        bound: usize,
        bisect: bool,
        mut step: impl FnMut(&mut Self, usize) -> Result<Decided, SolveError>,
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
                Decided::Sat(witness) => {
                    if witness.0 > hi {
                        hi = witness.0;
                        proven_above = false;
                    }
                    self.best = Some(witness);
                }
                Decided::Unsat => {
                    // Infeasibility is monotone in n: everything above n − 1 is now proven.
                    hi = n - 1;
                    proven_above = true;
                }
                Decided::Stopped(reason) => return Ok(End::Stopped(reason)),
            }
        }
        if self.best.is_some() {
            return Ok(End::Optimum(self.lo()));
        }
        Ok(match step(self, 0)? {
            Decided::Sat(witness) => {
                self.best = Some(witness);
                End::Optimum(0)
            }
            Decided::Unsat => End::Infeasible,
            Decided::Stopped(reason) => End::Stopped(reason),
        })
    }

    /// One formula for every size from the next one to one above the bound (when the board
    /// can hold that many; [`Problem::upper_bound`]), so that the final UNSAT comes from the
    /// solver; each step solves under assumptions in one CaDiCaL.
    fn incremental(&mut self, bound: usize) -> Result<End, SolveError> {
        let queens = specialised(self.problem);
        let squares = self.problem.rules.layout.squares();
        // The most pieces a maximised group can be asked for: the squares (each group's
        // totalizer has one input per square), for the queens preset the d²/2 its encoder
        // states.
        let most = if queens { squares / 2 } else { squares };
        let hi = (bound + 1).min(most);
        // Without a witness yet, size 0 may be needed to tell "optimum 0" from infeasible.
        let first = if self.best.is_some() {
            self.lo() + 1
        } else {
            0
        };
        // Nothing to encode when even the first size does not fit (then it is UNSAT by
        // counting at once, below).
        let mut encoded = None;
        if first <= hi {
            let inc = if queens {
                let options = Options {
                    card: pq_encode::Card::Totalizer,
                    ..*self.options
                };
                let dim = self.problem.rules.layout.rows;
                encode_incremental(dim, &options, first, hi)
                    .map_err(|e| SolveError::in_process("optimiser", e))?
            } else {
                encode_problem_incremental(self.problem, self.options, first, hi)
            };
            encoded = Some((cadical_session(&inc.formula)?, inc));
        }
        self.search(bound, false, |run, n| {
            // hi ≥ bound: a larger n does not fit.
            if n > hi {
                return Ok(run.counting(n));
            }
            let (solver, inc) = encoded.as_mut().expect("n is within the encoded range");
            run.solver_step(n, hi, |run, limits| {
                solve_assumed(run.problem, solver.as_mut(), inc, n, limits)
            })
        })
    }

    fn finish(self, end: End) -> OptimiseOutcome {
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

/// Size `n` of `inc` in `solver` (which holds its clauses), solved under the assumptions
/// for `n` with `limits`, its model decoded and validated like a fresh solver's.
fn solve_assumed(
    problem: &Problem,
    solver: &mut dyn Session,
    inc: &IncrementalFormula,
    n: usize,
    limits: &Limits,
) -> Result<Outcome, SolveError> {
    let assumptions = inc.assumptions(n).expect("n is within the encoded range");
    let t = Instant::now();
    // Each step gets its own deadline.
    solver.limit(limits);
    let found = solver.solve_under(assumptions)?;
    let seconds = t.elapsed().as_secs_f64();
    let formula = &inc.formula;
    let answer = match found {
        Reply::Sat => Answer::Sat(solver.model(formula.n_vars, formula.n_vars)?),
        Reply::Unsat => Answer::Unsat,
        Reply::Stopped => Answer::Unknown(limits.unknown_reason()),
    };
    let name = solver.name();
    if let Err(reason) = pq_solve::known::agrees(problem, n, &answer) {
        return Err(SolveError::Rejected {
            program: name,
            reason,
        });
    }
    decoded(Some(problem), n, formula, answer, name, seconds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pq_board::rules::check_placement;
    use pq_solve::backend::Cadical;

    fn run(problem: &Problem, strategy: Strategy) -> OptimiseOutcome {
        let options = Options::default();
        let limits = RunLimits::default();
        optimise(problem, &options, strategy, &Cadical, &limits, &mut |_| {}).unwrap()
    }

    /// The best witness obeys the rules with exactly the demanded counts.
    fn assert_witness(problem: &Problem, out: &OptimiseOutcome, what: &str) {
        let (n, placement) = out.best.as_ref().expect("a witness");
        let counts: Vec<Option<usize>> = problem.demands(*n).into_iter().map(Some).collect();
        check_placement(&problem.rules, placement, &counts)
            .unwrap_or_else(|v| panic!("{what}: {v:?}"));
    }

    /// Each example file that maximises something, shrunk to a size a test can wait for.
    const EXAMPLES: &[(&str, &[(&str, &str)])] = &[
        ("peaceable-queens.toml", &[("board", "5x5")]),
        ("peaceable-queens-torus.toml", &[("board", "5x5")]),
        ("peaceable-knights.toml", &[("board", "5x5")]),
        ("three-armies.toml", &[("board", "4x4")]),
        (
            "crowded-chessboard.toml",
            &[
                ("board", "5x5"),
                ("queens", "5"),
                ("rooks", "5"),
                ("bishops", "8"),
            ],
        ),
    ];

    fn example(file: &str) -> Problem {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../encodings");
        let text = std::fs::read_to_string(format!("{dir}/{file}")).unwrap();
        Problem::from_toml(&text).unwrap()
    }

    #[test]
    fn incremental_finds_the_optimum_of_up_on_every_example_file() {
        // Every example that maximises something is in the list.
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../encodings");
        for entry in std::fs::read_dir(dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if name.ends_with(".toml") && !example(&name).maximised().is_empty() {
                assert!(
                    EXAMPLES.iter().any(|(f, _)| *f == name),
                    "{name} is not tested"
                );
            }
        }
        for &(file, sets) in EXAMPLES {
            let mut problem = example(file);
            problem.set_all(sets.iter().copied()).unwrap();
            let up = run(&problem, Strategy::Up);
            let inc = run(&problem, Strategy::Incremental);
            assert!(up.optimum.is_some(), "{file}: up proves an optimum");
            assert_eq!(inc.optimum, up.optimum, "{file}");
            assert_witness(&problem, &inc, file);
            let last = inc.steps.last().unwrap();
            assert_eq!(
                (last.n, last.status),
                (up.optimum.unwrap() + 1, Status::Unsat)
            );
            assert!(
                inc.steps
                    .iter()
                    .filter(|s| s.method == Method::Solver)
                    .all(|s| s.solver.as_deref() == Some("cadical (incremental)")),
                "{file}"
            );
        }
    }

    fn small(text: &str) -> Problem {
        Problem::from_toml(text).unwrap()
    }

    #[test]
    fn incremental_reports_infeasible_fixed_counts_like_up() {
        // Three queens at peace do not fit on 3x3: no size of the knights helps.
        let p = small(
            r#"
            no_attack = [["q"], ["q", "n"]]
            board = { size = "3x3" }
            group = [{ name = "q", kind = "queen", count = 3 },
                     { name = "n", kind = "knight", count = "max" }]
            "#,
        );
        for strategy in [Strategy::Up, Strategy::Incremental] {
            let out = run(&p, strategy);
            assert!(out.infeasible, "{strategy:?}");
            assert_eq!(
                (out.optimum, out.best.is_none()),
                (None, true),
                "{strategy:?}"
            );
            let ns: Vec<usize> = out.steps.iter().map(|s| s.n).collect();
            assert_eq!(ns, [1, 0], "{strategy:?}");
        }
    }

    #[test]
    fn incremental_proves_an_optimum_of_zero_like_up() {
        // A queen on 2x2 attacks every other square: no rook can join it.
        let p = small(
            r#"
            no_attack = [["q", "r"]]
            board = { size = "2x2" }
            group = [{ name = "q", kind = "queen", count = 1 },
                     { name = "r", kind = "rook", count = "max" }]
            "#,
        );
        for strategy in [Strategy::Up, Strategy::Incremental] {
            let out = run(&p, strategy);
            assert_eq!(out.optimum, Some(0), "{strategy:?}");
            assert!(!out.infeasible);
            assert_witness(&p, &out, "queen and rooks");
        }
    }

    #[test]
    fn incremental_reaching_every_square_ends_by_counting() {
        // Kings with no rule at all fill the board: the size above is UNSAT by counting.
        let p = small(
            r#"
            board = { size = "2x3" }
            group = [{ name = "k", kind = "king", count = "max" }]
            "#,
        );
        let out = run(&p, Strategy::Incremental);
        assert_eq!(out.optimum, Some(6));
        assert_witness(&p, &out, "kings");
        let last = out.steps.last().unwrap();
        assert_eq!((last.n, last.method), (7, Method::TooManyQueens));
    }
}
