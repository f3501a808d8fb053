//! `pq-sat solve`: any problem at one size, its optimum, or a DIMACS file as it is. The
//! [`pq_engine::plan::Plan`] picks the engine; every answer comes back decoded, validated and
//! trimmed once; this module writes the files asked for and hands the outcome to
//! [`pq_report::solve`].

use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;
use pq_board::placement::Placement;
use pq_encode::general::encode_problem;
use pq_encode::spec::Problem;
use pq_encode::{header, Formula};
use pq_engine::capability::Outcome;
use pq_engine::capability::{Decided, ProofFiles, Query, Step};
use pq_engine::plan::{Plan, Target};
use pq_engine::proof::{certified_formula, ProofFormat};
use pq_io::output::WritePolicy;
use pq_report::emit;
use pq_report::files::write_svg;
use pq_report::progress::note;
use pq_report::solve::{Headline, ProofReport, Search, Solved};
use pq_solve::answer::Answer;
use pq_solve::backend::accept_all;
use pq_solve::control::Limits;
use pq_solve::known::agrees;

use crate::{picture, sizes, status_code, unless_interrupted, warn_rejection, Interruptible};

mod optimum;

/// A run of `solve`: its plan, and how the answer is shown.
#[derive(Debug)]
pub struct Solve {
    /// Which engine answers, with which proofs.
    pub plan: Plan,
    /// The limit of the whole run, if any.
    pub timeout: Option<Duration>,
    /// The limit of each step of an optimisation, if any.
    pub step_timeout: Option<Duration>,
    /// Progress on stderr.
    pub progress: pq_report::ProgressMode,
    /// How the report is printed.
    pub format: pq_report::Format,
    /// The SAT (or MaxSAT) competition's output lines in place of the report.
    pub competition: bool,
    /// Where to draw the board, if anywhere.
    pub svg: Option<PathBuf>,
    /// Whether output files may be replaced.
    pub force: bool,
}

impl Solve {
    /// Answers the plan's question; the exit code as the SAT competition's (10, 20, 0), or
    /// for an optimisation as the MaxSAT Evaluation's (30, 10, 20, 0).
    pub fn run(&self) -> Result<u8> {
        run(self)
    }
}

/// Answers the job's question.
fn run(run: &Solve) -> Result<u8> {
    match &run.plan.target {
        Target::Size(problem, n) => at_size(problem, *n, run),
        Target::Optimum(problem) => optimum::optimum(problem, run),
        Target::OptimiseWith(problem, optimiser) => optimum::optimum_by(problem, *optimiser, run),
        Target::Formula(path) => formula(path.as_deref(), run),
    }
}

/// Solves `problem` at size `n`; with `--proof`, by the proof's engine, writing the proof
/// on UNSAT.
fn at_size(problem: &Problem, n: usize, run: &Solve) -> Result<u8> {
    let plan = &run.plan;
    // --timeout bounds the whole run, encoding included.
    let limits = Limits::timeout(run.timeout);
    let options = plan.options;
    let formula = plan
        .needs_formula()
        .then(|| encode_problem(problem, n, &options));
    if let Some(formula) = &formula {
        sizes(formula);
    }
    // The engine's answer must agree with the table of proven values.
    let judge = |a: &Answer| agrees(problem, n, a);
    let decided = {
        let _guard = Interruptible::enter();
        let step = match &formula {
            Some(formula) => Step::Formula {
                problem: Some(problem),
                n,
                formula,
            },
            None => Step::Problem { problem, n },
        };
        plan.decide(
            Query {
                step,
                limits: &limits,
                judge: &judge,
            },
            &mut warn_rejection,
        )?
    };
    // The SAT path reports the formula it solved; the line engine the one its proof refutes.
    let shown = match formula {
        Some(_) => Some(options),
        None => decided.options,
    };
    let certifies = || certified_formula(problem, &shown.unwrap_or(options));
    let proof = proof_report(plan, &decided, certifies);
    let outcome = &decided.outcome;
    svg_at_size(problem, n, run, outcome)?;
    let mut report = Solved::new(
        Some((problem, n)),
        shown.as_ref(),
        decided.engine.clone(),
        outcome,
        proof,
    );
    report.search = decided.search.as_ref().map(Search::of);
    report.mark_known(plan.check_unsat.map(ProofFormat::checker));
    let text = || report.text(Headline::Problem(problem, n), outcome);
    if plan.proof.as_ref().is_some_and(ProofFiles::to_stdout) {
        pq_report::emit_to_stderr(run.format, &report, text)?;
    } else {
        emit(run.format, &report, text)?;
    }
    Ok(unless_interrupted(status_code(outcome.status)))
}

