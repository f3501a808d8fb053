//! `pq-sat solve` answered by the native line engine (`--engine lines`, or `auto` where it
//! applies): one size, or the optimum by raising `n` until UNSAT. No formula is built; the
//! witness is validated like a solver's, and the report carries the search's node counts.

use anyhow::Result;
use pq_encode::spec::Problem;
use pq_engine::lines::LineEngine;
use pq_engine::optimise::{optimise_lines, RunLimits, Strategy};
use pq_solve::control::Limits;

use super::solve::{svg_at_size, svg_optimum};
use super::{status_code, unless_interrupted, Interruptible, EXIT_UNSAT};
use crate::cli::RunSettings;
use crate::progress::Reporter;
use crate::report::emit;
use crate::report::solve::{Headline, Optimum, Search, Solved};

/// Decides `problem` at size `n`.
pub fn at_size(problem: &Problem, n: usize, engine: &LineEngine, run: &RunSettings) -> Result<u8> {
    let limits = Limits::timeout(run.args.timeout);
    let (outcome, stats) = {
        let _guard = Interruptible::enter();
        engine.decide(problem, n, &limits)?
    };
    svg_at_size(problem, n, run, &outcome)?;
    let mut report = Solved::new(Some((problem, n)), None, engine.name(), &outcome, None);
    report.search = Some(Search::of(&stats));
    emit(run.args.format, &report, || {
        report.text(Headline::Problem(problem, n), &outcome)
    })?;
    Ok(unless_interrupted(status_code(outcome.status)))
}

/// The optimum of `problem`'s maximised groups.
pub fn optimum(problem: &Problem, engine: &LineEngine, run: &RunSettings) -> Result<u8> {
    let limits = RunLimits {
        run: Limits::timeout(run.args.timeout),
        step: run.args.step_timeout,
    };
    let mut stats = pq_lines::Stats::default();
    let outcome = {
        // Dropped before the answer is printed, taking its live line with it.
        let reporter = Reporter::new(run.args.progress, engine.name());
        let _guard = Interruptible::enter();
        optimise_lines(
            problem,
            engine,
            &limits,
            &mut |event| reporter.on(event),
            &mut stats,
        )?
    };
    svg_optimum(problem, run, &outcome)?;
    let mut report = Optimum::new(problem, None, Strategy::Up, engine.name(), &outcome, None);
    report.search = Some(Search::of(&stats));
    emit(run.args.format, &report, || report.text(problem, &outcome))?;
    // As the SAT path: 20 when even size 0 is impossible, else 0.
    Ok(unless_interrupted(if outcome.infeasible {
        EXIT_UNSAT
    } else {
        0
    }))
}
