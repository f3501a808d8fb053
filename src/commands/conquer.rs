//! `pq-sat conquer DIR`: every open cube of a cube directory solved on `--jobs` workers
//! ([`pq_engine::cube::conquer`]), or `--emit slurm`: the job array that does it on a
//! cluster (its script is written by [`pq_report::slurm`]).

use super::files;
use pq_io::output::Output;
use std::path::Path;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::{Args as ClapArgs, ValueEnum};
use pq_engine::cube::conquer::{conquer as conquer_cubes, CubeDir, Plan};
use pq_engine::cube::status::{summary, Verdict};
use pq_engine::cube::{read_results, CubeResult};
use pq_engine::pipeline::Status;
use pq_io::output::WritePolicy;
use pq_solve::control::Limits;

use super::open_cube_dir as open;
use super::{unless_interrupted, Interruptible, EXIT_SAT, EXIT_UNSAT};
use crate::args::{parse_jobs, CubeSolver, CubeSolverArgs, ProgressMode};
use pq_report::cube::{ConquerReport, CubeTotals};
use pq_report::emit;
use pq_report::files::write_atomically;
use pq_report::progress::CubeProgress;
use pq_report::slurm::{script, Slurm};

/// What `conquer --emit` writes instead of solving.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Emit {
    /// An `sbatch` script: a Slurm job array with one task per cube
    Slurm,
}

/// `pq-sat conquer`.
#[derive(ClapArgs, Debug)]
pub(crate) struct ConquerArgs {
    #[command(flatten)]
    pub checking: crate::args::CheckUnsatArg,
    /// The cube directory (made by `pq-sat cube`)
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Worker threads, each solving one cube at a time [default: the number of cores]
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub solver: CubeSolverArgs,
    /// Each worker keeps one in-process CaDiCaL and solves its cubes under assumptions,
    /// keeping what it learnt from one cube to the next (no proofs)
    #[arg(long, conflicts_with_all = ["backend", "solver_cmd", "proof"])]
    pub incremental: bool,
    /// Progress on stderr: auto (a live line on a terminal, one line per cube otherwise),
    /// lines, or none
    #[arg(long, value_enum, default_value_t = ProgressMode::Auto)]
    pub progress: ProgressMode,
    #[command(flatten)]
    pub report: crate::args::FormatArg,
    /// Write a script for a cluster's scheduler instead of solving: slurm (an sbatch job
    /// array running `pq-sat solve-cube DIR $SLURM_ARRAY_TASK_ID` per cube)
    #[arg(
        long,
        value_enum,
        value_name = "ENGINE",
        conflicts_with = "incremental"
    )]
    pub emit: Option<Emit>,
    /// Where --emit writes the script (atomically) [default: standard output]
    #[arg(short, long, value_name = "FILE", requires = "emit")]
    pub output: Option<PathBuf>,
    /// Replace an existing --output
    #[arg(long, requires = "output")]
    pub force: bool,
    /// Slurm: each task's time limit (sbatch --time, e.g. 1:00:00)
    #[arg(
        long,
        value_name = "TIME",
        default_value = "1:00:00",
        requires = "emit"
    )]
    pub time: String,
    /// Slurm: each task's memory (sbatch --mem, e.g. 4G)
    #[arg(long, value_name = "MEM", default_value = "4G", requires = "emit")]
    pub mem: String,
    /// Slurm: at most M tasks at once (sbatch --array=1-N%M) [default: no limit]
    #[arg(long, value_name = "M", requires = "emit")]
    pub max_running: Option<usize>,
    /// Slurm: the partition (sbatch --partition)
    #[arg(long, value_name = "NAME", requires = "emit")]
    pub partition: Option<String>,
}

/// The conquest to run, validated.
#[derive(Debug)]
pub(crate) struct ConquerJob {
    /// The arguments as given.
    pub args: ConquerArgs,
    /// How each cube is solved.
    pub solver: CubeSolver,
}

impl ConquerArgs {
    /// Checks the solver and the scheduler's settings.
    pub(crate) fn validate(self, check_unsat: bool) -> Result<ConquerJob, String> {
        if self.max_running == Some(0) {
            return Err("--max-running must be at least 1".into());
        }
        let solver = self.solver.validated(check_unsat)?;
        Ok(ConquerJob { args: self, solver })
    }
}

/// `conquer DIR`: solves every cube still open on `--jobs` workers, or writes the Slurm
/// script of `--emit slurm`.
fn run(job: &ConquerJob) -> Result<u8> {
    let (a, solver) = (&job.args, &job.solver);
    let dir = open(&a.dir)?;
    if let Some(Emit::Slurm) = a.emit {
        return emit_slurm(&dir, a, solver);
    }
    let jobs = a.jobs.unwrap_or_else(crate::args::default_jobs);
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
        per_cube: a.solver.timeout,
    };
    let start = Instant::now();
    let total = dir.manifest.cubes.len();
    let before = read_results(&dir.path, &dir.manifest)?;
    let decided = (before.iter().flatten())
        .filter(|r| r.status != Status::Unknown)
        .count();
    let conquered = {
        let progress = CubeProgress::new(a.progress.into(), total, decided, jobs);
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
    emit(a.report.format.into(), &report, || {
        report.text(dir.problem.as_ref(), placement.as_ref())
    })?;
    Ok(unless_interrupted(match summary.verdict {
        Verdict::Sat => EXIT_SAT,
        Verdict::Unsat => EXIT_UNSAT,
        Verdict::Open => 0,
    }))
}

/// `conquer --emit slurm`: an sbatch script running one array task per cube.
fn emit_slurm(dir: &CubeDir, a: &ConquerArgs, solver: &CubeSolver) -> Result<u8> {
    let written_by = crate::args::command_line();
    let settings = Slurm {
        written_by: &written_by,
        partition: a.partition.as_deref(),
        time: &a.time,
        mem: &a.mem,
        max_running: a.max_running,
        timeout: a.solver.timeout,
    };
    let script = script(dir, &settings, solver)?;
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

impl super::Job for ConquerJob {
    fn outputs(&self) -> (Vec<Output<'_>>, bool) {
        (files("-o", &self.args.output), self.args.force)
    }
    fn input_dirs(&self) -> Vec<&Path> {
        vec![&self.args.dir]
    }
    fn run(self: Box<Self>) -> Result<u8> {
        run(&self)
    }
}
