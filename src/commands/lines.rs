//! `pq-sat solve` answered by the native line engine (`--engine lines`, or `auto` where it
//! applies): one size, or the optimum by raising `n` until UNSAT. No formula is built; the
//! witness is validated like a solver's, and the report carries the search's node counts.

use anyhow::Result;
use pq_encode::spec::Problem;
use pq_engine::lines::{tree_proof_options, LineEngine};
use pq_engine::optimise::{optimise_lines, RunLimits, Strategy};
use pq_engine::proof::{certified_formula, ProofFormat};
use pq_solve::control::Limits;
use pq_solve::output::WritePolicy;

use super::solve::{certify_optimum, svg_at_size, svg_optimum};
use super::{status_code, unless_interrupted, Interruptible, EXIT_UNSAT};
use crate::cli::RunSettings;
use crate::progress::Reporter;
use crate::report::emit;
use crate::report::solve::{Headline, Optimum, ProofReport, Search, Solved};

/// Decides `problem` at size `n`; with `--proof`, writing the search tree as a DRAT proof
/// of the formula with bound clauses (and checking it with `--check-unsat`).
pub fn at_size(problem: &Problem, n: usize, engine: &LineEngine, run: &RunSettings) -> Result<u8> {
    let limits = Limits::timeout(run.args.timeout);
    let options = tree_proof_options();
    let (outcome, stats, proof) = {
        let _guard = Interruptible::enter();
        match &run.proof {
            None => {
                let (outcome, stats) = engine.decide(problem, n, &limits)?;
                (outcome, stats, None)
            }
            Some(job) => {
                let files = (job.cnf_out.as_path(), job.proof.as_path());
                let check = run.check_unsat.is_some();
                let policy = WritePolicy::from_force(run.args.force);
                let (outcome, stats, bytes) =
                    engine.prove(problem, n, files, check, &limits, policy)?;
                let certifies = certified_formula(problem, &options);
                let report = ProofReport::new(
                    &job.proof,
                    &job.cnf_out,
                    ProofFormat::Drat,
                    bytes,
                    certifies,
                );
                (outcome, stats, Some(report))
            }
        }
    };
    svg_at_size(problem, n, run, &outcome)?;
    let shown = proof.is_some().then_some(&options);
    let name = outcome.solver.clone();
    let mut report = Solved::new(Some((problem, n)), shown, name, &outcome, proof);
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
    // With --certify, the UNSAT step above the optimum is proved again by the engine's
    // search tree (one thread) and checked; the answer is printed even when that failed.
    let options = tree_proof_options();
    let (certificate, failed) = match certify_optimum(problem, &options, &outcome, run, &limits) {
        Ok(c) => (c, None),
        Err(e) => (None, Some(e)),
    };
    svg_optimum(problem, run, &outcome)?;
    let shown = certificate.is_some().then_some(&options);
    let name = engine.name();
    let mut report = Optimum::new(problem, shown, Strategy::Up, name, &outcome, certificate);
    report.search = Some(Search::of(&stats));
    emit(run.args.format, &report, || report.text(problem, &outcome))?;
    if let Some(e) = failed {
        return Err(e);
    }
    // As the SAT path: 20 when even size 0 is impossible, else 0.
    Ok(unless_interrupted(if outcome.infeasible {
        EXIT_UNSAT
    } else {
        0
    }))
}
