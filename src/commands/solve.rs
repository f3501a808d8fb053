//! `pq-sat encode` and `pq-sat solve`: any problem at one size, its optimum, or a DIMACS
//! file as it is. Every answer comes back from the engine decoded, validated and trimmed
//! once ([`pq_engine::pipeline`]); this module only chooses the backend, writes the files
//! asked for and hands the outcome to [`crate::report::solve`].

use pq_solve::output::WritePolicy;
use std::fs::File;
use std::io::{self, IsTerminal};
use std::path::Path;

use anyhow::{Context, Result};
use pq_encode::general::encode_problem;

use pq_encode::spec::Problem;
use pq_encode::{dimacs, header, Formula, Options};
use pq_engine::checked::verify_unsat;
use pq_engine::known::agrees;
use pq_engine::optimise::{optimise, OptimiseOutcome, RunLimits, Strategy};
use pq_engine::optimisers::{optimise_with, Optimiser};
use pq_engine::pipeline::{decoded, solve_formula_judged};
use pq_engine::proof::{certified_formula, prove};
use pq_engine::{Outcome, Status};
use pq_solve::backend::{accept_all, judged, Judge};
use pq_solve::control::{interrupted, Limits};
use pq_solve::{Answer, Backend};

use super::encode::sizes;
use super::{
    backend, command_names, render::picture, status_code, unless_interrupted, warn_rejections,
    Interruptible, EXIT_UNSAT,
};
use crate::cli::{Cubing, RunSettings};
use crate::files::write_svg;
use crate::progress::{note, Reporter};
use crate::report::solve::{Headline, Optimum, ProofReport, Solved};
use crate::report::{emit, is_queens_preset, CertificateSummary};
use pq_engine::compress;

/// Solves `problem` at size `n`; with `--proof`, by the proof's solver, writing the proof on
/// UNSAT.
pub fn at_size(problem: &Problem, n: usize, run: &RunSettings) -> Result<u8> {
    if let Some(engine) = &run.lines {
        return super::lines::at_size(problem, n, engine, run);
    }
    // --timeout bounds the whole run, encoding included.
    let limits = Limits::timeout(run.args.timeout);
    let options = &run.args.encoding.options();
    let formula = encode_problem(problem, n, options);
    sizes(&formula);
    let certifies = || certified_formula(problem, options);
    // pq-sat encoded this formula: its answer must agree with the table of proven values.
    let judge = |a: &Answer| agrees(problem, n, a);
    let (backend, outcome, proof) =
        answer(Some(problem), n, &formula, run, &limits, certifies, &judge)?;
    svg_at_size(problem, n, run, &outcome)?;
    let mut report = Solved::new(Some((problem, n)), Some(options), backend, &outcome, proof);
    report.mark_commands(&command_names(&run.solvers));
    emit(run.args.format, &report, || {
        report.text(Headline::Problem(problem, n), &outcome)
    })?;
    Ok(unless_interrupted(status_code(outcome.status)))
}

/// With `--svg`, draws the placement found at size `n`.
pub(super) fn svg_at_size(
    problem: &Problem,
    n: usize,
    run: &RunSettings,
    outcome: &Outcome,
) -> Result<()> {
    if let (Some(path), Some(p)) = (&run.args.svg, &outcome.placement) {
        let d = problem.rules.layout.rows;
        let title = format!("{n} white and {n} black queens on {d}x{d}");
        write_svg(
            path,
            &picture(problem, p, Some(&title)),
            WritePolicy::from_force(run.args.force),
        )?;
    }
    Ok(())
}

/// With `--svg`, draws the best placement of an optimisation.
pub(super) fn svg_optimum(
    problem: &Problem,
    run: &RunSettings,
    outcome: &OptimiseOutcome,
) -> Result<()> {
    if let (Some(path), Some((m, p))) = (&run.args.svg, &outcome.best) {
        let d = problem.rules.layout.rows;
        let title = match outcome.optimum {
            Some(a) => format!("a({d}) = {a}: {m} white and {m} black queens"),
            None => format!("{m} white and {m} black queens on {d}x{d}"),
        };
        write_svg(
            path,
            &picture(problem, p, Some(&title)),
            WritePolicy::from_force(run.args.force),
        )?;
    }
    Ok(())
}

