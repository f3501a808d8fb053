//! Running a validated [`Job`].

use std::fs::File;
use std::io::{self, BufReader, IsTerminal, Write};
use std::path::Path;

use std::os::unix::fs::PermissionsExt;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result};
use pq_encode::dimacs;
use pq_encode::spec::Problem;
use pq_engine::optimise::{optimise, RunLimits};
use pq_engine::pipeline::{solve, solve_formula};
use pq_engine::Status;
use pq_solve::control::{interrupted, Limits};
use pq_solve::portfolio::{default_portfolio, Portfolio};
use pq_solve::Backend;

use crate::cli::{Job, Solvers};
use crate::output;
use crate::placement;
use crate::progress::Reporter;

/// Exit codes of the SAT competition, used for single answers.
const EXIT_SAT: u8 = 10;
const EXIT_UNSAT: u8 = 20;
/// The shell's code for "stopped by Ctrl-C" (128 + SIGINT).
pub const EXIT_INTERRUPTED: u8 = 130;

static INTERRUPTIBLE: AtomicBool = AtomicBool::new(false);

/// True while a solver runs that reports what it knows when interrupted; otherwise Ctrl-C
/// simply ends pq-sat.
pub fn interruptible() -> bool {
    INTERRUPTIBLE.load(Ordering::SeqCst)
}

/// Marks the solving part of a job as interruptible for as long as it lives.
struct Interruptible;

impl Interruptible {
    fn enter() -> Interruptible {
        INTERRUPTIBLE.store(true, Ordering::SeqCst);
        Interruptible
    }
}

impl Drop for Interruptible {
    fn drop(&mut self) {
        INTERRUPTIBLE.store(false, Ordering::SeqCst);
    }
}

/// The solver (or portfolio) that answers each formula.
fn backend(solvers: &Solvers) -> Result<Box<dyn Backend>> {
    Ok(match solvers {
        Solvers::Given(list) if list.len() == 1 => list[0].resolve()?,
        Solvers::Given(list) => Box::new(Portfolio::new(
            list.iter()
                .map(|spec| spec.resolve())
                .collect::<Result<Vec<_>, _>>()?,
        )),
        Solvers::Default { jobs } => Box::new(default_portfolio(*jobs)),
    })
}

/// The backend an optimisation names in its output: the incremental strategy always solves
/// in the in-process CaDiCaL (checked in cli.rs), the others with the chosen solvers.
fn optimiser_backend(
    strategy: pq_engine::optimise::Strategy,
    solvers: &Solvers,
) -> Result<Box<dyn Backend>> {
    if strategy == pq_engine::optimise::Strategy::Incremental {
        return Ok(Box::new(pq_solve::backend::Cadical));
    }
    backend(solvers)
}

/// The exit code of a finished job: `code`, unless Ctrl-C cut it short.
fn unless_interrupted(code: u8) -> u8 {
    if interrupted() {
        EXIT_INTERRUPTED
    } else {
        code
    }
}

