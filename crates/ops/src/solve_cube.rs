//! `pq-sat solve-cube DIR ID`: one cube of a cube directory ([`pq_engine::cube`]), solved and
//! recorded in `DIR/results/ID.json`, or the proof that the cubes cover the formula.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Result;
use pq_engine::capability::Status;
use pq_engine::cube::conquer::{prove_completeness, record, solve_cube as solve_one, CubeDir};
use pq_engine::cube::{read_results, CubeSolver};
use pq_report::cube::{Completeness, CubeSolved};
use pq_report::emit;
use pq_solve::answer::Answer;
use pq_solve::backend::accept_all;
use pq_solve::control::Limits;

use crate::{open_cube_dir as open, status_code, unless_interrupted, Interruptible};

/// What `solve-cube` does.
#[derive(Debug)]
pub enum Task {
    /// Solve the cube with this id (from 1).
    Cube {
        /// The cube's id.
        id: usize,
        /// Leave a cube already decided as it is.
        resume: bool,
        /// Exit 0 whatever the answer (a scheduler's array task).
        exit_zero: bool,
    },
    /// Prove that the cubes cover the formula.
    Completeness,
}

/// A cube, or the cubes' completeness, to solve.
#[derive(Debug)]
pub struct SolveCube {
    /// The cube directory.
    pub dir: PathBuf,
    /// What to solve.
    pub task: Task,
    /// How it is solved.
    pub solver: CubeSolver,
    /// The limit, if any.
    pub timeout: Option<Duration>,
    /// How the report is printed.
    pub format: pq_report::Format,
}

impl SolveCube {
    /// Solves the cube and records its result (exit 10 or 20 as it says), or proves the
    /// cubes complete (exit 0; an error when they are not).
    pub fn run(&self) -> Result<u8> {
        let (a, solver) = (self, &self.solver);
        let dir = open(&a.dir)?;
        let (id, resume, exit_zero) = match a.task {
            Task::Completeness => return completeness(&dir, a, solver),
            Task::Cube {
                id,
                resume,
                exit_zero,
            } => (id, resume, exit_zero),
        };
        let cube = dir.manifest.cube(id)?.clone();
        let exit = |status: Status| if exit_zero { 0 } else { status_code(status) };
        if resume {
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
                emit(a.format, &report, || report.text(None, None))?;
                return Ok(exit(r.status));
            }
        }
        let limits = Limits::timeout(a.timeout);
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
        emit(a.format, &report, || {
            report.text(dir.problem.as_ref(), placement)
        })?;
        Ok(unless_interrupted(exit(solved.result.status)))
    }
}

/// `solve-cube DIR --completeness`: the formula plus the negation of every cube, which is
/// UNSAT when the cubes cover every model; with `--proof`, proved and kept for
/// `cube-status --check`.
fn completeness(dir: &CubeDir, a: &SolveCube, solver: &CubeSolver) -> Result<u8> {
    let limits = Limits::timeout(a.timeout);
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
    emit(a.format, &report, || {
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