/// The report of the proof the plan wrote, if it asked for one.
fn proof_report(
    plan: &Plan,
    decided: &Decided,
    certifies: impl FnOnce() -> String,
) -> Option<ProofReport> {
    let (files, bytes) = (plan.proof.as_ref()?, decided.proof_bytes?);
    Some(ProofReport::written(files, bytes, certifies))
}

/// With `--svg`, draws `placement` titled `title` (the preset's pictures only: other
/// problems show their name).
pub(crate) fn svg(
    problem: &Problem,
    run: &Solve,
    placement: Option<&Placement>,
    title: impl FnOnce(usize) -> String,
) -> Result<()> {
    if let (Some(path), Some(p)) = (&run.svg, placement) {
        let title = title(problem.rules.layout.rows);
        let policy = WritePolicy::from_force(run.force);
        write_svg(path, &picture(problem, p, Some(&title)), policy)?;
    }
    Ok(())
}

/// With `--svg`, draws the placement found at size `n`.
fn svg_at_size(problem: &Problem, n: usize, run: &Solve, outcome: &Outcome) -> Result<()> {
    svg(problem, run, outcome.placement.as_ref(), |d| {
        format!("{n} white and {n} black queens on {d}x{d}")
    })
}

/// Solves the DIMACS file at `path` (standard input when `None`) as it is. A pq-sat header
/// names the problem, so that the answer is decoded and validated like `solve --dim` or
/// `solve --problem`.
fn formula(path: Option<&Path>, run: &Solve) -> Result<u8> {
    // --timeout bounds the whole run, reading the file included.
    let limits = Limits::timeout(run.timeout);
    let formula = read_formula(path, &limits)?;
    sizes(&formula);
    let (problem, n) = header::subject(&formula);
    let size = n.unwrap_or(0);
    let certifies = || "the formula in the CNF file (clauses as given)".to_string();
    let decided = {
        let _guard = Interruptible::enter();
        let step = Step::Formula {
            problem: problem.as_ref(),
            n: size,
            formula: &formula,
        };
        let query = Query {
            step,
            limits: &limits,
            judge: &accept_all,
        };
        run.plan.decide(query, &mut warn_rejection)?
    };
    let proof = proof_report(&run.plan, &decided, certifies);
    let outcome = decided.outcome;
    let backend = decided.engine;
    let options = problem.as_ref().map(|_| header::options(&formula.comments));
    let mut report = Solved::new(
        problem.as_ref().map(|p| (p, size)),
        options.as_ref(),
        backend,
        &outcome,
        proof,
    );
    report.mark_known(run.plan.check_unsat.map(ProofFormat::checker));
    // A queens file keeps the formula's own headline; other problems are named.
    let headline = match &problem {
        Some(p) if !p.preset().is_queens() => Headline::Problem(p, size),
        p => Headline::Formula(p.as_ref()),
    };
    if run.competition {
        let text = report.text(headline, &outcome);
        pq_report::emit_text(&pq_report::solve::competition(&text, &outcome))?;
    } else {
        emit(run.format, &report, || report.text(headline, &outcome))?;
    }
    Ok(unless_interrupted(status_code(outcome.status)))
}

/// Parses the DIMACS formula at `path` (standard input when `None`), saying so when a
/// person might be waiting to type it.
fn read_formula(path: Option<&Path>, limits: &Limits) -> Result<Formula> {
    if path.is_none() && io::stdin().is_terminal() {
        note!(
            "pq-sat: reading a DIMACS formula from standard input (give --dim D to encode a board, or --cnf FILE)"
        );
    }
    Ok(pq_solve::input::read_formula(path, limits)?)
}