pub fn run(job: Job) -> Result<u8> {
    match job {
        Job::Check {
            instance,
            options,
            run,
            proof: Some(proof),
        } => {
            let queens = Problem::peaceable_queens(instance.dim());
            let formula = pq_encode::general::encode_problem(&queens, instance.n(), &options);
            let certifies = pq_engine::proof::certified_formula(&queens, &options);
            let (outcome, info) = {
                let _guard = Interruptible::enter();
                solve_with_proof(
                    Some(&queens),
                    instance.n(),
                    &formula,
                    &proof,
                    certifies,
                    &Limits::timeout(run.timeout),
                )?
            };
            let name = outcome.solver.clone();
            output::check(&instance, &options, name, &outcome, Some(&info), run.format)?;
            Ok(unless_interrupted(status_code(outcome.status)))
        }
        Job::EncodeProblem {
            problem,
            n,
            options,
            output,
        } => {
            let formula = pq_encode::general::encode_problem(&problem, n, &options);
            match output {
                Some(path) => write_atomically(&path, |w| dimacs::write(&formula, w))?,
                None => dimacs::write(&formula, io::stdout().lock())?,
            }
            Ok(0)
        }
        Job::CheckProblem {
            problem,
            n,
            options,
            run,
            proof,
        } => {
            let limits = Limits::timeout(run.timeout);
            let (name, outcome, info) = match &proof {
                Some(job) => {
                    let formula = pq_encode::general::encode_problem(&problem, n, &options);
                    let (proved, info) = {
                        let _guard = Interruptible::enter();
                        prove_formula(
                            &formula,
                            job,
                            pq_engine::proof::certified_formula(&problem, &options),
                            &limits,
                        )?
                    };
                    let outcome = pq_engine::pipeline::decoded(
                        Some(&problem),
                        n,
                        &formula,
                        proved.answer,
                        proved.solver,
                        proved.seconds,
                    )?;
                    (outcome.solver.clone(), outcome, Some(info))
                }
                None => {
                    let backend = backend(&run.solvers)?;
                    let _guard = Interruptible::enter();
                    let outcome = solve(&problem, n, &options, backend.as_ref(), &limits)?;
                    (backend.name(), outcome, None)
                }
            };
            if let (Some(path), Some(p)) = (&run.svg, &outcome.placement) {
                placement::write_svg(path, &placement::placement_picture(&problem, p))?;
            }
            placement::check(
                &problem,
                n,
                &options,
                &name,
                &outcome,
                info.as_ref(),
                run.format,
            )?;
            Ok(unless_interrupted(status_code(outcome.status)))
        }
        Job::MaximiseProblem {
            problem,
            options,
            strategy,
            run,
            certify,
        } => {
            let backend = optimiser_backend(strategy, &run.solvers)?;
            let reporter = Reporter::new(run.progress, backend.name());
            let limits = RunLimits {
                run: Limits::timeout(run.timeout),
                step: run.step_timeout,
            };
            let outcome = {
                let _guard = Interruptible::enter();
                optimise(
                    &problem,
                    &options,
                    strategy,
                    backend.as_ref(),
                    &limits,
                    &mut |event| reporter.on(event),
                )?
            };
            reporter.finish();
            let certificate = certify_optimum(
                &problem,
                &options,
                &outcome,
                certify.as_ref(),
                &run.solvers,
                &limits,
            );
            if let (Some(path), Some((_, p))) = (&run.svg, &outcome.best) {
                placement::write_svg(path, &placement::placement_picture(&problem, p))?;
            }
            // The answer is printed even when certifying it failed; then the error follows.
            let (certificate, failed) = match certificate {
                Ok(c) => (c, None),
                Err(e) => (None, Some(e)),
            };
            placement::optimum(
                &problem,
                &options,
                strategy,
                &backend.name(),
                &outcome,
                certificate.as_ref().map(|(d, c)| (d.as_path(), c)),
                run.format,
            )?;
            if let Some(e) = failed {
                return Err(e);
            }
            Ok(unless_interrupted(if outcome.infeasible {
                EXIT_UNSAT
            } else {
                0
            }))
        }
        Job::Render {
            path,
            problem,
            output,
        } => crate::commands::render::run(path.as_deref(), problem.as_ref(), output.as_deref()),
        Job::Check {
            instance,
            options,
            run,
            proof: None,
        } => {
            let backend = backend(&run.solvers)?;
            let outcome = {
                let _guard = Interruptible::enter();
                solve(
                    &Problem::peaceable_queens(instance.dim()),
                    instance.n(),
                    &options,
                    backend.as_ref(),
                    &Limits::timeout(run.timeout),
                )?
            };
            if let (Some(path), Some(board)) = (&run.svg, output::board_of(&outcome)) {
                let (d, n) = (instance.dim(), instance.n());
                let title = format!("{n} white and {n} black queens on {d}x{d}");
                placement::write_svg(path, &placement::queens_picture(&board, &title))?;
            }
            output::check(
                &instance,
                &options,
                backend.name(),
                &outcome,
                None,
                run.format,
            )?;
            Ok(unless_interrupted(status_code(outcome.status)))
        }
        Job::Optimise {
            dim,
            options,
            strategy,
            run,
            certify,
        } => {
            let backend = optimiser_backend(strategy, &run.solvers)?;
            let reporter = Reporter::new(run.progress, backend.name());
            let limits = RunLimits {
                run: Limits::timeout(run.timeout),
                step: run.step_timeout,
            };
            let outcome = {
                let _guard = Interruptible::enter();
                optimise(
                    &Problem::peaceable_queens(dim),
                    &options,
                    strategy,
                    backend.as_ref(),
                    &limits,
                    &mut |event| reporter.on(event),
                )?
            };
            reporter.finish();
            let best = outcome
                .best_board()
                .context("the optimiser returned no queens witness")?;
            let certificate = match certify_optimum(
                &Problem::peaceable_queens(dim),
                &options,
                &outcome,
                certify.as_ref(),
                &run.solvers,
                &limits,
            ) {
                Ok(c) => c,
                Err(e) => {
                    output::optimise(
                        dim,
                        &options,
                        strategy,
                        backend.name(),
                        &outcome,
                        &best,
                        None,
                        run.format,
                    )?;
                    return Err(e);
                }
            };
            if let Some(path) = &run.svg {
                let (m, board) = &best;
                let title = match outcome.optimum {
                    Some(a) => format!("a({dim}) = {a}: {m} white and {m} black queens"),
                    None => format!("{m} white and {m} black queens on {dim}x{dim}"),
                };
                placement::write_svg(path, &placement::queens_picture(board, &title))?;
            }
            output::optimise(
                dim,
                &options,
                strategy,
                backend.name(),
                &outcome,
                &best,
                certificate.as_ref().map(|(d, c)| (d.as_path(), c)),
                run.format,
            )?;
            Ok(unless_interrupted(0))
        }
        Job::Enumerate {
            n,
            request,
            count_only,
            format,
        } => crate::commands::enumerate::run(request, n, count_only, format),
        Job::Family {
            spec,
            dir,
            verify,
            format,
        } => {
            let portfolio;
            let verify = match verify {
                Some(timeout) => {
                    portfolio = default_portfolio(crate::cli::default_jobs());
                    Some(pq_engine::family::Verify {
                        backend: &portfolio,
                        timeout,
                    })
                }
                None => None,
            };
            let manifest = {
                let _guard = Interruptible::enter();
                pq_engine::family::write_family(&spec, &dir, verify.as_ref(), &mut |event| {
                    match event {
                        pq_engine::family::Event::Instance(e) if verify.is_some() => {
                            eprintln!("pq-sat: {}: {} ({})", e.file, e.expected, e.source)
                        }
                        pq_engine::family::Event::Instance(_) => {}
                        pq_engine::family::Event::Optimum {
                            member,
                            optimum,
                            seconds,
                        } => eprintln!(
                            "pq-sat: {}: optimum n = {optimum} ({seconds:.2} s)",
                            member.label()
                        ),
                    }
                })?
            };
            crate::bench::family(&manifest, &dir, format)?;
            Ok(0)
        }
        Job::Race {
            dir,
            solvers,
            timeout,
            jobs,
            plot,
            format,
        } => {
            let family = pq_engine::race::Family::load(&dir)?;
            let racers = solvers
                .into_iter()
                .map(|(label, spec)| {
                    Ok(pq_engine::race::Racer {
                        backend: spec
                            .resolve()
                            .with_context(|| format!("--solver '{label}'"))?,
                        label,
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            let total = family.formulas.len() * racers.len();
            let done = std::sync::atomic::AtomicUsize::new(0);
            let runs = {
                let _guard = Interruptible::enter();
                pq_engine::race::race(&family, &racers, timeout, jobs, &|r| {
                    let k = done.fetch_add(1, Ordering::SeqCst) + 1;
                    crate::bench::run_line(&family, &racers, r, k, total);
                })
            };
            let scores = pq_engine::race::scores(&runs, racers.len(), timeout);
            let secs = timeout.as_secs_f64();
            crate::bench::race(&family, &racers, &runs, &scores, secs, format)?;
            if let Some(path) = &plot {
                crate::bench::cactus(path, &family, &racers, &scores, secs)?;
            }
            let wrong = scores.iter().any(|s| s.wrong > 0);
            Ok(unless_interrupted(if wrong { 1 } else { 0 }))
        }
        Job::CheckProof {
            cnf,
            proof,
            proof_format,
            timeout,
            format,
        } => {
            let report = pq_engine::proof::check_proof(&cnf, &proof, proof_format, timeout)?;
            output::proof_report(&cnf, &proof, proof_format, &report, format)?;
            Ok(if report.verified { 0 } else { 1 })
        }
        Job::CheckCertificate {
            dir,
            timeout,
            format,
        } => {
            let (cert, items) = pq_engine::certificate::check_certificate(&dir, timeout)?;
            output::certificate_check(&dir, &cert, &items, format)?;
            Ok(if items.iter().all(|i| i.ok) { 0 } else { 1 })
        }
        Job::Solvers { format } => {
            output::solvers(&pq_solve::survey::survey(), format)?;
            Ok(0)
        }
        Job::Canon {
            path,
            problem,
            format,
        } => crate::commands::canon::run(path.as_deref(), problem.as_ref(), format),
        Job::SolveCnf { path, run, proof } => {
            let formula = match &path {
                Some(p) => {
                    let file =
                        File::open(p).with_context(|| format!("cannot open {}", p.display()))?;
                    dimacs::parse(BufReader::new(file))
                        .with_context(|| format!("cannot read {}", p.display()))?
                }
                None => {
                    let stdin = io::stdin();
                    if stdin.is_terminal() {
                        eprintln!(
                            "pq-sat: reading a DIMACS formula from standard input (give --dim D to encode a board, or --cnf FILE)"
                        );
                    }
                    dimacs::parse(stdin.lock()).context("cannot read standard input")?
                }
            };
            // A pq-sat formula's header says which rules its placement must obey, so the
            // answer can be decoded and validated like `solve --dim` or `solve --problem`.
            let problem = formula
                .pieces
                .as_ref()
                .and_then(|_| Problem::from_header(&formula.comments));
            if let Some(problem) = problem.as_ref().filter(|_| !is_queens_file(&formula)) {
                if proof.is_none() {
                    return solve_placement_file(problem, &formula, &run);
                }
            }
            let n = pq_encode::header::number(&formula.comments, "n");
            let (name, outcome, info) = match &proof {
                Some(proof) => {
                    let _guard = Interruptible::enter();
                    let (outcome, info) = solve_with_proof(
                        problem.as_ref(),
                        0,
                        &formula,
                        proof,
                        "the formula in the CNF file (clauses as given)".to_string(),
                        &Limits::timeout(run.timeout),
                    )?;
                    (outcome.solver.clone(), outcome, Some(info))
                }
                None => {
                    let backend = backend(&run.solvers)?;
                    let _guard = Interruptible::enter();
                    let outcome = solve_formula(
                        problem.as_ref(),
                        0,
                        &formula,
                        backend.as_ref(),
                        &Limits::timeout(run.timeout),
                    )?;
                    (backend.name(), outcome, None)
                }
            };
            output::cnf(&formula, n, name, &outcome, info.as_ref(), run.format)?;
            Ok(unless_interrupted(status_code(outcome.status)))
        }
    }
}

/// With `certify`, once the optimum is proven, writes its certificate bundle (the witness,
/// and a checked proof one above). An optimum that was not proven is an error.
fn certify_optimum(
    problem: &Problem,
    options: &pq_encode::Options,
    outcome: &pq_engine::optimise::OptimiseOutcome,
    certify: Option<&(std::path::PathBuf, pq_engine::proof::ProofFormat)>,
    solvers: &Solvers,
    limits: &RunLimits,
) -> Result<Option<(std::path::PathBuf, pq_engine::certificate::Certificate)>> {
    let Some((dir, format)) = certify else {
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
    let prover = match solvers {
        Solvers::Given(list) => list[0].clone(),
        Solvers::Default { .. } => pq_engine::proof::default_prover(*format),
    };
    let claim = pq_engine::certificate::claim(problem, optimum);
    eprintln!(
        "pq-sat: certifying {claim}: proving {} impossible with {prover} ({} proof)",
        optimum + 1,
        format.name().to_uppercase()
    );
    let request = pq_engine::certificate::Request {
        problem,
        optimum,
        witness,
        options: *options,
        prover,
        format: *format,
        solve_limits: limits.run.clone(),
        check_timeout: None,
    };
    let cert = pq_engine::certificate::write_certificate(dir, &request)
        .with_context(|| format!("cannot certify {claim} into {}", dir.display()))?;
    Ok(Some((dir.clone(), cert)))
}

/// Solves `formula` with the proof job's solver; on UNSAT the proof and its CNF are written.
fn prove_formula(
    formula: &pq_encode::Formula,
    job: &crate::cli::ProofJob,
    certifies: String,
    limits: &Limits,
) -> Result<(pq_engine::proof::Proved, output::ProofInfo)> {
    let prover = job
        .prover
        .clone()
        .unwrap_or_else(|| pq_engine::proof::default_prover(job.format));
    let proved = pq_engine::proof::prove(
        &prover,
        formula,
        &job.cnf_out,
        &job.proof,
        job.format,
        limits,
    )?;
    let info = output::ProofInfo {
        proof: job.proof.clone(),
        cnf: job.cnf_out.clone(),
        format: job.format,
        bytes: proved.proof_bytes,
        certifies,
    };
    Ok((proved, info))
}

/// [`prove_formula`], then the answer decoded into a validated placement of `problem`.
fn solve_with_proof(
    problem: Option<&Problem>,
    n: usize,
    formula: &pq_encode::Formula,
    job: &crate::cli::ProofJob,
    certifies: String,
    limits: &Limits,
) -> Result<(pq_engine::Outcome, output::ProofInfo)> {
    let (proved, info) = prove_formula(formula, job, certifies, limits)?;
    let outcome = pq_engine::pipeline::decoded(
        problem,
        n,
        formula,
        proved.answer,
        proved.solver,
        proved.seconds,
    )?;
    Ok((outcome, info))
}

/// True for a formula whose variable map is the peaceable queens' (`c var K white R C`):
/// its answer is shown as a queens board.
fn is_queens_file(formula: &pq_encode::Formula) -> bool {
    formula.pieces.as_ref().is_some_and(|m| m.is_queens())
        && pq_encode::header::is_queens(&formula.comments)
}

fn status_code(status: Status) -> u8 {
    match status {
        Status::Sat => EXIT_SAT,
        Status::Unsat => EXIT_UNSAT,
        Status::Unknown => 0,
    }
}

/// `solve --cnf` on a placement-problem formula whose rules were read back from its header.
fn solve_placement_file(
    problem: &pq_encode::spec::Problem,
    formula: &pq_encode::Formula,
    run: &crate::cli::RunSettings,
) -> Result<u8> {
    let backend = backend(&run.solvers)?;
    let outcome = {
        let _guard = Interruptible::enter();
        solve_formula(
            Some(problem),
            0,
            formula,
            backend.as_ref(),
            &Limits::timeout(run.timeout),
        )?
    };
    let options = pq_encode::header::options(&formula.comments);
    placement::check(
        problem,
        0,
        &options,
        &backend.name(),
        &outcome,
        None,
        run.format,
    )?;
    Ok(unless_interrupted(status_code(outcome.status)))
}

/// Writes through a temporary file in the same directory and renames it into place, so
/// that `path` is either the old file or the complete new one, never a half-written one.
pub(crate) fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("cannot create a file in {}", dir.display()))?;
    write(tmp.as_file_mut()).with_context(|| format!("cannot write {}", path.display()))?;
    tmp.as_file_mut()
        .sync_all()
        .with_context(|| format!("cannot write {}", path.display()))?;
    // Temporary files are created private (0600); the result is an ordinary file.
    tmp.as_file()
        .set_permissions(std::fs::Permissions::from_mode(0o644))
        .with_context(|| format!("cannot write {}", path.display()))?;
    tmp.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}