/// The optimum of `problem`'s maximised groups, certified into a bundle with `--certify`.
pub fn optimum(problem: &Problem, run: &RunSettings) -> Result<u8> {
    if let Some(engine) = &run.lines {
        return super::lines::optimum(problem, engine, run);
    }
    let (options, strategy) = (&run.args.encoding.options(), run.args.strategy);
    // The incremental strategy always solves in the in-process CaDiCaL (checked in cli/).
    let backend: Box<dyn Backend> = match strategy {
        Strategy::Incremental => Box::new(pq_solve::backend::Cadical),
        _ => step_backend(run)?,
    };
    let limits = RunLimits {
        run: Limits::timeout(run.args.timeout),
        step: run.args.step_timeout,
    };
    let outcome = {
        // Dropped before the answer is printed, taking its live line with it.
        let reporter = Reporter::new(run.args.progress, backend.name());
        let _guard = Interruptible::enter();
        optimise(
            problem,
            options,
            strategy,
            backend.as_ref(),
            &limits,
            &mut |event| reporter.on(event),
        )
    };
    warn_rejections(backend.as_ref());
    let outcome = outcome?;
    // The answer is printed even when certifying it failed; then the error follows.
    let (certificate, failed) = match certify_optimum(problem, options, &outcome, run, &limits) {
        Ok(c) => (c, None),
        Err(e) => (None, Some(e)),
    };
    svg_optimum(problem, run, &outcome)?;
    let mut report = Optimum::new(
        problem,
        Some(options),
        strategy,
        backend.name(),
        &outcome,
        certificate,
    );
    report.mark_commands(&command_names(&run.solvers));
    emit(run.args.format, &report, || report.text(problem, &outcome))?;
    if let Some(e) = failed {
        return Err(e);
    }
    Ok(unless_interrupted(if outcome.infeasible {
        EXIT_UNSAT
    } else {
        0
    }))
}

/// The optimum of `problem` by an external optimiser (rc2, clasp), checked; with
/// `--check-unsat` the bound above it is confirmed by pq-sat's own checked UNSAT. Reported
/// as pq-sat's own optimiser reports, `solver` naming the optimiser.
pub fn optimum_by(problem: &Problem, optimiser: Optimiser, run: &RunSettings) -> Result<u8> {
    let options = &run.args.encoding.options();
    let limits = Limits::timeout(run.args.timeout);
    let confirm = match run.check_unsat {
        Some(_) => Some(backend(&run.solvers, run.check_unsat)?),
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
        warn_rejections(b.as_ref());
    }
    let outcome = outcome?;
    if let (Some(path), Some((m, p))) = (&run.args.svg, &outcome.best) {
        let d = problem.rules.layout.rows;
        write_svg(
            path,
            &picture(
                problem,
                p,
                Some(&format!("{m} white and {m} black queens on {d}x{d}")),
            ),
            WritePolicy::from_force(run.args.force),
        )?;
    }
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
    report.mark_commands(&[optimiser.name().to_string()]);
    emit(run.args.format, &report, || report.text(problem, &outcome))?;
    Ok(unless_interrupted(if outcome.infeasible {
        EXIT_UNSAT
    } else {
        0
    }))
}

/// Solves the DIMACS file of `--cnf` (standard input when none, or `-`) as it is. A pq-sat
/// header names the problem, so that the answer is decoded and validated like `solve --dim`
/// or `solve --problem`.
pub fn formula(run: &RunSettings) -> Result<u8> {
    let path = run.args.cnf.as_deref().filter(|p| p.as_os_str() != "-");
    // --timeout bounds the whole run, reading the file included.
    let limits = Limits::timeout(run.args.timeout);
    let formula = read_formula(path, &limits)?;
    sizes(&formula);
    let (problem, n) = header::subject(&formula);
    let size = n.unwrap_or(0);
    let certifies = || "the formula in the CNF file (clauses as given)".to_string();
    let (backend, outcome, proof) = answer(
        problem.as_ref(),
        size,
        &formula,
        run,
        &limits,
        certifies,
        &accept_all,
    )?;
    let options = problem.as_ref().map(|_| header::options(&formula.comments));
    let mut report = Solved::new(
        problem.as_ref().map(|p| (p, size)),
        options.as_ref(),
        backend,
        &outcome,
        proof,
    );
    report.mark_commands(&command_names(&run.solvers));
    // A queens file keeps the formula's own headline; other problems are named.
    let headline = match &problem {
        Some(p) if !is_queens_preset(p) => Headline::Problem(p, size),
        p => Headline::Formula(p.as_ref()),
    };
    emit(run.args.format, &report, || report.text(headline, &outcome))?;
    Ok(unless_interrupted(status_code(outcome.status)))
}

/// Parses the DIMACS formula at `path` (standard input when `None`; .cnf.xz, .cnf.gz and
/// .cnf.bz2 too, known by their first bytes); a read that `limits` stop (time limit,
/// Ctrl-C) is an error.
fn read_formula(path: Option<&Path>, limits: &Limits) -> Result<Formula> {
    Ok(if let Some(p) = path {
        let file = File::open(p).with_context(|| format!("cannot open {}", p.display()))?;
        let input = compress::decompressed(Watched {
            inner: file,
            limits,
        })
        .with_context(|| format!("cannot read {}", p.display()))?;
        dimacs::parse(input).with_context(|| format!("cannot read {}", p.display()))?
    } else {
        let stdin = io::stdin();
        if stdin.is_terminal() {
            note!(
                "pq-sat: reading a DIMACS formula from standard input (give --dim D to encode a board, or --cnf FILE)"
            );
        }
        let stdin = Watched {
            inner: stdin.lock(),
            limits,
        };
        let input = compress::decompressed(stdin).context("cannot read standard input")?;
        dimacs::parse(input).context("cannot read standard input")?
    })
}

