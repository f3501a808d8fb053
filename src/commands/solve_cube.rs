//! `pq-sat solve-cube DIR ID`: one cube of a cube directory ([`pq_engine::cube`]), solved and
//! recorded in `DIR/results/ID.json`, or with `--completeness` the proof that the cubes cover
//! the formula. The helpers here (opening the directory, the solving method) serve
//! `conquer` and `cube-status` too.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::Args as ClapArgs;
use pq_engine::cube::conquer::{prove_completeness, record, solve_cube as solve_one, CubeDir};
use pq_engine::cube::read_results;
use pq_engine::pipeline::Status;
use pq_solve::answer::Answer;
use pq_solve::backend::accept_all;
use pq_solve::control::Limits;

use super::{open_cube_dir as open, status_code, unless_interrupted, Interruptible};
use crate::args::{CubeSolver, CubeSolverArgs};
use pq_report::cube::{Completeness, CubeSolved};
use pq_report::emit;

/// `pq-sat solve-cube`.
#[derive(ClapArgs, Debug)]
pub(crate) struct SolveCubeArgs {
    #[command(flatten)]
    pub checking: crate::args::CheckUnsatArg,
    /// The cube directory (made by `pq-sat cube`)
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The cube's id (1 to the number of cubes: a job array's index, or a line of `seq`)
    #[arg(value_name = "ID", required_unless_present = "completeness")]
    pub id: Option<usize>,
    #[command(flatten)]
    pub solver: CubeSolverArgs,
    /// Instead of a cube, prove the cube set complete: the formula plus the negation of
    /// every cube is UNSAT (its proof goes to DIR/proofs/completeness.drat with --proof)
    #[arg(long, conflicts_with = "id")]
    pub completeness: bool,
    /// Do nothing when the cube already has a SAT or UNSAT result (print it): a
    /// resubmitted job array, or a rerun of the same list, solves only the open cubes
    #[arg(long)]
    pub resume: bool,
    /// Exit 0 whenever the answer was found and recorded, also for SAT and UNSAT (for job
    /// schedulers that count any other exit code as a failed job); errors still exit 1
    #[arg(long)]
    pub exit_zero: bool,
    #[command(flatten)]
    pub report: crate::args::FormatArg,
}

/// The cube to solve, validated.
#[derive(Debug)]
pub(crate) struct SolveCubeJob {
    /// The arguments as given.
    pub args: SolveCubeArgs,
    /// How the cube is solved.
    pub solver: CubeSolver,
}

impl SolveCubeArgs {
    /// Checks that the solver writes the proofs asked for.
    pub(crate) fn validate(self, check_unsat: bool) -> Result<SolveCubeJob, String> {
        let solver = self.solver.validated(check_unsat)?;
        Ok(SolveCubeJob { args: self, solver })
    }
}

/// `solve-cube DIR ID`: solves one cube and records its result.
fn run(job: &SolveCubeJob) -> Result<u8> {
    let (a, solver) = (&job.args, &job.solver);
    let dir = open(&a.dir)?;
    if a.completeness {
        return completeness(&dir, a, solver);
    }
    let id = a.id.expect("clap requires ID without --completeness");
    let cube = dir.manifest.cube(id)?.clone();
    let exit = |status: Status| if a.exit_zero { 0 } else { status_code(status) };
    if a.resume {
        let results = read_results(&dir.path, &dir.manifest)?;
        if let Some(r) = results[id - 1]
            .clone()
            .filter(|r| r.status != Status::Unknown)
        {
            let report = CubeSolved {
                dir: dir.path.display().to_string(),
                result: r.clone(),
                cube: cube.lits,
                witness: None,
                reason: Some("already decided (--resume)".into()),
                recorded: false,
            };
            emit(a.report.format.into(), &report, || report.text(None, None))?;
            return Ok(exit(r.status));
        }
    }
    let limits = Limits::timeout(a.solver.timeout);
    let mut backend = None;
    let method = solver.method(&mut backend)?;
    let solved = {
        let _guard = Interruptible::enter();
        solve_one(&dir, id, &method, &limits)?
    };
    let recorded = record(&dir, &solved, None)?;
    let placement = solved.outcome.placement.as_ref();
    let report = CubeSolved {
        dir: dir.path.display().to_string(),
        result: solved.result.clone(),
        cube: cube.lits,
        witness: (dir.problem.as_ref())
            .zip(placement)
            .map(|(p, pl)| pq_report::solve::Witness::of(p, pl)),
        reason: solved.outcome.reason.clone(),
        recorded,
    };
    emit(a.report.format.into(), &report, || {
        report.text(dir.problem.as_ref(), placement)
    })?;
    Ok(unless_interrupted(exit(solved.result.status)))
}

/// `solve-cube DIR --completeness`: the formula plus the negation of every cube, which is
/// UNSAT when the cubes cover every model; with `--proof`, proved and kept for
/// `cube-status --check`.
fn completeness(dir: &CubeDir, a: &SolveCubeArgs, solver: &CubeSolver) -> Result<u8> {
    let limits = Limits::timeout(a.solver.timeout);
    let start = Instant::now();
    let _guard = Interruptible::enter();
    let (answer, name, proof) = if let Some(format) = solver.proof {
        let check = solver.check_unsat.is_some();
        let (answer, name) = prove_completeness(dir, &solver.spec, format, check, &limits)?;
        let path = dir.completeness_proof_path(format);
        let proof = (answer == Answer::Unsat).then(|| path.display().to_string());
        (answer, name, proof)
    } else {
        let backend = solver.plain_backend()?;
        let (answer, name) =
            backend.solve_judged(&dir.completeness_formula(), &limits, &accept_all)?;
        (answer, name, None)
    };
    let status = match &answer {
        Answer::Unsat => "complete",
        Answer::Sat(_) => "incomplete",
        Answer::Unknown(_) => "unknown",
    };
    let report = Completeness {
        dir: dir.path.display().to_string(),
        status: status.into(),
        cubes: dir.manifest.cubes.len(),
        solver: name,
        seconds: start.elapsed().as_secs_f64(),
        proof,
        verified: (answer == Answer::Unsat).then_some(solver.check_unsat.is_some()),
    };
    emit(a.report.format.into(), &report, || {
        let mut text = match &answer {
            Answer::Unsat => format!(
                "complete: the formula plus the negation of each of the {} cubes is UNSAT ({}, {:.2} s{})\n",
                report.cubes,
                report.solver,
                report.seconds,
                if report.verified == Some(true) { ", proof checked" } else { "" }
            ),
            Answer::Sat(_) => format!(
                "INCOMPLETE: the formula has a model that none of the {} cubes covers ({})\n",
                report.cubes, report.solver
            ),
            Answer::Unknown(why) => format!("UNKNOWN whether the cubes are complete: {why}\n"),
        };
        if let Some(p) = &report.proof {
            text.push_str(&format!("proof: {p}\n"));
        }
        text
    })?;
    if matches!(answer, Answer::Sat(_)) {
        anyhow::bail!(
            "the cubes of {} are not complete: some model of the formula extends none of them, so their answers prove nothing (split the formula again)",
            dir.path.display()
        );
    }
    Ok(unless_interrupted(0))
}

impl super::Job for SolveCubeJob {
    fn run(self: Box<Self>) -> Result<u8> {
        run(&self)
    }
}
