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
use pq_engine::capability::climb::OptimiseOutcome;
use pq_engine::capability::Outcome;
use pq_engine::capability::{Decided, ProofFiles, Query, Step};
use pq_engine::plan::{Plan, Target};
use pq_engine::proof::{certified_formula, ProofFormat};
use pq_engine::sat::maxsat::Optimiser;
use pq_io::output::WritePolicy;
use pq_report::emit;
use pq_report::files::write_svg;
use pq_report::progress::note;
use pq_report::solve::{Headline, Optimum, ProofReport, Search, Solved};
use pq_solve::answer::Answer as SolverAnswer;
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
        let answer = self.answer()?;
        match &answer.report {
            Report::Solved {
                report,
                outcome,
                shown,
            } => {
                let problem = answer.problem.as_ref();
                if let (Shown::Size(n), Some(problem)) = (shown, problem) {
                    svg_at_size(problem, *n, self, outcome)?;
                }
                let text = || answer.text();
                if self.competition {
                    pq_report::emit_text(&pq_report::solve::competition(&text(), outcome))?;
                } else if self.plan.proof.as_ref().is_some_and(ProofFiles::to_stdout) {
                    pq_report::emit_to_stderr(self.format, report, text)?;
                } else {
                    emit(self.format, report, text)?;
                }
            }
            Report::Optimum {
                report,
                outcome,
                by,
            } => {
                let problem = answer.problem.as_ref().expect("an optimum has a problem");
                optimum::svg_optimum(problem, self, outcome, by.is_some())?;
                if self.competition {
                    optimum::maxsat_output(problem, self, &answer.text(), outcome)?;
                } else {
                    emit(self.format, report, || answer.text())?;
                }
            }
        }
        if let Some(e) = answer.failed {
            return Err(e);
        }
        Ok(unless_interrupted(answer.code))
    }

    /// Answers the plan's question without printing or drawing anything: the report that
    /// `run` prints, the outcome it was made from, and the exit code. A certificate that
    /// could not be written after the optimum was found is [`Answer::failed`], so that the
    /// answer is still shown.
    pub fn answer(&self) -> Result<Answer> {
        match &self.plan.target {
            Target::Size(problem, n) => at_size(problem, *n, self),
            Target::Optimum(problem) => optimum::optimum(problem, self),
            Target::OptimiseWith(problem, optimiser) => {
                optimum::optimum_by(problem, *optimiser, self)
            }
            Target::Formula(path) => formula(path.as_deref(), self),
        }
    }
}

/// What `solve` answered, before it is printed ([`Solve::answer`]).
pub struct Answer {
    /// The problem answered: the one asked, or the one a DIMACS file's header names.
    pub problem: Option<Problem>,
    /// The report, with the outcome it was made from.
    pub report: Report,
    /// The exit code, unless Ctrl-C cut the run short.
    pub code: u8,
    /// The certificate that could not be written once the optimum was found
    /// (`--certify`): the answer stands, the run still fails.
    pub failed: Option<anyhow::Error>,
}

/// `solve`'s report (what `--format json` prints) and the outcome it was made from.
pub enum Report {
    /// One size, or a DIMACS file as it is.
    Solved {
        /// The report.
        report: Solved,
        /// The validated answer.
        outcome: Outcome,
        /// What the text's headline talks about.
        shown: Shown,
    },
    /// An optimisation.
    Optimum {
        /// The report.
        report: Optimum,
        /// The climb's outcome.
        outcome: OptimiseOutcome,
        /// The external optimiser that solved it, if one did (`--backend rc2`).
        by: Option<Optimiser>,
    },
}

/// What a one-formula answer's headline talks about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// The problem at this size.
    Size(usize),
    /// A DIMACS file as it is, with the size its header gives (0 when none).
    Formula(usize),
}

impl Answer {
    /// The text answer, as `solve --format text` prints it.
    pub fn text(&self) -> String {
        let problem = self.problem.as_ref();
        match &self.report {
            Report::Solved {
                report,
                outcome,
                shown,
            } => {
                let headline = match (shown, problem) {
                    (Shown::Size(n), Some(p)) => Headline::Problem(p, *n),
                    // A queens file keeps the formula's own headline; other problems are
                    // named.
                    (Shown::Formula(size), Some(p)) if !p.preset().is_queens() => {
                        Headline::Problem(p, *size)
                    }
                    (_, p) => Headline::Formula(p),
                };
                report.text(headline, outcome)
            }
            Report::Optimum {
                report, outcome, ..
            } => report.text(problem.expect("an optimum has a problem"), outcome),
        }
    }

    /// The validated placement the answer shows, if any: the witness at the size asked, or
    /// the best one of an optimisation.
    pub fn placement(&self) -> Option<&Placement> {
        match &self.report {
            Report::Solved { outcome, .. } => outcome.placement.as_ref(),
            Report::Optimum { outcome, .. } => outcome.best.as_ref().map(|(_, p)| p),
        }
    }
}

/// Solves `problem` at size `n`; with `--proof`, by the proof's engine, writing the proof
/// on UNSAT.
fn at_size(problem: &Problem, n: usize, run: &Solve) -> Result<Answer> {
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
    let judge = |a: &SolverAnswer| agrees(problem, n, a);
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
    let outcome = decided.outcome;
    let mut report = Solved::new(
        Some((problem, n)),
        shown.as_ref(),
        decided.engine.clone(),
        &outcome,
        proof,
    );
    report.search = decided.search.as_ref().map(Search::of);
    report.mark_known(plan.check_unsat.map(ProofFormat::checker));
    Ok(Answer {
        problem: Some(problem.clone()),
        code: status_code(outcome.status),
        report: Report::Solved {
            report,
            outcome,
            shown: Shown::Size(n),
        },
        failed: None,
    })
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
fn formula(path: Option<&Path>, run: &Solve) -> Result<Answer> {
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
    Ok(Answer {
        problem,
        code: status_code(outcome.status),
        report: Report::Solved {
            report,
            outcome,
            shown: Shown::Formula(size),
        },
        failed: None,
    })
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
