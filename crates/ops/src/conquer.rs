//! `pq-sat conquer DIR`: every open cube of a cube directory solved on worker threads
//! ([`pq_engine::cube::conquer`]), or the Slurm job array that does it on a cluster (its
//! script is written by [`pq_report::slurm`]).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Result;
use pq_engine::capability::Status;
use pq_engine::cube::conquer::{conquer as conquer_cubes, CubeDir, Plan};
use pq_engine::cube::status::{summary, Verdict};
use pq_engine::cube::{read_results, CubeResult, CubeSolver};
use pq_io::output::WritePolicy;
use pq_report::cube::{ConquerReport, CubeTotals};
use pq_report::emit;
use pq_report::files::write_atomically;
use pq_report::progress::CubeProgress;
use pq_report::slurm::{script, Slurm};
use pq_solve::control::Limits;

use crate::open_cube_dir as open;
use crate::{unless_interrupted, Interruptible, EXIT_SAT, EXIT_UNSAT};

/// A conquest to run.
#[derive(Debug)]
pub struct Conquer {
    /// The cube directory.
    pub dir: PathBuf,
    /// Worker threads, each solving one cube at a time.
    pub jobs: usize,
    /// How each cube is solved.
    pub solver: CubeSolver,
    /// One in-process CaDiCaL per worker, solving its cubes under assumptions.
    pub incremental: bool,
    /// The limit per cube, if any.
    pub cube_timeout: Option<Duration>,
    /// Progress on stderr.
    pub progress: pq_report::ProgressMode,
    /// How the report is printed.
    pub format: pq_report::Format,
    /// The Slurm script to write instead of solving, if any.
    pub slurm: Option<SlurmScript>,
}

/// `conquer --emit slurm`: the job array's settings and where its script goes.
#[derive(Debug)]
pub struct SlurmScript {
    /// The scheduler's settings.
    pub settings: Slurm,
    /// The script's file; standard output when `None`.
    pub output: Option<PathBuf>,
    /// Whether the script may replace a file.
    pub force: bool,
}

impl Conquer {
    /// Solves every cube still open, or writes the Slurm script; the exit code is 10 or 20
    /// as the cubes decide, 0 while some are open.
    pub fn run(&self) -> Result<u8> {
        let (a, solver) = (self, &self.solver);
        let dir = open(&a.dir)?;
        if let Some(slurm) = &a.slurm {
            return emit_slurm(&dir, slurm, solver);
        }
        let jobs = a.jobs;
        let mut backend = None;
        let method = solver.method(&mut backend)?;
        let solver_name = if a.incremental {
            "cadical (incremental)".to_string()
        } else {
            solver.spec.to_string()
        };
        let plan = Plan {
            jobs,
            incremental: a.incremental,
            method,
            per_cube: a.cube_timeout,
        };
        let start = Instant::now();
        let total = dir.manifest.cubes.len();
        let before = read_results(&dir.path, &dir.manifest)?;
        let decided = (before.iter().flatten())
            .filter(|r| r.status != Status::Unknown)
            .count();
        let conquered = {
            let progress = CubeProgress::new(a.progress, total, decided, jobs);
            let _guard = Interruptible::enter();
            conquer_cubes(&dir, &plan, &Limits::none(), &mut |r: &CubeResult| {
                progress.done(r);
            })
        }?;
        let summary = summary(&dir)?;
        let placement = (conquered.sat.as_ref())
            .and_then(|s| s.outcome.placement.clone())
            .or_else(|| summary.witness.as_ref().and_then(|(_, p)| p.clone()));
        let mut totals = CubeTotals::of(&dir, &summary);
        if let (Some(s), Some(problem), Some(p)) = (&conquered.sat, &dir.problem, &placement) {
            // The SAT cube found now is the one reported (an earlier run may have found another).
            totals.sat_cube = Some(s.result.id);
            totals.witness = Some(pq_report::solve::Witness::of(problem, p));
        }
        let report = ConquerReport {
            totals,
            solved_now: conquered.solved_now,
            skipped: conquered.skipped,
            wall_seconds: start.elapsed().as_secs_f64(),
            jobs,
            incremental: a.incremental,
            solver: solver_name,
        };
        emit(a.format, &report, || {
            report.text(dir.problem.as_ref(), placement.as_ref())
        })?;
        Ok(unless_interrupted(match summary.verdict {
            Verdict::Sat => EXIT_SAT,
            Verdict::Unsat => EXIT_UNSAT,
            Verdict::Open => 0,
        }))
    }
}

/// `conquer --emit slurm`: an sbatch script running one array task per cube.
fn emit_slurm(dir: &CubeDir, a: &SlurmScript, solver: &CubeSolver) -> Result<u8> {
    let script = script(dir, &a.settings, solver)?;
    match &a.output {
        Some(path) => {
            write_atomically(path, WritePolicy::from_force(a.force), |w| {
                w.write_all(script.as_bytes())
            })?;
            pq_report::progress::note!(
                "pq-sat: wrote {}: submit it with `sbatch {}`, then `pq-sat cube-status {}`",
                path.display(),
                path.display(),
                dir.path.display()
            );
        }
        None => pq_report::emit_text(&script)?,
    }
    Ok(0)
}
