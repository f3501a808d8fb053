//! The line engine's climb to an optimum: the shared climb of [`crate::capability::climb`]
//! with every step decided by [`LineEngine`].

use pq_encode::spec::Problem;
use pq_encode::Options;
use pq_solve::error::SolveError;

use super::LineEngine;
use crate::capability::climb::{OptimiseOutcome, Progress, Run, RunLimits};

/// The climb of [`crate::sat::optimise::optimise`] with every step decided by the native line engine ([`LineEngine`]),
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
