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

use std::time::Instant;

use pq_encode::general::{encode_problem_incremental, specialised};
use pq_encode::spec::Problem;
use pq_encode::{encode_incremental, IncrementalFormula, Options};

use pq_solve::answer::Answer;
use pq_solve::backend::Backend;
use pq_solve::control::Limits;
use pq_solve::error::SolveError;

use super::pipeline::{cadical_session, decoded, solve};
use crate::capability::climb::{End, OptimiseOutcome, Progress, Run, RunLimits, Strategy};
use crate::capability::Outcome;
use pq_solve::session::{Reply, Session};

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

impl Run<'_> {
    /// One formula for every size from the next one to one above the bound (when the board
    /// can hold that many; [`Problem::upper_bound`]), so that the final UNSAT comes from the
    /// solver; each step solves under assumptions in one CaDiCaL.
    pub(crate) fn incremental(&mut self, bound: usize) -> Result<End, SolveError> {
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
    use crate::capability::climb::Method;
    use crate::capability::Status;
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
