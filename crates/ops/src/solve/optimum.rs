//! `solve`'s optimisations: the optimum of a problem's maximised groups by pq-sat's own
//! engines (certified with `--certify`), or by an external optimiser, checked.

use anyhow::Result;
use pq_encode::spec::Problem;
use pq_engine::capability::climb::{OptimiseOutcome, RunLimits, Strategy};
use pq_engine::capability::Climb;
use pq_engine::sat::maxsat::{optimise_with, Optimiser};
use pq_engine::sat::portfolio;
use pq_report::progress::{note, Reporter};
use pq_report::solve::{Optimum, Search};
use pq_report::CertificateSummary;
use pq_solve::control::Limits;

use super::{svg, Answer, Report, Solve};
use crate::{optimum_code, warn_rejection, Interruptible};

/// With `--svg`, draws the best placement of an optimisation; one by an external optimiser
/// (`by`) is titled without the optimum.
pub(super) fn svg_optimum(
    problem: &Problem,
    run: &Solve,
    outcome: &OptimiseOutcome,
    by: bool,
) -> Result<()> {
    let Some((m, p)) = &outcome.best else {
        return Ok(());
    };
    svg(problem, run, Some(p), |d| match outcome.optimum {
        Some(a) if !by => format!("a({d}) = {a}: {m} white and {m} black queens"),
        _ => format!("{m} white and {m} black queens on {d}x{d}"),
    })
}

/// The optimum of `problem`'s maximised groups, certified into a bundle with `--certify`.
pub(super) fn optimum(problem: &Problem, run: &Solve) -> Result<Answer> {
    let plan = &run.plan;
    let optimiser = plan.optimiser()?;
    let limits = RunLimits {
        run: Limits::timeout(run.timeout),
        step: run.step_timeout,
    };
    let optimised = {
        // Dropped before the answer is printed, taking its live line with it.
        let reporter = Reporter::new(run.progress, optimiser.name());
        let _guard = Interruptible::enter();
        optimiser.optimise(Climb {
            problem,
            limits: &limits,
            on_progress: &mut |event| reporter.on(event),
        })
    };
    optimiser
        .take_rejections()
        .into_iter()
        .for_each(warn_rejection);
    let optimised = optimised?;
    let outcome = &optimised.outcome;
    // With --certify, the UNSAT step above the optimum is proved again (the line engine: by
    // its search tree on one thread) and checked; the answer is printed even when that
    // failed, then the error follows.
    let certified = {
        let _guard = Interruptible::enter();
        plan.certify(
            problem,
            &optimised.certified,
            outcome,
            &limits,
            &mut |what| {
                note!("pq-sat: {what}");
            },
        )
    };
    let (certificate, failed) = match certified {
        Ok(c) => (
            c.map(|(dir, cert)| CertificateSummary::of(&dir, &cert)),
            None,
        ),
        Err(e) => (None, Some(e)),
    };
    // The SAT path reports its formulas' options; the line engine those of its certificate.
    let shown = optimised
        .options
        .or(certificate.is_some().then_some(optimised.certified));
    let mut report = Optimum::new(
        problem,
        shown.as_ref(),
        optimised.strategy,
        optimised.engine.clone(),
        outcome,
        certificate,
    );
    report.search = optimised.search.as_ref().map(Search::of);
    report.mark_known(plan.check_unsat.map(pq_engine::proof::ProofFormat::checker));
    Ok(Answer {
        problem: Some(problem.clone()),
        code: optimum_code(outcome),
        report: Report::Optimum {
            report,
            outcome: optimised.outcome,
            by: None,
        },
        failed: failed.map(anyhow::Error::from),
    })
}

/// The optimum of `problem` by an external optimiser (rc2, clasp), checked; with
/// `--check-unsat` the bound above it is confirmed by pq-sat's own checked UNSAT. Reported
/// as pq-sat's own optimiser reports, `solver` naming the optimiser.
pub(super) fn optimum_by(problem: &Problem, optimiser: Optimiser, run: &Solve) -> Result<Answer> {
    let options = &run.plan.options;
    let limits = Limits::timeout(run.timeout);
    let confirm = match run.plan.check_unsat {
        Some(format) => Some(portfolio(&run.plan.solvers, Some(format))?),
        None => None,
    };
    let outcome = {
        let _guard = Interruptible::enter();
        note!(
            "pq-sat: solving the optimisation with {} ({} export)",
            optimiser.name(),
            optimiser.export().name()
        );
        optimise_with(problem, options, optimiser, &limits, confirm.as_deref())
    };
    if let Some(b) = &confirm {
        b.take_rejections().into_iter().for_each(warn_rejection);
    }
    let outcome = outcome?;
    let mut report = Optimum::new(
        problem,
        Some(options),
        Strategy::Up,
        optimiser.name().to_string(),
        &outcome,
        None,
    );
    // The optimiser's file format stands where pq-sat's strategy would.
    report.strategy = optimiser.export().name().to_string();
    // Its UNSAT is its word alone unless --check-unsat confirmed it: say so.
    report.mark_known(
        run.plan
            .check_unsat
            .map(pq_engine::proof::ProofFormat::checker),
    );
    Ok(Answer {
        problem: Some(problem.clone()),
        code: optimum_code(&outcome),
        report: Report::Optimum {
            report,
            outcome,
            by: Some(optimiser),
        },
        failed: None,
    })
}

/// `--format competition` for an optimisation: the MaxSAT Evaluation's lines, the best
/// board completed to a model of the WCNF that `pq-sat encode --format wcnf` writes with
/// the same encoding options (its cost `K − n`), so that any MaxSAT tool can check it.
pub(super) fn maxsat_output(
    problem: &Problem,
    run: &Solve,
    text: &str,
    outcome: &OptimiseOutcome,
) -> Result<()> {
    let status = match (outcome.infeasible, outcome.optimum, &outcome.best) {
        (true, _, _) => "UNSATISFIABLE",
        (false, Some(_), _) => "OPTIMUM FOUND",
        (false, None, Some(_)) => "SATISFIABLE",
        (false, None, None) => "UNKNOWN",
    };
    let completed = match &outcome.best {
        Some((n, board)) => {
            // The export states no bound clauses: the file `encode --format wcnf` writes.
            let options = pq_encode::Options {
                bounds: pq_encode::Bounds::None,
                ..run.plan.options
            };
            let (opt, model) =
                pq_engine::sat::maxsat::wcnf_model(problem, &options, *n, board, &Limits::none())?;
            let cost = opt.objective(|v| model.value(v as usize));
            Some((cost, model))
        }
        None => None,
    };
    let best = completed.as_ref().map(|(cost, model)| (*cost, model));
    pq_report::emit_text(&pq_report::solve::maxsat_competition(text, status, best))?;
    Ok(())
}