/// A reader that fails once its limits say stop: reading a big formula takes seconds, and
/// neither a time limit nor Ctrl-C may wait for it.
struct Watched<'a, R> {
    inner: R,
    limits: &'a Limits,
}

impl<R: io::Read> io::Read for Watched<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.limits.stop_reason() {
            Some(reason) => Err(io::Error::other(format!(
                "{reason} before the formula was read; nothing was solved"
            ))),
            None => self.inner.read(buf),
        }
    }
}

/// Solves `formula` (made for `problem` at size `n`, if known) with the backend of `run`,
/// or with its proof's solver (the proof and its CNF are written on UNSAT, the proof
/// certifying what `certifies` says); the answer must pass `judge`, and is decoded into a
/// validated placement of `problem` (within `limits`); the result names the backend.
fn answer(
    problem: Option<&Problem>,
    n: usize,
    formula: &Formula,
    run: &RunSettings,
    limits: &Limits,
    certifies: impl FnOnce() -> String,
    judge: Judge<'_>,
) -> Result<(String, Outcome, Option<ProofReport>)> {
    Ok(
        if let (Some(job), Some(prover)) = (&run.proof, &run.prover) {
            let _guard = Interruptible::enter();
            let format = run.proof_format;
            let policy = WritePolicy::from_force(run.args.force);
            let files = (job.cnf_out.as_path(), job.proof.as_path());
            let proved = prove(prover, formula, files, format, limits, policy)?;
            let (mut answer, solver) = judged(formula, (proved.answer, proved.solver), judge)?;
            let checked = answer == Answer::Unsat && run.check_unsat.is_some();
            if checked {
                answer = verify_unsat(solver.clone(), &job.cnf_out, &job.proof, format, limits)?;
            }
            let report = ProofReport::new(
                &job.proof,
                &job.cnf_out,
                format,
                proved.proof_bytes,
                certifies(),
            );
            let mut outcome = decoded(problem, n, formula, answer, solver, proved.seconds)?;
            if outcome.status == Status::Unsat {
                outcome.verified = Some(checked);
            }
            (outcome.solver.clone(), outcome, Some(report))
        } else {
            let backend = step_backend(run)?;
            let _guard = Interruptible::enter();
            let outcome =
                solve_formula_judged(problem, n, formula, backend.as_ref(), limits, judge);
            warn_rejections(backend.as_ref());
            let outcome = outcome?;
            (backend.name(), outcome, None)
        },
    )
}

/// With `--certify`, once the optimum is proven, writes its certificate bundle (the
/// witness, and a checked proof one above). An optimum that was not proven is an error.
pub(super) fn certify_optimum(
    problem: &Problem,
    options: &Options,
    outcome: &OptimiseOutcome,
    run: &RunSettings,
    limits: &RunLimits,
) -> Result<Option<CertificateSummary>> {
    let (Some(dir), Some(prover), format) = (&run.args.certify, &run.prover, &run.proof_format)
    else {
        return Ok(None);
    };
    if interrupted() {
        return Ok(None);
    }
    let (Some(optimum), Some((_, witness))) = (outcome.optimum, &outcome.best) else {
        anyhow::bail!(
            "no certificate written: the optimum was not proven ({})",
            outcome.reason.as_deref().unwrap_or("stopped")
        );
    };
    let _guard = Interruptible::enter();
    let claim = pq_engine::certificate::claim(problem, optimum);
    note!(
        "pq-sat: certifying {claim}: proving {} impossible with {prover} ({} proof)",
        optimum + 1,
        format.name().to_uppercase()
    );
    let request = pq_engine::certificate::Request {
        problem,
        optimum,
        witness,
        options: *options,
        prover: prover.clone(),
        format: *format,
        solve_limits: limits.run.clone(),
        policy: WritePolicy::from_force(run.args.force),
    };
    let cert = pq_engine::certificate::write_certificate(dir, &request)
        .with_context(|| format!("cannot certify {claim} into {}", dir.display()))?;
    Ok(Some(CertificateSummary::of(dir, &cert)))
}

/// The backend of every solver step: the solvers `run` names, with `--cubes` one solver
/// solving cubes on `--jobs` workers, and with `--cubes auto` the same, or with a probe
/// (`--cube-after`) the solvers first and the cubes for a step still open after it.
fn step_backend(run: &RunSettings) -> Result<Box<dyn Backend>> {
    let solvers = backend(&run.solvers, run.check_unsat)?;
    let cubed = |member: Box<dyn Backend>| pq_engine::cube::backend::Cubed {
        member,
        jobs: run.args.jobs.unwrap_or_else(crate::cli::default_jobs),
        settings: pq_engine::cube::split::Settings {
            method: pq_engine::cube::split::Method::Auto,
            prefix: None,
            depth: None,
            free: None,
        },
        incremental: false,
    };
    Ok(match &run.cubing {
        Cubing::Never => solvers,
        Cubing::Always => Box::new(cubed(solvers)),
        Cubing::After { probe, member } => Box::new(pq_engine::cube::backend::AutoCubes {
            first: solvers,
            probe: *probe,
            cubes: cubed(super::member(member, run.check_unsat)?),
        }),
    })
}
